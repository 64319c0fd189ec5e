"""The standard sample scenes.

The benchmark scenes (``pyramid``, ``many_pyramids``, ``rain``, ``bouncing_balls``,
``friction_ramp``) follow the peer benchmark's scene definitions exactly (body order included:
ground first, then the dynamic bodies in the order given there), so that impulse2d, pymunk and
Box2D run the same bodies; the benchmarks replay these very builders into the peer engines.
The other scenes (``mixed_rain``, ``dominoes``, ``stack``) are demos.

Builders use only the public API (``world.create_body`` and ``body.create_*``). Every scene runs
with gravity (0, -10) m/s^2 and time step 1/60 s; the gravity is the world's, not the scene's.
Material values are per shape and mix with Box2D's rules: friction ``sqrt(fa * fb)``,
restitution ``max(ea, eb)``.
"""

from __future__ import annotations

import math
import random

from . import SceneInfo, scene

__all__ = [
    "pyramid", "many_pyramids", "rain", "mixed_rain", "bouncing_balls", "friction_ramp",
    "dominoes", "stack", "RESTITUTIONS", "RAMP_MUS", "RAMP_ANGLE_DEG", "GRAVITY",
    "ramp_displacement",
]

GRAVITY = 10.0
"""m/s^2, magnitude of the gravity the scenes are designed for (and the analytic values use)."""

RESTITUTIONS = (0.0, 0.25, 0.5, 0.75, 1.0)
RAMP_MUS = (0.2, 0.4, 0.577, 0.6, 0.8)
RAMP_ANGLE_DEG = 30.0


def _static_box(world, center, hx, hy, angle=0.0, **material):
    body = world.create_body(type="static", position=center, angle=angle)
    body.create_box(hx, hy, **material)
    return body


def _add_pyramid(world, base, cx, ground_top):
    """Unit boxes at a pitch of exactly 1 m (touching, no gap), row by row from the bottom,
    left to right; returns the rows as lists of bodies (the top box is ``rows[-1][0]``)."""
    rows = []
    for r in range(base):
        count = base - r
        row = []
        for j in range(count):
            x = cx + (j - 0.5 * (count - 1))
            y = ground_top + 0.5 + r
            body = world.create_body(type="dynamic", position=(x, y))
            body.create_box(0.5, 0.5)
            row.append(body)
        rows.append(row)
    return rows


# --------------------------------------------------------------------------------------------
# benchmark scenes
# --------------------------------------------------------------------------------------------

@scene("pyramid", "Pyramid of unit boxes at an exact 1 m pitch on a static ground (base 20: "
       "210 boxes).", steps=500, view=(-15.0, -2.0, 15.0, 22.0), base=20)
def pyramid(world, base=20):
    base = int(base)
    if base < 1:
        raise ValueError(f"pyramid base must be at least 1, got {base}")
    ground = _static_box(world, (0.0, -0.5), 0.5 * base + 20.0, 0.5)
    rows = _add_pyramid(world, base, 0.0, 0.0)
    boxes = [b for row in rows for b in row]
    return SceneInfo(
        bodies={"ground": ground, "boxes": boxes, "rows": rows, "top": rows[-1][0]},
        data={"base": base, "box_half": 0.5, "ground_top": 0.0, "pitch": 1.0},
    )


@scene("many_pyramids", "Grid of small pyramids, one static ground slab per grid row "
       "(10 x 10 pyramids of base 10: 5500 boxes).", steps=300,
       view=(-8.0, -2.0, 116.0, 120.0), grid=10, base=10)
def many_pyramids(world, grid=10, base=10):
    grid, base = int(grid), int(base)
    if grid < 1 or base < 1:
        raise ValueError(f"many_pyramids needs grid >= 1 and base >= 1, got {grid}, {base}")
    spacing = base + 2.0                       # centre-to-centre in x, ground-to-ground in y
    x_lo = -0.5 * base - 2.0
    x_hi = (grid - 1) * spacing + 0.5 * base + 2.0
    grounds, pyramids = [], []
    for r in range(grid):
        top = r * spacing
        grounds.append(_static_box(world, (0.5 * (x_lo + x_hi), top - 0.5),
                                   0.5 * (x_hi - x_lo), 0.5))
        for c in range(grid):
            pyramids.append(_add_pyramid(world, base, c * spacing, top))
    boxes = [b for rows in pyramids for row in rows for b in row]
    return SceneInfo(
        bodies={"grounds": grounds, "pyramids": pyramids, "boxes": boxes,
                "tops": [rows[-1][0] for rows in pyramids]},
        data={"grid": grid, "base": base, "spacing": spacing, "box_half": 0.5,
              "ground_tops": [r * spacing for r in range(grid)]},
    )


@scene("rain", "Circles (r = 0.25 m) released from a staggered grid into a 40 m wide open "
       "container, where they settle into a pile.", steps=600,
       view=(-22.0, -2.0, 22.0, 32.0), count=2000)
def rain(world, count=2000, radius=0.25):
    count = int(count)
    if count < 0:
        raise ValueError(f"rain count must be >= 0, got {count}")
    floor = _static_box(world, (0.0, -0.5), 21.0, 0.5)
    left = _static_box(world, (-20.5, 25.0), 0.5, 25.0)
    right = _static_box(world, (20.5, 25.0), 0.5, 25.0)
    circles = []
    for k in range(count):
        j, i = divmod(k, 50)
        x = -18.375 + 0.75 * i + (0.375 if j % 2 else 0.0)
        y = 1.0 + 0.75 * j
        body = world.create_body(type="dynamic", position=(x, y))
        body.create_circle(radius)
        circles.append(body)
    return SceneInfo(
        bodies={"floor": floor, "walls": [left, right], "circles": circles},
        data={"count": count, "radius": radius, "inner_half_width": 20.0, "floor_top": 0.0,
              "wall_height": 50.0},
    )


@scene("bouncing_balls", "Five balls (r = 0.5 m) with restitution 0, 0.25, 0.5, 0.75 and 1 "
       "dropped from 10 m onto a ground box.", steps=600, view=(-3.0, -1.0, 15.0, 12.0))
def bouncing_balls(world, drop=10.0, radius=0.5):
    ground = _static_box(world, (6.0, -0.5), 20.0, 0.5, restitution=0.0)
    balls, bodies = [], {}
    for k, e in enumerate(RESTITUTIONS):
        body = world.create_body(type="dynamic", position=(3.0 * k, drop + radius))
        body.create_circle(radius, restitution=e)
        balls.append(body)
        bodies[f"ball_e{e:g}"] = body
    bodies.update(ground=ground, balls=balls)
    return SceneInfo(
        bodies=bodies,
        data={"restitutions": list(RESTITUTIONS), "drop": float(drop), "radius": float(radius),
              "ground_top": 0.0,
              # apex height of the ball's lowest point after bounce k = 1, 2, 3: e^(2k) h
              "analytic_apex": [[e ** (2 * k) * drop for k in (1, 2, 3)] for e in RESTITUTIONS]},
    )


def ramp_displacement(mu, t, angle_deg=RAMP_ANGLE_DEG, g=GRAVITY):
    """Analytic distance a block released at rest slides down a slope in time ``t``."""
    th = math.radians(angle_deg)
    a = g * (math.sin(th) - mu * math.cos(th))
    return 0.5 * a * t * t if a > 0.0 else 0.0


@scene("friction_ramp", "Five 30 degree ramps with box friction 0.2, 0.4, 0.577, 0.6 and 0.8: "
       "the first three slide (0.577 only just), the last two stick.", steps=120,
       view=(-12.0, -8.0, 132.0, 10.0))
def friction_ramp(world, angle_deg=RAMP_ANGLE_DEG, time=2.0):
    th = math.radians(angle_deg)
    n = (-math.sin(th), math.cos(th))          # outward normal of the ramp's top face
    ramps, boxes, bodies = [], [], {}
    for k, mu in enumerate(RAMP_MUS):
        c = (30.0 * k, 0.0)
        # per-shape values in Box2D's convention: sqrt(1.0 * mu^2) = mu for the pair
        ramps.append(_static_box(world, c, 10.0, 0.5, angle=th, friction=1.0))
        body = world.create_body(type="dynamic", position=(c[0] + n[0], c[1] + n[1]), angle=th)
        body.create_box(0.5, 0.5, friction=mu * mu)
        boxes.append(body)
        bodies[f"box_mu{mu:g}"] = body
    bodies.update(ramps=ramps, boxes=boxes)
    return SceneInfo(
        bodies=bodies,
        data={"mus": list(RAMP_MUS), "angle_deg": float(angle_deg), "time": float(time),
              "down_slope": (-math.cos(th), -math.sin(th)),
              "analytic_displacement": [ramp_displacement(mu, time, angle_deg)
                                        for mu in RAMP_MUS]},
    )


# --------------------------------------------------------------------------------------------
# demo scenes
# --------------------------------------------------------------------------------------------

def _regular_polygon(n, r, phase=0.0):
    angles = [phase + 2.0 * math.pi * i / n for i in range(n)]
    return [(r * math.cos(a), r * math.sin(a)) for a in angles]


@scene("mixed_rain", "A rain of mixed shapes (circles, boxes, capsules, triangles, pentagons, "
       "rounded boxes) falling into a container past two deflectors.", steps=480,
       view=(-14.0, -2.0, 14.0, 38.0), count=300)
def mixed_rain(world, count=300, seed=7):
    count = int(count)
    if count < 0:
        raise ValueError(f"mixed_rain count must be >= 0, got {count}")
    rng = random.Random(seed)
    floor = _static_box(world, (0.0, -0.5), 13.0, 0.5)
    left = _static_box(world, (-12.5, 15.0), 0.5, 15.0)
    right = _static_box(world, (12.5, 15.0), 0.5, 15.0)
    # two static deflector segments on one body, sloping down towards the middle
    deflectors = world.create_body(type="static", position=(0.0, 0.0))
    deflectors.create_segment((-12.0, 12.0), (-5.0, 9.0))
    deflectors.create_segment((12.0, 12.0), (5.0, 9.0))

    kinds = ("circle", "box", "capsule", "triangle", "pentagon", "rounded_box")
    cols, pitch = 18, 1.25                     # the largest shape is 1.2 m across
    bodies, by_kind = [], {k: [] for k in kinds}
    for k in range(count):
        j, i = divmod(k, cols)
        x = -0.5 * (cols - 1) * pitch + pitch * i + (0.3 if j % 2 else -0.3)
        y = 15.0 + 1.3 * j
        kind = kinds[k % len(kinds)]
        body = world.create_body(type="dynamic", position=(x, y),
                                 angle=rng.uniform(-math.pi, math.pi),
                                 angular_velocity=rng.uniform(-1.0, 1.0))
        s = rng.uniform(0.8, 1.2)
        if kind == "circle":
            body.create_circle(0.35 * s)
        elif kind == "box":
            body.create_box(0.45 * s, 0.3 * s)
        elif kind == "capsule":
            body.create_capsule((-0.35 * s, 0.0), (0.35 * s, 0.0), 0.22 * s)
        elif kind == "triangle":
            body.create_polygon(_regular_polygon(3, 0.5 * s, math.pi / 2))
        elif kind == "pentagon":
            body.create_polygon(_regular_polygon(5, 0.45 * s, math.pi / 2))
        else:
            body.create_box(0.3 * s, 0.2 * s, radius=0.1 * s)
        bodies.append(body)
        by_kind[kind].append(body)
    return SceneInfo(
        bodies={"floor": floor, "walls": [left, right], "deflectors": deflectors,
                "dynamic": bodies, **by_kind},
        data={"count": count, "inner_half_width": 12.0, "seed": seed},
    )


@scene("dominoes", "A row of 30 thin dominoes (0.2 x 2 m, 1.2 m apart); the first one is "
       "tipped over and knocks down the rest.", steps=660, view=(-3.0, -1.0, 38.0, 8.0), count=30)
def dominoes(world, count=30, spacing=1.2, push=2.0):
    count = int(count)
    if count < 1:
        raise ValueError(f"dominoes needs count >= 1, got {count}")
    hx, hy = 0.1, 1.0
    length = (count - 1) * spacing
    ground = _static_box(world, (0.5 * length, -0.5), 0.5 * length + 10.0, 0.5)
    dominoes_ = []
    for i in range(count):
        x = i * spacing
        if i == 0:
            # start tipping about the bottom right corner: v = w x (centre - corner)
            w = -abs(push)
            rx, ry = -hx, hy
            body = world.create_body(type="dynamic", position=(x, hy),
                                     linear_velocity=(-w * ry, w * rx), angular_velocity=w)
        else:
            body = world.create_body(type="dynamic", position=(x, hy))
        body.create_box(hx, hy)
        dominoes_.append(body)
    return SceneInfo(
        bodies={"ground": ground, "dominoes": dominoes_, "first": dominoes_[0],
                "last": dominoes_[-1]},
        data={"count": count, "spacing": spacing, "half_extents": (hx, hy)},
    )


@scene("stack", "A vertical stack of unit boxes on a static ground.", steps=300,
       view=(-6.0, -1.0, 6.0, 9.0), count=5)
def stack(world, count=5):
    count = int(count)
    if count < 1:
        raise ValueError(f"stack needs count >= 1, got {count}")
    ground = _static_box(world, (0.0, -0.5), 10.0, 0.5)
    boxes = []
    for i in range(count):
        body = world.create_body(type="dynamic", position=(0.0, 0.5 + i))
        body.create_box(0.5, 0.5)
        boxes.append(body)
    return SceneInfo(bodies={"ground": ground, "boxes": boxes, "top": boxes[-1]},
                     data={"count": count, "box_half": 0.5})
