"""Prismatic joints (slide, limit, motor, spring) against analytic results, with both solvers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]
ANGLE = math.radians(30.0)
AXIS = (math.cos(ANGLE), math.sin(ANGLE))


def _incline(solver, **options):
    """A box on a 30 degree prismatic rail fixed in a static body, anchor off its centre."""
    world = i2d.World(solver=solver)
    ground = world.create_body(type="static")
    box = world.create_body(position=(0.0, 0.0))
    box.create_box(0.3, 0.1)
    joint = world.create_prismatic_joint(ground, box, (0.2, 0.0), AXIS, **options)
    return world, box, joint


@pytest.mark.parametrize("solver", SOLVERS)
def test_prismatic_body_slides_on_its_axis_with_the_axis_component_of_gravity(solver):
    world, box, joint = _incline(solver)
    perp, turn = 0.0, 0.0
    for _ in range(int(1.0 / DT)):
        world.step(DT)
        x, y = box.position
        perp = max(perp, abs(-AXIS[1] * x + AXIS[0] * y))
        turn = max(turn, abs(box.angle))
    assert perp < 1e-3
    assert math.degrees(turn) < 0.1
    # Constant acceleration g . u = -5 m/s^2 along the axis: after 1 s the speed is -5 m/s.
    assert joint.speed == pytest.approx(-5.0, rel=2e-3)
    v = box.linear_velocity
    assert v.x * AXIS[0] + v.y * AXIS[1] == pytest.approx(-5.0, rel=2e-3)
    assert joint.translation == pytest.approx(-2.5, rel=0.02)
    # The rail carries the normal part of the weight: m g cos(30) along the perpendicular.
    force = joint.reaction_force
    normal = -AXIS[1] * force.x + AXIS[0] * force.y
    assert normal == pytest.approx(box.mass * 10.0 * math.cos(ANGLE), rel=0.02)


@pytest.mark.parametrize("solver", SOLVERS)
def test_prismatic_limit_holds(solver):
    world, box, joint = _incline(solver, enable_limit=True, lower=-1.0, upper=1.0)
    run(world, 3.0)
    assert joint.translation == pytest.approx(-1.0, abs=5e-3)
    assert abs(joint.speed) < 0.01
    # The lower limit pushes B up the axis with the axial part of the weight.
    force = joint.reaction_force
    axial = AXIS[0] * force.x + AXIS[1] * force.y
    assert axial == pytest.approx(box.mass * 10.0 * math.sin(ANGLE), rel=0.02)


@pytest.mark.parametrize("solver", SOLVERS)
def test_prismatic_motor_reaches_its_speed_within_its_force(solver):
    world = i2d.World(gravity=(0, 0), solver=solver)
    ground = world.create_body(type="static")
    box = world.create_body()
    box.create_box(0.5, 0.5)
    joint = world.create_prismatic_joint(ground, box, (0, 0), (0.0, 2.0), enable_motor=True,
                                         motor_speed=2.0, max_motor_force=1.0)
    t_reach = box.mass * 2.0 / 1.0  # force-limited: v = F t / m
    run(world, 0.5 * t_reach)
    assert joint.speed == pytest.approx(1.0, rel=0.02)
    run(world, t_reach)
    assert joint.speed == pytest.approx(2.0, rel=1e-3)
    assert box.linear_velocity.y == pytest.approx(2.0, rel=1e-3)
    assert abs(box.position.x) < 1e-6


@pytest.mark.parametrize("solver", SOLVERS)
def test_prismatic_spring_oscillates_at_its_hertz(solver):
    world = i2d.World(gravity=(0, 0), solver=solver)
    ground = world.create_body(type="static")
    box = world.create_body()
    box.create_box(0.2, 0.2)
    joint = world.create_prismatic_joint(ground, box, (0, 0), (1.0, 0.0), enable_spring=True,
                                         hertz=1.5)
    box.linear_velocity = (1.0, 0.5)  # the perpendicular part is removed by the joint
    samples = []
    for _ in range(int(4.0 / DT)):
        world.step(DT)
        samples.append((world.time, joint.translation))
    up = [t0 + (t1 - t0) * (-y0) / (y1 - y0)
          for (t0, y0), (t1, y1) in zip(samples, samples[1:]) if y0 < 0.0 <= y1]
    assert len(up) >= 4
    assert (len(up) - 1) / (up[-1] - up[0]) == pytest.approx(1.5, rel=0.03)


@pytest.mark.parametrize("call", [
    lambda w, s, b: w.create_prismatic_joint(b, b, (0, 0), (1, 0)),
    lambda w, s, b: w.create_prismatic_joint(s, w.create_body(type="static"), (0, 0), (1, 0)),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, 0), (1, 0), enable_limit=True, lower=1.0,
                                             upper=-1.0),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, 0), (0, 0)),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, 0), (math.nan, 1.0)),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, math.inf), (1, 0)),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, 0), (1, 0), hertz=-1.0),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, 0), (1, 0), damping_ratio=-1.0),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, 0), (1, 0), max_motor_force=-1.0),
    lambda w, s, b: w.create_prismatic_joint(s, b, (0, 0), "x"),
    lambda w, s, b: w.create_prismatic_joint(s, None, (0, 0), (1, 0)),
])
def test_bad_prismatic_joint_input_raises_and_changes_nothing(call):
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


def test_prismatic_joint_on_a_destroyed_body_raises_and_handle_basics():
    world = i2d.World()
    a = world.create_body(type="static")
    b = world.create_body()
    b.create_circle(0.1)
    joint = world.create_prismatic_joint(a, b, (0, 0), (0, 3))
    assert isinstance(joint, i2d.PrismaticJoint) and joint.type == i2d.JointType.PRISMATIC
    assert tuple(joint.axis) == pytest.approx((0.0, 1.0))
    with pytest.raises(ValueError):
        joint.limits = (1.0, 0.0)
    world.destroy_body(b)
    assert not joint.is_valid
    with pytest.raises(ValueError, match="destroyed"):
        world.create_prismatic_joint(a, b, (0, 0), (1, 0))
    assert world.joints == []
