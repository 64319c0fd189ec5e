"""pybox2d's small value types: ``b2Vec2`` (mutable, with its arithmetic), ``b2Rot`` and
``b2Transform`` (``transform * vector``), and Box2D's ``b2Vec3``, ``b2Mat22`` and ``b2Mat33``
(with Box2D 2.3's ``Solve``/``GetInverse``), in double precision (pybox2d stores float32)."""

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

    def Set(self, x, y):  # noqa: N802
        self.x, self.y = float(x), float(y)

    def SetZero(self):  # noqa: N802
        self.x = self.y = 0.0


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

    def SetIdentity(self):  # noqa: N802
        self.s, self.c = 0.0, 1.0

    def GetXAxis(self):  # noqa: N802
        return b2Vec2(self.c, self.s)

    def GetYAxis(self):  # noqa: N802
        return b2Vec2(-self.s, self.c)

    x_axis = property(GetXAxis)
    y_axis = property(GetYAxis)


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

    def SetIdentity(self):  # noqa: N802
        """Box2D's ``b2Transform::SetIdentity``: the origin, no rotation."""
        self.position = b2Vec2(0.0, 0.0)
        self.q = b2Rot(0.0)

    def Set(self, position, angle):  # noqa: N802
        """Box2D's ``b2Transform::Set``: this position and rotation angle (rad)."""
        self.position = b2Vec2(*vec_tuple(position, "position"))
        self.q = b2Rot(float(angle))

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


class _Triple:
    """A mutable 3-sequence of floats named by ``__slots__`` (``b2Vec3``'s x, y, z and
    ``b2Color``'s r, g, b): made from three numbers, one 3-sequence or nothing (missing
    components 0); indexable, iterable, comparable with any 3-sequence; ``+``/``-`` with a
    3-sequence, ``*``/``/`` by a number, each giving a new object of the same class."""

    __slots__ = ()
    __hash__ = None  # mutable, as pybox2d's

    def __init__(self, a=0.0, b=None, c=None):
        if b is None and c is None and not isinstance(a, (int, float)):
            a, b, c = a  # from a 3-sequence or another of the class
        self.Set(a, 0.0 if b is None else b, 0.0 if c is None else c)

    def Set(self, a, b, c):  # noqa: N802
        for name, value in zip(self.__slots__, (a, b, c)):
            setattr(self, name, float(value))

    def __iter__(self):
        return (getattr(self, name) for name in self.__slots__)

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return tuple(self)[i]

    def __setitem__(self, i, value):
        setattr(self, self.__slots__[i], float(value))

    def __eq__(self, other):
        try:
            return len(other) == 3 and tuple(self) == tuple(other)
        except TypeError:
            return NotImplemented

    def __add__(self, o):
        return type(self)(*(u + v for u, v in zip(self, o)))

    def __sub__(self, o):
        return type(self)(*(u - v for u, v in zip(self, o)))

    def __mul__(self, k):
        return type(self)(*(u * k for u in self))

    __rmul__ = __mul__

    def __truediv__(self, k):
        return type(self)(*(u / k for u in self))

    def __repr__(self):
        return f"{type(self).__name__}({','.join(format(u, 'g') for u in self)})"


class b2Vec3(_Triple):  # noqa: N801
    """Box2D's 3-vector (``b2Mat33.Solve33``'s argument and result): mutable, a 3-sequence."""

    __slots__ = ("x", "y", "z")

    __radd__ = _Triple.__add__

    def __rsub__(self, o):
        return b2Vec3(o[0] - self.x, o[1] - self.y, o[2] - self.z)

    def __neg__(self):
        return b2Vec3(-self.x, -self.y, -self.z)

    def __abs__(self):
        return math.sqrt(self.x * self.x + self.y * self.y + self.z * self.z)

    length = property(__abs__)

    def dot(self, o):
        return self.x * o[0] + self.y * o[1] + self.z * o[2]

    def cross(self, o):
        x, y, z = self.x, self.y, self.z
        return b2Vec3(y * o[2] - z * o[1], z * o[0] - x * o[2], x * o[1] - y * o[0])

    def SetZero(self):  # noqa: N802
        self.x = self.y = self.z = 0.0

    @property
    def lengthSquared(self):  # noqa: N802
        return self.x * self.x + self.y * self.y + self.z * self.z

    @property
    def valid(self):
        return math.isfinite(self.x) and math.isfinite(self.y) and math.isfinite(self.z)

    def copy(self):
        return b2Vec3(self.x, self.y, self.z)

    @property
    def tuple(self):
        return (self.x, self.y, self.z)


class b2Mat22:  # noqa: N801
    """Box2D's 2x2 matrix, stored by columns ``col1``, ``col2`` (``ex``, ``ey`` in Box2D 2.3).

    ``b2Mat22()`` is zero, ``b2Mat22(a11, a12, a21, a22)`` by rows (Box2D's constructor),
    ``b2Mat22(col1, col2)`` by columns. ``Solve(b)`` solves ``A x = b`` by Cramer's rule and
    ``GetInverse()`` inverts; a singular matrix gives 0 where Box2D divides by a zero
    determinant (Box2D: ``if (det != 0) det = 1 / det``)."""

    __slots__ = ("col1", "col2")

    def __init__(self, *args):
        if len(args) == 4:
            a11, a12, a21, a22 = (float(v) for v in args)
            self.col1 = b2Vec2(a11, a21)
            self.col2 = b2Vec2(a12, a22)
        elif len(args) == 2:
            self.col1 = b2Vec2(*vec_tuple(args[0], "col1"))
            self.col2 = b2Vec2(*vec_tuple(args[1], "col2"))
        elif not args:
            self.col1 = b2Vec2(0.0, 0.0)
            self.col2 = b2Vec2(0.0, 0.0)
        else:
            raise TypeError("b2Mat22 takes (), (col1, col2) or (a11, a12, a21, a22)")

    ex = property(lambda self: self.col1, lambda self, v: setattr(self, "col1", b2Vec2(v)))
    ey = property(lambda self: self.col2, lambda self, v: setattr(self, "col2", b2Vec2(v)))

    def __repr__(self):
        return f"b2Mat22(col1={self.col1!r}, col2={self.col2!r})"

    def __eq__(self, other):
        if not isinstance(other, b2Mat22):
            return NotImplemented
        return self.col1 == other.col1 and self.col2 == other.col2

    __hash__ = None

    def Set(self, col1, col2):  # noqa: N802
        self.col1 = b2Vec2(*vec_tuple(col1, "col1"))
        self.col2 = b2Vec2(*vec_tuple(col2, "col2"))

    def SetIdentity(self):  # noqa: N802
        self.col1 = b2Vec2(1.0, 0.0)
        self.col2 = b2Vec2(0.0, 1.0)

    def SetZero(self):  # noqa: N802
        self.col1 = b2Vec2(0.0, 0.0)
        self.col2 = b2Vec2(0.0, 0.0)

    def _det_inv(self):
        a, b = self.col1.x, self.col2.x
        c, d = self.col1.y, self.col2.y
        det = a * d - b * c
        return a, b, c, d, (1.0 / det if det != 0.0 else 0.0)

    def GetInverse(self):  # noqa: N802
        a, b, c, d, k = self._det_inv()
        return b2Mat22(k * d, -k * b, -k * c, k * a)

    def Solve(self, b):  # noqa: N802
        """``x`` with ``A x = b`` (Box2D: cheaper than the inverse, same result)."""
        a11, a12, a21, a22, k = self._det_inv()
        bx, by = b[0], b[1]
        return b2Vec2(k * (a22 * bx - a12 * by), k * (a11 * by - a21 * bx))

    @property
    def inverse(self):
        return self.GetInverse()

    @property
    def angle(self):
        """The angle of a rotation matrix (pybox2d's ``b2Mat22.angle``)."""
        return math.atan2(self.col1.y, self.col1.x)

    def __mul__(self, o):
        if isinstance(o, b2Mat22):  # the product A B, column by column
            return b2Mat22(self * o.col1, self * o.col2)
        x, y = o[0], o[1]
        return b2Vec2(self.col1.x * x + self.col2.x * y, self.col1.y * x + self.col2.y * y)

    def __add__(self, o):
        return b2Mat22(self.col1 + o.col1, self.col2 + o.col2)

    def __sub__(self, o):
        return b2Mat22(self.col1 - o.col1, self.col2 - o.col2)

    def set(self, *args):
        """pybox2d's ``set``: ``set(angle)`` (a rotation matrix) or ``set(col1, col2)``."""
        if len(args) == 1:
            c, s = math.cos(float(args[0])), math.sin(float(args[0]))
            self.col1, self.col2 = b2Vec2(c, s), b2Vec2(-s, c)
        elif len(args) == 2:
            self.col1 = b2Vec2(*vec_tuple(args[0], "col1"))
            self.col2 = b2Vec2(*vec_tuple(args[1], "col2"))
        else:
            raise TypeError(f"set takes an angle or two columns, got {len(args)} arguments")


class b2Mat33:  # noqa: N801
    """Box2D's 3x3 matrix by columns ``col1``, ``col2``, ``col3`` (``ex``, ``ey``, ``ez``).
    ``Solve33`` and ``Solve22`` (the upper-left 2x2 block) by Cramer's rule, singular giving 0
    as in Box2D; ``GetInverse22`` and ``GetSymInverse33`` as Box2D 2.3 defines them."""

    __slots__ = ("col1", "col2", "col3")

    def __init__(self, col1=(0.0, 0.0, 0.0), col2=(0.0, 0.0, 0.0), col3=(0.0, 0.0, 0.0)):
        self.col1 = b2Vec3(col1)
        self.col2 = b2Vec3(col2)
        self.col3 = b2Vec3(col3)

    ex = property(lambda self: self.col1, lambda self, v: setattr(self, "col1", b2Vec3(v)))
    ey = property(lambda self: self.col2, lambda self, v: setattr(self, "col2", b2Vec3(v)))
    ez = property(lambda self: self.col3, lambda self, v: setattr(self, "col3", b2Vec3(v)))

    def __repr__(self):
        return f"b2Mat33(col1={self.col1!r}, col2={self.col2!r}, col3={self.col3!r})"

    __hash__ = None

    def __eq__(self, other):
        if not isinstance(other, b2Mat33):
            return NotImplemented
        return (self.col1 == other.col1 and self.col2 == other.col2
                and self.col3 == other.col3)

    def SetZero(self):  # noqa: N802
        self.col1, self.col2, self.col3 = b2Vec3(), b2Vec3(), b2Vec3()

    def __mul__(self, v):
        x, y, z = v[0], v[1], v[2]
        return self.col1 * x + self.col2 * y + self.col3 * z

    def __add__(self, o):
        return b2Mat33(self.col1 + o.col1, self.col2 + o.col2, self.col3 + o.col3)

    def __sub__(self, o):
        return b2Mat33(self.col1 - o.col1, self.col2 - o.col2, self.col3 - o.col3)

    def Solve33(self, b):  # noqa: N802
        """``x`` with ``A x = b`` (Cramer's rule, as Box2D's ``b2Mat33::Solve33``)."""
        ex, ey, ez = self.col1, self.col2, self.col3
        det = ex.dot(ey.cross(ez))
        if det != 0.0:
            det = 1.0 / det
        b = b2Vec3(b)
        return b2Vec3(det * b.dot(ey.cross(ez)), det * ex.dot(b.cross(ez)),
                      det * ex.dot(ey.cross(b)))

    def Solve22(self, b):  # noqa: N802
        """``x`` with ``A22 x = b`` for the upper-left 2x2 block (Box2D's ``Solve22``)."""
        a11, a12, a21, a22 = self.col1.x, self.col2.x, self.col1.y, self.col2.y
        det = a11 * a22 - a12 * a21
        if det != 0.0:
            det = 1.0 / det
        return b2Vec2(det * (a22 * b[0] - a12 * b[1]), det * (a11 * b[1] - a21 * b[0]))

    def GetInverse22(self, M=None):  # noqa: N802, N803
        """The inverse of the upper-left 2x2 block as a b2Mat33 (the rest zero); written into
        ``M`` when given (Box2D's out parameter)."""
        a, b, c, d = self.col1.x, self.col2.x, self.col1.y, self.col2.y
        det = a * d - b * c
        if det != 0.0:
            det = 1.0 / det
        out = b2Mat33((det * d, -det * c, 0.0), (-det * b, det * a, 0.0), (0.0, 0.0, 0.0))
        if M is not None:
            M.col1, M.col2, M.col3 = out.col1, out.col2, out.col3
        return out

    def GetSymInverse33(self, M=None):  # noqa: N802, N803
        """The inverse of a symmetric matrix (Box2D reads only the upper triangle); written
        into ``M`` when given."""
        ex, ey, ez = self.col1, self.col2, self.col3
        det = ex.dot(ey.cross(ez))
        if det != 0.0:
            det = 1.0 / det
        a11, a12, a13 = ex.x, ey.x, ez.x
        a22, a23 = ey.y, ez.y
        a33 = ez.z
        m11 = det * (a22 * a33 - a23 * a23)
        m12 = det * (a13 * a23 - a12 * a33)
        m13 = det * (a12 * a23 - a13 * a22)
        m22 = det * (a11 * a33 - a13 * a13)
        m23 = det * (a13 * a12 - a11 * a23)
        m33 = det * (a11 * a22 - a12 * a12)
        out = b2Mat33((m11, m12, m13), (m12, m22, m23), (m13, m23, m33))
        if M is not None:
            M.col1, M.col2, M.col3 = out.col1, out.col2, out.col3
        return out
