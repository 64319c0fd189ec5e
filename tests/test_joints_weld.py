"""Weld joints (rigid and soft) with both solvers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]


def _cantilever(solver, **options):
    """A 1 m x 0.2 m beam welded at its left end to a static wall, sticking out along +x."""
    world = i2d.World(solver=solver)
    wall = world.create_body(type="static")
    wall.create_box(0.1, 1.0, center=(-0.1, 0.0))
    beam = world.create_body(position=(0.5, 0.0))
    beam.create_box(0.5, 0.1)
    joint = world.create_weld_joint(wall, beam, (0.0, 0.0), **options)
    return world, beam, joint


def _tip_y(beam):
    """Height of the beam's free end (local point (0.5, 0))."""
    return beam.position.y + 0.5 * math.sin(beam.angle)


@pytest.mark.parametrize("solver", SOLVERS)
def test_welded_cantilever_holds_with_small_stable_sag(solver):
    world, beam, joint = _cantilever(solver)
    run(world, 2.0)
    tips, angles = [], []
    for _ in range(int(1.0 / DT)):
        world.step(DT)
        tips.append(_tip_y(beam))
        angles.append(joint.angle)
    assert max(abs(t) for t in tips) < 5e-3          # tip sag, m
    assert max(tips) - min(tips) < 1e-4               # stable: no creep or wobble
    assert max(abs(a) for a in angles) < math.radians(1.0)
    # Statics: the weld carries the weight and the moment m g L/2 about B's centre.
    weight = beam.mass * 10.0
    assert joint.reaction_force.y == pytest.approx(weight, rel=0.02)
    assert joint.reaction_torque == pytest.approx(weight * 0.5, rel=0.02)


@pytest.mark.parametrize("solver", SOLVERS)
def test_soft_weld_bends_more_and_settles(solver):
    world, beam, joint = _cantilever(solver, angular_hertz=2.0, angular_damping_ratio=1.0)
    run(world, 4.0)
    a0 = joint.angle
    run(world, 0.5)
    assert a0 < -math.radians(1.0)                    # visibly bent under its weight
    assert joint.angle == pytest.approx(a0, abs=1e-4)  # and at rest
    gap = (joint.world_anchor_a - joint.world_anchor_b).length
    assert gap < (2e-3 if solver == "soft_step" else 0.02)


@pytest.mark.parametrize("call", [
    lambda w, s, b: w.create_weld_joint(b, b, (0, 0)),
    lambda w, s, b: w.create_weld_joint(s, w.create_body(type="static"), (0, 0)),
    lambda w, s, b: w.create_weld_joint(s, b, (0, 0), linear_hertz=-1.0),
    lambda w, s, b: w.create_weld_joint(s, b, (0, 0), angular_hertz=-1.0),
    lambda w, s, b: w.create_weld_joint(s, b, (0, 0), linear_damping_ratio=-1.0),
    lambda w, s, b: w.create_weld_joint(s, b, (0, 0), angular_damping_ratio=math.nan),
    lambda w, s, b: w.create_weld_joint(s, b, (math.nan, 0)),
    lambda w, s, b: w.create_weld_joint(s, b, (0, 0), angular_hertz="5"),
    lambda w, s, b: w.create_weld_joint(s, 3, (0, 0)),
])
def test_bad_weld_joint_input_raises_and_changes_nothing(call):
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


def test_weld_joint_handle_and_destroyed_body():
    world = i2d.World()
    a = world.create_body(type="static")
    b = world.create_body()
    b.create_circle(0.1)
    joint = world.create_weld_joint(a, b, (0, 0), angular_hertz=3.0)
    assert isinstance(joint, i2d.WeldJoint) and joint.type == i2d.JointType.WELD
    assert joint.angular_hertz == 3.0 and joint.linear_hertz == 0.0
    with pytest.raises(ValueError):
        joint.linear_hertz = -1.0
    world.destroy_body(b)
    assert not joint.is_valid
    with pytest.raises(ValueError, match="destroyed"):
        world.create_weld_joint(a, b, (0, 0))
    assert world.joints == []
