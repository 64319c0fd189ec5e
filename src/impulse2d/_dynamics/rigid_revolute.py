"""The rigid, unbiased velocity sweep of revolute joints in a ``pgs_block`` world whose joints are
all revolute (:func:`.joint_solver.revolute_rigid_pass`), with the push of an angle row that
did not change its impulse left out.

The sweeps of the one-step rigid solvers run the revolute rows in a long chain of dependent
arithmetic: spring, motor, lower and upper bound of each joint, then its point, each row reading
the speeds the row before it wrote, and the next joint (LunarLander's two legs share the hull)
reading those. A row whose accumulated impulse comes out as it went in pushes the bodies by zero,
but the push still sits on that chain: the processor waits for the row's clamp before the next
row may start. Such rows are common: a motor held at its largest torque (LunarLander's legs,
pressed into their limits by a 40 N m motor; BipedalWalker's knees and hips, whose torque is
the action's), and the bound of a limit the joint is far from (a speculative row whose gap
keeps its impulse at 0). Here each angle row pushes, and writes its impulse, only when its
impulse changed; the branch is predicted, so the next row starts at once (LunarLander's
in-air solve 20 -> 12 us a step, BENCHMARKS.md).

The same rows as :func:`.joints.revolute.solve` with ``use_bias`` and ``soft`` off (the rows of
:mod:`.joints.jacobian_rows`: :func:`~.joints.jacobian_rows.equality_row` for the spring,
:func:`~.joints.jacobian_rows.motor_row`, :func:`~.joints.jacobian_rows.limit_row` with
:func:`~.joints.rows.inequality_bias`'s unbiased case, then
:func:`~.joints.rows.point_row`), in the same order with the same expressions, so the same bits:
a push of an unchanged row adds ``+-0`` to an angular speed, which leaves every speed as it was
but one that is exactly ``-0.0`` (it would become ``+0.0``; no later result that is not itself
a zero can tell them apart). Observation hashes of Gymnasium's LunarLander, BipedalWalker and
CarRacing on the pybox2d layer are unchanged (``benchmarks/gym_hashes.py``; BENCHMARKS.md).
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel
from .joints.rows import point_row, unsigned_rows
from .positions import relative_turn
from .velocities import load_pair, store_pair
from .world_ref import borrow


@borrowing_kernel
def rigid_sweep(world, rows, h, speed_cap, spin_cap):
    """One rigid, unbiased sweep over the revolute joints of row list ``rows`` (``h``: the step,
    s; ``speed_cap``, ``spin_cap``: the impulse budgets of :func:`~.solvers.impulse_caps`)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    inv_h = 1.0 / h
    # np.bool_, not the literal False: see revolute_rigid_pass (a literal compiles the callee
    # again for a type of its own)
    off = np.bool_(False)
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        vax, vay, wa, vbx, vby, wb = load_pair(v, w, a, b)
        theta = 0.0
        if joints.enable_spring[j] or joints.enable_limit[j]:
            theta = joints.delta_angle[j] + relative_turn(dq, a, b)
        mass = joints.axial_mass[j]
        room = mass * spin_cap  # a bound's budget plus the motor's own (revolute.solve)
        if joints.enable_motor[j]:
            room += joints.max_motor[j] * h
        if joints.enable_spring[j] and joints.hertz[j] > 0.0:
            # the joint's own spring, soft toward theta = 0 (equality_row, biased)
            old = joints.spring_impulse[j]
            bias = joints.spring_soft[j, 0] * (theta - 0.0)
            impulse = (-joints.spring_soft[j, 1] * mass * ((wb - wa) + bias)
                       - joints.spring_soft[j, 2] * old)
            limit = mass * spin_cap
            total = min(max(old + impulse, -limit), limit)
            if total != old:
                joints.spring_impulse[j] = total
                wa = wa - i_a * (total - old)
                wb = wb + i_b * (total - old)
        if joints.enable_motor[j]:
            # motor_row: drive w_b - w_a to the motor speed with at most max torque * h
            old = joints.motor_impulse[j]
            max_impulse = joints.max_motor[j] * h
            impulse = -mass * ((wb - wa) - joints.motor_speed[j])
            total = min(max(old + impulse, -max_impulse), max_impulse)
            if total != old:
                joints.motor_impulse[j] = total
                wa = wa - i_a * (total - old)
                wb = wb + i_b * (total - old)
        if joints.enable_limit[j]:
            # limit_row, rigid and unbiased: speculative (gap / h) while open, else no bias
            old = joints.lower_impulse[j]
            gap = theta - joints.lower[j]
            bias = gap * inv_h if gap > 0.0 else 0.0
            impulse = -mass * (1.0 * (wb - wa) + bias)
            total = min(max(old + impulse, 0.0), room)
            if total != old:
                joints.lower_impulse[j] = total
                wa = wa - i_a * (1.0 * (total - old))
                wb = wb + i_b * (1.0 * (total - old))
            old = joints.upper_impulse[j]
            gap = joints.upper[j] - theta
            bias = gap * inv_h if gap > 0.0 else 0.0
            impulse = -mass * (-1.0 * (wb - wa) + bias)
            total = min(max(old + impulse, 0.0), room)
            if total != old:
                joints.upper_impulse[j] = total
                wa = wa - i_a * (-1.0 * (total - old))
                wb = wb + i_b * (-1.0 * (total - old))
        vax, vay, wa, vbx, vby, wb = point_row(joints, j, a, b, dp, dq, m_a, m_b, i_a, i_b,
                                               vax, vay, wa, vbx, vby, wb, off, 0.0, 1.0, 0.0,
                                               speed_cap)
        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)
