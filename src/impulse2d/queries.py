"""World queries: ray casts (nearest, all, with a callback, thousands at once), box and point
queries, shape casts and overlaps. ``World`` hands its query methods to this module.

Queries see the shapes where they are now (between steps too, after bodies were moved by hand)
and change nothing in the world. Each takes an optional ``filter``: a :class:`QueryFilter`, or
None for the default (category 1, every mask bit: every shape whose mask has bit 1, as in
Box2D); a shape is seen when ``shape.category & filter.mask`` and ``shape.mask &
filter.category`` are both non-zero. Rays do not see sensor shapes; box and point queries do.

Every query walks the grids of the shapes' boxes (``_collision/query_index.py``): the shapes of
static bodies, kept until a shape is added or destroyed or a static body moved or changed type,
and the others, binned again at the first query after a step or a set position or angle. The
kernels are in ``_collision/shape_queries.py`` (the walks) and ``_collision/raycast.py`` (one
ray against one shape, exactly). A single query is a Python call
of a few hundred nanoseconds around one compiled call that unboxes integers and floats only
(the index is passed by address): points given as tuples (or ``Vec2``) of floats skip the
Python validation, the kernel checking that the numbers are finite and in range (anything
else, and any number the kernel refuses, goes through the full validation, which words the
error), and the results are built without the NamedTuples' Python-level constructors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from . import _validate
from ._collision.query_index import QueryIndex
from ._collision.shape_queries import (cast_rays, cast_shape, every_hit, every_hit_rows,
                                      nearest_hit, nearest_hits, overlapping_shapes,
                                      shapes_at_point, shapes_in_box)
from ._core.jit import DirectCall
from .constants import HUGE
from .shapes import ALL_BITS, Shape
from .types import Vec2

_INF = float("inf")

_QUERY_SECONDS = 3.0
"""Compile time of a query kernel on the 2-core CI machine (for the first-run notice)."""

_nearest = DirectCall(nearest_hit, "ray casts", _QUERY_SECONDS)
_every = DirectCall(every_hit, "ray casts (every hit)", _QUERY_SECONDS)
_every_rows = DirectCall(every_hit_rows, "ray casts (every hit, as rows)", _QUERY_SECONDS)
_nearest_all = DirectCall(nearest_hits, "ray casts (with a callback)", _QUERY_SECONDS)
_in_box = DirectCall(shapes_in_box, "box queries", _QUERY_SECONDS)
_at_point = DirectCall(shapes_at_point, "point queries", _QUERY_SECONDS)
_cast_rays = DirectCall(cast_rays, "batched ray casts", _QUERY_SECONDS)
_cast_shape = DirectCall(cast_shape, "shape casts", _QUERY_SECONDS)
_overlapping = DirectCall(overlapping_shapes, "shape overlap queries", _QUERY_SECONDS)


def _index(world) -> QueryIndex:
    """The world's query index: if a change dropped it, the spare refreshed (its moving shapes
    binned again) while it holds, else one built anew."""
    index = world._query_index
    if index is None:
        spare = world._query_spare
        if (spare is not None and spare.shapes is world._shapes and spare.bodies is world._bodies
                and spare.handles is world._shape_handles and spare.refresh()):
            index = spare
        else:
            index = world._query_spare = QueryIndex(world._shapes, world._bodies,
                                                    world._shape_handles, RayHit, Vec2)
        world._query_index = index
    return index


@dataclass(frozen=True)
class QueryFilter:
    """Which shapes a query sees: those whose category meets ``mask`` and whose mask meets
    ``category`` (bit sets, as the shapes' own filter)."""

    category: int = 0x1
    mask: int = ALL_BITS

    def __post_init__(self):
        object.__setattr__(self, "category", _validate.bits(self.category, "filter.category"))
        object.__setattr__(self, "mask", _validate.bits(self.mask, "filter.mask"))
        object.__setattr__(self, "_bits", (_int64(self.category), _int64(self.mask)))


def _int64(bits: int) -> int:
    """The int64 with the same 64 bits: what the kernels take (they read it as uint64), since
    a Python int is passed to compiled code faster than a NumPy uint64 (0.1 us each)."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


DEFAULT_FILTER = QueryFilter()
_DEFAULT_BITS = DEFAULT_FILTER._bits
_CATEGORY, _MASK = _DEFAULT_BITS


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


def _ray(origin, translation) -> tuple[float, float, float, float]:
    """The ray's four numbers, validated in full (a number not finite or beyond +-HUGE
    raises, naming the argument)."""
    o = _validate.vec2(origin, "origin")
    d = _validate.vec2(translation, "translation")
    return float(o[0]), float(o[1]), float(d[0]), float(d[1])


def _xy(value, name: str) -> tuple[float, float]:
    """A point's two numbers for a kernel that checks them itself (finite, within +-HUGE): a
    tuple or ``Vec2`` of two floats as it is, anything else validated in full here."""
    if (type(value) is tuple or type(value) is Vec2) and len(value) == 2:
        x, y = value
        if type(x) is float and type(y) is float:
            return x, y
    x, y = _validate.vec2(value, name)
    return float(x), float(y)


def ray_cast(world, origin, translation, filter=None) -> RayHit | None:
    """The nearest shape the ray ``origin`` -> ``origin + translation`` enters, or None. A ray
    starting inside a shape does not see it; of two shapes hit at the same fraction, the one
    created first (the lower :attr:`~impulse2d.Shape.index`) is reported."""
    # The common call (two tuples of floats, the default filter, the grid built) makes no
    # helper call: the kernel checks that the numbers are finite and in range and returns
    # the RayHit itself (_collision/query_results.py), None, or False when it refused them.
    if type(origin) is tuple and type(translation) is tuple and filter is None:
        try:
            ox, oy = origin
            dx, dy = translation
        except ValueError:  # not pairs
            return _ray_cast(world, origin, translation, filter)
        if type(ox) is float and type(oy) is float and type(dx) is float and type(dy) is float:
            index = world._query_index
            if index is not None:
                hit = _nearest.entry(index.address, ox, oy, dx, dy, _CATEGORY, _MASK)
                if hit is not False:
                    return hit
    return _ray_cast(world, origin, translation, filter)


def _ray_cast(world, origin, translation, filter) -> RayHit | None:
    """:func:`ray_cast` for any arguments (validated in full unless floats), and the index
    built if a change dropped it."""
    ox, oy, dx, dy, category, mask = _ray_args(origin, translation, filter)
    hit = _nearest.entry(_index(world).address, ox, oy, dx, dy, category, mask)
    if hit is False:
        _ray(origin, translation)  # raises: a number is not finite or out of range
        return None
    return hit


def _hits(world, ox, oy, dx, dy, category, mask, limit):
    """Every shape the ray ``(ox, oy) + t (dx, dy)``, ``t`` in [0, 1], enters, nearest first, as
    a list of ``RayHit``; None unless the four numbers are finite and within +-``limit``."""
    index = world._query_index
    if index is None:
        index = _index(world)
    return _every.entry(index.address, ox, oy, dx, dy, category, mask, limit)


def _ray_hits(world, ox, oy, dx, dy, category, mask):
    """Every shape row the ray ``(ox, oy) + t (dx, dy)``, ``t`` in [0, 1], enters, nearest first,
    as lists of rows, fractions and ``(nx, ny)`` normals (tuples), those :func:`ray_cast_all`
    lists; finite numbers only. What :mod:`impulse2d.compat.box2d`'s ray cast walks: boxed as
    plain values by the kernel (a BipedalWalker lidar ray, about 4 hits: 1.0 us where the
    ``RayHit`` list, taken apart, cost 2.5)."""
    index = world._query_index
    if index is None:
        index = _index(world)
    hits = _every_rows.entry(index.address, ox, oy, dx, dy, category, mask)
    if hits is None:
        raise ValueError("the ray's numbers must be finite")
    return hits


def _ray_args(origin, translation, filter):
    """The ray's four numbers (floats in tuples or ``Vec2`` as given, for a kernel that checks
    them; anything else validated in full) and the filter's bits."""
    if (type(origin) is tuple or type(origin) is Vec2) and (
            type(translation) is tuple or type(translation) is Vec2) and len(origin) == 2 == len(
            translation):
        ox, oy = origin
        dx, dy = translation
        if not (type(ox) is float and type(oy) is float and type(dx) is float
                and type(dy) is float):
            ox, oy, dx, dy = _ray(origin, translation)
    else:
        ox, oy, dx, dy = _ray(origin, translation)
    if filter is None:
        return ox, oy, dx, dy, _CATEGORY, _MASK
    category, mask = _filter(filter)._bits
    return ox, oy, dx, dy, category, mask


def ray_cast_all(world, origin, translation, filter=None) -> list[RayHit]:
    """Every shape the ray enters, nearest first (ties: the lower index first)."""
    hits = _hits(world, *_ray_args(origin, translation, filter), HUGE)
    if hits is None:
        _ray(origin, translation)  # raises: a number is not finite or out of range
    return hits


def ray_cast_callback(world, origin, translation, callback: Callable, filter=None) -> None:
    """Box2D's ray cast with a callback: ``callback(shape, point, normal, fraction)`` is called
    for the shapes the ray enters, nearest first, and returns what to do next: a negative
    number ignores this shape and goes on, 0 stops, a fraction in (0, 1) clips the ray there
    (only nearer hits are reported after it), 1 goes on unclipped. So returning the fraction
    keeps the nearest hit, returning 1 visits every hit (those :func:`ray_cast_all` lists).
    A callback may query the world; one that changes it (moves, adds or destroys shapes) is
    shown the hits beyond the nearest as the world has become."""
    if not callable(callback):
        raise TypeError("callback must be callable")
    if type(origin) is tuple and type(translation) is tuple and filter is None and len(
            origin) == 2 == len(translation):  # the common call: no helper call
        ox, oy = origin
        dx, dy = translation
        category = _CATEGORY
        mask = _MASK
        if not (type(ox) is float and type(oy) is float and type(dx) is float
                and type(dy) is float):
            ox, oy, dx, dy, category, mask = _ray_args(origin, translation, filter)
    else:
        ox, oy, dx, dy, category, mask = _ray_args(origin, translation, filter)
    # The nearest hit (and any at exactly its fraction) first: a callback that keeps the
    # nearest (it returns the fraction) or stops needs no other, and finding it stops the
    # walk there. The rest, only if the callback asks for them.
    index = world._query_index
    if index is None:
        index = _index(world)
    hits = _nearest_all.entry(index.address, ox, oy, dx, dy, category, mask)
    if hits is None:
        _ray(origin, translation)  # raises: a number is not finite or out of range
        return
    limit = 1.0
    nearest = None
    while hits:
        for shape, point, normal, fraction in hits:
            if fraction > limit:
                return
            answer = callback(shape, point, normal, fraction)
            if type(answer) is not float:
                answer = float(answer)
            if answer != answer:  # NaN
                raise ValueError("the ray cast callback returned NaN")
            if answer == 0.0:
                return
            if 0.0 < answer < limit:
                limit = answer
        if nearest is not None:
            return
        # Every hit at the nearest fraction was reported; the farther ones, if the ray still
        # reaches beyond it.
        nearest = hits[0][3]
        if limit <= nearest:
            return
        hits = [hit for hit in _hits(world, ox, oy, dx, dy, category, mask, HUGE)
                if hit[3] > nearest]


def ray_cast_many(world, origins, translations, filter=None) -> RayBatch:
    """The nearest hit of each of N rays (``origins`` and ``translations``: (N, 2) arrays, or
    one translation (2,) for all), in one call through the same grid as :func:`ray_cast`, so
    equal to it ray for ray and bit for bit."""
    category, mask = _filter(filter)._bits
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
    _cast_rays.entry(_index(world).address, o, d, 1.0, category, mask, out.fraction,
                     out.point, out.normal, out.shape)
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
    """The shapes whose bounding box (as they are now) overlaps the box ``lower``-``upper``,
    in index order."""
    lx, ly = _xy(lower, "lower")
    hx, hy = _xy(upper, "upper")
    category, mask = _DEFAULT_BITS if filter is None else _filter(filter)._bits
    index = world._query_index
    if index is None:
        index = _index(world)
    shapes = _in_box.entry(index.address, lx, ly, hx, hy, category, mask)
    if shapes is None:  # a number not finite or out of range, or lower above upper
        lo = _validate.vec2(lower, "lower")
        hi = _validate.vec2(upper, "upper")
        raise ValueError(f"lower {tuple(lo)} must not exceed upper {tuple(hi)}")
    return shapes


def query_point(world, point, filter=None) -> list:
    """The shapes that contain ``point`` (their boundary included), in index order."""
    # The common call (a tuple of floats, the default filter, the grid built) makes no helper
    # call: the kernel checks the numbers and returns the list, or None if it refused them.
    if type(point) is tuple and filter is None:
        try:
            x, y = point
        except ValueError:  # not a pair
            return _query_point(world, point, filter)
        if type(x) is float and type(y) is float:
            index = world._query_index
            if index is not None:
                shapes = _at_point.entry(index.address, x, y, _CATEGORY, _MASK)
                if shapes is not None:
                    return shapes
    return _query_point(world, point, filter)


def _query_point(world, point, filter) -> list:
    """:func:`query_point` for any arguments, and the index built if a change dropped it."""
    category, mask = _DEFAULT_BITS if filter is None else _filter(filter)._bits
    x, y = _xy(point, "point")
    shapes = _at_point.entry(_index(world).address, x, y, category, mask)
    if shapes is None:
        _validate.vec2(point, "point")  # raises: not finite or out of range
    return shapes


def _own_bits(world, row: int, filter) -> tuple[int, int]:
    """The bits of ``filter``, or by default of the shape in ``row``'s own filter."""
    if filter is not None:
        return _filter(filter)._bits
    shapes = world._shapes
    return _int64(int(shapes.category[row])), _int64(int(shapes.mask[row]))


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
    own category and mask; sensors are not hit. None if nothing is in the way; of shapes
    touched at the same fraction, the lowest index."""
    row = _moving(world, shape)
    category, mask = _own_bits(world, row, filter)
    tx, ty = _xy(translation, "translation")
    index = world._query_index
    if index is None:
        index = _index(world)
    hit = _cast_shape.entry(index.address, row, tx, ty, category, mask)
    if hit is False:
        _validate.vec2(translation, "translation")  # raises: not finite or out of range
        return None
    return hit


def query_shape(world, shape, filter=None) -> list:
    """The shapes of other bodies that overlap ``shape`` where it is now (touching is not
    overlapping; sensors included), in index order. ``filter`` defaults to the shape's own."""
    row = _moving(world, shape)
    category, mask = _own_bits(world, row, filter)
    index = world._query_index
    if index is None:
        index = _index(world)
    return _overlapping.entry(index.address, row, category, mask)


__all__ = ["QueryFilter", "RayHit", "RayBatch", "ray_cast", "ray_cast_all", "ray_cast_callback",
           "ray_cast_many", "query_aabb", "query_point", "shape_cast", "query_shape"]
