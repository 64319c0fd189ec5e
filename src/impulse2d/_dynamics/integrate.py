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
bodies cost. Each kernel borrows the body store from the world (``world``, the step's
reference: :mod:`.world_ref`) rather than taking it: a call between kernels passes every array
of a store as its own handful of values, the body store's 34 arrays some 250, and the threaded
solve's region called them at four sites (BENCHMARKS.md, session 27, ``warmC52``).

The body rows are taken as unsigned integers (``np.uint64``): Numba maps a negative signed
index to the end of the array (Python's wraparound), a compare and a select on every array
access, and a body's integration is little else (as :func:`.joints.rows.unsigned_rows` does for
the joints). Same bits; ``chain_100``'s 100 links: velocities 2,700-2,800 -> 2,060-2,100
cycles a call, positions 2,390-2,480 -> 2,170-2,190 (``benchmarks/small_chain.py``, 2026-11-29).
The two-wide columns (``v``, ``force``, ``dp``, ``dq``, ...) are read flat, body ``i``'s pair at
``2 i`` (:func:`.lane_layout.flat`, as the contact passes read them): a 2-D column's inner
shape is a run-time value to the compiler, one more multiply and live value for each column a
body's loop reads.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel
from .._core.state import DYNAMIC
from ..constants import FAST_FRACTION
from .lane_layout import flat
from .world_ref import borrow


@inline_kernel
def integrate_velocity(bodies, i, gx, gy, h):
    """Semi-implicit Euler on dynamic body ``i``'s (unsigned) velocities: gravity, user forces
    and damping.

    Damping is integrated implicitly, ``v /= 1 + h c``, which is unconditionally stable however
    large ``c h`` gets (Box2D uses the same Pade form).
    """
    one = np.uint64(1)
    two = np.uint64(2)
    v = flat(bodies.v)  # (flat: see the module's docstring)
    force = flat(bodies.force)
    w = bodies.w
    inv_m = bodies.inv_mass[i]
    scale = bodies.gravity_scale[i]
    vx = v[two * i] + h * (inv_m * force[two * i] + scale * gx)
    vy = v[two * i + one] + h * (inv_m * force[two * i + one] + scale * gy)
    wi = w[i] + h * bodies.inv_inertia[i] * bodies.torque[i]
    # Undamped (the default) skips the divisions: 1 + h 0 is 1.0, and x * 1.0 and x / 1.0
    # are x exactly, so the bits are those of the division (two a body a substep, about
    # 13 cycles each on Zen 3 and Skylake).
    linear = bodies.linear_damping[i]
    if linear != 0.0:
        lin = 1.0 / (1.0 + h * linear)
        vx *= lin
        vy *= lin
    v[two * i] = vx
    v[two * i + one] = vy
    angular = bodies.angular_damping[i]
    if angular != 0.0:
        wi /= 1.0 + h * angular
    w[i] = wi


@borrowing_kernel
def integrate_velocities(world, rows, gx, gy, h):
    """:func:`integrate_velocity` for each dynamic body of ``rows``."""
    bodies = borrow(world, "bodies")
    kind = bodies.type
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        if kind[i] == DYNAMIC:
            integrate_velocity(bodies, i, gx, gy, h)


@borrowing_kernel
def integrate_clamp_velocities(world, rows, gx, gy, h, max_linear_speed, max_angular_speed):
    """:func:`integrate_velocities`, then each body's speed and spin clamped to the limits
    (:func:`clamp_speeds`), in one pass over ``rows``: the soft steps'. They clamp there,
    after gravity and before the constraints of each substep, where Box2D v3.0 and v3.1 clamp
    (``b2IntegrateVelocitiesTask``), and then integrate positions with what the constraints
    solved: they may turn a body past the limit within the step. The other solvers clamp in
    :func:`integrate_positions`, after their constraints (Box2D v2.4 and v3.2). Kinematic
    bodies are held to the limits as well. Each body's arithmetic is its own, so any cut of
    ``rows`` into pieces (the threaded solve's) gives the same bits."""
    bodies = borrow(world, "bodies")
    kind = bodies.type
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        if kind[i] == DYNAMIC:
            integrate_velocity(bodies, i, gx, gy, h)
        clamp_speeds(flat(bodies.v), bodies.w, i, max_linear_speed, max_angular_speed)


@inner_kernel
def clamp_speeds(v, w, i, max_linear_speed, max_angular_speed):
    """Clamp body ``i``'s speed to ``max_linear_speed`` (m/s, direction kept) and its spin to
    ``max_angular_speed`` (rad/s); returns ``(vx, vy, w)`` as stored. ``v`` flat (body ``i``'s
    at ``2 i``: :func:`.lane_layout.flat`), ``i`` unsigned.

    The rare over-limit branch takes ``hypot``: ``vx*vx + vy*vy`` overflows for speeds above
    1e154 m/s, and the scale ``limit / sqrt(inf) = 0`` would then zero the velocity instead
    of clamping it.
    """
    x = np.uint64(2) * i
    y = x + np.uint64(1)
    vx = v[x]
    vy = v[y]
    if vx * vx + vy * vy > max_linear_speed * max_linear_speed:
        k = max_linear_speed / math.hypot(vx, vy)
        vx *= k
        vy *= k
        v[x] = vx
        v[y] = vy
    wi = w[i]
    if wi > max_angular_speed:
        wi = max_angular_speed
        w[i] = wi
    elif wi < -max_angular_speed:
        wi = -max_angular_speed
        w[i] = wi
    return vx, vy, wi


@borrowing_kernel
def integrate_positions(world, rows, h, max_linear_speed, max_angular_speed):
    """Advance each moving body's in-step deltas ``dp``, ``dq`` by one (sub)step ``h``.

    Speeds are clamped first (to keep a blown-up scene finite and to stop a body rotating more
    than a quarter turn per step, which would alias its collision response).
    """
    bodies = borrow(world, "bodies")
    one = np.uint64(1)
    two = np.uint64(2)
    v = flat(bodies.v)
    w = bodies.w
    dp = flat(bodies.dp)
    dq = flat(bodies.dq)
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        vx, vy, wi = clamp_speeds(v, w, i, max_linear_speed, max_angular_speed)
        x = two * i
        y = x + one
        dp[x] += h * vx
        dp[y] += h * vy
        # q <- normalize(q + h w perp(q)): first-order rotation update, renormalised.
        c = dq[x]
        s = dq[y]
        c2 = c - h * wi * s
        s2 = s + h * wi * c
        inv_len = 1.0 / math.sqrt(c2 * c2 + s2 * s2)
        dq[x] = c2 * inv_len
        dq[y] = s2 * inv_len


@borrowing_kernel
def finalize_bodies(world, rows, max_linear_speed, max_angular_speed, continuous):
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
    bodies = borrow(world, "bodies")
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    kind = bodies.type
    force = flat(bodies.force)
    v = flat(bodies.v)
    center = flat(bodies.center)
    dp = flat(bodies.dp)
    dq = flat(bodies.dq)
    rot = flat(bodies.rot)
    local_center = flat(bodies.local_center)
    origin = flat(bodies.origin)
    sweep = flat(bodies.sweep)
    fast = 0
    for t in range(rows.shape[0]):
        i = np.uint64(rows[t])  # (no wraparound: see the module's docstring)
        x = two * i
        y = x + one
        force[x] = 0.0
        force[y] = 0.0
        bodies.torque[i] = 0.0
        clamp_speeds(v, bodies.w, i, max_linear_speed, max_angular_speed)
        cx = center[x] + dp[x]
        cy = center[y] + dp[y]
        dc = dq[x]
        ds = dq[y]
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
        c = rot[x] * dc - rot[y] * ds
        s = rot[y] * dc + rot[x] * ds
        inv_len = 1.0 / math.sqrt(c * c + s * s)
        c *= inv_len
        s *= inv_len
        lx = local_center[x]
        ly = local_center[y]
        # |dp| + |turn| extent > FAST_FRACTION min_extent, without a square root
        slack = FAST_FRACTION * bodies.min_extent[i] - abs(turn) * bodies.extent[i]
        if continuous and kind[i] == DYNAMIC and (
                slack < 0.0 or dp[x] * dp[x] + dp[y] * dp[y] > slack * slack):
            bodies.fast[i] = True
            k = three * i
            sweep[k] = center[x]
            sweep[k + one] = center[y]
            sweep[k + two] = bodies.angle[i]
            fast += 1
        center[x] = cx
        center[y] = cy
        bodies.angle[i] = angle
        rot[x] = c
        rot[y] = s
        origin[x] = cx - (c * lx - s * ly)
        origin[y] = cy - (s * lx + c * ly)
        # How far the step moved the body, for the sleep test (.islands): the position passes
        # of pgs_ngs and pgs_block move bodies with no velocity, which must not count as rest.
        reach = turn * bodies.extent[i]
        step_motion = dp[x] * dp[x] + dp[y] * dp[y]
        bodies.step_motion[i] = max(step_motion, reach * reach)
        dp[x] = 0.0
        dp[y] = 0.0
        dq[x] = 1.0
        dq[y] = 0.0
    return fast
