"""The direct solver's equality block on a chain: the in-kernel envelope Cholesky against SciPy.

    python benchmarks/direct_sparse.py        # needs scipy (pip install -e '.[bench]')

``A_ee = J M^-1 J^T`` of a pinned chain (2 rows a joint: block tridiagonal), factored and solved
once: by :mod:`impulse2d._dynamics.direct_linalg` inside a Numba kernel (including its O(n^2)
scans of the dense block), by ``scipy.sparse.linalg.splu`` (with and without assembling ``A``
from a sparse ``J``), and by ``scipy.linalg.solveh_banded``; median of 7 (ms). The numbers behind
BENCHMARKS.md's "SciPy, measured and left out" (2026-11-24).
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

from impulse2d._dynamics.direct_linalg import envelope, envelope_cholesky, solve  # noqa: E402

@numba.njit(cache=False)
def env_factor_solve(K, b, reps):
    counts = np.zeros(1)
    n = K.shape[0]
    for _ in range(reps):
        first, last, work, fill = envelope(K)
        L = envelope_cholesky(K, first, last, counts, 0)
        x = b.copy()
        solve(L, first, last, np.arange(n), x)
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

for links in (400, 1000):
    K, Js, Minv = chain_matrix(links)
    n = K.shape[0]; b = np.random.default_rng(0).standard_normal(n)
    env_factor_solve(K, b, 1)
    t_env = med(lambda: env_factor_solve(K, b, 1))
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
    print(f"chain {links} links ({n} rows, half-bandwidth {w}): in-kernel envelope factor+solve (incl. its O(n^2) scans) {t_env:.3f} ms;"
          f" scipy splu from sparse J (assemble+factor+solve) {med(sparse_path):.3f} ms; splu+solve only {med(sparse_factor_only):.3f} ms;"
          f" solveh_banded {med(lambda: sl.solveh_banded(ab, b)):.3f} ms; agree {np.abs(x1-x2).max():.1e}")
