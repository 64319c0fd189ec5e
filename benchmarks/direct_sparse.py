"""The direct solver's equality block on a chain: the in-kernel envelope Cholesky against SciPy.

    python benchmarks/direct_sparse.py        # needs scipy (pip install -e '.[bench]')

``A_ee = J M^-1 J^T`` of a pinned chain (2 rows a joint: block tridiagonal), factored and solved
once: by :mod:`impulse2d._dynamics.direct_linalg` inside a Numba kernel (``factor`` and
``solve``, as the island solve calls them, from ``A_ee`` in CSR, the form the engine assembles
it in: its envelope scan, skyline and Cholesky), by ``scipy.sparse.linalg.splu`` (with and
without assembling ``A`` from a sparse ``J``), and by ``scipy.linalg.solveh_banded``; median of
7 (ms). The numbers behind BENCHMARKS.md's "SciPy, measured and left out" (2026-11-24; then the
kernel took the dense block and scanned it, O(n^2)).
"""
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
import numba  # noqa: E402
import scipy.linalg as sl  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as spl  # noqa: E402

from impulse2d._dynamics.direct_linalg import factor, from_dense, solve  # noqa: E402


@numba.njit(cache=False)
def csr(K):
    """``K`` as the CSR ``(start, column, value)`` the island solve factors."""
    return from_dense(K)


@numba.njit(cache=False)
def env_factor_solve(start, column, value, b, reps):
    counts = np.zeros(1, dtype=np.int64)
    dense = np.zeros(1, dtype=np.int64)  # no LAPACK kernel (a chain's envelope is thin anyway)
    x = b.copy()
    for _ in range(reps):
        row, sky, first, last, order = factor(start, column, value, counts, 0, dense)
        x = b.copy()
        solve(row, sky, first, last, order, x)
    return x


def chain_matrix(links):
    # A_ee of a chain of `links` pinned links (2 rows a joint): J M^-1 J^T, unit mass, I = 1/12
    n = 2 * links
    J = np.zeros((n, 3 * links))
    for k in range(links):
        for a in range(2):
            r = 2 * k + a
            # joint k between link k-1 (its right end, +0.5) and link k (its left end, -0.5)
            J[r, 3 * k + a] = 1.0; J[r, 3 * k + 2] = (0.5 if a == 1 else 0.0)
            if k > 0:
                J[r, 3 * (k - 1) + a] = -1.0; J[r, 3 * (k - 1) + 2] = (0.5 if a == 1 else 0.0)
    Minv = np.tile([1.0, 1.0, 12.0], links)
    return (J * Minv) @ J.T, sp.csr_matrix(J), Minv

def med(f, reps=7):
    t = []
    for _ in range(reps):
        t0 = time.perf_counter(); f(); t.append(time.perf_counter() - t0)
    return 1e3 * sorted(t)[len(t)//2]

def main() -> None:
    """Each chain's factor and solve, each way, printed."""
    for links in (400, 1000):
        K, Js, Minv = chain_matrix(links)
        n = K.shape[0]; b = np.random.default_rng(0).standard_normal(n)
        start, column, value = csr(K)
        x0 = env_factor_solve(start, column, value, b, 1)
        t_env = med(lambda: env_factor_solve(start, column, value, b, 1))
        def sparse_path():
            A = (Js.multiply(Minv) @ Js.T).tocsc()      # assembly from a sparse J
            lu = spl.splu(A)
            return lu.solve(b)
        def sparse_factor_only():
            return spl.splu(Ksc).solve(b)
        Ksc = sp.csc_matrix(K)
        # banded: upper form, bandwidth from the pattern
        w = max(abs(i - j) for i, j in zip(*np.nonzero(K)))
        ab = np.zeros((w + 1, n))
        for d in range(w + 1):
            ab[w - d, d:] = np.diag(K, d)
        x1 = sparse_path(); x2 = sl.solveh_banded(ab, b)
        print(f"chain {links} links ({n} rows, half-bandwidth {w}): in-kernel envelope factor+solve (from CSR) {t_env:.3f} ms;"
              f" scipy splu from sparse J (assemble+factor+solve) {med(sparse_path):.3f} ms; splu+solve only {med(sparse_factor_only):.3f} ms;"
              f" solveh_banded {med(lambda: sl.solveh_banded(ab, b)):.3f} ms; agree {np.abs(x1-x2).max():.1e}"
              f" (the kernel's {np.abs(x0-x2).max():.1e})")


if __name__ == "__main__":
    main()
