"""A batch of copies of one world (``WorldBatch.replicate``) fills one copy's table of verbs on
its first step and gives the others that table (:meth:`impulse2d._batch_ready.ReadyState.
copies_made`); a copy changed before that step fills its own. Either way each world's table,
and its steps, are those of its twin stepped alone."""

from __future__ import annotations

import copy

import numpy as np

import impulse2d as i2d
from impulse2d import _batch_ready

from conftest import batch_world


def _boxes(seed: int) -> i2d.World:
    """Six boxes dropped on a floor: no circle (the narrowphase of polygons only)."""
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0))
    world.create_body("static").create_box(10.0, 0.5)
    for _ in range(6):
        world.create_body("dynamic", (rng.uniform(-4, 4), rng.uniform(1, 6))).create_box(0.3, 0.3)
    return world


def _copies_counted(monkeypatch) -> list:
    """The worlds whose table :func:`_batch_ready._copy_verbs` wrote, in order."""
    copied = []
    real = _batch_ready._copy_verbs

    def counted(world, like):
        copied.append(world)
        real(world, like)

    monkeypatch.setattr(_batch_ready, "_copy_verbs", counted)
    return copied


def _motion(world) -> bytes:
    b = world._bodies
    return b.origin.tobytes() + b.angle.tobytes() + b.v.tobytes() + b.w.tobytes()


def test_copies_take_the_first_copy_table_and_step_as_their_twins(monkeypatch):
    copied = _copies_counted(monkeypatch)
    template = batch_world(5)
    batch = i2d.WorldBatch.replicate(template, 5, threads=1)
    alone = [copy.deepcopy(template) for _ in range(5)]
    for step in range(60):
        batch.step(1.0 / 60.0)
        for w in alone:
            w.step(1.0 / 60.0)
        if step == 0:
            assert copied == list(batch.worlds[1:])  # the first filled its own
            for w, twin in zip(batch.worlds, alone):
                assert np.array_equal(w._verbs, twin._verbs)
    assert len(copied) == 4  # (the copies' later steps are the usual ones)
    for w, twin in zip(batch.worlds, alone):
        assert _motion(w) == _motion(twin)
        assert np.array_equal(w._verbs, twin._verbs)


def test_a_copy_changed_before_the_first_step_fills_its_own_table(monkeypatch):
    copied = _copies_counted(monkeypatch)
    template = _boxes(2)
    batch = i2d.WorldBatch.replicate(template, 4, threads=1)
    alone = [copy.deepcopy(template) for _ in range(4)]
    for worlds in (batch.worlds, alone):
        worlds[0].create_body("dynamic", (0.5, 7.0)).create_circle(0.25)  # a circle
        worlds[2].settings.velocity_iterations = 3
    batch.step(1.0 / 60.0)
    for w in alone:
        w.step(1.0 / 60.0)
    # world 0 changed, so world 1 filled the table that world 3 took; world 2 changed too
    assert copied == [batch.worlds[3]]
    for w, twin in zip(batch.worlds, alone):
        assert np.array_equal(w._verbs, twin._verbs)
    # the circle's world has the general narrowphase, the others that of polygons only
    assert not np.array_equal(batch.worlds[0]._verbs, batch.worlds[1]._verbs)
    assert np.array_equal(batch.worlds[3]._verbs, batch.worlds[1]._verbs)
    for _ in range(40):
        batch.step(1.0 / 60.0)
        for w in alone:
            w.step(1.0 / 60.0)
    for w, twin in zip(batch.worlds, alone):
        assert _motion(w) == _motion(twin)


def test_a_batch_of_other_worlds_fills_every_table(monkeypatch):
    copied = _copies_counted(monkeypatch)
    worlds = [batch_world(3), batch_world(3), _boxes(1)]
    batch = i2d.WorldBatch(worlds, threads=1)
    batch.step(1.0 / 60.0)
    assert copied == []
    assert not batch._state.fresh.any()
