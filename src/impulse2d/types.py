"""Small value types of the public API: vectors and enumerations."""

from __future__ import annotations

import math
from enum import IntEnum
from typing import NamedTuple

from ._collision import shape_types
from ._core import state


class Vec2(NamedTuple):
    """An immutable 2D vector (metres, m/s, N...). Unpacks like a tuple: ``x, y = body.position``."""

    x: float
    y: float

    def __add__(self, other) -> Vec2:  # type: ignore[override]  (vector sum, not tuple concat)
        return Vec2(self.x + other[0], self.y + other[1])

    def __radd__(self, other) -> Vec2:
        return Vec2(self.x + other[0], self.y + other[1])

    def __sub__(self, other) -> Vec2:
        return Vec2(self.x - other[0], self.y - other[1])

    def __rsub__(self, other) -> Vec2:
        return Vec2(other[0] - self.x, other[1] - self.y)

    def __mul__(self, k: float) -> Vec2:  # type: ignore[override]
        return Vec2(self.x * k, self.y * k)

    __rmul__ = __mul__

    def __truediv__(self, k: float) -> Vec2:
        return Vec2(self.x / k, self.y / k)

    def __neg__(self) -> Vec2:
        return Vec2(-self.x, -self.y)

    @property
    def length(self) -> float:
        return math.hypot(self.x, self.y)

    def dot(self, other) -> float:
        return self.x * other[0] + self.y * other[1]

    def cross(self, other) -> float:
        """z component of the 3D cross product (a scalar in 2D)."""
        return self.x * other[1] - self.y * other[0]


class BodyType(IntEnum):
    """How a body moves. Values follow Box2D."""

    STATIC = state.STATIC        #: never moves, infinite mass (ground, walls)
    KINEMATIC = state.KINEMATIC  #: moves at the velocity you set, pushes dynamic bodies, ignores forces
    DYNAMIC = state.DYNAMIC      #: moved by forces, gravity and contacts


class ShapeType(IntEnum):
    CIRCLE = shape_types.CIRCLE
    CAPSULE = shape_types.CAPSULE
    SEGMENT = shape_types.SEGMENT
    POLYGON = shape_types.POLYGON
    CHAIN_SEGMENT = shape_types.CHAIN_SEGMENT


class JointType(IntEnum):
    REVOLUTE = state.REVOLUTE
    DISTANCE = state.DISTANCE
    PRISMATIC = state.PRISMATIC
    WELD = state.WELD
    WHEEL = state.WHEEL
    MOUSE = state.MOUSE
    MOTOR = state.MOTOR
    PULLEY = state.PULLEY
    GEAR = state.GEAR


__all__ = ["Vec2", "BodyType", "ShapeType", "JointType"]
