"""Sample scenes shared by the demo, the tests and the benchmarks.

A scene is a function that fills a fresh :class:`impulse2d.World` and returns a :class:`SceneInfo`
naming the bodies a test or a metric needs. Scenes register themselves with :func:`scene` so the
command line (``impulse2d demo --list``) and the benchmarks find them by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["Scene", "SceneInfo", "scene", "SCENES", "get_scene", "build_scene", "step_scene"]


@dataclass
class SceneInfo:
    """What a scene builder returns.

    ``bodies`` maps a role ("top", "ball_e0.5", ...) to a body handle or a list of handles;
    ``data`` holds numbers a metric needs (the base of a pyramid, the analytic slide distance).

    ``update``, when not None, is the scene's per-step hook for things a scene scripts while it
    runs (a mouse target that moves, a motor switched on later): whoever steps the scene calls
    ``update(world, i)`` just BEFORE each ``world.step``, with ``i`` the index of the step about
    to be taken (0 for the first step); :func:`step_scene` does both. The hook may change
    joint targets, motors, forces or even destroy joints; a scene with a hook that is stepped
    without it still runs, but not as its description says.
    """

    bodies: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    update: Callable[[Any, int], None] | None = None


@dataclass(frozen=True)
class Scene:
    name: str
    description: str
    builder: Callable[..., SceneInfo]
    steps: int = 300                           # default number of 1/60 s steps for the demo
    view: tuple[float, float, float, float] = (-20.0, -2.0, 20.0, 28.0)  # x0, y0, x1, y1 in m
    params: dict[str, Any] = field(default_factory=dict)  # default keyword arguments of builder


SCENES: dict[str, Scene] = {}


def scene(name: str, description: str, *, steps: int = 300,
          view: tuple[float, float, float, float] = (-20.0, -2.0, 20.0, 28.0), **params: Any):
    """Decorator registering ``builder(world, **params) -> SceneInfo`` under ``name``."""

    def register(builder: Callable[..., SceneInfo]) -> Callable[..., SceneInfo]:
        SCENES[name] = Scene(name, description, builder, steps, view, dict(params))
        return builder

    return register


def get_scene(name: str) -> Scene:
    _load(name)
    try:
        return SCENES[name]
    except KeyError:
        raise ValueError(f"unknown scene {name!r}; known scenes: {', '.join(sorted(SCENES))}") from None


def step_scene(world, info: SceneInfo, step: int, dt: float = 1.0 / 60.0) -> None:
    """Take step number ``step`` (0-based) of a built scene: its hook first, then the step."""
    if info is not None and info.update is not None:
        info.update(world, step)
    world.step(dt)


def build_scene(world, name: str, **params: Any) -> SceneInfo:
    """Fill ``world`` with the scene ``name``; ``params`` override the scene's defaults."""
    sc = get_scene(name)
    return sc.builder(world, **{**sc.params, **params})


_MODULES = ("standard", "joints", "stress", "machines", "terrain", "fuzz")
"""The modules of scenes, the most used first."""


def _load(name: str | None = None) -> None:
    """Import the modules of scenes (which runs their ``@scene`` decorators) until ``name`` is
    registered; all of them where ``name`` is None or no module has it. A warm ``pyramid_20``
    imports ``standard`` alone: the five others were ~4 ms of CPU at load 12 (2026-12-01)."""
    from importlib import import_module
    for module in _MODULES:
        if name in SCENES:
            return
        import_module(f".{module}", __name__)
