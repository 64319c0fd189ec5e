"""Revolute joints against analytic results, with both solvers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]


def _pendulum(solver, angle0, d=1.0, half=0.1, **world_options):
    """A small box hanging from a static pivot at the origin, centre at distance d."""
    world = i2d.World(solver=solver, **world_options)
    pivot = world.create_body(type="static")
    bob = world.create_body(position=(d * math.sin(angle0), -d * math.cos(angle0)), angle=angle0)
    bob.create_box(half, half)
    joint = world.create_revolute_joint(pivot, bob, (0.0, 0.0))
    return world, bob, joint


def _limited_bar(solver):
    """A 2 m bar hinged at one end to a static pivot, limited to +-0.5 rad."""
    world = i2d.World(solver=solver)
    pivot = world.create_body(type="static")
    bar = world.create_body(position=(1.0, 0.0))
    bar.create_box(1.0, 0.05)
    joint = world.create_revolute_joint(pivot, bar, (0.0, 0.0), enable_limit=True,
                                        lower_angle=-0.5, upper_angle=0.5)
    return world, bar, joint


def _motor_wheel(solver):
    """A wheel on a pivot without gravity, motor at 2 rad/s with at most 0.05 N m."""
    world = i2d.World(gravity=(0, 0), solver=solver)
    pivot = world.create_body(type="static")
    wheel = world.create_body()
    wheel.create_circle(0.5)
    joint = world.create_revolute_joint(pivot, wheel, (0.0, 0.0), enable_motor=True,
                                        motor_speed=2.0, max_motor_torque=0.05)
    return world, wheel, joint


def _crossings(samples):
    """Times at which the sampled signal crosses zero upwards (linear interpolation)."""
    out = []
    for (t0, y0), (t1, y1) in zip(samples, samples[1:]):
        if y0 < 0.0 <= y1:
            out.append(t0 + (t1 - t0) * (-y0) / (y1 - y0))
    return out


@pytest.mark.parametrize("solver", SOLVERS)
def test_pendulum_period_matches_the_physical_pendulum_formula_and_keeps_its_amplitude(solver):
    d, half, angle0 = 1.0, 0.1, 0.1
    world, bob, joint = _pendulum(solver, angle0, d, half)
    m = bob.mass
    inertia_pivot = bob.inertia + m * d * d
    period = 2.0 * math.pi * math.sqrt(inertia_pivot / (m * 10.0 * d))
    period *= 1.0 + angle0**2 / 16.0  # finite-amplitude correction, 0.06 %
    samples, peaks = [], []
    for k in range(int(6 * period / DT)):
        world.step(DT)
        samples.append((world.time, bob.angle))  # the swing angle (the joint's is offset)
        peaks.append(abs(bob.angle))
    up = _crossings(samples)
    assert len(up) >= 4
    measured = (up[-1] - up[0]) / (len(up) - 1)
    assert measured == pytest.approx(period, rel=0.01)
    last_period = peaks[-int(period / DT):]
    assert max(last_period) == pytest.approx(angle0, rel=0.03)  # amplitude kept


@pytest.mark.parametrize("solver", SOLVERS)
def test_reaction_force_of_a_hanging_body_equals_its_weight(solver):
    world, bob, joint = _pendulum(solver, 0.0)
    run(world, 1.0)
    weight = bob.mass * 10.0
    force = joint.reaction_force
    assert force.y == pytest.approx(weight, rel=0.02)
    assert abs(force.x) < 0.02 * weight
    assert joint.reaction_torque == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("solver", SOLVERS)
def test_revolute_limit_holds_within_two_degrees(solver):
    world, bar, joint = _limited_bar(solver)
    run(world, 3.0)
    assert joint.angle == pytest.approx(-0.5, abs=math.radians(2.0))
    assert abs(joint.speed) < 0.05
    assert joint.reaction_torque > 0.0  # the lower limit pushes B up (counter-clockwise)


@pytest.mark.parametrize("solver", SOLVERS)
def test_motor_reaches_its_speed_and_respects_its_torque(solver):
    world, wheel, joint = _motor_wheel(solver)
    # Torque-limited spin-up: w(t) = tau t / I until the target speed.
    t_reach = 2.0 * wheel.inertia / 0.05
    run(world, 0.5 * t_reach)
    assert wheel.angular_velocity == pytest.approx(1.0, rel=0.02)
    run(world, t_reach)
    assert wheel.angular_velocity == pytest.approx(2.0, rel=1e-3)
    assert joint.speed == pytest.approx(2.0, rel=1e-3)


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_limit_switched_off_lets_go_at_once(solver):
    """Once off, a limit applies no torque, not even the impulse it held (warm starting)."""
    world, bar, joint = _limited_bar(solver)
    run(world, 2.0)
    assert joint.reaction_torque > 0.0  # the lower limit holds the bar up
    # The same bar, at the same state, never limited.
    free_world = i2d.World(solver=solver)
    free_pivot = free_world.create_body(type="static")
    free_bar = free_world.create_body(position=bar.position, angle=bar.angle,
                                      linear_velocity=bar.linear_velocity,
                                      angular_velocity=bar.angular_velocity)
    free_bar.create_box(1.0, 0.05)
    free_world.create_revolute_joint(free_pivot, free_bar, (0.0, 0.0))
    joint.enable_limit = False
    for _ in range(12):
        world.step(DT)
        free_world.step(DT)
    assert bar.angle < -0.6  # it falls
    assert bar.angle == pytest.approx(free_bar.angle, abs=1e-3)
    assert joint.reaction_torque == 0.0


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_motor_switched_off_stops_driving(solver):
    world, wheel, joint = _motor_wheel(solver)
    run(world, 0.5)  # still spinning up at its full torque
    spin = wheel.angular_velocity
    assert spin == pytest.approx(0.05 * 0.5 / wheel.inertia, rel=0.02)
    joint.enable_motor = False
    run(world, 0.5)
    assert wheel.angular_velocity == pytest.approx(spin, rel=1e-9)  # coasts


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_limit_switched_on_takes_hold(solver):
    """A revolute joint with no optional rows is solved in a list of its own (pins); turning
    its limit on must move it to the list that applies limits."""
    world, bar, joint = _limited_bar(solver)
    joint.enable_limit = False
    run(world, 0.1)  # a plain pin for a few steps
    assert -0.5 < bar.angle < 0.0
    joint.enable_limit = True
    run(world, 3.0)
    assert joint.angle == pytest.approx(-0.5, abs=math.radians(2.0))
    assert joint.reaction_torque > 0.0


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_motor_switched_on_drives(solver):
    world, wheel, joint = _motor_wheel(solver)
    joint.enable_motor = False
    run(world, 0.1)
    assert wheel.angular_velocity == 0.0
    joint.enable_motor = True
    run(world, 0.5)
    assert wheel.angular_velocity == pytest.approx(0.05 * 0.5 / wheel.inertia, rel=0.02)


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_pin_moves_as_a_revolute_joint_with_idle_rows(solver):
    """The pins' lean loop is the general revolute solve without its optional rows: a pendulum
    on a plain pin and one whose limit is on but never reached swing alike."""
    swings = []
    for limited in (False, True):
        world = i2d.World(solver=solver)
        pivot = world.create_body(type="static")
        bob = world.create_body(position=(1.0, 0.0))
        bob.create_circle(0.1)
        world.create_revolute_joint(pivot, bob, (0.0, 0.0), enable_limit=limited,
                                    lower_angle=-10.0, upper_angle=10.0)
        run(world, 2.0)
        swings.append((*bob.position, bob.angle))
    assert swings[0] == pytest.approx(swings[1], abs=1e-9)


@pytest.mark.parametrize("solver", SOLVERS)
def test_rotational_spring_oscillates_at_its_hertz(solver):
    world = i2d.World(gravity=(0, 0), solver=solver)
    pivot = world.create_body(type="static")
    disc = world.create_body(angle=0.2)  # 0.2 rad from the spring's rest angle... set below
    disc.create_circle(0.5)
    joint = world.create_revolute_joint(pivot, disc, (0.0, 0.0), enable_spring=True, hertz=1.5,
                                        damping_ratio=0.0)
    disc.angular_velocity = 1.0  # rest angle is the creation angle: start moving away from it
    samples = []
    for _ in range(int(4.0 / DT)):
        world.step(DT)
        samples.append((world.time, joint.angle))
    up = _crossings(samples)
    assert len(up) >= 4
    frequency = (len(up) - 1) / (up[-1] - up[0])
    assert frequency == pytest.approx(1.5, rel=0.03)


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_released_chain_of_100_links_stays_together(solver):
    world = i2d.World(solver=solver)
    anchor = world.create_body(type="static")
    anchor.create_box(0.25, 0.25, group=-1)
    previous, joints = anchor, []
    for i in range(100):
        link = world.create_body(position=(i + 0.5, 0.0))
        link.create_box(0.5, 0.125, group=-1)
        joints.append(world.create_revolute_joint(previous, link, (float(i), 0.0)))
        previous = link
    run(world, 10.0)
    gaps = [(j.world_anchor_a - j.world_anchor_b).length for j in joints]
    limit = 0.01 if solver == "soft_step" else 0.1  # pgs chains stretch more (measured 4.8 cm)
    assert max(gaps) < limit
    assert np.isfinite(world.get_positions()).all()


def test_jointed_bodies_do_not_collide_unless_asked():
    for collide, expected in ((False, 0), (True, 1)):
        world = i2d.World(gravity=(0, 0))
        a = world.create_body()
        a.create_box(0.5, 0.5)
        b = world.create_body(position=(0.5, 0.0))
        b.create_box(0.5, 0.5)
        world.create_revolute_joint(a, b, (0.25, 0.0), collide_connected=collide)
        world.step(DT)
        assert len(world.contacts) == expected


def test_destroying_a_body_destroys_its_joints():
    world, bob, joint = _pendulum("soft_step", 0.3)
    run(world, 0.1)
    world.destroy_body(bob)
    assert not joint.is_valid and world.joints == []
    with pytest.raises(ValueError, match="destroyed"):
        _ = joint.angle
    run(world, 0.1)


@pytest.mark.parametrize("call", [
    lambda w, s, b: w.create_revolute_joint(b, b, (0, 0)),
    lambda w, s, b: w.create_revolute_joint(s, w.create_body(type="static"), (0, 0)),
    lambda w, s, b: w.create_revolute_joint(s, b, (0, 0), enable_limit=True, lower_angle=1.0,
                                            upper_angle=-1.0),
    lambda w, s, b: w.create_revolute_joint(s, b, (0, 0), hertz=-1.0),
    lambda w, s, b: w.create_revolute_joint(s, b, (0, 0), damping_ratio=-0.5),
    lambda w, s, b: w.create_revolute_joint(s, b, (0, 0), max_motor_torque=-2.0),
    lambda w, s, b: w.create_revolute_joint(s, b, (math.nan, 0)),
    lambda w, s, b: w.create_revolute_joint(s, "body", (0, 0)),
])
def test_bad_joint_input_raises_and_changes_nothing(call):
    world = i2d.World()
    static = world.create_body(type="static")
    body = world.create_body(position=(0, -1))
    body.create_box(0.1, 0.1)
    n_bodies = len(world.bodies)
    with pytest.raises((ValueError, TypeError)) as info:
        call(world, static, body)
    assert str(info.value)
    assert world.joints == [] and len(world.bodies) in (n_bodies, n_bodies + 1)
    run(world, 0.1)
    assert np.isfinite(world.get_positions()).all()


def test_destroyed_bodies_cannot_be_joined():
    world = i2d.World()
    a = world.create_body(type="static")
    b = world.create_body()
    world.destroy_body(b)
    with pytest.raises(ValueError, match="destroyed"):
        world.create_revolute_joint(a, b, (0, 0))
    assert world.joints == []


@pytest.mark.parametrize("solver", ["pgs", "pgs_ngs", "pgs_block"])
def test_a_motor_driving_a_light_body_into_its_limit_is_held_there(solver):
    """LunarLander's leg (issue 16): a 0.07 kg, 0.0018 kg m^2 leg hinged to a 5 kg hull, its
    40 N m motor turning it into its limit, no gravity, one step of 1/50 s. The limit must
    take the motor's whole impulse, 40 N m x 0.02 s = 0.8 N m s, while the rows' speed budget
    (impulse_caps: a quarter turn per step times the row's effective mass, about I_leg) is
    0.28 N m s: the limit's budget includes the joint's own motor bound, so the leg stays at
    the limit, at rest relative to the hull, and the pair, free of outside torques, keeps its
    angular momentum (0). Before the budget included the motor's bound the leg passed its
    limit at the motor's speed, 0.006 rad a step. (The soft step's limit is a stiff spring,
    which a 40 N m load on a 0.0018 kg m^2 body bends by about 2 degrees: not this test.)"""
    world = i2d.World(gravity=(0.0, 0.0), solver=solver, velocity_iterations=180,
                      position_iterations=60)
    hull = world.create_body(position=(0.0, 0.0))
    hull.create_box(0.567, 0.3, density=5.0)
    leg = world.create_body(position=(0.6, -0.45))
    leg.create_box(2.0 / 30.0, 8.0 / 30.0, density=1.0)
    assert leg.mass == pytest.approx(0.0711, abs=1e-4) and leg.inertia < 0.002
    joint = world.create_revolute_joint(hull, leg, (0.6, -0.2), enable_limit=True,
                                        lower_angle=-0.5, upper_angle=0.0, enable_motor=True,
                                        motor_speed=0.3, max_motor_torque=40.0)
    for _ in range(100):
        world.step(1.0 / 50.0)
        assert joint.angle <= 1e-6  # rigid and speculative: never past the limit
    assert abs(joint.speed) < 1e-6
    assert joint.angle == pytest.approx(0.0, abs=1e-6)
    momentum = 0.0
    cx = (hull.mass * hull.world_center[0] + leg.mass * leg.world_center[0]) / (hull.mass
                                                                              + leg.mass)
    cy = (hull.mass * hull.world_center[1] + leg.mass * leg.world_center[1]) / (hull.mass
                                                                              + leg.mass)
    for body in (hull, leg):
        (x, y), (vx, vy) = body.world_center, body.linear_velocity
        momentum += body.inertia * body.angular_velocity + body.mass * ((x - cx) * vy
                                                                        - (y - cy) * vx)
    assert momentum == pytest.approx(0.0, abs=1e-9)
