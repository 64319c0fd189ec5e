"""World queries against the shapes as they are now: rays (one, or thousands at once), boxes,
points and moving shapes, with collision filters, through the grid of :mod:`.query_index`.

Every query walks the index's grid, which holds the shapes' boxes where they are now (the world
rebuilds it after anything moved), and tests the shapes it meets exactly; it writes nothing
into the world. A ray walks the grid cell by cell (Amanatides and Woo, "A Fast Voxel Traversal
Algorithm for Ray Tracing", 1987) and stops at the first cell that starts beyond the nearest hit
found; a box, a point or a moving shape visits the cells its box covers. A shape is tested once
per query (a stamp per shape), so the grid changes only the speed, not the answer: the nearest
hit, ties going to the lower shape row, as testing every shape would find it; one ray and a
batch run the same code, so they agree bit for bit.

Kernels take the address of the index's ``refs`` (addresses, :mod:`.._core.address`) rather
than the stores: one integer to unbox per call. A single query's kernel returns its result as
the Python objects the query returns (``RayHit``, lists of them or of shape handles), boxed
by the compiled code (:mod:`.query_results`). The helpers that take the index view are inlined
(``inline_kernel``): a call passing twenty arrays costs about 0.3 us. A single query's kernel
checks its numbers itself (finite, within the index's coordinate limit), so that the Python
side of the common call (floats in tuples) does no arithmetic: it validates in full only to
word the error once the kernel has refused.

Filters are Box2D's (``b2ShouldQueryShape``): a shape is seen when its category meets the query's
mask and its mask meets the query's category. Sensor shapes are not seen by rays (Box2D v3).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel, kernel
from .broadphase import _argsort_stable
from .query_index import (HANDLES, HIT_CLASS, OUT_FRACTIONS, OUT_NORMALS, OUT_ROWS, VEC_CLASS,
                          cell_range, coordinate_limit, grid_view, next_stamp, refs_at, view)
from .query_results import hit_rows, ray_hit, ray_hit_list, shape_list
from .raycast import NO_HIT, point_distance_to_core, ray_shape
from .shape_cast import _world_vertices, cast_against, overlaps, support_point


if numba.config.DISABLE_JIT:
    def _unsigned(bits):
        """The uint64 with the bits of the int64 ``bits`` (here a Python int)."""
        return np.uint64(bits % (1 << 64))
else:
    @inner_kernel
    def _unsigned(bits):
        """The uint64 with the bits of the int64 ``bits`` (a cast, no arithmetic)."""
        return np.uint64(bits)


@inner_kernel
def _seen(alive, sensor, shape_category, shape_mask, category, mask, sensors):
    """Whether a shape (its row's values) is seen by a query with this filter (``category``
    and ``mask`` as uint64, or as int64 of the same bits: a Python int passes faster)."""
    if not alive or (sensor and not sensors):
        return False
    return (shape_category & _unsigned(mask)) != 0 and (shape_mask & _unsigned(category)) != 0


@borrowing_kernel
def _slab(box, ox, oy, dx, dy, max_fraction):
    """Whether the ray crosses ``box`` for a fraction in [0, max_fraction]."""
    lo = 0.0
    hi = max_fraction
    for axis in range(2):
        o = ox if axis == 0 else oy
        d = dx if axis == 0 else dy
        if d == 0.0:
            if o < box[axis] or o > box[axis + 2]:
                return False
        else:
            t0 = (box[axis] - o) / d
            t1 = (box[axis + 2] - o) / d
            if t0 > t1:
                t0, t1 = t1, t0
            lo = max(lo, t0)
            hi = min(hi, t1)
            if lo > hi:
                return False
    return True


@borrowing_kernel
def _ray_against(count, vertices, normals, radius, origin, rot, ox, oy, dx, dy, max_fraction):
    """The ray (world frame) against one shape (its row's geometry, its body's ``origin`` and
    ``rot``): ``(fraction, nx, ny)`` with a world normal."""
    px = origin[0]
    py = origin[1]
    c = rot[0]
    sn = rot[1]
    rx = ox - px
    ry = oy - py
    fraction, nx, ny = ray_shape(count, vertices, normals, radius, c * rx + sn * ry,
                                 -sn * rx + c * ry, c * dx + sn * dy, -sn * dx + c * dy,
                                 max_fraction)
    return fraction, c * nx - sn * ny, sn * nx + c * ny


# -- rays ---------------------------------------------------------------------------------------

@inline_kernel
def _test(v, s, stamp, ox, oy, dx, dy, max_fraction, category, mask):
    """Shape ``s`` against the ray unless this query (``stamp``) tested it already or does not
    see it: ``(fraction, nx, ny)``, fraction ``NO_HIT`` when it is not hit."""
    if v.stamp[s] == stamp:
        return NO_HIT, 0.0, 0.0
    v.stamp[s] = stamp
    if not _seen(True, v.is_sensor[s], v.category[s], v.mask[s], category, mask, False):
        return NO_HIT, 0.0, 0.0
    # The box first, unless the exact test is as cheap (a circle).
    if v.count[s] > 1 and not _slab(v.boxes[s], ox, oy, dx, dy, max_fraction):
        return NO_HIT, 0.0, 0.0
    b = v.body[s]
    return _ray_against(v.count[s], v.vertices[s], v.normals[s], v.radius[s], v.origin[b],
                        v.rot[b], ox, oy, dx, dy, max_fraction)


@inline_kernel
def _keep(out_rows, out_fractions, out_normals, every, s, fraction, nx, ny, best, row, hx, hy,
          hits):
    """A hit of shape ``s``: appended to the output buffers (``every``), or kept if nearer
    than the nearest so far (ties: the lower row). The new ``(best, row, hx, hy, hits)``. (The
    buffers, not the whole view: an inlined call binds each argument, ~450 instructions of IR
    for the view's 16 arrays.)"""
    if every:
        out_rows[hits] = s
        out_fractions[hits] = fraction
        out_normals[hits, 0] = nx
        out_normals[hits, 1] = ny
        return best, row, hx, hy, hits + 1
    if fraction < best or row < 0 or s < row:
        return fraction, s, nx, ny, hits
    return best, row, hx, hy, hits


@inline_kernel
def _walk(v, g, stamp, ox, oy, dx, dy, category, mask, every, margin, best, row, hx, hy, hits):
    """One ray through grid ``g``, from the state ``(best, row, hx, hy, hits)`` the walk of the
    other layer left (or ``(max_fraction, -1, 0, 0, 0)``): the new state. Nearest hit only
    (``every`` False): ``best`` the nearest fraction so far, ``row`` its shape (-1 if none),
    ``(hx, hy)`` its normal. Every hit (``best`` stays the ray's max fraction): written unordered
    to the view's output buffers, ``hits`` of them. With a ``margin`` (>= 0; -1 for none), every
    hit but the walk visits no cell the ray enters beyond the nearest hit so far in this grid
    plus ``margin`` (the shapes it visits are tested against the whole ray all the same).

    The layer's large shapes, then the cells the ray crosses, in one loop over runs of shapes
    (``items[first:last]``: the large list, then each cell's), so that :func:`_test` and
    :func:`_keep` are inlined once: at two sites, the large shapes' loop and the cells', they
    made ``cast_rays`` 17,310 instructions of IR instead of 13,295 (BENCHMARKS.md, session 30,
    ``queryZ55``). The cells' set-up, which does not read ``best``, comes first; whether the
    ray enters the grid before the nearest hit is the walk's own first test (``t_cell <= best``
    at ``t_in``), made once the large shapes are tested."""
    # The part of the ray inside the grid's bounds: ``enters`` False if it misses them.
    enters = g.items.shape[0] > 0
    gx1 = g.x0 + g.nx * g.cell
    gy1 = g.y0 + g.ny * g.cell
    t_in = 0.0
    t_out = math.inf
    for axis in range(2):
        o = ox if axis == 0 else oy
        d = dx if axis == 0 else dy
        lo = g.x0 if axis == 0 else g.y0
        hi = gx1 if axis == 0 else gy1
        if d == 0.0:
            if o < lo or o > hi:
                enters = False
        else:
            ta = (lo - o) / d
            tb = (hi - o) / d
            if ta > tb:
                ta, tb = tb, ta
            t_in = max(t_in, ta)
            t_out = min(t_out, tb)
    if t_in > t_out:
        enters = False
    i = 0
    j = 0
    step_i = 1 if dx > 0.0 else -1
    step_j = 1 if dy > 0.0 else -1
    # Fractions at which the ray crosses the next vertical / horizontal cell line.
    t_x = math.inf
    dt_x = math.inf
    t_y = math.inf
    dt_y = math.inf
    if enters:
        i = min(max(int((ox + t_in * dx - g.x0) / g.cell), 0), g.nx - 1)
        j = min(max(int((oy + t_in * dy - g.y0) / g.cell), 0), g.ny - 1)
        if dx != 0.0:
            t_x = (g.x0 + (i + (1 if dx > 0.0 else 0)) * g.cell - ox) / dx
            dt_x = g.cell / abs(dx)
        if dy != 0.0:
            t_y = (g.y0 + (j + (1 if dy > 0.0 else 0)) * g.cell - oy) / dy
            dt_y = g.cell / abs(dy)
    until = best
    items = g.large
    first = 0
    last = g.large.shape[0]
    in_cells = False
    t_cell = t_in
    while True:
        for q in range(first, last):
            s = items[q]
            fraction, nx, ny = _test(v, s, stamp, ox, oy, dx, dy, best, category, mask)
            if fraction != NO_HIT:
                best, row, hx, hy, hits = _keep(v.out_rows, v.out_fractions, v.out_normals,
                                                every, s, fraction, nx, ny, best, row, hx, hy,
                                                hits)
                if margin >= 0.0:
                    until = min(until, fraction + margin)
        if not in_cells:  # the large shapes done: the first cell, if the ray enters the grid
            if not enters:
                break
            in_cells = True
            items = g.items
        elif t_x < t_y:
            t_cell = t_x
            t_x += dt_x
            i += step_i
            if i < 0 or i >= g.nx:
                break
        else:
            t_cell = t_y
            t_y += dt_y
            j += step_j
            if j < 0 or j >= g.ny:
                break
        if not (t_cell <= best and t_cell <= until):
            break
        c = j * g.nx + i
        first = g.starts[c]
        last = g.starts[c + 1]
    return best, row, hx, hy, hits


@inline_kernel
def _cast(refs, v, stamp, ox, oy, dx, dy, max_fraction, category, mask, every, margin_cells):
    """One ray through both layers, ``(best, row, hx, hy, hits)`` as :func:`_walk`'s;
    ``margin_cells`` (-1 for none) the walk's margin in cells of each grid. The moving layer
    first: the static one often holds long shapes (ground, walls) whose boxes a long ray
    crosses, which a near hit among the moving shapes then refuses by their box (in ``rain``,
    a hit ray 1.26 us a call instead of 1.44). The order changes no answer (each shape's test
    is exact and the nearest is the least (fraction, row))."""
    best = max_fraction
    row = -1
    hx = 0.0
    hy = 0.0
    hits = np.int64(0)  # (not the literal 0: see .manifold.ZERO)
    for k in range(2):
        g = grid_view(refs, 1 - k)
        margin = -1.0
        if margin_cells >= 0.0:
            margin = margin_cells * g.cell / max(abs(dx), abs(dy))
        best, row, hx, hy, hits = _walk(v, g, stamp, ox, oy, dx, dy, category, mask, every,
                                        margin, best, row, hx, hy, hits)
    return best, row, hx, hy, hits


@kernel
def nearest_hit(at, ox, oy, dx, dy, category, mask):
    """The nearest shape the ray ``(ox, oy) + f (dx, dy)``, f in [0, 1], enters (``at``: the
    index's address), boxed for Python as a ``RayHit`` (:mod:`.query_results`); None if none,
    and False (nothing cast) unless the four numbers are finite and within the index's
    coordinate limit (the caller then says what is wrong with them: checking here is cheaper
    than in Python)."""
    refs = refs_at(at)
    limit = coordinate_limit(refs)
    if not (abs(ox) <= limit and abs(oy) <= limit and abs(dx) <= limit and abs(dy) <= limit):
        return ray_hit(-2, refs[HANDLES], refs[HIT_CLASS], refs[VEC_CLASS], 0.0, 0.0, 0.0,
                       0.0, 0.0)
    v = view(refs)
    fraction, row, nx, ny, _ = _cast(refs, v, next_stamp(refs, 1), ox, oy, dx, dy, 1.0,
                                     category, mask, False, -1.0)
    return ray_hit(row, refs[HANDLES], refs[HIT_CLASS], refs[VEC_CLASS], fraction,
                   ox + fraction * dx, oy + fraction * dy, nx, ny)


SHORT_LIST = 32
"""Up to this many results are sorted in place by insertion (no allocation); more by NumPy's
sorts. Both give the one order of distinct keys, so the results do not depend on which."""


@kernel
def every_hit(at, ox, oy, dx, dy, category, mask, limit):
    """Every shape the ray ``(ox, oy) + f (dx, dy)``, f in [0, 1], enters, nearest first (ties:
    lower row first), boxed for Python as a list of ``RayHit`` (their rows, fractions and
    normals are left in the index's output buffers); None (nothing cast) unless the four
    numbers are finite and within +-``limit``."""
    refs = refs_at(at)
    if not (abs(ox) <= limit and abs(oy) <= limit and abs(dx) <= limit and abs(dy) <= limit):
        return _hit_list(refs, -1, ox, oy, dx, dy)
    hits = _every_sorted(refs, ox, oy, dx, dy, category, mask)
    return _hit_list(refs, hits, ox, oy, dx, dy)


@kernel
def every_hit_rows(at, ox, oy, dx, dy, category, mask):
    """:func:`every_hit` as plain values, boxed for Python as three lists: the rows, the
    fractions and the ``(nx, ny)`` normals of the hits, nearest first (ties: lower row first);
    None (nothing cast) unless the four numbers are finite."""
    refs = refs_at(at)
    if not (abs(ox) <= math.inf and abs(oy) <= math.inf and abs(dx) <= math.inf
            and abs(dy) <= math.inf):
        return hit_rows(-1, refs[OUT_ROWS], refs[OUT_FRACTIONS], refs[OUT_NORMALS])
    hits = _every_sorted(refs, ox, oy, dx, dy, category, mask)
    return hit_rows(hits, refs[OUT_ROWS], refs[OUT_FRACTIONS], refs[OUT_NORMALS])


@inline_kernel
def _every_sorted(refs, ox, oy, dx, dy, category, mask):
    """Every hit of the ray in the output buffers, sorted by (fraction, row); their count."""
    v = view(refs)
    _, _, _, _, hits = _cast(refs, v, next_stamp(refs, 1), ox, oy, dx, dy, 1.0, category,
                             mask, True, -1.0)
    if hits <= SHORT_LIST:
        _sort_hits(v.out_rows, v.out_fractions, v.out_normals, hits)
    else:
        _sort_many(v.out_rows, v.out_fractions, v.out_normals, hits)
    return hits


@inner_kernel
def _sort_many(out_rows, out_fractions, out_normals, hits):
    """Sort the first ``hits`` hits by (fraction, row): by row, then stably by fraction (the
    broadphase's merge sort, :func:`.broadphase._argsort_stable`, twice), then the buffers
    permuted. NumPy's ``argsort`` and an array assigned to a slice (whose size check formats
    its error message, Numba's string code) were about 3.5 s of ``warmup --all``'s compile
    (BENCHMARKS.md, session 27, ``warmD52``): element copies here."""
    by_row = _argsort_stable(out_rows[:hits])
    fractions = np.empty(hits)
    for k in range(hits):
        fractions[k] = out_fractions[by_row[k]]
    by_fraction = _argsort_stable(fractions)
    rows = np.empty(hits, np.int64)
    normals = np.empty((hits, 2))
    for k in range(hits):
        q = by_row[by_fraction[k]]
        rows[k] = out_rows[q]
        normals[k, 0] = out_normals[q, 0]
        normals[k, 1] = out_normals[q, 1]
    for k in range(hits):
        out_rows[k] = rows[k]
        out_fractions[k] = fractions[by_fraction[k]]
        out_normals[k, 0] = normals[k, 0]
        out_normals[k, 1] = normals[k, 1]


@inline_kernel
def _sort_hits(out_rows, out_fractions, out_normals, hits):
    """Sort the first ``hits`` hits in the output buffers by (fraction, row), in place: a
    total order, since a shape is tested once per ray. (The buffers, not the view: see
    :func:`_keep`.)"""
    for k in range(1, hits):
        s = out_rows[k]
        f = out_fractions[k]
        nx = out_normals[k, 0]
        ny = out_normals[k, 1]
        q = k
        while q > 0 and (out_fractions[q - 1] > f or (
                out_fractions[q - 1] == f and out_rows[q - 1] > s)):
            out_rows[q] = out_rows[q - 1]
            out_fractions[q] = out_fractions[q - 1]
            out_normals[q, 0] = out_normals[q - 1, 0]
            out_normals[q, 1] = out_normals[q - 1, 1]
            q -= 1
        out_rows[q] = s
        out_fractions[q] = f
        out_normals[q, 0] = nx
        out_normals[q, 1] = ny


@kernel
def nearest_hits(at, ox, oy, dx, dy, category, mask):
    """The hits :func:`every_hit` lists first: those at the nearest fraction (one, but for
    shapes hit at exactly the same fraction), by row, as a list of ``RayHit``; None (nothing
    cast) unless the four numbers are finite and within the index's coordinate limit.

    The walk is :func:`every_hit`'s (the shapes it visits are tested against the whole ray,
    as there) but it visits no cell entered a cell's length beyond the nearest hit so far: the
    cells that hold a shape hit at the nearest fraction are entered before it (up to the
    rounding of the cells' fractions, far smaller than a cell), so it finds the shapes that
    :func:`every_hit` finds there."""
    refs = refs_at(at)
    limit = coordinate_limit(refs)
    if not (abs(ox) <= limit and abs(oy) <= limit and abs(dx) <= limit and abs(dy) <= limit):
        return _hit_list(refs, -1, ox, oy, dx, dy)
    v = view(refs)
    _, _, _, _, hits = _cast(refs, v, next_stamp(refs, 1), ox, oy, dx, dy, 1.0, category,
                             mask, True, 1.0)
    nearest = math.inf
    for k in range(hits):
        nearest = min(nearest, v.out_fractions[k])
    kept = 0
    for k in range(hits):
        if v.out_fractions[k] == nearest:
            v.out_rows[kept] = v.out_rows[k]
            v.out_fractions[kept] = v.out_fractions[k]
            v.out_normals[kept, 0] = v.out_normals[k, 0]
            v.out_normals[kept, 1] = v.out_normals[k, 1]
            kept += 1
    _sort_hits(v.out_rows, v.out_fractions, v.out_normals, kept)
    return _hit_list(refs, kept, ox, oy, dx, dy)


@inline_kernel
def _hit_list(refs, count, ox, oy, dx, dy):
    """The ``count`` hits of the ray in the output buffers, to be boxed as ``RayHit``s."""
    return ray_hit_list(count, refs[HANDLES], refs[HIT_CLASS], refs[VEC_CLASS], refs[OUT_ROWS],
                        refs[OUT_FRACTIONS], refs[OUT_NORMALS], ox, oy, dx, dy)


@kernel
def cast_rays(at, origins, translations, max_fraction, category, mask, out_fraction,
              out_point, out_normal, out_row):
    """The nearest hit of each ray ``origins[k] + f translations[k]``, f in [0, max_fraction]:
    fraction (1.0 where none), world point, world normal and shape row (-1 where none); each
    ray exactly as :func:`nearest_hit` casts it (the numbers validated by the caller)."""
    refs = refs_at(at)
    v = view(refs)
    n = origins.shape[0]
    first = next_stamp(refs, n)
    for ray in range(n):
        ox = origins[ray, 0]
        oy = origins[ray, 1]
        dx = translations[ray, 0]
        dy = translations[ray, 1]
        best, row, hx, hy, _ = _cast(refs, v, first + ray, ox, oy, dx, dy, max_fraction,
                                     category, mask, False, -1.0)
        out_row[ray] = row
        if row >= 0:
            out_fraction[ray] = best
            out_point[ray, 0] = ox + best * dx
            out_point[ray, 1] = oy + best * dy
            out_normal[ray, 0] = hx
            out_normal[ray, 1] = hy
        else:
            out_fraction[ray] = 1.0
            out_point[ray, 0] = ox + dx
            out_point[ray, 1] = oy + dy
            out_normal[ray, 0] = 0.0
            out_normal[ray, 1] = 0.0


# -- boxes and points -----------------------------------------------------------------------

@inline_kernel
def _candidate(v, s, stamp, category, mask, sensors, lo_x, lo_y, hi_x, hi_y):
    """Whether shape ``s``, not yet seen by this query, is seen by its filter and its box
    meets the box."""
    if v.stamp[s] == stamp:
        return False
    v.stamp[s] = stamp
    if not _seen(True, v.is_sensor[s], v.category[s], v.mask[s], category, mask, sensors):
        return False
    box = v.boxes[s]
    return box[0] <= hi_x and box[2] >= lo_x and box[1] <= hi_y and box[3] >= lo_y


@inline_kernel
def _contains(v, s, x, y):
    """Whether shape ``s`` contains the world point (boundary included)."""
    b = v.body[s]
    c = v.rot[b, 0]
    sn = v.rot[b, 1]
    rx = x - v.origin[b, 0]
    ry = y - v.origin[b, 1]
    distance = point_distance_to_core(v.count[s], v.vertices[s], v.normals[s],
                                      c * rx + sn * ry, -sn * rx + c * ry)
    return distance <= v.radius[s]


@inline_kernel
def _gather(refs, v, stamp, category, mask, sensors, lo_x, lo_y, hi_x, hi_y, point):
    """The shapes seen by the filter whose box meets the box (with ``point``, that also
    contain its corner (lo_x, lo_y)), written to the output rows; their count."""
    count = 0
    for layer in range(2):
        g = grid_view(refs, layer)
        for k in range(g.large.shape[0]):
            s = g.large[k]
            if _candidate(v, s, stamp, category, mask, sensors, lo_x, lo_y, hi_x, hi_y) and (
                    not point or _contains(v, s, lo_x, lo_y)):
                v.out_rows[count] = s
                count += 1
        i0, j0, i1, j1 = cell_range(g, lo_x, lo_y, hi_x, hi_y)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                c = j * g.nx + i
                for q in range(g.starts[c], g.starts[c + 1]):
                    s = g.items[q]
                    if _candidate(v, s, stamp, category, mask, sensors, lo_x, lo_y, hi_x,
                                  hi_y) and (not point or _contains(v, s, lo_x, lo_y)):
                        v.out_rows[count] = s
                        count += 1
    return count


@inner_kernel
def _sort_rows(rows, count):
    """Sort ``rows[:count]`` (distinct rows) in place."""
    if count > SHORT_LIST:
        rows[:count] = np.sort(rows[:count])
        return
    for k in range(1, count):
        s = rows[k]
        q = k
        while q > 0 and rows[q - 1] > s:
            rows[q] = rows[q - 1]
            q -= 1
        rows[q] = s


@kernel
def shapes_in_box(at, lo_x, lo_y, hi_x, hi_y, category, mask):
    """The shapes whose (tight, current) box overlaps the box, in row order, boxed for Python as
    a list of shape handles (their rows left in the index's output rows); None (nothing done)
    unless the four numbers are finite, within the index's coordinate limit, and lower <=
    upper."""
    refs = refs_at(at)
    limit = coordinate_limit(refs)
    if not (abs(lo_x) <= limit and abs(lo_y) <= limit and abs(hi_x) <= limit
            and abs(hi_y) <= limit and lo_x <= hi_x and lo_y <= hi_y):
        return shape_list(-1, refs[HANDLES], refs[OUT_ROWS])
    v = view(refs)
    count = _gather(refs, v, next_stamp(refs, 1), category, mask, True, lo_x, lo_y, hi_x, hi_y,
                    False)
    _sort_rows(v.out_rows, count)
    return shape_list(count, refs[HANDLES], refs[OUT_ROWS])


@kernel
def shapes_at_point(at, x, y, category, mask):
    """The shapes that contain the world point (boundary included), in row order, boxed for
    Python as a list of shape handles; None (nothing done) unless the point is finite and
    within the index's coordinate limit."""
    refs = refs_at(at)
    limit = coordinate_limit(refs)
    if not (abs(x) <= limit and abs(y) <= limit):
        return shape_list(-1, refs[HANDLES], refs[OUT_ROWS])
    v = view(refs)
    count = _gather(refs, v, next_stamp(refs, 1), category, mask, True, x, y, x, y, True)
    _sort_rows(v.out_rows, count)
    return shape_list(count, refs[HANDLES], refs[OUT_ROWS])


# -- a shape moving or placed among the others -----------------------------------------------

@inline_kernel
def _shape_in_world(v, s, out):
    b = v.body[s]
    _world_vertices(v.count[s], v.vertices[s], v.origin[b, 0], v.origin[b, 1], v.rot[b, 0],
                    v.rot[b, 1], out)


@kernel
def cast_shape(at, moving, tx, ty, category, mask):
    """Shape ``moving`` translated by (tx, ty): the first shape of another body it touches,
    boxed for Python as a ``RayHit`` (the hit shape, the point on its surface, its outward
    normal, the fraction), or None; of shapes touched at the same fraction, the lowest row;
    False (nothing cast) unless tx and ty are finite and within the index's coordinate limit.
    An overlap at the start is a hit at fraction 0 with a zero normal, its point the hit
    shape's furthest point against the motion."""
    refs = refs_at(at)
    limit = coordinate_limit(refs)
    if not (abs(tx) <= limit and abs(ty) <= limit):
        return ray_hit(-2, refs[HANDLES], refs[HIT_CLASS], refs[VEC_CLASS], 1.0, 0.0, 0.0, 0.0,
                       0.0)
    max_fraction = 1.0
    v = view(refs)
    world_a = np.empty((8, 2))
    world_b = np.empty((8, 2))
    difference = np.empty((16, 2))
    normals = np.empty((16, 2))
    _shape_in_world(v, moving, world_a)
    box = v.boxes[moving]
    lo_x = min(box[0], box[0] + tx)
    lo_y = min(box[1], box[1] + ty)
    hi_x = max(box[2], box[2] + tx)
    hi_y = max(box[3], box[3] + ty)
    count = _gather(refs, v, next_stamp(refs, 1), category, mask, False, lo_x, lo_y, hi_x,
                    hi_y, False)
    own = v.body[moving]
    best = max_fraction
    row = -1
    hit_nx = 0.0
    hit_ny = 0.0
    for k in range(count):
        s = v.out_rows[k]
        if v.body[s] == own:
            continue
        _shape_in_world(v, s, world_b)
        fraction, nx, ny = cast_against(v.count[moving], world_a, v.radius[moving], v.count[s],
                                        world_b, v.radius[s], tx, ty, best, difference, normals)
        if fraction == NO_HIT or (fraction == best and row >= 0 and s > row):
            continue
        best = fraction
        row = s
        hit_nx = nx
        hit_ny = ny
    if row < 0:
        return ray_hit(-1, refs[HANDLES], refs[HIT_CLASS], refs[VEC_CLASS], 1.0, 0.0, 0.0, 0.0,
                       0.0)
    _shape_in_world(v, row, world_b)
    if hit_nx == 0.0 and hit_ny == 0.0:  # overlapping at the start: B's point along -T
        length = math.hypot(tx, ty)
        ux = -tx / length if length > 0.0 else 0.0
        uy = -ty / length if length > 0.0 else 0.0
        px, py = support_point(v.count[row], world_b, v.radius[row], ux, uy)
    else:
        px, py = support_point(v.count[row], world_b, v.radius[row], hit_nx, hit_ny)
    return ray_hit(row, refs[HANDLES], refs[HIT_CLASS], refs[VEC_CLASS], best, px, py, hit_nx,
                   hit_ny)


@kernel
def overlapping_shapes(at, placed, category, mask):
    """The shapes of other bodies that overlap shape ``placed`` (touching is not overlapping;
    sensors included), in row order, boxed for Python as a list of shape handles."""
    refs = refs_at(at)
    v = view(refs)
    world_a = np.empty((8, 2))
    world_b = np.empty((8, 2))
    difference = np.empty((16, 2))
    normals = np.empty((16, 2))
    _shape_in_world(v, placed, world_a)
    box = v.boxes[placed]
    count = _gather(refs, v, next_stamp(refs, 1), category, mask, True, box[0], box[1], box[2],
                    box[3], False)
    own = v.body[placed]
    found = 0
    for k in range(count):
        s = v.out_rows[k]
        if v.body[s] == own:
            continue
        _shape_in_world(v, s, world_b)
        if overlaps(v.count[placed], world_a, v.radius[placed], v.count[s], world_b,
                    v.radius[s], difference, normals):
            v.out_rows[found] = s
            found += 1
    _sort_rows(v.out_rows, found)
    return shape_list(found, refs[HANDLES], refs[OUT_ROWS])


__all__ = ["nearest_hit", "nearest_hits", "every_hit", "every_hit_rows", "cast_rays",
           "shapes_in_box", "shapes_at_point", "cast_shape", "overlapping_shapes"]

