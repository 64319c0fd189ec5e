"""Chain segments: one-sided segments that know their neighbours, so nothing catches on a joint.

A chain (``Body.create_chain``) is a polyline or loop cut into segments. Each segment is stored
as an ordinary segment (count 2, radius 0) plus its two *ghost vertices*: ``ghost1``, the vertex
before ``v0`` along the chain, and ``ghost2``, the one after ``v1`` (Box2D v3's chain segment).
The chain's surface is on the right of its direction of travel: the segment's outward normal is
``normals[0]``, the right perpendicular of ``v1 - v0``, as for a polygon's edge, so a
counter-clockwise loop keeps bodies outside and a clockwise loop keeps them inside (Box2D's
convention). Ground that runs from left to right is therefore given from right to left.

Why ghosts: a box sliding over the joint of two collinear separate segments meets the end of
the next segment, whose closest-feature normal points back along the ground, and stops (the
"catch" on an inner vertex). A chain segment knows whether each of its end vertices is convex
(the chain turns away from the surface there) or not, and admits only the normals that belong
to it (the rule of Box2D v3's ``b2CollideChainSegmentAndPolygon``, E. Catto; written anew here):

* the normals a segment owns at an end vertex lie between its own normal and, at a convex
  vertex, the neighbour's normal; at a flat or concave vertex the neighbour's surface covers
  the rest, so only the segment's own normal is valid there;
* a candidate normal outside that range is *skipped* (no contact: the neighbour's contact holds
  the body) when it points into a convex neighbour's range, or *snapped* to the segment's own
  normal (the body is clipped against the segment's face) when the vertex is flat or concave;
* a body whose centroid is behind the segment, and behind the convex neighbours, is ignored:
  the back side is not a surface (a body coming from there passes through).

Rays follow the same rule (only the front face is hit): a chain segment stores a zero
``normals[1]``, so :func:`.raycast.ray_shape` never enters it through its back side.

Every function works in the chain segment's body frame (the other shape is moved into it) and
writes the manifold as :func:`.manifold.collide` does, with the chain segment as shape A.
"""

from __future__ import annotations

import math

import numpy as np

from impulse2d._collision.geometry import segment_distance, transform_point
from impulse2d._collision.manifold import (ONE, TOLERANCE_SHARE, ZERO, Manifold,
                                          _relative_transform, _to_world, _write_points, _xf,
                                          face_manifold_call, make_id)
from impulse2d._core.jit import inline_kernel, inner_kernel, kernel
from impulse2d.constants import SPECULATIVE_DISTANCE

CONVEX_TOLERANCE = 0.01
"""Sine of the turn (about 0.6 degrees) above which an end vertex counts as convex. A vertex
that turns less, or turns the other way, is flat or concave: only the segment's own normal is
valid there. Box2D v3 uses the same 0.01."""

SKIP_TOLERANCE = 0.01
"""Sine of the angle by which a normal may point past a convex neighbour's normal and still be
admitted (so that a normal equal to the neighbour's, up to rounding, is not skipped by both
segments). Box2D v3: 0.01."""

ADMIT = 0
SKIP = 1
SNAP = 2


@inner_kernel
def segment_frame(p1x, p1y, p2x, p2y, g1x, g1y, g2x, g2y):
    """The chain segment's directions, all unit vectors in its frame:
    ``(e1x, e1y, n1x, n1y, n0x, n0y, convex1, n2x, n2y, convex2)``: its direction ``e1`` and
    right normal ``n1``; the normal ``n0`` of the previous segment (ghost1 -> p1) and whether
    the vertex p1 is convex; the same (``n2``, ``convex2``) for the next segment at p2."""
    ex = p2x - p1x
    ey = p2y - p1y
    length = math.sqrt(ex * ex + ey * ey)
    e1x = ex / length
    e1y = ey / length
    ex = p1x - g1x
    ey = p1y - g1y
    length = math.sqrt(ex * ex + ey * ey)
    e0x = ex / length
    e0y = ey / length
    ex = g2x - p2x
    ey = g2y - p2y
    length = math.sqrt(ex * ex + ey * ey)
    e2x = ex / length
    e2y = ey / length
    convex1 = e0x * e1y - e0y * e1x >= CONVEX_TOLERANCE
    convex2 = e1x * e2y - e1y * e2x >= CONVEX_TOLERANCE
    # right perpendiculars (x, y) -> (y, -x)
    return e1x, e1y, e1y, -e1x, e0y, -e0x, convex1, e2y, -e2x, convex2


@inner_kernel
def classify(nx, ny, e1x, e1y, n0x, n0y, convex1, n2x, n2y, convex2):
    """Whether the segment owns the unit normal (nx, ny) (from the segment to the other shape):
    ADMIT, SKIP (a convex neighbour owns it) or SNAP (use the segment's own normal)."""
    if nx * e1x + ny * e1y < 0.0:
        # leans towards the segment's start, p1
        if not convex1:
            return SNAP
        if nx * n0y - ny * n0x > SKIP_TOLERANCE:
            return SKIP
        return ADMIT
    if not convex2:
        return SNAP
    if n2x * ny - n2y * nx > SKIP_TOLERANCE:
        return SKIP
    return ADMIT


@inner_kernel
def _vertex_b(vertices_b, j, px, py, c, s):
    """Vertex j of the other shape in the chain segment's frame."""
    return transform_point(px, py, c, s, vertices_b[j, 0], vertices_b[j, 1])


@inner_kernel
def _face_b(count_b, vertices_b, normals_b, k, px, py, c, s):
    """Face k of the other shape (a side of a capsule/segment: k = 0 is v0 -> v1, k = 1 is
    v1 -> v0) in the chain segment's frame: ``(i1, i2, x1, y1, x2, y2, nx, ny)``."""
    if count_b == 2:
        i1 = k
        i2 = 1 - k
        sign = 1.0 if k == 0 else -1.0
        lx = sign * normals_b[0, 0]
        ly = sign * normals_b[0, 1]
    else:
        i1 = k
        i2 = k + 1 if k + 1 < count_b else 0
        lx = normals_b[k, 0]
        ly = normals_b[k, 1]
    x1, y1 = _vertex_b(vertices_b, i1, px, py, c, s)
    x2, y2 = _vertex_b(vertices_b, i2, px, py, c, s)
    return i1, i2, x1, y1, x2, y2, c * lx - s * ly, s * lx + c * ly


@inner_kernel
def _face_count_b(count_b):
    """Faces of the other shape that can be a reference face: a polygon's edges, a capsule's
    two sides, none for a circle."""
    if count_b == 1:
        return 0
    if count_b == 2:
        return 2
    return count_b


@inline_kernel
def _write_to_world(points, pxa, pya, ca, sa, out_normal, out_points, out_ids):
    """A manifold in the chain segment's frame, the tuple of :func:`.manifold._write_points`,
    written as every pair routine writes one (that function) and moved to world (A's
    transform). Returns the number of points; with none the scratch is left as it was."""
    n = _write_points(points, out_normal, out_points, out_ids)
    if n > 0:
        _to_world(n, pxa, pya, ca, sa, out_normal, out_points)
    return n


@inner_kernel
def collide_chain_segment(vertices_a, ghost_a, pxa, pya, ca, sa,
                          count_b, vertices_b, normals_b, radius_b, centroid_b,
                          pxb, pyb, cb, sb, speculative_distance, out_normal, out_points, out_ids):
    """Manifold of a chain segment (A: its two vertices and its two ghost vertices, body frame)
    against any other shape B; outputs as :func:`.manifold.collide`. Ids name the segment's
    end (0 or 1) as A's feature."""
    px, py, c, s = _relative_transform(pxa, pya, ca, sa, pxb, pyb, cb, sb)
    p1x = vertices_a[0, 0]
    p1y = vertices_a[0, 1]
    p2x = vertices_a[1, 0]
    p2y = vertices_a[1, 1]
    e1x, e1y, n1x, n1y, n0x, n0y, convex1, n2x, n2y, convex2 = segment_frame(
        p1x, p1y, p2x, p2y, ghost_a[0, 0], ghost_a[0, 1], ghost_a[1, 0], ghost_a[1, 1])

    # One-sided: a body whose centroid is behind the segment and behind the convex neighbours
    # (whose fronts also face this vertex region) is ignored.
    qx, qy = transform_point(px, py, c, s, centroid_b[0], centroid_b[1])
    behind1 = n1x * (qx - p1x) + n1y * (qy - p1y) < 0.0
    behind0 = not convex1 or n0x * (qx - p1x) + n0y * (qy - p1y) < 0.0
    behind2 = not convex2 or n2x * (qx - p2x) + n2y * (qy - p2y) < 0.0
    if behind1 and behind0 and behind2:
        return 0

    # Closest points between the segment and B's core (its edges; a circle is its centre).
    edges = 1 if count_b <= 2 else count_b
    best = np.inf
    f1 = 0.0
    f2 = 0.0
    edge = 0
    c1x = 0.0
    c1y = 0.0
    c2x = 0.0
    c2y = 0.0
    for i in range(edges):
        k = i + 1 if i + 1 < count_b else 0
        bx1, by1 = _vertex_b(vertices_b, i, px, py, c, s)
        bx2, by2 = _vertex_b(vertices_b, k, px, py, c, s)
        g1, g2, a_x, a_y, b_x, b_y, dsq = segment_distance(p1x, p1y, p2x, p2y,
                                                           bx1, by1, bx2, by2)
        if dsq < best:
            best = dsq
            f1 = g1
            f2 = g2
            edge = i
            c1x, c1y, c2x, c2y = a_x, a_y, b_x, b_y
    distance = math.sqrt(best)
    overlap = distance <= TOLERANCE_SHARE * speculative_distance  # SEPARATED_TOLERANCE, scaled
    if not overlap and count_b >= 3:
        # the segment may lie wholly inside the polygon's core
        inside = True
        for j in range(count_b):
            wx, wy = _vertex_b(vertices_b, j, px, py, c, s)
            lx = normals_b[j, 0]
            ly = normals_b[j, 1]
            if (c * lx - s * ly) * (p1x - wx) + (s * lx + c * ly) * (p1y - wy) > 0.0:
                inside = False
                break
        overlap = inside
    if not overlap and distance - radius_b >= speculative_distance:
        return 0

    # What the contact is made of: either B's face `ref_face` is the reference, or the
    # segment's own face is, with B's incident face next to vertex `incident` (or `inc_face`).
    ref_face = -1
    incident = -1
    inc_face = -1

    if not overlap and not behind1:
        # Cores apart, B in front: the closest features decide (as a distance query would).
        a_end = f1 == 0.0 or f1 == 1.0
        b_end = count_b == 1 or f2 == 0.0 or f2 == 1.0
        k = edge + 1 if edge + 1 < count_b else 0
        jb = edge if (count_b == 1 or f2 == 0.0) else k
        if a_end and b_end:
            # vertex against vertex: the exact rounded-corner normal
            ux = (c2x - c1x) / distance
            uy = (c2y - c1y) / distance
            kind = classify(ux, uy, e1x, e1y, n0x, n0y, convex1, n2x, n2y, convex2)
            if kind == SKIP:
                return 0
            if kind == ADMIT:
                separation = distance - radius_b
                if not separation < speculative_distance:
                    return 0
                return _write_to_world((ONE, ux, uy, 0.5 * (c1x + c2x - radius_b * ux),
                                        0.5 * (c1y + c2y - radius_b * uy), separation,
                                        make_id(0 if f1 == 0.0 else 1, jb), 0.0, 0.0, 0.0,
                                        ZERO), pxa, pya, ca, sa, out_normal, out_points,
                                       out_ids)
            incident = jb
        elif a_end:
            # a segment end against the inside of B's edge: that face's normal is exact
            if count_b == 2:
                # the capsule side that faces the segment
                _, _, _, _, _, _, fx, fy = _face_b(count_b, vertices_b, normals_b, ZERO,
                                                   px, py, c, s)
                face = 0 if fx * (c1x - c2x) + fy * (c1y - c2y) > 0.0 else 1
            else:
                face = edge
            _, _, _, _, _, _, fx, fy = _face_b(count_b, vertices_b, normals_b, face,
                                               px, py, c, s)
            kind = classify(-fx, -fy, e1x, e1y, n0x, n0y, convex1, n2x, n2y, convex2)
            if kind == SKIP:
                return 0
            if kind == ADMIT:
                ref_face = face
            else:
                inc_face = face
        else:
            # the inside of the segment is closest: its own normal
            if b_end:
                incident = jb
            else:
                # the end of B's closest edge that is deeper along the segment normal
                bx1, by1 = _vertex_b(vertices_b, edge, px, py, c, s)
                bx2, by2 = _vertex_b(vertices_b, k, px, py, c, s)
                deeper1 = n1x * bx1 + n1y * by1 <= n1x * bx2 + n1y * by2
                incident = edge if deeper1 else k
    else:
        # Overlapping (or B's centroid in front but its core partly behind): separating axes,
        # each normal admitted by the segment. The segment's own normal first.
        edge_sep = np.inf
        for j in range(count_b):
            wx, wy = _vertex_b(vertices_b, j, px, py, c, s)
            d = n1x * (wx - p1x) + n1y * (wy - p1y)
            if d < edge_sep:
                edge_sep = d
                incident = j
        neighbour = False
        if convex1:
            s0 = np.inf
            for j in range(count_b):
                wx, wy = _vertex_b(vertices_b, j, px, py, c, s)
                s0 = min(s0, n0x * (wx - p1x) + n0y * (wy - p1y))
            if s0 > edge_sep:
                edge_sep = s0
                neighbour = True
        if convex2:
            s2 = np.inf
            for j in range(count_b):
                wx, wy = _vertex_b(vertices_b, j, px, py, c, s)
                s2 = min(s2, n2x * (wx - p2x) + n2y * (wy - p2y))
            if s2 > edge_sep:
                edge_sep = s2
                neighbour = True
        poly_sep = -np.inf
        for face in range(_face_count_b(count_b)):
            _, _, wx, wy, _, _, fx, fy = _face_b(count_b, vertices_b, normals_b, face,
                                                 px, py, c, s)
            if classify(-fx, -fy, e1x, e1y, n0x, n0y, convex1, n2x,
                        n2y, convex2) != ADMIT:
                continue
            d = min(fx * (p1x - wx) + fy * (p1y - wy), fx * (p2x - wx) + fy * (p2y - wy))
            if d > poly_sep:
                poly_sep = d
                ref_face = face
        if max(edge_sep, poly_sep) - radius_b >= speculative_distance:
            return 0
        # B's face must beat the segment's by a margin, so that a box lying flat on the
        # segment keeps the segment as its reference from step to step.
        if not poly_sep > edge_sep + TOLERANCE_SHARE * speculative_distance:
            ref_face = -1
            if neighbour:
                return 0

    if ref_face >= 0:
        # B's face is the reference; the segment is the incident face.
        i1, i2, x1, y1, x2, y2, fx, fy = _face_b(count_b, vertices_b, normals_b, ref_face,
                                                 px, py, c, s)
        # The segment end deeper into B's face; if a neighbour's normal is closer to this
        # face's, the neighbour makes the contact (else both would, at a convex vertex).
        # (Only a convex neighbour can: at a flat or concave vertex its normal is not one
        # this segment's contact competes with.)
        ux = -fx
        uy = -fy
        if fx * p1x + fy * p1y < fx * p2x + fy * p2y:
            if convex1 and n0x * ux + n0y * uy > n1x * ux + n1y * uy:
                return 0
        elif convex2 and n2x * ux + n2y * uy > n1x * ux + n1y * uy:
            return 0
        n, _, _, x0, y0, s0, r0, a0, x1_, y1_, s1, r1, a1 = face_manifold_call(
            fx, fy, x1, y1, x2, y2, i1, i2, p1x, p1y, p2x, p2y, ZERO, ONE,
            radius_b, 0.0, 0.0, speculative_distance)
        return _write_to_world((n, ux, uy, x0, y0, s0, make_id(a0, r0), x1_, y1_, s1,
                                make_id(a1, r1)), pxa, pya, ca, sa, out_normal, out_points,
                               out_ids)

    # The segment's face is the reference, with normal n1; B's incident face is the one next
    # to its deepest vertex that is most anti-parallel to n1 (a circle: its centre).
    if count_b == 1:
        i1 = ZERO
        i2 = ZERO
    elif count_b == 2:
        _, _, _, _, _, _, fx, fy = _face_b(count_b, vertices_b, normals_b, ZERO, px, py, c, s)
        i1 = 0 if fx * n1x + fy * n1y < 0.0 else 1
        i2 = 1 - i1
    elif inc_face >= 0:
        i1 = inc_face
        i2 = inc_face + 1 if inc_face + 1 < count_b else 0
    else:
        before = incident - 1 if incident > 0 else count_b - 1
        _, _, _, _, _, _, fx, fy = _face_b(count_b, vertices_b, normals_b, before, px, py, c, s)
        d_before = fx * n1x + fy * n1y
        _, _, _, _, _, _, fx, fy = _face_b(count_b, vertices_b, normals_b, incident,
                                           px, py, c, s)
        if d_before < fx * n1x + fy * n1y:
            i1 = before
            i2 = incident
        else:
            i1 = incident
            i2 = incident + 1 if incident + 1 < count_b else 0
    x1, y1 = _vertex_b(vertices_b, i1, px, py, c, s)
    x2, y2 = _vertex_b(vertices_b, i2, px, py, c, s)
    n, _, _, x0, y0, s0, r0, b0, x1_, y1_, s1, r1, b1 = face_manifold_call(
        n1x, n1y, p1x, p1y, p2x, p2y, ZERO, ONE, x1, y1, x2, y2, i1, i2,
        0.0, radius_b, 0.0, speculative_distance)
    return _write_to_world((n, n1x, n1y, x0, y0, s0, make_id(r0, b0), x1_, y1_, s1,
                            make_id(r1, b1)), pxa, pya, ca, sa, out_normal, out_points, out_ids)


@kernel
def collide_chain(vertices_a, ghost_a, pxa, pya, ca, sa, count_b, vertices_b, normals_b,
                  radius_b, centroid_b, pxb, pyb, cb, sb, speculative_distance, out_normal,
                  out_points, out_ids):
    """:func:`collide_chain_segment`, callable from Python (tests and tools)."""
    return collide_chain_segment(vertices_a, ghost_a, pxa, pya, ca, sa, count_b, vertices_b,
                                 normals_b, radius_b, centroid_b, pxb, pyb, cb, sb,
                                 speculative_distance, out_normal, out_points, out_ids)


def chain_ghosts(points: np.ndarray, loop: bool) -> np.ndarray:
    """The ghost vertices ``(segments, 2, 2)`` of the chain through ``points`` (m, 2): per
    segment the vertex before its start and the one after its end.

    An open chain's two free ends have no neighbour; each gets a ghost straight behind the
    surface (``end - normal``), which makes the end vertex convex by a right angle: the end
    behaves as a segment's end (a body may touch it from any direction in front of the
    surface's plane or beyond the end), not as a hidden joint.
    """
    n = len(points)
    count = n if loop else n - 1
    ghosts = np.empty((count, 2, 2))
    for i in range(count):
        a = points[i]
        b = points[(i + 1) % n]
        if loop or i > 0:
            ghosts[i, 0] = points[(i - 1) % n]
        else:
            ghosts[i, 0] = a - _right_normal(a, b)
        if loop or i + 2 < n:
            ghosts[i, 1] = points[(i + 2) % n]
        else:
            ghosts[i, 1] = b - _right_normal(a, b)
    return ghosts


def _right_normal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = b - a
    return np.array([d[1], -d[0]]) / math.hypot(d[0], d[1])


def collide_chain_shapes(points, ghosts, xf_a, geom_b, xf_b,
                         speculative_distance: float = SPECULATIVE_DISTANCE) -> Manifold:
    """:func:`collide_chain_segment` for a chain segment ``points`` (2, 2) with ``ghosts``
    (2, 2) at transform ``xf_a = (px, py, angle)`` against a
    :class:`~impulse2d._collision.geometry.Geometry` at ``xf_b``. For tests and tools."""
    pxa, pya, ca, sa = _xf(xf_a)
    pxb, pyb, cb, sb = _xf(xf_b)
    normal = np.zeros(2)
    out = np.zeros((2, 3))
    ids = np.zeros(2, dtype=np.int64)
    vertices = np.zeros((8, 2))
    vertices[:2] = np.asarray(points, dtype=np.float64)
    n = collide_chain(vertices, np.ascontiguousarray(ghosts, dtype=np.float64).reshape(2, 2),
                      pxa, pya, ca, sa, int(geom_b.count), geom_b.vertices, geom_b.normals,
                      float(geom_b.radius), np.ascontiguousarray(geom_b.centroid), pxb, pyb,
                      cb, sb, float(speculative_distance), normal, out, ids)
    return Manifold(normal, out[:n, :2].copy(), out[:n, 2].copy(), ids[:n].copy())


__all__ = ["ADMIT", "CONVEX_TOLERANCE", "SKIP", "SKIP_TOLERANCE", "SNAP", "chain_ghosts",
           "classify", "collide_chain", "collide_chain_segment", "collide_chain_shapes",
           "segment_frame"]
