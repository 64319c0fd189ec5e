"""Body integration kernels: velocities, positions within a step, and the end-of-step finalize.

The solver never touches absolute positions inside a step: it accumulates each body's change of
centre of mass ``dp`` and of rotation ``dq`` (as cos, sin) and applies them once in
:func:`finalize_bodies`. Far from the origin, ``(p1 - p0)`` loses digits that ``dp`` keeps
(Catto, Solver2D 2024: bodies "floating" far from the origin).

Sleeping bodies (:mod:`.islands`) are skipped by every kernel here: their velocities are zero
and nothing is added to them, and skipping them keeps their positions to the bit (a finalize
of a zero delta would still renormalise ``rot`` and could move it by an ulp). Each kernel
passes over ``rows``, the awake body rows in ascending order (:func:`.awake.body_rows`: the
live bodies neither static nor asleep), so a mostly-asleep world's step costs what its awake
bodies cost.

The body rows are taken as unsigned integers (``np.uint64``): Numba maps a negative signed
index to the end of the array (Python's wraparound), a compare and a select on every array
access, and a body's integration is little else (as :func:`.joints.rows.unsigned_rows` does for
the joints). Same bits; ``chain_100``'s 100 links: velocities 2,700-2,800 -> 2,060-2,100
cycles a call, positions 2,390-2,480 -> 2,170-2,190 (``benchmarks/small_chain.py``, 2026-11-29).
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel
from .._core.state import DYNAMIC
from ..constants import FAST_FRACTION


@inline_kernel
def integrate_velocity(bodies, i, gx, gy, h):
    """Semi-implicit Euler on dynamic body ``i``'s velocities: gravity, user forces and
    damping.

    Damping is integrated implicitly, ``v /= 1 + h c``, which is unconditionally stable however
    large ``c h`` gets (Box2D uses the same Pade form).
    """
    v = bodies.v
    w = bodies.w
    inv_m = bodies.inv_mass[i]
    scale = bodies.gravity_scale[i]
    vx = v[i, 0] + h * (inv_m * bodies.force[i, 0] + scale * gx)
    vy = v[i, 1] + h * (inv_m * bodies.force[i, 1] + scale * gy)
    wi = w[i] + h * bodies.inv_inertia[i] * bodies.torque[i]
    # Undamped (the default) skips the divisions: 1 + h 0 is 1.0, and x * 1.0 and x / 1.0
    # are x exactly, so the bits are those of the division (two a body a substep, about
    # 13 cycles each on Zen 3 and Skylake).
    linear = bodies.linear_damping[i]
    if linear != 0.0:
        lin = 1.0 / (1.0 + h * linear)
        vx *= lin
        vy *= lin
    v[i, 0] = vx
    v[i, 1] = vy
    angular = bodies.angular_damping[i]
    if angular != 0.0:
        wi /= 1.0 + h * angular
    w[i] = wi


@borrowing_kernel
def integrate_velocities(bodies, rows, gx, gy, h):
    """:func:`integrate_velocity` for each dynamic body of ``rows``."""
    kind = bodies.type
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        if kind[i] == DYNAMIC:
            integrate_velocity(bodies, i, gx, gy, h)


@borrowing_kernel
def integrate_clamp_velocities(bodies, rows, gx, gy, h, max_linear_speed, max_angular_speed):
    """:func:`integrate_velocities` then :func:`clamp_bodies` in one pass over ``rows`` (the
    soft step's): each body's arithmetic as the two passes do it, in the same order (its
    integration, then its clamp), so the same bits, for one call and one walk of the rows a
    substep instead of two (each call passes the body store's arrays on the stack)."""
    kind = bodies.type
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        if kind[i] == DYNAMIC:
            integrate_velocity(bodies, i, gx, gy, h)
        clamp_speeds(bodies.v, bodies.w, i, max_linear_speed, max_angular_speed)


@inner_kernel
def clamp_speeds(v, w, i, max_linear_speed, max_angular_speed):
    """Clamp body ``i``'s speed to ``max_linear_speed`` (m/s, direction kept) and its spin to
    ``max_angular_speed`` (rad/s); returns ``(vx, vy, w)`` as stored.

    The rare over-limit branch takes ``hypot``: ``vx*vx + vy*vy`` overflows for speeds above
    1e154 m/s, and the scale ``limit / sqrt(inf) = 0`` would then zero the velocity instead
    of clamping it.
    """
    vx = v[i, 0]
    vy = v[i, 1]
    if vx * vx + vy * vy > max_linear_speed * max_linear_speed:
        k = max_linear_speed / math.hypot(vx, vy)
        vx *= k
        vy *= k
        v[i, 0] = vx
        v[i, 1] = vy
    wi = w[i]
    if wi > max_angular_speed:
        wi = max_angular_speed
        w[i] = wi
    elif wi < -max_angular_speed:
        wi = -max_angular_speed
        w[i] = wi
    return vx, vy, wi


@borrowing_kernel
def clamp_bodies(bodies, rows, max_linear_speed, max_angular_speed):
    """Clamp every moving body's speed and spin (:func:`clamp_speeds`).

    The soft steps clamp after :func:`integrate_velocities` (the serial step in the same pass:
    :func:`integrate_clamp_velocities`), before the constraints of each substep, where Box2D
    v3.0 and v3.1 clamp (``b2IntegrateVelocitiesTask``), and then integrate positions with
    what the constraints solved: they may turn a body past the limit within the step. The
    other solvers clamp in :func:`integrate_positions`, after their constraints (Box2D v2.4
    and v3.2). Kinematic bodies are held to the limits as well.
    """
    for t in range(rows.shape[0]):
        clamp_speeds(bodies.v, bodies.w, np.uint64(rows[t]), max_linear_speed,
                     max_angular_speed)


@borrowing_kernel
def integrate_positions(bodies, rows, h, max_linear_speed, max_angular_speed):
    """Advance each moving body's in-step deltas ``dp``, ``dq`` by one (sub)step ``h``.

    Speeds are clamped first (to keep a blown-up scene finite and to stop a body rotating more
    than a quarter turn per step, which would alias its collision response).
    """
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        vx, vy, wi = clamp_speeds(v, w, i, max_linear_speed, max_angular_speed)
        dp[i, 0] += h * vx
        dp[i, 1] += h * vy
        # q <- normalize(q + h w perp(q)): first-order rotation update, renormalised.
        c = dq[i, 0]
        s = dq[i, 1]
        c2 = c - h * wi * s
        s2 = s + h * wi * c
        inv_len = 1.0 / math.sqrt(c2 * c2 + s2 * s2)
        dq[i, 0] = c2 * inv_len
        dq[i, 1] = s2 * inv_len


@borrowing_kernel
def finalize_bodies(bodies, rows, max_linear_speed, max_angular_speed, continuous):
    """Apply the step's deltas to the absolute state, clear forces, and clamp the speeds the
    step leaves (the solver's last passes and restitution come after the clamp of
    :func:`integrate_positions`: without this a body could leave a step faster than the
    limits).

    The angle is the unwrapped rotation: it grows by the (less than a quarter turn) angle of
    ``dq``, and ``rot`` is turned by ``dq`` alongside.

    With ``continuous``, the fast test of continuous collision (:mod:`.continuous`): a dynamic
    body that moved more than ``FAST_FRACTION`` of its ``min_extent`` keeps its start pose in
    ``sweep`` and is flagged ``fast``. Returns the number of fast bodies.

    Only the awake ``rows`` have forces to clear: a force is only ever applied to a dynamic
    body, which it wakes, and putting an island to sleep clears its bodies' forces
    (:func:`impulse2d._sleep.sleep_island`; one falling asleep in the step has had them
    cleared here).
    """
    kind = bodies.type
    fast = 0
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        bodies.force[i, 0] = 0.0
        bodies.force[i, 1] = 0.0
        bodies.torque[i] = 0.0
        clamp_speeds(bodies.v, bodies.w, i, max_linear_speed, max_angular_speed)
        cx = bodies.center[i, 0] + bodies.dp[i, 0]
        cy = bodies.center[i, 1] + bodies.dp[i, 1]
        dc = bodies.dq[i, 0]
        ds = bodies.dq[i, 1]
        # The step turns a body by less than MAX_ROTATION (a quarter turn), so dc > 0 and
        # atan(ds / dc) is the angle of dq: half the cost of atan2 (15 vs 31 ns, measured),
        # which was most of this loop. atan2 stays as the fallback. A body that did not turn
        # (ds = +-0, dc > 0: a ball that bounces straight, a box that slides) skips the call:
        # atan(+-0 / dc) is +-0, ds itself.
        if dc > 0.0:
            turn = ds if ds == 0.0 else math.atan(ds / dc)
        else:
            turn = math.atan2(ds, dc)
        angle = bodies.angle[i] + turn
        # rot times dq, renormalised: the rotation of ``angle`` to within rounding, and cheaper
        # than its cos and sin (the two agree to ~1e-16 per step and renormalising stops drift)
        c = bodies.rot[i, 0] * dc - bodies.rot[i, 1] * ds
        s = bodies.rot[i, 1] * dc + bodies.rot[i, 0] * ds
        inv_len = 1.0 / math.sqrt(c * c + s * s)
        c *= inv_len
        s *= inv_len
        lx = bodies.local_center[i, 0]
        ly = bodies.local_center[i, 1]
        # |dp| + |turn| extent > FAST_FRACTION min_extent, without a square root
        slack = FAST_FRACTION * bodies.min_extent[i] - abs(turn) * bodies.extent[i]
        if continuous and kind[i] == DYNAMIC and (
                slack < 0.0 or bodies.dp[i, 0] * bodies.dp[i, 0]
                + bodies.dp[i, 1] * bodies.dp[i, 1] > slack * slack):
            bodies.fast[i] = True
            bodies.sweep[i, 0] = bodies.center[i, 0]
            bodies.sweep[i, 1] = bodies.center[i, 1]
            bodies.sweep[i, 2] = bodies.angle[i]
            fast += 1
        bodies.center[i, 0] = cx
        bodies.center[i, 1] = cy
        bodies.angle[i] = angle
        bodies.rot[i, 0] = c
        bodies.rot[i, 1] = s
        bodies.origin[i, 0] = cx - (c * lx - s * ly)
        bodies.origin[i, 1] = cy - (s * lx + c * ly)
        # How far the step moved the body, for the sleep test (.islands): the position passes
        # of pgs_ngs and pgs_block move bodies with no velocity, which must not count as rest.
        reach = turn * bodies.extent[i]
        bodies.step_motion[i] = max(bodies.dp[i, 0] * bodies.dp[i, 0]
                                    + bodies.dp[i, 1] * bodies.dp[i, 1], reach * reach)
        bodies.dp[i, 0] = 0.0
        bodies.dp[i, 1] = 0.0
        bodies.dq[i, 0] = 1.0
        bodies.dq[i, 1] = 0.0
    return fast
