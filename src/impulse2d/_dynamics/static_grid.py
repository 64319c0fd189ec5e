"""The continuous stage's grid of static shapes, kept between steps.

A pass of the continuous stage whose obstacles are static shapes only (the non-bullets' pass,
:mod:`.continuous` and :mod:`.continuous_box2d23`, in a world with no kinematic shape) sweeps
against the same grid step after step: static shapes do not move. Building it anew was most of the
stage's time in BipedalWalker, whose ground is about 200 static edges (the stage 22.5 us of a
43 us world-step; the grid's build about 27 us measured apart, both under load: BENCHMARKS.md).
The world's stores (:data:`.world_ref.WORLD_STORES`, field ``static_grid``) keep the last one
built.

It is checked, not invalidated: one pass over the shape rows (:func:`checked_grid`) tests that
the grid still lists exactly the live, non-sensor shapes of static bodies and that each one's
box of this step (``Shapes.aabb``) is bitwise the box it was binned with. The grid
(:func:`.._collision.query_index.build_grid`) is a function of those rows and boxes alone, so a
grid that passes is the one the pass would build now, bit for bit, and the sweeps meet the same
candidates in the same order (the same times of impact). Every path that changes a static
shape (created, destroyed, reshaped, its body moved or retyped, a store grown or restored, a
world of a batch) therefore needs no hook of its own: the check sees its result.

The check runs only when a static shape may have changed: a static shape's box, its flags and
its body's type change only by Python between steps, and every such change marks the step's
awake sets stale (:func:`impulse2d._sleep.awake_changed`, or the pairs dirty, or a new
reference), so the next step rebuilds them (:func:`.awake.rebuild`), which clears
``awake_state[STATIC_GRID_VALID]``, as it clears the pair stage's ``RESTING_VALID`` on the same
guarantee. A check that passes (or a build) sets it again. While it is set, the stage finds the
grid ready in O(1) (:func:`.continuous.grid_ready`): its cost is then that of the bodies that
moved fast, not of the static shapes (LunarLander's step paid 5-9 us for the check and the
stage's allocations before, each call that passed the stores counting their arrays'
references, BENCHMARKS.md 2026-11-28 evening).

The kept tuple also holds the stage's scratch, sized to the stores, so that a step allocates
nothing (:mod:`.continuous`): the fast bodies and their shapes grouped by body, the grid query's
stamps and candidates, the swept shapes' points, and the last stamp used.

A world with a kinematic shape (met where it is now, so its box changes) builds its obstacles
each step as before; so does the bullets' pass, whose obstacles include dynamic bodies.

Why not the queries' static layer (:mod:`.._collision.query_index`): it lists sensors too (a
query may ask for them), so its cells and their order differ from the stage's, and the stage
runs inside the compiled step, where the world's index (a Python object, dropped by each step
and refreshed at the next query) is not at hand.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .._collision.query_index import CELL_SCALE, build_grid
from .._core.jit import inline_kernel, inner_kernel
from .._core.state import DYNAMIC, STATIC

# the kept grid, a tuple: which rows it lists (n,), their boxes (n, 4; other rows unset), the
# rows in order, the grid's cell starts, items and large shapes, its origin and cell size and
# the bounds of its boxes (x0, y0, cell, lo_x, lo_y, hi_x, hi_y; m), and its cells (nx, ny);
# then the stage's scratch: COUNTS (int64: KINEMATIC, TAG), BODY_SCRATCH (int64, 4 rows of the
# body store's length + 1: SLOT, FAST, FIRST, FILL), SHAPE_SCRATCH (int64, 3 rows of the shape
# store's length: SHAPE_ITEMS, STAMP, CANDIDATES) and POINTS (4 x 8 x 2 floats)
(IN_GRID, BOXES, ROWS, STARTS, ITEMS, LARGE, PARAMS, CELLS, COUNTS, BODY_SCRATCH,
 SHAPE_SCRATCH, POINTS) = range(12)
KINEMATIC, TAG = 0, 1
"""COUNTS: 1 when a live non-sensor shape is on a kinematic body (the stage's pass against
static shapes is not the whole sweep: the stage builds its obstacles as before); the last stamp
of the grid queries (stamps only grow, so a kept stamp never equals a new query's)."""
SLOT, FAST, FIRST, FILL = range(4)
"""BODY_SCRATCH rows: each body's place in the fast list (-1: none), the fast list, the start
of each fast body's shapes in SHAPE_ITEMS (count + 1), and the counting sort's fill."""
SHAPE_ITEMS, STAMP, CANDIDATES = range(3)
"""SHAPE_SCRATCH rows: the fast bodies' shapes grouped by body, each shape's last stamp, a
query's candidates."""


def _empty():
    """A kept grid of no rows: every check fails, so the first pass builds one."""
    # np.empty, its few values written by hand, where the stores' constructor (which makes this
    # grid for a cold start's build) has no np.zeros of the type and rank compiled already (it
    # has those of int64 rows and of 2-D floats: .scratch.new_scratch): an np.zeros is np.empty
    # and a fill, an overload of each to compile, np.ones and np.full one more (BENCHMARKS.md,
    # sessions 21 and 22)
    cells = np.zeros(2, np.int64)
    cells[0] = 1
    cells[1] = 1
    params = np.empty(7)
    for k in range(7):
        params[k] = 0.0
    body_scratch = np.empty((4, 1), np.int64)
    for row in range(4):
        body_scratch[row, 0] = -1
    points = np.empty((4, 8, 2))
    for i in range(4):
        for j in range(8):
            points[i, j, 0] = 0.0
            points[i, j, 1] = 0.0
    return (np.empty(0, np.bool_), np.zeros((0, 4)), np.zeros(0, np.int64),
            np.zeros(2, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), params, cells,
            np.zeros(2, np.int64), body_scratch, np.empty((3, 0), np.int64), points)


STATIC_GRID_TYPE = numba.typeof(_empty())
"""Numba type of a kept grid (the stores' field)."""

empty_static_grid = inner_kernel(_empty)


@inner_kernel
def _check(bodies, shapes, kept):
    """1: ``kept`` lists exactly the live non-sensor shapes of static bodies, each with its box
    of this step; 0: it does not; -1: some live non-sensor shape is on a kinematic body (the
    pass's obstacles are not static only)."""
    n = shapes.alive.shape[0]
    listed = kept[IN_GRID]
    boxes = kept[BOXES]
    holds = listed.shape[0] == n
    for s in range(n):
        want = False
        if shapes.alive[s] and not shapes.is_sensor[s]:
            kind = bodies.type[shapes.body[s]]
            if kind == STATIC:
                want = True
            elif kind != DYNAMIC:
                return -1
        if not holds:
            continue
        if want != listed[s]:
            holds = False
        elif want:
            box = shapes.aabb[s]
            if (box[0] != boxes[s, 0] or box[1] != boxes[s, 1] or box[2] != boxes[s, 2]
                    or box[3] != boxes[s, 3]):
                holds = False
    return 1 if holds else 0


@inner_kernel
def _build(bodies, shapes):
    """A kept grid of the live non-sensor shapes of static bodies at their boxes of this step:
    the rows, boxes, grid and bounds :func:`.continuous._obstacles`, ``build_grid`` and
    :func:`.continuous._obstacle_bounds` give for a pass against static shapes only (the same
    rows in the same order, so the same minima and maxima and the same grid)."""
    n = shapes.alive.shape[0]
    listed = np.zeros(n, np.bool_)
    boxes = np.empty((n, 4))
    rows = np.empty(n, np.int64)
    m = 0
    lo_x = math.inf
    lo_y = math.inf
    hi_x = -math.inf
    hi_y = -math.inf
    for s in range(n):
        if not shapes.alive[s] or shapes.is_sensor[s] or bodies.type[shapes.body[s]] != STATIC:
            continue
        for k in range(4):
            boxes[s, k] = shapes.aabb[s, k]
        lo_x = min(lo_x, boxes[s, 0])
        lo_y = min(lo_y, boxes[s, 1])
        hi_x = max(hi_x, boxes[s, 2])
        hi_y = max(hi_y, boxes[s, 3])
        listed[s] = True
        rows[m] = s
        m += 1
    rows = rows[:m].copy()
    x0, y0, cell, nx, ny, starts, items, large = build_grid(boxes, rows, CELL_SCALE)
    params = np.empty(7)
    params[0] = x0
    params[1] = y0
    params[2] = cell
    params[3] = lo_x
    params[4] = lo_y
    params[5] = hi_x
    params[6] = hi_y
    cells = np.empty(2, np.int64)
    cells[0] = nx
    cells[1] = ny
    return (listed, boxes, rows, np.ascontiguousarray(starts), np.ascontiguousarray(items),
            np.ascontiguousarray(large), params, cells, np.zeros(2, np.int64),
            np.full((4, bodies.alive.shape[0] + 1), -1, np.int64),
            np.full((3, n), -1, np.int64), np.zeros((4, 8, 2)))


@inner_kernel
def _resized(kept, n_bodies, n_shapes):
    """``kept`` with its scratch sized to stores of ``n_bodies`` and ``n_shapes`` rows (the
    grid's arrays shared; the last stamp kept)."""
    counts = kept[COUNTS].copy()
    return (kept[IN_GRID], kept[BOXES], kept[ROWS], kept[STARTS], kept[ITEMS], kept[LARGE],
            kept[PARAMS], kept[CELLS], counts, np.full((4, n_bodies + 1), -1, np.int64),
            np.full((3, n_shapes), -1, np.int64), kept[POINTS])


@inner_kernel
def checked_grid(kept, bodies, shapes):
    """``(state, kept)``: the kept grid, or a new one (for the caller to keep in the stores) if
    it no longer lists the static shapes where they are, its scratch sized to the stores;
    ``state`` as :func:`_check`'s, -1 (a kinematic shape is an obstacle too: the grid is not
    the pass's) noted in its ``COUNTS[KINEMATIC]``."""
    state = _check(bodies, shapes, kept)
    if state == 0:
        kept = _build(bodies, shapes)
    if (kept[BODY_SCRATCH].shape[1] != bodies.alive.shape[0] + 1
            or kept[SHAPE_SCRATCH].shape[1] != shapes.alive.shape[0]):
        kept = _resized(kept, bodies.alive.shape[0], shapes.alive.shape[0])
    kept[COUNTS][KINEMATIC] = 1 if state < 0 else 0
    return state, kept


@inline_kernel
def scratch_fits(kept, n_bodies, n_shapes):
    """Whether the kept scratch is sized to stores of ``n_bodies`` and ``n_shapes`` rows."""
    return (kept[BODY_SCRATCH].shape[1] == n_bodies + 1
            and kept[SHAPE_SCRATCH].shape[1] == n_shapes)


@inline_kernel
def kept_bounds(kept):
    """The box around the kept grid's shapes (lo_x, lo_y, hi_x, hi_y; m)."""
    params = kept[PARAMS]
    return params[3], params[4], params[5], params[6]


@inline_kernel
def kept_obstacles(kept):
    """``(rows, boxes, grid)`` as the pass uses them, ``grid`` as ``build_grid`` returns it."""
    params = kept[PARAMS]
    cells = kept[CELLS]
    return kept[ROWS], kept[BOXES], (params[0], params[1], params[2], cells[0], cells[1],
                                     kept[STARTS], kept[ITEMS], kept[LARGE])


__all__ = ["STATIC_GRID_TYPE", "empty_static_grid", "checked_grid", "scratch_fits", "kept_bounds",
           "kept_obstacles"]
