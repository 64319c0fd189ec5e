"""The contacts' position correction: one nonlinear Gauss-Seidel sweep (``pgs_ngs``, ``pgs_block``).

Box2D v1.0-v2.4 (``b2ContactSolver::SolvePositionConstraints``), Solver2D's ``PGS_NGS``. After
the velocity solve has integrated the positions, each manifold point's separation is measured
again from the bodies' current in-step deltas (the rows keep the step-start anchors ``r_a``,
``r_b`` and the base separation, :mod:`.contact_solver`)::

    r_a' = R(dq_a) r_a,  r_b' = R(dq_b) r_b
    s    = base_separation + n . (dp_b - dp_a + r_b' - r_a')

and the overlap beyond the slop is corrected by a fraction ``beta`` of itself, at most
``max_correction`` at once, with the effective mass at the *current* anchors::

    C      = clamp(beta (s + slop), -max_correction, 0)
    K      = 1/m_a + 1/m_b + (r_a' x n)^2 / I_a + (r_b' x n)^2 / I_b
    lambda = -C / K,  applied to the positions (:mod:`.positions`)

The normal stays the manifold's (Solver2D; Box2D v2.4 turns a face normal with its body, which
differs by the in-step rotation, a fraction of a degree for resting contacts). Points are
corrected one by one, in ``pgs_block`` too, as Box2D v2.4 does (Solver2D's block solver blocks
this pass as well): the block matters for the impulses, which the velocity pass accumulates;
this pass only removes overlap beyond the slop, a few millimetres a step at rest.

A lift changes no velocity, so it hands a body the height it is lifted by for nothing; for a
body resting or pushed out of a pile that is the point (no energy from the correction), but a
ball bouncing out of the overlap it was caught in already has the speed to climb out of it, and
it rose too high (:func:`in_flight_speed` takes the lift back from such a point's speed).
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel
from .contact_solver import normal_acceleration
from .positions import anchor, shift


@borrowing_kernel
def in_flight_speed(speed, accel, lift, half_step):
    """The normal speed (m/s) that keeps a separating point on its trajectory after the position
    pass lifted it by ``lift`` (m) along the normal, under the pair's constant normal
    acceleration ``accel`` (m/s^2, < 0: pulled back together).

    After a step of the integrator (kick, then drift) the state ``(s, v)`` of such a point keeps
    ``(v + accel half_step)^2 - 2 accel s`` (``half_step = dt / 2``) from step to step exactly:
    the discrete energy, whose value fixes the apex. Raising ``s`` by ``lift`` at the same ``v``
    adds ``-2 accel lift`` to it, height the point never climbed; the speed returned takes it
    back, ``sqrt((v + accel half_step)^2 + 2 accel lift) - accel half_step``, down to the apex
    (the point's speed ``- accel half_step``) when the lift is more than the point had left to
    climb."""
    u = speed + accel * half_step
    return math.sqrt(max(u * u + 2.0 * accel * lift, 0.0)) - accel * half_step


@inline_kernel  # into the solvers' closing (solvers_ngs._closing): no call per sweep
def solve_contact_positions(cs, bodies, beta, slop, max_correction, gravity_x, gravity_y,
                            half_step):
    """One sweep over the contact rows ``cs``; returns the smallest separation it found (m,
    before its own corrections; 0 when none is negative). Box2D stops iterating once it is at
    least ``-3 slop``.

    A point that the correction lifts while it is separating and still climbing (``v_n + a dt/2
    > 0``, ``a`` the pair's normal acceleration from gravity and applied forces, < 0) is on its
    way out of the overlap by itself, a bounce: the pass then takes the height it gave back from
    the point's normal speed (:func:`in_flight_speed`), so that projecting the overlap away adds
    no energy (``gravity_x, gravity_y``: m/s^2; ``half_step``: dt / 2, s). Box2D v2.4 lifts it for
    free: a ball dropped 10 m with e = 0.25 rose 8.6 % above e^4 h on its second bounce here
    before. A resting point (``v_n`` about 0) and a pair without a pull along the normal keep
    Box2D's pass unchanged."""
    dp = bodies.dp
    dq = bodies.dq
    v = bodies.v
    w = bodies.w
    smallest = 0.0
    for q in range(cs.count.shape[0]):
        a = cs.body_a[q]
        b = cs.body_b[q]
        m_a = cs.inv_mass[q, 0]
        i_a = cs.inv_mass[q, 1]
        m_b = cs.inv_mass[q, 2]
        i_b = cs.inv_mass[q, 3]
        nx = cs.normal[q, 0]
        ny = cs.normal[q, 1]
        for j in range(cs.count[q]):
            # The anchors now: each point moves the bodies, so the next one reads them again.
            rax, ray = anchor(dq, a, cs.r_a[q, j, 0], cs.r_a[q, j, 1])
            rbx, rby = anchor(dq, b, cs.r_b[q, j, 0], cs.r_b[q, j, 1])
            gx = dp[b, 0] - dp[a, 0] + rbx - rax
            gy = dp[b, 1] - dp[a, 1] + rby - ray
            s = cs.base_separation[q, j] + gx * nx + gy * ny
            smallest = min(smallest, s)
            c = min(max(beta * (s + slop), -max_correction), 0.0)
            if c == 0.0:
                continue
            rn_a = rax * ny - ray * nx
            rn_b = rbx * ny - rby * nx
            k = m_a + m_b + i_a * rn_a * rn_a + i_b * rn_b * rn_b
            if k <= 0.0:
                continue
            impulse = -c / k
            px = impulse * nx
            py = impulse * ny
            shift(bodies, a, -px, -py, -impulse * rn_a)
            shift(bodies, b, px, py, impulse * rn_b)
            # the point's normal speed, B relative to A: a bounce still climbing out?
            vn = ((v[b, 0] - w[b] * rby - v[a, 0] + w[a] * ray) * nx
                  + (v[b, 1] + w[b] * rbx - v[a, 1] - w[a] * rax) * ny)
            if vn <= 0.0:
                continue
            # (unsigned, as apply_restitution passes them: one signature of it in a process)
            accel = normal_acceleration(bodies, np.uint64(a), np.uint64(b), nx, ny, gravity_x,
                                        gravity_y)
            if vn + accel * half_step <= 0.0:
                continue  # past its apex (or resting): no climb to take back
            # the lift is -c (the separation's change, to first order); the speed change
            # applied as a normal impulse at the point (N s: effective mass 1/k)
            impulse = (in_flight_speed(vn, accel, -c, half_step) - vn) / k
            px = impulse * nx
            py = impulse * ny
            v[a, 0] -= m_a * px
            v[a, 1] -= m_a * py
            w[a] -= i_a * impulse * rn_a
            v[b, 0] += m_b * px
            v[b, 1] += m_b * py
            w[b] += i_b * impulse * rn_b
    return smallest
