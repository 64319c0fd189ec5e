"""The step, as a script of named stages, run as one compiled call.

::

    update bounding boxes -> (if any fat box moved) pairs: of the moved boxes, or all, filtered;
    merge contacts -> (if every body is static, asleep or idle and no pair changed) return
    -> narrowphase manifolds (feature ids carry impulses)
    -> (if any body sleeps) wake the sleeping islands an awake body touches
    -> colour the touching contacts -> prepare constraints -> solver -> store impulses
    -> finalize bodies (and the fast test) -> (if sleeping is on) sleep timers, islands,
    islands falling asleep -> (if a body was fast) continuous collision

The whole script is one kernel, :func:`step_kernel`, called through :class:`DirectCall`: each
call from Python into compiled code costs a toll for its arguments (about 0.07 us per array,
0.35 us with Numba's usual typing), and a world's stores hold about 125 arrays. Calling each
stage separately cost 0.2-0.3 ms a step, more than the whole solve of a 100-link chain; one
call pays the toll once, and the stores travel behind one reference (:mod:`world_ref`), so
the toll is a few scalars.

The step kernel holds what every world runs. The solver, and each joint type, are entries of
the world's table of verbs (:mod:`verbs`), compiled on their own the first time a world needs
them and called by address: a pyramid compiles neither ``pgs`` nor a pulley. The solvers share
the contact verbs (prepare, warm start, solve with or without bias, restitution, store
impulses) and differ only in the order they call them (:mod:`solvers`).

Continuous collision (:mod:`.continuous`) is a verb too, loaded before a world's first step if
the cache holds it, else compiled the first time a step of the world has a fast body: that step
returns with the sweep still to do, and Python compiles the stage and runs it
(:func:`impulse2d._stepping.step_world`), the last stage of the step either way.

Each stage's share of the step is read from the CPU's cycle counter inside the kernel and
scaled to the step's wall time for the world's ``Profile``.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from .._collision.broadphase import SWEEP_BELOW, grid_search, search_pairs
from .._collision.shape_types import CHAIN_SEGMENT
from .._core.jit import (DirectCall, borrowing_kernel, cycles, entry_kernel, gil_free_kernel,
                         inline_kernel, inner_kernel, stage_kernel)
from .._core import lazy
from .._core.lazy import LazyKernel
from .._core.cache import cached_signatures
from .._core.parallel import compile_units, start_early, wait_later
from .._core.state import DYNAMIC, REVOLUTE
from ..constants import MAX_ROTATION
from ..settings import MIXING_CODES
from . import (diagnostics, direct, direct_accel, direct_dense, joint_solver, solvers,
               solvers_ngs)
from .solvers import impulse_caps
from .direct import ISLANDS, LARGEST_ISLAND, PIVOTS, REGULARISED
from .constraint_graph import COLOR_COUNT, color_into, mark_colour_runs
from .continuous import solve_continuous
from .continuous_box2d23 import solve_continuous_box2d23
from .contact_lanes import (F32_SOLVERS, SOLVERS as LANE_SOLVERS, colour_rows, lane_rows_for,
                            lanes_entry, lanes_pay, rows_entry, sync_constraint_rows)
from .contact_lanes_f32 import lanes_f32_entry, prepare_f32_entry
from .contact_rows import row_count, store_row_impulses
from .contact_solver import allocate_constraints
from .contacts import (FRICTION_MIXING, RESTITUTION_MIXING, collide_rows, mix_again,
                       update_chain_manifolds)
from .awake import (BODY_COUNT, CONTACT_COUNT, EDGES_VALID, SHAPE_COUNT, SLEEPING, STALE,
                    body_rows, contacts_plan, drop_sleepers, find_contacts, rebuild, refresh)
from .islands import fall_asleep, may_ripen, resting_sleepers, sleep_timers, wake_touched
from .integrate import finalize_bodies
from .joints import ROW_LISTS
from .lengths import MARGIN, SPECULATIVE
from .pair_update import moved_pairs_stage, update_pairs
from .proxies import update_aabbs
from .scratch import (colour_size, colour_views, grow, grow_velocities, move_size, move_view,
                      narrow_views, order_view, short, starts_view, velocities_short,
                      velocity_view)
from .verbs import (AFTER_SOLVE, AT_REST, CHAINS, COLLIDE, COLLIDE_SIGNATURE, CONTINUOUS,
                    CONTINUOUS_SIGNATURE, DENSE_SIGNATURE, DIAGNOSE_SIGNATURE, DIAGNOSTICS,
                    DIRECT_COUNTS, DIRECT_DENSE, DIRECT_FALLBACK, DIRECT_ISLANDS, DIRECT_MAX_ROWS,
                    DIRECT_ROWS, DIRECT_ROWS_SIGNATURE, FALL_ASLEEP, FINALIZE, GATHER,
                    ISLANDS_SIGNATURE, JOINTS, JOINT_POSITIONS,
                    JOINT_POSITION_SIGNATURE, JOINT_SIGNATURE, LANES, LANES_SIGNATURE,
                    LANE_PREPARE, LANE_PREPARE_SIGNATURE, LAWS, MOVED_PAIRS, MOVED_PAIRS_SIGNATURE,
                    PAIRS, PAIRS_SIGNATURE, POLYGONS_ONLY, SEARCH_PAIRS, SEARCH_PAIRS_SIGNATURE,
                    SERIAL_COLLIDE,
                    SERIAL_SOLVER, SLEEPERS_STAGE, SLEEPERS_STAGE_SIGNATURE, SOLVER,
                    SOLVER_SIGNATURE, THREADS, THREAD_BODIES, THREAD_ROWS, WAKE, call_collide,
                    call_continuous, call_pairs, call_sleepers_stage, call_solver, diagnose)
from .. import _threads
from .world_ref import STORES_SECONDS, borrow, borrow_column, stores_for_step

STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
"""The ``Profile`` fields, in the order of the clock readings of :func:`step_kernel`."""

# Compile times (CPU seconds) for the notice a first run prints (:mod:`.._core.lazy`) and for
# sharing compiles between processes (:mod:`.._core.parallel`): every unit compiled in one
# process in ``warmup --all``'s order (the registry's), with Numba's compile events, on the
# 2-core machine at load 8, 2026-11-28. A unit's time holds the callees it compiled first:
# ``soft_step_v31`` and ``pgs`` come after ``soft_step`` and share its contact solver, a
# joint type's position correction and row export come after its entry. The whole of
# ``warmup --all``: 356 s of CPU. ``pgs_ngs`` and the acceleration level less what no longer
# compiles: ``pgs_ngs``'s revolute sweeps (10.1 s, :mod:`.solvers_ngs`), a second copy of the
# acceleration level's island solve (5.6 s, :func:`.direct_accel._solve_rows`).
# The units of a cold pyramid re-measured 2026-11-29 (session 12, ``compile_table.py``, one
# process, load 15-18: step kernel 28.9 s, pair search 35.3, soft step 15.6, narrowphase 10.4,
# wide passes 6.9), scaled by 1/1.6, that run's total (105 s) over the same compile's at load 5
# (66-68 s): the step kernel had grown to 0.82 of the pair search (0.60 by the figures before),
# and the plan kept every unit but the early helper's in this process, a core idle for the
# last 10 s of 61 (``compile_processes.py``).
# The pair search split in three units (session 14, its two searches called by address),
# compiled in this order: the stage 7.8 (it compiles the callees the three share first), the
# search around moved boxes 5.5, the global search 6.3, from ``compile_table.py``'s units at
# load 19 (12.4, 8.8 and 10.1 s) scaled by the same 1/1.6.
# The pair stage's incremental path and the wake and at-rest stages out of the first step's
# units (:data:`LATER_SLOTS`; session 19): the pair stage less its incremental path 3.4 s
# (``cold43``'s prototype, BENCHMARKS.md session 18), which the moved boxes' unit takes
# (build_resting 3.2, moved_keys 1.9, the few boxes' test 1.8 at load 7-10, scaled by the same
# 1/1.6); the wake and at-rest stages 3.3 s there, 2.1 here, out of the step kernel.
# The islands falling asleep and the awake contacts' gathering out of the step kernel into the
# sleepers' unit (session 20, ``cold45``): the step kernel 21.3 -> 16.5 s, the sleepers' unit
# 3.9 -> 9.7 s (``compile_processes.py`` side by side at load 12), scaled alike.
# The units of a cold first step re-measured 2026-12-01 (session 23, ``cold48``:
# ``compile_processes.py``, each unit's CPU in the process the plan gave it, cold
# ``pyramid_20``, ``chain_100`` and 300 circles' ``rain`` at load 8-14, with session 22's four
# ``pyramid_20`` runs), scaled by 0.81, the step kernel's estimate (12.4) over its median there
# (15.4 s: 14.8-16.2): the grid search 9.3 s (8.6-10.0), the narrowphase of polygons 6.6
# (6.2-7.1), the wide passes 7.2 (6.9-7.8), the general search 12.4, the general
# narrowphase 10.2 (in this process, the polygon routine compiled again), the wake stage 9.0
# (8.4-9.2), the moved boxes' search 15.2 (13.6-19.6) had been rated at 0.55-0.80 of the step
# kernel's ratio, the soft step 9.9 (9.1-10.8) at 1.2 once restitution left it (session 22) and
# the soft step with revolute joints 18.1 at 1.35; the pair stage 4.2 (3.4-5.2) and the stores
# 2.9 were right. The plan put the grid search in the helper on an estimate 4 s short
# (BENCHMARKS.md, session 22, ``cold47``).
# The few moved boxes' test out of the moved boxes' unit into the pair stage (session 26,
# ``small51``: ``compile_table.py`` of the two units, load 10, 2.3 -> 3.0-3.1 s and 8.3-8.5 ->
# 7.6-7.8 s; in a cold ``pyramid_20``'s helper 2.45 -> 2.81 s), both scaled alike.
STEP_SECONDS = 12.4
PAIRS_SECONDS = 3.9
MOVED_PAIRS_SECONDS = 11.3
SLEEPERS_SECONDS = 7.3
SEARCH_PAIRS_SECONDS = 10.0
GRID_SEARCH_SECONDS = 7.5
COLLIDE_SECONDS = 8.3
POLYGONS_SECONDS = 5.3
CHAINS_SECONDS = 6.6
SOLVER_SECONDS = {"soft_step": 8.0, "soft_step_v31": 2.9, "pgs": 4.5, "pgs_ngs": 10.5,
                  "pgs_block": 16.8, "direct": 15.3}
JOINT_SECONDS = {"revolute": 2.9, "distance": 5.7, "prismatic": 3.4, "weld": 2.7, "wheel": 2.8,
                 "mouse": 1.5, "motor": 1.9, "pulley": 2.8, "custom": 12.0, "gear": 4.5}
JOINT_POSITION_SECONDS = {"revolute": 1.4, "distance": 1.3, "prismatic": 1.3, "weld": 2.2,
                          "wheel": 2.3, "pulley": 1.0, "custom": 7.8, "gear": 1.7}
DIRECT_ROWS_SECONDS = {"revolute": 3.7, "distance": 1.1, "prismatic": 2.4, "weld": 1.5,
                       "wheel": 4.4, "mouse": 1.2, "motor": 1.5, "pulley": 0.7, "custom": 4.8,
                       "gear": 1.0}
DIAGNOSTICS_SECONDS = 22.0  # measured with the direct solver's island solve inside
# The direct solver's island solve a unit of its own (2026-12-01 session 26, warmA51): the
# three units in one process, ``compile_table.py``, load 10, against main's two at the same
# time (direct 29.1 s with the island solve, the acceleration level 19.9): the island solve
# 17.4 s, the velocity level 10.2, the acceleration level 13.4, scaled to main's estimates.
ISLANDS_SECONDS = 26.1
CONTINUOUS_SECONDS = 27.9


@borrowing_kernel
def _move_size(world):
    """Entries of the world's scratch the move buffer needs (:func:`.scratch.move_size`), or 0
    when it has them."""
    size = move_size(borrow_column(world, "shapes", "alive").shape[0])
    return size if short(borrow(world, "scratch"), size) else 0


@borrowing_kernel
def _update_bounds(world, pairs_dirty):
    """The bounds stage over the awake shapes, or over every shape on a step after Python
    changed the world (the awake sets were stale, or the pairs dirty: a shape made or moved by
    hand, a body's type changed); then, if any fat box moved (or the pairs are dirty), the pair
    stage. Returns the count of moved boxes and whether the pair stage made a new contact
    store. The move buffer (the shapes whose fat box changed) is the world's scratch
    (:mod:`.scratch`), which the step has sized (:func:`_move_size`)."""
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    state = borrow(world, "awake_state")
    if pairs_dirty:
        state[STALE] = 1
        state[EDGES_VALID] = 0
    awake_shapes = borrow(world, "awake_shapes")
    every = refresh(world)
    moved = move_view(borrow(world, "scratch"), shapes.alive.shape[0])
    n_moved = update_aabbs(shapes, bodies, borrow(world, "lengths")[MARGIN], moved,
                           awake_shapes[: state[SHAPE_COUNT]], every)
    new_contacts = False
    if n_moved > 0 or pairs_dirty:
        new_contacts = call_pairs(borrow(world, "verbs")[PAIRS],
                                  (world, moved, n_moved, pairs_dirty))
    return n_moved, new_contacts


@inline_kernel
def _narrowphase(world, circles):
    """:func:`.contacts.collide_rows` over the world's contacts, ``circles`` (a constant at
    each call) as its: :func:`_manifolds` and :func:`_polygon_manifolds`."""
    # The narrowphase's outputs are taken here, not passed in: arrays passed in arrive on the
    # stack, and the loop re-stored them as each pair's arguments from there, every load 0x400
    # bytes above the store before it. AMD's Zen 3 takes a stack load at a multiple of 1 KiB
    # from a store just before it for a read of that store and replays it: 37-70 ns a pair of
    # moves against 0.3-2 at other distances (measured, benchmarks/stack_alias.py), the
    # collide stage 4x slower; tests/test_stack_alias.py reads the loop's machine code.
    normal, points, ids = narrow_views(borrow(world, "scratch"), borrow(world, "scratch_f"))
    collide_rows(borrow(world, "contacts"), borrow(world, "shapes"), borrow(world, "bodies"),
                 borrow(world, "lengths")[SPECULATIVE], borrow(world, "verbs")[CHAINS] != 0,
                 normal, points, ids, borrow(world, "awake_contacts"),
                 borrow(world, "awake_state")[CONTACT_COUNT], circles)


@borrowing_kernel
def _manifolds(world):
    _narrowphase(world, True)


@borrowing_kernel
def _polygon_manifolds(world):
    _narrowphase(world, False)


@borrowing_kernel
def _chain_manifolds(world):
    normal, points, ids = narrow_views(borrow(world, "scratch"), borrow(world, "scratch_f"))
    update_chain_manifolds(borrow(world, "contacts"), borrow(world, "shapes"),
                           borrow(world, "bodies"), borrow(world, "lengths")[SPECULATIVE],
                           normal, points, ids)


@entry_kernel
def collide(world):
    """Narrowphase manifolds; False when there are no contacts at all. The narrowphase's
    outputs are the world's scratch (:mod:`.scratch`), borrowed as the stores are: this stage
    counts no references (as a kernel that did, taking the scratch's views cost 6.5 atomic
    operations a step of 5 balls, 2026-11-29)."""
    if borrow_column(world, "contacts", "key").shape[0] == 0:
        return False
    _manifolds(world)
    return True


@entry_kernel
def collide_polygons(world):
    """:func:`collide` for a world without circles (:data:`POLYGON_COLLIDE_KERNEL`): every
    pair is collided by the polygon routine, the circle routines not compiled in
    (:func:`.contacts.collide_rows`). A world that gains a circle takes :func:`collide` from
    its next step (:func:`_lacks_circles`)."""
    if borrow_column(world, "contacts", "key").shape[0] == 0:
        return False
    _polygon_manifolds(world)
    return True


@entry_kernel
def collide_chains(world):
    """Narrowphase of the pairs with a chain segment (a stage of its own, in the table of verbs
    only for worlds that have chains); it counts no references, as :func:`collide`."""
    if borrow_column(world, "contacts", "key").shape[0] == 0:
        return False
    _chain_manifolds(world)
    return True


@borrowing_kernel
def _collide_entry(world):
    """The narrowphase to call: the world's, or for a threaded world that visits fewer contacts
    than a parallel pass takes, its serial one (the same bits: each of the threaded
    narrowphase's passes would run serially; without its fixed cost, 13 us of a 5-ball world's
    step at 2 threads, measured 2026-11-28)."""
    table = borrow(world, "verbs")
    if table[SERIAL_COLLIDE] != 0:
        visited = borrow(world, "awake_state")[CONTACT_COUNT]
        if visited < 0:
            visited = borrow_column(world, "contacts", "key").shape[0]
        if visited < table[THREAD_ROWS]:
            return table[SERIAL_COLLIDE]
    return table[COLLIDE]


@borrowing_kernel
def _colour_size(world):
    """Entries of the world's scratch the colouring needs, or 0 when it has them."""
    shape_rows, body_rows, contacts = colour_rows(world)
    size = colour_size(shape_rows, body_rows, contacts)
    return size if short(borrow(world, "scratch"), size) else 0


@borrowing_kernel
def _colour(world):
    """The touching contacts in solver order (by colour), and each colour's start in it, in
    the world's scratch (:mod:`.scratch`, sized by the step: :func:`_colour_size`). Returns the
    count of rows of the order and where it starts in the scratch (:func:`.scratch.
    order_view`)."""
    bodies_type = borrow_column(world, "bodies", "type")
    count = borrow_column(world, "contacts", "count")
    n_rows = borrow(world, "awake_state")[CONTACT_COUNT]
    shape_rows, body_rows, contacts = colour_rows(world)
    used, color, order, sizes, fill, starts, at = colour_views(
        borrow(world, "scratch"), shape_rows, body_rows, contacts)
    n = color_into(count, borrow_column(world, "contacts", "body_a"),
                   borrow_column(world, "contacts", "body_b"), bodies_type,
                   borrow_column(world, "bodies", "asleep"), COLOR_COUNT,
                   borrow(world, "awake_contacts"), n_rows, used, color, order, sizes, fill,
                   starts)
    return n, at


@borrowing_kernel
def _no_colours(world):
    """Every colour empty (a step without contacts): the starts the runs are marked from."""
    starts_view(borrow(world, "scratch"))[:] = 0


@borrowing_kernel
def _wake(world):
    """The wake stage; when islands woke, their bodies and shapes join the awake sets (one
    pass over the rows, as the wake's own) and the count of sleepers drops."""
    state = borrow(world, "awake_state")
    woken = wake_touched(borrow(world, "bodies"), borrow(world, "contacts"),
                         borrow(world, "joints"), borrow(world, "awake_contacts"),
                         state[CONTACT_COUNT])
    if woken > 0:
        rebuild(world)
    return woken


@borrowing_kernel
def _sleep(world, dt, time_to_sleep, enable_sleep):
    """The sleep stage over the awake sets: the sleep timers, then, on a step where one is ripe,
    the islands falling asleep (:func:`_fall_asleep`, called by address: see
    :func:`sleepers_stage`). Returns the bodies asleep after it and those that fell asleep."""
    state = borrow(world, "awake_state")
    sleeping = state[SLEEPING]
    if not sleep_timers(borrow(world, "bodies"), borrow(world, "contacts"),
                        borrow(world, "joints"), dt, time_to_sleep, enable_sleep,
                        borrow(world, "awake_bodies")[: state[BODY_COUNT]],
                        borrow(world, "awake_contacts"), state[CONTACT_COUNT]):
        return sleeping, 0
    fell = call_sleepers_stage(borrow(world, "verbs")[SLEEPERS_STAGE],
                               (world, FALL_ASLEEP, time_to_sleep))
    return sleeping + fell, fell


@borrowing_kernel
def _fall_asleep(world, time_to_sleep):
    """The islands falling asleep, after :func:`_sleep`'s timers found one ripe
    (:func:`.islands.fall_asleep`); those that fell asleep leave the awake sets. Returns the
    bodies that fell asleep."""
    bodies = borrow(world, "bodies")
    state = borrow(world, "awake_state")
    awake_bodies = borrow(world, "awake_bodies")
    fell = fall_asleep(bodies, borrow(world, "contacts"), borrow(world, "joints"), time_to_sleep,
                       awake_bodies[: state[BODY_COUNT]], borrow(world, "awake_contacts"),
                       state[CONTACT_COUNT])
    if fell > 0:
        drop_sleepers(world, fell)
    return fell


@borrowing_kernel
def _at_rest(world):
    """The number of sleeping bodies if the rest of this step would change nothing, else -1:
    every live body is static, asleep or an idle kinematic body
    (:func:`.islands.resting_sleepers`; the caller has
    checked that no fat box moved and no pair is dirty), no joint row is solved (a joint
    between two non-dynamic bodies is), no constraint store is left to empty (so the stores
    are those of a full step), and the diagnostics are off (they record every step). The
    direct solver's counters of the last step read zero, as its pass over no rows leaves them.
    The joint substep returned is 0 (Python keeps the last one)."""
    if borrow(world, "constraints").count.shape[0] != 0:
        return -1
    table = borrow(world, "verbs")
    if table[DIAGNOSTICS] != 0:
        return -1
    for ids in borrow(world, "joint_ids"):
        if ids.shape[0] != 0:
            return -1
    state = borrow(world, "awake_state")
    sleeping = resting_sleepers(borrow(world, "bodies"),
                                borrow(world, "awake_bodies")[: state[BODY_COUNT]],
                                state[SLEEPING])
    if sleeping >= 0:
        for k in (LARGEST_ISLAND, ISLANDS, PIVOTS, REGULARISED):
            table[DIRECT_COUNTS + k] = 0
    return sleeping


@stage_kernel
def sleepers_stage(world, which, time_to_sleep):
    """The stages only a world with sleepers, with a body at rest for ``time_to_sleep`` (s) or
    with few awake bodies runs (``which``): the wake stage (:data:`.verbs.WAKE`: :func:`_wake`,
    the bodies woken), the at-rest test (:data:`.verbs.AT_REST`: :func:`_at_rest`), the islands
    falling asleep (:data:`.verbs.FALL_ASLEEP`: :func:`_fall_asleep`, the bodies that fell
    asleep) and the awake contacts gathered (:data:`.verbs.GATHER`:
    :func:`.awake.find_contacts`, which makes the contact edges: a kernel that may allocate).
    A unit of its own, called by address (slot :data:`.verbs.SLEEPERS_STAGE`), so that a cold
    start's first step, which has no sleeper and no ripe timer, does not compile it (the wake
    and at-rest stages 3.3 s of CPU inside the step kernel at load 7-10, with their callees the
    islands' wake and the awake sets' rebuild: BENCHMARKS.md, session 18, ``cold43``; the
    islands' union-find, the awake sets' drop and the contacts' gathering, session 20,
    ``cold45``): a helper compiles it after the first step's units (:data:`LATER_SLOTS`), and a
    step that needs it before it comes waits for it (:func:`step_kernel`, :func:`fill_later`),
    or gathers no contacts (:func:`_find_contacts`)."""
    if which == WAKE:
        return _wake(world)
    if which == FALL_ASLEEP:
        return _fall_asleep(world, time_to_sleep)
    if which == GATHER:
        find_contacts(world)
        return 0
    return _at_rest(world)


@borrowing_kernel
def _find_contacts(world):
    """The contact rows of this step's contact stages (:mod:`.awake`): every contact while the
    awake bodies are not few (:func:`.awake.contacts_plan`); else those gathered from the awake
    bodies' edges, in the sleepers' unit (:func:`sleepers_stage`, by address), or, while it is
    not loaded (a cold start's first steps), every contact: the same rows in the same order
    (:data:`.awake.SPARSE_FRACTION`), the contact stages slower. Called once the contact store
    of the step is known, and again when islands wake."""
    if contacts_plan(world) < 0:
        return
    stage = borrow(world, "verbs")[SLEEPERS_STAGE]
    if stage == 0:
        borrow(world, "awake_state")[CONTACT_COUNT] = -1
        return
    call_sleepers_stage(stage, (world, GATHER, 0.0))


@borrowing_kernel
def _solve(world, at, n, dt, gx, gy, substeps, iterations, position_iterations, warm_starting,
           contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
           restitution_threshold, max_linear_speed, baumgarte, velocity_tolerance,
           enable_continuous):
    """Run the world's solver (its entry in the table of verbs prepares the constraints), store
    the impulses and finalize the bodies. Returns the (sub)step the joint impulses were
    accumulated over, or, when the ``direct`` solver refused the step (an island above
    ``direct_max_rows``, no fallback), minus that island's rows, with no body changed; and the
    number of fast bodies (continuous collision). The touching contacts' order is the
    colouring's, ``n`` rows at ``at`` of the world's scratch (:func:`_colour`), and the sweeps'
    convergence test (``velocity_tolerance > 0``) holds its velocities in ``scratch_f``, sized
    by the step (:mod:`.scratch`)."""
    clock = borrow(world, "clock")
    table = borrow(world, "verbs")
    order = order_view(borrow(world, "scratch"), at, n)
    velocities = velocity_view(borrow(world, "scratch_f"),
                               borrow_column(world, "bodies", "w").shape[0]
                               if velocity_tolerance > 0.0 else 0)
    arguments = (world, order, dt, gx, gy, substeps, iterations, position_iterations,
                 warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
                 joint_damping_ratio, contact_speed, restitution_threshold, max_linear_speed,
                 baumgarte, velocity_tolerance, velocities)
    entry = table[SOLVER]
    if (table[SERIAL_SOLVER] != 0 and order.shape[0] < table[THREAD_ROWS]
            and body_rows(world).shape[0] < table[THREAD_BODIES]):
        entry = table[SERIAL_SOLVER]  # too small for threads: the same bits (step_kernel)
    # the impulses' store and the finalize offered to the solver (verbs.FINALIZE): the threaded
    # one does them in its parallel region; with the diagnostics on they come after theirs
    table[FINALIZE] = 0 if table[DIAGNOSTICS] != 0 else (2 if enable_continuous else 1)
    joint_h = call_solver(entry, arguments)
    if joint_h < 0.0:
        # The direct solver met an island above its limit and changed nothing: its fallback
        # solver takes the step, or, without one, the step stops here (Python raises).
        if table[DIRECT_FALLBACK] == 0:
            table[FINALIZE] = 0
            return joint_h, 0
        joint_h = call_solver(table[DIRECT_FALLBACK], arguments)
    finalized = table[FINALIZE]
    table[FINALIZE] = 0
    if finalized < 0:  # the solver stored the impulses and finalized the bodies
        clock[4] = cycles()
        clock[5] = clock[4]
        return joint_h, -1 - finalized
    speed_cap, spin_cap = impulse_caps(max_linear_speed, dt)
    diagnose(world, order, AFTER_SOLVE, 0, joint_h, baumgarte, contact_speed, speed_cap, spin_cap)
    if order.shape[0] > 0:
        store_row_impulses(world, 0, row_count(world))
    clock[4] = cycles()

    fast = finalize_bodies(world, body_rows(world), max_linear_speed,
                           MAX_ROTATION / dt, enable_continuous)
    clock[5] = cycles()
    return joint_h, fast


# What the step kernel reads of the reference, each in a kernel that counts no references: read
# in the step kernel itself (which must count them: it makes stores), each array taken was an
# atomic increment and decrement (about 40 cycles each here): 11 increments a step of a 5-ball
# world in the step's own code, 7 with these (counted in gdb, 2026-11-28 night). Small enough
# for LLVM to inline.

@borrowing_kernel
def _tick(world, k):
    """Reading ``k`` of the step's clock: the cycle counter (:data:`STAGES`)."""
    borrow(world, "clock")[k] = cycles()


@borrowing_kernel
def _ticks_after(world, k):
    """The readings after ``k`` made equal to it: the stages a step did not run."""
    clock = borrow(world, "clock")
    for j in range(k + 1, clock.shape[0]):
        clock[j] = clock[k]


@borrowing_kernel
def _verb(world, slot):
    """Slot ``slot`` of the world's table of verbs (:mod:`.verbs`)."""
    return borrow(world, "verbs")[slot]


SETTINGS_ROW = 18
"""Count of a world's packed settings at the head of its step row (``World._step_settings``,
the reference's ``settings``, float64): :func:`_settings_arguments`' values in its order, which
:func:`step_kernel` reads. Written in place by :func:`.._stepping._ready` when the settings change
(the tuple itself stays the token of what the table of verbs was filled for). Passed as arguments,
the eighteen cost about 0.5 us a step in Numba's wrapper, which converts each Python object (a
kernel that does nothing: 1.46 us with the step's 26 arguments, 0.81 with 8, at load 5,
2026-11-28 night), about 7 % of a 5-ball world's ``World.step``."""

# The rest of the step row: what the step kernel reads and writes besides the settings, so that
# its call from Python passes the reference, dt and the phase and gets one integer back (each
# argument and each returned value is converted by Numba's wrapper on every call: a call of
# eight arguments returning a 6-tuple cost ~300-420 ns more than one of three returning one,
# small38, 2026-11-29). Integers and flags are exact in float64.
GRAVITY = SETTINGS_ROW
"""Gravity (x at GRAVITY, y after it), m/s^2: written with ``World._gravity`` by its writers
(``World.gravity``'s setter, ``World._renew``), read by each step."""
JOINTS_FILTERED = GRAVITY + 2
"""1 when the joint rows leave out a sleeping island's joints (``rows["filtered"]``): written
by every step's checks that look at the joint rows (:func:`.._stepping._ready`, the usual
step's first check), read by each step."""
PAIRS_DIRTY = JOINTS_FILTERED + 1
"""``World._pairs_dirty`` (a property over this slot): set by Python where a shape or body
changed by hand, cleared by every step's call."""
SLEEPERS = PAIRS_DIRTY + 1
"""``World._sleepers``: bodies asleep after the last step, or possibly asleep since (Python's
writes, :mod:`impulse2d._sleep`); written by every step that runs to its end."""
FELL_ASLEEP = SLEEPERS + 1
"""``World._fell_asleep``: bodies that fell asleep in the last step (written with
:data:`SLEEPERS`)."""
JOINT_INV_H = FELL_ASLEEP + 1
"""``World._joint_inv_h``: 1 / the (sub)step the joint impulses were accumulated over, written
by a step that solved joints (a step at rest solves none and keeps the last)."""
REFUSED_ROWS = JOINT_INV_H + 1
"""The constraint rows of the island the ``direct`` solver refused (status :data:`REFUSED`)."""
MIXING_STALE = REFUSED_ROWS + 1
"""1 when the contacts' mixed friction and restitution may be stale: set by Python where a
shape's coefficient changed (``Shape.friction``, ``Shape.restitution``) or the mixing rules did
(:func:`.._stepping._ready`); the next step mixes every contact's again
(:func:`.contacts.mix_again`) and clears it."""
STEP_ROW = MIXING_STALE + 1
"""Length of a world's step row."""

# What the step kernel returns: a set of these bits, 0 for the usual step (Python then has
# nothing to do but clock it).
NEW_CONTACTS = 1
"""The step made a new contact store (kept in the reference: :func:`.world_ref.sync_contacts`)."""
NEW_CONSTRAINTS = 2
"""The step made a new constraint store (kept in the reference:
:func:`.world_ref.sync_constraints`)."""
UNSWEPT = 4
"""Fast bodies were left unswept: the world's continuous stage is not compiled yet (Python
compiles and runs it)."""
FELL = 8
"""Islands fell asleep in the step (Python drops the joint rows of a world with joints)."""
WOKE = 16
"""The step stopped after its wake stage: a sleeping island woke whose joints the rows leave
out (Python rebuilds the rows and steps again); nothing after the wake stage ran. Also returned
before anything is done by a step of a world with sleepers, or whose sleep timers may ripen,
whose sleepers' stages are not loaded yet (:func:`sleepers_stage`), and by a step of a world
that gained a circle while its narrowphase leaves circles out (:func:`_lacks_circles`):
Python, which steps again, fills them first (:func:`fill_later`)."""
PAUSED = 32
"""The step stopped after the narrowphase (phase :data:`TO_MANIFOLDS`)."""
REFUSED = 64
"""The ``direct`` solver refused the step (no body moved; :data:`REFUSED_ROWS`)."""


@borrowing_kernel
def _settings_row(world):
    """The settings the step reads (:data:`SETTINGS_ROW`), in :func:`_settings_arguments`'
    order and types: integers and flags are exact in float64 (the largest, an iteration count,
    is far below 2**53), floats are the floats."""
    p = borrow(world, "settings")
    return (np.int64(p[0]), np.int64(p[1]), np.int64(p[2]), p[3] != 0.0, p[4], p[5], p[6],
            p[7], p[8], p[9], p[10], p[11], np.int64(p[FRICTION_MIXING]),
            np.int64(p[RESTITUTION_MIXING]), p[14] != 0.0, p[15], p[16] != 0.0, p[17])


@borrowing_kernel
def _step_inputs(world):
    """What the step reads of its row besides the settings: gravity (x, y), whether the pairs
    are dirty and whether the contacts' mixed coefficients are stale (both flags cleared here:
    the step sees each once), whether some body may be asleep, and whether the joint rows leave
    out a sleeping island's joints."""
    p = borrow(world, "settings")
    pairs_dirty = p[PAIRS_DIRTY] != 0.0
    p[PAIRS_DIRTY] = 0.0
    mixing_stale = p[MIXING_STALE] != 0.0
    p[MIXING_STALE] = 0.0
    return (p[GRAVITY], p[GRAVITY + 1], pairs_dirty, mixing_stale, p[SLEEPERS] != 0.0,
            p[JOINTS_FILTERED] != 0.0)


@borrowing_kernel
def _mix_again(world, friction_mixing, restitution_mixing):
    """Every contact's friction and restitution mixed again (:data:`MIXING_STALE`)."""
    mix_again(borrow(world, "contacts"), borrow(world, "shapes"), friction_mixing,
              restitution_mixing)


@borrowing_kernel
def _step_outputs(world, sleeping, fell, joint_h):
    """What a step that ran to its end leaves in its row for Python: the sleeping counts, and
    1 / the joints' (sub)step if it solved joints (``joint_h > 0``: else the last is kept)."""
    p = borrow(world, "settings")
    p[SLEEPERS] = sleeping
    p[FELL_ASLEEP] = fell
    if joint_h > 0.0:
        p[JOINT_INV_H] = 1.0 / joint_h


@borrowing_kernel
def _refused(world, joint_h):
    """The rows of the island the ``direct`` solver refused (``joint_h``: minus them)."""
    borrow(world, "settings")[REFUSED_ROWS] = -joint_h


@borrowing_kernel
def _contact_rows(world):
    """The contact store's rows (0: no contact at all)."""
    return borrow_column(world, "contacts", "key").shape[0]


@borrowing_kernel
def _no_contacts(world):
    """No contact row for the contact stages to visit."""
    borrow(world, "awake_state")[CONTACT_COUNT] = 0


@borrowing_kernel
def _mark_runs(world):
    """The wide solver's runs of rows (:func:`.constraint_graph.mark_colour_runs`), from the
    colours' starts the colouring left in the scratch: only for a world whose passes solve in
    lanes (the step's lanes needed, :func:`.contact_lanes.lane_rows_for`), the one reader of
    ``lane_end``; a world solved row by row leaves it as it was (57-127 cycles a step of five
    rows, BENCHMARKS.md, sessions 16 and 21), and out of the state hash
    (:data:`impulse2d.snapshot._SCRATCH_COLUMNS`)."""
    mark_colour_runs(borrow_column(world, "constraints", "lane_end"),
                     starts_view(borrow(world, "scratch")))


@borrowing_kernel
def _constraints_needed(world, n):
    """Whether the step's ``n`` touching contacts need a new constraint store (the count
    changed, or, solved in lanes, it has too few lanes), and the lane rows it needs
    (:func:`.contact_lanes.lane_rows_for`, 0 for no rows: not asked then, where it asks the
    solver's lanes entry for its mode by address, some 50 instructions a step of a world with
    no touching contact, as a lander in the air)."""
    lanes_needed = lane_rows_for(world, n) if n > 0 else 0
    return (borrow(world, "constraints").count.shape[0] != n
            or borrow_column(world, "constraints", "lanes").shape[0] < lanes_needed,
            lanes_needed)


@inner_kernel
def _new_constraints(world, n, lanes_needed):
    """The world's constraint store replaced by one of ``n`` rows and ``lanes_needed`` lane
    rows (:func:`.contact_solver.allocate_constraints`, compiled in here). In the step kernel,
    which counts references, the store read, passed in, returned and written back was 2,497
    of its 4,823 instructions of IR (``benchmarks/ir_lines.py``, session 30)."""
    world.constraints = allocate_constraints(n, world.constraints, lanes_needed)


@borrowing_kernel
def _velocities_rows(world, velocity_tolerance):
    """Body rows the sweeps' convergence test needs in ``scratch_f`` that it lacks (0: none,
    or it has them)."""
    if velocity_tolerance <= 0.0:
        return 0
    rows = borrow_column(world, "bodies", "w").shape[0]
    return rows if velocities_short(borrow(world, "scratch_f"), rows) else 0


@borrowing_kernel
def _lacks_sleepers_stage(world, dt, time_to_sleep, enable_sleep):
    """Whether this step of ``dt`` may need the world's sleepers' stages while they are not
    loaded (:func:`sleepers_stage`, slot 0 until a cold start's helper delivers it:
    :data:`LATER_SLOTS`): some body may be asleep (the step row's count of sleepers), or some
    sleep timer may ripen in it (:func:`.islands.may_ripen`: a pass over the bodies, made only
    while the slot is 0)."""
    if borrow(world, "verbs")[SLEEPERS_STAGE] != 0:
        return False
    return borrow(world, "settings")[SLEEPERS] != 0.0 or (
        enable_sleep and may_ripen(borrow(world, "bodies"), dt, time_to_sleep))


@borrowing_kernel
def _lacks_circles(world):
    """Whether the world's narrowphase leaves the circle routines out (slot
    :data:`~.verbs.POLYGONS_ONLY`: :func:`collide_polygons`) while the world may have gained a
    circle: its pairs are dirty (as after every shape Python makes) and a live shape has one
    vertex (a pass over the shapes, made only then)."""
    if (borrow(world, "verbs")[POLYGONS_ONLY] == 0
            or borrow(world, "settings")[PAIRS_DIRTY] == 0.0):
        return False
    shapes = borrow(world, "shapes")
    for s in range(shapes.count.shape[0]):
        if shapes.alive[s] and shapes.count[s] == 1:
            return True
    return False


@gil_free_kernel
def step_kernel(world, dt, phase):
    """Advance the stores of ``world`` (a :data:`~.world_ref.WORLD_STORES` reference) by ``dt``,
    with the settings and inputs of its step row (the reference's ``settings``: the settings,
    :data:`SETTINGS_ROW`, then gravity, the joint rows' flag, the dirty pairs' flag, the
    count of sleepers and the stale mixing's flag, :data:`STEP_ROW`).

    Returns a set of status bits, 0 for the usual step: whether it made a new contact store
    (:data:`NEW_CONTACTS`) and a new constraint store (:data:`NEW_CONSTRAINTS`; both kept in
    the reference only: Python fetches each when it needs it, :func:`.world_ref.sync_contacts`
    and :func:`.world_ref.sync_constraints`), whether islands fell asleep (:data:`FELL`),
    whether fast bodies were left unswept because the world's continuous stage is not compiled
    yet (:data:`UNSWEPT`: Python then runs it), and the early stops (:data:`WOKE`,
    :data:`PAUSED`, :data:`REFUSED`). A step that runs to its end writes the sleeping counts
    and the joints' reaction scale into the row (:func:`_step_outputs`), where Python reads
    them (``World._sleepers``, ``_fell_asleep``, ``_joint_inv_h``); every call clears the
    dirty pairs' flag and the stale mixing's (after mixing the contacts' coefficients again:
    :data:`MIXING_STALE`). ``world.clock`` receives the cycle counter before each stage and at the
    end (see :data:`STAGES`).

    A world whose live bodies are all static, asleep or idle kinematic ones, with no fat box
    moved and no pair dirty, returns after the pair stage (:func:`_at_rest`: the other stages would change
    nothing), the joints' reaction scale kept.

    Some body may be asleep (the row's count of sleepers): the wake stage runs. The joint rows
    leave out some sleeping island's joints (the row's flag): if this step wakes a sleeping
    island, its joints must be solved in it, so the step stops after the wake stage
    (:data:`WOKE`) and Python runs it again with the rows rebuilt. The stages
    before are idempotent (bounds, pairs, manifolds of unmoved bodies) and the bodies not yet
    moved, so the second run is the step the rows would have given; it costs a narrowphase
    on the rare step that wakes a jointed island.

    ``phase``: :data:`WHOLE` runs every stage; a world with Python callbacks
    (:mod:`impulse2d.callbacks`) runs the step in two calls, :data:`TO_MANIFOLDS` (bounds,
    pairs, narrowphase; then it returns, :data:`PAUSED`) and :data:`FROM_MANIFOLDS`
    (the rest), so that the callbacks can see the new pairs and manifolds and switch contacts
    off between the two.

    This kernel allocates only new pairs and stores (its scratch is the world's, :mod:`.scratch`);
    the stages that neither allocate nor return arrays run in borrowing kernels, which count
    no references.
    Returning a store to Python costs about 1.3 us per array (measured: boxing, and building
    the NamedTuple), so no store is returned: the constraint store, which Python reads only
    for contact events, snapshots and hashes (its 20 arrays cost about 24 us to box, and its
    count changes on about half of BipedalWalker's steps, measured 2026-11-24), nor the
    contact store, which a world of bouncing balls replaces on one step in ten (5 balls,
    ``restitution``: 28 of 300 steps) and which Python reads only where something looks at
    the contacts (events, callbacks, queries of them, snapshots); a store in the returned tuple
    also made every step count references of its 16 arrays (a null check each: 51 calls a
    step, and the whole store's return slot written; gdb, 2026-11-29).
    """
    (substeps, iterations, position_iterations, warm_starting, contact_hertz,
     contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
     restitution_threshold, max_linear_speed, baumgarte, friction_mixing, restitution_mixing,
     enable_sleep, time_to_sleep, enable_continuous, velocity_tolerance) = _settings_row(world)
    if phase != TO_MANIFOLDS and _lacks_sleepers_stage(world, dt, time_to_sleep, enable_sleep):
        return WOKE  # nothing done: Python fills the slot (fill_later) and steps again
    if phase != FROM_MANIFOLDS and _lacks_circles(world):
        return WOKE  # nothing done: Python fills the table again (fill_later) and steps again
    gx, gy, pairs_dirty, mixing_stale, has_sleepers, joints_filtered = _step_inputs(world)
    if mixing_stale:  # (before the pair stage, which carries the coefficients to a new store)
        _mix_again(world, friction_mixing, restitution_mixing)
    # This kernel holds no array: each it held (a view of the scratch, a store's column) was an
    # atomic increment and decrement of a reference count per kernel it passed through, 87 a
    # step of 5 balls (gdb, 2026-11-29). The stages take what they need in kernels that count
    # none; here only the scratch is grown when a world outgrows it (rare).
    status = 0  # NEW_CONTACTS | NEW_CONSTRAINTS, once known
    if phase != FROM_MANIFOLDS:
        _tick(world, 0)
        # the move buffer: shapes whose fat box changed (the world's scratch, .scratch)
        size = _move_size(world)
        if size > 0:
            grow(world, size)
        n_moved, new_contacts = _update_bounds(world, pairs_dirty)
        if new_contacts:
            status = NEW_CONTACTS
        _tick(world, 1)
        if phase == WHOLE and has_sleepers and n_moved == 0 and not pairs_dirty:
            sleeping = call_sleepers_stage(_verb(world, SLEEPERS_STAGE), (world, AT_REST, 0.0))
            if sleeping >= 0:  # nothing awake, nothing can wake: the rest would change nothing
                _ticks_after(world, 1)
                _step_outputs(world, sleeping, 0, 0.0)
                return 0
        paired = False
        if _contact_rows(world) == 0:
            # No contact at all (a chain, a world of joints only): the contact stages are
            # skipped, the narrowphase's call too (it passes its stores on the stack: 1,100 of
            # the 1,200 cycles of a 100-pin world's stage, measured 2026-11-28), and there is
            # no contact to gather.
            _no_contacts(world)
        else:
            _find_contacts(world)  # the contacts the contact stages visit (.awake)
            paired = call_collide(_collide_entry(world), (world,))
            chains = _verb(world, CHAINS)
            if chains != 0:
                call_collide(chains, (world,))
        if phase == TO_MANIFOLDS:
            return status | PAUSED
    else:
        paired = _contact_rows(world) > 0
        _find_contacts(world)  # (the callbacks may have woken bodies)
    if has_sleepers and call_sleepers_stage(_verb(world, SLEEPERS_STAGE),
                                           (world, WAKE, 0.0)) > 0:
        if joints_filtered:
            return status | WOKE
        _find_contacts(world)  # the woken islands' contacts join this step's
    _tick(world, 2)

    n, at = 0, 0  # the solve order: n rows at `at` of the scratch
    if paired:
        size = _colour_size(world)
        if size > 0:
            grow(world, size)
        n, at = _colour(world)
    else:
        _no_colours(world)
    # re-used while the count holds and, solved in lanes, its lanes do (a world gets them when
    # it first solves in lanes: contact_lanes.lane_rows_for)
    new_cs, lanes_needed = _constraints_needed(world, n)
    if new_cs:
        _new_constraints(world, n, lanes_needed)
        status |= NEW_CONSTRAINTS
    if lanes_needed > 0:  # the wide solver's runs (a world solved row by row reads none)
        _mark_runs(world)
    # scratch for the sweeps' convergence test (WorldSettings.velocity_tolerance), if it is on
    rows = _velocities_rows(world, velocity_tolerance)
    if rows > 0:
        grow_velocities(world, rows)
    joint_h, fast = _solve(world, at, n, dt, gx, gy, substeps, iterations, position_iterations,
                           warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
                           joint_damping_ratio, contact_speed, restitution_threshold,
                           max_linear_speed, baumgarte, velocity_tolerance, enable_continuous)
    if joint_h < 0.0:  # the direct solver refused the step: no body moved, no sleep timer runs
        _refused(world, joint_h)
        return status | REFUSED
    sleeping, fell = 0, 0
    if enable_sleep or has_sleepers:
        sleeping, fell = _sleep(world, dt, time_to_sleep, enable_sleep)
        _tick(world, 5)  # counted with finalize
    _step_outputs(world, sleeping, fell, joint_h)
    if fell > 0:
        status |= FELL
    if fast > 0:
        continuous = _verb(world, CONTINUOUS)
        if continuous == 0:
            _tick(world, 6)
            return status | UNSWEPT  # Python sweeps them
        call_continuous(continuous, (world,))
    _tick(world, 6)
    return status


WHOLE, TO_MANIFOLDS, FROM_MANIFOLDS = 0, 1, 2
"""The ``phase`` of :func:`step_kernel`: the whole step, or its two halves around the
callbacks. A kernel that calls the step kernel passes it as ``np.int64(WHOLE)``: the constant
itself is typed ``Literal[int](0)``, a second signature, and the step kernel was compiled
twice (about 11 s of CPU each, measured on the 2-core machine: ``warmup --all``, and any
process that steps a batch or repeats steps)."""

_step = DirectCall(step_kernel, "the step (collision and contacts)", STEP_SECONDS)


@inner_kernel
def _same_touching(key, count, touching):
    """Whether the touching contacts (``count > 0``) have exactly the keys ``touching``
    (ascending, as the contact store's keys are)."""
    j = 0
    for k in range(key.shape[0]):
        if count[k] > 0:
            if j >= touching.shape[0] or key[k] != touching[j]:
                return False
            j += 1
    return j == touching.shape[0]


@gil_free_kernel
def step_repeat_kernel(world, dt, n, touching, forces, torques, starts, first, whole_dt,
                       far_distance):
    """Up to ``n`` whole steps of :func:`step_kernel` in one call from Python (each the step
    that one call would take, bit for bit), stopping after the first step that leaves
    Python something to do: the touching contacts' keys are no longer ``touching`` (the
    caller's contact callbacks), a body fell asleep (the joint rows change), or the step asked
    for Python (a woken jointed island, an unswept fast body, a refused direct step).

    For a caller whose own step is several of these (:mod:`impulse2d.compat`), over one or
    more calls: on the ``first`` call the bodies' forces, torques and origins are copied into
    ``forces``, ``torques`` and ``starts`` (one row per body row); each step clears the forces,
    and they are put back from there before every step but the caller's first. When the call
    takes all ``n`` steps and ``whole_dt > 0``, the dynamic bodies that the whole caller's step
    moved more than ``far_distance`` (m) beyond what their velocity now accounts for
    (``|origin - start - v whole_dt|``) are counted (the caller's continuous test).

    Returns :func:`step_kernel`'s status bits for the last step taken, with
    :data:`NEW_CONTACTS` and :data:`NEW_CONSTRAINTS` if any step made a new store, and
    :data:`WOKE` if the step after them stopped at its wake stage (a jointed island woke, its
    joints not in the rows: that step is not counted, and is taken again once Python has
    rebuilt the rows, as :func:`.._stepping.step_world` does); the number of steps taken,
    whether the touching contacts' keys now differ from ``touching``, and the count of far
    bodies. Each step reads and writes the world's step row as its own call would (the dirty
    pairs' flag seen by the first, each step's count of sleepers by the next)."""
    bodies = borrow(world, "bodies")
    rows = bodies.force.shape[0]
    kept = forces.shape[0] == rows and torques.shape[0] == rows
    if first:
        if kept:
            forces[:, :] = bodies.force
            torques[:] = bodies.torque
        if starts.shape[0] == rows:
            starts[:, :] = bodies.origin
    stores = 0  # NEW_CONTACTS | NEW_CONSTRAINTS of any step
    status = 0
    taken = 0
    changed = False
    for k in range(n):
        if kept and (k > 0 or not first):
            bodies.force[:, :] = forces
            bodies.torque[:] = torques
        step = step_kernel(world, dt, np.int64(WHOLE))  # int64, as Python's calls (see WHOLE)
        stores |= step & (NEW_CONTACTS | NEW_CONSTRAINTS)
        if step & WOKE:
            status |= WOKE
            break
        status = step
        taken += 1
        if not _same_touching(borrow_column(world, "contacts", "key"),
                              borrow_column(world, "contacts", "count"), touching):
            changed = True
            break
        if step & (REFUSED | FELL | UNSWEPT):
            break
    far = 0
    if taken == n and whole_dt > 0.0 and not status & UNSWEPT:
        origin = bodies.origin
        v = bodies.v
        limit = far_distance * far_distance
        for i in range(min(rows, starts.shape[0])):
            if bodies.alive[i] and bodies.type[i] == DYNAMIC:
                ex = origin[i, 0] - starts[i, 0] - v[i, 0] * whole_dt
                ey = origin[i, 1] - starts[i, 1] - v[i, 1] * whole_dt
                if ex * ex + ey * ey > limit:
                    far += 1
    return status | stores, taken, changed, far


_step_repeat = DirectCall(step_repeat_kernel, "the step, repeated", STEP_SECONDS)

STAGE_KERNELS = {PAIRS: LazyKernel(update_pairs, PAIRS_SIGNATURE, "the pair search", PAIRS_SECONDS),
                 MOVED_PAIRS: LazyKernel(moved_pairs_stage, MOVED_PAIRS_SIGNATURE,
                                         "the pair search (moved boxes)", MOVED_PAIRS_SECONDS),
                 SEARCH_PAIRS: LazyKernel(search_pairs, SEARCH_PAIRS_SIGNATURE,
                                          "the pair search (global)", SEARCH_PAIRS_SECONDS),
                 COLLIDE: LazyKernel(collide, COLLIDE_SIGNATURE, "the narrowphase",
                                     COLLIDE_SECONDS),
                 SLEEPERS_STAGE: LazyKernel(sleepers_stage, SLEEPERS_STAGE_SIGNATURE,
                                            "the wake stage", SLEEPERS_SECONDS)}
"""The step's stages compiled on their own (every world needs them)."""

GRID_SEARCH_KERNEL = LazyKernel(grid_search, SEARCH_PAIRS_SIGNATURE, "the pair search (grid)",
                                GRID_SEARCH_SECONDS)
"""The global search of a world of more shapes than :data:`.._collision.broadphase.
SWEEP_BELOW` (:func:`.._collision.broadphase.grid_search`: the grid alone), chosen by
:func:`needed_units` in :data:`STAGE_KERNELS`' place: a cold first step of such a world does
not compile the sort and sweep it would not take. The same pairs either way, so the choice,
made when the table is filled, is one of compile time and speed only."""

POLYGON_COLLIDE_KERNEL = LazyKernel(collide_polygons, COLLIDE_SIGNATURE,
                                    "the narrowphase (polygons)", POLYGONS_SECONDS)
"""The narrowphase of a world without circles (:func:`collide_polygons`), chosen for it by
:func:`needed_units` in :data:`STAGE_KERNELS`' place: a cold first step of a world of boxes
compiles the polygon routine alone. A world that gains a circle fills its table again
(:func:`fill_later`) and takes :data:`STAGE_KERNELS`' narrowphase, loaded or compiled then:
the same routines in the same order, so the same bits."""

LATER_SLOTS = (SLEEPERS_STAGE, MOVED_PAIRS)
"""Slots of the table of verbs that a world's first step never calls (its pairs are dirty, so
it takes the global search; it has no sleeper and no ripe sleep timer), so that when they must
be compiled, a helper process compiles them after the first step's units, in this order, and
this process loads them while the world steps (:func:`.._core.parallel.compile_units`'
``later``; in a warm process they load before the first step, as every unit does). Until then
a slot holds 0, and a step takes another way to the same bits: the pair stage the global
search instead of the incremental path (the same pairs, :mod:`.pair_update`); a step of a
world with sleepers, or whose sleep timers may ripen (:func:`_lacks_sleepers_stage`), stops
before it does anything and Python waits for the sleepers' stages (:func:`fill_later`), which
a cold run meets only if a body comes to rest for ``time_to_sleep`` (0.5 s of simulated time,
30 steps of 1/60 s) or is put to sleep before the helper is done: that unit comes first, so
that such a step waits for it alone. 18.7 s of a cold ``pyramid_20``'s 103 s of compile CPU
at load 7-10 (BENCHMARKS.md, session 18, ``cold43``), and the islands falling asleep (session
20, ``cold45``)."""
_LATER_TABLES: list = []
"""(weak reference to a table of verbs, slot) filled with 0 for a later unit not delivered
yet; :func:`_later_ready` writes its address there."""
_LATER_LOCK = threading.Lock()
"""Held to read a later unit's address and note the table, and to write the tables noted: the
unit is delivered by another thread (:func:`.._core.parallel.compile_units`)."""


def fill_later(world) -> None:
    """Fill ``world``'s later slots that a step needs now (a world with sleepers, or whose sleep
    timers may ripen: the sleepers' stages), waiting for the helper compiling it (:func:`.._core.parallel.wait_later`), or
    compiling it here where none is (another process's helper has it); and, where the world
    gained a circle while its narrowphase leaves circles out, mark its table to be filled
    again by the next step (:func:`_fill_verbs`). For a step that returned :data:`WOKE`
    (:mod:`.._stepping`); a table read when it is filled."""
    table = world._verbs
    if table[SLEEPERS_STAGE] == 0:
        unit = STAGE_KERNELS[SLEEPERS_STAGE]
        wait_later(unit)
        with _LATER_LOCK:
            table[SLEEPERS_STAGE] = unit.address()
    if table[POLYGONS_ONLY] and _has_circles(world._shapes):
        world._verbs_for = (None, None)  # the next step fills the table: the narrowphase's


def _has_circles(shapes) -> bool:
    """Whether the shape store ``shapes`` has a live circle (a shape of one vertex)."""
    return bool(np.any((shapes.count == 1) & shapes.alive))


def _later_ready(unit) -> None:
    """A later unit delivered (another thread): its address into the tables filled without it."""
    with _LATER_LOCK:
        waiting = []
        for ref, slot in _LATER_TABLES:
            table = ref()
            if table is None:
                continue
            if STAGE_KERNELS[slot] is unit:
                table[slot] = unit.compiled_address()
            else:
                waiting.append((ref, slot))
        _LATER_TABLES[:] = waiting


EARLY_UNITS = (STAGE_KERNELS[PAIRS], POLYGON_COLLIDE_KERNEL)
"""The stages a helper starts on at the process's first compile, usually the first world's build
(:func:`.._core.parallel.start_early`): the pair stage and the narrowphase, which every first
step calls; the narrowphase of a world without circles, since the world's shapes are not known
yet at that point (a world with circles has the other compiled by its first step's plan). The
global search is left to the first step's plan, which balances it with the solver and the
contact passes against this process's step kernel. Measured on a cold
``pyramid_20`` (BENCHMARKS.md, session 20, ``cold45``): once the step kernel had shrunk to
16.5 s of CPU (load 12), the early pair search (the pair stage and the global search, 16.9 s)
left this process the narrowphase (10.0 s) and the helper the soft step and the wide passes
(14.3 + 5.4 s), the helper last by 3.9 s; with the narrowphase early instead of the global
search (11.5 s), this process takes the search and the helper the rest, 0.9 s apart by those
figures. (Session 19's plan, the narrowphase early with the pair search, fixed the helper's
share at about 22 s before the plan saw the rest, when the step kernel was 21-22 s.)"""
lazy.FIRST_COMPILE.append(lambda: start_early(EARLY_UNITS))

CHAIN_KERNEL = LazyKernel(collide_chains, COLLIDE_SIGNATURE, "chain shapes", CHAINS_SECONDS)
"""The chain narrowphase, compiled when a world first steps with a chain."""
CONTINUOUS_KERNEL = LazyKernel(solve_continuous, CONTINUOUS_SIGNATURE, "continuous collision",
                               CONTINUOUS_SECONDS)
"""The continuous stage: loaded by a world's first step if the cache holds it, else compiled the
first time a step of a world has a fast body (:func:`_fill_verbs`)."""
CONTINUOUS_BOX2D23_KERNEL = LazyKernel(solve_continuous_box2d23, CONTINUOUS_SIGNATURE,
                                       "continuous collision (Box2D 2.3's rules)",
                                       CONTINUOUS_SECONDS)
"""The continuous stage of a world with ``WorldSettings.continuous_box2d23``
(:mod:`.continuous_box2d23`), compiled the first time such a world has a fast body."""


def _continuous_kernel(settings):
    """The continuous stage ``settings`` ask for."""
    return CONTINUOUS_BOX2D23_KERNEL if settings.continuous_box2d23 else CONTINUOUS_KERNEL

SOLVER_KERNELS = {name: LazyKernel(entry, SOLVER_SIGNATURE, f"the {name} solver",
                                   SOLVER_SECONDS[name])
                  for name, entry in {**solvers.ENTRIES, **solvers_ngs.ENTRIES,
                                      **direct.ENTRIES}.items()}
"""Each solver's entry, compiled when a world first steps with it."""

LANES_KERNEL = LazyKernel(lanes_entry, LANES_SIGNATURE, "the wide contact solver", 5.8)
ROWS_KERNEL = LazyKernel(rows_entry, LANES_SIGNATURE, "the contact solver", 3.0)
"""The contact passes (:mod:`.contact_lanes`) of the solvers that call them by address
(``LANE_SOLVERS``): in lanes, or row by row for a small world; about 5.8 (re-measured with the
units above, session 23) and 3 s of compile CPU (the loops alone, measured in isolation)."""

LANES_F32_KERNEL = LazyKernel(lanes_f32_entry, LANES_SIGNATURE,
                              "the wide contact solver in float32", 7.0)
"""The contact passes in float32 (:mod:`.contact_lanes_f32`) of a world of
``WorldSettings.solver_precision="float32"`` whose solver is one of ``F32_SOLVERS`` and whose
contacts are solved in lanes (:func:`.contact_lanes.lanes_pay`; a smaller world's go row by
row in float64, :data:`ROWS_KERNEL`); about 1.6x the float64 entry's compile (8.9-9.9 s of CPU
against its 4.9-7.7 in the same processes, uncached, load ~8:
``benchmarks/lanes_f32_compile.py``), in the units above."""

PREPARE_F32_KERNEL = LazyKernel(prepare_f32_entry, LANE_PREPARE_SIGNATURE,
                                "the contact rows' prepare in float32", 1.5)
"""The prepare of such a world's rows into its float32 lanes (the slot :data:`LANE_PREPARE`,
filled with :data:`LANES_F32_KERNEL`: :mod:`.contact_lanes_f32`); its estimate a guess at
the prepare's share of a solver's compile."""

ACCELERATION_SECONDS = 22.9
"""Measured compile of the acceleration level (every joint type's J-dot-v products inline), as
the others above: 60.4 s after the velocity level's 43.7 s, less the 5.6 s of a second copy of
its island solve that no longer compiles (2026-11-24: 32 s against 18.5 s); then 56.6 -> 35.0 s
at load 10-12 once its joint products stopped compiling twice (a literal start row, 2026-11-28
evening), scaled to the figures above; 34.0 -> 22.9 s once the island solve was a unit of its
own, called by address (:data:`ISLANDS_SECONDS`)."""

DIRECT_ACCELERATION_KERNEL = LazyKernel(direct_accel.direct_acceleration, SOLVER_SIGNATURE,
                                        "the direct solver (acceleration level)",
                                        ACCELERATION_SECONDS)
"""The entry of ``solver="direct"`` with ``direct_level="acceleration"`` (:mod:`.direct_accel`;
it takes the joints' rows from their types' exports, as the velocity level does)."""

JOINT_KERNELS = {name: LazyKernel(entry, JOINT_SIGNATURE, f"{name} joints", JOINT_SECONDS[name])
                 for name, entry in joint_solver.ENTRIES.items()}
"""Each joint type's entry, compiled when a world first steps with a joint of that type."""

JOINT_POSITION_KERNELS = {name: LazyKernel(entry, JOINT_POSITION_SIGNATURE,
                                           f"{name} joint positions",
                                           JOINT_POSITION_SECONDS.get(name, 2.0))
                          for name, entry in joint_solver.POSITION_ENTRIES.items()}
"""Each joint type's position correction, compiled when a world of a solver that corrects
positions (:mod:`.solvers_ngs`) first steps with a joint of that type."""

DIRECT_ROWS_KERNELS = {name: LazyKernel(entry, DIRECT_ROWS_SIGNATURE, f"{name} joint rows",
                                        DIRECT_ROWS_SECONDS.get(name, 3.0))
                       for name, entry in joint_solver.ROWS_ENTRIES.items()}
"""Each joint type's row export for the ``direct`` solver (:mod:`.direct_rows`), compiled when
a world of that solver, or with diagnostics on, first steps with a joint of that type."""

DENSE_SECONDS = 1.5
"""Compile of LAPACK's Cholesky for the direct solver (:mod:`.direct_dense`), measured on the
loaded 2-core machine, 2026-11-24: 1.3-1.4 s (from the cache: 0.05-0.07 s)."""

DENSE_KERNEL = LazyKernel(direct_dense.dense_cholesky, DENSE_SIGNATURE,
                          "LAPACK's Cholesky (direct solver)", DENSE_SECONDS)
"""LAPACK's Cholesky for the direct solver's dense equality blocks, compiled when a world first
has one (the solver asks through slot :data:`~.verbs.DIRECT_DENSE`;
:func:`.._stepping.step_world`)."""

ISLANDS_KERNEL = LazyKernel(direct.solve_islands, ISLANDS_SIGNATURE,
                            "the direct solver's island solve", ISLANDS_SECONDS)
"""The ``direct`` solver's island solve (assembly, Cholesky, Lemke: :func:`.direct.solve_islands`),
which both of its levels and the diagnostics call by address (slot
:data:`~.verbs.DIRECT_ISLANDS`), compiled when a world of that solver, or with diagnostics on,
first steps."""

DIAGNOSTICS_KERNEL = LazyKernel(diagnostics.diagnose, DIAGNOSE_SIGNATURE, "the solver diagnostics",
                                DIAGNOSTICS_SECONDS)
"""The solver diagnostics (:mod:`.diagnostics`), compiled when a world first steps with
``WorldSettings.diagnostics`` on."""


def _fill_verbs(world, by_type, prepare_step) -> None:
    """Point ``world``'s table of verbs at its solver and at the entries of the joint types it
    has, compiling those that are not compiled yet, together with the step kernel
    (``prepare_step``), in several processes where that pays (:mod:`.._core.parallel`)."""
    settings = world.settings
    exact = settings.solver == "direct"
    needed = needed_units(world, by_type)
    # a later unit in the cache is loaded now, one not there compiled while the world steps
    later = {slot: needed.pop(slot) for slot in LATER_SLOTS
             if slot in needed and not needed[slot].cached_address()}
    units = list(dict.fromkeys(needed.values()))  # once each: pins and revolutes share
    if later or not (_step.prepared and all(unit.compiled_address() for unit in units)):
        # (else every kernel is at hand: a new world of a kind this process has stepped, as
        # each Gymnasium reset makes; the planning below cost ~40 us of such a first step)
        # The step kernel (and the stores' constructor) compile here; one signature each.
        step_compiles = not _step.prepared and not cached_signatures(step_kernel)
        own_seconds = STEP_SECONDS + STORES_SECONDS if step_compiles else 0.0
        compile_units(units, prepare_step, own_seconds, later=later.values(), ready=_later_ready)
    table = world._verbs
    if bool(table[LANE_PREPARE]) != (LANE_PREPARE in needed):
        sync_constraint_rows(world)  # (the rows' lanes change precision: read them first)
    table[LANE_PREPARE] = 0
    table[JOINTS:DIRECT_COUNTS] = 0  # the direct solver's counters carry on
    table[DIAGNOSTICS] = 0
    table[DIRECT_ISLANDS] = 0
    table[CHAINS] = 0
    table[SERIAL_SOLVER] = 0
    table[SERIAL_COLLIDE] = 0
    for slot, unit in needed.items():
        table[slot] = unit.address()
    table[POLYGONS_ONLY] = POLYGON_COLLIDE_KERNEL in needed.values()
    with _LATER_LOCK:
        for slot, unit in later.items():
            table[slot] = unit.compiled_address()  # (0 until it is delivered)
            if not table[slot]:
                _LATER_TABLES.append((weakref.ref(table), slot))
    table[DIRECT_MAX_ROWS] = settings.direct_max_rows
    table[THREADS] = _threads.slot(settings)
    table[THREAD_ROWS] = _threads.MIN_ROWS
    table[THREAD_BODIES] = _threads.MIN_BODIES
    # the custom joints' laws (custom_joints.py; none in a world pickled before they were)
    for slot, law in enumerate(getattr(world, "_laws", ())):
        table[LAWS + slot] = law.address()
    # Rewritten here so that a table copied from another process never keeps that process's
    # address. The continuous stage is loaded now if the cache has it: loaded on the step that
    # first has a fast body, it made that step of a warmed-up run 30-40 ms long (chain_100);
    # one not in the cache compiles on that step instead (:mod:`.._stepping`), never for a world
    # that has no fast body.
    continuous = _continuous_kernel(settings)
    table[CONTINUOUS] = (continuous.cached_address() if settings.enable_continuous
                         else continuous.compiled_address())
    if table[DIRECT_DENSE] != 0:  # this world has asked for it (a restored snapshot: -1)
        table[DIRECT_DENSE] = DENSE_KERNEL.address()
    elif exact:
        DENSE_KERNEL.cached_address()  # loaded now for the first dense block (slot unchanged)


SOFT_STEP_REVOLUTE_KERNEL = LazyKernel(solvers.soft_step_revolute, SOLVER_SIGNATURE,
                                       "the soft_step solver with revolute joints", 14.6)
"""The soft step of a world whose joints are all revolute, their passes compiled in
(:func:`.solvers.soft_step_revolute`), chosen by :func:`needed_units`. Its estimate is what a
first run pays, the unit alone: 30.6 s of CPU in one process at load 10-11, where
``soft_step`` took 15.0 and ``revolute_entry`` after it 12.6 (BENCHMARKS.md, session 20,
``lander45``); 18.1 s in a cold ``chain_100``'s helper at load 13 once restitution had left
the solvers (session 23, ``cold48``), scaled as the units above."""


def _all_revolute(joints) -> bool:
    """Whether the joint store ``joints`` has live joints and every one is revolute (asleep
    too: a lander whose joints fall asleep keeps its solver rather than loading another)."""
    types = joints.type[joints.alive]
    return types.shape[0] > 0 and bool(np.all(types == REVOLUTE))


def needed_units(world, by_type) -> dict:
    """The :class:`.._core.lazy.LazyKernel` of each slot of ``world``'s table of verbs that its
    next step needs (by the slot), for its settings and the joint types it has (``by_type``:
    each type's rows, :func:`.joint_solver` order).

    A soft-step world whose joints are all revolute gets :data:`SOFT_STEP_REVOLUTE_KERNEL`, its
    joints' passes compiled in, and no joint entries unless its threaded solver calls them; a
    world of contacts, or with a joint of another type, the soft step that calls the joint
    types' entries by address (:mod:`.joint_solver`). A world without circles gets
    :data:`POLYGON_COLLIDE_KERNEL` for its narrowphase, a world of more shapes than
    :data:`.._collision.broadphase.SWEEP_BELOW` :data:`GRID_SEARCH_KERNEL` for its global
    search."""
    settings = world.settings
    needed = dict(STAGE_KERNELS)
    shapes = world._shapes
    if not _has_circles(shapes):
        needed[COLLIDE] = POLYGON_COLLIDE_KERNEL
    if int(np.count_nonzero(shapes.alive)) > SWEEP_BELOW:
        needed[SEARCH_PAIRS] = GRID_SEARCH_KERNEL
    needed[SOLVER] = SOLVER_KERNELS[settings.solver]
    revolute_solver = settings.solver == "soft_step" and _all_revolute(world._joints)
    if revolute_solver:
        needed[SOLVER] = SOFT_STEP_REVOLUTE_KERNEL
    # a world of WorldSettings.threads > 1 gets the threaded narrowphase and its solver's
    # threaded entry, if it has one, with the serial ones for its steps too small for threads
    for slot, serial_slot, unit in ((COLLIDE, SERIAL_COLLIDE, _threads.collide_unit(settings)),
                                    (SOLVER, SERIAL_SOLVER, _threads.solver_unit(settings))):
        if unit is not None:
            needed[serial_slot] = needed[slot]
            needed[slot] = unit
    exact = settings.solver == "direct"
    measured = bool(settings.diagnostics)
    if measured:
        needed[DIAGNOSTICS] = DIAGNOSTICS_KERNEL
    if exact or measured:
        needed[DIRECT_ISLANDS] = ISLANDS_KERNEL
    fallback = settings.direct_fallback if exact else None
    if exact and settings.direct_level == "acceleration":
        needed[SOLVER] = DIRECT_ACCELERATION_KERNEL  # with the joint types' row exports
    if fallback is not None:
        needed[DIRECT_FALLBACK] = SOLVER_KERNELS[fallback]
    if settings.solver in LANE_SOLVERS or fallback in LANE_SOLVERS:
        # a small world's contacts go row by row (float64) whatever its precision: the lanes
        # do not pay there, float32 ones neither (the 10-body batch: 1.37-1.43x float64's CPU)
        if not lanes_pay(world):
            needed[LANES] = ROWS_KERNEL
        elif settings.solver_precision == "float32" and settings.solver in F32_SOLVERS:
            needed[LANES] = LANES_F32_KERNEL
            needed[LANE_PREPARE] = PREPARE_F32_KERNEL
        else:
            needed[LANES] = LANES_KERNEL
    corrects_positions = (settings.solver in solvers_ngs.ENTRIES
                          or fallback in solvers_ngs.ENTRIES)
    # the joint entries, unless every solver the world may call has the joints compiled in
    entries = not revolute_solver or SERIAL_SOLVER in needed
    for k, rows in enumerate(by_type):
        if rows.shape[0] > 0:
            name = "revolute" if k == joint_solver.PIN_ROWS else ROW_LISTS[k]
            if entries:
                needed[JOINTS + k] = JOINT_KERNELS[name]
            if corrects_positions and name in JOINT_POSITION_KERNELS:
                needed[JOINT_POSITIONS + k] = JOINT_POSITION_KERNELS[name]
            if exact or measured:
                needed[DIRECT_ROWS + k] = DIRECT_ROWS_KERNELS[name]
    if np.any((shapes.type == CHAIN_SEGMENT) & shapes.alive):
        needed[CHAINS] = CHAIN_KERNEL
    return needed


def _settings_arguments(s) -> tuple:
    """The settings as :func:`step_kernel` reads them (:data:`SETTINGS_ROW`), converted once
    per change of the settings rather than once per step."""
    packed = s._derived
    if packed is None:
        packed = (int(s.substeps), int(s.velocity_iterations), int(s.position_iterations),
                  bool(s.warm_starting), float(s.contact_hertz), float(s.contact_damping_ratio),
                  float(s.joint_hertz), float(s.joint_damping_ratio), float(s.contact_speed),
                  float(s.restitution_threshold), float(s.max_linear_speed), float(s.baumgarte),
                  MIXING_CODES[s.friction_mixing], MIXING_CODES[s.restitution_mixing],
                  bool(s.enable_sleep), float(s.time_to_sleep), bool(s.enable_continuous),
                  float(s.velocity_tolerance))
        object.__setattr__(s, "_derived", packed)
    return packed


def _step_arguments(world, dt: float) -> tuple:
    """The arguments of :func:`step_kernel` for ``world`` (what :func:`.._stepping.step_world`
    passes)."""
    return stores_for_step(world), float(dt), WHOLE


def compile_ahead(world, dt: float, units, together=(), pinned=(), then=None) -> None:
    """Compile (or load) ``units`` (:class:`.._core.lazy.LazyKernel`) and ``world``'s step kernel
    at once, shared between processes (``warmup(all_kernels=True)``). Done world by world, the
    compiles of each world wait for the slowest of the last one's: one plan over every unit keeps
    all processes busy to the end. The caller has the processes take the units from one queue
    (:func:`.._core.parallel.take_turns`), which needs no estimate of this process's own work.
    ``together``, ``pinned`` and ``then`` as in :func:`.._core.parallel.compile_units`."""
    compile_units(list(units), lambda: _step.prepare(*_step_arguments(world, dt)), 0.0,
                  together, pinned, then)
