"""The rigid sweep of revolute joints that leaves out an unchanged angle row's push
(:mod:`impulse2d._dynamics.rigid_revolute`, taken by ``pgs_block`` for a world whose joints are
all revolute) gives the same bits as the joint entries' sweep (``revolute.solve``), which the
same world takes as soon as it has a joint of another type, for every mix of a revolute joint's
optional rows: a soft spring, a saturated motor, a limit it is pressed into, a limit it swings
free inside, and all of them at once.

The other type's joint is a distance joint at its rest length on two bodies of their own, far
off, never touching anything (as in ``test_revolute_sweeps.py``): it adds no impulse and no
position error, so the arms must move bit for bit alike on both paths.
"""

from __future__ import annotations

import math

import pytest

import impulse2d as i2d

DT = 1.0 / 50.0
STEPS = 150


def _arms(world, rows: dict):
    """A heavy hub falling freely with three light arms on revolute joints ``rows``; returns
    the hub and the arms."""
    hub = world.create_body(position=(0.0, 20.0), allow_sleep=False)
    hub.create_box(0.5, 0.3, density=5.0, group=-1)  # group -1: hub and arms never touch
    arms = []
    for k, angle in enumerate((0.0, 2.1, 4.2)):
        x, y = 0.8 * math.cos(angle), 20.0 + 0.8 * math.sin(angle)
        arm = world.create_body(position=(x, y), angle=angle, allow_sleep=False)
        arm.create_box(0.4, 0.05, density=1.0, group=-1)
        # each arm turns about its inner end, on the hub's rim
        world.create_revolute_joint(hub, arm, (0.4 * math.cos(angle), 20.0 + 0.4 * math.sin(angle)),
                                    **rows)
        arm.angular_velocity = 3.0 * (k - 1)  # set them swinging, one each way and one not
        arms.append(arm)
    return hub, arms


def _motion(rows: dict, other_type: bool):
    world = i2d.World(solver="pgs_block", velocity_iterations=60, position_iterations=20)
    hub, arms = _arms(world, rows)
    if other_type:
        a = world.create_body(position=(500.0, 50.0), allow_sleep=False)
        b = world.create_body(position=(502.0, 50.0), allow_sleep=False)
        a.create_circle(0.2, density=1.0)
        b.create_circle(0.2, density=1.0)
        world.create_distance_joint(a, b, (500.0, 50.0), (502.0, 50.0))
    track = []
    for _ in range(STEPS):
        world.step(DT)
        track.append([(*body.position, body.angle, *body.linear_velocity, body.angular_velocity,
                       body.mass) for body in (hub, *arms)])
    return track, world.gravity[1]


ROWS = {
    "spring": dict(enable_spring=True, hertz=2.0, damping_ratio=0.1),
    "saturated_motor": dict(enable_motor=True, motor_speed=20.0, max_motor_torque=0.01),
    "motor_into_limit": dict(enable_motor=True, motor_speed=2.0, max_motor_torque=40.0,
                             enable_limit=True, lower_angle=-0.3, upper_angle=0.4),
    "free_inside_limit": dict(enable_limit=True, lower_angle=-1.5, upper_angle=1.5),
    "all_rows": dict(enable_spring=True, hertz=4.0, damping_ratio=0.5, enable_motor=True,
                     motor_speed=-1.0, max_motor_torque=0.2, enable_limit=True,
                     lower_angle=-0.6, upper_angle=0.6),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_rigid_sweep_matches_the_entries_bit_for_bit(name):
    rows = ROWS[name]
    fast, gy = _motion(rows, False)
    assert fast == _motion(rows, True)[0]  # floats compared exactly: the same bits
    # and not a trivial run: the joints are internal forces, so the centre of mass of the hub
    # and its arms falls freely (vertical momentum g t per kg), while each arm turns relative
    # to the hub as its rows say
    last = fast[-1]
    mass = sum(body[6] for body in last)
    momentum = sum(body[6] * body[4] for body in last)
    assert momentum / mass == pytest.approx(gy * STEPS * DT, rel=1e-6)
    hub = last[0]
    relative = [arm[2] - hub[2] - angle0
                for arm, angle0 in zip(fast[-1][1:], (0.0, 2.1, 4.2))]
    relative = [math.remainder(r, 2.0 * math.pi) for r in relative]
    if "lower_angle" in rows:
        # within the limit, to the position pass's tolerance (2 degrees of slop and some)
        for r in relative:
            assert rows["lower_angle"] - 0.08 <= r <= rows["upper_angle"] + 0.08
    if name == "motor_into_limit":
        # the motor (2 rad/s, 40 N m against 0.02 kg m^2 arms) holds each arm at the upper limit
        for r in relative:
            assert r == pytest.approx(rows["upper_angle"], abs=0.05)
    if name == "saturated_motor":
        # 0.01 N m cannot bring a 0.08 kg, 0.8 m arm to 20 rad/s in 3 s: below the target, the
        # motor saturated throughout, the arms' spins relative to the hub up from their start
        # (-3, 0 and 3 rad/s, mean 0)
        spins = [arm[5] - hub[5] for arm in last[1:]]
        assert all(s < 20.0 for s in spins) and sum(spins) / 3.0 > 1.0
    if name == "spring":
        # 2 Hz, damping ratio 0.1: the swings (about 0.24 rad at first) decay by e^-3.8 in 3 s
        for r in relative:
            assert abs(r) < 0.05
