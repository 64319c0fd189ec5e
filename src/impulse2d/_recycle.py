"""A dropped world's stores and step reference, taken by the next new world of the same
settings (issue 31 item 8: Gymnasium's LunarLander on the pybox2d layer makes a new world every
reset and drops the old one).

A new world costs, before its second step, what a later step never pays: ``World()`` copies
about 115 zeroed store columns (45-60 us; 200-250 us a reset measured inside a run of episodes,
with the machine's caches cold), dropping the old world frees them again (~40 us), and the
first step builds the stores' reference (unboxing ~150 arrays, 35-65 us) and fills the table
of kernels (``_fill_verbs``, 20-40 us). A world that only its maker held (the layer proves it:
``compat._b2release``) can instead be :func:`keep`-t, and :func:`take` hands it to the next
new world of the same settings in the state ``World()`` gives: every store column zeroed in
place (the reference reads the same arrays; the first take lays them out in one buffer,
:func:`_zeroed`, so that later ones zero it in one call), every attribute the settings do not
decide made afresh by ``World._renew`` (the part of ``World.__init__`` that does not make the
settings, the lock, the kernel table, the length tolerances and the packed settings row, which
are kept), the empty contact and constraint stores put into the kept reference, its awake sets
and their kept grids marked stale as a new reference's are (``awake.new_state``: the static
grid, the resting grid and the contact edges are then built again, or checked against the
shapes, by the first step, as for a new world), and the kernel table's counters and the clock
zeroed. The settings object, the table of kernels and the joint rows they were filled for are
kept when the new world's settings are the kept world's (every field but the sweep counts,
which the maker sets anew: ``compat.b2World`` hands them over), so the first step takes the
usual step's path; ``World._joint_rows`` gives the kept rows back when the new world's joints
have the same rows (:func:`._joint_index.joint_index`). A kept world taken for other settings
runs the whole ``World.__init__`` on its zeroed stores.

What makes it the same world, bit for bit: ``tests/test_recycle.py`` compares a taken world's
stores with ``World()``'s, column by column, and episodes of LunarLander-like worlds on
recycled and on new worlds, step by step; ``benchmarks/layer_hashes.py`` gives main's hashes
(Gymnasium's LunarLander, whose every reset takes a recycled world).

Only worlds whose stores have a new world's capacities, with sleeping on, no custom laws, not
the ``direct`` solver, not stepping and nothing queued after a step are kept; at most
:data:`_MAX` (one per settings key, the newest).
"""

from __future__ import annotations

import weakref
from operator import is_, itemgetter

import numpy as np

from ._core.jit import DirectCall, kernel
from ._dynamics.awake import new_state
from ._dynamics.verbs import DIRECT_COUNT_NAMES, DIRECT_COUNTS, DIRECT_DENSE
from ._dynamics.world_ref import flags_cleared, put_contact_stores, stores_for_step
from . import _empty_stores
from .settings import WorldSettings
from .world import World, _check_gravity

_MAX = 4
_KEPT: dict = {}
"""settings key -> (world, what the maker keeps with it)."""

ROWS = (16, 16, 4)
"""The body, shape and joint store capacities of a new world (``World.__init__``): a world
whose stores grew is not kept (its step would see longer columns than a new world's)."""

_NOT_COMPARED = ("velocity_iterations", "position_iterations", "_derived", "_lock")
"""What a kept world's settings may differ in from a new world's: the sweeps, which the maker
sets before each step (``compat.b2World.Step``), and the settings' packed form and lock."""

_COUNTERS = slice(DIRECT_COUNTS, DIRECT_COUNTS + len(DIRECT_COUNT_NAMES))

ALIGN = 64
"""Byte alignment of each column in a packed world's buffer (a cache line; the snapshots'
buffers use the same, ``_snapshot_copy.ALIGN``)."""

_PACKED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""world -> (its body, shape and joint stores, the one buffer every column of them views):
a recycled world's stores laid out in one buffer (:func:`_zeroed`), which the next take of
that world zeroes in one call. Held weakly (a world that goes takes its entry with it) and
outside the world's attributes (snapshots copy those)."""


def keep(world, key, extra=None) -> bool:
    """Keep ``world``, which nothing but the caller holds (nor any of its handles), for a new
    world of ``key`` (hashable: the maker's settings changes; None: not kept); ``extra`` is
    given back with it. Whether it was kept."""
    d = world.__dict__
    built = d.get("_stores_built_from")
    stores = (d.get("_bodies"), d.get("_shapes"), d.get("_joints"))
    settings = d.get("_settings")
    if (key is None or built is None or d.get("_stores") is None
            or built[0] is not stores[0] or built[1] is not stores[1]
            or built[2] is not stores[2] or built[6] is not d.get("_diagnostics")
            or tuple(store.alive.shape[0] for store in stores) != ROWS
            or d["_lock"].stepping or d["_lock"].after or d["_laws"]
            or settings.solver == "direct" or not settings.enable_sleep
            or d["_diagnostics"].shape[0] or d["_verbs"].item(DIRECT_DENSE) != 0):
        return False
    if len(_KEPT) >= _MAX and key not in _KEPT:
        _KEPT.pop(next(iter(_KEPT)))
    _KEPT[key] = (world, extra)
    return True


def take(key, world_class, gravity, changes: dict):
    """``(world, extra)``: a kept world of ``key`` as ``world_class(gravity, **changes)``
    would make it, and what :func:`keep` was given with it; or None (none kept)."""
    gravity = _check_gravity(gravity)  # (a bad one raises before the kept world is taken)
    entry = _KEPT.pop(key, None)
    if entry is None:
        return None
    world, extra = entry
    d = world.__dict__
    stores, packed_now = _zeroed(world, (d["_bodies"], d["_shapes"], d["_joints"]))
    if (world_class.__init__ is not World.__init__
            or not _same_settings(d["_settings"], key, changes)):
        # other settings: a new world in all but its memory (its settings, kernel table and
        # reference new, its maker's sweeps not handed over)
        with _empty_stores.lent(stores):
            world_class.__init__(world, gravity, **changes)
        return world, None
    # everything the settings do not decide as World() makes it, on the kept (zeroed)
    # stores; the settings, lock, kernel table, length tolerances, packed settings row and
    # the reference kept (with the reference, every array it shares with the world: the
    # packed settings row too, which World._ready rewrites in place when the sweeps or the
    # settings change), its clock, counters and awake sets' state made a new world's
    world._renew(gravity, *stores)
    if packed_now:
        # stores packed just now, which the kept reference does not read: a reference built
        # for them (once for the world's life), with the joint rows the table was filled for,
        # as the kept one held them (the first step then keeps it when its joints' rows are
        # the same, as it keeps a kept reference)
        _new_counts(d)
        d["_stores_built_from"] = None
        stores_for_step(world, d["_verbs_for"][1])
        return world, extra
    # the new world's empty contact stores into the kept reference, with its clock, counters
    # and awake state (False: it was not built from these stores; then the first step builds
    # one, as a new world's)
    if not _put_empty_contacts(world):
        d["_stores"] = d["_stores_built_from"] = None
        d["_verbs_for"] = (None, None)
    return world, extra


_NEW_AWAKE = new_state()
"""A new reference's awake sets' state (``awake.new_state``), copied into a kept one."""


def _new_counts(d: dict) -> None:
    """A kept world's (``d``: its ``__dict__``) stage clock and kernel table's counters
    zeroed and its awake sets' state a new reference's, as :func:`_renewed_reference` makes
    them through the reference."""
    d["_clock"].fill(0)
    d["_verbs"][_COUNTERS] = 0
    d["_awake_state"][:] = _NEW_AWAKE


def _same_settings(kept, key, changes: dict) -> bool:
    """Whether the ``kept`` settings are a new world's of ``changes`` (the settings of the
    keep ``key``) in every field but :data:`_NOT_COMPARED`: the fields read in one call and
    compared with a new world's as one tuple (the names and values taken once per key)."""
    expected = _EXPECTED.get(key)
    if expected is None:
        new = WorldSettings._with_changes(**changes).__dict__
        read = itemgetter(*(name for name in new if name not in _NOT_COMPARED))
        if len(_EXPECTED) >= 64:
            _EXPECTED.clear()
        expected = _EXPECTED[key] = (read, read(new))
    read, values = expected
    return read(kept.__dict__) == values


_EXPECTED: dict = {}
"""keep key -> (a getter of the compared settings fields, their values in a new world's
settings of the key's changes): the changes validated and the settings made once per key."""


_FIRST_COUNTER, _END_COUNTER = _COUNTERS.start, _COUNTERS.stop


@kernel
def _renewed_reference(ref, template):
    """``ref`` (a kept world's reference) made a new world's where the step reads it: its
    contact and constraint stores ``template``'s (the reference of a world never stepped:
    :data:`_TEMPLATE`), its stage clock and kernel table's counters zeroed, its awake sets'
    state the template's (a new reference's: :func:`_new_counts` in one call with the rest)."""
    ref.contacts = template.contacts
    ref.constraints = template.constraints
    # (element loops: slice assignments compile to broadcasting code, 4 CPU s more)
    clock = ref.clock
    for k in range(clock.shape[0]):
        clock[k] = 0
    verbs = ref.verbs
    for k in range(_FIRST_COUNTER, _END_COUNTER):
        verbs[k] = 0
    state, new = ref.awake_state, template.awake_state
    for k in range(state.shape[0]):
        state[k] = new[k]


_renew_reference = DirectCall(_renewed_reference, "a kept world's reference renewed", 1.0)

_TEMPLATE: list = []
"""``[reference, contacts, constraints]`` of a world never stepped (made at the first use):
its contact and constraint stores are a new world's, of no rows, whose arrays every new
world shares (``_empty_stores.empty_store``: the step replaces such a store, never writes
it)."""


def _put_empty_contacts(world) -> bool:
    """``put_contact_stores(world, world._contacts, world._constraints)`` for the new,
    empty contact and constraint stores ``World.__init__`` just made, with :func:`_new_counts`:
    what the world's reference then holds, the same arrays, taken from the reference of a
    world never stepped (:data:`_TEMPLATE`) rather than passed (a call that passes the two
    stores unboxes their 41 arrays: 45-60 us of a reset inside a run of episodes at load 10,
    against 25-35 this way, measured 2026-11-29, though the two cost the same in a loop), and
    the counts reset in the same call (:func:`_renewed_reference`: three NumPy calls fewer);
    the general call when those are not the template's arrays."""
    d = world.__dict__
    contacts, constraints = d["_contacts"], d["_constraints"]
    if not _TEMPLATE:
        template = World()
        _TEMPLATE.extend((stores_for_step(template), template._contacts,
                          template._constraints))
    ref, empty_contacts, empty_constraints = _TEMPLATE
    built = d["_stores_built_from"]
    if (built is None or d["_stores"] is None or d["_contacts_stale"]
            or not all(map(is_, contacts, empty_contacts))
            or not all(map(is_, constraints, empty_constraints))):
        _new_counts(d)
        return put_contact_stores(world, contacts, constraints)
    if built[0] is not d["_bodies"] or built[1] is not d["_shapes"] or built[2] is not d["_joints"]:
        _new_counts(d)
        return False
    _renew_reference.entry(d["_stores"], ref)
    d["_constraints_stale"] = False
    flags_cleared(d)
    d["_stores_built_from"] = (built[0], built[1], built[2], contacts, constraints, built[5],
                               built[6])
    return True


def _zeroed(world, stores: tuple) -> tuple:
    """``(stores, packed_now)``: ``world``'s body, shape and joint ``stores`` zeroed, as
    ``World()`` makes them. Zeroing the columns one by one (114 ``fill`` calls, 30 us warm and
    about twice that inside a run of episodes) was the largest part of making a kept world
    new; so the first take of a world lays its stores out anew as views of one zeroed buffer
    (``packed_now``: the step reference must then be built again, once for the world's
    life), and every later take zeroes that buffer in one call. The columns are the same
    C-contiguous, aligned arrays of the same dtypes and shapes (the kernels take them as they
    took the old ones; a store that grows is replaced by separate arrays, and such a world is
    not kept)."""
    packed = _PACKED.get(world)
    if packed is not None and all(a is b for a, b in zip(packed[0], stores)):
        packed[1].fill(0)
        return stores, False
    columns = [column for store in stores for column in store]
    offsets, end = [], 0
    for column in columns:
        offsets.append(end)
        end += -(-column.nbytes // ALIGN) * ALIGN
    raw = np.zeros(end + ALIGN, dtype=np.uint8)
    shift = -raw.__array_interface__["data"][0] % ALIGN
    buffer = raw[shift:shift + end]
    views = iter([buffer[o:o + c.nbytes].view(c.dtype).reshape(c.shape)
                  for o, c in zip(offsets, columns)])
    packed = tuple(tuple.__new__(type(store), [next(views) for _ in store]) for store in stores)
    _PACKED[world] = (packed, buffer)
    return packed, True


def clear() -> None:
    """Forget every kept world (tests)."""
    _KEPT.clear()


__all__ = ["ROWS", "clear", "keep", "take"]
