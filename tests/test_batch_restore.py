"""WorldBatch.restore of many worlds at once (snapshot.restore_many: one compiled copy of every
world's stores) gives the bits of each world restored alone, whether its stores still have the
snapshot's layout or not; the snapshots of a batch's copies of one world share one buffer, which
no restore writes."""

import numpy as np

import impulse2d as i2d

from conftest import batch_world

DT = 1 / 60


def _kick(batch, seed: int) -> None:
    """A different push in every world (their states part)."""
    rng = np.random.default_rng(seed)
    for w in batch.worlds:
        w.bodies[1 + int(rng.integers(8))].apply_linear_impulse(
            tuple(rng.uniform(-2.0, 2.0, 2)))


def test_copies_share_one_buffer_and_restore_to_their_state():
    batch = i2d.WorldBatch.replicate(batch_world(3), 6)
    for _ in range(10):
        batch.step(DT)
    snap = batch.snapshot()
    assert len({id(s._buffer) for s in snap.worlds}) == 1
    at_snapshot = [w.state_hash() for w in batch.worlds]
    reference = i2d.WorldBatch.replicate(batch_world(3), 6)  # stepped alongside, never reset
    for _ in range(10):
        reference.step(DT)
    for rounds in range(3):
        _kick(batch, rounds)
        for _ in range(40):
            batch.step(DT)
        # some of the worlds, then all of them: each back to its state (the shared buffer
        # unchanged by the restores and the steps between them)
        batch.restore(snap, worlds=[0, 4])
        assert [batch.worlds[k].state_hash() for k in (0, 4)] == [at_snapshot[0], at_snapshot[4]]
        batch.restore(snap)
        assert [w.state_hash() for w in batch.worlds] == at_snapshot
    for _ in range(30):
        batch.step(DT)
        reference.step(DT)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in reference.worlds]


def test_restore_many_equals_each_world_restored_alone():
    """Worlds whose stores kept the snapshot's layout (one compiled copy for all) and worlds
    whose stores grew since (restored one by one) in one call: the bits of World.restore."""
    def make():
        return i2d.WorldBatch([batch_world(k) for k in range(6)])

    batch, alone = make(), [batch_world(k) for k in range(6)]
    for _ in range(20):
        batch.step(DT)
        for w in alone:
            w.step(DT)
    snap = batch.snapshot()
    snaps = [w.snapshot() for w in alone]
    for k in (1, 4):  # their body and shape stores grow past their capacity
        for source in (batch.worlds[k], alone[k]):
            for j in range(40):
                source.create_body("dynamic", (0.2 * j - 4.0, 8.0)).create_circle(0.1)
    for _ in range(25):
        batch.step(DT)
        for w in alone:
            w.step(DT)
    batch.restore(snap)
    for w, s in zip(alone, snaps):
        w.restore(s)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in alone]
    for _ in range(30):
        batch.step(DT)
        for w in alone:
            w.step(DT)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in alone]
