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
from .joints.revolute import sim_bodies, sim_frame, sim_masses
from .joints.rows import point_row
from .positions import relative_turn
from .velocities import load_pair, store_pair
from .world_ref import borrow


@borrowing_kernel
def rigid_sweep(world, rows, h, speed_cap, spin_cap):
    """One rigid, unbiased sweep over the revolute joints of row list ``rows`` (``h``: the step,
    s; ``speed_cap``, ``spin_cap``: the impulse budgets of :func:`~.solvers.impulse_caps`)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    sims = borrow(world, "joint_sims")  # the joints' solve rows (.joints.sims)
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
        j = np.uint64(ids[n])
        row = sims[j]
        a, b = sim_bodies(row)
        m_a, m_b, i_a, i_b = sim_masses(row)
        vax, vay, wa, vbx, vby, wb = load_pair(v, w, a, b)
        spring_on = row.spring_on
        motor_on = row.motor_on
        limit_on = row.limit_on
        theta = 0.0
        if spring_on or limit_on:
            theta = row.delta_angle + relative_turn(dq, a, b)
        mass = row.axial_mass
        room = mass * spin_cap  # a bound's budget plus the motor's own (revolute.solve)
        if motor_on:
            room += row.max_motor_impulse
        if spring_on:
            # the joint's own spring, soft toward theta = 0 (equality_row, biased)
            old = joints.spring_impulse[j]
            bias = row.spring_soft[0] * (theta - 0.0)
            impulse = (-row.spring_soft[1] * mass * ((wb - wa) + bias)
                       - row.spring_soft[2] * old)
            limit = mass * spin_cap
            total = min(max(old + impulse, -limit), limit)
            if total != old:
                joints.spring_impulse[j] = total
                wa = wa - i_a * (total - old)
                wb = wb + i_b * (total - old)
        if motor_on:
            # motor_row: drive w_b - w_a to the motor speed with at most max torque * h
            old = joints.motor_impulse[j]
            max_impulse = row.max_motor_impulse
            impulse = -mass * ((wb - wa) - row.motor_speed)
            total = min(max(old + impulse, -max_impulse), max_impulse)
            if total != old:
                joints.motor_impulse[j] = total
                wa = wa - i_a * (total - old)
                wb = wb + i_b * (total - old)
        if limit_on:
            # limit_row, rigid and unbiased: speculative (gap / h) while open, else no bias
            old = joints.lower_impulse[j]
            gap = theta - row.lower
            bias = gap * inv_h if gap > 0.0 else 0.0
            impulse = -mass * (1.0 * (wb - wa) + bias)
            total = min(max(old + impulse, 0.0), room)
            if total != old:
                joints.lower_impulse[j] = total
                wa = wa - i_a * (1.0 * (total - old))
                wb = wb + i_b * (1.0 * (total - old))
            old = joints.upper_impulse[j]
            gap = row.upper - theta
            bias = gap * inv_h if gap > 0.0 else 0.0
            impulse = -mass * (-1.0 * (wb - wa) + bias)
            total = min(max(old + impulse, 0.0), room)
            if total != old:
                joints.upper_impulse[j] = total
                wa = wa - i_a * (-1.0 * (total - old))
                wb = wb + i_b * (-1.0 * (total - old))
        vax, vay, wa, vbx, vby, wb = point_row(sim_frame(row), joints.linear_impulse, j, a, b,
                                               dp, dq, m_a, m_b, i_a, i_b, vax, vay, wa, vbx,
                                               vby, wb, off, 0.0, 1.0, 0.0, speed_cap)
        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)
