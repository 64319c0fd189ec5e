"""The testbed's scene browser: every scene of :mod:`impulse2d.scenes`, grouped by the module
that defines it, plus Gymnasium's Box2D worlds run through :mod:`impulse2d.compat.box2d` and
the pybox2d example programs of :mod:`impulse2d.compat.box2d.examples` (group ``pybox2d``,
names ``pybox2d_<example>``: stepped by their own ``Step``, drawn by the testbed; their own
keys work in their own window, ``python -m impulse2d.compat.box2d.examples``).

An :class:`Entry` names something the testbed can open; :func:`open_entry` builds it into a
:class:`~impulse2d.testbed.panes.Pane` (a world and what steps it).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from .. import scenes as _scenes

__all__ = ["Entry", "entries", "find", "matching", "GROUP_ORDER"]

# Browser order of the groups; a group not listed here comes after them, by name.
GROUP_ORDER = ("standard", "stress", "joints", "machines", "terrain", "fuzz", "gymnasium",
               "pybox2d")
# What a pybox2d example shows first: its framework's view (48 m high about (0, 20)) at 16:9
EXAMPLE_VIEW = (-42.7, -4.0, 42.7, 44.0)

# Gymnasium's Box2D environments (their ids) and the view of each in metres (x0, y0, x1, y1):
# LunarLander's 20 x 13.3 m screen (VIEWPORT_W / SCALE), BipedalWalker's first screen and
# CarRacing's start of track (its car starts near the origin, the track spans +-300 m).
GYM_ENVS = {
    "LunarLander": ("LunarLander-v3", (0.0, 0.0, 20.0, 13.3)),
    "BipedalWalker": ("BipedalWalker-v3", (0.0, 0.0, 20.0, 13.3)),
    "CarRacing": ("CarRacing-v3", (-40.0, -30.0, 40.0, 30.0)),
}


@dataclass(frozen=True)
class Entry:
    name: str
    group: str
    description: str
    view: tuple[float, float, float, float]   # x0, y0, x1, y1 in m: what the camera fits first
    gym_id: str | None = None                 # a Gymnasium environment id, or None for a scene
    example: str | None = None                # a pybox2d example's name (compat.box2d.examples)

    @property
    def label(self) -> str:
        return f"{self.group}/{self.name}"


def gym_available() -> bool:
    """Whether Gymnasium is installed (its Box2D environments join the browser)."""
    return importlib.util.find_spec("gymnasium") is not None


def entries() -> list[Entry]:
    """Every scene the browser lists, grouped (:data:`GROUP_ORDER`), in registration order
    within a group."""
    _scenes._load()
    found = []
    for sc in _scenes.SCENES.values():
        group = sc.builder.__module__.rsplit(".", 1)[-1]
        found.append(Entry(sc.name, group, sc.description, tuple(sc.view)))
    if gym_available():
        for name, (gym_id, view) in GYM_ENVS.items():
            found.append(Entry(name, "gymnasium", f"Gymnasium's {gym_id} on impulse2d "
                               "(impulse2d.compat.box2d)", view, gym_id))
    from ..compat.box2d.examples import load, names
    for name in names():
        cls = load(name)
        found.append(Entry(f"pybox2d_{name}", "pybox2d", f"pybox2d's example {cls.name!r} on "
                           f"the layer: {cls.description}", EXAMPLE_VIEW, example=name))
    rank = {g: k for k, g in enumerate(GROUP_ORDER)}
    order = {e.name: k for k, e in enumerate(found)}
    return sorted(found, key=lambda e: (rank.get(e.group, len(rank)), e.group, order[e.name]))


def find(name: str) -> Entry:
    """The entry called ``name`` (or ``group/name``); ValueError naming the known ones."""
    if not isinstance(name, str):
        raise TypeError(f"scene must be a str, got {type(name).__name__}")
    listed = entries()
    for e in listed:
        if name in (e.name, e.label):
            return e
    raise ValueError(f"unknown scene {name!r}; known scenes: {', '.join(e.name for e in listed)}")


def matching(query: str, listed: list[Entry] | None = None) -> list[Entry]:
    """The entries whose name, group or description contain every word of ``query``
    (case-insensitive): the browser's type-to-filter."""
    listed = entries() if listed is None else listed
    words = query.lower().split()
    return [e for e in listed
            if all(w in f"{e.label} {e.description}".lower() for w in words)]
