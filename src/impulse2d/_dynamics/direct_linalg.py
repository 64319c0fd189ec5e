"""The ``direct`` solver's equality block: ``A_ee`` factored, and solves with its factor.

An island's joint rows give ``A_ee`` (symmetric, positive definite up to redundant rows:
:mod:`.direct`), factored once per step as ``L L^T`` and then used for ``A_ee^-1 b_e`` and
``A_ee^-1 A_ec`` (the Schur complement).

**Envelope Cholesky.** Row ``i`` of ``A_ee`` is zero left of its first non-zero column
``first[i]``, and so is row ``i`` of ``L`` (Cholesky fills nothing outside a row's envelope),
so the dense algorithm's sums need only run over the columns both rows reach. The terms left
out are exact zeros, so the factor is the dense algorithm's bit for bit (up to the sign of a
zero: trajectories of chains, bridges, ragdolls and piles are unchanged, hashed). Joint rows
are numbered as the joints were made, so a chain, a bridge or a ragdoll has a narrow envelope
and its work falls from ``n^3 / 6`` to about ``n w^2 / 2`` for envelope width ``w``.

**Reordering.** Joints made in another order (a chain's joints in random order, a net's
horizontal joints before its vertical ones) spread the envelope over the whole block. When
its work is large and mostly zeros, the rows are reordered by reverse Cuthill-McKee (a
breadth-first order of the rows' graph), which brings a chain back to a band of width 2 and
a net to about its side; the order is kept only if it divides the work by
:data:`REORDER_GAIN`. Which of two redundant rows carries a load depends on the order (below).

**Pivot floor.** A pivot below ``PIVOT_FLOOR`` of its row's diagonal (redundant joints, two
pins between the same bodies: ``A_ee`` singular) is raised to that floor: a stiff spring of
compliance ``1e-10 K`` on that row instead of a division by zero (counted:
``regularised_pivots``).

**Not here: LAPACK and SciPy's sparse solvers** (measured, ``benchmarks/direct_sizes.py``,
BENCHMARKS.md). SciPy's ``dpotrf`` called inside Numba (as ``numpy.linalg.cholesky`` is, or
directly through Numba's helper library) factors a dense block 4 to 12 times faster than these
loops (single-threaded BLAS; no faster with OpenBLAS's threads on a loaded 2-core machine), but
with that call compiled into the island solve, Lemke's pivoting on contact islands ran 33-40 %
slower (pyramid of base 4: 0.94 -> 1.25 ms a step; base 6: 27 -> 38 ms), whether or not the
call was made; and after reordering only a dense block (one body with dozens of joints) is
left for it. ``scipy.sparse.linalg.splu`` cannot run inside a kernel: a step split around it
would pay a round trip to Python, and at 800 rows the envelope factor and solve (0.47 ms) is
already below splu's assembly, factor and solve (0.80 ms). Above about 1000 rows what costs is
the island's dense ``n x n`` assembly (32 MB a matrix at 2000 rows), not the factor.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import inner_kernel

PIVOT_FLOOR = 1e-10
"""A Cholesky pivot of ``A_ee`` below this fraction of its row's diagonal is raised to it."""

REORDER_WORK = 2e4
"""Below this many multiply-adds (about 20 us of envelope loops) the rows keep the order the
joints were made in: reordering would cost more than it saves (and that order keeps the
factor bit-identical to the dense algorithm's)."""

REORDER_FILL = 0.5
"""Nor when at least this fraction of the envelope is non-zero already (a dense block: a hub
with many joints), where no order can narrow it much."""

REORDER_GAIN = 2.0
"""The rows are reordered (reverse Cuthill-McKee) only if that divides the envelope work by at
least this."""

@inner_kernel
def envelope(K):
    """``(first, last, work, fill)`` of the symmetric ``K``: ``first[i]`` the first column of
    row ``i`` with a non-zero entry (``i`` for none left of the diagonal), ``last[j]`` the last
    row whose envelope reaches column ``j``, ``work`` the envelope Cholesky's multiply-adds and
    ``fill`` the fraction of the envelope's entries left of the diagonal that are non-zero."""
    n = K.shape[0]
    first = np.empty(n, dtype=np.int64)
    last = np.arange(n)
    work = 0.0
    size = 0
    nonzero = 0
    for i in range(n):
        f = i
        for j in range(i):
            if K[i, j] != 0.0:
                f = j
                break
        first[i] = f
        for j in range(f, i):
            last[j] = i
            if K[i, j] != 0.0:
                nonzero += 1
        size += i - f
        width = float(i - f)
        work += 0.5 * width * width
    fill = nonzero / size if size > 0 else 1.0
    return first, last, work, fill


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
    """``(L, first, last, order)``: the lower Cholesky factor of the equality block ``K`` with
    its rows taken in ``order`` (``L L^T = K[order][:, order]``, up to the pivot floor) and the
    envelope its solves use. The rows are reordered only when that narrows the envelope by
    :data:`REORDER_GAIN` (see the module doc)."""
    n = K.shape[0]
    first, last, work, fill = envelope(K)
    order = np.arange(n)
    if work > REORDER_WORK and fill < REORDER_FILL:
        start, neighbour = pattern(K)
        candidate = reverse_cuthill_mckee(start, neighbour)
        if REORDER_GAIN * envelope_work(start, neighbour, candidate) < work:
            order = candidate
            permuted = np.empty((n, n))
            for i in range(n):
                for j in range(n):
                    permuted[i, j] = K[order[i], order[j]]
            K = permuted
            first, last, work, fill = envelope(K)
    return envelope_cholesky(K, first, last, counts, regularised), first, last, order


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
