"""The block contact solver of ``pgs_block``: a two-point manifold's normal impulses solved as one
2x2 linear complementarity problem (Box2D v2.0-v2.4 ``b2ContactSolver::SolveVelocityConstraints``,
developed with Dirk Gregorius; Solver2D ``PGS_NGS_Block``).

Point by point, Gauss-Seidel passes the load of a box resting on a face back and forth between
its two corners and converges slowly (the two rows share the body's rotation); at few
iterations the box rocks. With ``x`` the two accumulated normal impulses, ``a`` their old
values, ``vn`` the normal speeds now and ``b`` the speculative bias (``s / h`` for a gap
``s > 0``, else 0; no Baumgarte: the position pass removes overlap)::

    K   = [[k11, k12], [k12, k22]],  k_ij = 1/m_a + 1/m_b + (r_ai x n)(r_aj x n) / I_a
                                             + (r_bi x n)(r_bj x n) / I_b
    vn' = K (x - a) + vn + b,        x >= 0,  vn' >= 0,  x_i vn'_i = 0

is solved exactly by trying its four cases in turn (total enumeration): both points push
(``x = -K^-1 (vn + b - K a)``), only the first, only the second, neither; the first whose
``x`` and ``vn'`` are both non-negative is taken (if none, which rounding alone can cause, the
impulses stay as they were). When ``K`` is ill-conditioned, ``k11^2 >= 1000 det K`` (the two
points nearly coincide, or a long thin body), the points are solved one by one instead
(Box2D v2.4 keeps one point only; both points keep the load symmetric).

Each point's total stays within its speed budget ``normal_mass * speed_cap`` (as in
:func:`~.contact_solver.solve_contacts`, :func:`~.solvers.impulse_caps`). Friction goes first,
point by point, as in Box2D v2.4 and :func:`~.contact_solver.solve_contacts`.
"""

from __future__ import annotations

from .._core.jit import borrowing_kernel, inline_kernel
from .contact_solver import friction_rows
from .velocities import load_pair, store_pair
from .world_ref import borrow

MAX_CONDITION = 1000.0
"""Largest estimate ``k11^2 / det K`` of the condition number for which the 2x2 block is
solved (Box2D v2.4 ``k_maxConditionNumber``)."""


@inline_kernel
def _gaps(cs, q, dp, dq, a, b, count, inv_h, nx, ny):
    """The speculative biases ``(b1, b2)`` of row ``q``'s points: ``s / h`` where the current
    gap ``s`` is open, else 0 (the gap as :func:`~.contact_solver.solve_contacts` measures it)."""
    ca = dq[a, 0]
    sa = dq[a, 1]
    cb = dq[b, 0]
    sb = dq[b, 1]
    ddx = dp[b, 0] - dp[a, 0]
    ddy = dp[b, 1] - dp[a, 1]
    b1 = 0.0
    b2 = 0.0
    for j in range(count):
        rax = cs.r_a[q, j, 0]
        ray = cs.r_a[q, j, 1]
        rbx = cs.r_b[q, j, 0]
        rby = cs.r_b[q, j, 1]
        gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
        gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
        s = cs.base_separation[q, j] + gx * nx + gy * ny
        bias = s * inv_h if s > 0.0 else 0.0
        if j == 0:
            b1 = bias
        else:
            b2 = bias
    return b1, b2


@borrowing_kernel  # called once a step (the world's reference: see solve_contacts_block)
def speculative_biases(world, inv_h):
    """Each point's speculative bias (:func:`_gaps`) into ``cs.bias``, once before the sweeps
    of :func:`solve_contacts_block`, which read it there.

    The velocity sweeps move no body (the positions are integrated after them), so a point's
    gap is the same in every sweep: Box2D 2.3 likewise fixes each row's bias in
    ``InitializeVelocityConstraints``. Measured from the same in-step deltas with the same
    arithmetic as it was in each sweep, so the same bits."""
    cs = borrow(world, "constraints")
    bodies = borrow(world, "bodies")
    dp = bodies.dp
    dq = bodies.dq
    for q in range(cs.count.shape[0]):
        count = cs.count[q]
        b1, b2 = _gaps(cs, q, dp, dq, cs.body_a[q], cs.body_b[q], count, inv_h,
                       cs.normal[q, 0], cs.normal[q, 1])
        cs.bias[q, 0] = b1
        if count == 2:
            cs.bias[q, 1] = b2


@borrowing_kernel
def solve_contacts_block(world, last_sweep, speed_cap):
    """One rigid Gauss-Seidel sweep over every constraint: friction rows point by point, then
    the normal rows, two-point manifolds as one block (see the module doc), with the
    speculative biases :func:`speculative_biases` put in ``cs.bias`` before the sweeps. The
    ``last_sweep`` of the step adds its impulses to the step totals.

    Called, not inlined, with the world's reference and two scalars (a call that passed the
    stores would pass each of their arrays, every sweep): ``pgs_block`` sweeps in two places
    (:mod:`.solvers_ngs`), and inlined into both, its 7,400 instructions of IR were typed,
    lowered and optimised twice in the unit (2026-12-01, ``benchmarks/ir_lines.py``)."""
    cs = borrow(world, "constraints")
    bodies = borrow(world, "bodies")
    v = bodies.v
    w = bodies.w
    for q in range(cs.count.shape[0]):
        count = cs.count[q]
        a = cs.body_a[q]
        b = cs.body_b[q]
        m_a = cs.inv_mass[q, 0]
        i_a = cs.inv_mass[q, 1]
        m_b = cs.inv_mass[q, 2]
        i_b = cs.inv_mass[q, 3]
        vax, vay, wa, vbx, vby, wb = load_pair(v, w, a, b)
        nx = cs.normal[q, 0]
        ny = cs.normal[q, 1]
        tx = ny
        ty = -nx
        friction = cs.friction[q]

        # Friction first (Box2D v2.4's block solver): |lambda_t| <= mu lambda_n with the last
        # iteration's normals.
        vax, vay, wa, vbx, vby, wb = friction_rows(cs, q, count, m_a, i_a, m_b, i_b, vax, vay, wa,
                                                   vbx, vby, wb, tx, ty, friction)

        bias1 = cs.bias[q, 0]
        bias2 = cs.bias[q, 1]  # (a one-point row's is not read)
        # Both points' anchors (a one-point row reads its unused second slot, and solves
        # point by point).
        ra1x = cs.r_a[q, 0, 0]
        ra1y = cs.r_a[q, 0, 1]
        rb1x = cs.r_b[q, 0, 0]
        rb1y = cs.r_b[q, 0, 1]
        ra2x = cs.r_a[q, 1, 0]
        ra2y = cs.r_a[q, 1, 1]
        rb2x = cs.r_b[q, 1, 0]
        rb2y = cs.r_b[q, 1, 1]
        rn1a = 0.0
        rn1b = 0.0
        rn2a = 0.0
        rn2b = 0.0
        k11 = 0.0
        k12 = 0.0
        k22 = 0.0
        det = 0.0
        blocked = False
        if count == 2:
            rn1a = ra1x * ny - ra1y * nx
            rn1b = rb1x * ny - rb1y * nx
            rn2a = ra2x * ny - ra2y * nx
            rn2b = rb2x * ny - rb2y * nx
            m = m_a + m_b
            k11 = m + i_a * rn1a * rn1a + i_b * rn1b * rn1b
            k22 = m + i_a * rn2a * rn2a + i_b * rn2b * rn2b
            k12 = m + i_a * rn1a * rn2a + i_b * rn1b * rn2b
            det = k11 * k22 - k12 * k12
            blocked = k11 * k11 < MAX_CONDITION * det
        if blocked:
            old1 = cs.normal_impulse[q, 0]
            old2 = cs.normal_impulse[q, 1]
            vn1 = ((vbx - wb * rb1y - vax + wa * ra1y) * nx
                   + (vby + wb * rb1x - vay - wa * ra1x) * ny)
            vn2 = ((vbx - wb * rb2y - vax + wa * ra2y) * nx
                   + (vby + wb * rb2x - vay - wa * ra2x) * ny)
            # vn' = K x + r with r = vn + bias - K a: the speeds if the impulses were x.
            r1 = vn1 + bias1 - (k11 * old1 + k12 * old2)
            r2 = vn2 + bias2 - (k12 * old1 + k22 * old2)
            # Case 1: both points push, vn' = 0.
            x1 = -(k22 * r1 - k12 * r2) / det
            x2 = -(k11 * r2 - k12 * r1) / det
            if not (x1 >= 0.0 and x2 >= 0.0):
                # Case 2: only the first pushes; the second must then be separating.
                x1 = -r1 / k11
                x2 = 0.0
                if not (x1 >= 0.0 and k12 * x1 + r2 >= 0.0):
                    # Case 3: only the second pushes.
                    x1 = 0.0
                    x2 = -r2 / k22
                    if not (x2 >= 0.0 and k12 * x2 + r1 >= 0.0):
                        # Case 4: neither pushes; else no solution: keep the old impulses.
                        x1 = 0.0
                        x2 = 0.0
                        if not (r1 >= 0.0 and r2 >= 0.0):
                            x1 = old1
                            x2 = old2
            # world.constraint_rows(): the block's answer before the budget
            cs.unclamped[q, 0, 0] = x1
            cs.unclamped[q, 1, 0] = x2
            # The speed budget, per point (normal_mass = 1 / k_ii).
            x1 = min(x1, cs.normal_mass[q, 0] * speed_cap)
            x2 = min(x2, cs.normal_mass[q, 1] * speed_cap)
            cs.normal_impulse[q, 0] = x1
            cs.normal_impulse[q, 1] = x2
            if x1 > cs.max_normal_impulse[q, 0]:
                cs.max_normal_impulse[q, 0] = x1
            if x2 > cs.max_normal_impulse[q, 1]:
                cs.max_normal_impulse[q, 1] = x2
            d1 = x1 - old1
            d2 = x2 - old2
            px = (d1 + d2) * nx
            py = (d1 + d2) * ny
            vax -= m_a * px
            vay -= m_a * py
            wa -= i_a * (d1 * rn1a + d2 * rn2a)
            vbx += m_b * px
            vby += m_b * py
            wb += i_b * (d1 * rn1b + d2 * rn2b)
        else:
            for j in range(count):
                rax = cs.r_a[q, j, 0]
                ray = cs.r_a[q, j, 1]
                rbx = cs.r_b[q, j, 0]
                rby = cs.r_b[q, j, 1]
                dvx = vbx - wb * rby - vax + wa * ray
                dvy = vby + wb * rbx - vay - wa * rax
                vn = dvx * nx + dvy * ny
                bias = bias1 if j == 0 else bias2
                old = cs.normal_impulse[q, j]
                normal_mass = cs.normal_mass[q, j]
                total = min(max(old - normal_mass * (vn + bias), 0.0), normal_mass * speed_cap)
                cs.unclamped[q, j, 0] = old - normal_mass * (vn + bias)
                cs.normal_impulse[q, j] = total
                if total > cs.max_normal_impulse[q, j]:
                    cs.max_normal_impulse[q, j] = total
                impulse = total - old
                px = impulse * nx
                py = impulse * ny
                vax -= m_a * px
                vay -= m_a * py
                wa -= i_a * (rax * py - ray * px)
                vbx += m_b * px
                vby += m_b * py
                wb += i_b * (rbx * py - rby * px)

        if last_sweep:
            for j in range(count):
                cs.total_normal_impulse[q, j] += cs.normal_impulse[q, j]
                cs.total_tangent_impulse[q, j] += cs.tangent_impulse[q, j]
        store_pair(v, w, a, b, vax, vay, wa, vbx, vby, wb)
