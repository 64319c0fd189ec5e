"""The row machinery of every joint: a scalar constraint row given by its Jacobian ``J`` and its
error ``C``, turned into an effective mass, a bias, an accumulated and clamped impulse, a
position correction and rows of the ``direct`` solver's system. Each joint type keeps only its
geometry (its ``C``, its ``J`` and, where it solves one, its block); the custom joints
(:mod:`.custom`) hand their generated ``J`` to the same functions.

A row is six numbers, ``J = (J_a linear x, J_a linear y, J_a angular, J_b linear x,
J_b linear y, J_b angular)``, in the solver's velocity coordinates (each body's centre-of-mass
velocity and its spin), so that ``Cdot = J . (v_a, w_a, v_b, w_b)``; the velocities travel as
``vel = (vax, vay, wa, vbx, vby, wb)`` and the inverse masses as ``ms = (m_a, m_b, i_a, i_b)``.
From ``J`` alone (Catto, "Modeling and Solving Constraints", GDC 2009; "Soft Constraints",
GDC 2011)::

    K      = J M^-1 J^T = m_a |J_a,lin|^2 + i_a J_a,ang^2 + m_b |J_b,lin|^2 + i_b J_b,ang^2
    lambda = -s_m (1/K) (Cdot + rate C) - s_i lambda_acc       (rigid: s_m = 1, s_i = 0)
    P      = J^T lambda on the velocities,   J^T lambda / M on the positions (NGS)
    K_pq   = J_p M^-1 J_q^T                  (the coupling of two rows, for a block solve)

with ``m`` and ``i`` the inverse masses and inertias. The kinds of row (:func:`equality_row`,
:func:`motor_row`, :func:`limit_row`, and :func:`axis_rows`, a joint's spring, motor and limits
on one ``J``) are those of Box2D v3's joints: the soft or Baumgarte bias, the speculative limit,
the impulse budget of the nothing-blows-up rules (:func:`.rows.bounded`).

The rows (:func:`equality_row`, :func:`motor_row`, :func:`limit_row`, :func:`put_axis_rows`,
:func:`read_axis_rows`) take scalars and tuples only, no store, so they are compiled once and
called (``borrowing_kernel``), not inlined into each caller at Numba's IR level: inlined, they
made each joint type's kernels compile 1.4-2x slower (cold, per joint type: prismatic 23-29 s
against 12-13 s, measured on the loaded 2-core machine); called, 9-15 s. The dispatcher
:func:`axis_rows` (three rows behind four switches, about 40 arguments) is the exception:
called, it made a chain of 100 distance joints with limits step 1.24x slower than with the
rows written out in the joint, so it alone is inlined at Numba's IR level (its rows still
called): 0.88-0.96x of the written-out rows (CPU time, paired; BENCHMARKS.md, 2026-11-28
afternoon).

The solver is bit-reproducible (no ``fastmath``, :mod:`..._core.jit`), so the order in which
``Cdot`` is summed is part of the result: a row's ``form`` says which (a constant at each call
site; in the small inlined helpers the compiler keeps only its branch):

* :data:`GENERAL`: ``J . v`` term by term (a custom law, whose two linear parts are unrelated);
* :data:`PAIRED`: ``J_b,lin = -J_a,lin = u``, a unit vector (a force pair along an axis: the
  distance, prismatic and wheel rows), ``u . (v_b - v_a) + J_b,ang w_b + J_a,ang w_a``, and
  ``K = m_a + m_b + i_a J_a,ang^2 + i_b J_b,ang^2``;
* :data:`ANGULAR`: ``J = (0, 0, -1, 0, 0, 1)``, ``w_b - w_a`` (an angle: the revolute joint's
  rows, the wheel's motor, the weld's angle), ``K = i_a + i_b``.

The called rows (:func:`equality_row`, :func:`motor_row`, :func:`limit_row`) take the form as
``np.int64(FORM)``, not the bare constant: Numba types a constant argument as a literal type of
its own and compiled each of them once per form, three times (0.4-0.6 s of CPU each, cold,
load 5). Given an ``int64`` they are compiled once with the three forms' branches, and LLVM,
which links them into each caller, folds the branch of the caller's constant.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import borrowing_kernel, inline_kernel
from ..direct_rows import BOXED, EQUALITY, ONE_SIDED, limit_bias, put_row, spring_softness
from ..positions import shift
from .rows import bounded, inequality_bias

GENERAL, PAIRED, ANGULAR = 0, 1, 2
"""How a row's ``Cdot`` is summed and its ``K`` formed (see the module doc)."""

TURN = (0.0, 0.0, -1.0, 0.0, 0.0, 1.0)
"""``J`` of an angle row (:data:`ANGULAR`): ``Cdot = w_b - w_a``."""


@inline_kernel
def paired(ux, uy, jaw, jbw):
    """``J`` of a :data:`PAIRED` row along the unit vector ``u`` with the angular terms
    ``jaw`` (on A) and ``jbw`` (on B)."""
    return (-ux, -uy, jaw, ux, uy, jbw)


@inline_kernel
def masses(bodies, a, b):
    """``ms = (m_a, m_b, i_a, i_b)``: the inverse masses (1/kg) and inertias (1/(kg m^2)) of
    bodies ``a`` and ``b``."""
    return (bodies.inv_mass[a], bodies.inv_mass[b], bodies.inv_inertia[a],
            bodies.inv_inertia[b])


@inline_kernel
def speed(form, jr, vel):
    """``Cdot = J v`` of the row ``jr`` at the velocities ``vel`` (m/s or rad/s)."""
    if form == ANGULAR:
        return vel[5] - vel[2]
    if form == PAIRED:
        return jr[3] * (vel[3] - vel[0]) + jr[4] * (vel[4] - vel[1]) + jr[5] * vel[5] \
            + jr[2] * vel[2]
    return (jr[0] * vel[0] + jr[1] * vel[1] + jr[2] * vel[2] + jr[3] * vel[3]
            + jr[4] * vel[4] + jr[5] * vel[5])


@inline_kernel
def push(form, jr, impulse, ms, vel):
    """The velocities ``vel`` after the impulse ``J^T impulse`` (N s, or N m s)."""
    if form == ANGULAR:
        return (vel[0], vel[1], vel[2] - ms[2] * impulse, vel[3], vel[4],
                vel[5] + ms[3] * impulse)
    return (vel[0] + ms[0] * impulse * jr[0], vel[1] + ms[0] * impulse * jr[1],
            vel[2] + ms[2] * impulse * jr[2], vel[3] + ms[1] * impulse * jr[3],
            vel[4] + ms[1] * impulse * jr[4], vel[5] + ms[3] * impulse * jr[5])


@inline_kernel
def stiffness(form, jr, ms):
    """``K = J M^-1 J^T`` of the row (1/kg, or 1/(kg m^2) for an angle)."""
    if form == ANGULAR:
        return ms[2] + ms[3]
    if form == PAIRED:
        return ms[0] + ms[1] + ms[2] * jr[2] * jr[2] + ms[3] * jr[5] * jr[5]
    return (ms[0] * (jr[0] * jr[0] + jr[1] * jr[1]) + ms[2] * jr[2] * jr[2]
            + ms[1] * (jr[3] * jr[3] + jr[4] * jr[4]) + ms[3] * jr[5] * jr[5])


@inline_kernel
def effective_mass(form, jr, ms):
    """The row's effective mass ``1 / K`` (0 for a row that moves nothing)."""
    k = stiffness(form, jr, ms)
    return 1.0 / k if k > 0.0 else 0.0


@inline_kernel
def turns_only(jr):
    """Whether the row only turns the bodies (no linear term: its error is an angle, rad)."""
    return jr[0] == 0.0 and jr[1] == 0.0 and jr[3] == 0.0 and jr[4] == 0.0


@inline_kernel
def row_cap(jr, speed_cap, spin_cap):
    """The speed budget of the row (:func:`~..solvers.impulse_caps`): the spin budget for a
    row that only turns, else the linear one."""
    return spin_cap if turns_only(jr) else speed_cap


@borrowing_kernel
def equality_row(form, jr, c, biased, rate, scale_m, scale_i, old, mass, cap, ms, vel):
    """One iteration of an equality row ``C = 0`` with accumulated impulse ``old``: rigid
    (``scale_m`` 1, ``scale_i`` 0) or soft (:func:`~..softness.soft_coefficients`, a joint's
    spring or the world's joint softness), with the bias ``rate C`` while ``biased``; the total
    kept within ``mass * cap`` (:func:`.rows.bounded`). Returns ``(total, vel)``."""
    cdot = speed(form, jr, vel)
    bias = 0.0
    if biased:
        bias = rate * c
    impulse = -scale_m * mass * (cdot + bias) - scale_i * old
    total = bounded(old + impulse, mass, cap)
    return total, push(form, jr, total - old, ms, vel)


@borrowing_kernel
def motor_row(form, jr, target, max_impulse, old, mass, ms, vel):
    """One iteration of a motor driving ``Cdot`` to ``target`` with at most ``max_impulse``
    (the maximum force or torque times ``h``) either way. Returns ``(total, vel)``."""
    impulse = -mass * (speed(form, jr, vel) - target)
    total = min(max(old + impulse, -max_impulse), max_impulse)
    return total, push(form, jr, total - old, ms, vel)


@borrowing_kernel
def limit_row(form, jr, sign, gap, old, mass, room, world, ms, vel):
    """One iteration of the one-sided row ``gap >= 0`` along ``sign J`` (``sign`` -1: an upper
    bound, ``gap = upper - C``): speculative while open, then soft, Baumgarte or unbiased by
    the pass (``world``, see :func:`axis_rows`; :func:`.rows.inequality_bias`); the total
    within ``[0, room]``. Returns ``(total, vel)``."""
    bias, scale_m, scale_i = inequality_bias(gap, world[0], world[1], world[2], world[3],
                                             world[4], world[5], world[6])
    cdot = sign * speed(form, jr, vel)
    impulse = -mass * scale_m * (cdot + bias) - scale_i * old
    total = min(max(old + impulse, 0.0), room)
    return total, push(form, jr, sign * (total - old), ms, vel)


@inline_kernel
def axis_rows(form, jr, c, mass, cap, room, on, rest, soft_row, motor_speed, max_impulse,
              lower, upper, acc, world, ms, vel):
    """A joint's optional rows on one ``J``, in Box2D v3's order (the limits last, so that
    they win): the spring ``C - rest`` with the joint's own softness ``soft_row``
    (``(bias rate, mass scale, impulse scale)``), the motor (``motor_speed``, ``max_impulse``),
    the lower bound ``C - lower >= 0`` and the upper one ``upper - C >= 0``.

    ``on``: which of the four act; ``acc``: their accumulated impulses (returned updated, with
    the velocities: ``(acc, vel)``); ``cap``: the speed budget of the spring; ``room``: the
    most a bound may push; ``world``: ``(use_bias, soft, bias_rate, mass_scale, impulse_scale,
    baumgarte, 1/h)``, the pass's stabilisation of the bounds once violated.
    """
    spring, motor, low, high = acc
    form = np.int64(form)  # one compile of each row for every form (see the module doc)
    if on[0]:
        # biased: ``on[0]`` (True here) rather than the literal True, which Numba types apart
        # from the ``bool`` the joints pass and for which it compiled the row a second time
        spring, vel = equality_row(form, jr, c - rest, on[0], soft_row[0], soft_row[1],
                                   soft_row[2], spring, mass, cap, ms, vel)
    if on[1]:
        motor, vel = motor_row(form, jr, motor_speed, max_impulse, motor, mass, ms, vel)
    if on[2]:
        low, vel = limit_row(form, jr, 1.0, c - lower, low, mass, room, world, ms, vel)
    if on[3]:
        high, vel = limit_row(form, jr, -1.0, upper - c, high, mass, room, world, ms, vel)
    return (spring, motor, low, high), vel


@inline_kernel
def count_axis_rows(on):
    """How many rows :func:`put_axis_rows` writes for the switches ``on``."""
    return int(on[0]) + int(on[1]) + int(on[2]) + int(on[3])


@borrowing_kernel
def _write_row(body, jacobian, data, r, a, b, jr, bias, kind, bound, soft, block, cap):
    """:func:`..direct_rows.put_row` with ``J`` as a tuple, compiled once for every joint
    type's row export (:func:`put_jacobian`)."""
    put_row(body, jacobian, data, r, a, b, jr[0], jr[1], jr[2], jr[3], jr[4], jr[5], bias, kind,
            bound, soft, block, cap)


@inline_kernel
def put_jacobian(body, jacobian, data, r, a, b, jr, sign, bias, kind, bound, soft, block, cap):
    """Row ``r`` of the ``direct`` solver's system (:func:`..direct_rows.put_row`'s columns)
    along ``sign J`` (``sign`` -1: an upper bound).

    The row writer (about 20 stores) is called, not inlined: inlined, Numba typed and lowered
    it again at each of the joint types' 20 sites. Its arguments are made ``int64`` and
    ``float64`` here, so that a literal (a kind, a body -1) does not compile it again for a
    type of its own."""
    _write_row(body, jacobian, data, np.int64(r), np.int64(a), np.int64(b),
               (sign * jr[0], sign * jr[1], sign * jr[2], sign * jr[3], sign * jr[4],
                sign * jr[5]), float(bias), np.int64(kind), float(bound), float(soft),
               np.int64(block), float(cap))


@borrowing_kernel
def put_axis_rows(body, jacobian, data, r, a, b, jr, c, on, rest, soft_row, motor_speed,
                  max_impulse, lower, upper, baumgarte, inv_h, cap):
    """:func:`axis_rows` as rows of the ``direct`` solver's system from row ``r``, with the
    ``pgs`` biases: the spring a soft equality, the motor boxed by ``max_impulse``, each bound
    one-sided (the upper one along ``-J``). Returns the next row.

    One loop over the four rows with one :func:`put_jacobian` in it rather than four written
    out: the row writer (about 20 stores) is inlined once instead of four times, the same
    values; the custom joint's ``direct`` rows, the first to compile this, 4.6-5.8 -> 3.9-4.5 s
    CPU cold (BENCHMARKS.md, 2026-11-28 evening)."""
    for k in range(4):
        if not on[k]:
            continue
        sign = 1.0
        bound = 0.0
        soft = 0.0
        if k == 0:
            bias = soft_row[0] * (c - rest)
            kind = EQUALITY
            soft = spring_softness(soft_row)
        elif k == 1:
            bias = -motor_speed
            kind = BOXED
            bound = max_impulse
        elif k == 2:
            bias = limit_bias(c - lower, baumgarte, inv_h)
            kind = ONE_SIDED
        else:
            sign = -1.0
            bias = limit_bias(upper - c, baumgarte, inv_h)
            kind = ONE_SIDED
        put_jacobian(body, jacobian, data, r, a, b, jr, sign, bias, kind, bound, soft, -1, cap)
        r += 1
    return r


@borrowing_kernel
def read_axis_rows(impulse, r, on, acc):
    """The impulses the ``direct`` solver found for :func:`put_axis_rows`' rows from row
    ``r`` (a row that is off keeps its ``acc``). Returns ``(acc, next row)``."""
    spring, motor, low, high = acc
    if on[0]:
        spring = impulse[r]
        r += 1
    if on[1]:
        motor = impulse[r]
        r += 1
    if on[2]:
        low = impulse[r]
        r += 1
    if on[3]:
        high = impulse[r]
        r += 1
    return (spring, motor, low, high), r


@inline_kernel
def optional_rows(joints, j):
    """Which of a built-in joint's optional rows (:func:`axis_rows`) are on: the spring (with
    ``hertz > 0``), the motor and the two bounds of its limit."""
    limit = joints.enable_limit[j]
    return (joints.enable_spring[j] and joints.hertz[j] > 0.0, joints.enable_motor[j], limit,
            limit)


@inline_kernel
def axis_impulses(joints, j):
    """A built-in joint's accumulated impulses on its :func:`axis_rows`: ``(spring, motor,
    lower, upper)``."""
    return (joints.spring_impulse[j], joints.motor_impulse[j], joints.lower_impulse[j],
            joints.upper_impulse[j])


@inline_kernel
def keep_axis_impulses(joints, j, acc):
    """Write :func:`axis_impulses` back."""
    joints.spring_impulse[j] = acc[0]
    joints.motor_impulse[j] = acc[1]
    joints.lower_impulse[j] = acc[2]
    joints.upper_impulse[j] = acc[3]


@inline_kernel
def store_axis_impulses(joints, j, impulse, r, on):
    """:func:`read_axis_rows` into a built-in joint's impulses; returns the next row."""
    acc, r = read_axis_rows(impulse, r, on, axis_impulses(joints, j))
    keep_axis_impulses(joints, j, acc)
    return r


@inline_kernel
def shift_row(bodies, a, b, jr, x):
    """Move bodies ``a`` and ``b`` by the pseudo-impulse ``J^T x`` (kg m, or kg m^2: positions,
    not velocities; the nonlinear Gauss-Seidel pass)."""
    shift(bodies, a, x * jr[0], x * jr[1], x * jr[2])
    shift(bodies, b, x * jr[3], x * jr[4], x * jr[5])


@inline_kernel
def correct_row(bodies, a, b, form, jr, c, ms):
    """The NGS correction of one row with (clamped) error ``c``: the pseudo-impulse
    ``-c / K`` along ``J`` at the current geometry; none for a row that moves nothing."""
    k = stiffness(form, jr, ms)
    if k > 0.0:
        shift_row(bodies, a, b, jr, -c / k)


# A custom law writes its rows into an array ``out`` laid out as :data:`~..._core.state.LAW_OUT`:
# ``out[r] = (C, J, Jdot v)``. These read that layout.

@inline_kernel
def law_row(out, r):
    """``J`` of row ``r`` of a law's output."""
    return (out[r, 1], out[r, 2], out[r, 3], out[r, 4], out[r, 5], out[r, 6])


@inline_kernel
def coupling(out, p, q, m_a, m_b, i_a, i_b):
    """``K_pq = J_p M^-1 J_q^T`` of rows ``p`` and ``q`` (``K`` for ``p == q``)."""
    return (m_a * (out[p, 1] * out[q, 1] + out[p, 2] * out[q, 2]) + i_a * out[p, 3] * out[q, 3]
            + m_b * (out[p, 4] * out[q, 4] + out[p, 5] * out[q, 5])
            + i_b * out[p, 6] * out[q, 6])


@inline_kernel
def shift_rows(bodies, a, b, out, r0, l0, r1, l1, r2, l2):
    """Move bodies ``a`` and ``b`` by the pseudo-impulse ``sum_k J_rk^T l_k`` (the rows of a
    block at once). A row index -1 takes no part."""
    ax = 0.0
    ay = 0.0
    aw = 0.0
    bx = 0.0
    by = 0.0
    bw = 0.0
    for k in range(3):
        r = r0 if k == 0 else (r1 if k == 1 else r2)
        x = l0 if k == 0 else (l1 if k == 1 else l2)
        if r < 0:
            continue
        ax += x * out[r, 1]
        ay += x * out[r, 2]
        aw += x * out[r, 3]
        bx += x * out[r, 4]
        by += x * out[r, 5]
        bw += x * out[r, 6]
    shift(bodies, a, ax, ay, aw)
    shift(bodies, b, bx, by, bw)
