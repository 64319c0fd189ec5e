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
"""

from __future__ import annotations

from .._core.jit import inline_kernel
from .positions import anchor, shift


@inline_kernel  # into the solver entries (pgs_ngs, pgs_block): no call per sweep
def solve_contact_positions(cs, bodies, beta, slop, max_correction):
    """One sweep over the contact rows ``cs``; returns the smallest separation it found (m,
    before its own corrections; 0 when none is negative). Box2D stops iterating once it is at
    least ``-3 slop``."""
    dp = bodies.dp
    dq = bodies.dq
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
    return smallest
