"""Shared helpers for the test suite."""

from __future__ import annotations

import impulse2d as i2d

DT = 1.0 / 60.0


def run(world: i2d.World, seconds: float, dt: float = DT) -> None:
    for _ in range(int(round(seconds / dt))):
        world.step(dt)


def ground_world(**settings) -> tuple[i2d.World, i2d.Body]:
    """A world with a wide static ground box whose top face is y = 0."""
    world = i2d.World(**settings)
    ground = world.create_body(type="static")
    ground.create_box(50.0, 0.5, center=(0.0, -0.5))
    return world, ground
