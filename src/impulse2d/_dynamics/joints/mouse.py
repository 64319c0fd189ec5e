"""Mouse joint: drags one point of a body toward a target with a soft, force-limited spring.

A single-body joint: ``body_a`` and ``body_b`` are both the dragged body; only B's side is
used (A's is ignored). Maths (r_b the anchor from B's centre of mass, world frame; t the
target)::

    C = c_b + r_b - t                                              (2 rows, a spring)
    Cdot = v_b + w_b x r_b
    K = 1/m_b I + 1/I_b [r_b]x^T[r_b]x
      = [[m + i rby^2, -i rbx rby], [-i rbx rby, m + i rbx^2]],   m = 1/m_b, i = 1/I_b
    soft with the joint's own (hertz, damping ratio), the spring mass being K^-1, so a free
    body follows the target as a damped oscillator of ``hertz`` whatever its mass;
    |accumulated impulse| <= max force * h (the whole vector is scaled back).

The row is a spring, so it is biased in every pass (the soft step's relax pass included),
and it has no position correction under ``pgs_ngs``/``pgs_block`` (Box2D v2.4's mouse joint
has none either: a spring has no error to remove).
Impulse in ``linear_impulse``. The block is the revolute joint's point block
(:func:`.rows.point_impulse`, :func:`.rows.point_push`) with A's side empty, its accumulated
impulse then kept within the force (:func:`.rows.capped_impulse`, the motor joint's clamp).
Sources: Catto, "Soft Constraints" (GDC 2011); Box2D v3 ``mouse_joint.c`` for the clamp.
"""

from __future__ import annotations

from ..._core.jit import borrowing_kernel, inline_kernel
from ..direct_rows import BOXED, COUNT, STORE, spring_softness
from ..positions import anchor
from .jacobian_rows import put_jacobian
from .revolute import prepare_anchors
from .rows import capped_impulse, point_impulse, point_push
from ..world_ref import borrow


@borrowing_kernel
def prepare(world, rows, h, warm_starting):
    """The revolute joint's anchors, softness and resets, then C at step start: c_b - target."""
    prepare_anchors(world, rows, h, warm_starting)
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    for n in range(ids.shape[0]):
        j = ids[n]
        b = joints.body_b[j]
        joints.delta_center[j, 0] = bodies.center[b, 0] - joints.target[j, 0]
        joints.delta_center[j, 1] = bodies.center[b, 1] - joints.target[j, 1]


@inline_kernel
def _anchor(joints, j, bodies, b):
    """B's anchor from its centre of mass now, and the error ``C = c_b + r_b - t`` (m):
    ``(rbx, rby, cx, cy)``."""
    rbx, rby = anchor(bodies.dq, b, joints.frame_b[j, 0], joints.frame_b[j, 1])
    return (rbx, rby, joints.delta_center[j, 0] + bodies.dp[b, 0] + rbx,
            joints.delta_center[j, 1] + bodies.dp[b, 1] + rby)


@inline_kernel
def _one_body(bodies, b):
    """The inverse masses of the point block with body B alone (A's side has none)."""
    return (0.0, bodies.inv_mass[b], 0.0, bodies.inv_inertia[b])


@inline_kernel
def _velocity(v, w, b):
    """``vel`` of the point block with body B alone (A's side at rest)."""
    return (0.0, 0.0, 0.0, v[b, 0], v[b, 1], w[b])


@borrowing_kernel
def warm_start(world, rows):
    """Apply the accumulated impulse at the current anchor."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        b = joints.body_b[j]
        rbx, rby, _, _ = _anchor(joints, j, bodies, b)
        vel = point_push(0.0, 0.0, rbx, rby, joints.linear_impulse[j, 0],
                         joints.linear_impulse[j, 1], _one_body(bodies, b), _velocity(v, w, b))
        v[b, 0] = vel[3]
        v[b, 1] = vel[4]
        w[b] = vel[5]


@borrowing_kernel
def solve(world, rows, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the mouse joints of ``rows`` (the world softness arguments are not used):
    the revolute joint's point block (:func:`.rows.point_impulse`, within the speed budget)
    with A's side empty, its accumulated impulse then kept within ``max_force h``
    (:func:`.rows.capped_impulse`)."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    v = bodies.v
    w = bodies.w
    for n in range(ids.shape[0]):
        j = ids[n]
        b = joints.body_b[j]
        ms = _one_body(bodies, b)
        rbx, rby, cx, cy = _anchor(joints, j, bodies, b)
        vel = _velocity(v, w, b)
        rate = joints.spring_soft[j, 0]
        old_x = joints.linear_impulse[j, 0]
        old_y = joints.linear_impulse[j, 1]
        px, py = point_impulse(0.0, 0.0, rbx, rby, 0.0, ms[1], 0.0, ms[3],
                               vel[3] - vel[5] * rby + rate * cx, vel[4] + vel[5] * rbx + rate * cy,
                               joints.spring_soft[j, 1], joints.spring_soft[j, 2], old_x, old_y,
                               speed_cap)
        new_x, new_y = capped_impulse(old_x, old_y, px, py, joints.max_motor[j] * h)
        joints.linear_impulse[j, 0] = new_x
        joints.linear_impulse[j, 1] = new_y
        vel = point_push(0.0, 0.0, rbx, rby, new_x - old_x, new_y - old_y, ms, vel)
        v[b, 0] = vel[3]
        v[b, 1] = vel[4]
        w[b] = vel[5]


@borrowing_kernel
def direct_rows(world, rows, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the mouse joints of ``rows`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the point's two rows on body B alone, one soft block with the
    joint's own spring, each boxed by ``max_force h``. The box is the square around
    :func:`solve`'s disc ``|impulse| <= max_force h`` (an LCP bounds each row on its own): along
    a diagonal the direct solver allows up to sqrt(2) times the force. Returns the number of
    rows."""
    joints, bodies = borrow(world, "joints"), borrow(world, "bodies")
    ids = borrow(world, "joint_ids")[rows]
    r = start
    for n in range(ids.shape[0]):
        j = ids[n]
        if verb == COUNT:
            r += 2
            continue
        if verb == STORE:
            joints.linear_impulse[j, 0] = impulse[r]
            joints.linear_impulse[j, 1] = impulse[r + 1]
            r += 2
            continue
        b = joints.body_b[j]
        rbx, rby, cx, cy = _anchor(joints, j, bodies, b)
        rate = joints.spring_soft[j, 0]
        soft = spring_softness(joints.spring_soft[j])
        bound = joints.max_motor[j] * h
        put_jacobian(body, jacobian, data, r, b, -1, (1.0, 0.0, -rby, 0.0, 0.0, 0.0), 1.0,
                     rate * cx, BOXED, bound, soft, r, speed_cap)
        put_jacobian(body, jacobian, data, r + 1, b, -1, (0.0, 1.0, rbx, 0.0, 0.0, 0.0), 1.0,
                     rate * cy, BOXED, bound, soft, r, speed_cap)
        r += 2
    return r - start
