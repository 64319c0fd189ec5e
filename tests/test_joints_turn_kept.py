"""The revolute joints' kept turn (``joints.revolute.kept_turn``): the soft step's relax pass
keeps each joint's ``atan2`` with the rotation it was taken of, and the next substep's biased
pass, at the same rotation, takes it from there. What it relies on:

* a kept angle is taken only for the very sin and cos it was computed from, so the angle has
  ``relative_turn``'s bits whatever the row held before, signed zeros included (``==`` does not
  tell -0.0 from 0.0, and ``atan2(-0.0, c < 0)`` is -pi where ``atan2(0.0, c)`` is pi);
* after a step the row holds the relax pass's last turn: the step-start angle plus it is the
  joint's angle the step ended with (the bodies' angles, integrated apart).
"""

from __future__ import annotations

import math

import numba
import numpy as np

import impulse2d
from impulse2d._dynamics.joints.revolute import kept_turn
from impulse2d._dynamics.positions import relative_turn


def _bits(x: float) -> int:
    return int(np.float64(x).view(np.int64))


@numba.njit
def _kept_turn(kept, j, dq, a, b):
    return kept_turn(kept, j, dq, a, b)


@numba.njit
def _relative_turn(dq, a, b):
    return relative_turn(dq, a, b)


def test_a_kept_turn_has_relative_turns_bits():
    rng = np.random.default_rng(7)
    angles = np.concatenate((rng.uniform(-0.7, 0.7, 40), [0.0, 1e-300, -1e-300, 1.5]))
    dq = np.stack((np.cos(angles), np.sin(angles)), axis=1)
    kept = np.zeros((2, 3))
    for a in range(len(dq)):
        for b in range(len(dq)):
            for _ in range(2):  # a miss, then a hit on the same rotation
                got = _kept_turn(kept, 1, dq, a, b)
                assert _bits(got) == _bits(_relative_turn(dq, a, b)), (a, b)
                # what is kept is atan2 of what is kept beside it
                assert _bits(kept[1, 2]) == _bits(math.atan2(kept[1, 0], kept[1, 1]))
    assert not kept[0].any()  # (another joint's row untouched)


def test_a_zero_sin_is_never_taken_from_the_row():
    # a = (1, -0), b = (-1, -0): s = -0.0 * 1 - (-1) * (-0.0) = -0.0, c = -1: atan2 is -pi,
    # where a row kept at s = +0.0 (== -0.0) holds +pi
    dq = np.array([[1.0, -0.0], [-1.0, -0.0]])
    kept = np.array([[0.0, -1.0, math.pi]])
    assert _bits(_kept_turn(kept, 0, dq, 0, 1)) == _bits(-math.pi)
    # a row of another rotation (its sin alike, not its cos) is computed afresh, not read
    kept = np.array([[0.25, 0.5, 123.0]])
    dq = np.array([[1.0, 0.0], [0.75, 0.25]])
    assert _bits(_kept_turn(kept, 0, dq, 0, 1)) == _bits(math.atan2(0.25, 0.75))
    assert kept[0].tolist() == [0.25, 0.75, math.atan2(0.25, 0.75)]


def test_the_row_after_a_step_is_the_angle_the_step_ended_with():
    # a hull and two legs on limited, motored revolute joints (LunarLander's), on the soft step
    scale = 30.0
    world = impulse2d.World(solver="soft_step", substeps=8)
    world.create_body("static").create_segment((0.0, 0.0), (20.0, 0.0), friction=0.1)
    hull = world.create_body(position=(10.0, 3.0))
    hull.create_polygon([(-14 / scale, 17 / scale), (-17 / scale, 0.0), (-17 / scale, -10 / scale),
                         (17 / scale, -10 / scale), (17 / scale, 0.0), (14 / scale, 17 / scale)],
                        density=5.0)
    joints = []
    for i in (-1, 1):
        leg = world.create_body(position=(10.0 - i * 20 / scale, 3.0 - 18 / scale),
                                angle=0.05 * i)
        leg.create_box(2 / scale, 8 / scale, density=1.0)
        lower, upper = (0.4, 0.9) if i == -1 else (-0.9, -0.4)
        joints.append(world.create_revolute_joint(
            hull, leg, (10.0, 3.0), enable_limit=True, lower_angle=lower, upper_angle=upper,
            enable_motor=True, motor_speed=0.3 * i, max_motor_torque=40.0))
    hull.apply_angular_impulse(2.0)  # (the hull turns, so the turns are not the identity)
    for _ in range(25):
        world.step(1.0 / 50.0)
        store = world._joints
        for joint in joints:
            j = joint._index
            s, c, angle = store.turn_kept[j]
            assert s != 0.0
            assert _bits(angle) == _bits(math.atan2(s, c))
            assert abs(store.delta_angle[j] + angle - joint.angle) < 1e-12
