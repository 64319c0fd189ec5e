"""A pane: one running world of the testbed and what steps it.

A scene pane steps its world with the scene's own hook (:func:`impulse2d.scenes.step_scene`);
a Gymnasium pane steps its environment (one ``env.step`` is one ``world.step``) with a fixed,
seeded policy, and resets it when an episode ends. Side by side, the panes are copies of one
state (:func:`copy_pane`) stepped in lock-step; :func:`divergence` measures how far apart
they have drifted.
"""

from __future__ import annotations

import copy
import math
import sys
import types
from dataclasses import dataclass

import numpy as np

from ..scenes import SceneInfo, build_scene, step_scene
from ..types import BodyType
from ..world import World
from .catalog import Entry

__all__ = ["Pane", "build_pane", "copy_pane", "divergence", "Divergence", "kinetic_energy"]

GYM_SEED = 0  # every Gymnasium pane starts from this reset seed, so panes and replays agree


class Pane:
    """One world on screen. ``world`` is the :class:`impulse2d.World` stepped; ``steps`` counts
    the frames stepped since the scene was opened (the scene hook's step index)."""

    def __init__(self, entry: Entry, world: World, info: SceneInfo | None = None, env=None):
        self.entry = entry
        self.world = world
        self.info = info
        self.env = env
        self.steps = 0
        self.framework = None  # a pybox2d example pane: the example (its Step steps the world)
        # Gymnasium panes: the settings to give each new episode's world, the policy choosing
        # the actions, the last observation, the episodes finished
        self.settings: dict = {}
        self.policy = None
        self.observation = None
        self.episodes = 0

    def step(self, dt: float) -> None:
        """Exactly one ``world.step``: the scene's hook and a step of ``dt``, or one
        environment step (at the environments' own rate, 1/50 s)."""
        if self.framework is not None:
            settings = self.framework.settings
            settings.hz = 1.0 / dt
            self.framework.Step(settings)
        elif self.env is None:
            step_scene(self.world, self.info, self.steps, dt)
        else:
            _gym_step(self)
        self.steps += 1


def build_pane(entry: Entry, settings: dict, params: dict | None = None) -> Pane:
    """A fresh pane of ``entry``, its world's settings updated by ``settings``."""
    if entry.gym_id is not None or entry.example is not None:
        if params:
            raise ValueError(f"{entry.name} takes no scene parameters, got {sorted(params)}")
        return _gym_pane(entry, settings) if entry.gym_id else _example_pane(entry, settings)
    world = World()
    for name, value in settings.items():
        setattr(world.settings, name, value)
    info = build_scene(world, entry.name, **(params or {}))
    return Pane(entry, world, info)


def copy_pane(pane: Pane) -> Pane:
    """An independent pane in the same state, bit for bit. The scene hook is a closure over the
    scene's bodies and joints: its cells are copied with the world (one ``deepcopy`` memo), so
    the copy's hook drives the copy's bodies."""
    if pane.env is not None or pane.framework is not None:
        raise ValueError("a Gymnasium or pybox2d example pane cannot be copied; open the "
                         "scene anew in every pane (side_by_side does)")
    memo: dict = {}
    world = copy.deepcopy(pane.world, memo)
    info = pane.info
    if info is not None:
        info = SceneInfo(bodies=copy.deepcopy(info.bodies, memo),
                         data=copy.deepcopy(info.data, memo),
                         update=_copy_function(info.update, memo))
    clone = Pane(pane.entry, world, info)
    clone.steps = pane.steps
    return clone


def _copy_function(fn, memo: dict):
    """``fn`` with its closure's cells deep-copied through ``memo`` (nested closures too)."""
    if fn is None or not isinstance(fn, types.FunctionType) or not fn.__closure__:
        return fn
    if id(fn) in memo:
        return memo[id(fn)]
    cells = []
    for cell in fn.__closure__:
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell (a name not yet bound)
            cells.append(types.CellType())
            continue
        if isinstance(value, types.FunctionType):
            value = _copy_function(value, memo)
        else:
            value = copy.deepcopy(value, memo)
        cells.append(types.CellType(value))
    clone = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                               tuple(cells))
    clone.__kwdefaults__ = fn.__kwdefaults__
    memo[id(fn)] = clone
    return clone


# -- pybox2d's example programs ---------------------------------------------------------------

def _example_pane(entry: Entry, settings: dict) -> Pane:
    """A pane of a pybox2d example: the example made (its framework off-screen, drawing
    nothing: the testbed draws the world), its world's engine given the panel's settings."""
    from ..compat.box2d.examples import load

    framework = load(entry.example)()
    framework.drawing = False
    pane = Pane(entry, framework.world.engine, None)
    pane.framework = framework
    _apply(pane.world, settings)
    return pane


# -- Gymnasium -------------------------------------------------------------------------------

def _gym_pane(entry: Entry, settings: dict) -> Pane:
    import gymnasium as gym

    from ..compat import box2d as b2compat

    global _installed_here
    if not b2compat.installed():
        # The environments import Box2D when their module is imported: drop any copy made
        # against another Box2D so that they import this layer (tests/test_gym_envs.py does
        # the same).
        _drop_env_modules()
        b2compat.install()
        _installed_here = True
    env = gym.make(entry.gym_id)
    observation, _ = env.reset(seed=GYM_SEED)
    env.action_space.seed(GYM_SEED)
    pane = Pane(entry, env.unwrapped.world.engine, None, env)
    pane.settings = dict(settings)
    _apply(pane.world, settings)
    pane.policy = _policy(entry.gym_id, env)
    pane.observation = observation
    return pane


_installed_here = False  # whether _gym_pane installed the layer (release_gym undoes it)


def _drop_env_modules() -> None:
    for name in [m for m in sys.modules if m.startswith("gymnasium.envs.box2d")]:
        del sys.modules[name]


def release_gym() -> None:
    """Undo the layer's install if a Gymnasium pane made it, so that ``import Box2D`` after
    the testbed closes is whatever it was before."""
    global _installed_here
    if _installed_here:
        from ..compat import box2d as b2compat
        b2compat.uninstall()
        _drop_env_modules()
        _installed_here = False


def _apply(world: World, settings: dict) -> None:
    for name, value in settings.items():
        setattr(world.settings, name, value)


def _policy(gym_id: str, env):
    """A deterministic policy worth watching: LunarLander's own heuristic pilot (gymnasium's
    ``heuristic``), CarRacing driving ahead at half throttle, BipedalWalker's seeded random
    actions."""
    if gym_id.startswith("LunarLander"):
        from gymnasium.envs.box2d.lunar_lander import heuristic
        return lambda pane: heuristic(pane.env.unwrapped, pane.observation)
    if gym_id.startswith("CarRacing"):
        return lambda pane: np.array([0.0, 0.5, 0.0], dtype=np.float32)
    return lambda pane: pane.env.action_space.sample()


def _gym_step(pane: Pane) -> None:
    obs, _, terminated, truncated, _ = pane.env.step(pane.policy(pane))
    pane.observation = obs
    if terminated or truncated:
        pane.episodes += 1
        pane.observation, _ = pane.env.reset(seed=GYM_SEED + pane.episodes)
        pane.world = pane.env.unwrapped.world.engine
        _apply(pane.world, pane.settings)


# -- divergence ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Divergence:
    """How far side-by-side panes have drifted from the first: ``position`` is the largest
    distance between the same body in the first pane and in any other (m; inf when their
    bodies no longer correspond), ``energies`` the kinetic energy of each pane (J)."""

    position: float
    energies: tuple[float, ...]


def kinetic_energy(world: World) -> float:
    """Translational plus rotational kinetic energy of the dynamic bodies, J (the solver's
    diagnostics measure the same after a step; this reads it from the bodies, whatever the
    settings)."""
    total = 0.0
    v = world.get_velocities()
    for k, body in enumerate(world.bodies):
        if body.type == BodyType.DYNAMIC:
            total += 0.5 * (body.mass * (v[k, 0] ** 2 + v[k, 1] ** 2) + body.inertia * v[k, 2] ** 2)
    return float(total)


def divergence(panes: list[Pane]) -> Divergence:
    energies = tuple(kinetic_energy(p.world) for p in panes)
    if len(panes) < 2:
        return Divergence(0.0, energies)
    base = panes[0].world.get_positions()
    worst = 0.0
    for other in panes[1:]:
        pos = other.world.get_positions()
        if pos.shape != base.shape:
            return Divergence(math.inf, energies)
        if len(pos):
            worst = max(worst, float(np.max(np.hypot(*(pos - base).T))))
    return Divergence(worst, energies)
