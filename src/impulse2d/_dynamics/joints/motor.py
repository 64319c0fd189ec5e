"""Motor joint: drives body B toward a pose relative to body A with bounded force and torque
(a character controller, a top-down friction joint, a relative servo).

The pose is a linear offset (B's origin in A's frame) and an angular offset (angle_b -
angle_a). The target point is stored as A's anchor (``local_anchor_a`` = the offset) and B's
anchor is B's origin, so the linear error is the revolute point's
C = (c_b + r_b) - (c_a + r_a), and the angular error theta = angle_b - angle_a - reference
with the offset as reference angle. Maths (correction factor beta, step h)::

    angular    Cdot = w_b - w_a + beta / h * theta, K = 1/I_a + 1/I_b,
               |lambda| <= max torque * h
    linear     Cdot = v_b + w_b x r_b - v_a - w_a x r_a + beta / h * C, K the revolute 2x2,
               |lambda| <= max force * h (the whole vector scaled back)

Both rows are velocity drives (the correction is part of the target velocity, not a position
error to remove), so they act the same in every pass and with every solver, and they have no
position correction under ``pgs_ngs``/``pgs_block`` (nor in Box2D v2.4). Impulses:
``angular_impulse`` and ``linear_impulse``, applied like the weld's (warm start shared).
Sources: Box2D v3 ``motor_joint.c`` (the drive and the clamps).
"""

from __future__ import annotations

import math

import numpy as np

from ..._core.jit import borrowing_kernel
from ..direct_rows import BOXED, COUNT, STORE
from ..positions import relative_turn
from .jacobian_rows import ANGULAR, TURN, masses, motor_row, put_jacobian
from .rows import capped_impulse, point_impulse, point_push
from .revolute import prepare_anchors
from .weld import warm_start as _weld_warm_start
from ..velocities import load_pair, store_pair
from ..world_ref import borrow


prepare = prepare_anchors
"""Anchors, centres, angle error and axial mass: the revolute joint's kernel itself (a kernel
forwarding to it was one more compile)."""


@borrowing_kernel
def warm_start(world, rows):
    """Linear impulse at the anchors plus the angular impulse: the weld's warm start."""
    _weld_warm_start(world, rows)


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the motor joints of ``rows``: the angular drive, then the linear one."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    inv_h = 1.0 / h
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        ms = masses(bodies, a, b)
        m_a, m_b, i_a, i_b = ms
        rate = joints.correction_factor[j] * inv_h

        # The angle: a motor row whose target speed closes the error at ``rate``.
        theta = joints.delta_angle[j] + relative_turn(dq, a, b)
        joints.angular_impulse[j], vel = motor_row(
            np.int64(ANGULAR), TURN, -(rate * theta),
            min(joints.max_torque[j] * h, joints.axial_mass[j] * spin_cap),
            joints.angular_impulse[j], joints.axial_mass[j], ms,
            load_pair(v, w, a, b))
        vax, vay, wa, vbx, vby, wb = vel

        rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
        ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        cx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
        cy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
        rhs_x = vbx - wb * rby - vax + wa * ray + rate * cx
        rhs_y = vby + wb * rbx - vay - wa * rax + rate * cy
        old_x = joints.linear_impulse[j, 0]
        old_y = joints.linear_impulse[j, 1]
        px, py = point_impulse(rax, ray, rbx, rby, m_a, m_b, i_a, i_b, rhs_x, rhs_y, 1.0, 0.0,
                               0.0, 0.0, speed_cap)
        new_x, new_y = capped_impulse(old_x, old_y, px, py, joints.max_motor[j] * h)
        joints.linear_impulse[j, 0] = new_x
        joints.linear_impulse[j, 1] = new_y
        vel = point_push(rax, ray, rbx, rby, new_x - old_x, new_y - old_y, ms, vel)
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the motor joints of ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the angular drive, boxed by ``max_torque h``, and the linear drive's
    two rows, each boxed by ``max_force h`` (the square around :func:`solve`'s disc: an LCP
    bounds each row on its own), with the drive's target ``correction_factor / h`` times the
    error as bias. Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    dp = bodies.dp
    dq = bodies.dq
    rate = 0.0
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        if verb == COUNT:
            r += 3
            continue
        if verb == STORE:
            joints.angular_impulse[j] = impulse[r]
            joints.linear_impulse[j, 0] = impulse[r + 1]
            joints.linear_impulse[j, 1] = impulse[r + 2]
            r += 3
            continue
        a = joints.body_a[j]
        b = joints.body_b[j]
        rate = joints.correction_factor[j] / h
        theta = joints.delta_angle[j] + math.atan2(dq[b, 1] * dq[a, 0] - dq[b, 0] * dq[a, 1],
                                                   dq[b, 0] * dq[a, 0] + dq[b, 1] * dq[a, 1])
        put_jacobian(body, jacobian, data, r, a, b, TURN, 1.0, rate * theta, BOXED,
                     joints.max_torque[j] * h, 0.0, -1, spin_cap)
        rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
        ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        cx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
        cy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
        bound = joints.max_motor[j] * h
        put_jacobian(body, jacobian, data, r + 1, a, b, (-1.0, 0.0, ray, 1.0, 0.0, -rby), 1.0,
                     rate * cx, BOXED, bound, 0.0, -1, speed_cap)
        put_jacobian(body, jacobian, data, r + 2, a, b, (0.0, -1.0, -rax, 0.0, 1.0, rbx), 1.0,
                     rate * cy, BOXED, bound, 0.0, -1, speed_cap)
        r += 3
    return r - start
