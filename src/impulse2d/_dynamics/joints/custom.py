"""Custom joint: the rows of a law ``C(q_a, q_b; p)`` that the user wrote (:mod:`impulse2d.custom`).

Maths. A law is one to three scalar functions ``C_k`` of the two bodies' poses ``q = (x, y,
theta)`` (the body origin and angle) and named parameters ``p``. Its generated kernel (called
by address from the world's table of verbs, :data:`~..verbs.LAW_SIGNATURE`) returns ``C``,
``dC/dq`` and, for the acceleration level, ``qdot^T (d^2 C / dq^2) qdot``. The solver's
velocities are the centre of mass's ``v`` and the spin ``w``; with ``r = origin - centre``
(world frame) the origin moves at ``v + w r⊥``, so::

    J_lin = dC/d(x, y),   J_ang = dC/dtheta + r x dC/d(x, y)          (r x u = r_x u_y - r_y u_x)
    Jdot v = qdot^T H qdot - w^2 r . dC/d(x, y)       (per body: the origin's centripetal term)

Each row ``k`` holds ``lower_k <= C_k <= upper_k`` (``Joints.row_lower``, ``row_upper``):

* ``lower == upper`` (an equality): rigid (``hertz == 0``), stabilised like the built-in joints'
  rigid rows (the world's joint softness in the soft step, Baumgarte in ``pgs``), all the rigid
  rows of a joint solved as one block (``K = J M^-1 J^T``, up to 3x3, each row's impulse within
  its own budget; a single rigid row is the built-in joints' equality row,
  :func:`.jacobian_rows.equality_row`); or a spring toward ``lower`` (``hertz > 0``, the
  joint's own softness);
* otherwise the row is free between its bounds: an optional motor drives ``Cdot`` to
  ``row_speed`` with at most ``row_max_force * h``, and each finite bound is a one-sided row
  (``C - lower >= 0``, ``upper - C >= 0``), speculative while open, soft or Baumgarte once
  violated. A law's inequality row is ``0 <= C < inf``.

Rows go free rows (spring, motor, lower, upper, row by row) first, then the rigid block, as
the built-in joints put their rigid rows last so that they win. The law is evaluated at the
current positions (``dp``, ``dq``) in every pass, as the built-in joints take their geometry.
Accumulated impulses per row (``row_impulse``): the equality's or the motor's, the lower
bound's, the upper bound's. The row machinery is :mod:`.jacobian_rows`.
"""

from __future__ import annotations

import math

import numpy as np

from ..._core.jit import borrowing_kernel, inline_kernel
from ...constants import ANGULAR_SLOP, MAX_ANGULAR_CORRECTION
from ..direct_rows import COUNT, EQUALITY, STORE
from ..positions import clamp, solve2, solve3, turn_angle
from ..softness import soft_coefficients
from ..verbs import LAWS, call_law
from ..velocities import load_pair, store_pair
from ..world_ref import borrow
from .jacobian_rows import (GENERAL, axis_rows, count_axis_rows, coupling, effective_mass,
                            equality_row, law_row, masses, push, put_axis_rows, put_jacobian,
                            read_axis_rows, row_cap, shift_row, shift_rows, speed, turns_only)
from .rows import bounded, equality_softness

EVALUATE, WITH_PRODUCTS = 1, 2
"""Modes of a law kernel: ``C`` and ``J``; also ``Jdot v`` (the state then holds velocities)."""


@inline_kernel
def _pose(base, dp, dq, local_center, v, w, i, state, o, angle, velocities):
    """Body ``i``'s origin pose now (its pose at the start of the step, ``base``: a row of
    ``law_base``, moved by the in-step ``dp``, ``dq``) into ``state[o:o+5]``, and with
    ``velocities`` its origin's velocity into ``state[o+5:o+8]``. The angle (an ``atan2`` of
    the in-step turn) only where the law reads it. Returns ``(r_x, r_y, moved)``: ``r = origin
    - centre`` (m, world frame), and whether the pose differs from the one in ``state`` (the
    law's last evaluation)."""
    c = base[3] * dq[i, 0] - base[4] * dq[i, 1]
    s = base[4] * dq[i, 0] + base[3] * dq[i, 1]
    lx = local_center[i, 0]
    ly = local_center[i, 1]
    rx = -(c * lx - s * ly)
    ry = -(s * lx + c * ly)
    x = base[0] + dp[i, 0] + rx
    y = base[1] + dp[i, 1] + ry
    moved = not (x == state[o] and y == state[o + 1] and c == state[o + 3]
                 and s == state[o + 4])
    if moved:
        state[o] = x
        state[o + 1] = y
        state[o + 2] = base[2] + turn_angle(dq[i, 1], dq[i, 0]) if angle else 0.0
        state[o + 3] = c
        state[o + 4] = s
    if velocities:
        spin = w[i]
        state[o + 5] = v[i, 0] - spin * ry
        state[o + 6] = v[i, 1] + spin * rx
        state[o + 7] = spin
    return rx, ry, moved


def _law_at(base, state, params, out, rows, angle, law, a, b, dp, dq, local_center, v, w,
            mode):
    """One joint's law at the bodies' current poses into ``out``: per row ``C``, ``J`` in the
    solver's velocity coordinates and (``mode`` WITH_PRODUCTS) ``Jdot v``. ``base``, ``state``,
    ``params``, ``out``: the joint's rows of ``law_base``, ``law_state``, ``law_params``,
    ``law_out``; ``law`` the address of its kernel; the rest the bodies' arrays.

    The law is called again only where a pose moved since its last call (or ``mode`` asks for
    the products, which read the velocities): ``pgs`` sweeps every joint 8 times at one pose,
    and the soft step warm-starts and solves at one pose each substep."""
    products = mode == WITH_PRODUCTS
    rax, ray, moved_a = _pose(base[0], dp, dq, local_center, v, w, a, state, 0, angle, products)
    rbx, rby, moved_b = _pose(base[1], dp, dq, local_center, v, w, b, state, 8, angle, products)
    if not (moved_a or moved_b or products):
        return
    call_law(law, (state, params, out, mode))
    wa = w[a]
    wb = w[b]
    for r in range(rows):
        jxa = out[r, 1]
        jya = out[r, 2]
        jxb = out[r, 4]
        jyb = out[r, 5]
        out[r, 3] += rax * jya - ray * jxa
        out[r, 6] += rbx * jyb - rby * jxb
        if products:
            out[r, 7] -= wa * wa * (rax * jxa + ray * jya) + wb * wb * (rbx * jxb + rby * jyb)


# The law's evaluation twice compiled from the one function: inlined into the velocity sweeps
# (solve: every joint several times a substep, so no call passing nine arrays), called from the
# other passes (the warm start, once a substep; the position correction, the ``direct`` rows,
# the products). Inlined there as well, it made the position correction compile in 8.0 s against
# 4.1 s called (CPU, cold, loaded 2-core machine; BENCHMARKS.md, 2026-11-28 afternoon).
_law_inlined = inline_kernel(_law_at)
_law_called = borrowing_kernel(_law_at)


@inline_kernel
def evaluate(joints, j, bodies, table, mode):
    """Joint ``j``'s law now into ``joints.law_out[j]`` (:func:`_law_at`), inlined."""
    _law_inlined(joints.law_base[j], joints.law_state[j], joints.law_params[j], joints.law_out[j],
                 joints.law_rows[j], joints.law_angle[j], table[LAWS + joints.law[j]],
                 joints.body_a[j], joints.body_b[j], bodies.dp, bodies.dq, bodies.local_center,
                 bodies.v, bodies.w, mode)


@inline_kernel
def evaluate_called(joints, j, bodies, table, mode):
    """:func:`evaluate`, called (compiled once for every pass outside the velocity sweeps)."""
    _law_called(joints.law_base[j], joints.law_state[j], joints.law_params[j], joints.law_out[j],
                joints.law_rows[j], joints.law_angle[j], table[LAWS + joints.law[j]],
                joints.body_a[j], joints.body_b[j], bodies.dp, bodies.dq, bodies.local_center,
                bodies.v, bodies.w, mode)


@inline_kernel
def is_equality(joints, j, r):
    return joints.row_lower[j, r] == joints.row_upper[j, r]


@borrowing_kernel
def prepare(world, rows, h, warm_starting):
    """The bodies' poses at the start of the step (``law_base``), the spring's softness at
    ``h``; every impulse reset without warm starting, and no impulse kept by a motor or a
    bound that is off (nor by rows the law does not have)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        for side in range(2):
            i = joints.body_a[j] if side == 0 else joints.body_b[j]
            base = joints.law_base[j, side]
            base[0] = bodies.center[i, 0]
            base[1] = bodies.center[i, 1]
            base[2] = bodies.angle[i]
            base[3] = bodies.rot[i, 0]
            base[4] = bodies.rot[i, 1]
        joints.law_state[j, 0] = math.nan  # the law is called afresh (its params may be new)
        bias_rate, mass_scale, impulse_scale = soft_coefficients(joints.hertz[j],
                                                                 joints.damping_ratio[j], h)
        joints.spring_soft[j, 0] = bias_rate
        joints.spring_soft[j, 1] = mass_scale
        joints.spring_soft[j, 2] = impulse_scale
        for r in range(joints.row_impulse.shape[1]):
            if not warm_starting or r >= joints.law_rows[j]:
                for k in range(3):
                    joints.row_impulse[j, r, k] = 0.0
            elif is_equality(joints, j, r):
                joints.row_impulse[j, r, 1] = 0.0
                joints.row_impulse[j, r, 2] = 0.0
            else:
                if not joints.row_motor[j, r]:
                    joints.row_impulse[j, r, 0] = 0.0
                if joints.row_lower[j, r] == -math.inf:
                    joints.row_impulse[j, r, 1] = 0.0
                if joints.row_upper[j, r] == math.inf:
                    joints.row_impulse[j, r, 2] = 0.0


@borrowing_kernel
def warm_start(world, rows):
    """Apply each row's accumulated impulse (equality or motor, plus lower, minus upper)
    along its current ``J``. The law is called, not inlined: this runs once a substep."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    table = borrow(world, "verbs")  # each joint's law by address (slot LAWS + law)
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        evaluate_called(joints, j, bodies, table, EVALUATE)
        out = joints.law_out[j]
        ms = masses(bodies, a, b)
        vel = load_pair(v, w, a, b)
        for r in range(joints.law_rows[j]):
            total = joints.row_impulse[j, r, 0] + joints.row_impulse[j, r, 1] \
                - joints.row_impulse[j, r, 2]
            vel = push(GENERAL, law_row(out, r), total, ms, vel)
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@inline_kernel
def _free(joints, j, r, spring):
    """Which of the rows of :func:`.jacobian_rows.axis_rows` law row ``r`` of joint ``j`` has:
    ``(spring, motor, lower bound, upper bound)``. An equality is a spring (``spring``: the
    joint has ``hertz > 0``) or rigid (none of the four: it is in the block)."""
    lower = joints.row_lower[j, r]
    upper = joints.row_upper[j, r]
    if lower == upper:
        return (spring, False, False, False)
    return (False, joints.row_motor[j, r], lower > -math.inf, upper < math.inf)


@inline_kernel
def _free_impulses(joints, j, r):
    """Law row ``r``'s accumulated impulses as :func:`.jacobian_rows.axis_rows` takes them:
    slot 0 (the equality's, spring or rigid, or the motor's: a row has one or the other) for
    both the spring and the motor, then the bounds'."""
    return (joints.row_impulse[j, r, 0], joints.row_impulse[j, r, 0], joints.row_impulse[j, r, 1],
            joints.row_impulse[j, r, 2])


@inline_kernel
def _keep_free_impulses(joints, j, r, on, acc):
    """Write :func:`_free_impulses` back."""
    joints.row_impulse[j, r, 0] = acc[0] if on[0] else acc[1]
    joints.row_impulse[j, r, 1] = acc[2]
    joints.row_impulse[j, r, 2] = acc[3]


@inline_kernel
def _rigid_rows(joints, j):
    """The rigid equality rows of joint ``j`` (none with a spring), as three row indices
    (-1: none) and their count."""
    # np.int64, not the literals: Numba first types the call to _block with the literals'
    # own types (Literal[int](-1), before the loop's assignments reach it) and compiled the
    # block a second time for them (two signatures in _block.signatures; BENCHMARKS.md,
    # 2026-11-28 evening)
    e0 = np.int64(-1)
    e1 = np.int64(-1)
    e2 = np.int64(-1)
    count = np.int64(0)
    spring = joints.hertz[j] > 0.0
    for r in range(joints.law_rows[j]):
        if not spring and is_equality(joints, j, r):
            if count == 0:
                e0 = r
            elif count == 1:
                e1 = r
            else:
                e2 = r
            count += 1
    return e0, e1, e2, count


@borrowing_kernel
def _block(out, e0, e1, e2, count, m_a, m_b, i_a, i_b, b0, b1, b2):
    """``K^-1 b`` for the block of the rigid rows ``e0, e1, e2`` (``count`` of them). A row
    that moves nothing (``K_kk = 0``: an angle row between bodies of fixed rotation) is inert:
    its diagonal is taken as 1, so the others are solved as if it were absent."""
    k00 = coupling(out, e0, e0, m_a, m_b, i_a, i_b)
    if k00 == 0.0:
        k00 = 1.0
    if count == 1:
        return b0 / k00, 0.0, 0.0
    k01 = coupling(out, e0, e1, m_a, m_b, i_a, i_b)
    k11 = coupling(out, e1, e1, m_a, m_b, i_a, i_b)
    if k11 == 0.0:
        k11 = 1.0
    if count == 2:
        x0, x1 = solve2(k00, k01, k11, b0, b1)
        return x0, x1, 0.0
    k02 = coupling(out, e0, e2, m_a, m_b, i_a, i_b)
    k12 = coupling(out, e1, e2, m_a, m_b, i_a, i_b)
    k22 = coupling(out, e2, e2, m_a, m_b, i_a, i_b)
    if k22 == 0.0:
        k22 = 1.0
    return solve3(k00, k01, k02, k11, k12, k22, b0, b1, b2)


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the custom joints of ``rows`` (see the module doc for the rows)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    table = borrow(world, "verbs")  # each joint's law by address (slot LAWS + law)
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
        evaluate(joints, j, bodies, table, EVALUATE)
        out = joints.law_out[j]
        vel = load_pair(v, w, a, b)
        spring = joints.hertz[j] > 0.0
        for r in range(joints.law_rows[j]):
            on = _free(joints, j, r, spring)
            if count_axis_rows(on) == 0:
                continue  # rigid: in the block below
            jr = law_row(out, r)
            mass = effective_mass(GENERAL, jr, ms)
            cap = row_cap(jr, speed_cap, spin_cap)
            acc, vel = axis_rows(GENERAL, jr, out[r, 0], mass, cap, mass * cap, on,
                                 joints.row_lower[j, r], joints.spring_soft[j],
                                 joints.row_speed[j, r], joints.row_max_force[j, r] * h,
                                 joints.row_lower[j, r], joints.row_upper[j, r],
                                 _free_impulses(joints, j, r), world, ms, vel)
            _keep_free_impulses(joints, j, r, on, acc)

        e0, e1, e2, count = _rigid_rows(joints, j)
        if count == 1:
            # One rigid row (a distance-like law): the built-in joints' equality row.
            jr = law_row(out, e0)
            joints.row_impulse[j, e0, 0], vel = equality_row(
                np.int64(GENERAL), jr, out[e0, 0] - joints.row_lower[j, e0], use_bias, rate,
                scale_m, scale_i, joints.row_impulse[j, e0, 0],
                effective_mass(GENERAL, jr, ms), row_cap(jr, speed_cap, spin_cap), ms, vel)
        elif count > 1:
            b0 = 0.0
            b1 = 0.0
            b2 = 0.0
            for k in range(count):
                r = e0 if k == 0 else (e1 if k == 1 else e2)
                x = speed(GENERAL, law_row(out, r), vel) + rate * (
                    out[r, 0] - joints.row_lower[j, r])
                if k == 0:
                    b0 = x
                elif k == 1:
                    b1 = x
                else:
                    b2 = x
            x0, x1, x2 = _block(out, e0, e1, e2, count, m_a, m_b, i_a, i_b, b0, b1, b2)
            for k in range(count):
                r = e0 if k == 0 else (e1 if k == 1 else e2)
                x = x0 if k == 0 else (x1 if k == 1 else x2)
                jr = law_row(out, r)
                old = joints.row_impulse[j, r, 0]
                # each row of the block within its own budget (its diagonal effective mass)
                total = bounded(old - scale_m * x - scale_i * old,
                                effective_mass(GENERAL, jr, ms),
                                row_cap(jr, speed_cap, spin_cap))
                joints.row_impulse[j, r, 0] = total
                vel = push(GENERAL, jr, total - old, ms, vel)
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def solve_position(world, rows, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the custom joints of ``rows`` (``pgs_ngs``,
    ``pgs_block``): the rigid rows as one block, in full, each error within the correction
    limit (``MAX_ANGULAR_CORRECTION`` for an angle row); then each violated bound beyond the
    slop, row by row (Box2D v2.4's limits). A spring is a force, not an error. Returns the
    largest error in units of its tolerance."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    table = borrow(world, "verbs")  # each joint's law by address (slot LAWS + law)
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        ms = masses(bodies, a, b)
        m_a, m_b, i_a, i_b = ms
        evaluate_called(joints, j, bodies, table, EVALUATE)
        out = joints.law_out[j]
        e0, e1, e2, count = _rigid_rows(joints, j)
        if count > 0:
            b0 = 0.0
            b1 = 0.0
            b2 = 0.0
            for k in range(count):
                r = e0 if k == 0 else (e1 if k == 1 else e2)
                c = out[r, 0] - joints.row_lower[j, r]
                if turns_only(law_row(out, r)):
                    worst = max(worst, abs(c) / ANGULAR_SLOP)
                    c = clamp(c, -MAX_ANGULAR_CORRECTION, MAX_ANGULAR_CORRECTION)
                else:
                    worst = max(worst, abs(c) / slop)
                    c = clamp(c, -max_correction, max_correction)
                if k == 0:
                    b0 = -c
                elif k == 1:
                    b1 = -c
                else:
                    b2 = -c
            x0, x1, x2 = _block(out, e0, e1, e2, count, m_a, m_b, i_a, i_b, b0, b1, b2)
            shift_rows(bodies, a, b, out, e0, x0, e1, x1, e2, x2)
        for r in range(joints.law_rows[j]):
            if is_equality(joints, j, r):
                continue
            angular = turns_only(law_row(out, r))
            tolerance = ANGULAR_SLOP if angular else slop
            largest = MAX_ANGULAR_CORRECTION if angular else max_correction
            k = coupling(out, r, r, m_a, m_b, i_a, i_b)
            if k <= 0.0:
                continue
            c = out[r, 0]
            for side in range(2):
                sign = 1.0 if side == 0 else -1.0
                gap = c - joints.row_lower[j, r] if side == 0 else joints.row_upper[j, r] - c
                if gap >= 0.0:
                    continue
                worst = max(worst, -gap / tolerance)
                correction = clamp(gap + tolerance, -largest, 0.0)
                shift_row(bodies, a, b, law_row(out, r), -sign * correction / k)
    return worst


@inline_kernel
def row_count(joints, j):
    """How many rows joint ``j`` has in the ``direct`` solver's system now."""
    spring = joints.hertz[j] > 0.0
    count = 0
    for r in range(joints.law_rows[j]):
        free = count_axis_rows(_free(joints, j, r, spring))
        count += free if free > 0 or not is_equality(joints, j, r) else 1
    return count


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap,
                body, jacobian, data, impulse):
    """The rows of the custom joints of ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`), in :func:`solve`'s order: per law row the spring (soft equality) or
    the motor (boxed by ``max_force h``) and the bounds (one-sided, the upper one along
    ``-J``), then the rigid rows (equalities with Baumgarte's bias). Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    table = borrow(world, "verbs")  # each joint's law by address (slot LAWS + law)
    inv_h = 1.0 / h
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        if verb == COUNT:
            r += row_count(joints, j)
            continue
        spring = joints.hertz[j] > 0.0
        a = joints.body_a[j]
        b = joints.body_b[j]
        if verb != STORE:
            evaluate_called(joints, j, bodies, table, EVALUATE)
        out = joints.law_out[j]
        for k in range(joints.law_rows[j]):
            on = _free(joints, j, k, spring)
            if verb == STORE:
                acc, r = read_axis_rows(impulse, r, on, _free_impulses(joints, j, k))
                _keep_free_impulses(joints, j, k, on, acc)
                continue
            r = put_axis_rows(body, jacobian, data, r, a, b, law_row(out, k), out[k, 0], on,
                              joints.row_lower[j, k], joints.spring_soft[j],
                              joints.row_speed[j, k], joints.row_max_force[j, k] * h,
                              joints.row_lower[j, k], joints.row_upper[j, k], baumgarte, inv_h,
                              row_cap(law_row(out, k), speed_cap, spin_cap))
        if spring:
            continue
        for k in range(joints.law_rows[j]):
            if not is_equality(joints, j, k):
                continue
            if verb == STORE:
                joints.row_impulse[j, k, 0] = impulse[r]
            else:
                jr = law_row(out, k)
                put_jacobian(body, jacobian, data, r, a, b, jr, 1.0,
                             baumgarte * inv_h * (out[k, 0] - joints.row_lower[j, k]),
                             EQUALITY, 0.0, 0.0, -1, row_cap(jr, speed_cap, spin_cap))
            r += 1
    return r - start


@borrowing_kernel
def products(joints, ids, bodies, table, product, r):
    """``Jdot v`` of the custom joints' rows (:mod:`..accel_products`) into ``product`` from
    row ``r``, in :func:`direct_rows`' order (an upper bound's row is along ``-J``); returns
    the row after the last."""
    for n in range(ids.shape[0]):
        j = ids[n]
        spring = joints.hertz[j] > 0.0
        evaluate_called(joints, j, bodies, table, WITH_PRODUCTS)
        out = joints.law_out[j]
        for k in range(joints.law_rows[j]):
            on = _free(joints, j, k, spring)
            along = int(on[0]) + int(on[1]) + int(on[2])  # spring, motor, lower bound: along J
            for _ in range(along):
                product[r] = out[k, 7]
                r += 1
            if on[3]:  # the upper bound: along -J
                product[r] = -out[k, 7]
                r += 1
        if not spring:
            for k in range(joints.law_rows[j]):
                if is_equality(joints, j, k):
                    product[r] = out[k, 7]
                    r += 1
    return r
