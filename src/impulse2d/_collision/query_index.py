"""The queries' index: the shapes' current boxes binned into a uniform grid, built once and
kept until a shape moves, appears or goes.

Every query (one ray, thousands of rays, a box, a point, a moving shape) walks the same grid,
so a single ray and a batch test the same shapes with the same arithmetic (bit for bit equal
answers), and a query costs what its neighbourhood costs, not what the world costs. Building
it is linear in the shapes (0.1-0.2 ms for 2,000); the world drops it when a step, a set
position or angle, or a shape added or destroyed makes it stale (``World._query_index``), and
the next query builds it again. Collision filters and the sensor flag are not part of it:
the kernels read them from the shape store at each query, so changing them needs no rebuild.

Grid: cells about twice the median shape size (at most about 4 cells per shape, so the grid
stays linear in the shapes); a shape whose box covers more than ``MAX_CELLS_PER_SHAPE`` cells
(a ground slab, a container wall) goes into a ``large`` list every query tests by its box.

A kernel reaches the index and the stores through :class:`QueryIndex.refs`, one int64 array of
addresses and sizes (see :mod:`.._core.address`), which it is handed by its own address
(:attr:`QueryIndex.address`, :func:`refs_at`): one number to unbox per call instead of about
twenty arrays, which is most of what makes a single query cheap (an array argument costs about
0.1 us a call more than a number, measured on the 2-core CI machine). The number is a float,
the address over 16: Numba unboxes a float 0.04 us faster than an int of more than 30 bits
(CPython's multi-digit path), and every address over 16 is exact in a float64.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import carray

from .._core.address import address, void_pointer
from .._core.jit import DirectCall, inline_kernel, inner_kernel, kernel
from ..constants import HUGE
from .geometry import shape_aabb

MAX_CELLS_PER_SHAPE = 64
"""A shape whose box covers more grid cells goes into a list every query tests by its box
instead of into each cell."""

CELL_SCALE = 2.0
"""Grid cell size over the median shape size (largest box side)."""

# -- the layout of ``refs`` ----------------------------------------------------------------------
# Sizes and counters.
N_SHAPES, N_BODIES, NX, NY, N_ITEMS, N_LARGE, NEXT_STAMP = range(7)
# Addresses of the shape and body store columns the queries read.
ALIVE, SENSOR, CATEGORY, MASK, BODY, COUNT, VERTICES, NORMALS, RADIUS, ORIGIN, ROT = range(7, 18)
# Addresses of the index's own arrays: boxes (n, 4), cell starts (nx ny + 1), cell items,
# large shapes, the per-shape stamp (a shape is tested once per query), the grid's origin, cell
# size and the coordinates' limit (4,: a single query's numbers must be within +-limit), and
# the output buffers of the queries that return many shapes.
BOXES, STARTS, ITEMS, LARGE, STAMP, GRID, OUT_ROWS, OUT_FRACTIONS, OUT_NORMALS = range(18, 27)
# Addresses (``id``) of the Python objects single queries' results are boxed into
# (:mod:`.query_results`): the world's dict of shape handles by row, the RayHit and Vec2 classes.
HANDLES, HIT_CLASS, VEC_CLASS = range(27, 30)
REFS = 30


class IndexView(NamedTuple):
    """The arrays of ``refs`` as a kernel sees them, and the grid's geometry."""

    alive: np.ndarray
    is_sensor: np.ndarray
    category: np.ndarray
    mask: np.ndarray
    body: np.ndarray
    count: np.ndarray
    vertices: np.ndarray
    normals: np.ndarray
    radius: np.ndarray
    origin: np.ndarray
    rot: np.ndarray
    boxes: np.ndarray
    starts: np.ndarray
    items: np.ndarray
    large: np.ndarray
    stamp: np.ndarray
    out_rows: np.ndarray
    out_fractions: np.ndarray
    out_normals: np.ndarray
    x0: float
    y0: float
    cell: float
    limit: float
    nx: int
    ny: int


@inline_kernel
def refs_at(at):
    """The index's ``refs``, from ``at`` (:attr:`QueryIndex.address`: its address over 16)."""
    return carray(void_pointer(int(at) * 16), REFS, np.int64)


@inline_kernel
def coordinate_limit(refs):
    """The bound (m) on a single query's numbers: finite and within +-it."""
    return carray(void_pointer(refs[GRID]), 4, np.float64)[3]


@inline_kernel
def view(refs):
    """The :class:`IndexView` of ``refs``."""
    n = refs[N_SHAPES]
    nb = refs[N_BODIES]
    grid = carray(void_pointer(refs[GRID]), 4, np.float64)
    return IndexView(carray(void_pointer(refs[ALIVE]), n, np.bool_),
                     carray(void_pointer(refs[SENSOR]), n, np.bool_),
                     carray(void_pointer(refs[CATEGORY]), n, np.uint64),
                     carray(void_pointer(refs[MASK]), n, np.uint64),
                     carray(void_pointer(refs[BODY]), n, np.int64),
                     carray(void_pointer(refs[COUNT]), n, np.int64),
                     carray(void_pointer(refs[VERTICES]), (n, 8, 2), np.float64),
                     carray(void_pointer(refs[NORMALS]), (n, 8, 2), np.float64),
                     carray(void_pointer(refs[RADIUS]), n, np.float64),
                     carray(void_pointer(refs[ORIGIN]), (nb, 2), np.float64),
                     carray(void_pointer(refs[ROT]), (nb, 2), np.float64),
                     carray(void_pointer(refs[BOXES]), (n, 4), np.float64),
                     carray(void_pointer(refs[STARTS]), refs[NX] * refs[NY] + 1, np.int64),
                     carray(void_pointer(refs[ITEMS]), refs[N_ITEMS], np.int64),
                     carray(void_pointer(refs[LARGE]), refs[N_LARGE], np.int64),
                     carray(void_pointer(refs[STAMP]), n, np.int64),
                     carray(void_pointer(refs[OUT_ROWS]), n, np.int64),
                     carray(void_pointer(refs[OUT_FRACTIONS]), n, np.float64),
                     carray(void_pointer(refs[OUT_NORMALS]), (n, 2), np.float64),
                     grid[0], grid[1], grid[2], grid[3], refs[NX], refs[NY])


@inline_kernel
def next_stamp(refs, count):
    """Reserve ``count`` stamps (one per query, or per ray of a batch): the first of them.
    A shape is tested by a query only while its stamp is not the query's."""
    first = refs[NEXT_STAMP]
    refs[NEXT_STAMP] = first + count
    return first


@inline_kernel
def cell_range(v, lo_x, lo_y, hi_x, hi_y):
    """The cells (i0, j0, i1, j1) a box covers, clamped to the grid: every shape whose box
    meets the box is in one of them or in the large list (the map from a coordinate to its
    clamped cell is monotonic)."""
    return (min(max(int((lo_x - v.x0) / v.cell), 0), v.nx - 1),
            min(max(int((lo_y - v.y0) / v.cell), 0), v.ny - 1),
            min(max(int((hi_x - v.x0) / v.cell), 0), v.nx - 1),
            min(max(int((hi_y - v.y0) / v.cell), 0), v.ny - 1))


@inner_kernel
def _cell_range(box, x0, y0, cell, nx, ny):
    """The cells (i0, j0, i1, j1) a box inside the grid covers."""
    return (min(int((box[0] - x0) / cell), nx - 1), min(int((box[1] - y0) / cell), ny - 1),
            min(int((box[2] - x0) / cell), nx - 1), min(int((box[3] - y0) / cell), ny - 1))


@inner_kernel
def build_grid(boxes, candidates, cell_scale):
    """Bin the boxes of ``candidates`` (at least one) into a uniform grid. Returns ``(x0, y0,
    cell, nx, ny, starts, items, large)``: cell (i, j) holds ``items[starts[j nx + i]:starts[j
    nx + i + 1]]``; ``large`` the shapes binned nowhere (too many cells)."""
    m = candidates.shape[0]
    x0 = math.inf
    y0 = math.inf
    x1 = -math.inf
    y1 = -math.inf
    sizes = np.empty(m)
    for k in range(m):
        box = boxes[candidates[k]]
        x0 = min(x0, box[0])
        y0 = min(y0, box[1])
        x1 = max(x1, box[2])
        y1 = max(y1, box[3])
        sizes[k] = max(box[2] - box[0], box[3] - box[1])
    # Cells of ``cell_scale`` times the median shape: a ray's cell holds a handful of shapes.
    # At most about 4 cells per shape in all, so the grid stays linear in the shapes.
    cell = cell_scale * np.median(sizes)
    span = max(x1 - x0, y1 - y0, 1e-9)
    cell = max(cell, span / math.sqrt(4.0 * m + 1.0), 1e-9)
    nx = min(int((x1 - x0) / cell) + 1, 1 << 15)
    ny = min(int((y1 - y0) / cell) + 1, 1 << 15)
    cell = max(cell, (x1 - x0) / nx, (y1 - y0) / ny)
    counts = np.zeros(nx * ny + 1, np.int64)
    large = np.empty(m, np.int64)
    n_large = 0
    binned = np.zeros(m, np.bool_)
    for k in range(m):
        i0, j0, i1, j1 = _cell_range(boxes[candidates[k]], x0, y0, cell, nx, ny)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > MAX_CELLS_PER_SHAPE:
            large[n_large] = candidates[k]
            n_large += 1
            continue
        binned[k] = True
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                counts[j * nx + i + 1] += 1
    for c in range(nx * ny):
        counts[c + 1] += counts[c]
    fill = counts[:-1].copy()
    items = np.empty(counts[nx * ny], np.int64)
    for k in range(m):
        if not binned[k]:
            continue
        i0, j0, i1, j1 = _cell_range(boxes[candidates[k]], x0, y0, cell, nx, ny)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                items[fill[j * nx + i]] = candidates[k]
                fill[j * nx + i] += 1
    return x0, y0, cell, nx, ny, counts, items, large[:n_large].copy()


@kernel
def build_index(alive, owner, count, vertices, radius, origin, rot, cell_scale):
    """The boxes of the live shapes where they are now and their grid: ``(boxes, x0, y0, cell,
    nx, ny, starts, items, large)``; a world without shapes gets one empty cell."""
    n = alive.shape[0]
    boxes = np.empty((n, 4))
    rows = np.empty(n, np.int64)
    m = 0
    for s in range(n):
        if alive[s]:
            b = owner[s]
            shape_aabb(count[s], vertices[s], radius[s], origin[b, 0], origin[b, 1], rot[b, 0],
                       rot[b, 1], boxes[s])
            rows[m] = s
            m += 1
        else:
            boxes[s, 0] = math.inf  # empty: no query meets it
            boxes[s, 1] = math.inf
            boxes[s, 2] = -math.inf
            boxes[s, 3] = -math.inf
    if m == 0:
        return (boxes, 0.0, 0.0, 1.0, 1, 1, np.zeros(2, np.int64), np.empty(0, np.int64),
                np.empty(0, np.int64))
    x0, y0, cell, nx, ny, starts, items, large = build_grid(boxes, rows[:m], cell_scale)
    return boxes, x0, y0, cell, nx, ny, starts, items, large


_build = DirectCall(build_index, "query index", 3.0)


def _aligned(n: int) -> np.ndarray:
    """``n`` zeros (int64) at an address that is a multiple of 16."""
    raw = np.zeros(n + 2, np.int64)
    skip = (-address(raw) % 16) // 8
    return raw[skip:skip + n]


class QueryIndex:
    """The grid of the shapes of ``shapes`` and ``bodies`` (the world's stores) where they are
    now, and :attr:`refs`, the addresses a query kernel reads it and the stores through.
    ``handles`` (the world's dict of shape handles by row), ``hit_class`` and ``vec_class`` are
    what the results of single queries are made of (:mod:`.query_results`).

    Valid while no shape moved, appeared or went and the stores are the same objects (a store
    that grows is replaced): the world drops it then (``World._query_index``)."""

    def __init__(self, shapes, bodies, handles: dict, hit_class: type, vec_class: type):
        self.shapes = shapes
        self.bodies = bodies
        self._objects = (handles, hit_class, vec_class)  # their addresses are in refs
        boxes, x0, y0, cell, nx, ny, starts, items, large = _build(
            shapes.alive, shapes.body, shapes.count, shapes.vertices, shapes.radius,
            bodies.origin, bodies.rot, CELL_SCALE)
        n = len(shapes.alive)
        self.out_rows = np.zeros(n, np.int64)
        self.out_fractions = np.zeros(n)
        self.out_normals = np.zeros((n, 2))
        arrays = {ALIVE: shapes.alive, SENSOR: shapes.is_sensor, CATEGORY: shapes.category,
                  MASK: shapes.mask, BODY: shapes.body, COUNT: shapes.count,
                  VERTICES: shapes.vertices, NORMALS: shapes.normals, RADIUS: shapes.radius,
                  ORIGIN: bodies.origin, ROT: bodies.rot, BOXES: boxes,
                  STARTS: np.ascontiguousarray(starts), ITEMS: np.ascontiguousarray(items),
                  LARGE: np.ascontiguousarray(large), STAMP: np.full(n, -1, np.int64),
                  GRID: np.array([x0, y0, cell, HUGE]), OUT_ROWS: self.out_rows,
                  OUT_FRACTIONS: self.out_fractions, OUT_NORMALS: self.out_normals}
        self._arrays = arrays  # every array whose address is in refs, kept alive here
        refs = _aligned(REFS)
        refs[N_SHAPES] = n
        refs[N_BODIES] = len(bodies.alive)
        refs[NX] = nx
        refs[NY] = ny
        refs[N_ITEMS] = len(items)
        refs[N_LARGE] = len(large)
        for slot, array in arrays.items():
            refs[slot] = address(array)
        refs[HANDLES] = id(handles)
        refs[HIT_CLASS] = id(hit_class)
        refs[VEC_CLASS] = id(vec_class)
        self.refs = refs
        self.address = float(address(refs) // 16)
        """What the query kernels take: the address of :attr:`refs` over 16, as a float
        (:func:`refs_at`)."""


__all__ = ["QueryIndex", "IndexView", "refs_at", "coordinate_limit", "view", "next_stamp",
           "cell_range", "build_index", "MAX_CELLS_PER_SHAPE", "HANDLES", "HIT_CLASS",
           "VEC_CLASS"]
