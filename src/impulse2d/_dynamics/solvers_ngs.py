"""The solvers of Box2D v2.4: sequential impulses with nonlinear Gauss-Seidel position correction.

``pgs_ngs`` (Box2D v1.0-v2.4 ``b2Island::Solve``; Solver2D ``PGS_NGS``): integrate
velocities, warm start, ``iterations`` rigid sweeps (joints, then contacts) with no position
bias at all (a speculative gap may still close at ``s / h``; limits likewise), restitution,
integrate positions; then up to ``position_iterations`` sweeps that correct the positions
directly (contacts: :mod:`.contact_position`, then each joint type's ``solve_position``, whose
entries only the worlds of these solvers compile: :data:`~.verbs.JOINT_POSITIONS`),
stopping early once every contact overlaps by less than 3 x ``LINEAR_SLOP`` and every joint is
within its slop. The position sweeps change no velocity, so overlap is removed without the
energy Baumgarte's bias adds (the "overlap recovery" test: a pyramid placed 25 % overlapping
separates without launching boxes). One departure from Box2D v2.4: a point the pass lifts while
it bounces out of an overlap (separating and still climbing) gives the height back from its
speed (:func:`.contact_position.in_flight_speed`), since restitution already counted that
overlap (:func:`.contact_solver.bounce_speed`): the bounces are e^(2k) h to 0.4 %.

``pgs_block`` (Box2D v2.0-v2.4's default; Solver2D ``PGS_NGS_Block``): the same, with the
normal impulses of each two-point manifold solved together (:mod:`.contact_block`).

A world of ``pgs_block`` whose joints are all revolute (Gymnasium's LunarLander,
BipedalWalker, CarRacing, on the pybox2d layer and natively) has their rigid sweeps compiled in
here (:func:`_revolute_block_sweeps`, :func:`.joint_solver.revolute_rigid_pass`: the same bits
as the calls by address): about 20 ns less per sweep of LunarLander's two legs, for 5.2 s more
compile time (BENCHMARKS.md, ``benchmarks/sweeps.py``). ``pgs_ngs``, which none of them uses,
no longer has its own (10.1 s of its 20.6 s compile, measured 2026-11-28): its revolute worlds
sweep through the entries, to the same bits.

Both have the entries' signature (:data:`~.verbs.SOLVER_SIGNATURE`); :mod:`.step` registers
them with those of :mod:`.solvers` (this module takes ``impulse_caps`` from there, so that one
cannot import this one back).
"""

from __future__ import annotations

from .._core.jit import borrowing_kernel, entry_kernel, inline_kernel
from ..constants import MAX_ROTATION, POSITION_BAUMGARTE
from .awake import body_rows
from .contact_block import solve_contacts_block, speculative_biases
from .contact_position import solve_contact_positions
from .contact_rows import restitution_rows, row_count, solve_rows, warm_start_rows
from .integrate import integrate_positions
from .joint_solver import all_revolute, joint_pass, joint_position_pass, revolute_rigid_pass
from .lengths import MAX_CORRECTION, SLOP
from .solvers import (add_sweep_totals, hold_velocities, impulse_caps, rigid_opening,
                      sweep_converged)
from .verbs import EXACT_SOLVE, ITERATION, POSITION_PASSES, SOLVE, diagnose
from .world_ref import borrow


@inline_kernel
def _velocity_sweeps(world, order, dt, iterations, contact_speed, velocity_tolerance,
                     velocities, block, speed_cap, spin_cap, revolute):
    """The rigid sweeps of both solvers, each the joints then the contacts (``block``: the
    block solve of two-point manifolds); ``revolute``: the joints are all revolute, swept by
    :func:`.joint_solver.revolute_rigid_pass`. Both flags are constants at each call."""
    bodies = borrow(world, "bodies")
    cs = borrow(world, "constraints")
    touching = order.shape[0] > 0
    rows = row_count(world)
    inv_h = 1.0 / dt
    # Velocities: rigid and unbiased (flag False = the relax pass's rows: only speculative
    # gaps, open limits and the joints' own springs have a bias). With a velocity tolerance
    # the sweeps stop after one that changed no body's velocity by more than it.
    early = velocity_tolerance > 0.0 and velocities.shape[0] == bodies.v.shape[0]
    if touching and block:
        speculative_biases(world, inv_h)  # a gap is the same in every sweep
    for i in range(iterations):
        last = i == iterations - 1
        if early:
            hold_velocities(bodies, velocities)
        if revolute:
            revolute_rigid_pass(world, dt, speed_cap, spin_cap)
        else:
            joint_pass(world, SOLVE, dt, False, False, 0.0, 1.0, 0.0, 0.0, speed_cap, spin_cap)
        if touching:
            if block:
                solve_contacts_block(world, last, speed_cap)
            else:
                solve_rows(world, 0, rows, inv_h, False, False, 0.0, 0.0, contact_speed, last,
                           speed_cap)
        diagnose(world, order, ITERATION, i, dt, 0.0, contact_speed, speed_cap, spin_cap)
        if early and not last and sweep_converged(bodies, velocities, velocity_tolerance):
            if touching:
                add_sweep_totals(cs)
            break


@borrowing_kernel
def _revolute_block_sweeps(world, order, dt, iterations, contact_speed, velocity_tolerance,
                           velocities, speed_cap, spin_cap):
    """:func:`_velocity_sweeps` of ``pgs_block`` for a world whose joints are all revolute (see
    the module doc), in a function of its own: in the solver's body it made every world's sweeps slower
    (pyramid_20 465 -> 480 us a step, paired: the contact loop's code is laid out around the
    revolute code), here only those that take it. The call passes the world's reference and
    scalars, once a step."""
    _velocity_sweeps(world, order, dt, iterations, contact_speed, velocity_tolerance,
                     velocities, True, speed_cap, spin_cap, True)


@borrowing_kernel
def _opening(world, order, dt, gx, gy, warm_starting, max_linear_speed):
    """Prepare and warm start (:func:`~.solvers.rigid_opening`); returns the impulse caps.
    Called by both solvers, as :func:`_closing` is (see there)."""
    speed_cap, spin_cap = impulse_caps(max_linear_speed, dt)
    rigid_opening(world, order, dt, gx, gy, warm_starting, speed_cap, spin_cap, False)
    if warm_starting and order.shape[0] > 0:
        warm_start_rows(world, 0, row_count(world))
    return speed_cap, spin_cap


@borrowing_kernel
def _closing(world, order, dt, gx, gy, position_iterations, contact_speed,
             restitution_threshold, max_linear_speed, speed_cap, spin_cap):
    """After the velocity sweeps: restitution, the positions moved, then corrected.

    Called, once a step, with the world's reference and scalars: one kernel that both solvers
    call is typed and lowered once in a process that compiles both (``warmup --all``);
    inlined, it was half of each entry's IR (7,000 of ``pgs_ngs``'s 14,500 instructions,
    2026-12-01, ``benchmarks/ir_lines.py``)."""
    bodies = borrow(world, "bodies")
    cs = borrow(world, "constraints")
    touching = order.shape[0] > 0
    diagnose(world, order, EXACT_SOLVE, 0, dt, 0.0, contact_speed, speed_cap, spin_cap)
    if touching:
        # pgs's convention (approach measured after the kick, positions not moved yet)
        restitution_rows(world, 0, row_count(world), restitution_threshold, speed_cap, gx, gy,
                         -0.5 * dt)
    integrate_positions(world, body_rows(world), dt, max_linear_speed, MAX_ROTATION / dt)

    # Positions: contacts, then joints (Box2D v2.4's order), until both are within tolerance
    # (lengths in the world's unit).
    lengths = borrow(world, "lengths")
    slop = lengths[SLOP]
    passes = 0
    for _ in range(position_iterations):
        passes += 1
        contacts_ok = True
        if touching:
            smallest = solve_contact_positions(cs, bodies, POSITION_BAUMGARTE, slop,
                                               lengths[MAX_CORRECTION], gx, gy, 0.5 * dt)
            contacts_ok = smallest >= -3.0 * slop
        joints_ok = joint_position_pass(world) <= 1.0
        if contacts_ok and joints_ok:
            break
    diagnose(world, order, POSITION_PASSES, passes, dt, 0.0, contact_speed, speed_cap, spin_cap)
    return dt


@entry_kernel
def pgs_ngs(world, order, dt, gx, gy, substeps, iterations, position_iterations, warm_starting,
            contact_hertz, contact_damping_ratio, joint_hertz, joint_damping_ratio, contact_speed,
            restitution_threshold, max_linear_speed, baumgarte, velocity_tolerance, velocities):
    """Box2D v2.4's solver: rigid sequential impulses, then nonlinear Gauss-Seidel on the
    positions (see the module doc)."""
    speed_cap, spin_cap = _opening(world, order, dt, gx, gy, warm_starting, max_linear_speed)
    _velocity_sweeps(world, order, dt, iterations, contact_speed, velocity_tolerance,
                     velocities, False, speed_cap, spin_cap, False)
    return _closing(world, order, dt, gx, gy, position_iterations, contact_speed,
                    restitution_threshold, max_linear_speed, speed_cap, spin_cap)


@entry_kernel
def pgs_block(world, order, dt, gx, gy, substeps, iterations, position_iterations,
              warm_starting, contact_hertz, contact_damping_ratio, joint_hertz,
              joint_damping_ratio, contact_speed, restitution_threshold, max_linear_speed,
              baumgarte, velocity_tolerance, velocities):
    """:func:`pgs_ngs` with two-point manifolds' normals solved as one 2x2 block (Box2D
    v2.0-v2.4's default)."""
    speed_cap, spin_cap = _opening(world, order, dt, gx, gy, warm_starting, max_linear_speed)
    if all_revolute(world):
        _revolute_block_sweeps(world, order, dt, iterations, contact_speed, velocity_tolerance,
                               velocities, speed_cap, spin_cap)
    else:
        _velocity_sweeps(world, order, dt, iterations, contact_speed, velocity_tolerance,
                         velocities, True, speed_cap, spin_cap, False)
    return _closing(world, order, dt, gx, gy, position_iterations, contact_speed,
                    restitution_threshold, max_linear_speed, speed_cap, spin_cap)


ENTRIES = {"pgs_ngs": pgs_ngs, "pgs_block": pgs_block}
"""The entry kernels of this module's solvers (``WorldSettings.solver``)."""
