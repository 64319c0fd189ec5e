"""Wheel joint: a point-on-line constraint with a suspension spring along the line, translation
limits, and a rotational motor (a car wheel on its suspension).

Maths (as the prismatic joint: d = (c_b + r_b) - (c_a + r_a), unit axis u fixed in A,
perpendicular p = (-u_y, u_x), a1 = (d + r_a) x u, a2 = r_b x u, s1 = (d + r_a) x p,
s2 = r_b x p)::

    motor      Cdot = w_b - w_a - speed, K = 1/I_a + 1/I_b; |lambda| <= max torque * h
    spring     C = u . d (rest at the creation pose), Cdot = u . (v_b - v_a) + a2 w_b - a1 w_a,
               K = 1/m_a + 1/m_b + a1^2 / I_a + a2^2 / I_b, soft with the joint's own
               (hertz, zeta) using 1/K as the spring mass, so it oscillates at ``hertz``
    limits     C = u . d - lower >= 0 and C = upper - u . d >= 0, speculative while C > 0
    line       C = p . d, Cdot = p . (v_b - v_a) + s2 w_b - s1 w_a,
               K = 1/m_a + 1/m_b + s1^2 / I_a + s2^2 / I_b           (1 row, equality)

Rows in Box2D v3's order: motor, spring, limits, line (the rigid row last). The line is
stabilised like the revolute point: softly with the world's joint softness in the soft step,
Baumgarte in pgs. Impulses: ``motor_impulse`` (angular), ``spring_impulse``, ``lower_impulse``,
``upper_impulse`` (along u), the line's in ``linear_impulse[:, 0]`` (along p).
Sources: Catto, "Modeling and Solving Constraints" (GDC 2009); Box2D v3 ``wheel_joint.c``.
"""

from __future__ import annotations

from ..._core.jit import borrowing_kernel
from ..positions import clamp, shift
from .rows import bounded, inequality_bias, one_sided
from ..direct_rows import BOXED, COUNT, EQUALITY, STORE, put_row, store_axial_rows
from .prismatic import axial_rows, geometry, translation_limit_error
from .prismatic import prepare as _prismatic_prepare
from ..velocities import load_pair, store_pair


@borrowing_kernel
def prepare(joints, ids, bodies, h, warm_starting):
    """Anchors, centres, angle, axial (angular) mass, spring softness, resets and world axis:
    everything the prismatic prepare does."""
    _prismatic_prepare(joints, ids, bodies, h, warm_starting)


@borrowing_kernel
def warm_start(joints, ids, bodies):
    """Apply the accumulated axial, line and motor impulses."""
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        px_ = -uy
        py_ = ux
        a1 = (dx + rax) * uy - (dy + ray) * ux
        a2 = rbx * uy - rby * ux
        s1 = (dx + rax) * py_ - (dy + ray) * px_
        s2 = rbx * py_ - rby * px_
        axial = joints.spring_impulse[j] + joints.lower_impulse[j] - joints.upper_impulse[j]
        perp = joints.linear_impulse[j, 0]
        motor = joints.motor_impulse[j]
        fx = axial * ux + perp * px_
        fy = axial * uy + perp * py_
        v[a, 0] -= bodies.inv_mass[a] * fx
        v[a, 1] -= bodies.inv_mass[a] * fy
        w[a] -= bodies.inv_inertia[a] * (axial * a1 + perp * s1 + motor)
        v[b, 0] += bodies.inv_mass[b] * fx
        v[b, 1] += bodies.inv_mass[b] * fy
        w[b] += bodies.inv_inertia[b] * (axial * a2 + perp * s2 + motor)


@borrowing_kernel
def solve(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the wheel joints ``ids``: motor, spring, limits, line."""
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
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        px_ = -uy
        py_ = ux
        a1 = (dx + rax) * uy - (dy + ray) * ux
        a2 = rbx * uy - rby * ux
        translation = ux * dx + uy * dy
        k = m_a + m_b + i_a * a1 * a1 + i_b * a2 * a2
        axial_mass = 1.0 / k if k > 0.0 else 0.0
        vax, vay, wa, vbx, vby, wb = load_pair(v, w, a, b)

        if joints.enable_motor[j]:
            impulse = -joints.axial_mass[j] * (wb - wa - joints.motor_speed[j])
            old = joints.motor_impulse[j]
            limit = joints.max_motor[j] * h
            new = min(max(old + impulse, -limit), limit)
            joints.motor_impulse[j] = new
            impulse = new - old
            wa -= i_a * impulse
            wb += i_b * impulse

        if joints.enable_spring[j] and joints.hertz[j] > 0.0:
            cdot = ux * (vbx - vax) + uy * (vby - vay) + a2 * wb - a1 * wa
            old = joints.spring_impulse[j]
            impulse = (-joints.spring_soft[j, 1] * axial_mass
                       * (cdot + joints.spring_soft[j, 0] * translation)
                       - joints.spring_soft[j, 2] * old)
            total = bounded(old + impulse, axial_mass, speed_cap)
            joints.spring_impulse[j] = total
            impulse = total - old
            vax -= m_a * impulse * ux
            vay -= m_a * impulse * uy
            wa -= i_a * impulse * a1
            vbx += m_b * impulse * ux
            vby += m_b * impulse * uy
            wb += i_b * impulse * a2

        if joints.enable_limit[j]:
            for side in range(2):
                sign = 1.0 if side == 0 else -1.0
                c = translation - joints.lower[j] if side == 0 else joints.upper[j] - translation
                bias, scale_m, scale_i = inequality_bias(c, use_bias, soft, bias_rate, mass_scale,
                                                         impulse_scale, baumgarte, inv_h)
                old = joints.lower_impulse[j] if side == 0 else joints.upper_impulse[j]
                cdot = sign * (ux * (vbx - vax) + uy * (vby - vay) + a2 * wb - a1 * wa)
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
                wa -= i_a * impulse * a1
                vbx += m_b * impulse * ux
                vby += m_b * impulse * uy
                wb += i_b * impulse * a2

        # Point on the line.
        s1 = (dx + rax) * py_ - (dy + ray) * px_
        s2 = rbx * py_ - rby * px_
        k = m_a + m_b + i_a * s1 * s1 + i_b * s2 * s2
        perp_mass = 1.0 / k if k > 0.0 else 0.0
        cdot = px_ * (vbx - vax) + py_ * (vby - vay) + s2 * wb - s1 * wa
        bias = 0.0
        scale_m = 1.0
        scale_i = 0.0
        if use_bias:
            c = px_ * dx + py_ * dy
            if soft:
                bias = bias_rate * c
                scale_m = mass_scale
                scale_i = impulse_scale
            else:
                bias = baumgarte * inv_h * c
        old = joints.linear_impulse[j, 0]
        impulse = -scale_m * perp_mass * (cdot + bias) - scale_i * old
        total = bounded(old + impulse, perp_mass, speed_cap)
        joints.linear_impulse[j, 0] = total
        impulse = total - old
        vax -= m_a * impulse * px_
        vay -= m_a * impulse * py_
        wa -= i_a * impulse * s1
        vbx += m_b * impulse * px_
        vby += m_b * impulse * py_
        wb += i_b * impulse * s2

        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)


@borrowing_kernel
def solve_position(joints, ids, bodies, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the wheel joints ``ids`` (``pgs_ngs``,
    ``pgs_block``; Box2D v2.4 ``b2WheelJoint::SolvePositionConstraints``): a violated
    translation limit along the axis, then the point onto the line, each in full with the
    current geometry (within ``max_correction``). The suspension spring and the motor
    are forces and have no position error. Returns the largest error over ``slop``."""
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        m = bodies.inv_mass[a] + bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        if joints.enable_limit[j]:
            rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
            c, active = translation_limit_error(ux * dx + uy * dy, joints.lower[j],
                                                joints.upper[j], slop, max_correction)
            a1 = (dx + rax) * uy - (dy + ray) * ux
            a2 = rbx * uy - rby * ux
            k = m + i_a * a1 * a1 + i_b * a2 * a2
            if active and c != 0.0 and k > 0.0:
                worst = max(worst, abs(c) / slop)
                impulse = -c / k
                shift(bodies, a, -impulse * ux, -impulse * uy, -impulse * a1)
                shift(bodies, b, impulse * ux, impulse * uy, impulse * a2)
        # The point onto the line, with the geometry after the limit's correction.
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        px_ = -uy
        py_ = ux
        s1 = (dx + rax) * py_ - (dy + ray) * px_
        s2 = rbx * py_ - rby * px_
        c = px_ * dx + py_ * dy
        worst = max(worst, abs(c) / slop)
        c = clamp(c, -max_correction, max_correction)
        k = m + i_a * s1 * s1 + i_b * s2 * s2
        if k <= 0.0:
            continue
        impulse = -c / k
        shift(bodies, a, -impulse * px_, -impulse * py_, -impulse * s1)
        shift(bodies, b, impulse * px_, impulse * py_, impulse * s2)
    return worst


@borrowing_kernel
def direct_rows(joints, ids, bodies, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the wheel joints ``ids`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the line (equality, Baumgarte bias), the angular motor (boxed by
    ``max_motor_torque h``), then along the axis the spring (soft) and the limits (one-sided),
    each while on, as :func:`solve`. Returns the number of rows."""
    rate = baumgarte / h
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        spring = joints.enable_spring[j] and joints.hertz[j] > 0.0
        motor = joints.enable_motor[j]
        limit = joints.enable_limit[j]
        if verb == COUNT:
            r += 1 + int(motor) + int(spring) + 2 * int(limit)
            continue
        if verb == STORE:
            joints.linear_impulse[j, 0] = impulse[r]
            r += 1
            if motor:
                joints.motor_impulse[j] = impulse[r]
                r += 1
            r = store_axial_rows(joints, j, impulse, r, spring, False, limit)
            continue
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        px_ = -uy
        py_ = ux
        s1 = (dx + rax) * py_ - (dy + ray) * px_
        s2 = rbx * py_ - rby * px_
        put_row(body, jacobian, data, r, a, b, -px_, -py_, -s1, px_, py_, s2,
                rate * (px_ * dx + py_ * dy), EQUALITY, 0.0, 0.0, -1, speed_cap)
        r += 1
        if motor:
            put_row(body, jacobian, data, r, a, b, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0,
                    -joints.motor_speed[j], BOXED, joints.max_motor[j] * h, 0.0, -1, spin_cap)
            r += 1
        r = axial_rows(joints, j, a, b, rax, ray, rbx, rby, dx, dy, ux, uy, h, baumgarte,
                       speed_cap, body, jacobian, data, r, spring, False, limit)
    return r - start
