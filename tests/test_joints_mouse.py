"""Mouse joints: a dragged body reaches its target, within the force limit, both solvers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]


@pytest.mark.parametrize("solver", SOLVERS)
def test_dragged_body_reaches_the_target_in_zero_gravity(solver):
    world = i2d.World(gravity=(0, 0), solver=solver)
    box = world.create_body()
    box.create_box(0.5, 0.25)
    joint = world.create_mouse_joint(box, (0.0, 0.0), max_force=1000.0 * box.mass)
    joint.target = (3.0, -2.0)
    run(world, 2.0)
    error = (joint.world_anchor_b - joint.target).length
    assert error < 0.01
    assert box.linear_velocity.length < 0.01


@pytest.mark.parametrize("solver", SOLVERS)
def test_dragged_body_holds_against_gravity_with_the_spring_sag(solver):
    # A spring of frequency f holds a weight with the sag g / (2 pi f)^2: 2.5 mm at 10 Hz.
    world = i2d.World(solver=solver)
    ball = world.create_body(position=(1.0, 1.0))
    ball.create_circle(0.3)
    joint = world.create_mouse_joint(ball, (1.0, 1.0), max_force=100.0 * ball.mass * 10.0,
                                     hertz=10.0, damping_ratio=1.0)
    joint.target = (2.0, 3.0)
    run(world, 2.0)
    sag = 10.0 / (2.0 * math.pi * 10.0) ** 2
    assert ball.position.x == pytest.approx(2.0, abs=1e-3)
    assert ball.position.y == pytest.approx(3.0 - sag, abs=1e-3)
    assert (joint.world_anchor_b - joint.target).length < 0.01
    assert joint.reaction_force.y == pytest.approx(ball.mass * 10.0, rel=0.02)


@pytest.mark.parametrize("solver", SOLVERS)
def test_mouse_force_limit_cannot_lift_a_heavier_body(solver):
    world = i2d.World(solver=solver)
    ball = world.create_body()
    ball.create_circle(0.3)
    weight = ball.mass * 10.0
    joint = world.create_mouse_joint(ball, (0.0, 0.0), max_force=0.5 * weight)
    joint.target = (0.0, 1.0)
    run(world, 1.0)
    # Net downward force of half the weight: a = -5 m/s^2, about 2.5 m down after 1 s.
    assert ball.linear_velocity.y == pytest.approx(-5.0, rel=0.02)
    assert joint.reaction_force.length == pytest.approx(0.5 * weight, rel=1e-6)


@pytest.mark.parametrize("call", [
    lambda w, s, b: w.create_mouse_joint(s, (0, 0), 10.0),
    lambda w, s, b: w.create_mouse_joint(b, (0, 0), -1.0),
    lambda w, s, b: w.create_mouse_joint(b, (0, 0), 10.0, hertz=-1.0),
    lambda w, s, b: w.create_mouse_joint(b, (0, 0), 10.0, hertz=0.0),
    lambda w, s, b: w.create_mouse_joint(b, (0, 0), 10.0, damping_ratio=-1.0),
    lambda w, s, b: w.create_mouse_joint(b, (math.nan, 0), 10.0),
    lambda w, s, b: w.create_mouse_joint(b, (0, 0), math.inf),
    lambda w, s, b: w.create_mouse_joint("body", (0, 0), 10.0),
])
def test_bad_mouse_joint_input_raises_and_changes_nothing(call):
    world = i2d.World()
    static = world.create_body(type="static")
    body = world.create_body(position=(0, -1))
    body.create_box(0.1, 0.1)
    with pytest.raises((ValueError, TypeError)) as info:
        call(world, static, body)
    assert str(info.value)
    assert world.joints == []
    run(world, 0.1)
    assert np.isfinite(world.get_positions()).all()


def test_mouse_joint_handle_target_and_destroy():
    world = i2d.World()
    b = world.create_body()
    b.create_circle(0.1)
    joint = world.create_mouse_joint(b, (0.05, 0.0), max_force=5.0)
    assert isinstance(joint, i2d.MouseJoint) and joint.type == i2d.JointType.MOUSE
    assert joint.body == b and joint.body_a == b and joint.body_b == b
    joint.target = (1, 2)
    assert tuple(joint.target) == (1.0, 2.0)
    with pytest.raises(ValueError):
        joint.target = (math.nan, 0.0)
    with pytest.raises(TypeError):
        joint.target = 3.0
    assert tuple(joint.target) == (1.0, 2.0)
    run(world, 0.1)
    world.destroy_joint(joint)
    assert not joint.is_valid and world.joints == []
    joint2 = world.create_mouse_joint(b, (0.0, 0.0), max_force=5.0)
    world.destroy_body(b)
    assert not joint2.is_valid and world.joints == []
    with pytest.raises(ValueError, match="destroyed"):
        world.create_mouse_joint(b, (0, 0), 1.0)
