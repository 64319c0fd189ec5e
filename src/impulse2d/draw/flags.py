"""What the debug draw shows: one switch per layer (Box2D's ``b2DebugDraw`` flags, by name)."""

from __future__ import annotations

import dataclasses
import math

__all__ = ["Flags"]


@dataclasses.dataclass
class Flags:
    """Each layer on or off.

    * ``shapes``: every shape, filled; ``sleep`` picks the fill (see :mod:`impulse2d.draw.colors`).
    * ``joints``: anchors, the lines between them and the bodies, axes and limits.
    * ``aabbs``: every shape's bounding box.
    * ``contacts``: manifold points, new ones (not in the previous frame the drawer drew) green,
      persisting ones blue, red when there was no frame before (see ``ContactMemory``).
    * ``normals``: contact normals, from shape A to shape B.
    * ``impulses`` / ``friction``: the last step's normal / friction impulses as arrows whose
      length is the impulse times ``impulse_scale``.
    * ``islands``: one colour per island (fills), and each island's bounding box.
    * ``sleep``: Box2D's colour rules for body state (awake, asleep, static, kinematic, bullet,
      sensor); off: one colour per body.
    * ``centers``: each dynamic body's centre of mass and axes.
    * ``velocities``: the velocity of each moving body's centre of mass, as an arrow of
      ``velocity_scale`` seconds of travel.
    * ``graph_colors``: contact points in the colour of the constraint-graph colour the solver
      put their contact in (contacts with a static or kinematic body take the high colours,
      the overflow is drawn black).

    ``impulse_scale`` (m per N s; None: the largest impulse in view is drawn 40 px long) and
    ``velocity_scale`` (s) size the arrows.
    """

    shapes: bool = True
    joints: bool = True
    aabbs: bool = False
    contacts: bool = False
    normals: bool = False
    impulses: bool = False
    friction: bool = False
    islands: bool = False
    sleep: bool = True
    centers: bool = False
    velocities: bool = False
    graph_colors: bool = False
    impulse_scale: float | None = None
    velocity_scale: float = 0.1

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "impulse_scale":
                if value is not None and not (isinstance(value, (int, float)) and not isinstance(value, bool)
                                              and math.isfinite(value) and value > 0):
                    raise ValueError(f"impulse_scale must be None or a positive number, got {value!r}")
            elif f.name == "velocity_scale":
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                        math.isfinite(value) and value > 0):
                    raise ValueError(f"velocity_scale must be a positive number, got {value!r}")
            elif not isinstance(value, bool):
                raise TypeError(f"Flags.{f.name} must be a bool, got {value!r}")

    @classmethod
    def all(cls) -> "Flags":
        """Every layer on (``sleep`` colouring kept, ``islands`` overriding it)."""
        return cls(**{f.name: True for f in dataclasses.fields(cls)
                      if f.name not in ("impulse_scale", "velocity_scale")})

    def replace(self, **changes) -> "Flags":
        return dataclasses.replace(self, **changes)
