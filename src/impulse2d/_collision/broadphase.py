"""Broadphase: every pair of enabled proxies whose axis-aligned boxes overlap.

Algorithm: a hashed uniform grid, plus a band sweep for the few large proxies
-----------------------------------------------------------------------------
1. **Cell size.** ``cell = CELL_SCALE * median(max(width, height))`` over the live boxes (lower
   median, by quickselect). If that is not a positive finite number (most boxes have zero size)
   the fallback is ``span of the box centres / sqrt(n)``, then ``1.0``.
2. **Cell ranges.** A box covers cells ``floor((min - o) / cell) .. floor((max - o) / cell)`` per
   axis, clamped to ``[-2**30, 2**30)``; ``o`` is the lowest corner among boxes that may be small.
   The map ``x -> clamped cell index`` is monotonic, which is all that correctness needs: the
   clamp (huge or very far boxes) only makes edge cells coarser, it never loses a pair.
3. **Small / large split.** A proxy covering more than ``LARGE_CELLS`` cells (a 220 m ground box,
   a 10 km segment) is *large* and stays out of the grid, so a few huge static shapes never blow
   up the cell lists.
4. **Grid pairs, small x small.** Each small proxy emits one entry per covered cell. Entries are
   bucketed by a counting sort on a hash of the 62-bit cell key (Fibonacci hashing into a
   power-of-two table of at least ``entries`` buckets, so memory is ``O(entries)`` however far
   apart the boxes are; an entry keeps its exact key, so cells sharing a bucket are told apart).
   In a bucket, every two entries of the same cell are tested, and an overlapping pair is
   reported only in the one cell holding the lower-left corner of the two boxes' intersection,
   ``(max(min x), max(min y))``. By monotonicity that cell is ``(max(cx0_a, cx0_b),
   max(cy0_a, cy0_b))`` in integers, so each pair comes out exactly once with no dedupe pass.
5. **Large pairs.** The small proxies are stably sorted on min x and on min y, each with a running
   maximum of the max coordinate. For a large proxy the candidate window on an axis is exact and
   comparison-only (no epsilon): from the first position whose running max reaches the large
   box's min to the last position whose min is <= the large box's max. The axis with the
   shorter window is scanned (a ground box scans the bottom row, a wall its column). Large x
   large pairs come from a sweep-and-prune on x.
6. **Output.** Pair finding writes into a buffer of ``8 n + 64`` and counts past its end; a scene
   with more pairs runs once more with the exact size. Pairs are counting-sorted on the first
   index, then each (usually tiny) group on the second: lexicographic order without a global
   ``O(m log m)`` sort.
7. **Exclusions.** Two proxies with the same ``owner`` (the shapes of one body) or the same
   negative ``group`` (Box2D's "never collide" groups) are never a pair. The sort and sweep
   skips them as it goes; the grid drops them before ordering its output. A hanging chain or a
   ragdoll in one negative group then gives the narrowphase nothing to sort or filter.

Everything is deterministic (integer keys, fixed traversal order, no threads, no fastmath), so
the same input gives the same array bit for bit. Overlap is on closed intervals: boxes that only
touch are a pair. Rows with ``min > max`` or a NaN (the world's ``(inf, inf, -inf, -inf)``
placeholder) are empty and pair with nothing; infinite coordinates are fine.

Why this one (measured)
-----------------------
Against a plain sweep-and-prune on x (sort on min x, scan forward while ``min x <= max x``,
test y; written in Numba for the comparison), on the scenes of ``benchmarks/bench_broadphase.py``,
interleaved runs on the 2-core dev container, ms per call over 100 calls after a warm-up, median
(min). The container was shared with other jobs, so absolute numbers moved by up to 2x between
runs; the ratio held in every run:

================================  ======  ============  =================
scene                             pairs   grid (this)   sweep-and-prune x
================================  ======  ============  =================
20,000 random boxes, 400 m        7380    6.7 (5.2)     13.0 (10.7)
5050-box pyramid + ground box     14950   1.5 (1.1)     5.4 (4.5)
2000 circles r=0.25 in 40 m box   5886    0.75 (0.54)   1.4 (1.2)
================================  ======  ============  =================

Sweep-and-prune pays for the full sort and for long x windows in stacked scenes (a pyramid
column shares its x range with up to 100 boxes); the grid's work is proportional to its entries.
``CELL_SCALE`` from 1.5 to 4 moved the times by at most ~30 %; 3 was best or within 10 % on the
three scenes and on 20,000 boxes of mixed sizes (0.1-4 m), so it is the default. Other cases:
a 10 km segment under 5000 boxes, 2.3 ms; 50,000 random boxes in 2 km, 8-17 ms; 2000 identical
boxes (1,999,000 pairs), 0.17 s. No BVH: the pair set is rebuilt from scratch on each call,
and a grid needs no tree construction.

Complexity
----------
With ``n`` live proxies, ``E`` grid entries (at most ``LARGE_CELLS`` per proxy, about ``2 n``
for boxes of the median size), ``L`` large proxies, ``k`` entries per cell and ``m`` pairs:
``O(n + E + sum over cells of k**2)`` for the grid (``O(n)`` expected while the density is
bounded), ``O(n log n)`` for the two sorts and ``L * window`` for the large proxies (only when
``L > 0``; ``window`` is ``O(n)`` at worst), ``O(L log L + L * overlaps)`` for large x large, and
``O(n + m)`` plus the per-group sorts for the output. Memory ``O(n + E + m)``.

Limitations: boxes piled in one spot cost ``k**2`` (so does their output). A scene of mostly
tiny boxes with many mid-sized ones covering > ``LARGE_CELLS`` cells sends those down the large
path, whose cost grows like ``L * window``: still exact, just slower. Single-threaded.
"""

from __future__ import annotations

import numpy as np

from impulse2d._core.jit import inline_kernel, inner_kernel, kernel, stage_kernel

CELL_SCALE = 3.0
"""Cell edge = ``CELL_SCALE * median(max(width, height))`` of the enabled boxes."""

LARGE_CELLS = 64
"""A proxy covering more cells than this goes to the large list (sweep), not into the grid."""

SWEEP_BELOW = 128
"""Up to this many live boxes a sort and sweep along one axis finds the pairs: for 101 links of
a chain it takes about 5 us where the grid takes about 20 us and testing all 5,050 pairs 39 us
(measured on the 2-core CI machine)."""

_LIM = 1 << 30  # cell indices are clamped to [-_LIM, _LIM) so a key packs into 62 bits
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)

_EMPTY_PAIRS = np.empty((0, 2), dtype=np.int64)


# --------------------------------------------------------------------------- small helpers


@inner_kernel
def _cell_index(x, origin, cell, lim):
    """Monotonic, clamped map from a coordinate to a cell index in ``[-lim, lim)``."""
    v = np.floor((x - origin) / cell)
    if not (v >= -lim):  # also catches NaN
        return -lim
    if v > lim - 1:
        return lim - 1
    return np.int64(v)


@inner_kernel
def _first_at_least(values, x):
    """First index ``k`` with ``values[k] >= x`` in a non-decreasing array (len if none)."""
    lo = 0
    hi = values.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if values[mid] >= x:
            hi = mid
        else:
            lo = mid + 1
    return lo


@inner_kernel
def _first_greater(values, x):
    """First index ``k`` with ``values[k] > x`` in a non-decreasing array (len if none)."""
    lo = 0
    hi = values.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if values[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


@inner_kernel
def _select(values, k):
    """The k-th smallest of ``values`` (0-based); reorders ``values`` in place (quickselect).

    Hand-written instead of ``np.median`` / ``np.partition`` to keep compile time down.
    """
    lo = 0
    hi = values.shape[0] - 1
    while hi > lo:
        # median of three as pivot, Hoare partition (equal keys split evenly)
        mid = (lo + hi) >> 1
        a = values[lo]
        b = values[mid]
        c = values[hi]
        if a < b:
            pivot = b if b < c else (c if a < c else a)
        else:
            pivot = a if a < c else (c if b < c else b)
        i = lo
        j = hi
        while i <= j:
            while values[i] < pivot:
                i += 1
            while values[j] > pivot:
                j -= 1
            if i <= j:
                tmp = values[i]
                values[i] = values[j]
                values[j] = tmp
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return values[k]
    return values[k]


@inner_kernel
def _argsort_stable(keys):
    """Stable ascending argsort (bottom-up merge sort); hand-written for compile time."""
    n = keys.shape[0]
    src = np.empty(n, dtype=np.int64)
    for u in range(n):  # (a loop, not np.arange: one array constructor less to compile)
        src[u] = u
    dst = np.empty(n, dtype=np.int64)
    # insertion-sort runs of 16, then merge
    run = 16
    for s in range(0, n, run):
        e = min(s + run, n)
        for u in range(s + 1, e):
            x = src[u]
            kx = keys[x]
            v = u - 1
            while v >= s and keys[src[v]] > kx:
                src[v + 1] = src[v]
                v -= 1
            src[v + 1] = x
    width = run
    while width < n:
        for s in range(0, n, 2 * width):
            mid = min(s + width, n)
            e = min(s + 2 * width, n)
            i = s
            j = mid
            for o in range(s, e):
                if i < mid and (j >= e or keys[src[i]] <= keys[src[j]]):
                    dst[o] = src[i]
                    i += 1
                else:
                    dst[o] = src[j]
                    j += 1
        tmp = src
        src = dst
        dst = tmp
        width *= 2
    return src


@inner_kernel
def sort_keys(keys, count):
    """Sort ``keys[:count]`` (int64: pair keys, contact rows) ascending in place: an insertion
    sort for a few (a moved box's pairs come out nearly in order), else :func:`_argsort_stable`.
    Hand-written like it: Numba's ``ndarray.sort`` compiled its quicksort into the pair search,
    about 2.7 s of CPU of its compile (measured, ``benchmarks/pair_compile.py``)."""
    if count <= 32:
        for u in range(1, count):
            x = keys[u]
            v = u - 1
            while v >= 0 and keys[v] > x:
                keys[v + 1] = keys[v]
                v -= 1
            keys[v + 1] = x
        return
    order = _argsort_stable(keys[:count])
    ordered = np.empty(count, dtype=np.int64)
    for u in range(count):
        ordered[u] = keys[order[u]]
    for u in range(count):
        keys[u] = ordered[u]


@inner_kernel
def holds_key(keys, key):
    """Whether the ascending ``keys`` hold ``key`` (binary search; not ``np.searchsorted``,
    whose generic implementation is a compile of its own)."""
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo < keys.shape[0] and keys[lo] == key


@inner_kernel
def _choose_cell(bx0, by0, bx1, by1, cell_scale):
    """Cell edge from the median box extent, with fallbacks for degenerate inputs."""
    m = bx0.shape[0]
    ext = np.empty(m, dtype=np.float64)
    for k in range(m):
        ext[k] = max(bx1[k] - bx0[k], by1[k] - by0[k])
    cell = cell_scale * _select(ext, (m - 1) // 2)
    if cell > 0.0 and cell < np.inf:
        return cell
    # Most boxes are points: aim at about one box per cell over the spread of the centres.
    lox = np.inf
    loy = np.inf
    hix = -np.inf
    hiy = -np.inf
    for k in range(m):
        cx = 0.5 * (bx0[k] + bx1[k])
        cy = 0.5 * (by0[k] + by1[k])
        lox = min(lox, cx)
        loy = min(loy, cy)
        hix = max(hix, cx)
        hiy = max(hiy, cy)
    cell = max(hix - lox, hiy - loy) / np.sqrt(m)
    if cell > 0.0 and cell < np.inf:
        return cell
    return 1.0


# --------------------------------------------------------------------------- grid (small x small)


@inner_kernel
def _grid_pairs(bx0, by0, bx1, by1, cx0, cy0, cx1, cy1, small_ids, pa, pb, count):
    """Small x small pairs by a hashed uniform grid.

    Writes pairs ``(a, b)``, ``a < b``, to ``pa[count:]``, ``pb[count:]`` while there is room and
    returns the new count, which may exceed the capacity (the caller then retries with room).
    """
    lim = np.int64(_LIM)
    cap = pa.shape[0]
    ns = small_ids.shape[0]
    n_entries = 0
    for t in range(ns):
        k = small_ids[t]
        n_entries += (cx1[k] - cx0[k] + 1) * (cy1[k] - cy0[k] + 1)
    if n_entries < 2:
        return count

    bits = 1
    while (np.int64(1) << bits) < n_entries:
        bits += 1
    n_buckets = np.int64(1) << bits
    shift = np.uint64(64 - bits)

    # counting sort of the entries on their bucket; entries are generated twice (count, place)
    # instead of being stored, to keep the working set small
    pos = np.zeros(n_buckets + 1, dtype=np.int64)
    for t in range(ns):
        k = small_ids[t]
        for ix in range(cx0[k], cx1[k] + 1):
            hi = (ix + lim) << 31
            for iy in range(cy0[k], cy1[k] + 1):
                h = np.int64((np.uint64(hi | (iy + lim)) * _GOLDEN) >> shift)
                pos[h] += 1
    for h in range(n_buckets):
        pos[h + 1] += pos[h]  # pos[h] = end of bucket h
    s_key = np.empty(n_entries, dtype=np.int64)
    s_proxy = np.empty(n_entries, dtype=np.int64)
    for t in range(ns - 1, -1, -1):
        k = small_ids[t]
        for ix in range(cx0[k], cx1[k] + 1):
            hi = (ix + lim) << 31
            for iy in range(cy0[k], cy1[k] + 1):
                key = hi | (iy + lim)
                h = np.int64((np.uint64(key) * _GOLDEN) >> shift)
                p = pos[h] - 1
                pos[h] = p
                s_key[p] = key
                s_proxy[p] = k
    for h in range(n_buckets):
        s = pos[h]
        t_end = pos[h + 1]
        if t_end - s < 2:
            continue
        for u in range(s, t_end - 1):
            key = s_key[u]
            a = s_proxy[u]
            ax0 = bx0[a]
            ay0 = by0[a]
            ax1 = bx1[a]
            ay1 = by1[a]
            ccx = cx0[a]
            ccy = cy0[a]
            for v in range(u + 1, t_end):
                if s_key[v] != key:
                    continue
                b = s_proxy[v]
                if bx0[b] <= ax1 and ax0 <= bx1[b] and by0[b] <= ay1 and ay0 <= by1[b]:
                    kx = max(ccx, cx0[b])
                    ky = max(ccy, cy0[b])
                    if (((kx + lim) << 31) | (ky + lim)) == key:
                        if count < cap:
                            pa[count] = a
                            pb[count] = b
                        count += 1
    return count


# --------------------------------------------------------------------------- large proxies


@inner_kernel
def _sorted_axis(lo, hi, small_ids):
    """Small proxies sorted on ``lo``, their sorted ``lo`` and the running max of ``hi``."""
    ns = small_ids.shape[0]
    keys = np.empty(ns, dtype=np.float64)
    for t in range(ns):
        keys[t] = lo[small_ids[t]]
    order = _argsort_stable(keys)
    ids = np.empty(ns, dtype=np.int64)
    lo_sorted = np.empty(ns, dtype=np.float64)
    run_max = np.empty(ns, dtype=np.float64)
    cur = -np.inf
    for t in range(ns):
        k = small_ids[order[t]]
        ids[t] = k
        lo_sorted[t] = lo[k]
        cur = max(cur, hi[k])
        run_max[t] = cur
    return ids, lo_sorted, run_max


@inner_kernel
def _large_pairs(bx0, by0, bx1, by1, small_ids, large_ids, pa, pb, count):
    """Large x small pairs by a band scan on the better axis; large x large by sweep on x.

    Same output convention as :func:`_grid_pairs`.
    """
    cap = pa.shape[0]
    nl = large_ids.shape[0]
    if nl == 0:
        return count
    if small_ids.shape[0] > 0:
        xs_ids, xs_lo, xs_max = _sorted_axis(bx0, bx1, small_ids)
        ys_ids, ys_lo, ys_max = _sorted_axis(by0, by1, small_ids)
        for t in range(nl):
            g = large_ids[t]
            x_start = _first_at_least(xs_max, bx0[g])
            x_end = _first_greater(xs_lo, bx1[g])
            y_start = _first_at_least(ys_max, by0[g])
            y_end = _first_greater(ys_lo, by1[g])
            if x_end - x_start <= y_end - y_start:
                ids = xs_ids
                start = x_start
                end = x_end
            else:
                ids = ys_ids
                start = y_start
                end = y_end
            gx0 = bx0[g]
            gy0 = by0[g]
            gx1 = bx1[g]
            gy1 = by1[g]
            for u in range(start, end):
                k = ids[u]
                if bx0[k] <= gx1 and gx0 <= bx1[k] and by0[k] <= gy1 and gy0 <= by1[k]:
                    if count < cap:
                        pa[count] = min(g, k)
                        pb[count] = max(g, k)
                    count += 1
    # large x large: sweep-and-prune on x
    keys = np.empty(nl, dtype=np.float64)
    for t in range(nl):
        keys[t] = bx0[large_ids[t]]
    order = _argsort_stable(keys)
    for t in range(nl):
        a = large_ids[order[t]]
        for u in range(t + 1, nl):
            b = large_ids[order[u]]
            if bx0[b] > bx1[a]:
                break
            if by0[a] <= by1[b] and by0[b] <= by1[a] and bx0[a] <= bx1[b]:
                if count < cap:
                    pa[count] = min(a, b)
                    pb[count] = max(a, b)
                count += 1
    return count


# --------------------------------------------------------------------------- output ordering


@inner_kernel
def _sort_small(vals, s, e):
    """In-place ascending sort of vals[s:e] (insertion sort for short runs)."""
    if e - s > 32:
        ordered = True
        for u in range(s + 1, e):
            if vals[u - 1] > vals[u]:
                ordered = False
                break
        if ordered:  # common for crowded cells: a bucket emits its pairs in order
            return
        seg = vals[s:e].copy()
        order = _argsort_stable(seg)
        for u in range(e - s):
            vals[s + u] = seg[order[u]]
        return
    for u in range(s + 1, e):
        x = vals[u]
        v = u - 1
        while v >= s and vals[v] > x:
            vals[v + 1] = vals[v]
            v -= 1
        vals[v + 1] = x


@inner_kernel
def _excluded(i, j, owner, group):
    """Rows ``i`` and ``j`` never pair: one owner, or one negative group."""
    if owner[i] == owner[j]:
        return True
    g = group[i]
    return g < 0 and g == group[j]


@inner_kernel
def add_key(keys, count, i, j, owner, group):
    """Append the key ``lo << 32 | hi`` of the pair ``i``, ``j`` to ``keys[:count]`` unless it
    is :func:`_excluded`; returns the keys (grown when full) and the new count."""
    if _excluded(i, j, owner, group):
        return keys, count
    if count == keys.shape[0]:
        grown = np.empty(2 * count + 16, dtype=np.int64)
        # copied by a loop: a slice assignment from an array compiles Numba's shape-mismatch
        # message (``str`` of ints, unicode concatenation: 2.6 s of CPU of the pair search's
        # compile, measured)
        for t in range(count):
            grown[t] = keys[t]
        keys = grown
    keys[count] = (min(i, j) << 32) | max(i, j)
    return keys, count + 1


@inner_kernel
def _drop_excluded(pa, pb, count, ids, owner, group):
    """Compact the ``count`` compact-index pairs in place to those not :func:`_excluded`."""
    kept = 0
    for t in range(count):
        if not _excluded(ids[pa[t]], ids[pb[t]], owner, group):
            pa[kept] = pa[t]
            pb[kept] = pb[t]
            kept += 1
    return kept


@inner_kernel
def _ordered_output(pa, pb, count, ids):
    """(count, 2) array of original indices, lexicographically sorted. Requires pa < pb."""
    m = ids.shape[0]
    starts = np.zeros(m + 1, dtype=np.int64)
    for t in range(count):
        starts[pa[t] + 1] += 1
    for k in range(m):
        starts[k + 1] += starts[k]
    fill = starts[:-1].copy()
    second = np.empty(count, dtype=np.int64)
    for t in range(count):
        a = pa[t]
        second[fill[a]] = pb[t]
        fill[a] += 1
    out = np.empty((count, 2), dtype=np.int64)
    for a in range(m):
        s = starts[a]
        e = starts[a + 1]
        if e == s:
            continue
        _sort_small(second, s, e)
        ia = ids[a]
        for t in range(s, e):
            out[t, 0] = ia
            out[t, 1] = ids[second[t]]
    return out


# --------------------------------------------------------------------------- entry points


@inner_kernel
def _sort_order(keys):
    """Ascending order of ``keys``, ties in index order: what a stable sort gives.

    A sweep often gets its boxes nearly in order, or nearly in reverse (a hanging chain in link
    order, a tower built bottom up). Those take an insertion sort from the nearer of the two,
    a few moves per box, where a merge sort of 101 keys costs about 1.5 us (measured). Past a
    budget of moves it falls back to the merge sort.
    """
    m = keys.shape[0]
    rising = 0
    for k in range(1, m):
        if keys[k] >= keys[k - 1]:
            rising += 1
    forward = 2 * rising >= m - 1
    order = np.empty(m, dtype=np.int64)
    for k in range(m):
        order[k] = k if forward else m - 1 - k
    budget = 4 * m
    for k in range(1, m):
        p = order[k]
        key = keys[p]
        t = k
        # (key, index) is a strict order, so the result is the stable sort's whichever start
        while t > 0 and (keys[order[t - 1]] > key
                         or (keys[order[t - 1]] == key and order[t - 1] > p)):
            order[t] = order[t - 1]
            t -= 1
        order[t] = p
        budget -= k - t
        if budget < 0:
            return _argsort_stable(keys)
    return order


@inner_kernel
def _sweep_pairs(ids, bx0, by0, bx1, by1, owner, group):
    """Every overlapping pair of the compact live boxes by sort and sweep along one axis.

    The axis is the one along which the boxes overlap least in projection: with ``m`` boxes of
    total extent ``e`` spread over a span ``s``, a sweep makes about ``m * e / s`` tests, so the
    axis of the smaller ``e / s``. A hanging chain or a tower then costs about ``2 m`` tests, a
    row of boxes the same, instead of ``m**2 / 2``. Worst case (all boxes over one another on
    both axes) it is the direct double loop plus one sort.
    """
    m = ids.shape[0]
    # one pass for the total extents and the spans (sums of temporaries and four reductions
    # took 0.7 us for 101 boxes, a third of the sweep; measured)
    extent_x = 0.0
    extent_y = 0.0
    lo_x = np.inf
    lo_y = np.inf
    hi_x = -np.inf
    hi_y = -np.inf
    for k in range(m):
        extent_x += bx1[k] - bx0[k]
        extent_y += by1[k] - by0[k]
        lo_x = min(lo_x, bx0[k])
        lo_y = min(lo_y, by0[k])
        hi_x = max(hi_x, bx1[k])
        hi_y = max(hi_y, by1[k])
    # e_x / s_x <= e_y / s_y, cross-multiplied (a zero or infinite span is fine either way)
    if extent_x * (hi_y - lo_y) <= extent_y * (hi_x - lo_x):
        s0, s1, t0, t1 = bx0, bx1, by0, by1
    else:
        s0, s1, t0, t1 = by0, by1, bx0, bx1
    order = _sort_order(s0)  # stable: equal starts keep index order
    keys = np.empty(0, dtype=np.int64)  # grown at the first pair: a jointed chain has none
    cap = 0
    count = 0
    for a in range(m):
        p = order[a]
        end = s1[p]
        lo = t0[p]
        hi = t1[p]
        i = ids[p]
        for b in range(a + 1, m):
            q = order[b]
            if s0[q] > end:
                break  # every later box starts further along the axis
            j = ids[q]
            if t0[q] <= hi and lo <= t1[q] and not _excluded(i, j, owner, group):
                if count == cap:
                    cap = max(2 * cap, 4 * m + 64)
                    grown = np.empty(cap, dtype=np.int64)
                    # copied by a loop: a slice assignment from an array compiles Numba's
                    # shape-mismatch message (2.6 s of CPU in the pair search's compile)
                    for c in range(count):
                        grown[c] = keys[c]
                    keys = grown
                keys[count] = (min(i, j) << 32) | max(i, j)
                count += 1
    out = np.empty((count, 2), dtype=np.int64)
    if count == 0:
        return out
    # sorted by the hand-written merge sort: Numba's np.sort and np.argsort cost 3-4 s of the
    # first run's compile (measured), and the keys are few
    order = _argsort_stable(keys[:count])
    for c in range(count):
        key = keys[order[c]]
        out[c, 0] = key >> 32
        out[c, 1] = key & 0xFFFFFFFF
    return out


@kernel
def find_pairs_kernel(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below):
    """:func:`search_pairs` from Python (:func:`find_pairs`, tests)."""
    return search_pairs(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below)


@stage_kernel
def search_pairs(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below):
    """Jitted core of :func:`find_pairs`, for other kernels (tunables as arguments; no Python
    wrapper to compile into the step's pair search, which calls it by address: slot
    :data:`.._dynamics.verbs.SEARCH_PAIRS`).

    ``aabbs`` float64 (n, 4) C-contiguous, ``enabled`` bool (n,), ``owner`` and ``group`` int64
    (n,). Returns (m, 2) int64.
    """
    return _search(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below, True)


@stage_kernel
def grid_search(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below):
    """:func:`search_pairs` by the grid whatever the count of boxes (``sweep_below`` unused):
    the same pairs, the sort and sweep not compiled in (1.7-2.7 s of the search's compile
    CPU, BENCHMARKS.md session 21). For the step of a world of more boxes than
    :data:`SWEEP_BELOW` (:func:`.._dynamics.step.needed_units`); a world that has fewer
    later pays the grid's cost for its global searches (about 20 us for 101 boxes against the
    sweep's 5)."""
    return _search(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below, False)


@inline_kernel
def _search(aabbs, enabled, owner, group, cell_scale, large_cells, sweep_below, sweeps):
    """:func:`search_pairs`' body; ``sweeps`` (a constant at each call): whether up to
    ``sweep_below`` live boxes take the sort and sweep (else the branch is pruned before
    typing, and the grid takes every count)."""
    n = aabbs.shape[0]
    # a row takes part when enabled and not empty: min <= max on both axes (an inverted row, such
    # as the world's (inf, inf, -inf, -inf) placeholder, or one with a NaN, overlaps nothing)
    live = np.zeros(n, dtype=np.bool_)
    m = 0
    for i in range(n):
        if enabled[i] and aabbs[i, 0] <= aabbs[i, 2] and aabbs[i, 1] <= aabbs[i, 3]:
            live[i] = True
            m += 1
    if m < 2:
        return np.empty((0, 2), dtype=np.int64)
    # compact, structure-of-arrays copy of the live boxes (positions keep index order)
    ids = np.empty(m, dtype=np.int64)
    bx0 = np.empty(m, dtype=np.float64)
    by0 = np.empty(m, dtype=np.float64)
    bx1 = np.empty(m, dtype=np.float64)
    by1 = np.empty(m, dtype=np.float64)
    k = 0
    for i in range(n):
        if live[i]:
            ids[k] = i
            bx0[k] = aabbs[i, 0]
            by0[k] = aabbs[i, 1]
            bx1[k] = aabbs[i, 2]
            by1[k] = aabbs[i, 3]
            k += 1
    if sweeps:
        if m <= sweep_below:
            return _sweep_pairs(ids, bx0, by0, bx1, by1, owner, group)

    cell = _choose_cell(bx0, by0, bx1, by1, cell_scale)

    # origin: lowest corner among boxes that may be small (keeps indices small and >= 0 there)
    reach = large_cells * cell
    ox = np.inf
    oy = np.inf
    for k in range(m):
        if bx1[k] - bx0[k] <= reach and by1[k] - by0[k] <= reach:
            ox = min(ox, bx0[k])
            oy = min(oy, by0[k])
    if not (ox < np.inf):
        ox = 0.0
    if not (oy < np.inf):
        oy = 0.0

    lim = np.int64(_LIM)
    cx0 = np.empty(m, dtype=np.int64)
    cy0 = np.empty(m, dtype=np.int64)
    cx1 = np.empty(m, dtype=np.int64)
    cy1 = np.empty(m, dtype=np.int64)
    is_large = np.zeros(m, dtype=np.bool_)
    n_large = 0
    for k in range(m):
        x0 = _cell_index(bx0[k], ox, cell, lim)
        y0 = _cell_index(by0[k], oy, cell, lim)
        x1 = _cell_index(bx1[k], ox, cell, lim)
        y1 = _cell_index(by1[k], oy, cell, lim)
        cx0[k] = x0
        cy0[k] = y0
        cx1[k] = x1
        cy1[k] = y1
        if (x1 - x0 + 1) * (y1 - y0 + 1) > large_cells:
            is_large[k] = True
            n_large += 1
    small_ids = np.empty(m - n_large, dtype=np.int64)
    large_ids = np.empty(n_large, dtype=np.int64)
    s = 0
    g = 0
    for k in range(m):
        if is_large[k]:
            large_ids[g] = k
            g += 1
        else:
            small_ids[s] = k
            s += 1

    # Optimistic pass into a buffer sized for ordinary scenes; a scene with more pairs (heaps of
    # overlapping boxes) is run again with the exact count, which the first pass measured.
    cap = 8 * m + 64
    while True:
        pa = np.empty(cap, dtype=np.int64)
        pb = np.empty(cap, dtype=np.int64)
        count = _grid_pairs(bx0, by0, bx1, by1, cx0, cy0, cx1, cy1, small_ids, pa, pb, 0)
        count = _large_pairs(bx0, by0, bx1, by1, small_ids, large_ids, pa, pb, count)
        if count <= cap:
            count = _drop_excluded(pa, pb, count, ids, owner, group)
            return _ordered_output(pa, pb, count, ids)
        cap = count


def find_pairs(aabbs, enabled, *, owner=None, group=None, cell_scale=CELL_SCALE,
               large_cells=LARGE_CELLS, sweep_below=SWEEP_BELOW):
    """Every pair ``(i, j)``, ``i < j``, of enabled rows whose closed boxes overlap, less the
    excluded ones.

    Parameters
    ----------
    aabbs : array_like, float64 (n, 4)
        Rows ``(min x, min y, max x, max y)``. A row with ``min > max`` on an axis (or a NaN)
        is empty and overlaps nothing; infinite coordinates are allowed.
    enabled : array_like, bool (n,)
        Disabled rows (destroyed shapes) are ignored.
    owner, group : array_like, int (n,), optional
        Rows with the same ``owner`` never pair, nor rows with the same negative ``group``.
        Default: every row its own owner, no groups.
    cell_scale, large_cells :
        Tunables of the grid (see :data:`CELL_SCALE`, :data:`LARGE_CELLS`); they change speed
        only, never the result. ``large_cells`` also bounds the grid entries per proxy, so keep
        it small (tens to a few thousand).
    sweep_below :
        Up to this many live boxes, a sort and sweep along one axis replaces the grid (speed
        only, as above; 0 always uses the grid).

    Returns
    -------
    np.ndarray, int64 (m, 2)
        Each overlapping pair once, sorted lexicographically; identical input gives
        bit-identical output.
    """
    boxes = np.ascontiguousarray(aabbs, dtype=np.float64)
    mask = np.ascontiguousarray(enabled, dtype=np.bool_)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"aabbs must have shape (n, 4), got {boxes.shape}")
    if mask.shape != (boxes.shape[0],):
        raise ValueError(f"enabled must have shape ({boxes.shape[0]},), got {mask.shape}")
    if not cell_scale > 0.0:
        raise ValueError("cell_scale must be positive")
    if int(large_cells) < 1:
        raise ValueError("large_cells must be >= 1")
    n = boxes.shape[0]
    owner = np.arange(n, dtype=np.int64) if owner is None else np.ascontiguousarray(
        owner, dtype=np.int64)
    group = np.zeros(n, dtype=np.int64) if group is None else np.ascontiguousarray(
        group, dtype=np.int64)
    for name, column in (("owner", owner), ("group", group)):
        if column.shape != (n,):
            raise ValueError(f"{name} must have shape ({n},), got {column.shape}")
    if n < 2:
        return _EMPTY_PAIRS.copy()
    return find_pairs_kernel(boxes, mask, owner, group, float(cell_scale), np.int64(large_cells),
                             np.int64(sweep_below))


__all__ = ["find_pairs", "find_pairs_kernel", "search_pairs", "grid_search", "sort_keys",
           "holds_key", "add_key", "CELL_SCALE", "LARGE_CELLS", "SWEEP_BELOW"]
