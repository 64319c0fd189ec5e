"""pybox2d's small value types: ``b2Vec2`` (mutable, with its arithmetic), ``b2Rot`` and
``b2Transform`` (``transform * vector``), in double precision (pybox2d stores float32)."""

from __future__ import annotations

import math


class b2Vec2:  # noqa: N801  (pybox2d's name)
    """A mutable 2D vector that also behaves as a 2-sequence (``x, y = v``, ``v[0]``)."""

    __slots__ = ("x", "y")
    __hash__ = None  # mutable, as pybox2d's

    def __init__(self, x=0.0, y=None):
        if y is not None:
            self.x = float(x)
            self.y = float(y)
            return
        if not isinstance(x, (int, float)):
            x, y = x  # b2Vec2((1, 2)) and b2Vec2(other)
        self.x = float(x)
        self.y = 0.0 if y is None else float(y)

    def __iter__(self):
        yield self.x
        yield self.y

    def __len__(self):
        return 2

    def __getitem__(self, i):
        if i == 0:  # the common reads first: programs index vectors on every step
            return self.x
        if i == 1:
            return self.y
        return (self.x, self.y)[i]

    def __setitem__(self, i, value):
        if i in (0, -2):
            self.x = float(value)
        elif i in (1, -1):
            self.y = float(value)
        else:
            raise IndexError(i)

    def __repr__(self):
        return f"b2Vec2({self.x:g},{self.y:g})"

    def __eq__(self, other):
        try:
            return len(other) == 2 and self.x == other[0] and self.y == other[1]
        except TypeError:
            return NotImplemented

    def __add__(self, o):
        return b2Vec2(self.x + o[0], self.y + o[1])

    __radd__ = __add__

    def __sub__(self, o):
        return b2Vec2(self.x - o[0], self.y - o[1])

    def __rsub__(self, o):
        return b2Vec2(o[0] - self.x, o[1] - self.y)

    def __mul__(self, k):
        return b2Vec2(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __truediv__(self, k):
        return b2Vec2(self.x / k, self.y / k)

    def __neg__(self):
        return b2Vec2(-self.x, -self.y)

    def __abs__(self):
        return math.hypot(self.x, self.y)

    def __iadd__(self, o):
        self.x += o[0]
        self.y += o[1]
        return self

    def __isub__(self, o):
        self.x -= o[0]
        self.y -= o[1]
        return self

    def __imul__(self, k):
        self.x *= k
        self.y *= k
        return self

    def cross(self, o):
        """z of the cross product with a vector, or the vector ``self x o`` for a scalar o."""
        if isinstance(o, (int, float)):
            return b2Vec2(o * self.y, -o * self.x)
        return self.x * o[1] - self.y * o[0]

    def dot(self, o):
        return self.x * o[0] + self.y * o[1]

    @property
    def length(self):
        return math.hypot(self.x, self.y)

    @property
    def lengthSquared(self):  # noqa: N802
        return self.x * self.x + self.y * self.y

    def Normalize(self):  # noqa: N802
        """Make unit length in place; returns the old length (0 leaves the vector)."""
        n = math.hypot(self.x, self.y)
        if n > 1e-15:
            self.x /= n
            self.y /= n
        return n

    def copy(self):
        return b2Vec2(self.x, self.y)

    @property
    def tuple(self):
        return (self.x, self.y)

    @property
    def valid(self):
        return math.isfinite(self.x) and math.isfinite(self.y)

    @property
    def skew(self):
        return b2Vec2(-self.y, self.x)


class b2Rot:  # noqa: N801
    """A rotation: sine ``s`` and cosine ``c`` of ``angle``."""

    __slots__ = ("s", "c")

    def __init__(self, angle=0.0):
        self.s = math.sin(angle)
        self.c = math.cos(angle)

    @property
    def angle(self):
        return math.atan2(self.s, self.c)

    @angle.setter
    def angle(self, value):
        self.s = math.sin(value)
        self.c = math.cos(value)

    def __mul__(self, v):
        c, s = self.c, self.s
        return b2Vec2(c * v[0] - s * v[1], s * v[0] + c * v[1])


class b2Transform:  # noqa: N801
    """A frame: ``position`` and rotation ``q``; ``transform * v`` maps a body point to the
    world."""

    __slots__ = ("position", "q")

    def __init__(self, position=(0.0, 0.0), angle=0.0):
        self.position = b2Vec2(position[0], position[1])
        self.q = b2Rot(angle)

    @property
    def angle(self):
        return self.q.angle

    @property
    def R(self):  # noqa: N802  (pybox2d: the rotation matrix; here the b2Rot)
        return self.q

    def __mul__(self, v):
        c, s = self.q.c, self.q.s
        x, y = v[0], v[1]
        p = self.position
        return b2Vec2(c * x - s * y + p.x, s * x + c * y + p.y)


_new = object.__new__


def vec(x: float, y: float) -> b2Vec2:
    """A ``b2Vec2`` of two floats, without ``__init__``'s conversions (the layer's hot paths,
    which read floats from the stores: about half the cost of ``b2Vec2(x, y)``)."""
    v = _new(b2Vec2)
    v.x = x
    v.y = y
    return v


def vec_tuple(value, name: str) -> tuple[float, float]:
    """A 2-sequence as a tuple of floats (the engine validates the values)."""
    try:
        x, y = value
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 2-sequence (x, y), got {value!r}") from None
    return float(x), float(y)
