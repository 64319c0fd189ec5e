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
