"""The ``Body`` handle: a light reference to one row of the world's body store.

A handle holds (world, row, generation); every property reads or writes the row's columns, so
there is exactly one copy of the state, the one the kernels step. Using a handle after its body
was destroyed raises ``ValueError`` instead of reading whatever body re-uses the row.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from . import _lock, _sleep, _validate
from ._handle import Handle
from ._core.state import DYNAMIC, STATIC
from .types import BodyType, Vec2

if TYPE_CHECKING:
    from .chains import Chain
    from .shapes import Shape
    from .world import World


class Body(Handle):
    """A rigid body. Create with :meth:`World.create_body`; never instantiate directly."""

    __slots__ = ()
    _kind = "body"
    _store_name = "_bodies"

    @property
    def world(self) -> World:
        return self._world

    def __repr__(self) -> str:
        if not self.is_valid:
            return "<Body destroyed>"
        p = self.position
        return f"<Body {self.type} #{self._index} at ({p.x:.3f}, {p.y:.3f})>"

    # -- kinematic state ------------------------------------------------------------------
    @property
    def type(self) -> BodyType:
        """``"static"``, ``"kinematic"`` or ``"dynamic"``: a :class:`BodyType`, which is that
        string (``body.type == "static"``). Settable (a BodyType or its name); mass and contacts
        follow."""
        return BodyType.from_code(int(self._world._bodies.type[self._row()]))

    @type.setter
    def type(self, value) -> None:
        _lock.check(self._world, "Body.type = ...")
        i = self._row()
        kind = parse_body_type(value)
        # A static body's shapes were checked one by one, not their sum as a dynamic body's mass.
        props = self._world._body_mass(i, kind=kind, blame=f"type = {BodyType.from_code(kind)}")
        bodies = self._world._bodies
        _sleep.wake_touching(self._world, i)
        if kind == STATIC:
            bodies.v[i] = 0.0
            bodies.w[i] = 0.0
        bodies.type[i] = kind
        self._world._update_mass(i, props)
        self._world._pairs_dirty = True

    @property
    def position(self) -> Vec2:
        """World position of the body origin, m. Setting it teleports the body."""
        x, y = self._world._bodies.origin[self._row()]
        return Vec2(float(x), float(y))

    @position.setter
    def position(self, value) -> None:
        if self._world._lock.stepping:
            raise _lock.locked("Body.position = ...")
        i = self._row()
        x, y = _validate.vec2(value, "position")
        bodies = self._world._bodies
        _sleep.wake_touching(self._world, i)
        bodies.origin[i] = (x, y)
        self._world._sync_center(i)

    @property
    def angle(self) -> float:
        """Rotation, rad, counter-clockwise; continuous (not wrapped to +-pi). Settable within
        +-1e9 rad."""
        return float(self._world._bodies.angle[self._row()])

    @angle.setter
    def angle(self, value) -> None:
        _lock.check(self._world, "Body.angle = ...")
        i = self._row()
        angle = _validate.angle(value, "angle")
        bodies = self._world._bodies
        _sleep.wake_touching(self._world, i)
        bodies.angle[i] = angle
        bodies.rot[i] = (math.cos(angle), math.sin(angle))
        self._world._sync_center(i)

    @property
    def linear_velocity(self) -> Vec2:
        """Velocity of the centre of mass, m/s. Settable, each component within +-1e30 m/s
        (``_validate.MAX_VELOCITY``); the step clamps the speed to
        ``WorldSettings.max_linear_speed``."""
        vx, vy = self._world._bodies.v[self._row()]
        return Vec2(float(vx), float(vy))

    @linear_velocity.setter
    def linear_velocity(self, value) -> None:
        if self._world._lock.stepping:
            raise _lock.locked("Body.linear_velocity = ...")
        i = self._row()
        v = check_linear_velocity(value)
        self._check_movable(i, v != (0.0, 0.0))
        self._wake_for_velocity(i)
        self._world._bodies.v[i] = v

    @property
    def angular_velocity(self) -> float:
        """rad/s, counter-clockwise. Settable within +-1e30 rad/s; the step clamps the spin to
        a quarter turn per step."""
        return float(self._world._bodies.w[self._row()])

    @angular_velocity.setter
    def angular_velocity(self, value) -> None:
        if self._world._lock.stepping:
            raise _lock.locked("Body.angular_velocity = ...")
        i = self._row()
        w = check_angular_velocity(value)
        self._check_movable(i, w != 0.0)
        self._wake_for_velocity(i)
        self._world._bodies.w[i] = w

    def _wake_for_velocity(self, i: int) -> None:
        """A dynamic body given a velocity wakes its island; a kinematic one also wakes what it
        touches or holds (it will move through it)."""
        if self._world._bodies.type[i] == DYNAMIC:
            _sleep.wake_body(self._world, i)
        else:
            _sleep.wake_touching(self._world, i)

    def _check_movable(self, i: int, nonzero: bool) -> None:
        if nonzero and self._world._bodies.type[i] == STATIC:
            raise ValueError("a static body cannot be given a velocity; make it kinematic")

    # -- mass -----------------------------------------------------------------------------
    @property
    def mass(self) -> float:
        """kg, from the shapes' areas and densities (0 for static and kinematic bodies)."""
        return float(self._world._bodies.mass[self._row()])

    @property
    def inertia(self) -> float:
        """Rotational inertia about the centre of mass, kg m^2."""
        return float(self._world._bodies.inertia[self._row()])

    @property
    def world_center(self) -> Vec2:
        """World position of the centre of mass, m."""
        x, y = self._world._bodies.center[self._row()]
        return Vec2(float(x), float(y))

    @property
    def local_center(self) -> Vec2:
        """Centre of mass in body coordinates, m."""
        x, y = self._world._bodies.local_center[self._row()]
        return Vec2(float(x), float(y))

    # -- options --------------------------------------------------------------------------
    def _column_property(column: str, check):  # noqa: N805  (class-body helper)
        def fget(self):
            return float(getattr(self._world._bodies, column)[self._row()])

        def fset(self, value):
            _lock.check(self._world, f"Body.{column} = ...")
            i = self._row()
            getattr(self._world._bodies, column)[i] = check(value, column)

        return property(fget, fset)

    linear_damping = _column_property("linear_damping", _validate.non_negative)
    """Linear damping rate, 1/s (velocity decays as 1/(1 + c h) per step of h). Any finite
    value >= 0: the implicit form cannot overflow, and a huge rate simply stops the body."""
    angular_damping = _column_property("angular_damping", _validate.non_negative)
    """Angular damping rate, 1/s (as linear_damping)."""
    gravity_scale = _column_property("gravity_scale", _validate.signed_factor)
    """Multiplier of the world's gravity for this body (0 = floats, -1 = falls up), within
    +-1e6."""
    del _column_property

    @property
    def fixed_rotation(self) -> bool:
        """When True the body does not rotate (infinite rotational inertia)."""
        return bool(self._world._bodies.fixed_rotation[self._row()])

    @fixed_rotation.setter
    def fixed_rotation(self, value) -> None:
        _lock.check(self._world, "Body.fixed_rotation = ...")
        i = self._row()
        fixed = _validate.flag(value, "fixed_rotation")
        props = self._world._body_mass(i, fixed=fixed, blame=f"fixed_rotation = {fixed}")
        _sleep.wake_body(self._world, i)
        self._world._bodies.fixed_rotation[i] = fixed
        self._world._bodies.w[i] = 0.0
        self._world._update_mass(i, props)

    @property
    def bullet(self) -> bool:
        """Whether continuous collision sweeps this body against dynamic bodies too (default
        False: a fast body is swept against static and kinematic bodies only; see
        ``WorldSettings.enable_continuous``). Settable; only dynamic bodies are ever swept."""
        return bool(self._world._bodies.bullet[self._row()])

    @bullet.setter
    def bullet(self, value) -> None:
        _lock.check(self._world, "Body.bullet = ...")
        i = self._row()
        self._world._bodies.bullet[i] = _validate.flag(value, "bullet")

    # -- sleeping (_dynamics/islands.py explains the rules) -----------------------------------
    @property
    def is_awake(self) -> bool:
        """Whether the body is simulated: False for a sleeping body (its island has been at
        rest for ``WorldSettings.time_to_sleep``) and for a static body; kinematic bodies
        never sleep. Setting True wakes the body's island, False puts the island to sleep now
        (velocities zeroed; a touch, a force or a set velocity wakes it again). Setting it on
        a static or kinematic body does nothing (Box2D does the same)."""
        i = self._row()
        bodies = self._world._bodies
        return bool(bodies.type[i] != STATIC and not bodies.asleep[i])

    @is_awake.setter
    def is_awake(self, value) -> None:
        _lock.check(self._world, "Body.is_awake = ...")
        i = self._row()
        awake = _validate.flag(value, "is_awake")
        if self._world._bodies.type[i] != DYNAMIC:
            return
        if awake:
            _sleep.wake_body(self._world, i)
        else:
            _sleep.sleep_island(self._world, i)

    @property
    def allow_sleep(self) -> bool:
        """May the body fall asleep (default True). False keeps it and every body of its island
        awake; setting False wakes the island."""
        return bool(self._world._bodies.allow_sleep[self._row()])

    @allow_sleep.setter
    def allow_sleep(self, value) -> None:
        _lock.check(self._world, "Body.allow_sleep = ...")
        i = self._row()
        allow = _validate.flag(value, "allow_sleep")
        if not allow:
            _sleep.wake_body(self._world, i)
        self._world._bodies.allow_sleep[i] = allow

    @property
    def sleep_threshold(self) -> float:
        """m/s, in [0, 1e5] (default 0.05, as Box2D's). The body counts as at rest while its
        speed, and its angular speed times its reach from the centre of mass (its farthest
        shape point), stay at or below this."""
        return float(self._world._bodies.sleep_threshold[self._row()])

    @sleep_threshold.setter
    def sleep_threshold(self, value) -> None:
        _lock.check(self._world, "Body.sleep_threshold = ...")
        i = self._row()
        self._world._bodies.sleep_threshold[i] = _validate.non_negative(
            value, "sleep_threshold", _validate.MAX_SPEED, "m/s")

    @property
    def user_data(self) -> Any:
        self._row()
        return self._world._body_user_data.get(self._index)

    @user_data.setter
    def user_data(self, value: Any) -> None:
        self._row()
        self._world._body_user_data[self._index] = value

    @property
    def shapes(self) -> list[Shape]:
        """The shapes attached to this body, in creation order."""
        i = self._row()
        return [self._world._shape_handles[s] for s in self._world._body_shapes[i]]

    @property
    def contacts(self) -> list:
        """The body's touching contacts as of the last step (``ContactInfo`` records, as
        ``world.contacts`` lists them; Box2D's ``b2Body_GetContactData``)."""
        from .contacts import body_contacts  # contacts imports the world's types
        return body_contacts(self)

    # -- forces ---------------------------------------------------------------------------
    # Forces add up in a per-step accumulator that the step turns into h * force / mass. Each
    # force, and the accumulated force and torque, is kept within +-MAX_FORCE (1e30 N, N m):
    # with the smallest mass allowed (1e-30 kg) that is an acceleration of 1e60 m/s^2, whose
    # square the speed clamp forms, still finite. The sums are formed in Python floats and
    # checked before anything is written, so a rejected force leaves the accumulator as it was.

    def apply_force(self, force, point=None) -> None:
        """Add a force (N) for the next step, at a world ``point`` (None = centre of mass).

        Forces are cleared after each step. No effect on static and kinematic bodies. Each
        component of the force, and of the step's accumulated force on the body, must stay
        within +-1e30 N, and the accumulated torque within +-1e30 N m.
        """
        if self._world._lock.stepping:
            raise _lock.locked("Body.apply_force")
        i = self._row()
        fx, fy = _validate.vec2(force, "force", bound=_validate.MAX_FORCE, unit="N")
        rx, ry = self._arm(i, point)
        bodies = self._world._bodies
        if bodies.type[i] != DYNAMIC:
            return
        total_x = float(bodies.force[i, 0]) + fx
        total_y = float(bodies.force[i, 1]) + fy
        torque = float(bodies.torque[i]) + (rx * fy - ry * fx)
        _accumulated("force", (total_x, total_y), "N")
        _accumulated("force", (torque,), "N m", "torque about the centre of mass")
        _sleep.wake_body(self._world, i)
        bodies.force[i] = (total_x, total_y)
        bodies.torque[i] = torque

    def apply_torque(self, torque) -> None:
        """Add a torque (N m) for the next step; it, and the step's accumulated torque, must
        stay within +-1e30 N m."""
        if self._world._lock.stepping:
            raise _lock.locked("Body.apply_torque")
        i = self._row()
        t = _validate.real(torque, "torque", _validate.MAX_FORCE, "N m")
        bodies = self._world._bodies
        if bodies.type[i] == DYNAMIC:
            total = float(bodies.torque[i]) + t
            _accumulated("torque", (total,), "N m")
            _sleep.wake_body(self._world, i)
            bodies.torque[i] = total

    # An impulse changes the velocity at once. Any finite impulse is accepted: a tiny body hit
    # hard off its centre gets a large velocity, which the step clamps to its speed limits
    # (max_linear_speed, a quarter turn per step) before it moves the body, as Box2D and pymunk
    # do. Only an impulse whose velocity change overflows (inv_mass * impulse = inf) is
    # refused. A finite result beyond MAX_VELOCITY (1e30) is scaled to it, direction and sign
    # kept: the step would clamp it far below that anyway, and the bound keeps the step's
    # arithmetic before its clamp finite.

    def apply_linear_impulse(self, impulse, point=None) -> None:
        """Change momentum at once by ``impulse`` (N s) at a world ``point`` (None = centre).

        Any finite impulse whose velocity change is finite is accepted; the next step clamps
        the body to ``max_linear_speed`` and a quarter turn per step.
        """
        if self._world._lock.stepping:
            raise _lock.locked("Body.apply_linear_impulse")
        i = self._row()
        px, py = _validate.vec2(impulse, "impulse", limit=False)
        rx, ry = self._arm(i, point)
        bodies = self._world._bodies
        if bodies.type[i] != DYNAMIC:
            return
        inv_m = float(bodies.inv_mass[i])
        inv_i = float(bodies.inv_inertia[i])
        vx = float(bodies.v[i, 0]) + inv_m * px
        vy = float(bodies.v[i, 1]) + inv_m * py
        # No rotational response (fixed rotation): 0 * a huge moment would be NaN, not 0.
        w = float(bodies.w[i]) + (inv_i * (rx * py - ry * px) if inv_i != 0.0 else 0.0)
        vx, vy, w = _resulting_velocity("impulse", vx, vy, w)
        _sleep.wake_body(self._world, i)
        bodies.v[i] = (vx, vy)
        bodies.w[i] = w

    def apply_angular_impulse(self, impulse) -> None:
        """Change angular momentum at once by ``impulse`` (N m s): any finite impulse whose
        velocity change is finite; the next step clamps the spin to a quarter turn per step."""
        if self._world._lock.stepping:
            raise _lock.locked("Body.apply_angular_impulse")
        i = self._row()
        p = _validate.real(impulse, "impulse")
        bodies = self._world._bodies
        if bodies.type[i] == DYNAMIC:
            inv_i = float(bodies.inv_inertia[i])
            w = float(bodies.w[i]) + (inv_i * p if inv_i != 0.0 else 0.0)
            w = _resulting_velocity("impulse", 0.0, 0.0, w)[2]
            _sleep.wake_body(self._world, i)
            bodies.w[i] = w

    def _arm(self, i: int, point) -> tuple[float, float]:
        if point is None:
            return 0.0, 0.0
        x, y = _validate.vec2(point, "point")
        c = self._world._bodies.center[i]
        return x - float(c[0]), y - float(c[1])

    # -- frames ---------------------------------------------------------------------------
    def world_point(self, local_point) -> Vec2:
        """A body-frame point in world coordinates."""
        i = self._row()
        x, y = _validate.vec2(local_point, "local_point")
        b = self._world._bodies
        c, s = b.rot[i]
        return Vec2(float(b.origin[i, 0] + c * x - s * y), float(b.origin[i, 1] + s * x + c * y))

    def local_point(self, world_point) -> Vec2:
        """A world point in body coordinates."""
        i = self._row()
        x, y = _validate.vec2(world_point, "world_point")
        b = self._world._bodies
        # read with ndarray.item (Python floats: the same double operations as on NumPy's
        # scalars, without unpacking a row's view; a joint's creation calls this twice)
        rot, origin = b.rot, b.origin
        c, s = rot.item(i, 0), rot.item(i, 1)
        dx = x - origin.item(i, 0)
        dy = y - origin.item(i, 1)
        return Vec2(c * dx + s * dy, -s * dx + c * dy)

    def velocity_at(self, world_point) -> Vec2:
        """Velocity of the body's material point at ``world_point``, m/s."""
        i = self._row()
        rx, ry = self._arm(i, world_point)
        b = self._world._bodies
        w = b.w[i]
        return Vec2(float(b.v[i, 0] - w * ry), float(b.v[i, 1] + w * rx))

    # -- shapes (see shapes.py for the geometry and material options) ----------------------
    def create_circle(self, radius, center=(0.0, 0.0), **material) -> Shape:
        """Attach a circle of ``radius`` m (at most 1e5 m) centred at ``center`` (body frame)."""
        from ._collision import geometry
        self._row()
        return self._world._create_shape(self, "circle", lambda: geometry.make_circle(
            _validate.vec2(center, "center"), _validate.size(radius, "radius")), material,
            "radius")

    def create_box(self, half_width, half_height, center=(0.0, 0.0), angle=0.0, radius=0.0,
                   **material) -> Shape:
        """Attach a box of half extents (m, at most 1e5) centred at ``center`` and rotated by
        ``angle`` (rad, body frame); ``radius`` rounds its corners (and grows it by that much on
        every side)."""
        from ._collision import geometry
        self._row()
        return self._world._create_shape(self, "polygon", lambda: geometry.make_box(
            _validate.size(half_width, "half_width"), _validate.size(half_height, "half_height"),
            _validate.vec2(center, "center"), _validate.angle(angle, "angle"),
            _validate.rounding(radius, "radius")), material, "half_width and half_height")

    def create_polygon(self, vertices, radius=0.0, **material) -> Shape:
        """Attach the convex hull of up to 8 body-frame ``vertices``, rounded by ``radius``."""
        from ._collision import geometry
        self._row()
        return self._world._create_shape(self, "polygon", lambda: geometry.make_polygon(
            _points(vertices), _validate.rounding(radius, "radius")), material, "vertices")

    def create_capsule(self, p1, p2, radius, **material) -> Shape:
        """Attach a capsule: the segment p1-p2 (body frame) thickened by ``radius`` (m, at most
        1e5)."""
        from ._collision import geometry
        self._row()
        return self._world._create_shape(self, "capsule", lambda: geometry.make_capsule(
            _validate.vec2(p1, "p1"), _validate.vec2(p2, "p2"), _validate.size(radius, "radius")),
            material, "radius")

    def create_segment(self, p1, p2, **material) -> Shape:
        """Attach a line segment (no area, so no mass; typically on static bodies)."""
        from ._collision import geometry
        self._row()
        return self._world._create_shape(self, "segment", lambda: geometry.make_segment(
            _validate.vec2(p1, "p1"), _validate.vec2(p2, "p2")), material, "p1 and p2")

    def create_chain(self, points, loop=False, **material) -> Chain:
        """Attach a chain of one-sided segments through the body-frame ``points`` (at least 2;
        a ``loop`` at least 3 and closed back to the first): smooth terrain that bodies slide
        over without catching at inner vertices. Bodies touch it from the right of the
        direction of travel of the points only (a counter-clockwise loop keeps them outside, a
        clockwise one inside; ground from left to right is given right to left).
        ``friction`` and ``restitution`` take a number or one value per segment; a chain
        cannot be a sensor. Returns a :class:`~impulse2d.chains.Chain` (its ``segments`` are
        Shape handles); see :mod:`impulse2d.chains`."""
        from . import chains
        self._row()
        return chains.create_chain(self._world, self, points, loop, material)


def check_linear_velocity(value, name: str = "linear_velocity") -> tuple[float, float]:
    """A body's linear velocity, m/s, each component within +-MAX_VELOCITY (creation and
    setter)."""
    return _validate.vec2(value, name, bound=_validate.MAX_VELOCITY, unit="m/s")


def check_angular_velocity(value, name: str = "angular_velocity") -> float:
    """A body's angular velocity, rad/s, within +-MAX_VELOCITY (creation and setter)."""
    return _validate.velocity(value, name, "rad/s")


def _accumulated(name: str, totals, unit: str, what: str = "") -> None:
    """Reject a force or torque whose step total would leave +-MAX_FORCE."""
    bound = _validate.MAX_FORCE
    if not all(abs(t) <= bound for t in totals):  # written so that NaN fails too
        shown = ", ".join(f"{t:.6g}" for t in totals)
        raise ValueError(f"{name} would bring the body's accumulated {what or name} of this step "
                         f"to ({shown}) {unit}, beyond +-{bound:g} {unit}")


def _resulting_velocity(name: str, vx: float, vy: float, w: float) -> tuple[float, float, float]:
    """The velocity an impulse leaves, scaled into +-MAX_VELOCITY (linear: direction kept);
    ``ValueError`` when its arithmetic overflowed."""
    if not (math.isfinite(vx) and math.isfinite(vy) and math.isfinite(w)):
        raise ValueError(f"{name} would give the body a velocity that overflows (linear "
                         f"({vx:.6g}, {vy:.6g}) m/s, angular {w:.6g} rad/s): "
                         f"impulse / mass must stay within float64's range")
    bound = _validate.MAX_VELOCITY
    if abs(vx) > bound or abs(vy) > bound:
        k = bound / max(abs(vx), abs(vy))  # no hypot: it can overflow where both are finite
        vx, vy = vx * k, vy * k
    if abs(w) > bound:
        w = math.copysign(bound, w)
    return vx, vy, w


def _points(vertices) -> list[tuple[float, float]]:
    if isinstance(vertices, (str, bytes)) or not hasattr(vertices, "__iter__"):
        raise TypeError(f"vertices must be a sequence of (x, y) points, got {type(vertices).__name__}")
    return [_validate.vec2(p, f"vertices[{k}]") for k, p in enumerate(vertices)]


_BODY_TYPE_NAMES = {"static": STATIC, "kinematic": 1, "dynamic": DYNAMIC}


def parse_body_type(value) -> int:
    """A body type given as ``BodyType`` or its lower-case name."""
    if isinstance(value, BodyType):
        return value.code
    if isinstance(value, str):
        try:
            return _BODY_TYPE_NAMES[value.lower()]
        except KeyError:
            raise ValueError(f"unknown body type {value!r}; use 'dynamic', 'static' or 'kinematic'") from None
    raise TypeError(f"body type must be a string or BodyType, got {type(value).__name__}")
