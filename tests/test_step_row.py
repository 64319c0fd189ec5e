"""The step kernel's inputs and outputs in the world's step row (``World._step_settings``,
:data:`impulse2d._dynamics.step.STEP_ROW`): gravity, the dirty pairs' flag, the sleepers and
the joint rows' flag are read there, the sleeping counts and the joints' reaction scale
written there, so that the call passes three arguments and returns one integer. Every writer
of those must reach the step: a world alone, after a snapshot taken between a write and the
next step, and in a batch.

The physics: a free body under the soft step falls by semi-implicit Euler over ``substeps``
substeps of ``h = dt / substeps`` (``v += g h``, then ``y += v h``)."""

from __future__ import annotations

import pytest

import impulse2d as i2d

DT = 1 / 60
SUBSTEPS = 4
Y0 = 50.0


def _falling_world():
    world = i2d.World(gravity=(0.0, -10.0), enable_sleep=False, substeps=SUBSTEPS)
    body = world.create_body(position=(0.0, Y0))
    body.create_circle(0.5)
    return world, body


def _euler(runs):
    """Height and velocity after ``runs``: (steps, gravity y) each, from rest at ``Y0``."""
    y, v = Y0, 0.0
    h = DT / SUBSTEPS
    for steps, g in runs:
        for _ in range(steps * SUBSTEPS):
            v += g * h
            y += v * h
    return y, v


def _assert_fell(body, runs):
    y, v = _euler(runs)
    assert body.position.y == pytest.approx(y, rel=1e-12)
    assert body.linear_velocity.y == pytest.approx(v, rel=1e-12)


def test_gravity_set_between_steps_reaches_the_step():
    world, body = _falling_world()
    for _ in range(20):
        world.step(DT)
    world.gravity = (0.0, -3.0)
    for _ in range(20):
        world.step(DT)
    stale, _ = _euler([(40, -10.0)])
    assert abs(body.position.y - stale) > 0.1  # (0.39 m apart)
    _assert_fell(body, [(20, -10.0), (20, -3.0)])


def test_a_snapshot_taken_between_a_gravity_write_and_the_step_restores_that_gravity():
    world, body = _falling_world()
    for _ in range(10):
        world.step(DT)
    world.gravity = (0.0, -4.0)
    snap = world.snapshot()  # (before any step read the new gravity)
    for _ in range(10):
        world.step(DT)
    world.gravity = (0.0, -25.0)
    world.step(DT)
    world.restore(snap)
    assert tuple(world.gravity) == (0.0, -4.0)
    for _ in range(10):
        world.step(DT)
    _assert_fell(body, [(10, -10.0), (10, -4.0)])


def test_a_world_in_a_batch_steps_with_the_gravity_it_was_given_and_restored_to():
    worlds = [_falling_world() for _ in range(3)]
    batch = i2d.WorldBatch([w for w, _ in worlds])
    for _ in range(10):
        batch.step(DT)
    worlds[1][0].gravity = (0.0, -2.0)
    snap = worlds[1][0].snapshot()
    for _ in range(10):
        batch.step(DT)
    worlds[1][0].gravity = (0.0, -30.0)
    batch.step(DT)
    worlds[1][0].restore(snap)
    for _ in range(10):
        batch.step(DT)
    _assert_fell(worlds[0][1], [(31, -10.0)])
    _assert_fell(worlds[1][1], [(10, -10.0), (10, -2.0)])
    _assert_fell(worlds[2][1], [(31, -10.0)])


def test_the_step_writes_the_sleeping_counts_and_the_joints_reaction_scale():
    world = i2d.World(gravity=(0.0, -10.0), substeps=SUBSTEPS)
    world.create_body("static").create_segment((-10.0, 0.0), (10.0, 0.0))
    boxes = []
    for k in range(3):
        box = world.create_body(position=(2.0 * k - 2.0, 0.5))
        box.create_box(0.5, 0.5)
        boxes.append(box)
    pivot = world.create_body("static", position=(5.0, 5.0))
    bob = world.create_body(position=(6.0, 5.0))
    bob.create_circle(0.2)
    world.create_revolute_joint(pivot, bob, anchor=(5.0, 5.0))
    world.step(DT)
    assert world._joint_inv_h == pytest.approx(SUBSTEPS / DT, rel=1e-15)  # 1 / (dt / substeps)
    assert world._sleepers == 0 and world._fell_asleep == 0
    fell = 0
    for _ in range(600):
        world.step(DT)
        fell += world._fell_asleep
        asleep = sum(not b.is_awake for b in boxes)
        assert world._sleepers >= asleep
        if asleep == len(boxes):
            break
    assert all(not b.is_awake for b in boxes)
    assert fell >= len(boxes)
    assert not world._pairs_dirty
    assert world._sleepers == len(boxes)
    # a ball made on the first box's top (its half-height 0.5): a shape made, so the next step
    # must look at every shape; the ball's contact wakes that box's island alone
    ball = world.create_body(position=(-2.0, 1.2))
    ball.create_circle(0.2)
    assert world._pairs_dirty
    world.step(DT)
    assert not world._pairs_dirty
    assert boxes[0].is_awake and world._sleepers == len(boxes) - 1
    for _ in range(10):
        world.step(DT)
    assert ball.position.y == pytest.approx(1.2, abs=0.01)  # held on the box
