"""A ray against one shape, and a point in one shape, exactly.

Every shape is a rounded convex polygon (``count`` core vertices, ``radius``): a circle is one
vertex, a capsule or segment two (with two opposite edges), a polygon three to eight. Its
boundary is made of the core's edges pushed out by ``radius`` along their normals and of circle
arcs of ``radius`` about the core's vertices. The first point where a ray enters the shape is
therefore the earliest entering hit over the pushed-out edges (as finite segments, entered from
their outer side) and the vertex circles: every such hit lies in the shape, and the entry point
lies on one of them.

A ray is ``origin + f * translation`` for the fraction ``f`` in [0, ``max_fraction``]. A ray that
starts inside a shape does not hit it (Box2D v3's rule: a query from inside a body sees the
world around it, not the body).
"""

from __future__ import annotations

import math

from .._core.jit import inner_kernel, kernel

NO_HIT = -1.0
"""The fraction :func:`ray_shape` returns when the ray misses."""


@inner_kernel
def point_distance_to_core(count, vertices, normals, x, y):
    """Distance (m) from the body-frame point (x, y) to the core polygon of a shape: 0 inside a
    polygon core (``count`` >= 3), else the distance to the nearest core edge or vertex."""
    if count == 1:
        return math.hypot(x - vertices[0, 0], y - vertices[0, 1])
    if count >= 3:
        inside = True
        for i in range(count):
            if normals[i, 0] * (x - vertices[i, 0]) + normals[i, 1] * (y - vertices[i, 1]) > 0.0:
                inside = False
                break
        if inside:
            return 0.0
    best = math.inf
    edges = count if count >= 3 else 1
    for i in range(edges):
        k = i + 1 if i + 1 < count else 0
        ax = vertices[i, 0]
        ay = vertices[i, 1]
        ex = vertices[k, 0] - ax
        ey = vertices[k, 1] - ay
        length2 = ex * ex + ey * ey
        u = ((x - ax) * ex + (y - ay) * ey) / length2 if length2 > 0.0 else 0.0
        u = min(max(u, 0.0), 1.0)
        best = min(best, math.hypot(x - ax - u * ex, y - ay - u * ey))
    return best


@kernel
def point_in_shape(count, vertices, normals, radius, x, y):
    """Whether the body-frame point (x, y) lies inside the rounded shape (its boundary counts as
    outside, so that a ray starting on the surface may still hit it at fraction 0)."""
    distance = point_distance_to_core(count, vertices, normals, x, y)
    if count >= 3 and distance == 0.0:
        # In the core: strictly inside unless on an edge with no rounding.
        if radius > 0.0:
            return True
        for i in range(count):
            if normals[i, 0] * (x - vertices[i, 0]) + normals[i, 1] * (y - vertices[i, 1]) >= 0.0:
                return False
        return True
    return distance < radius


@kernel
def ray_shape(count, vertices, normals, radius, ox, oy, dx, dy, max_fraction):
    """The ray ``(ox, oy) + f (dx, dy)`` against a shape, all in the shape's body frame.

    Returns ``(fraction, nx, ny)``: the first fraction in [0, max_fraction] at which the ray
    enters the shape and the outward unit normal there, or ``(NO_HIT, 0, 0)``.

    Whether the ray starts inside is asked only once it hits (most tested shapes are missed),
    and never for a circle, whose own test already refuses a ray from inside."""
    best = max_fraction
    hit = False
    bx = 0.0
    by = 0.0
    if count >= 2:
        for i in range(count):
            k = i + 1 if i + 1 < count else 0
            nx = normals[i, 0]
            ny = normals[i, 1]
            denom = dx * nx + dy * ny
            if denom >= 0.0:
                continue  # parallel to this side, or leaving through it
            # The pushed-out edge: n . (p - v_i) = radius.
            ax = vertices[i, 0]
            ay = vertices[i, 1]
            f = (radius - (nx * (ox - ax) + ny * (oy - ay))) / denom
            if f < 0.0 or f > best:
                continue
            ex = vertices[k, 0] - ax
            ey = vertices[k, 1] - ay
            u = ((ox + f * dx - ax) * ex + (oy + f * dy - ay) * ey) / (ex * ex + ey * ey)
            if 0.0 <= u <= 1.0:
                best = f
                bx = nx
                by = ny
                hit = True
    if radius > 0.0:
        a = dx * dx + dy * dy
        if a > 0.0:
            r2 = radius * radius
            for i in range(count):
                mx = ox - vertices[i, 0]
                my = oy - vertices[i, 1]
                b = mx * dx + my * dy
                c = mx * mx + my * my - r2
                disc = b * b - a * c
                if c <= 0.0 or b >= 0.0 or disc < 0.0:
                    continue  # starts in this circle, moves away from it, or misses it
                f = (-b - math.sqrt(disc)) / a
                if 0.0 <= f <= best:
                    best = f
                    bx = (mx + f * dx) / radius
                    by = (my + f * dy) / radius
                    hit = True
    if not hit or (count > 1 and point_in_shape(count, vertices, normals, radius, ox, oy)):
        return NO_HIT, 0.0, 0.0
    return best, bx, by


__all__ = ["ray_shape", "point_in_shape", "point_distance_to_core", "NO_HIT"]
