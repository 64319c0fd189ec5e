"""Shared helpers for the test suite."""

from __future__ import annotations

import impulse2d as i2d

DT = 1.0 / 60.0


def run(world: i2d.World, seconds: float, dt: float = DT) -> None:
    for _ in range(int(round(seconds / dt))):
        world.step(dt)


def batch_world(seed: int = 0, **settings) -> i2d.World:
    """The batch benchmark's world (``benchmarks/batch_bench.py``): 8 circles and 2 boxes
    dropped on a floor from places drawn with ``seed``."""
    import numpy as np
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0), **settings)
    world.create_body("static").create_box(10.0, 0.5)
    for _ in range(8):
        world.create_body("dynamic", (rng.uniform(-4, 4), rng.uniform(1, 6))).create_circle(0.3)
    for _ in range(2):
        world.create_body("dynamic", (rng.uniform(-4, 4), rng.uniform(1, 6))).create_box(0.4, 0.4)
    return world


def ground_world(**settings) -> tuple[i2d.World, i2d.Body]:
    """A world with a wide static ground box whose top face is y = 0."""
    world = i2d.World(**settings)
    ground = world.create_body(type="static")
    ground.create_box(50.0, 0.5, center=(0.0, -0.5))
    return world, ground


def world_with_room(boxes: int, columns: int, left: float) -> i2d.World:
    """A stepped world whose stores' reference was built from its present stores, with free
    body and shape rows to reuse (two in three of ``boxes`` boxes, dropped in ``columns``
    columns from x = ``left`` m, destroyed) and room for more without growing."""
    world = i2d.World(gravity=(0.0, -10.0))
    ground = world.create_body("static")
    ground.create_segment((-50.0, -6.0), (50.0, -6.0))
    doomed = []
    for k in range(boxes):
        body = world.create_body("dynamic", position=(0.7 * (k % columns) + left, 8.0 + k))
        body.create_box(0.3, 0.3, density=1.0)
        doomed.append(body)
    for k, body in enumerate(doomed):
        if k % 3:
            world.destroy_body(body)
    for _ in range(10):
        world.step(DT)
    return world
