"""Wheel joints (suspension spring, motor, limits, line) with both solvers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]


def _crossings(samples):
    return [t0 + (t1 - t0) * (-y0) / (y1 - y0)
            for (t0, y0), (t1, y1) in zip(samples, samples[1:]) if y0 < 0.0 <= y1]


@pytest.mark.parametrize("solver", SOLVERS)
def test_suspension_spring_oscillates_at_its_hertz_and_stays_on_its_line(solver):
    world = i2d.World(gravity=(0, 0), solver=solver)
    chassis = world.create_body(type="static")
    tyre = world.create_body(position=(0.0, -1.0))
    tyre.create_circle(0.3)
    axis = (math.sin(0.3), math.cos(0.3))
    joint = world.create_wheel_joint(chassis, tyre, (0.0, -1.0), axis, hertz=2.0,
                                     damping_ratio=0.0)
    tyre.linear_velocity = (1.0, 1.0)
    tyre.angular_velocity = 3.0
    samples, off_line = [], 0.0
    for _ in range(int(3.0 / DT)):
        world.step(DT)
        samples.append((world.time, joint.translation))
        x, y = tyre.position
        off_line = max(off_line, abs(-axis[1] * x + axis[0] * (y + 1.0)))
    up = _crossings(samples)
    assert len(up) >= 4
    assert (len(up) - 1) / (up[-1] - up[0]) == pytest.approx(2.0, rel=0.03)
    assert off_line < 1e-3
    assert tyre.angular_velocity == pytest.approx(3.0, rel=1e-6)  # spins freely


@pytest.mark.parametrize("solver", SOLVERS)
def test_wheel_motor_reaches_its_speed_within_its_torque(solver):
    world = i2d.World(gravity=(0, 0), solver=solver)
    chassis = world.create_body(type="static")
    tyre = world.create_body()
    tyre.create_circle(0.5)
    joint = world.create_wheel_joint(chassis, tyre, (0, 0), (0, 1), enable_motor=True,
                                     motor_speed=-4.0, max_motor_torque=0.1)
    t_reach = 4.0 * tyre.inertia / 0.1
    run(world, 0.5 * t_reach)
    assert joint.angular_speed == pytest.approx(-2.0, rel=0.02)
    run(world, t_reach)
    assert joint.angular_speed == pytest.approx(-4.0, rel=1e-3)
    assert joint.reaction_torque == pytest.approx(0.0, abs=1e-6)  # at speed: no torque needed


@pytest.mark.parametrize("solver", SOLVERS)
def test_wheel_on_a_sprung_chassis_under_gravity_settles_at_the_static_deflection(solver):
    # Static deflection of a spring of frequency f under g: x = g / (2 pi f)^2.
    world = i2d.World(solver=solver)
    chassis = world.create_body(type="static")
    tyre = world.create_body()
    tyre.create_circle(0.3)
    joint = world.create_wheel_joint(chassis, tyre, (0, 0), (0, 1), hertz=2.0, damping_ratio=0.7)
    run(world, 4.0)
    expected = -10.0 / (2.0 * math.pi * 2.0) ** 2
    assert joint.translation == pytest.approx(expected, rel=0.02)
    assert joint.reaction_force.y == pytest.approx(tyre.mass * 10.0, rel=0.02)


@pytest.mark.parametrize("solver", SOLVERS)
def test_wheel_limit_holds(solver):
    world = i2d.World(solver=solver)
    chassis = world.create_body(type="static")
    tyre = world.create_body()
    tyre.create_circle(0.3)
    joint = world.create_wheel_joint(chassis, tyre, (0, 0), (0, 1), enable_spring=False,
                                     enable_limit=True, lower=-0.2, upper=0.2)
    run(world, 2.0)
    assert joint.translation == pytest.approx(-0.2, abs=5e-3)
    assert abs(joint.linear_speed) < 0.01


@pytest.mark.parametrize("call", [
    lambda w, s, b: w.create_wheel_joint(b, b, (0, 0), (0, 1)),
    lambda w, s, b: w.create_wheel_joint(s, w.create_body(type="static"), (0, 0), (0, 1)),
    lambda w, s, b: w.create_wheel_joint(s, b, (0, 0), (0, 0)),
    lambda w, s, b: w.create_wheel_joint(s, b, (0, 0), (0, 1), enable_limit=True, lower=1.0,
                                         upper=0.0),
    lambda w, s, b: w.create_wheel_joint(s, b, (0, 0), (0, 1), hertz=-1.0),
    lambda w, s, b: w.create_wheel_joint(s, b, (0, 0), (0, 1), damping_ratio=-1.0),
    lambda w, s, b: w.create_wheel_joint(s, b, (0, 0), (0, 1), max_motor_torque=-1.0),
    lambda w, s, b: w.create_wheel_joint(s, b, (0, 0), (0, 1), motor_speed=math.inf),
    lambda w, s, b: w.create_wheel_joint(s, b, (math.nan, 0), (0, 1)),
    lambda w, s, b: w.create_wheel_joint(s, b, (0, 0), (0, 1), enable_motor="yes"),
])
def test_bad_wheel_joint_input_raises_and_changes_nothing(call):
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


def test_wheel_joint_handle_and_destroyed_body():
    world = i2d.World()
    a = world.create_body(type="static")
    b = world.create_body()
    b.create_circle(0.1)
    joint = world.create_wheel_joint(a, b, (0, 0), (0, 2))
    assert isinstance(joint, i2d.WheelJoint) and joint.type == i2d.JointType.WHEEL
    assert joint.enable_spring and joint.hertz == 1.0 and joint.damping_ratio == 0.7
    assert tuple(joint.axis) == pytest.approx((0.0, 1.0))
    world.destroy_body(b)
    assert not joint.is_valid
    with pytest.raises(ValueError, match="destroyed"):
        world.create_wheel_joint(a, b, (0, 0), (0, 1))
    assert world.joints == []
