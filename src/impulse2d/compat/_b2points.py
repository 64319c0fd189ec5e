"""Box2D 2.3's point states of two manifolds (``b2GetPointStates``), the manifold point and
contact id types they read, and ``b2Random`` (the testbed's random numbers).

A manifold point is identified by its feature id (``point.id.key``, Box2D's ``b2ContactID``:
the features of the two shapes that made it). ``b2GetPointStates(m1, m2)`` tells, for each
point of the old manifold ``m1``, whether it persists in ``m2`` or is removed, and for each
point of the new manifold ``m2`` whether it was added or persists; the unused slots of
Box2D's two are ``b2_nullState``.
"""

from __future__ import annotations

import random

from ._b2math import b2Vec2

b2_nullState, b2_addState, b2_persistState, b2_removeState = 0, 1, 2, 3  # Box2D's b2PointState
b2_maxManifoldPoints = 2


class b2ContactFeature:  # noqa: N801
    """The features that made a contact point (Box2D's ``b2ContactFeature``: ``indexA``,
    ``indexB``, ``typeA``, ``typeB``, 0 a vertex, 1 a face)."""

    __slots__ = ("indexA", "indexB", "typeA", "typeB")
    e_vertex, e_face = 0, 1  # Box2D's b2ContactFeature::Type

    def __init__(self, indexA=0, indexB=0, typeA=0, typeB=0):  # noqa: N803
        self.indexA, self.indexB = int(indexA), int(indexB)
        self.typeA, self.typeB = int(typeA), int(typeB)


class b2ContactID:  # noqa: N801
    """A contact point's id: ``cf`` (its features) and ``key``, Box2D's union of the four
    bytes as one 32-bit integer (little-endian: indexA in the low byte)."""

    __slots__ = ("cf",)

    def __init__(self, cf=None, key=None):
        self.cf = b2ContactFeature() if cf is None else cf
        if key is not None:
            self.key = key

    @property
    def key(self):
        cf = self.cf
        return ((cf.indexA & 0xFF) | (cf.indexB & 0xFF) << 8 | (cf.typeA & 0xFF) << 16
                | (cf.typeB & 0xFF) << 24)

    @key.setter
    def key(self, value):
        value = int(value)
        self.cf = b2ContactFeature(value & 0xFF, value >> 8 & 0xFF, value >> 16 & 0xFF,
                                   value >> 24 & 0xFF)


class b2ManifoldPoint:  # noqa: N801
    """A manifold point: ``localPoint``, ``normalImpulse``, ``tangentImpulse`` and ``id``."""

    __slots__ = ("localPoint", "normalImpulse", "tangentImpulse", "id")

    def __init__(self, localPoint=(0.0, 0.0), normalImpulse=0.0,  # noqa: N803
                 tangentImpulse=0.0, id=None):  # noqa: N803, A002  (Box2D's field name)
        self.localPoint = b2Vec2(localPoint)
        self.normalImpulse = float(normalImpulse)
        self.tangentImpulse = float(tangentImpulse)
        self.id = b2ContactID() if id is None else id


def _key(point) -> int:
    """A manifold point's feature key (``point.id.key``; an int id is taken as the key)."""
    pid = point.id
    return pid if isinstance(pid, int) else pid.key


def _points(manifold) -> list:
    points = list(manifold.points)
    return points[:getattr(manifold, "pointCount", len(points))]


def b2GetPointStates(manifold1, manifold2):  # noqa: N802
    """``(state1, state2)``: the states of the old manifold's points (persist or remove) and
    of the new one's (add or persist), matched by feature key, each a tuple of
    ``b2_maxManifoldPoints`` with ``b2_nullState`` in the unused slots (Box2D 2.3's
    ``b2GetPointStates``; pybox2d returns the two arrays)."""
    old, new = _points(manifold1), _points(manifold2)
    keys_old = [_key(p) for p in old]
    keys_new = [_key(p) for p in new]
    state1 = [b2_nullState] * b2_maxManifoldPoints
    state2 = [b2_nullState] * b2_maxManifoldPoints
    for i, k in enumerate(keys_old[:b2_maxManifoldPoints]):
        state1[i] = b2_persistState if k in keys_new else b2_removeState
    for i, k in enumerate(keys_new[:b2_maxManifoldPoints]):
        state2[i] = b2_persistState if k in keys_old else b2_addState
    return tuple(state1), tuple(state2)


def b2Random(lo=-1.0, hi=1.0):  # noqa: N802
    """A random float in ``[lo, hi]`` (the testbed's ``RandomFloat``; Python's generator, so
    ``random.seed`` makes it repeatable)."""
    return lo + (hi - lo) * random.random()
