"""World queries against the shapes as they are now: rays (one, or thousands through a grid),
boxes and points, with collision filters.

Every query reads the shapes' current transforms (the body rows' origin and rotation) and
computes their boxes itself, so it is right between steps too, after a body was moved by hand,
and it writes nothing into the world.

A single ray tests every candidate shape's box (a slab test, a few ns each) and the shapes whose
box it crosses exactly (:func:`.raycast.ray_shape`). A batch of rays first bins the shapes' boxes
into a uniform grid (:func:`build_grid`, linear in the shapes) and walks each ray through it cell
by cell (Amanatides and Woo, "A Fast Voxel Traversal Algorithm for Ray Tracing", 1987), stopping
at the first cell that starts beyond the nearest hit found. The helpers that take the stores are inlined
(``inline_kernel``): a call passing the shape and body stores costs about 0.3 us, 0.5 ms per
query over 2,000 shapes. A shape is tested once per ray (a
stamp per shape), so the grid changes only the speed, not the answer: the nearest hit, ties
going to the lower shape row, exactly as a single ray finds it.

Filters are Box2D's (``b2ShouldQueryShape``): a shape is seen when its category meets the query's
mask and its mask meets the query's category. Sensor shapes are not seen by rays (Box2D v3).
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel, kernel
from .geometry import shape_aabb
from .raycast import NO_HIT, point_distance_to_core, ray_shape
from .shape_cast import _world_vertices, cast_against, overlaps, support_point

MAX_CELLS_PER_SHAPE = 64
"""A shape whose box covers more grid cells goes into a list every ray tests by its box
(a ground slab, a container wall) instead of into each cell."""


@inner_kernel
def _seen(alive, sensor, shape_category, shape_mask, category, mask, sensors):
    """Whether a shape (its row's values) is seen by a query with this filter."""
    if not alive or (sensor and not sensors):
        return False
    return (shape_category & mask) != 0 and (shape_mask & category) != 0


@inline_kernel
def _box(shapes, bodies, s, out):
    b = shapes.body[s]
    shape_aabb(shapes.count[s], shapes.vertices[s], shapes.radius[s], bodies.origin[b, 0],
               bodies.origin[b, 1], bodies.rot[b, 0], bodies.rot[b, 1], out)


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


@kernel
def ray_hits(shapes, bodies, ox, oy, dx, dy, max_fraction, category, mask, closest_only):
    """Every shape the ray enters within ``max_fraction`` (or only the nearest): arrays of
    shape rows, fractions and world normals, nearest first (ties: lower row first)."""
    n = shapes.alive.shape[0]
    rows = np.empty(n, np.int64)
    fractions = np.empty(n)
    normals = np.empty((n, 2))
    count = 0
    box = np.empty(4)
    best = max_fraction
    for s in range(n):
        if not _seen(shapes.alive[s], shapes.is_sensor[s], shapes.category[s], shapes.mask[s],
                     category, mask, False):
            continue
        _box(shapes, bodies, s, box)
        if not _slab(box, ox, oy, dx, dy, best):
            continue
        b = shapes.body[s]
        fraction, nx, ny = _ray_against(shapes.count[s], shapes.vertices[s], shapes.normals[s],
                                        shapes.radius[s], bodies.origin[b], bodies.rot[b],
                                        ox, oy, dx, dy, best)
        if fraction == NO_HIT:
            continue
        if closest_only:
            if count == 1 and fraction == best:
                continue  # a tie with a lower row, found first
            count = 0
            best = fraction
        rows[count] = s
        fractions[count] = fraction
        normals[count, 0] = nx
        normals[count, 1] = ny
        count += 1
    order = np.argsort(fractions[:count], kind="mergesort")  # stable: equal fractions by row
    return rows[:count][order], fractions[:count][order], normals[:count][order]


@kernel
def shapes_in_box(shapes, bodies, lo_x, lo_y, hi_x, hi_y, category, mask):
    """Rows of the shapes whose (tight, current) box overlaps the box, in row order."""
    n = shapes.alive.shape[0]
    rows = np.empty(n, np.int64)
    count = 0
    box = np.empty(4)
    for s in range(n):
        if not _seen(shapes.alive[s], shapes.is_sensor[s], shapes.category[s], shapes.mask[s],
                     category, mask, True):
            continue
        _box(shapes, bodies, s, box)
        if box[0] <= hi_x and box[2] >= lo_x and box[1] <= hi_y and box[3] >= lo_y:
            rows[count] = s
            count += 1
    return rows[:count]


@kernel
def shapes_at_point(shapes, bodies, x, y, category, mask):
    """Rows of the shapes that contain the world point (boundary included), in row order."""
    n = shapes.alive.shape[0]
    rows = np.empty(n, np.int64)
    count = 0
    box = np.empty(4)
    for s in range(n):
        if not _seen(shapes.alive[s], shapes.is_sensor[s], shapes.category[s], shapes.mask[s],
                     category, mask, True):
            continue
        _box(shapes, bodies, s, box)
        if x < box[0] or x > box[2] or y < box[1] or y > box[3]:
            continue
        b = shapes.body[s]
        c = bodies.rot[b, 0]
        sn = bodies.rot[b, 1]
        rx = x - bodies.origin[b, 0]
        ry = y - bodies.origin[b, 1]
        distance = point_distance_to_core(shapes.count[s], shapes.vertices[s], shapes.normals[s],
                                          c * rx + sn * ry, -sn * rx + c * ry)
        if distance <= shapes.radius[s]:
            rows[count] = s
            count += 1
    return rows[:count]


# -- many rays through a grid -------------------------------------------------------------------

@inner_kernel
def _cell_range(box, x0, y0, cell, nx, ny):
    """The cells (i0, j0, i1, j1) a box covers."""
    return (min(int((box[0] - x0) / cell), nx - 1), min(int((box[1] - y0) / cell), ny - 1),
            min(int((box[2] - x0) / cell), nx - 1), min(int((box[3] - y0) / cell), ny - 1))


@inner_kernel
def build_grid(boxes, candidates):
    """Bin the boxes of ``candidates`` into a uniform grid. Returns ``(x0, y0, cell, nx, ny,
    starts, items, large)``: cell (i, j) holds ``items[starts[j nx + i]:starts[j nx + i + 1]]``;
    ``large`` the shapes binned nowhere (too many cells)."""
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
    # Cells about twice the median shape: a ray's cell holds a handful of shapes. At most about
    # 4 cells per shape in all, so the grid stays linear in the shapes.
    cell = 2.0 * np.median(sizes) if m > 0 else 1.0
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
    return x0, y0, cell, nx, ny, counts, items, large[:n_large]


@borrowing_kernel
def _test(count, vertices, normals, radius, owner, origin, rot, boxes, stamp, ray, s, ox, oy, dx,
          dy, best, best_row):
    """Shape ``s`` for ray number ``ray`` unless already tested: the new nearest hit or the old
    one, as ``(fraction, row, nx, ny, improved)``."""
    if stamp[s] == ray:
        return best, best_row, 0.0, 0.0, False
    stamp[s] = ray
    if not _slab(boxes[s], ox, oy, dx, dy, best):
        return best, best_row, 0.0, 0.0, False
    b = owner[s]
    fraction, nx, ny = _ray_against(count[s], vertices[s], normals[s], radius[s], origin[b],
                                    rot[b], ox, oy, dx, dy, best)
    if fraction == NO_HIT or (fraction == best and best_row >= 0 and s > best_row):
        return best, best_row, 0.0, 0.0, False
    return fraction, s, nx, ny, True


@kernel
def cast_rays(shapes, bodies, origins, translations, max_fraction, category, mask,
              out_fraction, out_point, out_normal, out_row):
    """The nearest hit of each ray ``origins[k] + f translations[k]``, f in [0, max_fraction]:
    fraction (1.0 where none), world point, world normal and shape row (-1 where none)."""
    n = shapes.alive.shape[0]
    boxes = np.empty((n, 4))
    seen = np.empty(n, np.int64)
    m = 0
    for s in range(n):
        if _seen(shapes.alive[s], shapes.is_sensor[s], shapes.category[s], shapes.mask[s],
                     category, mask, False):
            _box(shapes, bodies, s, boxes[s])
            seen[m] = s
            m += 1
    x0, y0, cell, nx, ny, starts, items, large = build_grid(boxes, seen[:m])
    stamp = np.full(n, -1, np.int64)
    _walk_rays(shapes.count, shapes.vertices, shapes.normals, shapes.radius, shapes.body,
               bodies.origin, bodies.rot, boxes, stamp, x0, y0, cell, nx, ny, starts, items, large,
               m, origins, translations, max_fraction, out_fraction, out_point, out_normal,
               out_row)


@borrowing_kernel
def _walk_rays(count, vertices, normals, radius, owner, origin, rot, boxes, stamp, x0, y0, cell,
               nx, ny, starts, items, large, m, origins, translations, max_fraction, out_fraction,
               out_point, out_normal, out_row):
    """:func:`cast_rays`' walk of every ray through the grid, without reference counting (no
    allocation here): each slice of a row is then only a pointer, where with counting each
    costs two atomic operations, and a ray tests tens of rows."""
    for ray in range(origins.shape[0]):
        ox = origins[ray, 0]
        oy = origins[ray, 1]
        dx = translations[ray, 0]
        dy = translations[ray, 1]
        best = max_fraction
        row = -1
        hx = 0.0
        hy = 0.0
        for k in range(large.shape[0]):
            best, row, fx, fy, better = _test(count, vertices, normals, radius, owner, origin, rot,
                                              boxes, stamp, ray, large[k], ox, oy, dx, dy, best,
                                              row)
            if better:
                hx, hy = fx, fy
        if m > large.shape[0]:
            # The part of the ray inside the grid's bounds.
            gx1 = x0 + nx * cell
            gy1 = y0 + ny * cell
            t_in = 0.0
            t_out = best
            inside = True
            for axis in range(2):
                o = ox if axis == 0 else oy
                d = dx if axis == 0 else dy
                lo = x0 if axis == 0 else y0
                hi = gx1 if axis == 0 else gy1
                if d == 0.0:
                    if o < lo or o > hi:
                        inside = False
                else:
                    ta = (lo - o) / d
                    tb = (hi - o) / d
                    if ta > tb:
                        ta, tb = tb, ta
                    t_in = max(t_in, ta)
                    t_out = min(t_out, tb)
            if inside and t_in <= t_out:
                px = ox + t_in * dx
                py = oy + t_in * dy
                i = min(max(int((px - x0) / cell), 0), nx - 1)
                j = min(max(int((py - y0) / cell), 0), ny - 1)
                step_i = 1 if dx > 0.0 else -1
                step_j = 1 if dy > 0.0 else -1
                # Fractions at which the ray crosses the next vertical / horizontal cell line.
                if dx != 0.0:
                    next_x = x0 + (i + (1 if dx > 0.0 else 0)) * cell
                    t_x = (next_x - ox) / dx
                    dt_x = cell / abs(dx)
                else:
                    t_x = math.inf
                    dt_x = math.inf
                if dy != 0.0:
                    next_y = y0 + (j + (1 if dy > 0.0 else 0)) * cell
                    t_y = (next_y - oy) / dy
                    dt_y = cell / abs(dy)
                else:
                    t_y = math.inf
                    dt_y = math.inf
                t_cell = t_in
                while t_cell <= best:
                    c = j * nx + i
                    for k in range(starts[c], starts[c + 1]):
                        best, row, fx, fy, better = _test(count, vertices, normals, radius, owner,
                                                          origin, rot, boxes, stamp, ray,
                                                          items[k], ox, oy, dx, dy, best, row)
                        if better:
                            hx, hy = fx, fy
                    if t_x < t_y:
                        t_cell = t_x
                        t_x += dt_x
                        i += step_i
                        if i < 0 or i >= nx:
                            break
                    else:
                        t_cell = t_y
                        t_y += dt_y
                        j += step_j
                        if j < 0 or j >= ny:
                            break
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




# -- a shape moving or placed among the others -----------------------------------------------

@inner_kernel
def _shape_in_world(shapes, bodies, s, out):
    b = shapes.body[s]
    _world_vertices(shapes.count[s], shapes.vertices[s], bodies.origin[b, 0], bodies.origin[b, 1],
                    bodies.rot[b, 0], bodies.rot[b, 1], out)


@kernel
def cast_shape(shapes, bodies, moving, tx, ty, max_fraction, category, mask):
    """Shape ``moving`` translated by (tx, ty): the first shape of another body it touches,
    as ``(row, fraction, nx, ny, px, py)`` (normal: the hit shape's, outward; point: on the hit
    shape's surface), or row -1. An overlap at the start is a hit at fraction 0 with a zero
    normal, its point the hit shape's furthest point against the motion."""
    n = shapes.alive.shape[0]
    world_a = np.empty((8, 2))
    world_b = np.empty((8, 2))
    difference = np.empty((16, 2))
    normals = np.empty((16, 2))
    _shape_in_world(shapes, bodies, moving, world_a)
    box = np.empty(4)
    _box(shapes, bodies, moving, box)
    lo_x = min(box[0], box[0] + tx)
    lo_y = min(box[1], box[1] + ty)
    hi_x = max(box[2], box[2] + tx)
    hi_y = max(box[3], box[3] + ty)
    own = shapes.body[moving]
    best = max_fraction
    row = -1
    hit_nx = 0.0
    hit_ny = 0.0
    for s in range(n):
        if shapes.body[s] == own or not _seen(shapes.alive[s], shapes.is_sensor[s],
                                             shapes.category[s], shapes.mask[s], category, mask,
                                             False):
            continue
        _box(shapes, bodies, s, box)
        if box[0] > hi_x or box[2] < lo_x or box[1] > hi_y or box[3] < lo_y:
            continue
        _shape_in_world(shapes, bodies, s, world_b)
        fraction, nx, ny = cast_against(shapes.count[moving], world_a, shapes.radius[moving],
                                        shapes.count[s], world_b, shapes.radius[s], tx, ty, best,
                                        difference, normals)
        if fraction == NO_HIT or (fraction == best and row >= 0):
            continue
        best = fraction
        row = s
        hit_nx = nx
        hit_ny = ny
    if row < 0:
        return -1, 1.0, 0.0, 0.0, 0.0, 0.0
    _shape_in_world(shapes, bodies, row, world_b)
    if hit_nx == 0.0 and hit_ny == 0.0:  # overlapping at the start: B's point along -T
        length = math.hypot(tx, ty)
        ux = -tx / length if length > 0.0 else 0.0
        uy = -ty / length if length > 0.0 else 0.0
        px, py = support_point(shapes.count[row], world_b, shapes.radius[row], ux, uy)
    else:
        px, py = support_point(shapes.count[row], world_b, shapes.radius[row], hit_nx, hit_ny)
    return row, best, hit_nx, hit_ny, px, py


@kernel
def overlapping_shapes(shapes, bodies, placed, category, mask):
    """Rows of the shapes of other bodies that overlap shape ``placed`` (touching is not
    overlapping), in row order; sensors included."""
    n = shapes.alive.shape[0]
    rows = np.empty(n, np.int64)
    count = 0
    world_a = np.empty((8, 2))
    world_b = np.empty((8, 2))
    difference = np.empty((16, 2))
    normals = np.empty((16, 2))
    _shape_in_world(shapes, bodies, placed, world_a)
    box_a = np.empty(4)
    _box(shapes, bodies, placed, box_a)
    box = np.empty(4)
    own = shapes.body[placed]
    for s in range(n):
        if shapes.body[s] == own or not _seen(shapes.alive[s], shapes.is_sensor[s],
                                             shapes.category[s], shapes.mask[s], category, mask,
                                             True):
            continue
        _box(shapes, bodies, s, box)
        if box[0] > box_a[2] or box[2] < box_a[0] or box[1] > box_a[3] or box[3] < box_a[1]:
            continue
        _shape_in_world(shapes, bodies, s, world_b)
        if overlaps(shapes.count[placed], world_a, shapes.radius[placed], shapes.count[s],
                    world_b, shapes.radius[s], difference, normals):
            rows[count] = s
            count += 1
    return rows[:count]


__all__ = ["ray_hits", "shapes_in_box", "shapes_at_point", "cast_rays", "cast_shape", "build_grid",
           "overlapping_shapes", "MAX_CELLS_PER_SHAPE"]
