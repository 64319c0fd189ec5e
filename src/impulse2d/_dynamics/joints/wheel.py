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

import numpy as np

from ..._core.jit import borrowing_kernel, inline_kernel
from ..direct_rows import BOXED, COUNT, EQUALITY, STORE
from ..positions import clamp
from ..velocities import load_pair, store_pair
from ..world_ref import borrow
from .jacobian_rows import (ANGULAR, PAIRED, TURN, axis_impulses, axis_rows, correct_row,
                            count_axis_rows, effective_mass, equality_row, keep_axis_impulses,
                            masses, motor_row, optional_rows, paired, put_jacobian, stiffness,
                            store_axis_impulses)
from .prismatic import (apply_axis_line, axis_row, geometry, put_translation_rows,
                        translation_limit_error)
from .prismatic import prepare as _prismatic_prepare
from .rows import equality_softness


prepare = _prismatic_prepare
"""Anchors, centres, angle, axial (angular) mass, spring softness, resets and world axis: the
prismatic joint's kernel itself (a kernel forwarding to it was one more compile)."""


@inline_kernel
def line_row(rax, ray, rbx, rby, dx, dy, ux, uy):
    """The point-on-line row: ``(J, p . d)``, ``J = (-p, -s1, p, s2)`` along the
    perpendicular ``p = (-u_y, u_x)``, ``s1 = (d + r_a) x p``, ``s2 = r_b x p``."""
    px_ = -uy
    py_ = ux
    return (paired(px_, py_, -((dx + rax) * py_ - (dy + ray) * px_), rbx * py_ - rby * px_),
            px_ * dx + py_ * dy)


@borrowing_kernel
def warm_start(world, rows):
    """Apply the accumulated axial, line and motor impulses (the prismatic joint's warm start,
    the motor's impulse in place of the angle's)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        apply_axis_line(joints, j, bodies,
                        joints.spring_impulse[j] + joints.lower_impulse[j]
                        - joints.upper_impulse[j],
                        joints.linear_impulse[j, 0], joints.motor_impulse[j])


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the wheel joints of ``rows``: motor, spring, limits, line."""
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
        m_a, m_b, i_a, i_b = ms
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        vel = load_pair(v, w, a, b)
        if joints.enable_motor[j]:
            joints.motor_impulse[j], vel = motor_row(
                np.int64(ANGULAR), TURN, joints.motor_speed[j], joints.max_motor[j] * h,
                joints.motor_impulse[j], joints.axial_mass[j], ms, vel)
        jr, translation = axis_row(rax, ray, rbx, rby, dx, dy, ux, uy)
        axial_mass = effective_mass(PAIRED, jr, ms)
        spring, _, low, high = optional_rows(joints, j)
        acc, vel = axis_rows(
            PAIRED, jr, translation, axial_mass, speed_cap, axial_mass * speed_cap,
            (spring, False, low, high), 0.0,
            joints.spring_soft[j], 0.0, 0.0, joints.lower[j], joints.upper[j],
            axis_impulses(joints, j), world, ms, vel)  # after the motor's row: it keeps its own
        keep_axis_impulses(joints, j, acc)
        # Point on the line.
        line, c = line_row(rax, ray, rbx, rby, dx, dy, ux, uy)
        joints.linear_impulse[j, 0], vel = equality_row(
            np.int64(PAIRED), line, c, use_bias, rate, scale_m, scale_i,
            joints.linear_impulse[j, 0], effective_mass(PAIRED, line, ms), speed_cap, ms, vel)
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def solve_position(world, rows, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the wheel joints of ``rows`` (``pgs_ngs``,
    ``pgs_block``; Box2D v2.4 ``b2WheelJoint::SolvePositionConstraints``): a violated
    translation limit along the axis, then the point onto the line, each in full with the
    current geometry (within ``max_correction``). The suspension spring and the motor
    are forces and have no position error. Returns the largest error over ``slop``."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        ms = masses(bodies, a, b)
        if joints.enable_limit[j]:
            rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
            jr, translation = axis_row(rax, ray, rbx, rby, dx, dy, ux, uy)
            c, active = translation_limit_error(translation, joints.lower[j], joints.upper[j],
                                                slop, max_correction)
            if active and c != 0.0 and stiffness(PAIRED, jr, ms) > 0.0:
                worst = max(worst, abs(c) / slop)
                correct_row(bodies, a, b, PAIRED, jr, c, ms)
        # The point onto the line, with the geometry after the limit's correction.
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        line, c = line_row(rax, ray, rbx, rby, dx, dy, ux, uy)
        worst = max(worst, abs(c) / slop)
        correct_row(bodies, a, b, PAIRED, line, clamp(c, -max_correction, max_correction), ms)
    return worst


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the wheel joints of ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the line (equality, Baumgarte bias), the angular motor (boxed by
    ``max_motor_torque h``), then along the axis the spring (soft) and the limits (one-sided),
    each while on, as :func:`solve`. Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    rate = baumgarte / h
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        spring, motor, low, high = optional_rows(joints, j)
        # the motor is angular, not along the axis; np.bool_, not the literal False, which
        # Numba types apart and for which it compiled the called rows' export a second time
        axial = (spring, np.bool_(False), low, high)
        if verb == COUNT:
            r += 1 + int(motor) + count_axis_rows(axial)
            continue
        if verb == STORE:
            joints.linear_impulse[j, 0] = impulse[r]
            r += 1
            if motor:
                joints.motor_impulse[j] = impulse[r]
                r += 1
            r = store_axis_impulses(joints, j, impulse, r, axial)
            continue
        rax, ray, rbx, rby, dx, dy, ux, uy = geometry(joints, j, bodies)
        line, c = line_row(rax, ray, rbx, rby, dx, dy, ux, uy)
        put_jacobian(body, jacobian, data, r, a, b, line, 1.0, rate * c, EQUALITY, 0.0, 0.0,
                     -1, speed_cap)
        r += 1
        if motor:
            put_jacobian(body, jacobian, data, r, a, b, TURN, 1.0, -joints.motor_speed[j],
                         BOXED, joints.max_motor[j] * h, 0.0, -1, spin_cap)
            r += 1
        r = put_translation_rows(joints, j, a, b, rax, ray, rbx, rby, dx, dy, ux, uy, h,
                                 baumgarte, speed_cap, body, jacobian, data, r, axial)
    return r - start
