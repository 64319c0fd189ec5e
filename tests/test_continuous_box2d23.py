"""Continuous collision with Box2D 2.3's rules (``WorldSettings.continuous_box2d23``,
``impulse2d._dynamics.continuous_box2d23``): a hit counts only past Box2D 2.3's skin overlap
(three slops), on the far side or through, and takes the body's speed into the obstacle away.
The default (Box2D v3's stop) is tests/test_continuous.py's."""

from __future__ import annotations

import math

import pytest

import impulse2d as i2d
from impulse2d._collision.toi import TARGET_GAP, TOLERANCE
from impulse2d._dynamics.continuous_box2d23 import SKIN_DEPTH
from impulse2d.constants import LINEAR_SLOP

DT = 1.0 / 60.0
SPEED = 500.0  # m/s (clamped to max_linear_speed, 400 m/s: 6.7 m a step)

MOVERS = {
    "circle": lambda b: b.create_circle(0.05),
    "capsule": lambda b: b.create_capsule((-0.1, 0.0), (0.1, 0.0), 0.05),
    "box": lambda b: b.create_box(0.05, 0.05),
    "polygon": lambda b: b.create_polygon([(-0.06, -0.05), (0.06, -0.04), (0.0, 0.07)]),
    "segment": lambda b: b.create_segment((-0.1, 0.0), (0.1, 0.0)),
}


def _world(box2d23=True, gravity=(0.0, 0.0)):
    return i2d.World(gravity=gravity, continuous_box2d23=box2d23)


@pytest.mark.parametrize("approach", (0.0, 1.2, -2.5))
@pytest.mark.parametrize("mover", sorted(MOVERS))
@pytest.mark.parametrize("wall", ("box", "segment"))
def test_a_fast_body_does_not_pass_a_thin_static_wall(mover, approach, wall):
    # 400 m/s against a 0.1 m box or a segment (no thickness) across the path: the sweep stops
    # the body before it; it never gets past the wall's plane (its centre stays in front).
    world = _world()
    c, s = math.cos(approach), math.sin(approach)
    body_wall = world.create_body(type="static", angle=approach)
    if wall == "box":
        body_wall.create_box(0.05, 3.0)
    else:
        body_wall.create_segment((0.0, -3.0), (0.0, 3.0))
    body = world.create_body(position=(-3.0 * c, -3.0 * s), angle=0.3,
                             linear_velocity=(SPEED * c, SPEED * s))
    MOVERS[mover](body)
    for _ in range(60):
        world.step(DT)
        p = body.world_center
        assert p.x * c + p.y * s < 0.0, (mover, approach, wall)


def test_a_hit_loses_its_speed_into_the_obstacle_and_keeps_the_rest():
    # A box thrown down and sideways at a segment ground from 3 m: it stops TARGET_GAP above
    # it (as v3, within the advance's tolerance) with its downward speed gone and its 5 m/s
    # along the ground kept; v3 keeps the 300 m/s down for the next step's contact to stop.
    for box2d23 in (True, False):
        world = _world(box2d23)
        world.create_body(type="static").create_segment((-50.0, 0.0), (50.0, 0.0))
        box = world.create_body(position=(0.0, 3.0), linear_velocity=(5.0, -300.0),
                                fixed_rotation=True)
        box.create_box(0.1, 0.1)
        world.step(DT)
        gap = box.position.y - 0.1
        assert TARGET_GAP - 1e-9 <= gap <= TARGET_GAP + TOLERANCE + 1e-9
        vx, vy = box.linear_velocity
        # (the normal comes from the closest points: vertical to ~1e-12)
        assert vx == pytest.approx(5.0, abs=1e-9)
        if box2d23:
            assert vy == pytest.approx(0.0, abs=1e-9)
        else:
            assert vy == pytest.approx(-300.0, abs=1e-12)


@pytest.mark.parametrize("depth", (0.5 * SKIN_DEPTH, 0.9 * SKIN_DEPTH, 2.0 * SKIN_DEPTH))
def test_a_body_ending_within_the_skin_is_left_there(depth):
    # A 1 m box 0.3 m above a segment ground, thrown down to end the step ``depth`` inside it
    # (no gravity; the pair is not in contact when the step begins, so nothing else stops it).
    # Within Box2D 2.3's skin overlap (three slops) it stays where the step put it, and the
    # next steps' contact pushes it back out to rest; deeper, it is put back at its impact.
    world = _world()
    world.create_body(type="static").create_segment((-50.0, 0.0), (50.0, 0.0))
    box = world.create_body(position=(0.0, 0.8), linear_velocity=(0.0, -(0.3 + depth) / DT),
                            fixed_rotation=True)
    box.create_box(0.5, 0.5)
    world.step(DT)
    bottom = box.position.y - 0.5
    if depth <= SKIN_DEPTH:
        assert bottom == pytest.approx(-depth, abs=1e-9)
        for _ in range(30):
            world.step(DT)
        assert -2.0 * LINEAR_SLOP <= box.position.y - 0.5 <= LINEAR_SLOP
        assert abs(box.linear_velocity.y) < 0.05
    else:
        assert TARGET_GAP - 1e-9 <= bottom <= TARGET_GAP + TOLERANCE + 1e-9
        assert box.linear_velocity.y == pytest.approx(0.0, abs=1e-9)


def test_a_box_dropped_from_50_m_lands_without_sinking():
    # It lands at 31.6 m/s (0.53 m a step); the sweep stops it above the ground with no speed
    # into it, and it comes to rest on the ground: resting overlap within two slops.
    world = _world(gravity=(0.0, -10.0))
    world.create_body(type="static").create_segment((-50.0, 0.0), (50.0, 0.0))
    box = world.create_body(position=(0.0, 50.0))
    box.create_box(0.5, 0.5)
    lowest = math.inf
    for _ in range(300):
        world.step(DT)
        lowest = min(lowest, box.position.y - 0.5)
    assert lowest > -2.0 * LINEAR_SLOP
    assert box.position.y - 0.5 == pytest.approx(-LINEAR_SLOP, abs=LINEAR_SLOP)


def test_the_setting_is_off_by_default_and_validated():
    assert i2d.WorldSettings().continuous_box2d23 is False
    world = i2d.World()
    with pytest.raises(TypeError, match="continuous_box2d23"):
        world.settings.continuous_box2d23 = "yes"
    assert world.settings.continuous_box2d23 is False
    world.settings.continuous_box2d23 = True
    assert world.settings.continuous_box2d23 is True
