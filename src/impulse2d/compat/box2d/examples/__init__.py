"""Example programs for pybox2d's testbed framework, written for this layer from pybox2d's
list of examples (each a :class:`~impulse2d.compat.box2d.framework.Framework` subclass, as a
pybox2d program would be). ``python -m impulse2d.compat.box2d.examples [NAME]`` runs one (a
chooser when no name is given; ``--list``, and ``--frames N --out x.png`` headless).

:data:`EXAMPLES` maps each name to ``"module:Class"`` here; :func:`load` imports the class.
"""

from __future__ import annotations

import importlib
import importlib.util

__all__ = ["EXAMPLES", "load", "names"]

EXAMPLES = {
    "vertical_stack": "vertical_stack:VerticalStack",
    "pyramid": "pyramid:Pyramid",
    "tiles": "tiles:Tiles",
    "theo_jansen": "theo_jansen:TheoJansen",
    "tumbler": "tumbler:Tumbler",
    "bridge": "bridge:Bridge",
    "chain": "chain:Chain",
    "rope": "rope:Rope",
    "pulley": "pulley:Pulley",
    "gears": "gears:Gears",
    "web": "web:Web",
    "car": "car:Car",
    "varying_friction": "varying_friction:VaryingFriction",
    "varying_restitution": "varying_restitution:VaryingRestitution",
    "apply_force": "apply_force:ApplyForce",
    "body_types": "body_types:BodyTypes",
    "cantilever": "cantilever:Cantilever",
    "breakable": "breakable:Breakable",
    "character_collision": "character_collision:CharacterCollision",
    "collision_filtering": "collision_filtering:CollisionFiltering",
    "collision_processing": "collision_processing:CollisionProcessing",
    "confined": "confined:Confined",
    "edge_shapes": "edge_shapes:EdgeShapes",
    "mobile": "mobile:Mobile",
    "one_sided_platform": "one_sided_platform:OneSidedPlatform",
    "raycast": "raycast:Raycast",
}


def names() -> list[str]:
    """The examples that exist (every module of :data:`EXAMPLES` that is present)."""
    return [n for n, target in EXAMPLES.items()
            if importlib.util.find_spec(f"{__name__}.{target.split(':')[0]}") is not None]


def load(name: str):
    """The example class called ``name``; ValueError naming the known ones."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    if name not in EXAMPLES:
        raise ValueError(f"unknown example {name!r}; known: {', '.join(names())}")
    module, cls = EXAMPLES[name].split(":")
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)
