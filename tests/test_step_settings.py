"""The step reads a world's settings from a row in its stores' reference (``_step_settings``,
:data:`impulse2d._dynamics.step.SETTINGS_ROW`), written when they change rather than passed on
every call: a change between steps, a snapshot restored with other settings, and a world
stepped in a batch must each step with the settings the world has now.

The physics: a free body under the soft step falls by semi-implicit Euler over
``substeps`` substeps of ``h = dt / substeps`` (``v += g h``, then ``y += v h``), so its
height after a run tells how many substeps each step took."""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d

G = -10.0
DT = 1 / 60
Y0 = 50.0


def _falling_world():
    world = i2d.World(gravity=(0.0, G), enable_sleep=False)
    body = world.create_body(position=(0.0, Y0))
    body.create_circle(0.5)
    return world, body


def _euler(y, v, steps_and_substeps):
    """Semi-implicit Euler, as the soft step integrates a free body."""
    for steps, substeps in steps_and_substeps:
        h = DT / substeps
        for _ in range(steps * substeps):
            v += G * h
            y += v * h
    return y, v


def test_a_change_of_substeps_between_steps_reaches_the_step():
    world, body = _falling_world()
    for _ in range(30):
        world.step(DT)
    world.settings.substeps = 8
    for _ in range(30):
        world.step(DT)
    y, v = _euler(Y0, 0.0, [(30, 4), (30, 8)])
    stale, _ = _euler(Y0, 0.0, [(60, 4)])
    assert abs(y - stale) > 1e-4  # the two histories are far apart at this tolerance
    assert body.position.y == pytest.approx(y, rel=1e-12, abs=1e-12)
    assert body.linear_velocity.y == pytest.approx(v, rel=1e-12)
    assert body.linear_velocity.y == pytest.approx(G * 60 * DT, rel=1e-12)


def test_a_restored_snapshot_brings_its_settings_back_to_the_step():
    world, body = _falling_world()
    for _ in range(10):
        world.step(DT)
    snap = world.snapshot()
    world.settings.substeps = 2
    for _ in range(10):
        world.step(DT)
    world.restore(snap)
    assert world.settings.substeps == 4
    for _ in range(20):
        world.step(DT)
    y, v = _euler(Y0, 0.0, [(30, 4)])
    assert body.position.y == pytest.approx(y, rel=1e-12, abs=1e-12)
    assert body.linear_velocity.y == pytest.approx(v, rel=1e-12)


def test_new_settings_object_and_repeated_steps_follow_the_change():
    # settings replaced whole (a new WorldSettings), then the compat layer's repeated steps
    # (World._step_repeat), which read the same row
    world, body = _falling_world()
    world.step(DT)
    world.settings = world.settings.replace(substeps=6)
    world.step(DT)
    rows = world._bodies.alive.shape[0]
    forces, torques, starts = np.zeros((rows, 2)), np.zeros(rows), np.zeros((rows, 2))
    taken, _, _ = world._step_repeat(DT, 3, np.zeros(0, dtype=np.int64), forces, torques,
                                     starts, True)
    assert taken == 3
    y, v = _euler(Y0, 0.0, [(1, 4), (4, 6)])
    assert body.position.y == pytest.approx(y, rel=1e-12, abs=1e-12)
    assert body.linear_velocity.y == pytest.approx(v, rel=1e-12)


def test_worlds_in_a_batch_step_with_their_own_changed_settings():
    worlds = [_falling_world() for _ in range(3)]
    batch = i2d.WorldBatch([w for w, _ in worlds], threads=1)
    batch.step(DT)
    worlds[1][0].settings.substeps = 1
    worlds[2][0].settings.substeps = 12
    for _ in range(9):
        batch.step(DT)
    for (world, body), substeps in zip(worlds, (4, 1, 12)):
        y, v = _euler(Y0, 0.0, [(1, 4), (9, substeps)])
        assert body.position.y == pytest.approx(y, rel=1e-12, abs=1e-12), substeps
        assert body.linear_velocity.y == pytest.approx(v, rel=1e-12)
