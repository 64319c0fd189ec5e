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

from ..._core.jit import borrowing_kernel
from .rows import point_impulse
from ..softness import soft_coefficients
from .revolute import prepare_anchors


@borrowing_kernel
def prepare(joints, ids, bodies, h, warm_starting):
    """The revolute joint's anchors, centres, angle, axial mass, linear softness and resets,
    and the angular spring's softness."""
    prepare_anchors(joints, ids, bodies, h, warm_starting)
    for n in range(ids.shape[0]):
        j = ids[n]
        bias_rate, mass_scale, impulse_scale = soft_coefficients(
            joints.angular_hertz[j], joints.angular_damping_ratio[j], h)
        joints.angular_soft[j, 0] = bias_rate
        joints.angular_soft[j, 1] = mass_scale
        joints.angular_soft[j, 2] = impulse_scale


@borrowing_kernel
def warm_start(joints, ids, bodies):
    """Apply the accumulated point and angular impulses at the current anchors."""
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
def solve(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte):
    """One sweep over the weld joints ``ids``: the angular row, then the point block."""
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    inv_h = 1.0 / h
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        vax = v[a, 0]
        vay = v[a, 1]
        wa = w[a]
        vbx = v[b, 0]
        vby = v[b, 1]
        wb = w[b]

        # Angular row.
        bias = 0.0
        scale_m = 1.0
        scale_i = 0.0
        if joints.angular_hertz[j] > 0.0 or use_bias:
            theta = joints.delta_angle[j] + math.atan2(
                dq[b, 1] * dq[a, 0] - dq[b, 0] * dq[a, 1],
                dq[b, 0] * dq[a, 0] + dq[b, 1] * dq[a, 1])
            if joints.angular_hertz[j] > 0.0:
                bias = joints.angular_soft[j, 0] * theta
                scale_m = joints.angular_soft[j, 1]
                scale_i = joints.angular_soft[j, 2]
            elif soft:
                bias = bias_rate * theta
                scale_m = mass_scale
                scale_i = impulse_scale
            else:
                bias = baumgarte * inv_h * theta
        impulse = (-scale_m * joints.axial_mass[j] * (wb - wa + bias)
                   - scale_i * joints.angular_impulse[j])
        joints.angular_impulse[j] += impulse
        wa -= i_a * impulse
        wb += i_b * impulse

        # Point block.
        rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
        ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        cdot_x = vbx - wb * rby - vax + wa * ray
        cdot_y = vby + wb * rbx - vay - wa * rax
        bias_x = 0.0
        bias_y = 0.0
        scale_m = 1.0
        scale_i = 0.0
        if joints.hertz[j] > 0.0 or use_bias:
            cx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
            cy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
            if joints.hertz[j] > 0.0:
                rate = joints.spring_soft[j, 0]
                scale_m = joints.spring_soft[j, 1]
                scale_i = joints.spring_soft[j, 2]
            elif soft:
                rate = bias_rate
                scale_m = mass_scale
                scale_i = impulse_scale
            else:
                rate = baumgarte * inv_h
            bias_x = rate * cx
            bias_y = rate * cy
        px, py = point_impulse(rax, ray, rbx, rby, m_a, m_b, i_a, i_b, cdot_x + bias_x,
                               cdot_y + bias_y, scale_m, scale_i, joints.linear_impulse[j, 0],
                               joints.linear_impulse[j, 1])
        joints.linear_impulse[j, 0] += px
        joints.linear_impulse[j, 1] += py
        vax -= m_a * px
        vay -= m_a * py
        wa -= i_a * (rax * py - ray * px)
        vbx += m_b * px
        vby += m_b * py
        wb += i_b * (rbx * py - rby * px)

        v[a, 0] = vax
        v[a, 1] = vay
        w[a] = wa
        v[b, 0] = vbx
        v[b, 1] = vby
        w[b] = wb
