"""The ``direct`` solver's equality block: ``A_ee`` factored, and solves with its factor.

An island's joint rows give ``A_ee`` (symmetric, positive definite up to redundant rows:
:mod:`.direct`), factored once per step as ``L L^T`` and then used for ``A_ee^-1 b_e`` and
``A_ee^-1 A_ec`` (the Schur complement). Two factorisations, chosen per island:

* **envelope Cholesky** (written here): row ``i`` of ``A_ee`` is zero left of its first
  non-zero column ``first[i]``, and so is row ``i`` of ``L`` (Cholesky fills nothing outside a
  row's envelope), so the dense algorithm's sums need only run over the columns both rows
  reach. The terms it leaves out are exact zeros, so the factor is the dense algorithm's, bit
  for bit (up to the sign of a zero). Joints are numbered as they were made, so a chain, a
  bridge or a ragdoll has a narrow envelope: the work falls from ``n^3 / 6`` to about
  ``n w^2 / 2`` for envelope width ``w`` (measured: ``benchmarks/direct_sizes.py``).
  A pivot below ``PIVOT_FLOOR`` of its row's diagonal (redundant joints, two pins between the
  same bodies: ``A_ee`` singular) is raised to that floor: a stiff spring of compliance
  ``1e-10 K`` on that row instead of a division by zero (counted: ``regularised_pivots``).
* **LAPACK** (``numpy.linalg.cholesky`` inside Numba, which calls SciPy's ``dpotrf`` through
  ``scipy.linalg.cython_lapack``: blocked, a few times the speed of the loops above) when the
  envelope is wide (a grid of joints, joints made in no particular order) and the block large
  enough to repay the call (:data:`LAPACK_ROWS`, :data:`LAPACK_GAIN`). ``dpotrf`` stops at a
  pivot that is not positive and knows no floor, so a factor it returns with a pivot below the
  floor, or its failure, sends the block to the envelope Cholesky above: redundant joints are
  regularised exactly as before. SciPy is imported by the first LAPACK call (Numba's helper
  library looks the routine up then), not by ``import impulse2d``.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import inner_kernel

PIVOT_FLOOR = 1e-10
"""A Cholesky pivot of ``A_ee`` below this fraction of its row's diagonal is raised to it."""

LAPACK_ROWS = 96
"""An equality block of fewer rows is never handed to LAPACK: below this the envelope loops are
as fast as ``dpotrf`` with its call, copy and check, even on a dense block (measured,
``benchmarks/direct_sizes.py``)."""

REORDER_WORK = 2e4
"""Below this many multiply-adds (about 20 us of envelope loops) the rows keep the order the
joints were made in: reordering would cost more than it saves (and that order keeps the
factor bit-identical to the dense algorithm's)."""

REORDER_GAIN = 2.0
"""The rows are reordered (reverse Cuthill-McKee) only if that divides the envelope work by at
least this."""

LAPACK_GAIN = 4.0
"""LAPACK factors a block when the envelope Cholesky's multiply-adds exceed ``1 / LAPACK_GAIN``
of the dense count ``n^3 / 6``: about how much faster ``dpotrf`` runs than the loops on this
machine's blocks of 100-800 rows (measured)."""


@inner_kernel
def envelope(K):
    """``(first, last, work)`` of the symmetric ``K``: ``first[i]`` the first column of row
    ``i`` with a non-zero entry (``i`` for none left of the diagonal), ``last[j]`` the last row
    whose envelope reaches column ``j``, and ``work`` the envelope Cholesky's multiply-adds."""
    n = K.shape[0]
    first = np.empty(n, dtype=np.int64)
    last = np.arange(n)
    work = 0.0
    for i in range(n):
        f = i
        for j in range(i):
            if K[i, j] != 0.0:
                f = j
                break
        first[i] = f
        for j in range(f, i):
            last[j] = i
        width = float(i - f)
        work += 0.5 * width * width
    return first, last, work


@inner_kernel
def envelope_cholesky(K, first, last, counts, regularised):
    """Lower factor L of the symmetric ``K`` (L L^T = K, up to the pivot floor), in a new
    array, over the envelope ``first``/``last`` (:func:`envelope`). A pivot below
    ``PIVOT_FLOOR`` times its diagonal is raised to that (a zero row, one that moves no body,
    gets 1) and counted in ``counts[regularised]``."""
    n = K.shape[0]
    L = np.zeros((n, n))
    for k in range(n):
        fk = first[k]
        d = K[k, k]
        for p in range(fk, k):
            d -= L[k, p] * L[k, p]
        floor = PIVOT_FLOOR * K[k, k] if K[k, k] > 0.0 else 1.0
        if d < floor:
            d = floor
            counts[regularised] += 1
        pivot = np.sqrt(d)
        L[k, k] = pivot
        for i in range(k + 1, last[k] + 1):
            fi = first[i]
            if fi > k:
                continue  # row i's envelope starts right of column k: L[i, k] = 0
            x = K[i, k]
            for p in range(max(fi, fk), k):
                x -= L[i, p] * L[k, p]
            L[i, k] = x / pivot
    return L


@inner_kernel
def lapack_cholesky(K):
    """``(L, ok)``: LAPACK's lower factor of ``K`` and whether it has every pivot at or above
    the floor (``ok`` False: ``K`` not positive definite to LAPACK, or a pivot below
    ``PIVOT_FLOOR`` times its diagonal; the caller then factors with the floor)."""
    n = K.shape[0]
    try:
        L = np.linalg.cholesky(K)
    except Exception:  # dpotrf met a pivot <= 0 (numpy.linalg.LinAlgError)
        return np.zeros((0, 0)), False
    for k in range(n):
        if not L[k, k] * L[k, k] >= PIVOT_FLOOR * K[k, k]:  # also catches a NaN
            return L, False
    return L, True


@inner_kernel
def pattern(K):
    """The graph of ``K``'s off-diagonal non-zeros, as CSR lists ``(start, neighbour)``."""
    n = K.shape[0]
    start = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        count = 0
        for j in range(n):
            if j != i and K[i, j] != 0.0:
                count += 1
        start[i + 1] = start[i] + count
    neighbour = np.empty(start[n], dtype=np.int64)
    for i in range(n):
        e = start[i]
        for j in range(n):
            if j != i and K[i, j] != 0.0:
                neighbour[e] = j
                e += 1
    return start, neighbour


@inner_kernel
def reverse_cuthill_mckee(start, neighbour):
    """An order of the rows that keeps the envelope narrow (Cuthill and McKee 1969, reversed as
    George 1971): breadth first from a row of least degree, each row's new neighbours by
    increasing degree, the whole order reversed; one component after another. ``order[k]`` is
    the row put in place ``k``."""
    n = start.shape[0] - 1
    order = np.empty(n, dtype=np.int64)
    placed = np.zeros(n, dtype=np.bool_)
    head = 0
    tail = 0
    while tail < n:
        s = -1
        for i in range(n):
            if not placed[i] and (s < 0 or start[i + 1] - start[i] < start[s + 1] - start[s]):
                s = i
        placed[s] = True
        order[tail] = s
        tail += 1
        while head < tail:
            v = order[head]
            head += 1
            fresh = tail
            for e in range(start[v], start[v + 1]):
                u = neighbour[e]
                if not placed[u]:
                    placed[u] = True
                    order[tail] = u
                    tail += 1
            for a in range(fresh + 1, tail):   # insertion sort by degree: a row has few
                x = order[a]
                b = a - 1
                while b >= fresh and (start[order[b] + 1] - start[order[b]]
                                      > start[x + 1] - start[x]):
                    order[b + 1] = order[b]
                    b -= 1
                order[b + 1] = x
    reverse = np.empty(n, dtype=np.int64)
    for k in range(n):
        reverse[k] = order[n - 1 - k]
    return reverse


@inner_kernel
def envelope_work(start, neighbour, order):
    """The envelope Cholesky's multiply-adds (as :func:`envelope`'s ``work``) for the rows
    taken in ``order``, from the graph alone."""
    n = order.shape[0]
    place = np.empty(n, dtype=np.int64)
    for k in range(n):
        place[order[k]] = k
    work = 0.0
    for k in range(n):
        f = k
        v = order[k]
        for e in range(start[v], start[v + 1]):
            f = min(f, place[neighbour[e]])
        width = float(k - f)
        work += 0.5 * width * width
    return work


@inner_kernel
def factor(K, counts, regularised):
    """``(L, first, last, order, lapack)``: the lower Cholesky factor of the equality block ``K`` with
    its rows taken in ``order`` (``L L^T = K[order][:, order]``) and the envelope its solves
    may use (the whole lower triangle for a LAPACK factor, ``lapack`` True). The rows are reordered only when
    that narrows the envelope by :data:`REORDER_GAIN`; LAPACK factors where it pays, the
    envelope loops otherwise (see the module doc)."""
    n = K.shape[0]
    first, last, work = envelope(K)
    order = np.arange(n)
    if work > REORDER_WORK:
        start, neighbour = pattern(K)
        candidate = reverse_cuthill_mckee(start, neighbour)
        if REORDER_GAIN * envelope_work(start, neighbour, candidate) < work:
            order = candidate
            permuted = np.empty((n, n))
            for i in range(n):
                for j in range(n):
                    permuted[i, j] = K[order[i], order[j]]
            K = permuted
            first, last, work = envelope(K)
    if n >= LAPACK_ROWS and LAPACK_GAIN * work > n * n * n / 6.0:
        L, ok = lapack_cholesky(K)
        if ok:
            return (L, np.zeros(n, dtype=np.int64), np.full(n, n - 1, dtype=np.int64), order,
                    True)
    return envelope_cholesky(K, first, last, counts, regularised), first, last, order, False


@inner_kernel
def solve(L, first, last, order, x):
    """Solve ``K y = x`` in place, ``L`` the factor of ``K[order][:, order]`` over the
    envelope ``first``/``last`` (:func:`factor`)."""
    n = L.shape[0]
    y = np.empty(n)
    for k in range(n):
        y[k] = x[order[k]]
    for i in range(n):
        s = y[i]
        for p in range(first[i], i):
            s -= L[i, p] * y[p]
        y[i] = s / L[i, i]
    for i in range(n - 1, -1, -1):
        s = y[i]
        for p in range(i + 1, last[i] + 1):
            s -= L[p, i] * y[p]
        y[i] = s / L[i, i]
    for k in range(n):
        x[order[k]] = y[k]
