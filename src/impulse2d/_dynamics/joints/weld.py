"""Weld joint: glues two bodies at an anchor, rigidly or as linear and angular springs.

Maths (anchors r_a, r_b from each centre of mass, world frame; theta = angle_b - angle_a -
reference)::

    angular    C = theta, Cdot = w_b - w_a, K = 1/I_a + 1/I_b (axial mass 1/K)
    point      C = (c_b + r_b) - (c_a + r_a), the revolute joint's 2x2 block:
               K = (1/m_a + 1/m_b) I + 1/I_a [r_a]x^T[r_a]x + 1/I_b [r_b]x^T[r_b]x

Each part is rigid when its hertz is 0 (stabilised like the revolute point: softly with the
world's joint softness in the soft step and unbiased in the relax pass, Baumgarte in pgs), or a
spring of its own (hertz, damping ratio) otherwise, biased in every pass (a spring is a force,
not an error to remove). Angular row first, then the point (Box2D v3 ``weld_joint.c``'s order).
The linear spring uses ``hertz``/``damping_ratio`` (softness prepared by the revolute prepare
into ``spring_soft``), the angular one ``angular_hertz``/``angular_damping_ratio``
(``angular_soft``). Impulses: ``linear_impulse`` (point) and ``angular_impulse``.
Sources: Catto, "Soft Constraints" (GDC 2011); Box2D v3 ``weld_joint.c``.
"""

from __future__ import annotations

import math

import numpy as np

from ..._core.jit import borrowing_kernel, inner_kernel
from ...constants import ANGULAR_SLOP, MAX_ANGULAR_CORRECTION
from ..positions import anchor, clamp, clamp_length, relative_turn, shift, solve3, solve2, turn
from ..direct_rows import COUNT, EQUALITY, STORE, spring_softness
from .jacobian_rows import ANGULAR, TURN, equality_row, put_jacobian
from .rows import equality_softness, point_row, unsigned_rows
from ..softness import soft_coefficients
from .revolute import prepare_anchors
from ..velocities import load_pair, store_pair
from ..world_ref import borrow


@borrowing_kernel
def prepare(world, rows, h, warm_starting):
    """The revolute joint's anchors, centres, angle, axial mass, linear softness and resets,
    and the angular spring's softness."""
    prepare_anchors(world, rows, h, warm_starting)
    joints = borrow(world, "joints")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        bias_rate, mass_scale, impulse_scale = soft_coefficients(
            joints.angular_hertz[j], joints.angular_damping_ratio[j], h)
        joints.angular_soft[j, 0] = bias_rate
        joints.angular_soft[j, 1] = mass_scale
        joints.angular_soft[j, 2] = impulse_scale


@borrowing_kernel
def warm_start(world, rows):
    """Apply the accumulated point and angular impulses at the current anchors."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dq = bodies.dq
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
        ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        px = joints.linear_impulse[j, 0]
        py = joints.linear_impulse[j, 1]
        angular = joints.angular_impulse[j]
        v[a, 0] -= bodies.inv_mass[a] * px
        v[a, 1] -= bodies.inv_mass[a] * py
        w[a] -= bodies.inv_inertia[a] * (rax * py - ray * px + angular)
        v[b, 0] += bodies.inv_mass[b] * px
        v[b, 1] += bodies.inv_mass[b] * py
        w[b] += bodies.inv_inertia[b] * (rbx * py - rby * px + angular)


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the weld joints of ``rows``: the angular row, then the point block."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    # a part without a spring of its own is rigid, with the pass's stabilisation
    rigid_rate, rigid_scale_m, rigid_scale_i = equality_softness(
        use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, 1.0 / h)
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        # Angular row (the angle at the current rotations only where it is fed back).
        sprung = joints.angular_hertz[j] > 0.0
        rate, scale_m, scale_i = _part_softness(sprung, joints.angular_soft, j, rigid_rate,
                                                rigid_scale_m, rigid_scale_i)
        biased = sprung or use_bias
        theta = 0.0
        if biased:
            theta = joints.delta_angle[j] + relative_turn(dq, a, b)
        joints.angular_impulse[j], vel = equality_row(
            np.int64(ANGULAR), TURN, theta, biased, rate, scale_m, scale_i,
            joints.angular_impulse[j], joints.axial_mass[j], spin_cap, (m_a, m_b, i_a, i_b),
            load_pair(v, w, a, b))

        # Point block.
        sprung = joints.hertz[j] > 0.0
        rate, scale_m, scale_i = _part_softness(sprung, joints.spring_soft, j, rigid_rate,
                                                rigid_scale_m, rigid_scale_i)
        vax, vay, wa, vbx, vby, wb = point_row(joints, j, a, b, dp, dq, m_a, m_b, i_a, i_b,
                                               vel[0], vel[1], vel[2], vel[3], vel[4], vel[5],
                                               sprung or use_bias, rate, scale_m, scale_i,
                                               speed_cap)
        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)


@inner_kernel
def _part_softness(sprung, soft_rows, j, rigid_rate, rigid_scale_m, rigid_scale_i):
    """``(bias rate, mass scale, impulse scale)`` of one part of weld ``j``: its own spring's
    (a row of ``soft_rows``) when ``sprung``, else the rigid ones of the pass."""
    if sprung:
        return soft_rows[j, 0], soft_rows[j, 1], soft_rows[j, 2]
    return rigid_rate, rigid_scale_m, rigid_scale_i


@borrowing_kernel
def solve_position(world, rows, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the weld joints of ``rows`` (``pgs_ngs``,
    ``pgs_block``; Box2D v2.4 ``b2WeldJoint::SolvePositionConstraints``): the rigid parts only
    (a part with a spring of its own is a force, not an error). Both rigid: point and angle as
    one 3x3 block; only the point: the 2x2 block; only the angle: the angular row. In full with
    the current anchors, each error within the correction limits. Returns the largest error in
    units of its tolerance."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    dp = bodies.dp
    dq = bodies.dq
    worst = 0.0
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        rigid_point = joints.hertz[j] == 0.0
        rigid_angle = joints.angular_hertz[j] == 0.0
        if not (rigid_point or rigid_angle):
            continue
        m = bodies.inv_mass[a] + bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        c3 = 0.0
        if rigid_angle:
            c3 = joints.delta_angle[j] + relative_turn(dq, a, b)
            worst = max(worst, abs(c3) / ANGULAR_SLOP)
            c3 = clamp(c3, -MAX_ANGULAR_CORRECTION, MAX_ANGULAR_CORRECTION)
        if not rigid_point:
            impulse = -joints.axial_mass[j] * c3
            turn(dq, a, -i_a * impulse)
            turn(dq, b, i_b * impulse)
            continue
        rax, ray = anchor(dq, a, joints.frame_a[j, 0], joints.frame_a[j, 1])
        rbx, rby = anchor(dq, b, joints.frame_b[j, 0], joints.frame_b[j, 1])
        c1 = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
        c2 = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
        worst = max(worst, math.sqrt(c1 * c1 + c2 * c2) / slop)
        c1, c2 = clamp_length(c1, c2, max_correction)
        k11 = m + i_a * ray * ray + i_b * rby * rby
        k12 = -i_a * rax * ray - i_b * rbx * rby
        k22 = m + i_a * rax * rax + i_b * rbx * rbx
        if rigid_angle and i_a + i_b > 0.0:
            l1, l2, l3 = solve3(k11, k12, -i_a * ray - i_b * rby, k22, i_a * rax + i_b * rbx,
                                i_a + i_b, -c1, -c2, -c3)
        else:
            l1, l2 = solve2(k11, k12, k22, -c1, -c2)
            l3 = 0.0
        shift(bodies, a, -l1, -l2, -(rax * l2 - ray * l1 + l3))
        shift(bodies, b, l1, l2, rbx * l2 - rby * l1 + l3)
    return worst


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the weld joints of ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the angle, then the point (two rows), all equalities; each part
    rigid with Baumgarte bias, or soft with its own spring (the point's two rows one soft
    block), as :func:`solve`. Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    dp = bodies.dp
    dq = bodies.dq
    rate = baumgarte / h
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
        theta = joints.delta_angle[j] + math.atan2(dq[b, 1] * dq[a, 0] - dq[b, 0] * dq[a, 1],
                                                   dq[b, 0] * dq[a, 0] + dq[b, 1] * dq[a, 1])
        angle_rate = rate
        angle_soft = 0.0
        if joints.angular_hertz[j] > 0.0:
            angle_rate = joints.angular_soft[j, 0]
            angle_soft = spring_softness(joints.angular_soft[j])
        put_jacobian(body, jacobian, data, r, a, b, TURN, 1.0, angle_rate * theta, EQUALITY,
                     0.0, angle_soft, -1, spin_cap)
        rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
        ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        cx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
        cy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
        point_rate = rate
        point_soft = 0.0
        if joints.hertz[j] > 0.0:
            point_rate = joints.spring_soft[j, 0]
            point_soft = spring_softness(joints.spring_soft[j])
        put_jacobian(body, jacobian, data, r + 1, a, b, (-1.0, 0.0, ray, 1.0, 0.0, -rby), 1.0,
                     point_rate * cx, EQUALITY, 0.0, point_soft, r + 1, speed_cap)
        put_jacobian(body, jacobian, data, r + 2, a, b, (0.0, -1.0, -rax, 0.0, 1.0, rbx), 1.0,
                     point_rate * cy, EQUALITY, 0.0, point_soft, r + 1, speed_cap)
        r += 3
    return r - start
