"""The row machinery: a scalar constraint row given by its value ``C`` and its Jacobian ``J``,
turned into an effective mass, a bias, an accumulated and clamped impulse, a position
correction and a row of the ``direct`` solver's system.

A row here is row ``r`` of an array ``out`` laid out as :data:`~..._core.state.LAW_OUT`::

    out[r] = (C, J_a linear x, J_a linear y, J_a angular, J_b linear x, J_b linear y,
              J_b angular, Jdot v)

in the solver's velocity coordinates (each body's centre-of-mass velocity and its spin), so
that ``Cdot = J_a . (v_a, w_a) + J_b . (v_b, w_b)``. From ``J`` alone (Catto, "Modeling and
Solving Constraints", GDC 2009)::

    K      = J M^-1 J^T = m_a |J_a,lin|^2 + i_a J_a,ang^2 + m_b |J_b,lin|^2 + i_b J_b,ang^2
    lambda = -(1/K) (Cdot + bias)           (rigid), and P = J^T lambda on the velocities
    K_pq   = J_p M^-1 J_q^T                 (the coupling of two rows, for a block solve)

with ``m`` and ``i`` the inverse masses and inertias. The bias (soft, Baumgarte or
speculative), the impulse budget and the clamping are those of the built-in joints
(:mod:`.rows`): what a custom joint (:mod:`.custom`) solves is solved as the built-in rows are.
"""

from __future__ import annotations

from ..._core.jit import inline_kernel
from ..direct_rows import put_row
from ..positions import shift


@inline_kernel
def coupling(out, p, q, m_a, m_b, i_a, i_b):
    """``K_pq = J_p M^-1 J_q^T`` of rows ``p`` and ``q`` (``K`` for ``p == q``)."""
    return (m_a * (out[p, 1] * out[q, 1] + out[p, 2] * out[q, 2]) + i_a * out[p, 3] * out[q, 3]
            + m_b * (out[p, 4] * out[q, 4] + out[p, 5] * out[q, 5])
            + i_b * out[p, 6] * out[q, 6])


@inline_kernel
def row_mass(out, r, m_a, m_b, i_a, i_b):
    """The effective mass ``1 / K`` of row ``r`` (0 for a row that moves nothing)."""
    k = coupling(out, r, r, m_a, m_b, i_a, i_b)
    return 1.0 / k if k > 0.0 else 0.0


@inline_kernel
def row_speed(out, r, vax, vay, wa, vbx, vby, wb):
    """``Cdot = J v`` of row ``r`` at the given velocities."""
    return (out[r, 1] * vax + out[r, 2] * vay + out[r, 3] * wa
            + out[r, 4] * vbx + out[r, 5] * vby + out[r, 6] * wb)


@inline_kernel
def row_cap(out, r, speed_cap, spin_cap):
    """The speed budget of row ``r`` (:func:`~..solvers.impulse_caps`): the spin budget for a
    row that only turns (no linear term, an angle row), else the linear one."""
    if (out[r, 1] == 0.0 and out[r, 2] == 0.0 and out[r, 4] == 0.0 and out[r, 5] == 0.0):
        return spin_cap
    return speed_cap


@inline_kernel
def push(out, r, impulse, m_a, m_b, i_a, i_b, vax, vay, wa, vbx, vby, wb):
    """The velocities after the impulse ``J_r^T impulse``."""
    return (vax + m_a * impulse * out[r, 1], vay + m_a * impulse * out[r, 2],
            wa + i_a * impulse * out[r, 3], vbx + m_b * impulse * out[r, 4],
            vby + m_b * impulse * out[r, 5], wb + i_b * impulse * out[r, 6])


@inline_kernel
def shift_rows(bodies, a, b, out, r0, l0, r1, l1, r2, l2):
    """Move bodies ``a`` and ``b`` by the pseudo-impulse ``sum_k J_rk^T l_k`` (positions, not
    velocities: the nonlinear Gauss-Seidel pass). A row index -1 takes no part."""
    ax = 0.0
    ay = 0.0
    aw = 0.0
    bx = 0.0
    by = 0.0
    bw = 0.0
    for k in range(3):
        r = r0 if k == 0 else (r1 if k == 1 else r2)
        x = l0 if k == 0 else (l1 if k == 1 else l2)
        if r < 0:
            continue
        ax += x * out[r, 1]
        ay += x * out[r, 2]
        aw += x * out[r, 3]
        bx += x * out[r, 4]
        by += x * out[r, 5]
        bw += x * out[r, 6]
    shift(bodies, a, ax, ay, aw)
    shift(bodies, b, bx, by, bw)


@inline_kernel
def put_jacobian_row(body, jacobian, data, row, a, b, out, r, sign, bias, kind, bound, soft,
                     cap):
    """Write row ``r`` of ``out`` (times ``sign``: -1 for an upper bound, ``C' = upper - C``)
    as row ``row`` of the ``direct`` solver's system (:func:`..direct_rows.put_row`)."""
    put_row(body, jacobian, data, row, a, b, sign * out[r, 1], sign * out[r, 2],
            sign * out[r, 3], sign * out[r, 4], sign * out[r, 5], sign * out[r, 6], bias, kind,
            bound, soft, -1, cap)
