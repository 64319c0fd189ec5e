"""World queries: ray casts (nearest, all, with a callback, thousands at once), box and point
queries. ``World`` hands its query methods to this module.

Queries see the shapes where they are now (between steps too, after bodies were moved by hand)
and change nothing in the world. Each takes an optional ``filter``: a :class:`QueryFilter`, or
None for the default (category 1, every mask bit: every shape whose mask has bit 1, as in
Box2D); a shape is seen when ``shape.category & filter.mask`` and ``shape.mask &
filter.category`` are both non-zero. Rays do not see sensor shapes; box and point queries do.

The kernels are in ``_collision/raycast.py`` (one ray against one shape, exactly) and
``_collision/shape_queries.py`` (every shape, and the grid the batched rays walk through).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from . import _validate
from ._collision.shape_queries import (cast_rays, cast_shape, overlapping_shapes, ray_hits,
                                      shapes_at_point, shapes_in_box)
from ._core.jit import DirectCall
from .constants import HUGE
from .shapes import ALL_BITS, Shape
from .types import Vec2

_QUERY_SECONDS = 3.0
"""Compile time of a query kernel on the 2-core CI machine (for the first-run notice)."""

_ray_hits = DirectCall(ray_hits, "ray casts", _QUERY_SECONDS)
_in_box = DirectCall(shapes_in_box, "box queries", _QUERY_SECONDS)
_at_point = DirectCall(shapes_at_point, "point queries", _QUERY_SECONDS)
_cast_rays = DirectCall(cast_rays, "batched ray casts", _QUERY_SECONDS)
_cast_shape = DirectCall(cast_shape, "shape casts", _QUERY_SECONDS)
_overlapping = DirectCall(overlapping_shapes, "shape overlap queries", _QUERY_SECONDS)


@dataclass(frozen=True)
class QueryFilter:
    """Which shapes a query sees: those whose category meets ``mask`` and whose mask meets
    ``category`` (bit sets, as the shapes' own filter)."""

    category: int = 0x1
    mask: int = ALL_BITS

    def __post_init__(self):
        object.__setattr__(self, "category", _validate.bits(self.category, "filter.category"))
        object.__setattr__(self, "mask", _validate.bits(self.mask, "filter.mask"))


DEFAULT_FILTER = QueryFilter()


class RayHit(NamedTuple):
    """Where a ray enters a shape: the shape, the world point, the outward unit normal there,
    and the fraction of the ray's translation travelled (0 at the origin, 1 at its end)."""

    shape: object
    point: Vec2
    normal: Vec2
    fraction: float


class RayBatch(NamedTuple):
    """The nearest hit of each ray of :func:`ray_cast_many`, as arrays: ``fraction`` (N,),
    ``point`` (N, 2), ``normal`` (N, 2) and ``shape`` (N,) the hit shape's
    :attr:`~impulse2d.Shape.index`; where a ray hits nothing, fraction 1, point the ray's end,
    normal (0, 0) and shape -1."""

    fraction: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    shape: np.ndarray


def _filter(filter) -> QueryFilter:
    if filter is None:
        return DEFAULT_FILTER
    if not isinstance(filter, QueryFilter):
        raise TypeError(f"filter must be a QueryFilter or None, got {type(filter).__name__}")
    return filter


def _ray(origin, translation):
    o = _validate.vec2(origin, "origin")
    d = _validate.vec2(translation, "translation")
    return float(o[0]), float(o[1]), float(d[0]), float(d[1])


def _hits(world, origin, translation, filter, closest: bool) -> list[RayHit]:
    f = _filter(filter)
    ox, oy, dx, dy = _ray(origin, translation)
    rows, fractions, normals = _ray_hits(world._shapes, world._bodies, ox, oy, dx, dy, 1.0,
                                         np.uint64(f.category), np.uint64(f.mask), closest)
    handles = world._shape_handles
    return [RayHit(handles[int(s)], Vec2(float(ox + t * dx), float(oy + t * dy)),
                   Vec2(float(n[0]), float(n[1])), float(t))
            for s, t, n in zip(rows.tolist(), fractions.tolist(), normals)]


def ray_cast(world, origin, translation, filter=None) -> RayHit | None:
    """The nearest shape the ray ``origin`` -> ``origin + translation`` enters, or None. A ray
    starting inside a shape does not see it; of two shapes hit at the same fraction, the one
    created first (the lower :attr:`~impulse2d.Shape.index`) is reported."""
    hits = _hits(world, origin, translation, filter, True)
    return hits[0] if hits else None


def ray_cast_all(world, origin, translation, filter=None) -> list[RayHit]:
    """Every shape the ray enters, nearest first."""
    return _hits(world, origin, translation, filter, False)


def ray_cast_callback(world, origin, translation, callback: Callable, filter=None) -> None:
    """Box2D's ray cast with a callback: ``callback(shape, point, normal, fraction)`` is called
    for the shapes the ray enters, nearest first, and returns what to do next: a negative
    number ignores this shape and goes on, 0 stops, a fraction in (0, 1) clips the ray there
    (only nearer hits are reported after it), 1 goes on unclipped. So returning the fraction
    keeps the nearest hit, returning 1 visits every hit."""
    if not callable(callback):
        raise TypeError("callback must be callable")
    limit = 1.0
    for hit in _hits(world, origin, translation, filter, False):
        if hit.fraction > limit:
            break
        answer = float(callback(hit.shape, hit.point, hit.normal, hit.fraction))
        if answer != answer:  # NaN
            raise ValueError("the ray cast callback returned NaN")
        if answer < 0.0:
            continue
        if answer == 0.0:
            return
        limit = min(limit, answer)


def ray_cast_many(world, origins, translations, filter=None) -> RayBatch:
    """The nearest hit of each of N rays (``origins`` and ``translations``: (N, 2) arrays, or
    one translation (2,) for all), in one call: the shapes are binned into a grid once and each
    ray walks through it. Equal, ray for ray and bit for bit, to :func:`ray_cast`."""
    f = _filter(filter)
    o = _points(origins, "origins")
    d = np.asarray(translations, dtype=np.float64)
    if d.shape == (2,):
        d = np.broadcast_to(d, o.shape)
    d = _points(d, "translations")
    if d.shape != o.shape:
        raise ValueError(f"translations must have the shape of origins {o.shape} or (2,), "
                         f"got {d.shape}")
    n = o.shape[0]
    out = RayBatch(np.empty(n), np.empty((n, 2)), np.empty((n, 2)), np.empty(n, np.int64))
    _cast_rays(world._shapes, world._bodies, o, d, 1.0, np.uint64(f.category),
               np.uint64(f.mask), out.fraction, out.point, out.normal, out.shape)
    return out


def _points(value, name: str) -> np.ndarray:
    try:
        a = np.ascontiguousarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (N, 2) array of numbers") from None
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(f"{name} must be an (N, 2) array, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must be finite")
    if a.size and np.abs(a).max() > HUGE:
        raise ValueError(f"{name} must lie within {HUGE:g} m of the origin; check units")
    return a


def query_aabb(world, lower, upper, filter=None) -> list:
    """The shapes whose bounding box (as they are now) overlaps the box ``lower``-``upper``."""
    f = _filter(filter)
    lo = _validate.vec2(lower, "lower")
    hi = _validate.vec2(upper, "upper")
    if lo[0] > hi[0] or lo[1] > hi[1]:
        raise ValueError(f"lower {tuple(lo)} must not exceed upper {tuple(hi)}")
    rows = _in_box(world._shapes, world._bodies, float(lo[0]), float(lo[1]), float(hi[0]),
                   float(hi[1]), np.uint64(f.category), np.uint64(f.mask))
    return [world._shape_handles[int(s)] for s in rows]


def query_point(world, point, filter=None) -> list:
    """The shapes that contain ``point`` (their boundary included)."""
    f = _filter(filter)
    p = _validate.vec2(point, "point")
    rows = _at_point(world._shapes, world._bodies, float(p[0]), float(p[1]),
                     np.uint64(f.category), np.uint64(f.mask))
    return [world._shape_handles[int(s)] for s in rows]


def _own_filter(shape, filter) -> QueryFilter:
    if filter is not None:
        return _filter(filter)
    row = shape._row()
    shapes = shape._world._shapes
    return QueryFilter(int(shapes.category[row]), int(shapes.mask[row]))


def _moving(world, shape):
    if not isinstance(shape, Shape):
        raise TypeError(f"shape must be a Shape, got {type(shape).__name__}")
    if shape._world is not world:
        raise ValueError("shape belongs to another world")
    return shape._row()


def shape_cast(world, shape, translation, filter=None) -> RayHit | None:
    """The first shape (of another body) that ``shape`` touches when translated by
    ``translation`` from where it is, as a ``RayHit``: the hit shape, the contact point on its
    surface, its outward normal there, and the fraction of the translation at the time of
    impact (exact: a ray cast against the Minkowski difference). A shape overlapping another
    at the start hits it at fraction 0 with a zero normal. ``filter`` defaults to the shape's
    own category and mask; sensors are not hit. None if nothing is in the way."""
    row = _moving(world, shape)
    f = _own_filter(shape, filter)
    d = _validate.vec2(translation, "translation")
    hit_row, fraction, nx, ny, px, py = _cast_shape(
        world._shapes, world._bodies, row, float(d[0]), float(d[1]), 1.0,
        np.uint64(f.category), np.uint64(f.mask))
    if hit_row < 0:
        return None
    return RayHit(world._shape_handles[int(hit_row)], Vec2(float(px), float(py)),
                  Vec2(float(nx), float(ny)), float(fraction))


def query_shape(world, shape, filter=None) -> list:
    """The shapes of other bodies that overlap ``shape`` where it is now (touching is not
    overlapping; sensors included). ``filter`` defaults to the shape's own."""
    row = _moving(world, shape)
    f = _own_filter(shape, filter)
    rows = _overlapping(world._shapes, world._bodies, row, np.uint64(f.category),
                        np.uint64(f.mask))
    return [world._shape_handles[int(s)] for s in rows]


__all__ = ["QueryFilter", "RayHit", "RayBatch", "ray_cast", "ray_cast_all", "ray_cast_callback",
           "ray_cast_many", "query_aabb", "query_point", "shape_cast", "query_shape"]
