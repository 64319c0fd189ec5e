"""Moving bodies by a position correction: the nonlinear Gauss-Seidel pass of ``pgs_ngs`` and
``pgs_block`` (Box2D v2.4 ``SolvePositionConstraints``; Catto, GDC 2009).

A position constraint ``C(x)`` with Jacobian ``J`` and effective mass ``1/K`` is corrected by
the pseudo-impulse ``lambda = -C / K`` applied to the positions instead of the velocities::

    c   += M^-1 J_v^T lambda        (centre of mass, m)
    q   += I^-1 J_w^T lambda        (angle, rad)

The correction is neither accumulated nor warm-started, and it changes no velocity, so the
energy it takes to separate bodies is not handed back as motion (Baumgarte's bias is). Within a
step the positions are the in-step deltas ``dp`` and ``dq`` (:mod:`.integrate`); these helpers
keep ``dq`` a unit rotation, so :func:`~.integrate.finalize_bodies` turns the deltas into the
absolute state exactly as after a velocity step. Static and kinematic bodies have zero inverse
mass and inertia and stay where they are.
"""

from __future__ import annotations

import math

from .._core.jit import inline_kernel, inner_kernel


@inline_kernel
def turn(dq, i, angle):
    """Rotate body ``i``'s in-step rotation ``dq`` by ``angle`` (rad): ``q + angle perp(q)``,
    renormalised, the update :func:`~.integrate.integrate_positions` makes (and Solver2D's
    ``IntegrateRotation``): it turns by ``atan(angle)``, short by at most 0.6 % within a
    joint's 8-degree correction limit; the next iteration sees what is left."""
    c = dq[i, 0]
    s = dq[i, 1]
    c2 = c - angle * s
    s2 = s + angle * c
    inv_len = 1.0 / math.sqrt(c2 * c2 + s2 * s2)
    dq[i, 0] = c2 * inv_len
    dq[i, 1] = s2 * inv_len


@inline_kernel
def shift(bodies, i, px, py, moment):
    """Apply the pseudo-impulse ``(px, py)`` (kg m) with angular part ``moment`` (kg m^2: the
    lever's ``r x P`` plus any angular row's impulse) to body ``i``'s position."""
    inv_mass = bodies.inv_mass[i]
    inv_inertia = bodies.inv_inertia[i]
    bodies.dp[i, 0] += inv_mass * px
    bodies.dp[i, 1] += inv_mass * py
    if inv_inertia != 0.0:
        turn(bodies.dq, i, inv_inertia * moment)


@inline_kernel
def anchor(dq, i, x, y):
    """A body-fixed offset ``(x, y)`` taken at the start of the step (a joint's ``frame``, a
    contact's ``r``) turned by body ``i``'s in-step rotation: the offset now."""
    return dq[i, 0] * x - dq[i, 1] * y, dq[i, 1] * x + dq[i, 0] * y


@inline_kernel
def contact_gap(cs, q, j, dp, dq):
    """The separation now (m) of point ``j`` of contact row ``q``: its separation at the start
    of the step updated by the bodies' in-step motion at its anchors, without a narrowphase
    (Solver2D; :mod:`.contact_solver`'s ``C``)."""
    a = cs.body_a[q]
    b = cs.body_b[q]
    rax, ray = anchor(dq, a, cs.r_a[q, j, 0], cs.r_a[q, j, 1])
    rbx, rby = anchor(dq, b, cs.r_b[q, j, 0], cs.r_b[q, j, 1])
    gx = dp[b, 0] - dp[a, 0] + rbx - rax
    gy = dp[b, 1] - dp[a, 1] + rby - ray
    return cs.base_separation[q, j] + gx * cs.normal[q, 0] + gy * cs.normal[q, 1]


@inner_kernel
def turn_angle(s, c):
    """``atan2(s, c)``, the angle of a rotation (cos ``c``, sin ``s``), without the call for
    no rotation at all: ``atan2(+-0, c > 0)`` is ``+-0`` exactly (IEEE 754, C99 Annex F), so
    returning ``s`` gives the same bits. The velocity sweeps of the rigid solvers (``pgs``,
    ``pgs_ngs``, ``pgs_block``) all run before the positions move, every in-step rotation is
    still the identity, and a joint with a limit or an angular spring took an ``atan2`` (about
    30 ns) per sweep for a zero: two thirds of a sweep of LunarLander's two legs."""
    if s == 0.0 and c > 0.0:
        return s
    return math.atan2(s, c)


@inner_kernel
def relative_turn(dq, a, b):
    """In-step rotation of body ``b`` relative to body ``a`` (rad): the angle of
    ``dq_b * conj(dq_a)``."""
    return turn_angle(dq[b, 1] * dq[a, 0] - dq[b, 0] * dq[a, 1],
                      dq[b, 0] * dq[a, 0] + dq[b, 1] * dq[a, 1])


@inner_kernel
def clamp(x, lower, upper):
    return min(max(x, lower), upper)


@inner_kernel
def solve2(k11, k12, k22, b1, b2):
    """``K^-1 b`` for the symmetric 2x2 ``K``; zero when ``K`` is singular."""
    det = k11 * k22 - k12 * k12
    inv_det = 1.0 / det if det != 0.0 else 0.0
    return inv_det * (k22 * b1 - k12 * b2), inv_det * (k11 * b2 - k12 * b1)


@inner_kernel
def solve3(k11, k12, k13, k22, k23, k33, b1, b2, b3):
    """``K^-1 b`` for the symmetric 3x3 ``K`` by Cramer's rule (Box2D ``b2Mat33::Solve33``);
    zero when ``K`` is singular."""
    # cofactors of K
    c11 = k22 * k33 - k23 * k23
    c12 = k13 * k23 - k12 * k33
    c13 = k12 * k23 - k13 * k22
    det = k11 * c11 + k12 * c12 + k13 * c13
    inv_det = 1.0 / det if det != 0.0 else 0.0
    c22 = k11 * k33 - k13 * k13
    c23 = k12 * k13 - k11 * k23
    c33 = k11 * k22 - k12 * k12
    return (inv_det * (c11 * b1 + c12 * b2 + c13 * b3),
            inv_det * (c12 * b1 + c22 * b2 + c23 * b3),
            inv_det * (c13 * b1 + c23 * b2 + c33 * b3))


@inner_kernel
def clamp_length(x, y, limit):
    """``(x, y)`` shortened to at most ``limit`` long, direction kept."""
    size2 = x * x + y * y
    if size2 > limit * limit:
        scale = limit / math.sqrt(size2)
        return x * scale, y * scale
    return x, y
