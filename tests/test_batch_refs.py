"""The batch's list of its worlds' step references (:mod:`impulse2d._batch_ready`): kept as it
is while no world's stores are replaced, checked again after any replacement (a store grown,
a restore into stores of another size), and, after ``WorldBatch.restore`` of some worlds,
checked for those worlds only. Whatever the path, reads, writes and steps are the worlds' own,
bit for bit; a restore over contact stores a batch step left unboxed gives the checked
restore's bits."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import _batch_ready
from impulse2d import _snapshot_copy as fast

from conftest import batch_world

DT = 1.0 / 60.0


def _ten(seed: int = 0, sleep: bool = False) -> i2d.World:
    return batch_world(seed, enable_sleep=sleep)


def _count_checks(monkeypatch) -> list:
    """Count the batch's per-world reference checks."""
    calls = []
    original = _batch_ready.ReadyState.refresh_ref

    def counted(self, k):
        calls.append(k)
        return original(self, k)

    monkeypatch.setattr(_batch_ready.ReadyState, "refresh_ref", counted)
    return calls


def test_reads_check_no_world_while_no_store_was_replaced(monkeypatch):
    batch = i2d.WorldBatch.replicate(_ten(), 12, threads=1)
    for _ in range(30):
        batch.step(DT)
    batch.get_positions()  # (the list is current after this read, whatever came before)
    calls = _count_checks(monkeypatch)
    for _ in range(5):
        batch.step(DT)
        state = batch.get_state()
    assert calls == []
    for k, w in enumerate(batch.worlds):
        np.testing.assert_array_equal(state.positions[k], w.get_positions())
        np.testing.assert_array_equal(state.velocities[k], w.get_velocities())


def test_reads_and_writes_follow_a_grown_store_and_step_like_the_world_alone():
    template = _ten()
    batch = i2d.WorldBatch.replicate(template, 4, threads=1)
    twin = i2d.WorldBatch.replicate(template, 4, threads=1).worlds[2]  # stepped alone
    for _ in range(20):
        batch.step(DT)
        twin.step(DT)
    grown = batch.worlds[2]
    for w in (grown, twin):  # create bodies until the body store is replaced by a larger one
        store = w._bodies
        while w._bodies is store:
            w.create_body("dynamic", (0.0, 8.0)).create_circle(0.2)
    v = np.zeros((4, len(batch.body_rows), 3))
    v[:, 1:, 0] = np.linspace(-2.0, 2.0, len(batch.body_rows) - 1)
    v[:, 1:, 2] = 0.5
    batch.set_velocities(v)
    for body, want in zip(twin.bodies, v[2]):
        body.linear_velocity = (want[0], want[1])
        body.angular_velocity = want[2]
    # the write reached the grown store: the world's own handles read it back
    for body, want in zip(grown.bodies, v[2]):
        assert body.linear_velocity == (want[0], want[1]) and body.angular_velocity == want[2]
    np.testing.assert_array_equal(batch.get_velocities()[2], grown.get_velocities()[:11])
    for _ in range(40):
        batch.step(DT)
        twin.step(DT)
    assert grown.state_hash() == twin.state_hash()
    np.testing.assert_array_equal(batch.get_positions()[2], twin.get_positions()[:11])


@pytest.mark.parametrize("checked", [False, True])
def test_restoring_some_worlds_checks_those_only_and_gives_the_checked_bits(monkeypatch,
                                                                            checked):
    """Restore 3 of 16 worlds after steps that changed their pairs (the contact stores the
    batch steps made are still unboxed in the step's reference): the batch's restore, fast or
    checked (``checked``: the fast path switched off), gives the bits of twin worlds stepped
    alone and restored the checked way, then and on."""
    n = 16
    batch = i2d.WorldBatch.replicate(_ten(), n, threads=1)
    reference = [copy.deepcopy(w) for w in batch.worlds]
    kicks = np.random.default_rng(5).normal(size=(n, len(batch.body_rows), 3))
    kicks[:, 0] = 0.0  # (the floor)
    batch.apply_impulses(kicks)  # the copies part ways
    for w, kick in zip(reference, kicks):
        for body, (px, py, spin) in zip(w.bodies[1:], kick[1:]):
            body.apply_linear_impulse((px, py))
            body.apply_angular_impulse(spin)
    for _ in range(25):
        batch.step(DT)
        for w in reference:
            w.step(DT)
    snap = batch.snapshot()
    theirs = [w.snapshot() for w in reference]
    at_snapshot = [w.state_hash() for w in batch.worlds]
    for _ in range(35):
        batch.step(DT)
        for w in reference:
            w.step(DT)
    chosen = [2, 7, 11]
    assert any(batch.worlds[k].__dict__["_contacts_stale"] for k in chosen)
    with monkeypatch.context() as m:  # the references: the checked restore
        m.setattr(fast, "plan_for", lambda *args: None)
        for k in chosen:
            reference[k].restore(theirs[k])
    batch.get_positions()  # (the list current: a replacement in any world makes it checked)
    if checked:
        monkeypatch.setattr(fast, "plan_for", lambda *args: None)
    calls = _count_checks(monkeypatch)
    batch.restore(snap, worlds=chosen)
    assert sorted(calls) == chosen  # the worlds restored, and no other
    calls.clear()
    state = batch.get_state()
    assert calls == []  # the list stayed current
    for k, w in enumerate(batch.worlds):
        np.testing.assert_array_equal(state.positions[k], w.get_positions())
    for k in chosen:
        assert batch.worlds[k].state_hash() == at_snapshot[k]
    for _ in range(40):
        batch.step(DT)
        for w in reference:
            w.step(DT)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in reference]


def test_a_restore_that_drops_the_steps_reference_is_followed():
    """A snapshot taken under other settings: the restore drops the world's reference (the
    settings' table of verbs); the batch's next read and step use the new one."""
    batch = i2d.WorldBatch.replicate(_ten(), 3, threads=1)
    world = batch.worlds[1]
    world.settings.substeps = 2
    snap = batch.snapshot()
    world.settings.substeps = 4
    for _ in range(10):
        batch.step(DT)
    batch.restore(snap, worlds=[1])
    assert world.settings.substeps == 2
    twin = i2d.WorldBatch.replicate(_ten(), 3, threads=1).worlds[1]
    twin.settings.substeps = 2
    for _ in range(30):
        batch.step(DT)
        twin.step(DT)
    assert world.state_hash() == twin.state_hash()
    np.testing.assert_array_equal(batch.get_positions()[1], twin.get_positions())
