"""Pulley joints (a rope over two ground points) and gear joints (coupled revolute and prismatic
joints) with both solvers, against Atwood's machine and the kinematics of gears."""

from __future__ import annotations

import math

import pytest

import impulse2d as i2d
from conftest import DT, run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]
G = 10.0


def _ball(world, position, mass):
    body = world.create_body(position=position)
    body.create_circle(0.25, density=mass / (math.pi * 0.25 ** 2))
    return body


def _atwood(solver, m_a, m_b, ratio=1.0, gravity=G):
    """Two balls hanging 5 m below two ground points 4 m apart."""
    world = i2d.World(gravity=(0.0, -gravity), solver=solver)
    ground = world.create_body(type="static")
    ground.create_box(0.1, 0.1, center=(0.0, 20.0))
    a = _ball(world, (-2.0, 0.0), m_a)
    b = _ball(world, (2.0, 0.0), m_b)
    joint = world.create_pulley_joint(a, b, (-2.0, 5.0), (2.0, 5.0), (-2.0, 0.0), (2.0, 0.0),
                                      ratio=ratio)
    return world, a, b, joint


# -- pulley ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("solver", SOLVERS)
def test_atwood_machine_accelerates_at_g_m2_minus_m1_over_m1_plus_m2(solver):
    m1, m2 = 1.0, 3.0
    world, a, b, joint = _atwood(solver, m1, m2)
    run(world, 1.0)
    expected = G * (m2 - m1) / (m1 + m2)                          # 5 m/s^2
    assert -b.linear_velocity.y / world.time == pytest.approx(expected, rel=0.03)
    assert a.linear_velocity.y / world.time == pytest.approx(expected, rel=0.03)
    assert joint.tension == pytest.approx(2.0 * m1 * m2 * G / (m1 + m2), rel=0.03)  # 15 N
    # The rope keeps its length and the balls hang straight below their ground points.
    assert joint.length_a + joint.length_b == pytest.approx(joint.rope_length, abs=0.01)
    assert abs(a.position.x + 2.0) < 1e-6 and abs(b.position.x - 2.0) < 1e-6
    assert joint.reaction_force.y == pytest.approx(joint.tension, rel=1e-9)  # up on B


@pytest.mark.parametrize("solver", SOLVERS)
def test_block_and_tackle_balances_a_load_ratio_times_heavier(solver):
    # B's side reeved twice: B feels twice the tension and moves half as far.
    world, a, b, joint = _atwood(solver, 1.0, 2.0, ratio=2.0)
    run(world, 2.0)
    assert abs(a.linear_velocity.y) < 1e-3 and abs(b.linear_velocity.y) < 1e-3
    assert joint.tension == pytest.approx(1.0 * G, rel=0.01)


@pytest.mark.parametrize("solver", SOLVERS)
def test_block_and_tackle_acceleration(solver):
    # With L_a + r L_b fixed, B falls a while A rises r a:
    # a = g (m_b - r m_a) / (m_b + r^2 m_a).
    m_a, m_b, r = 1.0, 5.0, 2.0
    world, a, b, joint = _atwood(solver, m_a, m_b, ratio=r)
    run(world, 1.0)
    expected = G * (m_b - r * m_a) / (m_b + r * r * m_a)
    assert -b.linear_velocity.y / world.time == pytest.approx(expected, rel=0.03)
    assert a.linear_velocity.y == pytest.approx(-r * b.linear_velocity.y, rel=0.01)
    assert joint.length_a + r * joint.length_b == pytest.approx(joint.rope_length, abs=0.01)


@pytest.mark.parametrize("solver", SOLVERS)
def test_slack_rope_never_pushes(solver):
    # Lift B toward its ground point: the rope goes slack, B coasts and A is left alone.
    world, a, b, joint = _atwood(solver, 1.0, 1.0, gravity=0.0)
    b.linear_velocity = (0.0, 1.0)
    run(world, 1.0)
    assert b.linear_velocity.y == pytest.approx(1.0, abs=1e-9)
    assert a.linear_velocity.y == pytest.approx(0.0, abs=1e-9)
    assert joint.tension == 0.0
    assert joint.length_a + joint.length_b < joint.rope_length - 0.9


@pytest.mark.parametrize("solver", SOLVERS)
def test_taut_rope_pulls_the_other_side_along(solver):
    world, a, b, joint = _atwood(solver, 1.0, 1.0, gravity=0.0)
    b.linear_velocity = (0.0, -1.0)                  # away from its ground point
    run(world, 0.5)
    # Momentum along the rope is shared: both move at 0.5 m/s, A upward.
    assert b.linear_velocity.y == pytest.approx(-0.5, abs=0.01)
    assert a.linear_velocity.y == pytest.approx(0.5, abs=0.01)


def test_pulley_bad_input_is_rejected_and_changes_nothing():
    world, a, b, joint = _atwood("soft_step", 1.0, 1.0)
    before = len(world.joints)
    g = ((-2.0, 5.0), (2.0, 5.0))
    with pytest.raises(ValueError, match="ratio"):
        world.create_pulley_joint(a, b, *g, (-2.0, 0.0), (2.0, 0.0), ratio=0.0)
    with pytest.raises(ValueError, match="ratio"):
        world.create_pulley_joint(a, b, *g, (-2.0, 0.0), (2.0, 0.0), ratio=-1.0)
    with pytest.raises(ValueError, match="ground point"):
        world.create_pulley_joint(a, b, *g, (-2.0, 5.0), (2.0, 0.0))
    with pytest.raises(ValueError, match="same body"):
        world.create_pulley_joint(a, a, *g, (-2.0, 0.0), (-2.0, 0.0))
    with pytest.raises(ValueError):
        world.create_pulley_joint(a, b, (math.nan, 5.0), g[1], (-2.0, 0.0), (2.0, 0.0))
    with pytest.raises(TypeError):
        world.create_pulley_joint(a, b, "up", g[1], (-2.0, 0.0), (2.0, 0.0))
    assert len(world.joints) == before


# -- gear -----------------------------------------------------------------------------------------

def _gear_pair(solver, ratio, motor_speed=2.0, gravity=(0.0, 0.0)):
    """Wheels of radius 1 and ``ratio`` m on ground hinges; a motor drives the first."""
    world = i2d.World(gravity=gravity, solver=solver)
    ground = world.create_body(type="static")
    small = world.create_body(position=(0.0, 0.0))
    small.create_circle(1.0)
    big = world.create_body(position=(1.0 + ratio, 0.0))
    big.create_circle(ratio)
    hinge_a = world.create_revolute_joint(ground, small, (0.0, 0.0), enable_motor=True,
                                          motor_speed=motor_speed, max_motor_torque=1e4)
    hinge_b = world.create_revolute_joint(ground, big, (1.0 + ratio, 0.0))
    gear = world.create_gear_joint(hinge_a, hinge_b, ratio=ratio)
    return world, small, big, hinge_a, hinge_b, gear


@pytest.mark.parametrize("solver", SOLVERS)
def test_gear_pair_keeps_its_ratio(solver):
    world, small, big, hinge_a, hinge_b, gear = _gear_pair(solver, ratio=2.0)
    errors = []
    for _ in range(int(3.0 / DT)):
        world.step(DT)
        errors.append(abs(hinge_a.angle + 2.0 * hinge_b.angle - gear.constant))
    # The motor snaps to speed in the first step; the soft gear lets that jolt through by a few
    # mrad and takes it back within a few steps.
    assert max(errors) < 5e-3                                     # rad
    assert max(errors[15:]) < 1e-4
    assert hinge_a.speed == pytest.approx(2.0, rel=1e-3)
    assert hinge_b.speed == pytest.approx(-1.0, rel=1e-3)         # half as fast, other way
    assert hinge_a.angle == pytest.approx(6.0, rel=0.01)          # 3 s at 2 rad/s
    assert gear.joint_a == hinge_a and gear.joint_b == hinge_b
    assert gear.body_a == small and gear.body_b == big


@pytest.mark.parametrize("solver", SOLVERS)
def test_gear_transmits_torque_in_the_ratio(solver):
    # Hold the big wheel with a motor at speed 0 and drive the small one with a known torque:
    # the big wheel's hinge must resist ratio times that torque.
    world, small, big, hinge_a, hinge_b, gear = _gear_pair(solver, ratio=3.0, motor_speed=0.0)
    hinge_a.enable_motor = False
    hinge_b.enable_motor = True
    hinge_b.motor_speed = 0.0
    hinge_b.max_motor_torque = 1e4
    torque = 2.0
    for _ in range(60):
        small.apply_torque(torque)
        world.step(DT)
    assert abs(hinge_a.speed) < 1e-3
    assert hinge_b.reaction_torque == pytest.approx(3.0 * torque, rel=0.01)
    assert gear.reaction_torque == pytest.approx(-3.0 * torque, rel=0.01)


@pytest.mark.parametrize("solver", SOLVERS)
def test_free_gear_train_conserves_energy_and_ratio(solver):
    # Spin the pair and let go: kinetic energy 1/2 (I_a w_a^2 + I_b w_b^2) must stay.
    world, small, big, hinge_a, hinge_b, gear = _gear_pair(solver, ratio=2.0)
    hinge_a.enable_motor = False
    small.angular_velocity = 4.0
    big.angular_velocity = -2.0

    def energy():
        return 0.5 * (small.inertia * small.angular_velocity ** 2
                      + big.inertia * big.angular_velocity ** 2)

    start = energy()
    run(world, 3.0)
    assert energy() == pytest.approx(start, rel=0.01)
    # Rotations advance by atan(h w), not h w (Box2D's first-order rotation update), so angles
    # and speeds disagree by ~(h w)^2 / 3; pgs pays for it with a Baumgarte bias of that size.
    assert big.angular_velocity == pytest.approx(-0.5 * small.angular_velocity, rel=2e-3)


@pytest.mark.parametrize("solver", SOLVERS)
def test_rack_and_pinion_rolls_the_rack_by_radius_times_angle(solver):
    world = i2d.World(gravity=(0.0, -G), solver=solver)
    ground = world.create_body(type="static")
    pinion = world.create_body(position=(0.0, 1.0))
    pinion.create_circle(1.0)
    rack = world.create_body(position=(0.0, 0.0))
    rack.create_box(5.0, 0.1)
    hinge = world.create_revolute_joint(ground, pinion, (0.0, 1.0), enable_motor=True,
                                        motor_speed=1.0, max_motor_torque=1e4)
    slide = world.create_prismatic_joint(ground, rack, (0.0, 0.0), (1.0, 0.0))
    gear = world.create_gear_joint(hinge, slide, ratio=1.0)    # angle + translation = const
    worst = 0.0
    for _ in range(int(2.0 / DT)):
        world.step(DT)
        worst = max(worst, abs(hinge.angle + slide.translation - gear.constant))
    assert worst < 1e-3
    assert rack.linear_velocity.x == pytest.approx(-1.0, rel=1e-3)  # r w, against the turn
    assert slide.translation == pytest.approx(-2.0, rel=0.01)


@pytest.mark.parametrize("solver", SOLVERS)
def test_gear_on_joints_with_moving_bases(solver):
    # Both hinges sit on one free carrier that is pushed around: the gear couples only the
    # relative angles, so the wheels' angles relative to the carrier keep the ratio.
    world = i2d.World(gravity=(0.0, 0.0), solver=solver)
    carrier = world.create_body(position=(0.0, 0.0))
    carrier.create_box(3.0, 0.2)
    small = world.create_body(position=(-1.0, 0.0))
    small.create_circle(0.5)
    big = world.create_body(position=(1.5, 0.0))
    big.create_circle(1.0)
    hinge_a = world.create_revolute_joint(carrier, small, (-1.0, 0.0))
    hinge_b = world.create_revolute_joint(carrier, big, (1.5, 0.0))
    gear = world.create_gear_joint(hinge_a, hinge_b, ratio=2.0)
    small.angular_velocity = 3.0
    carrier.linear_velocity = (1.0, -0.5)
    worst = 0.0
    for k in range(int(3.0 / DT)):
        carrier.apply_torque(5.0 * math.sin(2.0 * k * DT))
        world.step(DT)
        worst = max(worst, abs(hinge_a.angle + 2.0 * hinge_b.angle - gear.constant))
    assert worst < 2e-3
    assert hinge_b.speed == pytest.approx(-0.5 * hinge_a.speed, rel=1e-2, abs=1e-4)


def test_destroying_a_coupled_joint_or_body_destroys_the_gear():
    world, small, big, hinge_a, hinge_b, gear = _gear_pair("soft_step", ratio=2.0)
    world.destroy_joint(hinge_b)
    assert not gear.is_valid and hinge_a.is_valid
    assert world.joints == [hinge_a]
    world.step(DT)                                               # still steps cleanly
    hinge_b = world.create_revolute_joint(world.bodies[0], big, big.position)
    gear = world.create_gear_joint(hinge_a, hinge_b, ratio=2.0)
    world.destroy_body(world.bodies[0])                          # the ground under both hinges
    assert not gear.is_valid and not hinge_a.is_valid and not hinge_b.is_valid
    assert world.joints == []
    world.step(DT)


def test_gear_bad_input_is_rejected_and_changes_nothing():
    world, small, big, hinge_a, hinge_b, gear = _gear_pair("soft_step", ratio=2.0)
    other = i2d.World()
    rope = world.create_distance_joint(world.bodies[0], big, (0.0, 3.0), big.position)
    before = len(world.joints)
    with pytest.raises(ValueError, match="revolute or prismatic"):
        world.create_gear_joint(hinge_a, rope)
    with pytest.raises(ValueError, match="same one twice"):
        world.create_gear_joint(hinge_a, hinge_a)
    with pytest.raises(ValueError, match="non-zero"):
        world.create_gear_joint(hinge_a, hinge_b, ratio=0.0)
    with pytest.raises(ValueError):
        world.create_gear_joint(hinge_a, hinge_b, ratio=math.inf)
    with pytest.raises(TypeError):
        world.create_gear_joint(hinge_a, "hinge")
    with pytest.raises(TypeError):
        other.create_gear_joint(hinge_a, hinge_b)
    assert len(world.joints) == before
