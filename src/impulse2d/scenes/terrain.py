"""Terrain scenes: ground made of one chain (``Body.create_chain``), smooth across its vertices.

``chain_terrain`` is also the chain benchmark (``benchmarks/chain.py`` replays it into Box2D
v3.1, whose chain shape is the model of ours): :func:`terrain_points` and :func:`drop_layout`
give the same terrain and bodies to both engines.
"""

from __future__ import annotations

import math

from . import SceneInfo, scene

__all__ = ["chain_terrain", "terrain_points", "drop_layout"]


def terrain_points(width=120.0, spacing=0.25):
    """Hills of two sine waves (amplitudes 2 m and 0.6 m, wavelengths 37.7 m and 14.5 m) over
    ``width`` m, a point every ``spacing`` m, listed right to left so that the surface faces
    up (the chain's front is on the right of its direction of travel), with a 10 m wall at
    each end."""
    n = int(round(width / spacing))
    half = 0.5 * width
    points = [(half, 10.0)]
    for k in range(n + 1):
        x = half - k * spacing
        points.append((x, 2.0 * math.sin(x / 6.0) + 0.6 * math.sin(x / 2.3)))
    points.append((-half, 10.0))
    return points


def drop_layout(count, width=120.0, seed=3):
    """``count`` bodies as ``(kind, x, y, angle)`` in rows 1.5 m apart from 6 m up, across the
    middle 90 % of the width; kinds cycle box, circle, capsule."""
    import random
    rng = random.Random(seed)
    per_row = max(1, int(0.9 * width / 1.5))
    kinds = ("box", "circle", "capsule")
    layout = []
    for k in range(count):
        row, col = divmod(k, per_row)
        x = -0.45 * width + 1.5 * col + 0.75 * (row % 2)
        layout.append((kinds[k % 3], x, 6.0 + 1.5 * row, rng.uniform(-math.pi, math.pi)))
    return layout


@scene("chain_terrain", "Hilly ground of one chain (480 segments of 0.25 m over 120 m and "
       "a 10 m wall at each end; smooth across its vertices) with 300 boxes, circles and "
       "capsules dropped on it; they roll and slide into the valleys.", steps=600, view=(-62.0, -6.0, 62.0, 30.0),
       count=300)
def chain_terrain(world, count=300, width=120.0, spacing=0.25):
    count = int(count)
    if count < 0:
        raise ValueError(f"chain_terrain count must be >= 0, got {count}")
    ground = world.create_body(type="static")
    chain = ground.create_chain(terrain_points(width, spacing), friction=0.6)
    bodies = []
    for kind, x, y, angle in drop_layout(count, width):
        body = world.create_body(position=(x, y), angle=angle)
        if kind == "box":
            body.create_box(0.4, 0.3)
        elif kind == "circle":
            body.create_circle(0.35)
        else:
            body.create_capsule((-0.35, 0.0), (0.35, 0.0), 0.2)
        bodies.append(body)
    return SceneInfo(bodies={"ground": ground, "dropped": bodies},
                     data={"chain": chain, "segments": len(chain.segments), "width": width})
