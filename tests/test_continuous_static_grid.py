"""The continuous stage's grid of static shapes, kept between steps (``_dynamics/static_grid``).

A fast ball is fired at thin static walls after earlier steps built the grid, and the walls
were moved, added or destroyed in between: it must stop at the walls where they are now and
pass where they no longer are, at the very position (bit for bit) at which the same shot stops
in a fresh world (whose grid is built for that shot). Both continuous stages (Box2D v3's and
Box2D 2.3's rules) use the grid.
"""

from __future__ import annotations

import pytest

import impulse2d as i2d

DT = 1.0 / 60.0
WALL_HALF = 0.05     # m: a 0.1 m thick wall, 6 m long
WALL_LENGTH = 3.0
RADIUS = 0.05        # m: the ball
SPEED = 400.0        # m/s: 6.7 m a step, the wall's thickness 67 times over
START = -3.0         # m: where the ball is fired from, 3 m before the wall's plane x = 0
LANES = (0.0, 20.0)  # m: the heights of the two walls' lanes


def world_with_walls(box2d23: bool, lanes) -> tuple[i2d.World, dict, i2d.Body]:
    """A weightless world with a static wall across x = 0 in each of ``lanes`` (their bodies by
    lane), a row of small static boxes below (a ground the grid bins into many cells), and a
    ball far from both."""
    world = i2d.World(gravity=(0.0, 0.0), continuous_box2d23=box2d23)
    walls = {}
    for y in lanes:
        walls[y] = world.create_body(type="static", position=(0.0, y))
        walls[y].create_box(WALL_HALF, WALL_LENGTH)
    ground = world.create_body(type="static", position=(0.0, -10.0))
    for k in range(40):
        ground.create_box(0.25, 0.1, center=(-10.0 + 0.5 * k, 0.0))
    ball = world.create_body(position=(START, 50.0))
    ball.create_circle(RADIUS)
    return world, walls, ball


def fire(world: i2d.World, ball: i2d.Body, lane: float) -> float:
    """Fire the ball along ``lane`` from x = START at SPEED; its x after one step."""
    ball.position = (START, lane)
    ball.linear_velocity = (SPEED, 0.0)
    ball.angular_velocity = 0.0
    world.step(DT)
    return ball.position.x


def fresh_shot(box2d23: bool, lanes, lane: float) -> float:
    world, _, ball = world_with_walls(box2d23, lanes)
    return fire(world, ball, lane)


STOPPED = -WALL_HALF - RADIUS  # the ball's centre stops at most here (a wall at x = 0)
PASSED = START + SPEED * DT - 1e-9  # the whole step's travel


@pytest.mark.parametrize("box2d23", [False, True])
def test_a_moved_static_wall_stops_the_ball_where_it_is_now(box2d23):
    world, walls, ball = world_with_walls(box2d23, (0.0,))
    first = fire(world, ball, 0.0)
    assert first <= STOPPED
    assert first == fresh_shot(box2d23, (0.0,), 0.0)
    walls[0.0].position = (0.0, 20.0)  # the grid's wall leaves the lane; now at y = 20
    moved = fire(world, ball, 20.0)
    assert moved <= STOPPED
    assert moved == fresh_shot(box2d23, (20.0,), 20.0)
    assert fire(world, ball, 0.0) >= PASSED  # where it was, nothing stops the ball


@pytest.mark.parametrize("box2d23", [False, True])
def test_a_static_wall_created_after_the_grid_was_built_stops_the_ball(box2d23):
    world, _, ball = world_with_walls(box2d23, (0.0,))
    assert fire(world, ball, 0.0) <= STOPPED
    assert fire(world, ball, 20.0) >= PASSED  # no wall in the second lane yet
    wall = world.create_body(type="static", position=(0.0, 20.0))
    wall.create_box(WALL_HALF, WALL_LENGTH)
    stop = fire(world, ball, 20.0)
    assert stop <= STOPPED
    assert stop == fresh_shot(box2d23, LANES, 20.0)


@pytest.mark.parametrize("box2d23", [False, True])
def test_a_destroyed_static_wall_no_longer_stops_the_ball(box2d23):
    world, walls, ball = world_with_walls(box2d23, LANES)
    assert fire(world, ball, 0.0) <= STOPPED
    assert fire(world, ball, 20.0) <= STOPPED
    world.destroy_body(walls[20.0])
    assert fire(world, ball, 20.0) >= PASSED
    stop = fire(world, ball, 0.0)  # the wall that stays still stops it, at the same place
    assert stop <= STOPPED
    assert stop == fresh_shot(box2d23, (0.0,), 0.0)


@pytest.mark.parametrize("box2d23", [False, True])
def test_a_static_wall_made_a_sensor_no_longer_stops_the_ball(box2d23):
    world, walls, ball = world_with_walls(box2d23, (0.0,))
    assert fire(world, ball, 0.0) <= STOPPED
    walls[0.0].shapes[0].is_sensor = True
    assert fire(world, ball, 0.0) >= PASSED
