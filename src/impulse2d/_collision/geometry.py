"""Shape construction, mass properties and bounding boxes of rounded convex polygons.

Every shape is a rounded convex polygon (see :mod:`impulse2d._collision`): ``count`` core vertices
(1 circle, 2 capsule/segment, 3..8 polygon) swept by a disc of ``radius``. Units are SI: metres,
kilograms per square metre for density, kg m^2 for rotational inertia.

The Python constructors (:func:`compute_hull`, :func:`make_polygon`, :func:`make_box`, ...) are the
public boundary: they validate their input and raise ``ValueError``/``TypeError`` with a message.
The ``@kernel`` functions trust their input (they run inside the step).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from impulse2d._core.jit import inner_kernel, kernel
from impulse2d.constants import LINEAR_SLOP, MAX_POLYGON_VERTICES

WELD_DISTANCE = 0.5 * LINEAR_SLOP
"""m. Input points of :func:`compute_hull` closer than this are one point (the first is kept)."""

COLLINEAR_TOLERANCE = LINEAR_SLOP
"""m. A hull vertex whose removal moves the boundary by less than this is dropped, so that no two
neighbouring edges are (nearly) parallel. Such vertices make face normals of almost equal
direction, which turns reference-face selection in the narrowphase into a coin toss, and their
removal changes the shape by less than the contact solver's own slop. Box2D v3 drops a vertex
closer than ``2 * linear_slop`` to the line through its neighbours; we use one slop, and measure
against every original hull point between the neighbours, so that every input point stays within
this distance (plus WELD_DISTANCE for a welded point) of the final hull."""


class Geometry(NamedTuple):
    """One shape in the common representation (body frame)."""

    count: int              # 1 circle, 2 capsule/segment, 3..8 polygon
    vertices: np.ndarray    # (8, 2) float64, rows >= count are zero
    normals: np.ndarray     # (8, 2) float64 outward unit normal of edge i -> i+1
    radius: float           # rounding radius, m
    centroid: np.ndarray    # (2,) centroid of the whole (rounded) area; segment: midpoint


# ---------------------------------------------------------------------------------------------
# Small transform helpers (kernels; also usable from Python)
# ---------------------------------------------------------------------------------------------


@kernel
def transform_point(px, py, c, s, x, y):
    """World coordinates of the body-frame point (x, y) under the transform (px, py, c, s)."""
    return c * x - s * y + px, s * x + c * y + py


@kernel
def inv_transform_point(px, py, c, s, x, y):
    """Body-frame coordinates of the world point (x, y) under the transform (px, py, c, s)."""
    dx = x - px
    dy = y - py
    return c * dx + s * dy, -s * dx + c * dy


@kernel
def shape_aabb(count, vertices, radius, px, py, c, s, out):
    """Write the world bounding box (min x, min y, max x, max y) of a rounded shape into out[0:4]."""
    x0, y0 = transform_point(px, py, c, s, vertices[0, 0], vertices[0, 1])
    lo_x = x0
    hi_x = x0
    lo_y = y0
    hi_y = y0
    for i in range(1, count):
        x, y = transform_point(px, py, c, s, vertices[i, 0], vertices[i, 1])
        lo_x = min(lo_x, x)
        hi_x = max(hi_x, x)
        lo_y = min(lo_y, y)
        hi_y = max(hi_y, y)
    out[0] = lo_x - radius
    out[1] = lo_y - radius
    out[2] = hi_x + radius
    out[3] = hi_y + radius


@kernel
def segment_distance(p1x, p1y, q1x, q1y, p2x, p2y, q2x, q2y):
    """Closest points between segments p1-q1 and p2-q2.

    Returns ``(f1, f2, c1x, c1y, c2x, c2y, distance_squared)`` where ``c1 = p1 + f1 (q1 - p1)`` and
    ``c2 = p2 + f2 (q2 - p2)``, ``f1, f2`` in [0, 1]. A fraction sits exactly at 0.0 or 1.0 when
    the closest point is an end point (callers use that to detect vertex-vertex cases). A segment
    of zero length is a point (fraction 0). Parallel segments return one of the closest pairs.
    Standard clamped-line construction (e.g. Ericson, Real-Time Collision Detection, 5.1.9).
    """
    d1x = q1x - p1x
    d1y = q1y - p1y
    d2x = q2x - p2x
    d2y = q2y - p2y
    rx = p1x - p2x
    ry = p1y - p2y
    a = d1x * d1x + d1y * d1y
    e = d2x * d2x + d2y * d2y
    f = d2x * rx + d2y * ry
    f1 = 0.0
    f2 = 0.0
    if a > 0.0 and e > 0.0:
        c = d1x * rx + d1y * ry
        b = d1x * d2x + d1y * d2y
        denom = a * e - b * b
        # Nearly parallel: the lines give no unique answer, start from p1 (any s is optimal
        # there as long as t is then optimised, which the clamping below does).
        if denom > 1.0e-14 * a * e:
            f1 = min(max((b * f - c * e) / denom, 0.0), 1.0)
        f2 = (b * f1 + f) / e
        if f2 < 0.0:
            f2 = 0.0
            f1 = min(max(-c / a, 0.0), 1.0)
        elif f2 > 1.0:
            f2 = 1.0
            f1 = min(max((b - c) / a, 0.0), 1.0)
    elif a > 0.0:
        f1 = min(max(-(d1x * rx + d1y * ry) / a, 0.0), 1.0)
    elif e > 0.0:
        f2 = min(max(f / e, 0.0), 1.0)
    c1x = p1x + f1 * d1x
    c1y = p1y + f1 * d1y
    c2x = p2x + f2 * d2x
    c2y = p2y + f2 * d2y
    dx = c2x - c1x
    dy = c2y - c1y
    return f1, f2, c1x, c1y, c2x, c2y, dx * dx + dy * dy


# ---------------------------------------------------------------------------------------------
# Mass properties
# ---------------------------------------------------------------------------------------------


@inner_kernel
def _rounded_polygon_moments(count, vertices, radius):
    """Area, centroid and polar second moment about the centroid (unit density) of a rounded
    convex polygon with ``count >= 2`` core vertices. Exact, not an approximation.

    The Minkowski sum of a convex polygon P and a disc of radius r splits, without overlap, into
    P itself, one r-wide rectangle standing outward on every edge and one circular sector at every
    vertex whose opening angle is the exterior angle there (the sectors add up to a full disc).
    So the area is ``A + perimeter * r + pi r^2`` and the moments are sums of textbook pieces.
    A capsule (count 2: the two "edges" are the segment run both ways) comes out as a 2r-wide
    rectangle plus two half discs, i.e. the same numbers as the closed form in mass_properties.
    All moments are taken about a reference point inside the polygon (the vertex mean) for
    precision, then shifted to the centroid with the parallel-axis theorem.
    """
    ox = 0.0
    oy = 0.0
    for i in range(count):
        ox += vertices[i, 0]
        oy += vertices[i, 1]
    ox /= count
    oy /= count

    area = 0.0
    mx = 0.0  # first moments about o
    my = 0.0
    j_o = 0.0  # polar second moment about o
    rr = radius * radius
    for i in range(count):
        k = i + 1 if i + 1 < count else 0
        e1x = vertices[i, 0] - ox
        e1y = vertices[i, 1] - oy
        e2x = vertices[k, 0] - ox
        e2y = vertices[k, 1] - oy
        # Core: triangle (o, v_i, v_k) of the fan.
        d = e1x * e2y - e1y * e2x
        tri = 0.5 * d
        area += tri
        mx += tri * (e1x + e2x) / 3.0
        my += tri * (e1y + e2y) / 3.0
        j_o += d / 12.0 * (e1x * e1x + e1y * e1y + e1x * e2x + e1y * e2y + e2x * e2x + e2y * e2y)
        if radius > 0.0:
            # Edge rectangle: length L, width r, centre = edge midpoint + (r/2) n.
            ex = e2x - e1x
            ey = e2y - e1y
            length = math.sqrt(ex * ex + ey * ey)
            nx = ey / length
            ny = -ex / length
            rect = length * radius
            cx = 0.5 * (e1x + e2x) + 0.5 * radius * nx
            cy = 0.5 * (e1y + e2y) + 0.5 * radius * ny
            area += rect
            mx += rect * cx
            my += rect * cy
            j_o += rect * (length * length + rr) / 12.0 + rect * (cx * cx + cy * cy)
    if radius > 0.0:
        for i in range(count):
            h = i - 1 if i > 0 else count - 1  # edge h ends at vertex i, edge i starts there
            k = i + 1 if i + 1 < count else 0
            ax = vertices[i, 0] - ox
            ay = vertices[i, 1] - oy
            # Outward normals of the two edges meeting at vertex i.
            ux = vertices[i, 0] - vertices[h, 0]
            uy = vertices[i, 1] - vertices[h, 1]
            lu = math.sqrt(ux * ux + uy * uy)
            n0x = uy / lu
            n0y = -ux / lu
            wx = vertices[k, 0] - vertices[i, 0]
            wy = vertices[k, 1] - vertices[i, 1]
            lw = math.sqrt(wx * wx + wy * wy)
            n1x = wy / lw
            n1y = -wx / lw
            if count == 2:
                theta = math.pi  # the normals are opposite; atan2 would be sign-ambiguous
            else:
                theta = math.atan2(n0x * n1y - n0y * n1x, n0x * n1x + n0y * n1y)
            if theta <= 0.0:
                continue
            sector = 0.5 * theta * rr
            # Sector centroid: 4 r sin(theta/2) / (3 theta) from the apex along the bisector,
            # which is n0 rotated counter-clockwise by theta/2.
            ch = math.cos(0.5 * theta)
            sh = math.sin(0.5 * theta)
            bx = ch * n0x - sh * n0y
            by = sh * n0x + ch * n0y
            dist = 4.0 * radius * sh / (3.0 * theta)
            cx = ax + dist * bx
            cy = ay + dist * by
            area += sector
            mx += sector * cx
            my += sector * cy
            # Polar moment about the apex is theta r^4 / 4; move it to the sector centroid, then
            # to o.
            j_o += 0.25 * theta * rr * rr - sector * dist * dist + sector * (cx * cx + cy * cy)
    cx = mx / area
    cy = my / area
    j_c = j_o - area * (cx * cx + cy * cy)
    return area, cx + ox, cy + oy, j_c


@kernel
def mass_properties(count, vertices, radius, density):
    """Mass (kg), centre of mass (2,) (body frame, m) and rotational inertia about the centre of
    mass (kg m^2) of a shape of uniform ``density`` (kg/m^2).

    * circle (count 1): m = rho pi r^2, I = m r^2 / 2.
    * capsule (count 2, r > 0): rectangle 2r x L plus two half discs. A half disc's centroid is
      4r / (3 pi) from its flat side, so by the parallel-axis theorem each half disc of mass m_h
      has ``I = m_h (r^2/2 + (L/2)^2 + L * 4r/(3 pi))`` about the capsule centre.
    * segment (count 2, r == 0): no area: mass 0, inertia 0, centre = midpoint.
    * polygon (count >= 3): triangle fan; with r > 0 the exact rounded area (see
      :func:`_rounded_polygon_moments`), not Box2D's inflated-polygon approximation.

    Inputs are trusted (kernel): ``density >= 0`` and a valid shape.
    """
    center = np.empty(2)
    if count == 1:
        center[0] = vertices[0, 0]
        center[1] = vertices[0, 1]
        mass = density * math.pi * radius * radius
        return mass, center, 0.5 * mass * radius * radius
    if count == 2:
        center[0] = 0.5 * (vertices[0, 0] + vertices[1, 0])
        center[1] = 0.5 * (vertices[0, 1] + vertices[1, 1])
        if radius <= 0.0:
            return 0.0, center, 0.0
        dx = vertices[1, 0] - vertices[0, 0]
        dy = vertices[1, 1] - vertices[0, 1]
        length = math.sqrt(dx * dx + dy * dy)
        rr = radius * radius
        box_mass = density * 2.0 * radius * length
        disc_mass = density * math.pi * rr  # both half discs
        box_inertia = box_mass * (length * length + 4.0 * rr) / 12.0
        lc = 4.0 * radius / (3.0 * math.pi)
        disc_inertia = disc_mass * (0.5 * rr + 0.25 * length * length + length * lc)
        return box_mass + disc_mass, center, box_inertia + disc_inertia
    area, cx, cy, j = _rounded_polygon_moments(count, vertices, radius)
    center[0] = cx
    center[1] = cy
    return density * area, center, density * j


# ---------------------------------------------------------------------------------------------
# Python-side construction and validation
# ---------------------------------------------------------------------------------------------


def _as_points(points, name: str = "points") -> np.ndarray:
    try:
        pts = np.array(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an (n, 2) array of real numbers: {exc}") from None
    if pts.ndim != 2 or pts.shape[1] != 2:
        raise ValueError(f"{name} must have shape (n, 2), got {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise ValueError(f"{name} must be finite, got {pts.tolist()}")
    return pts


def _float_points(points):
    """``points`` as a list of (x, y) tuples if it is a non-empty list or tuple of tuples of
    two finite Python floats (what the public constructors pass on after their own checks),
    else None: the caller then takes ``_as_points``' checked path."""
    if type(points) not in (list, tuple) or not points:
        return None
    for p in points:
        if not (type(p) is tuple and len(p) == 2 and type(p[0]) is float
                and type(p[1]) is float and math.isfinite(p[0]) and math.isfinite(p[1])):
            return None
    return list(points)


def _float_pair(v):
    """``v`` as (x, y) if it is a tuple of two finite Python floats (what the public
    constructors pass on after their own checks), else None: the caller then takes the checked
    path. Building a body's shapes from such pairs skips ``np.array``/``np.isfinite`` on each
    point (a third of a segment's creation)."""
    if type(v) is tuple and len(v) == 2:
        x, y = v
        if type(x) is float and type(y) is float and math.isfinite(x) and math.isfinite(y):
            return x, y
    return None


def _as_vec2(v, name: str) -> np.ndarray:
    try:
        out = np.array(v, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a pair of real numbers: {exc}") from None
    if out.shape != (2,):
        raise ValueError(f"{name} must be a pair (x, y), got shape {out.shape}")
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name} must be finite, got {out.tolist()}")
    return out


def _as_scalar(x, name: str, sign: str = "any") -> float:
    """A finite float; ``sign`` is "any", "nonnegative" or "positive"."""
    try:
        value = float(x)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a real number: {exc}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if sign == "positive" and not value > 0.0:
        raise ValueError(f"{name} must be > 0, got {value}")
    if sign == "nonnegative" and not value >= 0.0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _outside_distance(a, b, p) -> float:
    """Signed distance of p from the line a -> b, positive on the right (outside of a CCW hull)."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length = math.hypot(ex, ey)
    if length == 0.0:
        return math.hypot(p[0] - a[0], p[1] - a[1])
    return ((p[0] - a[0]) * ey - (p[1] - a[1]) * ex) / length


def compute_hull(points) -> np.ndarray:
    """Counter-clockwise convex hull of at most 8 points, as an (m, 2) array, 3 <= m <= 8.

    Points closer than :data:`WELD_DISTANCE` are welded (the first one is kept); hull vertices
    whose removal moves the boundary by less than :data:`COLLINEAR_TOLERANCE` are removed. Every
    input point therefore lies inside the hull or within ``COLLINEAR_TOLERANCE + WELD_DISTANCE``
    of it.

    Raises ``TypeError`` for non-numeric input and ``ValueError`` for a wrong shape, non-finite
    values, more than 8 points, fewer than 3 distinct points, or (nearly) collinear points.
    The first vertex is the lowest-then-leftmost welded point, for reproducibility.
    """
    pts = _float_points(points)
    if pts is None:
        pts = list(map(tuple, _as_points(points).tolist()))
    n = len(pts)
    if n > MAX_POLYGON_VERTICES:
        raise ValueError(f"a polygon has at most {MAX_POLYGON_VERTICES} points, got {n}")
    # The points as tuples of Python floats: the same IEEE double arithmetic below as on the
    # array's rows, without NumPy's scalar indexing (most of a polygon's creation time)
    welded: list[tuple[float, float]] = []
    for p in pts:
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= WELD_DISTANCE for q in welded):
            welded.append(p)
    if len(welded) < 3:
        raise ValueError(
            f"a polygon needs at least 3 distinct points (closer than {WELD_DISTANCE} m count as "
            f"one), got {len(welded)}"
        )

    # Andrew's monotone chain, strict left turns only (exactly collinear points are dropped).
    order = sorted(range(len(welded)), key=lambda i: (welded[i][0], welded[i][1]))
    srt = [welded[i] for i in order]
    lower: list[tuple[float, float]] = []
    for p in srt:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0.0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(srt):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0.0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    # A point in both chains only happens when round-off bends an exactly collinear set.
    if len(hull) < 3 or len({(p[0], p[1]) for p in hull}) != len(hull):
        raise ValueError("the points are collinear: a polygon needs a non-zero area")

    # Tolerance-based collinear removal: drop the vertex whose removal moves the boundary least,
    # as long as every original hull vertex stays within COLLINEAR_TOLERANCE of the new edge.
    keep = list(range(len(hull)))
    m0 = len(hull)
    while True:
        best_k, best_d = -1, COLLINEAR_TOLERANCE
        for k in range(len(keep)):
            a = keep[k - 1]
            b = keep[(k + 1) % len(keep)]
            worst = 0.0
            j = (a + 1) % m0
            while j != b:
                worst = max(worst, _outside_distance(hull[a], hull[b], hull[j]))
                j = (j + 1) % m0
            if worst < best_d:
                best_k, best_d = k, worst
        if best_k < 0:
            break
        del keep[best_k]
        if len(keep) < 3:
            raise ValueError(
                f"the points are (nearly) collinear: the hull is thinner than "
                f"{COLLINEAR_TOLERANCE} m and has no usable area"
            )
    out = [hull[i] for i in keep]
    area = 0.5 * sum(_cross(out[0], out[i], out[i + 1]) for i in range(1, len(out) - 1))
    if not area > 0.0:
        raise ValueError("the points are (nearly) collinear: the hull has no area")
    # Start at the lowest, then leftmost vertex (keeps the layout independent of input order).
    start = min(range(len(out)), key=lambda i: (out[i][1], out[i][0]))
    return np.array(out[start:] + out[:start], dtype=np.float64)


def _edge_normals(verts: np.ndarray, count: int) -> np.ndarray:
    normals = np.zeros((MAX_POLYGON_VERTICES, 2))
    for i in range(count):
        k = (i + 1) % count
        ex = verts.item(k, 0) - verts.item(i, 0)  # item: no row views (a body's creation)
        ey = verts.item(k, 1) - verts.item(i, 1)
        length = math.hypot(ex, ey)
        normals[i, 0] = ey / length  # right perpendicular = outward for CCW
        normals[i, 1] = -ex / length  # (element writes: a row from a tuple costs a microsecond)
    return normals


def _two_point_geometry(ax: float, ay: float, bx: float, by: float, radius: float,
                        what: str) -> Geometry:
    """A segment or capsule from its end points as floats: the same arrays, value for value,
    as ``_finish(2, _two_points(...), radius, midpoint)``, without the array round trips
    (``_edge_normals``' arithmetic on the same floats; the midpoint as 0.5 * (a + b))."""
    ex, ey = bx - ax, by - ay
    length = math.hypot(ex, ey)
    if not length > LINEAR_SLOP:
        raise ValueError(f"{what} end points must be more than {LINEAR_SLOP} m apart, got {length}")
    vertices = np.zeros((MAX_POLYGON_VERTICES, 2))
    vertices[0, 0] = ax
    vertices[0, 1] = ay
    vertices[1, 0] = bx
    vertices[1, 1] = by
    normals = np.zeros((MAX_POLYGON_VERTICES, 2))
    normals[0, 0] = ey / length
    normals[0, 1] = -ex / length
    # the edge back from b to a: (-ex, -ey), whose hypot is the same
    normals[1, 0] = (ay - by) / length
    normals[1, 1] = -(ax - bx) / length
    centroid = np.empty(2)
    centroid[0] = 0.5 * (ax + bx)
    centroid[1] = 0.5 * (ay + by)
    return Geometry(2, vertices, normals, float(radius), centroid)


def _finish(count: int, core: np.ndarray, radius: float, centroid=None) -> Geometry:
    vertices = np.zeros((MAX_POLYGON_VERTICES, 2))
    vertices[:count] = core
    normals = _edge_normals(vertices, count) if count >= 2 else np.zeros((MAX_POLYGON_VERTICES, 2))
    if centroid is None:
        _, centroid, _ = mass_properties(count, vertices, radius, 1.0)
    return Geometry(count, vertices, normals, float(radius), np.array(centroid, dtype=np.float64))


def make_polygon(points, radius: float = 0.0) -> Geometry:
    """A convex polygon (the hull of ``points``, see :func:`compute_hull`) rounded by ``radius``.

    The rounded polygon extends ``radius`` beyond the hull; its centroid is that of the whole
    rounded area."""
    radius = _as_scalar(radius, "radius", sign="nonnegative")
    hull = compute_hull(points)
    return _finish(len(hull), hull, radius)


def make_box(hx: float, hy: float, center=(0.0, 0.0), angle: float = 0.0,
             radius: float = 0.0) -> Geometry:
    """A box of half-widths (hx, hy) centred at ``center`` and rotated by ``angle`` (rad) in the
    body frame; with ``radius > 0`` its corners are rounded and it extends to hx + radius.

    Half-widths must exceed ``LINEAR_SLOP / 2`` (so that the sides are longer than the slop that
    welds polygon points)."""
    hx = _as_scalar(hx, "hx", sign="positive")
    hy = _as_scalar(hy, "hy", sign="positive")
    if hx <= 0.5 * LINEAR_SLOP or hy <= 0.5 * LINEAR_SLOP:
        raise ValueError(f"box half-widths must exceed {0.5 * LINEAR_SLOP} m, got ({hx}, {hy})")
    ctr = _as_vec2(center, "center")
    angle = _as_scalar(angle, "angle")
    radius = _as_scalar(radius, "radius", sign="nonnegative")
    c, s = math.cos(angle), math.sin(angle)
    local = np.array([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)])
    core = np.empty((4, 2))
    core[:, 0] = ctr[0] + c * local[:, 0] - s * local[:, 1]
    core[:, 1] = ctr[1] + s * local[:, 0] + c * local[:, 1]
    return _finish(4, core, radius, ctr)


def make_circle(center=(0.0, 0.0), radius: float = 0.5) -> Geometry:
    """A circle of ``radius`` > 0 centred at ``center`` (body frame)."""
    c = _float_pair(center)
    if c is not None:  # the same arrays as below, without the round trips
        radius = _as_scalar(radius, "radius", sign="positive")
        vertices = np.zeros((MAX_POLYGON_VERTICES, 2))
        vertices[0, 0] = c[0]
        vertices[0, 1] = c[1]
        centroid = np.empty(2)
        centroid[0] = c[0]
        centroid[1] = c[1]
        return Geometry(1, vertices, np.zeros((MAX_POLYGON_VERTICES, 2)), radius, centroid)
    ctr = _as_vec2(center, "center")
    radius = _as_scalar(radius, "radius", sign="positive")
    return _finish(1, ctr[None, :], radius, ctr)


def _two_points(p1, p2, what: str) -> np.ndarray:
    a = _as_vec2(p1, "p1")
    b = _as_vec2(p2, "p2")
    length = math.hypot(*(b - a))
    if not length > LINEAR_SLOP:
        raise ValueError(f"{what} end points must be more than {LINEAR_SLOP} m apart, got {length}")
    return np.stack([a, b])


def make_capsule(p1, p2, radius: float) -> Geometry:
    """A capsule: the segment p1-p2 swept by a disc of ``radius`` > 0."""
    radius = _as_scalar(radius, "radius", sign="positive")
    a, b = _float_pair(p1), _float_pair(p2)
    if a is not None and b is not None:
        return _two_point_geometry(a[0], a[1], b[0], b[1], radius, "capsule")
    core = _two_points(p1, p2, "capsule")
    return _finish(2, core, radius, 0.5 * (core[0] + core[1]))


class SegmentEnds(NamedTuple):
    """A segment checked but not yet built (:func:`segment_ends`): its end points (m) and
    length; :func:`segment_arrays` builds many at once."""

    ax: float
    ay: float
    bx: float
    by: float
    length: float
    count: int = 2        # as Geometry's fields, for the code that reads these two
    radius: float = 0.0


def segment_ends(p1, p2) -> SegmentEnds | None:
    """``make_segment(p1, p2)``'s checks, for pairs of Python floats, without building its
    arrays (None for other input: use ``make_segment``)."""
    a, b = _float_pair(p1), _float_pair(p2)
    if a is None or b is None:
        return None
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if not length > LINEAR_SLOP:
        raise ValueError(f"segment end points must be more than {LINEAR_SLOP} m apart, "
                         f"got {length}")
    return SegmentEnds(a[0], a[1], b[0], b[1], length)


def segment_arrays(ends: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The vertices (n, 8, 2), normals (n, 8, 2) and centroids (n, 2) that ``make_segment``
    gives each of ``ends`` (``SegmentEnds``): ``_two_point_geometry``'s operations on arrays
    (the length is the same ``math.hypot``, taken by ``segment_ends``)."""
    ax, ay, bx, by, length = (np.array(column, np.float64) for column in list(zip(*ends))[:5])
    n = len(ends)
    vertices = np.zeros((n, MAX_POLYGON_VERTICES, 2))
    vertices[:, 0, 0] = ax
    vertices[:, 0, 1] = ay
    vertices[:, 1, 0] = bx
    vertices[:, 1, 1] = by
    ex, ey = bx - ax, by - ay
    normals = np.zeros((n, MAX_POLYGON_VERTICES, 2))
    normals[:, 0, 0] = ey / length
    normals[:, 0, 1] = -ex / length
    normals[:, 1, 0] = (ay - by) / length
    normals[:, 1, 1] = -(ax - bx) / length
    centroid = np.empty((n, 2))
    centroid[:, 0] = 0.5 * (ax + bx)
    centroid[:, 1] = 0.5 * (ay + by)
    return vertices, normals, centroid


def make_segment(p1, p2) -> Geometry:
    """A line segment (a capsule of radius 0); it has no area, so no mass."""
    a, b = _float_pair(p1), _float_pair(p2)
    if a is not None and b is not None:
        return _two_point_geometry(a[0], a[1], b[0], b[1], 0.0, "segment")
    core = _two_points(p1, p2, "segment")
    return _finish(2, core, 0.0, 0.5 * (core[0] + core[1]))


__all__ = [
    "COLLINEAR_TOLERANCE",
    "WELD_DISTANCE",
    "Geometry",
    "compute_hull",
    "inv_transform_point",
    "make_box",
    "make_capsule",
    "make_circle",
    "make_polygon",
    "make_segment",
    "mass_properties",
    "segment_distance",
    "shape_aabb",
    "transform_point",
]
