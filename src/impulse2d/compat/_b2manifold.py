"""Box2D 2.3's ``b2Manifold`` and ``b2WorldManifold``, for both the collide functions
(:mod:`._b2collide` fills them) and the contacts the world's callbacks receive.

A manifold is Box2D's compact form: ``type`` (``e_circles``, ``e_faceA``, ``e_faceB``),
``localNormal`` and ``localPoint`` in the reference shape's frame, and ``points``
(``b2ManifoldPoint``: ``localPoint`` in the other shape's frame, for ``e_circles`` B's centre;
``normalImpulse``, ``tangentImpulse``, ``id``), with ``pointCount``. ``normal`` (the world
normal from A to B) is the layer's own field. ``b2Manifold()`` is empty (pybox2d's), for a
collide function to fill.

A contact's manifold (``contact.manifold``, PreSolve's ``oldManifold``) is built from
impulse2d's contact: the reference face is always A's (``e_faceA``; ``e_circles`` for two
circles), ``localPoint`` is A's first manifold point in A's frame, each point's
``localPoint`` is its world point (halfway between the surfaces) in B's frame, and its ``id``
is impulse2d's feature id, stable while the same features touch (``b2GetPointStates`` matches
by it). ``b2WorldManifold.Initialize`` turns either form back into world points as Box2D 2.3's
does.
"""

from __future__ import annotations

from ._b2math import b2Transform, b2Vec2, vec_tuple
from ._b2points import b2ContactID, b2ManifoldPoint

_EPSILON = 2.0 ** -23  # FLT_EPSILON, Box2D's b2_epsilon


class b2Manifold:  # noqa: N801
    """Box2D 2.3's manifold (the module docstring). ``b2Manifold()``: empty."""

    __slots__ = ("pointCount", "points", "normal", "type", "localPoint", "_local_normal")
    e_circles, e_faceA, e_faceB = 0, 1, 2  # Box2D's b2Manifold::Type

    def __init__(self, points=(), normal=(0.0, 0.0)):
        self.points = list(points)
        self.pointCount = len(self.points)
        self.normal = b2Vec2(*vec_tuple(normal, "normal"))
        self.type = self.e_circles
        self.localPoint = b2Vec2(0.0, 0.0)
        self._local_normal = b2Vec2(0.0, 0.0)

    @property
    def localNormal(self):  # noqa: N802
        return self._local_normal

    @localNormal.setter
    def localNormal(self, value):  # noqa: N802
        self._local_normal = b2Vec2(*vec_tuple(value, "localNormal"))

    # pybox2d's alias of ``type`` (the SWIG name for the C++ field)
    type_ = property(lambda self: self.type, lambda self, v: setattr(self, "type", int(v)))

    def __repr__(self):
        return (f"b2Manifold(type={self.type}, pointCount={self.pointCount}, "
                f"localNormal={self._local_normal!r}, localPoint={self.localPoint!r})")


def contact_manifold(fixture_a, fixture_b, normal, points, ids=()) -> b2Manifold:
    """The manifold of a contact between two fixtures (the module docstring): ``normal``
    (world, A to B; None when not touching), ``points`` (world) and their feature ``ids``."""
    if normal is None:
        return b2Manifold()
    m = b2Manifold((), normal)
    if not points:
        return m
    body_a, body_b = fixture_a.body, fixture_b.body
    if _is_circle(fixture_a.shape) and _is_circle(fixture_b.shape):
        m.type = b2Manifold.e_circles
        m.localPoint = b2Vec2(*fixture_a.shape.pos)
        locals_b = [b2Vec2(*fixture_b.shape.pos)] * len(points)
    else:
        m.type = b2Manifold.e_faceA
        m._local_normal = body_a.GetLocalVector(normal)
        m.localPoint = body_a.GetLocalPoint(points[0])
        locals_b = [body_b.GetLocalPoint(p) for p in points]
    ids = list(ids) + [0] * (len(points) - len(ids))
    m.points = [b2ManifoldPoint(localPoint=lp, id=b2ContactID(key=int(k)))
                for lp, k in zip(locals_b, ids)]
    m.pointCount = len(m.points)
    return m


class LazyManifold(b2Manifold):
    """A contact's manifold made only when the program reads it: PreSolve's ``oldManifold``
    (most listeners never look at it, and building one costs more than the call). ``raw`` is
    :func:`contact_manifold`'s arguments, or None for an empty manifold. Each field of
    ``b2Manifold`` is unset until the first read, which fills them all (the local points from
    the bodies' poses then: the feature ids, which ``b2GetPointStates`` matches, are the
    step's)."""

    __slots__ = ("_raw",)

    def __init__(self, raw=None):  # (b2Manifold's fields stay unset: see __getattr__)
        self._raw = raw

    def __getattr__(self, name):
        # called only for an unset field: fill every field from the raw contact, once
        if name in b2Manifold.__slots__:
            raw = self._raw
            built = contact_manifold(*raw) if raw is not None else b2Manifold()
            for field in b2Manifold.__slots__:
                setattr(self, field, getattr(built, field))
            return getattr(self, name)
        raise AttributeError(f"'b2Manifold' object has no attribute {name!r}")


def _is_circle(shape) -> bool:
    return type(shape).__name__ == "b2CircleShape"


class b2WorldManifold:  # noqa: N801
    """A manifold in world coordinates: ``normal`` (A to B) and ``points``. Made by
    ``contact.worldManifold`` or ``b2WorldManifold()`` and :meth:`Initialize`."""

    __slots__ = ("normal", "points")

    def __init__(self, normal=(0.0, 0.0), points=()):
        self.normal = b2Vec2(*vec_tuple(normal, "normal"))
        self.points = list(points)

    def Initialize(self, manifold, xfA, radiusA, xfB, radiusB):  # noqa: N802, N803
        """Box2D 2.3's ``b2WorldManifold::Initialize``: the world normal and, for each
        point, the middle of the two surfaces (each shape's ``radius`` out from its core)."""
        if not isinstance(manifold, b2Manifold):
            raise TypeError(f"manifold must be a b2Manifold, got {type(manifold).__name__}")
        for name, xf in (("xfA", xfA), ("xfB", xfB)):
            if not isinstance(xf, b2Transform):
                raise TypeError(f"{name} must be a b2Transform, got {type(xf).__name__}")
        ra, rb = float(radiusA), float(radiusB)
        self.points = []
        if manifold.pointCount == 0:
            self.normal = b2Vec2(0.0, 0.0)
            return
        if manifold.type == b2Manifold.e_circles:
            pa = xfA * manifold.localPoint
            pb = xfB * manifold.points[0].localPoint
            d = pb - pa
            n = d / d.length if d.lengthSquared > _EPSILON * _EPSILON else b2Vec2(1.0, 0.0)
            ca, cb = pa + ra * n, pb - rb * n
            self.normal = n
            self.points = [0.5 * (ca + cb)]
            return
        face_a = manifold.type == b2Manifold.e_faceA
        ref, other = (xfA, xfB) if face_a else (xfB, xfA)
        r_ref, r_other = (ra, rb) if face_a else (rb, ra)
        n = ref.R * manifold.localNormal
        plane = ref * manifold.localPoint
        for p in manifold.points[:manifold.pointCount]:
            clip = other * p.localPoint
            on_ref = clip + (r_ref - (clip - plane).dot(n)) * n
            on_other = clip - r_other * n
            self.points.append(0.5 * (on_ref + on_other))
        self.normal = n if face_a else -n

    def __repr__(self):
        return f"b2WorldManifold(normal={self.normal!r}, points={self.points!r})"

