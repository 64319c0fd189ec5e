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


def test_changes_between_usual_steps_reach_the_step():
    # After a few usual steps the step's Python checks only what it kept from its last full
    # check (step_world's _step_ready): each change below must still reach the next step.
    world = impulse2d.World(gravity=(0.0, -10.0), enable_sleep=False)
    world.create_body("static").create_box(20.0, 0.5, density=0.0)
    box = world.create_body(position=(0.0, 1.0))
    box.create_box(0.5, 0.5, density=1.0)
    for _ in range(90):
        world.step(1.0 / 60.0)
    rest = box.position[1]
    assert rest == pytest.approx(1.0, abs=0.05)  # resting on the ground's top (y 0.5)
    # a pre-solve hook that switches every contact off: the box falls into the ground
    calls = []
    world.pre_solve = lambda contact: calls.append(contact) or False
    world.step(1.0 / 60.0)
    world.step(1.0 / 60.0)
    assert len(calls) >= 2
    assert box.position[1] < rest - 0.001
    assert box.linear_velocity[1] < -0.1
    world.pre_solve = None
    # bodies past the body store's rows (it grows: a new store) fall at -g t from rest
    free = [world.create_body(position=(100.0 + 3 * k, 50.0)) for k in range(20)]
    for body in free:
        body.create_circle(0.25, density=1.0)
    assert len(world._bodies.alive) > 16  # (the world's first body store held 16 rows)
    for _ in range(6):
        world.step(1.0 / 60.0)
    for body in free:
        assert body.linear_velocity[1] == pytest.approx(-1.0, abs=1e-12)
    # a joint added between usual steps is solved: the pendulum keeps its length
    anchor = world.create_body("static", position=(-50.0, 50.0))
    bob = world.create_body(position=(-48.0, 50.0))
    bob.create_circle(0.1, density=1.0)
    world.create_revolute_joint(anchor, bob, (-50.0, 50.0))
    for _ in range(30):
        world.step(1.0 / 60.0)
    dx, dy = bob.position[0] + 50.0, bob.position[1] - 50.0
    assert math.hypot(dx, dy) == pytest.approx(2.0, abs=0.01)
    assert dy < -0.5  # it swung down


@pytest.mark.parametrize("linear,angular", [(0.0, 0.0), (0.7, 0.0), (0.0, 1.3), (2.5, 0.4)])
def test_damping_is_implicit_per_substep(linear, angular):
    # no gravity, no contact: each of the 4 substeps of h = dt / 4 scales v by 1 / (1 + h c)
    # (the Pade form, integrate.integrate_velocities); undamped, the velocity keeps its bits
    world = impulse2d.World(gravity=(0.0, 0.0))
    body = world.create_body(position=(0.0, 0.0), linear_velocity=(3.0, -1.5),
                             angular_velocity=0.8, linear_damping=linear,
                             angular_damping=angular)
    body.create_circle(0.5, density=1.0)
    vx, vy, w = 3.0, -1.5, 0.8
    h = (1.0 / 60.0) / world.settings.substeps
    for _ in range(10):
        world.step(1.0 / 60.0)
        for _ in range(world.settings.substeps):
            lin = 1.0 / (1.0 + h * linear)
            vx, vy = vx * lin, vy * lin
            w = w / (1.0 + h * angular)
    assert tuple(body.linear_velocity) == (vx, vy)
    assert body.angular_velocity == w


def test_a_restore_brings_its_callbacks_to_the_next_step():
    # a snapshot holds the pre-solve hook (by reference); restored into a world that has been
    # taking usual steps without one, the next step calls it
    world = impulse2d.World(gravity=(0.0, -10.0), enable_sleep=False)
    world.create_body("static").create_box(20.0, 0.5, density=0.0)
    box = world.create_body(position=(0.0, 1.0))
    box.create_box(0.5, 0.5, density=1.0)
    calls = []
    world.pre_solve = lambda contact: calls.append(contact) or True
    for _ in range(30):
        world.step(1.0 / 60.0)
    snap = world.snapshot()
    world.pre_solve = None
    for _ in range(10):
        world.step(1.0 / 60.0)
    seen = len(calls)
    world.restore(snap)
    world.step(1.0 / 60.0)
    assert len(calls) > seen
    assert box.position[1] == pytest.approx(1.0, abs=0.05)  # (the hook kept the contact)
