"""Snapshots of a world: save, restore, copy and pickle, bit for bit.

A world's state is its attributes: structure-of-arrays stores (bodies, shapes, joints,
contacts with their warm-start impulses, contact constraints), id pools with their free rows,
the maps from bodies to shapes and joints, the event tracker, settings, gravity, counters,
handles and user data. :func:`take` copies all of them, generically: every ``World``
attribute is copied by its kind, so that a column, a store or an attribute added later is
carried without a change here. Each attribute is either

* **copied**: stores (NamedTuples of arrays) column by column, arrays, containers and plain
  objects of the package (an ``IdPool``, the ``EventTracker``) recursively, scalars as they are;
* **rebuilt** (:data:`REBUILT`): what belongs to this process, not to the world: the reference
  through which the step kernel reaches the stores (a Numba structure of pointers), the
  table of addresses of the compiled kernels the step calls, and the queries' grid
  (:mod:`._collision.query_index`, which holds the addresses of the arrays it indexes). Restoring drops them and the next
  step rebuilds them (0.1 ms at 1,000 bodies, no compilation: the kernels are the process's).
  The table's slots that count what the ``direct`` solver did are state, not addresses: they are
  copied;
* **the world's own** (``_uid``): a snapshot restores only into the world it was taken from;
* **handles** (attributes named ``_*_handles``: row -> handle): a snapshot keeps the handle
  objects themselves, so that restoring gives back the very objects the program holds; pickled,
  it keeps their rows and classes, and unpickling makes handles of the new world;
* **user data** (attributes named ``_*_user_data``): held by reference (a snapshot does not copy
  the program's objects); pickling pickles them, ``copy.deepcopy(world)`` deep-copies them.

The attributes today, and what happens to each:

========================================  ==================================================
copied                                    ``_bodies``, ``_shapes``, ``_joints``, ``_contacts``,
                                          ``_constraints`` (stores); ``_body_pool``,
                                          ``_shape_pool``, ``_joint_pool`` (free rows);
                                          ``_body_shapes``, ``_body_joints``; ``_events`` (the
                                          touching and sensing keys, the last step's events,
                                          the sensor count); ``_joint_index`` and
                                          ``_live_rows`` (caches, copied rather than rebuilt,
                                          so that the restored world solves the rows the
                                          original would); ``_gravity``,
                                          ``_clock``, ``_step_seconds``, ``time``,
                                          ``step_count``; ``_callbacks`` (the pair filter and
                                          pre-solve functions, by reference, and the filter's
                                          memory of the pairs it was asked about);
                                          ``_diagnostics``, ``_stats_solver`` (the last step's
                                          solver record); ``_lengths`` (the tolerances in the
                                          settings' unit, written again by the next step),
                                          ``_step_settings`` (the step row: the settings as
                                          the step reads them, likewise; gravity, the dirty
                                          pairs' flag, the sleeping counts and the joints'
                                          reaction scale, which ``World._pairs_dirty``,
                                          ``_sleepers``, ``_fell_asleep`` and
                                          ``_joint_inv_h`` read)
validated copy                            ``_settings`` (through ``WorldSettings.replace``)
rebuilt by the next step                  ``_stores``, ``_stores_built_from``,
                                          ``_awake_state`` (the reference's awake sets),
                                          ``_step_ready`` (what the step's checks read),
                                          ``_constraints_stale`` and ``_contacts_stale`` (synced
                                          first), ``_verbs`` (its
                                          ``direct`` counters copied), ``_verbs_for`` (the
                                          packed settings made again when the last step had
                                          them, so that it does not re-read them either)
the process's, made again on use          ``_snapshot_plan`` (the fast path's addresses of the
                                          store columns, :mod:`._snapshot_copy`)
the world's own, not copied               ``_lock`` (the step's lock and the after-step
                                          queue: functions of this process; a copy starts
                                          with none queued, a restore keeps the world's)
the world's own                           ``_uid``
handles / user data                       ``_body_handles``, ``_shape_handles``,
                                          ``_joint_handles`` / ``_body_user_data``,
                                          ``_shape_user_data``
========================================  ==================================================

``queries``, ``_sleep`` and ``events`` keep no state of a world outside it (their compiled
kernels are module-level ``DirectCall`` objects, the process's).

A new ``World`` attribute that holds something of the process (a compiled function, a
pointer) must be added to :data:`REBUILT`; ``tests/test_snapshot.py`` pickles a world that has
run every service, so such an attribute fails there.

**The fast path** (:mod:`._snapshot_copy`): a snapshot copies every column of the stores, and
the world's numeric arrays but the clock (the step row, the length tolerances:
:func:`_in_plan`), into one buffer in one compiled call, through a plan of the world's column
addresses that is kept while those stores and arrays are the same objects, and shows them as
stores and arrays only when asked (pickling, a restore the fast path does not take). The other
attributes are walked by a recipe the plan keeps (:func:`_take_recipe`), and a copy the last
snapshot made that still holds what the world's holds (equal maps of rows and id pools, a
tracker and callbacks holding the very same unchangeable values) is shared rather than made
again: a snapshot never changes what it holds. Restoring a snapshot into the world it was taken
from, in the process that took it, while the world's stores have the layout they had then (the
same columns, rows and types: nothing created or destroyed past a store's capacity since), is
one compiled copy into the world's own arrays (its step row and tolerances among them), the
clock copied in place too, and the rest as below; the settings are kept as the world's own
object when they have not changed since (their packed form, which any change clears, is the one
of then), and so are the joint rows, which the world replaces rather than changes, and the id
pools when equal to the snapshot's (:func:`_counts`); a plain object holding nothing that can
change (the event tracker of a world without events: :func:`_frozen`) is restored as a new
object holding the same values, without a walk. The step's reference to the stores and its table
of kernels then stay good, and the step after the restore does not rebuild them. Every other
restore, and every snapshot loaded from bytes, takes the checked path below; both give the same
bits. A batch restores many worlds at once (:func:`restore_many`: every fast world's stores in
one copy), and the snapshots of a batch's copies of one world share one buffer
(:func:`share_buffers`).

Restoring checks everything before it writes anything: a snapshot of another world, of another
version of the stores (a column missing, added, or of another type) or anything else raises
and leaves the world as it was.

Determinism: a world restored from a snapshot, unpickled or deep-copied steps to the same bits
as the original, because every number the step reads is copied exactly and the step itself is
deterministic (see :func:`state_hash`).
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import itertools
import operator
import os
import uuid
from itertools import chain
from operator import is_

import numpy as np

from . import _lock, _sleep, events
from . import _snapshot_copy as _fast
from ._core.address import address as _address
from ._handle import Handle
from ._stepping import NOT_READY
from ._stores_epoch import bump as stores_replaced
from ._dynamics.contact_lanes import sync_constraint_rows
from ._dynamics.step import _settings_arguments
from ._dynamics.world_ref import put_contact_stores, sync_constraints, sync_contacts
from ._dynamics.verbs import DIRECT_COUNT_NAMES, DIRECT_COUNTS, DIRECT_DENSE, new_table
from .settings import WorldSettings

FORMAT = 2
"""Version of the snapshot's layout (not of the stores: those are checked column by column).
2: the step row (``_step_settings``) holds gravity, the dirty pairs' flag, the sleeping counts
and the joints' reaction scale (26 slots, 18 before), which the step kernel reads; a format-1
pickle's shorter row would be read past its end, so it is refused with the error below."""

_COUNTS = slice(DIRECT_COUNTS, DIRECT_COUNTS + len(DIRECT_COUNT_NAMES))
"""The slots of the table of verbs that are counters (state); all others are addresses, or
settings that the next step writes again."""

REBUILT = ("_stores", "_stores_built_from", "_awake_state", "_verbs", "_verbs_for",
           "_query_index", "_query_spare", "_constraints_stale", "_contacts_stale", "_lock",
           "_step_ready", _fast.PLAN)
"""World attributes that belong to the process, not copied: rebuilt by the next step, or, for
``_lock``, the world's own (its after-step queue holds this process's functions)."""

_UID = "_uid"
_SETTINGS = "_settings"
_HANDLES = "_handles"
_USER_DATA = "_user_data"
WATCHED = ("_body_user_data", "_shape_user_data")
"""The user data a batch's seat watches (``_batch_worlds._Watched``: a read marks the world's
next restore in full), which :func:`restore_untouched` need not copy."""
_ATOMS = (type(None), bool, int, float, complex, str, bytes, np.bool_, np.int64, np.float64)
_ATOM_TYPES = frozenset(_ATOMS)
_SETTING_NAMES = tuple(f.name for f in dataclasses.fields(WorldSettings))
_get_settings = operator.attrgetter(*_SETTING_NAMES)
_JOINT_ROWS = "_joint_index"
_ROWS_MAP = "rows map"
_SAME_ROWS = "joint rows"
_SHARED = frozenset(map(id, events.SHARED))
"""Objects copied by reference (:data:`.events.SHARED`: constants nobody changes)."""
_CONTACT_STORES = frozenset(("_contacts", "_constraints"))


def new_uid() -> str:
    """A world's identity, which its snapshots carry: 32 hex digits, the process's random
    prefix (80 bits, drawn again in a forked child) and a count of the worlds it made. A
    ``uuid4`` per world cost about 5 us of ``World()`` (a Gymnasium reset makes one)."""
    return f"{_UID_PREFIX[0]}{next(_UID_COUNT):012x}"


def _draw_uid_prefix() -> None:
    _UID_PREFIX[0] = uuid.uuid4().hex[:20]


_UID_PREFIX = [""]
_UID_COUNT = itertools.count()
_draw_uid_prefix()
if hasattr(os, "register_at_fork"):  # (POSIX: a forked child's worlds are not its parent's)
    os.register_at_fork(after_in_child=_draw_uid_prefix)


class Snapshot:
    """The whole state of a :class:`~impulse2d.World` at one moment, from ``world.snapshot()``.

    ``world.restore(snapshot)`` puts it back (as often as wanted: restoring copies it again);
    ``pickle.dumps(snapshot)`` gives it as bytes, which ``pickle.loads`` turns back into a
    snapshot that restores into the same world, in this process or, after that world itself
    was pickled and loaded, in another (its handles are then rebuilt from their rows).
    ``time`` and ``step_count`` are the world's at the moment it was taken; ``nbytes`` is the
    size of its arrays.
    """

    __slots__ = ("_uid", "_state", "_handles", "_user_data", "_settings", "_counts",
                 "_settings_seen", "_rows_maps", "_unchecked", "_buffer", "_start", "_layout",
                 "_others", "_shown", "_settings_ref", "_derived", "_rows_ref", "_recipe",
                 "_source_addresses", "_again")

    def __init__(self, uid, state, handles, user_data, settings, counts, settings_seen,
                 rows_maps, fast=None):
        self._uid = uid
        self._state = state                  # attribute -> copied value
        self._handles = handles              # attribute -> {row: handle} or {class: rows}
        self._user_data = user_data          # attribute -> {row: object}
        self._settings = settings            # field -> value
        self._counts = counts                # the direct solver's counters (verbs table tail)
        self._settings_seen = settings_seen  # had the last step packed the present settings?
        self._rows_maps = rows_maps          # attributes that are dicts of lists of rows
        self._unchecked = False              # loaded from bytes: its numbers not yet checked
        # The fast path's (None for a snapshot taken the checked way or loaded from bytes): the
        # buffer holding every store column and where they start, the plan's (layout, offsets,
        # sizes) and its other attributes, whether the stores were put into _state as views of
        # the buffer yet, and the world's settings object, its packed form and its joint rows
        # at the moment taken.
        (self._buffer, self._start, self._layout, self._others, self._settings_ref,
         self._derived, self._rows_ref) = fast or (None,) * 7
        self._shown = fast is None
        self._recipe = None  # (made by the first fast restore: _make_recipe)
        self._source_addresses = None  # (likewise: _sources)
        self._again = None  # (likewise: _make_recipe)

    def _make_recipe(self) -> tuple:
        """How the fast restore writes the attributes other than stores (``self._others``),
        worked out once: ``(atoms, others)``, the values that cannot change (numbers,
        strings, None, tuples of them: shared, as :func:`_copy` shares them) as a dict the
        world's takes in one update, and ``(name, kind, value)`` for the rest, ``kind`` one
        of user data (handles too: both copied as dicts), a map of rows, the joint rows, a
        frozen object, an id pool or None (copied)."""
        atoms, others = {}, []
        state, rows_maps = self._state, self._rows_maps
        for name in self._others:
            # (a fast snapshot's handles are its world's own objects: copied as the user data)
            if name.endswith(_HANDLES):
                others.append((name, _USER_DATA, self._handles[name]))
            elif name.endswith(_USER_DATA):
                others.append((name, _USER_DATA, self._user_data[name]))
            else:
                value = state[name]
                kind = type(value)
                if kind in _ATOM_TYPES or (kind is tuple
                                           and set(map(type, value)) <= _ATOM_TYPES):
                    atoms[name] = value
                elif name in rows_maps:
                    others.append((name, _ROWS_MAP, value))
                elif name == _JOINT_ROWS:
                    others.append((name, _SAME_ROWS, value))
                elif _PLAIN.get(kind) and all(map(_frozen, value.__dict__.values())):
                    others.append((name, _FROZEN, value))
                elif _PLAIN.get(kind) and all(map(_counts, value.__dict__.values())):
                    others.append((name, _COUNTS_KEPT, value))
                else:
                    others.append((name, None, value))
        self._recipe = (atoms, tuple(others))
        # what a restore of a world untouched since the last one copies (restore_untouched):
        # the user data no seat watches (a handle's user_data written marks nothing)
        self._again = tuple((name, value) for name, kind, value in others
                            if kind is _USER_DATA and name.endswith(_USER_DATA)
                            and name not in WATCHED)
        return self._recipe

    def _sources(self) -> np.ndarray:
        """The address of each store column's bytes in the buffer (int64, the plan's order),
        for :func:`._snapshot_copy.copy_in` and :func:`~._snapshot_copy.copy_in_many` (found
        once: the buffer does not move)."""
        if self._source_addresses is None:
            self._source_addresses = self._layout[1] + (_address(self._buffer) + self._start)
        return self._source_addresses

    def _full_state(self) -> dict:
        """Every attribute's copy, the stores included (shown as views of the buffer)."""
        if not self._shown:
            self._state.update(_fast.views(self._layout, self._buffer, self._start))
            self._shown = True
        return self._state

    @property
    def time(self) -> float:
        return float(self._state["time"])

    @property
    def step_count(self) -> int:
        return int(self._state["step_count"])

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in _arrays(self._full_state()))

    def __repr__(self) -> str:
        return (f"<impulse2d Snapshot: step {self.step_count}, t = {self.time:g} s, "
                f"{self.nbytes / 1e6:.2f} MB of arrays>")

    # Pickled, a snapshot keeps its handles as rows per class (the objects belong to a world)
    # and its stores as columns by name (so that bytes from a version with other columns load,
    # and restoring them says what differs, rather than the NamedTuple failing to unpickle).
    def __getstate__(self):
        handles = {name: _rows_by_class(value) if _live(value) else value
                   for name, value in self._handles.items()}
        state = {name: _Columns(value) if _is_store(value) else value
                 for name, value in self._full_state().items()}
        return (FORMAT, self._uid, state, handles, self._user_data, self._settings,
                self._counts, self._settings_seen, self._rows_maps)

    def __setstate__(self, state):
        if not (isinstance(state, tuple) and len(state) == 9 and state[0] == FORMAT):
            raise ValueError("this is not an impulse2d snapshot of this version (format "
                             f"{FORMAT}); it cannot be loaded")
        (_, self._uid, stores, self._handles, self._user_data, self._settings,
         self._counts, self._settings_seen, self._rows_maps) = state
        self._state = {name: value.store() if isinstance(value, _Columns) else value
                       for name, value in stores.items()}
        self._unchecked = True
        (self._buffer, self._start, self._layout, self._others, self._settings_ref,
         self._derived, self._rows_ref) = (None,) * 7
        self._shown = True
        self._recipe = self._source_addresses = self._again = None


class _Columns(dict):
    """A store as pickled: its columns by name, and its NamedTuple class."""

    def __init__(self, store=None):
        super().__init__(zip(store._fields, store) if store is not None else ())
        self.kind = type(store) if store is not None else None

    def store(self):
        """The store again, or these columns as they are when the class's fields differ."""
        if self.kind is not None and tuple(self) == self.kind._fields:
            return self.kind(**self)
        return self


# -- taking ------------------------------------------------------------------------------------
def _skipped(name: str) -> bool:
    """Attributes a snapshot does not copy (the process's, and the world's own)."""
    return name in REBUILT or name == _UID or name == _SETTINGS


_OWN_COPY = frozenset({"_clock"})
"""Arrays the plan leaves to the walk: the stages' cycle counts, which differ between a batch's
copies of one world in one state, whose snapshots share one buffer only where its bytes agree
(:func:`share_buffers`)."""


def _in_plan(name: str, value) -> bool:
    """Does the fast path's plan copy this attribute: a store, or an array
    (:func:`._snapshot_copy.is_array`) but the clock?"""
    return _is_store(value) or (_fast.is_array(value) and name not in _OWN_COPY)


def take(world) -> Snapshot:
    """A :class:`Snapshot` of ``world`` (copies of all its state; the world is not changed)."""
    d = vars(world)
    if d["_constraints_stale"]:
        sync_constraints(world)  # the step's newest constraint store, if Python has not seen it
    if d["_contacts_stale"]:
        sync_contacts(world)  # and contact store (a batch step leaves it in the reference)
    plan = _fast.plan_for(world, _in_plan, _skipped)
    if plan is not None:
        return _take_fast(world, plan)
    state, handles, user_data, stores, rows_maps = {}, {}, {}, {}, set()
    for name, value in vars(world).items():
        if name in REBUILT or name in (_UID, _SETTINGS):
            continue
        if name.endswith(_HANDLES):
            handles[name] = dict(value)
        elif name.endswith(_USER_DATA):
            user_data[name] = dict(value)
        elif _is_store(value):
            stores[name] = value
        elif _is_rows_map(value):
            rows_maps.add(name)
            state[name] = _copy_rows_map(value)
        else:
            state[name] = _copy(value)
    state.update(_copy_stores(stores))
    settings = world._settings
    fields = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}
    packed = world._verbs_for[0]
    seen = packed is not None and packed is settings._derived
    # The direct solver's counters, and whether the world has asked for LAPACK's Cholesky
    # (verbs.DIRECT_DENSE: the restored world factors its dense blocks as this one would).
    dense = world._verbs[DIRECT_DENSE]
    asked = not (isinstance(dense, (int, np.integer)) and dense == 0)
    counts = np.append(np.array(world._verbs[_COUNTS], dtype=np.int64), np.int64(asked))
    return Snapshot(world._uid, state, handles, user_data, fields, counts, seen,
                    frozenset(rows_maps))


_N_COUNTS = len(DIRECT_COUNT_NAMES)


def share_buffers(snapshots) -> None:
    """Make the snapshots among ``snapshots`` whose stores hold the same bytes in the same
    layout (the copies of one world, as ``WorldBatch.replicate`` makes them and an
    environment snapshots them as built) hold one buffer, the first one's: a buffer is only
    read once taken (a restore copies out of it; only :func:`adopt` hands one to a world, and
    only a snapshot made for it), so one serves them all. The memory of the copies' stores is
    saved, and a restore of many worlds reads one buffer, which stays in the cache."""
    kept, valid = {}, {}
    for snapshot in snapshots:
        buffer = snapshot._buffer
        if buffer is None:
            continue
        layout, offsets, sizes = snapshot._layout
        mask = valid.get(layout)  # (equal layouts: the same offsets and sizes)
        if mask is None:
            # the columns' bytes, not the alignment's padding (not written: any bytes)
            mask = np.zeros(int(offsets[-1] + sizes[-1]) if len(sizes) else 0, dtype=bool)
            for offset, size in zip(offsets.tolist(), sizes.tolist()):
                mask[offset:offset + size] = True
            valid[layout] = mask
        start = snapshot._start
        first = kept.setdefault((layout, buffer[start:start + mask.shape[0]][mask].tobytes()),
                                snapshot)
        if first is not snapshot:
            snapshot._buffer, snapshot._start = first._buffer, first._start
            snapshot._source_addresses = None


def _take_recipe(plan, d: dict) -> tuple:
    """How :func:`_take_fast` walks ``plan.others`` (``d``: the world's attributes), worked
    out once a plan: ``(handles, user_data, atoms, rest)``, tuples of names, and the atoms'
    values now. Handles and user data are dicts copied in C, the atoms (attributes holding
    numbers, strings or None when the recipe was made) taken in C after one test of their
    types (the walk's tests were about 4,000 instructions an attribute, ~89,000 of a 10-body
    world's 138,000); the rest walked by :func:`_take_fast`. Made again when an atom no longer
    is one."""
    recipe = plan.take
    if recipe is not None:
        atoms = tuple(map(d.__getitem__, recipe[2]))
        if _ATOM_TYPES.issuperset(map(type, atoms)):
            return recipe, atoms
    handles, user_data, atoms, rest = [], [], [], []
    for name in plan.others:
        (handles if name.endswith(_HANDLES) else user_data if name.endswith(_USER_DATA)
         else atoms if type(d[name]) in _ATOM_TYPES else rest).append(name)
    recipe = plan.take = (tuple(handles), tuple(user_data), tuple(atoms), tuple(rest))
    return recipe, tuple(map(d.__getitem__, recipe[2]))


def _take_fast(world, plan) -> Snapshot:
    """:func:`take` through ``plan``: the stores in one copy, the other attributes as ever."""
    d = vars(world)
    (handle_names, data_names, atom_names, rest), atoms = _take_recipe(plan, d)
    get = d.__getitem__
    handles = dict(zip(handle_names, map(dict.copy, map(get, handle_names))))
    user_data = dict(zip(data_names, map(dict.copy, map(get, data_names))))
    state = dict(zip(atom_names, atoms))
    rows_maps = set()
    # Maps of rows found so by the last snapshot are not checked again (the check of the two
    # was about 8 us of a 10-body world's 44 us snapshot, under load); were one not, its copy
    # would raise (list.copy of another type), not copy it wrong.
    known = plan.rows_maps
    # The last snapshot's copies of the maps of rows and the id pools: a snapshot never
    # changes what it holds, so one equal to the world's value is shared rather than copied
    # again (a comparison of such values, ints in lists and dicts, is equality of their bits;
    # the copies were about 11,000 instructions a map and a pool of a 10-body world). So is
    # a plain object whose copy holds the very objects the world's holds (the event tracker
    # and the callbacks without events or callbacks: _copy shared every value, each one that
    # cannot change; their walk by _copy was about 34,000 and 15,000 instructions).
    last = plan.copies
    for name in rest:
        value = d[name]
        kept = last.get(name)
        if kept is not None and type(value) is type(kept[0]) and kept[1](value, kept[0]):
            state[name] = kept[0]
            if kept[1] is operator.eq:
                rows_maps.add(name)
        elif type(value) is dict and (name in known or _is_rows_map(value)):
            rows_maps.add(name)
            copied = _copy_rows_map(value)
            last[name] = (copied, operator.eq)
            state[name] = copied
        elif name == _JOINT_ROWS:
            state[name] = value  # shared: the world replaces its joint rows, never changes them
        elif type(value) is np.ndarray:  # (the few arrays not in the plan: no call)
            state[name] = value.copy() if value.size else value
        elif type(value) is tuple and _ATOM_TYPES.issuperset(map(type, value)):
            state[name] = value  # (numbers: gravity) it cannot change
        else:  # (a plain object of the package, a list; an atom that was not one before)
            copied = state[name] = _copy(value)
            if _PLAIN.get(type(copied)):
                if all(map(_counts, vars(copied).values())):
                    last[name] = (copied, _equal_attributes)  # (an id pool)
                elif _same_items(vars(copied), vars(value)):
                    last[name] = (copied, _same_attributes)  # (the tracker without events)
    rows_maps = frozenset(rows_maps)
    if rows_maps == known:
        rows_maps = known  # (one object for all the snapshots)
    else:
        plan.rows_maps = frozenset(name for name in rows_maps if d[name])
    buffer, start = _fast.copy_out(plan)
    settings = world._settings
    derived = settings._derived
    memo = plan.settings
    if derived is not None and memo[0] is settings and memo[1] is derived:
        fields = memo[2]  # unchanged since the last snapshot (any change clears the packed form)
    else:
        fields = dict(zip(_SETTING_NAMES, _get_settings(settings)))  # (54 of them: 2 us)
        plan.settings = (settings, derived, fields)
    seen = derived is not None and world._verbs_for[0] is derived
    verbs = world._verbs
    counts = np.empty(_N_COUNTS + 1, dtype=np.int64)
    counts[:_N_COUNTS] = verbs[_COUNTS]
    counts[_N_COUNTS] = verbs.item(DIRECT_DENSE) != 0  # (the JIT's table: int64 addresses)
    return Snapshot(world._uid, state, handles, user_data, fields, counts, seen, rows_maps,
                    (buffer, start, (plan.layout, plan.offsets, plan.sizes), plan.others,
                     settings, derived, d.get(_JOINT_ROWS)))


def _copy_stores(stores: dict) -> dict:
    """Copies of the stores ``stores`` (name -> store), every column in one fresh buffer.

    One buffer rather than a fresh array per column: a 5,000-body world's 160 columns (14 MB)
    copied into arrays of their own took 9.6 ms, nearly all of it the kernel handing out and
    zeroing fresh pages one at a time; into one buffer 0.9 ms (the kernel backs a large
    allocation with huge pages), measured on the 2-core CI machine. Each column is a view
    aligned to 64 bytes, a C-contiguous array as the kernels take it."""
    columns = [column for store in stores.values() for column in store]
    if any(column.dtype.hasobject for column in columns):
        return {name: _copy(store) for name, store in stores.items()}
    sizes = [-(-column.nbytes // 64) * 64 for column in columns]
    buffer = np.empty(sum(sizes) + 64, dtype=np.uint8)
    start = -buffer.ctypes.data % 64
    copies = []
    for column, size in zip(columns, sizes):
        view = buffer[start:start + column.nbytes].view(column.dtype).reshape(column.shape)
        np.copyto(view, column)
        copies.append(view)
        start += size
    out, k = {}, 0
    for name, store in stores.items():
        out[name] = type(store)(*copies[k:k + len(store)])
        k += len(store)
    return out


def _copy(value):
    """An independent copy of a world attribute (or of a part of one).

    The leaves (numbers, strings, arrays) are copied inline rather than by a call each: a
    10-body world's snapshot walks about 50 of them (the event tracker's empty arrays, the id
    pools' lists); the walk of the attributes other than stores, a call a leaf, was about 30
    us of a 44 us snapshot (measured on the 2-core machine under load)."""
    kind = type(value)
    if kind in _ATOM_TYPES:  # (a set, not the tuple: a small world's snapshot meets ~150)
        return value
    if kind is np.ndarray:
        # (an empty array holds no number to change: shared; many of the event tracker's are)
        return value.copy() if value.size else value
    if id(value) in _SHARED:
        return value
    plain = _PLAIN.get(kind)
    if plain:
        # A plain object of the package (IdPool, EventTracker): its attributes, copied.
        clone = object.__new__(kind)
        clone.__dict__.update(_copy_items(value.__dict__))
        return clone
    if kind is list or kind is tuple:
        if _ATOM_TYPES.issuperset(map(type, value)):  # (checked in C: 5000 rows, 0.1 ms)
            return value[:]  # (a tuple's own: it cannot change)
        copied = [_copy_leaf(x) for x in value]
        if kind is list:
            return copied
        if all(x is y for x, y in zip(copied, value)):
            return value  # a tuple of what cannot change (empty arrays, numbers): shared
        return tuple(copied)
    if kind is dict:
        if value and type(next(iter(value.values()))) is list and _is_rows_map(value):
            return _copy_rows_map(value)
        return _copy_items(value)
    if _is_store(value):
        return kind(*[column.copy() for column in value])
    if plain is None and kind.__module__.startswith("impulse2d.") \
            and hasattr(value, "__dict__") and not hasattr(kind, "__slots__"):
        _PLAIN[kind] = True
        return _copy(value)
    _PLAIN[kind] = False
    return copy.deepcopy(value)


def _copy_leaf(x):
    """:func:`_copy` of one item, its leaves without a call (see there)."""
    kind = type(x)
    if kind in _ATOM_TYPES:
        return x
    if kind is np.ndarray:
        return x.copy() if x.size else x
    return _copy(x)


def _copy_items(d: dict) -> dict:
    """A copy of the dict ``d``, its values copied by :func:`_copy` (leaves and lists of
    numbers inline: an id pool's free rows)."""
    out = {}
    for k, x in d.items():
        kind = type(x)
        if kind in _ATOM_TYPES:
            out[k] = x
        elif kind is np.ndarray:
            out[k] = x.copy() if x.size else x
        elif kind is list and _ATOM_TYPES.issuperset(map(type, x)):
            out[k] = x[:]
        else:
            out[k] = _copy(x)
    return out


_PLAIN: dict = {}
"""type -> whether :func:`_copy` copies its objects attribute by attribute (learnt per type)."""

_FROZEN = "frozen"
_COUNTS_KEPT = "counts"
_COUNT_TYPES = frozenset((bool, int, str, type(None)))


def _frozen(x) -> bool:
    """Does ``x`` hold nothing that can change (a number, a string, None, an empty array, one
    of :data:`.events.SHARED`, or a tuple of such)? A snapshot's plain object whose attributes
    all are (the event tracker of a world without events) is restored as a new object holding
    the same values: its walk by :func:`_copy` was about 6,000 instructions of a 10-body
    world's restore."""
    kind = type(x)
    if kind in _ATOM_TYPES or id(x) in _SHARED:
        return True
    if kind is np.ndarray:
        return x.size == 0
    return kind is tuple and all(map(_frozen, x))


def _equal_attributes(a, b) -> bool:
    return a.__dict__ == b.__dict__


def _same_attributes(a, b) -> bool:
    return _same_items(a.__dict__, b.__dict__)


def _same_items(a: dict, b: dict) -> bool:
    """Do ``a`` and ``b`` (attribute dicts) hold the very same objects under the very same
    names, in the same order? (Identity only: no value's ``==`` is called, an array's would
    compare its elements.)"""
    return len(a) == len(b) and all(map(is_, a, b)) and all(map(is_, a.values(), b.values()))


def _counts(x) -> bool:
    """Is ``x`` an int, a bool, a string, None, or a list of ints? A snapshot's plain object
    whose attributes all are (an id pool: its free rows and its count) restores by a comparison
    (``==`` of such values is equality of their bits) and keeps the world's own object when
    equal: a copy of each of three pools was about 10,000 instructions of a 10-body world's
    restore."""
    kind = type(x)
    return kind in _COUNT_TYPES or (kind is list and set(map(type, x)) <= {int})


def _is_rows_map(value) -> bool:
    """Is ``value`` a dict of lists of ints (rows -> rows: each body's shapes and joints)?
    Checked in C (0.9 ms for 5,000 bodies); such a dict is copied in C (0.7 ms, where the
    generic walk of :func:`_copy` takes 5 ms) and restored by a comparison when it has not
    changed (0.3 ms)."""
    if type(value) is not dict:
        return False
    values = value.values()
    return set(map(type, values)) <= {list} and set(map(type, chain.from_iterable(values))) \
        <= {int}


def _copy_rows_map(value: dict) -> dict:
    return dict(zip(value.keys(), map(list.copy, value.values())))


def _is_store(value) -> bool:
    return (isinstance(value, tuple) and hasattr(value, "_fields") and len(value) > 0
            and all(type(column) is np.ndarray for column in value))


def _arrays(value):
    """Every array inside a copied value."""
    if type(value) is np.ndarray:
        yield value
    elif isinstance(value, (tuple, list)):
        for x in value:
            yield from _arrays(x)
    elif isinstance(value, dict):
        for x in value.values():
            yield from _arrays(x)
    elif hasattr(value, "__dict__") and type(value).__module__.startswith("impulse2d."):
        yield from _arrays(vars(value))


def _live(handles: dict) -> bool:
    """Does this handle map hold handle objects (rather than rows per class, once pickled)?"""
    return not handles or isinstance(next(iter(handles.values())), Handle)


def _rows_by_class(handles: dict) -> dict:
    by_class: dict[type, list[int]] = {}
    for row, handle in handles.items():
        by_class.setdefault(type(handle), []).append(row)
    return {cls: np.array(rows, dtype=np.int64) for cls, rows in by_class.items()}


# -- restoring ---------------------------------------------------------------------------------
def restore(world, snapshot, *, adopt: bool = False) -> None:
    """Put ``snapshot`` back into ``world``, which it must be of; or, with ``adopt``, make a
    fresh ``world`` (as unpickling and copying make it) take over ``snapshot``'s state, arrays
    and all, without copying them again: the snapshot is then spent."""
    if not isinstance(snapshot, Snapshot):
        raise TypeError(f"snapshot must be a Snapshot (from World.snapshot()), got "
                        f"{type(snapshot).__name__}")
    if not adopt and snapshot._uid != world._uid:
        raise ValueError("this snapshot was taken of another world; restore it into that world "
                         "(to copy a world, use copy.deepcopy(world) or pickle the world)")
    if not adopt and snapshot._buffer is not None and _restore_fast(world, snapshot):
        return
    # Check everything first, so that a bad snapshot changes nothing.
    settings = WorldSettings().replace(**snapshot._settings)
    state = snapshot._full_state()
    mine = {name for name in vars(world) if name not in REBUILT and name not in (_UID, _SETTINGS)
            and not name.endswith(_HANDLES) and not name.endswith(_USER_DATA)}
    if set(state) != mine:
        raise ValueError(f"this snapshot does not match this version of the World (attributes "
                         f"{sorted(set(state) ^ mine)} differ); it cannot be restored")
    names = set(vars(world))
    for group in (snapshot._handles, snapshot._user_data):
        if not set(group) <= names:
            raise ValueError(f"this snapshot does not match this version of the World (no "
                             f"attribute {sorted(set(group) - names)})")
    for name, value in state.items():
        if _is_store(value) or isinstance(value, _Columns) or _is_store(getattr(world, name)):
            _check_store(name, value, getattr(world, name))
    if snapshot._unchecked:
        # Bytes may come from anywhere; a snapshot taken in this process copies a world, which
        # holds no NaN (1.5 ms of a 5000-body world's restore, so checked once, here only).
        for value in state.values():
            if _is_store(value) and any(column.dtype.kind == "f" and np.isnan(column).any()
                                        for column in value):
                raise ValueError("this snapshot holds NaN; it cannot be restored")
    counts = np.asarray(snapshot._counts)
    table = new_table()
    n_counts = table[_COUNTS].shape[0]
    if counts.shape not in ((n_counts,), (n_counts + 1,)):  # (+1: the LAPACK flag)
        raise ValueError("this snapshot's solver counters do not match this version")

    # Write.
    fresh = {}
    for name, value in state.items():
        current = getattr(world, name)
        if adopt:
            # (a map of rows or an id pool may be shared with the other snapshots of the world
            # it was taken of: _take_fast; the stores are the snapshot's own)
            setattr(world, name, value if _is_store(value) else _copy(value))
        elif _is_store(value) and _same_shapes(value, current):
            # Into the world's own arrays: no fresh memory (see _copy_stores), and the step's
            # reference to the store stays good.
            for column, saved in zip(current, value):
                np.copyto(column, saved)
        elif _is_store(value):
            fresh[name] = value
        elif name in snapshot._rows_maps:
            if current != value:  # (lists of ints: equal means the same bits)
                setattr(world, name, _copy_rows_map(value))
        else:
            setattr(world, name, _copy(value))
    for name, value in _copy_stores(fresh).items():
        setattr(world, name, value)
    for name, handles in snapshot._handles.items():
        setattr(world, name, _handles_for(world, handles, getattr(world, name)))
    for name, data in snapshot._user_data.items():
        setattr(world, name, dict(data))
    world._settings = settings
    _lock.bind(settings, world._lock)  # the world's lock holds its settings too
    table[_COUNTS] = counts[:n_counts]
    if counts.shape[0] > n_counts and counts[n_counts] != 0:
        table[DIRECT_DENSE] = -1   # asked for: the step's table filling gives its address
    world._verbs = table
    world._stores = None
    world._stores_built_from = None
    stores_replaced()  # (a batch checks its worlds' step references again)
    world._constraints_stale = False  # the snapshot's store is the world's now
    world.__dict__["_contacts_stale"] = False  # (its contact store too: read above, so synced)
    # The queries' grids hold addresses of the arrays they were built on.
    world._query_index = world._query_spare = None
    # The step re-fills the table (by _verbs_for); a step that saw the present settings did not
    # re-read them, so neither does the restored world's (it would wake sleepers when sleeping
    # is off, say): their packed form is made now, as that step had it.
    world._verbs_for = (_settings_arguments(settings) if snapshot._settings_seen else None, None)
    snapshot._unchecked = False


def _restore_fast(world, snapshot) -> bool:
    """Restore ``snapshot`` (taken of ``world`` in this process, by :func:`_take_fast`) through
    the world's plan, if its stores have the snapshot's layout; False (nothing written) if not.

    Nothing here can fail half-way: the snapshot was made by this process from this world, and
    its layout and attributes are the world's own, which is all the checked path verifies of
    such a snapshot before it writes."""
    # Contact stores that a step left in its reference (newer than Python's, see
    # world_ref.sync_contacts) are about to be overwritten: rather than boxing them (about
    # 40 us), Python's are restored and put into the reference in their place (below).
    d = vars(world)
    unsynced = d["_contacts_stale"] or d["_constraints_stale"]
    plan = _fast.plan_for(world, _in_plan, _skipped)
    layout = snapshot._layout[0]
    if plan is None or not (plan.others is snapshot._others or plan.others == snapshot._others):
        return False
    if plan.layout is layout or plan.layout == layout:
        _fast.copy_in(plan, snapshot._sources())
    else:
        # Store by store: those of the same rows in place, the others (a contact store of
        # another length, a store grown since) replaced by copies; the step's reference is
        # then rebuilt by the next step, which finds a store replaced.
        if len(plan.layout) != len(layout):
            return False
        same, other = [], []
        for k, (mine, theirs) in enumerate(zip(plan.layout, layout)):
            if mine == theirs:
                same.append(k)
            elif mine[:2] == theirs[:2] and len(mine[2]) == len(theirs[2]) and all(
                    a[0] == b[0] and a[1][1:] == b[1][1:] for a, b in zip(mine[2], theirs[2])):
                other.append(layout[k][0])
            else:
                return False
        if same:
            _fast.copy_in(plan, snapshot._sources(), same)
        copies = _fast.copied_stores(snapshot._layout, snapshot._buffer, snapshot._start,
                                     other)
        d = vars(world)
        # Usually only the contact stores differ (another number of pairs): they go into the
        # step's reference as they are, rather than making the next step build a new one.
        if copies.keys() <= _CONTACT_STORES and put_contact_stores(
                world, copies.get("_contacts", d["_contacts"]),
                copies.get("_constraints", d["_constraints"])):
            unsynced = False
        else:
            for name, value in copies.items():
                d[name] = value  # (not the _contacts property: its staleness is settled below)
            stores_replaced()  # (a batch checks its worlds' step references again)
    _restore_rest(world, snapshot, unsynced)
    return True


def restore_many(worlds, snapshots) -> list:
    """Restore ``snapshots[k]`` into ``worlds[k]`` for each ``k`` (each a :class:`Snapshot`
    of its world, distinct worlds, checked by the caller: ``WorldBatch.restore``), with the
    bits of :func:`restore` one world at a time. The worlds whose stores have their snapshot's
    layout (the fast path's usual case: an environment's worlds restored as built) have every
    store column of all of them written in one compiled copy; the others are restored one at
    a time. Then each world's other attributes, as :func:`_restore_fast` writes them. Returns
    each world's plan where it was restored through it in that copy, else None."""
    same, plans = [], []
    for world, snapshot in zip(worlds, snapshots):
        plan = _same_layout(world, snapshot)
        plans.append(plan)
        if plan is None:
            restore(world, snapshot)
        else:
            same.append((world, snapshot, plan))
    if not same:
        return plans
    _fast.copy_in_many([plan for _, _, plan in same],
                       [snapshot._sources() for _, snapshot, _ in same])
    for world, snapshot, _ in same:
        d = vars(world)
        _restore_rest(world, snapshot, d["_contacts_stale"] or d["_constraints_stale"])
    return plans


def restore_untouched(d: dict, snapshot) -> None:
    """The attributes of the world of attributes ``d`` restored from ``snapshot`` again, where
    the world sits in a batch, was last restored from it by :func:`restore_many`'s copy and has
    been touched by nothing but its batch's steps since (:mod:`._batch_restore`, which copies
    its stores and clock, puts its contact stores back in its reference and sets its seat's
    clock, counts and query index kind): of what :func:`_restore_rest` writes, what a step, or
    the program without a mark, changes. That is the step's ready flag, the stale flags (the
    reference holds Python's stores again), the query indexes (the spare is binned on the
    shapes as they were: a moved static shape would stay in its old cells) and the user data
    that no seat watches (a handle's ``user_data`` written marks nothing; World's own, read
    only through their attributes, mark the world's next restore in full when read:
    :data:`WATCHED`, so an untouched world holds the very copies its last restore made).

    The rest holds the very objects that restore left, which nothing changed: the id pools,
    the maps of rows, the joint rows, the handles, which only a marked call makes or drops,
    the event tracker and callbacks, the settings and their table, and the atoms (gravity,
    the live rows, the solver's record: each written through the world's attributes, which
    marks it). The atoms a step writes unmarked (the clock, the step count, the step's
    seconds) a seated world reads from its seat, not from here (:mod:`._batch_worlds`: its
    entries are written from the seat before anything reads them, :func:`._batch_worlds.
    flush`). Each entry written or read here is in a dict out of the cache (1,024 landers'),
    so the atoms' six writes and the user data's reads and copies are left out (-2.2 and
    -2.5 us a restart: BENCHMARKS.md session 32)."""
    d["_step_ready"] = NOT_READY
    d["_constraints_stale"] = d["_contacts_stale"] = False
    d["_query_index"] = d["_query_spare"] = None
    for name, value in snapshot._again:  # (made with its recipe: _make_recipe; usually none)
        d[name] = value.copy()


def _same_layout(world, snapshot):
    """``world``'s plan if ``snapshot`` (of ``world``) restores through it in one copy of its
    buffer (taken by the fast path, the world's attributes and store layout those of then);
    else None."""
    if snapshot._buffer is None:
        return None
    plan = _fast.plan_for(world, _in_plan, _skipped)
    if plan is None or not (plan.others is snapshot._others or plan.others == snapshot._others):
        return None
    layout = snapshot._layout[0]
    return plan if plan.layout is layout or plan.layout == layout else None


def _restore_rest(world, snapshot, unsynced: bool) -> None:
    """:func:`_restore_fast` after the stores' copy: Python's contact stores put into the
    step's reference if a step left newer ones there (``unsynced``), the attributes other than
    stores, the settings, the counters and the flags."""
    d = vars(world)
    # The usual step's flag (_stepping.step_world): what follows writes the callbacks and the
    # table's record, without a bump when the stores kept their layout (the other restore bumps)
    d["_step_ready"] = NOT_READY
    if unsynced and not put_contact_stores(world, d["_contacts"], d["_constraints"]):
        stores_replaced()  # the next step builds the reference from Python's stores
    atoms, others = snapshot._recipe or snapshot._make_recipe()
    d.update(atoms)
    for name, kind, value in others:
        if kind is _USER_DATA:  # (and handles: see _make_recipe)
            d[name] = value.copy()
        elif kind is _FROZEN:  # (the event tracker without events: nothing to copy in it)
            clone = object.__new__(type(value))
            clone.__dict__.update(value.__dict__)
            d[name] = clone
        elif kind is _COUNTS_KEPT:  # (an id pool: kept when nothing was made or destroyed)
            current = d[name]
            if type(current) is not type(value) or current.__dict__ != value.__dict__:
                d[name] = _copy(value)
        elif kind is _ROWS_MAP:
            if d[name] != value:  # (lists of ints: equal means the same bits)
                d[name] = _copy_rows_map(value)
        elif kind is _SAME_ROWS and d[name] is snapshot._rows_ref:
            pass  # the very rows of then (the world replaces them, never changes them)
        else:
            current = d[name]
            if (type(value) is np.ndarray and type(current) is np.ndarray
                    and value.shape == current.shape and value.dtype == current.dtype):
                current[...] = value  # in place: the step's reference may hold it
            else:
                d[name] = _copy(value)
    settings = world._settings
    counts = snapshot._counts
    verbs = world._verbs
    n_counts = _COUNTS.stop - _COUNTS.start
    asked = counts.shape[0] > n_counts and counts[n_counts] != 0
    if (settings is snapshot._settings_ref
            and (settings._derived is snapshot._derived is not None
                 # (taken before the settings were packed, by a first step: the same values)
                 or snapshot._derived is None
                 and dict(zip(_SETTING_NAMES, _get_settings(settings))) == snapshot._settings)
            # (the JIT's table: int64 addresses; without it, objects: != 0 all the same)
            and (verbs.item(DIRECT_DENSE) != 0) == asked):
        # The settings of then, unchanged: the world keeps them, its table and its reference.
        verbs[_COUNTS] = counts[:n_counts]
        seen = world._verbs_for[0] is settings._derived
        if seen != snapshot._settings_seen:
            world._verbs_for = (settings._derived if snapshot._settings_seen else None, None)
    else:
        settings = WorldSettings._with_changes(**snapshot._settings)
        world._settings = settings
        _lock.bind(settings, world._lock)
        table = new_table()
        table[_COUNTS] = counts[:n_counts]
        if asked:
            table[DIRECT_DENSE] = -1
        world._verbs = table
        world._stores = None
        world._stores_built_from = None
        stores_replaced()
        world._verbs_for = (_settings_arguments(settings) if snapshot._settings_seen else None,
                            None)
    world._constraints_stale = False
    world.__dict__["_contacts_stale"] = False  # (synced above; its store is the world's now)
    world._query_index = world._query_spare = None
    _sleep.awake_changed(world)  # the reference's awake sets are the rows of before


def _same_shapes(a, b) -> bool:
    return type(a) is type(b) and all(x.shape == y.shape for x, y in zip(a, b))


# Columns whose row count is not their store's: the wide contact solver's lanes, padded to
# whole chunks of rows (_dynamics/contact_lanes.py).
_PADDED_COLUMNS = frozenset({("_constraints", "lanes")})


def _check_store(name: str, value, current) -> None:
    """``value`` (from a snapshot) must be a store of the same columns as ``current``."""
    def fail(why):
        raise ValueError(f"this snapshot does not match this version of the World: {name} "
                         f"{why}; it cannot be restored")

    if isinstance(value, _Columns) and _is_store(current):
        fail(f"has the columns {tuple(value)}, this version {current._fields}")
    if not (_is_store(value) and _is_store(current)):
        fail("is not a store of arrays")
    if type(value) is not type(current) or value._fields != current._fields:
        fail(f"has the columns {value._fields}, this version {current._fields}")
    rows = len(value[0])
    for field, column, ours in zip(value._fields, value, current):
        if column.dtype != ours.dtype or column.shape[1:] != ours.shape[1:]:
            fail(f"column {field} is {column.dtype}{column.shape[1:]}, this version "
                 f"{ours.dtype}{ours.shape[1:]}")
        if len(column) != rows and (name, field) not in _PADDED_COLUMNS:
            fail(f"column {field} has {len(column)} rows, the others {rows}")


def _handles_for(world, handles: dict, current: dict) -> dict:
    """``world``'s handles for a snapshot's: the snapshot's own objects when they are handles of
    ``world``; else (pickled, or copied to another world) new ones, re-using those of
    ``current`` that stand for the same (row, generation)."""
    if _live(handles):
        if not handles or next(iter(handles.values()))._world is world:
            return dict(handles)
        handles = _rows_by_class(handles)
    out = {}
    for cls, rows in handles.items():
        generation = getattr(world, cls._store_name).generation
        for row in rows.tolist():
            g = int(generation[row])
            old = current.get(row)
            out[row] = old if type(old) is cls and old._generation == g else cls(world, row, g)
    return dict(sorted(out.items()))


# -- copying -----------------------------------------------------------------------------------
def deep_copy(world, memo: dict):
    """``copy.deepcopy(world)``: an independent world, its user data deep-copied (a handle
    inside user data becomes the copy's handle)."""
    clone = object.__new__(type(world))
    memo[id(world)] = clone
    snap = take(world)
    adopt(clone, snap)
    for name, handles in snap._handles.items():
        theirs = getattr(clone, name)
        for row, handle in handles.items():
            memo[id(handle)] = theirs[row]
    for name, data in snap._user_data.items():
        setattr(clone, name, copy.deepcopy(data, memo))
    return clone


def adopt(world, snapshot: Snapshot) -> None:
    """Make ``world`` (a fresh object, as unpickling and copying make it) a new world holding
    ``snapshot``'s state, with an identity of its own. The snapshot is spent (its arrays are
    the world's now): only for snapshots made for the purpose."""
    type(world).__init__(world)
    restore(world, snapshot, adopt=True)


# -- hashing -----------------------------------------------------------------------------------
_MOTION = ("origin", "angle", "v", "w")
_SCRATCH_COLUMNS = frozenset({("_constraints", "lanes"), ("_constraints", "lane_end"),
                              ("_constraints", "in_lanes")})
"""Columns left out of the hash: the wide contact solver's lanes, colour runs and flag
(_dynamics/contact_lanes.py), which the step writes before it reads them and which say nothing
the rows do not once read back (``sync_constraint_rows``, below), so that the wide solver
leaves every hash as it was."""


def state_hash(world, motion_only: bool = False) -> str:
    """A hex digest (BLAKE2b, 128 bits) of the physical state of ``world``: every column of the
    live rows of its bodies, shapes and joints (all but ``generation``, which counts how often
    a row was re-used), and every row of its contacts and contact constraints (warm-start
    impulses included), with the columns' names, types and shapes.

    ``motion_only``: the live bodies' positions, angles and velocities only (what Box2D v3's
    determinism test hashes): the same digest across versions that add a column or a store,
    changed only by a change of the motion itself.

    Two worlds with the same hash are in the same state, bit for bit; see the README's
    "Determinism" for when two runs give the same hash and what may change it.
    """
    sync_constraint_rows(world)
    sync_contacts(world)
    digest = hashlib.blake2b(digest_size=16)
    for name, store in sorted(vars(world).items()):
        if not _is_store(store) or (motion_only and name != "_bodies"):
            continue
        rows = np.flatnonzero(store.alive) if "alive" in store._fields else slice(None)
        for field, column in zip(store._fields, store):
            if (field == "generation" or (motion_only and field not in _MOTION)
                    or (name, field) in _SCRATCH_COLUMNS):
                continue
            part = np.ascontiguousarray(column[rows])
            part = part.astype(part.dtype.newbyteorder("<"), copy=False)
            digest.update(f"{name}.{field}:{part.dtype.str}{part.shape}".encode())
            digest.update(part.tobytes())
    return digest.hexdigest()


def platform_key() -> str:
    """What, besides the scene and the program, decides the bits of a run here: the CPU
    architecture and OS, the C library (its ``sin``, ``cos``, ``atan2``: Python's and the
    kernels'), Python (``math.fsum``, ``math.hypot`` in the mass properties), NumPy and Numba
    (LLVM's code) versions, and whether Numba uses Intel's SVML for vectorised maths. Runs with
    equal keys give equal :func:`state_hash` es (tests/test_determinism.py keeps one stored hash
    per key); across keys they may differ in the last bits."""
    import platform
    import sys

    import numba

    libc = "-".join(x for x in platform.libc_ver() if x) or "libc?"
    svml = "-svml" if getattr(numba.config, "USING_SVML", False) else ""
    return (f"{platform.machine()}-{sys.platform}-{libc}-py{sys.version_info[0]}."
            f"{sys.version_info[1]}-numpy{np.__version__}-numba{numba.__version__}{svml}")


__all__ = ["Snapshot", "take", "restore", "adopt", "deep_copy", "state_hash", "platform_key",
           "new_uid", "REBUILT", "FORMAT"]
