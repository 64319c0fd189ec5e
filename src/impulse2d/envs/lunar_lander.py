"""``impulse2d/LunarLander-v3``: Gymnasium's LunarLander-v3 on impulse2d's own engine, as one
environment (:class:`LunarLander`) and as a vector environment that steps every lander in one
batch call (:class:`LunarLanderVectorEnv`).

The task is Gymnasium's (``gymnasium/envs/box2d/lunar_lander.py``, v3, read for its facts):

* **the world**, in metres (Gymnasium's pixels / 30): a 20 x 13.33 m view; the lander a
  six-sided polygon (density 5, friction 0.1) starting at (10, 13.33), two legs (boxes of
  2/30 x 8/30 m half-sizes, density 1, friction 0.2) on revolute joints whose motors (40 N m,
  +-0.3 rad/s) press them against their limits; the lander and legs collide with the ground
  only (categories 0x10 / 0x20, mask 0x1); gravity (0, ``gravity``);
* **each episode** (from the environment's own generator, in Gymnasium's order): the terrain's
  12 heights (uniform in [0, H/2], the five around the pad set to H/4, smoothed over three),
  the initial push (a force of up to +-1000 N on each axis for the first step), the wind's
  phases (``enable_wind``), then 2 dispersion numbers every step;
* **actions**: ``Discrete(4)`` (nothing, left engine, main engine, right engine) or, with
  ``continuous=True``, ``Box(-1, 1, (2,))`` (main throttle 50-100 % above 0; side engines
  beyond +-0.5). Each engine is an impulse at a point near the lander (13 and 0.6 N s at
  full throttle, with Gymnasium's dispersion and its orientation-dependent side-engine point);
  here it becomes one linear impulse at the centre of mass and the angular impulse r x p
  (``WorldBatch.apply_impulses``), which is the same change of momentum;
* **observations**: Gymnasium's 8 numbers (position and velocity scaled to the view, angle,
  20 w / 50, and the two legs' ground contact), the same ``Box``;
* **rewards**: the change of the shaping (-100 distance, -100 speed, -100 |angle|, +10 a leg
  on the ground), -0.3 per step of full main engine and -0.03 of side engine, scaled by the
  throttle; -100 and the end of the episode when the lander's body touches the ground or flies
  out of the view (|x| >= 1); +100 and the end when it has come to rest (not awake);
* **truncation** after 1000 steps (the registered ``max_episode_steps``).

What differs from Box2D, and why:

* **Solver.** Gymnasium steps Box2D 2.3 at 1/50 s with 180 velocity and 60 position
  iterations (sequential impulses). Here each 1/50 s step is impulse2d's soft step
  (``"soft_step"``, Box2D v3's solver) with :data:`SETTINGS`: 8 substeps of one iteration
  each, the joints held at 100 Hz with a damping ratio of 5 (``joint_hertz``,
  ``joint_damping_ratio``; at the default 60 Hz the legs' 40 N m motors push them 0.16 rad
  past their limits, at 100 Hz 0.06 rad; Box2D's rigid limits hold them at 0, and the damping
  keeps the legs from springing the lander back up on touchdown). With these the heuristic
  pilot scores a mean of 245 on seeds 0-99 (93 at rest, 7 crashes, most by skidding out of
  the view after touchdown; Box2D 2.3: 253, 95 / 4): the task is the same (over 200,
  ``tests/test_envs_lander.py``). Measured 2026-11-28, mean over seeds 0-99: 4 substeps never
  come to rest (the landed lander rocks on its legs faster than the sleep threshold);
  6 substeps 230; 8 substeps 235 (100 Hz: 235; with damping ratio 5: 245, 10: 225; with
  contacts at 60 Hz: 229); 12 substeps 226; 16 substeps at 200 Hz 230; 6 substeps at 75 Hz,
  damping 5: 222 with 8 truncated; ``"pgs_block"`` with 30 / 10 or 60 / 20 sweeps never comes
  to rest (the light legs against their motors do not converge). The spread between close
  settings (+-10) is the pilot's: it is bang-bang, so small differences change whole landings.
  **Cost** (2026-11-28, issue 30, median of a world's step alone, CPU, under load): about
  19 us at 8 substeps, of which the continuous stage 8, the solve 6, the pairs 3 (that
  evening the continuous stage's pass near the moon went from 12 to 3.3 us median, its
  allocations and reference counts gone: BENCHMARKS.md); cheaper
  settings were measured against the task and not taken: 6 substeps: mean 223 with 8 of
  100 episodes truncated (never at rest: 83 at rest, the test asks 90);
  continuous collision off (40 % of the step) keeps the pilot's score (242: 93 at rest) but
  lets a falling lander's legs through the moon under random actions (48 body centres more
  than 5 cm under the surface in 76,800 samples of 256 landers over 400 steps, down to
  0.5 m; with it 1, and more episodes end), so it is another task.
  ``box2d_faithful=True`` uses the pybox2d layer's settings (:data:`FAITHFUL`:
  ``"pgs_block"`` with Box2D 2.3's continuous rules, one step of 180 / 60 sweeps), for
  comparisons with Box2D: mean 252 on seeds 0-99 (94 at rest, 6 crashes).
* **Terrain.** Box2D's moon is 10 separate two-sided edge fixtures (plus a bottom edge), on
  which a sliding leg can catch at the inner vertices. Here it is one chain (one-sided
  segments with ghost vertices, smooth across the joins), made right to left so its front
  faces up, plus the bottom edge as a segment; ``box2d_faithful=True`` makes the 10 edges as
  separate two-sided segments, as Box2D does. Box2D's ``reset()`` makes a new world; here
  the moon is made once in each environment's world, before the snapshot a reset restores,
  and each episode moves its points in place (:mod:`._segments`: the same bits as a moon
  made anew, for a fraction of the cost).
* **Coming to rest.** impulse2d keeps the bodies of a turning joint motor awake (a slow motor
  would otherwise fall asleep and stop); Box2D 2.3 lets them sleep, and Gymnasium's "not
  awake" ending needs that: the legs' motors turn all episode long. So the environment times
  the three bodies itself, with the engine's test (speed below ``Body.sleep_threshold``:
  ``max(|v|, |w| extent)``), and puts a lander to sleep once its three bodies have been slow
  for ``WorldSettings.time_to_sleep`` (0.5 s), as the pybox2d layer does for Box2D programs.
* **Crash and leg contact** are read after each step from the touching contacts
  (``WorldBatch.get_touching``) rather than latched by Box2D's begin/end callbacks: a lander
  body that touches the ground during a step touches it after it too (it cannot bounce off in
  one step), so the ending is the same.
* **Legs' joints.** As in Box2D, each leg is made 0.6 m from its joint's anchor (the anchor
  on the leg is Gymnasium's local point) and the first step pulls it in; the local anchor is
  written into the joint's row, as the pybox2d layer does, since ``create_revolute_joint``
  takes one world anchor.

Seeding: environment ``i`` of a vector environment reset with ``seed`` plays exactly the
episodes of a single environment reset with ``seed + i`` (see :mod:`._vector`). Every number
is drawn from the environment's generator when Gymnasium draws it (the heights and the push
at a reset, the dispersion's two numbers at each step, the reset's own step included), by
compiled passes over the environments calling the generator's own ``next_double``
(:mod:`._draws`), so its stream is Gymnasium's: the same seed gives Gymnasium's terrain,
initial push and dispersions.
"""

from __future__ import annotations

import math

import numpy as np

from gymnasium import Env, spaces

from .._dynamics.batch_step import ADD_FORCE, after_writes
from .._dynamics.step import PAIRS_DIRTY
from .._validate import MAX_FORCE, MAX_VELOCITY
from ..constants import LINEAR_SLOP
from ._lander_step import _after_step, _discrete_engines, _engine_impulses, _start_episodes
from ._segments import Segments
from ._vector import _NONE, ALL, BatchVectorEnv

# Gymnasium's constants (pixels, SCALE pixels per metre).
FPS = 50
SCALE = 30.0
MAIN_ENGINE_POWER = 13.0
SIDE_ENGINE_POWER = 0.6
INITIAL_RANDOM = 1000.0
LANDER_POLY = ((-14, 17), (-17, 0), (-17, -10), (17, -10), (17, 0), (14, 17))
LEG_AWAY = 20
LEG_DOWN = 18
LEG_W, LEG_H = 2, 8
LEG_SPRING_TORQUE = 40
SIDE_ENGINE_HEIGHT = 14
SIDE_ENGINE_AWAY = 12
MAIN_ENGINE_Y_LOCATION = 4
VIEWPORT_W = 600
VIEWPORT_H = 400
W = VIEWPORT_W / SCALE    # m, the view's width
H = VIEWPORT_H / SCALE    # m, its height
CHUNKS = 11
CHUNK_X = np.array([W / (CHUNKS - 1) * i for i in range(CHUNKS)])
HELIPAD_X1 = float(CHUNK_X[CHUNKS // 2 - 1])
HELIPAD_X2 = float(CHUNK_X[CHUNKS // 2 + 1])
HELIPAD_Y = H / 4
INITIAL_X = W / 2
INITIAL_Y = H

SETTINGS = {"solver": "soft_step", "substeps": 8, "joint_hertz": 100.0,
            "joint_damping_ratio": 5.0}
"""The engine settings of the native environment (see the module's docstring)."""
FAITHFUL = {"solver": "pgs_block", "continuous_box2d23": True, "substeps": 1,
            "velocity_iterations": 180, "position_iterations": 60}
"""``box2d_faithful=True``: the pybox2d layer's settings for Gymnasium's Box2D worlds
(``impulse2d.compat``: ``b2World.engine_settings`` and ``Step(1/50, 180, 60)``)."""

_LOW = np.array([-2.5, -2.5, -10.0, -10.0, -2 * math.pi, -10.0, -0.0, -0.0], dtype=np.float32)
_HIGH = np.array([2.5, 2.5, 10.0, 10.0, 2 * math.pi, 10.0, 1.0, 1.0], dtype=np.float32)


class LunarLanderVectorEnv(BatchVectorEnv):
    """``num_envs`` LunarLanders stepped together (``gymnasium.make_vec("impulse2d/LunarLander-v3",
    num_envs, vectorization_mode="vector_entry_point")``). Options as Gymnasium's LunarLander
    (``continuous``, ``gravity`` in (-12, 0), ``enable_wind``, ``wind_power``,
    ``turbulence_power``), plus ``box2d_faithful`` (the pybox2d layer's solver settings) and
    the base's (``max_episode_steps``, ``autoreset_mode``, ``render_mode``, ``render_envs``,
    ``threads``)."""

    metadata = {**BatchVectorEnv.metadata, "render_fps": FPS}
    dt = 1.0 / FPS

    def __init__(self, num_envs: int = 1, *, continuous: bool = False, gravity: float = -10.0,
                 enable_wind: bool = False, wind_power: float = 15.0,
                 turbulence_power: float = 1.5, box2d_faithful: bool = False,
                 settings: dict | None = None, **kwargs) -> None:
        for name, value in (("continuous", continuous), ("enable_wind", enable_wind),
                            ("box2d_faithful", box2d_faithful)):
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
        for name, value in (("gravity", gravity), ("wind_power", wind_power),
                            ("turbulence_power", turbulence_power)):
            if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) \
                    or not math.isfinite(value):
                raise TypeError(f"{name} must be a finite number, got {value!r}")
        if not -12.0 < gravity < 0.0:
            raise ValueError(f"gravity must lie in (-12, 0) (Gymnasium's bound), got {gravity}")
        self.continuous = bool(continuous)
        self.gravity = float(gravity)
        self.enable_wind = bool(enable_wind)
        self.wind_power = float(wind_power)
        self.turbulence_power = float(turbulence_power)
        self.box2d_faithful = bool(box2d_faithful)
        if settings is not None and not isinstance(settings, dict):
            raise TypeError(f"settings must be a dict of WorldSettings fields, got "
                            f"{type(settings).__name__}")
        self.settings = {**(FAITHFUL if box2d_faithful else SETTINGS), **(settings or {})}
        self.single_observation_space = spaces.Box(_LOW, _HIGH)
        self.single_action_space = (spaces.Box(-1, +1, (2,), dtype=np.float32) if continuous
                                    else spaces.Discrete(4))
        super().__init__(num_envs, **kwargs)
        n = self.num_envs
        # the moon's surface, moved in place by each episode (native: a chain right to left,
        # so that its front faces up; box2d_faithful: 10 two-sided edges, as Box2D's)
        self._surface = Segments(self.batch.worlds[0], *self._moon,
                                 chain=not self.box2d_faithful)
        b = self.batch.worlds[0]._bodies
        rows = self.batch.body_rows
        # the template bodies' constants, the same in every copy
        self._local_center = b.local_center[rows[0]].copy()   # lander's, m
        self._extent = b.extent[rows].copy()
        self._sleep_threshold = b.sleep_threshold[rows].copy()
        self._time_to_sleep = float(self.batch.worlds[0].settings.time_to_sleep)
        self._slow = np.zeros((n, rows.shape[0]))   # s each body has been slow (coming to rest)
        self._prev_shaping = np.full(n, np.nan)
        self._push_flags = np.zeros(n, dtype=np.int64)   # a restart's push: flags for Python
        # the engines' throttles of the last step (its reward's fuel) and the side engine's
        # direction, which a discrete action writes in place each step
        self._m_power = np.zeros(n)
        self._s_power = np.zeros(n)
        self._direction = np.zeros(n)
        self._legs = np.zeros((n, 2), dtype=bool)   # ground contact after the last step
        # the lander's origin (m) and angle (rad) after the last step or reset: the engines'
        # points (nothing moves the bodies between an observation and the next actions)
        self._pose = np.zeros((n, 3))
        self._ready = np.zeros(n, dtype=bool)   # _after_step's: landers to put to sleep now
        # _after_step's finished, acting and restarting environments (see BatchVectorEnv._next),
        # two sets taken in turn: a step's end writes one while its step reads the other
        self._ends = [(np.zeros(n, dtype=bool), np.zeros(n, dtype=bool),
                       np.zeros(n, dtype=np.int64)) for _ in range(2)]
        self._wind_idx = np.zeros(n)
        self._torque_idx = np.zeros(n)
        # the batch step's rows of arguments with the engines' impulses in them (_engines: each
        # step writes the landers' columns; the legs' stay 0), one array for every step
        self._impulses, self._first = self.batch._impulse_rows()
        # each world's lander (its handle: a restore gives back the very objects), where
        # World.bodies lists every live body, its live rows found again after a restore
        self._landers = [w.bodies[0] for w in self.batch.worlds]

    # -- the world ------------------------------------------------------------------------------
    def _template(self):
        from ..world import World
        world = World(gravity=(0.0, self.gravity), **self.settings)
        lander = world.create_body(position=(INITIAL_X, INITIAL_Y))
        lander.create_polygon([(x / SCALE, y / SCALE) for x, y in LANDER_POLY], density=5.0,
                              friction=0.1, restitution=0.0, category=0x0010, mask=0x001)
        for i in (-1, +1):
            leg = world.create_body(position=(INITIAL_X - i * LEG_AWAY / SCALE, INITIAL_Y),
                                    angle=i * 0.05)
            # Box2D's default friction (0.2): Gymnasium's legs do not set one
            leg.create_box(LEG_W / SCALE, LEG_H / SCALE, density=1.0, friction=0.2,
                           restitution=0.0, category=0x0020, mask=0x001)
            lower, upper = (0.4, 0.9) if i == -1 else (-0.9, -0.4)
            joint = world.create_revolute_joint(
                lander, leg, (INITIAL_X, INITIAL_Y), enable_limit=True, lower_angle=lower,
                upper_angle=upper, enable_motor=True, motor_speed=0.3 * i,
                max_motor_torque=LEG_SPRING_TORQUE)
            # Box2D's local anchor on the leg (0.6 m from the lander's origin: the first step
            # pulls the leg in); the constructor took the lander's origin for both
            world._joints.local_anchor_b[joint._index] = (i * LEG_AWAY / SCALE,
                                                           LEG_DOWN / SCALE)
        return world

    def _begin_episodes(self, idx: np.ndarray) -> None:
        # the draws, Gymnasium's terrain, the push and the episodes' state, written through
        # the worlds' step references in one compiled pass (no Python per world): the moon's
        # segments moved (:mod:`._segments`; native: the surface right to left, so that its
        # front faces up) and the push (Gymnasium's ApplyForceToCenter, at most INITIAL_RANDOM
        # on each axis: no check pass) added as WorldBatch.apply_forces adds it, without a
        # mark (a world restored and only stepped since is restored again in one copy)
        batch, surface = self.batch, self._surface
        rows = batch.body_rows
        # (every world's references, checked, where a list of those of idx cost a restart
        # about 1 us: the batch's step checks every world's template bodies each step anyway)
        refs = batch._checked_refs(rows)
        flags = self._push_flags
        flagged = _start_episodes.entry(
            idx, self._draws, H / 2, INITIAL_RANDOM, CHUNKS // 2, HELIPAD_Y, CHUNK_X,
            not self.box2d_faithful, self._prev_shaping, self._slow, self._legs, refs,
            surface.body, surface.rows, surface.chain, surface.radius, surface.others,
            LINEAR_SLOP, PAIRS_DIRTY, rows, ADD_FORCE, MAX_FORCE, MAX_VELOCITY, flags,
            0 if self.enable_wind else 2)
        if flagged < 0:
            raise ValueError(f"segment end points must be more than {LINEAR_SLOP} m apart")
        if flagged:
            for j in np.flatnonzero(flags[:idx.shape[0]]).tolist():
                after_writes(batch.worlds[idx[j]], rows, int(flags[j]))
        if self.enable_wind:
            for i in idx.tolist():
                rng = self._rngs[i]
                self._wind_idx[i] = rng.integers(-9999, 9999)
                self._torque_idx[i] = rng.integers(-9999, 9999)

    def _make_static(self, world) -> None:
        """The moon, flat at the pad's height (each episode moves its points in place,
        :meth:`_begin_episodes`): a static body made after the template's bodies (not in the
        dense views), the bottom edge, then the 10 segments of the surface."""
        moon = world.create_body(type="static")
        moon.create_segment((0.0, 0.0), (W, 0.0), friction=0.2)
        points = [(float(x), HELIPAD_Y) for x in CHUNK_X]
        if self.box2d_faithful:
            for p1, p2 in zip(points[:-1], points[1:]):
                moon.create_segment(p1, p2, density=0.0, friction=0.1)
        else:
            moon.create_chain(points[::-1], friction=0.1)   # right to left: the front faces up
        # (the same rows in every copy: each is made the same way from the same template)
        self._moon = (moon._index, [shape._index for shape in moon.shapes][1:])

    # -- a step ---------------------------------------------------------------------------------
    def _act(self, actions, acting: np.ndarray):
        n = self.num_envs
        a = np.asarray(actions)
        if not self.continuous:
            writes = self._discrete(a, acting)
        else:
            a = np.clip(a.astype(np.float64), -1.0, 1.0)
            main = a[:, 0] > 0.0
            m_power = np.where(main, (np.clip(a[:, 0], 0.0, 1.0) + 1.0) * 0.5, 0.0)
            side = np.abs(a[:, 1]) > 0.5
            direction = np.sign(a[:, 1])
            s_power = np.where(side, np.clip(np.abs(a[:, 1]), 0.5, 1.0), 0.0)
            m_power = np.where(acting, m_power, 0.0)
            s_power = np.where(acting, s_power, 0.0)
            writes = self._engines(m_power, s_power, direction, acting)
        if self.enable_wind:
            self._wind(acting & ~(self._legs[:, 0] | self._legs[:, 1]), n)
        return writes

    @property
    def _resets_beside_step(self) -> bool:
        # the engines' impulses ride on the batch step (a restarting lander's are 0) and
        # _restart changes only the landers it restarts; the wind, though, is written into
        # every world by apply_forces in _act
        return not self.enable_wind

    def _reset_act(self, idx: np.ndarray) -> None:
        # Gymnasium's reset ends with a "do nothing" step: its dispersion (two numbers drawn,
        # the engines off; without wind, drawn by _begin_episodes' call: with wind, after its
        # draws, by the generator itself, the same two doubles) and its wind
        self._m_power[idx] = 0.0
        self._s_power[idx] = 0.0
        if self.enable_wind:
            for i in idx:
                self._rngs[i].random(2)
                fx, torque = self._wind_now(np.array([int(i)]))
                lander = self._landers[i]
                lander.apply_force((float(fx[0]), 0.0))
                lander.apply_torque(float(torque[0]))

    def _discrete(self, a, acting):
        """``Discrete(4)`` actions ``a`` as the throttles and :meth:`_engines`' impulses, both
        in one compiled call (:func:`._lander_step.discrete_engines`); :meth:`_engines`'
        writes."""
        rows, first = self._impulses, self._first
        lc = self._local_center
        # (float64 holds every valid action exactly, and an invalid one stays invalid)
        fired = _discrete_engines.entry(
            np.asarray(a, dtype=np.float64), acting, self._m_power, self._s_power,
            self._direction, self._pose, float(lc[0]), float(lc[1]), self._draws,
            MAIN_ENGINE_Y_LOCATION / SCALE, MAIN_ENGINE_POWER, float(SIDE_ENGINE_AWAY),
            SIDE_ENGINE_POWER, 17.0, float(SIDE_ENGINE_HEIGHT), SCALE, rows, first)
        if fired < 0:
            raise ValueError("actions must be 0, 1, 2 or 3 (Discrete(4)) for each environment")
        return self.batch._packed_writes(rows) if fired else None

    def _engines(self, m_power, s_power, direction, acting):
        """The main and side engines' impulses (Gymnasium's points and dispersion) as one
        linear impulse at the lander's centre of mass and the angular impulse r x p
        (:func:`._lander_step.engine_impulses`), written straight into the batch step's rows
        of arguments (``WorldBatch._impulse_rows``, made once: each step's writes are made
        before it returns): the batch's writes that ride on its step
        (``WorldBatch._packed_writes``: finite and bounded by the throttles, so without
        ``_writes``' checks and copies), or None when no engine fired."""
        self._m_power = m_power
        self._s_power = s_power
        rows, first = self._impulses, self._first
        lc = self._local_center
        fired = _engine_impulses.entry(
            self._pose, float(lc[0]), float(lc[1]), self._draws, acting, m_power, s_power,
            direction, MAIN_ENGINE_Y_LOCATION / SCALE, MAIN_ENGINE_POWER, float(SIDE_ENGINE_AWAY),
            SIDE_ENGINE_POWER, 17.0, float(SIDE_ENGINE_HEIGHT), SCALE, rows, first)
        return self.batch._packed_writes(rows) if fired else None

    def _wind_now(self, idx):
        """Gymnasium's wind force (N, along x) and turbulence torque (N m) now, advancing the
        phases of ``idx``."""
        def gust(k):
            return np.tanh(np.sin(0.02 * k) + np.sin(math.pi * 0.01 * k))
        fx = gust(self._wind_idx[idx]) * self.wind_power
        torque = gust(self._torque_idx[idx]) * self.turbulence_power
        self._wind_idx[idx] += 1
        self._torque_idx[idx] += 1
        return fx, torque

    def _wind(self, blowing: np.ndarray, n: int) -> None:
        if not blowing.any():
            return
        idx = np.flatnonzero(blowing)
        fx, torque = self._wind_now(idx)
        forces = np.zeros((n, self.batch.body_rows.shape[0], 3))
        forces[idx, 0, 0] = fx
        forces[idx, 0, 2] = torque
        self.batch.apply_forces(forces)

    def _observe(self, idx):
        # (a reset's step: it observes only its worlds, whose episodes have not begun to count)
        pos, angle, vel, touching, awake = self._state(idx)
        k = idx.shape[0]
        obs = np.empty((k, 8), dtype=np.float32)
        reward = np.empty(k)
        terminated = np.empty(k, dtype=bool)
        self._end(idx, False, _NONE, pos, angle, vel, touching, awake, obs, reward, terminated,
                  np.empty(k, dtype=bool), *self._ends[0])
        return obs, reward, terminated

    def _after_step(self, fresh):
        """The base's end of a step (the episodes' step counts, the observation, the
        truncations) with Box2D 2.3's sleeping for the lander (see the module's docstring): the
        three bodies timed with the engine's test, a lander whose three bodies have been slow
        for ``time_to_sleep`` at rest, and its island put to sleep, all in one compiled pass
        (:func:`._lander_step.after_step`) but for the sleeping itself (a lander at rest ends
        its episode: a few a step at most). The same pass finds the finished environments and
        the next step's (``_next``), into one of :attr:`_ends`' sets, the other's in turn."""
        pos, angle, vel, touching, awake = self._state(ALL)
        n = self.num_envs
        obs = np.empty((n, 8), dtype=np.float32)
        reward = np.empty(n)
        terminated = np.empty(n, dtype=bool)
        truncated = np.empty(n, dtype=bool)
        ends = self._ends
        ends.reverse()
        finished, acting, restart = ends[0]
        anyone, restarts = self._end(_NONE, True, _NONE if fresh is None else fresh, pos, angle,
                                     vel, touching, awake, obs, reward, terminated, truncated,
                                     finished, acting, restart)
        if anyone:
            for i in np.flatnonzero(self._ready).tolist():
                self._landers[i].is_awake = False
        self._next = (acting, restart[:restarts])
        return obs, reward, terminated, truncated, finished

    def _end(self, idx, every, fresh, pos, angle, vel, touching, awake, obs, reward, terminated,
             truncated, finished, acting, restart) -> tuple:
        """:func:`._lander_step.after_step` with the environment's own arrays and constants:
        every environment's step's end (``every``), or the observation alone of the
        environments ``idx`` (a reset's step: ``finished``, ``acting`` and ``restart`` left as
        they are)."""
        return _after_step.entry(
            idx, every, self._elapsed, fresh, self.max_episode_steps or 0, pos, angle, vel,
            touching, awake, self._extent, self._sleep_threshold, self._slow, self.dt,
            self._time_to_sleep, self._pose, self._legs, self._prev_shaping, self._m_power,
            self._s_power, W, H, HELIPAD_Y + LEG_DOWN / SCALE, float(FPS), obs, reward,
            terminated, truncated, self._ready, finished, acting, restart)

    # -- drawing --------------------------------------------------------------------------------
    def _camera(self):
        from .. import draw
        return draw.Camera(center=(W / 2, H / 2), scale=SCALE)

    def _draw(self, k: int, image) -> None:
        """Gymnasium's two flags at the pad's ends (a pole 50 px high, a yellow pennant)."""
        from PIL import ImageDraw
        pen = ImageDraw.Draw(image)
        bottom = VIEWPORT_H - HELIPAD_Y * SCALE
        for x in (HELIPAD_X1, HELIPAD_X2):
            px = x * SCALE
            top = bottom - 50
            pen.line([(px, bottom), (px, top)], fill=(255, 255, 255), width=1)
            pen.polygon([(px, top), (px, top + 10), (px + 25, top + 5)], fill=(204, 204, 0))


class LunarLander(Env):
    """One ``impulse2d/LunarLander-v3`` (``gymnasium.make``): a :class:`LunarLanderVectorEnv`
    of one environment, so that the single and the vector environment are the same code and
    give the same episodes for the same seed. Options as :class:`LunarLanderVectorEnv`'s."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": FPS}

    def __init__(self, render_mode: str | None = None, continuous: bool = False,
                 gravity: float = -10.0, enable_wind: bool = False, wind_power: float = 15.0,
                 turbulence_power: float = 1.5, box2d_faithful: bool = False) -> None:
        self._vec = LunarLanderVectorEnv(
            1, continuous=continuous, gravity=gravity, enable_wind=enable_wind,
            wind_power=wind_power, turbulence_power=turbulence_power,
            box2d_faithful=box2d_faithful, render_mode=render_mode, threads=1)
        self.continuous = self._vec.continuous
        self.render_mode = render_mode
        self.observation_space = self._vec.single_observation_space
        self.action_space = self._vec.single_action_space
        self._acting = np.ones(1, dtype=bool)

    @property
    def world(self):
        """The environment's :class:`~impulse2d.World`."""
        return self._vec.batch.worlds[0]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        obs, _ = self._vec.reset(seed=seed)
        return obs[0], {}

    def step(self, action):
        if not self._vec._started:
            raise RuntimeError("call reset() before step()")
        if self.continuous:
            a = np.asarray(action, dtype=np.float64).reshape(-1)
            if a.shape != (2,) or not np.all(np.isfinite(a)):
                raise ValueError(f"action must be 2 finite numbers, got {action!r}")
        elif not self.action_space.contains(action):
            raise ValueError(f"action must be 0, 1, 2 or 3, got {action!r}")
        a = np.asarray(action)[None]
        obs, reward, terminated, _, _ = self._vec._step_batch(a, self._acting)
        return obs[0], float(reward[0]), bool(terminated[0]), False, {}

    def render(self):
        if self.render_mode is None:
            from gymnasium import logger
            logger.warn("render() needs render_mode='rgb_array' (gymnasium.make(..., "
                        "render_mode='rgb_array'))")
            return None
        return self._vec.render()[0]

    def close(self):
        self._vec.close()


def heuristic(s, continuous: bool = False):
    """Gymnasium's heuristic pilot for LunarLander (its rules, here over a batch): ``s`` an
    (n, 8) array of observations (or one observation); the actions, an (n,) int array
    (or (n, 2) floats with ``continuous``). Aim the angle at the pad (at most 0.4 rad), hover
    at a height proportional to the horizontal offset, and after touching down only brake."""
    s = np.asarray(s, dtype=np.float64)
    one = s.ndim == 1
    s = np.atleast_2d(s)
    angle_targ = np.clip(s[:, 0] * 0.5 + s[:, 2] * 1.0, -0.4, 0.4)
    hover_targ = 0.55 * np.abs(s[:, 0])
    angle_todo = (angle_targ - s[:, 4]) * 0.5 - s[:, 5] * 1.0
    hover_todo = (hover_targ - s[:, 1]) * 0.5 - s[:, 3] * 0.5
    down = (s[:, 6] != 0) | (s[:, 7] != 0)
    angle_todo = np.where(down, 0.0, angle_todo)
    hover_todo = np.where(down, -s[:, 3] * 0.5, hover_todo)
    if continuous:
        a = np.clip(np.stack((hover_todo * 20 - 1, -angle_todo * 20), axis=1), -1, 1)
        a = a.astype(np.float32)
    else:
        a = np.zeros(s.shape[0], dtype=np.int64)
        a = np.where(angle_todo > 0.05, 1, a)
        a = np.where(angle_todo < -0.05, 3, a)
        a = np.where((hover_todo > np.abs(angle_todo)) & (hover_todo > 0.05), 2, a)
    return a[0] if one else a


__all__ = ["LunarLander", "LunarLanderVectorEnv", "heuristic", "SETTINGS", "FAITHFUL"]
