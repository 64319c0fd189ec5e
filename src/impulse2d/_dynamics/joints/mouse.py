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
Impulse in ``linear_impulse``. Sources: Catto, "Soft Constraints" (GDC 2011); Box2D v3
``mouse_joint.c`` for the clamp.
"""

from __future__ import annotations

from ..._core.jit import borrowing_kernel
from ..direct_rows import BOXED, COUNT, STORE, put_row, spring_softness
from .revolute import prepare_anchors


@borrowing_kernel
def prepare(joints, ids, bodies, h, warm_starting):
    """The revolute joint's anchors, softness and resets, then C at step start: c_b - target."""
    prepare_anchors(joints, ids, bodies, h, warm_starting)
    for n in range(ids.shape[0]):
        j = ids[n]
        b = joints.body_b[j]
        joints.delta_center[j, 0] = bodies.center[b, 0] - joints.target[j, 0]
        joints.delta_center[j, 1] = bodies.center[b, 1] - joints.target[j, 1]


@borrowing_kernel
def warm_start(joints, ids, bodies):
    """Apply the accumulated impulse at the current anchor."""
    v = bodies.v
    w = bodies.w
    dq = bodies.dq
    for n in range(ids.shape[0]):
        j = ids[n]
        b = joints.body_b[j]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        px = joints.linear_impulse[j, 0]
        py = joints.linear_impulse[j, 1]
        v[b, 0] += bodies.inv_mass[b] * px
        v[b, 1] += bodies.inv_mass[b] * py
        w[b] += bodies.inv_inertia[b] * (rbx * py - rby * px)


@borrowing_kernel
def solve(joints, ids, bodies, h, use_bias, soft, bias_rate, mass_scale, impulse_scale,
          baumgarte, speed_cap, spin_cap):
    """One sweep over the mouse joints ``ids`` (the world softness arguments are not used)."""
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    for n in range(ids.shape[0]):
        j = ids[n]
        b = joints.body_b[j]
        m_b = bodies.inv_mass[b]
        i_b = bodies.inv_inertia[b]
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        cx = joints.delta_center[j, 0] + dp[b, 0] + rbx
        cy = joints.delta_center[j, 1] + dp[b, 1] + rby
        vbx = v[b, 0]
        vby = v[b, 1]
        wb = w[b]
        rate = joints.spring_soft[j, 0]
        scale_m = joints.spring_soft[j, 1]
        scale_i = joints.spring_soft[j, 2]
        rhs_x = vbx - wb * rby + rate * cx
        rhs_y = vby + wb * rbx + rate * cy
        k11 = m_b + i_b * rby * rby
        k12 = -i_b * rbx * rby
        k22 = m_b + i_b * rbx * rbx
        det = k11 * k22 - k12 * k12
        inv_det = 1.0 / det if det != 0.0 else 0.0
        old_x = joints.linear_impulse[j, 0]
        old_y = joints.linear_impulse[j, 1]
        new_x = old_x - scale_m * inv_det * (k22 * rhs_x - k12 * rhs_y) - scale_i * old_x
        new_y = old_y - scale_m * inv_det * (k11 * rhs_y - k12 * rhs_x) - scale_i * old_y
        limit = joints.max_motor[j] * h
        if k11 + k22 > 0.0:  # and within the speed budget, as rows.point_impulse
            limit = min(limit, speed_cap / (k11 + k22))
        size = (new_x * new_x + new_y * new_y) ** 0.5
        if size > limit:
            scale = limit / size
            new_x *= scale
            new_y *= scale
        joints.linear_impulse[j, 0] = new_x
        joints.linear_impulse[j, 1] = new_y
        px = new_x - old_x
        py = new_y - old_y
        v[b, 0] = vbx + m_b * px
        v[b, 1] = vby + m_b * py
        w[b] = wb + i_b * (rbx * py - rby * px)


@borrowing_kernel
def direct_rows(joints, ids, bodies, verb, start, h, baumgarte, speed_cap, spin_cap, body,
                jacobian, data, impulse):
    """The rows of the mouse joints ``ids`` in the ``direct`` solver's system
    (:mod:`..direct_rows`): the point's two rows on body B alone, one soft block with the
    joint's own spring, each boxed by ``max_force h``. The box is the square around
    :func:`solve`'s disc ``|impulse| <= max_force h`` (an LCP bounds each row on its own): along
    a diagonal the direct solver allows up to sqrt(2) times the force. Returns the number of
    rows."""
    dp = bodies.dp
    dq = bodies.dq
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
        rbx = dq[b, 0] * joints.frame_b[j, 0] - dq[b, 1] * joints.frame_b[j, 1]
        rby = dq[b, 1] * joints.frame_b[j, 0] + dq[b, 0] * joints.frame_b[j, 1]
        cx = joints.delta_center[j, 0] + dp[b, 0] + rbx
        cy = joints.delta_center[j, 1] + dp[b, 1] + rby
        rate = joints.spring_soft[j, 0]
        soft = spring_softness(joints.spring_soft[j])
        bound = joints.max_motor[j] * h
        put_row(body, jacobian, data, r, b, -1, 1.0, 0.0, -rby, 0.0, 0.0, 0.0, rate * cx,
                BOXED, bound, soft, r, speed_cap)
        put_row(body, jacobian, data, r + 1, b, -1, 0.0, 1.0, rbx, 0.0, 0.0, 0.0, rate * cy,
                BOXED, bound, soft, r, speed_cap)
        r += 2
    return r - start
