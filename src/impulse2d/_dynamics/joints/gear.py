"""Gear joint: couples the coordinates of two revolute or prismatic joints,
``coord_a + ratio * coord_b = constant``.

Each coupled joint has a base body (its body A) and a moving body (its body B); the gear joint's
own body A and body B are the moving bodies of joint a and joint b, so up to four bodies take
part. The coordinate of a joint and its Jacobian rows (moving body ``m``, base body ``c``)::

    revolute   q = angle_m - angle_c - reference            J: w_m +1, w_c -1
    prismatic  q = (x_m - x_c) . u,  u = R_c axis_local      J: v_m +u, w_m r_m x u,
               x_m, x_c the joint's anchors in world              v_c -u, w_c -(x_m - c_c) x u

(for the prismatic, the base body's row is the exact derivative: u turns with body c, so its
lever is from c's centre to the moving anchor ``x_m``). The gear is one equality row::

    C = q_a + ratio q_b - constant,   J = J_a + ratio J_b,   K = sum_i J_i M_i^-1 J_i^T

stabilised like the other rigid joints (softly with the world's joint softness in the soft step,
with Baumgarte in pgs). Rows of a body that appears twice (a shared ground, a chain of gears) are
summed before K is formed, so K stays exact. The coordinates are recomputed from the current
positions (dp, dq) in every iteration. The row is solved by the row machinery
(:mod:`.jacobian_rows`) as two pairs of bodies, the coupled joints' (moving, base) slots.
Source: Box2D 2.4 ``b2_gear_joint.cpp`` for the formulation.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import borrowing_kernel, inline_kernel
from ..._core.state import REVOLUTE
from ..direct_rows import COUNT, EQUALITY, STORE
from ..positions import clamp, turn_angle
from ..velocities import load_pair, store_pair
from ..world_ref import borrow
from .jacobian_rows import GENERAL, masses, push, put_jacobian, shift_row, speed, stiffness
from .rows import bounded, equality_softness


@borrowing_kernel
def prepare(world, row_list, h, warm_starting):
    """Nothing is precomputed (the rows depend on the current positions); without warm
    starting the accumulated impulse is reset."""
    joints = borrow(world, "joints")
    ids = borrow(world, "joint_ids")[row_list]
    if not warm_starting:
        for n in range(ids.shape[0]):
            joints.linear_impulse[ids[n], 0] = 0.0


@borrowing_kernel
def _current_rotation(bodies, i):
    """(cos, sin) of body ``i``'s angle now: the step-start rotation times the in-step ``dq``."""
    c = bodies.rot[i, 0] * bodies.dq[i, 0] - bodies.rot[i, 1] * bodies.dq[i, 1]
    s = bodies.rot[i, 1] * bodies.dq[i, 0] + bodies.rot[i, 0] * bodies.dq[i, 1]
    return c, s


@borrowing_kernel
def prismatic_frame(joints, k, bodies):
    """The coupled prismatic joint ``k`` now (base body ``c``, moving body ``m``): its anchors
    from the bodies' centres ``r_c``, ``r_m``, its axis ``u`` (turning with ``c``) and the lever
    from ``c``'s centre to the moving anchor, all m, as ``(rcx, rcy, rmx, rmy, ux, uy, lever_x,
    lever_y)`` (also :mod:`..accel_products`)."""
    c = joints.body_a[k]
    m = joints.body_b[k]
    cc, sc = _current_rotation(bodies, c)
    cm, sm = _current_rotation(bodies, m)
    lx = joints.local_anchor_a[k, 0] - bodies.local_center[c, 0]
    ly = joints.local_anchor_a[k, 1] - bodies.local_center[c, 1]
    rcx = cc * lx - sc * ly
    rcy = sc * lx + cc * ly
    lx = joints.local_anchor_b[k, 0] - bodies.local_center[m, 0]
    ly = joints.local_anchor_b[k, 1] - bodies.local_center[m, 1]
    rmx = cm * lx - sm * ly
    rmy = sm * lx + cm * ly
    ux = cc * joints.local_axis_a[k, 0] - sc * joints.local_axis_a[k, 1]
    uy = sc * joints.local_axis_a[k, 0] + cc * joints.local_axis_a[k, 1]
    lever_x = bodies.center[m, 0] + bodies.dp[m, 0] + rmx - bodies.center[c, 0] - bodies.dp[c, 0]
    lever_y = bodies.center[m, 1] + bodies.dp[m, 1] + rmy - bodies.center[c, 1] - bodies.dp[c, 1]
    return rcx, rcy, rmx, rmy, ux, uy, lever_x, lever_y


@borrowing_kernel
def coordinate(joints, k, bodies, scale, rows, slot):
    """Coordinate of the coupled joint ``k`` times ``scale``; writes its Jacobian rows times
    ``scale`` into ``rows[slot]`` (moving body) and ``rows[slot + 1]`` (base body) as
    (body, jvx, jvy, jw)."""
    c = joints.body_a[k]
    m = joints.body_b[k]
    if joints.type[k] == REVOLUTE:
        dq = bodies.dq
        q = (bodies.angle[m] + turn_angle(dq[m, 1], dq[m, 0])
             - bodies.angle[c] - turn_angle(dq[c, 1], dq[c, 0]) - joints.reference_angle[k])
        rows[slot, 0] = m
        rows[slot, 1] = 0.0
        rows[slot, 2] = 0.0
        rows[slot, 3] = scale
        rows[slot + 1, 0] = c
        rows[slot + 1, 1] = 0.0
        rows[slot + 1, 2] = 0.0
        rows[slot + 1, 3] = -scale
        return scale * q
    # Prismatic.
    rcx, rcy, rmx, rmy, ux, uy, lever_x, lever_y = prismatic_frame(joints, k, bodies)
    q = (lever_x - rcx) * ux + (lever_y - rcy) * uy
    rows[slot, 0] = m
    rows[slot, 1] = scale * ux
    rows[slot, 2] = scale * uy
    rows[slot, 3] = scale * (rmx * uy - rmy * ux)
    rows[slot + 1, 0] = c
    rows[slot + 1, 1] = -scale * ux
    rows[slot + 1, 2] = -scale * uy
    rows[slot + 1, 3] = -scale * (lever_x * uy - lever_y * ux)
    return scale * q


@borrowing_kernel
def _rows(joints, j, bodies, rows):
    """Fill ``rows`` (4 x (body, jvx, jvy, jw)) with the gear's Jacobian, a body's rows merged
    into its first slot; return C."""
    # np.int64 slots: literal ones compiled coordinate once per slot
    q = coordinate(joints, joints.linked[j, 0], bodies, 1.0, rows, np.int64(0))
    q += coordinate(joints, joints.linked[j, 1], bodies, joints.ratio[j], rows, np.int64(2))
    for i in range(1, 4):
        for k in range(i):
            if rows[k, 0] == rows[i, 0]:
                rows[k, 1] += rows[i, 1]
                rows[k, 2] += rows[i, 2]
                rows[k, 3] += rows[i, 3]
                rows[i, 1] = 0.0
                rows[i, 2] = 0.0
                rows[i, 3] = 0.0
                break
    return q - joints.constant[j]


@inline_kernel
def _pair(rows, first):
    """Slots ``first`` and ``first + 1`` of the gear's Jacobian (a coupled joint's moving and
    base body) as a row of the machinery: ``(body, body, J)``."""
    return (int(rows[first, 0]), int(rows[first + 1, 0]),
            (rows[first, 1], rows[first, 2], rows[first, 3], rows[first + 1, 1],
             rows[first + 1, 2], rows[first + 1, 3]))


@inline_kernel
def _stiffness(bodies, rows):
    """``K = J M^-1 J^T`` of the gear's row: its two pairs' (a body in both has its row merged
    into its first slot and zero in the other, so the sum is exact)."""
    a1, b1, jr1 = _pair(rows, 0)
    a2, b2, jr2 = _pair(rows, 2)
    return (stiffness(GENERAL, jr1, masses(bodies, a1, b1))
            + stiffness(GENERAL, jr2, masses(bodies, a2, b2)))


@inline_kernel
def _push(bodies, rows, impulse):
    """Apply ``J^T impulse`` to the velocities, pair by pair (a merged slot's zero row
    changes nothing)."""
    v = bodies.v
    w = bodies.w
    for first in range(0, 4, 2):
        a, b, jr = _pair(rows, first)
        vel = push(GENERAL, jr, impulse, masses(bodies, a, b), load_pair(v, w, a, b))
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def warm_start(world, row_list):
    """Apply the accumulated impulse along the current Jacobian."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[row_list]
    for n in range(ids.shape[0]):
        j = ids[n]
        rows = joints.jacobian[j]
        _rows(joints, j, bodies, rows)
        _push(bodies, rows, joints.linear_impulse[j, 0])


@borrowing_kernel
def solve(world, row_list, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the gear joints of ``row_list``: the single coupling row, an equality row of
    the machinery (:func:`.rows.equality_softness`, :func:`.rows.bounded`) on two pairs."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[row_list]
    v = bodies.v
    w = bodies.w
    rate, scale_m, scale_i = equality_softness(use_bias, soft, bias_rate, mass_scale,
                                               impulse_scale, baumgarte, 1.0 / h)
    # The coupled coordinates are angles or translations: the larger budget of the two.
    cap = max(speed_cap, spin_cap)
    for n in range(ids.shape[0]):
        j = ids[n]
        rows = joints.jacobian[j]
        c = _rows(joints, j, bodies, rows)
        k = _stiffness(bodies, rows)
        mass = 1.0 / k if k > 0.0 else 0.0
        a1, b1, jr1 = _pair(rows, 0)
        a2, b2, jr2 = _pair(rows, 2)
        cdot = (speed(GENERAL, jr1, load_pair(v, w, a1, b1))
                + speed(GENERAL, jr2, load_pair(v, w, a2, b2)))
        old = joints.linear_impulse[j, 0]
        total = bounded(old - scale_m * mass * (cdot + rate * c) - scale_i * old, mass, cap)
        joints.linear_impulse[j, 0] = total
        _push(bodies, rows, total - old)


@borrowing_kernel
def solve_position(world, row_list, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the gear joints of ``row_list`` (``pgs_ngs``,
    ``pgs_block``; Box2D v2.4 ``b2GearJoint::SolvePositionConstraints``): the coupled
    coordinate, in full along the current Jacobian, at most 0.2 (m or rad) at once. Returns
    its error over ``slop`` (Box2D v2.4's tolerance for both kinds of coordinate)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[row_list]
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        rows = joints.jacobian[j]
        c = _rows(joints, j, bodies, rows)
        worst = max(worst, abs(c) / slop)
        k = _stiffness(bodies, rows)
        if k <= 0.0:
            continue
        x = -clamp(c, -max_correction, max_correction) / k
        for first in range(0, 4, 2):
            a, b, jr = _pair(rows, first)
            shift_row(bodies, a, b, jr, x)
    return worst


@borrowing_kernel
def direct_rows(world, row_list, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the gear joints of ``row_list`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the coupling, one equality row on up to four bodies (a body that
    appears twice has its Jacobian merged into one slot, the other left at zero), with
    Baumgarte bias and the larger of the two budgets, as :func:`solve`. Returns the number of
    rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[row_list]
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        if verb == COUNT:
            r += 1
            continue
        if verb == STORE:
            joints.linear_impulse[j, 0] = impulse[r]
            r += 1
            continue
        rows = joints.jacobian[j]
        c = _rows(joints, j, bodies, rows)
        put_jacobian(body, jacobian, data, r, -1, -1, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0), 1.0,
                     baumgarte / h * c, EQUALITY, 0.0, 0.0, -1, max(speed_cap, spin_cap))
        for s in range(4):
            body[r, s] = int(rows[s, 0])
            for k in range(3):
                jacobian[r, s, k] = rows[s, k + 1]
        r += 1
    return r - start
