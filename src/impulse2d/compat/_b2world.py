"""pybox2d's ``b2World`` on an impulse2d ``World``: bodies, joints, the step, contact
callbacks and ray casts.

Solver. Box2D 2.3 solves with sequential impulses (``velocityIterations`` sweeps, the 2x2
block solver for two-point manifolds) and then moves bodies apart with nonlinear Gauss-Seidel
(at most ``positionIterations`` sweeps, stopping early): impulse2d's ``"pgs_block"`` is that
solver, and a ``b2World`` uses it. ``Step(dt, velocityIterations, positionIterations)`` is one
engine step of ``dt`` with Box2D's own counts (``substeps`` = 1, ``max_iterations`` = None):
Box2D's discretization, which Gymnasium's pilots were tuned on. ``substeps = n`` splits a
``Step`` into ``n`` engine steps of dt / n sharing Box2D's sweeps (at most ``max_iterations``
each, if set); forces given before ``Step`` then act over all of them (Box2D applies them over
the whole step).

Why one step (measured 2026-11-24, docs/compat-box2d.md "The substep question"): Gymnasium's
scripted BipedalWalker gait stalls after ~1.5 m at four substeps, and so does Box2D 2.3 itself
with its Step split into four (45 / 15 sweeps each: 1.6 m, or falling backwards at step
~137): the gait depends on the step size (a 20 ms step keeps a pushing foot's contact force
for the whole step, 5 ms steps let the foot leave within it), and the old default of 4 x
(30, 10) reproduced Box2D at that step, not at Box2D's. With one step and the engine's
revolute position correction uncapped as Box2D's (``_dynamics/joints/revolute.solve_position``;
it was capped at 0.2 m a sweep, which stood LunarLander's legs, made 0.6 m from their anchors,
0.08 rad off Box2D's after the first step and crashed seed 12), LunarLander's heuristic scores
seeds 0-19 mean 266, lowest 182, all asleep (Box2D 264 / 180), and, with the continuous
collision below, the gait walks as far as on Box2D (seeds 0-15, 500 steps, one environment:
17.1 m mean, Box2D 17.4; with Box2D v3's time-of-impact stop it walked 6.5). The revolute
limit's impulse budget is never below the joint's own motor bound (``max_motor_torque * h``), so that one step holds
LunarLander's 0.07 kg legs against their limits under a 40 N m motor. The soft step
(``"soft_step"``, Box2D v3's solver, 12 substeps) lands as well but lets BipedalWalker's knees
sag until the walker falls.
Sleeping is on unless ``doSleep=False``; friction mixes as sqrt(f1 f2) and restitution as
max(r1, r2), as in Box2D.

Continuous collision. Box2D 2.3 sweeps dynamic bodies against static ones (time of impact);
impulse2d's continuous collision (``WorldSettings.enable_continuous``, on) sweeps the bodies
that one engine step moved far, position corrections included, and ``engine_settings`` turns
on ``continuous_box2d23``: Box2D 2.3's rules (a hit counts only past its polygons' skin, three
slops of overlap, and takes the body's speed into the obstacle;
``_dynamics/continuous_box2d23``) instead of Box2D v3's stop. BipedalWalker's legs are made
with their joint anchors 0.53 m apart, and the first step snaps them together, moving the
lower legs 0.45 m down, through the 0.27 m gap above the ground edge: the sweep stands them on
the ground with no speed, as Box2D's time of impact does; in the next step the knees' position
correction folds them while the feet stand, which v3's rule put back (the knees stayed open and
the scripted gait walked a third as far). A world whose listener overrides ``PreSolve`` keeps
v3's stop: the engine's sweep does not see contacts PreSolve switched off (Box2D 2.3's skips
them), and one-way platforms would stop what they let through. (With one engine step per
``Step`` the engine's sweep is all there is: the layer's own stop below never moved a body in
1,500 steps of BipedalWalker, 600 of its hardcore terrain and 5 LunarLander episodes); with
substeps each engine step sees only its share of the motion, so the layer stops a body that
the whole ``Step`` moved more than 0.1 m beyond its velocity's motion where its shapes first
touch a static shape (``_stop_at_static``; a shape cast), as Box2D would.)

Contact callbacks. Box2D calls ``BeginContact``/``EndContact`` from inside ``Step`` (while it
updates contacts, before solving); here they are called after each engine step of ``Step``,
from impulse2d's contact and sensor events of that step, ends before begins. The pairs are the same
(the contacts are found at the start of the step from the positions after the previous step,
as in Box2D); only code that reads body state inside a callback would see the post-step state.
Gymnasium's three Box2D environments only set flags there that they read after ``Step``.
Sensor fixtures report overlaps through the same two callbacks; the layer applies Box2D's pair
rules to them (filter bits and groups, at least one dynamic body, no joint without
``collideConnected``) and pairs every end with its begin. ``DestroyBody`` calls
``EndContact`` at once for the body's touching contacts and overlaps, as Box2D does.

Sleeping with motors. impulse2d keeps the bodies of a turning joint motor awake; Box2D 2.3
does not (LunarLander's legs are held against their limits by motors, and an episode ends when
the lander falls asleep). The layer keeps Box2D's rule: after each step it times the bodies of
turning motors itself (slow: ``max(|v|, |w| extent) <= sleep_threshold``, as the engine's test)
and puts their island to sleep once every body of it has been slow for ``time_to_sleep``.
"""

from __future__ import annotations

import math

import numpy as np

from itertools import compress

from .. import _sleep
from .._core.state import DYNAMIC, STATIC
from .._dynamics.world_ref import stores_for_step
from ..events import _touch_changes
from ..queries import QueryFilter, _every_rows, _index
from ..shapes import ALL_BITS
from .._recycle import take
from ..world import World
from . import _b2snapshot
from ._b2bodies import _LIMIT, _finite, b2Body
from ._b2joints import b2Joint, create_joint
from ._b2math import b2Vec2, vec_tuple
from ._b2shapes import b2Fixture
from ._b2after import _after_step, _touch_columns
from ._b2release import engine_count, recycle_key, release
from ._b2rows import BodyRows
from ._b2manifold import LazyManifold, b2WorldManifold, contact_manifold
from ._b2queue import (_as_list, can_queue_destroy, flush_queue, queue_destroy, queue_static,
                       shape_fixtures)
from ._b2sleep import _motor_timers
from ._b2debugdraw import draw_debug_data
from ._b2dynamic import create_one_fixture
from ._b2solvecalls import awake_rows, check_filter, overrides_post_solve, post_solve

_LOW = (1 << 32) - 1
_new = object.__new__
_BITS = QueryFilter(ALL_BITS, ALL_BITS)._bits[0]  # every category, as the kernels take it
_NO_KEYS = np.empty(0, np.int64)
_NO_FORCES = np.empty((0, 2))  # Step's forces when none were given (nothing to put back)
_NO_TORQUES = np.empty(0)
_FEW_JOINTS = 16  # joints up to which _find_held reads them one by one
_FEW = 64  # contacts up to which _dispatch compares the touching keys in Python first
_TOI_DISTANCE = 0.1  # m: Box2D 2.3's fat-box margin (b2_aabbExtension); slower bodies have
# their contacts found ahead by the broadphase margin


class b2ContactListener:  # noqa: N801
    """Subclass and override ``BeginContact(contact)``, ``EndContact(contact)`` and
    ``PreSolve(contact, oldManifold)`` (called before the solver for each contact with
    manifold points; ``contact.enabled = False`` leaves it out of this step; ``oldManifold`` is
    the contact's manifold of the step before, empty if it had none: :mod:`._b2manifold`) and
    ``PostSolve(contact, impulse)`` (after the solve, with the step's impulses: see
    :mod:`._b2solvecalls`)."""

    def __init__(self):
        pass

    def BeginContact(self, contact):  # noqa: N802
        pass

    def EndContact(self, contact):  # noqa: N802
        pass

    def PreSolve(self, contact, oldManifold):  # noqa: N802, N803
        pass

    def PostSolve(self, contact, impulse):  # noqa: N802
        pass


class b2DestructionListener:  # noqa: N801
    """Told of joints and fixtures destroyed implicitly: ``world.DestroyBody(body)`` calls
    ``SayGoodbye(joint)`` for each of the body's joints, then (after ``EndContact`` for its
    touching contacts) ``SayGoodbye(fixture)`` for each of its fixtures, before they go, as
    Box2D 2.3 does. Explicit ``DestroyJoint``/``DestroyFixture`` calls say nothing. Set it
    as ``b2World(destructionListener=...)`` or ``world.destructionListener``."""

    def __init__(self, **kwargs):
        for name, value in kwargs.items():
            setattr(self, name, value)

    def SayGoodbye(self, obj):  # noqa: N802
        pass


class b2RayCastCallback:  # noqa: N801
    """Subclass and override ``ReportFixture(fixture, point, normal, fraction)``: return -1 to
    ignore the fixture, 0 to stop, ``fraction`` to clip the ray there, 1 to go on."""

    def __init__(self):
        pass

    def ReportFixture(self, fixture, point, normal, fraction):  # noqa: N802
        return 1.0


class b2QueryCallback:  # noqa: N801
    """Subclass and override ``ReportFixture(fixture)``: return False to stop the query."""

    def __init__(self):
        pass

    def ReportFixture(self, fixture):  # noqa: N802
        return True


class b2AABB:  # noqa: N801
    """An axis-aligned box: ``lowerBound``, ``upperBound`` (m), with Box2D 2.3's ``center``,
    ``extents``, ``perimeter``, ``valid``, ``overlaps``, ``Combine`` and ``RayCast``."""

    def __init__(self, lowerBound=(0.0, 0.0), upperBound=(0.0, 0.0)):  # noqa: N803
        self.lowerBound = b2Vec2(*vec_tuple(lowerBound, "lowerBound"))
        self.upperBound = b2Vec2(*vec_tuple(upperBound, "upperBound"))

    center = property(lambda self: 0.5 * (self.lowerBound + self.upperBound))
    extents = property(lambda self: 0.5 * (self.upperBound - self.lowerBound))
    perimeter = property(lambda self: 2.0 * ((self.upperBound.x - self.lowerBound.x)
                                             + (self.upperBound.y - self.lowerBound.y)))

    @property
    def valid(self):
        d = self.upperBound - self.lowerBound
        return d.x >= 0.0 and d.y >= 0.0 and self.lowerBound.valid and self.upperBound.valid

    def overlaps(self, other):
        """Whether the boxes overlap (touching counts), as ``b2TestOverlap``."""
        return not (other.lowerBound.x > self.upperBound.x or other.lowerBound.y >
                    self.upperBound.y or self.lowerBound.x > other.upperBound.x
                    or self.lowerBound.y > other.upperBound.y)

    def Combine(self, a, b=None):  # noqa: N802
        """This box becomes the box around ``a`` and ``b`` (or around itself and ``a``)."""
        if b is None:
            a, b = self, a
        self.lowerBound = b2Vec2(min(a.lowerBound.x, b.lowerBound.x),
                                 min(a.lowerBound.y, b.lowerBound.y))
        self.upperBound = b2Vec2(max(a.upperBound.x, b.upperBound.x),
                                 max(a.upperBound.y, b.upperBound.y))

    def RayCast(self, output, input):  # noqa: N802, A002
        """Box2D 2.3's slab test of the ray ``input`` (p1 to p1 + maxFraction (p2 - p1)): on
        a hit ``output`` gets the entry fraction and the face normal; a ray starting inside
        misses, as Box2D's."""
        p = input.p1
        d = input.p2 - input.p1
        tmin, tmax = -math.inf, math.inf
        normal = (0.0, 0.0)
        for k in (0, 1):
            lo, hi = self.lowerBound[k], self.upperBound[k]
            if abs(d[k]) < 2.0 ** -23:
                if p[k] < lo or hi < p[k]:
                    return False
                continue
            inv = 1.0 / d[k]
            t1, t2 = (lo - p[k]) * inv, (hi - p[k]) * inv
            s = -1.0
            if t1 > t2:
                t1, t2 = t2, t1
                s = 1.0
            if t1 > tmin:
                normal = (s, 0.0) if k == 0 else (0.0, s)
                tmin = t1
            tmax = min(tmax, t2)
            if tmin > tmax:
                return False
        if tmin < 0.0 or input.maxFraction < tmin:
            return False
        output.fraction = tmin
        output.normal = b2Vec2(*normal)
        return True


class b2Contact:  # noqa: N801
    """What a contact callback receives: ``fixtureA``, ``fixtureB``, ``touching``,
    ``manifold`` (Box2D's form, with feature ids: :mod:`._b2manifold`) and ``worldManifold``
    (empty for an end or a sensor overlap); ``enabled`` (PreSolve may clear it), ``friction``
    and ``restitution`` (Box2D's mixes of the fixtures'), ``childIndexA``/``childIndexB``."""

    __slots__ = ("fixtureA", "fixtureB", "touching", "_normal", "_points", "_ids", "enabled",
                 "_manifold")

    def __init__(self, fa, fb, touching, normal=None, points=(), ids=()):
        self.fixtureA = fa
        self.fixtureB = fb
        self.touching = touching
        self._normal = normal
        self._points = points
        self._ids = ids
        self.enabled = True
        self._manifold = None

    @property
    def manifold(self):
        if self._manifold is None:
            n = self._normal
            self._manifold = contact_manifold(
                self.fixtureA, self.fixtureB, None if n is None else (n[0], n[1]),
                [b2Vec2(x, y) for x, y in self._points], self._ids)
        return self._manifold

    @property
    def worldManifold(self):  # noqa: N802
        n = self._normal
        return b2WorldManifold((0.0, 0.0) if n is None else (n[0], n[1]),
                               [b2Vec2(x, y) for x, y in self._points])

    @property
    def sensor(self):
        return self.fixtureA.sensor or self.fixtureB.sensor

    @property
    def friction(self):
        """Box2D's mix, sqrt(fA fB)."""
        return (self.fixtureA.friction * self.fixtureB.friction) ** 0.5

    @property
    def restitution(self):
        """Box2D's mix, max(rA, rB)."""
        return max(self.fixtureA.restitution, self.fixtureB.restitution)

    def ResetFriction(self):  # noqa: N802
        """Nothing to undo: ``friction`` is always the fixtures' mix here (read-only)."""

    def ResetRestitution(self):  # noqa: N802
        """Nothing to undo: ``restitution`` is always the fixtures' mix here (read-only)."""

    childIndexA = property(lambda self: 0, doc="0 (a chain fixture's edges are not told apart)")
    childIndexB = property(lambda self: 0, doc="0 (a chain fixture's edges are not told apart)")

    def __repr__(self):
        return f"b2Contact(touching={self.touching})"


class b2World:  # noqa: N801
    """``b2World(gravity=(0, -10), doSleep=True, contactListener=None)``; any attribute may be
    set on it. ``world.engine`` is the impulse2d ``World`` underneath."""

    engine_settings: dict = {"solver": "pgs_block", "continuous_box2d23": True}
    """impulse2d ``WorldSettings`` every new b2World starts from (a class attribute: change it
    before the worlds are made, e.g. ``b2World.engine_settings = {"solver": "soft_step"}``)."""
    substeps = 1
    """Engine steps per ``Step`` (each of dt / substeps; 1: Box2D's own step): see the module
    docstring."""
    max_iterations = None
    """Caps ``(velocity, position)`` on the iterations of each engine step (None: Box2D's
    counts as given, shared among the substeps)."""
    batch_static = True
    """Queue ``CreateStaticBody(fixtures=...)`` calls of massless fixtures and make their
    engine bodies in one batch when anything else touches the world (``_b2queue``): the same
    bodies, made several times faster."""
    continuous = True
    """Stop dynamic bodies that moved farther than 0.1 m in a step at the first static shape
    on their way (see :meth:`_stop_at_static`)."""
    _gears = False
    """Whether a gear joint was ever made in this world (``create_joint`` sets it on the
    world): only a gear is freed by the engine with another joint, so a world that never had
    one skips the searches for such joints in ``DestroyBody`` (:meth:`_forget_joint`,
    ``_b2queue.can_queue_destroy``), a pass over its joints per destroyed joint."""

    def __init__(self, gravity=(0.0, -10.0), doSleep=True, contactListener=None,  # noqa: N803
                 warmStarting=True, continuousPhysics=True, subStepping=False,  # noqa: N803
                 destructionListener=None, contactFilter=None, renderer=None):  # noqa: N803
        changes = {**self.engine_settings, "enable_sleep": bool(doSleep),
                   "warm_starting": bool(warmStarting)}
        gravity = vec_tuple(gravity, "gravity")
        # a world a dropped b2World of the same settings left, made new (_b2release)
        key = recycle_key(self, changes)
        recycled = None if key is None else take(key, _b2snapshot.LayerWorld, gravity,
                                                   changes)
        if recycled is None:
            self._world, sweeps = _b2snapshot.LayerWorld(gravity=gravity, **changes), None
        else:
            self._world, sweeps = recycled
            recycled = None  # (no other reference to the world: engine_count, below)
        # continuousPhysics and subStepping are accepted and ignored (the engine's continuous
        # collision is on; see the module docstring).
        self._bodies: dict[int, b2Body] = {}
        self._body_rows = BodyRows()  # the body store's hot columns, for b2Body (_b2rows)
        self._queue: list = []  # static bodies waiting to be made (_b2queue)
        self._fixtures: dict = {}   # shape row -> b2Fixture
        self._joints: dict[int, b2Joint] = {}
        self._touching = _NO_KEYS         # shape_a << 32 | shape_b of touching contacts, ascending
        self._touching_list: list[int] = []  # the same keys, as a list
        self._keys_seen = (None, [])  # a contact store's key column and its list (_dispatch)
        self._sensing: set[int] = set()   # sensor << 32 | visitor: overlaps begun and not ended
        self._held = None            # rows of bodies held by turning motors (None: recompute)
        self._dynamic = None         # rows of the dynamic bodies (None: recompute)
        self._held_list: list[int] = []  # the same rows, as a list
        self._held_timer = np.zeros(0)   # s each of them has been slow (_motor_sleep)
        # the sweeps last set on the engine's settings (a recycled world keeps its last ones)
        self._iterations = (8, 3) if sweeps is None else sweeps
        self._buffers = (_NO_FORCES, _NO_TORQUES, _NO_FORCES)  # _substeps: forces, torques,
        # origins at the start of a Step (one row per body row)
        self._pre_solve_on = False  # whether the engine's pre_solve hook is set (PreSolve)
        self._post_solve_on = False  # whether the listener overrides PostSolve
        self._filter = None  # the program's b2ContactFilter (contactFilter)
        self._listener_seen = (None, type(None))  # the listener that _pre_solve_on is for
        self._manifolds_before: dict = {}  # (shape a, shape b) -> the raw contact: PreSolve's
        self._manifolds_now: dict = {}     # oldManifold, and this step's (_pre_solve)
        self._listener = contactListener
        self.destructionListener = destructionListener
        if contactFilter is None:
            self._filter = None  # (the engine world's pair filter is None already)
        else:
            self.contactFilter = contactFilter
        self.renderer = renderer
        self.autoClearForces = True
        # accepted and kept for the program to read back: the engine's continuous collision
        # is always on, and it has no sub-stepping of Box2D's time of impact
        self.continuousPhysics = bool(continuousPhysics)
        self.subStepping = bool(subStepping)
        self._engine_count = engine_count(self)  # (last: the engine world as made, _b2release)

    def __del__(self, _release=release):
        # a dropped world's engine world, freed by reference counts where only the layer held
        # it (_b2release; the argument bound: the module may be gone at the interpreter's exit)
        _release(self)

    def _flush_queue(self) -> bool:
        """Make the queued static bodies (``_b2queue``); whether there were any."""
        return flush_queue(self)

    @property
    def engine(self) -> World:
        self._engine_taken = True  # the program may hold it: never emptied (_b2release)
        return self._world

    # -- snapshots (_b2snapshot) -------------------------------------------------------------
    def snapshot(self) -> _b2snapshot.b2WorldSnapshot:
        """The world's state now, the engine's and the layer's (its bodies, fixtures and
        joints with their attributes); :meth:`restore` puts it back (not in pybox2d)."""
        return _b2snapshot.take(self)

    def restore(self, snap: _b2snapshot.b2WorldSnapshot) -> None:
        """Put the world back in the state of ``snap`` (from :meth:`snapshot` of this world):
        bodies, fixtures and joints of then are valid and as they were; those made since are
        destroyed, and any use of them raises ``ValueError``. The program's own objects (an
        environment's attributes, its random generator) are not restored."""
        _b2snapshot.restore(self, snap)

    # -- properties --------------------------------------------------------------------------
    @property
    def contactListener(self):  # noqa: N802
        return self._listener

    @contactListener.setter
    def contactListener(self, value):  # noqa: N802
        self._listener = value

    @property
    def contactFilter(self):  # noqa: N802
        return self._filter

    @contactFilter.setter
    def contactFilter(self, value):  # noqa: N802
        """The engine's pair filter asks it (:mod:`._b2solvecalls`)."""
        self._filter = check_filter(value)
        self._world.pair_filter = None if value is None else self._pair_filter

    def _pair_filter(self, shape_a, shape_b) -> bool:
        f = self._fixtures
        fa, fb = f.get(shape_a._index), f.get(shape_b._index)
        if fa is None or fb is None:   # a shape made on world.engine directly: not asked
            return True
        return bool(self._filter.ShouldCollide(fa, fb))

    @property
    def gravity(self):
        return b2Vec2(*self._world.gravity)

    @gravity.setter
    def gravity(self, value):
        self._world.gravity = vec_tuple(value, "gravity")

    @property
    def allowSleeping(self):  # noqa: N802
        return self._world.settings.enable_sleep

    @allowSleeping.setter
    def allowSleeping(self, value):  # noqa: N802
        self._world.settings.enable_sleep = bool(value)

    doSleep = allowSleeping

    def GetAllowSleeping(self):  # noqa: N802
        return self.allowSleeping

    def SetAllowSleeping(self, flag):  # noqa: N802
        self.allowSleeping = flag

    @property
    def warmStarting(self):  # noqa: N802
        return self._world.settings.warm_starting

    @warmStarting.setter
    def warmStarting(self, value):  # noqa: N802
        self._world.settings.warm_starting = bool(value)

    @property
    def contactCount(self):  # noqa: N802
        """Box2D's count: every pair whose broadphase boxes overlap (touching or not)."""
        flush_queue(self)
        return len(self._world.get_contacts(touching_only=False))

    @property
    def proxyCount(self):  # noqa: N802
        """Box2D's broadphase proxies: one per fixture child (a chain's edges each)."""
        flush_queue(self)
        return sum(f.shape.childCount for b in self.bodies for f in b.fixtures)

    # pybox2d's generators over the same lists
    bodies_gen = property(lambda self: iter(self.bodies))
    joints_gen = property(lambda self: iter(self.joints))
    contacts_gen = property(lambda self: iter(self.contacts))

    @property
    def bodies(self):
        """The layer's bodies, in the engine's order (bodies made on ``world.engine``
        directly are not the layer's: left out)."""
        mine = self._bodies
        return [mine[h._index] for h in self._world.bodies if h._index in mine]

    @property
    def joints(self):
        return [self._joints[j] for j in sorted(self._joints)]

    @property
    def bodyCount(self):  # noqa: N802
        return len(self._bodies)

    @property
    def jointCount(self):  # noqa: N802
        return len(self._joints)

    @property
    def contacts(self):
        """The touching contacts now (``b2Contact`` records)."""
        f = self._fixtures
        return [b2Contact(f[c.shape_a._index], f[c.shape_b._index], True, c.normal,
                          [p.point for p in c.points])
                for c in self._world.get_contacts(touching_only=False)
                if min(p.separation for p in c.points) <= 0.0
                and c.shape_a._index in f and c.shape_b._index in f]

    @property
    def locked(self):
        return False

    # -- bodies ------------------------------------------------------------------------------
    def CreateBody(self, defn=None, **kwargs):  # noqa: N802
        """``CreateBody(bodyDef)`` or ``CreateBody(type=..., position=..., fixtures=...)``."""
        if defn is not None:
            kwargs = {**{k: v for k, v in vars(defn).items()}, **kwargs}
        kind = kwargs.pop("type", STATIC)
        kind = {0: "static", 1: "kinematic", 2: "dynamic"}.get(kind, kind)
        return self._create(kind, **kwargs)

    def CreateDynamicBody(self, **kwargs):  # noqa: N802
        return self._create("dynamic", **kwargs)

    def CreateStaticBody(self, **kwargs):  # noqa: N802
        return queue_static(self, kwargs) or self._create("static", **kwargs)

    def CreateKinematicBody(self, **kwargs):  # noqa: N802
        return self._create("kinematic", **kwargs)

    def _create(self, kind, position=(0.0, 0.0), angle=0.0, linearVelocity=(0.0, 0.0),  # noqa: N803
                angularVelocity=0.0, linearDamping=0.0, angularDamping=0.0,  # noqa: N803
                allowSleep=True, awake=True, fixedRotation=False, bullet=False,  # noqa: N803
                active=True, gravityScale=1.0, userData=None,  # noqa: N803
                fixtures=None, shapes=None,
                shapeFixture=None, inertiaScale=None):  # noqa: N803
        if not active:
            raise ValueError("inactive bodies (active=False) are not supported")
        flush_queue(self)  # bodies are made in call order (_b2queue)
        if kind == "dynamic" and awake and not bullet and shapes is None:
            body = create_one_fixture(self, fixtures, position, angle, linearVelocity,
                                      angularVelocity, linearDamping, angularDamping,
                                      gravityScale, fixedRotation, allowSleep, userData)
            if body is not None:  # (in one compiled call: _b2dynamic)
                return body
        handle = self._world.create_body(
            kind, position=vec_tuple(position, "position"), angle=angle,
            linear_velocity=vec_tuple(linearVelocity, "linearVelocity"),
            angular_velocity=angularVelocity, linear_damping=linearDamping,
            angular_damping=angularDamping, gravity_scale=gravityScale,
            fixed_rotation=bool(fixedRotation), allow_sleep=bool(allowSleep))
        if bullet:
            handle.bullet = True
        body = b2Body(self, handle, userData)
        self._bodies[handle._index] = body
        self._dynamic = None
        try:
            for fd in _as_list(fixtures) + shape_fixtures(shapes, shapeFixture):
                body.CreateFixture(fd)
        except Exception:
            self.DestroyBody(body)  # a bad fixture leaves no half-made body
            raise
        if not awake and kind == "dynamic":
            handle.is_awake = False
        return body

    def DestroyBody(self, body):  # noqa: N802
        """Destroy ``body`` with its fixtures and joints; its touching contacts' ``EndContact``
        is called now."""
        if not isinstance(body, b2Body) or body._b2world is not self:
            raise TypeError("body must be a b2Body of this world")
        i = body._i  # (a queued body is made first)
        if self._bodies.get(i) is not body:
            raise ValueError("this body was already destroyed")
        # the engine's part queued (_b2queue) where it can be, carried out after the layer's
        # part here (as when done at once, after the listeners' calls)
        queued = can_queue_destroy(self, body)
        goodbye = self.destructionListener
        if not queued:
            flush_queue(self)  # what was queued before comes first
        for joint in list(body._joints):
            if goodbye is not None:
                goodbye.SayGoodbye(joint)
            self._forget_joint(joint)
        rows = [f._shape._index for f in body._fixtures if f.__class__ is b2Fixture]
        if len(rows) != len(body._fixtures):  # chain fixtures: several rows each
            rows = [row for f in body._fixtures for row in f._rows()]
        # (nothing touching or sensed, nothing to end: LunarLander's reset destroys three of its
        # four bodies after the moon, which took their contacts with it)
        if self._touching.shape[0] or self._sensing:
            self._end_contacts(rows)
        if goodbye is not None:
            for fixture in body._fixtures:
                goodbye.SayGoodbye(fixture)
        if queued:
            queue_destroy(self, body._handle)
        else:
            self._world.destroy_body(body._handle)
        for s in rows:
            del self._fixtures[s]
        del self._bodies[i]
        self._dynamic = None
        self._held = None
        _b2snapshot.mark_destroyed((*body._fixtures, body))  # any later use raises

    def _destroy_fixture(self, fixture):
        flush_queue(self)  # a row freed after what was queued, as in call order
        body = fixture._body
        rows = fixture._rows()
        self._end_contacts(rows)
        fixture._destroy_engine_part()
        body._fixtures.remove(fixture)
        for row in rows:
            del self._fixtures[row]
        _b2snapshot.mark_destroyed((fixture,))

    def _end_contacts(self, rows: list):
        """``EndContact`` for the touching contacts and sensor overlaps of the shape ``rows``
        (about to be destroyed: Box2D calls it from DestroyBody and DestroyFixture)."""
        keys = self._touching
        rows = set(rows)
        if keys.shape[0]:
            # a handful of keys: a Python pass is cheaper than array set operations
            listed = keys.tolist()
            gone = [k for k in listed if (k >> 32) in rows or (k & _LOW) in rows]
            if gone:
                self._touching_list = [k for k in listed if k not in gone]
                self._touching = np.array(self._touching_list, np.int64)
                if self._listener is not None:
                    f = self._fixtures
                    for key in gone:
                        self._listener.EndContact(b2Contact(f[key >> 32], f[key & _LOW], False))
        gone = [k for k in self._sensing if (k >> 32) in rows or (k & _LOW) in rows]
        for k in gone:
            self._sensing.discard(k)
            if self._listener is not None:
                f = self._fixtures
                self._listener.EndContact(b2Contact(f[k >> 32], f[k & _LOW], False))

    # -- joints ------------------------------------------------------------------------------
    def CreateJoint(self, defn=None, **kwargs):  # noqa: N802
        if defn is None:
            kind = kwargs.pop("type")
            defn = kind(**kwargs)
        joint = create_joint(self, defn)
        self._held = None
        return joint

    def _joint_maker(defclass):  # noqa: N805  (class-body helper)
        def make(self, **kwargs):
            from . import _b2joints
            return self.CreateJoint(getattr(_b2joints, defclass)(**kwargs))
        return make

    CreateRevoluteJoint = _joint_maker("b2RevoluteJointDef")
    CreatePrismaticJoint = _joint_maker("b2PrismaticJointDef")
    CreateDistanceJoint = _joint_maker("b2DistanceJointDef")
    CreateWeldJoint = _joint_maker("b2WeldJointDef")
    CreateWheelJoint = _joint_maker("b2WheelJointDef")
    CreateMouseJoint = _joint_maker("b2MouseJointDef")
    CreatePulleyJoint = _joint_maker("b2PulleyJointDef")
    CreateGearJoint = _joint_maker("b2GearJointDef")
    CreateRopeJoint = _joint_maker("b2RopeJointDef")
    CreateFrictionJoint = _joint_maker("b2FrictionJointDef")
    CreateMotorJoint = _joint_maker("b2MotorJointDef")
    del _joint_maker

    def DestroyJoint(self, joint):  # noqa: N802
        if not isinstance(joint, b2Joint) or self._joints.get(joint._j) is not joint:
            raise ValueError("joint is not a live joint of this world")
        self._world.destroy_joint(joint._joint)
        self._forget_joint(joint)

    def _forget_joint(self, joint):
        # gears of this joint go with it (the engine frees them too)
        if self._gears:
            gone = [j for j in self._joints.values() if not j._joint.is_valid or j is joint]
        else:
            gone = [joint]
        for other in gone:
            self._joints.pop(other._j, None)
            for body in (other.bodyA, other.bodyB):
                if other in body._joints:
                    body._joints.remove(other)
        self._held = None
        _b2snapshot.mark_destroyed(gone)

    # -- the step ----------------------------------------------------------------------------
    def Step(self, timeStep, velocityIterations=8, positionIterations=3):  # noqa: N802, N803
        w = self._world
        n = self.substeps
        if (velocityIterations, positionIterations) != self._iterations:
            # Box2D's sweeps spread over the substeps, at most max_iterations per substep
            s = w.settings
            vmax, pmax = self.max_iterations or (velocityIterations, positionIterations)
            s.velocity_iterations = max(min(-(-int(velocityIterations) // n), int(vmax)), 1)
            s.position_iterations = max(min(-(-int(positionIterations) // n), int(pmax)), 1)
            self._iterations = (velocityIterations, positionIterations)
        b = w._bodies
        events = w._events
        dt = float(timeStep)
        # PreSolve through the engine's pre-solve hook, only for a listener that overrides it
        # (with the hook set the engine's step runs in two calls around it)
        listener = self._listener
        # (the answer kept per listener object and class: the test costs a microsecond a Step)
        if listener is not self._listener_seen[0] or type(listener) is not self._listener_seen[1]:
            overridden = (listener is not None and getattr(type(listener), "PreSolve", None)
                          is not b2ContactListener.PreSolve and hasattr(listener, "PreSolve"))
            if overridden is not self._pre_solve_on:
                w.pre_solve = self._pre_solve if overridden else None
                self._pre_solve_on = overridden
                # the engine's sweep does not see contacts PreSolve switched off: Box2D v3's
                # stop (velocity kept) there, Box2D 2.3's rules elsewhere (module docstring)
                w.settings.continuous_box2d23 = (not overridden and bool(
                    self.engine_settings.get("continuous_box2d23", False)))
            self._post_solve_on = overrides_post_solve(listener, b2ContactListener)
            self._listener_seen = (listener, type(listener))
        if self._pre_solve_on:
            self._manifolds_before, self._manifolds_now = self._manifolds_now, {}
        if dt == 0.0 and self.autoClearForces:
            # Box2D 2.4 clears the forces after every Step, a zero one too; the engine's
            # step(0) keeps them (Box2D v3). A zero step reads no force, so clearing first is
            # the same.
            self.ClearForces()
        # PostSolve needs to know which islands the step solved (:mod:`._b2solvecalls`)
        awake = awake_rows(self) if self._post_solve_on else None
        if n == 1:
            # Box2D's own step (the default): the engine's continuous collision stops the
            # bodies that the step moved far (see the module docstring)
            w.step(dt)
            if events.sensor_count > 0 or self._sensing:
                self._dispatch()
                self._dispatch_sensors(events, self._listener)
            else:
                # the common Step: whether the touching contacts changed and, if they did
                # not, the motor sleep timers, in one compiled call (:mod:`._b2after`)
                if self._held is None:
                    self._find_held()
                settings = w._settings
                changed, held_awake, ready = _after_step.entry(
                    self._stores_now(), self._touching, self._held, self._held_timer, dt,
                    float(settings.time_to_sleep), bool(self._held_list and settings.enable_sleep))
                if not changed:
                    if awake is not None:
                        post_solve(self, awake, b2Contact)
                    if held_awake and ready:
                        self._sleep_held()
                    return
                self._dispatch()
        else:
            self._substeps(w, b, events, dt, n)
        if awake is not None:
            post_solve(self, awake, b2Contact)
        if self._held is None:
            self._find_held()
        if self._held_list and w._settings.enable_sleep:
            self._motor_sleep(dt)

    def _substeps(self, w, b, events, dt, n):
        """``Step`` as ``n`` engine steps of ``dt / n``: Box2D applies the forces given before
        Step over the whole step, and the engine clears them after each of its steps, so they
        are put back for every substep. The callbacks run after each substep: a ball that
        bounces within one Step touches in one substep and leaves in a later one, and Box2D,
        whose continuous collision stops it at the ground, reports that touch. The engine's
        continuous collision sees each substep's motion only,
        so the layer stops the bodies that the whole Step moved far (:meth:`_stop_at_static`).

        The engine takes the substeps in one call (``World._step_repeat``) until the touching
        contacts change, when the listener hears of it before the next substep; it keeps the
        forces and start positions in the layer's buffers and counts the far bodies. With
        sensors, whose overlaps come as the world's events, it takes them one at a time."""
        rows = b.force.shape[0]
        buffers = self._buffers
        if buffers[0].shape[0] != rows:
            buffers = self._buffers = (np.empty((rows, 2)), np.empty(rows), np.empty((rows, 2)))
        forces, torques, starts = buffers
        h = dt / n
        whole = dt if self.continuous else 0.0
        k = 0
        far = 0
        while k < n:
            if events.sensor_count > 0 or self._sensing:
                taken, changed, far = w._step_repeat(h, 1, self._touching, forces, torques,
                                                     starts, k == 0, whole if k == n - 1 else 0.0,
                                                     _TOI_DISTANCE)
                k += 1
                self._dispatch()
                self._dispatch_sensors(events, self._listener)
            else:
                taken, changed, far = w._step_repeat(h, n - k, self._touching, forces, torques,
                                                     starts, k == 0, whole, _TOI_DISTANCE)
                k += taken
                if changed:
                    self._dispatch()
        if far:
            # motion the velocities do not account for: the position pass moved the body
            b = w._bodies
            o, v, alive, types, lim = b.origin, b.v, b.alive, b.type, _TOI_DISTANCE ** 2
            for i in range(min(starts.shape[0], o.shape[0])):
                if not (alive.item(i) and types.item(i) == DYNAMIC):
                    continue
                x0, y0 = starts.item(i, 0), starts.item(i, 1)
                dx = o.item(i, 0) - x0
                dy = o.item(i, 1) - y0
                ex = dx - v.item(i, 0) * dt
                ey = dy - v.item(i, 1) * dt
                if ex * ex + ey * ey > lim:
                    self._stop_at_static(i, np.array((x0, y0)), np.array((dx, dy)))

    def _stop_at_static(self, i, start, d):
        """Box2D's continuous collision, for the case it matters here: a dynamic body that
        moved more than the contact margin in one step (a joint snapping a light leg into place
        at creation) is put back where its shapes first touch a static shape along its path,
        its velocity into that shape removed (Box2D 2.3 sweeps every dynamic body against
        static ones; the engine's sweep sees each substep's share of the motion only, and the
        body would otherwise end the step deep inside a thin edge)."""
        w = self._world
        b = w._bodies
        end = b.origin[i].copy()
        b.origin[i] = start
        w._sync_center(i)
        first = None
        for fixture in self._bodies[i]._fixtures:
            if fixture._shape.is_sensor:
                continue
            hit = w.shape_cast(fixture._shape, (float(d[0]), float(d[1])))
            if (hit is not None and 0.0 < hit.fraction < 1.0
                    and b.type[hit.shape.body._index] == STATIC
                    and (first is None or hit.fraction < first.fraction)):
                first = hit
        if first is None:
            b.origin[i] = end
        else:
            b.origin[i] = start + first.fraction * d
            nx, ny = first.normal
            vn = b.v[i, 0] * nx + b.v[i, 1] * ny
            if vn < 0.0:
                b.v[i, 0] -= vn * nx
                b.v[i, 1] -= vn * ny
        w._sync_center(i)

    def DrawDebugData(self):  # noqa: N802
        """Draw the world through ``renderer`` (a ``b2Draw``), as Box2D 2.3 does
        (:mod:`._b2debugdraw`)."""
        draw_debug_data(self)

    def GetProfile(self):  # noqa: N802
        """Box2D's ``b2Profile`` of the last step, ms, from the engine's stage timings
        (:class:`._b2structs.b2Profile`)."""
        from ._b2structs import b2Profile
        return b2Profile.of(self._world.profile)

    def ClearForces(self):  # noqa: N802
        """Forces are cleared by every step (Box2D's autoClearForces)."""
        b = self._world._bodies
        b.force[:] = 0.0
        b.torque[:] = 0.0

    def _pre_solve(self, contact) -> bool:
        """The engine's pre-solve hook: the listener's ``PreSolve`` with a Box2D contact and
        the contact's manifold of the step before."""
        f = self._fixtures
        normal = contact.normal
        ia, ib = contact.shape_a.index, contact.shape_b.index
        fa, fb = f.get(ia), f.get(ib)
        if fa is None or fb is None:   # a shape made on world.engine directly: not asked
            return True
        n = (normal.x, normal.y)
        points = contact.points
        ids = [p.id for p in points]
        c = b2Contact(fa, fb, True, n, [tuple(p.point) for p in points], ids)
        # Box2D's oldManifold: this contact's manifold of the step before (empty if it had
        # none); with substeps, of the Step before (the dicts turn over once per Step). Kept
        # as the raw contact, made into a b2Manifold only if the listener reads it.
        key = (ia, ib)
        self._manifolds_now[key] = (fa, fb, n, c._points, ids)
        self._listener.PreSolve(c, LazyManifold(self._manifolds_before.get(key)))
        return bool(c.enabled)

    def _dispatch(self):
        w = self._world
        d = w.__dict__
        if d["_contacts_stale"]:
            # a store the step made, still the reference's alone (World._contacts would box
            # all of it): the columns read here
            key, count, shape_a, shape_b, normal, point = _touch_columns.entry(d["_stores"])
        else:
            c = d["_contacts"]
            key, count, shape_a, shape_b, normal, point = (c.key, c.count, c.shape_a,
                                                           c.shape_b, c.normal, c.point)
        if count.shape[0] <= _FEW:
            # A few contacts (Gymnasium's worlds): the touching keys compared in Python, about
            # 1 us, where the kernel call that finds the changes costs about 5 (and its first
            # call in a process loads it: 2-18 ms, at LunarLander's first touch); most steps
            # change nothing. (The store is in ascending key order, as the kernel assumes.) A
            # contact store's keys never change (a new pair makes a new store), so their list
            # is kept while the store's key column is the same array (a column read from the
            # reference is a new array at each read: listed again).
            if key is not self._keys_seen[0]:
                self._keys_seen = (key, key.tolist())
            keys = self._keys_seen[1]
            counts = count.tolist()
            now = list(compress(keys, counts))
            before = self._touching_list
            if now == before:
                return
            # the kernel's changes (events.touch_changes): the rows that touch now and did not,
            # in store order, and the keys that touched and do not, in their ascending order
            seen, kept = set(before), set(now)
            begin = [k for k, n in enumerate(counts) if n and keys[k] not in seen]
            ended = [key for key in before if key not in kept]
            self._touching = np.array(now, np.int64)
            self._touching_list = now
        else:
            begin, ended, touching = _touch_changes.entry(self._touching, key, count)
            self._touching = touching
            self._touching_list = touching.tolist()
            begin, ended = begin.tolist(), ended.tolist()
        listener = self._listener
        f = self._fixtures
        # (a shape made on world.engine directly, with no fixture here, is not reported)
        if listener is not None and ended:
            for key in ended:
                fa, fb = f.get(key >> 32), f.get(key & _LOW)
                if fa is not None and fb is not None:
                    listener.EndContact(b2Contact(fa, fb, False))
        if listener is not None and begin:
            for k in begin:
                fa, fb = f.get(shape_a.item(k)), f.get(shape_b.item(k))
                if fa is None or fb is None:
                    continue
                n = count.item(k)
                listener.BeginContact(b2Contact(fa, fb, True, normal[k].tolist(),
                                                point[k, :n].tolist()))

    def _dispatch_sensors(self, events, listener):
        f = self._fixtures
        sensing = self._sensing
        for pairs in events.sensor_end:
            for s, v, _, _ in pairs.tolist():
                key = (s << 32) | v
                if key in sensing:
                    sensing.discard(key)
                    if listener is not None:
                        listener.EndContact(b2Contact(f[s], f[v], False))
        for s, v, _, _ in events.sensor_begin.tolist():
            if s in f and v in f and self._should_collide(s, v):
                sensing.add((s << 32) | v)
                if listener is not None:
                    listener.BeginContact(b2Contact(f[s], f[v], True))

    def _should_collide(self, s: int, v: int) -> bool:
        """Box2D 2.3's pair rules for the shapes ``s`` and ``v``."""
        sh = self._world._shapes
        ga, gb = int(sh.group[s]), int(sh.group[v])
        if ga == gb and ga != 0:
            if ga < 0:
                return False
        elif not (int(sh.category[s]) & int(sh.mask[v]) and int(sh.category[v]) & int(sh.mask[s])):
            return False
        ba, bb = self._fixtures[s]._body, self._fixtures[v]._body
        types = self._world._bodies.type
        if types[ba._i] != DYNAMIC and types[bb._i] != DYNAMIC:
            return False
        for joint in ba._joints:
            if (joint.bodyA is bb or joint.bodyB is bb) and not joint._joint.collide_connected:
                return False
        if self._filter is not None:
            return bool(self._filter.ShouldCollide(self._fixtures[s], self._fixtures[v]))
        return True

    def _find_held(self):
        """Rows of the dynamic bodies of joints whose motor turns (see the module docstring),
        with their timers (those of bodies still held kept)."""
        jt = self._world._joints
        if len(self._joints) <= _FEW_JOINTS and \
                len(self._joints) == self._world._joint_pool.live_count:
            # a few joints (Gymnasium's worlds: every reset's first Step comes here): the rows
            # read one by one, about a tenth of the array passes below
            types = self._world._bodies.type
            rows = set()
            for j in self._joints.values():
                k = j._j
                if jt.enable_motor.item(k) and jt.motor_speed.item(k) != 0.0:
                    rows.add(jt.body_a.item(k))
                    rows.add(jt.body_b.item(k))
            held = sorted(i for i in rows if types.item(i) == DYNAMIC)
            self._held = np.array(held, np.int64)
        else:
            on = jt.alive & jt.enable_motor & (jt.motor_speed != 0.0)
            rows = np.unique(np.concatenate((jt.body_a[on], jt.body_b[on])))
            self._held = np.ascontiguousarray(rows[self._world._bodies.type[rows] == DYNAMIC],
                                              dtype=np.int64)
            held = self._held.tolist()
        if self._held_list:
            old = dict(zip(self._held_list, self._held_timer.tolist()))
            self._held_timer = np.array([old.get(i, 0.0) for i in held], np.float64)
        else:  # (none held before: a new world's first Step) every timer starts at 0
            self._held_timer = np.zeros(len(held))
        self._held_list = held

    def _motor_sleep(self, dt):
        """Time the bodies of turning motors (:mod:`._b2sleep`, compiled) and put their island
        to sleep once every body of it has been slow for ``time_to_sleep``."""
        w = self._world
        awake, ready = _motor_timers.entry(self._stores_now(), self._held, self._held_timer,
                                           float(dt), float(w._settings.time_to_sleep))
        if awake and ready:
            self._sleep_held()

    def _stores_now(self):
        """The stores' reference of the step just taken (its body and contact stores the
        world's, unless the listener made or destroyed something since): one argument for the
        columns the compiled checks read.

        The contact store compared is Python's view as it stands, not synced: after a step
        that made a new contact store (a pair began or ended: 3 % of LunarLander's steps)
        that view is still the store the reference was built from, as ``stores_for_step``
        compares it, and the reference holds the new one. Reading ``World._contacts`` here
        boxed the new store on each such step (16 arrays: 60-75 us at load 10, 2.3 us an
        environment step, measured 2026-11-29) where only ``_dispatch``, on a change of the
        touching contacts, reads any of it."""
        w = self._world
        built = w._stores_built_from
        if (built is not None and built[0] is w._bodies
                and built[3] is w.__dict__["_contacts"]):
            return w._stores
        return stores_for_step(w)

    def _sleep_held(self):
        """Put to sleep the islands of held bodies whose every body has been slow for
        ``time_to_sleep`` (the held ones by their timers, the others by the engine's)."""
        w = self._world
        timer = self._held_timer
        b = w._bodies
        tts = w._settings.time_to_sleep
        held = {i: k for k, i in enumerate(self._held_list)}
        label = _sleep.labels(w)
        for island in {int(label[i]) for i in self._held_list if not b.asleep[i]}:
            members = np.flatnonzero(label == island).tolist()
            if all((timer[held[i]] if i in held else b.sleep_time[i]) >= tts for i in members):
                _sleep.sleep_island(w, members[0])
                for i in members:
                    if i in held:
                        timer[held[i]] = 0.0

    # -- queries -----------------------------------------------------------------------------
    def RayCast(self, callback, point1, point2):  # noqa: N802
        """Box2D's ray cast: ``callback.ReportFixture(fixture, point, normal, fraction)`` for the
        fixtures the segment point1-point2 enters (nearest first here; Box2D's order is the
        broadphase's), its return value ignoring (-1), stopping (0), clipping (fraction) or
        going on (1). Every fixture but sensors is seen, whatever its filter (Box2D 2.3's
        RayCast has no filter; it reports sensors too)."""
        # a b2Vec2 read by attribute (its __getitem__ is a Python call: BipedalWalker's lidar
        # starts its 10 rays a step at hull.position, and ends them at tuples of floats);
        # plain floats within the bound pass on as they are (what _finite returns for them),
        # anything else goes through it
        if type(point1) is b2Vec2:
            ox = point1.x
            oy = point1.y
        else:
            ox = point1[0]
            oy = point1[1]
        if not (type(ox) is float and type(oy) is float and -_LIMIT <= ox <= _LIMIT
                and -_LIMIT <= oy <= _LIMIT):
            ox, oy = _finite(ox, oy, "point1")
        if type(point2) is b2Vec2:
            ex = point2.x
            ey = point2.y
        else:
            ex = point2[0]
            ey = point2[1]
        if not (type(ex) is float and type(ey) is float and -_LIMIT <= ex <= _LIMIT
                and -_LIMIT <= ey <= _LIMIT):
            ex, ey = _finite(ex, ey, "point2")
        dx, dy = ex - ox, ey - oy
        if dx == 0.0 and dy == 0.0:
            return
        # queries._ray_hits inline (a call less for each of BipedalWalker's 10 rays a step)
        index = self._world._query_index
        if index is None:
            index = _index(self._world)
        hits = _every_rows.entry(index.address, ox, oy, dx, dy, _BITS, _BITS)
        if hits is None:
            raise ValueError("the ray's numbers must be finite")  # (or beyond the index's bound)
        rows, fractions, normals = hits
        limit = 1.0
        f = self._fixtures
        report = callback.ReportFixture
        new = _new
        for s, t, (nx, ny) in zip(rows, fractions, normals):
            if t > limit:
                break
            # the point and normal as b2Vec2, built inline (``vec``'s body: a call less each)
            point = new(b2Vec2)
            point.x = ox + t * dx
            point.y = oy + t * dy
            normal = new(b2Vec2)
            normal.x = nx
            normal.y = ny
            fixture = f.get(s)
            if fixture is None:   # a shape made on world.engine directly: not reported
                continue
            answer = float(report(fixture, point, normal, t))
            if answer != answer:
                raise ValueError("ReportFixture returned NaN")
            if answer < 0.0:
                continue
            if answer == 0.0:
                return
            if answer < limit:
                limit = answer

    def QueryAABB(self, callback, aabb):  # noqa: N802
        """``callback.ReportFixture(fixture)`` for each fixture whose box overlaps ``aabb``
        (return False to stop)."""
        shapes = self._world.query_aabb(tuple(aabb.lowerBound), tuple(aabb.upperBound),
                                        _query_all())
        f = self._fixtures
        for shape in shapes:
            fixture = f.get(shape._index)
            if fixture is not None and not callback.ReportFixture(fixture):
                return


def _query_all():
    from ..queries import QueryFilter
    return QueryFilter(ALL_BITS, ALL_BITS)


class b2BodyDef:  # noqa: N801
    """Box2D 2.3's body definition (``type`` 0 static, 1 kinematic, 2 dynamic)."""

    def __init__(self, **kwargs):
        self.type = STATIC
        self.position = (0.0, 0.0)
        self.angle = 0.0
        self.linearVelocity = (0.0, 0.0)
        self.angularVelocity = 0.0
        self.linearDamping = 0.0
        self.angularDamping = 0.0
        self.allowSleep = True
        self.awake = True
        self.fixedRotation = False
        self.bullet = False
        self.active = True
        self.gravityScale = 1.0
        self.userData = None
        # pybox2d's own fields: fixtures made with the body (b2FixtureDef or a list), shapes
        # (with shapeFixture, the b2FixtureDef they take their material from)
        self.fixtures = None
        self.shapes = None
        self.shapeFixture = None
        for name, value in kwargs.items():
            if not hasattr(self, name):
                raise TypeError(f"b2BodyDef has no field {name!r}")
            setattr(self, name, value)

    def ClearUserData(self):  # noqa: N802
        self.userData = None

    def to_kwargs(self) -> dict:
        """The fields as keywords: ``b2BodyDef(**d.to_kwargs())`` is an equal definition."""
        return dict(vars(self))


b2_staticBody, b2_kinematicBody, b2_dynamicBody = 0, 1, 2  # Box2D's b2BodyType values
