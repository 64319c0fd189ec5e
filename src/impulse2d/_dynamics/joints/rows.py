"""Helpers shared by the joint rows (scalars in, scalars out, so calls cost nothing)."""

from __future__ import annotations

import math

import numpy as np

from ..._core.jit import inline_kernel, inner_kernel


@inline_kernel
def unsigned_rows(j, joints):
    """Joint row ``j`` and its two body rows, as unsigned integers for the solver's loops.

    Numba maps a negative signed index to the end of the array (Python's wraparound), three
    extra instructions on every array access; an unsigned index has none. For a revolute
    joint's solve that was about a fifth of its time (measured on the 2-core CI machine). Keep
    these out of arithmetic: Numba turns mixed signed and unsigned integer arithmetic into floats.
    The body rows are read at the unsigned ``j`` too (at the signed one, each read chose
    between ``j`` and its wrap-around: callgrind, BENCHMARKS.md, session 33, ``jointS58``).
    """
    row = np.uint64(j)
    return row, np.uint64(joints.body_a[row]), np.uint64(joints.body_b[row])


@inline_kernel
def clear_idle_rows(joints, j, spring_on, motor_on, limit_on):
    """Zero the accumulated impulse of each optional row of joint ``j`` that is off.

    Warm starting applies every accumulated impulse at the start of each (sub)step, and the
    solve leaves a row that is off alone, so a spring, motor or limit switched off while it
    pushed would go on pushing with its last impulse (Box2D v3 zeroes them as well). Inlined,
    as :func:`unsigned_rows`.
    """
    if not spring_on:
        joints.spring_impulse[j] = 0.0
    if not motor_on:
        joints.motor_impulse[j] = 0.0
    if not limit_on:
        joints.lower_impulse[j] = 0.0
        joints.upper_impulse[j] = 0.0


@inner_kernel
def equality_softness(use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, inv_h):
    """``(bias rate, mass_scale, impulse_scale)`` of a rigid equality row (a joint's point or
    angle): stabilised softly with the joint softness (soft step) or with Baumgarte's
    ``beta / h`` (pgs), and unbiased in the relax pass."""
    if not use_bias:
        return 0.0, 1.0, 0.0
    if soft:
        return bias_rate, mass_scale, impulse_scale
    return baumgarte * inv_h, 1.0, 0.0


@inner_kernel
def inequality_bias(c, use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, inv_h):
    """``(bias, mass_scale, impulse_scale)`` of a one-sided row (limit) with error ``c``.

    While the row is open (``c > 0``) it is speculative: the solver may close the gap this
    (sub)step but no more, ``bias = c / h``. Once violated it is pushed back softly (soft step),
    with Baumgarte's ``beta c / h`` (pgs), or not at all in the relax pass.
    """
    if c > 0.0:
        return c * inv_h, 1.0, 0.0
    if not use_bias:
        return 0.0, 1.0, 0.0
    if soft:
        return bias_rate * c, mass_scale, impulse_scale
    return baumgarte * inv_h * c, 1.0, 0.0


@inner_kernel
def bounded(total, mass, cap):
    """An equality row's accumulated impulse ``total`` kept within ``mass * cap``.

    ``mass`` is the row's effective mass and ``cap`` its speed budget (m/s, or rad/s for an
    angular row; :func:`..solvers.impulse_caps`): no more impulse than would, alone,
    change the row's relative speed by the budget. A row that asks for more (an
    over-constrained loop, a tiny body pulled by far anchors) is one that cannot be satisfied:
    it yields instead of feeding an impulse that grows without bound through the warm start.
    """
    limit = mass * cap
    return min(max(total, -limit), limit)


@inner_kernel
def one_sided(total, mass, cap):
    """:func:`bounded` for a one-sided row (limit, rope): ``0 <= total <= mass * cap``."""
    return min(max(total, 0.0), mass * cap)


@inner_kernel
def point_impulse(rax, ray, rbx, rby, m_a, m_b, i_a, i_b, rhs_x, rhs_y, mass_scale, impulse_scale,
                  acc_x, acc_y, speed_cap):
    """Impulse ``(px, py)`` of a two-row point constraint (anchors coincide) for the velocity
    error plus bias ``rhs``, solved as one 2x2 block (revolute point, weld linear part)::

        K = (1/m_a + 1/m_b) I + 1/I_a [r_a]x^T [r_a]x + 1/I_b [r_b]x^T [r_b]x
        P = -mass_scale K^-1 rhs - impulse_scale * accumulated

    The new accumulated impulse is kept within ``speed_cap / trace(K)`` in length, so that
    ``|K P| <= speed_cap`` (K's largest eigenvalue is below its trace): :func:`bounded` for
    two rows at once.
    """
    m = m_a + m_b
    k11 = m + i_a * ray * ray + i_b * rby * rby
    k12 = -i_a * rax * ray - i_b * rbx * rby
    k22 = m + i_a * rax * rax + i_b * rbx * rbx
    det = k11 * k22 - k12 * k12
    inv_det = 1.0 / det if det != 0.0 else 0.0
    px = -mass_scale * inv_det * (k22 * rhs_x - k12 * rhs_y) - impulse_scale * acc_x
    py = -mass_scale * inv_det * (k11 * rhs_y - k12 * rhs_x) - impulse_scale * acc_y
    x = acc_x + px
    y = acc_y + py
    trace = k11 + k22
    size2 = x * x + y * y
    if size2 * trace * trace > speed_cap * speed_cap:
        scale = speed_cap / (trace * math.sqrt(size2))
        return x * scale - acc_x, y * scale - acc_y
    return px, py


@inline_kernel
def capped_impulse(old_x, old_y, px, py, limit):
    """The accumulated impulse ``old + p`` of a point block scaled back into the disc of radius
    ``limit`` (N s: a maximum force times ``h``), as ``(x, y)``: the force-limited drives (the
    motor joint's linear row, the mouse joint; Box2D v3's clamp)."""
    new_x = old_x + px
    new_y = old_y + py
    size = (new_x * new_x + new_y * new_y) ** 0.5
    if size > limit:
        new_x *= limit / size
        new_y *= limit / size
    return new_x, new_y


@inline_kernel
def point_push(rax, ray, rbx, rby, px, py, ms, vel):
    """The velocities ``vel = (vax, vay, wa, vbx, vby, wb)`` after the impulse ``(px, py)``
    (N s) of a point block at the anchors ``r_a``, ``r_b`` (m, from each centre of mass):
    ``-P`` on A, ``+P`` on B, with the inverse masses ``ms = (m_a, m_b, i_a, i_b)``."""
    return (vel[0] - ms[0] * px, vel[1] - ms[0] * py, vel[2] - ms[2] * (rax * py - ray * px),
            vel[3] + ms[1] * px, vel[4] + ms[1] * py, vel[5] + ms[3] * (rbx * py - rby * px))


@inline_kernel
def point_row(joints, j, a, b, dp, dq, m_a, m_b, i_a, i_b, vax, vay, wa, vbx, vby, wb, biased,
              bias_rate, mass_scale, impulse_scale, speed_cap):
    """The point block of joint ``j`` (revolute point, weld linear part) at the current anchors:
    accumulates its impulse and returns the bodies' velocities after it.

    ``biased``: the position error ``C`` is fed back at ``bias_rate``; the softness is the
    caller's (:func:`equality_softness`, or the joint's own spring); the impulse stays within
    ``speed_cap`` (:func:`point_impulse`). Inlined into the solve
    loops, which keep the six velocities in registers across it.
    """
    rax = dq[a, 0] * joints.frame_a[j, 0] - dq[a, 1] * joints.frame_a[j, 1]
    ray = dq[a, 1] * joints.frame_a[j, 0] + dq[a, 0] * joints.frame_a[j, 1]
    rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
    rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
    cdot_x = vbx - wb * rby - vax + wa * ray
    cdot_y = vby + wb * rbx - vay - wa * rax
    bias_x = 0.0
    bias_y = 0.0
    if biased:
        cx = dp[b, 0] - dp[a, 0] + rbx - rax + joints.delta_center[j, 0]
        cy = dp[b, 1] - dp[a, 1] + rby - ray + joints.delta_center[j, 1]
        bias_x = bias_rate * cx
        bias_y = bias_rate * cy
    px, py = point_impulse(rax, ray, rbx, rby, m_a, m_b, i_a, i_b, cdot_x + bias_x,
                           cdot_y + bias_y, mass_scale, impulse_scale, joints.linear_impulse[j, 0],
                           joints.linear_impulse[j, 1], speed_cap)
    joints.linear_impulse[j, 0] += px
    joints.linear_impulse[j, 1] += py
    return point_push(rax, ray, rbx, rby, px, py, (m_a, m_b, i_a, i_b),
                      (vax, vay, wa, vbx, vby, wb))
