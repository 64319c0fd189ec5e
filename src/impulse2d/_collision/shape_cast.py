"""A moving shape against another, exactly: time of impact under a translation, and overlap.

Shape A moved by ``t T`` touches shape B exactly when ``t T`` lies in the Minkowski difference
``B - A`` (every ``b - a``), a convex polygon rounded by ``r_A + r_B`` (both shapes are rounded
convex polygons). So the time of impact of A translating by ``T`` is the ray cast from the
origin along ``T`` against that rounded polygon (:func:`.raycast.ray_shape`), and A overlaps B
where the origin is inside it. The difference of the core polygons is the convex hull of the
(at most 64) pairwise vertex differences (Andrew's monotone chain); it has at most 16 vertices,
collapses to a segment or a point for circles and capsules, and is computed in world
coordinates.
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import inner_kernel, kernel
from .raycast import NO_HIT, point_in_shape, ray_shape

MAX_DIFFERENCE_VERTICES = 16
_WELD = 1e-12
"""Relative size (of the largest coordinate) below which two hull points are one point, and a
turn is no turn."""


@inner_kernel
def _world_vertices(count, vertices, px, py, c, s, out):
    for i in range(count):
        x = vertices[i, 0]
        y = vertices[i, 1]
        out[i, 0] = c * x - s * y + px
        out[i, 1] = s * x + c * y + py


@inner_kernel
def _cross(ox, oy, ax, ay, bx, by):
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


@inner_kernel
def minkowski_difference(count_a, world_a, count_b, world_b, out_vertices, out_normals):
    """The core polygon of ``B - A`` (world vertices of A and B) into ``out_vertices``
    (counter-clockwise) and its edge normals into ``out_normals``; returns its vertex count
    (1: a point, 2: a segment with both sides' normals, 3..16: a polygon). Kernels call it,
    Python does not: no Python wrapper to compile (the sensors' unit, BENCHMARKS.md, session
    27, ``warmD52``)."""
    n = count_a * count_b
    points = np.empty((n, 2))
    scale = 0.0
    k = 0
    for j in range(count_b):
        for i in range(count_a):
            points[k, 0] = world_b[j, 0] - world_a[i, 0]
            points[k, 1] = world_b[j, 1] - world_a[i, 1]
            scale = max(scale, abs(points[k, 0]), abs(points[k, 1]))
            k += 1
    # Sort by x, then y (insertion sort: at most 64 points).
    for i in range(1, n):
        x = points[i, 0]
        y = points[i, 1]
        j = i - 1
        while j >= 0 and (points[j, 0] > x or (points[j, 0] == x and points[j, 1] > y)):
            points[j + 1, 0] = points[j, 0]
            points[j + 1, 1] = points[j, 1]
            j -= 1
        points[j + 1, 0] = x
        points[j + 1, 1] = y
    tolerance = _WELD * max(scale, 1.0)
    hull = np.empty((2 * n + 1, 2))
    m = 0
    for i in range(n):  # lower hull
        while m >= 2 and _cross(hull[m - 2, 0], hull[m - 2, 1], hull[m - 1, 0], hull[m - 1, 1],
                                points[i, 0], points[i, 1]) <= tolerance * tolerance:
            m -= 1
        hull[m, 0] = points[i, 0]
        hull[m, 1] = points[i, 1]
        m += 1
    lower = m + 1
    for i in range(n - 2, -1, -1):  # upper hull
        while m >= lower and _cross(hull[m - 2, 0], hull[m - 2, 1], hull[m - 1, 0],
                                    hull[m - 1, 1], points[i, 0], points[i, 1]) <= tolerance * tolerance:
            m -= 1
        hull[m, 0] = points[i, 0]
        hull[m, 1] = points[i, 1]
        m += 1
    m -= 1  # the last point repeats the first
    if m < 1:
        m = 1
    # Drop points that coincide with their successor (a point hull, or a welded pair).
    count = 0
    for i in range(m):
        if count > 0 and (abs(hull[i, 0] - out_vertices[count - 1, 0]) <= tolerance
                          and abs(hull[i, 1] - out_vertices[count - 1, 1]) <= tolerance):
            continue
        out_vertices[count, 0] = hull[i, 0]
        out_vertices[count, 1] = hull[i, 1]
        count += 1
    if count > 1 and (abs(out_vertices[count - 1, 0] - out_vertices[0, 0]) <= tolerance
                      and abs(out_vertices[count - 1, 1] - out_vertices[0, 1]) <= tolerance):
        count -= 1
    for i in range(count if count >= 2 else 0):
        k = i + 1 if i + 1 < count else 0
        ex = out_vertices[k, 0] - out_vertices[i, 0]
        ey = out_vertices[k, 1] - out_vertices[i, 1]
        length = math.hypot(ex, ey)
        out_normals[i, 0] = ey / length
        out_normals[i, 1] = -ex / length
    return count


@inner_kernel
def cast_against(count_a, world_a, radius_a, count_b, world_b, radius_b, tx, ty, max_fraction,
                 difference, normals):
    """Time of impact of A translating by (tx, ty) against B (world vertices): ``(fraction,
    nx, ny)`` with B's outward normal at the contact, or ``(NO_HIT, 0, 0)``; ``(0, 0, 0)`` if
    they overlap already. ``difference`` and ``normals``: scratch of 16 x 2."""
    count = minkowski_difference(count_a, world_a, count_b, world_b, difference, normals)
    radius = radius_a + radius_b
    if point_in_shape(count, difference, normals, radius, 0.0, 0.0):
        return 0.0, 0.0, 0.0
    # The ray leaves the origin towards B - A; the difference's outward normal at the hit
    # points back along the approach: it is B's outward normal at the contact.
    return ray_shape(count, difference, normals, radius, 0.0, 0.0, tx, ty, max_fraction)


@kernel
def overlaps(count_a, world_a, radius_a, count_b, world_b, radius_b, difference, normals):
    """Whether A and B overlap (touching is not overlapping)."""
    count = minkowski_difference(count_a, world_a, count_b, world_b, difference, normals)
    return point_in_shape(count, difference, normals, radius_a + radius_b, 0.0, 0.0)


@inner_kernel
def support_point(count, world_vertices, radius, nx, ny):
    """The point of a shape furthest along (nx, ny): the mean of the core vertices that tie
    for furthest (a face), pushed out by the radius."""
    best = -math.inf
    for i in range(count):
        best = max(best, world_vertices[i, 0] * nx + world_vertices[i, 1] * ny)
    x = 0.0
    y = 0.0
    ties = 0
    tolerance = 1e-9 * max(1.0, abs(best))
    for i in range(count):
        if world_vertices[i, 0] * nx + world_vertices[i, 1] * ny >= best - tolerance:
            x += world_vertices[i, 0]
            y += world_vertices[i, 1]
            ties += 1
    return x / ties + radius * nx, y / ties + radius * ny


__all__ = ["minkowski_difference", "cast_against", "overlaps", "support_point",
           "MAX_DIFFERENCE_VERTICES", "NO_HIT"]
