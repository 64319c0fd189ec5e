"""Distance joint: keeps the distance between two anchor points at a length, or within a range.

Maths (anchors r_a, r_b from each centre of mass, world frame; d = (c_b + r_b) - (c_a + r_a),
L = |d|, unit axis u = d / L; all rows act along u)::

    rigid      C = L - length                                     (1 row, equality)
               Cdot = u . (v_b + w_b x r_b - v_a - w_a x r_a) = J v
               K = 1/m_a + 1/m_b + 1/I_a (r_a x u)^2 + 1/I_b (r_b x u)^2,   axial mass 1/K
    spring     (enable_spring, hertz > 0) C = L - length, soft with the joint's own (hertz, zeta);
               the soft constraint uses the axial mass as the spring mass, so it oscillates
               at ``hertz`` whatever the masses
    limits     (enable_spring) C = L - min_length >= 0 and C = max_length - L >= 0,
               inequalities lambda >= 0, speculative while C > 0 (bias C / h), soft otherwise.
               With hertz = 0 only the limits act: a rope, slack between min and max length
    motor      (enable_spring) Cdot = u . v_rel - speed; |lambda| <= max force * h

Without ``enable_spring`` the joint is rigid (one equality row, stabilised like the revolute
point: softly with the world's joint softness in the soft step, Baumgarte in pgs). With it the
rows go spring, motor, limits (the limits last so they win). The axis and the axial mass are
taken at the current positions (dp, dq) in every iteration. Sources: Catto, "Modeling and
Solving Constraints" (GDC 2009), "Soft Constraints" (GDC 2011); Box2D v3 ``distance_joint.c``
for the choice of rows.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import borrowing_kernel, inline_kernel
from ..direct_rows import COUNT, EQUALITY, STORE
from ..positions import clamp
from ..velocities import load_pair, store_pair
from .jacobian_rows import (PAIRED, axis_impulses, axis_rows, correct_row, count_axis_rows,
                            effective_mass, equality_row, keep_axis_impulses, masses, paired, push,
                            put_axis_rows, put_jacobian, store_axis_impulses)
from .revolute import prepare_anchors
from .rows import clear_idle_rows, equality_softness
from ..world_ref import borrow


@borrowing_kernel
def prepare(world, rows, h, warm_starting):
    """Anchors from the centres of mass, step-start centres, spring softness, and the reset of
    the impulses without warm starting (all shared with the revolute joint), and no impulse
    kept by a row that is off: the rigid row with ``enable_spring``, the others without."""
    prepare_anchors(world, rows, h, warm_starting)
    joints = borrow(world, "joints")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        soft_length = joints.enable_spring[j]
        clear_idle_rows(joints, j, soft_length and joints.hertz[j] > 0.0,
                        soft_length and joints.enable_motor[j], soft_length)
        if soft_length:
            joints.linear_impulse[j, 0] = 0.0


@borrowing_kernel
def _geometry(joints, j, bodies):
    """Current anchors, unit axis and length: (rax, ray, rbx, rby, ux, uy, length)."""
    dp = bodies.dp
    dq = bodies.dq
    a = joints.body_a[j]
    b = joints.body_b[j]
    rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
    ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
    rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
    rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
    dx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
    dy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
    length = (dx * dx + dy * dy) ** 0.5
    if length > 1e-12:
        ux = dx / length
        uy = dy / length
    else:
        ux = 0.0
        uy = 0.0
    return rax, ray, rbx, rby, ux, uy, length


@inline_kernel
def _row(joints, j, bodies):
    """The row along the current axis ``u`` and the current length: ``(J, L)``,
    ``J = (-u, -(r_a x u), u, r_b x u)``."""
    rax, ray, rbx, rby, ux, uy, length = _geometry(joints, j, bodies)
    return paired(ux, uy, -(rax * uy - ray * ux), rbx * uy - rby * ux), length


@borrowing_kernel
def warm_start(world, rows):
    """Apply the accumulated axial impulse along the current axis."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        jr, _ = _row(joints, j, bodies)
        total = (joints.linear_impulse[j, 0] + joints.spring_impulse[j] + joints.motor_impulse[j]
                 + joints.lower_impulse[j] - joints.upper_impulse[j])
        vel = push(PAIRED, jr, total, masses(bodies, a, b), load_pair(v, w, a, b))
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte,
          speed_cap, spin_cap):
    """One sweep over the distance joints of row list ``rows`` (see the module doc for the
    rows)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    inv_h = 1.0 / h
    world = (use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, inv_h)
    rate, scale_m, scale_i = equality_softness(use_bias, soft, bias_rate, mass_scale,
                                               impulse_scale, baumgarte, inv_h)
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        ms = masses(bodies, a, b)
        jr, length = _row(joints, j, bodies)
        axial_mass = effective_mass(PAIRED, jr, ms)
        vel = load_pair(v, w, a, b)
        if joints.enable_spring[j]:
            acc, vel = axis_rows(
                PAIRED, jr, length, axial_mass, speed_cap, axial_mass * speed_cap,
                (joints.hertz[j] > 0.0, joints.enable_motor[j], True, True), joints.length[j],
                joints.spring_soft[j], joints.motor_speed[j], joints.max_motor[j] * h,
                joints.min_length[j], joints.max_length[j],
                axis_impulses(joints, j), world, ms, vel)
            keep_axis_impulses(joints, j, acc)
        else:
            joints.linear_impulse[j, 0], vel = equality_row(
                np.int64(PAIRED), jr, length - joints.length[j], use_bias, rate, scale_m, scale_i,
                joints.linear_impulse[j, 0], axial_mass, speed_cap, ms, vel)
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def solve_position(world, rows, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the distance joints of row list ``rows``
    (``pgs_ngs``, ``pgs_block``; Box2D v2.4 ``b2DistanceJoint::SolvePositionConstraints``): a
    rigid joint's length, or a sprung one's violated ``min_length``/``max_length`` (the spring
    itself is a force, not an error), in full along the current axis, at most 0.2 m at once.
    Returns the largest error over ``slop``."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        jr, length = _row(joints, j, bodies)
        if not joints.enable_spring[j]:
            c = length - joints.length[j]
        elif length < joints.min_length[j]:
            c = length - joints.min_length[j]
        elif length > joints.max_length[j]:
            c = length - joints.max_length[j]
        else:
            continue
        worst = max(worst, abs(c) / slop)
        correct_row(bodies, a, b, PAIRED, jr, clamp(c, -max_correction, max_correction),
                    masses(bodies, a, b))
    return worst


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body, jacobian,
                data, impulse):
    """The rows of the distance joints of row list ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): without ``enable_spring`` one rigid equality row along the axis
    (Baumgarte bias); with it the spring (soft equality, while hertz > 0), the motor (boxed by
    ``max_motor_force h``, while on) and the two length limits (one-sided), as :func:`solve`.
    Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    inv_h = 1.0 / h
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        sprung = joints.enable_spring[j]
        on = (sprung and joints.hertz[j] > 0.0, sprung and joints.enable_motor[j], sprung,
              sprung)
        if verb == COUNT:
            r += count_axis_rows(on) if sprung else 1
            continue
        if verb == STORE:
            if not sprung:
                joints.linear_impulse[j, 0] = impulse[r]
                r += 1
                continue
            r = store_axis_impulses(joints, j, impulse, r, on)
            continue
        jr, length = _row(joints, j, bodies)
        if not sprung:
            put_jacobian(body, jacobian, data, r, a, b, jr, 1.0,
                         baumgarte * inv_h * (length - joints.length[j]), EQUALITY, 0.0, 0.0,
                         -1, speed_cap)
            r += 1
            continue
        r = put_axis_rows(body, jacobian, data, r, a, b, jr, length, on, joints.length[j],
                          joints.spring_soft[j], joints.motor_speed[j], joints.max_motor[j] * h,
                          joints.min_length[j], joints.max_length[j], baumgarte, inv_h,
                          speed_cap)
    return r - start
