"""The pair stage's incremental update: only the proxies whose fat box moved are searched.

A pair of shapes is a contact when their fat boxes overlap and the filters let them collide
(:func:`.contacts.filter_pairs`). Between two pair searches the filters do not change (a change
of a filter, a body type, a joint that forbids collision, a shape created or destroyed marks the
world's pairs dirty, and the global search runs), and a fat box changes only when the step's
bounding-box update grows it (:func:`.proxies.update_aabbs`), which lists the shape in the
step's move buffer. So a pair of two shapes that did not move is a contact now exactly when it
was one after the last search, and only the pairs of a moved shape need searching: Box2D v3
does the same with its move buffer (``b2UpdateBroadPhasePairs`` queries the tree for each moved
proxy).

The new pair list is the old contacts less those of a moved shape, merged with the pairs found
for the moved shapes (the two sets are disjoint, and both sorted by key): the same list, bit for
bit, as the global search and filter give (``tests/test_pair_update.py``), so the contact order,
hence the solver order and the trajectories, do not depend on which path ran.

The moved boxes are searched against every live box by one pass over the boxes: a box outside
the moved boxes' bounding rectangle is skipped after four comparisons, one inside it looks up
the moved boxes by a band on x (the moved boxes sorted on min x with a running max of max x, as
the broadphase's large proxies do: :mod:`.._collision.broadphase`). One ball falling beside a
sleeping pile of 5,500 boxes costs one pass over the boxes, and one over the contacts unless
the step knows the moved shapes' old pairs from the awake sets' contact edges (:mod:`.awake`):
then, while the pairs stay the same, it compares the found pairs with those alone.
"""

from __future__ import annotations

import numpy as np

from .._collision.broadphase import _argsort_stable, _excluded, _select, find_pairs_kernel
from .._core.jit import inner_kernel, kernel
from .contacts import filter_pairs, may_collide

WIDE_FACTOR = 4.0
"""A moved box longer than this many times the moved boxes' median length (on the sweep axis)
is tested against every box instead of joining the sweep (:func:`_moved_overlaps`)."""

INCREMENTAL_BELOW = 16
"""The pair stage updates incrementally while ``INCREMENTAL_BELOW * moved <= rows`` of the
shape store (at most a sixteenth moved), else it runs the global search; both give the same
pairs (speed only). Measured with ``benchmarks/pair_update.py`` (BENCHMARKS.md): the update
costs less than the global search up to 4-7 % of the boxes moved in the 100-row pyramid and
``many_pyramids`` (tall columns of boxes crowd the sweep) and up to 12 % in ``rain``; at 6 % it
took 1.2 x the global search in the pyramid, 0.5 x in ``rain``."""


FEW_TESTS = 1024
"""Up to this many box tests (rows of the shape store times moved boxes), the moved boxes
are tested against every box directly (:func:`_few_moves`), with no sorting, buckets or
scratch lists. Measured (2026-11-24, in a kernel loop, pairs unchanged, random boxes): 14
boxes, 3 moved 2.3 -> 0.5 us (LunarLander's own, its hull and legs overlapping, their pairs
filtered by the joints: 2.4 -> 1.8 us); 204 boxes, 4 moved (BipedalWalker's count) 2.2 -> 1.5
us; 204 x 8 even (4.9 us each); 204 x 16 5.6 -> 11.5 us and 2000 x 4 21.7 -> 27.6 us slower."""


@inner_kernel
def _live(box):
    """A box takes part when it is not empty (min <= max on both axes; False with a NaN), as in
    :func:`.._collision.broadphase.find_pairs_kernel`."""
    return box[0] <= box[2] and box[1] <= box[3]


@inner_kernel
def _bucket(x, origin, scale, n_buckets):
    """Bucket of coordinate ``x``: ``floor((x - origin) * scale)`` clamped to the buckets (0 for
    a NaN); monotonic in ``x``, which is all the scan needs."""
    v = (x - origin) * scale
    if not v >= 0.0:
        return 0
    if v >= n_buckets:
        return n_buckets - 1
    return np.int64(v)


@inner_kernel
def _add(keys, count, i, j, owner, group):
    """Append the key of the pair ``i``, ``j`` unless it is excluded; grows ``keys`` when full."""
    if _excluded(i, j, owner, group):
        return keys, count
    if count == keys.shape[0]:
        grown = np.empty(2 * count, dtype=np.int64)
        grown[:count] = keys
        keys = grown
    keys[count] = (min(i, j) << 32) | max(i, j)
    return keys, count + 1


@inner_kernel
def _moved_overlaps(fat, alive, owner, group, moved, n_moved, is_moved, wide_factor):
    """Keys ``lo << 32 | hi``, ascending, of every overlapping, not excluded pair of live boxes
    with at least one moved box (``moved[:n_moved]``, flagged in ``is_moved``).

    One pass over the boxes: a box outside the moved boxes' rectangle is skipped at once; one
    inside it is tested against the moved boxes that start, on the axis along which they
    overlap least in projection (as :func:`.._collision.broadphase._sweep_pairs` picks it),
    between its own start less the longest moved box and its end: those are found without a
    search in the moved boxes sorted on their start and bucketed by it (buckets about one
    longest box wide; a binary search per box cost 2-3 us per moved box on 5,000 boxes,
    measured). A moved box longer than ``wide_factor`` times the moved boxes' median length
    would widen every box's window, so it is tested against each box directly instead.
    """
    ids = np.empty(n_moved, dtype=np.int64)
    k = 0
    for t in range(n_moved):
        i = moved[t]
        if alive[i] and _live(fat[i]):
            ids[k] = i
            k += 1
    # the moved boxes' rectangle, their total extents (the sweep axis) and lengths
    ux0 = np.inf
    uy0 = np.inf
    ux1 = -np.inf
    uy1 = -np.inf
    extent_x = 0.0
    extent_y = 0.0
    for t in range(k):
        i = ids[t]
        ux0 = min(ux0, fat[i, 0])
        uy0 = min(uy0, fat[i, 1])
        ux1 = max(ux1, fat[i, 2])
        uy1 = max(uy1, fat[i, 3])
        extent_x += fat[i, 2] - fat[i, 0]
        extent_y += fat[i, 3] - fat[i, 1]
    # e_x / span_x <= e_y / span_y, cross-multiplied
    axis = 0 if extent_x * (uy1 - uy0) <= extent_y * (ux1 - ux0) else 1
    length = np.empty(k, dtype=np.float64)
    for t in range(k):
        length[t] = fat[ids[t], axis + 2] - fat[ids[t], axis]
    limit = wide_factor * _select(length, (k - 1) // 2) if k > 0 else 0.0
    n_wide = 0
    for t in range(k):
        if fat[ids[t], axis + 2] - fat[ids[t], axis] > limit:
            n_wide += 1
    wide = np.empty(n_wide, dtype=np.int64)
    narrow = np.empty(k - n_wide, dtype=np.int64)
    n_wide = 0
    n_narrow = 0
    for t in range(k):
        i = ids[t]
        if fat[i, axis + 2] - fat[i, axis] > limit:
            wide[n_wide] = i
            n_wide += 1
        else:
            narrow[n_narrow] = i
            n_narrow += 1
    # the narrow ones sorted on the sweep axis, their coordinates side by side (s: sweep axis,
    # t: the other) for the scan
    lo = np.empty(n_narrow, dtype=np.float64)
    for t in range(n_narrow):
        lo[t] = fat[narrow[t], axis]
    order = _argsort_stable(lo)
    other = 1 - axis
    sorted_ids = np.empty(n_narrow, dtype=np.int64)
    s_lo = np.empty(n_narrow, dtype=np.float64)
    s_hi = np.empty(n_narrow, dtype=np.float64)
    t_lo = np.empty(n_narrow, dtype=np.float64)
    t_hi = np.empty(n_narrow, dtype=np.float64)
    longest = 0.0
    for t in range(n_narrow):
        i = narrow[order[t]]
        sorted_ids[t] = i
        s_lo[t] = fat[i, axis]
        s_hi[t] = fat[i, axis + 2]
        t_lo[t] = fat[i, other]
        t_hi[t] = fat[i, other + 2]
        longest = max(longest, s_hi[t] - s_lo[t])
    # Buckets of the sorted starts, about one longest box wide, so that a box finds its window
    # of moved boxes (those starting in [its start - longest, its end]) without a search.
    n_buckets = 1
    scale = 0.0
    if n_narrow > 1:
        span = s_lo[n_narrow - 1] - s_lo[0]
        if span > 0.0 and span < np.inf:
            # at most 4 per box (the ratio may be huge, or inf for points)
            ratio = span / longest if longest > 0.0 else np.inf
            n_buckets = np.int64(ratio) + 1 if ratio < 4 * n_narrow else 4 * n_narrow
            scale = n_buckets / span
    first = np.empty(n_buckets + 1, dtype=np.int64)  # first sorted box of each bucket
    b = 0
    first[0] = 0
    for t in range(n_narrow):
        bt = _bucket(s_lo[t], s_lo[0], scale, n_buckets)
        while b < bt:
            b += 1
            first[b] = t
    while b < n_buckets:
        b += 1
        first[b] = n_narrow

    keys = np.empty(8 * k + 64, dtype=np.int64)
    count = 0
    for j in range(alive.shape[0]):
        if not alive[j]:
            continue
        x0 = fat[j, 0]
        y0 = fat[j, 1]
        x1 = fat[j, 2]
        y1 = fat[j, 3]
        # outside the moved boxes' rectangle, or empty (the comparisons are False with a NaN)
        if not (x0 <= ux1 and ux0 <= x1 and y0 <= uy1 and uy0 <= y1 and x0 <= x1 and y0 <= y1):
            continue
        j_moved = is_moved[j]
        for u in range(n_wide):
            i = wide[u]
            if (fat[i, 0] <= x1 and x0 <= fat[i, 2] and fat[i, 1] <= y1 and y0 <= fat[i, 3]
                    and i != j and not (j_moved and i > j)):
                keys, count = _add(keys, count, i, j, owner, group)
        j_lo = fat[j, axis]
        j_hi = fat[j, axis + 2]
        j_tlo = fat[j, other]
        j_thi = fat[j, other + 2]
        # a narrow box starting before j_lo - longest ends before j starts
        start = first[_bucket(j_lo - longest, s_lo[0] if n_narrow else 0.0, scale, n_buckets)]
        end = first[_bucket(j_hi, s_lo[0] if n_narrow else 0.0, scale, n_buckets) + 1]
        for u in range(start, end):
            if (s_lo[u] <= j_hi and j_lo <= s_hi[u] and t_lo[u] <= j_thi
                    and j_tlo <= t_hi[u]):
                i = sorted_ids[u]
                # a pair of two moved boxes is met from both; keep it once, from the higher row
                if i != j and not (j_moved and i > j):
                    keys, count = _add(keys, count, i, j, owner, group)
    found = keys[:count]
    return found[_argsort_stable(found)]


@inner_kernel
def _listed(moved, n_moved, i):
    """Whether row ``i`` is among ``moved[:n_moved]`` (a few: scanned)."""
    for t in range(n_moved):
        if moved[t] == i:
            return True
    return False


@inner_kernel
def _kept(i, j, body, body_type, sensor, group, category, mask, no_collide):
    """:func:`.contacts.filter_pairs`'s rule for the one pair ``i < j``."""
    b_i = body[i]
    b_j = body[j]
    if b_i == b_j or not may_collide(body_type[b_i], body_type[b_j], sensor[i], sensor[j],
                                     group[i], group[j], category[i], mask[i], category[j],
                                     mask[j]):
        return False
    if no_collide.shape[0] > 0:
        key = (min(b_i, b_j) << 32) | max(b_i, b_j)
        at = np.searchsorted(no_collide, key)
        return not (at < no_collide.shape[0] and no_collide[at] == key)
    return True


@inner_kernel
def _few_moves(old_keys, moved, n_moved, fat, alive, body, body_type, sensor, group, category,
               mask, no_collide):
    """:func:`pairs_after_moves` for a few moved boxes among a few boxes (:data:`FEW_TESTS`):
    each live moved box against every live box, the same tests (closed intervals, the
    exclusions, then the filter), the found keys sorted; the result is the same, bit for bit.
    Allocates one list of keys, and the new pairs only when they changed."""
    n = alive.shape[0]
    keys = np.empty(16, dtype=np.int64)
    count = 0
    for t in range(n_moved):
        i = moved[t]
        if not (alive[i] and _live(fat[i])):
            continue
        ix0 = fat[i, 0]
        iy0 = fat[i, 1]
        ix1 = fat[i, 2]
        iy1 = fat[i, 3]
        for j in range(n):
            if j == i or not alive[j]:
                continue
            x0 = fat[j, 0]
            y0 = fat[j, 1]
            x1 = fat[j, 2]
            y1 = fat[j, 3]
            # j live (False with a NaN) and overlapping i
            if not (x0 <= x1 and y0 <= y1 and ix0 <= x1 and x0 <= ix1 and iy0 <= y1
                    and y0 <= iy1):
                continue
            if j < i and _listed(moved, n_moved, j):
                continue  # a pair of two moved boxes: found once, from its lower row
            if _excluded(i, j, body, group):
                continue
            lo = min(i, j)
            hi = max(i, j)
            if not _kept(lo, hi, body, body_type, sensor, group, category, mask, no_collide):
                continue
            if count == keys.shape[0]:
                grown = np.empty(2 * count, dtype=np.int64)
                grown[:count] = keys
                keys = grown
            keys[count] = (lo << 32) | hi
            count += 1
    # Each moved box's keys come out ascending; a few runs are merged by insertion, more sorted.
    if count > 32:
        found = keys[:count]
        keys = found[_argsort_stable(found)]
    else:
        for u in range(1, count):
            x = keys[u]
            v = u - 1
            while v >= 0 and keys[v] > x:
                keys[v + 1] = keys[v]
                v -= 1
            keys[v + 1] = x
    # Unchanged when the old pairs of the moved shapes are exactly the found ones (in order).
    n_old = old_keys.shape[0]
    n_kept = 0
    same = True
    f = 0
    for t in range(n_old):
        key = old_keys[t]
        if _listed(moved, n_moved, key >> 32) or _listed(moved, n_moved, key & 0xFFFFFFFF):
            if same:
                same = f < count and key == keys[f]
                f += 1
        else:
            n_kept += 1
    if same and f == count:
        return False, np.empty((0, 2), dtype=np.int64)
    # Merge the kept old pairs and the found ones (disjoint sets, both ascending).
    out = np.empty((n_kept + count, 2), dtype=np.int64)
    f = 0
    o = 0
    for t in range(n_old):
        key = old_keys[t]
        if _listed(moved, n_moved, key >> 32) or _listed(moved, n_moved, key & 0xFFFFFFFF):
            continue
        while f < count and keys[f] < key:
            out[o, 0] = keys[f] >> 32
            out[o, 1] = keys[f] & 0xFFFFFFFF
            o += 1
            f += 1
        out[o, 0] = key >> 32
        out[o, 1] = key & 0xFFFFFFFF
        o += 1
    while f < count:
        out[o, 0] = keys[f] >> 32
        out[o, 1] = keys[f] & 0xFFFFFFFF
        o += 1
        f += 1
    return True, out


@inner_kernel
def pairs_after_moves(old_keys, moved, n_moved, fat, alive, body, body_type, sensor, group,
                      category, mask, no_collide, few_tests, moved_keys, n_moved_keys):
    """The contact pairs after the shapes ``moved[:n_moved]`` changed their fat boxes, given the
    sorted keys ``old_keys`` of the contacts before (the filtered pairs of the last search).

    Returns ``(changed, pairs)``: False and an empty array when the pairs are the old ones,
    else True and the (m, 2) sorted pairs (what :func:`.step.contact_pairs` would return).
    Up to ``few_tests`` box tests (rows times moved boxes; :data:`FEW_TESTS`), the moved boxes
    are tested directly (:func:`_few_moves`), else by the sweep.

    ``moved_keys[:n_moved_keys]``: the old keys with a moved shape, ascending, if the caller
    knows them (-1: it does not), so that pairs that stayed the same are known without a pass
    over ``old_keys``.
    """
    n = alive.shape[0]
    if n * n_moved <= few_tests:
        return _few_moves(old_keys, moved, n_moved, fat, alive, body, body_type, sensor, group,
                          category, mask, no_collide)
    is_moved = np.zeros(n, dtype=np.bool_)
    for t in range(n_moved):
        is_moved[moved[t]] = True
    found_keys = _moved_overlaps(fat, alive, body, group, moved, n_moved, is_moved, WIDE_FACTOR)
    candidates = np.empty((found_keys.shape[0], 2), dtype=np.int64)
    for t in range(found_keys.shape[0]):
        candidates[t, 0] = found_keys[t] >> 32
        candidates[t, 1] = found_keys[t] & 0xFFFFFFFF
    found = filter_pairs(candidates, body, body_type, sensor, group, category, mask, no_collide)
    n_found = found.shape[0]
    if n_moved_keys == n_found:
        same = True
        for t in range(n_found):
            if moved_keys[t] != (found[t, 0] << 32) | found[t, 1]:
                same = False
                break
        if same:
            return False, np.empty((0, 2), dtype=np.int64)
    # Unchanged when the old pairs of the moved shapes are exactly the found ones (in order).
    n_old = old_keys.shape[0]
    n_kept = 0
    same = True
    f = 0
    for t in range(n_old):
        key = old_keys[t]
        if is_moved[key >> 32] or is_moved[key & 0xFFFFFFFF]:
            if same:
                same = f < n_found and key == ((found[f, 0] << 32) | found[f, 1])
                f += 1
        else:
            n_kept += 1
    if same and f == n_found:
        return False, np.empty((0, 2), dtype=np.int64)
    # Merge the kept old pairs and the found ones (disjoint sets, both ascending).
    out = np.empty((n_kept + n_found, 2), dtype=np.int64)
    f = 0
    o = 0
    for t in range(n_old):
        key = old_keys[t]
        a = key >> 32
        b = key & 0xFFFFFFFF
        if is_moved[a] or is_moved[b]:
            continue
        while f < n_found and ((found[f, 0] << 32) | found[f, 1]) < key:
            out[o, 0] = found[f, 0]
            out[o, 1] = found[f, 1]
            o += 1
            f += 1
        out[o, 0] = a
        out[o, 1] = b
        o += 1
    while f < n_found:
        out[o, 0] = found[f, 0]
        out[o, 1] = found[f, 1]
        o += 1
        f += 1
    return True, out


@kernel
def filtered_pairs(fat, alive, body, body_type, sensor, group, category, mask, no_collide,
                   cell_scale, large_cells, sweep_below):
    """The global search and filter from Python (tests, benchmarks): what the pair stage's
    global path computes, for the same columns."""
    pairs = find_pairs_kernel(fat, alive, body, group, cell_scale, large_cells, sweep_below)
    return filter_pairs(pairs, body, body_type, sensor, group, category, mask, no_collide)


@kernel
def incremental_pairs(old_keys, moved, fat, alive, body, body_type, sensor, group, category,
                      mask, no_collide, few_tests=FEW_TESTS):
    """:func:`pairs_after_moves` from Python (tests, benchmarks); the pairs, changed or not.
    ``few_tests``: as the step passes it (0: always the sweep)."""
    changed, pairs = pairs_after_moves(old_keys, moved, moved.shape[0], fat, alive, body,
                                       body_type, sensor, group, category, mask, no_collide,
                                       few_tests, old_keys, -1)
    if changed:
        return pairs
    out = np.empty((old_keys.shape[0], 2), dtype=np.int64)
    for t in range(old_keys.shape[0]):
        out[t, 0] = old_keys[t] >> 32
        out[t, 1] = old_keys[t] & 0xFFFFFFFF
    return out


__all__ = ["FEW_TESTS", "INCREMENTAL_BELOW", "WIDE_FACTOR", "pairs_after_moves", "filtered_pairs", "incremental_pairs"]
