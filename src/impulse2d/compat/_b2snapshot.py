"""Snapshots of a ``b2World``: the engine's snapshot (:mod:`impulse2d.snapshot`) with the
layer's own state, so that its Python objects come back with the engine's rows.

A ``b2World`` keeps Python objects for the engine's rows (``b2Body``, ``b2Fixture``,
``b2Joint``), maps from rows to them, and state of its own (the touching contact keys its
callbacks are computed from, the motor sleep timers, the iteration counts it last wrote).
Restoring the engine alone leaves all of that stale: a body destroyed after the snapshot is a
row again, but not in the layer's maps. :func:`take` copies, beside the engine's snapshot:

* the ``b2World``'s attributes (the program's own included), containers and arrays copied one
  level deep (the objects in them are held by reference, as the engine holds user data);
  ``_world`` (the engine, restored by its snapshot) and the two per-process caches
  (:data:`_CACHES`) excepted;
* the fields of every live body, fixture and joint (their slots and ``__dict__``: the body's
  fixture and joint lists, ``userData``, attributes the program set, such as Gymnasium's
  ``leg.ground_contact``), lists copied.

:func:`restore` puts them back: the objects of the snapshot are the program's objects again,
valid and equal to their state then (their engine handles are the very objects the engine's
restore makes valid again). Objects made after the snapshot are not in it: their class becomes a
"destroyed" subclass whose every attribute read raises a ``ValueError`` naming the object and
why, so that ``DestroyBody`` on them, or ``body.position``, fails at the call rather than
reading a freed row (another object's, after a restore). ``DestroyBody``, ``DestroyFixture``
and ``DestroyJoint`` mark what they destroy the same way (:func:`mark_destroyed`), so that an
object made and destroyed between a snapshot and its restore is not read either; a later
restore of a snapshot that holds an object gives it its class back.
"""

from __future__ import annotations

import numpy as np

from ..snapshot import Snapshot
from ..world import World
from ._b2queue import flush_queue

_CACHES = ("_world", "_keys_seen", "_buffers", "_engine_count", "_engine_taken",
           "_body_rows")
"""``b2World`` attributes not copied: the engine (its own snapshot), the contact store's key
list (rebuilt when the store changes), ``Step``'s scratch arrays, what ``_b2release`` knows
of the engine world (the same world before and after a restore), and the views of the body
store (``_b2rows``: bound to whatever store the world has)."""


class LayerWorld(World):
    """The engine ``World`` under a ``b2World`` (``world.engine``): an impulse2d ``World`` whose
    ``restore`` refuses, because restoring the engine alone would leave the layer's bodies,
    fixtures and joints stale; ``b2World.restore`` restores both."""

    def restore(self, snapshot) -> None:
        raise ValueError("this World is the engine of a b2World: restore it with "
                         "b2World.restore(b2World.snapshot()), which restores the layer's "
                         "bodies, fixtures and joints with it (World.restore would leave them "
                         "stale)")


class b2WorldSnapshot:  # noqa: N801
    """The state of a ``b2World`` at one moment, from ``world.snapshot()``: the engine's
    :class:`~impulse2d.snapshot.Snapshot` (``engine``) and the layer's objects' fields."""

    __slots__ = ("engine", "_world", "_fields", "_objects")

    def __init__(self, engine, world, fields, objects):
        self.engine = engine
        self._world = world
        self._fields = fields     # b2World attribute -> value (copied)
        self._objects = objects   # [(object, its class, its fields)]

    @property
    def time(self) -> float:
        return self.engine.time

    def __repr__(self):
        return f"b2WorldSnapshot(time={self.engine.time:g}, objects={len(self._objects)})"

    def __reduce_ex__(self, protocol):
        raise TypeError("a b2WorldSnapshot restores into its own b2World only and is not "
                        "pickled; pickle or copy.deepcopy the b2World (or the environment) "
                        "instead")


def _copied(value):
    """``value`` copied one level: containers and arrays (their items held by reference)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if type(value) in (list, dict, set):
        return type(value)(value)
    if type(value) is tuple:
        return tuple(_copied(v) for v in value)
    return value


def _slot_names(cls) -> list:
    names = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return [n for n in names if n not in ("__dict__", "__weakref__")]


def _fields(obj) -> tuple:
    """An object's slots that are set, and its ``__dict__``, copied one level."""
    slots = {}
    for name in _slot_names(type(obj)):
        try:
            slots[name] = _copied(object.__getattribute__(obj, name))
        except AttributeError:
            pass
    d = getattr(obj, "__dict__", None)
    return slots, (None if d is None else {k: _copied(v) for k, v in d.items()})


def _put_fields(obj, fields) -> None:
    slots, d = fields
    for name, value in slots.items():
        object.__setattr__(obj, name, _copied(value))
    if d is not None:
        mine = object.__getattribute__(obj, "__dict__")
        mine.clear()
        mine.update({k: _copied(v) for k, v in d.items()})


def _live_objects(b2world) -> list:
    """Every body, fixture and joint of ``b2world`` now, each once."""
    seen = {}
    for obj in (*b2world._bodies.values(), *b2world._fixtures.values(),
                *b2world._joints.values()):
        seen[id(obj)] = obj
    return list(seen.values())


def take(b2world) -> b2WorldSnapshot:
    flush_queue(b2world)  # queued static bodies are made first: the engine holds them then
    fields = {name: _copied(value) for name, value in vars(b2world).items()
              if name not in _CACHES}
    objects = [(obj, type(obj), _fields(obj)) for obj in _live_objects(b2world)]
    return b2WorldSnapshot(b2world._world.snapshot(), b2world, fields, objects)


def restore(b2world, snap) -> None:
    if not isinstance(snap, b2WorldSnapshot):
        hint = (" (World.snapshot() of world.engine: take b2World.snapshot() instead)"
                if isinstance(snap, Snapshot) else "")
        raise TypeError(f"snap must be a b2WorldSnapshot from b2World.snapshot(), got "
                        f"{type(snap).__name__}{hint}")
    if snap._world is not b2world:
        raise ValueError("this snapshot was taken of another b2World; restore it into that "
                         "world (to copy a world, use copy.deepcopy or pickle)")
    flush_queue(b2world)  # bodies queued since are made, then destroyed with the others made
    before = _live_objects(b2world)
    World.restore(b2world._world, snap.engine)  # checks first; raises with nothing changed
    kept = set()
    for obj, cls, fields in snap._objects:
        if type(obj) is not cls:
            object.__setattr__(obj, "__class__", cls)
        _put_fields(obj, fields)
        kept.add(id(obj))
    mark_destroyed([obj for obj in before if id(obj) not in kept])
    mine = vars(b2world)
    for name in [k for k in mine if k not in snap._fields and k not in _CACHES]:
        del mine[name]  # set since the snapshot (by the program)
    mine.update({k: _copied(v) for k, v in snap._fields.items()})
    b2world._keys_seen = (None, [])


_DESTROYED: dict = {}


def mark_destroyed(objects) -> None:
    """Give the destroyed ``objects`` (bodies, fixtures, joints) the class whose every use
    raises: their rows may be another object's now (a restore, a later creation).

    Their fields are dropped too (a restore puts back a snapshot's copy of them): nothing can
    read them any more, and a body and its fixtures refer to each other, so kept they were
    garbage for the cyclic collector alone. Gymnasium's resets destroy hundreds of them (a
    BipedalWalker reset ~200 terrain bodies and their fixtures: ~1,200 objects a reset left to
    the collector, which then ran a third of the reset's time); freed by their reference
    counts, they go when the program lets go of them."""
    setattr_, delattr_, getattr_ = (object.__setattr__, object.__delattr__,
                                    object.__getattribute__)
    for obj in objects:
        cls = type(obj)
        marks = _MARKS.get(cls)
        if marks is None:
            marks = _MARKS[cls] = (_destroyed_class(cls), _slot_names(cls),
                                   "__dict__" in dir(cls))
        destroyed, names, has_dict = marks
        setattr_(obj, "__class__", destroyed)
        for name in names:
            try:
                delattr_(obj, name)
            except AttributeError:  # (a slot never set)
                pass
        if has_dict:
            getattr_(obj, "__dict__").clear()


_MARKS: dict = {}
"""class -> (its destroyed class, its slot names, whether its objects have a ``__dict__``):
looked up once per object (a Gymnasium reset destroys tens of them)."""


def _destroyed_class(cls):
    """The subclass of ``cls`` a destroyed object takes: every attribute read raises (no new
    slots: ``__class__`` may be assigned both ways)."""
    if cls in _DESTROYED.values():
        return cls
    if cls not in _DESTROYED:
        label = cls.__name__

        def __getattribute__(self, name):  # noqa: N807
            if name == "__class__":
                return object.__getattribute__(self, name)
            raise ValueError(f"this {label} was destroyed (by its Destroy call, or by "
                             f"b2World.restore of a snapshot taken before it was made); "
                             f"reading {name!r}")

        def __repr__(self):
            return f"<destroyed {label}>"

        _DESTROYED[cls] = type(f"destroyed_{label}", (cls,), {
            "__slots__": (), "__getattribute__": __getattribute__, "__repr__": __repr__})
    return _DESTROYED[cls]
