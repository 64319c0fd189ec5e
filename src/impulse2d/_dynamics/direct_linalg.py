"""The ``direct`` solver's equality block: ``A_ee`` factored, and solves with its factor.

An island's joint rows give ``A_ee`` (symmetric, positive definite up to redundant rows:
:mod:`.direct`), factored once per step as ``L L^T`` and then used for ``A_ee^-1 b_e`` and
``A_ee^-1 A_ec`` (the Schur complement).

**Storage.** ``A_ee`` comes in as CSR (each row's non-zero columns, increasing): a joint row
meets only the rows of its own bodies, so an island of joints alone is assembled without any
``n x n`` array (:func:`.direct._assemble_sparse`), and its time and memory grow with the
rows, not their square. The factor is kept by rows over the envelope (a skyline:
:func:`skyline`).

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

**LAPACK for dense blocks.** A block the envelope cannot thin (one body with dozens of
joints) is factored by LAPACK's ``dpotrf`` (SciPy's, :mod:`.direct_dense`), 2 to 24 times
faster than these loops from 24 to 800 rows (one BLAS thread), when its envelope work is above
:data:`DENSE_WORK` and at least ``1 / DENSE_SPEEDUP`` of the dense work. That kernel is compiled
on its own and called by address, because compiled into the island solve the call made Lemke's
pivoting on contact islands 33-40 % slower whether or not it was made (measured); and only once
a world has such a block. Its factor differs from the loops' in the last bits (2e-17 m in
positions after 60 steps of a hub with 40 bobs, measured); a block it finds singular or below
the pivot floor goes back to the loops.

**Not here: SciPy's sparse solvers** (measured, ``benchmarks/direct_sparse.py``).
``scipy.sparse.linalg.splu`` cannot run inside a kernel: a step split around it would pay a
round trip to Python, and at 800 rows of a chain the envelope factor and solve (0.47 ms) is
already below splu's assembly, factor and solve (0.80 ms).
"""

from __future__ import annotations

import numpy as np

from .._core.jit import inner_kernel
from .verbs import call_dense

PIVOT_FLOOR = 1e-10
"""A Cholesky pivot of ``A_ee`` below this fraction of its row's diagonal is raised to it."""

REORDER_WORK = 2e4
"""Below this many multiply-adds (about 20 us of envelope loops) the rows keep the order the
joints were made in: reordering would cost more than it saves (and that order keeps the
factor bit-identical to the dense algorithm's)."""

REORDER_FILL = 0.5
"""Nor when at least this fraction of the envelope is non-zero already (a dense block: a hub
with many joints), where no order can narrow it much."""

DENSE_WORK = 1e4
"""LAPACK (:mod:`.direct_dense`) factors a block only above this many multiply-adds of the
envelope loops (about 40 dense rows). Measured (``benchmarks/direct_dense.py``, one thread): a
dense block of 24 / 48 / 100 / 400 rows, loops 2.9 / 19 / 150 / 26,000 us, LAPACK 2.1 / 8.6 /
40 / 1,080 us; below about 20 rows its call and copy cost what it saves."""

DENSE_SPEEDUP = 4.0
"""...and only when the loops' envelope work is at least ``1 / DENSE_SPEEDUP`` of the dense
algorithm's (``n^3 / 6``): LAPACK does the whole triangle 2-24 times faster than the loops do
it (growing with the size), so a sparser envelope stays with the loops (measured: a band of
half-width n/4, a sixth of the dense work, 200 rows: loops 254 us, LAPACK 221 us)."""

REORDER_GAIN = 2.0
"""The rows are reordered (reverse Cuthill-McKee) only if that divides the envelope work by at
least this."""

@inner_kernel
def from_dense(K):
    """The non-zero entries of the square ``K`` as CSR ``(start, column, value)``, each row's
    columns increasing."""
    n = K.shape[0]
    start = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        count = 0
        for j in range(n):
            if K[i, j] != 0.0:
                count += 1
        start[i + 1] = start[i] + count
    column = np.empty(start[n], dtype=np.int64)
    value = np.empty(start[n])
    e = 0
    for i in range(n):
        for j in range(n):
            if K[i, j] != 0.0:
                column[e] = j
                value[e] = K[i, j]
                e += 1
    return start, column, value


@inner_kernel
def sort_row(column, value, lo, hi):
    """Sort the entries ``lo:hi`` of a CSR row by column, in place (insertion sort for a short
    row, a joint's: a few bodies' rows; heapsort for a long one, a hub's). A row's columns are
    distinct, so any sort gives the one order (a stable argsort's). Hand-written: NumPy's
    merge sort (``np.argsort(kind="mergesort")``, its only use in the kernels) was 0.7 s of
    the island solve's compile CPU (``benchmarks/compile_table.py``, load 20, 2026-12-02)."""
    if hi - lo <= 32:
        for a in range(lo + 1, hi):
            c = column[a]
            v = value[a]
            b = a - 1
            while b >= lo and column[b] > c:
                column[b + 1] = column[b]
                value[b + 1] = value[b]
                b -= 1
            column[b + 1] = c
            value[b + 1] = v
        return
    # Heapsort (a max-heap at lo): the first n // 2 passes build it, sifting down each parent;
    # each later pass moves the largest entry to the heap's end and sifts the new root down.
    size = hi - lo
    build = size // 2
    while True:
        if build > 0:
            build -= 1
            i = build
        else:
            size -= 1
            if size == 0:
                return
            c = column[lo]
            column[lo] = column[lo + size]
            column[lo + size] = c
            v = value[lo]
            value[lo] = value[lo + size]
            value[lo + size] = v
            i = 0
        c = column[lo + i]
        v = value[lo + i]
        child = 2 * i + 1
        while child < size:
            if child + 1 < size and column[lo + child + 1] > column[lo + child]:
                child += 1
            if column[lo + child] <= c:
                break
            column[lo + i] = column[lo + child]
            value[lo + i] = value[lo + child]
            i = child
            child = 2 * i + 1
        column[lo + i] = c
        value[lo + i] = v


@inner_kernel
def envelope(start, column, value):
    """``(first, last, work, fill)`` of the symmetric matrix ``(start, column, value)`` (CSR,
    rows sorted): ``first[i]`` the first column of row ``i`` with a non-zero entry (``i`` for
    none left of the diagonal), ``last[j]`` the last row whose envelope reaches column ``j``,
    ``work`` the envelope Cholesky's multiply-adds and ``fill`` the fraction of the envelope's
    entries left of the diagonal that are non-zero."""
    n = start.shape[0] - 1
    first = np.empty(n, dtype=np.int64)
    last = np.arange(n)
    work = 0.0
    size = 0
    nonzero = 0
    for i in range(n):
        f = i
        for e in range(start[i], start[i + 1]):
            j = column[e]
            if j >= i:
                break
            if value[e] != 0.0:
                if f == i:
                    f = j
                nonzero += 1
        first[i] = f
        size += i - f
        width = float(i - f)
        work += 0.5 * width * width
    for i in range(n):   # rows in increasing order: last[j] ends as the last row reaching j
        for j in range(first[i], i):
            last[j] = i
    fill = nonzero / size if size > 0 else 1.0
    return first, last, work, fill


@inner_kernel
def pattern(start, column, value):
    """The graph of the off-diagonal non-zeros, as CSR lists ``(start, neighbour)``."""
    n = start.shape[0] - 1
    out = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        count = 0
        for e in range(start[i], start[i + 1]):
            if column[e] != i and value[e] != 0.0:
                count += 1
        out[i + 1] = out[i] + count
    neighbour = np.empty(out[n], dtype=np.int64)
    for i in range(n):
        k = out[i]
        for e in range(start[i], start[i + 1]):
            if column[e] != i and value[e] != 0.0:
                neighbour[k] = column[e]
                k += 1
    return out, neighbour


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
def permute(start, column, value, order):
    """The CSR matrix with its rows and columns taken in ``order`` (``K[order][:, order]``)."""
    n = order.shape[0]
    place = np.empty(n, dtype=np.int64)
    for k in range(n):
        place[order[k]] = k
    out = np.zeros(n + 1, dtype=np.int64)
    for k in range(n):
        v = order[k]
        out[k + 1] = out[k] + start[v + 1] - start[v]
    new_column = np.empty(out[n], dtype=np.int64)
    new_value = np.empty(out[n])
    for k in range(n):
        v = order[k]
        e = out[k]
        for f in range(start[v], start[v + 1]):
            new_column[e] = place[column[f]]
            new_value[e] = value[f]
            e += 1
        sort_row(new_column, new_value, out[k], out[k + 1])
    return out, new_column, new_value


@inner_kernel
def skyline(start, column, value, first):
    """``(row, sky)``: the lower triangle of the CSR matrix over the envelope ``first``, row
    ``i``'s columns ``first[i]..i`` at ``sky[row[i]:row[i + 1]]`` (zeros where it has none)."""
    n = first.shape[0]
    row = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        row[i + 1] = row[i] + i - first[i] + 1
    sky = np.zeros(row[n])
    for i in range(n):
        base = row[i] - first[i]
        for e in range(start[i], start[i + 1]):
            j = column[e]
            if j > i:
                break
            if j >= first[i]:   # left of it only exact zeros
                sky[base + j] = value[e]
    return row, sky


@inner_kernel
def envelope_cholesky(row, sky, first, last, counts, regularised):
    """The lower factor L of the symmetric matrix in ``sky`` (:func:`skyline`: its lower
    triangle over the envelope ``first``/``last``), in place: ``L L^T = K`` up to the pivot
    floor. A pivot below ``PIVOT_FLOOR`` times its diagonal is raised to that (a zero row, one
    that moves no body, gets 1) and counted in ``counts[regularised]``. The dense algorithm's
    sums, over the columns both rows reach (the terms left out are exact zeros)."""
    n = first.shape[0]
    for k in range(n):
        fk = first[k]
        bk = row[k] - fk          # sky[bk + p] = L[k, p]
        diagonal = sky[bk + k]    # K[k, k] until this step writes L[k, k]
        d = diagonal
        for p in range(fk, k):
            d -= sky[bk + p] * sky[bk + p]
        floor = PIVOT_FLOOR * diagonal if diagonal > 0.0 else 1.0
        if d < floor:
            d = floor
            counts[regularised] += 1
        pivot = np.sqrt(d)
        sky[bk + k] = pivot
        for i in range(k + 1, last[k] + 1):
            fi = first[i]
            if fi > k:
                continue  # row i's envelope starts right of column k: L[i, k] = 0
            bi = row[i] - fi
            x = sky[bi + k]
            for p in range(max(fi, fk), k):
                x -= sky[bi + p] * sky[bk + p]
            sky[bi + k] = x / pivot


@inner_kernel
def factor(start, column, value, counts, regularised, dense):
    """``(row, sky, first, last, order)``: the lower Cholesky factor of the equality block
    ``K`` (CSR ``start``, ``column``, ``value``, rows sorted) with its rows taken in ``order``
    (``L L^T = K[order][:, order]``, up to the pivot floor), over the envelope ``first``/
    ``last``, stored by rows (:func:`skyline`). The rows are reordered only when that narrows
    the envelope by :data:`REORDER_GAIN` (see the module doc). A block whose envelope stays
    nearly full is given to LAPACK (:data:`DENSE_WORK`, :data:`DENSE_SPEEDUP`) through the
    address in ``dense[0]`` (the world's slot :data:`~.verbs.DIRECT_DENSE`): 0 there means the
    world has not asked for it yet, and it is asked for (-1) while this block is factored
    here."""
    n = start.shape[0] - 1
    first, last, work, fill = envelope(start, column, value)
    order = np.arange(n)
    if work > REORDER_WORK and fill < REORDER_FILL:
        graph, neighbour = pattern(start, column, value)
        candidate = reverse_cuthill_mckee(graph, neighbour)
        if REORDER_GAIN * envelope_work(graph, neighbour, candidate) < work:
            order = candidate
            start, column, value = permute(start, column, value, order)
            first, last, work, fill = envelope(start, column, value)
    if work > DENSE_WORK and DENSE_SPEEDUP * work >= (n - 1.0) * n * (2.0 * n - 1.0) / 12.0:
        address = dense[0]
        if address == 0:
            dense[0] = -1
        elif address != -1:
            K = np.zeros((n, n))
            for i in range(n):
                for e in range(start[i], start[i + 1]):
                    K[i, column[e]] = value[e]
            L = np.empty((n, n))
            if call_dense(address, (K, L)) == 0.0:
                row = np.zeros(n + 1, dtype=np.int64)
                for i in range(n):
                    first[i] = 0
                    last[i] = n - 1
                    row[i + 1] = row[i] + i + 1
                sky = np.empty(row[n])
                for i in range(n):
                    for j in range(i + 1):
                        sky[row[i] + j] = L[i, j]
                return row, sky, first, last, order
    row, sky = skyline(start, column, value, first)
    envelope_cholesky(row, sky, first, last, counts, regularised)
    return row, sky, first, last, order


@inner_kernel
def solve(row, sky, first, last, order, x):
    """Solve ``K y = x`` in place, ``(row, sky)`` the factor of ``K[order][:, order]`` over
    the envelope ``first``/``last`` (:func:`factor`)."""
    n = first.shape[0]
    y = np.empty(n)
    for k in range(n):
        y[k] = x[order[k]]
    for i in range(n):
        b = row[i] - first[i]
        s = y[i]
        for p in range(first[i], i):
            s -= sky[b + p] * y[p]
        y[i] = s / sky[b + i]
    for i in range(n - 1, -1, -1):
        s = y[i]
        for p in range(i + 1, last[i] + 1):
            if first[p] <= i:
                s -= sky[row[p] - first[p] + i] * y[p]
        y[i] = s / sky[row[i] - first[i] + i]
    for k in range(n):
        x[order[k]] = y[k]
