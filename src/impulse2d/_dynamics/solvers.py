"""The solvers: the order in which each one calls the shared constraint verbs.

Each solver is an entry of the world's table of verbs (:mod:`.verbs`), with the one signature of
:data:`~.verbs.SOLVER_SIGNATURE`: it prepares the touching contacts and the joints, runs its
passes, and applies restitution. It is compiled the first time a world selects it, on its own,
so a world of the default solver never compiles ``pgs``. Joints go through
:func:`~.joint_solver.joint_pass`, which calls each joint type's entry by address. Inside a
solver the contact verbs are ordinary calls; they are skipped when nothing touches (each passes
the stores' arrays on the stack, about 0.2 us). The solvers read as the stage scripts of the
literature, one verb per line.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import borrowing_kernel, cycles, entry_kernel, inline_kernel, inner_kernel
from ..constants import MAX_ROTATION
from .awake import body_rows
from .contact_lanes import (LANE_SOLVE, LANE_WARM_START, add_lane_totals, finish_lanes,
                            in_lanes, lanes_pass, prepare_lanes, restitution,
                            rows_for_diagnostics)
from .contact_rows import prepare_serial_rows
from .integrate import integrate_clamp_velocities, integrate_positions, integrate_velocities
from .joint_solver import joint_pass, revolute_prepare, revolute_solve, revolute_warm_start
from .lengths import SLOP
from .softness import soft_coefficients
from .verbs import EXACT_SOLVE, ITERATION, OPENING, PREPARE, SOLVE, WARM_START, diagnose
from .world_ref import borrow


@inner_kernel
def impulse_caps(max_linear_speed, dt):
    """``(speed_cap, spin_cap)``: the speed budget of every constraint row, m/s and rad/s.

    Two bodies within the speed limits approach each other along a row at no more than twice
    the limit (``max_linear_speed``, and a quarter turn per step for rotation). No row is
    allowed an accumulated impulse that would, alone, change its relative speed by more than
    twice that again: a row that asks for more (an over-constrained joint loop, a tiny body
    held by far anchors, a contact squeezed between kinematic bodies) cannot be satisfied, and
    without a bound its impulse grows step after step through the warm start until it
    overflows (measured: 1e295 N within 200 steps). With the budget it yields, finite. A load
    passed through a row (a light link holding a heavy chain) reaches the budget only at mass
    ratios above about 4 v_max / (g h), some 40,000 at the defaults.
    """
    return 4.0 * max_linear_speed, 4.0 * MAX_ROTATION / dt


@inline_kernel
def has_joint_rows(world):
    """Whether the world solves any joint row this step. A world of contacts alone leaves its
    joint passes out: each one walks the joint types (:data:`~.joints.ROW_LISTS`, a jump
    table over the joint rows' tuple, their counts loaded again after every call by
    address), 13 walks a soft step of four substeps."""
    rows = 0
    for ids in borrow(world, "joint_ids"):
        rows += ids.shape[0]
    return rows > 0


AFTER_CLAMP = 2.0
"""``soft_step``'s second speed clamp, as positions are integrated, in units of the limits (see
:func:`soft_step`: 2 brings the unsatisfiable capsule loop to rest, 4 does not)."""


@inline_kernel
def _soft_step(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
               contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
               restitution_threshold, max_linear_speed, after_clamp, revolute):
    """The step of both soft solvers. Speeds are clamped to the limits after gravity, before
    the constraints of each substep (Box2D v3.0/v3.1), and again, to ``after_clamp`` times the
    limits, as positions are integrated (``inf``: not at all, as v3.1). ``revolute`` (a
    constant at each call): the joints are all revolute, their passes compiled in here
    (:func:`soft_step_revolute`) rather than called by address (:func:`joint_pass`); the
    branch a call does not take is pruned before typing, so a solver without it compiles no
    revolute code."""
    cs = borrow(world, "constraints")
    # np.bool_, not a literal: see joint_solver.revolute_rigid_pass
    on = np.bool_(True)
    n = order.shape[0]
    touching = n > 0
    speed_cap, spin_cap = impulse_caps(max_linear_speed, dt)
    h = dt / substeps
    inv_h = 1.0 / h
    # Stiffness is capped at a quarter of the substep rate: a spring near the Nyquist rate of its
    # integrator rings instead of settling. Against static bodies contacts are twice as stiff
    # (Box2D v3).
    hertz = min(contact_hertz, 0.25 / h)
    rate, mass_scale, impulse_scale = soft_coefficients(hertz, contact_damping_ratio, h)
    s_rate, s_mass_scale, s_impulse_scale = soft_coefficients(2.0 * hertz, contact_damping_ratio,
                                                              h)
    j_rate, j_mass_scale, j_impulse_scale = soft_coefficients(min(joint_hertz, 0.25 / h),
                                                              joint_damping_ratio, h)
    # The contact passes' storage: lanes (contact_lanes) or the rows. Asked only where a
    # contact touches (a call by address, ~75 instructions a world-step: BENCHMARKS.md,
    # session 31, solveL56); nothing reads it otherwise.
    wide = touching and in_lanes(world)
    jointed = has_joint_rows(world)
    if touching:
        # (a float32 world's prepare: contact_lanes_f32)
        prepare_lanes(world, order, np.int64(0), warm_starting, rate, mass_scale, impulse_scale,
                      s_rate, s_mass_scale, s_impulse_scale, wide)
        rows_for_diagnostics(world, cs)  # (they read the rows; before each of their readings)
    if jointed:
        if revolute:
            revolute_prepare(world, h, warm_starting)
        else:
            joint_pass(world, PREPARE, h, warm_starting, False, 0.0, 1.0, 0.0, 0.0, speed_cap,
                       spin_cap)
    borrow(world, "clock")[3] = cycles()

    max_angular_speed = MAX_ROTATION / dt
    position_speed = after_clamp * max_linear_speed
    position_spin = after_clamp * max_angular_speed
    diagnose(world, order, OPENING, 0, h, 0.0, contact_speed, speed_cap, spin_cap)
    rows = body_rows(world)
    for substep in range(substeps):
        integrate_clamp_velocities(world, rows, gx, gy, h, max_linear_speed, max_angular_speed)
        if warm_starting:
            if jointed:
                if revolute:
                    revolute_warm_start(world)
                else:
                    joint_pass(world, WARM_START, h, False, False, 0.0, 1.0, 0.0, 0.0,
                               speed_cap, spin_cap)
            if touching:
                lanes_pass(world, LANE_WARM_START, 0, n, inv_h, False, True, 0.0, 0.0,
                           contact_speed, False, speed_cap)
        # The biased pass, positions integrated, then the relax pass (rigid rows, no bias but
        # the speculative one): one loop, so that each joint and contact call is compiled once
        # (a call passes every array of the joint store, ~1,100 instructions of IR), with the
        # pass's arguments as values, the same values as two written-out passes pass.
        for k in range(2):
            biased = k == 0
            if not biased:
                integrate_positions(world, rows, h, position_speed, position_spin)
            if jointed:
                b_rate = j_rate if biased else 0.0
                b_mass_scale = j_mass_scale if biased else 1.0
                b_impulse_scale = j_impulse_scale if biased else 0.0
                if revolute:
                    revolute_solve(world, h, biased, on, b_rate, b_mass_scale, b_impulse_scale,
                                   0.0, speed_cap, spin_cap)
                else:
                    joint_pass(world, SOLVE, h, biased, True, b_rate, b_mass_scale,
                               b_impulse_scale, 0.0, speed_cap, spin_cap)
            if touching:
                lanes_pass(world, LANE_SOLVE, 0, n, inv_h, biased, True, 0.0, 0.0,
                           contact_speed, not biased, speed_cap)
        if touching:
            rows_for_diagnostics(world, cs)
        diagnose(world, order, ITERATION, substep, h, 0.0, contact_speed, speed_cap, spin_cap)
    if touching:
        # approach measured before the substeps' kicks, positions already moved: half_kick h/2
        restitution(world, 0, n, restitution_threshold, speed_cap, gx, gy, 0.5 * h)
        finish_lanes(world, cs, wide, 0, n)  # the impulses the step keeps back in the rows
    return h


@borrowing_kernel
def _soft_step_entries(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
                       contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
                       restitution_threshold, max_linear_speed, after_clamp):
    """:func:`_soft_step` with the joints through their entries: the body of :func:`soft_step`
    and :func:`soft_step_v31`, which differ in ``after_clamp`` alone, called rather than
    compiled into each (the one process of ``warmup --all`` that compiles both typed and
    lowered it twice, 1.5 and 1.4 s of CPU: BENCHMARKS.md, session 29, ``warmR54``). One call a
    step with scalars."""
    return _soft_step(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
                      contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
                      restitution_threshold, max_linear_speed, after_clamp, False)


@entry_kernel
def soft_step(world, order, dt, gx, gy, substeps, iterations, position_iterations,
              warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
              joint_damping_ratio, contact_speed, restitution_threshold, max_linear_speed,
              baumgarte, velocity_tolerance, velocities):
    """Box2D v3's soft step (Catto, "Solver2D", 2024).

    Per substep: integrate velocities, warm start, one soft iteration with position bias,
    integrate positions, one rigid relax iteration without bias (removes the velocity the bias
    injected). Joints go before contacts in every pass. Then restitution once, from the
    approach speeds measured before the step.

    Speeds are clamped (400 m/s, ``MAX_ROTATION`` per step) where Box2D v3.0/v3.1 clamp them,
    after gravity and before the constraints of each substep, so the joints may turn a body
    past the limit within the step when they must: a whipping chain's last link needs 61 rad/s
    against the 47 rad/s limit (worst joint gap 0.064 m; pyb2d3 0.065; 0.133 m with the clamp
    after the constraints, where Box2D v3.2 puts it). A second clamp, at twice the limits, as
    positions are integrated, holds a body whose constraints cannot be satisfied together (the
    7 mm capsule loop of ``tests/test_fuzz.py`` comes to rest; without it, as in v3.1, it keeps
    flailing at the limits, and at 4 and 8 times them, measured). The price of that second
    clamp: a chain stretched to twice its length and dropped horizontal, whose circles spin at
    hundreds of rad/s as it closes, keeps a gap of 1.6 m over its last second (v3.1's 0.054 m;
    15.7 m with the clamp after the constraints only): :func:`soft_step_v31`.
    """
    return _soft_step_entries(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
                              contact_damping_ratio, joint_hertz, joint_damping_ratio,
                              contact_speed, restitution_threshold, max_linear_speed,
                              AFTER_CLAMP)


@entry_kernel
def soft_step_revolute(world, order, dt, gx, gy, substeps, iterations, position_iterations,
                       warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
                       joint_damping_ratio, contact_speed, restitution_threshold,
                       max_linear_speed, baumgarte, velocity_tolerance, velocities):
    """:func:`soft_step` for a world whose joints are all revolute (LunarLander's legs, a
    chain of pins), chosen for it by :func:`.step.needed_units`: the joints' prepare, warm
    start, biased and relax passes are the revolute kernels compiled into this solver
    (:func:`.joint_solver.revolute_solve`), the same rows in the same order with the same
    arguments as through the revolute entry, so the same bits. What it saves is the call by
    address and the entry's set-up (the stores' array pointers loaded, every call), 25 times a
    step of 8 substeps. A unit of its own, so that a world of contacts or of other joints does
    not compile the revolute code into its solver (BENCHMARKS.md, session 20, ``lander45``)."""
    return _soft_step(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
                      contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
                      restitution_threshold, max_linear_speed, AFTER_CLAMP, True)


@entry_kernel
def soft_step_v31(world, order, dt, gx, gy, substeps, iterations, position_iterations,
                  warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
                  joint_damping_ratio, contact_speed, restitution_threshold, max_linear_speed,
                  baumgarte, velocity_tolerance, velocities):
    """:func:`soft_step` exactly as Box2D v3.0 and v3.1: the speeds clamped only before the
    constraints of each substep, what the joints solve integrated as solved. The circles of a
    stretched chain started horizontal close (gap over the last second 0.054 m; pyb2d3 0.068;
    ``soft_step`` 1.6 m). Measured with ``benchmarks/chain_whip.py``. The price: a body whose
    constraints cannot be satisfied together (a 7 mm capsule between two joints with a far
    anchor, ``tests/test_fuzz.py``) keeps flailing at the speed limits instead of coming to
    rest (pyb2d3 flails far faster). Speeds still leave each step within the limits
    (:func:`~.integrate.finalize_bodies`).
    """
    return _soft_step_entries(world, order, dt, gx, gy, substeps, warm_starting, contact_hertz,
                              contact_damping_ratio, joint_hertz, joint_damping_ratio,
                              contact_speed, restitution_threshold, max_linear_speed, math.inf)


@inline_kernel
def hold_velocities(bodies, velocities):
    """Copy every body's velocity into ``velocities`` (rows: vx, vy in m/s, w in rad/s): the
    start of a sweep, for :func:`sweep_converged`."""
    v = bodies.v
    w = bodies.w
    for i in range(velocities.shape[0]):
        velocities[i, 0] = v[i, 0]
        velocities[i, 1] = v[i, 1]
        velocities[i, 2] = w[i]


@inline_kernel
def sweep_converged(bodies, velocities, tolerance):
    """Whether the sweep since :func:`hold_velocities` changed no body's velocity by more than
    ``tolerance`` (m/s): ``|dv| + |dw| extent``, a bound on the change at any point of the
    body (``extent``: the farthest point of its shapes from its centre of mass)."""
    v = bodies.v
    w = bodies.w
    extent = bodies.extent
    for i in range(velocities.shape[0]):
        dx = v[i, 0] - velocities[i, 0]
        dy = v[i, 1] - velocities[i, 1]
        if math.sqrt(dx * dx + dy * dy) + abs(w[i] - velocities[i, 2]) * extent[i] > tolerance:
            return False
    return True


@inline_kernel
def add_sweep_totals(cs):
    """Add the accumulated impulses to the step totals: what the last sweep of a step does
    (``last_sweep``), for a step whose sweeps stopped early."""
    for q in range(cs.count.shape[0]):
        for j in range(cs.count[q]):
            cs.total_normal_impulse[q, j] += cs.normal_impulse[q, j]
            cs.total_tangent_impulse[q, j] += cs.tangent_impulse[q, j]


@inline_kernel
def rigid_opening(world, order, dt, gx, gy, warm_starting, speed_cap, spin_cap, wide):
    """The opening of the one-step rigid solvers (``pgs``, ``pgs_ngs``, ``pgs_block``):
    integrate velocities, prepare the touching contacts ``order`` (rigid rows: the soft
    step's coefficients at "off"; ``wide``: into the wide solver's lanes, :mod:`.contact_lanes`)
    and the joints, warm start the joints. The caller warm starts the contacts, with its own
    verb (so that a solver compiles one contact solver, not both)."""
    cs = borrow(world, "constraints")
    touching = order.shape[0] > 0
    integrate_velocities(world, body_rows(world), gx, gy, dt)
    if touching:
        # The soft step's prepare calls, with their signatures: a signature of its own here
        # compiled prepare_contacts and prepare_wide once more in each process that has both
        # (BENCHMARKS.md, session 28, warmN53). Into the lanes every row is written as
        # prepare_contacts' wide branch writes it (in the colouring's order where the step
        # coloured: the same values); into the rows by the world (the direct solver's and
        # prepare_lanes' call).
        if wide:
            prepare_lanes(world, order, np.int64(0), warm_starting, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0,
                          wide)
            rows_for_diagnostics(world, cs)
        else:
            prepare_serial_rows(world, order, 0, warm_starting, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0)
    joint_pass(world, PREPARE, dt, warm_starting, False, 0.0, 1.0, 0.0, 0.0, speed_cap,
               spin_cap)
    borrow(world, "clock")[3] = cycles()
    diagnose(world, order, OPENING, 0, dt, 0.0, 0.0, speed_cap, spin_cap)
    if warm_starting:
        joint_pass(world, WARM_START, dt, False, False, 0.0, 1.0, 0.0, 0.0, speed_cap, spin_cap)


@entry_kernel
def pgs(world, order, dt, gx, gy, substeps, iterations, position_iterations, warm_starting,
        contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
        restitution_threshold, max_linear_speed, baumgarte, velocity_tolerance, velocities):
    """Classic sequential impulses (Catto, GDC 2006; Box2D-lite): integrate velocities, warm
    start, ``iterations`` sweeps with Baumgarte bias (fewer with ``velocity_tolerance > 0``: they
    stop after a sweep that changed no body's velocity by more than it), restitution, then
    integrate positions with the solved velocities."""
    bodies = borrow(world, "bodies")
    cs = borrow(world, "constraints")
    n = order.shape[0]
    touching = n > 0
    speed_cap, spin_cap = impulse_caps(max_linear_speed, dt)
    inv_h = 1.0 / dt
    slop = borrow(world, "lengths")[SLOP]  # in the world's length unit
    wide = in_lanes(world)  # see _soft_step
    jointed = has_joint_rows(world)
    rigid_opening(world, order, dt, gx, gy, warm_starting, speed_cap, spin_cap, wide)
    if warm_starting and touching:
        lanes_pass(world, LANE_WARM_START, 0, n, inv_h, False, False, 0.0, 0.0, contact_speed,
                   False, speed_cap)
    early = velocity_tolerance > 0.0 and velocities.shape[0] == bodies.v.shape[0]
    for i in range(iterations):
        last = i == iterations - 1
        if early:
            hold_velocities(bodies, velocities)
        if jointed:
            joint_pass(world, SOLVE, dt, True, False, 0.0, 1.0, 0.0, baumgarte, speed_cap,
                       spin_cap)
        if touching:
            lanes_pass(world, LANE_SOLVE, 0, n, inv_h, True, False, baumgarte, slop,
                       contact_speed, last, speed_cap)
            rows_for_diagnostics(world, cs)
        diagnose(world, order, ITERATION, i, dt, baumgarte, contact_speed, speed_cap, spin_cap)
        if early and not last and sweep_converged(bodies, velocities, velocity_tolerance):
            if touching:
                if wide:
                    add_lane_totals(cs, 0, n)
                    rows_for_diagnostics(world, cs)
                else:
                    add_sweep_totals(cs)
            break
    diagnose(world, order, EXACT_SOLVE, 0, dt, baumgarte, contact_speed, speed_cap, spin_cap)
    if touching:
        # approach measured after the kick, positions not moved yet: half_kick -dt/2
        restitution(world, 0, n, restitution_threshold, speed_cap, gx, gy, -0.5 * dt)
        finish_lanes(world, cs, wide, 0, n)
    integrate_positions(world, body_rows(world), dt, max_linear_speed, MAX_ROTATION / dt)
    return dt


ENTRIES = {"soft_step": soft_step, "soft_step_v31": soft_step_v31, "pgs": pgs}
"""The entry kernel of each solver of this module (``WorldSettings.solver``); the NGS solvers
are in :mod:`.solvers_ngs`, and :data:`.step.SOLVER_KERNELS` holds them all."""
