"""pybox2d's ``b2Body`` on an impulse2d ``Body``.

A ``b2Body`` is an ordinary Python object (any attribute settable, hashable, truthy, compared
by identity), one per body, so that ``contact.fixtureA.body == env.lander`` holds. Its hot
properties (position, velocities, the force and impulse calls) read and write the world's body
store by row, skipping the public handle's per-call checks; values a program passes in still go
through checks that keep NaN and inf out (a plain finite float takes a fast path). Rows are read
with ``ndarray.item`` (a fifth of the cost of unpacking ``array[i]``, which builds a view).
"""

from __future__ import annotations

from .._core.state import DYNAMIC
from .. import _sleep, _validate
from ..body import _resulting_velocity
from ._b2math import b2Rot, b2Transform, b2Vec2, vec, vec_tuple
from ._b2rows import BodyRows
from ._b2shapes import (b2ChainShape, b2CircleShape, b2EdgeShape, b2Fixture, b2FixtureDef,
                        b2LoopShape, b2PolygonShape, b2Shape, chain_fixture, shape_parts)

_ENGINE_FIELDS = frozenset(("_handle", "_w", "_i"))  # what _attach sets
_LIMIT = 1.0e30  # N, N s: the engine's bound on a force or impulse component
_MAX_SPEED = _validate.MAX_VELOCITY  # m/s, rad/s: the largest velocity an impulse leaves
_new = object.__new__


def _finite(x, y, name):
    """(x, y) as floats if both are finite and modest, else ValueError (TypeError: not
    numbers) naming ``name``."""
    try:
        x = float(x)
        y = float(y)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair of numbers, got ({x!r}, {y!r})") from None
    if not (-_LIMIT <= x <= _LIMIT and -_LIMIT <= y <= _LIMIT):  # also false for NaN
        raise ValueError(f"{name} must be finite, got ({x}, {y})")
    return x, y


class b2Body:  # noqa: N801
    """A body of a ``b2World`` (create with ``world.CreateDynamicBody(...)`` etc.)."""

    def __init__(self, b2world, handle, user_data=None):
        self._b2world = b2world
        if handle is not None:  # (None: a queued static body, see _b2queue)
            self._attach(handle)
        self._fixtures: list[b2Fixture] = []
        self._joints: list = []
        self.userData = user_data

    def _attach(self, handle):
        self._handle = handle           # impulse2d.Body
        self._w = handle._world         # impulse2d.World
        self._i = handle._index         # its row in the body store

    def __reduce_ex__(self, protocol):
        self._b2world._flush_queue()  # a queued body is made before it is pickled or copied
        return object.__reduce_ex__(self, protocol)

    def __getattr__(self, name):
        # Called only for a missing attribute: a queued static body's engine body is made
        # (with the rest of the queue) the first time something needs it.
        world = self.__dict__.get("_b2world")
        if name in _ENGINE_FIELDS and world is not None and world._flush_queue():
            return self.__dict__[name]
        raise AttributeError(f"'b2Body' object has no attribute {name!r}")

    def __repr__(self):
        return f"b2Body(position={self.position!r}, angle={self.angle:g})"

    def __bool__(self):
        return True

    # -- state -------------------------------------------------------------------------------
    @property
    def position(self):
        o = self._w._bodies.origin
        i = self._i
        p = _new(b2Vec2)  # vec()'s body inline: read every step (a call less)
        p.x = o.item(i, 0)
        p.y = o.item(i, 1)
        return p

    @position.setter
    def position(self, value):
        self._handle.position = vec_tuple(value, "position")

    @property
    def angle(self):
        return self._w._bodies.angle.item(self._i)

    @angle.setter
    def angle(self, value):
        self._handle.angle = value

    @property
    def linearVelocity(self):  # noqa: N802
        v = self._w._bodies.v
        i = self._i
        p = _new(b2Vec2)  # vec()'s body inline: read every step (a call less)
        p.x = v.item(i, 0)
        p.y = v.item(i, 1)
        return p

    @linearVelocity.setter
    def linearVelocity(self, value):  # noqa: N802
        self._handle.linear_velocity = vec_tuple(value, "linearVelocity")

    @property
    def angularVelocity(self):  # noqa: N802
        return self._w._bodies.w.item(self._i)

    @angularVelocity.setter
    def angularVelocity(self, value):  # noqa: N802
        self._handle.angular_velocity = value

    @property
    def worldCenter(self):  # noqa: N802
        c = self._w._bodies.center
        i = self._i
        return vec(c.item(i, 0), c.item(i, 1))

    @property
    def localCenter(self):  # noqa: N802
        c = self._w._bodies.local_center
        i = self._i
        return vec(c.item(i, 0), c.item(i, 1))

    @property
    def transform(self):
        b = self._w._bodies
        i = self._i
        t = b2Transform.__new__(b2Transform)
        t.position = vec(b.origin.item(i, 0), b.origin.item(i, 1))
        q = b2Rot.__new__(b2Rot)
        q.c = b.rot.item(i, 0)
        q.s = b.rot.item(i, 1)
        t.q = q
        return t

    @property
    def mass(self):
        return self._handle.mass

    @property
    def inertia(self):
        """Rotational inertia about the body origin, kg m^2 (Box2D's GetInertia)."""
        h = self._handle
        c = h.local_center
        return h.inertia + h.mass * (c[0] * c[0] + c[1] * c[1])

    @property
    def awake(self):
        if self._w._bodies.asleep.item(self._i) and self._b2world._queue:
            self._b2world._flush_queue()  # a destruction waiting may wake it (_b2queue)
        return not self._w._bodies.asleep.item(self._i)

    @awake.setter
    def awake(self, value):
        self._b2world._flush_queue()  # in call order with a destruction waiting (_b2queue)
        self._handle.is_awake = bool(value)

    @property
    def sleepingAllowed(self):  # noqa: N802
        return self._handle.allow_sleep

    @sleepingAllowed.setter
    def sleepingAllowed(self, value):  # noqa: N802
        self._handle.allow_sleep = bool(value)

    allowSleep = sleepingAllowed

    @property
    def fixedRotation(self):  # noqa: N802
        return self._handle.fixed_rotation

    @fixedRotation.setter
    def fixedRotation(self, value):  # noqa: N802
        self._handle.fixed_rotation = bool(value)

    linearDamping = property(lambda self: self._handle.linear_damping,
                             lambda self, v: setattr(self._handle, "linear_damping", v))
    angularDamping = property(lambda self: self._handle.angular_damping,
                              lambda self, v: setattr(self._handle, "angular_damping", v))
    gravityScale = property(lambda self: self._handle.gravity_scale,
                            lambda self, v: setattr(self._handle, "gravity_scale", v))

    @property
    def type(self):
        """0 static, 1 kinematic, 2 dynamic (Box2D's b2BodyType values); settable, as Box2D's
        ``SetType`` (the mass and contacts follow)."""
        return {"STATIC": 0, "KINEMATIC": 1, "DYNAMIC": 2}[self._handle.type.name]

    @type.setter
    def type(self, value):
        kinds = {0: "static", 1: "kinematic", 2: "dynamic"}
        if isinstance(value, bool) or value not in kinds:
            raise ValueError(f"type must be b2_staticBody (0), b2_kinematicBody (1) or "
                             f"b2_dynamicBody (2), got {value!r}")
        self._handle.type = kinds[value]
        world = self._b2world
        world._dynamic = None   # the layer's caches of dynamic bodies and turning motors
        world._held = None

    @property
    def fixtures(self):
        return list(self._fixtures)

    @property
    def joints(self):
        return list(self._joints)

    @property
    def world(self):
        return self._b2world

    # pybox2d's generators over the same lists
    fixtures_gen = property(lambda self: iter(self.fixtures))
    joints_gen = property(lambda self: iter(self.joints))
    contacts_gen = property(lambda self: iter(self.contacts))

    @property
    def contacts(self):
        """Box2D's contact list: a ``b2ContactEdge`` (``contact``, ``other``) for each contact
        of the body whose broadphase boxes overlap now, touching or not."""
        from ._b2edges import contact_edges
        return contact_edges(self)

    @property
    def bullet(self):
        """Box2D's bullet: continuous collision against dynamic bodies too (the engine's)."""
        return self._handle.bullet

    @bullet.setter
    def bullet(self, value):
        self._handle.bullet = bool(value)

    # Box2D 2.3's inactive bodies are refused (b2World.CreateBody(active=False) raises)
    active = property(lambda self: True)

    def ClearUserData(self):  # noqa: N802
        self.userData = None

    @property
    def massData(self):  # noqa: N802
        """``b2MassData``: ``mass``, ``center`` (local) and ``I`` about the body's origin
        (Box2D's ``GetMassData``). Read-only here: the mass comes from the fixtures."""
        from ._b2collide import b2MassData
        return b2MassData(self.mass, self.localCenter, self.inertia)  # (inertia: about the origin)

    def GetMassData(self):  # noqa: N802
        return self.massData

    def ResetMassData(self):  # noqa: N802
        """Nothing to do: the engine updates the mass whenever a fixture changes."""

    # -- forces (Box2D: with wake=False a sleeping body ignores them) -------------------------
    def _bound_rows(self) -> BodyRows:
        """The world's :class:`._b2rows.BodyRows`, bound to its body store now (after the
        store grew or was replaced: see that module)."""
        rows = self._b2world._body_rows = BodyRows(self._w._bodies)
        return rows

    def _awake_for(self, wake):
        """Whether a push reaches the body: a dynamic one, woken first (``wake``) if asleep;
        an asleep one left asleep (``wake`` false) unless a queued destruction wakes it."""
        w = self._w
        b = w._bodies
        i = self._i
        if b.type.item(i) != DYNAMIC:
            return False
        if w._sleepers and b.asleep.item(i):  # (_sleepers 0: no body asleep, the engine's count)
            if not wake:
                # a destruction waiting may wake it (_b2queue): carried out first
                if not (self._b2world._flush_queue() and not w._bodies.asleep.item(i)):
                    return False
                return True
            _sleep.wake_body(w, i)
        return True

    def ApplyForceToCenter(self, force, wake=True):  # noqa: N802
        fx, fy = _finite(force[0], force[1], "force")
        r = self._b2world._body_rows
        if r.store is not self._w._bodies:
            r = self._bound_rows()
        i = self._i
        # a dynamic body awake (_awake_for's answer without its call: CarRacing's wheels)
        if not (r.type[i] == DYNAMIC and not (self._w._sleepers and r.asleep[i])):
            if not self._awake_for(wake):
                return
            if r.store is not self._w._bodies:  # (a queued body _awake_for made grew it)
                r = self._bound_rows()
        f = r.force
        f[2 * i] += fx
        f[2 * i + 1] += fy
        r.sleep_time[i] = 0.0

    def ApplyForce(self, force, point, wake=True):  # noqa: N802
        fx, fy = _finite(force[0], force[1], "force")
        px, py = _finite(point[0], point[1], "point")
        if self._awake_for(wake):
            r = self._b2world._body_rows
            if r.store is not self._w._bodies:
                r = self._bound_rows()
            i = self._i
            k = 2 * i
            rx = px - r.center[k]
            ry = py - r.center[k + 1]
            f = r.force
            f[k] += fx
            f[k + 1] += fy
            r.torque[i] += rx * fy - ry * fx
            r.sleep_time[i] = 0.0

    def ApplyTorque(self, torque, wake=True):  # noqa: N802
        t, _ = _finite(torque, 0.0, "torque")
        if self._awake_for(wake):
            self._w._bodies.torque[self._i] += t
            self._w._bodies.sleep_time[self._i] = 0.0

    def ApplyLinearImpulse(self, impulse, point, wake=True):  # noqa: N802
        # plain floats within the bound pass on as they are (what _finite returns for them);
        # anything else goes through it (LunarLander fires an engine most steps)
        jx = impulse[0]
        jy = impulse[1]
        if not (type(jx) is float and type(jy) is float and -_LIMIT <= jx <= _LIMIT
                and -_LIMIT <= jy <= _LIMIT):
            jx, jy = _finite(jx, jy, "impulse")
        px = point[0]
        py = point[1]
        if not (type(px) is float and type(py) is float and -_LIMIT <= px <= _LIMIT
                and -_LIMIT <= py <= _LIMIT):
            px, py = _finite(px, py, "point")
        r = self._b2world._body_rows
        if r.store is not self._w._bodies:
            r = self._bound_rows()
        i = self._i
        # a dynamic body awake (_awake_for's answer without its call: LunarLander's engines;
        # ApplyForceToCenter's fast path, written out: one method for both measured +0.4 us
        # a push, 2026-11-29)
        if not (r.type[i] == DYNAMIC and not (self._w._sleepers and r.asleep[i])):
            if not self._awake_for(wake):
                return
            if r.store is not self._w._bodies:  # (a queued body _awake_for made grew it)
                r = self._bound_rows()
        # Body.apply_linear_impulse's arithmetic and velocity bound, on the store by row
        # (its validation of the pair of floats and its row lookups were most of the cost
        # of LunarLander's engine firing)
        k = 2 * i
        inv_m = r.inv_mass[i]
        inv_i = r.inv_inertia[i]
        rx = px - r.center[k]
        ry = py - r.center[k + 1]
        v = r.v
        vx = v[k] + inv_m * jx
        vy = v[k + 1] + inv_m * jy
        # no rotational response (fixed rotation): 0 * a huge moment would be NaN, not 0
        w = r.w[i] + (inv_i * (rx * jy - ry * jx) if inv_i != 0.0 else 0.0)
        if not (abs(vx) <= _MAX_SPEED and abs(vy) <= _MAX_SPEED and abs(w) <= _MAX_SPEED):
            # scaled into the bound, or ValueError for an overflow (the step clamps it)
            vx, vy, w = _resulting_velocity("impulse", vx, vy, w)
        v[k] = vx
        v[k + 1] = vy
        r.w[i] = w
        r.sleep_time[i] = 0.0  # something acted on it (Box2D's SetAwake)

    def ApplyAngularImpulse(self, impulse, wake=True):  # noqa: N802
        j, _ = _finite(impulse, 0.0, "impulse")
        if self._awake_for(wake):
            self._handle.apply_angular_impulse(j)

    # -- frames ------------------------------------------------------------------------------
    def GetWorldPoint(self, localPoint):  # noqa: N802, N803
        b = self._w._bodies
        i = self._i
        rot = b.rot
        c = rot.item(i, 0)
        s = rot.item(i, 1)
        x, y = localPoint[0], localPoint[1]
        return b2Vec2(b.origin.item(i, 0) + c * x - s * y, b.origin.item(i, 1) + s * x + c * y)

    def GetWorldVector(self, localVector):  # noqa: N802, N803
        rot = self._w._bodies.rot
        i = self._i
        c = rot.item(i, 0)
        s = rot.item(i, 1)
        x, y = localVector[0], localVector[1]
        return b2Vec2(c * x - s * y, s * x + c * y)

    def GetLocalPoint(self, worldPoint):  # noqa: N802, N803
        b = self._w._bodies
        i = self._i
        rot = b.rot
        c = rot.item(i, 0)
        s = rot.item(i, 1)
        dx = worldPoint[0] - b.origin.item(i, 0)
        dy = worldPoint[1] - b.origin.item(i, 1)
        return b2Vec2(c * dx + s * dy, -s * dx + c * dy)

    def GetLocalVector(self, worldVector):  # noqa: N802, N803
        rot = self._w._bodies.rot
        i = self._i
        c = rot.item(i, 0)
        s = rot.item(i, 1)
        x, y = worldVector[0], worldVector[1]
        return b2Vec2(c * x + s * y, -s * x + c * y)

    def GetLinearVelocityFromWorldPoint(self, worldPoint):  # noqa: N802, N803
        return b2Vec2(*self._handle.velocity_at(vec_tuple(worldPoint, "worldPoint")))

    def GetLinearVelocityFromLocalPoint(self, localPoint):  # noqa: N802, N803
        return self.GetLinearVelocityFromWorldPoint(self.GetWorldPoint(localPoint))

    # -- fixtures ----------------------------------------------------------------------------
    def CreateFixture(self, defn=None, **kwargs):  # noqa: N802
        """``CreateFixture(fixtureDef)``, ``CreateFixture(shape=..., density=..., ...)`` or
        pybox2d's ``CreateFixture(shape, density=..., ...)``; ``shape=[...]`` makes one
        fixture per shape and returns their list."""
        if isinstance(defn, b2Shape):
            kwargs["shape"], defn = defn, None
        if defn is None:
            if isinstance(kwargs.get("shape"), (list, tuple)):
                shapes = kwargs.pop("shape")
                return [self.CreateFixture(shape=shape, **kwargs) for shape in shapes]
            defn = b2FixtureDef(**kwargs)
        elif kwargs:
            raise TypeError("pass a fixtureDef or keyword arguments, not both")
        if isinstance(defn, b2FixtureDef) and isinstance(defn.shape, b2ChainShape):
            self._b2world._flush_queue()
            fixture = chain_fixture(self, defn)  # (self._handle: a queued body is made)
            self._fixtures.append(fixture)
            for row in fixture._rows():
                self._b2world._fixtures[row] = fixture
            return fixture
        if "_handle" not in self.__dict__:  # a queued static body: its fixture may queue too
            fixture = _queue_fixture(self, defn)
            if fixture is not None:
                return fixture
        self._b2world._flush_queue()  # shape rows in call order: what was queued comes first
        row = self._handle._row()
        b2shape, bits, parts = fixture_parts(defn)
        shape = self._w._attach_shape(row, *parts)
        fixture = b2Fixture(shape, b2shape, self, defn.userData, bits)
        self._fixtures.append(fixture)
        self._b2world._fixtures[shape._index] = fixture
        return fixture

    def CreatePolygonFixture(self, **kwargs):  # noqa: N802
        shape = b2PolygonShape(**_pop(kwargs, "vertices", "box", "radius"))
        return self.CreateFixture(shape=shape, **kwargs)

    def CreateCircleFixture(self, **kwargs):  # noqa: N802
        shape = b2CircleShape(**_pop(kwargs, "radius", "pos"))
        return self.CreateFixture(shape=shape, **kwargs)

    def CreateEdgeFixture(self, vertices=None, vertex1=None, vertex2=None,  # noqa: N802
                          **kwargs):
        # (the shape's keywords by name: LunarLander's moon takes ten of these a reset)
        shape = b2EdgeShape(vertices, vertex1, vertex2)
        if "_handle" not in self.__dict__ and kwargs.keys() <= _EDGE_QUEUED:
            # a queued static body's edge, queued with it without a definition's objects
            fixture = _queue_edge(self, shape, kwargs)
            if fixture is not None:
                return fixture
        return self.CreateFixture(shape=shape, **kwargs)

    def CreateChainFixture(self, **kwargs):  # noqa: N802
        """An open chain: ``CreateChainFixture(vertices=[...], friction=...)``."""
        shape = b2ChainShape(**_pop(kwargs, "vertices", "vertices_chain", "vertices_loop"))
        return self.CreateFixture(shape=shape, **kwargs)

    def CreateLoopFixture(self, **kwargs):  # noqa: N802
        """A closed loop: ``CreateLoopFixture(vertices=[...], friction=...)`` (at least 3
        vertices; bodies are held on both sides, as in Box2D 2.3)."""
        shape = b2LoopShape(**_pop(kwargs, "vertices"))
        return self.CreateFixture(shape=shape, **kwargs)

    def CreateEdgeChain(self, edge_list):  # noqa: N802
        """Edges through the vertices of ``edge_list`` (at least 2). pybox2d makes one edge
        fixture per pair and returns None; here they are one open chain fixture (impulse2d's
        chain, which bodies slide along without catching at the inner vertices), returned."""
        edge_list = list(edge_list)
        if len(edge_list) < 2:
            raise ValueError(f"edge_list: an edge chain needs at least 2 vertices, got "
                             f"{len(edge_list)}")
        return self.CreateFixture(shape=b2ChainShape(vertices=edge_list))

    def CreateFixturesFromShapes(self, shapes=None, shapeFixture=None):  # noqa: N802, N803
        """A fixture for ``shapes`` (one shape: the fixture; a list or tuple: the list of
        fixtures), each with the density, friction, restitution, filter and sensor flag of
        ``shapeFixture`` (default: a default ``b2FixtureDef``), as pybox2d does."""
        if shapes is None:
            raise TypeError("shapes: at least one shape is required")
        template = b2FixtureDef() if shapeFixture is None else shapeFixture
        if not isinstance(template, b2FixtureDef):
            raise TypeError(f"shapeFixture must be a b2FixtureDef, got "
                            f"{type(template).__name__}")

        def one(shape):
            if not isinstance(shape, b2Shape):
                raise TypeError(f"shapes: expected a b2Shape, got {type(shape).__name__}")
            return self.CreateFixture(b2FixtureDef(
                shape=shape, density=template.density, friction=template.friction,
                restitution=template.restitution, filter=template.filter,
                isSensor=template.isSensor, userData=template.userData))

        if isinstance(shapes, (list, tuple)):
            return [one(shape) for shape in shapes]
        return one(shapes)

    def DestroyFixture(self, fixture):  # noqa: N802
        self._b2world._destroy_fixture(fixture)


_EDGE_QUEUED = frozenset(("density", "friction", "restitution", "userData"))
"""The keywords of a ``CreateEdgeFixture`` that ``_b2queue.queue_edge`` takes (the others: a
filter, a sensor flag, go through a definition)."""


def _queue_edge(body, shape, kwargs):
    """``_b2queue.queue_edge`` (imported on first use, as :func:`_queue_fixture`)."""
    global _queue_edge
    from ._b2queue import queue_edge
    _queue_edge = queue_edge
    return queue_edge(body, shape, kwargs)


def _queue_fixture(body, defn):
    """``_b2queue.queue_fixture`` (imported on first use: that module imports this one), which
    then takes this name's place."""
    global _queue_fixture
    from ._b2queue import queue_fixture
    _queue_fixture = queue_fixture
    return queue_fixture(body, defn)


def fixture_parts(defn, built=True):
    """A fixture definition's ``(shape copy, (category, mask, group), shape_parts(...))``,
    every value checked (so a bad definition raises before anything is made; ``built``: see
    ``shape_parts``)."""
    if not isinstance(defn, b2FixtureDef):
        raise TypeError(f"CreateFixture takes a fixtureDef, got {type(defn).__name__}")
    if defn.shape is None:
        raise ValueError("the fixtureDef has no shape")
    f = defn.filter
    b2shape = defn.shape._copy()
    parts = shape_parts(b2shape, defn.density, defn.friction, defn.restitution,
                        f.categoryBits, f.maskBits, f.groupIndex, defn.isSensor, built)
    return b2shape, (f.categoryBits, f.maskBits, f.groupIndex), parts


def _pop(kwargs: dict, *names) -> dict:
    return {name: kwargs.pop(name) for name in names if name in kwargs}
