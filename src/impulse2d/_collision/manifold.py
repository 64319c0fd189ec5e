"""Narrowphase: contact manifolds between two rounded convex shapes.

Every shape is a rounded convex polygon (count 1 circle, 2 capsule/segment, 3..8 polygon; see
:mod:`impulse2d._collision`). :func:`collide` dispatches on the vertex counts:

* circle - circle                      -> :func:`collide_circles`
* capsule/segment - circle             -> :func:`collide_capsule_circle`
* polygon - circle                     -> :func:`collide_polygon_circle`
* everything else (count >= 2 each)    -> :func:`collide_polygons`

All of them share one signature and write

* ``out_normal`` (2,): world unit normal pointing from A to B;
* ``out_points`` (2, 3): per point the world x, y of the mid-point between the two rounded
  surfaces, and the separation of the surfaces along the normal (m, negative = overlap);
* ``out_ids`` (2,): feature ids, ``(feature of A << 8) | feature of B`` where a feature is a
  vertex index (0..7). A clipped point pairs one end of the reference face with the incident
  vertex it came from (so the two points of a manifold always differ, and keep their ids while
  the same faces touch); a single closest-feature point names the two closest vertices (an edge
  interior counts as its first vertex). The circle routines use id 0 for their single point.

and return the number of points (0, 1 or 2). Points are kept when their separation is below
``speculative_distance`` (speculative contacts); outputs are unspecified when 0 is returned.

Computation happens in A's body frame (B is moved into it), so that precision does not depend
on how far from the world origin the pair is; results are rotated back to world at the end.
Nothing is allocated: shapes are read through small scalar helpers. The polygon routine and
its three big helpers (:func:`_separations`, :func:`_incident_face`, :func:`_face_manifold`)
are compiled into their caller (``inline="always"``): as calls, each passed its arrays as
structs on the stack and its results back through memory, and a box-box pair cost 140-146 ns
against 104-106 ns inlined (``pyramid_20``'s and ``pyramid_100``'s pairs, the same bits;
measured 2026-11-28 in one process on the 2-core machine under load, BENCHMARKS.md). Inlining
every helper gained less (0.75x) and took the narrowphase's compile from 2.8 to 10.6-13.5 s of
CPU; these four take it to 4.2 s.

The polygon routine follows Box2D v3 (``b2CollidePolygons``, E. Catto): separating-axis test over
the face normals of both cores, reference face with a small bias towards A, incident face = the
most anti-parallel face of the other shape; clipping of the incident face against the reference
face's side planes (up to 2 points); when the cores are apart and the closest features are two
vertices, one point with the exact rounded-corner normal from a segment-segment distance.
One addition: a capsule/segment (count 2) is given four faces, its two sides and two zero-length
"caps" at the end points whose normals run along the segment. Without the caps the separating
axis test misses the end directions of two parallel segments (e.g. two capsules end to end
report zero separation sideways instead of their true gap). The caps are valid separating axes
(the end point is the shape's support point along the segment), so they only sharpen the test;
a contact on a cap, or with a cap as the incident face, has a single point.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from impulse2d._collision.geometry import segment_distance, transform_point
from impulse2d._core.jit import inline_kernel, inner_kernel, kernel
from impulse2d._core.lazy import JIT
from impulse2d.constants import LINEAR_SLOP, MAX_POLYGON_VERTICES, SPECULATIVE_DISTANCE

REFERENCE_TOLERANCE = 0.1 * LINEAR_SLOP
"""m. B's face becomes the reference only if its separation beats A's by more than this (Box2D:
``0.1 * linear_slop``), so that two parallel faces do not swap roles from step to step."""

SEPARATED_TOLERANCE = 0.1 * LINEAR_SLOP
"""m. Cores farther apart than this along the reference axis take the closest-feature path (whose
vertex-vertex normal needs a non-zero distance to normalise); nearer ones are clipped."""

TOLERANCE_SHARE = REFERENCE_TOLERANCE / SPECULATIVE_DISTANCE
"""Both tolerances above as a share of the speculative distance (0.1 slop over 4 slops: 0.025).
The kernels take them as this share of the ``speculative_distance`` they are given, so that
they follow ``WorldSettings.length_units_per_meter`` with it; 4 being a power of two, the
product is the constant itself, bit for bit, in a world in metres."""

ZERO = np.int64(0)
ONE = np.int64(1)
"""Indices given as constants (a face, a vertex, a point count), typed int64 as the same
arguments are at the callee's other calls. A literal ``0``, or a variable set to ``0`` before
a loop sets it again, is typed ``Literal[int](0)`` when Numba's type inference first meets the
call, and the callee is then compiled for that type too, a second copy of it (a literal twin:
``face_manifold_call``, ``_face_b``, ``_vertex_b``, ``_to_world``, ``_face_normal``,
``_face_vertices``; BENCHMARKS.md, session 27, ``warmD52``). A NumPy integer is typed int64."""

NORMAL_EPSILON = 1.0e-9
"""m. Below this centre-to-feature distance a circle's normal direction is noise; a fixed
direction is used instead (concentric circles, circle centre on a capsule's core segment)."""


@inner_kernel
def make_id(feature_a, feature_b):
    """Contact feature id: A's vertex index in bits 8..15, B's in bits 0..7."""
    return (feature_a << 8) | feature_b


# ---------------------------------------------------------------------------------------------
# Frame helpers
# ---------------------------------------------------------------------------------------------


@inner_kernel
def _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb):
    """B's transform expressed in A's body frame, as (px, py, c, s)."""
    dx = pxb - pxa
    dy = pyb - pya
    return ca * dx + sa * dy, -sa * dx + ca * dy, ca * cb + sa * sb, ca * sb - sa * cb


@inner_kernel
def _to_world(n, px, py, c, s, out_normal, out_points):
    """Rotate the normal and move the n points from A's frame to world (in place)."""
    nx = out_normal[0]
    ny = out_normal[1]
    out_normal[0] = c * nx - s * ny
    out_normal[1] = s * nx + c * ny
    for i in range(n):
        x, y = transform_point(px, py, c, s, out_points[i, 0], out_points[i, 1])
        out_points[i, 0] = x
        out_points[i, 1] = y


@inner_kernel
def _face_count(count):
    """Number of faces: a 2-gon has its two sides and two zero-length end caps."""
    return 4 if count == 2 else count


@inner_kernel
def _face_normal(count, normals, k):
    """Outward normal of face k in the shape's own frame.

    Faces of a 2-gon, in counter-clockwise order: 0 = side v0 -> v1 (normal n0), 1 = cap at v1
    (normal along the segment), 2 = side v1 -> v0 (-n0), 3 = cap at v0.
    """
    if count == 2:
        n0x = normals[0, 0]
        n0y = normals[0, 1]
        if k == 0:
            return n0x, n0y
        if k == 1:
            return -n0y, n0x  # left perpendicular of n0 = unit direction v0 -> v1
        if k == 2:
            return -n0x, -n0y
        return n0y, -n0x
    return normals[k, 0], normals[k, 1]


@inner_kernel
def _face_vertices(count, k):
    """Start and end vertex indices of face k (equal for a 2-gon's caps)."""
    if count == 2:
        if k == 0:
            return 0, 1
        if k == 1:
            return 1, 1
        if k == 2:
            return 1, 0
        return 0, 0
    return k, (k + 1 if k + 1 < count else 0)


@inline_kernel
def _separations(count_a, vertices_a, normals_a, count_b, vertices_b, normals_b, px, py, c, s):
    """Separating-axis test over the faces of both shapes; B's transform in A's frame is
    (px, py, c, s). Returns ``(sep_a, face_a, sep_b, face_b)``.

    For face k of shape 1: min over core vertices w of shape 2 of n_k . (w - v_k); the largest
    value over the faces and its face (the first on exact ties). The value is a lower bound of the
    core distance, and the exact overlap depth along that face. Each face is moved into the other
    shape's frame once, so the inner loop reads the other's vertices as stored.

    The two passes are written out rather than shared through a helper: an array argument
    crossing a call that the compiler does not inline costs two atomic reference-count updates,
    which here would cost more than the loops themselves.
    """
    # A's faces against B's vertices, in B's frame (inverse transform).
    ipx = -(c * px + s * py)
    ipy = s * px - c * py
    sep_a = -np.inf
    face_a = ZERO
    for k in range(_face_count(count_a)):
        lx, ly = _face_normal(count_a, normals_a, k)
        nx = c * lx + s * ly
        ny = -s * lx + c * ly
        i1, _ = _face_vertices(count_a, k)
        vx, vy = transform_point(ipx, ipy, c, -s, vertices_a[i1, 0], vertices_a[i1, 1])
        smallest = np.inf
        for j in range(count_b):
            d = nx * (vertices_b[j, 0] - vx) + ny * (vertices_b[j, 1] - vy)
            if d < smallest:
                smallest = d
        if smallest > sep_a:
            sep_a = smallest
            face_a = k
    # B's faces against A's vertices, in A's frame.
    sep_b = -np.inf
    face_b = ZERO
    for k in range(_face_count(count_b)):
        lx, ly = _face_normal(count_b, normals_b, k)
        nx = c * lx - s * ly
        ny = s * lx + c * ly
        i1, _ = _face_vertices(count_b, k)
        vx, vy = transform_point(px, py, c, s, vertices_b[i1, 0], vertices_b[i1, 1])
        smallest = np.inf
        for j in range(count_a):
            d = nx * (vertices_a[j, 0] - vx) + ny * (vertices_a[j, 1] - vy)
            if d < smallest:
                smallest = d
        if smallest > sep_b:
            sep_b = smallest
            face_b = k
    return sep_a, face_a, sep_b, face_b


@kernel
def reference_separations(count_a, vertices_a, normals_a, pxa, pya, ca, sa,
                          count_b, vertices_b, normals_b, pxb, pyb, cb, sb):
    """Diagnostic: the core separating-axis values ``(sep_a, face_a, sep_b, face_b)`` that
    :func:`collide_polygons` uses to pick its reference face."""
    px, py, c, s = _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb)
    return _separations(count_a, vertices_a, normals_a, count_b, vertices_b, normals_b,
                        px, py, c, s)


@inline_kernel
def _incident_face(count, normals, qx, qy):
    """The face whose normal is most anti-parallel to (qx, qy) (given in the shape's frame)."""
    face = ZERO
    lowest = np.inf
    for k in range(_face_count(count)):
        mx, my = _face_normal(count, normals, k)
        d = mx * qx + my * qy
        if d < lowest:
            lowest = d
            face = k
    return face


@inline_kernel
def _face_manifold(nx, ny, x11, y11, x12, y12, r1, r2, x21, y21, x22, y22, i21, i22,
                   radius_r, radius_i, separation_r, speculative_distance):
    """Manifold of reference face v11 -> v12 (outward normal n, vertex ids r1, r2) against
    incident face v21 -> v22 (ids i21, i22), all in one frame. A cap has equal end points.

    Returns ``(count, nx, ny, x0, y0, sep0, ref0, inc0, x1, y1, sep1, ref1, inc1)``: the normal
    from the reference shape to the incident one and up to two points (mid-points between the
    rounded surfaces) with the reference and incident feature of each. Scalars only, so that
    nothing crosses this call as an array.
    """
    radius = radius_r + radius_i
    ref_cap = r1 == r2
    inc_cap = i21 == i22

    if separation_r > TOLERANCE_SHARE * speculative_distance:
        # Cores apart: closest points between the two faces. Vertex-vertex (or a cap involved)
        # gives one point whose normal is the direction between the closest points, which is
        # the exact normal of the rounded corners.
        f1, f2, c1x, c1y, c2x, c2y, dsq = segment_distance(x11, y11, x12, y12,
                                                           x21, y21, x22, y22)
        at_vertex1 = f1 == 0.0 or f1 == 1.0
        at_vertex2 = f2 == 0.0 or f2 == 1.0
        if ref_cap or inc_cap or (at_vertex1 and at_vertex2):
            distance = math.sqrt(dsq)  # >= separation_r > 0: the normal is well defined
            separation = distance - radius
            if not separation < speculative_distance:
                return 0, nx, ny, 0.0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, 0
            ux = (c2x - c1x) / distance
            uy = (c2y - c1y) / distance
            # Mid-point between the two rounded surfaces.
            px = 0.5 * ((c1x + radius_r * ux) + (c2x - radius_i * ux))
            py = 0.5 * ((c1y + radius_r * uy) + (c2y - radius_i * uy))
            feature_r = r2 if f1 == 1.0 else r1
            feature_i = i22 if f2 == 1.0 else i21
            return 1, ux, uy, px, py, separation, feature_r, feature_i, 0.0, 0.0, 0.0, 0, 0

    # Clip the incident face against the side planes of the reference face. Tangent coordinate
    # t runs along the reference face from v11 (t = 0) to v12 (t = upper, 0 for a cap).
    tx = -ny
    ty = nx
    upper = (x12 - x11) * tx + (y12 - y11) * ty
    t21 = (x21 - x11) * tx + (y21 - y11) * ty
    t22 = (x22 - x11) * tx + (y22 - y11) * ty
    # Order the incident end points by t (normally v22 is the lower one: the incident face runs
    # against the reference face).
    if t22 <= t21:
        lox, loy, tlo, ilo = x22, y22, t22, i22
        hix, hiy, thi, ihi = x21, y21, t21, i21
    else:
        lox, loy, tlo, ilo = x21, y21, t21, i21
        hix, hiy, thi, ihi = x22, y22, t22, i22
    ax = lox
    ay = loy
    if tlo < 0.0:
        if thi > 0.0:
            w = (0.0 - tlo) / (thi - tlo)
            ax = lox + w * (hix - lox)
            ay = loy + w * (hiy - loy)
        else:  # whole face below the range: keep its nearest end
            ax = hix
            ay = hiy
    bx = hix
    by = hiy
    if thi > upper:
        if tlo < upper:
            w = (upper - tlo) / (thi - tlo)
            bx = lox + w * (hix - lox)
            by = loy + w * (hiy - loy)
        else:  # whole face above the range
            bx = lox
            by = loy
    # One point when a face has no length or the clipped range has collapsed to a point.
    single = ref_cap or inc_cap or thi <= 0.0 or tlo >= upper

    # Separations of the cores along n, then shift from the incident core to half-way between
    # the two rounded surfaces.
    sa_core = (ax - x11) * nx + (ay - y11) * ny
    sb_core = (bx - x11) * nx + (by - y11) * ny
    sep_a = sa_core - radius
    sep_b = sb_core - radius
    shift_a = 0.5 * (radius_r - radius_i - sa_core)
    shift_b = 0.5 * (radius_r - radius_i - sb_core)
    keep_a = sep_a < speculative_distance
    keep_b = (not single) and sep_b < speculative_distance
    if keep_a and keep_b:
        return (2, nx, ny, ax + shift_a * nx, ay + shift_a * ny, sep_a, r1, ilo,
                bx + shift_b * nx, by + shift_b * ny, sep_b, r2, ihi)
    if keep_a:
        return (1, nx, ny, ax + shift_a * nx, ay + shift_a * ny, sep_a, r1, ilo,
                0.0, 0.0, 0.0, 0, 0)
    if keep_b:
        return (1, nx, ny, bx + shift_b * nx, by + shift_b * ny, sep_b, r2, ihi,
                0.0, 0.0, 0.0, 0, 0)
    return 0, nx, ny, 0.0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0, 0


@inner_kernel
def face_manifold_call(nx, ny, x11, y11, x12, y12, r1, r2, x21, y21, x22, y22, i21, i22,
                       radius_r, radius_i, separation_r, speculative_distance):
    """:func:`_face_manifold` as a call, for the chain segment's routine
    (:mod:`.chain`), whose two call sites would each compile it inlined."""
    return _face_manifold(nx, ny, x11, y11, x12, y12, r1, r2, x21, y21, x22, y22, i21, i22,
                          radius_r, radius_i, separation_r, speculative_distance)


# ---------------------------------------------------------------------------------------------
# The four pair routines (shared signature)
# ---------------------------------------------------------------------------------------------


@inline_kernel
def _polygon_faces(count_a, vertices_a, normals_a, radius_a, count_b, vertices_b, normals_b,
                   radius_b, px, py, c, s, speculative_distance):
    """:func:`collide_polygons`' first half, on the shapes' counts: the separating-axis test,
    then the reference and incident faces, both in A's frame (B's transform in it is
    ``(px, py, c, s)``). Returns ``(found, flip, nx, ny, x11, y11, x12, y12, r1, r2, x21, y21,
    x22, y22, i21, i22, radius_r, radius_i, separation_r)``, :func:`_face_manifold`'s inputs
    (``flip``: B's face is the reference); ``found`` False (and the rest zeros) when the cores'
    separation along an axis is beyond the speculative distance and both radii."""
    sep_a, face_a, sep_b, face_b = _separations(count_a, vertices_a, normals_a,
                                                count_b, vertices_b, normals_b, px, py, c, s)
    limit = speculative_distance + radius_a + radius_b
    if sep_a >= limit or sep_b >= limit:
        # the separating-axis value is a lower bound of the core distance
        return (False, False, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0.0, 0, 0,
                0.0, 0.0, 0.0)

    # Reference and incident faces, both in A's frame.
    flip = sep_b > sep_a + TOLERANCE_SHARE * speculative_distance
    if flip:
        lx, ly = _face_normal(count_b, normals_b, face_b)
        nx = c * lx - s * ly
        ny = s * lx + c * ly
        r1, r2 = _face_vertices(count_b, face_b)
        x11, y11 = transform_point(px, py, c, s, vertices_b[r1, 0], vertices_b[r1, 1])
        x12, y12 = transform_point(px, py, c, s, vertices_b[r2, 0], vertices_b[r2, 1])
        i21, i22 = _face_vertices(count_a, _incident_face(count_a, normals_a, nx, ny))
        x21 = vertices_a[i21, 0]
        y21 = vertices_a[i21, 1]
        x22 = vertices_a[i22, 0]
        y22 = vertices_a[i22, 1]
        return (True, True, nx, ny, x11, y11, x12, y12, r1, r2, x21, y21, x22, y22, i21, i22,
                radius_b, radius_a, sep_b)
    nx, ny = _face_normal(count_a, normals_a, face_a)
    r1, r2 = _face_vertices(count_a, face_a)
    x11 = vertices_a[r1, 0]
    y11 = vertices_a[r1, 1]
    x12 = vertices_a[r2, 0]
    y12 = vertices_a[r2, 1]
    # The reference normal in B's frame, for the incident search.
    face_i = _incident_face(count_b, normals_b, c * nx + s * ny, -s * nx + c * ny)
    i21, i22 = _face_vertices(count_b, face_i)
    x21, y21 = transform_point(px, py, c, s, vertices_b[i21, 0], vertices_b[i21, 1])
    x22, y22 = transform_point(px, py, c, s, vertices_b[i22, 0], vertices_b[i22, 1])
    return (True, False, nx, ny, x11, y11, x12, y12, r1, r2, x21, y21, x22, y22, i21, i22,
            radius_a, radius_b, sep_a)


@inline_kernel
def _polygon_points(faces, pxa, pya, ca, sa, speculative_distance):
    """:func:`collide_polygons`' second half, the same for every count: the manifold of the
    faces :func:`_polygon_faces` found (``faces``, its tuple), to world, as scalars ``(n, nx,
    ny, x0, y0, s0, id0, x1, y1, s1, id1)``: the number of points, the normal and each point's
    world x, y, separation and id; what ``n`` leaves out is unspecified (zeros)."""
    (found, flip, nx, ny, x11, y11, x12, y12, r1, r2, x21, y21, x22, y22, i21, i22, radius_r,
     radius_i, separation_r) = faces
    if not found:
        return 0, 0.0, 0.0, 0.0, 0.0, 0.0, ZERO, 0.0, 0.0, 0.0, ZERO
    n, ux, uy, x0, y0, s0, fr0, fi0, x1, y1, s1, fr1, fi1 = _face_manifold(
        nx, ny, x11, y11, x12, y12, r1, r2, x21, y21, x22, y22, i21, i22,
        radius_r, radius_i, separation_r, speculative_distance)
    if n == 0:
        return 0, 0.0, 0.0, 0.0, 0.0, 0.0, ZERO, 0.0, 0.0, 0.0, ZERO

    # To world; the normal points from A to B, ids name A's feature first.
    if flip:
        ux = -ux
        uy = -uy
    wx0, wy0 = transform_point(pxa, pya, ca, sa, x0, y0)
    wx1, wy1 = transform_point(pxa, pya, ca, sa, x1, y1)
    return (n, ca * ux - sa * uy, sa * ux + ca * uy, wx0, wy0, s0,
            make_id(fi0, fr0) if flip else make_id(fr0, fi0), wx1, wy1, s1,
            make_id(fi1, fr1) if flip else make_id(fr1, fi1))


@inline_kernel
def _write_points(points, out_normal, out_points, out_ids):
    """:func:`_polygon_points`' tuple ``points`` into ``out_*`` as every routine writes them
    (the module docstring): nothing when it has no point, the second point only when it has
    two. Returns the number of points."""
    n, nx, ny, x0, y0, s0, id0, x1, y1, s1, id1 = points
    if n == 0:
        return 0
    out_normal[0] = nx
    out_normal[1] = ny
    out_points[0, 0] = x0
    out_points[0, 1] = y0
    out_points[0, 2] = s0
    out_ids[0] = id0
    if n == 2:
        out_points[1, 0] = x1
        out_points[1, 1] = y1
        out_points[1, 2] = s1
        out_ids[1] = id1
    return n


@inline_kernel
def collide_polygons(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                     count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                     speculative_distance, out_normal, out_points, out_ids):
    """Rounded polygon/capsule/segment vs rounded polygon/capsule/segment (counts >= 2): the
    faces (:func:`_polygon_faces`), then their manifold (:func:`_polygon_points`) written
    (:func:`_write_points`)."""
    px, py, c, s = _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb)
    faces = _polygon_faces(count_a, vertices_a, normals_a, radius_a, count_b, vertices_b,
                           normals_b, radius_b, px, py, c, s, speculative_distance)
    return _write_points(_polygon_points(faces, pxa, pya, ca, sa, speculative_distance),
                         out_normal, out_points, out_ids)


@inner_kernel
def _write_single(ax, ay, ra, bx, by, rb, ux, uy, separation, pxa, pya, ca, sa,
                  out_normal, out_points, out_ids):
    """One point between surface points a + ra u and b - rb u (A's frame), written in world."""
    out_normal[0] = ux
    out_normal[1] = uy
    out_points[0, 0] = 0.5 * ((ax + ra * ux) + (bx - rb * ux))
    out_points[0, 1] = 0.5 * ((ay + ra * uy) + (by - rb * uy))
    out_points[0, 2] = separation
    out_ids[0] = 0
    _to_world(ONE, pxa, pya, ca, sa, out_normal, out_points)
    return 1


@inline_kernel
def _circles(vertices_a, radius_a, pxa, pya, ca, sa, vertices_b, radius_b, pxb, pyb, cb, sb,
             speculative_distance, out_normal, out_points, out_ids):
    """:func:`collide_circles`' body, compiled into its two callers (it and
    :func:`collide_pair`)."""
    px, py, c, s = _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb)
    ax = vertices_a[0, 0]
    ay = vertices_a[0, 1]
    bx, by = transform_point(px, py, c, s, vertices_b[0, 0], vertices_b[0, 1])
    dx = bx - ax
    dy = by - ay
    distance = math.sqrt(dx * dx + dy * dy)
    separation = distance - radius_a - radius_b
    if not separation < speculative_distance:
        return 0
    ux = 0.0
    uy = 1.0
    if distance > NORMAL_EPSILON:
        ux = dx / distance
        uy = dy / distance
    return _write_single(ax, ay, radius_a, bx, by, radius_b, ux, uy, separation,
                         pxa, pya, ca, sa, out_normal, out_points, out_ids)


@inner_kernel
def collide_circles(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                    count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                    speculative_distance, out_normal, out_points, out_ids):
    """Circle vs circle. Concentric circles get A's local +y as normal."""
    return _circles(vertices_a, radius_a, pxa, pya, ca, sa, vertices_b, radius_b, pxb, pyb, cb,
                    sb, speculative_distance, out_normal, out_points, out_ids)


@inner_kernel
def collide_capsule_circle(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                           count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                           speculative_distance, out_normal, out_points, out_ids):
    """Capsule or segment (A, count 2) vs circle (B). A circle centre on the core segment gets
    the segment's normal n0."""
    px, py, c, s = _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb)
    bx, by = transform_point(px, py, c, s, vertices_b[0, 0], vertices_b[0, 1])
    x0 = vertices_a[0, 0]
    y0 = vertices_a[0, 1]
    ex = vertices_a[1, 0] - x0
    ey = vertices_a[1, 1] - y0
    w = ((bx - x0) * ex + (by - y0) * ey) / (ex * ex + ey * ey)
    w = min(max(w, 0.0), 1.0)
    qx = x0 + w * ex
    qy = y0 + w * ey
    dx = bx - qx
    dy = by - qy
    distance = math.sqrt(dx * dx + dy * dy)
    separation = distance - radius_a - radius_b
    if not separation < speculative_distance:
        return 0
    if distance > NORMAL_EPSILON:
        ux = dx / distance
        uy = dy / distance
    else:
        ux = normals_a[0, 0]
        uy = normals_a[0, 1]
    return _write_single(qx, qy, radius_a, bx, by, radius_b, ux, uy, separation,
                         pxa, pya, ca, sa, out_normal, out_points, out_ids)


@inline_kernel
def _polygon_circle(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                    vertices_b, radius_b, pxb, pyb, cb, sb,
                    speculative_distance, out_normal, out_points, out_ids):
    """:func:`collide_polygon_circle`'s body, compiled into its two callers (it and
    :func:`collide_pair`)."""
    px, py, c, s = _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb)
    bx, by = transform_point(px, py, c, s, vertices_b[0, 0], vertices_b[0, 1])
    radius = radius_a + radius_b
    best = -np.inf
    face = 0
    for i in range(count_a):
        d = normals_a[i, 0] * (bx - vertices_a[i, 0]) + normals_a[i, 1] * (by - vertices_a[i, 1])
        if d > best:
            best = d
            face = i
    if best - radius >= speculative_distance:
        return 0
    k = face + 1 if face + 1 < count_a else 0
    x1 = vertices_a[face, 0]
    y1 = vertices_a[face, 1]
    x2 = vertices_a[k, 0]
    y2 = vertices_a[k, 1]
    u1 = (bx - x1) * (x2 - x1) + (by - y1) * (y2 - y1)
    u2 = (bx - x2) * (x1 - x2) + (by - y2) * (y1 - y2)
    if best > NORMAL_EPSILON and (u1 < 0.0 or u2 < 0.0):
        # Vertex region (the distance to the vertex is >= best > 0, so it normalises).
        vx = x1 if u1 < 0.0 else x2
        vy = y1 if u1 < 0.0 else y2
        dx = bx - vx
        dy = by - vy
        distance = math.sqrt(dx * dx + dy * dy)
        separation = distance - radius
        if not separation < speculative_distance:
            return 0
        return _write_single(vx, vy, radius_a, bx, by, radius_b, dx / distance, dy / distance,
                             separation, pxa, pya, ca, sa, out_normal, out_points, out_ids)
    # Face region: the core surface point is the centre projected onto the face.
    ux = normals_a[face, 0]
    uy = normals_a[face, 1]
    return _write_single(bx - best * ux, by - best * uy, radius_a, bx, by, radius_b, ux, uy,
                         best - radius, pxa, pya, ca, sa, out_normal, out_points, out_ids)


@inner_kernel
def collide_polygon_circle(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                           count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                           speculative_distance, out_normal, out_points, out_ids):
    """Rounded polygon (A, count >= 3) vs circle (B).

    Face of largest separation from the circle centre; if the centre is outside the core and
    beyond an end of that face, the vertex region decides (normal from the vertex to the centre),
    otherwise the face normal does (also when the centre is inside the core).
    """
    return _polygon_circle(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                           vertices_b, radius_b, pxb, pyb, cb, sb,
                           speculative_distance, out_normal, out_points, out_ids)


@kernel
def collide(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
            count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
            speculative_distance, out_normal, out_points, out_ids):
    """Contact manifold between two shapes; see the module docstring for the outputs."""
    if count_a == 1 and count_b == 1:
        return collide_circles(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                               count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                               speculative_distance, out_normal, out_points, out_ids)
    if count_b == 1:
        if count_a == 2:
            return collide_capsule_circle(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca,
                                          sa, count_b, vertices_b, normals_b, radius_b, pxb, pyb,
                                          cb, sb, speculative_distance, out_normal, out_points,
                                          out_ids)
        return collide_polygon_circle(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                                      count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                                      speculative_distance, out_normal, out_points, out_ids)
    if count_a == 1:
        # Circle first: collide the pair the other way round, then make the normal A -> B.
        if count_b == 2:
            n = collide_capsule_circle(count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                                       count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                                       speculative_distance, out_normal, out_points, out_ids)
        else:
            n = collide_polygon_circle(count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                                       count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                                       speculative_distance, out_normal, out_points, out_ids)
        out_normal[0] = -out_normal[0]
        out_normal[1] = -out_normal[1]
        return n
    return collide_polygons(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                            count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                            speculative_distance, out_normal, out_points, out_ids)


POLYGON_TYPE = types.Array(types.float64, 2, "C")
"""A shape's vertices or normals: a row of the shape store's (count, 8, 2) columns."""


@intrinsic
def _address(typingctx, rows):
    """The address of a shape's vertices or normals (:data:`POLYGON_TYPE`, a row of the shape
    store's columns, or any C array of ``(x, y)`` rows), for :func:`polygons_call`;
    :func:`_polygon` makes the array again, two values a row (the routine reads no row past
    the shape's count)."""
    if rows != POLYGON_TYPE:
        return None

    def codegen(context, builder, signature, args):
        return context.make_array(rows)(context, builder, args[0]).data

    return types.CPointer(types.float64)(rows), codegen


@intrinsic
def _polygon(typingctx, address):
    """The (8, 2) vertices or normals at ``address`` (:func:`_address`), a C array of constant
    shape and strides, borrowed (no reference held: the store holds them through the call)."""
    if address != types.CPointer(types.float64):
        return None

    def codegen(context, builder, signature, args):
        # imported here, where a compile has imported it already (as lane_layout's intrinsics)
        from numba.np.arrayobj import populate_array

        intp = context.get_value_type(types.intp)
        array = context.make_array(POLYGON_TYPE)(context, builder)
        populate_array(array, data=args[0],
                       shape=[ir.Constant(intp, MAX_POLYGON_VERTICES), ir.Constant(intp, 2)],
                       strides=[ir.Constant(intp, 16), ir.Constant(intp, 8)],
                       itemsize=ir.Constant(intp, 8), meminfo=None)
        return array._getvalue()

    return POLYGON_TYPE(address), codegen


if not JIT:
    def _address(rows):  # noqa: F811  (plain Python: the array itself)
        return rows

    def _polygon(address):  # noqa: F811  (plain Python)
        return address


@inner_kernel
def polygons_call(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                  count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                  speculative_distance):
    """:func:`collide_polygons` (an inlined kernel) as a call, for :func:`collide_pair`: the
    shapes' vertices and normals given by their addresses (:func:`_address`), the manifold
    returned as :func:`_polygon_points`' scalars.

    Two quadrilaterals (boxes: both counts 4, the pyramids' every pair) take a copy compiled
    with the counts as the literal 4: the separating-axis loops (16 products a side) and the
    incident face's search then have constant trip counts, unrolled, with no test of a 2-gon's
    faces. The same operations in the same order, so the same bits. Measured on the stores of
    ``many_pyramids`` and ``pyramid_100`` (``benchmarks/narrow_routines_ab.py``, thread CPU,
    load 14-17; BENCHMARKS.md, session 24, ``rain49``): 0.82-0.87x and 0.90-0.93x of the
    general routine's time a row through this call (0.62-0.65x with the copy inlined into the
    loop). The copy lives here, in the call, so that each kernel that inlines the
    narrowphase's loop holds none (``narrow36`` inlined it there: +7-9 s of cold compile a
    kernel); ``collide_polygons``' stage compiled 3.0 -> 3.6 s of CPU (one run, load 17).

    Why addresses and scalars: a call passes each array as its whole header (a 2-D array nine
    machine words), most of them on the stack, which the caller stores and the callee loads
    back for every pair; the four shape arrays and the three outputs were 59 words. An address
    is one word, in a register, and the arrays rebuilt from it (:func:`_polygon`) have a
    constant shape, so their indexing needs no stride loaded."""
    vertices_a = _polygon(vertices_a)
    normals_a = _polygon(normals_a)
    vertices_b = _polygon(vertices_b)
    normals_b = _polygon(normals_b)
    px, py, c, s = _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb)
    if count_a == 4 and count_b == 4:
        faces = _polygon_faces(4, vertices_a, normals_a, radius_a, 4, vertices_b, normals_b,
                               radius_b, px, py, c, s, speculative_distance)
    else:
        faces = _polygon_faces(count_a, vertices_a, normals_a, radius_a, count_b, vertices_b,
                               normals_b, radius_b, px, py, c, s, speculative_distance)
    return _polygon_points(faces, pxa, pya, ca, sa, speculative_distance)


@inline_kernel
def collide_pair(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                 count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                 speculative_distance, out_normal, out_points, out_ids, circles):
    """:func:`collide` for the step's narrowphase loop (:func:`~.._dynamics.contacts.
    update_manifolds`), compiled into it: a pair of a circle and a circle or a polygon runs its
    routine in the loop, a capsule and a circle or two polygons call theirs. The same
    dispatch, the same routines in the same order of operations as :func:`collide`'s, so the
    same bits, its scratch ``out_*`` included (the normal of a pair found apart is the
    scratch's, negated when the circle was A).

    ``circles`` (a constant at each call): whether the pair may hold a circle. Passed
    ``False`` (a world without circles: :func:`~.._dynamics.contacts.update_polygon_manifolds`),
    the circle routines' branch is pruned before typing and the loop calls the polygon routine
    alone, which is what :func:`collide` does for two shapes of two or more vertices each; the
    caller must not pass it a circle.

    Why: each call of :func:`collide` passes its six shape arrays and the scratch's three as
    flattened structs, mostly on the stack, and a circle routine was a second such call; a
    circle pair's own arithmetic is a few dozen operations. The polygon routine stays behind
    a call: a copy inlined into each kernel that inlines the loop cost 7-9 s of cold compile
    (``narrow36``, BENCHMARKS.md); the circle routines are small. The loop does not call
    :func:`collide` itself, so a world's narrowphase stage compiles neither it nor its Python
    wrapper: the routines' code is compiled once each, as it was behind :func:`collide`."""
    if circles:
        if count_a == 1 and count_b == 1:
            return _circles(vertices_a, radius_a, pxa, pya, ca, sa, vertices_b, radius_b, pxb,
                            pyb, cb, sb, speculative_distance, out_normal, out_points, out_ids)
        if count_a == 1 or count_b == 1:
            return _circle_and_other(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                                     count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                                     speculative_distance, out_normal, out_points, out_ids)
    return _write_points(polygons_call(count_a, _address(vertices_a), _address(normals_a),
                                       radius_a, pxa, pya, ca, sa, count_b,
                                       _address(vertices_b), _address(normals_b), radius_b,
                                       pxb, pyb, cb, sb, speculative_distance),
                         out_normal, out_points, out_ids)


@inline_kernel
def _circle_and_other(count_a, vertices_a, normals_a, radius_a, pxa, pya, ca, sa,
                      count_b, vertices_b, normals_b, radius_b, pxb, pyb, cb, sb,
                      speculative_distance, out_normal, out_points, out_ids):
    """:func:`collide_pair`'s pair of one circle and a capsule or polygon: the circle is B of
    the routine (the other shape A), the normal negated back when the circle was A."""
    flip = count_a == 1
    count = count_b if flip else count_a
    vertices = vertices_b if flip else vertices_a
    normals = normals_b if flip else normals_a
    radius = radius_b if flip else radius_a
    px = pxb if flip else pxa
    py = pyb if flip else pya
    c = cb if flip else ca
    s = sb if flip else sa
    circle_count = count_a if flip else count_b
    circle = vertices_a if flip else vertices_b
    circle_normals = normals_a if flip else normals_b
    circle_radius = radius_a if flip else radius_b
    cx = pxa if flip else pxb
    cy = pya if flip else pyb
    cc = ca if flip else cb
    cs = sa if flip else sb
    if count == 2:
        n = collide_capsule_circle(count, vertices, normals, radius, px, py, c, s, circle_count,
                                   circle, circle_normals, circle_radius, cx, cy, cc, cs,
                                   speculative_distance, out_normal, out_points, out_ids)
    else:
        n = _polygon_circle(count, vertices, normals, radius, px, py, c, s, circle,
                            circle_radius, cx, cy, cc, cs, speculative_distance, out_normal,
                            out_points, out_ids)
    if flip:
        out_normal[0] = -out_normal[0]
        out_normal[1] = -out_normal[1]
    return n


# ---------------------------------------------------------------------------------------------
# Python convenience
# ---------------------------------------------------------------------------------------------


class Manifold(NamedTuple):
    """A contact manifold in world coordinates (k = 0, 1 or 2 points)."""

    normal: np.ndarray       # (2,) unit, from A to B (meaningless when k == 0)
    points: np.ndarray       # (k, 2) mid-points between the surfaces, m
    separations: np.ndarray  # (k,) m, negative = overlap
    ids: np.ndarray          # (k,) int64 feature ids (A's vertex << 8 | B's vertex)


def _xf(xf):
    px, py, angle = (float(v) for v in xf)
    return px, py, math.cos(angle), math.sin(angle)


def collide_shapes(geom_a, xf_a, geom_b, xf_b,
                   speculative_distance: float = SPECULATIVE_DISTANCE) -> Manifold:
    """:func:`collide` for two :class:`~impulse2d._collision.geometry.Geometry` placed at
    transforms ``xf = (px, py, angle)``. For tests and tools, not for the step."""
    pxa, pya, ca, sa = _xf(xf_a)
    pxb, pyb, cb, sb = _xf(xf_b)
    normal = np.zeros(2)
    points = np.zeros((2, 3))
    ids = np.zeros(2, dtype=np.int64)
    n = collide(int(geom_a.count), geom_a.vertices, geom_a.normals, float(geom_a.radius),
                pxa, pya, ca, sa,
                int(geom_b.count), geom_b.vertices, geom_b.normals, float(geom_b.radius),
                pxb, pyb, cb, sb,
                float(speculative_distance), normal, points, ids)
    return Manifold(normal, points[:n, :2].copy(), points[:n, 2].copy(), ids[:n].copy())


__all__ = [
    "Manifold",
    "NORMAL_EPSILON",
    "REFERENCE_TOLERANCE",
    "SEPARATED_TOLERANCE",
    "TOLERANCE_SHARE",
    "collide",
    "collide_capsule_circle",
    "collide_circles",
    "collide_pair",
    "collide_polygon_circle",
    "collide_polygons",
    "collide_shapes",
    "make_id",
    "reference_separations",
]
