"""The rigid solvers' sweep of a world whose joints are all revolute (``pgs_block``:
:func:`impulse2d._dynamics.joint_solver.revolute_rigid_pass`, the revolute kernels compiled into
the solver) gives the same bits as the sweep through the joint types' entries
(:func:`~impulse2d._dynamics.joint_solver.joint_pass`), which the same world takes as soon as it
has a joint of another type (``pgs_ngs`` takes the entries in both worlds: the far joint must
change nothing there either).

The other type's joint is put on two bodies of their own, far from the rest and never touching
anything, and made at its rest length: it adds no impulse to the others and no position error
(the position passes stop at the same pass), so the revolute bodies must move bit for bit
alike on both paths, with contacts and without.
"""

from __future__ import annotations

import pytest

import impulse2d as i2d
from impulse2d.constants import ANGULAR_SLOP

SCALE = 30.0  # LunarLander's pixels per metre
DT = 1.0 / 50.0


def _lander(world, ground: bool):
    """Gymnasium's LunarLander in metres (motors driving the legs into their limits: the
    revolute list), with a pinned box on the hull (the pins' list); returns its bodies."""
    if ground:
        world.create_body("static").create_segment((0.0, 0.0), (20.0, 0.0), friction=0.1)
    x0, y0 = 10.0, 1.2
    hull = world.create_body(position=(x0, y0), allow_sleep=False)
    hull.create_polygon([(-14 / SCALE, 17 / SCALE), (-17 / SCALE, 0.0),
                         (-17 / SCALE, -10 / SCALE), (17 / SCALE, -10 / SCALE),
                         (17 / SCALE, 0.0), (14 / SCALE, 17 / SCALE)], density=5.0, friction=0.1)
    bodies = [hull]
    for i in (-1, 1):
        leg = world.create_body(position=(x0 - i * 20 / SCALE, y0 - 18 / SCALE), angle=0.05 * i,
                                allow_sleep=False)
        leg.create_box(2 / SCALE, 8 / SCALE, density=1.0, friction=0.2)
        lower, upper = (0.4, 0.9) if i == -1 else (-0.9, -0.4)
        world.create_revolute_joint(hull, leg, (x0, y0), enable_limit=True, lower_angle=lower,
                                    upper_angle=upper, enable_motor=True, motor_speed=0.3 * i,
                                    max_motor_torque=40.0)
        bodies.append(leg)
    lamp = world.create_body(position=(x0 + 0.3, y0 + 0.5), allow_sleep=False)
    lamp.create_box(0.1, 0.05, density=1.0)
    world.create_revolute_joint(hull, lamp, (x0 + 0.2, y0 + 0.5))  # no motor, limit, spring
    bodies.append(lamp)
    return bodies


def _motion(world, ground: bool, other_type: bool, steps: int):
    world_bodies = _lander(world, ground)
    if other_type:
        # far off, free fall, nothing to touch: its own island, rest length, no error
        a = world.create_body(position=(500.0, 50.0), allow_sleep=False)
        b = world.create_body(position=(502.0, 50.0), allow_sleep=False)
        a.create_circle(0.2, density=1.0)
        b.create_circle(0.2, density=1.0)
        world.create_distance_joint(a, b, (500.0, 50.0), (502.0, 50.0))
    track = []
    for _ in range(steps):
        world.step(DT)
        track.append([(*b.position, b.angle, *b.linear_velocity, b.angular_velocity)
                      for b in world_bodies])
    return track


@pytest.mark.parametrize("solver", ["pgs_ngs", "pgs_block"])
@pytest.mark.parametrize("ground", [False, True], ids=["joints_only", "joints_and_contacts"])
def test_revolute_sweep_matches_the_entries_bit_for_bit(solver, ground):
    steps = 120
    settings = dict(solver=solver, velocity_iterations=30, position_iterations=10)
    fast = _motion(i2d.World(**settings), ground, False, steps)
    entries = _motion(i2d.World(**settings), ground, True, steps)
    assert fast == entries  # floats compared exactly: the same bits
    # not a trivial run. In the air each motor drives its leg from joint angle 0 (the legs'
    # reference angles, -+0.05 rad) against its limit at 0.4 rad, where the position pass
    # leaves it within the angular slop; on the ground the lander stands on its legs (the hull
    # 0.44-0.59 m up, rocking: the pinned box swings on it), neither through it nor away.
    hull, leg_left, leg_right, _ = fast[-1]
    if ground:
        assert 0.3 < hull[1] < 1.0 and abs(hull[4]) < 3.0
    else:
        assert (leg_left[2] - hull[2] + 0.05) == pytest.approx(0.4, abs=ANGULAR_SLOP + 1e-3)
        assert (leg_right[2] - hull[2] - 0.05) == pytest.approx(-0.4, abs=ANGULAR_SLOP + 1e-3)
        assert hull[4] < -10.0  # falling: 2.4 s of free fall at 10 m/s^2
