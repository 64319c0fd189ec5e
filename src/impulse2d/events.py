"""Events of the last step: contacts that began or ended touching, hard hits, sensor overlaps
that began or ended, and bodies that moved. ``World`` hands them to this module.

Read them after a step, as records or as NumPy arrays::

    world.step(1 / 60)
    events = world.contact_events()
    for begin in events.begin:                 # ContactBegin(shape_a, shape_b, normal, points)
        ...
    events.begin_shapes                        # (K, 2) int64 shape indices, the same pairs

Events are those of the last step, and stay until the next step begins; destroying a shape or a
body between steps adds the end events of its touching contacts and sensor overlaps (Box2D's
rule). A shape in an event may have been destroyed since: its handle then says so
(``shape.is_valid`` is False) but still compares equal to the handle the program kept.

Contact and body events are switched on per world (``WorldSettings.enable_contact_events``,
``enable_body_events``; off by default, so that a world that does not read them pays nothing:
Box2D has them on, but there they cost C, here a few microseconds of Python a step, a third of
a small world's step). On, a step costs one pass over the contacts (the begin/end merge of
sorted keys), one over the constraint rows (hits) and a copy of the bodies' positions and angles.
Sensor events need no switch: a world with sensor shapes makes them (one overlap test per sensor
and shape near it a step), a world without pays nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._core.jit import DirectCall
from ._dynamics.events import hits, moved_bodies, sensor_overlaps, touch_changes
from ._dynamics.world_ref import sync_constraints
from .shapes import Shape
from .types import Vec2

_SECONDS = 2.0
_touch_changes = DirectCall(touch_changes, "contact events", _SECONDS)
_hits = DirectCall(hits, "hit events", _SECONDS)
_sensor_overlaps = DirectCall(sensor_overlaps, "sensor events", _SECONDS)
_moved_bodies = DirectCall(moved_bodies, "body events", _SECONDS)

_LOW = (1 << 32) - 1
_EMPTY = np.empty(0, np.int64)


class ContactBegin(NamedTuple):
    """Two shapes began touching: the manifold's normal (from A to B) and its world points."""

    shape_a: Shape
    shape_b: Shape
    normal: Vec2
    points: tuple


class ContactEnd(NamedTuple):
    """Two shapes stopped touching (or one of them was destroyed, or a filter now keeps them
    apart)."""

    shape_a: Shape
    shape_b: Shape


class ContactHit(NamedTuple):
    """Two shapes met at an approach speed above ``WorldSettings.hit_event_threshold``: the
    contact point that approached fastest, the normal (from A to B) and that speed (m/s,
    measured before the step's solve)."""

    shape_a: Shape
    shape_b: Shape
    point: Vec2
    normal: Vec2
    speed: float


class SensorEvent(NamedTuple):
    """A shape (the visitor) began or ended overlapping a sensor shape."""

    sensor_shape: Shape
    visitor_shape: Shape


class ContactEvents:
    """The contact events of the last step. Records (``begin``, ``end``, ``hit``: lists, built
    on first use) and arrays (``*_shapes``: (K, 2) int64 shape indices; ``hit_points``,
    ``hit_normals``: (K, 2); ``hit_speeds``: (K,))."""

    def __init__(self, world, begin, begin_normals, begin_points, begin_counts, end, hit,
                 hit_points, hit_normals, hit_speeds):
        self._world = world
        self._begin = begin
        self.begin_shapes = begin[:, :2]
        self.end_shapes = end[:, :2]
        self.hit_shapes = hit[:, :2]
        self.begin_normals = begin_normals
        self._begin_points = begin_points
        self._begin_counts = begin_counts
        self._end = end
        self._hit = hit
        self.hit_points = hit_points
        self.hit_normals = hit_normals
        self.hit_speeds = hit_speeds

    @property
    def begin(self) -> list[ContactBegin]:
        w = self._world
        return [ContactBegin(_handle(w, a, ga), _handle(w, b, gb), Vec2(*map(float, n)),
                             tuple(Vec2(*map(float, p)) for p in points[:c]))
                for (a, b, ga, gb), n, points, c in zip(self._begin.tolist(), self.begin_normals,
                                                          self._begin_points,
                                                          self._begin_counts.tolist())]

    @property
    def end(self) -> list[ContactEnd]:
        w = self._world
        return [ContactEnd(_handle(w, a, ga), _handle(w, b, gb))
                for a, b, ga, gb in self._end.tolist()]

    @property
    def hit(self) -> list[ContactHit]:
        w = self._world
        return [ContactHit(_handle(w, a, ga), _handle(w, b, gb), Vec2(*map(float, p)),
                           Vec2(*map(float, n)), float(v))
                for (a, b, ga, gb), p, n, v in zip(self._hit.tolist(), self.hit_points,
                                                   self.hit_normals, self.hit_speeds)]


class SensorEvents:
    """The sensor events of the last step: ``begin`` and ``end`` records, and the arrays
    ``begin_shapes``, ``end_shapes`` ((K, 2) int64: sensor index, visitor index)."""

    def __init__(self, world, begin, end):
        self._world = world
        self._begin = begin
        self._end = end
        self.begin_shapes = begin[:, :2]
        self.end_shapes = end[:, :2]

    @property
    def begin(self) -> list[SensorEvent]:
        return [SensorEvent(_handle(self._world, s, gs), _handle(self._world, v, gv))
                for s, v, gs, gv in self._begin.tolist()]

    @property
    def end(self) -> list[SensorEvent]:
        return [SensorEvent(_handle(self._world, s, gs), _handle(self._world, v, gv))
                for s, v, gs, gv in self._end.tolist()]


class BodyEvents:
    """The bodies whose position or angle the last step changed, and those that fell asleep in
    it (Box2D's move events with their ``fellAsleep`` flag): ``bodies`` (handles, built on
    first use, live ones), ``indices`` (their rows in the body store, ascending), ``positions``
    (K, 2) and ``angles`` (K,) after the step, ``fell_asleep`` (K,) bool: the body's island
    fell asleep in this step (it will not move again until woken)."""

    def __init__(self, world, rows, positions, angles, fell_asleep):
        self._world = world
        self.indices = rows
        self.positions = positions
        self.angles = angles
        self.fell_asleep = fell_asleep

    @property
    def bodies(self) -> list:
        handles = self._world._body_handles
        return [handles[i] for i in self.indices.tolist() if i in handles]


def _handle(world, row: int, generation: int) -> Shape:
    handle = world._shape_handles.get(row)
    if handle is not None and handle._generation == generation:
        return handle
    return Shape(world, row, generation)  # destroyed since: equal to the program's handle


def _pairs(a, b, shapes, dead=None):
    """(K, 4) int64: shape rows a, b and their generations (of the shape as it was, for rows
    in ``dead``, destroyed just now: their generation was bumped)."""
    out = np.empty((len(a), 4), np.int64)
    out[:, 0] = a
    out[:, 1] = b
    out[:, 2] = shapes.generation[a]
    out[:, 3] = shapes.generation[b]
    if dead is not None:
        out[:, 2] -= dead[a]
        out[:, 3] -= dead[b]
    return out


_NO_PAIRS = np.empty((0, 4), np.int64)
_NO_CONTACT_EVENTS = dict(begin=_NO_PAIRS, normals=np.empty((0, 2)), points=np.empty((0, 2, 2)),
                          counts=_EMPTY, end=(_NO_PAIRS,), hit=_NO_PAIRS,
                          hit_points=np.empty((0, 2)), hit_normals=np.empty((0, 2)),
                          hit_speeds=np.empty(0))
_NO_MOVES = (_EMPTY, np.empty((0, 2)), np.empty(0), np.empty(0, dtype=np.bool_))
SHARED = (_EMPTY, _NO_PAIRS, _NO_CONTACT_EVENTS, _NO_MOVES)
"""The "no events" values every world's tracker binds and none ever changes (a tracker binds
new values, it never writes into them): snapshots share them rather than copy them."""


class EventTracker:
    """Keeps what the events of a world need between steps and makes them after each step.

    ``World.step`` calls :meth:`before_step` and :meth:`after_step` only while :attr:`on`: some
    events are switched on, the world has a sensor, or touching pairs are left from when contact
    events were on. :attr:`on` is asked again when the settings change (or a sensor is made), so
    a world without events pays two attribute reads a step (0.3 us of a 9 us step when it was
    four reads and a call, measured on the 2-core CI machine)."""

    def __init__(self):
        self.touching = _EMPTY      # keys touching after the last step, ascending
        self.sensing = _EMPTY       # sensor << 32 | visitor keys overlapping, ascending
        self.sensor_count = 0       # live sensor shapes (none: no sensor events to make)
        self.before = None          # (positions, angles) of the bodies before the step
        self.contact = _NO_CONTACT_EVENTS
        self.sensor_begin = _NO_PAIRS
        self.sensor_end = (_NO_PAIRS,)
        self.moved = _NO_MOVES
        self.on = False

    def wanted(self, settings) -> bool:
        """Whether the next step must make events (see the class docstring)."""
        return bool(settings.enable_contact_events or settings.enable_body_events
                    or self.sensor_count > 0 or self.touching.size > 0)

    # -- the step ------------------------------------------------------------------------------
    def before_step(self, world) -> None:
        self.contact = _NO_CONTACT_EVENTS
        self.sensor_begin = _NO_PAIRS
        self.sensor_end = (_NO_PAIRS,)
        self.moved = _NO_MOVES
        if world.settings.enable_body_events:
            b = world._bodies
            self.before = (b.origin.copy(), b.angle.copy(), b.asleep.copy())

    def after_step(self, world, solved: bool = True) -> None:
        """The events of the step just taken; ``solved`` False for ``step(0)``, which ran no
        solver: its constraint store is the last step's, so it makes no hit events."""
        settings = world.settings
        shapes = world._shapes
        if settings.enable_contact_events:
            c = world._contacts
            begin, ended, self.touching = _touch_changes(self.touching, c.key, c.count)
            sync_constraints(world)  # the step keeps a new store in the reference only
            cs = world._constraints
            rows_of = cs.contact if solved else cs.contact[:0]  # step(0): no hits
            rows, points, speeds = _hits(rows_of, cs.count, cs.relative_velocity,
                                         cs.max_normal_impulse,
                                         float(settings.hit_event_threshold))
            self.contact = dict(
                begin=_pairs(c.shape_a[begin], c.shape_b[begin], shapes),
                normals=c.normal[begin], points=c.point[begin], counts=c.count[begin],
                end=(_pairs(ended >> 32, ended & _LOW, shapes),),
                hit=_pairs(c.shape_a[rows], c.shape_b[rows], shapes),
                hit_points=c.point[rows, points], hit_normals=c.normal[rows], hit_speeds=speeds)
        else:
            self.touching = _EMPTY  # switched off: the next switch-on starts afresh
        if self.sensor_count > 0:
            self._sense(world)
        else:
            self.sensing = _EMPTY
        if self.before is not None:
            b = world._bodies
            origin, angle, asleep = self.before
            moved = _moved_bodies(b.alive, b.origin, b.angle, origin, angle)
            if world._fell_asleep:
                # with the bodies that fell asleep without moving in the step's last digits
                fell = np.flatnonzero(b.alive & b.asleep & ~asleep)
                moved = np.union1d(moved, fell)
                fell_asleep = np.isin(moved, fell)
            else:
                fell_asleep = np.zeros(moved.shape[0], dtype=np.bool_)
            self.moved = (moved, b.origin[moved], b.angle[moved], fell_asleep)
            self.before = None

    def _sense(self, world) -> None:
        shapes = world._shapes
        sensors = np.flatnonzero(shapes.alive & shapes.is_sensor)
        visible = shapes.alive & ~shapes.is_sensor & shapes.sensor_events
        bodies = world._bodies
        pairs = _sensor_overlaps(shapes.body, shapes.count, shapes.vertices, shapes.radius,
                                 bodies.origin, bodies.rot, sensors, visible)
        keys = np.sort((pairs[:, 0] << 32) | pairs[:, 1])
        began = np.setdiff1d(keys, self.sensing, assume_unique=True)
        ended = np.setdiff1d(self.sensing, keys, assume_unique=True)
        self.sensing = keys
        self.sensor_begin = _pairs(began >> 32, began & _LOW, shapes)
        self.sensor_end = (_pairs(ended >> 32, ended & _LOW, shapes),)

    # -- between steps -------------------------------------------------------------------------
    def contacts_dropped(self, world, dropped, dead) -> None:
        """Contact rows ``dropped`` (a mask of the store) go with shapes destroyed just now
        (``dead``: 1 at their rows): the touching ones end."""
        if not len(self.touching):
            return
        c = world._contacts
        gone = dropped & (c.count > 0)
        if gone.any():
            ended = _pairs(c.shape_a[gone], c.shape_b[gone], world._shapes, dead)
            self.contact = {**self.contact, "end": (*self.contact["end"], ended)}
            self.touching = np.setdiff1d(self.touching, c.key[gone], assume_unique=True)

    def shapes_destroyed(self, world, rows, dead) -> None:
        """Sensor overlaps of the shapes ``rows`` (destroyed just now) end."""
        if not len(self.sensing):
            return
        sensor, visitor = self.sensing >> 32, self.sensing & _LOW
        gone = np.isin(sensor, rows) | np.isin(visitor, rows)
        if gone.any():
            ended = _pairs(sensor[gone], visitor[gone], world._shapes, dead)
            self.sensor_end = (*self.sensor_end, ended)
            self.sensing = self.sensing[~gone]

    # -- what the world returns ----------------------------------------------------------------
    def contact_events(self, world) -> ContactEvents:
        if not world.settings.enable_contact_events:
            raise ValueError("contact events are off: set world.settings.enable_contact_events"
                             " = True (then each step finds them: a pass over the contacts)")
        e = self.contact
        return ContactEvents(world, e["begin"], e["normals"], e["points"], e["counts"],
                             np.concatenate(e["end"]), e["hit"], e["hit_points"],
                             e["hit_normals"], e["hit_speeds"])

    def sensor_events(self, world) -> SensorEvents:
        return SensorEvents(world, self.sensor_begin, np.concatenate(self.sensor_end))

    def body_events(self, world) -> BodyEvents:
        if not world.settings.enable_body_events:
            raise ValueError("body events are off: set world.settings.enable_body_events = True"
                             " (then each step copies the bodies' positions and angles)")
        return BodyEvents(world, *self.moved)


__all__ = ["ContactEvents", "ContactBegin", "ContactEnd", "ContactHit", "SensorEvents",
           "SensorEvent", "BodyEvents", "EventTracker"]
