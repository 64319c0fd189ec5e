"""Joint handles. Create joints with ``world.create_*_joint``; every joint type shares the
``Joint`` base (bodies, anchors, reaction force and torque), and adds its own options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _validate
from ._handle import Handle
from .types import JointType, Vec2

if TYPE_CHECKING:
    from .body import Body


class Joint(Handle):
    """A constraint between two bodies."""

    __slots__ = ()
    _kind = "joint"
    _store_name = "_joints"

    def __repr__(self) -> str:
        if not self.is_valid:
            return "<Joint destroyed>"
        return f"<{type(self).__name__} #{self._index}>"

    @property
    def type(self) -> JointType:
        return JointType(int(self._world._joints.type[self._row()]))

    @property
    def body_a(self) -> Body:
        return self._world._body_handles[int(self._world._joints.body_a[self._row()])]

    @property
    def body_b(self) -> Body:
        return self._world._body_handles[int(self._world._joints.body_b[self._row()])]

    @property
    def collide_connected(self) -> bool:
        """Whether the two bodies may still collide with each other."""
        return bool(self._world._joints.collide_connected[self._row()])

    def _anchor(self, side: str) -> Vec2:
        j = self._row()
        joints = self._world._joints
        body = int(getattr(joints, f"body_{side}")[j])
        local = getattr(joints, f"local_anchor_{side}")[j]
        bodies = self._world._bodies
        c, s = bodies.rot[body]
        return Vec2(float(bodies.origin[body, 0] + c * local[0] - s * local[1]),
                    float(bodies.origin[body, 1] + s * local[0] + c * local[1]))

    @property
    def world_anchor_a(self) -> Vec2:
        """Current world position of the anchor on body A, m."""
        return self._anchor("a")

    @property
    def world_anchor_b(self) -> Vec2:
        """Current world position of the anchor on body B, m."""
        return self._anchor("b")

    @property
    def reaction_force(self) -> Vec2:
        """Force the joint applied to body B in the last step, N (to A: the opposite)."""
        j = self._row()
        inv_h = self._world._joint_inv_h
        fx, fy = self._world._joints.linear_impulse[j]
        return Vec2(float(fx * inv_h), float(fy * inv_h))

    @property
    def reaction_torque(self) -> float:
        """Torque the joint's spring, motor and limits applied to body B in the last step, N m."""
        j = self._row()
        joints = self._world._joints
        axial = (joints.spring_impulse[j] + joints.motor_impulse[j] + joints.lower_impulse[j]
                 - joints.upper_impulse[j])
        return float(axial * self._world._joint_inv_h)


class RevoluteJoint(Joint):
    """A hinge: both bodies share one anchor point and rotate freely about it, optionally with an
    angle limit, a motor and a rotational spring. Angles are ``angle_b - angle_a - reference``."""

    __slots__ = ()

    @property
    def angle(self) -> float:
        """Joint angle, rad (continuous: may exceed pi)."""
        j = self._row()
        b = self._world._bodies
        joints = self._world._joints
        return float(b.angle[joints.body_b[j]] - b.angle[joints.body_a[j]] - joints.reference_angle[j])

    @property
    def speed(self) -> float:
        """Relative angular velocity, rad/s."""
        j = self._row()
        b = self._world._bodies
        joints = self._world._joints
        return float(b.w[joints.body_b[j]] - b.w[joints.body_a[j]])

    def _flag(column: str):  # noqa: N805  (class-body helper)
        def fget(self):
            return bool(getattr(self._world._joints, column)[self._row()])

        def fset(self, value):
            j = self._row()
            getattr(self._world._joints, column)[j] = _validate.flag(value, column)

        return property(fget, fset)

    enable_limit = _flag("enable_limit")
    enable_motor = _flag("enable_motor")
    enable_spring = _flag("enable_spring")
    del _flag

    @property
    def limits(self) -> tuple[float, float]:
        """(lower, upper) angle, rad."""
        j = self._row()
        return float(self._world._joints.lower[j]), float(self._world._joints.upper[j])

    @limits.setter
    def limits(self, value) -> None:
        j = self._row()
        lower, upper = check_limits(*value)
        self._world._joints.lower[j] = lower
        self._world._joints.upper[j] = upper

    @property
    def motor_speed(self) -> float:
        """Target relative angular velocity of the motor, rad/s."""
        return float(self._world._joints.motor_speed[self._row()])

    @motor_speed.setter
    def motor_speed(self, value) -> None:
        j = self._row()
        self._world._joints.motor_speed[j] = _validate.real(value, "motor_speed")

    @property
    def max_motor_torque(self) -> float:
        """N m."""
        return float(self._world._joints.max_motor[self._row()])

    @max_motor_torque.setter
    def max_motor_torque(self, value) -> None:
        j = self._row()
        self._world._joints.max_motor[j] = _validate.non_negative(value, "max_motor_torque")

    @property
    def hertz(self) -> float:
        """Rotational spring stiffness, Hz."""
        return float(self._world._joints.hertz[self._row()])

    @hertz.setter
    def hertz(self, value) -> None:
        j = self._row()
        self._world._joints.hertz[j] = _validate.non_negative(value, "hertz")

    @property
    def damping_ratio(self) -> float:
        return float(self._world._joints.damping_ratio[self._row()])

    @damping_ratio.setter
    def damping_ratio(self, value) -> None:
        j = self._row()
        self._world._joints.damping_ratio[j] = _validate.non_negative(value, "damping_ratio")


def check_limits(lower, upper) -> tuple[float, float]:
    lower = _validate.real(lower, "lower limit")
    upper = _validate.real(upper, "upper limit")
    if lower > upper:
        raise ValueError(f"lower limit {lower} is above upper limit {upper}")
    return lower, upper


