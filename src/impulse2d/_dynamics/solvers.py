"""The solver drivers: the order in which each solver calls the shared constraint verbs.

Each driver is itself jitted. Calling a kernel from Python costs about 30 us on these machines
just to unbox the body and constraint stores (measured), and the soft step calls six kernels per
substep; from inside a jitted driver the same calls are cheap, though not free: each still
passes the stores' arrays on the stack (about 0.2 us for the constraint and body stores), so the
contact verbs are skipped when nothing touches. The drivers therefore read as the stage scripts
of the literature, one verb per line.
"""

from __future__ import annotations

from .._core.jit import borrowing_kernel
from .contact_solver import apply_restitution, solve_contacts, warm_start_contacts
from .integrate import integrate_positions, integrate_velocities
from .joint_solver import solve_joints, warm_start_joints


@borrowing_kernel
def soft_step(cs, bodies, joints, joint_ids, gx, gy, dt, substeps, warm_starting,
              joint_bias_rate, joint_mass_scale, joint_impulse_scale, contact_speed,
              restitution_threshold, max_linear_speed, max_angular_speed):
    """Box2D v3's soft step (Catto, "Solver2D", 2024), after constraints are prepared.

    Per substep: integrate velocities, warm start, one soft iteration with position bias,
    integrate positions, one rigid relax iteration without bias (removes the velocity the bias
    injected). Joints go before contacts in every pass. Then restitution once, from the
    approach speeds measured before the step.
    """
    h = dt / substeps
    inv_h = 1.0 / h
    touching = cs.count.shape[0] > 0
    for _ in range(substeps):
        integrate_velocities(bodies, gx, gy, h)
        if warm_starting:
            warm_start_joints(joints, joint_ids, bodies)
            if touching:
                warm_start_contacts(cs, bodies)
        solve_joints(joints, joint_ids, bodies, h, True, True, joint_bias_rate, joint_mass_scale,
                     joint_impulse_scale, 0.0)
        if touching:
            solve_contacts(cs, bodies, inv_h, True, True, 0.0, 0.0, contact_speed, False)
        integrate_positions(bodies, h, max_linear_speed, max_angular_speed)
        solve_joints(joints, joint_ids, bodies, h, False, True, 0.0, 1.0, 0.0, 0.0)
        if touching:
            solve_contacts(cs, bodies, inv_h, False, True, 0.0, 0.0, contact_speed, True)
    if touching:
        apply_restitution(cs, bodies, restitution_threshold)


@borrowing_kernel
def pgs(cs, bodies, joints, joint_ids, dt, iterations, warm_starting, baumgarte, linear_slop,
        contact_speed, restitution_threshold, max_linear_speed, max_angular_speed):
    """Classic sequential impulses (Catto, GDC 2006; Box2D-lite), after velocities are
    integrated and constraints prepared: warm start, ``iterations`` sweeps with Baumgarte
    bias, restitution, then integrate positions with the solved velocities."""
    inv_h = 1.0 / dt
    touching = cs.count.shape[0] > 0
    if warm_starting:
        warm_start_joints(joints, joint_ids, bodies)
        if touching:
            warm_start_contacts(cs, bodies)
    for i in range(iterations):
        solve_joints(joints, joint_ids, bodies, dt, True, False, 0.0, 1.0, 0.0, baumgarte)
        if touching:
            solve_contacts(cs, bodies, inv_h, True, False, baumgarte, linear_slop, contact_speed,
                           i == iterations - 1)
    if touching:
        apply_restitution(cs, bodies, restitution_threshold)
    integrate_positions(bodies, dt, max_linear_speed, max_angular_speed)
