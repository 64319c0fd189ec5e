"""Small value types of the public API: vectors and enumerations."""

from __future__ import annotations

import math
import numbers
from enum import Enum
from typing import NamedTuple

import numpy as np

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


class _CodedEnum(str, Enum):
    """A public enumeration whose members are their lower-case names as strings (so
    ``body.type == "static"`` and ``print(body.type)`` shows ``static``, as users write them),
    each carrying the integer ``code`` the kernels store in their columns.

    ``Enum(code)`` with an integer code still gives the member (``BodyType(0)`` is
    ``BodyType.STATIC``): a pickle made when these enums were ``IntEnum``s (a body type kept in
    user data, say) holds the code, and loads. (Snapshots keep the integer columns only.) Any spelling's case is accepted (``BodyType("Static")``)."""

    code: int

    def __new__(cls, name: str, code: int):
        member = str.__new__(cls, name)
        member._value_ = name
        member.code = code
        return member

    def __str__(self) -> str:
        return self._value_

    def __format__(self, spec: str) -> str:
        return format(self._value_, spec)

    def __int__(self) -> int:
        return self.code

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
            return _BY_CODE[cls].get(int(value))
        if isinstance(value, str):
            return cls._value2member_map_.get(value.lower())
        return None

    @classmethod
    def from_code(cls, code: int):
        """The member of integer ``code`` (a column's value); ``KeyError`` for another."""
        return _BY_CODE[cls][code]


class BodyType(_CodedEnum):
    """How a body moves. Codes follow Box2D."""

    #: never moves, infinite mass (ground, walls)
    STATIC = "static", state.STATIC
    #: moves at the velocity you set, pushes dynamic bodies, ignores forces
    KINEMATIC = "kinematic", state.KINEMATIC
    #: moved by forces, gravity and contacts
    DYNAMIC = "dynamic", state.DYNAMIC


class ShapeType(_CodedEnum):
    CIRCLE = "circle", shape_types.CIRCLE
    CAPSULE = "capsule", shape_types.CAPSULE
    SEGMENT = "segment", shape_types.SEGMENT
    POLYGON = "polygon", shape_types.POLYGON
    CHAIN_SEGMENT = "chain_segment", shape_types.CHAIN_SEGMENT


class JointType(_CodedEnum):
    REVOLUTE = "revolute", state.REVOLUTE
    DISTANCE = "distance", state.DISTANCE
    PRISMATIC = "prismatic", state.PRISMATIC
    WELD = "weld", state.WELD
    WHEEL = "wheel", state.WHEEL
    MOUSE = "mouse", state.MOUSE
    MOTOR = "motor", state.MOTOR
    PULLEY = "pulley", state.PULLEY
    GEAR = "gear", state.GEAR
    CUSTOM = "custom", state.CUSTOM


_BY_CODE = {cls: {member.code: member for member in cls}
            for cls in (BodyType, ShapeType, JointType)}


__all__ = ["Vec2", "BodyType", "ShapeType", "JointType"]
