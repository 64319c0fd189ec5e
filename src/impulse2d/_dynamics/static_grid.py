"""The continuous stage's grid of static shapes, kept between steps.

A pass of the continuous stage whose obstacles are static shapes only (the non-bullets' pass,
:mod:`.continuous` and :mod:`.continuous_box2d23`, in a world with no kinematic shape) sweeps
against the same grid step after step: static shapes do not move. Building it anew was most of the
stage's time in BipedalWalker, whose ground is about 200 static edges (the stage 22.5 us of a
43 us world-step; the grid's build about 27 us measured apart, both under load: BENCHMARKS.md).
The world's stores (:data:`.world_ref.WORLD_STORES`, field ``static_grid``) keep the last one
built.

It is checked, not invalidated: before each use one pass over the shape rows tests that the
grid still lists exactly the live, non-sensor shapes of static bodies and that each one's box
of this step (``Shapes.aabb``) is bitwise the box it was binned with. The grid
(:func:`.._collision.query_index.build_grid`) is a function of those rows and boxes alone, so a
grid that passes is the one the pass would build now, bit for bit, and the sweeps meet the same
candidates in the same order (the same times of impact). Every path that changes a static
shape (created, destroyed, reshaped, its body moved or retyped, a store grown or restored, a
world of a batch) therefore needs no hook: the check sees its result. The check costs one
comparison of a shape's flags and box a row (the obstacles' bounds, which the pass needs first,
come with the grid instead of their own pass over the rows).

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
from .._core.jit import inner_kernel
from .._core.state import DYNAMIC, STATIC

# the kept grid, a tuple: which rows it lists (n,), their boxes (n, 4; other rows unset), the
# rows in order, the grid's cell starts, items and large shapes, its origin and cell size and
# the bounds of its boxes (x0, y0, cell, lo_x, lo_y, hi_x, hi_y; m), and its cells (nx, ny)
IN_GRID, BOXES, ROWS, STARTS, ITEMS, LARGE, PARAMS, CELLS = range(8)


def _empty():
    """A kept grid of no rows: every check fails, so the first pass builds one."""
    return (np.zeros(0, np.bool_), np.zeros((0, 4)), np.zeros(0, np.int64),
            np.zeros(2, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
            np.zeros(7), np.ones(2, np.int64))


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
            np.ascontiguousarray(large), params, cells)


@inner_kernel
def static_grid(world, bodies, shapes):
    """``(holds, kept)``: the world's kept grid, built again first (and kept in the stores) if
    it no longer lists the static shapes where they are; ``holds`` False (the grid not to be
    used) when a kinematic shape is an obstacle too. ``bodies``, ``shapes``: the world's."""
    kept = world.static_grid
    state = _check(bodies, shapes, kept)
    if state < 0:
        return False, kept
    if state == 0:
        kept = _build(bodies, shapes)
        world.static_grid = kept
    return True, kept


@inner_kernel
def kept_bounds(kept):
    """The box around the kept grid's shapes (lo_x, lo_y, hi_x, hi_y; m)."""
    params = kept[PARAMS]
    return params[3], params[4], params[5], params[6]


@inner_kernel
def kept_obstacles(kept):
    """``(rows, boxes, grid)`` as the pass uses them, ``grid`` as ``build_grid`` returns it."""
    params = kept[PARAMS]
    cells = kept[CELLS]
    return kept[ROWS], kept[BOXES], (params[0], params[1], params[2], cells[0], cells[1],
                                     kept[STARTS], kept[ITEMS], kept[LARGE])


__all__ = ["STATIC_GRID_TYPE", "empty_static_grid", "static_grid", "kept_bounds",
           "kept_obstacles"]
