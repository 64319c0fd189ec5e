"""pybox2d's collision functions (Box2D 2.3's ``b2Collision.h``, ``b2Distance.h``,
``b2TimeOfImpact.h``) on impulse2d's geometry: ``b2Distance``, ``b2TestOverlap``,
``b2CollidePolygons``/``b2CollideCircles``/``b2CollidePolygonAndCircle``/
``b2CollideEdgeAndCircle``/``b2CollideEdgeAndPolygon``, ``b2TimeOfImpact``, and what the
shapes' ``RayCast``/``ComputeAABB``/``ComputeMass``/``TestPoint`` compute.

Each layer shape is turned into impulse2d's ``Geometry`` (a rounded convex polygon: a circle
is one point and its radius, an edge two points, a polygon its hull) and handed to the
engine's own routines: segment distances (``geometry.segment_distance``), the core overlap
test (``shape_cast.overlaps``), the narrowphase (``manifold.collide``), the ray test
(``raycast.ray_shape``), boxes (``geometry.shape_aabb``) and mass properties
(``geometry.mass_properties``).

Differences from Box2D 2.3 that a program can observe (also in ``docs/compat-box2d.md``):

* polygons and edges are sharp here (Box2D gives them a 1 cm skin, ``b2_polygonRadius``):
  distances between polygons are the distances of the polygons themselves, not of their skins;
* a manifold is kept for points within Box2D's skins of touching (1 cm per polygon or edge,
  0 for a circle): the points Box2D's would have; the point ids name the two features
  (``id.cf.indexA``/``indexB``: impulse2d's vertex indices, ``typeA``/``typeB`` 0), which
  stay the same while the same features touch, as ``b2GetPointStates`` needs;
* ``b2Distance``'s ``iterations`` is the number of core segment pairs measured (impulse2d
  measures every pair of edges exactly, no GJK iterations);
* ``b2TimeOfImpact`` is conservative advancement (as impulse2d's continuous collision) to
  Box2D's target separation and tolerance, not Box2D's separating-axis root finder; the
  time it returns is within the same tolerance of the true one.
"""

from __future__ import annotations

import math

import numpy as np

from .._collision import geometry
from .._collision.manifold import collide
from .._collision.raycast import NO_HIT, point_in_shape, ray_shape
from .._collision.shape_cast import overlaps
from ..constants import SPECULATIVE_DISTANCE
from ._b2math import b2Transform, b2Vec2, vec_tuple
from ._b2points import b2ContactFeature, b2ContactID, b2ManifoldPoint
from ._b2shapes import (LINEAR_SLOP, POINT_RADIUS, b2ChainShape, b2CircleShape, b2EdgeShape,
                        b2PolygonShape)
from ._b2manifold import b2Manifold
from ._b2structs import b2DistanceInput, b2TOIInput, _proxy
from ._b2world import b2AABB

SKIN = 2.0 * LINEAR_SLOP  # m, Box2D 2.3's b2_polygonRadius: the skin of its polygons and edges
EPSILON = 2.0 ** -23      # Box2D's b2_epsilon (FLT_EPSILON)
TOI_TOLERANCE = 0.25 * LINEAR_SLOP  # m, Box2D 2.3's b2TimeOfImpact tolerance
TOI_MAX_ITERATIONS = 20             # Box2D 2.3's b2_maxTOIIterations


# ---------------------------------------------------------------------------------------------
# the layer's shapes as impulse2d geometry
# ---------------------------------------------------------------------------------------------


def _child(shape, index):
    """The convex child ``index`` of ``shape`` (a chain's edge; every other shape is its own
    only child, Box2D's ``childIndex`` 0)."""
    if isinstance(shape, b2ChainShape):
        count = shape.childCount
        index = int(index)
        if not 0 <= index < count:
            raise ValueError(f"childIndex must be in [0, {count}) for this chain, got {index}")
        return shape.edges[index]
    if not isinstance(shape, (b2CircleShape, b2PolygonShape, b2EdgeShape)):
        raise TypeError(f"shape must be a b2CircleShape, b2PolygonShape, b2EdgeShape or "
                        f"b2ChainShape, got {type(shape).__name__}")
    return shape


def _geometry(shape, index=0) -> geometry.Geometry:
    """impulse2d's geometry of a layer shape's child (a circle of radius 0, Box2D's point,
    is a circle of 1 cm here, as on a body: see ``_b2shapes.shape_parts``)."""
    shape = _child(shape, index)
    if isinstance(shape, b2CircleShape):
        radius = shape.radius if shape.radius > 0.0 else POINT_RADIUS
        return geometry.make_circle(tuple(shape.pos), radius)
    if isinstance(shape, b2EdgeShape):
        return geometry.make_segment(*shape._vertices)
    if not shape._vertices:
        raise ValueError("the polygonShape has no vertices")
    return geometry.make_polygon(shape._vertices, 0.0)


def _skin(shape) -> float:
    """Box2D 2.3's radius of a shape in a manifold: a circle's own, else the skin."""
    return 0.0 if isinstance(shape, b2CircleShape) else SKIN


def _frame(transform):
    """``(px, py, cos, sin)`` of a ``b2Transform`` (None: the identity)."""
    if transform is None:
        return 0.0, 0.0, 1.0, 0.0
    if not isinstance(transform, b2Transform):
        raise TypeError(f"transform must be a b2Transform, got {type(transform).__name__}")
    px, py = float(transform.position.x), float(transform.position.y)
    c, s = float(transform.q.c), float(transform.q.s)
    if not all(math.isfinite(v) for v in (px, py, c, s)):
        raise ValueError("transform must be finite")
    return px, py, c, s


def _world_core(geom, frame) -> np.ndarray:
    px, py, c, s = frame
    v = geom.vertices[:geom.count]
    out = np.empty((geom.count, 2))
    out[:, 0] = c * v[:, 0] - s * v[:, 1] + px
    out[:, 1] = s * v[:, 0] + c * v[:, 1] + py
    return out


def _to_local(frame, x, y):
    px, py, c, s = frame
    return geometry.inv_transform_point(px, py, c, s, x, y)


def _edges(core):
    """The core's edges (a point is one edge of length 0, a segment one edge)."""
    n = len(core)
    if n <= 2:
        return [(core[0], core[-1])]
    return [(core[i], core[(i + 1) % n]) for i in range(n)]


def _core_distance(core_a, core_b):
    """``(distance, point on A's core, point on B's core, pairs measured)``; distance 0 when
    the cores overlap (their points then both the point of A nearest B's core, as Box2D's
    GJK leaves them equal)."""
    best = math.inf
    ca = cb = (0.0, 0.0)
    pairs = 0
    for a1, a2 in _edges(core_a):
        for b1, b2 in _edges(core_b):
            pairs += 1
            _, _, x1, y1, x2, y2, d2 = geometry.segment_distance(a1[0], a1[1], a2[0], a2[1],
                                                                 b1[0], b1[1], b2[0], b2[1])
            if d2 < best:
                best, ca, cb = d2, (x1, y1), (x2, y2)
    if best > 0.0 and len(core_a) >= 3 and len(core_b) >= 3:
        scratch = np.zeros((16, 2)), np.zeros((16, 2))
        pa, pb = _padded(core_a), _padded(core_b)
        if overlaps(len(core_a), pa, 0.0, len(core_b), pb, 0.0, *scratch):
            return 0.0, ca, ca, pairs
    elif best > 0.0:
        # a circle's or edge's core inside a polygon's: a point of it inside the polygon
        for small, big in ((core_a, core_b), (core_b, core_a)):
            if len(big) >= 3 and _inside(big, small[0]):
                return 0.0, small[0], small[0], pairs
    return math.sqrt(best), ca, cb, pairs


def _padded(core):
    out = np.zeros((8, 2))
    out[:len(core)] = core
    return out


def _inside(polygon, p):
    """Whether ``p`` is strictly inside the counter-clockwise polygon ``polygon``."""
    n = len(polygon)
    for i in range(n):
        ax, ay = polygon[i]
        bx, by = polygon[(i + 1) % n]
        if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) <= 0.0:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# b2Distance, b2TestOverlap
# ---------------------------------------------------------------------------------------------


class b2DistanceOutput:  # noqa: N801
    """``b2Distance``'s result: ``pointA`` (on A), ``pointB`` (on B), ``distance`` (m) and
    ``iterations`` (here: the core segment pairs measured)."""

    __slots__ = ("pointA", "pointB", "distance", "iterations")

    def __init__(self, pointA=(0.0, 0.0), pointB=(0.0, 0.0), distance=0.0,  # noqa: N803
                 iterations=0):
        self.pointA = b2Vec2(*vec_tuple(pointA, "pointA"))
        self.pointB = b2Vec2(*vec_tuple(pointB, "pointB"))
        self.distance = float(distance)
        self.iterations = int(iterations)

    def __iter__(self):  # pybox2d's tuple form: pointA, pointB, distance, iterations
        return iter((self.pointA, self.pointB, self.distance, self.iterations))

    def __repr__(self):
        return (f"b2DistanceOutput(pointA={self.pointA!r}, pointB={self.pointB!r}, "
                f"distance={self.distance:g}, iterations={self.iterations})")


def b2Distance(shapeA=None, idxA=0, shapeB=None, idxB=0, transformA=None,  # noqa: N802, N803
               transformB=None, useRadii=True):  # noqa: N803
    """The closest points of two shapes (children ``idxA``, ``idxB`` of chains) placed at
    ``transformA``/``transformB`` (pybox2d's keyword form of Box2D's ``b2Distance``). With
    ``useRadii`` the points are on the shapes' surfaces and the distance between them;
    shapes that touch or overlap then give distance 0 and both points at the middle of the
    cores' closest points, as Box2D's."""
    if isinstance(shapeA, b2DistanceInput):   # pybox2d's b2Distance(input)
        given = shapeA
        shapeA, idxA = _proxy(given.proxyA, "input.proxyA")
        shapeB, idxB = _proxy(given.proxyB, "input.proxyB")
        transformA, transformB, useRadii = given.transformA, given.transformB, given.useRadii
    if shapeA is None or shapeB is None:
        raise TypeError("b2Distance needs shapeA and shapeB (or a b2DistanceInput)")
    geom_a, geom_b = _geometry(shapeA, idxA), _geometry(shapeB, idxB)
    core_a = _world_core(geom_a, _frame(transformA))
    core_b = _world_core(geom_b, _frame(transformB))
    d, pa, pb, pairs = _core_distance(core_a, core_b)
    if useRadii:
        ra, rb = geom_a.radius, geom_b.radius
        if d > ra + rb and d > EPSILON:
            nx, ny = (pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d
            pa = (pa[0] + ra * nx, pa[1] + ra * ny)
            pb = (pb[0] - rb * nx, pb[1] - rb * ny)
            d -= ra + rb
        else:
            mid = (0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]))
            pa = pb = mid
            d = 0.0
    return b2DistanceOutput(pa, pb, d, pairs)


def b2TestOverlap(*args, **kwargs):  # noqa: N802
    """``b2TestOverlap(aabbA, aabbB)``: whether two ``b2AABB`` overlap (touching counts, as
    Box2D's); ``b2TestOverlap(shapeA, indexA, shapeB, indexB, xfA, xfB)`` (also by keyword,
    and ``shapeA, shapeB, xfA, xfB``): whether the shapes come within Box2D's 10
    ``b2_epsilon`` of each other."""
    if len(args) == 2 and not kwargs and all(isinstance(a, b2AABB) for a in args):
        a, b = args
        return not (b.lowerBound.x - a.upperBound.x > 0.0 or b.lowerBound.y - a.upperBound.y
                    > 0.0 or a.lowerBound.x - b.upperBound.x > 0.0
                    or a.lowerBound.y - b.upperBound.y > 0.0)
    if len(args) == 4:  # shapeA, shapeB, xfA, xfB
        args = (args[0], 0, args[1], 0, args[2], args[3])
    names = ("shapeA", "indexA", "shapeB", "indexB", "xfA", "xfB")
    given = dict(zip(names, args))
    for name, value in kwargs.items():
        if name not in names:
            raise TypeError(f"b2TestOverlap() got an unexpected keyword argument {name!r}")
        given[name] = value
    out = b2Distance(shapeA=given.get("shapeA"), idxA=given.get("indexA", 0),
                     shapeB=given.get("shapeB"), idxB=given.get("indexB", 0),
                     transformA=given.get("xfA"), transformB=given.get("xfB"), useRadii=True)
    return out.distance < 10.0 * EPSILON


# ---------------------------------------------------------------------------------------------
# manifolds
# ---------------------------------------------------------------------------------------------


def _collide(manifold, shape_a, xf_a, shape_b, xf_b):
    """Fill (or make) a manifold of ``shape_a`` at ``xf_a`` against ``shape_b`` at ``xf_b``
    from impulse2d's narrowphase (points within Box2D's skins of touching)."""
    if manifold is None:
        manifold = b2Manifold()
    elif not isinstance(manifold, b2Manifold):
        raise TypeError(f"manifold must be a b2Manifold, got {type(manifold).__name__}")
    geom_a, geom_b = _geometry(shape_a), _geometry(shape_b)
    fa, fb = _frame(xf_a), _frame(xf_b)
    normal = np.zeros(2)
    points = np.zeros((2, 3))
    ids = np.zeros(2, dtype=np.int64)
    n = collide(int(geom_a.count), geom_a.vertices, geom_a.normals, float(geom_a.radius), *fa,
                int(geom_b.count), geom_b.vertices, geom_b.normals, float(geom_b.radius), *fb,
                SPECULATIVE_DISTANCE, normal, points, ids)
    # Box2D 2.3 keeps a point while the skins (its shapes' radii beyond impulse2d's) touch
    margin = _skin(shape_a) + _skin(shape_b)
    kept = [k for k in range(n) if points[k, 2] <= margin]
    nx, ny = float(normal[0]), float(normal[1])
    manifold.normal = b2Vec2(nx, ny)
    manifold.pointCount = len(kept)
    manifold.points = []
    if not kept:
        manifold.type = b2Manifold.e_circles
        manifold.localPoint = b2Vec2(0.0, 0.0)
        manifold._local_normal = b2Vec2(0.0, 0.0)
        return manifold
    # each point's surface points: the mid-point less/plus half the separation along n
    on_a = [(points[k, 0] - 0.5 * points[k, 2] * nx, points[k, 1] - 0.5 * points[k, 2] * ny)
            for k in kept]
    on_b = [(points[k, 0] + 0.5 * points[k, 2] * nx, points[k, 1] + 0.5 * points[k, 2] * ny)
            for k in kept]
    if geom_a.count == 1 and geom_b.count == 1:
        manifold.type = b2Manifold.e_circles
        manifold.localPoint = b2Vec2(*geom_a.vertices[0])
        manifold._local_normal = b2Vec2(0.0, 0.0)
        locals_ = [tuple(geom_b.vertices[0])]
    else:
        # the reference face is the side whose face normal n is (A's along n, B's against
        # it; a circle is never the face); A's when both or neither are, as Box2D's bias
        face_a = geom_b.count == 1 or (geom_a.count > 1 and (
            _has_face(geom_a, fa, nx, ny) or not _has_face(geom_b, fb, -nx, -ny)))
        px, py, c, s = fa if face_a else fb
        sign = 1.0 if face_a else -1.0  # the face's outward normal, in its frame
        manifold.type = b2Manifold.e_faceA if face_a else b2Manifold.e_faceB
        manifold._local_normal = b2Vec2(sign * (c * nx + s * ny), sign * (-s * nx + c * ny))
        plane = on_a[0] if face_a else on_b[0]
        manifold.localPoint = b2Vec2(*_to_local(fa if face_a else fb, *plane))
        other, frame = (on_b, fb) if face_a else (on_a, fa)
        if (geom_b if face_a else geom_a).count == 1:  # a circle: its centre, as Box2D's
            locals_ = [tuple((geom_b if face_a else geom_a).vertices[0])]
        else:
            locals_ = [_to_local(frame, *p) for p in other]
    for j, k in enumerate(kept):
        key = int(ids[k])
        feature = b2ContactFeature(key >> 8 & 0xFF, key & 0xFF, 0, 0)
        manifold.points.append(b2ManifoldPoint(localPoint=locals_[min(j, len(locals_) - 1)],
                                               id=b2ContactID(cf=feature)))
    return manifold


def _has_face(geom, frame, nx, ny) -> bool:
    """Whether the world direction (nx, ny) is the outward normal of one of the shape's
    faces (to 1e-9 rad; a segment's two sides count)."""
    _, _, c, s = frame
    lx, ly = c * nx + s * ny, -s * nx + c * ny
    if geom.count == 2:
        fx, fy = geom.normals[0]
        return abs(lx * fy - ly * fx) < 1e-9
    return any(lx * fx + ly * fy > 1.0 - 1e-9 for fx, fy in geom.normals[:geom.count])


def _collide_args(name, kinds_a, kinds_b, args, kwargs):
    """pybox2d's two forms: ``f(manifold, shapeA, xfA, shapeB, xfB)`` (Box2D's, filling the
    manifold) and ``f(shapeA, xfA, shapeB, xfB)`` (a new one); keywords ``manifold``,
    ``polygonA``/``circleA``/``edgeA``..., ``xfA``, ``xfB``."""
    args = list(args)
    manifold = kwargs.pop("manifold", None)
    if args and isinstance(args[0], b2Manifold):
        manifold = args.pop(0)
    shapes = [v for k, v in list(kwargs.items()) if k not in ("xfA", "xfB")]
    if len(args) == 4:
        shape_a, xf_a, shape_b, xf_b = args
    elif not args and len(shapes) == 2 and len(kwargs) == 4:
        shape_a, shape_b = shapes
        xf_a, xf_b = kwargs["xfA"], kwargs["xfB"]
    else:
        raise TypeError(f"{name} takes (manifold, shapeA, xfA, shapeB, xfB) or "
                        f"(shapeA, xfA, shapeB, xfB)")
    if not isinstance(shape_a, kinds_a) or not isinstance(shape_b, kinds_b):
        raise TypeError(f"{name}: shapes must be {kinds_a[0].__name__} and "
                        f"{kinds_b[0].__name__}, got {type(shape_a).__name__} and "
                        f"{type(shape_b).__name__}")
    return _collide(manifold, shape_a, xf_a, shape_b, xf_b)


def b2CollidePolygons(*args, **kwargs):  # noqa: N802
    """Box2D 2.3's manifold of two polygons (see :func:`_collide_args` for the forms)."""
    return _collide_args("b2CollidePolygons", (b2PolygonShape,), (b2PolygonShape,), args,
                         kwargs)


def b2CollideCircles(*args, **kwargs):  # noqa: N802
    """Box2D 2.3's manifold of two circles (``e_circles``)."""
    return _collide_args("b2CollideCircles", (b2CircleShape,), (b2CircleShape,), args, kwargs)


def b2CollidePolygonAndCircle(*args, **kwargs):  # noqa: N802
    """Box2D 2.3's manifold of a polygon (A) and a circle (B)."""
    return _collide_args("b2CollidePolygonAndCircle", (b2PolygonShape,), (b2CircleShape,),
                         args, kwargs)


def b2CollideEdgeAndCircle(*args, **kwargs):  # noqa: N802
    """Box2D 2.3's manifold of an edge (A) and a circle (B)."""
    return _collide_args("b2CollideEdgeAndCircle", (b2EdgeShape,), (b2CircleShape,), args,
                         kwargs)


def b2CollideEdgeAndPolygon(*args, **kwargs):  # noqa: N802
    """Box2D 2.3's manifold of an edge (A) and a polygon (B) (the edge alone: its chain
    neighbours' ghost vertices are not consulted)."""
    return _collide_args("b2CollideEdgeAndPolygon", (b2EdgeShape,), (b2PolygonShape,), args,
                         kwargs)


# ---------------------------------------------------------------------------------------------
# b2TimeOfImpact
# ---------------------------------------------------------------------------------------------


class b2Sweep:  # noqa: N801
    """A body's motion over a step (Box2D's ``b2Sweep``): centre of mass ``c0`` -> ``c``,
    angle ``a0`` -> ``a``, ``localCenter`` (the centre of mass in the body frame) and
    ``alpha0`` (the fraction of the step at which ``c0``, ``a0`` hold)."""

    __slots__ = ("localCenter", "c0", "c", "a0", "a", "alpha0")

    def __init__(self, localCenter=(0.0, 0.0), c0=(0.0, 0.0), c=(0.0, 0.0), a0=0.0,  # noqa: N803
                 a=0.0, alpha0=0.0):
        self.localCenter = b2Vec2(*vec_tuple(localCenter, "localCenter"))
        self.c0 = b2Vec2(*vec_tuple(c0, "c0"))
        self.c = b2Vec2(*vec_tuple(c, "c"))
        self.a0, self.a, self.alpha0 = float(a0), float(a), float(alpha0)

    def GetTransform(self, beta):  # noqa: N802
        """The body's transform at fraction ``beta`` of the sweep (Box2D's
        ``b2Sweep::GetTransform``)."""
        beta = float(beta)
        cx = (1.0 - beta) * self.c0.x + beta * self.c.x
        cy = (1.0 - beta) * self.c0.y + beta * self.c.y
        angle = (1.0 - beta) * self.a0 + beta * self.a
        xf = b2Transform((0.0, 0.0), angle)
        lc = xf.q * self.localCenter
        xf.position = b2Vec2(cx - lc.x, cy - lc.y)
        return xf

    def Advance(self, alpha):  # noqa: N802
        """Move the start of the sweep to ``alpha`` (Box2D's ``b2Sweep::Advance``)."""
        alpha = float(alpha)
        beta = (alpha - self.alpha0) / (1.0 - self.alpha0)
        self.c0 = self.c0 + beta * (self.c - self.c0)
        self.a0 += beta * (self.a - self.a0)
        self.alpha0 = alpha

    def Normalize(self):  # noqa: N802
        """Wrap ``a0`` into [-pi, pi), moving ``a`` with it."""
        d = 2.0 * math.pi * math.floor(self.a0 / (2.0 * math.pi))
        self.a0 -= d
        self.a -= d


class b2TOIOutput:  # noqa: N801
    """Box2D's ``b2TOIOutput`` states (``b2TimeOfImpact`` returns ``(state, t)``)."""

    e_unknown, e_failed, e_overlapped, e_touching, e_separated = range(5)

    def __init__(self, state=0, t=0.0):
        self.state, self.t = int(state), float(t)

    def __iter__(self):  # (state, t), the form b2TimeOfImpact returns
        return iter((self.state, self.t))

    def __repr__(self):
        return f"b2TOIOutput(state={self.state}, t={self.t:g})"


def _reach(geom, local_center):
    """Farthest core point of the shape from the body's centre of mass (m)."""
    v = geom.vertices[:geom.count]
    return float(np.max(np.hypot(v[:, 0] - local_center.x, v[:, 1] - local_center.y)))


def b2TimeOfImpact(shapeA=None, idxA=0, shapeB=None, idxB=0, sweepA=None,  # noqa: N802, N803
                   sweepB=None, tMax=1.0):  # noqa: N803
    """``(state, t)``: the first fraction ``t`` in [0, ``tMax``] of the two sweeps at which
    the shapes come within Box2D 2.3's target distance (``max(slop, radii - 3 slop)`` between
    the cores; the radii are impulse2d's: a polygon's 0) within a quarter slop. ``state``:
    ``b2TOIOutput.e_touching`` (t found), ``e_separated`` (apart until ``tMax``),
    ``e_overlapped`` (closer than the target already at the start, t = 0) or ``e_failed``
    (Box2D's 20 advances did not get there; t is the safe fraction reached).

    Conservative advancement: at the current t the core distance d and its direction n are
    exact (as in ``_b2collide._core_distance``); no point of the shapes closes along n faster
    than the relative motion of the centres along n plus each body's turn times its reach,
    so advancing t by (d - target) over that rate never passes the target."""
    if isinstance(shapeA, b2TOIInput):   # pybox2d's b2TimeOfImpact(input)
        given = shapeA
        shapeA, idxA = _proxy(given.proxyA, "input.proxyA")
        shapeB, idxB = _proxy(given.proxyB, "input.proxyB")
        sweepA, sweepB, tMax = given.sweepA, given.sweepB, given.tMax
    if shapeA is None or shapeB is None or sweepA is None or sweepB is None:
        raise TypeError("b2TimeOfImpact needs shapeA, shapeB, sweepA and sweepB (or a "
                        "b2TOIInput)")
    for name, sweep in (("sweepA", sweepA), ("sweepB", sweepB)):
        if not isinstance(sweep, b2Sweep):
            raise TypeError(f"{name} must be a b2Sweep, got {type(sweep).__name__}")
    t_max = float(tMax)
    if not (math.isfinite(t_max) and 0.0 <= t_max <= 1.0):
        raise ValueError(f"tMax must be in [0, 1], got {tMax!r}")
    geom_a, geom_b = _geometry(shapeA, idxA), _geometry(shapeB, idxB)
    target = max(LINEAR_SLOP, geom_a.radius + geom_b.radius - 3.0 * LINEAR_SLOP)
    spin = (abs(sweepA.a - sweepA.a0) * _reach(geom_a, sweepA.localCenter)
            + abs(sweepB.a - sweepB.a0) * _reach(geom_b, sweepB.localCenter))
    dvx = (sweepB.c.x - sweepB.c0.x) - (sweepA.c.x - sweepA.c0.x)  # relative motion, m
    dvy = (sweepB.c.y - sweepB.c0.y) - (sweepA.c.y - sweepA.c0.y)
    t = 0.0
    for _ in range(TOI_MAX_ITERATIONS):
        core_a = _world_core(geom_a, _frame(sweepA.GetTransform(t)))
        core_b = _world_core(geom_b, _frame(sweepB.GetTransform(t)))
        d, pa, pb, _ = _core_distance(core_a, core_b)
        if d < target - TOI_TOLERANCE:
            if t == 0.0:
                return b2TOIOutput.e_overlapped, 0.0
            return b2TOIOutput.e_failed, t  # (an advance is never past the target)
        if d <= target + TOI_TOLERANCE:
            return b2TOIOutput.e_touching, t
        nx, ny = (pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d
        rate = spin - (dvx * nx + dvy * ny)  # fastest approach along n, per unit fraction
        if rate <= 0.0:
            return b2TOIOutput.e_separated, t_max
        t += (d - target) / rate
        if t >= t_max:
            return b2TOIOutput.e_separated, t_max
    return b2TOIOutput.e_failed, t


# ---------------------------------------------------------------------------------------------
# the shapes' own queries (b2Shape.RayCast, ComputeAABB, ComputeMass, TestPoint)
# ---------------------------------------------------------------------------------------------


class b2RayCastInput:  # noqa: N801
    """A ray from ``p1`` towards ``p2``, as far as ``maxFraction`` of the way."""

    __slots__ = ("p1", "p2", "maxFraction")

    def __init__(self, p1=(0.0, 0.0), p2=(0.0, 0.0), maxFraction=1.0):  # noqa: N803
        self.p1 = b2Vec2(*vec_tuple(p1, "p1"))
        self.p2 = b2Vec2(*vec_tuple(p2, "p2"))
        self.maxFraction = float(maxFraction)


class b2RayCastOutput:  # noqa: N801
    """A ray hit: the surface's outward ``normal`` (world) and the ``fraction`` of p1 -> p2."""

    __slots__ = ("normal", "fraction")

    def __init__(self, normal=(0.0, 0.0), fraction=0.0):
        self.normal = b2Vec2(*vec_tuple(normal, "normal"))
        self.fraction = float(fraction)


class b2MassData:  # noqa: N801
    """``mass`` (kg), ``center`` (the centroid, shape frame, m) and ``I`` (kg m^2, about the
    shape's origin, as Box2D 2.3's)."""

    __slots__ = ("mass", "center", "I")

    def __init__(self, mass=0.0, center=(0.0, 0.0), I=0.0):  # noqa: N803, E741
        self.mass = float(mass)
        self.center = b2Vec2(*vec_tuple(center, "center"))
        self.I = float(I)

    def __repr__(self):
        return f"b2MassData(mass={self.mass:g}, center={self.center!r}, I={self.I:g})"


def ray_cast(shape, output, ray, transform, child_index=0) -> bool:
    """``shape.RayCast(output, input, transform, childIndex)``: whether the ray enters the
    shape's child; on a hit, ``output.fraction`` and ``output.normal`` are set (Box2D's)."""
    if not isinstance(ray, b2RayCastInput):
        raise TypeError(f"input must be a b2RayCastInput, got {type(ray).__name__}")
    if not isinstance(output, b2RayCastOutput):
        raise TypeError(f"output must be a b2RayCastOutput, got {type(output).__name__}")
    geom = _geometry(shape, child_index)
    frame = _frame(transform)
    p1 = vec_tuple(ray.p1, "input.p1")
    p2 = vec_tuple(ray.p2, "input.p2")
    max_fraction = float(ray.maxFraction)
    if not all(math.isfinite(v) for v in (*p1, *p2, max_fraction)) or max_fraction < 0.0:
        raise ValueError("input: p1, p2 must be finite and maxFraction finite and >= 0")
    ox, oy = _to_local(frame, *p1)
    ex, ey = _to_local(frame, *p2)
    fraction, nx, ny = ray_shape(int(geom.count), geom.vertices, geom.normals,
                                 float(geom.radius), ox, oy, ex - ox, ey - oy, max_fraction)
    if fraction == NO_HIT:
        return False
    _, _, c, s = frame
    output.fraction = float(fraction)
    output.normal = b2Vec2(c * nx - s * ny, s * nx + c * ny)
    return True


def compute_aabb(shape, transform, child_index=0) -> b2AABB:
    """``shape.ComputeAABB(transform, childIndex)``: the child's world box (no skin: see the
    module docstring)."""
    geom = _geometry(shape, child_index)
    out = np.empty(4)
    geometry.shape_aabb(int(geom.count), geom.vertices, float(geom.radius), *_frame(transform),
                        out)
    return b2AABB((out[0], out[1]), (out[2], out[3]))


def compute_mass(shape, density) -> b2MassData:
    """``shape.ComputeMass(density)``: Box2D 2.3's mass data (inertia about the shape's
    origin; edges and chains have none; a circle of radius 0 is massless)."""
    density = float(density)
    if not (math.isfinite(density) and density >= 0.0):
        raise ValueError(f"density must be finite and >= 0, got {density!r}")
    if isinstance(shape, b2CircleShape):
        r = shape.radius
        mass = density * math.pi * r * r
        cx, cy = shape.pos
        return b2MassData(mass, (cx, cy), mass * (0.5 * r * r + cx * cx + cy * cy))
    if isinstance(shape, b2EdgeShape):  # no area: Box2D's centre is the midpoint
        (x1, y1), (x2, y2) = shape._vertices
        return b2MassData(0.0, (0.5 * (x1 + x2), 0.5 * (y1 + y2)), 0.0)
    if isinstance(shape, b2ChainShape):
        return b2MassData(0.0, (0.0, 0.0), 0.0)
    geom = _geometry(shape)
    mass, center, inertia = geometry.mass_properties(int(geom.count), geom.vertices, 0.0,
                                                     density)
    cx, cy = float(center[0]), float(center[1])
    return b2MassData(mass, (cx, cy), inertia + mass * (cx * cx + cy * cy))


def test_point(shape, transform, p) -> bool:
    """``shape.TestPoint(transform, p)``: whether the world point ``p`` is inside the shape
    (an edge or chain: never, as Box2D's)."""
    if isinstance(shape, (b2EdgeShape, b2ChainShape)):
        return False
    geom = _geometry(shape)
    x, y = _to_local(_frame(transform), *vec_tuple(p, "p"))
    return bool(point_in_shape(int(geom.count), geom.vertices, geom.normals,
                               float(geom.radius), x, y))


__all__ = ["b2Distance", "b2DistanceOutput", "b2TestOverlap", "b2CollidePolygons",
           "b2CollideCircles", "b2CollidePolygonAndCircle", "b2CollideEdgeAndCircle",
           "b2CollideEdgeAndPolygon", "b2Sweep", "b2TOIOutput",
           "b2TimeOfImpact", "b2RayCastInput", "b2RayCastOutput", "b2MassData", "ray_cast",
           "compute_aabb", "compute_mass", "test_point"]
