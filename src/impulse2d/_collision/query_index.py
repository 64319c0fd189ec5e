"""The queries' index: the shapes' current boxes binned into uniform grids, two layers: the
shapes of static bodies, built once and kept across steps, and every other shape, binned again
at the first query after anything moved.

Every query (one ray, thousands of rays, a box, a point, a moving shape) walks the same two
grids, so a single ray and a batch test the same shapes with the same arithmetic (bit for bit
equal answers), and a query costs what its neighbourhood costs, not what the world costs. A
step, a set position or angle drops the world's index (``World._query_index``) but keeps it as
the world's spare (``World._query_spare``): the next query :meth:`QueryIndex.refresh` es it, one
compiled call that checks that the static layer still holds (every shape in it alive, on a body
still static and where it was; no other shape on a static body) and bins the other shapes again.
A world that steps and casts a few rays (BipedalWalker's lidar: 10 rays a step against about 200
static terrain edges and 5 moving bodies) so pays for its moving shapes only, not for the
terrain, nor for building the index's arrays in Python (70 us of a 82 us build for those 204
shapes, measured). A shape added or destroyed, or a store that grows, drops the spare too: the
next query builds a new index. Collision filters and the sensor flag are not part of it: the
kernels read them from the shape store at each query, so changing them needs no rebuild.

Which layer a shape is in changes only the order in which a query meets it: each shape's test
against the query is exact and does not depend on that order, and the nearest hit is the least
(fraction, row) of them (the walk of the second layer starts from the nearest hit of the first),
so the answers are those of one grid of every shape, or of testing every shape.

Grid: cells about twice the median shape size of the layer (at most about 4 cells per shape, so
a grid stays linear in its shapes); a shape whose box covers more than ``MAX_CELLS_PER_SHAPE``
cells (a ground slab, a container wall) goes into its layer's ``large`` list, which every query
tests by its box.

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
from .._core.state import STATIC
from ..constants import HUGE
from .broadphase import _select
from .geometry import shape_aabb

MAX_CELLS_PER_SHAPE = 64
"""A shape whose box covers more grid cells goes into a list every query tests by its box
instead of into each cell."""

CELL_SCALE = 1.0
"""Grid cell size over the median shape size (largest box side)."""

# -- the layout of ``refs`` ----------------------------------------------------------------------
# Sizes and counters.
N_SHAPES, N_BODIES, NEXT_STAMP = range(3)
# Addresses of the shape and body store columns the queries read.
(ALIVE, SENSOR, CATEGORY, MASK, BODY, COUNT, VERTICES, NORMALS, RADIUS, ORIGIN, ROT,
 BODY_TYPE) = range(3, 15)
# Addresses of the index's own arrays: boxes (n, 4), the per-shape stamp (a shape is tested once
# per query), which shapes the static layer holds (n,) and the pose (x, y, cos, sin) of their
# bodies when it was built (n, 4), and the output buffers of the queries that return many shapes.
BOXES, STAMP, IN_STATIC, STATIC_POSE, OUT_ROWS, OUT_FRACTIONS, OUT_NORMALS = range(15, 22)
# Addresses (``id``) of the Python objects single queries' results are boxed into
# (:mod:`.query_results`): the world's dict of shape handles by row, the RayHit and Vec2 classes.
HANDLES, HIT_CLASS, VEC_CLASS = range(22, 25)
# Then the two layers (STATIC_LAYER, MOVING_LAYER), LAYER_SLOTS slots each, at LAYERS + layer
# LAYER_SLOTS: the grid's cell counts, its item and large counts, the addresses of its cell
# starts (nx ny + 1), cell items and large shapes, and of its GRID (4,): origin, cell size, and
# the coordinates' limit (a single query's numbers must be within +-limit; the static layer's
# is read).
NX, NY, N_ITEMS, N_LARGE, STARTS, ITEMS, LARGE, GRID = range(8)
LAYER_SLOTS = 8
LAYERS = 25
STATIC_LAYER, MOVING_LAYER = 0, 1
# Last, the capacities of the moving layer's cell starts and items buffers (its large buffer
# holds every shape row): :func:`refresh` writes the layer into them.
MOVING_STARTS_CAPACITY = LAYERS + 2 * LAYER_SLOTS
MOVING_ITEMS_CAPACITY = MOVING_STARTS_CAPACITY + 1
REFS = MOVING_ITEMS_CAPACITY + 1


class IndexView(NamedTuple):
    """The arrays of ``refs`` as a kernel sees them (the grids: :class:`GridView`)."""

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
    stamp: np.ndarray
    out_rows: np.ndarray
    out_fractions: np.ndarray
    out_normals: np.ndarray


class GridView(NamedTuple):
    """One layer's grid as a kernel sees it: cell (i, j) holds ``items[starts[j nx + i]:
    starts[j nx + i + 1]]``; ``large`` the layer's shapes binned nowhere."""

    starts: np.ndarray
    items: np.ndarray
    large: np.ndarray
    x0: float
    y0: float
    cell: float
    nx: int
    ny: int


@inline_kernel
def refs_at(at):
    """The index's ``refs``, from ``at`` (:attr:`QueryIndex.address`: its address over 16)."""
    return carray(void_pointer(int(at) * 16), REFS, np.int64)


@inline_kernel
def coordinate_limit(refs):
    """The bound (m) on a single query's numbers: finite and within +-it."""
    return carray(void_pointer(refs[LAYERS + GRID]), 4, np.float64)[3]


@inline_kernel
def view(refs):
    """The :class:`IndexView` of ``refs``."""
    n = refs[N_SHAPES]
    nb = refs[N_BODIES]
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
                     carray(void_pointer(refs[STAMP]), n, np.int64),
                     carray(void_pointer(refs[OUT_ROWS]), n, np.int64),
                     carray(void_pointer(refs[OUT_FRACTIONS]), n, np.float64),
                     carray(void_pointer(refs[OUT_NORMALS]), (n, 2), np.float64))


@inline_kernel
def grid_view(refs, layer):
    """The :class:`GridView` of ``layer`` (``STATIC_LAYER`` or ``MOVING_LAYER``)."""
    base = LAYERS + layer * LAYER_SLOTS
    nx = refs[base + NX]
    ny = refs[base + NY]
    grid = carray(void_pointer(refs[base + GRID]), 4, np.float64)
    return GridView(carray(void_pointer(refs[base + STARTS]), nx * ny + 1, np.int64),
                    carray(void_pointer(refs[base + ITEMS]), refs[base + N_ITEMS], np.int64),
                    carray(void_pointer(refs[base + LARGE]), refs[base + N_LARGE], np.int64),
                    grid[0], grid[1], grid[2], nx, ny)


@inline_kernel
def next_stamp(refs, count):
    """Reserve ``count`` stamps (one per query, or per ray of a batch): the first of them.
    A shape is tested by a query only while its stamp is not the query's."""
    first = refs[NEXT_STAMP]
    refs[NEXT_STAMP] = first + count
    return first


@inline_kernel
def cell_range(g, lo_x, lo_y, hi_x, hi_y):
    """The cells (i0, j0, i1, j1) of grid ``g`` a box covers, clamped to the grid: every shape
    of the layer whose box meets the box is in one of them or in the large list (the map from a
    coordinate to its clamped cell is monotonic)."""
    return (min(max(int((lo_x - g.x0) / g.cell), 0), g.nx - 1),
            min(max(int((lo_y - g.y0) / g.cell), 0), g.ny - 1),
            min(max(int((hi_x - g.x0) / g.cell), 0), g.nx - 1),
            min(max(int((hi_y - g.y0) / g.cell), 0), g.ny - 1))


@inner_kernel
def _cell_range(box, x0, y0, cell, nx, ny):
    """The cells (i0, j0, i1, j1) a box inside the grid covers."""
    return (min(int((box[0] - x0) / cell), nx - 1), min(int((box[1] - y0) / cell), ny - 1),
            min(int((box[2] - x0) / cell), nx - 1), min(int((box[3] - y0) / cell), ny - 1))


@inner_kernel
def _median(values):
    """``np.median(values)``, bit for bit (an even count: the two middle values' sum over 2),
    by the broadphase's quickselect (:func:`.broadphase._select`; ``values`` reordered): NumPy's
    median and partition (this grid's alone in the package: the query index's, the continuous
    stages') were about 1.5 s of ``warmup --all``'s compile (BENCHMARKS.md, session 27,
    ``warmD52``)."""
    n = values.shape[0]
    half = n >> 1
    if n & 1:
        return _select(values, half)
    low = _select(values, half - 1)
    # the select leaves every value above index half - 1 >= it: the other middle value is
    # the least of them (one pass, not a second select)
    high = values[half]
    for k in range(half + 1, n):
        if values[k] < high:
            high = values[k]
    return (low + high) / 2


@inner_kernel
def build_grid(boxes, candidates, cell_scale):
    """Bin the boxes of ``candidates`` into a uniform grid. Returns ``(x0, y0, cell, nx, ny,
    starts, items, large)``: cell (i, j) holds ``items[starts[j nx + i]:starts[j nx + i + 1]]``;
    ``large`` the shapes binned nowhere (too many cells); no candidates, one empty cell."""
    m = candidates.shape[0]
    if m == 0:
        return (0.0, 0.0, 1.0, 1, 1, np.zeros(2, np.int64), np.empty(0, np.int64),
                np.empty(0, np.int64))
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
    # At most about 4 cells per shape over the shapes' bounds (area / cell^2 <= 4 m + 1, and
    # along a line of shapes, the longer side / cell <= 4 m + 1: a terrain 90 m long and 10 m
    # high keeps cells of its segments' size), so the grid stays linear in the shapes.
    cell = cell_scale * _median(sizes)
    wx = x1 - x0
    wy = y1 - y0
    cell = max(cell, math.sqrt(wx * wy / (4.0 * m + 1.0)), max(wx, wy) / (4.0 * m + 1.0),
               1e-9)
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
def build_static(alive, owner, count, vertices, radius, body_type, origin, rot, cell_scale,
                 boxes, in_static, static_pose):
    """The static layer: the boxes of the live shapes of static bodies (``boxes``; those of
    dead rows empty, so that no query meets them; the others are :func:`refresh`'s), marked in
    ``in_static`` with their bodies' pose in ``static_pose``, and their grid ``(x0, y0, cell,
    nx, ny, starts, items, large)``."""
    n = alive.shape[0]
    rows = np.empty(n, np.int64)
    m = 0
    for s in range(n):
        in_static[s] = False
        if not alive[s]:
            boxes[s, 0] = math.inf
            boxes[s, 1] = math.inf
            boxes[s, 2] = -math.inf
            boxes[s, 3] = -math.inf
            continue
        b = owner[s]
        if body_type[b] != STATIC:
            continue
        shape_aabb(count[s], vertices[s], radius[s], origin[b, 0], origin[b, 1], rot[b, 0],
                   rot[b, 1], boxes[s])
        in_static[s] = True
        static_pose[s, 0] = origin[b, 0]
        static_pose[s, 1] = origin[b, 1]
        static_pose[s, 2] = rot[b, 0]
        static_pose[s, 3] = rot[b, 1]
        rows[m] = s
        m += 1
    return build_grid(boxes, rows[:m], cell_scale)


@kernel
def refresh(at, cell_scale):
    """Bin the shapes of other than static bodies again where they are now (their boxes and the
    moving layer's grid, written to the index's buffers for that layer), if the static layer
    still holds: every shape in it alive, on a body still static and where it was, and no other
    live shape on a static body. Returns ``(done, starts, items)``: ``done`` 1 when done, 0 and
    nothing changed when the index must be built again, -1 and the layer left as it was when
    its buffers are too small for ``starts`` cell starts and ``items`` cell items (the caller
    grows them and calls again). The layer lives in buffers the index keeps rather than in
    arrays handed back: boxing three arrays for Python cost about 3.5 us of a 6 us refresh
    (BipedalWalker's first lidar ray of every step, measured 2026-11-24)."""
    refs = refs_at(at)
    n = refs[N_SHAPES]
    nb = refs[N_BODIES]
    alive = carray(void_pointer(refs[ALIVE]), n, np.bool_)
    owner = carray(void_pointer(refs[BODY]), n, np.int64)
    count = carray(void_pointer(refs[COUNT]), n, np.int64)
    vertices = carray(void_pointer(refs[VERTICES]), (n, 8, 2), np.float64)
    radius = carray(void_pointer(refs[RADIUS]), n, np.float64)
    origin = carray(void_pointer(refs[ORIGIN]), (nb, 2), np.float64)
    rot = carray(void_pointer(refs[ROT]), (nb, 2), np.float64)
    body_type = carray(void_pointer(refs[BODY_TYPE]), nb, np.int64)
    boxes = carray(void_pointer(refs[BOXES]), (n, 4), np.float64)
    in_static = carray(void_pointer(refs[IN_STATIC]), n, np.bool_)
    pose = carray(void_pointer(refs[STATIC_POSE]), (n, 4), np.float64)
    rows = np.empty(n, np.int64)
    m = 0
    for s in range(n):
        if in_static[s]:
            b = owner[s]
            if not (alive[s] and body_type[b] == STATIC and origin[b, 0] == pose[s, 0]
                    and origin[b, 1] == pose[s, 1] and rot[b, 0] == pose[s, 2]
                    and rot[b, 1] == pose[s, 3]):
                return 0, 0, 0
        elif alive[s]:
            if body_type[owner[s]] == STATIC:
                return 0, 0, 0
            rows[m] = s
            m += 1
    # (the boxes may be written before the capacity test: only this layer reads them)
    for k in range(m):
        s = rows[k]
        b = owner[s]
        shape_aabb(count[s], vertices[s], radius[s], origin[b, 0], origin[b, 1], rot[b, 0],
                   rot[b, 1], boxes[s])
    x0, y0, cell, nx, ny, starts, items, large = build_grid(boxes, rows[:m], cell_scale)
    if (starts.shape[0] > refs[MOVING_STARTS_CAPACITY]
            or items.shape[0] > refs[MOVING_ITEMS_CAPACITY]):
        return -1, starts.shape[0], items.shape[0]
    base = LAYERS + MOVING_LAYER * LAYER_SLOTS
    starts_buffer = carray(void_pointer(refs[base + STARTS]), starts.shape[0], np.int64)
    items_buffer = carray(void_pointer(refs[base + ITEMS]), items.shape[0], np.int64)
    large_buffer = carray(void_pointer(refs[base + LARGE]), large.shape[0], np.int64)
    # element by element: an array assigned to a slice checks the sizes and formats its error
    # message in compiled code, Numba's string functions (2.6 s of ``warmup --all``'s compile)
    for k in range(starts.shape[0]):
        starts_buffer[k] = starts[k]
    for k in range(items.shape[0]):
        items_buffer[k] = items[k]
    for k in range(large.shape[0]):
        large_buffer[k] = large[k]
    grid = carray(void_pointer(refs[base + GRID]), 4, np.float64)
    grid[0] = x0
    grid[1] = y0
    grid[2] = cell
    refs[base + NX] = nx
    refs[base + NY] = ny
    refs[base + N_ITEMS] = items.shape[0]
    refs[base + N_LARGE] = large.shape[0]
    return 1, starts.shape[0], items.shape[0]


_build_static = DirectCall(build_static, "query index", 3.0)
_refresh = DirectCall(refresh, "query index (moving shapes)", 3.0)


def _aligned(n: int) -> np.ndarray:
    """``n`` zeros (int64) at an address that is a multiple of 16."""
    raw = np.zeros(n + 2, np.int64)
    skip = (-address(raw) % 16) // 8
    return raw[skip:skip + n]


class QueryIndex:
    """The grids of the shapes of ``shapes`` and ``bodies`` (the world's stores) where they are
    now, and :attr:`refs`, the addresses a query kernel reads them and the stores through.
    ``handles`` (the world's dict of shape handles by row), ``hit_class`` and ``vec_class`` are
    what the results of single queries are made of (:mod:`.query_results`).

    Valid while no shape moved, appeared or went and the stores are the same objects (a store
    that grows is replaced): the world drops it then (``World._query_index``), and after a
    move keeps it to :meth:`refresh` (``World._query_spare``)."""

    def __init__(self, shapes, bodies, handles: dict, hit_class: type, vec_class: type):
        self.shapes = shapes
        self.bodies = bodies
        self.handles = handles
        self._objects = (handles, hit_class, vec_class)  # their addresses are in refs
        n = len(shapes.alive)
        boxes = np.empty((n, 4))
        in_static = np.zeros(n, np.bool_)
        static_pose = np.zeros((n, 4))
        x0, y0, cell, nx, ny, starts, items, large = _build_static(
            shapes.alive, shapes.body, shapes.count, shapes.vertices, shapes.radius,
            bodies.type, bodies.origin, bodies.rot, CELL_SCALE, boxes, in_static, static_pose)
        self.out_rows = np.zeros(n, np.int64)
        self.out_fractions = np.zeros(n)
        self.out_normals = np.zeros((n, 2))
        static = LAYERS + STATIC_LAYER * LAYER_SLOTS
        moving = LAYERS + MOVING_LAYER * LAYER_SLOTS
        arrays = {ALIVE: shapes.alive, SENSOR: shapes.is_sensor, CATEGORY: shapes.category,
                  MASK: shapes.mask, BODY: shapes.body, COUNT: shapes.count,
                  VERTICES: shapes.vertices, NORMALS: shapes.normals, RADIUS: shapes.radius,
                  ORIGIN: bodies.origin, ROT: bodies.rot, BODY_TYPE: bodies.type,
                  BOXES: boxes, STAMP: np.full(n, -1, np.int64), IN_STATIC: in_static,
                  STATIC_POSE: static_pose, OUT_ROWS: self.out_rows,
                  OUT_FRACTIONS: self.out_fractions, OUT_NORMALS: self.out_normals,
                  static + STARTS: np.ascontiguousarray(starts),
                  static + ITEMS: np.ascontiguousarray(items),
                  static + LARGE: np.ascontiguousarray(large),
                  static + GRID: np.array([x0, y0, cell, HUGE]),
                  moving + GRID: np.array([0.0, 0.0, 1.0, HUGE])}
        self._arrays = arrays  # every array whose address is in refs, kept alive here
        refs = _aligned(REFS)
        refs[N_SHAPES] = n
        refs[N_BODIES] = len(bodies.alive)
        refs[static + NX] = nx
        refs[static + NY] = ny
        refs[static + N_ITEMS] = len(items)
        refs[static + N_LARGE] = len(large)
        for slot, array in arrays.items():
            refs[slot] = address(array)
        refs[HANDLES] = id(handles)
        refs[HIT_CLASS] = id(hit_class)
        refs[VEC_CLASS] = id(vec_class)
        self.refs = refs
        self.address = float(address(refs) // 16)
        """What the query kernels take: the address of :attr:`refs` over 16, as a float
        (:func:`refs_at`)."""
        # the moving layer's buffers (refresh), grown on demand; large: at most every row
        self._moving_large = np.zeros(max(n, 1), np.int64)
        refs[moving + LARGE] = address(self._moving_large)
        self._moving = None
        self._grow_moving(16, 16)
        if not self.refresh():
            raise AssertionError("a query index just built must hold")  # pragma: no cover

    def refresh(self) -> bool:
        """Bin the shapes of other than static bodies again where they are now; False (and
        nothing changed) if the static layer no longer holds and the index must be built
        again (:func:`refresh`)."""
        done, starts, items = _refresh.entry(self.address, CELL_SCALE)
        if done < 0:
            self._grow_moving(starts, items)
            done, starts, items = _refresh.entry(self.address, CELL_SCALE)
        return done == 1

    def _grow_moving(self, starts: int, items: int) -> None:
        """Buffers for the moving layer of at least ``starts`` cell starts and ``items`` items
        (twice that, so that a growing layer reallocates rarely); the layer itself is written
        by the next :meth:`refresh`."""
        self._moving = (np.zeros(2 * starts, np.int64), np.zeros(2 * items, np.int64))
        moving = LAYERS + MOVING_LAYER * LAYER_SLOTS
        self.refs[moving + STARTS] = address(self._moving[0])
        self.refs[moving + ITEMS] = address(self._moving[1])
        self.refs[MOVING_STARTS_CAPACITY] = 2 * starts
        self.refs[MOVING_ITEMS_CAPACITY] = 2 * items


__all__ = ["QueryIndex", "IndexView", "GridView", "refs_at", "coordinate_limit", "view",
           "grid_view", "next_stamp", "cell_range", "build_static", "refresh",
           "MAX_CELLS_PER_SHAPE", "HANDLES", "HIT_CLASS", "VEC_CLASS", "STATIC_LAYER",
           "MOVING_LAYER"]
