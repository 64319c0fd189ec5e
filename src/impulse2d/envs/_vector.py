"""The common base of impulse2d's native vector environments: a ``gymnasium.vector.VectorEnv``
over one :class:`~impulse2d.WorldBatch`.

An environment class says what its world is and what an episode, an action and an
observation are (the hooks below); this base owns the rest, the same for every environment:

* **the batch**: ``num_envs`` copies of the environment's template world
  (:meth:`WorldBatch.replicate`), stepped by one call per environment step, and a snapshot of
  each copy as it was built. A reset restores only the worlds that need it from that snapshot
  (a cost per world reset, none for the others), then the environment adds the episode's
  random parts (terrain, initial push) and the reset's own step;
* **seeding**: each environment has its own ``np.random.Generator``, made by
  ``gymnasium.utils.seeding.np_random`` (a PCG64 from ``SeedSequence(seed)``, what a
  ``gymnasium.Env`` makes in ``reset(seed=...)``), seeded ``seed + i`` for ``reset(seed=seed)``
  or from a list of seeds, as Gymnasium's ``SyncVectorEnv`` seeds its sub-environments. An
  environment draws only from its own generator, so environment ``i`` of a batch seeded
  ``seed`` plays the episodes of a single environment seeded ``seed + i``, whatever the batch
  size and whatever its neighbours do (and a later episode continues the generator, as a
  single environment's does). Kernels draw from it too, by address (:mod:`._draws`:
  ``self._draws[i]``, the same numbers as the generator's own calls);
* **autoreset**: Gymnasium's default ``AutoresetMode.NEXT_STEP`` (the step after a
  ``terminated or truncated`` one resets that environment, ignores its action and returns
  its first observation with reward 0 and both flags False), or ``SAME_STEP`` (a finished
  environment is reset in the step that finished it; its last observation and info go into
  ``infos["final_obs"]`` / ``infos["final_info"]`` with the masks ``_final_obs`` /
  ``_final_info``), or ``DISABLED`` (the program resets with
  ``reset(options={"reset_mask": mask})``). ``metadata["autoreset_mode"]`` says which;
* **truncation** after ``max_episode_steps`` steps of an episode (Gymnasium's ``TimeLimit``
  rule: ``truncated`` when the episode's step count reaches it; the vector entry point gets
  the registered number from ``gymnasium.make_vec``);
* **rendering** (``render_mode="rgb_array"``): each environment's world through impulse2d's
  debug draw (:func:`impulse2d.draw.image`, Pillow: extra ``render``), one frame per
  environment of ``render_envs`` (all by default), as ``SyncVectorEnv.render`` returns them.

The hooks an environment class implements (``idx`` is an int64 array of environment indices,
ascending):

* ``_template() -> World``: the world every environment starts from (its bodies are the
  dense views' bodies);
* ``_make_static(world)`` (optional): the static parts every episode has (a terrain of a
  fixed number of segments), made in each copy before the snapshot a reset restores, so
  that a reset restores them with the world and moves them in place (:mod:`._segments`)
  rather than making them anew;
* ``_begin_episodes(idx)``: after the base restored worlds ``idx``, make the episode's random
  parts with ``self._rngs[i]`` and set whatever per-episode state the environment keeps;
* ``_act(actions, acting)``: turn the batch of actions into forces, impulses and motor speeds
  for the environments where the boolean mask ``acting`` is True (the others are being reset:
  their action is ignored). Vectorised over the batch: no Python loop over environments.
  Returns the writes for the batch step to make in each world right before stepping it
  (``WorldBatch._writes``: impulses, motor speeds and limits; :mod:`.._batch_writes`), or
  None;
* ``_reset_act(idx)``: what the reset's own step does to worlds ``idx`` (Gymnasium's
  LunarLander takes a "do nothing" step inside ``reset``); called before that step;
* ``_observe(idx) -> (obs, reward, terminated)``: for environments ``idx`` (or
  ``slice(None)``: all) after a step: observations, rewards and terminations as arrays. With
  a next-step autoreset the finished worlds are restored before their step in the batch
  step, which is their reset's step (while the batch's other threads step the other worlds,
  unless ``_resets_beside_step`` says no): ``_observe(ALL)`` then covers them too (their
  ``_elapsed`` is 0; the base sets their reward to 0 and their flags to False afterwards);
* ``_after_step(fresh)`` (optional): what every step ends with (the episodes' step counts,
  ``_observe(ALL)``, the truncations, the restarted environments' reward and flags, the
  finished environments and ``_next``), which an environment may do in one compiled pass of
  its own (LunarLander, whose ``_observe`` then takes only the indices of a reset's worlds);
* ``_draw(k, image)`` (optional): decorations drawn on environment ``k``'s frame.

For ``_observe`` the base offers ``_state(idx)``: the template bodies' positions, angles,
velocities, touching and awake flags of every world (the batch's dense views, four of them in
one pass) or of a few (those worlds' own columns, so that observing a reset costs per world
reset).
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod

import numpy as np

try:
    import gymnasium
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover (the dev extra installs it)
    raise ImportError("impulse2d.envs needs Gymnasium: pip install impulse2d[envs]") from exc

from .._batch_views import _scatter_bodies
from .._core.jit import DirectCall, kernel
from .._dynamics.batch_step import ADD_FORCE, after_writes
from .._dynamics.step import _settings_arguments
from .._stepping import _ready
from .._validate import MAX_FORCE, MAX_VELOCITY
from ..batch import WorldBatch
from ._draws import addresses

ALL = slice(None)
"""``_observe``'s index for every environment."""


def as_autoreset_mode(value) -> AutoresetMode:
    """An ``AutoresetMode`` from the enum or its name/value (``"next_step"``, ``"NextStep"``...)."""
    if isinstance(value, AutoresetMode):
        return value
    if isinstance(value, str):
        key = value.replace("-", "_").lower()
        for mode in AutoresetMode:
            if key in (mode.name.lower(), mode.value.lower().replace("-", "_")):
                return mode
            if key.replace("_", "") == mode.value.lower():
                return mode
    raise ValueError(f"autoreset_mode must be a gymnasium.vector.AutoresetMode or one of "
                     f"{[m.name.lower() for m in AutoresetMode]}, got {value!r}")


@kernel
def episode_ends(elapsed, max_steps, fresh, reward, terminated, truncated):
    """After a step: ``truncated[i]`` where environment ``i``'s episode has taken ``max_steps``
    steps (``elapsed[i]``; never if ``max_steps`` is 0: Gymnasium's ``TimeLimit`` rule), then
    the environments ``fresh`` (restarted for this step: it was their reset's) given reward 0
    and both flags False. One compiled pass for what NumPy did in four calls over the batch
    (each a pass over arrays a step of 1,024 worlds evicts from the cache: BENCHMARKS.md
    session 28)."""
    for i in range(elapsed.shape[0]):
        truncated[i] = max_steps > 0 and elapsed[i] >= max_steps
    for k in range(fresh.shape[0]):
        i = fresh[k]
        reward[i] = 0.0
        terminated[i] = False
        truncated[i] = False


_episode_ends = DirectCall(episode_ends, "the vector environments' episode ends", 1.0)
_NONE = np.zeros(0, dtype=np.int64)


class BatchVectorEnv(VectorEnv, metaclass=ABCMeta):
    """A Gymnasium vector environment over a :class:`~impulse2d.WorldBatch` (see the module's
    docstring for what it does and the hooks a subclass implements).

    ``num_envs``: environments (worlds) in the batch. ``max_episode_steps``: truncation (None:
    never). ``autoreset_mode``: ``AutoresetMode`` or its name. ``render_mode``: None or
    ``"rgb_array"``. ``render_envs``: the environments :meth:`render` draws (an index or a
    sequence of them; None: all). ``threads``: the batch's worker threads (None: every core).
    A subclass sets ``single_observation_space``, ``single_action_space`` and ``dt`` (s per
    environment step) before calling ``super().__init__``."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50,
                "autoreset_mode": AutoresetMode.NEXT_STEP}
    render_size = (600, 400)
    """Frame (width, height) in pixels."""

    def __init__(self, num_envs: int, *, max_episode_steps: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 render_mode: str | None = None, render_envs=None,
                 threads: int | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if max_episode_steps is not None:
            if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps,
                                                                     (int, np.integer)):
                raise TypeError("max_episode_steps must be an int or None, got "
                                f"{type(max_episode_steps).__name__}")
            if max_episode_steps < 1:
                raise ValueError(f"max_episode_steps must be at least 1, got {max_episode_steps}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or one of "
                             f"{self.metadata['render_modes']}, got {render_mode!r}")
        self.num_envs = int(num_envs)
        self.max_episode_steps = None if max_episode_steps is None else int(max_episode_steps)
        self.autoreset_mode = as_autoreset_mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = render_mode
        self.render_envs = self._render_indices(render_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.batch = WorldBatch.replicate(self._template(), self.num_envs, threads)
        for world in self.batch.worlds:
            self._make_static(world)
            # what the first step would prepare (the settings' packed form, the table of the
            # step's kernels, the stores' reference), nothing else: a snapshot taken before
            # them restores the world's settings anew (a new WorldSettings, the reference
            # rebuilt, about 0.4 ms a reset) and has the reset's step fill the table again;
            # one taken after them keeps all three
            _ready(world, self.dt, _settings_arguments(world.settings))
        # each world as built, its terrain with it: what a reset restores (a snapshot of the
        # world's very layout restores in one copy of its arrays: see _segments)
        self._blank = self.batch.snapshot()
        self._rngs = [None] * self.num_envs   # each environment's own generator
        # and the addresses of its C next_double and state, for kernels that draw from it
        self._draws = np.zeros((self.num_envs, 2), dtype=np.int64)
        self._elapsed = np.zeros(self.num_envs, dtype=np.int64)   # steps of the episode
        self._done = np.zeros(self.num_envs, dtype=bool)   # finished last step (next-step reset)
        # a next-step autoreset's next step: the environments acting (not finished) and those
        # to restart (indices, ascending), found by the last step's end (_after_step) or reset
        self._next = None
        self._everyone = np.ones(self.num_envs, dtype=bool)   # acting, in the other modes
        self._obs = None
        self._stepped_state = None  # the batch step's gathered state, until _state(ALL) reads it
        # the arrays the batch step gathers into, made by its first step and filled again by
        # each (the hooks read them and keep none: WorldBatch._step_state's ``out``)
        self._gathered = None
        self._started = False

    # -- hooks (the module's docstring says what each must do) --------------------------------
    @abstractmethod
    def _template(self):
        """The world every environment is a copy of."""

    @abstractmethod
    def _begin_episodes(self, idx: np.ndarray) -> None:
        """The random parts of the episodes of environments ``idx``, after their restore."""

    @abstractmethod
    def _act(self, actions, acting: np.ndarray):
        """The actions as forces, impulses and motor speeds where ``acting``; the writes for
        the batch step (``WorldBatch._writes``) or None."""

    @property
    def _resets_beside_step(self) -> bool:
        """Whether a next-step autoreset may restart its worlds (:meth:`_restart`: serial
        Python, about a sixth of a LunarLander step of 1,024 environments) while the batch's
        other threads step the other worlds (``WorldBatch._step_state``'s ``meanwhile``),
        after the actions' writes were made (:meth:`_act`) rather than before. True when
        neither depends on the other: ``_act`` writes nothing into a world outside the batch
        step's own writes, and nothing of the restarted environments that ``_restart`` does
        not set again, and ``_restart`` changes only the worlds it restarts. An environment
        says so itself (False here): one whose ``_act`` wrote into every world by itself
        (LunarLander's wind, through ``apply_forces``) would write while the kernel runs."""
        return False

    def _make_static(self, world) -> None:
        """Make in ``world`` (a copy of the template) the static parts every episode has, of
        the right shape (a terrain of as many segments), after the template's bodies (so not in
        the dense views); ``_begin_episodes`` moves them in place (:mod:`._segments`). Nothing,
        unless overridden."""

    def _reset_act(self, idx: np.ndarray) -> None:
        """What a reset's own step does to worlds ``idx`` (nothing, unless overridden)."""

    @abstractmethod
    def _observe(self, idx):
        """``(obs, reward, terminated)`` of environments ``idx`` after a step."""

    def _draw(self, k: int, image) -> None:
        """Decorations on environment ``k``'s frame (none, unless overridden)."""

    # -- the Gymnasium API --------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Reset every environment, or those of ``options["reset_mask"]`` (a boolean array of
        shape ``(num_envs,)``, Gymnasium's partial reset). ``seed``: None (fresh generators on
        the first reset, the environments' own ones after), an int (environment ``i`` gets
        ``seed + i``) or a list of ``num_envs`` ints or Nones. Returns ``(obs, infos)``; with
        a mask, the other environments' observations are as they were."""
        n = self.num_envs
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            if seed < 0:
                raise ValueError(f"seed must be a non-negative int, got {seed}")
            seeds = [int(seed) + i for i in range(n)]
        elif isinstance(seed, (list, tuple)):
            if len(seed) != n:
                raise ValueError(f"a list of seeds must have num_envs={n} entries, got "
                                 f"{len(seed)}")
            seeds = list(seed)
        else:
            raise TypeError(f"seed must be None, an int or a list of ints, got "
                            f"{type(seed).__name__}")
        mask = np.ones(n, dtype=bool)
        if options is not None and "reset_mask" in options:
            mask = options["reset_mask"]
            if not isinstance(mask, np.ndarray):
                raise TypeError(f"options['reset_mask'] must be a numpy array, got "
                                f"{type(mask).__name__}")
            if mask.shape != (n,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({n},), "
                                 f"got {mask.dtype} {mask.shape}")
            if not mask.any():
                raise ValueError("options['reset_mask'] must hold at least one True")
            if not self._started and not mask.all():
                raise ValueError("the first reset must reset every environment (no reset_mask)")
        idx = np.flatnonzero(mask)
        for i in idx:
            s = seeds[i]
            if s is not None or self._rngs[i] is None:
                self._rngs[i], _ = seeding.np_random(s)
                self._draws[i] = addresses(self._rngs[i])
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(
                seed if isinstance(seed, (int, np.integer)) else None)
        if self._obs is None:
            self._obs = np.zeros(self.observation_space.shape, self.observation_space.dtype)
        obs, _ = self._reset_worlds(idx, all_of_them=bool(mask.all()))
        self._obs[idx] = obs
        self._done[idx] = False
        self._next = (~self._done, np.flatnonzero(self._done))
        self._started = True
        return self._obs.copy(), {}

    def step(self, actions):
        """One step of every environment: ``(obs, rewards, terminations, truncations, infos)``
        as arrays over the batch (see the module's docstring for the autoreset modes)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = self._check_actions(actions)
        mode = self.autoreset_mode
        if mode is AutoresetMode.NEXT_STEP:
            acting, fresh = self._next   # (the finished environments restart)
        else:
            if mode is AutoresetMode.DISABLED and self._done.any():
                k = int(np.flatnonzero(self._done)[0])
                raise RuntimeError(f"environment {k} has finished: with autoreset_mode "
                                   "DISABLED, reset it with reset(options={'reset_mask': "
                                   "mask}) first")
            acting, fresh = self._everyone, _NONE
        if fresh.shape[0] and not self._resets_beside_step:
            # next-step autoreset: the finished worlds are restored and begin their episodes
            # now, and the batch step below is their reset's step (as _reset_worlds takes it)
            self._restart(fresh)
        obs, reward, terminated, truncated, finished = self._step_batch(
            actions, acting, fresh, self._resets_beside_step)
        infos = {}
        if mode is AutoresetMode.SAME_STEP and finished.any():
            idx = np.flatnonzero(finished)
            # as SyncVectorEnv's _add_info lays them out: the last observations in an object
            # array, the last infos (empty here) as a dict of arrays, each with its mask
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in idx:
                final_obs[i] = obs[i].copy()
            infos = {"final_obs": final_obs, "_final_obs": finished.copy(),
                     "final_info": {}, "_final_info": finished.copy()}
            obs[idx], _ = self._reset_worlds(idx)
            finished[:] = False   # (each reset in the step that finished it)
        self._done = finished
        self._obs = obs
        return obs.copy(), reward, terminated, truncated, infos

    def render(self):
        """The frames of ``render_envs`` (RGB uint8 arrays of ``render_size``, height first),
        as a tuple (``SyncVectorEnv``'s convention); None without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs render_mode='rgb_array' at construction")
            return None
        from .. import draw
        frames = []
        for k in self.render_envs:
            img = draw.image(self.batch.worlds[k], size=self.render_size, camera=self._camera(),
                             flags=self._flags())
            self._draw(int(k), img)
            frames.append(np.asarray(img, dtype=np.uint8))
        return tuple(frames)

    def close_extras(self, **kwargs) -> None:
        """Drop the worlds (a closed environment holds no memory for them)."""
        self.batch = None
        self._blank = None
        self._gathered = None

    # -- the base's own work ------------------------------------------------------------------
    def _step_batch(self, actions, acting: np.ndarray, fresh=None, restart: bool = False):
        """The step itself, without autoreset: actions of the ``acting`` environments in, one
        batch step, then every environment's (obs, reward, terminated, truncated) and
        ``terminated | truncated`` (:meth:`_after_step`). ``fresh``:
        the environments restarted just before (:meth:`_restart`), or, with ``restart``,
        restarted here while the batch's other threads step the other worlds (see
        :attr:`_resets_beside_step`); for them this step is their reset's step (their
        elapsed steps stay 0, their reward 0 and both flags False)."""
        writes = self._act(actions, acting)
        # the state gathered by the step, world by world, while each world is in the cache,
        # and the actions' writes made there (WorldBatch._step_state); _state(ALL) takes it once
        if restart and fresh is not None and fresh.shape[0]:
            self._stepped_state = self.batch._step_state(
                self.dt, writes, held=fresh, meanwhile=lambda: self._restart(fresh),
                out=self._gathered)
        else:
            self._stepped_state = self.batch._step_state(self.dt, writes, out=self._gathered)
        self._gathered = self._stepped_state
        ended = self._after_step(fresh)
        self._stepped_state = None
        return ended

    def _after_step(self, fresh):
        """What every step ends with, after the batch step: the episodes' step counts (0 for
        the environments ``fresh``, or None), ``_observe(ALL)``, the truncations and the
        restarted environments' reward and flags; ``(obs, reward, terminated, truncated,
        finished)`` (``finished``: ``terminated | truncated``, the caller's until the next step
        ends), and ``_next`` (a next-step autoreset's next step) from them. An environment may
        do it all in one compiled pass of its own (LunarLander)."""
        self._elapsed += 1
        if fresh is not None and fresh.shape[0]:
            self._elapsed[fresh] = 0
        obs, reward, terminated = self._observe(ALL)
        reward = np.asarray(reward, dtype=np.float64)
        terminated = np.asarray(terminated, dtype=bool)
        truncated = np.empty(self.num_envs, dtype=bool)
        _episode_ends.entry(self._elapsed, self.max_episode_steps or 0,
                            _NONE if fresh is None else fresh, reward, terminated, truncated)
        finished = terminated | truncated
        self._next = (~finished, np.flatnonzero(finished))
        return obs, reward, terminated, truncated, finished

    def _restart(self, idx: np.ndarray) -> None:
        """Restore worlds ``idx`` as built, begin their episodes and prepare their reset's step
        (:meth:`_reset_act`), which the caller takes."""
        self.batch._restore(self._blank, idx)
        self._elapsed[idx] = 0
        self._begin_episodes(idx)
        self._reset_act(idx)

    def _reset_worlds(self, idx: np.ndarray, all_of_them: bool = False):
        """Restore worlds ``idx`` as built, begin their episodes and take the reset's step;
        their observations (and the reset step's info, empty)."""
        idx = np.asarray(idx, dtype=np.int64)
        self._restart(idx)
        if all_of_them:
            self.batch.step(self.dt)
        else:
            # a loop over the worlds being reset only; each is bit for bit a batch step of it
            worlds = self.batch.worlds
            for i in idx:
                worlds[i].step(self.dt)
        obs, _, _ = self._observe(idx)
        return obs, {}

    def _add_forces(self, idx: np.ndarray, refs, forces: np.ndarray) -> None:
        """``Body.apply_force``'s sum and wake (N and N m, ``forces``: (worlds, template bodies,
        3)) in worlds ``idx`` (``refs``: their step references, in that order), by
        ``WorldBatch.apply_forces``' kernel over those worlds alone: no Python per world, and
        no mark on them (a world restored and only stepped since is restored again in one
        copy: :mod:`impulse2d._batch_restore`). For an episode's push, far below the forces'
        bound: no check pass."""
        rows = self.batch.body_rows
        flags = np.zeros(idx.shape[0], dtype=np.int64)
        _scatter_bodies.entry(refs, 0, idx.shape[0], rows, forces, ADD_FORCE, MAX_FORCE,
                              MAX_VELOCITY, False, flags)
        for j in np.flatnonzero(flags):
            after_writes(self.batch.worlds[idx[j]], rows, int(flags[j]))

    def _state(self, idx):
        """The template bodies' positions (n, nb, 2), angles (n, nb), velocities (n, nb, 3),
        touching (n, nb) and awake (n, nb) flags, of every world (``idx`` is ``ALL``: the
        batch's dense views) or of worlds ``idx`` only (read from those worlds' own columns,
        at a cost per world read: a reset's observation must not cost a pass over the whole
        batch): :meth:`WorldBatch.get_state <impulse2d.WorldBatch.get_state>`."""
        s = self._stepped_state
        if idx is ALL and s is not None:
            self._stepped_state = None  # (once: a later read may follow writes)
        else:
            s = self.batch.get_state(None if idx is ALL else idx)
        return s.positions, s.angles, s.velocities, s.touching, s.awake

    def _check_actions(self, actions):
        space = self.action_space
        a = np.asarray(actions)
        if a.shape != space.shape:
            raise ValueError(f"actions must have shape {space.shape} (num_envs first), got "
                             f"{a.shape}")
        if a.dtype.kind not in "biuf":
            raise TypeError(f"actions must be numbers, got dtype {a.dtype}")
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise ValueError("actions must be finite")
        return a

    def _render_indices(self, render_envs) -> np.ndarray:
        n = self.num_envs
        if render_envs is None:
            return np.arange(n)
        r = np.atleast_1d(np.asarray(render_envs))
        if r.dtype.kind not in "iu" or r.ndim != 1 or r.size == 0:
            raise TypeError("render_envs must be None, an environment index or a sequence of them")
        if r.min() < 0 or r.max() >= n:
            raise ValueError(f"render_envs must lie in [0, {n})")
        return r.astype(np.int64)

    def _camera(self):
        from .. import draw
        return draw.Camera.fit(self.batch.worlds[0], self.render_size)

    def _flags(self):
        return None


__all__ = ["BatchVectorEnv", "as_autoreset_mode", "episode_ends", "ALL"]
