"""Awake sets: the body, shape and contact rows a step must visit, so that a world that is
mostly asleep costs about what its awake part costs.

A step's stages used to walk every row of the world and skip the sleeping ones: a settled
``many_pyramids`` with one ball rolling (5,500 boxes asleep) spent 0.24-0.47 ms a step doing
so (median, loaded 2-core machine), where pyb2d3 (Box2D v3.1, which keeps awake and sleeping
bodies in separate solver sets) took 0.01 ms; with these sets it takes 0.01 ms too
(BENCHMARKS.md). Here the rows stay where they are (every store keeps its row order, so snapshots,
hashes and handles are untouched) and the world reference (:mod:`.world_ref`) carries compact
lists of the rows that are awake, in ascending order. Ascending order is what keeps the step
exact: every stage visits the awake rows in the order its full pass met them, and the rows it
leaves out are those the full pass skipped (asleep, static, or a contact none of whose bodies
moves), so results are bit-identical to the full passes'.

The lists, in the reference's fields:

* ``awake_bodies[:n]``: the live bodies that are not static and not asleep (dynamic and
  kinematic), the rows the integration, finalize and sleep stages visit;
* ``awake_shapes[:n]``: the live shapes of those bodies, whose boxes the bounds stage updates
  (a static body's box cannot change between steps unless Python moves the body, and that
  marks the sets stale, below);
* ``awake_contacts[:n]``: the contacts with an awake body on either side, found each step from
  the awake bodies through ``contact_edges`` (each body's contact rows, rebuilt when the pair
  stage makes a new contact store). Only while the awake bodies are few
  (:data:`SPARSE_FRACTION`): otherwise the contact stages pass over every contact as before,
  which is cheaper than gathering them.

``awake_state`` holds the counts and the flag ``STALE``. The step keeps the sets up to date
itself: waking islands (:func:`.islands.wake_touched`) rebuilds them with one pass over the
rows (as the wake already does), islands falling asleep leave them by a pass over the awake
rows (:func:`drop_sleepers`). What Python changes between steps (a body created, destroyed,
woken or put to sleep by a setter, a static body moved, a snapshot restored) marks them stale
(:func:`impulse2d._sleep.awake_changed`, or a new reference, whose sets start stale), and the
next reader rebuilds them first, one pass over the rows; the bounds stage then updates every
shape's box, as it always did.

The pair stage uses the contact edges too: the old pairs of the shapes whose fat box moved are
read from their bodies' edges (:func:`moved_keys`), so a step whose pairs stay the same does not
pass over every contact. It still passes once over every shape's box to find a moved box's
new overlaps (:mod:`.pair_update`) unless the resting boxes' grid (:mod:`.resting`) is kept:
a rebuild of these sets marks it invalid (``RESTING_VALID``).
"""

from __future__ import annotations

import numpy as np

from .._collision.broadphase import sort_keys
from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel
from .._core.state import STATIC
from .world_ref import borrow, borrow_column

# awake_state's slots
STALE = 0           # 1: the lists do not match the rows (Python changed them): rebuild first
BODY_COUNT = 1      # awake_bodies[:n]
SHAPE_COUNT = 2     # awake_shapes[:n]
SLEEPING = 3        # live non-static bodies asleep
CONTACT_COUNT = 4   # awake_contacts[:n], or -1: the contact stages pass over every contact
EDGES_VALID = 5     # 1: contact_edges lists the current contact store's rows
RESTING_VALID = 6   # 1: the pair stage's index of resting proxies holds (.resting)
STATIC_GRID_VALID = 7  # 1: the continuous stage's kept grid was checked since (.static_grid)
STATE_SIZE = 8

SPARSE_FRACTION = 4
"""The contact stages take the awake contacts from the awake bodies' edges while at most one
body row in ``SPARSE_FRACTION`` is awake. Gathering costs a few operations per awake body and
contact and a sort of the gathered rows; a full pass costs about one test per contact. Either
gives the same rows in the same order, so the fraction is a matter of speed only; it is a
choice, not tuned (the scenes measured are far on either side of it)."""


def new_state() -> np.ndarray:
    """``awake_state`` of a new reference: stale (the lists are filled on first use)."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[STALE] = 1
    state[CONTACT_COUNT] = -1
    return state


@borrowing_kernel
def rebuild(world):
    """Fill the body and shape lists from the rows: one pass over each store. Only a step
    rebuilds them (before its finalize), so it may clear the static bodies' forces here. The
    stores are borrowed here (see :func:`refresh`; the wake stage's call passed them, 656
    instructions of its IR)."""
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    state = borrow(world, "awake_state")
    awake_bodies = borrow(world, "awake_bodies")
    awake_shapes = borrow(world, "awake_shapes")
    alive = bodies.alive
    kind = bodies.type
    asleep = bodies.asleep
    n = 0
    sleeping = 0
    for i in range(alive.shape[0]):
        if not alive[i]:
            continue
        if kind[i] == STATIC:
            # A body made static with a force still on it: the full finalize cleared it, the
            # awake rows' finalize does not reach it.
            bodies.force[i, 0] = 0.0
            bodies.force[i, 1] = 0.0
            bodies.torque[i] = 0.0
        elif asleep[i]:
            sleeping += 1
        else:
            awake_bodies[n] = i
            n += 1
    m = 0
    for s in range(shapes.alive.shape[0]):
        if shapes.alive[s]:
            b = shapes.body[s]
            if kind[b] != STATIC and not asleep[b]:
                awake_shapes[m] = s
                m += 1
    state[BODY_COUNT] = n
    state[SHAPE_COUNT] = m
    state[SLEEPING] = sleeping
    state[STALE] = 0
    # Python changed the world (or islands woke): a resting shape's box may have changed
    # without passing through a step's move buffer, so the resting index is built again, and
    # a static shape may have changed, so the continuous stage's kept grid is checked again
    state[RESTING_VALID] = 0
    state[STATIC_GRID_VALID] = 0


@borrowing_kernel
def refresh(world):
    """Rebuild the lists if they are stale; True if they were (the caller's stage then
    passes over every row once, as it did before the lists). Takes the world's reference and
    borrows the stores here: a call that passes the body and shape stores puts each of their
    arrays in the caller's IR, about 870 instructions at each of a dozen callers'
    :func:`body_rows` (1,950 in a kernel that counts references)."""
    if borrow(world, "awake_state")[STALE] == 0:
        return False
    rebuild(world)
    return True


@borrowing_kernel
def drop_sleepers(world, fell):
    """Take the ``fell`` bodies that fell asleep this step (and their shapes) out of the lists:
    one pass over the awake rows, which keeps their ascending order. A body that leaves them
    leaves the continuous stage's fast bodies too (its flag cleared: the stage, which runs
    next, visits the awake rows only). The stores borrowed here (see :func:`rebuild`)."""
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    state = borrow(world, "awake_state")
    awake_bodies = borrow(world, "awake_bodies")
    awake_shapes = borrow(world, "awake_shapes")
    asleep = bodies.asleep
    n = 0
    for t in range(state[BODY_COUNT]):
        i = awake_bodies[t]
        if not asleep[i]:
            awake_bodies[n] = i
            n += 1
        else:
            bodies.fast[i] = False
    m = 0
    for t in range(state[SHAPE_COUNT]):
        s = awake_shapes[t]
        if not asleep[shapes.body[s]]:
            awake_shapes[m] = s
            m += 1
    state[BODY_COUNT] = n
    state[SHAPE_COUNT] = m
    state[SLEEPING] += fell


@inner_kernel
def build_edges(body_a, body_b, kind, edges):
    """Each non-static body's contact rows, CSR: ``edges[:rows + 1]`` offsets (from
    ``rows + 1``), then the contact rows, ascending per body. Static bodies have none (no
    stage reaches a contact through its static side)."""
    rows = kind.shape[0]
    starts = edges[: rows + 1]
    starts[:] = 0
    for k in range(body_a.shape[0]):
        if kind[body_a[k]] != STATIC:
            starts[body_a[k] + 1] += 1
        if kind[body_b[k]] != STATIC:
            starts[body_b[k] + 1] += 1
    starts[0] = rows + 1
    for i in range(rows):
        starts[i + 1] += starts[i]
    fill = starts[:rows].copy()
    for k in range(body_a.shape[0]):
        a = body_a[k]
        b = body_b[k]
        if kind[a] != STATIC:
            edges[fill[a]] = k
            fill[a] += 1
        if kind[b] != STATIC:
            edges[fill[b]] = k
            fill[b] += 1


@inner_kernel
def gather_contacts(edges, awake_bodies, n_bodies, out):
    """The contact rows of ``awake_bodies[:n_bodies]`` (through ``edges``), ascending and
    once each, into ``out``; returns their count."""
    n = np.int64(0)  # int64 from the start: a literal 0 compiled sort_keys a second time
    for t in range(n_bodies):
        i = awake_bodies[t]
        for e in range(edges[i], edges[i + 1]):
            out[n] = edges[e]
            n += 1
    if n == 0:
        return 0
    sort_keys(out, n)
    m = 1
    for t in range(1, n):
        if out[t] != out[m - 1]:
            out[m] = out[t]
            m += 1
    return m


@inline_kernel
def body_rows(world):
    """The awake body rows (ascending), the lists rebuilt first if they are stale: what the
    integration and finalize stages pass over. Inlined: a view of a borrowed array, which
    a kernel that counts references counts and a borrowing one does not."""
    refresh(world)
    return borrow(world, "awake_bodies")[: borrow(world, "awake_state")[BODY_COUNT]]


@borrowing_kernel
def contacts_plan(world):
    """:func:`find_contacts`' first part, in a kernel that counts no references: the lists
    refreshed, and -1 when every contact is to be visited (``CONTACT_COUNT`` set to -1), else
    the size the contact edges must be made at (0: valid, or their array has that size)."""
    state = borrow(world, "awake_state")
    refresh(world)
    rows = borrow_column(world, "bodies", "alive").shape[0]
    if state[BODY_COUNT] * SPARSE_FRACTION > rows:
        state[CONTACT_COUNT] = -1
        return -1
    if state[EDGES_VALID] == 0:
        size = rows + 1 + 2 * borrow_column(world, "contacts", "body_a").shape[0]
        if borrow(world, "contact_edges").shape[0] != size:
            return size
    return 0


@inner_kernel
def find_contacts(world):
    """Choose the contact rows of this step's contact stages: the awake contacts gathered from
    the awake bodies' edges while those are few (the edges built first if the contact store is
    new), else every contact (``CONTACT_COUNT`` -1). Called once the contact store of the step
    is known, and again when islands wake.

    The common case, a world mostly awake, runs in :func:`contacts_plan` alone: taking the
    body, shape and contact stores here, in a kernel that counts references, cost an atomic
    increment and decrement of each of their 70 arrays on every step (Numba's reference counts
    were 15.6 % of the ``perf`` samples of a process stepping 5 balls, 10.9 % without these;
    this stage 2,300 -> 1,060 cycles a step, 2026-11-28 night)."""
    size = contacts_plan(world)
    if size < 0:
        return
    n_contacts = borrow_column(world, "contacts", "body_a").shape[0]
    if size > 0:
        world.contact_edges = np.empty(size, dtype=np.int64)
        world.awake_contacts = np.empty(2 * n_contacts, dtype=np.int64)
    state = borrow(world, "awake_state")
    if state[EDGES_VALID] == 0:
        build_edges(borrow_column(world, "contacts", "body_a"),
                    borrow_column(world, "contacts", "body_b"),
                    borrow_column(world, "bodies", "type"), borrow(world, "contact_edges"))
        state[EDGES_VALID] = 1
    state[CONTACT_COUNT] = gather_contacts(borrow(world, "contact_edges"),
                                           borrow(world, "awake_bodies"), state[BODY_COUNT],
                                           borrow(world, "awake_contacts"))


@inner_kernel
def moved_keys(world, moved, n_moved):
    """The keys of the contacts of the shapes ``moved[:n_moved]``, ascending, found through the
    contact edges of their bodies: ``(keys, n)``, or n = -1 when the edges are not those of
    the contact store (the pair stage then passes over every contact)."""
    state = borrow(world, "awake_state")
    if state[EDGES_VALID] == 0 or state[STALE] != 0:
        return np.empty(0, dtype=np.int64), -1
    edges = borrow(world, "contact_edges")
    owner = borrow(world, "shapes").body
    kind = borrow(world, "bodies").type
    total = 0
    for t in range(n_moved):
        b = owner[moved[t]]
        if kind[b] == STATIC:  # (moved by hand: the sets are stale then)
            return np.empty(0, dtype=np.int64), -1
        total += edges[b + 1] - edges[b]
    contacts = borrow(world, "contacts")
    keys = np.empty(total, dtype=np.int64)
    n = np.int64(0)  # int64 from the start: a literal 0 compiled sort_keys a second time
    for t in range(n_moved):
        s = moved[t]
        b = owner[s]
        for e in range(edges[b], edges[b + 1]):
            k = edges[e]
            if contacts.shape_a[k] == s or contacts.shape_b[k] == s:
                keys[n] = contacts.key[k]
                n += 1
    if n > 1:
        sort_keys(keys, n)
        m = 1
        for t in range(1, n):  # a pair of two moved shapes is met from both
            if keys[t] != keys[m - 1]:
                keys[m] = keys[t]
                m += 1
        n = m
    return keys, n
