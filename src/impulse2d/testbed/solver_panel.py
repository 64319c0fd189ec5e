"""The solver panel's controls: which settings it changes, the values each steps through, and
the key that steps it. Pure logic: the testbed draws the panel and applies the changes to
every pane's world (:meth:`Testbed.configure`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..settings import DIRECT_LEVELS, SOLVERS, WorldSettings

__all__ = ["Control", "CONTROLS", "step_value", "panel_settings", "control"]


@dataclass(frozen=True)
class Control:
    name: str          # the WorldSettings field
    label: str
    values: tuple      # the values a click or a key steps through (booleans: toggled)
    key: str           # the key that steps it forward (shift: backward)
    applies: tuple = ()  # the solvers it matters to (empty: all)


_SOFT = ("soft_step", "soft_step_v31")
_PGS = ("pgs", "pgs_ngs", "pgs_block")
CONTROLS = (
    Control("solver", "solver", SOLVERS, "s"),
    Control("direct_level", "direct level", DIRECT_LEVELS, "d", ("direct",)),
    Control("substeps", "substeps", (1, 2, 4, 8, 16, 32), "u", _SOFT + ("direct",)),
    Control("velocity_iterations", "iterations", (1, 2, 4, 8, 10, 20, 50, 100), "i", _PGS),
    Control("position_iterations", "position iterations", (1, 2, 3, 5, 10, 20), "y",
            ("pgs_ngs", "pgs_block")),
    Control("contact_hertz", "contact hertz", (5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 240.0), "k",
            _SOFT),
    Control("contact_damping_ratio", "contact damping", (0.0, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0),
            "j", _SOFT),
    Control("joint_hertz", "joint hertz", (15.0, 30.0, 60.0, 120.0, 240.0), "g", _SOFT),
    Control("joint_damping_ratio", "joint damping", (0.0, 0.5, 1.0, 2.0, 5.0, 10.0), "h",
            _SOFT),
    Control("warm_starting", "warm starting", (True, False), "w"),
    Control("enable_sleep", "sleeping", (True, False), "z"),
    Control("enable_continuous", "continuous", (True, False), "c"),
)
_BY_NAME = {c.name: c for c in CONTROLS}


def control(name: str) -> Control:
    return _BY_NAME[name]


def step_value(ctrl: Control, current, direction: int = 1):
    """The value after ``current`` in ``ctrl.values`` (``direction`` -1: before it), wrapping;
    a value not in the list goes to the nearest listed one in that direction."""
    values = ctrl.values
    if isinstance(values[0], bool):
        return not current
    if current in values:
        return values[(values.index(current) + direction) % len(values)]
    if isinstance(current, str):
        return values[0]
    ordered = [v for v in values if (v > current if direction > 0 else v < current)]
    if not ordered:
        return values[0] if direction > 0 else values[-1]
    return ordered[0] if direction > 0 else ordered[-1]


def panel_settings(settings: WorldSettings) -> dict:
    """The panel's fields of ``settings`` (what the testbed remembers and replays)."""
    return {c.name: getattr(settings, c.name) for c in CONTROLS}
