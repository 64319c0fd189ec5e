"""The engine's length tolerances in the world's unit (``WorldSettings.length_units_per_meter``).

The tolerances of :mod:`impulse2d.constants` are in metres, chosen (as Box2D's) for objects of
0.1 m to 10 m. A world sized in other units (pixels, centimetres) sets
``length_units_per_meter``, and every tolerance the step uses is that many units: Box2D v3's
``b2SetLengthUnitsPerMeter``, which scales its linear slop, speculative distance, AABB margin,
``B2_HUGE`` and the world definition's default speeds the same way.

The step reads them from one small array, :func:`length_tolerances`' result, which the world
keeps in its stores (``world._lengths``, the field ``lengths`` of
:data:`.world_ref.WORLD_STORES`) and writes again whenever the settings change: the kernels take
the numbers at run time instead of compiling them in, so one compiled step serves every unit.
At the default, 1.0, each entry is its constant times 1.0, the same float, so a metre world's
arithmetic is bit for bit what it was with the constants compiled in (no fastmath: the compiler
may not fold or re-associate differently).

Tolerances that are fixed multiples of these are derived in their kernels from the length they
are given (the time of impact's tolerance, a quarter of its target gap; the manifold's face
tolerances, :data:`impulse2d._collision.manifold.TOLERANCE_SHARE` of the speculative distance),
so that they follow the unit too.
"""

from __future__ import annotations

import numpy as np

from ..constants import AABB_MARGIN, LINEAR_SLOP, MAX_LINEAR_CORRECTION, SPECULATIVE_DISTANCE

SLOP, SPECULATIVE, MARGIN, MAX_CORRECTION = range(4)
"""Slots of the lengths array: the linear slop, the speculative distance, the fat boxes' margin,
the largest position correction of one nonlinear Gauss-Seidel iteration."""

_METRES = (LINEAR_SLOP, SPECULATIVE_DISTANCE, AABB_MARGIN, MAX_LINEAR_CORRECTION)


def length_tolerances(units: float) -> np.ndarray:
    """The tolerances of the slots above, each ``units`` times its value in metres."""
    return np.array([value * units for value in _METRES], dtype=np.float64)


def write_lengths(world) -> None:
    """Bring ``world``'s lengths array to its settings' unit (in place: the stores' reference
    shares the array)."""
    world._lengths[:] = length_tolerances(world._settings.length_units_per_meter)


__all__ = ["MARGIN", "MAX_CORRECTION", "SLOP", "SPECULATIVE", "length_tolerances",
           "write_lengths"]
