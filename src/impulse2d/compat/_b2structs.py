"""Box2D 2.3's input structures of the distance and time-of-impact functions:
``b2DistanceProxy`` (a shape's child as the functions see it), ``b2DistanceInput`` for
``b2Distance(input)`` and ``b2TOIInput`` for ``b2TimeOfImpact(input)`` (pybox2d's first call
form; the keyword form is :mod:`._b2collide`'s)."""

from __future__ import annotations

from ._b2math import b2Transform, b2Vec2


class b2DistanceProxy:  # noqa: N801
    """A convex child of a shape: ``b2DistanceProxy(shape, index=0)`` (a chain's edge
    ``index``). ``vertices`` are Box2D 2.3's (a circle's centre, a polygon's or an edge's
    corners, in the shape's frame) and ``radius`` its (the circle's, else the 1 cm skin,
    ``b2_polygonRadius``); ``GetSupport(d)`` is the index of the vertex farthest along ``d``."""

    __slots__ = ("shape", "index")

    def __init__(self, shape=None, index=0):
        self.shape = None
        self.index = 0
        if shape is not None:
            self.Set(shape, index)

    def Set(self, shape, index=0):  # noqa: N802
        from ._b2collide import _child
        _child(shape, index)  # TypeError / ValueError for a shape or index the functions refuse
        self.shape = shape
        self.index = int(index)

    def _child(self):
        if self.shape is None:
            raise ValueError("the b2DistanceProxy has no shape (Set(shape, index) first)")
        from ._b2collide import _child
        return _child(self.shape, self.index)

    @property
    def vertices(self):
        child = self._child()
        if type(child).__name__ == "b2CircleShape":
            return [b2Vec2(*child.pos)]
        return [b2Vec2(*v) for v in child.vertices]

    @property
    def radius(self):
        from ._b2collide import _skin
        child = self._child()
        return child.radius if type(child).__name__ == "b2CircleShape" else _skin(child)

    def GetSupport(self, d):  # noqa: N802
        dx, dy = float(d[0]), float(d[1])
        dots = [v.x * dx + v.y * dy for v in self.vertices]
        return max(range(len(dots)), key=dots.__getitem__)

    def GetSupportVertex(self, d):  # noqa: N802
        return self.vertices[self.GetSupport(d)]


class b2DistanceInput:  # noqa: N801
    """``proxyA``, ``proxyB`` (``b2DistanceProxy``), ``transformA``, ``transformB``
    (``b2Transform``; the identity by default) and ``useRadii`` (False by default, Box2D's
    uninitialised C++ struct has no default: pybox2d's is False)."""

    __slots__ = ("proxyA", "proxyB", "transformA", "transformB", "useRadii")

    def __init__(self, proxyA=None, proxyB=None, transformA=None, transformB=None,  # noqa: N803
                 useRadii=False):  # noqa: N803
        self.proxyA = proxyA if proxyA is not None else b2DistanceProxy()
        self.proxyB = proxyB if proxyB is not None else b2DistanceProxy()
        self.transformA = transformA if transformA is not None else b2Transform()
        self.transformB = transformB if transformB is not None else b2Transform()
        self.useRadii = bool(useRadii)


class b2TOIInput:  # noqa: N801
    """``proxyA``, ``proxyB`` (``b2DistanceProxy``), ``sweepA``, ``sweepB`` (``b2Sweep``) and
    ``tMax`` (the fraction of the sweeps to search, 1 by default)."""

    __slots__ = ("proxyA", "proxyB", "sweepA", "sweepB", "tMax")

    def __init__(self, proxyA=None, proxyB=None, sweepA=None, sweepB=None, tMax=1.0):  # noqa: N803
        from ._b2collide import b2Sweep
        self.proxyA = proxyA if proxyA is not None else b2DistanceProxy()
        self.proxyB = proxyB if proxyB is not None else b2DistanceProxy()
        self.sweepA = sweepA if sweepA is not None else b2Sweep()
        self.sweepB = sweepB if sweepB is not None else b2Sweep()
        self.tMax = float(tMax)


def _proxy(p, name):
    if not isinstance(p, b2DistanceProxy):
        raise TypeError(f"{name} must be a b2DistanceProxy, got {type(p).__name__}")
    p._child()
    return p.shape, p.index


class b2Profile:  # noqa: N801
    """Box2D 2.3's step profile, ms: ``step``, ``collide``, ``solve``, ``solveInit``,
    ``solveVelocity``, ``solvePosition``, ``broadphase``, ``solveTOI``. From impulse2d's
    stages (:meth:`of`): broadphase = pairs, solveInit = prepare, solveVelocity = the
    solver's sweeps with its position sweeps (impulse2d times them together; solvePosition
    reads 0), solve = prepare + solve + finalize, solveTOI = continuous."""

    __slots__ = ("step", "collide", "solve", "solveInit", "solveVelocity", "solvePosition",
                 "broadphase", "solveTOI")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, float(fields.pop(name, 0.0)))
        if fields:
            raise TypeError(f"b2Profile has no field {sorted(fields)[0]!r}")

    @classmethod
    def of(cls, profile):
        ms = 1000.0
        return cls(step=profile.step * ms, collide=profile.collide * ms,
                   solve=(profile.prepare + profile.solve + profile.finalize) * ms,
                   solveInit=profile.prepare * ms, solveVelocity=profile.solve * ms,
                   broadphase=profile.pairs * ms, solveTOI=profile.continuous * ms)
