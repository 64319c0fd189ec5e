"""The ``World``: owns every body, shape and contact, and steps them.

All state lives in structure-of-arrays stores (``_core.state``); ``Body`` and ``Shape`` are
handles into them. Creation and destruction happen in Python between steps and validate
everything first, so a bad argument leaves the world exactly as it was.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from . import (_first_shape, _lock, _sleep, _validate, contacts as _contacts, queries,
               snapshot as _snapshot, solver_stats)
from .callbacks import Callbacks, check_callback
from .contacts import ContactData, ContactInfo, ContactPoint
from .events import EventTracker
from ._collision import geometry
from ._collision import shape_types
from ._core.state import (BODY_LAYOUT, DISTANCE, DYNAMIC, GEAR, JOINT_LAYOUT, MOTOR, MOUSE,
                          PRISMATIC, PULLEY, REVOLUTE, SHAPE_LAYOUT, STATIC, WELD, WHEEL, Bodies,
                          Joints, Shapes)
from ._core.storage import IdPool, grow_store
from ._dynamics.contact_solver import CONSTRAINT_LAYOUT, ContactConstraints
from ._dynamics.contacts import CONTACT_LAYOUT, Contacts
from ._dynamics.lengths import length_tolerances
from ._dynamics.step import (FELL_ASLEEP, GRAVITY, JOINT_INV_H, PAIRS_DIRTY, SLEEPERS, STAGES,
                             STEP_ROW)
from ._dynamics.verbs import DIRECT_COUNT_NAMES, DIRECT_COUNTS, new_table
from ._dynamics.world_ref import sync_contacts
from ._empty_stores import empty_store
from ._joint_index import joint_index
from ._stepping import NOT_READY, step_world_repeat, world_step
from ._stores_epoch import bump as _stores_replaced
from .body import Body, check_angular_velocity, check_linear_velocity, parse_body_type
from .constants import HUGE, LINEAR_SLOP, SLEEP_THRESHOLD
from .joints import (DistanceJoint, GearJoint, Joint, MotorJoint, MouseJoint, PrismaticJoint,
                     PulleyJoint, RevoluteJoint, WeldJoint, WheelJoint, check_angle_limit,
                     check_angular_speed, check_correction_factor, check_damping_ratio,
                     check_hertz, check_length, check_length_range, check_limits,
                     check_linear_speed, check_max_force, check_max_torque, check_mouse_hertz,
                     check_translation_limit)
from .settings import WorldSettings
from .shapes import Shape, parse_material
from .types import Vec2

_SHAPE_CODES = {
    "circle": shape_types.CIRCLE,
    "capsule": shape_types.CAPSULE,
    "segment": shape_types.SEGMENT,
    "polygon": shape_types.POLYGON,
    "chain_segment": shape_types.CHAIN_SEGMENT,
}


@dataclass
class Profile:
    """Wall time of the stages of the last step, in seconds."""

    step: float = 0.0
    pairs: float = 0.0     # bounding boxes, broadphase and contact bookkeeping
    collide: float = 0.0   # narrowphase manifolds
    prepare: float = 0.0   # colouring and constraint preparation
    solve: float = 0.0     # the solver's (sub)steps and storing impulses
    finalize: float = 0.0  # write back positions, clear forces, the fast test, sleeping
    continuous: float = 0.0  # sweeps of fast bodies (continuous collision)

    def as_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class World:
    """A physics world. ``World(gravity=(0, -10), **settings)``; see :class:`WorldSettings`."""

    def __init__(self, gravity=(0.0, -10.0), **settings: Any) -> None:
        # the step's lock and the after-step queue (_lock.py); the settings refuse changes
        # while it holds
        self._lock = _lock.StepLock()
        self._settings = WorldSettings._with_changes(**settings)
        _lock.bind(self._settings, self._lock)
        # the step row: the settings as the step reads them, written by the step when they
        # change, then what it reads and writes besides (gravity, flags, counts: _renew
        # writes them, so it comes first; _dynamics.step.STEP_ROW)
        self._step_settings = np.zeros(STEP_ROW)
        self._renew(_check_gravity(gravity), empty_store(Bodies, BODY_LAYOUT, 16),
                    empty_store(Shapes, SHAPE_LAYOUT, 16), empty_store(Joints, JOINT_LAYOUT, 4))
        # What the settings decide and the step's reference of the stores: a recycled world
        # of the same settings keeps these (_recycle.take), a new world makes them here.
        self._clock = np.zeros(len(STAGES) + 1, dtype=np.int64)  # cycle counts of the step's stages
        self._stores = None  # the stores as the step kernel takes them (_dynamics.world_ref)
        self._awake_state = None  # the state of the reference's awake sets (_dynamics.awake)
        self._stores_built_from: tuple | None = None
        self._verbs = new_table()  # addresses of the kernels the step calls (_dynamics.verbs)
        self._verbs_for: tuple = (None, None)  # the packed settings and joint rows it was set for
        self._diagnostics = np.zeros(0)  # the solver's record of a step (solver_stats.py)
        # the length tolerances in the settings' unit, which the step reads (_dynamics.lengths)
        self._lengths = length_tolerances(self._settings.length_units_per_meter)

    def _renew(self, gravity: tuple[float, float], bodies: Bodies, shapes: Shapes,
               joints: Joints) -> None:
        """Everything of a new world but what its settings decide and its step reference (set
        by ``__init__`` after this): no body, shape, joint, contact, event or callback, time 0,
        a new snapshot identity, ``gravity`` (checked) and the given zeroed stores. A recycled
        world of the same settings is made new by this alone (:func:`._recycle.take`)."""
        self._gravity = gravity
        self._step_settings[GRAVITY:GRAVITY + 2] = gravity  # (what the step reads)
        self._bodies = bodies
        self._shapes = shapes
        self._body_pool = IdPool()
        self._shape_pool = IdPool()
        self._body_handles: dict[int, Body] = {}
        self._shape_handles: dict[int, Shape] = {}
        self._body_shapes: dict[int, list[int]] = {}
        self._body_user_data: dict[int, Any] = {}
        self._shape_user_data: dict[int, Any] = {}
        self._joints = joints
        self._joint_pool = IdPool()
        self._joint_handles: dict[int, Joint] = {}
        self._body_joints: dict[int, list[int]] = {}
        self._joint_index: dict[str, np.ndarray] | None = None  # rows per type, no-collide pairs
        self._joint_inv_h = 0.0  # 1 / the (sub)step the joint impulses were accumulated over
        self._laws: list = []  # the custom joints' law kernels, by slot (custom_joints.py)
        # a batch step (impulse2d.batch) made a new contact store, which the reference holds
        # and Python's view not yet (the _contacts property syncs it on first read)
        self._contacts_stale = False
        self._contacts = empty_store(Contacts, CONTACT_LAYOUT, 0)
        self._constraints: ContactConstraints = empty_store(ContactConstraints,
                                                            CONSTRAINT_LAYOUT, 0)
        self._pairs_dirty = True
        self._sleepers = 0  # bodies asleep after the last step (or possibly asleep since: _sleep)
        self._fell_asleep = 0  # bodies that fell asleep in the last step
        self._events = EventTracker()  # contact, sensor and body events (events.py)
        self._callbacks = Callbacks()  # pair filter and pre-solve hook (callbacks.py)
        self._step_ready = NOT_READY  # what the usual step's checks read (step_world)
        # a step made a new constraint store, which the reference holds and _constraints is
        # not yet (_dynamics.world_ref.sync_constraints)
        self._constraints_stale = False
        self._live_rows: np.ndarray | None = None
        # The queries' grid of the shapes where they are now (queries.py); dropped by anything
        # that moves, adds or removes a shape (a step, a set position or angle, a shape) or
        # replaces a store it reads (a store that grows).
        self._query_index = None
        # The last index built, whose static layer a query after a step or a move refreshes
        # instead of building it again; dropped with the index by a shape added or removed
        # or a store replaced.
        self._query_spare = None
        self._step_seconds = 0.0  # wall time of the last step
        self._stats_solver: str | None = None  # the solver that made it
        self.time = 0.0
        self.step_count = 0
        self._uid = _snapshot.new_uid()  # its snapshots restore into this world only

    @property
    def profile(self) -> Profile:
        """Wall time of the last step and of each of its stages, in seconds.

        The step runs as one compiled call, which reads the CPU's cycle counter between its
        stages (x86 only: elsewhere the stages read 0); each stage gets its share of the step's
        time. The usual step's time is the counter's span from its first stage to its end (the
        rate measured once per process, about 5 ms, when a profile first needs it); a step
        Python times (the first, one with callbacks or events, a batch's) is its compiled
        call(s), timed as a whole.
        """
        from ._profile_clock import step_seconds

        clock = self._clock
        ticks = int(clock[-1] - clock[0])
        total = step_seconds(self._step_seconds, ticks)
        shares = {stage: total * int(clock[k + 1] - clock[k]) / ticks if ticks > 0 else 0.0
                  for k, stage in enumerate(STAGES)}
        return Profile(step=total, **shares)

    @property
    def direct_stats(self) -> dict[str, int]:
        """The ``direct`` solver's counts: ``lemke_failures`` (islands whose LCP Lemke's
        algorithm did not solve, solved by projected Gauss-Seidel instead) and
        ``fallback_steps`` (steps handed to ``direct_fallback``), both since the world was
        made; ``largest_island_rows``, ``islands``, ``lcp_pivots`` and ``regularised_pivots``
        (singular joint rows, see :mod:`impulse2d._dynamics.direct`) of the last step."""
        counts = self._verbs[DIRECT_COUNTS:DIRECT_COUNTS + len(DIRECT_COUNT_NAMES)]
        return {name: int(x) for name, x in zip(DIRECT_COUNT_NAMES, counts)}

    @property
    def solver_stats(self) -> solver_stats.SolverStats | None:
        """What the solver did in the last step (:class:`~impulse2d.solver_stats.SolverStats`:
        residual per iteration, complementarity and friction-cone errors, penetration, joint
        errors, kinetic energy), or None unless ``WorldSettings.diagnostics`` was on for it."""
        return solver_stats.read(self)

    @property
    def _contacts(self) -> Contacts:
        """The contact store (pairs, manifolds, impulses). A data descriptor over the
        instance's own ``_contacts`` entry (snapshots see that entry as any other attribute):
        after a step (or a batch step) made a new store in the step's reference, the first
        read takes it from there (:func:`._dynamics.world_ref.sync_contacts`); boxing a store
        costs about 40 us, so no step does it for a world that Python does not look at."""
        d = self.__dict__
        if d["_contacts_stale"]:
            sync_contacts(self)
        return d["_contacts"]

    @_contacts.setter
    def _contacts(self, store: Contacts) -> None:
        d = self.__dict__
        d["_contacts"] = store
        d["_contacts_stale"] = False
        _stores_replaced()  # (a batch checks its worlds' step references again)

    # -- settings ---------------------------------------------------------------------------
    @property
    def settings(self) -> WorldSettings:
        """The world's :class:`WorldSettings`; change fields between steps."""
        return self._settings

    @settings.setter
    def settings(self, value: WorldSettings) -> None:
        _lock.check(self, "World.settings = ...")
        if not isinstance(value, WorldSettings):
            raise TypeError(f"settings must be a WorldSettings, got {type(value).__name__}")
        self._settings = value.replace()
        _lock.bind(self._settings, self._lock)

    @property
    def gravity(self) -> Vec2:
        """Acceleration of gravity, m/s^2 (settable, each component within +-1e6 m/s^2)."""
        return Vec2(*self._gravity)

    @gravity.setter
    def gravity(self, value) -> None:
        _lock.check(self, "World.gravity = ...")
        self._gravity = gravity = _check_gravity(value)
        self._step_settings[GRAVITY:GRAVITY + 2] = gravity  # (what the step reads)

    # -- stepping -----------------------------------------------------------------------------
    # What the step kernel reads and writes besides the stores is in the world's step row
    # (_dynamics.step.STEP_ROW, shared with the stores' reference), so that its call passes
    # three arguments and returns one integer; these read and write it there for Python.
    @property
    def _pairs_dirty(self) -> bool:
        """Whether the step must look at every shape (one made, destroyed or moved by hand)."""
        return self._step_settings.item(PAIRS_DIRTY) != 0.0

    @_pairs_dirty.setter
    def _pairs_dirty(self, value: bool) -> None:
        self._step_settings[PAIRS_DIRTY] = value

    @property
    def _sleepers(self) -> int:
        """Bodies asleep after the last step (or possibly asleep since: _sleep)."""
        return int(self._step_settings.item(SLEEPERS))

    @_sleepers.setter
    def _sleepers(self, value: int) -> None:
        self._step_settings[SLEEPERS] = value

    @property
    def _fell_asleep(self) -> int:
        """Bodies that fell asleep in the last step."""
        return int(self._step_settings.item(FELL_ASLEEP))

    @_fell_asleep.setter
    def _fell_asleep(self, value: int) -> None:
        self._step_settings[FELL_ASLEEP] = value

    @property
    def _joint_inv_h(self) -> float:
        """1 / the (sub)step the joint impulses were accumulated over (0: none yet)."""
        return self._step_settings.item(JOINT_INV_H)

    @_joint_inv_h.setter
    def _joint_inv_h(self, value: float) -> None:
        self._step_settings[JOINT_INV_H] = value

    # Advance the simulation by ``dt`` seconds: see :func:`._stepping.world_step` (bound here
    # as it is, so that the usual step pays one Python frame).
    step = world_step

    def after_step(self, fn) -> None:
        """Run ``fn()`` once, right after the step that is running returns (called from a
        step callback such as ``pre_solve``), or else after the next step. The way to change
        the world from a callback, where every change raises :class:`~impulse2d._lock.
        WorldLockedError` (the step's arrays are half-way there): e.g. in ``pre_solve``,
        ``world.after_step(lambda: world.destroy_body(coin))``. Functions run in the order
        given, with the world consistent and unlocked; if one raises, the rest still run and
        the first exception propagates from ``step``. A step that raises (a callback's
        exception) runs none: they wait for the next step that returns."""
        _lock.check_callable(fn)
        self._lock.after.append(fn)
        self._step_ready = NOT_READY  # (the usual step does not look at the queue)

    def _step_repeat(self, dt: float, n: int, touching, forces, torques, starts, first: bool,
                     whole_dt: float = 0.0, far_distance: float = 0.0) -> tuple:
        """Up to ``n`` calls of ``step(dt)`` (bit for bit the same), in one call into the engine
        while nothing needs Python, for :mod:`impulse2d.compat`, whose ``Step`` runs several
        engine steps and calls its contact listener between them. Stops after the first step
        whose touching contacts' keys (``shape_a << 32 | shape_b``, int64, ascending) are no
        longer ``touching``. ``forces``/``torques``/``starts``: buffers of one row per body row
        (float64, C order: (rows, 2), (rows,), (rows, 2)); on the ``first`` call of the
        caller's step they receive the bodies' forces, torques and origins, and the forces are
        put back from them before every step but that first one (each step clears them).
        When the call takes all ``n`` steps and ``whole_dt > 0``, it counts the dynamic bodies
        that moved more than ``far_distance`` beyond ``v whole_dt`` since ``starts``.

        Returns ``(taken, changed, far)``: the steps taken (at least 1), whether the touching
        keys now differ from ``touching``, that count. A world with events, callbacks or
        diagnostics on, or the direct solver, takes one ``step(dt)`` (same buffers, same
        test)."""
        lock = self._lock
        if lock.stepping:
            raise _lock.locked("World.step")
        events = self._events
        s = self._settings
        if events.on or s._derived is None:
            events.on = events.wanted(s)
        callbacks = self._callbacks
        if not (events.on or callbacks.pair_filter is not None or callbacks.pre_solve is not None
                or s.diagnostics or self._diagnostics.shape[0] or s.solver == "direct"
                or lock.after
                or type(dt) is not float or not _validate.MIN_DT <= dt <= _validate.MAX_DT):
            taken, changed, far = step_world_repeat(self, dt, n, touching, forces, torques,
                                                    starts, first, whole_dt, far_distance)
            # profile: the call's wall time per step (the stage shares are its last step's)
            self._step_seconds /= max(taken, 1)
            self._query_index = None
            for _ in range(taken):  # as that many step() calls add it (the same rounding)
                self.time += dt
            self.step_count += taken
            return taken, changed, far
        b = self._bodies
        rows = b.force.shape[0]
        kept = forces.shape[0] == rows and torques.shape[0] == rows
        if first:
            if kept:
                forces[:] = b.force
                torques[:] = b.torque
            if starts.shape[0] == rows:
                starts[:] = b.origin
        elif kept:
            b.force[:] = forces
            b.torque[:] = torques
        self.step(dt)
        b = self._bodies
        c = self._contacts
        changed = not np.array_equal(c.key[c.count > 0], touching)
        far = 0
        if n == 1 and whole_dt > 0.0 and starts.shape[0] <= b.origin.shape[0]:
            m = starts.shape[0]
            e = b.origin[:m] - starts - b.v[:m] * whole_dt
            far = int(np.count_nonzero(((e[:, 0] * e[:, 0] + e[:, 1] * e[:, 1])
                                        > far_distance * far_distance)
                                       & b.alive[:m] & (b.type[:m] == DYNAMIC)))
        return 1, changed, far

    # -- snapshots, copies, pickles (snapshot.py) ---------------------------------------------
    def snapshot(self) -> _snapshot.Snapshot:
        """The whole state of the world now (bodies, shapes, joints, contacts with their
        warm-start impulses, islands, sleep timers, events, settings, handles, user data), as a
        :class:`~impulse2d.snapshot.Snapshot`; :meth:`restore` puts it back, ``pickle.dumps``
        makes it bytes. The world then steps to the same bits as after the snapshot: see the
        README's "Determinism". User data is held by reference (pickling copies it)."""
        return _snapshot.take(self)

    def restore(self, snapshot: _snapshot.Snapshot) -> None:
        """Put the world back in the state of ``snapshot`` (taken of this world). Handles of
        objects that exist in the snapshot are valid again (``world.bodies`` and friends give
        the very handle objects of then, or equal ones for a snapshot loaded from bytes);
        those of objects made since are not. Another world's snapshot, or anything else, raises
        ``ValueError``/``TypeError`` and changes nothing."""
        _lock.check(self, "World.restore")
        _snapshot.restore(self, snapshot)

    def state_hash(self, motion_only: bool = False) -> str:
        """A hex digest of the physical state (every column of the live bodies, shapes and
        joints, the contacts and their impulses; ``motion_only``: the bodies' positions,
        angles and velocities): equal hashes, equal bits. For checking that two runs
        (processes, machines, a restored world) agree: see the README's "Determinism"."""
        return _snapshot.state_hash(self, motion_only)

    def __getstate__(self):
        return _snapshot.take(self)  # pickled as a snapshot (its handles by row)

    def __setstate__(self, state) -> None:
        _snapshot.adopt(self, state)  # a new world, with its own handles and identity

    def __deepcopy__(self, memo):
        return _snapshot.deep_copy(self, memo)

    def _repr_png_(self) -> bytes | None:
        """The world's picture in a notebook (:func:`impulse2d.draw.image`, 640 x 480)."""
        from .draw.pillow import png_bytes

        return png_bytes(self)

    # -- bodies ---------------------------------------------------------------------------------
    def create_body(self, type="dynamic", position=(0.0, 0.0), angle=0.0,
                    linear_velocity=(0.0, 0.0), angular_velocity=0.0, linear_damping=0.0,
                    angular_damping=0.0, gravity_scale=1.0, fixed_rotation=False,
                    bullet=False, allow_sleep=True, user_data=None) -> Body:
        """Create a body. Give it shapes with ``body.create_box(...)`` etc.

        Bounds (the body's setters check the same): ``position`` within +-1e5 m, ``angle``
        +-1e9 rad, ``linear_velocity`` +-1e30 m/s per component, ``angular_velocity`` +-1e30
        rad/s (the step clamps both to its speed limits), ``gravity_scale`` +-1e6; the
        dampings (1/s) any finite value >= 0.
        ``allow_sleep=False`` keeps the body, and every body of its island, awake.
        ``bullet=True``: continuous collision sweeps the body against dynamic bodies too, not
        only static and kinematic ones (``WorldSettings.enable_continuous``).
        """
        _lock.check(self, "World.create_body")
        kind = parse_body_type(type)
        x, y = _validate.vec2(position, "position")
        angle = _validate.angle(angle, "angle")
        v = check_linear_velocity(linear_velocity)
        w = check_angular_velocity(angular_velocity)
        if kind == STATIC and (v != (0.0, 0.0) or w != 0.0):
            raise ValueError("a static body cannot be given a velocity; make it kinematic")
        lin = _validate.non_negative(linear_damping, "linear_damping")
        ang = _validate.non_negative(angular_damping, "angular_damping")
        g = _validate.signed_factor(gravity_scale, "gravity_scale")
        fixed = _validate.flag(fixed_rotation, "fixed_rotation")
        sleepy = _validate.flag(allow_sleep, "allow_sleep")
        is_bullet = _validate.flag(bullet, "bullet")

        i = self._body_pool.allocate()
        if i >= len(self._bodies.alive):
            self._bodies = grow_store(self._bodies, BODY_LAYOUT, 2 * len(self._bodies.alive))
            _stores_replaced()  # (a batch checks its worlds' step references again)
            self._query_index = self._query_spare = None  # it reads the store it was built on
        b = self._bodies
        # Element by element: a row written from a tuple or a broadcast scalar costs about a
        # microsecond, two element writes half that (creation is most of a Gymnasium reset).
        # The mass, centre and velocity that _update_mass gives a body without shapes (Box2D's
        # 1 kg for a dynamic one, 0 for the others), written once, from its operations:
        # _sync_center's origin + R (0, 0) (not always the origin: -0.0 + 0.0 is 0.0), and the
        # dynamic body's velocity kept at the old centre, the origin (v += w x (c - origin)).
        c, s = math.cos(angle), math.sin(angle)
        cx = x + c * 0.0 - s * 0.0
        cy = y + s * 0.0 + c * 0.0
        vx, vy = v
        if kind == DYNAMIC:
            vx = vx - w * (cy - y)
            vy = vy + w * (cx - x)
            mass = 1.0
        else:
            mass = 0.0
        b.alive[i] = True
        b.type[i] = kind
        b.origin[i, 0] = x
        b.origin[i, 1] = y
        b.center[i, 0] = cx
        b.center[i, 1] = cy
        b.local_center[i, 0] = 0.0
        b.local_center[i, 1] = 0.0
        b.angle[i] = angle
        b.rot[i, 0] = c
        b.rot[i, 1] = s
        b.v[i, 0] = vx
        b.v[i, 1] = vy
        b.w[i] = w
        b.mass[i] = mass
        b.inv_mass[i] = mass  # (1 / 1 kg, or 0)
        b.inertia[i] = 0.0
        b.inv_inertia[i] = 0.0
        b.force[i, 0] = 0.0
        b.force[i, 1] = 0.0
        b.torque[i] = 0.0
        b.linear_damping[i] = lin
        b.angular_damping[i] = ang
        b.gravity_scale[i] = g
        b.fixed_rotation[i] = fixed
        b.dp[i, 0] = 0.0
        b.dp[i, 1] = 0.0
        b.dq[i, 0] = 1.0
        b.dq[i, 1] = 0.0
        b.asleep[i] = False
        b.allow_sleep[i] = sleepy
        b.sleep_threshold[i] = SLEEP_THRESHOLD * self._settings.length_units_per_meter
        b.sleep_time[i] = 0.0
        b.island[i] = -1
        b.island_sleep[i] = 0.0  # scratch, but a re-used row must read as a fresh one
        b.extent[i] = 0.0
        b.step_motion[i] = 0.0
        b.min_extent[i] = HUGE
        b.bullet[i] = is_bullet
        b.fast[i] = False
        b.sweep[i] = 0.0
        handle = Body(self, i, int(b.generation[i]))
        self._body_handles[i] = handle
        self._body_shapes[i] = []
        self._body_joints[i] = []
        if user_data is not None:
            self._body_user_data[i] = user_data
        self._query_index = None  # (_sync_center's: the queries' grid has the old centres)
        self._live_rows = None
        _sleep.awake_changed(self)  # a new body to integrate (or a static one's box to make)
        return handle

    def destroy_body(self, body: Body) -> None:
        """Destroy ``body`` with its shapes and contacts. Its handles become invalid."""
        _lock.check(self, "World.destroy_body")
        i = self._body_row(body, "body")
        _sleep.wake_touching(self, i)  # its island, and the islands resting on it, move on
        while self._body_joints[i]:  # not a for loop: freeing a joint may free its gears too
            self._free_joint(self._body_joints[i][0])
        del self._body_joints[i]
        for s in list(self._body_shapes[i]):
            self._free_shape(s)
        del self._body_shapes[i]
        del self._body_handles[i]
        self._body_user_data.pop(i, None)
        self._bodies.alive[i] = False
        self._bodies.generation[i] += 1
        self._body_pool.free(i)
        self._live_rows = None
        self._drop_dead_contacts()

    def destroy_shape(self, shape: Shape) -> None:
        """Detach and destroy ``shape``; its body's mass is recomputed."""
        _lock.check(self, "World.destroy_shape")
        if not isinstance(shape, Shape) or shape._world is not self:
            raise TypeError("shape must be a Shape of this world")
        s = shape._row()
        if self._shapes.type[s] == shape_types.CHAIN_SEGMENT:
            raise ValueError("a chain segment is destroyed with its chain: "
                             "world.destroy_chain(chain)")
        body = int(self._shapes.body[s])
        _sleep.wake_touching(self, body)
        self._free_shape(s)
        self._update_mass(body)
        self._drop_dead_contacts()

    def destroy_chain(self, chain) -> None:
        """Destroy a chain (``Body.create_chain``) and all its segments."""
        from .chains import Chain
        _lock.check(self, "World.destroy_chain")
        if not isinstance(chain, Chain) or chain._world is not self:
            raise TypeError("chain must be a Chain of this world")
        chain._check()
        rows = [shape._row() for shape in chain._segments]
        body = int(self._shapes.body[rows[0]])
        _sleep.wake_touching(self, body)
        for s in rows:
            self._free_shape(s)
        self._update_mass(body)
        self._drop_dead_contacts()

    @property
    def bodies(self) -> list[Body]:
        """Live bodies, in row order (the order of :meth:`get_positions` and friends)."""
        return [self._body_handles[int(i)] for i in self._rows()]

    @property
    def shapes(self) -> list[Shape]:
        """Live shapes, in row order."""
        return [self._shape_handles[i] for i in sorted(self._shape_handles)]

    @property
    def islands(self) -> list[list[Body]]:
        """The current islands: each a list of the Body handles of dynamic bodies joined by
        touching contacts and joints (static and kinematic bodies join none and are in none; a
        lone dynamic body is an island of one), bodies in row order, islands by their first
        row. Sleeping islands are listed too. Computed on each call (a pass over the bodies,
        contacts and joints), so it costs a step nothing."""
        return _sleep.islands(self)

    @property
    def body_count(self) -> int:
        return self._body_pool.live_count

    # -- joints ---------------------------------------------------------------------------------
    def create_revolute_joint(self, body_a: Body, body_b: Body, anchor, enable_limit=False,
                              lower_angle=0.0, upper_angle=0.0, enable_motor=False,
                              motor_speed=0.0, max_motor_torque=0.0, enable_spring=False,
                              hertz=0.0, damping_ratio=0.0, collide_connected=False) -> RevoluteJoint:
        """Pin ``body_a`` and ``body_b`` together at the world point ``anchor`` (a hinge).

        Limits are on ``angle_b - angle_a`` relative to its value now (rad); the motor drives that
        angle's rate to ``motor_speed`` (rad/s) with at most ``max_motor_torque`` (N m); the
        spring pulls it back to 0 with ``hertz`` and ``damping_ratio``.
        """
        a, b = self._joint_bodies(body_a, body_b)
        anchor = _validate.vec2(anchor, "anchor")
        lower, upper = check_limits(lower_angle, upper_angle, check_angle_limit,
                                    ("lower_angle", "upper_angle"))
        options = {
            "enable_limit": _validate.flag(enable_limit, "enable_limit"),
            "lower": lower,
            "upper": upper,
            "enable_motor": _validate.flag(enable_motor, "enable_motor"),
            "motor_speed": check_angular_speed(motor_speed, "motor_speed"),
            "max_motor": check_max_torque(max_motor_torque, "max_motor_torque"),
            "enable_spring": _validate.flag(enable_spring, "enable_spring"),
            "hertz": check_hertz(hertz, "hertz"),
            "damping_ratio": check_damping_ratio(damping_ratio, "damping_ratio"),
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        return self._add_joint(RevoluteJoint, REVOLUTE, a, b, anchor, anchor, options)

    def create_distance_joint(self, body_a: Body, body_b: Body, anchor_a, anchor_b, length=None,
                              min_length=None, max_length=None, enable_spring=False, hertz=0.0,
                              damping_ratio=0.0, enable_motor=False, motor_speed=0.0,
                              max_motor_force=0.0, collide_connected=False) -> DistanceJoint:
        """Keep the world points ``anchor_a`` (on A) and ``anchor_b`` (on B) at a distance.

        Rigid at ``length`` (default: their distance now) unless ``enable_spring``. With
        ``enable_spring`` the distance is held within ``[min_length, max_length]`` (defaults: 0
        and, for ``hertz == 0``, ``length``, else unbounded), and with ``hertz > 0`` a spring of
        ``hertz`` and ``damping_ratio`` pulls it toward ``length``; with ``hertz == 0`` it is a
        rope, slack inside the range. The motor (only with ``enable_spring``) drives the rate
        of change of the distance to ``motor_speed`` (m/s) with at most ``max_motor_force`` (N).
        """
        a, b = self._joint_bodies(body_a, body_b)
        anchor_a = _validate.vec2(anchor_a, "anchor_a")
        anchor_b = _validate.vec2(anchor_b, "anchor_b")
        enable_spring = _validate.flag(enable_spring, "enable_spring")
        hertz = check_hertz(hertz, "hertz")
        if length is None:
            # At most 2.9e5 m between anchors within +-HUGE: always within check_length's bound.
            length = math.hypot(anchor_b[0] - anchor_a[0], anchor_b[1] - anchor_a[1])
            if length <= 0.0:
                raise ValueError("anchor_a and anchor_b coincide: pass a positive length")
        else:
            length = check_length(length, "length")
        # The defaults go through the same check as given values (and as the length_range
        # setter), so that what creation stores is always something the setter would accept.
        min_length = 0.0 if min_length is None else _validate.non_negative(
            min_length, "min_length", _validate.MAX_LENGTH, "m")
        if max_length is None:
            max_length = max(length if hertz == 0.0 else HUGE, min_length)
        min_length, max_length = check_length_range(min_length, max_length)
        options = {
            "length": length,
            "min_length": min_length,
            "max_length": max_length,
            "enable_spring": enable_spring,
            "hertz": hertz,
            "damping_ratio": check_damping_ratio(damping_ratio, "damping_ratio"),
            "enable_motor": _validate.flag(enable_motor, "enable_motor"),
            "motor_speed": check_linear_speed(motor_speed, "motor_speed"),
            "max_motor": check_max_force(max_motor_force, "max_motor_force"),
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        return self._add_joint(DistanceJoint, DISTANCE, a, b, anchor_a, anchor_b, options)

    def create_prismatic_joint(self, body_a: Body, body_b: Body, anchor, axis, enable_limit=False,
                               lower=0.0, upper=0.0, enable_motor=False, motor_speed=0.0,
                               max_motor_force=0.0, enable_spring=False, hertz=0.0,
                               damping_ratio=0.0, collide_connected=False) -> PrismaticJoint:
        """Let ``body_b`` slide along ``axis`` (a world direction now, fixed in ``body_a``) through
        the world point ``anchor``, without rotating relative to ``body_a``.

        The translation is measured along the axis from the creation pose (m). Limits keep it
        in ``[lower, upper]``; the motor drives its rate to ``motor_speed`` (m/s) with at most
        ``max_motor_force`` (N); the spring pulls it back to 0 with ``hertz`` and
        ``damping_ratio``.
        """
        a, b = self._joint_bodies(body_a, body_b)
        anchor = _validate.vec2(anchor, "anchor")
        local_axis = self._local_axis(a, axis)
        lower, upper = check_limits(lower, upper, check_translation_limit)
        options = {
            "local_axis_a": local_axis,
            "enable_limit": _validate.flag(enable_limit, "enable_limit"),
            "lower": lower,
            "upper": upper,
            "enable_motor": _validate.flag(enable_motor, "enable_motor"),
            "motor_speed": check_linear_speed(motor_speed, "motor_speed"),
            "max_motor": check_max_force(max_motor_force, "max_motor_force"),
            "enable_spring": _validate.flag(enable_spring, "enable_spring"),
            "hertz": check_hertz(hertz, "hertz"),
            "damping_ratio": check_damping_ratio(damping_ratio, "damping_ratio"),
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        return self._add_joint(PrismaticJoint, PRISMATIC, a, b, anchor, anchor, options)

    def create_weld_joint(self, body_a: Body, body_b: Body, anchor, linear_hertz=0.0,
                          angular_hertz=0.0, linear_damping_ratio=0.0, angular_damping_ratio=0.0,
                          collide_connected=False) -> WeldJoint:
        """Glue ``body_a`` and ``body_b`` together at the world point ``anchor``.

        Rigid by default; ``linear_hertz`` > 0 makes the point a spring and ``angular_hertz`` > 0
        the relative angle (each with its damping ratio), toward the creation pose.
        """
        a, b = self._joint_bodies(body_a, body_b)
        anchor = _validate.vec2(anchor, "anchor")
        options = {
            "hertz": check_hertz(linear_hertz, "linear_hertz"),
            "damping_ratio": check_damping_ratio(linear_damping_ratio, "linear_damping_ratio"),
            "angular_hertz": check_hertz(angular_hertz, "angular_hertz"),
            "angular_damping_ratio": check_damping_ratio(angular_damping_ratio,
                                                         "angular_damping_ratio"),
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        return self._add_joint(WeldJoint, WELD, a, b, anchor, anchor, options)

    def create_wheel_joint(self, body_a: Body, body_b: Body, anchor, axis, enable_spring=True,
                           hertz=1.0, damping_ratio=0.7, enable_motor=False, motor_speed=0.0,
                           max_motor_torque=0.0, enable_limit=False, lower=0.0, upper=0.0,
                           collide_connected=False) -> WheelJoint:
        """A wheel ``body_b`` on a suspension of ``body_a`` (the chassis): the world point
        ``anchor`` of B stays on the line through it along ``axis`` (fixed in A), B rotates
        freely.

        The suspension spring (``hertz``, ``damping_ratio``) pulls the translation along the
        axis back to 0 (the creation pose); limits keep it in ``[lower, upper]`` m; the motor
        drives ``w_b - w_a`` to ``motor_speed`` (rad/s) with at most ``max_motor_torque`` (N m).
        """
        a, b = self._joint_bodies(body_a, body_b)
        anchor = _validate.vec2(anchor, "anchor")
        local_axis = self._local_axis(a, axis)
        lower, upper = check_limits(lower, upper, check_translation_limit)
        options = {
            "local_axis_a": local_axis,
            "enable_spring": _validate.flag(enable_spring, "enable_spring"),
            "hertz": check_hertz(hertz, "hertz"),
            "damping_ratio": check_damping_ratio(damping_ratio, "damping_ratio"),
            "enable_motor": _validate.flag(enable_motor, "enable_motor"),
            "motor_speed": check_angular_speed(motor_speed, "motor_speed"),
            "max_motor": check_max_torque(max_motor_torque, "max_motor_torque"),
            "enable_limit": _validate.flag(enable_limit, "enable_limit"),
            "lower": lower,
            "upper": upper,
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        return self._add_joint(WheelJoint, WHEEL, a, b, anchor, anchor, options)

    def create_mouse_joint(self, body: Body, target, max_force, hertz=5.0,
                           damping_ratio=0.7) -> MouseJoint:
        """Drag ``body`` by its point now at ``target`` toward ``joint.target`` (settable) with a
        spring of ``hertz`` and ``damping_ratio`` pulling with at most ``max_force`` (N).

        A single-body joint: its ``body_a`` and ``body_b`` are both ``body``.
        """
        i = self._body_row(body, "body")
        if self._bodies.type[i] == STATIC:
            raise ValueError("a mouse joint cannot drag a static body")
        target = _validate.vec2(target, "target")
        options = {
            "target": target,
            "max_motor": check_max_force(max_force, "max_force"),
            "hertz": check_mouse_hertz(hertz, "hertz"),
            "damping_ratio": check_damping_ratio(damping_ratio, "damping_ratio"),
            "collide_connected": True,  # one body: there is no pair to filter
        }
        return self._add_joint(MouseJoint, MOUSE, i, i, target, target, options)

    def create_motor_joint(self, body_a: Body, body_b: Body, linear_offset=None,
                           angular_offset=None, max_force=1.0, max_torque=1.0,
                           correction_factor=0.3, collide_connected=False) -> MotorJoint:
        """Drive ``body_b`` toward a pose relative to ``body_a``: its origin at ``linear_offset``
        (in A's frame, m) and ``angle_b - angle_a == angular_offset`` (rad), both defaulting to
        the current ones, with at most ``max_force`` (N) and ``max_torque`` (N m).
        ``correction_factor`` in [0, 1] is the fraction of the pose error driven per (sub)step.
        """
        a, b = self._joint_bodies(body_a, body_b)
        handle_a, handle_b = self._body_handles[a], self._body_handles[b]
        if linear_offset is None:
            linear_offset = tuple(handle_a.local_point(handle_b.position))
        else:
            linear_offset = _validate.vec2(linear_offset, "linear_offset")
        if angular_offset is None:
            angular_offset = float(self._bodies.angle[b] - self._bodies.angle[a])
        else:
            angular_offset = _validate.angle(angular_offset, "angular_offset")
        factor = check_correction_factor(correction_factor)
        options = {
            "reference_angle": angular_offset,
            "max_motor": check_max_force(max_force, "max_force"),
            "max_torque": check_max_torque(max_torque, "max_torque"),
            "correction_factor": factor,
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        anchor_a = handle_a.world_point(linear_offset)
        return self._add_joint(MotorJoint, MOTOR, a, b, anchor_a, tuple(handle_b.position),
                               options)

    def create_pulley_joint(self, body_a: Body, body_b: Body, ground_a, ground_b, anchor_a,
                            anchor_b, ratio=1.0, collide_connected=False) -> PulleyJoint:
        """A rope from the world point ``anchor_a`` on ``body_a`` up to the fixed world point
        ``ground_a``, across to ``ground_b`` and down to ``anchor_b`` on ``body_b``.

        The rope's length is taken now: ``length_a + ratio * length_b`` never exceeds it. With
        ``ratio`` > 1 the rope on B's side is reeved that many times (a block and tackle: B moves
        1/ratio as far as A and is lifted with ratio times the force). The rope can go slack
        but never pushes.
        """
        a, b = self._joint_bodies(body_a, body_b)
        ground_a = _validate.vec2(ground_a, "ground_a")
        ground_b = _validate.vec2(ground_b, "ground_b")
        anchor_a = _validate.vec2(anchor_a, "anchor_a")
        anchor_b = _validate.vec2(anchor_b, "anchor_b")
        # K = ... + ratio^2 (...): bounded so that it stays finite (MAX_FACTOR, 1e6).
        ratio = _validate.positive(ratio, "ratio", _validate.MAX_FACTOR)
        length_a = math.dist(anchor_a, ground_a)
        length_b = math.dist(anchor_b, ground_b)
        if length_a < LINEAR_SLOP or length_b < LINEAR_SLOP:
            raise ValueError("a pulley anchor must not sit on its ground point "
                             f"(rope lengths {length_a:.3g} m and {length_b:.3g} m)")
        options = {
            "ground_a": ground_a,
            "ground_b": ground_b,
            "ratio": ratio,
            "constant": length_a + ratio * length_b,
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        return self._add_joint(PulleyJoint, PULLEY, a, b, anchor_a, anchor_b, options)

    def create_gear_joint(self, joint_a: Joint, joint_b: Joint, ratio=1.0,
                          collide_connected=False) -> GearJoint:
        """Couple two revolute or prismatic joints so that ``coord_a + ratio * coord_b`` keeps
        its present value (a coordinate is a revolute joint's angle, rad, or a prismatic joint's
        translation, m).

        The gear joint's bodies are the two joints' bodies B (the ones that turn or slide).
        Destroying either coupled joint, or any of their bodies, destroys the gear too. Two
        meshing wheels of radii r_a and r_b turn in opposite senses: ``ratio = r_b / r_a``.
        """
        rows = []
        for name, joint in (("joint_a", joint_a), ("joint_b", joint_b)):
            if not isinstance(joint, Joint) or joint._world is not self:
                raise TypeError(f"{name} must be a Joint of this world")
            if not isinstance(joint, (RevoluteJoint, PrismaticJoint)):
                raise ValueError(f"{name} must be a revolute or prismatic joint, got a "
                                 f"{type(joint).__name__}")
            rows.append(joint._row())
        if rows[0] == rows[1]:
            raise ValueError("a gear joint needs two different joints, got the same one twice")
        # K = J_a M J_a + ratio^2 J_b M J_b: bounded so that it stays finite (MAX_FACTOR, 1e6).
        ratio = _validate.signed_factor(ratio, "ratio")
        if ratio == 0.0:
            raise ValueError("ratio must be non-zero (a zero ratio leaves joint_b free)")
        a, b = self._joint_bodies(joint_a.body_b, joint_b.body_b)
        constant = _joint_coordinate(joint_a) + ratio * _joint_coordinate(joint_b)
        options = {
            "linked": rows,
            "ratio": ratio,
            "constant": constant,
            "collide_connected": _validate.flag(collide_connected, "collide_connected"),
        }
        origin_a = tuple(self._body_handles[a].position)
        origin_b = tuple(self._body_handles[b].position)
        return self._add_joint(GearJoint, GEAR, a, b, origin_a, origin_b, options)

    def _local_axis(self, a: int, axis) -> tuple[float, float]:
        """A world direction as a unit vector in body ``a``'s frame (zero length rejected)."""
        x, y = _validate.vec2(axis, "axis", limit=False)
        norm = math.hypot(x, y)
        if not norm > 1e-9 or not math.isfinite(norm):
            raise ValueError(f"axis must be a non-zero direction, got ({x}, {y})")
        x, y = x / norm, y / norm
        c, s = self._bodies.rot[a]
        return float(c * x + s * y), float(-s * x + c * y)

    def create_custom_joint(self, body_a: Body, body_b: Body, law, params=None, hertz=0.0,
                            damping_ratio=0.0, lower=None, upper=None, motor_speed=None,
                            max_motor_force=0.0, anchor_a=None, anchor_b=None,
                            collide_connected=False):
        """A joint that holds ``law`` (an :class:`impulse2d.custom.ConstraintLaw`) between
        ``body_a`` and ``body_b``, with its parameters ``params`` (a dict by name).

        Each equality row is rigid (``hertz`` 0) or a spring of ``hertz`` and
        ``damping_ratio`` toward ``C = 0``; ``lower``/``upper`` bound a row's ``C`` instead (one
        value for every row, or one per row, None for a row's default); ``motor_speed`` drives a
        row's ``Cdot`` with at most ``max_motor_force`` and frees it from its equality.
        ``anchor_a``/``anchor_b``: world points the debug draw marks (default: the origins).
        See :mod:`impulse2d.custom_joints`.
        """
        from . import custom_joints  # (on first use: impulse2d/__init__.py)
        return custom_joints.create(self, body_a, body_b, law, params, hertz, damping_ratio,
                                    lower, upper, motor_speed, max_motor_force, anchor_a,
                                    anchor_b, collide_connected)

    def destroy_joint(self, joint: Joint) -> None:
        """Destroy ``joint``; its handle becomes invalid."""
        _lock.check(self, "World.destroy_joint")
        if not isinstance(joint, Joint) or joint._world is not self:
            raise TypeError("joint must be a Joint of this world")
        self._free_joint(joint._row())

    @property
    def joints(self) -> list[Joint]:
        """Live joints, in row order."""
        return [self._joint_handles[i] for i in sorted(self._joint_handles)]

    def _joint_bodies(self, body_a, body_b) -> tuple[int, int]:
        a = self._body_row(body_a, "body_a")
        b = self._body_row(body_b, "body_b")
        if a == b:
            raise ValueError("a joint needs two different bodies, got the same body twice")
        if self._bodies.type[a] == STATIC and self._bodies.type[b] == STATIC:
            raise ValueError("a joint between two static bodies can do nothing")
        return a, b

    def _add_joint(self, cls, kind: int, a: int, b: int, anchor_a, anchor_b, options: dict):
        _lock.check(self, f"World.create_{cls.__name__[:-5].lower()}_joint")
        fresh = self._joint_pool.high_water  # rows from here on were never used: all zero
        j = self._joint_pool.allocate()
        if j >= len(self._joints.alive):
            self._joints = grow_store(self._joints, JOINT_LAYOUT, 2 * len(self._joints.alive))
            _stores_replaced()  # (a batch checks its worlds' step references again)
        jt = self._joints
        if j < fresh:
            # a re-used row: clear what its last joint left (59 writes, 15-20 us: a new row,
            # each joint of a new world, is zero already)
            for name, column in zip(jt._fields, jt):
                if name != "generation":
                    column[j] = 0
        jt.alive[j] = True
        jt.type[j] = kind
        jt.body_a[j] = a
        jt.body_b[j] = b
        handles = self._body_handles
        # element by element (a row written from a tuple costs about a microsecond)
        local = handles[a].local_point(anchor_a)
        jt.local_anchor_a[j, 0] = local[0]
        jt.local_anchor_a[j, 1] = local[1]
        local = handles[b].local_point(anchor_b)
        jt.local_anchor_b[j, 0] = local[0]
        jt.local_anchor_b[j, 1] = local[1]
        angle = self._bodies.angle
        jt.reference_angle[j] = angle.item(b) - angle.item(a)
        for name, value in options.items():
            getattr(jt, name)[j] = value
        handle = cls(self, j, jt.generation.item(j))
        _sleep.wake_body(self, a)
        _sleep.wake_body(self, b)
        self._joint_handles[j] = handle
        self._body_joints[a].append(j)
        if b != a:  # a single-body joint (mouse) is listed once
            self._body_joints[b].append(j)
        self._joint_index = None
        self._pairs_dirty = True
        return handle

    def _free_joint(self, j: int) -> None:
        jt = self._joints
        # Gears coupling this joint go first: they would read a dead joint's row.
        gears = np.flatnonzero(jt.alive & (jt.type == GEAR) & (jt.linked == j).any(axis=1))
        for gear in gears:
            self._free_joint(int(gear))
        for body in {int(jt.body_a[j]), int(jt.body_b[j])}:
            _sleep.wake_body(self, body)
            self._body_joints[body].remove(j)
        del self._joint_handles[j]
        jt.alive[j] = False
        jt.generation[j] += 1
        self._joint_pool.free(j)
        self._joint_index = None
        self._pairs_dirty = True

    def _joint_rows(self) -> dict[str, np.ndarray]:
        """Rows of live joints per list of ``ROW_LISTS`` (revolute joints split into pins and
        the others) that the solver solves, the sorted body-pair keys that must not collide,
        and whether any live joint was left out (``filtered``): the joints of sleeping islands
        are (those with no awake dynamic body, unless neither body is dynamic: _sleep)."""
        if self._joint_index is None:
            self._joint_index = joint_index(self._joints, self._bodies, self._sleepers,
                                            self._verbs_for[1])
        return self._joint_index

    # -- bulk state -------------------------------------------------------------------------------
    def _rows(self) -> np.ndarray:
        if self._live_rows is None:
            self._live_rows = np.flatnonzero(self._bodies.alive)
        return self._live_rows

    # -- queries (queries.py) ---------------------------------------------------------------
    # The module's functions are the methods (``world.ray_cast(o, d)`` calls
    # ``queries.ray_cast(world, o, d)``): no delegating frame in a single query, whose whole
    # cost is about a microsecond.
    ray_cast = queries.ray_cast
    ray_cast_all = queries.ray_cast_all
    ray_cast_callback = queries.ray_cast_callback
    ray_cast_many = queries.ray_cast_many
    query_aabb = queries.query_aabb
    query_point = queries.query_point
    shape_cast = queries.shape_cast
    query_shape = queries.query_shape

    def shape_from_index(self, index: int) -> Shape:
        """The live shape at ``index`` (:attr:`Shape.index`, what batched queries report)."""
        i = _validate.integer(index, "index", 0, len(self._shapes.alive) - 1)
        if i not in self._shape_handles:
            raise ValueError(f"no shape at index {i}")
        return self._shape_handles[i]

    def get_positions(self) -> np.ndarray:
        """(N, 2) float64 copy of body origins, m, in :attr:`bodies` order."""
        return self._bodies.origin[self._rows()]

    def get_angles(self) -> np.ndarray:
        """(N,) float64 copy of body angles, rad."""
        return self._bodies.angle[self._rows()]

    def get_velocities(self) -> np.ndarray:
        """(N, 3) float64: vx, vy (centre of mass, m/s) and angular velocity (rad/s)."""
        rows = self._rows()
        out = np.empty((rows.shape[0], 3))
        out[:, :2] = self._bodies.v[rows]
        out[:, 2] = self._bodies.w[rows]
        return out

    # -- contacts ----------------------------------------------------------------------------------
    @property
    def contacts(self) -> list[ContactInfo]:
        """The touching contacts as of the last step, with the impulses the solver applied
        (:mod:`impulse2d.contacts`: touching = a point overlaps or pushed); the speculative ones
        too with :meth:`get_contacts`."""
        return _contacts.get_contacts(self)

    def get_contacts(self, touching_only: bool = True) -> list[ContactInfo]:
        """:attr:`contacts`; with ``touching_only=False`` also the contacts whose points are
        only within the speculative margin (``touching`` False)."""
        return _contacts.get_contacts(self, _contacts.check_touching_only(touching_only))

    def contact_data(self, touching_only: bool = True) -> ContactData:
        """The contact points of :meth:`get_contacts` as NumPy arrays, one row per point
        (:class:`~impulse2d.contacts.ContactData`)."""
        return _contacts.contact_data(self, _contacts.check_touching_only(touching_only))

    def constraint_rows(self) -> list:
        """The rows the last step's solve worked on: every contact point's normal and friction
        rows and every joint's rows, with their Jacobian, effective mass, bias, impulses and
        bounds (:class:`~impulse2d.constraint_rows.ConstraintRow`)."""
        from . import constraint_rows  # (on first use: impulse2d/__init__.py)
        return constraint_rows.constraint_rows(self)

    def _contact_info(self, k: int) -> ContactInfo:
        """Contact row ``k`` as a record (the pre-solve hook's argument)."""
        return _contacts.records(self, np.array([k], dtype=np.int64))[0]

    # -- callbacks (callbacks.py) ------------------------------------------------------------
    @property
    def pair_filter(self):
        """``f(shape_a, shape_b) -> bool`` or None: asked once when two shapes that pass the
        collision filters start overlapping; False keeps them from colliding while they
        overlap (see :mod:`impulse2d.callbacks`, which also says what it costs)."""
        return self._callbacks.pair_filter

    @pair_filter.setter
    def pair_filter(self, value) -> None:
        _lock.check(self, "World.pair_filter = ...")
        self._callbacks.pair_filter = check_callback(value, "pair_filter")
        self._callbacks.forget()
        self._step_ready = NOT_READY  # (step_world's checks: a filter takes another step)

    @property
    def pre_solve(self):
        """``f(contact) -> bool`` or None: called every step for every contact with manifold
        points, before the solver; False switches that contact off for this step (see
        :mod:`impulse2d.callbacks`)."""
        return self._callbacks.pre_solve

    @pre_solve.setter
    def pre_solve(self, value) -> None:
        _lock.check(self, "World.pre_solve = ...")
        self._callbacks.pre_solve = check_callback(value, "pre_solve")
        self._step_ready = NOT_READY  # (step_world's checks: the hook takes another step)

    # -- events (events.py) --------------------------------------------------------------------
    def contact_events(self):
        """The contact events of the last step (``begin``, ``end``, ``hit`` records and arrays;
        see :mod:`impulse2d.events`). Needs ``settings.enable_contact_events``."""
        return self._events.contact_events(self)

    def sensor_events(self):
        """The sensor events of the last step (``begin``, ``end``: sensor and visitor shapes)."""
        return self._events.sensor_events(self)

    def body_events(self):
        """The bodies the last step moved. Needs ``settings.enable_body_events``."""
        return self._events.body_events(self)

    # -- internals used by the handles ------------------------------------------------------------
    def _body_row(self, body, name: str) -> int:
        if not isinstance(body, Body):
            raise TypeError(f"{name} must be a Body, got {type(body).__name__}")
        if body._world is not self:
            raise ValueError(f"{name} belongs to another world")
        return body._row()

    def _create_shape(self, body: Body, kind: str, make_geometry, material: dict,
                      size_names: str) -> Shape:
        """Validate everything, then write the row (so a failure changes nothing).

        ``size_names`` names the parameters that set the shape's size, for the message that
        rejects a mass or inertia out of range (the product of density and size is what
        overflows, so both are named)."""
        _lock.check(self, f"Body.create_{'box/polygon' if kind == 'polygon' else kind}")
        b = body._row()
        geom = make_geometry()
        m = parse_material(material)
        return self._attach_shape(b, kind, geom, m, size_names)

    def _attach_shape(self, b: int, kind: str, geom, m: dict, size_names: str) -> Shape:
        """:meth:`_create_shape` from body row ``b`` (live), validated geometry and a parsed
        material (``parse_material``'s dict, read only): the mass checks, then the writes."""
        density = m["density"]
        first = not self._body_shapes[b] and self._bodies.type.item(b) == DYNAMIC
        if first:
            # a dynamic body's first shape: what it gives the body, kept per geometry object
            fixed = self._bodies.fixed_rotation.item(b)
            kept = _first_shape.lookup(geom, density, fixed)
            if kept is not None:
                _sleep.wake_touching(self, b)
                handle = self._write_shape(b, kind, geom, m)
                self._update_mass(b, kept[0], added=handle._index, extents=kept[1])
                return handle
        if geom.count == 2 and geom.radius == 0.0:
            # a segment: no area, so what mass_properties gives without the kernel call (a few
            # microseconds; 200 of them a BipedalWalker reset): mass 0, the midpoint (the
            # geometry's centroid, 0.5 (a + b) as the kernel computes it), inertia 0
            part = (0.0, geom.centroid, 0.0)
        else:
            part = geometry.mass_properties(geom.count, geom.vertices, geom.radius, density)
        if part[0] == 0.0 and self._bodies.type.item(b) != DYNAMIC:
            # what the checks below give a massless shape on a body without mass (they pass:
            # a mass of 0 is allowed, and such a body's mass is 0), without formatting the
            # message they would need (a static body's fixtures: Gymnasium's terrain)
            props = (0.0, (0.0, 0.0), 0.0)
        else:
            blame = f"density = {density:g} kg/m^2 and the size set by {size_names}"
            _validate.check_mass(part[0], part[2], True, "this shape", blame)
            props = self._body_mass(b, extra=part, blame=blame)
        _sleep.wake_touching(self, b)
        handle = self._write_shape(b, kind, geom, m)
        self._update_mass(b, props, added=handle._index)
        if first:
            body = self._bodies
            _first_shape.keep(geom, density, fixed, props,
                              (body.extent.item(b), body.min_extent.item(b)))
        return handle

    def _write_shape(self, b: int, kind: str, geom, m: dict, ghost=None) -> Shape:
        """Write a new shape row on body ``b`` from validated geometry and material (``ghost``:
        a chain segment's ghost vertices); the caller updates the body's mass."""
        s = self._shape_pool.allocate()
        if s >= len(self._shapes.alive):
            self._shapes = grow_store(self._shapes, SHAPE_LAYOUT, 2 * len(self._shapes.alive))
            _stores_replaced()  # (a batch checks its worlds' step references again)
            self._query_index = self._query_spare = None  # it reads the store it was built on
        sh = self._shapes
        sh.alive[s] = True
        sh.body[s] = b
        sh.type[s] = _SHAPE_CODES[kind]
        sh.count[s] = geom.count
        sh.vertices[s] = geom.vertices
        sh.normals[s] = geom.normals
        sh.radius[s] = geom.radius
        sh.centroid[s] = geom.centroid
        sh.density[s] = m["density"]
        sh.friction[s] = m["friction"]
        sh.restitution[s] = m["restitution"]
        sh.is_sensor[s] = m["is_sensor"]
        sh.sensor_events[s] = m["enable_sensor_events"]
        if m["is_sensor"]:
            self._events.sensor_count += 1
            self._events.on = True
        sh.category[s] = m["category"]
        sh.mask[s] = m["mask"]
        sh.group[s] = m["group"]
        aabb, fat = sh.aabb, sh.fat_aabb
        # An inverted fat box forces the broadphase to pick the new shape up next step.
        # (Element by element: a row from a tuple costs about a microsecond.)
        aabb[s, 0] = aabb[s, 1] = aabb[s, 2] = aabb[s, 3] = 0.0
        fat[s, 0] = fat[s, 1] = np.inf
        fat[s, 2] = fat[s, 3] = -np.inf
        handle = Shape(self, s, int(sh.generation[s]))
        self._shape_handles[s] = handle
        self._body_shapes[b].append(s)
        if m["user_data"] is not None:
            self._shape_user_data[s] = m["user_data"]
        sh.ghost[s] = 0.0 if ghost is None else ghost
        self._pairs_dirty = True
        self._query_index = self._query_spare = None
        return handle

    def _free_shape(self, s: int) -> None:
        body = int(self._shapes.body[s])
        self._events.sensor_count -= int(self._shapes.is_sensor[s])
        self._body_shapes[body].remove(s)
        del self._shape_handles[s]
        self._shape_user_data.pop(s, None)
        self._shapes.alive[s] = False
        self._shapes.generation[s] += 1
        self._shape_pool.free(s)
        self._pairs_dirty = True
        self._query_index = self._query_spare = None

    def _drop_dead_contacts(self) -> None:
        """Drop the contacts of destroyed shapes; their touching contacts and sensor overlaps
        end (events)."""
        c = self._contacts
        alive = self._shapes.alive
        keep = alive[c.shape_a] & alive[c.shape_b]
        kept = bool(keep.all())  # once (a destroyed terrain body usually leaves every contact)
        events = self._events
        if events.sensing.size or (events.touching.size and not kept):
            dead = (~alive).astype(np.int64)  # destroyed rows: their generation was just bumped
            events.shapes_destroyed(self, np.flatnonzero(dead), dead)
            if not kept:
                events.contacts_dropped(self, ~keep, dead)
        if not kept:
            self._contacts = Contacts(*(column[keep] for column in c))

    def _shape_mass(self, s: int, density: float | None = None):
        """(mass kg, centre (2,) body frame m, inertia about that centre kg m^2) of shape ``s``,
        with its own density or ``density``."""
        sh = self._shapes
        return geometry.mass_properties(int(sh.count[s]), sh.vertices[s], float(sh.radius[s]),
                                        float(sh.density[s]) if density is None else density)

    def _body_mass(self, i: int, kind: int | None = None, fixed: bool | None = None, extra=None,
                   replace: int = -1, blame: str = "") -> tuple[float, tuple[float, float], float]:
        """Mass (kg), local centre of mass (m) and rotational inertia about it (kg m^2) that body
        ``i`` has, or would have as type ``kind`` or with ``fixed`` rotation, with the part
        ``extra`` added (a ``mass_properties`` triple) and shape ``replace``'s part replaced by
        it. Writes nothing;
        raises ``ValueError`` (blaming ``blame``) for a mass or inertia out of range, so a
        caller checks before it writes.

        A dynamic body whose shapes have no mass (segments, zero density) gets 1 kg, as in
        Box2D v2, so that it still falls and responds to contacts. Static and kinematic bodies
        have no mass (0).
        """
        b = self._bodies
        kind = int(b.type[i]) if kind is None else kind
        if kind != DYNAMIC:
            return 0.0, (0.0, 0.0), 0.0
        parts = [self._shape_mass(s) for s in self._body_shapes[i] if s != replace]
        if extra is not None:
            parts.append(extra)
        # Two passes: the centre first, then each part's inertia moved to it (parallel axis).
        # Summing about the body origin and moving the sum to the centre at the end cancels
        # digits when the centre is far from the origin, and could leave a tiny or negative
        # inertia whose inverse is huge; here every term is >= 0.
        mass = math.fsum(float(m) for m, _, _ in parts)
        if mass > 0.0:
            cx = math.fsum(float(m) * float(c[0]) for m, c, _ in parts) / mass
            cy = math.fsum(float(m) * float(c[1]) for m, c, _ in parts) / mass
            inertia = math.fsum(float(inertia) + float(m) * ((float(c[0]) - cx) ** 2
                                                             + (float(c[1]) - cy) ** 2)
                                for m, c, inertia in parts)
        else:
            mass, cx, cy, inertia = 1.0, 0.0, 0.0, 0.0
        fixed = bool(b.fixed_rotation[i]) if fixed is None else fixed
        rotates = inertia > 0.0 and not fixed
        _validate.check_mass(mass, inertia, rotates, "the body", blame or "its shapes")
        return mass, (cx, cy), (inertia if rotates else 0.0)

    def _set_density(self, s: int, density: float) -> None:
        """Shape ``s``'s density (validated >= 0), after checking its and its body's mass."""
        part = self._shape_mass(s, density)
        blame = f"density = {density:g} kg/m^2"
        _validate.check_mass(part[0], part[2], True, "this shape", blame)
        body = int(self._shapes.body[s])
        props = self._body_mass(body, extra=part, replace=s, blame=blame)
        _sleep.wake_body(self, body)
        self._shapes.density[s] = density
        self._update_mass(body, props)

    def _update_mass(self, i: int, props=None, added: int | None = None,
                     extents=None) -> None:
        """Write body ``i``'s mass, centre of mass and inertia: ``props`` as :meth:`_body_mass`
        returned them to a caller that checked them before writing anything else, or else
        computed now (removing a shape or making a body static cannot put them out of range).
        Keeps the velocity of the material point at the old centre. ``added``: the row of a
        shape just added to the body (its extents are then folded into the body's, when the
        centre of mass stayed where it was: a static body's fixtures one by one). ``extents``:
        the body's (extent, min_extent) with its shapes now, if the caller has them
        (:mod:`._first_shape`)."""
        b = self._bodies
        old_x, old_y = b.center.item(i, 0), b.center.item(i, 1)
        old_local = (b.local_center.item(i, 0), b.local_center.item(i, 1))
        mass, local_center, inertia = self._body_mass(i) if props is None else props
        b.mass[i] = mass
        b.inv_mass[i] = 1.0 / mass if mass > 0.0 else 0.0
        b.local_center[i, 0] = local_center[0]
        b.local_center[i, 1] = local_center[1]
        b.inertia[i] = inertia
        b.inv_inertia[i] = 1.0 / inertia if inertia > 0.0 else 0.0
        self._sync_center(i)
        # The farthest shape point from the centre of mass, m (the sleep test's lever arm).
        shapes = self._body_shapes[i]
        if extents is not None:
            b.extent[i], b.min_extent[i] = extents
        elif added is not None and len(shapes) > 1 and (float(local_center[0]),
                                                       float(local_center[1])) == old_local:
            # The extents are a max and a min over the shapes, each measured from the centre
            # of mass: with the centre unchanged the old values hold for the old shapes, and
            # folding in the new one gives exactly what the full pass below would (a body of
            # n fixtures made one by one cost O(n^2) here: LunarLander's moon, 11 edges).
            sh = self._shapes
            b.extent[i] = max(b.extent.item(i), _reach(sh, added, local_center))
            b.min_extent[i] = min(b.min_extent.item(i), _min_extent(sh, added))
        elif len(shapes) == 1:  # (a static body of one fixture: Gymnasium's terrain)
            sh = self._shapes
            b.extent[i] = _reach(sh, shapes[0], local_center)
            b.min_extent[i] = _min_extent(sh, shapes[0])
        elif shapes:
            sh = self._shapes
            b.extent[i] = max(_reach(sh, s, local_center) for s in shapes)
            b.min_extent[i] = min(_min_extent(sh, s) for s in shapes)
        else:
            b.extent[i] = 0.0
            b.min_extent[i] = HUGE  # nothing to sweep
        if b.type[i] != DYNAMIC:
            return
        # Keep the velocity of the material point at the old centre: v += w x (c_new - c_old).
        w = b.w.item(i)
        b.v[i, 0] -= w * (b.center.item(i, 1) - old_y)
        b.v[i, 1] += w * (b.center.item(i, 0) - old_x)

    def _sync_center(self, i: int) -> None:
        """World centre of mass from origin, rotation and local centre. Called wherever a body's
        origin or rotation is set, so it also drops the queries' grid, which has the old ones."""
        self._query_index = None
        b = self._bodies
        # read with ndarray.item: unpacking a row builds a view (2 us of this call's 3)
        rot, local = b.rot, b.local_center
        c, s = rot.item(i, 0), rot.item(i, 1)
        lx, ly = local.item(i, 0), local.item(i, 1)
        b.center[i, 0] = b.origin.item(i, 0) + c * lx - s * ly
        b.center[i, 1] = b.origin.item(i, 1) + s * lx + c * ly


def _reach(shapes: Shapes, s: int, local_center) -> float:
    """The farthest point of shape ``s`` from ``local_center`` (body frame), m: its farthest
    vertex plus its rounding radius, the value ``np.hypot(...).max()`` of the vertices gives.
    Read as Python floats (``ndarray.item``, a polygon's vertices with one ``tolist``: a
    body's creation; the array expression cost several microseconds a shape, a scalar
    ``np.hypot`` about one): the squared distances pick the
    candidates, and NumPy's hypot (within an ulp of the exact distance) is taken of every
    vertex within 1e-9 of the farthest in d^2 (5e-10 in distance, far more than an ulp), so no
    vertex left out could have the larger hypot."""
    vertices = shapes.vertices
    cx, cy = local_center
    count = shapes.count.item(s)
    if count <= 2:
        # a circle or a segment (a capsule): the same test on one or two points, unrolled
        x0 = vertices.item(s, 0, 0) - cx
        y0 = vertices.item(s, 0, 1) - cy
        if count == 1:
            return np.hypot(x0, y0) + shapes.radius.item(s)
        x1 = vertices.item(s, 1, 0) - cx
        y1 = vertices.item(s, 1, 1) - cy
        q0 = x0 * x0 + y0 * y0
        q1 = x1 * x1 + y1 * y1
        top = max(q0, q1, 0.0)
        cut = top * (1.0 - 1e-9)
        if q0 >= cut and q1 >= cut:
            far = max(np.hypot(x0, y0), np.hypot(x1, y1))
        else:
            far = np.hypot(x0, y0) if q0 >= cut else np.hypot(x1, y1)
        return far + shapes.radius.item(s)
    d = []
    top = 0.0
    for vx, vy in vertices[s, :count].tolist():  # (one call for the polygon's floats)
        x = vx - cx
        y = vy - cy
        q = x * x + y * y
        d.append((q, x, y))
        if q > top:
            top = q
    cut = top * (1.0 - 1e-9)
    far = max([np.hypot(x, y) for q, x, y in d if q >= cut])
    return far + shapes.radius.item(s)


def _min_extent(shapes: Shapes, s: int) -> float:
    """Shape ``s``'s thinnest half-width, m: the rounding radius plus, for a polygon, the
    least distance from its centroid to an edge line (Box2D v3's ``minExtent``: a circle's
    radius, a box's smaller half side, 0 for a segment). Continuous collision calls a body
    fast when a step moves it more than half the least of its shapes'. (Read as Python floats,
    a polygon's vertices and normals with one ``tolist`` each; each distance is
    n_x (v_x - c_x) + n_y (v_y - c_y), summed in that order as the array form did.)"""
    count = shapes.count.item(s)
    inner = 0.0
    if count >= 3:
        cx, cy = shapes.centroid.item(s, 0), shapes.centroid.item(s, 1)
        # the polygon's vertices and normals as Python floats, one call each
        inner = min([nx * (vx - cx) + ny * (vy - cy) for (vx, vy), (nx, ny) in
                     zip(shapes.vertices[s, :count].tolist(),
                         shapes.normals[s, :count].tolist())])
    return max(inner, 0.0) + shapes.radius.item(s)


def _check_gravity(value) -> tuple[float, float]:
    """Gravity, m/s^2, each component within +-MAX_ACCELERATION (1e6 m/s^2)."""
    return _validate.vec2(value, "gravity", bound=_validate.MAX_ACCELERATION, unit="m/s^2")


def _joint_coordinate(joint) -> float:
    """The coordinate a gear couples: a revolute joint's angle or a prismatic's translation."""
    return joint.angle if isinstance(joint, RevoluteJoint) else joint.translation
