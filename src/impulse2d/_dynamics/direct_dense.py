"""LAPACK's Cholesky (``dpotrf``, SciPy's) for the ``direct`` solver's dense equality blocks.

A block whose envelope is nearly full (one body with dozens of joints: every joint row meets
that body's, so ``A_ee`` is dense and no reordering narrows it) costs the envelope loops of
:mod:`.direct_linalg` the dense algorithm's ``n^3 / 6`` multiply-adds, which LAPACK's blocked
``dpotrf`` does 4 to 12 times faster (measured, BENCHMARKS.md). SciPy ships it
(``scipy.linalg.cython_lapack``) and Numba's helper library calls it (``numba_xxpotrf``, as
``numpy.linalg.cholesky`` does inside a kernel): hence SciPy is a dependency of the engine.

This kernel is compiled on its own and called by address (slot :data:`~.verbs.DIRECT_DENSE`),
only from the islands where it pays (:func:`.direct_linalg.factor`): with the call compiled
into the island solve instead, Lemke's pivoting on contact islands ran 33-40 % slower, whether
the call was made or not (measured). And it is compiled only once a world first has such a
block, so that other worlds pay neither its compile time nor SciPy's LAPACK loading.

The factor is LAPACK's (its own order of the sums: the last bits differ from the loops'). A
block the loops would regularise (a pivot below ``PIVOT_FLOOR`` of its diagonal: redundant
joints) is given back to them (status not 0), so redundant rows are treated as before.
"""

from __future__ import annotations

import numpy as np
from numba.core import types

from .._core.jit import entry_kernel, inline_kernel
from .._core.lazy import JIT

PIVOT_FLOOR = 1e-10
""":data:`.direct_linalg.PIVOT_FLOOR` (repeated here: this module must not import the loops'
module, whose kernels are compiled into the island solve)."""

_KIND, _UPPER = 100, 85
"""``ord('d')`` (double precision) and ``ord('U')``: LAPACK's upper triangle in its
column-major order is the lower one of this row-major array, so ``dpotrf`` leaves
``U^T U = K`` column-major, that is ``L L^T = K`` row-major."""

_potrf = types.ExternalFunction("numba_xxpotrf", types.intc(
    types.char, types.char, types.intp, types.CPointer(types.float64), types.intp))
"""Numba's helper for ``?potrf`` (``numba/_lapack.c``): ``(kind, uplo, n, a, lda) -> info``,
the LAPACK routine found in ``scipy.linalg.cython_lapack`` on its first call."""


@inline_kernel
def _check(K, L, n):
    """0.0 when every pivot of ``L`` is at least ``PIVOT_FLOOR`` of its diagonal, else 1.0."""
    for k in range(n):
        d = K[k, k]
        if not (d > 0.0 and L[k, k] * L[k, k] >= PIVOT_FLOOR * d):
            return 1.0
    return 0.0


if JIT:
    @entry_kernel
    def dense_cholesky(K, L):
        """The lower Cholesky factor of the symmetric positive definite ``K`` (n x n) into
        ``L`` (n x n, its upper triangle zeroed). Returns 0.0 when it is good; otherwise
        (``dpotrf`` met a pivot that is not positive, or a pivot is below the floor) a non-zero
        status, and the caller factors ``K`` itself."""
        n = K.shape[0]
        for i in range(n):
            for j in range(i + 1):
                L[i, j] = K[i, j]
            for j in range(i + 1, n):
                L[i, j] = 0.0
        info = _potrf(_KIND, _UPPER, n, L.ctypes, n)
        if info != 0:
            return 2.0  # not positive definite (or no LAPACK): the loops' pivot floor
        return _check(K, L, n)
else:
    def dense_cholesky(K, L):
        """As the compiled kernel, with NumPy's LAPACK (``NUMBA_DISABLE_JIT=1``)."""
        n = K.shape[0]
        try:
            L[:, :] = np.linalg.cholesky(K)
        except np.linalg.LinAlgError:
            return 2.0
        return _check(K, L, n)


class SingleThreadedBlas:
    """SciPy's OpenBLAS held to one thread around a step that may call LAPACK's Cholesky.

    OpenBLAS factors a block of 128 rows or more in several threads; on a machine whose cores
    are busy they wait on each other, and ``dpotrf`` of 200 rows took 335 ms instead of 0.18
    (measured on the loaded 2-core machine: ``benchmarks/direct_dense.py``). The blocks of one
    island are small for threads anyway, and the step is single-threaded. So the count is set
    to 1 for the step and put back after it (two calls, about a microsecond, only in worlds
    that use LAPACK); the user's own SciPy calls between steps keep their threads, and NumPy's
    OpenBLAS (a library of its own) is not touched. Where SciPy's BLAS is not an OpenBLAS of
    its wheel (found by name), nothing is limited."""

    def __init__(self):
        self._set = self._get = None
        try:
            import ctypes
            from pathlib import Path

            import scipy
            import scipy.linalg.cython_lapack  # noqa: F401  (loads the library)
            root = Path(scipy.__file__).resolve().parent
            candidates = [*sorted((root.parent / "scipy.libs").glob("*openblas*")),
                          *sorted((root / ".dylibs").glob("*openblas*"))]
            for path in candidates:
                library = ctypes.CDLL(str(path))
                for prefix in ("scipy_openblas", "openblas"):
                    setter = getattr(library, prefix + "_set_num_threads", None)
                    getter = getattr(library, prefix + "_get_num_threads", None)
                    if setter is not None and getter is not None:
                        setter.argtypes, setter.restype = [ctypes.c_int], None
                        getter.argtypes, getter.restype = [], ctypes.c_int
                        self._set, self._get = setter, getter
                        return
        except (ImportError, OSError):
            pass

    def __enter__(self):
        self._was = self._get() if self._get is not None else 0
        if self._was > 1:
            self._set(1)
        return self

    def __exit__(self, *exc):
        if self._was > 1:
            self._set(self._was)
        return False


__all__ = ["dense_cholesky", "PIVOT_FLOOR", "SingleThreadedBlas"]
