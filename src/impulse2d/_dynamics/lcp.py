"""Linear complementarity problems, solved exactly by Lemke's complementary pivoting.

The problem LCP(M, q): find ``z`` with::

    w = M z + q,    z >= 0,    w >= 0,    z_i w_i = 0 for every i.

Contacts are its rows (``z`` the normal impulse, ``w`` the separating velocity: either the
contact pushes and the bodies do not separate, or it is idle and they do) and so is Coulomb
friction in two dimensions written in two directions (Stewart and Trinkle 1996; Anitescu and
Potra 1997): ``lambda_t = lambda_+ - lambda_-`` with a slack ``beta`` (the sliding speed), whose
matrix is not symmetric and has zeros on the diagonal. Lemke's algorithm (Lemke 1965; Cottle,
Pang and Stone, "The Linear Complementarity Problem", 1992, section 4.4) solves such problems
where an iterative method only approaches the solution: it walks from basis to basis of the
augmented system ``w - M z - d z0 = q`` (``d`` the covering vector of ones, ``z0`` an artificial
variable) until ``z0`` leaves the basis, each step a ratio test and a pivot on the tableau.

Degeneracy (ties in the ratio test) is the rule in contact problems, a box resting on two points
being the first example, so ties are broken lexicographically: among the tied rows the one
whose row of ``B^-1``, divided by its pivot entry, is lexicographically smallest leaves, which
never visits a basis twice. ``z0`` leaves as soon as it ties, which ends the walk.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import inner_kernel, kernel

SOLVED, RAY, PIVOT_LIMIT = 0, 1, 2
"""How :func:`lemke` ended: a solution, a secondary ray (no solution found: for the matrices
of contact problems, which are copositive-plus, that means none exists), or ``max_pivots``
pivots without either."""

_TOLERANCE = 1e-12
"""Relative size below which a tableau entry counts as zero in the ratio test (of the
largest entry of its column)."""


@kernel
def lemke(M, q, max_pivots, z):
    """Solve LCP(``M``, ``q``) into ``z`` (length n) by Lemke's algorithm; return
    ``(status, pivots)`` with ``status`` one of :data:`SOLVED`, :data:`RAY`,
    :data:`PIVOT_LIMIT`. ``z`` is all zeros unless SOLVED."""
    status, pivots, T, basis = _walk(M, q, max_pivots, z)
    if status == SOLVED and T.shape[0] > 0:
        _refine(M, q, T, basis, z)
    return status, pivots


@inner_kernel
def lemke_exact(M, q, max_pivots, z, exact_M, exact_q):
    """:func:`lemke` on LCP(``M``, ``q``), a problem near LCP(``exact_M``, ``exact_q``) that
    is kinder to the walk (regularised, or with rounding snapped to zero), and the final
    basis's values refined against the exact one as well; ``z`` is whichever of the two answers
    has the smaller natural residual (:func:`natural_residual`) on the exact problem.

    The basis Lemke ends on is a solution of both problems when they are this near; its values
    are not: an answer of the regularised problem is off the exact one by the regularisation
    times the values it multiplies. Refined against the exact data with the walk's ``B^-1``
    (two steps of :func:`_refine`, each removing all but about ``|B - B_exact| |B^-1|`` of the
    error), it meets the exact problem to rounding. Where the exact basis matrix is singular
    (the regularisation was needed to make it a basis at all) that refinement does not
    converge, and the regularised answer is kept."""
    status, pivots, T, basis = _walk(M, q, max_pivots, z)
    if status == SOLVED and T.shape[0] > 0:
        _refine(M, q, T, basis, z)
        other = np.empty(q.shape[0])
        _refine(exact_M, exact_q, T, basis, other)
        if natural_residual(exact_M, exact_q, other) <= natural_residual(exact_M, exact_q, z):
            for i in range(q.shape[0]):
                z[i] = other[i]
    return status, pivots


@inner_kernel
def _walk(M, q, max_pivots, z):
    """Lemke's walk on LCP(``M``, ``q``): ``(status, pivots, T, basis)``, the final tableau
    and basis (T with no rows when ``z = 0`` solves it, ``z`` then zeroed and left so). ``z``
    is zeroed; the caller reads a SOLVED answer off ``T`` (:func:`_refine`)."""
    n = q.shape[0]
    for i in range(n):
        z[i] = 0.0
    none = np.zeros((0, 2))
    if n == 0:
        return SOLVED, 0, none, np.zeros(0, dtype=np.int64)
    # The most negative q_i decides whether there is anything to do and where z0 enters.
    t = np.int64(0)  # not the literal 0: see _ratio_test
    for i in range(1, n):
        if q[i] < q[t]:
            t = i
    if q[t] >= 0.0:
        return SOLVED, 0, none, np.zeros(0, dtype=np.int64)

    # Tableau of B^-1 [I, -M, -d | q], columns: w (0..n-1), z (n..2n-1), z0 (2n), rhs (2n+1).
    # Variable k's complement is k + n (mod 2n); basis[i] is the variable of row i.
    width = 2 * n + 2
    T = np.zeros((n, width))
    for i in range(n):
        T[i, i] = 1.0
        for j in range(n):
            T[i, n + j] = -M[i, j]
        T[i, 2 * n] = -1.0
        T[i, width - 1] = q[i]
    basis = np.arange(n)

    z0 = 2 * n
    _pivot(T, t, z0)
    leaving = basis[t]
    basis[t] = z0
    pivots = 1
    while pivots < max_pivots:
        entering = leaving + n if leaving < n else leaving - n
        row = _ratio_test(T, basis, entering, z0)
        if row < 0:
            return RAY, pivots, T, basis
        _pivot(T, row, entering)
        leaving = basis[row]
        basis[row] = entering
        pivots += 1
        if leaving == z0:
            return SOLVED, pivots, T, basis
    return PIVOT_LIMIT, pivots, T, basis


@inner_kernel
def natural_residual(M, q, z):
    """``max_i |min(z_i, w_i)|``, ``w = M z + q``: 0 exactly at a solution of the LCP."""
    worst = 0.0
    for i in range(q.shape[0]):
        w = q[i]
        for j in range(q.shape[0]):
            w += M[i, j] * z[j]
        worst = max(worst, abs(min(z[i], w)))
    return worst


@inner_kernel
def _refine(M, q, T, basis, z):
    """``z`` from the final basis, with two steps of iterative refinement.

    The tableau's values carry the rounding of every pivot (measured: residuals of 4e-10 on a
    settled pile's 128-variable problem after 45 pivots, whose matrix is singular along the
    friction directions that cancel). The basis itself is right; its values are corrected with
    the inverse the tableau holds (its first n columns are ``B^-1``): ``x_B += B^-1 r``,
    ``r = q - (w - M z)`` from the original data. The residual then falls to rounding.
    """
    n = q.shape[0]
    width = T.shape[1]
    x = np.zeros(2 * n)              # w, then z; nonbasic ones (z0 too) are 0
    for i in range(n):
        if basis[i] < 2 * n:
            x[basis[i]] = T[i, width - 1]
    r = np.empty(n)
    for _ in range(2):
        for i in range(n):
            s = q[i] - x[i]
            for j in range(n):
                s += M[i, j] * x[n + j]
            r[i] = s
        for i in range(n):
            if basis[i] < 2 * n:
                d = 0.0
                for k in range(n):
                    d += T[i, k] * r[k]
                x[basis[i]] += d
    for j in range(n):
        z[j] = max(x[n + j], 0.0)


@inner_kernel
def _pivot(T, row, column):
    """Gauss-Jordan pivot of the tableau on (``row``, ``column``)."""
    n, width = T.shape
    p = T[row, column]
    for k in range(width):
        T[row, k] /= p
    for i in range(n):
        if i != row:
            f = T[i, column]
            if f != 0.0:
                for k in range(width):
                    T[i, k] -= f * T[row, k]
                T[i, column] = 0.0
        # The basic variables of a feasible basis are >= 0; rounding (or a near-tie taken as a
        # tie by the ratio test) can leave one a hair below zero, and a negative right-hand
        # side breaks the next ratio tests: measured, a settled pile of 12 bodies cycled to the
        # pivot limit on 1e-13-sized values. Snapped back to 0, it solved in 123 pivots.
        if T[i, width - 1] < 0.0:
            T[i, width - 1] = 0.0


@inner_kernel
def _ratio_test(T, basis, column, z0):
    """The leaving row for ``column``: the smallest ratio rhs / entry over positive entries,
    ties broken by ``z0`` first, then lexicographically on the rows of ``B^-1`` (the tableau's
    first n columns) divided by the entry. -1 when no entry is positive (a ray)."""
    n, width = T.shape
    scale = 0.0
    for i in range(n):
        scale = max(scale, abs(T[i, column]))
    if scale == 0.0:
        return -1
    tolerance = _TOLERANCE * scale
    # np.int64, not the literal -1: Numba types a variable by its first value while it infers
    # the rest and compiles a callee for each type it is called with on the way, so a literal
    # start compiled _lexicographically_smaller (and, above, _pivot) twice.
    best = np.int64(-1)
    best_ratio = 0.0
    for i in range(n):
        entry = T[i, column]
        if entry <= tolerance:
            continue
        ratio = T[i, width - 1] / entry
        if best < 0 or ratio < best_ratio - 1e-12 * max(1.0, abs(best_ratio)):
            best, best_ratio = i, ratio
        elif ratio <= best_ratio + 1e-12 * max(1.0, abs(best_ratio)):
            if basis[i] == z0:
                best, best_ratio = i, ratio
            elif basis[best] != z0 and _lexicographically_smaller(T, i, best, column, n):
                best, best_ratio = i, ratio
    return best


@inner_kernel
def _lexicographically_smaller(T, i, k, column, n):
    """Whether row ``i`` of ``B^-1`` over its pivot entry is lexicographically smaller than
    row ``k``'s."""
    a = T[i, column]
    b = T[k, column]
    for j in range(n):
        x = T[i, j] / a
        y = T[k, j] / b
        if x < y - 1e-14:
            return True
        if x > y + 1e-14:
            return False
    return False


__all__ = ["lemke", "lemke_exact", "natural_residual", "SOLVED", "RAY", "PIVOT_LIMIT"]
