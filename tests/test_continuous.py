"""Continuous collision (issue 15, item 1): fast bodies do not pass through thin walls.

Each case is run with ``enable_continuous`` on and off: off, the same body tunnels, which shows
that the test can fail. The sweep and its rules: ``impulse2d._dynamics.continuous``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._collision.toi import TARGET_GAP, TOLERANCE
from impulse2d.constants import LINEAR_SLOP
from impulse2d.scenes import build_scene

DT = 1.0 / 60.0
WALL_HALF = 0.05       # a 0.1 m thick wall
WALL_LENGTH = 3.0      # half-length, m
SPEED = 500.0          # m/s (the step clamps it to max_linear_speed, 400 m/s: 6.7 m a step)

MOVERS = {
    "circle": lambda b: b.create_circle(0.05),
    "capsule": lambda b: b.create_capsule((-0.1, 0.0), (0.1, 0.0), 0.05),
    "box": lambda b: b.create_box(0.05, 0.05),
    "polygon": lambda b: b.create_polygon([(-0.06, -0.05), (0.06, -0.04), (0.0, 0.07)]),
    "rounded_box": lambda b: b.create_box(0.03, 0.03, radius=0.02),
    "segment": lambda b: b.create_segment((-0.1, 0.0), (0.1, 0.0)),
}
APPROACHES = (0.0, 0.5, 1.2, -2.5)  # rad: direction of travel (the wall faces it)


def shoot(make, approach, continuous=True, spin=0.0, steps=60):
    """A body thrown at SPEED along ``approach`` from 3 m before a static wall across its path;
    returns the largest coordinate of its centre along the approach while it is in front of
    or behind the wall (the wall's mid-plane is 0), and the final one."""
    world = i2d.World(gravity=(0.0, 0.0), enable_continuous=continuous)
    c, s = math.cos(approach), math.sin(approach)
    wall = world.create_body(type="static", angle=approach)
    wall.create_box(WALL_HALF, WALL_LENGTH)
    body = world.create_body(position=(-3.0 * c, -3.0 * s), angle=0.3, angular_velocity=spin,
                             linear_velocity=(SPEED * c, SPEED * s))
    make(body)
    furthest = -math.inf
    along = -math.inf
    for _ in range(steps):
        world.step(DT)
        p = body.world_center
        along = p.x * c + p.y * s
        if abs(-p.x * s + p.y * c) < WALL_LENGTH:
            furthest = max(furthest, along)
    return furthest, along


@pytest.mark.parametrize("approach", APPROACHES)
@pytest.mark.parametrize("mover", sorted(MOVERS))
def test_a_fast_body_does_not_pass_a_thin_static_wall(mover, approach):
    # Every shape type at 400 m/s (60 times the wall's thickness per step), at four angles,
    # without and with spin: the centre never reaches the wall's mid-plane.
    for spin in (0.0, 20.0):
        furthest, _ = shoot(MOVERS[mover], approach, spin=spin)
        assert furthest < 0.0, (spin, furthest)
    _, final = shoot(MOVERS[mover], approach, continuous=False)
    assert final > 300.0  # off: straight through, 6.7 m a step


@pytest.mark.parametrize("approach", APPROACHES)
def test_the_circle_stops_at_the_wall_face(approach):
    # The 0.05 m circle ends touching the face (centre 0.1 m before the mid-plane), within the
    # slop the contact allows.
    furthest, final = shoot(MOVERS["circle"], approach)
    assert -0.1 - LINEAR_SLOP <= final <= -0.1 + LINEAR_SLOP
    assert furthest <= -0.1 + LINEAR_SLOP


def test_the_body_is_put_at_its_time_of_impact_with_its_velocity():
    # First step: from 3 m before the face, 6.67 m of travel; the sweep stops the circle where
    # its surface is TARGET_GAP from the face (within the advance's tolerance) and keeps its
    # 400 m/s (the next step's speculative contact stops it).
    world = i2d.World(gravity=(0.0, 0.0))
    world.create_body(type="static").create_box(WALL_HALF, WALL_LENGTH)
    ball = world.create_body(position=(-3.0, 0.0), linear_velocity=(SPEED, 0.0))
    ball.create_circle(0.05)
    world.step(DT)
    gap = -WALL_HALF - (ball.position.x + 0.05)
    assert TARGET_GAP - 1e-12 <= gap <= TARGET_GAP + TOLERANCE + 1e-12  # rounding of x
    assert ball.linear_velocity.x == world.settings.max_linear_speed
    world.step(DT)
    assert abs(ball.linear_velocity.x) < 1.0  # stopped by the contact (restitution 0)


def test_a_fast_body_is_stopped_by_a_thin_kinematic_wall():
    # Non-bullets are swept against kinematic bodies too, met at their end-of-step pose.
    for continuous in (True, False):
        world = i2d.World(gravity=(0.0, 0.0), enable_continuous=continuous)
        wall = world.create_body(type="kinematic", linear_velocity=(0.0, 1.0))
        wall.create_box(WALL_HALF, WALL_LENGTH)
        ball = world.create_body(position=(-3.0, 0.0), linear_velocity=(SPEED, 0.0))
        ball.create_circle(0.05)
        for _ in range(30):
            world.step(DT)
        if continuous:
            assert ball.position.x < -0.1 + LINEAR_SLOP
        else:
            assert ball.position.x > 100.0


def plank_shot(bullet, continuous=True):
    """A 5 cm ball at 300 m/s through a thin (4 cm) free dynamic plank, no gravity."""
    world = i2d.World(gravity=(0.0, 0.0), enable_continuous=continuous)
    plank = world.create_body(position=(0.0, 0.0))
    plank.create_box(0.02, 1.0)
    ball = world.create_body(position=(-3.0, 0.3), linear_velocity=(300.0, 0.0), bullet=bullet)
    ball.create_circle(0.05, density=5.0)
    for _ in range(30):
        world.step(DT)
    return world, ball, plank


def test_a_bullet_hits_a_thin_dynamic_plank():
    world, ball, plank = plank_shot(bullet=True)
    p0 = ball.mass * 300.0
    p1 = ball.mass * ball.linear_velocity.x + plank.mass * plank.linear_velocity.x
    assert p1 == pytest.approx(p0, rel=1e-9)  # the contact's impulses are equal and opposite
    # restitution 0: a perfectly inelastic hit would give both the common speed; the plank
    # has at least 90 % of it
    common = p0 / (ball.mass + plank.mass)
    assert plank.linear_velocity.x > 0.9 * common
    assert ball.position.x < plank.position.x  # still behind it
    # the same ball, not a bullet, is not swept against dynamic bodies: it passes (Box2D's
    # rule), as every ball does with continuous collision off
    for bullet, continuous in ((False, True), (True, False)):
        _, ball, plank = plank_shot(bullet, continuous)
        assert plank.linear_velocity.x == 0.0
        assert ball.position.x > 100.0


def drop(continuous, height=50.0, steps=300):
    """A 1 m box dropped from ``height`` (its bottom) onto the ground: the deepest its bottom
    goes below the ground's top, m."""
    world = i2d.World(enable_continuous=continuous)
    world.create_body(type="static").create_box(20.0, 0.5, center=(0.0, -0.5))
    box = world.create_body(position=(0.0, height + 0.5))
    box.create_box(0.5, 0.5)
    deepest = 0.0
    for _ in range(steps):
        world.step(DT)
        deepest = max(deepest, 0.5 - box.position.y)
    return deepest


def test_a_box_dropped_from_50_m_penetrates_less_than_1_cm():
    # It lands at 31.6 m/s (0.53 m a step): on, the sweep stops it 5 mm above the ground and
    # the speculative contact takes it from there; off, the discrete step lets it sink 18 cm.
    assert drop(True) < 0.01
    assert drop(False) > 0.1


def test_fast_sliding_along_the_ground_is_not_slowed():
    # A body touching the ground is swept as its centre's small circle (Box2D's rule), so that
    # a fast slide (here 0.5 m a step, ten times the fast threshold) is not stopped at each
    # step: with no friction it travels v t to 1e-9.
    for make in (lambda b: b.create_box(0.05, 0.05, friction=0.0),
                 lambda b: b.create_circle(0.05, friction=0.0)):
        world = i2d.World()
        world.create_body(type="static").create_box(100.0, 0.5, center=(0.0, -0.5),
                                                     friction=0.0)
        body = world.create_body(position=(-50.0, 0.05), linear_velocity=(30.0, 0.0),
                                 fixed_rotation=True)
        make(body)
        for _ in range(60):
            world.step(DT)
        assert body.position.x == pytest.approx(-50.0 + 30.0, rel=1e-9)


def test_slow_scenes_are_unchanged():
    # A pyramid settling for 3 s: no body moves half its half-width in a step, so continuous
    # on and off give the same bits.
    states = []
    for continuous in (True, False):
        world = i2d.World(enable_continuous=continuous)
        build_scene(world, "pyramid", base=10)
        for _ in range(180):
            world.step(DT)
        states.append(np.concatenate([world.get_positions().ravel(), world.get_angles(),
                                      world.get_velocities().ravel()]))
    assert np.array_equal(states[0], states[1])


LAZY = """
import impulse2d as i2d
from impulse2d.scenes import build_scene
from impulse2d._dynamics.step import CONTINUOUS_KERNEL
from impulse2d._dynamics.verbs import CONTINUOUS
world = i2d.World()
build_scene(world, "pyramid", base=10)
for _ in range(120):
    world.step(1 / 60)
print(CONTINUOUS_KERNEL.compiled_address() != 0, world._verbs[CONTINUOUS] != 0)
world.create_body(position=(0, 30), linear_velocity=(0, -100)).create_circle(0.1)
world.step(1 / 60)
print(CONTINUOUS_KERNEL.compiled_address() != 0, world._verbs[CONTINUOUS] != 0)
"""


def test_the_sweep_in_the_cache_is_loaded_before_the_first_step():
    # In a fresh process whose cache holds the continuous stage (the tests above compiled
    # it): the pyramid's first step loads it and points the world's table at it, so the step
    # where a body first moves fast loads nothing. A stage not in the cache is compiled only
    # by the step that needs it (test_startup.py).
    import os
    import subprocess
    import sys
    from pathlib import Path
    src = str(Path(i2d.__file__).resolve().parents[1])
    env = dict(os.environ, IMPULSE2D_QUIET="1", PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-c", LAZY], capture_output=True, text=True, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True", "True"]


def test_bullet_and_enable_continuous_are_validated():
    world = i2d.World()
    body = world.create_body()
    assert body.bullet is False
    body.bullet = True
    assert body.bullet is True
    with pytest.raises(TypeError, match="bullet"):
        body.bullet = "yes"
    assert body.bullet is True
    count = world.body_count
    with pytest.raises(TypeError, match="bullet"):
        world.create_body(bullet=2)
    assert world.body_count == count
    assert world.create_body(bullet=1).bullet is True
    assert i2d.WorldSettings().enable_continuous is True
    with pytest.raises(TypeError, match="enable_continuous"):
        world.settings.enable_continuous = "off"
    assert world.settings.enable_continuous is True
    with pytest.raises(TypeError, match="enable_continuous"):
        i2d.World(enable_continuous=None)
