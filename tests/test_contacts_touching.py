"""Contacts a game can use (issue 29 item 8): the ``touching`` flag, ``world.contacts`` listing
only touching contacts, ``body.contacts``, the bulk ``world.contact_data()``, and ``shape.aabb``
before the first step."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.scenes import build_scene

DT = 1.0 / 60.0


def _ground(world):
    ground = world.create_body(type="static")
    ground.create_box(10.0, 0.5)
    return ground


def test_a_ball_one_centimetre_above_the_ground_is_not_touching():
    world = i2d.World(gravity=(0.0, 0.0))
    _ground(world)
    ball = world.create_body(position=(0.0, 0.5 + 0.25 + 0.01))
    ball.create_circle(0.25)
    world.step(DT)
    assert world.contacts == [] and ball.contacts == []
    (speculative,) = world.get_contacts(touching_only=False)
    assert speculative.touching is False
    assert speculative.points[0].separation == pytest.approx(0.01, abs=1e-9)
    assert speculative.points[0].normal_impulse == 0.0
    data = world.contact_data(touching_only=False)
    assert data.touching.tolist() == [False] and world.contact_data().point.shape == (0, 2)
    for bad in ("no", 0, None):
        with pytest.raises(TypeError, match="touching_only"):
            world.get_contacts(touching_only=bad)
        with pytest.raises(TypeError, match="touching_only"):
            world.contact_data(touching_only=bad)


def test_a_falling_ball_touches_from_the_step_it_is_stopped():
    """Touching = a point overlaps or pushed: the landing step (the manifold made while still
    apart, the solver stopping the ball at the surface) already counts."""
    world = i2d.World()
    _ground(world)
    ball = world.create_body(position=(0.0, 2.0))
    ball.create_circle(0.25)
    landed = None
    for step in range(120):
        world.step(DT)
        every = world.get_contacts(touching_only=False)
        for c in every:
            pressed = any(p.separation < 0.0 or p.normal_impulse > 0.0 for p in c.points)
            assert c.touching == pressed
        if world.contacts and landed is None:
            landed = step
            (c,) = world.contacts
            assert c.points[0].normal_impulse > 0.0
    assert landed is not None
    # 1.25 m of free fall: t = sqrt(2 h / g) = 0.5 s, 30 steps
    assert landed == pytest.approx(30, abs=2)
    assert ball.contacts == world.contacts


def test_body_contacts_and_bulk_data_equal_world_contacts():
    world = i2d.World(enable_sleep=False)
    build_scene(world, "pyramid", base=8)
    for _ in range(60):
        world.step(DT)
    listed = world.contacts
    assert len(listed) > 40 and all(c.touching for c in listed)
    bodies = world.bodies
    for body in bodies:
        mine = [c for c in listed if body in (c.shape_a.body, c.shape_b.body)]
        assert body.contacts == mine
    data = world.contact_data()
    points = [(k, c, p) for k, c in enumerate(listed) for p in c.points]
    assert data.point.shape == (len(points), 2)
    index = {b: k for k, b in enumerate(bodies)}
    positions = world.get_positions()
    for row, (k, c, p) in enumerate(points):
        assert data.contact[row] == k
        assert data.shape_a[row] == c.shape_a.index and data.shape_b[row] == c.shape_b.index
        assert data.body_a[row] == index[c.shape_a.body]
        assert np.array_equal(positions[data.body_b[row]], c.shape_b.body.position)
        assert tuple(data.normal[row]) == c.normal
        assert tuple(data.point[row]) == p.point
        assert data.separation[row] == p.separation
        assert data.normal_impulse[row] == p.normal_impulse
        assert data.tangent_impulse[row] == p.tangent_impulse
        assert data.touching[row]
    every = world.contact_data(touching_only=False)
    assert every.point.shape[0] >= data.point.shape[0]
    # the pyramid's weight: every box (1 kg) rests on the ground through the stack
    ground_rows = data.body_a == index[bodies[0]]
    total = data.normal_impulse[ground_rows].sum()
    mass = sum(b.mass for b in bodies if b.type == i2d.BodyType.DYNAMIC)
    assert total == pytest.approx(mass * 10.0 * DT, rel=1e-2)


def _box_bounds(body, center, half, radius):
    """The bounds of a box of half extents ``half`` at ``center`` (body frame) where ``body``
    is now, grown by ``radius``."""
    (px, py), a = body.position, body.angle
    c, s = math.cos(a), math.sin(a)
    corners = np.array([(px + c * x - s * y, py + s * x + c * y)
                        for x in (center[0] - half[0], center[0] + half[0])
                        for y in (center[1] - half[1], center[1] + half[1])])
    return (*(corners.min(axis=0) - radius), *(corners.max(axis=0) + radius))


def test_shape_aabb_bounds_the_shape_before_the_first_step():
    world = i2d.World()
    body = world.create_body(position=(3.0, -2.0), angle=0.5, angular_velocity=2.0)
    box = body.create_box(1.0, 0.5, center=(0.2, 0.1), radius=0.05)
    ball = body.create_circle(0.3, center=(-1.0, 0.0))
    assert box.aabb == pytest.approx(_box_bounds(body, (0.2, 0.1), (1.0, 0.5), 0.05), abs=1e-12)
    c, s = math.cos(0.5), math.sin(0.5)
    centre = (3.0 + c * -1.0, -2.0 + s * -1.0)
    assert ball.aabb == pytest.approx((centre[0] - 0.3, centre[1] - 0.3, centre[0] + 0.3,
                                       centre[1] + 0.3), abs=1e-12)
    # after steps (falling, turning): where the shape is now, not where the step found it
    for _ in range(10):
        world.step(DT)
    assert box.aabb == pytest.approx(_box_bounds(body, (0.2, 0.1), (1.0, 0.5), 0.05), abs=1e-12)
    # moved by hand: where it is now
    body.position = (10.0, 0.0)
    assert box.aabb == pytest.approx(_box_bounds(body, (0.2, 0.1), (1.0, 0.5), 0.05), abs=1e-12)
