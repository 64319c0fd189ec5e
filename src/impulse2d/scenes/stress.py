"""Solver stress scenes, with Solver2D's exact parameters.

Catto's Solver2D (https://box2d.org/posts/2024/02/solver2d/) compares contact solvers on a set of
scenes that each break some solver: a tall vertical stack, a 5050-box pyramid, heavy boxes on
light ones (mass ratios 100 to 400), boxes placed overlapping, a domino chain, a long bridge, a
heavy ball on a chain and a chain that starts stretched. The builders here reproduce those
scenes (``samples/collection/*.cpp`` of Solver2D; values in ``shared/reference`` section 1.4):
gravity (0, -10) m/s^2 (the world's), 60 Hz, shape friction 0.6 and density 1 unless noted.
Solver2D's "box 200x2" grounds are full sizes; every ground's top face is at y = 0.

Scenes that already exist are reused under their Solver2D name: ``large_pyramid`` is
``pyramid`` with base 100, the bridge is ``bridge`` (160 planks).

Every builder returns a :class:`SceneInfo` with what :mod:`impulse2d.compare` needs for its
verdict: ``bodies["top"]`` (the body whose height is watched) and ``data["top_rest_y"]`` (where
it should rest) for the stacks; ``data["joint_handles"]`` for the chains (the joints whose gap
is measured); ``data["ground_top"]`` for "fell through the ground" checks.
"""

from __future__ import annotations

import math

import numpy as np

from . import SceneInfo, scene
from .joints import _Builder
from .standard import _add_pyramid, _static_box, pyramid

__all__ = [
    "vertical_stack", "high_mass_ratio_1", "high_mass_ratio_2", "high_mass_ratio_3",
    "overlap_recovery", "double_domino", "ball_and_chain", "stretched_chain", "chain_loop_kicks",
    "STRESS_SCENES",
]

STRESS_SCENES = (
    "vertical_stack", "pyramid", "large_pyramid", "high_mass_ratio_1", "high_mass_ratio_2",
    "high_mass_ratio_3", "overlap_recovery", "double_domino", "bridge", "ball_and_chain",
    "stretched_chain",
)
"""The scenes ``impulse2d compare`` runs by default: those of Solver2D's measured table
(reference section 1.5), in its row order, plus the stretched chain."""


def _segment_ground(world, half_length, **material):
    body = world.create_body(type="static", position=(0.0, 0.0))
    body.create_segment((-half_length, 0.0), (half_length, 0.0), **material)
    return body


# ---------------------------------------------------------------------------------------------
# stacks
# ---------------------------------------------------------------------------------------------

@scene("vertical_stack", "Solver2D's vertical stack: 15 unit boxes (friction 0.3) 0.1 m apart, "
       "alternately shifted +-1 cm sideways, drop onto a box ground and must stay standing.",
       steps=600, view=(-6.0, -1.0, 6.0, 17.0), count=15, offset=0.01)
def vertical_stack(world, count=15, offset=0.01):
    """``offset``: sideways shift of every box, m, alternating sign (0: an exactly aligned
    stack, which even a poor solver keeps upright by symmetry)."""
    count = int(count)
    if count < 1:
        raise ValueError(f"vertical_stack needs count >= 1, got {count}")
    offset = float(offset)
    ground = _static_box(world, (0.0, -1.0), 100.0, 1.0)
    boxes = []
    for i in range(count):
        shift = -offset if i % 2 == 0 else offset
        body = world.create_body(type="dynamic", position=(shift, 0.55 + 1.1 * i))
        body.create_box(0.5, 0.5, friction=0.3)
        boxes.append(body)
    return SceneInfo(
        bodies={"ground": ground, "boxes": boxes, "top": boxes[-1]},
        # the 0.1 m gaps close: the top box rests at count - 0.5 m on a rigid stack
        data={"count": count, "offset": offset, "ground_top": 0.0,
              "top_rest_y": count - 0.5, "box_half": 0.5},
    )


# ``pyramid`` with Solver2D's large base; the builder (exact 1 m pitch, ground top at 0) is the
# same, so its numbers are those of the benchmark's pyramid_100.
scene("large_pyramid", "Solver2D's large pyramid: 5050 unit boxes (base 100) packed exactly on "
      "a static ground; the top must not sink.", steps=300,
      view=(-55.0, -2.0, 55.0, 102.0), base=100)(pyramid)


# ---------------------------------------------------------------------------------------------
# mass ratios
# ---------------------------------------------------------------------------------------------

@scene("high_mass_ratio_1", "Solver2D's high mass ratio 1: three pyramids of 2 m boxes (base "
       "10) whose top boxes, 2 m above the rest, have density 100, 200 and 300 (mass ratios "
       "100-300) on a segment ground (friction 0.5).", steps=600,
       view=(-34.0, -2.0, 36.0, 26.0))
def high_mass_ratio_1(world, base=10, extent=1.0):
    base = int(base)
    if base < 1:
        raise ValueError(f"high_mass_ratio_1 needs base >= 1, got {base}")
    e = float(extent)
    ground = _segment_ground(world, 66.0, friction=0.5)
    pyramids, heavy = [], []
    for j in range(3):
        count = base
        offset = -20.0 * e + 2.0 * (base + 1.0) * e * j
        y = e
        boxes = []
        while count > 0:
            for i in range(count):
                coeff = i - 0.5 * count
                yy = y + 2.0 * e if count == 1 else y       # the top box starts 2 m higher
                body = world.create_body(type="dynamic", position=(2.0 * coeff * e + offset, yy))
                body.create_box(e, e, density=(j + 1.0) * 100.0 if count == 1 else 1.0)
                boxes.append(body)
            count -= 1                          # rows stay centred through -0.5 count
            y += 2.0 * e
        pyramids.append(boxes)
        heavy.append(boxes[-1])
    return SceneInfo(
        bodies={"ground": ground, "pyramids": pyramids, "heavy": heavy, "top": heavy[0]},
        # a heavy box resting on its pyramid: its centre at (2 base - 1) extents
        data={"base": base, "extent": e, "ground_top": 0.0, "densities": (100.0, 200.0, 300.0),
              "top_rest_y": (2.0 * base - 1.0) * e},
    )


def _heavy_on_two(world, ground):
    """High mass ratio 2 and 3: a 20 m box (400 kg) dropped onto two unit boxes 18 m apart."""
    small = []
    for x in (-9.0, 9.0):
        body = world.create_body(type="dynamic", position=(x, 0.5))
        body.create_box(0.5, 0.5)
        small.append(body)
    big = world.create_body(type="dynamic", position=(0.0, 26.0))
    big.create_box(10.0, 10.0)
    return SceneInfo(
        bodies={"ground": ground, "small": small, "big": big, "top": big},
        # resting: on the 1 m boxes, centre 10 m above their tops
        data={"ground_top": 0.0, "top_rest_y": 11.0, "mass_ratio": 400.0},
    )


@scene("high_mass_ratio_2", "Solver2D's high mass ratio 2: a 20 x 20 m box (400:1) falls onto "
       "two unit boxes standing on a thin segment ground; they must not be pushed through.",
       steps=600, view=(-22.0, -2.0, 22.0, 38.0))
def high_mass_ratio_2(world):
    return _heavy_on_two(world, _segment_ground(world, 20.0))


@scene("high_mass_ratio_3", "Solver2D's high mass ratio 3: high mass ratio 2 on a thick box "
       "ground (80 x 4 m).", steps=600, view=(-22.0, -5.0, 22.0, 38.0))
def high_mass_ratio_3(world):
    return _heavy_on_two(world, _static_box(world, (0.0, -2.0), 40.0, 2.0))


# ---------------------------------------------------------------------------------------------
# overlap, dominoes
# ---------------------------------------------------------------------------------------------

@scene("overlap_recovery", "Solver2D's overlap recovery: a pyramid of 10 unit boxes (base 4) "
       "placed with 25 % overlap (0.75 m pitch) must push itself apart gently, ending with its "
       "top at 3.5 m.", steps=600, view=(-5.5, -0.5, 4.5, 5.5), base=4, overlap=0.25)
def overlap_recovery(world, base=4, overlap=0.25):
    base = int(base)
    if base < 1:
        raise ValueError(f"overlap_recovery needs base >= 1, got {base}")
    overlap = float(overlap)
    if not 0.0 <= overlap < 1.0:
        raise ValueError(f"overlap must be in [0, 1), got {overlap}")
    e = 0.5
    fraction = 1.0 - overlap
    ground = _segment_ground(world, 40.0)
    boxes, rows = [], []
    y = e
    for i in range(base):
        x = fraction * e * (i - base)
        row = []
        for _ in range(i, base):
            body = world.create_body(type="dynamic", position=(x, y))
            body.create_box(e, e)
            row.append(body)
            x += 2.0 * fraction * e
        boxes.extend(row)
        rows.append(row)
        y += 2.0 * fraction * e
    return SceneInfo(
        bodies={"ground": ground, "boxes": boxes, "rows": rows, "top": rows[-1][0]},
        # separated: rows 1 m apart, the top box's centre at base - 0.5 m
        data={"base": base, "overlap": overlap, "ground_top": 0.0, "top_rest_y": base - 0.5},
    )


@scene("double_domino", "Solver2D's double domino: 15 dominoes (0.25 x 1 m, friction 0.6) 1 m "
       "apart; an impulse of 0.2 N s at the first one's top starts a chain that must reach the "
       "end.", steps=600, view=(-9.0, -1.0, 9.0, 3.0), count=15)
def double_domino(world, count=15):
    count = int(count)
    if count < 1:
        raise ValueError(f"double_domino needs count >= 1, got {count}")
    ground = _static_box(world, (0.0, -1.0), 100.0, 1.0)
    dominoes = []
    x = -0.5 * count
    for i in range(count):
        body = world.create_body(type="dynamic", position=(x, 0.5))
        body.create_box(0.125, 0.5, friction=0.6)
        if i == 0:
            body.apply_linear_impulse((0.2, 0.0), point=(x, 1.0))
        dominoes.append(body)
        x += 1.0
    return SceneInfo(
        bodies={"ground": ground, "dominoes": dominoes, "first": dominoes[0],
                "last": dominoes[-1]},
        # a domino counts as fallen once tilted past this angle, rad (one leaning on its
        # neighbour 1 m away rests at about 45 degrees; the last one lies flat)
        data={"count": count, "spacing": 1.0, "half_extents": (0.125, 0.5),
              "fallen_angle": 0.5, "ground_top": 0.0},
    )


# ---------------------------------------------------------------------------------------------
# chains
# ---------------------------------------------------------------------------------------------

@scene("ball_and_chain", "Solver2D's ball and chain: 40 capsules (1 m, r = 0.125 m, density 20, "
       "about 6 kg) hinged in a horizontal chain from a pin, ending in a circle of r = 8 m "
       "(about 4020 kg, 670:1); it swings down.", steps=600,
       view=(-58.0, -70.0, 58.0, 26.0), links=40, radius=8.0)
def ball_and_chain(world, links=40, radius=8.0):
    links = int(links)
    if links < 1:
        raise ValueError(f"ball_and_chain needs links >= 1, got {links}")
    radius = float(radius)
    hx = 0.5
    height = links * hx                          # Solver2D pins the chain at (0, count hx)
    bld = _Builder(world)
    ground = bld.body(type="static", position=(0.0, 0.0))      # no shape: only holds the pin
    prev, capsules = ground, []
    for i in range(links):
        body = bld.body(type="dynamic", position=((1.0 + 2.0 * i) * hx, height),
                        linear_damping=0.1, angular_damping=0.1)
        body.create_capsule((-hx, 0.0), (hx, 0.0), 0.125, density=20.0)
        bld.revolute(prev, body, (2.0 * i * hx, height))
        capsules.append(body)
        prev = body
    ball = bld.body(type="dynamic", position=((1.0 + 2.0 * links) * hx + radius - hx, height),
                    linear_damping=0.1, angular_damping=0.1)
    ball.create_circle(radius, density=20.0)
    bld.revolute(prev, ball, (2.0 * links * hx, height))
    return bld.info({"ground": ground, "links": capsules, "ball": ball},
                    {"links": links, "radius": radius, "pin": (0.0, height),
                     "mass_ratio": ball.mass / capsules[0].mass})


@scene("stretched_chain", "Solver2D's stretched chain: 40 circles (r = 0.2 m) on 1 m revolute "
       "links, no collision, hanging from a pin but starting stretched to twice their length "
       "(2 m apart); the joints must pull the chain back together.", steps=600,
       view=(-45.0, -42.0, 45.0, 42.0), links=40, stretch=2.0, hanging=True)
def stretched_chain(world, links=40, stretch=2.0, hanging=True):
    """``hanging``: the chain starts hanging straight down from the pin (default, as in
    Box3D's port of the scene: the joints only have to close their gaps); False starts it
    horizontal, so that it closes its gaps while falling and swinging (far harder: the joints
    spin the circles past the rotation limit, which ``soft_step`` clamps after them and
    ``soft_step_v31`` before them; only the latter closes the chain, as Box2D v3.1 does)."""
    links = int(links)
    if links < 1:
        raise ValueError(f"stretched_chain needs links >= 1, got {links}")
    stretch = float(stretch)
    if not stretch > 0.0:
        raise ValueError(f"stretch must be positive, got {stretch}")
    top = float(links)                           # the pin; at rest the chain reaches y = 0
    # unit vector along the chain from the pin: down, or to the right
    ux, uy = (0.0, -1.0) if hanging else (1.0, 0.0)
    bld = _Builder(world)
    ground = bld.body(type="static", position=(0.0, top))
    prev, circles = ground, []
    # Joints fix their anchors in each body's frame at creation, so the chain is built hanging
    # at its rest length (centres 1 m apart, hinges halfway between) and then pulled down to
    # ``stretch`` times that: every hinge after the first starts with a gap of (stretch - 1) m.
    for i in range(links):
        body = bld.body(type="dynamic", position=((i + 0.5) * ux, top + (i + 0.5) * uy))
        body.create_circle(0.2, group=-1)         # one non-colliding group: no contacts
        bld.revolute(prev, body, (i * ux, top + i * uy))
        circles.append(body)
        prev = body
    for i, body in enumerate(circles):
        body.position = ((i + 0.5) * stretch * ux, top + (i + 0.5) * stretch * uy)
    return bld.info({"ground": ground, "circles": circles, "last": circles[-1]},
                    # at rest (gaps closed) the last circle hangs at about 0.5 m
                    {"links": links, "stretch": stretch, "link_length": 1.0, "pin": (0.0, top),
                     "hanging": bool(hanging)})


# ---------------------------------------------------------------------------------------------
# continuous collision
# ---------------------------------------------------------------------------------------------

@scene("chain_loop_kicks", "A 0.25 m circle inside a clockwise 20-gon chain loop of radius 5 m, "
       "kicked to 20 m/s in a random direction every half second (gravity on): a step moves it "
       "0.33 m, more than its radius, so only continuous collision keeps it from sinking into "
       "the one-sided wall (issue 29; Box2D v3.1: at most 0.096 m of its radius inside).",
       steps=3000, view=(-6.0, -6.0, 6.0, 6.0), shape="circle", bullet=False, seed=0,
       speed=20.0, period=30)
def chain_loop_kicks(world, shape="circle", bullet=False, seed=0, speed=20.0, period=30):
    """``shape``: "circle" (r = 0.25 m) or "box" (0.5 m square); ``bullet``: the body's flag;
    ``seed``: the kicks' directions (NumPy's default generator); ``speed`` (m/s) and
    ``period`` (steps between kicks, the first before step 0). ``data["wall_distance"]`` gives
    a point's distance in front of the nearest segment's line (negative: behind it)."""
    if shape not in ("circle", "box"):
        raise ValueError(f"shape must be 'circle' or 'box', got {shape!r}")
    period = int(period)
    if period < 1:
        raise ValueError(f"period must be >= 1, got {period}")
    speed = float(speed)
    radius, sides = 5.0, 20
    # clockwise, so that the segments' fronts (the right of their direction) face the centre
    points = [(radius * math.cos(-2.0 * math.pi * k / sides),
               radius * math.sin(-2.0 * math.pi * k / sides)) for k in range(sides)]
    ground = world.create_body(type="static")
    ground.create_chain(points, loop=True)
    body = world.create_body(position=(0.0, 0.0), allow_sleep=False, bullet=bool(bullet))
    if shape == "circle":
        body.create_circle(0.25)
    else:
        body.create_box(0.25, 0.25)
    rng = np.random.default_rng(seed)
    corners = np.array(points)
    edges = np.roll(corners, -1, axis=0) - corners
    normals = np.column_stack([edges[:, 1], -edges[:, 0]]) / np.hypot(edges[:, 0],
                                                                       edges[:, 1])[:, None]

    def wall_distance(p):
        return float(np.min(np.einsum("ij,ij->i", np.asarray(p, dtype=float) - corners,
                                      normals)))

    def update(world, i):
        if i % period == 0:
            angle = rng.uniform(0.0, 2.0 * math.pi)
            body.linear_velocity = (speed * math.cos(angle), speed * math.sin(angle))

    return SceneInfo(bodies={"ground": ground, "body": body},
                     data={"points": points, "half_thickness": 0.25,
                           # the segments' distance from the centre, 4.938 m
                           "inscribed": radius * math.cos(math.pi / sides),
                           "wall_distance": wall_distance},
                     update=update)
