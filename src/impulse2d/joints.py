"""Joint handles. Create joints with ``world.create_*_joint``; every joint type shares the
``Joint`` base (bodies, anchors, reaction force and torque), and adds its own options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _lock, _sleep, _validate
from ._handle import Handle
from .types import JointType, Vec2

if TYPE_CHECKING:
    from .body import Body


def _flag_property(column: str, doc: str = ""):
    def fget(self):
        return bool(getattr(self._world._joints, column)[self._row()])

    def fset(self, value):
        j = self._row()
        flags = getattr(self._world._joints, column)
        value = _validate.flag(value, column)
        if flags[j] != value:
            flags[j] = value
            # The solver keeps its own list of revolute joints without any of these rows.
            self._world._joint_index = None

    return property(fget, fset, doc=doc)


def _real_property(column: str, name: str, check, doc: str = ""):
    """A float column with a setter validated by ``check(value, name)``."""
    def fget(self):
        return float(getattr(self._world._joints, column)[self._row()])

    def fset(self, value):
        j = self._row()
        getattr(self._world._joints, column)[j] = check(value, name)

    return property(fget, fset, doc=doc)


def _limits_property(check, doc: str):
    """The (lower, upper) pair of a limit, validated on assignment as creation validates it
    (``check(value, name)`` for each end, then lower <= upper)."""
    def fget(self):
        j = self._row()
        return float(self._world._joints.lower[j]), float(self._world._joints.upper[j])

    def fset(self, value):
        j = self._row()
        lower, upper = _validate.pair(value, "limits")
        lower, upper = check_limits(lower, upper, check, ("limits[0] (lower)", "limits[1] (upper)"))
        self._world._joints.lower[j], self._world._joints.upper[j] = lower, upper

    return property(fget, fset, doc=doc)


# The checks shared by creation (world.create_*_joint) and the setters, so that the two accept
# and reject exactly the same values. Bounds and their reasons: _validate.


def check_angle_limit(value, name: str) -> float:
    """A revolute limit, rad, within +-MAX_ANGLE (1e9 rad)."""
    return _validate.angle(value, name)


def check_translation_limit(value, name: str) -> float:
    """A prismatic or wheel limit, m, within +-MAX_LENGTH (1e6 m)."""
    return _validate.real(value, name, _validate.MAX_LENGTH, "m")


def check_limits(lower, upper, check, names=("lower", "upper")) -> tuple[float, float]:
    """``(lower, upper)``, each through ``check(value, name)``, with lower <= upper."""
    lower = check(lower, names[0])
    upper = check(upper, names[1])
    if lower > upper:
        raise ValueError(f"{names[0]} = {lower} is above {names[1]} = {upper}")
    return lower, upper


def check_length_range(min_length, max_length,
                       names=("min_length", "max_length")) -> tuple[float, float]:
    """A distance joint's (min_length, max_length), m: 0 <= min <= max, 0 < max <= MAX_LENGTH."""
    min_length = _validate.non_negative(min_length, names[0], _validate.MAX_LENGTH, "m")
    max_length = _validate.length(max_length, names[1])
    if min_length > max_length:
        raise ValueError(f"{names[0]} = {min_length} is above {names[1]} = {max_length}")
    return min_length, max_length


def check_correction_factor(value, name: str = "correction_factor") -> float:
    """A motor joint's correction factor, in [0, 1]."""
    factor = _validate.real(value, name)
    if not 0.0 <= factor <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {factor}")
    return factor


def check_angular_speed(value, name: str) -> float:
    """A motor speed, rad/s, within +-MAX_SPEED (1e5 rad/s)."""
    return _validate.speed(value, name, "rad/s")


def check_linear_speed(value, name: str) -> float:
    """A motor speed, m/s, within +-MAX_SPEED (1e5 m/s)."""
    return _validate.speed(value, name, "m/s")


def check_max_force(value, name: str) -> float:
    """A motor's or mouse joint's largest force, N, in [0, MAX_FORCE] (1e30 N)."""
    return _validate.force(value, name, "N")


def check_max_torque(value, name: str) -> float:
    """A motor's largest torque, N m, in [0, MAX_FORCE] (1e30 N m)."""
    return _validate.force(value, name, "N m")


def check_hertz(value, name: str) -> float:
    """A spring stiffness, Hz, in [0, MAX_HERTZ] (1e6 Hz); 0 = no spring (or rigid)."""
    return _validate.hertz(value, name)


def check_mouse_hertz(value, name: str) -> float:
    """The mouse spring's stiffness, Hz, in (0, MAX_HERTZ]: a mouse joint is always a spring."""
    return _validate.hertz(value, name, allow_zero=False)


def check_damping_ratio(value, name: str) -> float:
    """A spring's damping ratio (1 = critical), in [0, MAX_FACTOR] (1e6)."""
    return _validate.factor(value, name)


def check_length(value, name: str) -> float:
    """A distance joint's rest length, m, in (0, MAX_LENGTH] (1e6 m)."""
    return _validate.length(value, name)


class Joint(Handle):
    """A constraint between two bodies."""

    __slots__ = ()
    _kind = "joint"
    _store_name = "_joints"

    def __setattr__(self, name: str, value) -> None:
        if not name.startswith("_"):
            # every public setter of every joint type passes here: refused while the world
            # is stepping (_lock.py), before the setter writes anything
            _lock.check(self._world, f"{type(self).__name__}.{name} = ...")
        object.__setattr__(self, name, value)
        if not name.startswith("_"):
            # Every public setter (motor, limits, spring, target, lengths, ...) changes what
            # the joint does: its bodies' island wakes, as Box2D's joint setters wake it. After
            # the setter, so that a rejected value changes nothing.
            j = self._row()
            jt = self._world._joints
            _sleep.wake_body(self._world, int(jt.body_a[j]))
            _sleep.wake_body(self._world, int(jt.body_b[j]))

    def __repr__(self) -> str:
        if not self.is_valid:
            return "<Joint destroyed>"
        return f"<{type(self).__name__} #{self._index}>"

    @property
    def type(self) -> JointType:
        return JointType.from_code(int(self._world._joints.type[self._row()]))

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

    enable_limit = _flag_property("enable_limit")
    enable_motor = _flag_property("enable_motor")
    enable_spring = _flag_property("enable_spring")

    limits = _limits_property(check_angle_limit,
                              "(lower, upper) angle, rad, each within +-1e9 rad.")

    motor_speed = _real_property("motor_speed", "motor_speed", check_angular_speed,
                                 "Target relative angular velocity of the motor, rad/s "
                                 "(within +-1e5 rad/s).")
    max_motor_torque = _real_property("max_motor", "max_motor_torque", check_max_torque,
                                      "N m, in [0, 1e30].")
    hertz = _real_property("hertz", "hertz", check_hertz,
                           "Rotational spring stiffness, Hz, in [0, 1e6].")
    damping_ratio = _real_property("damping_ratio", "damping_ratio", check_damping_ratio,
                                   "Damping ratio of the spring (1 = critical), in [0, 1e6].")


class DistanceJoint(Joint):
    """Keeps two anchor points at a distance: rigidly at ``length`` (default), or, with
    ``enable_spring``, as a spring of ``hertz`` toward ``length`` (hertz > 0) held within
    ``[min_length, max_length]``; with hertz = 0 it is a rope, slack inside that range."""

    __slots__ = ()

    def _axis(self) -> tuple[float, float, float]:
        ax, ay = self.world_anchor_a
        bx, by = self.world_anchor_b
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5
        if length <= 1e-12:
            return 0.0, 0.0, length
        return dx / length, dy / length, length

    @property
    def current_length(self) -> float:
        """Distance between the two anchors now, m."""
        return self._axis()[2]

    @property
    def length(self) -> float:
        """Rest length, m (the rigid length, or the spring's rest length), in (0, 1e6]."""
        return float(self._world._joints.length[self._row()])

    @length.setter
    def length(self, value) -> None:
        j = self._row()
        self._world._joints.length[j] = check_length(value, "length")

    @property
    def length_range(self) -> tuple[float, float]:
        """(min_length, max_length), m: the range the spring or rope is held in
        (0 <= min_length <= max_length, 0 < max_length <= 1e6)."""
        j = self._row()
        joints = self._world._joints
        return float(joints.min_length[j]), float(joints.max_length[j])

    @length_range.setter
    def length_range(self, value) -> None:
        j = self._row()
        lower, upper = _validate.pair(value, "length_range")
        lower, upper = check_length_range(lower, upper, ("length_range[0] (min_length)",
                                                         "length_range[1] (max_length)"))
        self._world._joints.min_length[j] = lower
        self._world._joints.max_length[j] = upper

    @property
    def min_length(self) -> float:
        return self.length_range[0]

    @property
    def max_length(self) -> float:
        return self.length_range[1]

    @property
    def speed(self) -> float:
        """Rate of change of the anchor distance, m/s."""
        ux, uy, _ = self._axis()
        va = self.body_a.velocity_at(self.world_anchor_a)
        vb = self.body_b.velocity_at(self.world_anchor_b)
        return float(ux * (vb[0] - va[0]) + uy * (vb[1] - va[1]))

    enable_spring = _flag_property("enable_spring")
    enable_motor = _flag_property("enable_motor")
    hertz = _real_property("hertz", "hertz", check_hertz, "Spring stiffness, Hz, in [0, 1e6].")
    damping_ratio = _real_property("damping_ratio", "damping_ratio", check_damping_ratio,
                                   "Damping ratio of the spring (1 = critical), in [0, 1e6].")
    motor_speed = _real_property("motor_speed", "motor_speed", check_linear_speed,
                                 "Target rate of change of the length, m/s (within +-1e5).")
    max_motor_force = _real_property("max_motor", "max_motor_force", check_max_force,
                                     "N, in [0, 1e30].")

    @property
    def reaction_force(self) -> Vec2:
        """Force the joint applied to body B in the last step (along the axis), N."""
        j = self._row()
        joints = self._world._joints
        total = (joints.linear_impulse[j, 0] + joints.spring_impulse[j] + joints.motor_impulse[j]
                 + joints.lower_impulse[j] - joints.upper_impulse[j])
        ux, uy, _ = self._axis()
        inv_h = self._world._joint_inv_h
        return Vec2(float(total * ux * inv_h), float(total * uy * inv_h))

    @property
    def reaction_torque(self) -> float:
        """A distance joint applies no pure torque."""
        self._row()
        return 0.0


class PrismaticJoint(Joint):
    """A slider: body B moves along an axis fixed in body A and does not rotate relative to it,
    optionally with translation limits, a linear motor and a spring back to the creation pose."""

    __slots__ = ()

    @property
    def axis(self) -> Vec2:
        """The sliding direction now (unit, world frame; it turns with body A)."""
        j = self._row()
        joints = self._world._joints
        c, s = self._world._bodies.rot[joints.body_a[j]]
        x, y = joints.local_axis_a[j]
        return Vec2(float(c * x - s * y), float(s * x + c * y))

    @property
    def translation(self) -> float:
        """Displacement of B's anchor from A's along the axis, m (0 at creation)."""
        ux, uy = self.axis
        ax, ay = self.world_anchor_a
        bx, by = self.world_anchor_b
        return float(ux * (bx - ax) + uy * (by - ay))

    @property
    def speed(self) -> float:
        """Rate of change of :attr:`translation`, m/s."""
        ux, uy = self.axis
        pa, pb = self.world_anchor_a, self.world_anchor_b
        va = self.body_a.velocity_at(pa)
        vb = self.body_b.velocity_at(pb)
        wa = self.body_a.angular_velocity
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        # d/dt (u . d) = u . (v_b - v_a) + (w_a x u) . d
        return float(ux * (vb[0] - va[0]) + uy * (vb[1] - va[1]) + wa * (ux * dy - uy * dx))

    enable_limit = _flag_property("enable_limit")
    enable_motor = _flag_property("enable_motor")
    enable_spring = _flag_property("enable_spring")
    hertz = _real_property("hertz", "hertz", check_hertz, "Spring stiffness, Hz, in [0, 1e6].")
    damping_ratio = _real_property("damping_ratio", "damping_ratio", check_damping_ratio,
                                   "Damping ratio of the spring (1 = critical), in [0, 1e6].")
    motor_speed = _real_property("motor_speed", "motor_speed", check_linear_speed,
                                 "Target sliding speed, m/s (within +-1e5).")
    max_motor_force = _real_property("max_motor", "max_motor_force", check_max_force,
                                     "N, in [0, 1e30].")

    limits = _limits_property(check_translation_limit,
                              "(lower, upper) translation, m, each within +-1e6 m.")

    @property
    def reaction_force(self) -> Vec2:
        """Force the joint applied to body B in the last step, N."""
        j = self._row()
        joints = self._world._joints
        axial = (joints.spring_impulse[j] + joints.motor_impulse[j] + joints.lower_impulse[j]
                 - joints.upper_impulse[j])
        perp = joints.linear_impulse[j, 0]
        ux, uy = self.axis
        inv_h = self._world._joint_inv_h
        return Vec2(float((axial * ux - perp * uy) * inv_h),
                    float((axial * uy + perp * ux) * inv_h))

    @property
    def reaction_torque(self) -> float:
        """Torque of the angular row on body B in the last step, N m."""
        j = self._row()
        return float(self._world._joints.angular_impulse[j] * self._world._joint_inv_h)


class WeldJoint(Joint):
    """Glues two bodies at an anchor: rigid, or with linear and angular springs (hertz > 0)."""

    __slots__ = ()

    @property
    def angle(self) -> float:
        """Relative rotation from the creation pose, rad (0 for a rigid weld at rest)."""
        return RevoluteJoint.angle.fget(self)

    linear_hertz = _real_property("hertz", "linear_hertz", check_hertz,
                                  "Stiffness of the point, Hz, in [0, 1e6] (0: rigid).")
    linear_damping_ratio = _real_property("damping_ratio", "linear_damping_ratio",
                                          check_damping_ratio, "In [0, 1e6] (1 = critical).")
    angular_hertz = _real_property("angular_hertz", "angular_hertz", check_hertz,
                                   "Stiffness of the angle, Hz, in [0, 1e6] (0: rigid).")
    angular_damping_ratio = _real_property("angular_damping_ratio", "angular_damping_ratio",
                                           check_damping_ratio, "In [0, 1e6] (1 = critical).")

    @property
    def reaction_torque(self) -> float:
        """Torque of the angular row on body B in the last step, N m."""
        j = self._row()
        return float(self._world._joints.angular_impulse[j] * self._world._joint_inv_h)


class WheelJoint(Joint):
    """A wheel on a suspension: B's anchor stays on a line fixed in A (the chassis) and B turns
    freely, with a suspension spring and limits along the line and a rotational motor."""

    __slots__ = ()

    axis = PrismaticJoint.axis
    translation = PrismaticJoint.translation
    enable_limit = _flag_property("enable_limit")
    enable_motor = _flag_property("enable_motor")
    enable_spring = _flag_property("enable_spring")
    limits = PrismaticJoint.limits
    hertz = _real_property("hertz", "hertz", check_hertz,
                           "Suspension stiffness, Hz, in [0, 1e6].")
    damping_ratio = _real_property("damping_ratio", "damping_ratio", check_damping_ratio,
                                   "Damping ratio of the suspension (1 = critical), in [0, 1e6].")
    motor_speed = _real_property("motor_speed", "motor_speed", check_angular_speed,
                                 "Target relative angular velocity, rad/s (within +-1e5).")
    max_motor_torque = _real_property("max_motor", "max_motor_torque", check_max_torque,
                                      "N m, in [0, 1e30].")

    @property
    def linear_speed(self) -> float:
        """Rate of change of :attr:`translation` (suspension speed), m/s."""
        return PrismaticJoint.speed.fget(self)

    @property
    def angular_speed(self) -> float:
        """Relative angular velocity w_b - w_a, rad/s."""
        j = self._row()
        b = self._world._bodies
        joints = self._world._joints
        return float(b.w[joints.body_b[j]] - b.w[joints.body_a[j]])

    @property
    def reaction_force(self) -> Vec2:
        """Force the joint applied to body B in the last step, N."""
        j = self._row()
        joints = self._world._joints
        axial = joints.spring_impulse[j] + joints.lower_impulse[j] - joints.upper_impulse[j]
        perp = joints.linear_impulse[j, 0]
        ux, uy = self.axis
        inv_h = self._world._joint_inv_h
        return Vec2(float((axial * ux - perp * uy) * inv_h),
                    float((axial * uy + perp * ux) * inv_h))

    @property
    def reaction_torque(self) -> float:
        """Motor torque on body B in the last step, N m."""
        j = self._row()
        return float(self._world._joints.motor_impulse[j] * self._world._joint_inv_h)


class MouseJoint(Joint):
    """Drags one point of a body toward :attr:`target` with a soft spring of at most
    :attr:`max_force`. A single-body joint: ``body_a`` and ``body_b`` are the same body."""

    __slots__ = ()

    @property
    def body(self) -> Body:
        """The dragged body."""
        return self.body_b

    @property
    def target(self) -> Vec2:
        """World point the body's anchor is pulled toward, m (settable)."""
        x, y = self._world._joints.target[self._row()]
        return Vec2(float(x), float(y))

    @target.setter
    def target(self, value) -> None:
        j = self._row()
        self._world._joints.target[j] = _validate.vec2(value, "target")

    max_force = _real_property("max_motor", "max_force", check_max_force, "N, in [0, 1e30].")
    # Creation rejects hertz = 0 (a mouse joint is nothing but its spring); so does the setter.
    hertz = _real_property("hertz", "hertz", check_mouse_hertz,
                           "Spring stiffness, Hz, in (0, 1e6].")
    damping_ratio = _real_property("damping_ratio", "damping_ratio", check_damping_ratio,
                                   "Damping ratio of the spring (1 = critical), in [0, 1e6].")

    @property
    def reaction_torque(self) -> float:
        """The mouse joint applies a force only."""
        self._row()
        return 0.0


class MotorJoint(Joint):
    """Drives body B toward a pose relative to body A (origin at :attr:`linear_offset` in A's
    frame, relative angle :attr:`angular_offset`) with bounded force and torque."""

    __slots__ = ()

    @property
    def linear_offset(self) -> Vec2:
        """Target position of B's origin in A's frame, m (settable)."""
        x, y = self._world._joints.local_anchor_a[self._row()]
        return Vec2(float(x), float(y))

    @linear_offset.setter
    def linear_offset(self, value) -> None:
        j = self._row()
        self._world._joints.local_anchor_a[j] = _validate.vec2(value, "linear_offset")

    angular_offset = _real_property("reference_angle", "angular_offset", _validate.angle,
                                    "Target angle_b - angle_a, rad (within +-1e9).")
    max_force = _real_property("max_motor", "max_force", check_max_force, "N, in [0, 1e30].")
    max_torque = _real_property("max_torque", "max_torque", check_max_torque,
                                "N m, in [0, 1e30].")

    @property
    def correction_factor(self) -> float:
        return float(self._world._joints.correction_factor[self._row()])

    @correction_factor.setter
    def correction_factor(self, value) -> None:
        j = self._row()
        self._world._joints.correction_factor[j] = check_correction_factor(value)

    @property
    def reaction_torque(self) -> float:
        """Torque of the angular drive on body B in the last step, N m."""
        j = self._row()
        return float(self._world._joints.angular_impulse[j] * self._world._joint_inv_h)


class PulleyJoint(Joint):
    """A rope over two fixed ground points: ``length_a + ratio * length_b`` never exceeds the
    rope's length (taken at creation); the rope goes slack but never pushes."""

    __slots__ = ()

    def _ground(self, side: str) -> Vec2:
        x, y = getattr(self._world._joints, f"ground_{side}")[self._row()]
        return Vec2(float(x), float(y))

    @property
    def ground_anchor_a(self) -> Vec2:
        """Fixed world point the rope to body A hangs from, m."""
        return self._ground("a")

    @property
    def ground_anchor_b(self) -> Vec2:
        return self._ground("b")

    @property
    def ratio(self) -> float:
        return float(self._world._joints.ratio[self._row()])

    @property
    def length_a(self) -> float:
        """Current rope length from ground anchor A to body A's anchor, m."""
        ax, ay = self.world_anchor_a
        gx, gy = self.ground_anchor_a
        return float(((ax - gx) ** 2 + (ay - gy) ** 2) ** 0.5)

    @property
    def length_b(self) -> float:
        bx, by = self.world_anchor_b
        gx, gy = self.ground_anchor_b
        return float(((bx - gx) ** 2 + (by - gy) ** 2) ** 0.5)

    @property
    def rope_length(self) -> float:
        """``length_a + ratio * length_b`` can never exceed this, m."""
        return float(self._world._joints.constant[self._row()])

    @property
    def tension(self) -> float:
        """Rope tension on A's side in the last step, N (``ratio`` times this on B's)."""
        j = self._row()
        return float(self._world._joints.lower_impulse[j] * self._world._joint_inv_h)

    @property
    def reaction_force(self) -> Vec2:
        """Force of the rope on body B in the last step, toward its ground anchor, N."""
        bx, by = self.world_anchor_b
        gx, gy = self.ground_anchor_b
        length = self.length_b
        scale = -self.ratio * self.tension / length if length > 0.0 else 0.0
        return Vec2(float(scale * (bx - gx)), float(scale * (by - gy)))

    @property
    def reaction_torque(self) -> float:
        """A rope applies no pure torque."""
        self._row()
        return 0.0


class GearJoint(Joint):
    """Couples two revolute or prismatic joints: ``coord_a + ratio * coord_b`` stays constant,
    a coordinate being a revolute angle (rad) or a prismatic translation (m). Its bodies are the
    two joints' bodies B."""

    __slots__ = ()

    def _linked(self, k: int) -> Joint:
        return self._world._joint_handles[int(self._world._joints.linked[self._row(), k])]

    @property
    def joint_a(self) -> Joint:
        return self._linked(0)

    @property
    def joint_b(self) -> Joint:
        return self._linked(1)

    @property
    def ratio(self) -> float:
        return float(self._world._joints.ratio[self._row()])

    @property
    def constant(self) -> float:
        """The kept value of ``coord_a + ratio * coord_b`` (rad or m)."""
        return float(self._world._joints.constant[self._row()])

    def _impulse_on_b(self) -> float:
        j = self._row()
        joints = self._world._joints
        return float(joints.ratio[j] * joints.linear_impulse[j, 0] * self._world._joint_inv_h)

    @property
    def reaction_force(self) -> Vec2:
        """Force the gear applied to body B in the last step, N (along joint_b's axis when
        that is prismatic; none through a revolute joint_b)."""
        joint_b = self.joint_b
        if not isinstance(joint_b, PrismaticJoint):
            return Vec2(0.0, 0.0)
        ux, uy = joint_b.axis
        f = self._impulse_on_b()
        return Vec2(float(f * ux), float(f * uy))

    @property
    def reaction_torque(self) -> float:
        """Torque the gear applied to body B about its centre of mass in the last step, N m."""
        joint_b = self.joint_b
        f = self._impulse_on_b()
        if not isinstance(joint_b, PrismaticJoint):
            return f
        ux, uy = joint_b.axis
        ax, ay = joint_b.world_anchor_b
        cx, cy = joint_b.body_b.world_center
        return float(f * ((ax - cx) * uy - (ay - cy) * ux))
