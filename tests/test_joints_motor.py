"""Motor joints: drive a body to a relative pose within force and torque limits."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]


@pytest.mark.parametrize("solver", SOLVERS)
def test_motor_joint_drives_the_body_to_its_offsets(solver):
    world = i2d.World(solver=solver)
    ground = world.create_body(type="static", position=(1.0, 0.0), angle=0.3)
    box = world.create_body(position=(1.0, 0.0))
    box.create_box(0.3, 0.2)
    joint = world.create_motor_joint(ground, box, linear_offset=(2.0, 1.0), angular_offset=0.5,
                                     max_force=100.0, max_torque=50.0)
    run(world, 3.0)
    target = ground.world_point((2.0, 1.0))
    assert (box.position - target).length < 0.01
    assert box.angle - ground.angle == pytest.approx(0.5, abs=0.01)
    assert box.linear_velocity.length < 0.01
    # Holding the body up against gravity: the drive carries its weight.
    assert joint.reaction_force.y == pytest.approx(box.mass * 10.0, rel=0.02)


@pytest.mark.parametrize("solver", SOLVERS)
def test_motor_joint_force_and_torque_are_bounded(solver):
    world = i2d.World(gravity=(0, 0), solver=solver)
    ground = world.create_body(type="static")
    box = world.create_body()
    box.create_box(0.5, 0.5)
    force, torque = 0.2, 0.05
    joint = world.create_motor_joint(ground, box, linear_offset=(10.0, 0.0),
                                     angular_offset=3.0, max_force=force, max_torque=torque)
    run(world, 0.5)
    # Far from the target the drive saturates: constant acceleration F / m and torque / I.
    assert box.linear_velocity.x == pytest.approx(force / box.mass * 0.5, rel=0.02)
    assert box.angular_velocity == pytest.approx(torque / box.inertia * 0.5, rel=0.02)
    assert joint.reaction_force.length == pytest.approx(force, rel=1e-6)
    assert joint.reaction_torque == pytest.approx(torque, rel=1e-6)


def test_motor_joint_defaults_keep_the_current_pose():
    world = i2d.World()
    ground = world.create_body(type="static")
    box = world.create_body(position=(0.5, 2.0), angle=0.2)
    box.create_box(0.2, 0.2)
    joint = world.create_motor_joint(ground, box, max_force=1000.0, max_torque=1000.0)
    assert tuple(joint.linear_offset) == pytest.approx((0.5, 2.0))
    assert joint.angular_offset == pytest.approx(0.2)
    run(world, 1.0)
    assert (box.position - (0.5, 2.0)).length < 0.01
    assert box.angle == pytest.approx(0.2, abs=0.01)


@pytest.mark.parametrize("call", [
    lambda w, s, b: w.create_motor_joint(b, b),
    lambda w, s, b: w.create_motor_joint(s, w.create_body(type="static")),
    lambda w, s, b: w.create_motor_joint(s, b, max_force=-1.0),
    lambda w, s, b: w.create_motor_joint(s, b, max_torque=-1.0),
    lambda w, s, b: w.create_motor_joint(s, b, correction_factor=1.5),
    lambda w, s, b: w.create_motor_joint(s, b, correction_factor=math.nan),
    lambda w, s, b: w.create_motor_joint(s, b, linear_offset=(math.nan, 0.0)),
    lambda w, s, b: w.create_motor_joint(s, b, angular_offset=math.inf),
    lambda w, s, b: w.create_motor_joint(s, b, linear_offset=3.0),
    lambda w, s, b: w.create_motor_joint(s, "b"),
])
def test_bad_motor_joint_input_raises_and_changes_nothing(call):
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


def test_motor_joint_handle_and_destroyed_body():
    world = i2d.World()
    a = world.create_body(type="static")
    b = world.create_body()
    b.create_circle(0.1)
    joint = world.create_motor_joint(a, b)
    assert isinstance(joint, i2d.MotorJoint) and joint.type == i2d.JointType.MOTOR
    with pytest.raises(ValueError):
        joint.correction_factor = 2.0
    world.destroy_body(b)
    assert not joint.is_valid
    with pytest.raises(ValueError, match="destroyed"):
        world.create_motor_joint(a, b)
    assert world.joints == []
