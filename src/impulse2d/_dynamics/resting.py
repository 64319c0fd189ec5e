"""The pair stage's index of resting proxies: a grid of the fat boxes that have not moved, kept
between steps, so that a mostly-asleep world's pair search costs what its moving boxes cost.

Without it, each step on which a fat box moved passed once over every shape's box to find the
moved box's new overlaps (:func:`.pair_update._moved_overlaps`): 25-35 us a step for one ball
rolling beside 5,500 sleeping boxes (``many_pyramids_one_awake``, BENCHMARKS.md), where the
rest of such a step costs about 10 us. Box2D keeps static and sleeping proxies in trees of
their own for the same reason. Here one uniform grid (CSR: each cell's shape rows) holds every
live shape's fat box as it was when the grid was built; a shape whose fat box changes since is
*loose*: its grid entries are skipped, and it is tested against the moved boxes directly, as
are boxes too large for the grid (a ground box). A moved box then meets the boxes of the cells
it covers and the loose ones: a handful of tests instead of a pass over every box.

The grid is a pure index: the pairs it finds are those of the pass over every box, the same
set (each overlap reported once, in the cell holding the lower-left corner of the two boxes'
cell ranges, as :mod:`.._collision.broadphase` does), sorted afterwards as before, so the pair
list, the contact order and every trajectory are unchanged (``tests/test_resting.py``).

When it holds: within a step, fat boxes change only in the bounds stage, which lists each such
shape in the step's move buffer (:func:`.proxies.update_aabbs`); the pair stage marks those
loose (:func:`note_moves`) before it searches. Every other change (Python creating, moving,
reshaping or retyping a shape or body, a snapshot restored, a store replaced) marks the awake
sets stale (:func:`impulse2d._sleep.awake_changed`, or a new reference) or the pairs dirty,
and the rebuild of the awake sets (:func:`.awake.rebuild`) marks this grid invalid
(``awake_state[RESTING_VALID]``): the same guarantee the awake sets' bounds stage rests on.
The grid is built by the pair stage when the moved boxes must be searched, most shapes are
resting (at most one in :data:`AWAKE_FRACTION` awake) and it is invalid; it is dropped when
more than :data:`LOOSE_LIMIT` shapes have come loose, and built again at the next such search.
"""

from __future__ import annotations

import numba
import numpy as np

from .._collision.broadphase import _select, add_key
from .._core.jit import borrowing_kernel, inner_kernel

# the index, a tuple: counts (n_loose, nx, ny, loose at build), the grid's origin and inverse
# cell size (ox, oy, 1 / cell), each shape row's status, the loose rows, each cell's first entry
# (nx * ny + 1) and the entries (shape rows)
META, PARAMS, STATUS, LOOSE, STARTS, ITEMS = range(6)
N_LOOSE, NX, NY, LOOSE_AT_BUILD = range(4)
# a shape row's status
IN_GRID, LOOSE_ROW, ABSENT = 0, 1, 2

CELL_SCALE = 2.0
"""Cell edge = ``CELL_SCALE * median(max(width, height))`` of the boxes in the grid (a moved box
of the median size covers 1-4 cells)."""

LARGE_CELLS = 16
"""A box covering more cells than this is loose from the start (tested directly)."""

LOOSE_LIMIT = 128
"""The grid is dropped when more shapes than this (beyond those loose at its build) have come
loose: each moved box is tested against every loose one."""

AWAKE_FRACTION = 4
"""The grid is built only while at most one shape in ``AWAKE_FRACTION`` is awake: in a world
that moves, its shapes come loose within steps and the grid would be rebuilt over and over.
Speed only; any choice gives the same pairs."""


def _empty():
    """An index of no rows (never valid: the first search that wants one builds it)."""
    # its floats by np.empty and a loop: the stores' constructor, which makes this index at a
    # cold start's build, has np.empty of 1-D floats compiled already and no np.zeros of them
    # (as .static_grid._empty; BENCHMARKS.md, session 23)
    params = np.empty(3)
    for k in range(3):
        params[k] = 0.0
    return (np.zeros(4, np.int64), params, np.zeros(0, np.int64), np.zeros(0, np.int64),
            np.zeros(1, np.int64), np.zeros(0, np.int64))


RESTING_TYPE = numba.typeof(_empty())
"""Numba type of the index (the world reference's field ``resting``)."""

empty_resting = inner_kernel(_empty)


@inner_kernel
def clamped_cell(x, origin, inv_cell, count):
    """Cell of coordinate ``x`` on an axis of ``count`` cells, ``floor((x - origin) *
    inv_cell)`` clamped (0 for a NaN): monotonic in ``x`` (also the pair stage's buckets,
    :mod:`.pair_update`)."""
    v = (x - origin) * inv_cell
    if not v >= 0.0:
        return 0
    if v >= count:
        return count - 1
    return np.int64(v)


@inner_kernel
def build_resting(fat, alive):
    """The index of every live shape's fat box (``alive`` and not empty) as it is now."""
    n = alive.shape[0]
    status = np.empty(n, dtype=np.int64)
    loose = np.empty(n, dtype=np.int64)
    # the boxes with finite coordinates set the grid: its origin, extent and cell
    m = 0
    ox = np.inf
    oy = np.inf
    hx = -np.inf
    hy = -np.inf
    extent = np.empty(n, dtype=np.float64)
    for s in range(n):
        status[s] = ABSENT
        x0 = fat[s, 0]
        y0 = fat[s, 1]
        x1 = fat[s, 2]
        y1 = fat[s, 3]
        if alive[s] and x0 <= x1 and y0 <= y1 and -np.inf < x0 and x1 < np.inf \
                and -np.inf < y0 and y1 < np.inf:
            ox = min(ox, x0)
            oy = min(oy, y0)
            hx = max(hx, x1)
            hy = max(hy, y1)
            extent[m] = max(x1 - x0, y1 - y0)
            m += 1
    cell = CELL_SCALE * _select(extent[:m], (m - 1) // 2) if m > 0 else 1.0
    if not (cell > 0.0 and cell < np.inf):
        cell = 1.0
    # at most about 4 cells per box: a wide, sparse world gets larger cells
    if m > 0:
        while ((hx - ox) / cell + 1.0) * ((hy - oy) / cell + 1.0) > 4.0 * m + 64.0:
            cell *= 2.0
    inv_cell = 1.0 / cell
    nx = np.int64((hx - ox) * inv_cell) + 1 if m > 0 else 1
    ny = np.int64((hy - oy) * inv_cell) + 1 if m > 0 else 1
    if m == 0:
        ox = 0.0
        oy = 0.0
    # each live box into its cells, or loose (too large, or an infinite coordinate)
    starts = np.zeros(nx * ny + 1, dtype=np.int64)
    n_loose = 0
    for s in range(n):
        x0 = fat[s, 0]
        y0 = fat[s, 1]
        x1 = fat[s, 2]
        y1 = fat[s, 3]
        if not (alive[s] and x0 <= x1 and y0 <= y1):
            continue  # empty or dead: pairs with nothing until it moves
        cx0 = clamped_cell(x0, ox, inv_cell, nx)
        cy0 = clamped_cell(y0, oy, inv_cell, ny)
        cx1 = clamped_cell(x1, ox, inv_cell, nx)
        cy1 = clamped_cell(y1, oy, inv_cell, ny)
        finite = -np.inf < x0 and x1 < np.inf and -np.inf < y0 and y1 < np.inf
        if not finite or (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > LARGE_CELLS:
            status[s] = LOOSE_ROW
            loose[n_loose] = s
            n_loose += 1
            continue
        status[s] = IN_GRID
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                starts[cy * nx + cx + 1] += 1
    for c in range(nx * ny):
        starts[c + 1] += starts[c]
    items = np.empty(starts[nx * ny], dtype=np.int64)
    fill = np.empty(nx * ny, dtype=np.int64)
    for c in range(nx * ny):
        fill[c] = starts[c]
    for s in range(n):
        if status[s] != IN_GRID:
            continue
        cx0 = clamped_cell(fat[s, 0], ox, inv_cell, nx)
        cy0 = clamped_cell(fat[s, 1], oy, inv_cell, ny)
        cx1 = clamped_cell(fat[s, 2], ox, inv_cell, nx)
        cy1 = clamped_cell(fat[s, 3], oy, inv_cell, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                c = cy * nx + cx
                items[fill[c]] = s
                fill[c] += 1
    meta = np.empty(4, dtype=np.int64)
    meta[N_LOOSE] = n_loose
    meta[NX] = nx
    meta[NY] = ny
    meta[LOOSE_AT_BUILD] = n_loose
    params = np.empty(3, dtype=np.float64)
    params[0] = ox
    params[1] = oy
    params[2] = inv_cell
    return meta, params, status, loose, starts, items


@borrowing_kernel
def note_moves(index, moved, n_moved):
    """Mark the shapes ``moved[:n_moved]`` loose (their fat boxes changed this step). Returns
    False when too many have come loose (:data:`LOOSE_LIMIT`): the index should be dropped."""
    meta = index[META]
    status = index[STATUS]
    loose = index[LOOSE]
    n_loose = meta[N_LOOSE]
    for t in range(n_moved):
        s = moved[t]
        if status[s] != LOOSE_ROW:
            status[s] = LOOSE_ROW
            loose[n_loose] = s
            n_loose += 1
    meta[N_LOOSE] = n_loose
    return n_loose - meta[LOOSE_AT_BUILD] <= LOOSE_LIMIT


@inner_kernel
def resting_overlaps(index, fat, alive, owner, group, moved, n_moved, is_moved):
    """Keys ``lo << 32 | hi`` (in no particular order) of every overlapping, not excluded pair
    of live boxes with a moved box (``moved[:n_moved]``, flagged in ``is_moved``, marked loose
    by :func:`note_moves` unless the index was built this step): the pairs of
    :func:`.pair_update._moved_overlaps`, from the moved boxes' cells and the loose boxes."""
    meta = index[META]
    params = index[PARAMS]
    status = index[STATUS]
    loose = index[LOOSE]
    starts = index[STARTS]
    items = index[ITEMS]
    nx = meta[NX]
    ny = meta[NY]
    ox = params[0]
    oy = params[1]
    inv_cell = params[2]
    keys = np.empty(16, dtype=np.int64)
    count = np.int64(0)  # int64 from the start: a literal 0 compiled add_key a second time
    for t in range(n_moved):
        i = moved[t]
        ix0 = fat[i, 0]
        iy0 = fat[i, 1]
        ix1 = fat[i, 2]
        iy1 = fat[i, 3]
        if not (alive[i] and ix0 <= ix1 and iy0 <= iy1):
            continue
        cx0 = clamped_cell(ix0, ox, inv_cell, nx)
        cy0 = clamped_cell(iy0, oy, inv_cell, ny)
        cx1 = clamped_cell(ix1, ox, inv_cell, nx)
        cy1 = clamped_cell(iy1, oy, inv_cell, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                c = cy * nx + cx
                for e in range(starts[c], starts[c + 1]):
                    j = items[e]
                    # a loose box (moved since the build) is tested below, with its box of now
                    if status[j] != IN_GRID or j == i or (is_moved[j] and j < i):
                        continue
                    x0 = fat[j, 0]
                    y0 = fat[j, 1]
                    x1 = fat[j, 2]
                    y1 = fat[j, 3]
                    if not (ix0 <= x1 and x0 <= ix1 and iy0 <= y1 and y0 <= iy1):
                        continue
                    # once: in the cell of the lower-left corner of the two cell ranges
                    if (max(cx0, clamped_cell(x0, ox, inv_cell, nx)) != cx
                            or max(cy0, clamped_cell(y0, oy, inv_cell, ny)) != cy):
                        continue
                    keys, count = add_key(keys, count, i, j, owner, group)
        for u in range(meta[N_LOOSE]):
            j = loose[u]
            if j == i or not alive[j] or (is_moved[j] and j < i):
                continue
            x0 = fat[j, 0]
            y0 = fat[j, 1]
            x1 = fat[j, 2]
            y1 = fat[j, 3]
            if (x0 <= x1 and y0 <= y1 and ix0 <= x1 and x0 <= ix1 and iy0 <= y1
                    and y0 <= iy1):
                keys, count = add_key(keys, count, i, j, owner, group)
    return keys, count


__all__ = ["RESTING_TYPE", "empty_resting", "build_resting", "note_moves", "resting_overlaps",
           "AWAKE_FRACTION", "LOOSE_LIMIT"]
