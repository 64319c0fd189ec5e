"""The world's table of verbs: the kernels the step calls by address, compiled on first need.

The step itself holds what every world runs (bounding boxes, pairs, manifolds, colouring,
finalize). What only some worlds use is compiled on its own the first time a world asks for it
(:class:`~.._core.lazy.LazyKernel`) and called through the table in the world reference:

* slots :data:`PAIRS` and :data:`COLLIDE`: the step's two largest stages, the pair search and
  the narrowphase (:mod:`.step`), which every world needs but which compile faster on their own
  than inside the step (the step's module is then not optimised again with their code in it);
* slot :data:`SOLVER`: the solver entry (:mod:`.solvers`), picked by ``WorldSettings.solver``;
* slots :data:`JOINTS` + k: the entry of the joint type of row list k (:mod:`.joint_solver`;
  0 while that list is empty, and then never called);
* slots :data:`JOINT_POSITIONS` + k: the position correction of that joint type, filled only
  for the solvers that correct positions (``pgs_ngs``, ``pgs_block``), so that no other world
  compiles it (0 also for a type without one: the mouse and motor joints);
* slots :data:`DIRECT_ROWS` + k: the row export of that joint type for the ``direct`` solver
  (:mod:`.direct`), filled only for worlds of that solver, so that no other world compiles it;
* slot :data:`DIAGNOSTICS`: the solver diagnostics (:mod:`.diagnostics`), filled only while
  ``WorldSettings.diagnostics`` is on; the solvers call it at fixed points of their passes
  (:func:`diagnose`) and skip it when the slot is 0;
* slot :data:`CONTINUOUS`: the continuous collision stage (:mod:`.continuous`), filled the
  first time a step of the world has a fast body (0 until then: the step leaves that first
  sweep to Python, which compiles the stage);
* the ``direct`` solver's own slots, not addresses of kernels but its setting and its counts:
  :data:`DIRECT_FALLBACK` (the entry of the solver that takes over a step whose largest island
  is above the limit, 0 for none), :data:`DIRECT_MAX_ROWS` (that limit, rows per island, written
  from ``WorldSettings.direct_max_rows``) and :data:`DIRECT_COUNTS` (counters the solver
  writes: see :mod:`.direct`);
* slot :data:`DIRECT_DENSE`: LAPACK's Cholesky for the ``direct`` solver's dense equality
  blocks (:mod:`.direct_dense`), per world: 0 until an island of the world first has a block
  where it pays, -1 once the solver has asked for it (that step factors with its own loops),
  then its address, filled by Python after that step (:func:`.._stepping.step_world`), so
  that a world without a dense block never compiles it and a world's results do not depend on what
  other worlds of the process have compiled;
* slots :data:`LAWS` + k: the kernel of the world's custom law k (``Joints.law``), generated
  from the law's SymPy expressions and compiled by :mod:`impulse2d.custom` (:data:`LAW_SIGNATURE`);
  written by Python before each step that follows a change of joints (0 for an unused slot);
* slot :data:`CHAINS`: the narrowphase of the pairs with a chain segment
  (:mod:`.._collision.chain`), filled once a world has a chain (0 before: never called), so
  that a world without chains does not compile it;
* slot :data:`THREADS`: not an address but the number of threads the world's solver may
  spread its passes over (``WorldSettings.threads``, :mod:`.threaded`), and slot
  :data:`THREAD_ROWS` the rows (or bodies) below which a pass runs serially; read only by
  the threaded entries and the step's choice between them and the serial ones;
* slots :data:`SERIAL_SOLVER` and :data:`SERIAL_COLLIDE`: for a world whose :data:`SOLVER` or
  :data:`COLLIDE` slot holds a threaded entry, the serial entry it stands for (0 otherwise),
  which the step calls instead while the world is too small for any pass to go parallel: the
  same bits without the threaded entry's fixed cost (:func:`.step.step_kernel`); and slot
  :data:`THREAD_BODIES`, the awake bodies from which the threaded solver is taken for its
  body passes alone;
* slot :data:`LANES`: the contact passes of the solvers that solve their contacts by address
  (:data:`.contact_lanes.SOLVERS`, also as the ``direct`` solver's fallback): the wide
  solver's (:func:`.contact_lanes.lanes_entry`), or for a small world the row-by-row ones
  (:func:`.contact_lanes.rows_entry`), so that the vectorised loops are compiled once, not
  again inside each solver that calls them;
* slots :data:`MOVED_PAIRS` and :data:`SEARCH_PAIRS`: the pair stage's two paths, the
  incremental one around the moved boxes (:func:`.pair_update.moved_pairs_stage`) and the
  global search (:func:`.._collision.broadphase.search_pairs`), which the pair stage calls by
  address so that their code is optimised in their own modules, not again in the stage's; the
  pair stage takes the global search, the same pairs, while :data:`MOVED_PAIRS` holds 0 (a
  cold start's first steps: :data:`.step.LATER_SLOTS`);
* slot :data:`SLEEPERS_STAGE`: the step's wake and at-rest stages, its islands falling
  asleep and the gathering of the awake contacts (:func:`.step.sleepers_stage`), which only a
  world with sleepers, with a body at rest for ``time_to_sleep`` or with few awake bodies
  runs; a step of a world of the first two kinds while the slot holds 0 returns at once,
  nothing done (:func:`.step.step_kernel`), and Python fills the slot and steps again; the
  third visits every contact instead (the same rows in the same order);
* slot :data:`LANE_PREPARE`: the prepare of the contact rows into float32 lanes
  (:func:`.contact_lanes_f32.prepare_f32_entry`), filled only for a world whose slot
  :data:`LANES` holds the float32 passes (0 otherwise: the solver prepares the rows itself, in
  float64), so that no float64 world compiles it; a world's lanes are float32 exactly while
  this slot is filled (:func:`.contact_lanes.float32_lanes`);
* slot :data:`POLYGONS_ONLY`: not an address but 1 while the world's narrowphase
  (:data:`COLLIDE`, or :data:`SERIAL_COLLIDE` beside a threaded one) is the one for worlds
  without circles (:func:`.step.collide_polygons`: the circle routines not compiled in), 0
  otherwise; a step that finds a circle among the shapes while it is 1 returns at once,
  nothing done, and Python fills the table again (:func:`.step.step_kernel`);
* slot :data:`DIRECT_ISLANDS`: the ``direct`` solver's island solve (assembly, Cholesky,
  Lemke: :func:`.direct.solve_islands`), filled for a world of that solver (either level) or
  with diagnostics on, so that the solver's two levels and the diagnostics call one compiled
  copy rather than each linking it and optimising it again in its own module;
* slot :data:`FINALIZE`: not an address but the step's finalize offered to the solver
  (:func:`.step._solve`): the step writes 1 before the solver's call (2: with continuous
  collision's fast test) when the impulses may be stored and the bodies finalized inside the
  solve (the diagnostics off); a solver that does it (the threaded one, in its parallel
  region: :mod:`.threaded`) writes back -1 less the number of fast bodies, and the step
  finalizes itself when it reads anything else.

Every entry of a kind has one signature, below, so that one caller serves them all. Later
services take slots of their own the same way.
"""

from __future__ import annotations

import numpy as np
from numba.core import types

from .._core.jit import inline_kernel
from .._core.lazy import JIT, address_call
from .joints import ROW_LISTS
from .world_ref import WORLD_STORES, borrow

PAIRS = 0
COLLIDE = 1
SOLVER = 2
JOINTS = 3
JOINT_POSITIONS = JOINTS + len(ROW_LISTS)
DIRECT_ROWS = JOINT_POSITIONS + len(ROW_LISTS)
DIRECT_FALLBACK = DIRECT_ROWS + len(ROW_LISTS)
DIRECT_MAX_ROWS = DIRECT_FALLBACK + 1
DIRECT_COUNTS = DIRECT_MAX_ROWS + 1
DIRECT_COUNT_NAMES = ("lemke_failures", "fallback_steps", "largest_island_rows", "islands",
                      "lcp_pivots", "regularised_pivots")
DIAGNOSTICS = DIRECT_COUNTS + len(DIRECT_COUNT_NAMES)
CHAINS = DIAGNOSTICS + 1
CONTINUOUS = CHAINS + 1
DIRECT_DENSE = CONTINUOUS + 1
LAWS = DIRECT_DENSE + 1
MAX_LAWS = 32
"""The most distinct custom laws one world may use at once."""
THREADS = LAWS + MAX_LAWS
THREAD_ROWS = THREADS + 1
SERIAL_SOLVER = THREAD_ROWS + 1
SERIAL_COLLIDE = SERIAL_SOLVER + 1
THREAD_BODIES = SERIAL_COLLIDE + 1
LANES = THREAD_BODIES + 1
FINALIZE = LANES + 1
MOVED_PAIRS = FINALIZE + 1
SEARCH_PAIRS = MOVED_PAIRS + 1
LANE_PREPARE = SEARCH_PAIRS + 1
SLEEPERS_STAGE = LANE_PREPARE + 1
POLYGONS_ONLY = SLEEPERS_STAGE + 1
DIRECT_ISLANDS = POLYGONS_ONLY + 1
COUNT = DIRECT_ISLANDS + 1
"""Slots of the table."""

PREPARE, WARM_START, SOLVE = 0, 1, 2
"""What a joint entry is asked to do (its ``verb`` argument)."""

OPENING, ITERATION, EXACT_SOLVE, AFTER_SOLVE, POSITION_PASSES, LANE_COLUMNS = range(6)
"""The points of a solver's passes where it calls the diagnostics (:func:`diagnose`'s
``verb``): after the velocities are integrated, before warm starting (the velocities are kept,
for the exact solve); after iteration ``index`` of the velocity solve; after the last one (the
exact solve, when asked); after the solve, before the step moves the bodies (penetration and
joint errors); after the NGS solvers' position passes (``index`` = passes run). And
``LANE_COLUMNS``, no measure: every column of the rows filled from the wide solver's lanes,
which the measures read (:func:`.contact_lanes.rows_for_diagnostics`; ``order`` unread)."""

_f8, _i8, _b1 = types.float64, types.int64, types.boolean

JOINT_SIGNATURE = _f8(WORLD_STORES, _i8, _i8, _f8, _b1, _b1, _f8, _f8, _f8, _f8, _f8, _f8)
"""``entry(world, row_list, verb, h, flag, soft, bias_rate, mass_scale, impulse_scale,
baumgarte, speed_cap, spin_cap) -> 0.0``: ``verb`` one of PREPARE (``flag`` = warm starting),
WARM_START, SOLVE (``flag`` = use the position bias); the other arguments as the joint types'
``solve`` (the caps: :func:`~.solvers.impulse_caps`)."""

JOINT_POSITION_SIGNATURE = _f8(WORLD_STORES, _i8)
"""``entry(world, row_list) -> error``: one nonlinear Gauss-Seidel correction of the positions
of the joints of row list ``row_list``; returns the largest position error it met, in units of
its tolerance (linear errors over the world's slop, angular ones over ``ANGULAR_SLOP``: at most
1.0 means solved)."""

SOLVER_SIGNATURE = _f8(WORLD_STORES, types.Array(_i8, 1, "C"), _f8, _f8, _f8, _i8, _i8, _i8,
                       _b1, _f8, _f8, _f8, _f8, _f8, _f8, _f8, _f8, _f8,
                       types.Array(_f8, 2, "C"))
"""``entry(world, order, dt, gx, gy, substeps, iterations, position_iterations, warm_starting,
contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
restitution_threshold, max_linear_speed, baumgarte, velocity_tolerance, velocities) -> h``
(``velocities``: scratch of one row per body, (vx, vy, w), for the sweeps' convergence test
when ``velocity_tolerance > 0``, else empty): prepare the touching contacts
``order`` and the joints, solve, and return the (sub)step the joint impulses were accumulated
over. Each solver reads the settings it uses and ignores the others."""

LANES_SIGNATURE = _f8(WORLD_STORES, _i8, _i8, _i8, _f8, _b1, _b1, _f8, _f8, _f8, _b1, _f8)
"""``entry(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
contact_speed, last_sweep, speed_cap) -> value``: the contact passes' ``verb``
(:data:`.contact_lanes.LANE_WARM_START` or :data:`.contact_lanes.LANE_SOLVE`, the others as
:func:`.contact_solver.solve_contacts`) on the constraint rows ``first:last``, returning 0.0;
or :data:`.contact_lanes.LANE_MODE`: 1.0 if the entry solves in float64 lanes, 2.0 in float32
ones, 0.0 if row by row; or restitution (:data:`.contact_lanes.LANE_RESTITUTION`:
:func:`.contact_lanes.restitution` says which arguments carry its values); or, the float32
entry's alone, the other readers of its lanes after the solve
(:data:`.contact_lanes.LANE_FINISH`, :data:`.contact_lanes.LANE_ROWS`)."""

LANE_PREPARE_SIGNATURE = _f8(WORLD_STORES, types.Array(_i8, 1, "C"), _i8, _b1, _f8, _f8, _f8,
                             _f8, _f8, _f8)
"""``entry(world, order, first, warm_starting, rate, mass_scale, impulse_scale, static_rate,
static_mass_scale, static_impulse_scale) -> 0.0``: :func:`.contact_solver.prepare_contacts` of
the contacts ``order`` into the constraint rows from ``first``, their lanes float32
(:mod:`.contact_lanes_f32`)."""

DIRECT_ROWS_SIGNATURE = _f8(WORLD_STORES, _i8, _i8, _i8, _f8, _f8, _f8, _f8,
                            types.Array(_i8, 2, "C"), types.Array(_f8, 3, "C"),
                            types.Array(_f8, 2, "C"), types.Array(_f8, 1, "C"))
"""``entry(world, row_list, verb, start, h, baumgarte, speed_cap, spin_cap, body, jacobian,
data, impulse) -> rows``: the ``direct`` solver's rows of the joints of row list ``row_list``
(:mod:`.direct_rows`: ``verb`` COUNT, ROWS or STORE, from row ``start``); returns how many
rows they are."""

ISLANDS_SIGNATURE = _f8(types.Array(_i8, 2, "C"), types.Array(_f8, 3, "C"),
                        types.Array(_f8, 2, "C"), types.Array(_f8, 1, "C"),
                        types.Array(_i8, 1, "C"), types.Array(_f8, 1, "C"),
                        types.Array(_f8, 1, "C"), _f8, types.Array(_f8, 1, "C"),
                        types.Array(_i8, 1, "C"), types.Array(_i8, 1, "C"), _b1)
"""``entry(body, jacobian, data, b, kind, inv_mass, inv_inertia, speed_cap, impulse, counts,
dense, impulse_only) -> 0.0``: every island of the ``direct`` solver's rows ``body``,
``jacobian``, ``data`` (:mod:`.direct_rows`) solved exactly for the right-hand sides ``b``
into ``impulse`` (:func:`.direct.solve_islands`)."""

DIAGNOSE_SIGNATURE = _f8(WORLD_STORES, types.Array(_i8, 1, "C"), _i8, _i8, _f8, _f8, _f8,
                         _f8, _f8)
"""``entry(world, order, verb, index, h, baumgarte, contact_speed, speed_cap, spin_cap) -> 0.0``:
record what :mod:`.diagnostics` measures at point ``verb`` of a solver's passes (``index``: the
iteration, or the count of position passes); ``h`` and ``baumgarte`` give the bias of the rows
the solver is iterating on."""

PAIRS_SIGNATURE = _b1(WORLD_STORES, types.Array(_i8, 1, "C"), _i8, _b1)
"""``stage(world, moved, n_moved, dirty) -> new contact store?``: ``moved[:n_moved]`` the
shapes whose fat box changed this step, ``dirty`` the world's pairs must be searched afresh
(:func:`.pair_update.update_pairs`)."""

_i8_1, _i8_2 = types.Array(_i8, 1, "C"), types.Array(_i8, 2, "C")
_u8_1, _b1_1 = types.Array(types.uint64, 1, "C"), types.Array(_b1, 1, "C")

MOVED_PAIRS_SIGNATURE = types.Tuple((_b1, _i8_2))(WORLD_STORES, _i8_1, _i8)
"""``stage(world, moved, n_moved) -> (changed, pairs)``: the pair stage's incremental path, the
contact pairs after the shapes ``moved[:n_moved]`` moved (:func:`.pair_update.moved_pairs_stage`).
"""

SEARCH_PAIRS_SIGNATURE = _i8_2(types.Array(_f8, 2, "C"), _b1_1, _i8_1, _i8_1, _f8, _i8, _i8)
"""``search(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below) -> pairs``: the
global search, the (m, 2) pairs of overlapping boxes (:func:`.._collision.broadphase.search_pairs`)."""

COLLIDE_SIGNATURE = _b1(WORLD_STORES)
"""``stage(world) -> any contacts?``"""

CONTINUOUS_SIGNATURE = _i8(WORLD_STORES)
"""``stage(world) -> bodies moved back``"""

SLEEPERS_STAGE_SIGNATURE = _i8(WORLD_STORES, _i8, _f8)
"""``stage(world, which, time_to_sleep) -> count``, ``which`` one of :data:`AT_REST` (the
sleeping bodies if the step would change nothing, else -1), :data:`WAKE` (the bodies woken),
:data:`FALL_ASLEEP` (the bodies that fell asleep; ``time_to_sleep``, s, is read by it only)
and :data:`GATHER` (the awake contacts gathered; 0): :func:`.step.sleepers_stage`."""
AT_REST, WAKE, FALL_ASLEEP, GATHER = 0, 1, 2, 3
"""The stages of :data:`SLEEPERS_STAGE`."""

LAW_SIGNATURE = _f8(types.Array(_f8, 1, "C"), types.Array(_f8, 1, "C"),
                    types.Array(_f8, 2, "C"), _i8)
"""``law(state, params, out, mode) -> 0.0``: a custom joint's law (:mod:`.joints.custom`),
generated by :mod:`impulse2d.custom`. ``state``: per body (A, then B) the origin's x, y, the
angle, its cos and sin, and (``mode`` 2) the origin's velocity vx, vy and the spin w;
``params``: the law's parameters in its order. Writes per row of ``out``: ``C``, ``dC/dq_a``
(x, y, angle), ``dC/dq_b``, and (``mode`` 2) ``Jdot qdot``, all in the bodies' origin
coordinates."""

DENSE_SIGNATURE = _f8(types.Array(_f8, 2, "C"), types.Array(_f8, 2, "C"))
"""``factor(K, L) -> status``: the lower Cholesky factor of the symmetric ``K`` into ``L``
(:mod:`.direct_dense`); 0 when it is good, anything else when the caller must factor ``K``
itself."""

call_pairs = address_call(PAIRS_SIGNATURE)
call_moved_pairs = address_call(MOVED_PAIRS_SIGNATURE)
call_search_pairs = address_call(SEARCH_PAIRS_SIGNATURE)
call_collide = address_call(COLLIDE_SIGNATURE)
call_joint = address_call(JOINT_SIGNATURE)
call_joint_position = address_call(JOINT_POSITION_SIGNATURE)
call_solver = address_call(SOLVER_SIGNATURE)
call_direct_rows = address_call(DIRECT_ROWS_SIGNATURE)
call_islands = address_call(ISLANDS_SIGNATURE)
call_diagnose = address_call(DIAGNOSE_SIGNATURE)
call_continuous = address_call(CONTINUOUS_SIGNATURE)
call_sleepers_stage = address_call(SLEEPERS_STAGE_SIGNATURE)
call_dense = address_call(DENSE_SIGNATURE)
call_law = address_call(LAW_SIGNATURE)
call_lanes = address_call(LANES_SIGNATURE)
call_lane_prepare = address_call(LANE_PREPARE_SIGNATURE)


@inline_kernel
def diagnose(world, order, verb, index, h, baumgarte, contact_speed, speed_cap, spin_cap):
    """Call the diagnostics at point ``verb`` of a solver's passes, if the world has them on
    (a load and a compare otherwise)."""
    table = borrow(world, "verbs")
    if table[DIAGNOSTICS] != 0:
        call_diagnose(table[DIAGNOSTICS], (world, order, verb, index, h, baumgarte,
                                           contact_speed, speed_cap, spin_cap))


def new_table() -> np.ndarray:
    """An empty table for a world (Python functions instead of addresses without the JIT)."""
    return np.zeros(COUNT, dtype=np.int64) if JIT else np.zeros(COUNT, dtype=object)


__all__ = ["PAIRS", "COLLIDE", "CHAINS", "SOLVER", "JOINTS", "JOINT_POSITIONS", "DIRECT_ROWS",
           "DIRECT_FALLBACK", "DIRECT_MAX_ROWS", "DIRECT_COUNTS", "DIRECT_COUNT_NAMES",
           "DIAGNOSTICS", "CONTINUOUS", "DIRECT_DENSE", "LAWS", "MAX_LAWS", "THREADS",
           "THREAD_ROWS", "SERIAL_SOLVER", "SERIAL_COLLIDE", "THREAD_BODIES", "LANES",
           "FINALIZE", "MOVED_PAIRS", "SEARCH_PAIRS", "LANE_PREPARE", "SLEEPERS_STAGE",
           "POLYGONS_ONLY", "DIRECT_ISLANDS", "COUNT",
           "PREPARE", "WARM_START", "SOLVE", "OPENING", "ITERATION", "EXACT_SOLVE", "AFTER_SOLVE",
           "POSITION_PASSES", "LANE_COLUMNS", "PAIRS_SIGNATURE", "MOVED_PAIRS_SIGNATURE",
           "SEARCH_PAIRS_SIGNATURE", "COLLIDE_SIGNATURE",
           "JOINT_SIGNATURE", "JOINT_POSITION_SIGNATURE", "SOLVER_SIGNATURE",
           "DIRECT_ROWS_SIGNATURE", "ISLANDS_SIGNATURE", "DIAGNOSE_SIGNATURE",
           "CONTINUOUS_SIGNATURE",
           "DENSE_SIGNATURE", "LAW_SIGNATURE", "LANES_SIGNATURE", "LANE_PREPARE_SIGNATURE",
           "SLEEPERS_STAGE_SIGNATURE", "AT_REST", "WAKE", "FALL_ASLEEP", "GATHER",
           "call_sleepers_stage",
           "call_pairs", "call_moved_pairs",
           "call_search_pairs", "call_collide",
           "call_joint",
           "call_joint_position", "call_solver", "call_direct_rows", "call_diagnose", "call_continuous",
           "call_islands", "call_dense", "call_law", "call_lanes", "call_lane_prepare",
           "diagnose", "new_table"]
