"""``b2World.DrawDebugData()``: the world drawn through the program's ``b2Draw`` (its
``renderer``), as Box2D 2.3's ``b2World::DrawDebugData`` draws it.

What is drawn, by the renderer's flags, in Box2D 2.3's order:

- ``drawShapes``: every body in ``world.bodies`` order, each of its fixtures in
  ``body.fixtures`` order (Box2D's lists are newest first; the layer's are oldest first and the
  drawing follows the lists the program sees). Polygons: ``DrawSolidPolygon(vertices,
  color)``; circles: ``DrawSolidCircle(center, radius, axis, color)`` with ``axis`` the body's
  x axis; edges: ``DrawSegment(p1, p2, color)``; chains and loops: ``DrawSegment`` per edge and
  ``DrawCircle(v, 0.05, color)`` at each edge's first vertex. The colour is the body's state:
  static (0.5, 0.9, 0.5), kinematic (0.5, 0.5, 0.9), asleep (0.6, 0.6, 0.6), else
  (0.9, 0.7, 0.7) (Box2D's inactive colour never shows: every body is active here).
- ``drawJoints``: every joint in ``world.joints`` order, colour (0.5, 0.8, 0.8): a distance
  joint as the segment between its anchors, a pulley as its two ropes and the line between its
  ground anchors, a mouse joint not at all, any other as body A's origin to anchor A, anchor A
  to anchor B, body B's origin to anchor B.
- ``drawPairs``: nothing (Box2D 2.3's loop over the contacts draws nothing).
- ``drawAABBs``: each fixture's broadphase box (the engine's fat box, whose margin is the
  engine's, not Box2D's 0.1 m; the tight box before the first step, when the broadphase has
  not boxed the shape yet), ``DrawPolygon`` of its 4 corners, colour (0.9, 0.3, 0.9); a
  chain's one box per edge.
- ``drawCOMs``: ``DrawTransform(xf)`` per body, ``xf`` its transform moved to its centre of
  mass.

Coordinates: world metres for a ``b2Draw``. For a ``b2DrawExtended`` with ``convertVertices``
the points (polygon vertices, circle centres, segment ends) are in pixels by its
``to_screen`` formula, as pybox2d converts them; radii, axes and ``DrawTransform``'s frame stay
in world units (pybox2d's testbed backends scale radii by ``zoom`` themselves). Vertices come as
a tuple of ``(x, y)`` tuples, single points as ``b2Vec2`` (world) or ``(x, y)`` (pixels).

The vertices of all drawn shapes are transformed from the engine's shape store in one array
operation; what remains per shape is the call into the program.
"""

from __future__ import annotations

import numpy as np

from .._collision.shape_types import CIRCLE, POLYGON
from .._core.state import KINEMATIC, STATIC
from ._b2draw import (b2Color, e_aabbBit, e_centerOfMassBit, e_jointBit, e_shapeBit)
from ._b2joints import b2DistanceJoint, b2MouseJoint, b2PulleyJoint
from ._b2math import b2Vec2
from ._b2shapes import b2ChainFixture

# Box2D 2.3's debug-draw colours (b2World::DrawDebugData, DrawJoint)
STATIC_COLOR = (0.5, 0.9, 0.5)
KINEMATIC_COLOR = (0.5, 0.5, 0.9)
ASLEEP_COLOR = (0.6, 0.6, 0.6)
AWAKE_COLOR = (0.9, 0.7, 0.7)
JOINT_COLOR = (0.5, 0.8, 0.8)
AABB_COLOR = (0.9, 0.3, 0.9)
CHAIN_VERTEX_RADIUS = 0.05  # m: the circle Box2D 2.3 draws at a chain's vertices


def draw_debug_data(b2world) -> None:
    """Draw ``b2world`` through ``b2world.renderer`` (nothing when it is None)."""
    renderer = b2world.renderer
    if renderer is None:
        return
    bits = renderer.GetFlags()
    if not bits:
        return
    b2world._flush_queue()
    convert = _screen(renderer) if getattr(renderer, "convertVertices", False) else None
    if bits & e_shapeBit:
        _draw_shapes(b2world, renderer, convert)
    if bits & e_jointBit:
        _draw_joints(b2world, renderer, convert)
    # e_pairBit: Box2D 2.3 draws nothing for the contacts' pairs
    if bits & e_aabbBit:
        _draw_aabbs(b2world, renderer, convert)
    if bits & e_centerOfMassBit:
        for body in b2world.bodies:
            xf = body.transform
            xf.position = body.worldCenter
            renderer.DrawTransform(xf)


def _screen(renderer):
    """pybox2d's ``to_screen`` on an ``(n, 2)`` array of world points: the renderer's zoom,
    offset, screen size and flips read once."""
    zoom = float(renderer.zoom)
    ox, oy = float(renderer.offset[0]), float(renderer.offset[1])
    sx, sy = float(renderer.screenSize[0]), float(renderer.screenSize[1])
    flip_x, flip_y = bool(renderer.flipX), bool(renderer.flipY)

    def convert(points: np.ndarray) -> np.ndarray:
        out = points * zoom - (ox, oy)
        if flip_x:
            out[..., 0] = sx - out[..., 0]
        if flip_y:
            out[..., 1] = sy - out[..., 1]
        return out
    return convert


def _point(p, convert):
    """A single point as the renderer receives it: ``b2Vec2`` in the world, a tuple in pixels."""
    return tuple(p) if convert is not None else b2Vec2(p[0], p[1])


def _body_color(types, asleep, i: int) -> b2Color:
    kind = types.item(i)
    if kind == STATIC:
        return b2Color(*STATIC_COLOR)
    if kind == KINEMATIC:
        return b2Color(*KINEMATIC_COLOR)
    return b2Color(*(ASLEEP_COLOR if asleep.item(i) else AWAKE_COLOR))


def _world_vertices(w, rows: np.ndarray, body_rows: np.ndarray) -> np.ndarray:
    """The shape rows' body-frame vertices (``(n, 8, 2)``) in world coordinates."""
    b = w._bodies
    v = w._shapes.vertices[rows]
    c = b.rot[body_rows, 0][:, None]
    s = b.rot[body_rows, 1][:, None]
    o = b.origin[body_rows]
    out = np.empty_like(v)
    out[..., 0] = c * v[..., 0] - s * v[..., 1] + o[:, None, 0]
    out[..., 1] = s * v[..., 0] + c * v[..., 1] + o[:, None, 1]
    return out


def _draw_shapes(b2world, renderer, convert) -> None:
    w = b2world._world
    b = w._bodies
    sh = w._shapes
    # every drawn engine shape row in drawing order, with its body row and its fixture's part
    rows: list[int] = []
    body_rows: list[int] = []
    plan = []  # (colour, chain?, first index into rows, count of rows)
    for body in b2world.bodies:
        i = body._i
        color = _body_color(b.type, b.asleep, i)
        for fixture in body._fixtures:
            if isinstance(fixture, b2ChainFixture):
                # the chain made the program's way (the first of the two one-sided chains)
                part = [seg._index for seg in fixture._chains[0].segments]
            else:
                part = [fixture._shape._index]
            plan.append((color, isinstance(fixture, b2ChainFixture), len(rows), len(part)))
            rows.extend(part)
            body_rows.extend([i] * len(part))
    if not rows:
        return
    r = np.array(rows, dtype=np.int64)
    br = np.array(body_rows, dtype=np.int64)
    world_v = _world_vertices(w, r, br)
    points = (convert(world_v) if convert is not None else world_v).tolist()
    counts = sh.count[r].tolist()
    types = sh.type[r].tolist()
    radii = sh.radius[r].tolist()
    rot = b.rot[br].tolist()
    for color, chain, start, n in plan:
        if chain:
            for k in range(start, start + n):
                v0, v1 = points[k][0], points[k][1]
                renderer.DrawSegment(_point(v0, convert), _point(v1, convert), color)
                renderer.DrawCircle(_point(v0, convert), CHAIN_VERTEX_RADIUS, color)
            continue
        kind = types[start]
        if kind == CIRCLE:
            renderer.DrawSolidCircle(_point(points[start][0], convert), radii[start],
                                     b2Vec2(rot[start][0], rot[start][1]), color)
        elif kind == POLYGON:
            renderer.DrawSolidPolygon(tuple(map(tuple, points[start][:counts[start]])), color)
        else:  # an edge (a segment)
            p = points[start]
            renderer.DrawSegment(_point(p[0], convert), _point(p[1], convert), color)


def _draw_joints(b2world, renderer, convert) -> None:
    color = b2Color(*JOINT_COLOR)
    b = b2world._world._bodies
    for joint in b2world.joints:
        if isinstance(joint, b2MouseJoint):
            continue  # Box2D 2.3 does not draw it
        engine = joint._joint
        ends = [tuple(engine.world_anchor_a), tuple(engine.world_anchor_b)]
        if isinstance(joint, b2PulleyJoint):
            ends += [tuple(engine.ground_anchor_a), tuple(engine.ground_anchor_b)]
            pairs = ((2, 0), (3, 1), (2, 3))
        elif isinstance(joint, b2DistanceJoint):
            pairs = ((0, 1),)
        else:
            ends += [tuple(b.origin[joint._a]), tuple(b.origin[joint._b])]
            pairs = ((2, 0), (0, 1), (3, 1))
        pts = np.array(ends)
        pts = (convert(pts) if convert is not None else pts).tolist()
        for m, n in pairs:
            renderer.DrawSegment(_point(pts[m], convert), _point(pts[n], convert), color)


def _tight_boxes(w, rows: np.ndarray) -> np.ndarray:
    """The shapes' tight world boxes (min x, min y, max x, max y) from their vertices and
    rounding radius."""
    sh = w._shapes
    v = _world_vertices(w, rows, sh.body[rows])
    used = np.arange(v.shape[1])[None, :] < sh.count[rows][:, None]
    lo = np.where(used[..., None], v, np.inf).min(axis=1) - sh.radius[rows][:, None]
    hi = np.where(used[..., None], v, -np.inf).max(axis=1) + sh.radius[rows][:, None]
    return np.concatenate((lo, hi), axis=1)


def _draw_aabbs(b2world, renderer, convert) -> None:
    rows: list[int] = []
    for body in b2world.bodies:
        for fixture in body._fixtures:
            if isinstance(fixture, b2ChainFixture):
                rows.extend(seg._index for seg in fixture._chains[0].segments)
            else:
                rows.append(fixture._shape._index)
    if not rows:
        return
    w = b2world._world
    r = np.array(rows, dtype=np.int64)
    box = w._shapes.fat_aabb[r]
    unset = ~np.isfinite(box).all(axis=1)
    if unset.any():
        # shapes the broadphase has not boxed yet (before the first step): their tight box
        box[unset] = _tight_boxes(w, r[unset])
    # corners as Box2D lists them: lower, (upper.x, lower.y), upper, (lower.x, upper.y)
    corners = box[:, [0, 1, 2, 1, 2, 3, 0, 3]].reshape(-1, 4, 2)
    corners = (convert(corners) if convert is not None else corners).tolist()
    color = b2Color(*AABB_COLOR)
    for quad in corners:
        renderer.DrawPolygon(tuple(map(tuple, quad)), color)
