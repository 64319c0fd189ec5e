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

from ..._core.jit import borrowing_kernel
from ..direct_rows import (BOXED, COUNT, EQUALITY, ONE_SIDED, STORE, limit_bias, put_row,
                           spring_softness)
from ..positions import clamp, shift
from .rows import bounded, clear_idle_rows, inequality_bias, one_sided
from .revolute import prepare_anchors
from ..velocities import load_pair, store_pair


@borrowing_kernel
def prepare(joints, ids, bodies, h, warm_starting):
    """Anchors from the centres of mass, step-start centres, spring softness, and the reset of
    the impulses without warm starting (all shared with the revolute joint), and no impulse
    kept by a row that is off: the rigid row with ``enable_spring``, the others without."""
    prepare_anchors(joints, ids, bodies, h, warm_starting)
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


@borrowing_kernel
def warm_start(joints, ids, bodies):
    """Apply the accumulated axial impulse along the current axis."""
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, rbx, rby, ux, uy, _ = _geometry(joints, j, bodies)
        total = (joints.linear_impulse[j, 0] + joints.spring_impulse[j] + joints.motor_impulse[j]
                 + joints.lower_impulse[j] - joints.upper_impulse[j])
        px = total * ux
        py = total * uy
        v[a, 0] -= bodies.inv_mass[a] * px
        v[a, 1] -= bodies.inv_mass[a] * py
        w[a] -= bodies.inv_inertia[a] * (rax * py - ray * px)
        v[b, 0] += bodies.inv_mass[b] * px
        v[b, 1] += bodies.inv_mass[b] * py
        w[b] += bodies.inv_inertia[b] * (rbx * py - rby * px)


@borrowing_kernel
def solve(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the distance joints ``ids`` (see the module doc for the rows)."""
    v = bodies.v
    w = bodies.w
    inv_h = 1.0 / h
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        rax, ray, rbx, rby, ux, uy, length = _geometry(joints, j, bodies)
        cra = rax * uy - ray * ux
        crb = rbx * uy - rby * ux
        k = m_a + m_b + i_a * cra * cra + i_b * crb * crb
        axial_mass = 1.0 / k if k > 0.0 else 0.0
        vax, vay, wa, vbx, vby, wb = load_pair(v, w, a, b)

        if joints.enable_spring[j]:
            if joints.hertz[j] > 0.0:
                cdot = (ux * (vbx - wb * rby - vax + wa * ray)
                        + uy * (vby + wb * rbx - vay - wa * rax))
                c = length - joints.length[j]
                old = joints.spring_impulse[j]
                impulse = (-joints.spring_soft[j, 1] * axial_mass
                           * (cdot + joints.spring_soft[j, 0] * c)
                           - joints.spring_soft[j, 2] * old)
                total = bounded(old + impulse, axial_mass, speed_cap)
                joints.spring_impulse[j] = total
                impulse = total - old
                vax -= m_a * impulse * ux
                vay -= m_a * impulse * uy
                wa -= i_a * impulse * cra
                vbx += m_b * impulse * ux
                vby += m_b * impulse * uy
                wb += i_b * impulse * crb

            if joints.enable_motor[j]:
                cdot = (ux * (vbx - wb * rby - vax + wa * ray)
                        + uy * (vby + wb * rbx - vay - wa * rax))
                impulse = -axial_mass * (cdot - joints.motor_speed[j])
                old = joints.motor_impulse[j]
                limit = joints.max_motor[j] * h
                new = min(max(old + impulse, -limit), limit)
                joints.motor_impulse[j] = new
                impulse = new - old
                vax -= m_a * impulse * ux
                vay -= m_a * impulse * uy
                wa -= i_a * impulse * cra
                vbx += m_b * impulse * ux
                vby += m_b * impulse * uy
                wb += i_b * impulse * crb

            for side in range(2):
                # Lower: C = L - min; upper: C = max - L (the same row with the axis flipped).
                sign = 1.0 if side == 0 else -1.0
                c = length - joints.min_length[j] if side == 0 else joints.max_length[j] - length
                bias, scale_m, scale_i = inequality_bias(c, use_bias, soft, bias_rate, mass_scale,
                                                         impulse_scale, baumgarte, inv_h)
                old = joints.lower_impulse[j] if side == 0 else joints.upper_impulse[j]
                cdot = sign * (ux * (vbx - wb * rby - vax + wa * ray)
                               + uy * (vby + wb * rbx - vay - wa * rax))
                impulse = -axial_mass * scale_m * (cdot + bias) - scale_i * old
                new = one_sided(old + impulse, axial_mass, speed_cap)
                impulse = new - old
                if side == 0:
                    joints.lower_impulse[j] = new
                else:
                    joints.upper_impulse[j] = new
                impulse *= sign
                vax -= m_a * impulse * ux
                vay -= m_a * impulse * uy
                wa -= i_a * impulse * cra
                vbx += m_b * impulse * ux
                vby += m_b * impulse * uy
                wb += i_b * impulse * crb
        else:
            cdot = (ux * (vbx - wb * rby - vax + wa * ray)
                    + uy * (vby + wb * rbx - vay - wa * rax))
            bias = 0.0
            scale_m = 1.0
            scale_i = 0.0
            if use_bias:
                c = length - joints.length[j]
                if soft:
                    bias = bias_rate * c
                    scale_m = mass_scale
                    scale_i = impulse_scale
                else:
                    bias = baumgarte * inv_h * c
            old = joints.linear_impulse[j, 0]
            impulse = -scale_m * axial_mass * (cdot + bias) - scale_i * old
            total = bounded(old + impulse, axial_mass, speed_cap)
            joints.linear_impulse[j, 0] = total
            impulse = total - old
            vax -= m_a * impulse * ux
            vay -= m_a * impulse * uy
            wa -= i_a * impulse * cra
            vbx += m_b * impulse * ux
            vby += m_b * impulse * uy
            wb += i_b * impulse * crb

        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)


@borrowing_kernel
def solve_position(joints, ids, bodies, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the distance joints ``ids`` (``pgs_ngs``,
    ``pgs_block``; Box2D v2.4 ``b2DistanceJoint::SolvePositionConstraints``): a rigid joint's
    length, or a sprung one's violated ``min_length``/``max_length`` (the spring itself is a
    force, not an error), in full along the current axis, at most 0.2 m at once. Returns the
    largest error over ``slop``."""
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, rbx, rby, ux, uy, length = _geometry(joints, j, bodies)
        if not joints.enable_spring[j]:
            c = length - joints.length[j]
        elif length < joints.min_length[j]:
            c = length - joints.min_length[j]
        elif length > joints.max_length[j]:
            c = length - joints.max_length[j]
        else:
            continue
        worst = max(worst, abs(c) / slop)
        c = clamp(c, -max_correction, max_correction)
        cra = rax * uy - ray * ux
        crb = rbx * uy - rby * ux
        k = (bodies.inv_mass[a] + bodies.inv_mass[b] + bodies.inv_inertia[a] * cra * cra
             + bodies.inv_inertia[b] * crb * crb)
        if k <= 0.0:
            continue
        impulse = -c / k
        shift(bodies, a, -impulse * ux, -impulse * uy, -impulse * cra)
        shift(bodies, b, impulse * ux, impulse * uy, impulse * crb)
    return worst


@borrowing_kernel
def direct_rows(joints, ids, bodies, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the distance joints ``ids`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): without ``enable_spring`` one rigid equality row along the axis
    (Baumgarte bias); with it the spring (soft equality, while hertz > 0), the motor (boxed by
    ``max_motor_force h``, while on) and the two length limits (one-sided), as :func:`solve`.
    Returns the number of rows."""
    inv_h = 1.0 / h
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        sprung = joints.enable_spring[j]
        spring = sprung and joints.hertz[j] > 0.0
        motor = sprung and joints.enable_motor[j]
        if verb == COUNT:
            r += 2 + int(spring) + int(motor) if sprung else 1
            continue
        if verb == STORE:
            if not sprung:
                joints.linear_impulse[j, 0] = impulse[r]
                r += 1
                continue
            if spring:
                joints.spring_impulse[j] = impulse[r]
                r += 1
            if motor:
                joints.motor_impulse[j] = impulse[r]
                r += 1
            joints.lower_impulse[j] = impulse[r]
            joints.upper_impulse[j] = impulse[r + 1]
            r += 2
            continue
        rax, ray, rbx, rby, ux, uy, length = _geometry(joints, j, bodies)
        cra = rax * uy - ray * ux
        crb = rbx * uy - rby * ux
        if not sprung:
            put_row(body, jacobian, data, r, a, b, -ux, -uy, -cra, ux, uy, crb,
                    baumgarte * inv_h * (length - joints.length[j]), EQUALITY, 0.0, 0.0, -1,
                    speed_cap)
            r += 1
            continue
        if spring:
            put_row(body, jacobian, data, r, a, b, -ux, -uy, -cra, ux, uy, crb,
                    joints.spring_soft[j, 0] * (length - joints.length[j]), EQUALITY, 0.0,
                    spring_softness(joints.spring_soft[j]), -1, speed_cap)
            r += 1
        if motor:
            put_row(body, jacobian, data, r, a, b, -ux, -uy, -cra, ux, uy, crb,
                    -joints.motor_speed[j], BOXED, joints.max_motor[j] * h, 0.0, -1, speed_cap)
            r += 1
        put_row(body, jacobian, data, r, a, b, -ux, -uy, -cra, ux, uy, crb,
                limit_bias(length - joints.min_length[j], baumgarte, inv_h), ONE_SIDED, 0.0,
                0.0, -1, speed_cap)
        put_row(body, jacobian, data, r + 1, a, b, ux, uy, cra, -ux, -uy, -crb,
                limit_bias(joints.max_length[j] - length, baumgarte, inv_h), ONE_SIDED, 0.0,
                0.0, -1, speed_cap)
        r += 2
    return r - start
