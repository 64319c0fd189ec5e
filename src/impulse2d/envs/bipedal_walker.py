"""``impulse2d/BipedalWalker-v3``: Gymnasium's BipedalWalker on impulse2d's own worlds, as a
single ``gymnasium.Env`` (:class:`BipedalWalker`) and as a vector environment stepping every
walker in one batch call (:class:`BipedalWalkerVectorEnv`).

**The task** is Gymnasium's (its facts, in this package's code):

* **the walker**: a hull (a 5-sided polygon 64 x 17 px at SCALE = 30 px/m, density 5,
  friction 0.1) and two legs, each an upper leg (a box 8 x 34 px, density 1, friction 0.2)
  on a hip and a lower leg (6.4 x 34 px) on a knee. Hips turn within [-0.8, 1.1] rad, knees
  within [-1.6, -0.1] rad (angles measured from the legs' build angles, +-0.05 rad). The
  walker's shapes collide with the terrain only. It is built as Gymnasium builds it: the
  joints' anchors 16 px apart and the lower legs above their places, so the reset's step
  pulls the legs together and stands the feet on the ground.
* **actions**: 4 numbers in [-1, 1] (hip, knee, hip, knee); each drives its joint's motor
  at ``sign(a)`` times the joint's top speed (4 rad/s hips, 6 knees) with at most
  ``80 |a|`` N m (``MOTORS_TORQUE``; |a| clipped to 1).
* **observations** (24 float32): the hull's angle, ``2 w / FPS``, ``0.3 vx (600/30) / FPS``,
  ``0.3 vy (400/30) / FPS``; per leg the hip angle and speed / 4, the knee angle + 1 and
  speed / 6, and whether the lower leg touches the ground (1 or 0); then 10 lidar fractions:
  rays from the hull's origin, 160/30 m long, at 0, 0.15, ..., 1.35 rad from straight down
  towards the front, the nearest hit on the terrain (1: none).
* **reward**: ``130 x / SCALE - 5 |hull angle|`` (x: the hull's origin, m) is a potential;
  each step earns its change, minus ``0.00035 * 80 |a|`` per joint. A fall (the hull touches
  the ground) or leaving the start (x < 0) ends the episode with -100; reaching the far end
  (x > (200 - 10) * 14/30 m) ends it too.
* **episodes**: the terrain of :mod:`._walker_terrain` (the same draws as Gymnasium's, so the
  same seed gives the same ground), the hull pushed by a uniform +-5 N for the reset's step,
  truncated after 1600 steps (hardcore: 2000; ``impulse2d/BipedalWalkerHardcore-v3``) by the
  registration, as Gymnasium's ``TimeLimit`` does. One step is 1/50 s.

**What differs from Gymnasium on Box2D.** The ground contact of a lower leg is "touching
now" (``WorldBatch.get_touching``: a contact point that overlaps or pushed; with
``box2d_faithful=True``, Box2D 2.3's own test, a manifold with points, see
:func:`_manifold_touching`); Gymnasium's flag is set by any
contact's begin and cleared by any contact's end, so it reads False while a foot still
touches a second ground edge after leaving the first. The hull's fall is likewise the hull
touching the ground after the step. The engine finds contacts at the start of each step, so
the reset's observation reads both feet off the ground although the reset's step stood them
on it (Box2D's time of impact reports them touching within that step); from the first step
on they read as touching. Gymnasium's walker never sleeps (it sets every joint's
motor speed each step, which wakes the bodies in Box2D 2.3), so sleeping is off here.

**Solver settings** (:data:`NATIVE_SETTINGS`, :data:`FAITHFUL_SETTINGS`). Gymnasium steps
Box2D 2.3 once per environment step with 180 velocity and 60 position iterations.
``box2d_faithful=True`` uses the pybox2d layer's settings for that (``impulse2d.compat``: the
``"pgs_block"`` solver, Box2D 2.3's sequential impulses with its 2x2 block solver and
nonlinear Gauss-Seidel position correction, 180 / 60 iterations, one engine step, Box2D 2.3's
time-of-impact rules): the same walker and terrain then start as Gymnasium's environment on
the layer does, and its steps agree to float precision (not bit for bit: here the walker's
bodies are made before the terrain's, so the solver visits the contacts in another order and
its sums round differently; a long run drifts apart as any chaotic one does). The default
(native) settings are documented at :data:`NATIVE_SETTINGS` with the measurements that chose
them.

**The batch.** Each environment is a world of a :class:`~impulse2d.WorldBatch` made by
``replicate`` from one template (the walker's 5 bodies and 4 joints: the batch's dense
views); the ground is one static body made after them in each copy, before the snapshot
a reset restores, and each episode moves its 199 edges to the episode's points in place
(:mod:`._segments`; hardcore obstacles are made anew after it). A step is, for all
environments at once: the motor speeds and torque limits in (``WorldBatch.set_motor_speeds``,
``set_max_motor_torques``), one ``WorldBatch.step``, then the dense views (positions,
angles, velocities, touching) and one batched lidar cast (``WorldBatch.ray_cast_many``)
out, and the observations, rewards and terminations computed on those arrays. Python loops
over environments remain only in resets (terrain, push) and rendering (and, with
``box2d_faithful=True``, Box2D 2.3's contact test, :func:`_manifold_touching`).
"""

from __future__ import annotations

import math

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover (the dev extra installs it)
    raise ImportError("impulse2d.envs needs Gymnasium: pip install impulse2d[envs]") from exc

from .. import queries
from ..world import World
from . import _walker_terrain as terrain
from ._vector import ALL, BatchVectorEnv
from ._segments import Segments
from ._walker_terrain import SCALE, TERRAIN_STEP

FPS = 50
"""Environment steps per second (one engine step each)."""
MOTORS_TORQUE = 80.0
"""N m: a joint motor's torque at |action| = 1."""
SPEED_HIP = 4.0
"""rad/s: a hip motor's speed."""
SPEED_KNEE = 6.0
"""rad/s: a knee motor's speed."""
LIDAR_RANGE = 160 / SCALE
"""m: length of a lidar ray."""
INITIAL_RANDOM = 5.0
"""N: the hull's push at reset is uniform in +-this."""
HULL_POLY = ((+34, -8), (+34, +1), (+6, +9), (-30, +9), (-30, -8))
"""The hull's corners, px (/ SCALE: m), counter-clockwise from the rightmost lowest: the
order Box2D 2.3 keeps them in (Gymnasium lists them from (-30, +9)), so that the polygon's
mass properties are summed in Box2D's (and the pybox2d layer's) order."""
LEG_DOWN = -8 / SCALE
"""m: the hips' height on the hull, from its origin."""
LEG_W, LEG_H = 8 / SCALE, 34 / SCALE
"""m: an upper leg's width and length (a lower leg is 0.8 as wide)."""
VIEWPORT_W, VIEWPORT_H = 600, 400
"""px: Gymnasium's view (the observation's velocity scales use it)."""
END_X = (terrain.TERRAIN_LENGTH - terrain.TERRAIN_GRASS) * TERRAIN_STEP
"""m: the hull past this ends the episode (the goal)."""

HULL, UPPER_0, LOWER_0, UPPER_1, LOWER_1 = range(5)
"""The template bodies, in the dense views' order."""
JOINT_BODIES = np.array([(HULL, UPPER_0), (UPPER_0, LOWER_0), (HULL, UPPER_1),
                         (UPPER_1, LOWER_1)])
"""Body A and body B of each joint (hip 0, knee 0, hip 1, knee 1)."""
MOTOR_SPEEDS = np.array([SPEED_HIP, SPEED_KNEE, SPEED_HIP, SPEED_KNEE])
"""rad/s of each joint's motor at full action."""
LIDAR_ANGLES = 1.5 * np.arange(10) / 10.0
"""rad from straight down, towards the front."""
LIDAR_RAYS = np.stack((np.sin(LIDAR_ANGLES) * LIDAR_RANGE,
                       -np.cos(LIDAR_ANGLES) * LIDAR_RANGE), axis=1)
"""(10, 2) m: each lidar ray's translation from the hull's origin."""
LIDAR_FILTER = queries.QueryFilter(mask=0x1)
"""The lidar sees the terrain (category 0x1) only, not the walker (0x20)."""
TORQUE_COST = 0.00035 * MOTORS_TORQUE
"""Reward per unit |action| per joint per step."""

FAITHFUL_SETTINGS = {"solver": "pgs_block", "velocity_iterations": 180,
                     "position_iterations": 60, "continuous_box2d23": True,
                     "enable_sleep": False}
"""``box2d_faithful=True``: the pybox2d layer's engine settings for Gymnasium's
``world.Step(1/50, 6 * 30, 2 * 30)`` (see the module's docstring)."""

NATIVE_SETTINGS = {"solver": "pgs_block", "velocity_iterations": 10,
                   "position_iterations": 3, "continuous_box2d23": True,
                   "enable_sleep": False}
"""The default engine settings: :data:`FAITHFUL_SETTINGS` with 10 velocity and 3 position
iterations a step instead of 180 and 60 (a step costs about a third as much). Chosen by the
scripted gait (:mod:`.walker_heuristic`, 500 steps, seeds 0-15, measured here on this
terrain): Box2D 2.3 walks 17.4 m on average (7-24 m a seed, 10 falls: the gait has no notion
of balance); the faithful settings 17.1 m; 10 / 3 iterations 17.4 m (13 falls), 9 / 3 16.9;
12 / 3, 10 / 5, 12 / 4, 15 / 5, 60 / 20 and 90 / 30 5-11 m (most fall near 8 m), 20 / 5 and
40 / 10 about 2 m (the gait stalls in a split), and at 8 / 3 it falls back at the start.
Box2D v3's soft step (``"soft_step"``, 4 or 8 substeps) lets the knees give way under the
hull: the gait falls within 1.2 m on every seed. (The alternatives were measured with the feet's
contact read as a manifold with points; 10 / 3 again with ``WorldBatch.get_touching``'s
stricter test: 17.4 m, each seed within 0.1 m of before.)"""

DEFAULT_MAX_STEPS = {False: 1600, True: 2000}
"""Truncation of a directly made vector environment, by ``hardcore`` (the registrations
give these numbers to ``gymnasium.make`` and ``make_vec``)."""


def build_walker(settings: dict) -> World:
    """The template world: the walker of Gymnasium's ``reset`` (before its step) alone, with
    the engine ``settings``; bodies in the order :data:`HULL` ... :data:`LOWER_1`, joints hip
    0, knee 0, hip 1, knee 1.

    Gymnasium makes each joint with a local anchor on each body, 16 px apart in the world
    (the hip's on the hull at ``LEG_DOWN``, the upper leg's at its top): the world's
    constructor takes one world anchor (body A's), and body B's local anchor is then written
    into the joint's row (``local_anchor_b``), as the pybox2d layer does. The reference
    angle is the build's angle difference (+-0.05 rad at the hips), as pybox2d takes it."""
    world = World(gravity=(0.0, -10.0), **settings)
    init_x = TERRAIN_STEP * terrain.TERRAIN_STARTPAD / 2
    init_y = terrain.TERRAIN_HEIGHT + 2 * LEG_H
    walker = {"category": 0x0020, "mask": 0x0001, "restitution": 0.0}  # the ground only
    hull = world.create_body("dynamic", position=(init_x, init_y))
    hull.create_polygon([(x / SCALE, y / SCALE) for x, y in HULL_POLY], density=5.0,
                        friction=0.1, **walker)
    joints = world._joints
    for side in (-1, +1):
        upper = world.create_body("dynamic", position=(init_x, init_y - LEG_H / 2 - LEG_DOWN),
                                  angle=side * 0.05)
        # Box2D's default friction, 0.2 (Gymnasium's leg fixtures leave it)
        upper.create_box(LEG_W / 2, LEG_H / 2, density=1.0, friction=0.2, **walker)
        hip = world.create_revolute_joint(
            hull, upper, (init_x, init_y + LEG_DOWN), enable_limit=True, lower_angle=-0.8,
            upper_angle=1.1, enable_motor=True, motor_speed=side, max_motor_torque=MOTORS_TORQUE)
        joints.local_anchor_b[hip._index] = (0.0, LEG_H / 2)
        lower = world.create_body("dynamic",
                                  position=(init_x, init_y - LEG_H * 3 / 2 - LEG_DOWN),
                                  angle=side * 0.05)
        lower.create_box(0.8 * LEG_W / 2, LEG_H / 2, density=1.0, friction=0.2, **walker)
        knee_at = upper.world_point((0.0, -LEG_H / 2))
        knee = world.create_revolute_joint(
            upper, lower, knee_at, enable_limit=True, lower_angle=-1.6, upper_angle=-0.1,
            enable_motor=True, motor_speed=1.0, max_motor_torque=MOTORS_TORQUE)
        joints.local_anchor_b[knee._index] = (0.0, LEG_H / 2)
    return world


def _observation_space() -> spaces.Box:
    # Gymnasium's bounds: angles +-pi, speeds +-5 (5 x the rated speed, for impacts), contacts
    # 0..5, lidar +-1 (the observation may leave them, as Gymnasium's may)
    leg = [math.pi, 5.0, math.pi, 5.0, 5.0]
    high = np.array([math.pi, 5.0, 5.0, 5.0] + leg + leg + [1.0] * 10, dtype=np.float32)
    low = -high
    low[[8, 13]] = -0.0
    return spaces.Box(low, high, dtype=np.float32)


def _action_space() -> spaces.Box:
    return spaces.Box(-np.ones(4, np.float32), np.ones(4, np.float32), dtype=np.float32)


class BipedalWalkerVectorEnv(BatchVectorEnv):
    """``num_envs`` BipedalWalkers stepped together (see the module's docstring), a
    ``gymnasium.vector.VectorEnv`` (:class:`._vector.BatchVectorEnv`: autoreset, seeding,
    truncation, rendering).

    ``hardcore``: stumps, pits and stairs. ``box2d_faithful``: the pybox2d layer's engine
    settings (:data:`FAITHFUL_SETTINGS`) instead of :data:`NATIVE_SETTINGS`; ``settings``: a
    dict of :class:`~impulse2d.WorldSettings` fields over those (a bad one raises when the
    template world is made). ``max_episode_steps``: truncation (default 1600, hardcore 2000;
    None: never)."""

    metadata = {**BatchVectorEnv.metadata, "render_fps": FPS}
    dt = 1.0 / FPS

    def __init__(self, num_envs: int = 1, *, hardcore: bool = False,
                 box2d_faithful: bool = False, settings: dict | None = None,
                 max_episode_steps="default",
                 autoreset_mode="next_step", render_mode: str | None = None,
                 render_envs=None, threads: int | None = None) -> None:
        if not isinstance(hardcore, (bool, np.bool_)):
            raise TypeError(f"hardcore must be a bool, got {type(hardcore).__name__}")
        if not isinstance(box2d_faithful, (bool, np.bool_)):
            raise TypeError(f"box2d_faithful must be a bool, got "
                            f"{type(box2d_faithful).__name__}")
        self.hardcore = bool(hardcore)
        self.box2d_faithful = bool(box2d_faithful)
        if settings is not None and not isinstance(settings, dict):
            raise TypeError(f"settings must be a dict of WorldSettings fields, got "
                            f"{type(settings).__name__}")
        self.settings = {**(FAITHFUL_SETTINGS if self.box2d_faithful else NATIVE_SETTINGS),
                         **(settings or {})}
        if isinstance(max_episode_steps, str) and max_episode_steps == "default":
            max_episode_steps = DEFAULT_MAX_STEPS[self.hardcore]
        self.single_observation_space = _observation_space()
        self.single_action_space = _action_space()
        super().__init__(num_envs, max_episode_steps=max_episode_steps,
                         autoreset_mode=autoreset_mode, render_mode=render_mode,
                         render_envs=render_envs, threads=threads)
        n = self.num_envs
        template = self.batch.worlds[0]
        joints = template._joints
        self._joint_rows = np.array([j._index for j in template.joints], dtype=np.int64)
        # angle = angle_b - angle_a - reference (the same in every copy)
        self._reference = joints.reference_angle[self._joint_rows].copy()
        self._hulls = [w.bodies[HULL] for w in self.batch.worlds]  # valid after each restore
        self._ground_edges = Segments(template, *self._ground)   # moved by each episode
        self._shaping = np.zeros(n)          # the reward's potential after the last step
        self._has_shaping = np.zeros(n, dtype=bool)   # False until an episode's first step
        self._costs = np.zeros((n, 4))       # each joint's torque cost of the last actions
        self.terrains = [None] * n
        """Each environment's :class:`._walker_terrain.Terrain` of its episode."""

    # -- the hooks of BatchVectorEnv ------------------------------------------------------------
    def _template(self) -> World:
        return build_walker(self.settings)

    def _make_static(self, world) -> None:
        # the ground's rows, the same in every copy (each made the same way from the template)
        self._ground = terrain.make_ground(world)

    def _begin_episodes(self, idx: np.ndarray) -> None:
        worlds = self.batch.worlds
        chosen = idx.tolist()
        pushes = []
        for i in chosen:
            rng = self._rngs[i]
            self.terrains[i] = terrain.generate(rng, self.hardcore)
            pushes.append(rng.uniform(-INITIAL_RANDOM, INITIAL_RANDOM))
        rows = self.batch.body_rows
        refs = self.batch._checked_refs(rows, chosen=idx)
        terrain.move_ground(refs, self._ground_edges, [self.terrains[i] for i in chosen])
        if self.hardcore:
            for i in chosen:
                terrain.make_obstacles(worlds[i], self.terrains[i])
            refs = self.batch._checked_refs(rows, chosen=idx)  # (a store may have grown)
        # the push (Gymnasium's ApplyForceToCenter on the hull, at most INITIAL_RANDOM)
        forces = np.zeros((idx.shape[0], rows.shape[0], 3))
        forces[:, HULL, 0] = pushes
        self._add_forces(idx, refs, forces)
        self._has_shaping[idx] = False

    @property
    def _resets_beside_step(self) -> bool:
        # _act's motor writes ride on the batch step (a restarted walker's are 0, as
        # _reset_act's), and _restart changes only the walkers it restarts
        return True

    def _reset_act(self, idx: np.ndarray) -> None:
        # Gymnasium's reset ends with a step of action 0: motors at speed 0 with no torque
        worlds = self.batch.worlds
        for i in idx.tolist():
            joints = worlds[i]._joints
            joints.motor_speed[self._joint_rows] = 0.0
            joints.max_motor[self._joint_rows] = 0.0
        self._costs[idx] = 0.0

    def _act(self, actions, acting: np.ndarray):
        a = np.asarray(actions)
        if a.dtype.kind != "f":
            a = a.astype(np.float64)
        # in the actions' own precision, as Gymnasium computes (float32 actions: float32
        # torques and costs, then widened)
        a = np.where(acting[:, None], a, 0.0)
        strength = np.clip(np.abs(a), 0.0, 1.0)
        self._costs = (TORQUE_COST * strength).astype(np.float64)
        # written into each world by the batch step, right before it steps the world
        return self.batch._writes(
            motor_speeds=MOTOR_SPEEDS * np.sign(a),
            max_motor_torques=(MOTORS_TORQUE * strength).astype(np.float64))

    def _observe(self, idx):
        b = self.batch
        # every world: the batch's views in one pass (BatchVectorEnv._state); a reset's few
        # worlds: their own columns (the same numbers)
        positions, angles, velocities, touching, _ = self._state(idx)
        worlds = b.worlds if idx is ALL else [b.worlds[i] for i in idx.tolist()]
        if self.box2d_faithful:
            touching = _manifold_touching(worlds, b.body_rows)
        origins, translations = _lidar_rays(positions[:, HULL])
        if idx is ALL:
            lidar = b.ray_cast_many(origins, translations, filter=LIDAR_FILTER).fraction
            idx = np.arange(self.num_envs)
        else:   # one cast per world, as the batch's cast makes them
            lidar = np.stack([queries.ray_cast_many(w, origins[k], translations[k],
                                                    LIDAR_FILTER).fraction
                              for k, w in enumerate(worlds)])
        return self._outcome(idx, positions, angles, velocities, touching, lidar)

    # -- drawing -------------------------------------------------------------------------------
    def render(self):
        """The frames of ``render_envs`` (RGB uint8, 400 x 600 x 3), each following its
        walker as Gymnasium's view does: 20 m wide from 4 m behind the hull, the ground's
        base line at the bottom, 30 px/m. None without a render mode."""
        if self.render_mode is None:
            return super().render()   # (warns)
        from .. import draw
        frames = []
        for k in self.render_envs.tolist():
            scroll = self._hulls[k].position.x - VIEWPORT_W / SCALE / 5
            camera = draw.Camera(center=(scroll + VIEWPORT_W / SCALE / 2,
                                         VIEWPORT_H / SCALE / 2), scale=SCALE)
            image = draw.image(self.batch.worlds[k], size=self.render_size, camera=camera)
            frames.append(np.asarray(image, dtype=np.uint8))
        return tuple(frames)

    # -- the arrays ------------------------------------------------------------------------------
    def _outcome(self, idx, positions, angles, velocities, touching, lidar):
        """Observations, rewards and terminations of environments ``idx`` from their bodies'
        arrays (see the module's docstring); updates the reward's potential."""
        m = idx.shape[0]
        a, b = JOINT_BODIES[:, 0], JOINT_BODIES[:, 1]
        joint_angle = angles[:, b] - angles[:, a] - self._reference
        joint_speed = velocities[:, b, 2] - velocities[:, a, 2]
        hull_angle = angles[:, HULL]
        v = velocities[:, HULL]
        obs = np.empty((m, 24), dtype=np.float32)
        obs[:, 0] = hull_angle
        obs[:, 1] = 2.0 * v[:, 2] / FPS
        obs[:, 2] = 0.3 * v[:, 0] * (VIEWPORT_W / SCALE) / FPS
        obs[:, 3] = 0.3 * v[:, 1] * (VIEWPORT_H / SCALE) / FPS
        for leg, (hip, knee, foot) in enumerate(((0, 1, LOWER_0), (2, 3, LOWER_1))):
            o = 4 + 5 * leg
            obs[:, o] = joint_angle[:, hip]
            obs[:, o + 1] = joint_speed[:, hip] / SPEED_HIP
            obs[:, o + 2] = joint_angle[:, knee] + 1.0
            obs[:, o + 3] = joint_speed[:, knee] / SPEED_KNEE
            obs[:, o + 4] = touching[:, foot]
        obs[:, 14:] = lidar
        x = positions[:, HULL, 0]
        shaping = 130.0 * x / SCALE - 5.0 * np.abs(hull_angle)
        reward = np.where(self._has_shaping[idx], shaping - self._shaping[idx], 0.0)
        for j in range(4):   # each joint's cost in turn, as Gymnasium subtracts them
            reward -= self._costs[idx, j]
        self._shaping[idx] = shaping
        self._has_shaping[idx] = True
        fallen = touching[:, HULL] | (x < 0.0)
        reward[fallen] = -100.0
        terminated = fallen | (x > END_X)
        return obs, reward, terminated


def _manifold_touching(worlds, rows: np.ndarray) -> np.ndarray:
    """(worlds, bodies) bool: whether each body ``rows`` has a contact whose manifold has
    points, Box2D 2.3's "touching" (the shapes within their skins, pushing or not), which its
    begin and end callbacks, and so Gymnasium's flags and the pybox2d layer's, follow.
    ``WorldBatch.get_touching`` counts a point only where it overlaps or pushed (as
    ``World.contacts`` does); with the faithful settings that stricter test changes when the
    scripted gait's swinging foot counts as down, and it falls back at the start of every
    episode. One NumPy pass per world: the faithful mode's price (its 180 iterations cost far
    more)."""
    out = np.empty((len(worlds), rows.shape[0]), dtype=bool)
    for k, world in enumerate(worlds):
        c = world._contacts
        on = c.count > 0
        hit = np.zeros(world._bodies.alive.shape[0], dtype=bool)
        hit[c.body_a[on]] = True
        hit[c.body_b[on]] = True
        out[k] = hit[rows]
    return out


def _lidar_rays(hull_origins: np.ndarray):
    """Each walker's 10 lidar rays from its hull's origin, (walkers, 10, 2) origins and
    translations. Gymnasium casts from the origin to the end point; the translation is taken
    as the end point minus the origin, the numbers its ray cast receives."""
    origins = np.repeat(hull_origins[:, None, :], LIDAR_RAYS.shape[0], axis=1)
    return origins, (origins + LIDAR_RAYS) - origins


class BipedalWalker(gymnasium.Env):
    """One ``impulse2d/BipedalWalker-v3`` (``gymnasium.make``): a
    :class:`BipedalWalkerVectorEnv` of one environment, so that the single and the vector
    environment are the same code and give the same episodes for the same seed. Options as
    the vector environment's; truncation is the registration's (``TimeLimit``)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": FPS}

    def __init__(self, render_mode: str | None = None, hardcore: bool = False,
                 box2d_faithful: bool = False, settings: dict | None = None) -> None:
        self._vec = BipedalWalkerVectorEnv(1, hardcore=hardcore, box2d_faithful=box2d_faithful,
                                           settings=settings, max_episode_steps=None,
                                           render_mode=render_mode, threads=1)
        self.hardcore = self._vec.hardcore
        self.render_mode = render_mode
        self.observation_space = self._vec.single_observation_space
        self.action_space = self._vec.single_action_space
        self._acting = np.ones(1, dtype=bool)

    @property
    def world(self) -> World:
        """The environment's :class:`~impulse2d.World`."""
        return self._vec.batch.worlds[0]

    @property
    def terrain(self):
        """The episode's :class:`._walker_terrain.Terrain` (None before the first reset)."""
        return self._vec.terrains[0]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        obs, _ = self._vec.reset(seed=seed)
        return obs[0], {}

    def step(self, action):
        if not self._vec._started:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(action)
        if a.shape != (4,) or a.dtype.kind not in "biuf":
            raise ValueError(f"action must be 4 numbers, got {action!r}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"action must be finite, got {action!r}")
        obs, reward, terminated, _, _ = self._vec._step_batch(a[None], self._acting)
        return obs[0], float(reward[0]), bool(terminated[0]), False, {}

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='rgb_array' (gymnasium.make(..., "
                                  "render_mode='rgb_array'))")
            return None
        return self._vec.render()[0]

    def close(self):
        self._vec.close()


__all__ = ["BipedalWalker", "BipedalWalkerVectorEnv", "build_walker", "NATIVE_SETTINGS",
           "FAITHFUL_SETTINGS"]
