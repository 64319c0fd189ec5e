"""Lemke's algorithm (``_dynamics/lcp.py``) against the definition of the LCP and against
brute-force enumeration of complementary bases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from impulse2d._dynamics.lcp import PIVOT_LIMIT, RAY, SOLVED, lemke


def _solve(M, q, max_pivots=1000):
    z = np.zeros(len(q))
    status, pivots = lemke(np.ascontiguousarray(M, float), np.ascontiguousarray(q, float),
                           max_pivots, z)
    return status, pivots, z


def _brute_force(M, q):
    """Every solution of LCP(M, q) with a nonsingular principal block, by enumeration."""
    n = len(q)
    found = []
    for size in range(n + 1):
        for active in itertools.combinations(range(n), size):
            z = np.zeros(n)
            if active:
                idx = list(active)
                try:
                    z[idx] = np.linalg.solve(M[np.ix_(idx, idx)], -q[idx])
                except np.linalg.LinAlgError:
                    continue
            w = M @ z + q
            if z.min() >= -1e-9 and w.min() >= -1e-9:
                found.append(z)
    return found


def _assert_complementary(M, q, z, tol):
    w = M @ z + q
    scale = max(1.0, np.abs(q).max())
    assert z.min() >= 0.0
    assert w.min() >= -tol * scale
    assert np.abs(z * w).max() <= tol * scale * max(1.0, z.max())


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_positive_definite_problems_have_the_one_solution(n):
    """For a positive definite M the solution is unique (a P-matrix): Lemke's equals the one
    enumeration finds, to 1e-9."""
    rng = np.random.default_rng(n)
    for _ in range(30):
        A = rng.normal(size=(n, n))
        M = A @ A.T + 0.1 * np.eye(n)
        q = rng.normal(size=n)
        status, _, z = _solve(M, q)
        assert status == SOLVED
        (expected,) = _brute_force(M, q)
        np.testing.assert_allclose(z, expected, rtol=0, atol=1e-9)
        _assert_complementary(M, q, z, 1e-10)


def test_nothing_to_do_when_q_is_nonnegative():
    status, pivots, z = _solve(np.eye(3), np.array([0.0, 1.0, 2.0]))
    assert (status, pivots) == (SOLVED, 0) and not z.any()


def _friction_problem(rng, points, mu):
    """The velocity-level contact LCP of ``points`` random contacts on a few random bodies, with
    friction in the two-direction form: rows [normal, +t, -t, slack] per point."""
    bodies = 3
    inv_mass = np.diag(np.repeat(1.0 / rng.uniform(0.5, 2.0, bodies), 3))
    Jn = rng.normal(size=(points, 3 * bodies))
    Jt = rng.normal(size=(points, 3 * bodies))
    v = rng.normal(size=3 * bodies)
    J = np.vstack([Jn, Jt, -Jt])
    A = J @ inv_mass @ J.T
    size = 4 * points
    M = np.zeros((size, size))
    M[:3 * points, :3 * points] = A
    E = np.vstack([np.eye(points), np.eye(points)])   # slack enters both tangent rows
    M[points:3 * points, 3 * points:] = E
    M[3 * points:, :points] = mu * np.eye(points)     # mu lambda_n - lambda_+ - lambda_- >= 0
    M[3 * points:, points:3 * points] = -E.T
    q = np.concatenate([J @ v, np.zeros(points)])
    return M, q


@pytest.mark.parametrize("points", [1, 2, 4, 8])
def test_friction_problems_are_solved_with_complementarity_and_the_cone(points):
    """Coulomb friction in two directions: not symmetric, zero diagonal on the slack rows.
    The solution satisfies complementarity and the friction cone to 1e-9."""
    rng = np.random.default_rng(100 + points)
    for _ in range(25):
        mu = rng.uniform(0.1, 1.0)
        M, q = _friction_problem(rng, points, mu)
        status, _, z = _solve(M, q)
        assert status == SOLVED
        _assert_complementary(M, q, z, 1e-9)
        normal = z[:points]
        tangent = z[points:2 * points] - z[2 * points:3 * points]
        assert np.all(np.abs(tangent) <= mu * normal + 1e-9)
        # Where a point slides (slack > 0), friction is at the cone's edge, opposing the slip.
        sliding = z[3 * points:] > 1e-9
        np.testing.assert_allclose(np.abs(tangent[sliding]), mu * normal[sliding], atol=1e-9)


def test_a_degenerate_problem_still_gets_a_solution():
    """Two identical rows (a contact listed twice): M is singular, the solution not unique, and
    ties come up at every step; the lexicographic rule still finds a valid solution."""
    J = np.array([[0.0, 1.0, 0.5], [0.0, 1.0, 0.5], [0.0, 1.0, -0.5]])
    M = J @ J.T
    q = np.array([-1.0, -1.0, -1.0])
    status, _, z = _solve(M, q)
    assert status == SOLVED
    _assert_complementary(M, q, z, 1e-10)


def test_a_problem_without_solution_ends_on_a_ray():
    status, _, z = _solve(np.array([[-1.0]]), np.array([-1.0]))
    assert status == RAY and not z.any()


def test_the_pivot_limit_is_reported():
    rng = np.random.default_rng(7)
    A = rng.normal(size=(6, 6))
    M = A @ A.T + np.eye(6)
    status, pivots, _ = _solve(M, -np.ones(6), max_pivots=2)
    assert status == PIVOT_LIMIT and pivots == 2
