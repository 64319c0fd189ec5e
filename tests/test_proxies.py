"""The bounds stage (:func:`impulse2d._dynamics.proxies.update_aabbs`): a circle's box is
written in the stage itself, the other shapes' through ``geometry.shape_aabb``; every box is
what ``shape_aabb`` gives, bit for bit, and the fat boxes contain them."""

import math

import numpy as np

import impulse2d as i2
from impulse2d._collision.geometry import shape_aabb
from impulse2d._core.state import STATIC


def _world(seed):
    """Circles off their bodies' centres and boxes, thrown and spun, with a floor."""
    rng = np.random.default_rng(seed)
    world = i2.World(gravity=(0.0, -10.0), enable_sleep=False)
    world.create_body(type="static").create_box(20.0, 0.5, center=(0.0, -0.5))
    for k in range(60):
        body = world.create_body(position=(rng.uniform(-15, 15), rng.uniform(1, 20)),
                                 angle=rng.uniform(-math.pi, math.pi),
                                 linear_velocity=tuple(rng.uniform(-8, 8, 2)),
                                 angular_velocity=rng.uniform(-20, 20))
        if k % 3:
            body.create_circle(rng.uniform(0.05, 0.6), center=tuple(rng.uniform(-0.4, 0.4, 2)))
        else:
            body.create_box(rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.6))
    return world


def test_every_box_is_shape_aabb_s_to_the_bit_circles_included():
    for seed in range(3):
        world = _world(seed)
        for step in range(40):
            world.step(1.0 / 60.0)
            world.step(0.0)  # the bounds of the bodies where they are now (moves nothing)
            shapes, bodies = world._shapes, world._bodies
            circles = 0
            for i in np.flatnonzero(shapes.alive):
                b = shapes.body[i]
                if bodies.type[b] == STATIC:
                    continue  # static: not visited on an awake step
                box = np.empty(4)
                shape_aabb(shapes.count[i], shapes.vertices[i], shapes.radius[i],
                           bodies.origin[b, 0], bodies.origin[b, 1], bodies.rot[b, 0],
                           bodies.rot[b, 1], box)
                assert shapes.aabb[i].tobytes() == box.tobytes(), (seed, step, i)
                fat = shapes.fat_aabb[i]
                assert fat[0] <= box[0] and fat[1] <= box[1]
                assert box[2] <= fat[2] and box[3] <= fat[3]
                circles += int(shapes.count[i] == 1)
            assert circles == 40  # the circle path ran for each of them
