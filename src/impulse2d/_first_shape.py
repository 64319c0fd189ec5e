"""What a dynamic body's first shape gives the body, kept per geometry object.

A dynamic body with one shape has the mass, centre of mass and inertia of that shape and the
extents of that shape about its centre: a function of the shape's geometry, its density and
whether the body turns (``fixed_rotation``) alone. ``World._attach_shape`` works them out with
the mass kernel, the checks, :meth:`World._body_mass`'s sums and the extents' passes over the
vertices (about 15 us of a body's 60); the pybox2d layer hands it the very same geometry
object for every polygon of the same vertices (``compat._b2shapes._polygon_geometry``:
LunarLander's lander and legs, made again each reset), so the second body of a geometry takes
the values the first one computed, bit for bit the same floats (issue 31 item 8).

Entries are keyed by the geometry object's identity and hold it (so its id cannot be taken by
another object while the entry lives); a geometry is read only once made (the layer's and the
engine's alike), so the values stay its own. At most :data:`_MAX` entries (cleared when full:
the engine's own API makes a new geometry object per shape, which is never met again).
"""

from __future__ import annotations

from math import copysign

_MAX = 256

_KEPT: dict = {}
"""id(geometry) -> (geometry, density, fixed rotation, the body's (mass, centre, inertia),
(extent, min_extent))."""


def lookup(geom, density: float, fixed: bool):
    """``(props, extents)`` kept for a dynamic body whose only shape is ``geom`` of
    ``density`` (``fixed``: its rotation fixed), or None."""
    entry = _KEPT.get(id(geom))
    if entry is None or entry[0] is not geom or entry[2] is not fixed:
        return None
    d = entry[1]
    # the same float (-0.0 kept apart from +0.0, which compare equal)
    if d != density or copysign(1.0, d) != copysign(1.0, density):
        return None
    return entry[3], entry[4]


def keep(geom, density: float, fixed: bool, props, extents) -> None:
    """Keep what a dynamic body whose only shape is ``geom`` got (``World._attach_shape``)."""
    if type(density) is not float or type(fixed) is not bool:
        return  # (the store's parsed values are plain floats and bools: anything else, skip)
    if len(_KEPT) >= _MAX:
        _KEPT.clear()
    _KEPT[id(geom)] = (geom, density, fixed, props, extents)


def clear() -> None:
    """Forget every entry (tests)."""
    _KEPT.clear()


__all__ = ["clear", "keep", "lookup"]
