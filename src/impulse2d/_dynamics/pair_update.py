"""The step's pair stage: the contact pairs after the fat boxes moved, searched only where they
moved, and the contact store replaced when they changed.

A pair of shapes is a contact when their fat boxes overlap and the filters let them collide
(:func:`.contacts.pair_kept`). Between two pair searches the filters do not change (a change
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

A few moved boxes among a few boxes (:data:`FEW_TESTS`) are tested against every box, first
only to learn whether their pairs stayed the same (:func:`moves_keep_pairs`: no allocation,
no reference counted; most steps of a small world end there). More are searched by one pass
over the boxes: a box outside the moved boxes' bounding rectangle is skipped after four
comparisons, one inside it looks up the moved boxes near it in a grid of them
(:func:`_moved_overlaps`). One ball falling beside a sleeping pile of 5,500 boxes costs one
pass over the boxes, and one over the contacts unless the step knows the moved shapes' old
pairs from the awake sets' contact edges (:mod:`.awake`): then, while the pairs stay the same,
it compares the found pairs with those alone.

Compile time: this stage is the largest unit a world's first step compiles (26.7 s of CPU of a
cold start's 56 s, BENCHMARKS.md). What kept it large: Numba library code pulled in by one line
each (a slice assignment from an array compiles the shape-mismatch message with ``str`` and
unicode; ``ndarray.sort`` a quicksort; ``np.searchsorted``, boolean-mask indexing and
``np.arange`` their own implementations), and the same searching, comparing and merging code
twice, for the few-boxes and the sweep paths. Every kernel's machine code is generated again in
each kernel that calls it (Numba links callees into their callers), so each of these counted
once per level above it. Loops replace the library calls here and in the broadphase, and one
filter, sort, comparison and merge serves both paths: the unit alone compiles in 0.75-0.79 x
main's CPU time, 18.5 s against 26.6 s inside a cold ``pyramid_20`` (measured under load,
``benchmarks/pair_compile.py``; the resting grid, :mod:`.resting`, is about 3 s of it).
"""

from __future__ import annotations

import numpy as np

from .._collision.broadphase import (CELL_SCALE, LARGE_CELLS, SWEEP_BELOW, _excluded, _select,
                                     _sort_small, add_key, holds_key, search_pairs, sort_keys)
from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel, kernel, stage_kernel
from .awake import EDGES_VALID, RESTING_VALID, SHAPE_COUNT, moved_keys
from .contacts import (FRICTION_MIXING, RESTITUTION_MIXING, allocate_contacts, carry_contacts,
                       filter_pairs, pair_kept)
from .resting import (AWAKE_FRACTION, build_resting, clamped_cell, empty_resting, note_moves,
                      resting_overlaps)
from .verbs import MOVED_PAIRS, SEARCH_PAIRS, call_moved_pairs, call_search_pairs
from .world_ref import borrow, borrow_column

WIDE_FACTOR = 4.0
"""A moved box longer (on either axis) than this many times the moved boxes' median length is
tested against every box instead of joining their grid (:func:`_moved_overlaps`)."""

INCREMENTAL_BELOW = 2
"""The pair stage updates incrementally while ``INCREMENTAL_BELOW * moved <= rows`` of the
shape store (at most half moved) or the moved boxes are few (:data:`FEW_TESTS`), else it runs
the global search; both give the same pairs (speed only). Measured with
``benchmarks/pair_update.py`` (process CPU, BENCHMARKS.md, session 18, ``rain43``): with the
moved boxes in a grid the update costs less than the global search up to 25-50 % of the boxes
moved in ``rain``, the 100-row pyramid and ``many_pyramids`` (0.6-0.75 x at 25 %, 0.9-1.1 x at
50 %), and on rain's own landing steps (``benchmarks/pair_search_ab.py``) at every count, 77 %
moved included. With the moved boxes banded on one axis it was 1/16: a band across a pile or a
pyramid held a column of boxes."""


BUCKET_SORT_FROM = 8
"""The moved boxes' pair keys are sorted by buckets of rows when at least one per this many
rows of the shape store, else by merge sort (:func:`_sort_pair_keys`)."""


FEW_TESTS = 1024
"""Up to this many box tests (rows of the shape store times moved boxes), the moved boxes
are tested against every box directly (:func:`moves_keep_pairs`, :func:`_few_overlaps`),
with no sorting, buckets or scratch lists. Measured (2026-11-24, in a kernel loop, pairs
unchanged, random boxes): 14 boxes, 3 moved 2.3 -> 0.5 us (LunarLander's own, its hull and legs
overlapping, their pairs filtered by the joints: 2.4 -> 1.8 us); 204 boxes, 4 moved
(BipedalWalker's count) 2.2 -> 1.5 us; 204 x 8 even (4.9 us each); 204 x 16 5.6 -> 11.5 us and
2000 x 4 21.7 -> 27.6 us slower."""


@inner_kernel
def _live(box):
    """A box takes part when it is not empty (min <= max on both axes; False with a NaN), as in
    :func:`.._collision.broadphase.find_pairs_kernel`."""
    return box[0] <= box[2] and box[1] <= box[3]


@borrowing_kernel
def _listed(moved, n_moved, i):
    """Whether row ``i`` is among ``moved[:n_moved]`` (a few: scanned)."""
    for t in range(n_moved):
        if moved[t] == i:
            return True
    return False


@inner_kernel
def _few_overlaps(fat, alive, owner, group, moved, n_moved, is_moved):
    """Keys ``lo << 32 | hi`` (in no particular order) of every overlapping, not excluded pair
    of live boxes with a moved one, for a few moved boxes among a few boxes
    (:data:`FEW_TESTS`): each live moved box tested against every live box, no sorting,
    buckets or scratch lists."""
    keys = np.empty(16, dtype=np.int64)
    count = np.int64(0)  # int64 from the start: a literal 0 compiled add_key a second time
    for t in range(n_moved):
        i = moved[t]
        if not (alive[i] and _live(fat[i])):
            continue
        ix0 = fat[i, 0]
        iy0 = fat[i, 1]
        ix1 = fat[i, 2]
        iy1 = fat[i, 3]
        for j in range(alive.shape[0]):
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
            if j < i and is_moved[j]:
                continue  # a pair of two moved boxes: found once, from its lower row
            keys, count = add_key(keys, count, i, j, owner, group)
    return keys, count


@inner_kernel
def _moved_overlaps(fat, alive, owner, group, moved, n_moved, is_moved, wide_factor):
    """Keys ``lo << 32 | hi`` (in no particular order) of every overlapping, not excluded pair
    of live boxes with at least one moved box (``moved[:n_moved]``, flagged in ``is_moved``).

    One pass over the boxes: a box outside the moved boxes' rectangle is skipped at once; one
    inside it is tested against the moved boxes whose lower-left corner lies within the longest
    moved box of its own, below and to the left of it, up to its upper-right corner: the only
    ones that can overlap it. Those are found in a grid of the moved boxes (each in the cell of
    its lower-left corner, the cells in rows; about two cells a moved box, each about one
    longest box wide), the cells of a row of the window side by side in the grid's order.
    The grid replaced a band on one axis (the moved boxes sorted on their start): in rain's
    landing a band across the pile held every moved box of a column, 13 ns a test, and the
    search cost 1.2-1.5 us a moved box (BENCHMARKS.md, session 18, ``rain43``). A moved box
    longer (on either axis) than ``wide_factor`` times the moved boxes' median length would
    widen every box's window, so it is tested against each box directly instead.
    """
    ids = np.empty(n_moved, dtype=np.int64)
    k = 0
    for t in range(n_moved):
        i = moved[t]
        if alive[i] and _live(fat[i]):
            ids[k] = i
            k += 1
    # the moved boxes' rectangle and lengths (the longer side)
    ux0 = np.inf
    uy0 = np.inf
    ux1 = -np.inf
    uy1 = -np.inf
    length = np.empty(k, dtype=np.float64)
    for t in range(k):
        i = ids[t]
        ux0 = min(ux0, fat[i, 0])
        uy0 = min(uy0, fat[i, 1])
        ux1 = max(ux1, fat[i, 2])
        uy1 = max(uy1, fat[i, 3])
        length[t] = max(fat[i, 2] - fat[i, 0], fat[i, 3] - fat[i, 1])
    limit = wide_factor * _select(length, (k - 1) // 2) if k > 0 else 0.0
    n_wide = 0
    for t in range(k):
        i = ids[t]
        if max(fat[i, 2] - fat[i, 0], fat[i, 3] - fat[i, 1]) > limit:
            n_wide += 1
    wide = np.empty(n_wide, dtype=np.int64)
    narrow = np.empty(k - n_wide, dtype=np.int64)
    n_wide = 0
    n_narrow = 0
    # the narrow ones' longest sides and the span of their lower-left corners
    long_x = 0.0
    long_y = 0.0
    lx0 = np.inf
    ly0 = np.inf
    lx1 = -np.inf
    ly1 = -np.inf
    for t in range(k):
        i = ids[t]
        if max(fat[i, 2] - fat[i, 0], fat[i, 3] - fat[i, 1]) > limit:
            wide[n_wide] = i
            n_wide += 1
        else:
            narrow[n_narrow] = i
            n_narrow += 1
            long_x = max(long_x, fat[i, 2] - fat[i, 0])
            long_y = max(long_y, fat[i, 3] - fat[i, 1])
            lx0 = min(lx0, fat[i, 0])
            ly0 = min(ly0, fat[i, 1])
            lx1 = max(lx1, fat[i, 0])
            ly1 = max(ly1, fat[i, 1])
    # Cells about one longest box a side, at most about two a narrow box (the count bounds the
    # memory however far apart the boxes are). Any cell size gives the same pairs: a cell is a
    # monotonic function of a coordinate (clamped_cell), so the window's cells hold every
    # corner inside the window.
    nx, inv_x, ny, inv_y = _grid_shape(lx1 - lx0, long_x, ly1 - ly0, long_y,
                                       2 * n_narrow + 16)
    n_cells = nx * ny
    first = np.zeros(n_cells + 1, dtype=np.int64)
    cell = np.empty(n_narrow, dtype=np.int64)
    for t in range(n_narrow):
        i = narrow[t]
        c = (clamped_cell(fat[i, 1], ly0, inv_y, ny) * nx
             + clamped_cell(fat[i, 0], lx0, inv_x, nx))
        cell[t] = c
        first[c + 1] += 1
    for c in range(n_cells):
        first[c + 1] += first[c]
    # the narrow boxes in cell order, their coordinates side by side for the scan
    fill = first[:-1].copy()
    g_ids = np.empty(n_narrow, dtype=np.int64)
    g_box = np.empty((n_narrow, 4), dtype=np.float64)
    for t in range(n_narrow):
        i = narrow[t]
        u = fill[cell[t]]
        fill[cell[t]] = u + 1
        g_ids[u] = i
        g_box[u, 0] = fat[i, 0]
        g_box[u, 1] = fat[i, 1]
        g_box[u, 2] = fat[i, 2]
        g_box[u, 3] = fat[i, 3]

    keys = np.empty(8 * k + 64, dtype=np.int64)
    count = np.int64(0)  # int64 from the start: a literal 0 compiled add_key a second time
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
                keys, count = add_key(keys, count, i, j, owner, group)
        # a narrow box whose corner is left of x0 - long_x (or below y0 - long_y) ends before j
        cx0 = clamped_cell(x0 - long_x, lx0, inv_x, nx)
        cx1 = clamped_cell(x1, lx0, inv_x, nx)
        for cy in range(clamped_cell(y0 - long_y, ly0, inv_y, ny),
                        clamped_cell(y1, ly0, inv_y, ny) + 1):
            for u in range(first[cy * nx + cx0], first[cy * nx + cx1 + 1]):
                if (g_box[u, 0] <= x1 and x0 <= g_box[u, 2] and g_box[u, 1] <= y1
                        and y0 <= g_box[u, 3]):
                    i = g_ids[u]
                    # a pair of two moved boxes is met from both; keep it once, from the
                    # higher row
                    if i != j and not (j_moved and i > j):
                        keys, count = add_key(keys, count, i, j, owner, group)
    return keys, count


@inner_kernel
def _cells(span, longest):
    """Cells about one ``longest`` box wide over ``span`` (the spread of the boxes' corners on
    an axis), a float: one if the span is zero or not finite, inf for boxes of no length."""
    if not (0.0 < span < np.inf):
        return 1.0
    return span / longest + 1.0 if longest > 0.0 else np.inf


@inner_kernel
def _grid_shape(span_x, long_x, span_y, long_y, most):
    """The moved boxes' grid (:func:`_moved_overlaps`): cells on each axis and their inverse
    widths, about one longest box a side, at most ``most`` cells in all (both axes shrunk
    alike, an axis of one cell leaving the other the rest)."""
    fx = min(_cells(span_x, long_x), most)
    fy = min(_cells(span_y, long_y), most)
    if fx * fy > most:
        scale = np.sqrt(most / (fx * fy))
        fx *= scale
        fy *= scale
        if fx < 1.0:
            fy *= fx
            fx = 1.0
        if fy < 1.0:
            fx *= fy
            fy = 1.0
    nx = np.int64(fx)
    ny = np.int64(fy)
    inv_x = nx / span_x if 0.0 < span_x < np.inf else 0.0
    inv_y = ny / span_y if 0.0 < span_y < np.inf else 0.0
    return nx, inv_x, ny, inv_y


@inner_kernel
def _filter_keys(keys, count, body, body_type, sensor, group, category, mask, no_collide):
    """Keep, in place and in order, the keys of ``keys[:count]`` that are contacts
    (:func:`.contacts.pair_kept`); returns how many."""
    kept = 0
    for t in range(count):
        key = keys[t]
        if pair_kept(key >> 32, key & 0xFFFFFFFF, body, body_type, sensor, group, category, mask,
                     no_collide):
            keys[kept] = key
            kept += 1
    return kept


@inner_kernel
def _sort_pair_keys(keys, count, n):
    """Sort the distinct pair keys ``keys[:count]`` (``lo << 32 | hi``, rows below ``n``)
    ascending in place. Many for the rows (at least one in :data:`BUCKET_SORT_FROM`): bucketed on
    ``lo`` by a counting sort, then each row's few keys sorted in place
    (:func:`.._collision.broadphase._sort_small`); else by merge sort
    (:func:`.._collision.broadphase.sort_keys`), which costs ``count log count`` where the
    buckets cost ``n``. The same order either way (the keys are distinct)."""
    if BUCKET_SORT_FROM * count < n:
        sort_keys(keys, count)
        return
    end = np.zeros(n + 1, dtype=np.int64)
    for t in range(count):
        end[(keys[t] >> 32) + 1] += 1
    for r in range(n):
        end[r + 1] += end[r]
    ordered = np.empty(count, dtype=np.int64)
    for t in range(count):
        lo = keys[t] >> 32
        ordered[end[lo]] = keys[t]
        end[lo] += 1  # at the end: end[lo] is where row lo's keys end
    s = np.int64(0)  # (not the literal 0: see .._collision.manifold.ZERO)
    for r in range(n):
        _sort_small(ordered, s, end[r])
        s = end[r]
    for t in range(count):
        keys[t] = ordered[t]


@inline_kernel
def moves_keep_pairs(old_keys, moved, n_moved, fat, alive, body, body_type, sensor, group,
                     category, mask, no_collide):
    """Whether the contacts are still ``old_keys`` after the fat boxes ``moved[:n_moved]``
    changed, for a few moved boxes among a few boxes (:data:`FEW_TESTS`): every contact found
    for a moved box (the tests of :func:`_few_overlaps`, then the filter) is an old one, and
    they are as many as the old contacts with a moved shape (the found ones are distinct).

    The common step of a small world (a few boxes move, no pair changes) ends here: no
    allocation and no reference counted (a borrowing kernel), where the search that builds
    the new pairs allocated and counted references in four nested kernels (about 3,000 cycles
    for one moved box among 11, measured in the step's clock). Inlined into its caller: a call
    passed its twelve arrays on the stack, ~260 instructions of restitution's step (callgrind,
    BENCHMARKS.md, session 26)."""
    n_old = 0
    for t in range(old_keys.shape[0]):
        key = old_keys[t]
        if _listed(moved, n_moved, key >> 32) or _listed(moved, n_moved, key & 0xFFFFFFFF):
            n_old += 1
    found = 0
    for t in range(n_moved):
        i = moved[t]
        ix0 = fat[i, 0]
        iy0 = fat[i, 1]
        ix1 = fat[i, 2]
        iy1 = fat[i, 3]
        if not (alive[i] and ix0 <= ix1 and iy0 <= iy1):
            continue
        for j in range(alive.shape[0]):
            if j == i or not alive[j]:
                continue
            x0 = fat[j, 0]
            y0 = fat[j, 1]
            x1 = fat[j, 2]
            y1 = fat[j, 3]
            if not (x0 <= x1 and y0 <= y1 and ix0 <= x1 and x0 <= ix1 and iy0 <= y1
                    and y0 <= iy1):
                continue
            if (j < i and _listed(moved, n_moved, j)) or _excluded(i, j, body, group):
                continue
            lo = min(i, j)
            hi = max(i, j)
            if not pair_kept(lo, hi, body, body_type, sensor, group, category, mask, no_collide):
                continue
            if found == n_old or not holds_key(old_keys, (lo << 32) | hi):
                return False
            found += 1
    return found == n_old


@inner_kernel
def pairs_after_moves(old_keys, moved, n_moved, fat, alive, body, body_type, sensor, group,
                      category, mask, no_collide, few_tests, moved_keys, n_moved_keys, index,
                      indexed):
    """The contact pairs after the shapes ``moved[:n_moved]`` changed their fat boxes, given the
    sorted keys ``old_keys`` of the contacts before (the filtered pairs of the last search).

    Returns ``(changed, pairs)``: False and an empty array when the pairs are the old ones,
    else True and the (m, 2) sorted pairs (what the global search and filter would return).
    Up to ``few_tests`` box tests (rows times moved boxes; :data:`FEW_TESTS`), the moved boxes
    are tested directly (:func:`_few_overlaps`); else, if ``indexed``, they are looked up in
    the resting boxes' grid ``index`` (:func:`.resting.resting_overlaps`), else found by the
    grid of the moved boxes (:func:`_moved_overlaps`); either way the found pairs are filtered, sorted, compared
    and merged here.

    ``moved_keys[:n_moved_keys]``: the old keys with a moved shape, ascending, if the caller
    knows them (-1: it does not), so that pairs that stayed the same are known without a pass
    over ``old_keys``.

    The pair stage's incremental path calls it (:func:`moved_pairs_stage`).
    """
    n = alive.shape[0]
    is_moved = np.zeros(n, dtype=np.bool_)
    for t in range(n_moved):
        is_moved[moved[t]] = True
    if n * n_moved <= few_tests:
        keys, count = _few_overlaps(fat, alive, body, group, moved, n_moved, is_moved)
    elif indexed:
        keys, count = resting_overlaps(index, fat, alive, body, group, moved, n_moved, is_moved)
    else:
        keys, count = _moved_overlaps(fat, alive, body, group, moved, n_moved, is_moved,
                                      WIDE_FACTOR)
    count = _filter_keys(keys, count, body, body_type, sensor, group, category, mask,
                         no_collide)
    _sort_pair_keys(keys, count, n)
    if n_moved_keys == count:
        same = True
        for t in range(count):
            if moved_keys[t] != keys[t]:
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
        if is_moved[key >> 32] or is_moved[key & 0xFFFFFFFF]:
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


# --------------------------------------------------------------------------- the step's stage


@inner_kernel
def _same_pairs(keys, pairs):
    if keys.shape[0] != pairs.shape[0]:
        return False
    for k in range(keys.shape[0]):
        if keys[k] != (pairs[k, 0] << 32) | pairs[k, 1]:
            return False
    return True


@borrowing_kernel
def _note_moves(world, moved, n_moved):
    """The resting index (:mod:`.resting`) learns which boxes moved, or is dropped when too
    many came loose (:func:`.resting.note_moves`); nothing while it is not valid."""
    state = borrow(world, "awake_state")
    if state[RESTING_VALID] != 0 and not note_moves(borrow(world, "resting"), moved, n_moved):
        state[RESTING_VALID] = 0


@borrowing_kernel
def _moves_keep_world(world, moved, n_moved):
    """Whether a few moved boxes among a few boxes (:data:`FEW_TESTS`) kept their pairs:
    :func:`moves_keep_pairs` on the world's columns, borrowed (no reference counted); False
    for more boxes."""
    shapes = borrow(world, "shapes")
    if shapes.alive.shape[0] * n_moved > FEW_TESTS:
        return False
    return moves_keep_pairs(borrow_column(world, "contacts", "key"), moved, n_moved,
                            shapes.fat_aabb, shapes.alive, shapes.body,
                            borrow_column(world, "bodies", "type"), shapes.is_sensor,
                            shapes.group, shapes.category, shapes.mask,
                            borrow(world, "no_collide"))


@stage_kernel
def moved_pairs_stage(world, moved, n_moved):
    """The pair stage's incremental path (:func:`update_pairs`): the contact pairs after the
    shapes ``moved[:n_moved]`` changed their fat boxes, as :func:`pairs_after_moves` returns
    them (``(changed, pairs)``), searched only around the moved boxes. (For a few moved boxes
    among a few boxes the pair stage has asked :func:`moves_keep_pairs` first.) A mostly
    resting world looks the moved boxes up in the resting index (:mod:`.resting`), built here
    if need be.

    A unit of its own (slot :data:`.verbs.MOVED_PAIRS`), not a part of the pair stage: a
    world's first step never runs it (its pairs are dirty: the global search), so a cold start
    compiles it after the first step while the world steps (:data:`.step.LATER_SLOTS`), and
    the pair stage takes the global search, the same pairs, until it comes. It and its
    callees are 15-18 % of a cold ``pyramid_20``'s compile CPU (this unit 8.4 s, the resting
    index's build 3.2, the moved shapes' old keys 1.9, the few boxes' test 1.8, of 103 s at
    load 7-10: BENCHMARKS.md, session 18, ``cold43``); the few boxes' test has been the pair
    stage's since session 26."""
    alive = borrow_column(world, "shapes", "alive")
    n = alive.shape[0]
    state = borrow(world, "awake_state")
    few = n * n_moved <= FEW_TESTS
    fat = borrow_column(world, "shapes", "fat_aabb")
    # a mostly resting world looks the moved boxes up in the index, built if need be
    indexed = not few and (state[RESTING_VALID] != 0 or AWAKE_FRACTION * state[SHAPE_COUNT] <= n)
    if indexed and state[RESTING_VALID] == 0:
        world.resting = build_resting(fat, alive)
        state[RESTING_VALID] = 1
    # the moved shapes' old pairs, when the awake sets know them
    keys, n_keys = moved_keys(world, moved, n_moved)
    return pairs_after_moves(
        borrow_column(world, "contacts", "key"), moved, n_moved, fat, alive,
        borrow_column(world, "shapes", "body"), borrow_column(world, "bodies", "type"),
        borrow_column(world, "shapes", "is_sensor"), borrow_column(world, "shapes", "group"),
        borrow_column(world, "shapes", "category"), borrow_column(world, "shapes", "mask"),
        borrow(world, "no_collide"), np.int64(FEW_TESTS), keys, n_keys,
        borrow(world, "resting"), indexed)


@stage_kernel
def update_pairs(world, moved, n_moved, dirty):
    """The step's pair stage: search the pairs again; a new contact store if they changed
    (True), else the old one is kept (False: usually, while things move, the pairs stay the
    same).

    ``moved[:n_moved]``: the shapes whose fat box changed this step. Unless the pairs are
    ``dirty`` (shapes, filters or joints changed) or many moved (more than one in
    :data:`INCREMENTAL_BELOW`, in a world past :data:`FEW_TESTS`), only their pairs are
    searched (:func:`moved_pairs_stage`), else every pair (the global search and filter);
    either way the pairs are the global search's, bit for bit. A few moved boxes among a few
    boxes are first only tested for whether they kept their pairs (:func:`moves_keep_pairs`,
    in this kernel: no allocation, no reference counted, no call by address). In a small
    world every move takes the few boxes' path: with 11 shapes, two moved boxes sent the step
    to the global search (its allocations: about 5,000 cycles a step, bounds included, against
    1,700 with one moved box, measured in the step's clock). While the incremental path is not
    loaded (its slot 0: a cold start's first steps, :data:`.step.LATER_SLOTS`) every search is
    the global one."""
    # The two paths are called by address (the world's table of verbs), not linked in:
    # Numba links a callee's optimised code into its caller's module and optimises the whole
    # again, so each level of calls cost the searches' optimisation once more (inlining them,
    # ``inline="always"``, made this kernel's compile slower still: 24 s of CPU for the one
    # function, measured). Called by address, the global search's constant arguments
    # (``LARGE_CELLS``, ``SWEEP_BELOW``) arrive as int64 values, not as literals.
    # The resting index first learns which boxes moved, whatever the path (dirty pairs have
    # made it invalid already: the awake sets were rebuilt). Then the usual step of a small
    # world (a few boxes moved, no pair changed) ends, before this kernel has read an array
    # of the world: each array it reads is a reference counted (two atomic operations), and
    # the incremental path's call returned a tuple with an array (restitution's step: 19,030
    # -> 18,643 instructions, callgrind, BENCHMARKS.md, session 26).
    _note_moves(world, moved, n_moved)
    if not dirty and _moves_keep_world(world, moved, n_moved):
        return False
    alive = borrow_column(world, "shapes", "alive")
    n = alive.shape[0]
    old_keys = borrow_column(world, "contacts", "key")
    few = n * n_moved <= FEW_TESTS
    table = borrow(world, "verbs")
    incremental = table[MOVED_PAIRS]
    if incremental != 0 and not dirty and (few or INCREMENTAL_BELOW * n_moved <= n):
        changed, pairs = call_moved_pairs(incremental, (world, moved, n_moved))
        if not changed:
            return False
    else:
        # the global search and filter
        body = borrow_column(world, "shapes", "body")
        group = borrow_column(world, "shapes", "group")
        pairs = filter_pairs(call_search_pairs(table[SEARCH_PAIRS], (
                                 borrow_column(world, "shapes", "fat_aabb"), alive, body, group,
                                 CELL_SCALE, LARGE_CELLS, SWEEP_BELOW)),
                             body, borrow_column(world, "bodies", "type"),
                             borrow_column(world, "shapes", "is_sensor"), group,
                             borrow_column(world, "shapes", "category"),
                             borrow_column(world, "shapes", "mask"), borrow(world, "no_collide"))
        if _same_pairs(old_keys, pairs):
            return False
    # A new store, one row per pair, with the existing contacts' manifolds and impulses, a new
    # contact's coefficients mixed by the world's rules (its step row's)
    fresh = allocate_contacts(pairs.shape[0], world.contacts)
    rules = borrow(world, "settings")
    carry_contacts(world.contacts, fresh, pairs, world.shapes, np.int64(rules[FRICTION_MIXING]),
                   np.int64(rules[RESTITUTION_MIXING]))
    world.contacts = fresh
    borrow(world, "awake_state")[EDGES_VALID] = 0  # the bodies' contact rows are the old store's
    return True


@kernel
def filtered_pairs(fat, alive, body, body_type, sensor, group, category, mask, no_collide,
                   cell_scale, large_cells, sweep_below):
    """The global search and filter from Python (tests, benchmarks): what the pair stage's
    global path computes, for the same columns."""
    pairs = search_pairs(fat, alive, body, group, cell_scale, large_cells, sweep_below)
    return filter_pairs(pairs, body, body_type, sensor, group, category, mask, no_collide)


@kernel
def incremental_pairs(old_keys, moved, fat, alive, body, body_type, sensor, group, category,
                      mask, no_collide, few_tests=FEW_TESTS):
    """:func:`pairs_after_moves` from Python (tests, benchmarks); the pairs, changed or not.
    ``few_tests``: as the step passes it (0: always the moved boxes' grid)."""
    changed, pairs = pairs_after_moves(old_keys, moved, moved.shape[0], fat, alive, body,
                                       body_type, sensor, group, category, mask, no_collide,
                                       few_tests, old_keys, -1, empty_resting(), False)
    return pairs if changed else _pairs_of(old_keys)


@kernel
def indexed_pairs(old_keys, moved, old_fat, fat, alive, body, body_type, sensor, group,
                  category, mask, no_collide):
    """:func:`pairs_after_moves` through the resting index (tests): the index built on the
    boxes ``old_fat``, the rows ``moved`` (the only ones whose box differs in ``fat``) marked
    loose, then searched; the pairs, changed or not."""
    index = build_resting(old_fat, alive)
    note_moves(index, moved, moved.shape[0])
    changed, pairs = pairs_after_moves(old_keys, moved, moved.shape[0], fat, alive, body,
                                       body_type, sensor, group, category, mask, no_collide,
                                       0, old_keys, -1, index, True)
    return pairs if changed else _pairs_of(old_keys)


@inner_kernel
def _pairs_of(keys):
    """The (m, 2) pairs of the keys ``lo << 32 | hi``."""
    out = np.empty((keys.shape[0], 2), dtype=np.int64)
    for t in range(keys.shape[0]):
        out[t, 0] = keys[t] >> 32
        out[t, 1] = keys[t] & 0xFFFFFFFF
    return out


@kernel
def pairs_unchanged(old_keys, moved, fat, alive, body, body_type, sensor, group, category, mask,
                    no_collide):
    """:func:`moves_keep_pairs` from Python (tests)."""
    return moves_keep_pairs(old_keys, moved, moved.shape[0], fat, alive, body, body_type,
                            sensor, group, category, mask, no_collide)


__all__ = ["FEW_TESTS", "INCREMENTAL_BELOW", "WIDE_FACTOR", "moves_keep_pairs",
           "pairs_after_moves", "moved_pairs_stage", "update_pairs", "filtered_pairs",
           "incremental_pairs", "indexed_pairs", "pairs_unchanged"]
