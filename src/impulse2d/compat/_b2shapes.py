"""pybox2d's shapes (``b2PolygonShape``, ``b2CircleShape``, ``b2EdgeShape``,
``b2ChainShape``/``b2LoopShape``), fixture definitions and filters, and the ``b2Fixture`` that
wraps an impulse2d ``Shape`` (``b2ChainFixture``: two impulse2d chains, one each way, since
Box2D 2.3's chains are two-sided and impulse2d's one-sided). A circle of radius 0, which
Box2D 2.3 takes as a massless point, is a massless circle of Box2D's 1 cm skin here.

Shapes are plain mutable descriptions, as in pybox2d: a fixture definition keeps a live
reference to its shape (programs change ``fd.shape.vertices`` between bodies), and creating a
fixture copies the shape as it is then.

Box2D 2.3's polygons are the convex hull of their points, welded within half a linear slop,
starting at the rightmost point (the lowest of ties) and going counter-clockwise
(``b2PolygonShape::Set``, gift wrapping); ``vertices`` returns them in that order. Their skin
radius (``b2_polygonRadius``, 1 cm) is not reproduced: impulse2d's polygons are sharp, so
resting shapes sit 1-2 cm closer than in Box2D.
"""

from __future__ import annotations

import math
import struct

from .. import _validate
from .._collision import geometry
from ..body import _points
from ..shapes import parse_material
from ._b2math import b2Vec2, vec_tuple

LINEAR_SLOP = 0.005  # m, Box2D 2.3's b2_linearSlop
POINT_RADIUS = 2.0 * LINEAR_SLOP  # m: Box2D's b2_polygonRadius, a zero-radius circle's here
MAX_POLYGON_VERTICES = 8  # impulse2d's (pybox2d's build allows 16)


_HULLS: dict = {}     # the points' bytes -> their hull (convex_hull), read only
_POLYGONS: dict = {}  # a hull's bytes -> its engine geometry (_polygon_geometry), read only
_CACHE_MAX = 256      # entries kept in each (a program makes a handful of polygons)


def _key(points) -> bytes:
    """The exact bits of a list of float pairs (-0.0 and 0.0 apart, as the engine would keep
    them): a cache key for what is computed from them alone."""
    flat = [c for p in points for c in p]
    return struct.pack(f"{len(flat)}d", *flat)


def _remember(cache: dict, key, value):
    if len(cache) >= _CACHE_MAX:
        cache.clear()
    cache[key] = value
    return value


def convex_hull(points) -> list[tuple[float, float]]:
    """Box2D 2.3's polygon hull of ``points``: welded, rightmost (then lowest) point first,
    counter-clockwise. Raises ValueError for fewer than 3 distinct or collinear points.

    A function of the points' values alone, so the hull of points seen before comes from a
    cache (Gymnasium makes the same lander, hull and legs at every reset; gift wrapping them
    in Python was a tenth of making such a body); the list returned is the caller's own."""
    ps = [vec_tuple(p, "vertices[i]") for p in points]
    key = _key(ps)
    hull = _HULLS.get(key)
    if hull is None:
        hull = _remember(_HULLS, key, _wrap_hull(ps))
    return list(hull)


def _wrap_hull(points) -> list[tuple[float, float]]:
    """:func:`convex_hull` of ``points`` (pairs of floats), computed."""
    ps: list[tuple[float, float]] = []
    weld = (0.5 * LINEAR_SLOP) ** 2
    for x, y in points:
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"vertices must be finite, got ({x}, {y})")
        if all((x - q[0]) ** 2 + (y - q[1]) ** 2 > weld for q in ps):
            ps.append((x, y))
    n = len(ps)
    if n < 3:
        raise ValueError(f"a polygon needs 3 distinct vertices, got {n}")
    if n > MAX_POLYGON_VERTICES:
        raise ValueError(f"a polygon has at most {MAX_POLYGON_VERTICES} vertices, got {n}")
    i0 = 0
    for i in range(1, n):
        if ps[i][0] > ps[i0][0] or (ps[i][0] == ps[i0][0] and ps[i][1] < ps[i0][1]):
            i0 = i
    hull = []
    ih = i0
    while True:
        hull.append(ih)
        ie = 0
        for j in range(1, n):
            if ie == ih:
                ie = j
                continue
            ox, oy = ps[ih]
            rx, ry = ps[ie][0] - ox, ps[ie][1] - oy
            vx, vy = ps[j][0] - ox, ps[j][1] - oy
            c = rx * vy - ry * vx
            if c < 0.0 or (c == 0.0 and vx * vx + vy * vy > rx * rx + ry * ry):
                ie = j
        ih = ie
        if ie == i0 or len(hull) > n:
            break
    if len(hull) < 3:
        raise ValueError("the polygon's vertices are collinear")
    return [ps[i] for i in hull]


class b2Shape:  # noqa: N801
    """Base of the shapes (``type(shape) is b2CircleShape`` checks work: no subclass tricks)."""

    __slots__ = ()
    radius: float

    # Box2D 2.3's b2Shape queries, on impulse2d's geometry (see ``_b2collide``)
    def RayCast(self, output, input, transform, childIndex=0):  # noqa: N802, N803, A002
        """Whether the ray ``input`` (``b2RayCastInput``) enters the shape placed at
        ``transform``; on a hit ``output`` (``b2RayCastOutput``) gets fraction and normal."""
        from ._b2collide import ray_cast
        return ray_cast(self, output, input, transform, childIndex)

    def ComputeAABB(self, transform, childIndex=0):  # noqa: N802, N803
        """The ``b2AABB`` of the shape (a chain's edge ``childIndex``) placed at
        ``transform``."""
        from ._b2collide import compute_aabb
        return compute_aabb(self, transform, childIndex)

    def ComputeMass(self, density):  # noqa: N802
        """``b2MassData`` of the shape at ``density`` (kg/m^2; inertia about its origin)."""
        from ._b2collide import compute_mass
        return compute_mass(self, density)

    def TestPoint(self, transform, p):  # noqa: N802
        """Whether the world point ``p`` is inside the shape placed at ``transform``."""
        from ._b2collide import test_point
        return test_point(self, transform, p)

    @property
    def childCount(self):  # noqa: N802
        return 1

    # pybox2d's helpers: the same queries by its other names
    def getAABB(self, transform, childIndex=0):  # noqa: N802, N803
        return self.ComputeAABB(transform, childIndex)

    def getMass(self, density):  # noqa: N802
        return self.ComputeMass(density)

    def getAsType(self):  # noqa: N802
        """pybox2d's downcast: here the object already is its type's class."""
        return self

    e_circle, e_edge, e_polygon, e_chain, e_typeCount = 0, 1, 2, 3, 4  # Box2D's b2Shape::Type

    @property
    def type(self):
        """Box2D's ``b2Shape::Type``: ``e_circle`` 0, ``e_edge`` 1, ``e_polygon`` 2,
        ``e_chain`` 3."""
        return _SHAPE_TYPES[type(self).__name__]


_SHAPE_TYPES = {"b2CircleShape": 0, "b2EdgeShape": 1, "b2PolygonShape": 2, "b2ChainShape": 3,
                "b2LoopShape": 3}


class b2CircleShape(b2Shape):  # noqa: N801
    __slots__ = ("radius", "_pos")

    def __init__(self, radius=0.0, pos=(0.0, 0.0)):
        self.radius = float(radius)
        self._pos = b2Vec2(*vec_tuple(pos, "pos"))

    @property
    def pos(self):
        return self._pos

    @pos.setter
    def pos(self, value):
        self._pos = b2Vec2(*vec_tuple(value, "pos"))

    p = pos

    def _copy(self):
        return b2CircleShape(self.radius, self._pos)

    def __repr__(self):
        return f"b2CircleShape(radius={self.radius:g}, pos={self._pos!r})"


class b2PolygonShape(b2Shape):  # noqa: N801
    """``polygonShape(vertices=[...])`` (the hull is taken) or ``polygonShape(box=(hx, hy))``,
    ``box=(hx, hy, center, angle)``."""

    __slots__ = ("_vertices", "radius")

    def __init__(self, vertices=None, box=None, radius=None):
        self.radius = 0.0
        self._vertices: list[tuple[float, float]] = []
        if box is not None:
            self.SetAsBox(*box)
        elif vertices is not None:
            self.vertices = vertices

    @property
    def vertices(self):
        return list(self._vertices)

    @vertices.setter
    def vertices(self, points):
        self._vertices = convex_hull(points)

    @property
    def vertexCount(self):  # noqa: N802
        return len(self._vertices)

    def __len__(self):
        return len(self._vertices)

    def SetAsBox(self, hx, hy, center=None, angle=0.0):  # noqa: N802
        hx, hy = float(hx), float(hy)
        if not (hx > 0.0 and hy > 0.0):
            raise ValueError(f"box half extents must be positive, got ({hx}, {hy})")
        corners = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        if center is not None:
            cx, cy = vec_tuple(center, "center")
            c, s = math.cos(angle), math.sin(angle)
            corners = [(cx + c * x - s * y, cy + s * x + c * y) for x, y in corners]
        self._vertices = corners

    box = property(None, lambda self, value: self.SetAsBox(*value))

    @property
    def normals(self):
        """Each edge's outward unit normal (edge i from vertex i to i + 1)."""
        v = self._vertices
        out = []
        for i, (x0, y0) in enumerate(v):
            x1, y1 = v[(i + 1) % len(v)]
            n = math.hypot(x1 - x0, y1 - y0)
            out.append(((y1 - y0) / n, -(x1 - x0) / n) if n > 0.0 else (0.0, 0.0))
        return out

    def Validate(self):  # noqa: N802
        """Whether the vertices are a convex, counter-clockwise polygon of at least 3
        (Box2D 2.3's ``b2PolygonShape::Validate``)."""
        v = self._vertices
        if not 3 <= len(v) <= 8:
            return False
        for i, (x0, y0) in enumerate(v):
            x1, y1 = v[(i + 1) % len(v)]
            ex, ey = x1 - x0, y1 - y0
            for j, (x, y) in enumerate(v):
                if j not in (i, (i + 1) % len(v)) and ex * (y - y0) - ey * (x - x0) <= 0.0:
                    return False
        return True

    @property
    def valid(self):
        """True, or ValueError when the polygon is not convex and counter-clockwise
        (pybox2d's check)."""
        if not self.Validate():
            raise ValueError("the polygon is not convex and counter-clockwise (3 to 8 "
                             "vertices)")
        return True

    def set_vertex(self, vnum, *value):
        """Set vertex ``vnum`` to ``value`` (or ``x, y``) as given: no hull is taken (Box2D's
        ``m_vertices[i]``; ``valid`` checks the result)."""
        p = value[0] if len(value) == 1 else value
        x, y = vec_tuple(p, "value")
        self._vertices[int(vnum)] = (x, y)

    @property
    def centroid(self):
        return b2Vec2(*_polygon_centroid(self._vertices))

    def _copy(self):
        copy = _new(b2PolygonShape)
        copy.radius = 0.0  # as a new shape (the fixture's copy never took it)
        copy._vertices = list(self._vertices)
        return copy

    def __repr__(self):
        return f"b2PolygonShape(vertices={self._vertices})"


class b2EdgeShape(b2Shape):  # noqa: N801
    __slots__ = ("_vertices", "radius")

    def __init__(self, vertices=None, vertex1=None, vertex2=None):
        self.radius = 0.0
        self._vertices = [(0.0, 0.0), (0.0, 0.0)]
        if vertices is not None:
            self.vertices = vertices
        if vertex1 is not None:
            self._vertices[0] = vec_tuple(vertex1, "vertex1")
        if vertex2 is not None:
            self._vertices[1] = vec_tuple(vertex2, "vertex2")

    @property
    def vertices(self):
        return list(self._vertices)

    @vertices.setter
    def vertices(self, points):
        points = list(points)
        if len(points) == 4 and all(isinstance(v, (int, float)) for v in points):
            points = [points[:2], points[2:]]  # a flat [x1, y1, x2, y2]
        if len(points) != 2:
            raise ValueError(f"an edge has 2 vertices, got {len(points)}")
        self._vertices = [vec_tuple(points[0], "vertices[0]"), vec_tuple(points[1], "vertices[1]")]

    @property
    def vertex1(self):
        return b2Vec2(*self._vertices[0])

    @property
    def vertex2(self):
        return b2Vec2(*self._vertices[1])

    @property
    def vertexCount(self):  # noqa: N802
        return 2

    def _copy(self):
        # the vertices were checked when set (a fixture's copy: no second check)
        copy = _new(b2EdgeShape)
        copy.radius = 0.0  # as a new shape (the fixture's copy never took it)
        copy._vertices = list(self._vertices)
        return copy

    def __repr__(self):
        return f"b2EdgeShape(vertices={self._vertices})"


class b2ChainShape(b2Shape):  # noqa: N801
    """A chain of edges through ``vertices`` (at least 2): open, or closed back to the first
    vertex for ``b2LoopShape`` (or ``vertices_loop=``). On a body it becomes impulse2d's chain
    (``Body.create_chain``): bodies slide over its inner vertices without catching. Box2D
    2.3's chain edges are two-sided; impulse2d's chains are one-sided, so the layer makes
    each chain fixture of two chains, one each way (see ``b2ChainFixture``)."""

    __slots__ = ("_vertices", "radius", "_loop")
    _LOOP = False

    def __init__(self, vertices=None, vertices_chain=None, vertices_loop=None):
        self.radius = 2.0 * LINEAR_SLOP  # Box2D's b2_polygonRadius, as its chain's
        self._vertices: list[tuple[float, float]] = []
        self._loop = self._LOOP
        if vertices_loop is not None:
            self.vertices_loop = vertices_loop
        elif vertices_chain is not None:
            self.vertices_chain = vertices_chain
        elif vertices is not None:
            self.vertices = vertices

    @property
    def vertices(self):
        return list(self._vertices)

    @vertices.setter
    def vertices(self, points):
        points = [vec_tuple(p, f"vertices[{k}]") for k, p in enumerate(points)]
        least = 3 if self._loop else 2
        if len(points) < least:
            kind = "a loop" if self._loop else "a chain"
            raise ValueError(f"{kind} needs at least {least} vertices, got {len(points)}")
        self._vertices = points

    def _set(self, points, loop):
        was = self._loop
        self._loop = loop
        try:
            self.vertices = points
        except (TypeError, ValueError):
            self._loop = was
            raise

    vertices_chain = property(lambda self: self.vertices,
                              lambda self, points: self._set(points, False))
    vertices_loop = property(lambda self: self.vertices,
                             lambda self, points: self._set(points, True))

    @property
    def vertexCount(self):  # noqa: N802
        return len(self._vertices)

    def __len__(self):
        return len(self._vertices)

    @property
    def childCount(self):  # noqa: N802
        """Box2D's edge count: one per pair of vertices, and the closing edge of a loop."""
        n = len(self._vertices)
        return n if self._loop else max(n - 1, 0)

    def CreateChain(self, vertices, count=None):  # noqa: N802
        """Box2D's ``CreateChain``: an open chain through ``vertices`` (the first ``count``)."""
        self._set(list(vertices)[:count], False)

    def CreateLoop(self, vertices, count=None):  # noqa: N802
        """Box2D's ``CreateLoop``: a closed loop through ``vertices`` (the first ``count``)."""
        self._set(list(vertices)[:count], True)

    def getChildEdge(self, index):  # noqa: N802
        """Edge ``index`` of the chain, a ``b2EdgeShape``."""
        edges = self.edges
        if not 0 <= int(index) < len(edges):
            raise ValueError(f"index must be in [0, {len(edges)}), got {index}")
        return edges[int(index)]

    @property
    def edges(self):
        """The chain's edges as ``b2EdgeShape``s, in order."""
        v = self._vertices
        n = self.childCount
        return [b2EdgeShape(vertices=[v[k], v[(k + 1) % len(v)]]) for k in range(n)]

    def _copy(self):
        copy = _new(type(self))
        copy.radius = self.radius
        copy._loop = self._loop
        copy._vertices = list(self._vertices)
        return copy

    def __repr__(self):
        kind = "loop" if self._loop else "chain"
        return f"{type(self).__name__}({kind}, vertices={self._vertices})"


class b2LoopShape(b2ChainShape):  # noqa: N801
    """pybox2d's closed chain: ``b2LoopShape(vertices=[...])`` (at least 3)."""

    __slots__ = ()
    _LOOP = True


def _polygon_centroid(vertices):
    area = cx = cy = 0.0
    ox, oy = vertices[0]
    for (x1, y1), (x2, y2) in zip(vertices[1:], vertices[2:]):
        a = 0.5 * ((x1 - ox) * (y2 - oy) - (y1 - oy) * (x2 - ox))
        area += a
        cx += a * (ox + x1 + x2) / 3.0
        cy += a * (oy + y1 + y2) / 3.0
    return cx / area, cy / area


_new = object.__new__


class b2Filter:  # noqa: N801
    """Collision filter: Box2D 2.3's defaults (category 1, mask 0xFFFF, group 0)."""

    __slots__ = ("categoryBits", "maskBits", "groupIndex")

    def __init__(self, categoryBits=0x0001, maskBits=0xFFFF, groupIndex=0):  # noqa: N803
        self.categoryBits = int(categoryBits)
        self.maskBits = int(maskBits)
        self.groupIndex = int(groupIndex)

    def __repr__(self):
        return (f"b2Filter(categoryBits={self.categoryBits:#x}, maskBits={self.maskBits:#x}, "
                f"groupIndex={self.groupIndex})")


class b2FixtureDef:  # noqa: N801
    """Box2D 2.3's fixture definition and defaults (density 0, friction 0.2)."""

    def __init__(self, shape=None, density=0.0, friction=0.2, restitution=0.0,
                 categoryBits=0x0001, maskBits=0xFFFF, groupIndex=0, isSensor=False,  # noqa: N803
                 userData=None, filter=None):  # noqa: N803
        self.shape = shape
        self.density = density
        self.friction = friction
        self.restitution = restitution
        self.filter = b2Filter(categoryBits, maskBits, groupIndex) if filter is None else filter
        self.isSensor = isSensor
        self.userData = userData

    def to_kwargs(self) -> dict:
        """The fields as keywords: ``b2FixtureDef(**d.to_kwargs())`` is an equal definition
        (the shape and filter objects themselves, as pybox2d's)."""
        return dict(shape=self.shape, density=self.density, friction=self.friction,
                    restitution=self.restitution, isSensor=self.isSensor,
                    userData=self.userData, filter=self.filter)

    def ClearUserData(self):  # noqa: N802
        self.userData = None

    # pybox2d exposes the filter's fields on the definition too
    categoryBits = property(lambda self: self.filter.categoryBits,
                            lambda self, v: setattr(self.filter, "categoryBits", int(v)))
    maskBits = property(lambda self: self.filter.maskBits,
                        lambda self, v: setattr(self.filter, "maskBits", int(v)))
    groupIndex = property(lambda self: self.filter.groupIndex,
                          lambda self, v: setattr(self.filter, "groupIndex", int(v)))


class b2Fixture:  # noqa: N801
    """A shape attached to a body (an impulse2d ``Shape`` and a copy of the definition's
    shape). ``filterData`` returns a copy; assign a ``b2Filter`` to change it."""

    __slots__ = ("_shape", "_b2shape", "_body", "_filter", "userData", "__dict__")

    def __init__(self, shape, b2shape, body, user_data, filter_bits):
        if shape is not None:  # (None: a queued static body's, see _b2queue)
            self._shape = shape    # impulse2d.Shape
        self._b2shape = b2shape    # the b2*Shape (a private copy)
        self._body = body          # the b2Body
        self._filter = filter_bits  # (category, mask, group): what the shape has (set only here)
        self.userData = user_data

    def __reduce_ex__(self, protocol):
        self._body._b2world._flush_queue()  # a queued fixture is made before it is copied
        return object.__reduce_ex__(self, protocol)

    def __getattr__(self, name):
        # a queued static body's fixture: its shape is made with the queue (see b2Body)
        if name == "_shape" and self._body._b2world._flush_queue():
            return self._shape
        raise AttributeError(f"'b2Fixture' object has no attribute {name!r}")

    @property
    def body(self):
        return self._body

    @property
    def shape(self):
        return self._b2shape

    @property
    def type(self):
        return _TYPES[type(self._b2shape)]

    def _rows(self) -> list:
        """The engine's shape rows this fixture is made of."""
        return [self._shape._index]

    def _destroy_engine_part(self):
        self._shape._world.destroy_shape(self._shape)

    @property
    def sensor(self):
        return self._shape.is_sensor

    @sensor.setter
    def sensor(self, value):
        flag = bool(value)
        if "_handle" not in self._body.__dict__:  # a queued body's fixture: set in the queue
            from ._b2queue import queued_sensor  # (CarRacing sets it on each new tile)
            if queued_sensor(self, flag):
                return
        self._shape.is_sensor = flag

    isSensor = sensor

    @property
    def filterData(self):  # noqa: N802
        # read on hot paths (ray-cast callbacks): from the ints kept in step with the shape,
        # into a new b2Filter without __init__'s conversions
        f = _new(b2Filter)
        f.categoryBits, f.maskBits, f.groupIndex = self._filter
        return f

    @filterData.setter
    def filterData(self, value):  # noqa: N802
        bits = (int(value.categoryBits), int(value.maskBits), int(value.groupIndex))
        shape = self._shape
        shape.category, shape.mask, shape.group = bits
        self._filter = bits

    density = property(lambda self: self._shape.density,
                       lambda self, v: setattr(self._shape, "density", v))
    friction = property(lambda self: self._shape.friction,
                        lambda self, v: setattr(self._shape, "friction", v))
    restitution = property(lambda self: self._shape.restitution,
                           lambda self, v: setattr(self._shape, "restitution", v))

    def TestPoint(self, p):  # noqa: N802
        world = self._shape._world
        return self._shape in world.query_point(vec_tuple(p, "p"))

    def GetAABB(self, childIndex=0):  # noqa: N802, N803
        """The shape's box where its body is now (Box2D's is the broadphase's fat box, up to
        10 cm larger and possibly stale)."""
        return self.shape.ComputeAABB(self.body.transform, childIndex)

    def RayCast(self, output, input, childIndex=0):  # noqa: N802, N803, A002
        """The shape's ``RayCast`` where its body is now."""
        return self.shape.RayCast(output, input, self.body.transform, childIndex)

    @property
    def massData(self):  # noqa: N802
        """The shape's ``b2MassData`` at the fixture's density (inertia about the body
        origin)."""
        return self.shape.ComputeMass(self.density)

    def ClearUserData(self):  # noqa: N802
        self.userData = None

    def Refilter(self):  # noqa: N802
        """Box2D's: look at the fixture's pairs again (after a contact filter changed its
        mind); the filter bits are applied anew."""
        self.filterData = self.filterData

    def __repr__(self):
        return f"b2Fixture({self._b2shape!r})"


_TYPES = {b2CircleShape: 0, b2EdgeShape: 1, b2PolygonShape: 2, b2ChainShape: 3,
          b2LoopShape: 3}  # Box2D 2.3's b2Shape::Type: e_circle, e_edge, e_polygon, e_chain


class b2ChainFixture(b2Fixture):  # noqa: N801
    """A chain or loop fixture: two impulse2d chains through the same vertices, one each way
    (impulse2d's chains are one-sided, Box2D 2.3's two-sided), so that bodies are held on
    either side. Its material and filter are those of every segment of both; it cannot be a
    sensor (impulse2d's chains cannot)."""

    __slots__ = ("_chains",)

    def __init__(self, chains, b2shape, body, user_data, filter_bits):
        super().__init__(chains[0].segments[0], b2shape, body, user_data, filter_bits)
        self._chains = chains

    def _segments(self):
        return [seg for chain in self._chains for seg in chain.segments]

    def _rows(self) -> list:
        return [seg._index for seg in self._segments()]

    def _destroy_engine_part(self):
        world = self._shape._world
        for chain in self._chains:
            world.destroy_chain(chain)

    def _set_all(self, name, value):
        for seg in self._segments():
            setattr(seg, name, value)

    # a chain has no area, hence no mass whatever its density (Box2D's too): the value is
    # the definition's, kept for the program
    density = property(lambda self: self.__dict__.get("_density", 0.0),
                       lambda self, v: self.__dict__.__setitem__("_density", float(v)))
    friction = property(lambda self: self._shape.friction,
                        lambda self, v: self._set_all("friction", v))
    restitution = property(lambda self: self._shape.restitution,
                           lambda self, v: self._set_all("restitution", v))

    @property
    def sensor(self):
        return False

    @sensor.setter
    def sensor(self, value):
        if value:
            raise ValueError("sensor: a chain or loop fixture cannot be a sensor here "
                             "(impulse2d's chains are one-sided surfaces)")

    isSensor = sensor

    @property
    def filterData(self):  # noqa: N802
        return b2Filter(*self._filter)

    @filterData.setter
    def filterData(self, value):  # noqa: N802
        bits = (int(value.categoryBits), int(value.maskBits), int(value.groupIndex))
        for seg in self._segments():
            seg.category, seg.mask, seg.group = bits
        self._filter = bits

    def TestPoint(self, p):  # noqa: N802
        return False  # no area (Box2D's chain TestPoint is false too)


def chain_fixture(body, defn):
    """``body.CreateFixture`` of a ``b2ChainShape``/``b2LoopShape`` definition."""
    if defn.isSensor:
        raise ValueError("isSensor: a chain or loop fixture cannot be a sensor here "
                         "(impulse2d's chains are one-sided surfaces)")
    b2shape = defn.shape._copy()
    f = defn.filter
    bits = (int(f.categoryBits), int(f.maskBits), int(f.groupIndex))
    material = dict(friction=defn.friction, restitution=defn.restitution, category=bits[0],
                    mask=bits[1], group=bits[2])
    handle = body._handle
    points = b2shape._vertices
    front = handle.create_chain(points, loop=b2shape._loop, **material)
    try:
        back = handle.create_chain(points[::-1], loop=b2shape._loop, **material)
    except Exception:
        handle._world.destroy_chain(front)
        raise
    fixture = b2ChainFixture([front, back], b2shape, body, defn.userData, bits)
    fixture.density = defn.density
    return fixture


_PARSED: dict = {}  # material values (plain Python types) -> parse_material's dict
_PARSED_MAX = 256   # entries kept (a program makes a handful of materials)


def _plain(x) -> bool:
    """Whether ``x`` is a float of positive sign or an int >= 0 (exact types: not a bool)."""
    t = type(x)
    return (t is float and math.copysign(1.0, x) > 0.0) or (t is int and x >= 0)


def _parsed(material: dict) -> dict:
    """``parse_material(material)``, from a cache when density, friction and restitution are
    Python floats of positive sign (+0.0 included) or ints, and the rest a bool and ints, as
    ``shape_parts`` passes them. Parsing is then a function of the values alone: an int is
    parsed as the float it equals, and equals a key only when it equals that float exactly;
    -0.0 == 0.0 as a key, but the store would keep the sign, so it is not cached; a bool is
    rejected by parsing, so it is not taken either. A Gymnasium reset makes ~200 fixtures
    from one definition: parsing each was a tenth of a terrain body's creation. The dict
    returned is shared: read only."""
    d, f, r = material["density"], material["friction"], material["restitution"]
    if not (_plain(d) and _plain(f) and _plain(r)):
        return parse_material(material)
    key = tuple(material.values())  # (shape_parts' order: density .. group)
    m = _PARSED.get(key)
    if m is None:
        m = parse_material(material)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = m
    return m


def _polygon_geometry(vertices):
    """The engine's geometry of a polygon of ``vertices`` (float pairs: a hull, or a box's or
    ``set_vertex``'s corners), as ``Body.create_polygon`` builds it (the engine's hull,
    edge normals and centroid), kept per distinct vertices: a function of their values alone,
    and read only (``World._attach_shape`` and ``impulse2d._batch`` copy it into the store)."""
    key = _key(vertices)
    geom = _POLYGONS.get(key)
    if geom is None:
        geom = _remember(_POLYGONS, key, geometry.make_polygon(
            _points(vertices), _validate.rounding(0.0, "radius")))
    return geom


def shape_parts(b2shape, density, friction, restitution, category, mask, group, is_sensor,
                built=True):
    """``(kind, geometry, material, size_names)`` of a fixture: what
    ``World._attach_shape`` takes (``b2shape`` a private copy; geometry validated and built as
    ``Body.create_segment``/``create_polygon``/``create_circle`` build it, in the same order of
    checks; the material parsed once per distinct definition). ``built=False``: an edge's
    geometry may be its checked ``geometry.SegmentEnds`` (for ``impulse2d._batch``)."""
    material = dict(density=density, friction=friction, restitution=restitution,
                    is_sensor=bool(is_sensor), category=int(category), mask=int(mask),
                    group=int(group))
    kind = type(b2shape)
    if kind is b2EdgeShape:
        v1, v2 = b2shape._vertices
        p1, p2 = _validate.vec2(v1, "p1"), _validate.vec2(v2, "p2")
        geom = None if built else geometry.segment_ends(p1, p2)
        if geom is None:
            geom = geometry.make_segment(p1, p2)
        return "segment", geom, _parsed(material), "p1 and p2"
    if kind is b2PolygonShape:
        if not b2shape._vertices:
            raise ValueError("the polygonShape has no vertices")
        return "polygon", _polygon_geometry(b2shape._vertices), _parsed(material), "vertices"
    if kind is b2CircleShape:
        radius = b2shape.radius
        if radius == 0.0:
            # Box2D 2.3 takes a circle of radius 0: a massless point that touches the 1 cm
            # skin (b2_polygonRadius) of polygons and edges. impulse2d has no point shape and
            # its polygons and edges are sharp: a massless circle of that skin's radius touches
            # them where Box2D's point touches theirs (against a circle it reaches 1 cm
            # farther than Box2D's point).
            radius = POINT_RADIUS
            material["density"] = 0.0
        geom = geometry.make_circle(_validate.vec2(tuple(b2shape._pos), "center"),
                                    _validate.size(radius, "radius"))
        return "circle", geom, _parsed(material), "radius"
    raise TypeError(f"shape must be a polygonShape, circleShape or edgeShape, got "
                    f"{type(b2shape).__name__}")

