"""The ``Shape`` handle and the material options every shape takes.

Shapes give bodies their extent, mass and surface. Geometry is fixed at creation; material and
collision filter can be changed later (density changes re-compute the body's mass).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import _lock, _sleep, _validate
from ._collision.geometry import shape_aabb
from ._dynamics.step import MIXING_STALE
from ._handle import Handle
from .types import ShapeType, Vec2

if TYPE_CHECKING:
    from .body import Body

ALL_BITS = 0xFFFF_FFFF_FFFF_FFFF

MATERIAL_DEFAULTS = {
    "density": 1.0,        # kg/m^2, >= 0; the shape's mass must come out 0 or in [1e-30, 1e30] kg
    "friction": 0.6,       # Coulomb coefficient in [0, 1e6] (mixed with the other's: sqrt(fa fb))
    "restitution": 0.0,    # bounciness in [0, 1e6] (mixed: max(ea, eb))
    "is_sensor": False,    # a sensor makes no contacts and reports overlaps (sensor events)
    "enable_sensor_events": True,  # sensors detect this shape
    "category": 0x1,       # bits this shape is
    "mask": ALL_BITS,      # bits it collides with
    "group": 0,            # signed 64-bit; equal negative groups never collide, equal positive do
    "user_data": None,
}

_MATERIAL_NAMES = frozenset(MATERIAL_DEFAULTS)


def parse_material(options: dict) -> dict:
    """Validate shape keyword options; unknown names raise ``TypeError``."""
    if not _MATERIAL_NAMES.issuperset(options):  # (no set built per call: a body's creation)
        unknown = set(options) - _MATERIAL_NAMES
        raise TypeError(f"unknown shape option(s): {', '.join(sorted(unknown))}; "
                        f"known: {', '.join(MATERIAL_DEFAULTS)}")
    m = {**MATERIAL_DEFAULTS, **options}
    return {
        "density": _validate.non_negative(m["density"], "density"),
        "friction": _validate.factor(m["friction"], "friction"),
        "restitution": _validate.factor(m["restitution"], "restitution"),
        "is_sensor": _validate.flag(m["is_sensor"], "is_sensor"),
        "enable_sensor_events": _validate.flag(m["enable_sensor_events"], "enable_sensor_events"),
        "category": _validate.bits(m["category"], "category"),
        "mask": _validate.bits(m["mask"], "mask"),
        "group": _validate.integer(m["group"], "group"),
        "user_data": m["user_data"],
    }


class Shape(Handle):
    """A shape attached to a body. Create with ``body.create_circle``/``create_box``/..."""

    __slots__ = ()
    _kind = "shape"
    _store_name = "_shapes"

    def __repr__(self) -> str:
        if not self.is_valid:
            return "<Shape destroyed>"
        return f"<Shape {self.type} #{self._index}>"

    @property
    def index(self) -> int:
        """The shape's row in the world's shape store: what batched queries report
        (``World.ray_cast_many``). Stable while the shape exists; a later shape may reuse it."""
        return self._row()

    # -- geometry -------------------------------------------------------------------------
    @property
    def type(self) -> ShapeType:
        return ShapeType.from_code(int(self._world._shapes.type[self._row()]))

    @property
    def body(self) -> Body:
        return self._world._body_handles[int(self._world._shapes.body[self._row()])]

    @property
    def radius(self) -> float:
        """Circle or capsule radius, or a polygon's rounding radius, m."""
        return float(self._world._shapes.radius[self._row()])

    @property
    def vertices(self) -> list[Vec2]:
        """Body-frame vertices: the centre of a circle, the two ends of a capsule or segment, or
        a polygon's counter-clockwise hull."""
        i = self._row()
        shapes = self._world._shapes
        return [Vec2(float(x), float(y)) for x, y in shapes.vertices[i, : shapes.count[i]]]

    @property
    def aabb(self) -> tuple[float, float, float, float]:
        """World bounding box (min x, min y, max x, max y), m, where the shape is now:
        computed from its body's pose with the step's own routine, before the first step and
        after a body is moved by hand too. (The step makes its broadphase boxes as it starts,
        before the bodies move: those lag a step behind this one.)"""
        i = self._row()
        world = self._world
        shapes = world._shapes
        bodies = world._bodies
        b = int(shapes.body[i])
        box = np.empty(4)
        shape_aabb(int(shapes.count[i]), shapes.vertices[i], float(shapes.radius[i]),
                   float(bodies.origin[b, 0]), float(bodies.origin[b, 1]),
                   float(bodies.rot[b, 0]), float(bodies.rot[b, 1]), box)
        return tuple(box.tolist())

    # -- material ---------------------------------------------------------------------------
    @property
    def density(self) -> float:
        """kg/m^2, >= 0. Settable; the body's mass follows. As at creation, the shape's mass
        (and the body's) must come out 0 or within [1e-30, 1e30] kg, its rotational inertia
        within [1e-30, 1e45] kg m^2."""
        return float(self._world._shapes.density[self._row()])

    @density.setter
    def density(self, value) -> None:
        _lock.check(self._world, "Shape.density = ...")
        i = self._row()
        self._world._set_density(i, _validate.non_negative(value, "density"))

    @property
    def friction(self) -> float:
        """Coulomb friction coefficient, in [0, 1e6]."""
        return float(self._world._shapes.friction[self._row()])

    @friction.setter
    def friction(self, value) -> None:
        _lock.check(self._world, "Shape.friction = ...")
        i = self._row()
        self._world._shapes.friction[i] = _validate.factor(value, "friction")
        self._world._step_settings[MIXING_STALE] = 1.0  # (its contacts' mix: the next step's)

    @property
    def restitution(self) -> float:
        """Restitution (bounciness) coefficient, in [0, 1e6]."""
        return float(self._world._shapes.restitution[self._row()])

    @restitution.setter
    def restitution(self, value) -> None:
        _lock.check(self._world, "Shape.restitution = ...")
        i = self._row()
        self._world._shapes.restitution[i] = _validate.factor(value, "restitution")
        self._world._step_settings[MIXING_STALE] = 1.0

    @property
    def is_sensor(self) -> bool:
        """A sensor makes no contacts and reports the shapes it overlaps
        (``World.sensor_events()``). Settable."""
        return bool(self._world._shapes.is_sensor[self._row()])

    @is_sensor.setter
    def is_sensor(self, value) -> None:
        _lock.check(self._world, "Shape.is_sensor = ...")
        i = self._row()
        flag = _validate.flag(value, "is_sensor")
        world = self._world
        if flag != bool(world._shapes.is_sensor[i]):
            world._shapes.is_sensor[i] = flag
            world._events.sensor_count += 1 if flag else -1
            world._events.on = True  # asked again at the next step
            world._pairs_dirty = True
            _sleep.wake_touching(world, int(world._shapes.body[i]))

    @property
    def enable_sensor_events(self) -> bool:
        """Whether sensors detect this shape (default True). Settable."""
        return bool(self._world._shapes.sensor_events[self._row()])

    @enable_sensor_events.setter
    def enable_sensor_events(self, value) -> None:
        _lock.check(self._world, "Shape.enable_sensor_events = ...")
        i = self._row()
        self._world._shapes.sensor_events[i] = _validate.flag(value, "enable_sensor_events")

    def _filter_property(column: str, check):  # noqa: N805  (class-body helper)
        def fget(self):
            return int(getattr(self._world._shapes, column)[self._row()])

        def fset(self, value):
            _lock.check(self._world, f"Shape.{column} = ...")
            i = self._row()
            getattr(self._world._shapes, column)[i] = check(value, column)
            self._world._pairs_dirty = True
            # the pairs it makes change: its island wakes, and so do the islands it touched
            _sleep.wake_touching(self._world, int(self._world._shapes.body[i]))

        return property(fget, fset)

    category = _filter_property("category", _validate.bits)
    """Collision category bits of this shape."""
    mask = _filter_property("mask", _validate.bits)
    """Category bits this shape collides with."""
    group = _filter_property("group", _validate.integer)
    """Collision group (a signed 64-bit integer): equal negative groups never collide, equal
    positive groups always do."""
    del _filter_property

    @property
    def user_data(self) -> Any:
        self._row()
        return self._world._shape_user_data.get(self._index)

    @user_data.setter
    def user_data(self, value: Any) -> None:
        self._row()
        self._world._shape_user_data[self._index] = value
