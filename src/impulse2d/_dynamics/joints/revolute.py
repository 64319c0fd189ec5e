"""Revolute joint: two bodies share one anchor point and may rotate about it.

Maths (anchors r_a, r_b from each centre of mass, world frame; relative angle
theta = angle_b - angle_a - reference)::

    point      C = (c_b + r_b) - (c_a + r_a)                     (2 rows, equality)
               Cdot = v_b + w_b x r_b - v_a - w_a x r_a = J v
               K = (1/m_a + 1/m_b) I + 1/I_a [r_a]x^T[r_a]x + 1/I_b [r_b]x^T[r_b]x
                 = [[m + ia ray^2 + ib rby^2,   -ia rax ray - ib rbx rby],
                    [-ia rax ray - ib rbx rby,   m + ia rax^2 + ib rbx^2]],   m = 1/m_a + 1/m_b
    spring     C = theta, Cdot = w_b - w_a, K = 1/I_a + 1/I_b (the "axial mass" is 1/K),
               soft with the joint's own (hertz, damping ratio)
    motor      Cdot = w_b - w_a - speed; |lambda| <= max torque * h
    limits     C = theta - lower >= 0 and C = upper - theta >= 0 (inequalities, lambda >= 0),
               speculative while C > 0 (allowed to close the gap exactly), soft otherwise

The point constraint is solved as one 2x2 block. With the soft step it is a stiff spring of the
world's ``joint_hertz`` and ``joint_damping_ratio`` (rigid joints stabilised softly, as Box2D v3
does) followed by a rigid relax pass; with ``pgs`` it is rigid with Baumgarte bias beta C / h.
Sources: Catto, "Modeling and Solving Constraints" (GDC 2009), "Soft Constraints" (GDC 2011);
Box2D v3 ``revolute_joint.c`` for the order of rows (spring, motor, limits, point last).
"""

from __future__ import annotations

import math

from ..._core.jit import borrowing_kernel, inline_kernel, inner_kernel
from ...constants import ANGULAR_SLOP, MAX_ANGULAR_CORRECTION
from ..positions import anchor, clamp, relative_turn, shift, solve2, turn, turn_angle
from .rows import clear_idle_rows, equality_softness, point_row, unsigned_rows
from .jacobian_rows import (ANGULAR, TURN, axis_impulses, axis_rows, count_axis_rows,
                            keep_axis_impulses, optional_rows, put_axis_rows, put_jacobian,
                            store_axis_impulses)
from ..direct_rows import COUNT, EQUALITY, STORE
from ..softness import soft_coefficients
from ..velocities import load_pair, store_pair
from ..world_ref import borrow


@borrowing_kernel
def prepare(world, rows, h, warm_starting):
    """:func:`prepare_anchors`, and no impulse kept by a spring, motor or limit that is off.

    The prismatic and wheel joints gate their rows the same way and share this prepare. Two
    loops, as the distance joint's prepare, so that the anchors' loop is compiled once for
    every joint type built on a point (each joint writes its own rows: the order of the two
    loops changes no value)."""
    prepare_anchors(world, rows, h, warm_starting)
    joints = borrow(world, "joints")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        clear_idle_rows(joints, j, joints.enable_spring[j] and joints.hertz[j] > 0.0,
                        joints.enable_motor[j], joints.enable_limit[j])


@borrowing_kernel
def prepare_anchors(world, rows, h, warm_starting):
    """Anchors from the centres of mass, step-start angle, axial mass, spring softness, and
    every impulse reset without warm starting (shared by the joints built on a point)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    rot = bodies.rot
    local_center = bodies.local_center
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        # r = rot (local anchor - local centre), for each body; written out rather than looped
        # over the sides, which built an array view per side (a third of the loop's time,
        # measured)
        x = joints.local_anchor_a[j, 0] - local_center[a, 0]
        y = joints.local_anchor_a[j, 1] - local_center[a, 1]
        joints.frame_a[j, 0] = rot[a, 0] * x - rot[a, 1] * y
        joints.frame_a[j, 1] = rot[a, 1] * x + rot[a, 0] * y
        x = joints.local_anchor_b[j, 0] - local_center[b, 0]
        y = joints.local_anchor_b[j, 1] - local_center[b, 1]
        joints.frame_b[j, 0] = rot[b, 0] * x - rot[b, 1] * y
        joints.frame_b[j, 1] = rot[b, 1] * x + rot[b, 0] * y
        joints.delta_center[j, 0] = bodies.center[b, 0] - bodies.center[a, 0]
        joints.delta_center[j, 1] = bodies.center[b, 1] - bodies.center[a, 1]
        joints.delta_angle[j] = bodies.angle[b] - bodies.angle[a] - joints.reference_angle[j]
        k = bodies.inv_inertia[a] + bodies.inv_inertia[b]
        joints.axial_mass[j] = 1.0 / k if k > 0.0 else 0.0
        bias_rate, mass_scale, impulse_scale = soft_coefficients(joints.hertz[j],
                                                                 joints.damping_ratio[j], h)
        joints.spring_soft[j, 0] = bias_rate
        joints.spring_soft[j, 1] = mass_scale
        joints.spring_soft[j, 2] = impulse_scale
        if not warm_starting:
            joints.linear_impulse[j, 0] = 0.0
            joints.linear_impulse[j, 1] = 0.0
            joints.spring_impulse[j] = 0.0
            joints.motor_impulse[j] = 0.0
            joints.lower_impulse[j] = 0.0
            joints.upper_impulse[j] = 0.0
            joints.angular_impulse[j] = 0.0


@borrowing_kernel
def warm_start(world, rows):
    """Apply the accumulated impulses at the current anchors."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dq = bodies.dq
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
        ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        axial = (joints.spring_impulse[j] + joints.motor_impulse[j] + joints.lower_impulse[j]
                 - joints.upper_impulse[j])
        px = joints.linear_impulse[j, 0]
        py = joints.linear_impulse[j, 1]
        v[a, 0] -= m_a * px
        v[a, 1] -= m_a * py
        w[a] -= i_a * (rax * py - ray * px + axial)
        v[b, 0] += m_b * px
        v[b, 1] += m_b * py
        w[b] += i_b * (rbx * py - rby * px + axial)


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte,
          speed_cap, spin_cap):
    """One sweep over the revolute joints of row list ``rows``: spring, motor, limits, then the
    point.

    ``soft`` (soft step) stabilises the point and the limits with the joint softness
    (``bias_rate``, ``mass_scale``, ``impulse_scale``); otherwise (pgs) with Baumgarte's
    ``baumgarte / h``. Without ``use_bias`` (relax pass) they are rigid and unbiased.
    """
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    inv_h = 1.0 / h
    world = (use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, inv_h)
    point_rate, point_scale_m, point_scale_i = equality_softness(
        use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, inv_h)
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        vax, vay, wa, vbx, vby, wb = load_pair(v, w, a, b)
        # Joint angle now: at step start plus the in-step relative rotation dq_b * conj(dq_a).
        # Only the spring and the limits need it, and atan2 is the dearest line of a pure pin.
        theta = 0.0
        if joints.enable_spring[j] or joints.enable_limit[j]:
            theta = joints.delta_angle[j] + kept_turn(joints.turn_kept, j, dq, a, b)
        axial_mass = joints.axial_mass[j]
        # The limit's budget (impulse_caps) plus the motor's own bound: a motor driving its
        # joint into a limit is held there, however light the bodies (a 0.07 kg leg with a
        # 40 N m motor, LunarLander's); finite, so an unsatisfiable limit still yields.
        room = axial_mass * spin_cap
        max_impulse = joints.max_motor[j] * h
        if joints.enable_motor[j]:
            room += max_impulse
        acc, vel = axis_rows(
            ANGULAR, TURN, theta, axial_mass, spin_cap, room, optional_rows(joints, j), 0.0,
            joints.spring_soft[j], joints.motor_speed[j], max_impulse,
            joints.lower[j], joints.upper[j], axis_impulses(joints, j), world,
            (m_a, m_b, i_a, i_b), (vax, vay, wa, vbx, vby, wb))
        keep_axis_impulses(joints, j, acc)
        vax, vay, wa, vbx, vby, wb = vel

        vax, vay, wa, vbx, vby, wb = point_row(joints, j, a, b, dp, dq, m_a, m_b, i_a, i_b,
                                               vax, vay, wa, vbx, vby, wb, use_bias, point_rate,
                                               point_scale_m, point_scale_i, speed_cap)
        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)


@inline_kernel
def kept_turn(kept, j, dq, a, b):
    """:func:`..positions.relative_turn` of joint ``j``'s bodies ``a`` and ``b`` (rad), its
    ``atan2`` kept in ``kept[j]`` (the rotation's sin and cos, and the angle) and taken from
    there when the next call finds the same sin and cos. The soft step moves the positions
    only between a substep's biased and relax passes, so the relax pass and the next
    substep's biased pass see the same rotations: each substep after the first takes one
    ``atan2`` a joint where it took two (LunarLander's legs: 14 of 30 a step gone, ~5 % of
    the native environment's CPU was ``atan2``). A kept angle is ``atan2`` of the very sin
    and cos kept beside it, so it has the same bits whichever call finds it; a zero sin is
    never taken (``==`` does not tell its sign, which decides ``atan2``'s), and a store's
    zeroed rows keep nothing."""
    # (the sin and cos as relative_turn computes them, the same operations in the same order)
    s = dq[b, 1] * dq[a, 0] - dq[b, 0] * dq[a, 1]
    c = dq[b, 0] * dq[a, 0] + dq[b, 1] * dq[a, 1]
    if s != 0.0 and s == kept[j, 0] and c == kept[j, 1]:
        return kept[j, 2]
    angle = turn_angle(s, c)
    kept[j, 0] = s
    kept[j, 1] = c
    kept[j, 2] = angle
    return angle


@borrowing_kernel
def solve_pins(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte,
               speed_cap, spin_cap):
    """:func:`solve` for revolute joints with no spring, motor or limit: the point alone.

    The same arithmetic as :func:`solve` on such a joint, in a loop of its own: without the
    optional rows' branches and columns in it the compiler keeps the loop in registers, and a
    pass costs about 16 ns a joint instead of 18 (measured on the 2-core CI machine).
    """
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    rate, scale_m, scale_i = equality_softness(use_bias, soft, bias_rate, mass_scale,
                                               impulse_scale, baumgarte, 1.0 / h)
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        vax, vay, wa, vbx, vby, wb = point_row(
            joints, j, a, b, dp, dq, bodies.inv_mass[a], bodies.inv_mass[b],
            bodies.inv_inertia[a], bodies.inv_inertia[b], v[a, 0], v[a, 1], w[a], v[b, 0],
            v[b, 1], w[b], use_bias, rate, scale_m, scale_i, speed_cap)
        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)


@borrowing_kernel
def solve_position(world, rows, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the revolute joints of row list ``rows``
    (``pgs_ngs``, ``pgs_block``; Box2D v2.4 ``b2RevoluteJoint::SolvePositionConstraints``): the
    angle limit (beyond the angular slop, at most 8 degrees at once), then the point, in full
    with the current anchors' 2x2 mass: one Newton step, uncapped, as Box2D (v2.3 and v2.4)
    takes it.
    (It was capped at 0.2 m a sweep, to keep a stretched chain from jumping; the chain tests
    pass without it, and the cap turned a joint made with its anchors apart differently from
    Box2D: LunarLander's legs, made 0.6 m from their anchors, stood 0.08 rad off Box2D's after
    the first step, 0.001 without it; docs/compat-box2d.md.) Returns the largest error in
    units of its tolerance (see :data:`~..verbs.JOINT_SIGNATURE`). Pins (no limit) take the
    same loop."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    dp = bodies.dp
    dq = bodies.dq
    worst = 0.0
    for n in range(ids.shape[0]):
        j, a, b = unsigned_rows(ids[n], joints)
        m_a = bodies.inv_mass[a]
        m_b = bodies.inv_mass[b]
        i_a = bodies.inv_inertia[a]
        i_b = bodies.inv_inertia[b]
        if joints.enable_limit[j] and i_a + i_b > 0.0:
            theta = joints.delta_angle[j] + relative_turn(dq, a, b)
            c = angular_limit_error(theta, joints.lower[j], joints.upper[j])
            impulse = -joints.axial_mass[j] * c
            turn(dq, a, -i_a * impulse)
            turn(dq, b, i_b * impulse)
            worst = max(worst, abs(c) / ANGULAR_SLOP)
        rax, ray = anchor(dq, a, joints.frame_a[j, 0], joints.frame_a[j, 1])
        rbx, rby = anchor(dq, b, joints.frame_b[j, 0], joints.frame_b[j, 1])
        cx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
        cy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
        worst = max(worst, math.sqrt(cx * cx + cy * cy) / slop)
        m = m_a + m_b
        px, py = solve2(m + i_a * ray * ray + i_b * rby * rby, -i_a * rax * ray - i_b * rbx * rby,
                        m + i_a * rax * rax + i_b * rbx * rbx, -cx, -cy)
        shift(bodies, a, -px, -py, -(rax * py - ray * px))
        shift(bodies, b, px, py, rbx * py - rby * px)
    return worst


@inner_kernel
def angular_limit_error(theta, lower, upper):
    """The error ``C`` an angle limit corrects (Box2D v2.4): ``theta - lower`` when the limits
    nearly coincide, else the violation beyond the angular slop (negative below ``lower``,
    positive above ``upper``, 0 between), within ``MAX_ANGULAR_CORRECTION``."""
    if abs(upper - lower) < 2.0 * ANGULAR_SLOP:
        return clamp(theta - lower, -MAX_ANGULAR_CORRECTION, MAX_ANGULAR_CORRECTION)
    if theta <= lower:
        return clamp(theta - lower + ANGULAR_SLOP, -MAX_ANGULAR_CORRECTION, 0.0)
    if theta >= upper:
        return clamp(theta - upper - ANGULAR_SLOP, 0.0, MAX_ANGULAR_CORRECTION)
    return 0.0


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body, jacobian,
                data, impulse):
    """The rows of the revolute joints of row list ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`; ``verb`` COUNT, ROWS or STORE from row ``start``): the point (two
    equality rows, Baumgarte bias), then the spring (a soft equality row), the motor (boxed by
    ``max_motor_torque h``) and the two limits (one-sided), each while on, as :func:`solve`
    has them. Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    dp = bodies.dp
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
            joints.linear_impulse[j, 1] = impulse[r + 1]
            r += 2
            r = store_axis_impulses(joints, j, impulse, r, on)
            continue
        rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
        ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        cx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
        cy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
        # Cdot_x = vbx - wb rby - vax + wa ray; Cdot_y = vby + wb rbx - vay - wa rax
        put_jacobian(body, jacobian, data, r, a, b, (-1.0, 0.0, ray, 1.0, 0.0, -rby), 1.0,
                     rate * cx, EQUALITY, 0.0, 0.0, -1, speed_cap)
        put_jacobian(body, jacobian, data, r + 1, a, b, (0.0, -1.0, -rax, 0.0, 1.0, rbx), 1.0,
                     rate * cy, EQUALITY, 0.0, 0.0, -1, speed_cap)
        r += 2
        theta = joints.delta_angle[j] + math.atan2(dq[b, 1] * dq[a, 0] - dq[b, 0] * dq[a, 1],
                                                   dq[b, 0] * dq[a, 0] + dq[b, 1] * dq[a, 1])
        r = put_axis_rows(body, jacobian, data, r, a, b, TURN, theta, on, 0.0,
                          joints.spring_soft[j], joints.motor_speed[j], joints.max_motor[j] * h,
                          joints.lower[j], joints.upper[j], baumgarte, inv_h, spin_cap)
    return r - start
