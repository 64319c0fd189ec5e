"""Pulley joint: a rope from anchor A over the fixed point ground_a, then over ground_b, down
to anchor B. The rope on B's side may be reeved ``ratio`` times (a block and tackle).

Maths (anchors x_a = c_a + r_a, x_b = c_b + r_b in world; L_a = |x_a - g_a|,
u_a = (x_a - g_a) / L_a, likewise for B; rope length ``constant`` = L_a + ratio L_b at
creation)::

    rope       C = constant - L_a - ratio L_b >= 0                (1 row, inequality)
               Cdot = -u_a . (v_a + w_a x r_a) - ratio u_b . (v_b + w_b x r_b) = J v
               K = 1/m_a + 1/I_a (r_a x u_a)^2 + ratio^2 (1/m_b + 1/I_b (r_b x u_b)^2)
               lambda >= 0: the rope pulls each anchor toward its ground point, never pushes

A real rope goes slack: the row is one-sided, speculative while slack (it may close the slack
this (sub)step but no more, like the joint limits) and stabilised like them once taut: softly with
the world's joint softness in the soft step, with Baumgarte in pgs. Box2D 2.x's pulley is an
equality (its rope can push); ours cannot. The geometry is taken at the current positions in every
iteration. The row is the machinery's limit row (:func:`.jacobian_rows.limit_row` on a
:data:`~.jacobian_rows.GENERAL` ``J``: its two linear parts are unrelated), with the impulse
budget ``mass * speed_cap``. Source: Box2D 2.4 ``b2_pulley_joint.cpp`` for the Jacobian.
"""

from __future__ import annotations

import numpy as np

from ..._core.jit import borrowing_kernel, inline_kernel
from ..direct_rows import COUNT, ONE_SIDED, STORE, limit_bias
from ..velocities import load_pair, store_pair
from ..world_ref import borrow
from .jacobian_rows import (GENERAL, correct_row, effective_mass, limit_row, masses, push,
                            put_jacobian)
from .revolute import prepare_anchors


prepare = prepare_anchors
"""Anchors from the centres of mass, and the reset of the impulses without warm starting:
the revolute joint's kernel itself (a kernel forwarding to it was one more compile)."""


@borrowing_kernel
def _side(joints, j, bodies, body, frame_x, frame_y, ground_x, ground_y):
    """Current anchor offset ``r``, unit rope direction ``u`` (from the ground point to the
    anchor) and rope length on one side: (rx, ry, ux, uy, length)."""
    dq = bodies.dq
    rx = dq[body, 0] * frame_x - dq[body, 1] * frame_y
    ry = dq[body, 1] * frame_x + dq[body, 0] * frame_y
    dx = bodies.center[body, 0] + bodies.dp[body, 0] + rx - ground_x
    dy = bodies.center[body, 1] + bodies.dp[body, 1] + ry - ground_y
    length = (dx * dx + dy * dy) ** 0.5
    if length > 1e-12:
        return rx, ry, dx / length, dy / length, length
    return rx, ry, 0.0, 0.0, length


@borrowing_kernel
def _geometry(joints, j, bodies):
    a = joints.body_a[j]
    b = joints.body_b[j]
    rax, ray, uax, uay, len_a = _side(joints, j, bodies, a, joints.frame_a[j, 0],
                                      joints.frame_a[j, 1], joints.ground_a[j, 0],
                                      joints.ground_a[j, 1])
    rbx, rby, ubx, uby, len_b = _side(joints, j, bodies, b, joints.frame_b[j, 0],
                                      joints.frame_b[j, 1], joints.ground_b[j, 0],
                                      joints.ground_b[j, 1])
    return rax, ray, uax, uay, len_a, rbx, rby, ubx, uby, len_b


@inline_kernel
def _row(joints, j, bodies):
    """The rope row now: ``(J, C)``, ``J = (-u_a, -(r_a x u_a), -ratio u_b,
    -ratio (r_b x u_b))``, ``C = constant - L_a - ratio L_b``."""
    rax, ray, uax, uay, len_a, rbx, rby, ubx, uby, len_b = _geometry(joints, j, bodies)
    ratio = joints.ratio[j]
    jr = (-uax, -uay, -(rax * uay - ray * uax), -ratio * ubx, -ratio * uby,
          -ratio * (rbx * uby - rby * ubx))
    return jr, joints.constant[j] - len_a - ratio * len_b


@borrowing_kernel
def warm_start(world, rows):
    """Apply the accumulated rope impulse along the current rope directions."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        jr, _ = _row(joints, j, bodies)
        vel = push(GENERAL, jr, joints.lower_impulse[j], masses(bodies, a, b),
                   load_pair(v, w, a, b))
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the pulley joints of ``rows``: the one-sided rope row."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    world = (use_bias, soft, bias_rate, mass_scale, impulse_scale, baumgarte, 1.0 / h)
    for n in range(ids.shape[0]):
        j = ids[n]
        a = joints.body_a[j]
        b = joints.body_b[j]
        jr, c = _row(joints, j, bodies)
        ms = masses(bodies, a, b)
        mass = effective_mass(GENERAL, jr, ms)
        joints.lower_impulse[j], vel = limit_row(np.int64(GENERAL), jr, 1.0, c,
                                                 joints.lower_impulse[j], mass, mass * speed_cap,
                                                 world, ms, load_pair(v, w, a, b))
        store_pair(v, w, a, b, vel[0], vel[1], vel[2], vel[3], vel[4], vel[5])


@borrowing_kernel
def solve_position(world, rows, slop, max_correction):
    """One nonlinear Gauss-Seidel correction of the pulley joints of ``rows`` (``pgs_ngs``,
    ``pgs_block``; Box2D v2.4 ``b2PulleyJoint::SolvePositionConstraints``): a rope longer than
    its length (``C < 0``) is pulled back in full along the current rope directions, at most
    0.2 m at once; a slack rope is left alone (ours cannot push, unlike Box2D's). Returns the
    largest error over ``slop``."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    worst = 0.0
    for n in range(ids.shape[0]):
        j = ids[n]
        jr, c = _row(joints, j, bodies)
        if c >= 0.0:
            continue
        worst = max(worst, -c / slop)
        a = joints.body_a[j]
        b = joints.body_b[j]
        correct_row(bodies, a, b, GENERAL, jr, max(c, -max_correction), masses(bodies, a, b))
    return worst


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the pulley joints of ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the rope, one one-sided row (speculative while slack, Baumgarte
    once taut), as :func:`solve`. Returns the number of rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    inv_h = 1.0 / h
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        if verb == COUNT:
            r += 1
            continue
        if verb == STORE:
            joints.lower_impulse[j] = impulse[r]
            r += 1
            continue
        jr, c = _row(joints, j, bodies)
        put_jacobian(body, jacobian, data, r, joints.body_a[j], joints.body_b[j], jr, 1.0,
                     limit_bias(c, baumgarte, inv_h), ONE_SIDED, 0.0, 0.0, -1, speed_cap)
        r += 1
    return r - start
