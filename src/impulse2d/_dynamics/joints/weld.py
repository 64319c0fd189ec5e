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

from ..._core.jit import borrowing_kernel, inner_kernel
from .rows import bounded, equality_softness, point_row, unsigned_rows
from ..softness import soft_coefficients
from .revolute import prepare_anchors
from ..velocities import store_pair


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
def solve(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the weld joints ``ids``: the angular row, then the point block."""
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
        wa = w[a]
        wb = w[b]

        # Angular row.
        sprung = joints.angular_hertz[j] > 0.0
        rate, scale_m, scale_i = _part_softness(sprung, joints.angular_soft, j, rigid_rate,
                                                rigid_scale_m, rigid_scale_i)
        bias = 0.0
        if sprung or use_bias:
            theta = joints.delta_angle[j] + math.atan2(
                dq[b, 1] * dq[a, 0] - dq[b, 0] * dq[a, 1],
                dq[b, 0] * dq[a, 0] + dq[b, 1] * dq[a, 1])
            bias = rate * theta
        old = joints.angular_impulse[j]
        impulse = -scale_m * joints.axial_mass[j] * (wb - wa + bias) - scale_i * old
        total = bounded(old + impulse, joints.axial_mass[j], spin_cap)
        joints.angular_impulse[j] = total
        impulse = total - old
        wa -= i_a * impulse
        wb += i_b * impulse

        # Point block.
        sprung = joints.hertz[j] > 0.0
        rate, scale_m, scale_i = _part_softness(sprung, joints.spring_soft, j, rigid_rate,
                                                rigid_scale_m, rigid_scale_i)
        vax, vay, wa, vbx, vby, wb = point_row(joints, j, a, b, dp, dq, m_a, m_b, i_a, i_b,
                                               v[a, 0], v[a, 1], wa, v[b, 0], v[b, 1], wb,
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
