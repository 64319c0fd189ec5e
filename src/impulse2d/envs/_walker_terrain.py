"""BipedalWalker's terrain: the random ground line, its hardcore obstacles and the clouds of
one episode, and the static bodies that make them in a world.

**The generator.** Gymnasium's ``BipedalWalker-v3`` draws its terrain from the environment's
``np_random`` (a ``numpy.random.Generator``); :func:`generate` makes the same draws, in the
same order, with the same arithmetic, so an episode seeded ``s`` here walks on exactly the
ground of Gymnasium's episode seeded ``s`` (``tests/test_envs_walker.py`` compares the
points with Gymnasium's own on the pybox2d layer). Without obstacles the draws come from one
block of raw 64-bit draws, decoded as NumPy's ``uniform`` and ``integers`` decode them, five
times cheaper than a call per draw (:func:`_grass`). The ground is ``TERRAIN_LENGTH`` = 200 points
``TERRAIN_STEP`` = 14/30 m apart: a flat start pad of 20 steps, then grass, a random walk of
the height (its velocity decays by 0.8 a step, is pulled 0.01 m a step towards
``TERRAIN_HEIGHT`` and gets a uniform kick of +-1/30 m), in runs of 5-9 steps. In hardcore
mode each grass run is followed by an obstacle, one of three with equal chance:

* a **stump**: a box of 1 or 2 steps a side standing on the ground;
* a **pit**: the ground drops 4 steps for 3-4 steps, between two 1-step-wide walls;
* **stairs**: 3 or 4 steps, each 4 steps wide and one step up (or down), as boxes.

Then come the clouds (10 pentagons, drawn only: they take 11 draws each, and the hull's push
follows them, so they are drawn here too).

**The bodies**: Gymnasium's shapes, the 199 ground edges (two-sided segments,
:func:`make_ground`) and the obstacle boxes (:func:`make_obstacles`), each made in one batch
(``impulse2d._batch``, the pybox2d layer's fast path: the rows and bits of making them one by
one, several times faster). The ground is made once in each environment's world, before the
snapshot its resets restore; a reset moves its edges to the episode's points in place
(:func:`move_ground`), and makes only the obstacles anew, after it. Gymnasium puts each
edge on a static body of its own; here the 199 edges share one static body (a static body
never moves, so the walker meets the same shapes with the same contacts: the scripted gait's
distances are unchanged to the centimetre on seeds 0-15), which measured here, paired on 32
and 64 worlds (CPU time), makes a terrain in 0.78 ms instead of 1.75, and a step of the
world 51 us instead of 68 (the step's passes over the bodies no longer visit 199 static
ones). Each obstacle box keeps a static body of its own, as in Gymnasium (at most about 40 in
hardcore).

One chain of 199 segments was measured as the ground and is not used: it is no cheaper to
make (``Body.create_chain`` writes its segments one by one: about 20 ms a terrain here under
load, against about 5 ms for the 199 edge bodies in a batch), and it changes the start of
every episode: the reset's step pulls the lower legs 0.45 m down (Gymnasium builds the joints
with their anchors apart), through the ground; Box2D 2.3's time of impact, which the engine's
``continuous_box2d23`` rules reproduce for segments, stands them back on the ground, but a
one-sided chain stops only a body whose centroid crosses it, so the feet stayed 0.19 m deep
in the ground and the scripted gait stalled or fell within 2.5 m on every seed at 180 / 60
and 40 / 10 iterations (with edges it walks 17 m on average, as on Box2D).

Filtering as in Gymnasium: the terrain is category 0x1 (the walker's shapes collide with it
only), friction 2.5 (:data:`FRICTION`); the lidar sees category 0x1 only.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

SCALE = 30.0
"""Gymnasium's pixels per metre (its constants are in pixels / SCALE)."""
TERRAIN_STEP = 14 / SCALE
"""m between ground points."""
TERRAIN_LENGTH = 200
"""Ground points."""
TERRAIN_HEIGHT = 400 / SCALE / 4
"""m: the height the ground line is pulled towards (a quarter of the 400-pixel view)."""
TERRAIN_GRASS = 10
"""A grass run lasts ``integers(TERRAIN_GRASS // 2, TERRAIN_GRASS)`` steps (5-9)."""
TERRAIN_STARTPAD = 20
"""Flat steps at the start (the walker stands at half of it)."""
FRICTION = 2.5
"""Friction of the terrain (mixed with each walker shape's as sqrt(f1 f2))."""

GRASS, STUMP, STAIRS, PIT = 0, 1, 2, 3
"""Terrain states (Gymnasium's numbering: ``integers(1, 4)`` picks an obstacle)."""


class Terrain(NamedTuple):
    """One episode's terrain, drawn by :func:`generate`."""

    x: np.ndarray          # (TERRAIN_LENGTH,) m, the ground points
    y: np.ndarray          # (TERRAIN_LENGTH,) m
    boxes: list            # obstacle boxes: 4 (x, y) corners each, m
    clouds: list           # (5 corners, x min, x max) each, m (drawn only)


def generate(rng: np.random.Generator, hardcore: bool) -> Terrain:
    """The terrain of one episode from ``rng``: the draws of Gymnasium's ``_generate_terrain``
    and ``_generate_clouds``, in their order (see the module's docstring)."""
    ys = None if hardcore else _grass(rng)
    if ys is not None:
        xs = np.arange(TERRAIN_LENGTH) * TERRAIN_STEP
        return Terrain(xs, ys, [], _clouds(rng))
    step = TERRAIN_STEP
    uniform, integers = rng.uniform, rng.integers
    ys = np.empty(TERRAIN_LENGTH)
    boxes = []
    state, oneshot = GRASS, False
    velocity, y = 0.0, TERRAIN_HEIGHT
    counter = TERRAIN_STARTPAD
    stair_steps = stair_width = stair_height = 0
    original_y = 0.0
    for i in range(TERRAIN_LENGTH):
        x = i * step
        if state == GRASS:
            if not oneshot:
                # a random walk of the height, pulled back towards TERRAIN_HEIGHT
                # (the sign of TERRAIN_HEIGHT - y: np.sign's bits, without its call)
                pull = float(y < TERRAIN_HEIGHT) - float(y > TERRAIN_HEIGHT)
                velocity = 0.8 * velocity + 0.01 * pull
                if i > TERRAIN_STARTPAD:
                    velocity += uniform(-1, 1) / SCALE
                y += velocity
        elif state == PIT:
            if oneshot:
                counter = integers(3, 5)
                wall = [(x, y), (x + step, y), (x + step, y - 4 * step), (x, y - 4 * step)]
                boxes.append(wall)
                boxes.append([(px + step * counter, py) for px, py in wall])
                counter += 2
                original_y = y
            else:
                y = original_y
                if counter > 1:
                    y -= 4 * step
        elif state == STUMP:
            if oneshot:
                counter = integers(1, 3)
                side = counter * step
                boxes.append([(x, y), (x + side, y), (x + side, y + side), (x, y + side)])
        elif state == STAIRS:
            if oneshot:
                stair_height = +1 if rng.random() > 0.5 else -1
                stair_width = integers(4, 5)
                stair_steps = integers(3, 5)
                original_y = y
                for s in range(stair_steps):
                    x0, x1 = x + s * stair_width * step, x + (1 + s) * stair_width * step
                    top = y + s * stair_height * step
                    bottom = y + (-1 + s * stair_height) * step
                    boxes.append([(x0, top), (x1, top), (x1, bottom), (x0, bottom)])
                counter = stair_steps * stair_width
            else:
                s = stair_steps * stair_width - counter - stair_height
                y = original_y + (s / stair_width * stair_height) * step
        oneshot = False
        ys[i] = y
        counter -= 1
        if counter == 0:
            counter = integers(TERRAIN_GRASS // 2, TERRAIN_GRASS)
            state = integers(1, 4) if state == GRASS and hardcore else GRASS
            oneshot = True
    xs = np.arange(TERRAIN_LENGTH) * step
    return Terrain(xs, ys, boxes, _clouds(rng))


GRASS_DRAWS = TERRAIN_LENGTH - TERRAIN_STARTPAD + TERRAIN_LENGTH // (TERRAIN_GRASS // 2) + 1
"""64-bit draws that a terrain without obstacles takes at most: a kick per grass step and at
most one draw per run (a run lasts at least 5 steps)."""

_DOUBLE = 1.0 / 9007199254740992.0
"""2^-53: a double in [0, 1) from the top 53 bits of a 64-bit draw (NumPy's ``next_double``)."""


def _grass(rng: np.random.Generator) -> np.ndarray | None:
    """The ground heights of a terrain without obstacles (m, ``TERRAIN_LENGTH``), taking from
    ``rng`` exactly the draws :func:`generate`'s loop takes, from one block of raw draws
    instead of a call per draw (the loop's ``uniform`` and ``integers`` calls were most of a
    walker's reset, ~1 ms). None (``rng`` untouched) where it does not apply: a generator other
    than PCG64, or a run length whose draw NumPy would reject and draw again (a 32-bit draw of
    0: 1 in 2^32).

    The draws, as NumPy's ``Generator`` makes them from PCG64: ``uniform(-1, 1)`` is
    ``-1 + 2 d``, ``d`` the top 53 bits of the next 64-bit draw times 2^-53;
    ``integers(5, 10)`` is ``5 + (u 5) >> 32`` (Lemire's method, which rejects only
    ``u = 0`` here) of the next 32-bit draw ``u``: the high half a previous 32-bit draw left
    buffered (``has_uint32``), else the low half of a new 64-bit draw, whose high half is
    buffered. The generator is then left where the loop leaves it: advanced by the 64-bit
    draws used, with the buffer as the loop leaves it (``tests/test_envs_walker.py`` checks
    the heights and the generator's state against the loop over many episodes)."""
    bits = rng.bit_generator
    before = bits.state
    if before["bit_generator"] != "PCG64":   # (Gymnasium's seeding makes PCG64s)
        return None
    raw = bits.random_raw(GRASS_DRAWS)
    kicks = ((raw >> np.uint64(11)) * _DOUBLE * 2.0 - 1.0) / SCALE
    kicks = kicks.tolist()
    raw = raw.tolist()
    buffered, half = before["has_uint32"], before["uinteger"]
    used = 0
    ys = [0.0] * TERRAIN_LENGTH
    oneshot = False
    velocity, y = 0.0, TERRAIN_HEIGHT
    counter = TERRAIN_STARTPAD
    for i in range(TERRAIN_LENGTH):
        if not oneshot:
            pull = float(y < TERRAIN_HEIGHT) - float(y > TERRAIN_HEIGHT)
            velocity = 0.8 * velocity + 0.01 * pull
            if i > TERRAIN_STARTPAD:
                velocity += kicks[used]
                used += 1
            y += velocity
        oneshot = False
        ys[i] = y
        counter -= 1
        if counter == 0:
            if buffered:
                u, buffered = half, 0
            else:
                u, half, buffered = raw[used] & 0xFFFFFFFF, raw[used] >> 32, 1
                used += 1
            if u == 0:
                bits.state = before
                return None
            counter = TERRAIN_GRASS // 2 + ((u * 5) >> 32)
            oneshot = True
    bits.state = before
    bits.advance(used)
    after = bits.state
    after["has_uint32"], after["uinteger"] = buffered, half
    bits.state = after
    return np.array(ys)


def _clouds(rng: np.random.Generator) -> list:
    """Gymnasium's 10 clouds: pentagons 15 x 5 steps with jittered corners, at 3/4 of the
    view's height (their draws come before the hull's push). Its 110 scalar ``uniform`` draws
    are taken as one ``random(110)``: ``uniform(low, high)`` is ``low + (high - low) * u`` of
    the next double ``u``, so the numbers are the same, bit for bit."""
    count = TERRAIN_LENGTH // 20
    u = rng.random(11 * count).tolist()
    jitter = 5 * TERRAIN_STEP - 0.0
    height = 400 / SCALE * 3 / 4
    clouds = []
    for c in range(count):
        draws = u[11 * c: 11 * c + 11]
        x = (0.0 + TERRAIN_LENGTH * draws[0]) * TERRAIN_STEP
        corners = []
        for a in range(5):
            turn = 3.14 * 2 * a / 5
            cx = x + 15 * TERRAIN_STEP * math.sin(turn) + (0.0 + jitter * draws[1 + 2 * a])
            cy = height + 5 * TERRAIN_STEP * math.cos(turn) + (0.0 + jitter * draws[2 + 2 * a])
            corners.append((cx, cy))
        xs = [corner[0] for corner in corners]
        clouds.append((corners, min(xs), max(xs)))
    return clouds


def make_ground(world) -> tuple:
    """Make the ground in ``world``, after the walker's bodies (so the walker's rows, the
    batch's dense views, stay the template's): one static body with the 199 edges, flat at
    ``TERRAIN_HEIGHT`` (each episode moves them in place, :func:`move_ground`). Returns the
    body's row and its edges' rows, in order."""
    y = np.full(TERRAIN_LENGTH, TERRAIN_HEIGHT)
    (body, edges), = _create(world, [_edges(np.arange(TERRAIN_LENGTH) * TERRAIN_STEP, y)])
    return body._index, [edge._index for edge in edges]


def move_ground(refs, ground, terrains: list) -> None:
    """Give the ground made by :func:`make_ground` in each world of ``refs`` (their step
    references, of worlds just restored; ``ground``: its edges, a :class:`.._segments.Segments`
    of what :func:`make_ground` returned, the same rows in each) its episode's points
    (``terrains``, one each), in one pass (the edges :func:`make_ground` would make)."""
    points = np.empty((len(terrains), TERRAIN_LENGTH, 2))
    for k, t in enumerate(terrains):
        points[k, :, 0] = t.x
        points[k, :, 1] = t.y
    ground.move(refs, points[:, :-1], points[:, 1:])


def make_obstacles(world, terrain: Terrain) -> list:
    """Make the episode's obstacle boxes (hardcore) in ``world``, a static body each, as
    Gymnasium makes them. Returns the bodies made."""
    from .._collision import geometry
    if not terrain.boxes:
        return []
    parts = [(0.0, 0.0, 0.0, [("polygon", geometry.make_polygon(corners), _material())])
             for corners in terrain.boxes]
    return [body for body, _ in _create(world, parts)]


def _material() -> dict:
    from ..shapes import parse_material
    return parse_material({"friction": FRICTION, "density": 0.0})


def _edges(xs: np.ndarray, ys: np.ndarray) -> tuple:
    """The ground's static body: the 199 edges through the points, as ``create_static_bodies``
    takes them."""
    from .._collision import geometry
    material = _material()
    x, y = xs.tolist(), ys.tolist()
    # the checked ends segment_ends would return (its length, math.hypot of the same
    # differences), without its checks: the points are finite and TERRAIN_STEP apart in x,
    # far more than the slop a segment must span (a quarter of the terrain's build time)
    ends = geometry.SegmentEnds
    hypot = math.hypot
    return (0.0, 0.0, 0.0, [("segment", ends(x[k], y[k], x[k + 1], y[k + 1],
                                             hypot(x[k + 1] - x[k], y[k + 1] - y[k])),
                             material) for k in range(TERRAIN_LENGTH - 1)])


def _create(world, parts: list) -> list:
    from .._batch import create_static_bodies
    return create_static_bodies(world, parts)
