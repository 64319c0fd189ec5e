"""The cheaper step of small worlds (benchmarks/small_worlds.py): what its shortcuts rely on.

* ``positions.turn_angle`` skips ``atan2`` for a rotation that is none: it must give
  ``atan2``'s bits everywhere, signed zeros included (the rigid solvers' velocity sweeps meet
  the identity in every sweep).
* A LunarLander-like lander (a hull and two light legs on revolute joints whose motors drive
  them into their limits) run as the pybox2d layer runs it (``pgs_block``, four steps of
  (30, 10) sweeps per 50 Hz frame) lands and comes to rest on its legs, limits held: the path
  through the shortcuts (identity turns, the inlined block sweep, the narrowphase without
  reference counts) still does the physics. (Not asserted for the other solvers at their
  default iterations: ``pgs`` at 8 sweeps lets the 70:1 hull on the legs push them 0.3 rad
  past their limits and hop, ``soft_step`` holds them 0.12 rad past, as before this change.)
* Settings changed between steps still reach the step (its Python reads the packed settings).
"""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

import impulse2d
from impulse2d._dynamics.positions import turn_angle
from impulse2d.constants import ANGULAR_SLOP, LINEAR_SLOP

SCALE = 30.0  # LunarLander's pixels per metre


def _bits(x: float) -> int:
    return int(np.float64(x).view(np.int64))


@numba.njit
def _compiled_turn(s, c):
    return turn_angle(s, c)


VALUES = (0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 5e-324, 0.5, -0.75, 2.0, math.inf, -math.inf)


@pytest.mark.parametrize("fn", [turn_angle.py_func, _compiled_turn], ids=["python", "compiled"])
def test_turn_angle_is_atan2_to_the_bit(fn):
    for s in VALUES:
        for c in VALUES:
            assert _bits(fn(s, c)) == _bits(math.atan2(s, c)), (s, c)
    # the identity, both signed zeros: the shortcut's case
    assert _bits(fn(0.0, 1.0)) == _bits(0.0)
    assert _bits(fn(-0.0, 1.0)) == _bits(-0.0)


def _lander(world, x0=10.0, y0=3.0):
    world.create_body("static").create_segment((0.0, 0.0), (20.0, 0.0), friction=0.1)
    hull = world.create_body(position=(x0, y0))
    hull.create_polygon([(-14 / SCALE, 17 / SCALE), (-17 / SCALE, 0.0), (-17 / SCALE, -10 / SCALE),
                         (17 / SCALE, -10 / SCALE), (17 / SCALE, 0.0), (14 / SCALE, 17 / SCALE)],
                        density=5.0, friction=0.1)
    legs, joints = [], []
    for i in (-1, 1):
        leg = world.create_body(position=(x0 - i * 20 / SCALE, y0 - 18 / SCALE), angle=0.05 * i)
        leg.create_box(2 / SCALE, 8 / SCALE, density=1.0, friction=0.2)
        lower, upper = (0.4, 0.9) if i == -1 else (-0.9, -0.4)
        joints.append(world.create_revolute_joint(
            hull, leg, (x0, y0), enable_limit=True, lower_angle=lower, upper_angle=upper,
            enable_motor=True, motor_speed=0.3 * i, max_motor_torque=40.0))
        legs.append(leg)
    return hull, legs, joints


def test_lander_lands_on_its_legs_within_limits():
    # as the pybox2d layer runs LunarLander: pgs_block, four engine steps of (30, 10) sweeps
    # per 50 Hz frame (the configuration the shortcuts were measured on)
    world = impulse2d.World(solver="pgs_block", velocity_iterations=30, position_iterations=10)
    hull, legs, joints = _lander(world)
    dt = 1.0 / 50.0 / 4
    for _ in range(3 * 50 * 4):  # 3 s: falls 2.4 m in 0.7 s, then settles
        world.step(dt)
    # at rest (or asleep), upright, on its legs above the ground
    assert abs(hull.linear_velocity[0]) < 1e-3 and abs(hull.linear_velocity[1]) < 1e-3
    assert abs(hull.angular_velocity) < 1e-3
    assert abs(hull.angle) < 0.05
    assert 0.0 < hull.position[1] - 10 / SCALE
    for leg in legs:
        assert np.isfinite(leg.position[0]) and np.isfinite(leg.position[1])
    # each motor drives its leg into a limit, which holds it (the angle is relative to the
    # start, where the legs were at -0.05 and +0.05 rad against the hull)
    for joint, (lower, upper) in zip(joints, ((0.4, 0.9), (-0.9, -0.4))):
        angle = joint.angle
        assert lower - 2 * ANGULAR_SLOP <= angle <= upper + 2 * ANGULAR_SLOP, angle
    # the legs' feet carry the hull: no foot sinks into the ground beyond the slop
    for leg in legs:
        c, s = math.cos(leg.angle), math.sin(leg.angle)
        lowest = min(leg.position[1] + s * x + c * y
                     for x in (-2 / SCALE, 2 / SCALE) for y in (-8 / SCALE, 8 / SCALE))
        assert lowest > -3 * LINEAR_SLOP, lowest


def test_settings_changed_between_steps_reach_the_step():
    # a box falling freely for 0.5 s: v = -g t exactly per step (semi-implicit Euler)
    world = impulse2d.World(gravity=(0.0, -10.0))
    box = world.create_body(position=(0.0, 100.0))
    box.create_box(0.5, 0.5, density=1.0)
    for _ in range(15):
        world.step(1.0 / 60.0)
    world.gravity = (0.0, -20.0)
    world.settings.max_linear_speed = 3.0  # m/s: the fall is capped from the next step on
    for _ in range(15):
        world.step(1.0 / 60.0)
    assert box.linear_velocity[1] == pytest.approx(-3.0, abs=1e-12)
    world.settings.max_linear_speed = 400.0
    world.step(1.0 / 60.0)
    assert box.linear_velocity[1] == pytest.approx(-3.0 - 20.0 / 60.0, abs=1e-9)
