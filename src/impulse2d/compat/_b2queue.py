"""Static bodies created and destroyed by queue, in batches.

pybox2d programs build and tear down terrain one call at a time (a Gymnasium BipedalWalker
reset: about 200 static edge bodies destroyed, then 200 made; one by one, they were most of
the reset's time). ``CreateStaticBody(fixtures=...)`` is checked at once (a bad call raises
there and queues nothing) and returns its ``b2Body`` and ``b2Fixture`` objects at once;
``DestroyBody`` of a static body does the layer's part at once (the body is gone from the
world's lists, its touching contacts' ``EndContact`` is called). What the engine has to do is
queued and done in batches (``impulse2d._batch``: the same rows and bits as one by one) the
first time anything else touches the world:

* any public method or property of the ``b2World`` but the queueing ones: while a queue
  waits, the world's class is a subclass (:func:`queueing_class`) whose every public member
  carries the queue out first, so no member can be missed and an idle world pays nothing;
* an engine-backed attribute of a queued body or fixture (their ``__getattr__``);
* a pickle or a copy of the world, or of a queued body or fixture (``__reduce_ex__``).

The queue is carried out in call order, before any other body, joint or step, so rows, and
with them every later step, are exactly those of doing each call at once. What is queued: a
static body given only ``position``, ``angle``, ``userData``, ``fixtures`` and ``shapes``,
every fixture massless (an edge, or density 0: such a body's mass stays 0 and its centre at
its origin); more such fixtures added to the last body queued (``CreateFixture``,
``CreateEdgeFixture``: LunarLander's moon); and the destruction of a body, its joints with it
(unless the world has a gear joint). Gymnasium's LunarLander destroys its four bodies and then
drops the world for a new one: queued, that engine work is never done. The one way to see a
queue waiting is through a reference to the engine world (``b2World.engine``) kept from before
the calls: read it after any call on the ``b2World``, or set ``b2World.batch_static = False``.
What a waiting destruction would change of the bodies left is their sleep (a destroyed body
wakes what touched it): ``b2Body.awake`` (read or set) and a force or impulse with
``wake=False`` on a sleeping body carry the queue out first.
"""

from __future__ import annotations

import inspect
import types
from itertools import groupby

from .._batch import create_static_bodies, destroy_bodies
from .._validate import angle as check_angle, vec2
from ._b2bodies import b2Body, fixture_parts
from ._b2joints import b2GearJoint
from ._b2math import vec_tuple
from ._b2shapes import b2ChainShape, b2Fixture, b2FixtureDef, shape_parts

_QUEUEABLE = frozenset(("position", "angle", "userData", "fixtures", "shapes"))
# b2World members that queue: for what they do not queue they carry the queue out themselves
# first (``b2World._create``, ``DestroyBody``)
_QUEUEING = frozenset(("CreateBody", "CreateStaticBody", "CreateDynamicBody",
                       "CreateKinematicBody", "DestroyBody"))


def queue_static(b2world, kwargs: dict):
    """The ``b2Body`` of ``CreateStaticBody(**kwargs)``, queued; None when the call is not of
    the queued kind (then it is made at once, by the caller)."""
    if not kwargs.keys() <= _QUEUEABLE or not b2world.batch_static:
        return None
    # _create's fixtures, then its shapes on fixtures of the default definition
    defs = _as_list(kwargs.get("fixtures")) + shape_fixtures(kwargs.get("shapes"), None)
    if not defs or any(isinstance(getattr(defn, "shape", None), b2ChainShape) for defn in defs):
        return None  # (chains are made at once, through Body.create_chain)
    # create_body's checks, in its order, then each fixture's (CreateFixture's)
    x, y = vec2(vec_tuple(kwargs.get("position", (0.0, 0.0)), "position"), "position")
    angle = check_angle(kwargs.get("angle", 0.0), "angle")
    made = [fixture_parts(defn, built=False) for defn in defs]
    if not all(_massless(kind, m) for _, _, (kind, _, m, _) in made):
        return None  # a static body with mass-bearing shapes: made at once (mass checks)
    body = b2Body(b2world, None, kwargs.get("userData"))
    for defn, (b2shape, bits, _) in zip(defs, made):
        body._fixtures.append(b2Fixture(None, b2shape, body, defn.userData, bits))
    _enqueue(b2world, "make", (body, x, y, angle, [parts[:3] for _, _, parts in made]))
    return body


def queue_fixture(body, defn):
    """The ``b2Fixture`` of ``body.CreateFixture(defn)`` for a queued ``body``, queued with it;
    None when it is not of the queued kind (massless), or when another body was queued after
    ``body`` (the shape rows would then differ from one by one): the caller makes it at once."""
    queue = body._b2world._queue
    if not queue or queue[-1][0] != "make" or queue[-1][1][0] is not body:
        return None
    b2shape, bits, (kind, geom, m, _) = fixture_parts(defn, built=False)
    if not _massless(kind, m):
        return None
    fixture = b2Fixture(None, b2shape, body, defn.userData, bits)
    body._fixtures.append(fixture)
    queue[-1][1][4].append((kind, geom, m))
    return fixture


def queue_edge(body, b2shape, kwargs: dict):
    """``queue_fixture`` for ``body.CreateEdgeFixture(..., **kwargs)`` (``kwargs``: density,
    friction, restitution, userData only; ``b2shape`` the call's own new edge, which no one
    else holds, so the fixture takes it rather than a copy): what a ``b2FixtureDef(**kwargs)``
    of that edge gives ``queue_fixture``, the definition's defaults for the rest (Box2D 2.3's
    filter), checked in the same order. None when the body is not the last one queued."""
    queue = body._b2world._queue
    if not queue or queue[-1][0] != "make" or queue[-1][1][0] is not body:
        return None
    get = kwargs.get
    kind, geom, m, _ = shape_parts(b2shape, get("density", 0.0), get("friction", 0.2),
                                   get("restitution", 0.0), 0x0001, 0xFFFF, 0, False,
                                   built=False)
    fixture = b2Fixture(None, b2shape, body, get("userData"), _DEFAULT_BITS)
    body._fixtures.append(fixture)
    queue[-1][1][4].append((kind, geom, m))  # (an edge: massless, as the queue takes)
    return fixture


_DEFAULT_BITS = (0x0001, 0xFFFF, 0)
"""A default ``b2Filter``'s (category, mask, group): ``fixture_parts``' bits of it."""


def queued_sensor(fixture, flag: bool) -> bool:
    """Whether ``fixture.sensor = flag`` was done in the queue (its body is queued): the shape
    is then made with that flag, which is what making it and then setting the flag leaves (a
    new shape touches nothing, so the setter's wake does nothing)."""
    body = fixture._body
    for op, data in reversed(body._b2world._queue):
        if op == "make" and data[0] is body:
            parts = data[4]
            k = body._fixtures.index(fixture)
            kind, geom, material = parts[k]
            parts[k] = (kind, geom, {**material, "is_sensor": flag})
            return True
    return False


def shape_fixtures(shapes, template) -> list:
    """``CreateBody(shapes=..., shapeFixture=template)``'s fixture definitions: each shape on
    the template's density, friction, restitution, filter and sensor flag (None: the default
    definition's)."""
    shapes = _as_list(shapes)
    if not shapes:
        return []
    if template is None:
        template = b2FixtureDef()
    return [b2FixtureDef(shape=shape, density=template.density, friction=template.friction,
                         restitution=template.restitution, filter=template.filter,
                         isSensor=template.isSensor) for shape in shapes]


def _massless(kind: str, material: dict) -> bool:
    """Whether a shape adds no mass (what ``impulse2d._batch`` takes): a segment, or density 0."""
    return kind == "segment" or material["density"] == 0.0


def _as_list(value) -> list:
    """``fixtures=`` or ``shapes=`` as a list: one, a list or tuple of them, or None."""
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def can_queue_destroy(b2world, body) -> bool:
    """Whether the engine's part of ``DestroyBody(body)`` may be queued: any body, unless the
    world has a gear joint (the engine frees a gear with the joint it couples, which the layer
    learns from the engine at once)."""
    if not b2world.batch_static:
        return False
    return not b2world._gears or not body._joints or not any(
        isinstance(j, b2GearJoint) for j in b2world._joints.values())


def queue_destroy(b2world, handle) -> None:
    """Queue the engine's part of ``DestroyBody`` (``handle``: the body's engine ``Body``),
    after the caller did the layer's part (:func:`can_queue_destroy`)."""
    _enqueue(b2world, "drop", handle)


def _enqueue(b2world, op: str, data) -> None:
    if not b2world._queue:
        object.__setattr__(b2world, "__class__", queueing_class(type(b2world)))
    b2world._queue.append((op, data))


def flush_queue(b2world) -> bool:
    """Carry out the queue of ``b2world`` (None: none) in order, each run of destructions or
    creations in one batch; whether there was anything to do."""
    if b2world is None or not b2world._queue:
        return False
    queue = b2world._queue
    b2world._queue = []
    object.__setattr__(b2world, "__class__", type(b2world)._plain)
    world = b2world._world
    for op, run in groupby(queue, key=lambda entry: entry[0]):
        run = [data for _, data in run]
        if op == "drop":
            _destroy_run(world, run)
            continue
        made = create_static_bodies(world, [entry[1:] for entry in run])
        for (body, *_), (handle, shapes) in zip(run, made):
            body._attach(handle)
            b2world._bodies[handle._index] = body
            for fixture, shape in zip(body._fixtures, shapes):
                fixture._shape = shape
                b2world._fixtures[shape._index] = fixture
    b2world._dynamic = None
    return True


def _destroy_run(world, handles: list) -> None:
    """Destroy the bodies ``handles`` in order: those without joints in batches
    (``impulse2d._batch.destroy_bodies``, which would take a whole run one by one for one body
    with joints: BipedalWalker's 200 terrain bodies before its hull), each one with joints as
    it comes (checked when its turn comes: its joints may have gone with an earlier body)."""
    joints = world._body_joints
    jointless: list = []
    for handle in handles:
        if joints[handle._index]:
            if jointless:
                destroy_bodies(world, jointless)
                jointless = []
            world.destroy_body(handle)
        else:
            jointless.append(handle)
    if jointless:
        destroy_bodies(world, jointless)


_CLASSES: dict = {}  # b2World class -> its queueing subclass


def queueing_class(cls):
    """``cls`` with every public method and property (but the queueing ones) emptying the queue
    first; the world has this class while a queue waits."""
    sub = _CLASSES.get(cls)
    if sub is None:
        members = {"_plain": cls, "__doc__": cls.__doc__, "__module__": cls.__module__}
        for name in dir(cls):
            if name.startswith("_") or name in _QUEUEING:
                continue
            member = inspect.getattr_static(cls, name)
            if isinstance(member, property):
                members[name] = property(*(None if f is None else _flushing(f) for f in
                                           (member.fget, member.fset, member.fdel)),
                                         member.__doc__)
            elif isinstance(member, types.FunctionType):
                members[name] = _flushing(member)
        members["__reduce_ex__"] = _reduce_flushed  # pickle and copy see no queue
        sub = _CLASSES[cls] = type(cls.__name__, (cls,), members)
        sub.__qualname__ = cls.__qualname__
    return sub


def _reduce_flushed(self, protocol):
    """A queueing world's ``__reduce_ex__`` (pickle, copy): the queue carried out first, so
    that the pickle or the copy holds made bodies and the plain class."""
    flush_queue(self)
    return object.__reduce_ex__(self, protocol)


def _flushing(function):
    def member(self, *args, **kwargs):
        flush_queue(self)
        return function(self, *args, **kwargs)
    member.__name__ = function.__name__
    member.__doc__ = function.__doc__
    return member
