"""Chains: smooth one-sided terrain and loops made of segments (``Body.create_chain``).

A chain through points ``p0, p1, ..., pn-1`` is the segments ``p0-p1, p1-p2, ...`` (and
``pn-1-p0`` for a loop), each a shape of type ``ShapeType.CHAIN_SEGMENT`` that knows its two
neighbours' far vertices (its ghost vertices). Bodies slide over the inner vertices without
catching and touch only the chain's front side: the right of the direction of travel of the
points (Box2D's convention). So a counter-clockwise loop keeps bodies outside and a clockwise
loop keeps them inside, and ground running left to right is given from right to left. The
collision rule is in :mod:`impulse2d._collision.chain`.

Segments have no area, hence no mass; chains belong on static (or kinematic) bodies, like the
terrain they model. Two chain segments never collide with each other. Materials may be given
per segment: ``friction`` and ``restitution`` take a number or a sequence with one value per
segment.

Queries: rays see a chain segment from the front only (a ray from behind passes, as a body
does); box, point, overlap and shape-cast queries see it as a plain segment, from both sides.
A body fast enough to carry its centre past the surface in one step (20 m/s against a body
0.3 m thick at 60 Hz) is behind it at the next step and passes: keeping it in front is the
work of continuous collision, as in Box2D.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _lock, _sleep, _validate
from ._collision import geometry
from ._collision.chain import chain_ghosts
from ._dynamics.verbs import CHAINS
from ._stepping import NOT_READY
from .constants import LINEAR_SLOP
from .shapes import MATERIAL_DEFAULTS, Shape, parse_material
from .types import Vec2

if TYPE_CHECKING:
    from .body import Body
    from .world import World

PER_SEGMENT = ("friction", "restitution")
"""Material options that may be given per segment (a sequence, one value per segment)."""


class Chain:
    """A chain of one-sided segments. Create with :meth:`Body.create_chain`; destroy with
    :meth:`World.destroy_chain` (or by destroying its body)."""

    __slots__ = ("_world", "_segments", "_points", "_loop", "user_data")

    def __init__(self, world: World, segments: list[Shape], points: list[Vec2], loop: bool,
                 user_data: Any = None) -> None:
        self._world = world
        self._segments = segments
        self._points = points
        self._loop = loop
        self.user_data = user_data

    def __repr__(self) -> str:
        if not self.is_valid:
            return "<Chain destroyed>"
        kind = "loop" if self._loop else "chain"
        return f"<Chain {kind} of {len(self._segments)} segments>"

    @property
    def is_valid(self) -> bool:
        """False once the chain (or its body) has been destroyed."""
        return all(shape.is_valid for shape in self._segments)

    @property
    def segments(self) -> list[Shape]:
        """The segments in chain order; segment k runs from ``points[k]`` to ``points[k + 1]``
        (the last segment of a loop back to ``points[0]``)."""
        self._check()
        return list(self._segments)

    @property
    def points(self) -> list[Vec2]:
        """The chain's points, body frame, as given."""
        return list(self._points)

    @property
    def is_loop(self) -> bool:
        return self._loop

    @property
    def body(self) -> Body:
        self._check()
        return self._segments[0].body

    @property
    def world(self) -> World:
        return self._world

    def _check(self) -> None:
        if not self.is_valid:
            raise ValueError("this chain was destroyed; its handle can no longer be used")


def create_chain(world: World, body: Body, points, loop, material: dict) -> Chain:
    """``Body.create_chain``: validate everything, then write the segment rows."""
    _lock.check(world, "Body.create_chain")
    b = body._row()
    loop = _validate.flag(loop, "loop")
    pts = _chain_points(points, loop)
    n = len(pts) if loop else len(pts) - 1
    materials = _segment_materials(material, n)
    if materials[0]["is_sensor"]:
        raise ValueError("is_sensor: a chain cannot be a sensor (its segments are one-sided "
                         "surfaces); use segments or polygons for a sensor")
    ghosts = chain_ghosts(pts, loop)
    geoms = []
    for k in range(n):
        geom = geometry.make_segment(pts[k], pts[(k + 1) % len(pts)])
        geom.normals[1] = 0.0  # the back side is not a face: rays pass it (_collision.chain)
        geoms.append(geom)
    # Segments have no mass, so the body's mass changes only if it is dynamic and had none:
    # checked once, as one shape would be.
    world._body_mass(b, blame="the chain")
    _sleep.wake_touching(world, b)
    segments = [world._write_shape(b, "chain_segment", geoms[k], materials[k], ghosts[k])
                for k in range(n)]
    world._update_mass(b)
    if not world._verbs[CHAINS]:
        world._verbs_for = (None, None)  # the next step fills the chain narrowphase's slot
        world._step_ready = NOT_READY  # (and takes its full checks: _stepping.step_world)
    return Chain(world, segments, [Vec2(float(x), float(y)) for x, y in pts], loop,
                 material.get("user_data"))


def _chain_points(points, loop: bool) -> np.ndarray:
    """The chain's points as an (n, 2) array: finite, within range, at least 2 (a loop: 3),
    consecutive points (and, for a loop, the last and the first) more than LINEAR_SLOP apart."""
    if isinstance(points, (str, bytes)) or not hasattr(points, "__len__"):
        raise TypeError(f"points must be a sequence of (x, y) points, got {type(points).__name__}")
    if isinstance(points, np.ndarray) and points.ndim != 2:
        raise TypeError(f"points must be a sequence of (x, y) points, got an array of shape "
                        f"{points.shape}")
    pts = np.array([_validate.vec2(p, f"points[{k}]") for k, p in enumerate(points)],
                   dtype=np.float64).reshape(-1, 2)
    least = 3 if loop else 2
    if len(pts) < least:
        raise ValueError(f"points: a {'loop' if loop else 'chain'} needs at least {least} "
                         f"points, got {len(pts)}")
    n = len(pts) if loop else len(pts) - 1
    for k in range(n):
        a = pts[k]
        b = pts[(k + 1) % len(pts)]
        if not math.hypot(b[0] - a[0], b[1] - a[1]) > LINEAR_SLOP:
            j = (k + 1) % len(pts)
            raise ValueError(f"points[{k}] and points[{j}] are {math.hypot(*(b - a)):.3g} m "
                             f"apart; consecutive points must be more than {LINEAR_SLOP} m apart")
    return pts


def _segment_materials(material: dict, n: int) -> list[dict]:
    """One validated material dict per segment; ``friction`` and ``restitution`` may be
    sequences of ``n`` values."""
    unknown = set(material) - set(MATERIAL_DEFAULTS)
    if unknown:
        raise TypeError(f"unknown shape option(s): {', '.join(sorted(unknown))}; "
                        f"known: {', '.join(MATERIAL_DEFAULTS)}")
    shared = {k: v for k, v in material.items() if k not in PER_SEGMENT and k != "user_data"}
    columns = {}
    for name in PER_SEGMENT:
        value = material.get(name, MATERIAL_DEFAULTS[name])
        if isinstance(value, (str, bytes)):
            raise TypeError(f"{name} must be a number or a sequence of {n} numbers (one per "
                            f"segment), got {value!r}")
        if hasattr(value, "__len__"):
            if len(value) != n:
                raise ValueError(f"{name} must have one value per segment: {n}, got "
                                 f"{len(value)}")
            columns[name] = [_validate.factor(v, f"{name}[{k}]") for k, v in enumerate(value)]
        else:
            columns[name] = [_validate.factor(value, name)] * n
    base = parse_material(shared)
    return [{**base, **{name: columns[name][k] for name in PER_SEGMENT}} for k in range(n)]


__all__ = ["Chain", "PER_SEGMENT", "create_chain"]
