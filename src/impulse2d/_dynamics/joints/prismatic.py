"""Prismatic joint: body B slides along an axis fixed in body A, without relative rotation.

Maths (anchors r_a, r_b from each centre of mass, world frame; d = (c_b + r_b) - (c_a + r_a);
unit axis u fixed in A, perpendicular p = (-u_y, u_x); theta = angle_b - angle_a - reference)::

    translation  x = u . d
    axial rows   Cdot = u . (v_b - v_a) + a2 w_b - a1 w_a,   a1 = (d + r_a) x u,  a2 = r_b x u
                 (the w_a term includes the rotation of the axis with A)
                 K = 1/m_a + 1/m_b + a1^2 / I_a + a2^2 / I_b,   axial mass 1/K
      spring     C = x (rest at the creation pose), soft with the joint's own (hertz, zeta)
      motor      Cdot - speed; |lambda| <= max force * h
      limits     C = x - lower >= 0 and C = upper - x >= 0, speculative while C > 0
    block        C = (p . d, theta)                                   (2 rows, equality)
                 Cdot = (p . (v_b - v_a) + s2 w_b - s1 w_a,  w_b - w_a),
                 s1 = (d + r_a) x p,  s2 = r_b x p
                 K = [[1/m_a + 1/m_b + s1^2 / I_a + s2^2 / I_b,   s1 / I_a + s2 / I_b],
                      [s1 / I_a + s2 / I_b,                        1/I_a + 1/I_b]]
                 (the angular entry is 1 when both bodies have fixed rotation)

Impulses: lambda_axial along u (spring + motor + lower - upper), lambda_perp along p (first
entry of ``linear_impulse``) and the angular lambda (``angular_impulse``); each row applies
P = lambda u (or p) at v, and L_a = lambda a1 (or s1) + lambda_angle, L_b likewise, at w.
Rows in Box2D v3's order: spring, motor, limits, then the block (rigid rows last so they win),
stabilised like the revolute point: softly with the world's joint softness in the soft step,
Baumgarte in pgs. Sources: Catto, "Modeling and Solving Constraints" (GDC 2009); Box2D v3
``prismatic_joint.c`` for the rows.
"""

from __future__ import annotations

from ..._core.jit import borrowing_kernel, inline_kernel, inner_kernel
from ...constants import ANGULAR_SLOP, MAX_ANGULAR_CORRECTION
from ..direct_rows import COUNT, EQUALITY, STORE
from ..positions import clamp, relative_turn, shift, solve2, solve3
from ..velocities import load_pair, store_pair
from .jacobian_rows import (PAIRED, TURN, axis_impulses, axis_rows, count_axis_rows,
                            effective_mass, keep_axis_impulses, masses, optional_rows, paired,
                            put_axis_rows, put_jacobian, store_axis_impulses)
from .revolute import prepare as _revolute_prepare
from .rows import bounded
from ..world_ref import borrow


@borrowing_kernel
def prepare(world, rows, h, warm_starting):
    """The revolute prepare (anchors, centres, angle, softness, resets, rows that are off) and
    the world axis."""
    _revolute_prepare(world, rows, h, warm_starting)
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        c = bodies.rot[a, 0]
        s = bodies.rot[a, 1]
        x = joints.local_axis_a[j, 0]
        y = joints.local_axis_a[j, 1]
        joints.axis[j, 0] = c * x - s * y
        joints.axis[j, 1] = s * x + c * y


@borrowing_kernel
def geometry(joints, j, bodies):
    """Current (rax, ray, rbx, rby, dx, dy, ux, uy) of a joint with an axis fixed in A."""
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
    ux = dq[a, 0] * joints.axis[j, 0] - dq[a, 1] * joints.axis[j, 1]
    uy = dq[a, 1] * joints.axis[j, 0] + dq[a, 0] * joints.axis[j, 1]
    return rax, ray, rbx, rby, dx, dy, ux, uy


@borrowing_kernel
def warm_start(world, rows):
    """Apply the accumulated axial, perpendicular and angular impulses."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        apply_axis_line(joints, j, bodies,
                        joints.spring_impulse[j] + joints.motor_impulse[j]
                        + joints.lower_impulse[j] - joints.upper_impulse[j],
                        joints.linear_impulse[j, 0], joints.angular_impulse[j])


@inline_kernel
def apply_axis_line(joints, j, bodies, axial, perp, angular):
    """Apply the impulses ``axial`` along the axis, ``perp`` along its perpendicular and the
    angular ``angular`` of a prismatic or wheel joint ``j`` (the wheel's angular one is its
    motor's) at the current geometry: the warm start of both."""
    v = bodies.v
    w = bodies.w
    a = joints.body_a[j]
    b = joints.body_b[j]
    rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
    px_ = -uy
    py_ = ux
    a1 = (dx + rax) * uy - (dy + ray) * ux
    a2 = rbx * uy - rby * ux
    s1 = (dx + rax) * py_ - (dy + ray) * px_
    s2 = rbx * py_ - rby * px_
    fx = axial * ux + perp * px_
    fy = axial * uy + perp * py_
    la = axial * a1 + perp * s1 + angular
    lb = axial * a2 + perp * s2 + angular
    v[a, 0] -= bodies.inv_mass[a] * fx
    v[a, 1] -= bodies.inv_mass[a] * fy
    w[a] -= bodies.inv_inertia[a] * la
    v[b, 0] += bodies.inv_mass[b] * fx
    v[b, 1] += bodies.inv_mass[b] * fy
    w[b] += bodies.inv_inertia[b] * lb


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the prismatic joints of ``rows``: spring, motor, limits, then the block."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dq = bodies.dq
    inv_h = 1.0 / h
    world = (use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, inv_h)
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        ms = masses(bodies, a, b)
        m_a, m_b, i_a, i_b = ms
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        px_ = -uy
        py_ = ux
        jr, translation = axis_row(rax, ray, rbx, rby, dx, dy, ux, uy)
        axial_mass = effective_mass(PAIRED, jr, ms)
        acc, vel = axis_rows(
            PAIRED, jr, translation, axial_mass, speed_cap, axial_mass * speed_cap,
            optional_rows(joints, j), 0.0, joints.spring_soft[j], joints.motor_speed[j],
            joints.max_motor[j] * h, joints.lower[j], joints.upper[j], axis_impulses(joints, j),
            world, ms, load_pair(v, w, a, b))
        keep_axis_impulses(joints, j, acc)
        vax, vay, wa, vbx, vby, wb = vel

        # Point on the line and no relative rotation: one 2x2 block.
        s1 = (dx + rax) * py_ - (dy + ray) * px_
        s2 = rbx * py_ - rby * px_
        cdot1 = px_ * (vbx - vax) + py_ * (vby - vay) + s2 * wb - s1 * wa
        cdot2 = wb - wa
        bias1 = 0.0
        bias2 = 0.0
        scale_m = 1.0
        scale_i = 0.0
        if use_bias:
            c1 = px_ * dx + py_ * dy
            c2 = joints.delta_angle[j] + _relative_angle(dq, a, b)
            rate = bias_rate if soft else baumgarte * inv_h
            bias1 = rate * c1
            bias2 = rate * c2
            if soft:
                scale_m = mass_scale
                scale_i = impulse_scale
        k11 = m_a + m_b + i_a * s1 * s1 + i_b * s2 * s2
        k12 = i_a * s1 + i_b * s2
        k22 = i_a + i_b
        if k22 == 0.0:
            k22 = 1.0
        det = k11 * k22 - k12 * k12
        inv_det = 1.0 / det if det != 0.0 else 0.0
        rhs1 = cdot1 + bias1
        rhs2 = cdot2 + bias2
        old1 = joints.linear_impulse[j, 0]
        old2 = joints.angular_impulse[j]
        l1 = -scale_m * inv_det * (k22 * rhs1 - k12 * rhs2) - scale_i * old1
        l2 = -scale_m * inv_det * (k11 * rhs2 - k12 * rhs1) - scale_i * old2
        # Each row of the block within its own budget (its diagonal effective mass).
        new1 = bounded(old1 + l1, 1.0 / k11 if k11 > 0.0 else 0.0, speed_cap)
        new2 = bounded(old2 + l2, 1.0 / k22, spin_cap)
        joints.linear_impulse[j, 0] = new1
        joints.angular_impulse[j] = new2
        l1 = new1 - old1
        l2 = new2 - old2
        fx = l1 * px_
        fy = l1 * py_
        vax -= m_a * fx
        vay -= m_a * fy
        wa -= i_a * (l1 * s1 + l2)
        vbx += m_b * fx
        vby += m_b * fy
        wb += i_b * (l1 * s2 + l2)

        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)


@borrowing_kernel
def _relative_angle(dq, a, b):
    """In-step rotation of B relative to A: the angle of dq_b * conj(dq_a)."""
    return relative_turn(dq, a, b)


@inner_kernel
def translation_limit_error(translation, lower, upper, slop, max_correction):
    """``(C, active)`` of a translation limit (Box2D v2.3/v2.4 prismatic and wheel):
    ``translation - lower`` when the limits nearly coincide, else the violation beyond the
    linear slop (negative below ``lower``, positive above ``upper``), each within
    ``max_correction``; not active between the limits."""
    if abs(upper - lower) < 2.0 * slop:
        return clamp(translation - lower, -max_correction, max_correction), True
    if translation <= lower:
        return clamp(translation - lower + slop, -max_correction, 0.0), True
    if translation >= upper:
        return clamp(translation - upper - slop, 0.0, max_correction), True
    return 0.0, False


@borrowing_kernel
def solve_position(world, rows, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the prismatic joints of ``rows`` (``pgs_ngs``,
    ``pgs_block``; Box2D v2.4 ``b2PrismaticJoint::SolvePositionConstraints``): the point on
    the line and the angle as one 2x2 block, or with the violated limit as one 3x3 block, in
    full with the current geometry (each error within the correction limits). Returns the
    largest error in units of its tolerance."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    dq = bodies.dq
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        ms = masses(bodies, a, b)
        m_a, m_b, i_a, i_b = ms
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        px_ = -uy
        py_ = ux
        a1 = (dx + rax) * uy - (dy + ray) * ux
        a2 = rbx * uy - rby * ux
        s1 = (dx + rax) * py_ - (dy + ray) * px_
        s2 = rbx * py_ - rby * px_
        c1 = px_ * dx + py_ * dy
        c2 = joints.delta_angle[j] + relative_turn(dq, a, b)
        linear = abs(c1)
        angular = abs(c2)
        c1 = clamp(c1, -max_correction, max_correction)
        c2 = clamp(c2, -MAX_ANGULAR_CORRECTION, MAX_ANGULAR_CORRECTION)
        c3 = 0.0
        active = False
        if joints.enable_limit[j]:
            c3, active = translation_limit_error(ux * dx + uy * dy, joints.lower[j],
                                                 joints.upper[j], slop, max_correction)
            linear = max(linear, abs(c3))
        worst = max(worst, linear / slop, angular / ANGULAR_SLOP)
        k11 = m_a + m_b + i_a * s1 * s1 + i_b * s2 * s2
        k12 = i_a * s1 + i_b * s2
        k22 = i_a + i_b
        if k22 == 0.0:
            k22 = 1.0  # both rotations fixed: the angle row is inert
        if active:
            k13 = i_a * s1 * a1 + i_b * s2 * a2
            k23 = i_a * a1 + i_b * a2
            k33 = m_a + m_b + i_a * a1 * a1 + i_b * a2 * a2
            l1, l2, l3 = solve3(k11, k12, k13, k22, k23, k33, -c1, -c2, -c3)
        else:
            l1, l2 = solve2(k11, k12, k22, -c1, -c2)
            l3 = 0.0
        fx = l1 * px_ + l3 * ux
        fy = l1 * py_ + l3 * uy
        shift(bodies, a, -fx, -fy, -(l1 * s1 + l2 + l3 * a1))
        shift(bodies, b, fx, fy, l1 * s2 + l2 + l3 * a2)
    return worst


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the prismatic joints of ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the block (perpendicular and angle, two equality rows with
    Baumgarte bias), then along the axis the spring (soft equality), the motor (boxed by
    ``max_motor_force h``) and the two limits (one-sided), each while on, as :func:`solve`.
    Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    dq = bodies.dq
    inv_h = 1.0 / h
    rate = baumgarte * inv_h
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        on = optional_rows(joints, j)
        if verb == COUNT:
            r += 2 + count_axis_rows(on)
            continue
        if verb == STORE:
            joints.linear_impulse[j, 0] = impulse[r]
            joints.angular_impulse[j] = impulse[r + 1]
            r += 2
            r = store_axis_impulses(joints, j, impulse, r, on)
            continue
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        px_ = -uy
        py_ = ux
        s1 = (dx + rax) * py_ - (dy + ray) * px_
        s2 = rbx * py_ - rby * px_
        put_jacobian(body, jacobian, data, r, a, b, (-px_, -py_, -s1, px_, py_, s2), 1.0,
                     rate * (px_ * dx + py_ * dy), EQUALITY, 0.0, 0.0, -1, speed_cap)
        put_jacobian(body, jacobian, data, r + 1, a, b, TURN, 1.0,
                     rate * (joints.delta_angle[j] + _relative_angle(dq, a, b)), EQUALITY, 0.0,
                     0.0, -1, spin_cap)
        r += 2
        r = put_translation_rows(joints, j, a, b, rax, ray, rbx, rby, dx, dy, ux, uy, h,
                                 baumgarte, speed_cap, body, jacobian, data, r, on)
    return r - start


@inline_kernel
def axis_row(rax, ray, rbx, rby, dx, dy, ux, uy):
    """The row along the axis ``u`` of a prismatic or wheel joint and the translation:
    ``(J, u . d)``, ``J = (-u, -a1, u, a2)``, ``a1 = (d + r_a) x u``, ``a2 = r_b x u``."""
    return (paired(ux, uy, -((dx + rax) * uy - (dy + ray) * ux), rbx * uy - rby * ux),
            ux * dx + uy * dy)


@borrowing_kernel
def put_translation_rows(joints, j, a, b, rax, ray, rbx, rby, dx, dy, ux, uy, h, baumgarte,
                         speed_cap, body, jacobian, data, r, on):
    """The rows along the axis of a prismatic or wheel joint ``j`` from row ``r``
    (:func:`.jacobian_rows.put_axis_rows`): the spring, the motor (the wheel's motor is
    angular: its ``on[1]`` is False) and the limits, each while ``on``; returns the next
    row."""
    jr, translation = axis_row(rax, ray, rbx, rby, dx, dy, ux, uy)
    return put_axis_rows(body, jacobian, data, r, a, b, jr, translation, on, 0.0,
                         joints.spring_soft[j], joints.motor_speed[j], joints.max_motor[j] * h,
                         joints.lower[j], joints.upper[j], baumgarte, 1.0 / h, speed_cap)
