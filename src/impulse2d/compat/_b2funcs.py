"""Box2D 2.3's free math functions and its settings constants, as pybox2d exposes them
(``b2Dot``, ``b2Cross``, ``b2Mul``, ``b2MulT``..., ``b2_maxTranslation``...).

The constants are Box2D 2.3's ``b2Settings.h`` values (pybox2d shows them as float32; here
exact doubles). They describe Box2D's solver; impulse2d's own tolerances live in
``impulse2d.constants`` and are not changed by these. The functions work on the layer's math
types in double precision; ``b2InvSqrt`` is exact (Box2D's is a fast approximation)."""

from __future__ import annotations

import math

from ._b2math import b2Mat22, b2Mat33, b2Rot, b2Transform, b2Vec2, b2Vec3

# -- b2Settings.h (Box2D 2.3) ----------------------------------------------------------------
b2_aabbExtension = 0.1            # m: the broadphase's fat-box margin
b2_aabbMultiplier = 2.0           # fat boxes grow by this times the displacement
b2_angularSlop = 2.0 / 180.0 * math.pi
b2_maxSubSteps = 8
b2_maxTOIContacts = 32
b2_velocityThreshold = 1.0        # m/s: slower impacts are inelastic
b2_maxLinearCorrection = 0.2      # m per position sweep
b2_maxAngularCorrection = 8.0 / 180.0 * math.pi
b2_maxTranslation = 2.0           # m per step
b2_maxTranslationSquared = b2_maxTranslation * b2_maxTranslation
b2_maxRotation = 0.5 * math.pi    # rad per step
b2_maxRotationSquared = b2_maxRotation * b2_maxRotation
b2_baumgarte = 0.2
b2_toiBaugarte = 0.75
b2_timeToSleep = 0.5              # s
b2_linearSleepTolerance = 0.01    # m/s
b2_angularSleepTolerance = 2.0 / 180.0 * math.pi  # rad/s
b2_minPulleyLength = 2.0          # m
b2_nullFeature = 255              # UCHAR_MAX: no feature
RAND_LIMIT = 32767                # the testbed's RandomFloat range
e_wheelJoint, e_ropeJoint = 7, 10  # pybox2d's two b2JointType values at the top level
e_convertVertices = 0x1000         # b2DrawExtended's flag bit (convertVertices)


class b2Version:  # noqa: N801
    """Box2D's version record: ``major``, ``minor``, ``revision`` (zero unless given, as
    pybox2d's struct; the API this layer follows is ``b2_version`` = "2.3.10")."""

    __slots__ = ("major", "minor", "revision")

    def __init__(self, major=0, minor=0, revision=0):
        self.major, self.minor, self.revision = int(major), int(minor), int(revision)


def _vec(v):
    return b2Vec2(float(v[0]), float(v[1]))


def b2Dot(a, b):  # noqa: N802
    """a . b of two 2- or two 3-vectors."""
    if isinstance(a, b2Vec3) or isinstance(b, b2Vec3):
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    return a[0] * b[0] + a[1] * b[1]


def b2Cross(a, b):  # noqa: N802
    """Box2D's cross products: vec x vec (a number in 2D, a b2Vec3 in 3D), vec x s and
    s x vec (vectors)."""
    if isinstance(a, (int, float)):
        return b2Vec2(-a * b[1], a * b[0])
    if isinstance(b, (int, float)):
        return b2Vec2(b * a[1], -b * a[0])
    if isinstance(a, b2Vec3) or isinstance(b, b2Vec3):
        return b2Vec3(a).cross(b)
    return a[0] * b[1] - a[1] * b[0]


def b2Mul(a, b):  # noqa: N802
    """Box2D's products: matrix x vector or matrix, rotation x vector or rotation, transform x
    point or transform, 3x3 matrix x 3-vector."""
    if isinstance(a, b2Transform):
        if isinstance(b, b2Transform):
            q = b2Mul(a.q, b.q)
            out = b2Transform(a * b.position)
            out.q = q
            return out
        return a * _vec(b)
    if isinstance(a, b2Rot):
        if isinstance(b, b2Rot):   # q r: the angle of q plus that of r
            out = b2Rot()
            out.s, out.c = a.s * b.c + a.c * b.s, a.c * b.c - a.s * b.s
            return out
        return a * _vec(b)
    if isinstance(a, b2Mat33):
        return a * b2Vec3(b)
    if isinstance(a, b2Mat22):
        if isinstance(b, b2Mat22):
            return b2Mat22(a * b.col1, a * b.col2)
        return a * _vec(b)
    raise TypeError(f"b2Mul takes a b2Mat22, b2Mat33, b2Rot or b2Transform first, got "
                    f"{type(a).__name__}")


def b2MulT(a, b):  # noqa: N802
    """The transposed (inverse for rotations and transforms) products: world to local."""
    if isinstance(a, b2Transform):
        if isinstance(b, b2Transform):   # A^-1 B
            q = b2MulT(a.q, b.q)
            out = b2Transform(b2MulT(a.q, b.position - a.position))
            out.q = q
            return out
        return b2MulT(a.q, _vec(b) - a.position)
    if isinstance(a, b2Rot):
        if isinstance(b, b2Rot):
            out = b2Rot()
            out.s, out.c = a.c * b.s - a.s * b.c, a.c * b.c + a.s * b.s
            return out
        v = _vec(b)
        return b2Vec2(a.c * v.x + a.s * v.y, -a.s * v.x + a.c * v.y)
    if isinstance(a, b2Mat22):
        if isinstance(b, b2Mat22):
            c1, c2 = a.col1, a.col2
            return b2Mat22(b2Vec2(c1.dot(b.col1), c2.dot(b.col1)),
                           b2Vec2(c1.dot(b.col2), c2.dot(b.col2)))
        v = _vec(b)
        return b2Vec2(a.col1.dot(v), a.col2.dot(v))
    raise TypeError(f"b2MulT takes a b2Mat22, b2Rot or b2Transform first, got "
                    f"{type(a).__name__}")


def b2Mul22(a, v):  # noqa: N802
    """The upper-left 2x2 block of a b2Mat33 times a 2-vector."""
    return b2Vec2(a.col1.x * v[0] + a.col2.x * v[1], a.col1.y * v[0] + a.col2.y * v[1])


def b2Abs(a):  # noqa: N802
    """Component-wise absolute value of a b2Vec2 or b2Mat22."""
    if isinstance(a, b2Mat22):
        return b2Mat22(b2Abs(a.col1), b2Abs(a.col2))
    return b2Vec2(abs(a[0]), abs(a[1]))


def b2Min(a, b):  # noqa: N802
    return b2Vec2(min(a[0], b[0]), min(a[1], b[1]))


def b2Max(a, b):  # noqa: N802
    return b2Vec2(max(a[0], b[0]), max(a[1], b[1]))


def b2Clamp(a, low, high):  # noqa: N802
    """``a`` clamped component-wise to [low, high]."""
    return b2Max(low, b2Min(a, high))


def b2DistanceSquared(a, b):  # noqa: N802
    dx, dy = a[0] - b[0], a[1] - b[1]
    return dx * dx + dy * dy


def b2InvSqrt(x):  # noqa: N802
    return 1.0 / math.sqrt(float(x))


def b2IsValid(x):  # noqa: N802
    """Whether ``x`` is a finite number (not NaN or infinite)."""
    return math.isfinite(float(x))


def b2NextPowerOfTwo(x):  # noqa: N802
    """The smallest power of two greater than ``x`` (Box2D's bit trick: 8 gives 16)."""
    x = int(x)
    return 1 << x.bit_length() if x > 0 else 1


def b2IsPowerOfTwo(x):  # noqa: N802
    x = int(x)
    return x > 0 and (x & (x - 1)) == 0


def b2MixFriction(friction1, friction2):  # noqa: N802
    """Box2D's friction mixing: sqrt(f1 f2)."""
    return math.sqrt(float(friction1) * float(friction2))


def b2MixRestitution(restitution1, restitution2):  # noqa: N802
    """Box2D's restitution mixing: the larger."""
    return max(float(restitution1), float(restitution2))


def b2CheckPolygon(shape, additional_checks=True):  # noqa: N802
    """Whether a b2PolygonShape is valid (convex, counter-clockwise, 3 to 8 vertices);
    ValueError otherwise, as pybox2d's."""
    return shape.valid
