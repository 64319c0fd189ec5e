"""Static bodies queued by ``CreateStaticBody`` and made in one batch.

pybox2d programs build terrain one ``CreateStaticBody(fixtures=...)`` call at a time (a
Gymnasium BipedalWalker reset: about 200 edges; made one by one they were most of the reset's
time). Such a call is checked at once (a bad one raises there and queues nothing) and returns
its ``b2Body`` and ``b2Fixture`` objects at once; their engine bodies and shapes are made
together (``impulse2d._batch``, the same rows and values as one by one) the first time
anything else touches the world:

* any public method or property of the ``b2World`` but the body-creating ones: while a queue
  is waiting, the world's class is a subclass (:func:`queueing_class`) whose every public
  member empties the queue first, so no member can be missed and an idle world pays nothing;
* an engine-backed attribute of a queued body or fixture (their ``__getattr__``).

Bodies are made in call order and before any other body, joint or step, so rows, and with
them every later step, are exactly those of making each body at its call. What is queued: a
static body given only ``position``, ``angle``, ``userData`` and ``fixtures``, every fixture
massless (an edge, or density 0: such a body's mass stays 0 and its centre at its origin).
The one way to see the queue is through a reference to the engine world (``b2World.engine``)
kept from before the calls: read it after any call on the ``b2World``, or set
``b2World.batch_static = False``.
"""

from __future__ import annotations

import inspect
import types

from .._batch import create_static_bodies
from .._validate import angle as check_angle, vec2
from ._b2bodies import b2Body, fixture_parts
from ._b2math import vec_tuple
from ._b2shapes import b2Fixture

_QUEUEABLE = frozenset(("position", "angle", "userData", "fixtures"))
# b2World members that create bodies: they queue or, for any other body, empty the queue
# themselves (``b2World._create``)
_CREATORS = frozenset(("CreateBody", "CreateStaticBody", "CreateDynamicBody",
                       "CreateKinematicBody"))


def queue_static(b2world, kwargs: dict):
    """The ``b2Body`` of ``CreateStaticBody(**kwargs)``, queued; None when the call is not of
    the queued kind (then it is made at once, by the caller)."""
    fixtures = kwargs.get("fixtures")
    if fixtures is None or not kwargs.keys() <= _QUEUEABLE or not b2world.batch_static:
        return None
    defs = fixtures if isinstance(fixtures, (list, tuple)) else [fixtures]
    if not defs:
        return None
    # create_body's checks, in its order, then each fixture's (CreateFixture's)
    x, y = vec2(vec_tuple(kwargs.get("position", (0.0, 0.0)), "position"), "position")
    angle = check_angle(kwargs.get("angle", 0.0), "angle")
    made = [fixture_parts(defn) for defn in defs]
    if any(kind != "segment" and m["density"] != 0.0 for _, _, (kind, _, m, _) in made):
        return None  # a static body with mass-bearing shapes: made at once (mass checks)
    body = b2Body(b2world, None, kwargs.get("userData"))
    for defn, (b2shape, bits, _) in zip(defs, made):
        body._fixtures.append(b2Fixture(None, b2shape, body, defn.userData, bits))
    if not b2world._queue:
        object.__setattr__(b2world, "__class__", queueing_class(type(b2world)))
    b2world._queue.append((body, x, y, angle, [parts[:3] for _, _, parts in made]))
    return body


def flush_queue(b2world) -> bool:
    """Make the queued bodies of ``b2world`` (None: none); whether there were any."""
    if b2world is None or not b2world._queue:
        return False
    queue = b2world._queue
    b2world._queue = []
    object.__setattr__(b2world, "__class__", type(b2world)._plain)
    made = create_static_bodies(b2world._world, [entry[1:] for entry in queue])
    for (body, *_), (handle, shapes) in zip(queue, made):
        body._attach(handle)
        b2world._bodies[handle._index] = body
        for fixture, shape in zip(body._fixtures, shapes):
            fixture._shape = shape
            b2world._fixtures[shape._index] = fixture
    b2world._dynamic = None
    return True


_CLASSES: dict = {}  # b2World class -> its queueing subclass


def queueing_class(cls):
    """``cls`` with every public method and property (but the creators) emptying the queue
    first; the world has this class while a queue waits."""
    sub = _CLASSES.get(cls)
    if sub is None:
        members = {"_plain": cls, "__doc__": cls.__doc__, "__module__": cls.__module__}
        for name in dir(cls):
            if name.startswith("_") or name in _CREATORS:
                continue
            member = inspect.getattr_static(cls, name)
            if isinstance(member, property):
                members[name] = property(*(None if f is None else _flushing(f) for f in
                                           (member.fget, member.fset, member.fdel)),
                                         member.__doc__)
            elif isinstance(member, types.FunctionType):
                members[name] = _flushing(member)
        sub = _CLASSES[cls] = type(cls.__name__, (cls,), members)
        sub.__qualname__ = cls.__qualname__
    return sub


def _flushing(function):
    def member(self, *args, **kwargs):
        flush_queue(self)
        return function(self, *args, **kwargs)
    member.__name__ = function.__name__
    member.__doc__ = function.__doc__
    return member
