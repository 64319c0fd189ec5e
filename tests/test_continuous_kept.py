"""The continuous stage's usual step without allocation (``_dynamics/continuous.kept_pass``).

A step whose fast bodies are all non-bullets, in a world without kinematic shapes, sweeps them
against the kept grid of static shapes in a pass that visits the awake bodies only and checks
the grid only after Python changed the world (``awake_state[STATIC_GRID_VALID]``). It must
sweep exactly as the general path does (the same bodies, shapes and candidates in the same
order): a world whose every step takes the general path (a fast bullet far away from the rest)
must move its other bodies bit for bit as the same world without that bullet. And it must
leave no body flagged fast, see a static shape changed by a restore, and stop what it stopped
before.
"""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics.awake import STATIC_GRID_VALID

DT = 1.0 / 60.0
WALL_X = 6.0   # m: the thin wall's plane (0.04 m thick, 10 m high)


def shooting_range(box2d23: bool, with_bullet: bool) -> tuple[i2d.World, list]:
    """Thin static walls, a chain ground and a row of small static boxes; fast circles, boxes
    and a capsule thrown at them (each hits a wall or the ground within a few steps, some
    tumble on). With ``with_bullet``, a bullet far above everything that is fast on every
    step, so that every step's continuous stage takes the general path."""
    world = i2d.World(gravity=(0.0, -10.0), continuous_box2d23=box2d23)
    ground = world.create_body(type="static")
    ground.create_chain([(30.0, 0.0), (10.0, 0.5), (0.0, 0.0), (-10.0, 0.3), (-30.0, 0.0)])
    wall = world.create_body(type="static", position=(WALL_X, 2.0))
    wall.create_box(0.02, 5.0)
    for k in range(8):
        box = world.create_body(type="static", position=(-8.0 + 0.6 * k, 3.0))
        box.create_box(0.2, 0.05)
    thrown = []
    rng = np.random.default_rng(3)
    for k in range(9):
        body = world.create_body(position=(-6.0 + 1.2 * k, 1.0 + 0.4 * k),
                                 angle=float(rng.uniform(-1, 1)))
        if k % 3 == 0:
            body.create_circle(0.05 + 0.01 * k, density=2.0)
        elif k % 3 == 1:
            body.create_box(0.03, 0.2, density=1.0)
        else:
            body.create_capsule((-0.1, 0.0), (0.1, 0.0), 0.03, density=1.0)
        body.linear_velocity = (float(rng.uniform(40, 90)), float(rng.uniform(-60, 10)))
        body.angular_velocity = float(rng.uniform(-30, 30))
        thrown.append(body)
    if with_bullet:
        bullet = world.create_body(position=(-500.0, 1000.0))
        bullet.create_circle(0.01)
        bullet.bullet = True
        bullet.linear_velocity = (100.0, 0.0)
    return world, thrown


@pytest.mark.parametrize("box2d23", [False, True])
def test_the_kept_pass_sweeps_as_the_general_path(box2d23):
    kept, bodies_k = shooting_range(box2d23, with_bullet=False)
    general, bodies_g = shooting_range(box2d23, with_bullet=True)
    for _ in range(120):
        kept.step(DT)
        general.step(DT)
        for a, b in zip(bodies_k, bodies_g):
            assert a.position == b.position and a.angle == b.angle
            assert a.linear_velocity == b.linear_velocity
            # and the sweeps held: nothing got through the wall (or, under Box2D v3's rules,
            # under the one-sided ground; Box2D 2.3's rules sweep a chain segment only when
            # the centroid crosses it, and a tumbling box slips under the chain's joint at
            # x = 0 on either path)
            assert a.position.x < WALL_X
            assert box2d23 or a.position.y > -0.2
    # the wall stopped bodies that would have crossed it in one step
    assert sum(b.position.x > WALL_X - 0.5 for b in bodies_k) >= 3


def test_no_body_leaves_a_step_flagged_fast():
    """The kept pass clears the flags it visits, and a body falling asleep while flagged
    leaves the fast set with the awake rows (``awake.drop_sleepers``): after every step no
    body is flagged, as after the general path's pass over every body."""
    world, thrown = shooting_range(False, with_bullet=False)
    for k in range(400):
        world.step(DT)
        assert not world._bodies.fast.any(), k
    assert any(not b.is_awake for b in thrown)   # some fell asleep meanwhile


@pytest.mark.parametrize("box2d23", [False, True])
def test_a_restored_wall_is_where_the_snapshot_has_it(box2d23):
    """A restore puts a static wall back with nothing else touched: the next sweep checks the
    kept grid (the restore marks the awake sets stale) and stops the fast ball at the wall."""
    world = i2d.World(gravity=(0.0, 0.0), continuous_box2d23=box2d23)
    wall = world.create_body(type="static", position=(0.0, 0.0))
    wall.create_box(0.05, 3.0)
    ball = world.create_body(position=(-3.0, 0.0))
    ball.create_circle(0.05)
    ball.linear_velocity = (400.0, 0.0)
    snap = world.snapshot()
    world.step(DT)
    stopped = ball.position.x
    assert stopped <= -0.1
    assert world._awake_state[STATIC_GRID_VALID] == 1
    world.restore(snap)
    wall.position = (0.0, 20.0)   # the grid is built again without the wall in the lane
    world.step(DT)
    assert ball.position.x >= -3.0 + 400.0 * DT - 1e-9
    world.restore(snap)           # the wall back in the lane, the ball fired again
    world.step(DT)
    assert ball.position.x == stopped


def test_a_kinematic_obstacle_takes_the_general_path_and_stops_the_ball():
    world = i2d.World(gravity=(0.0, 0.0))
    wall = world.create_body(type="kinematic", position=(0.0, 0.0))
    wall.create_box(0.05, 3.0)
    ground = world.create_body(type="static", position=(0.0, -10.0))
    ground.create_box(5.0, 0.1)
    ball = world.create_body(position=(-3.0, 0.0))
    ball.create_circle(0.05)
    for _ in range(3):
        ball.position = (-3.0, 0.0)
        ball.linear_velocity = (400.0, 0.0)
        world.step(DT)
        assert ball.position.x <= -0.1
