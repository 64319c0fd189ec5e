"""The stale flags of a batch's worlds (``_contacts_stale``, ``_constraints_stale``): a batch
step sets a world's flag where its step made a new store kept in the reference, but not again
while the flag stays set (:func:`impulse2d._batch_ready._flag_stale`); Python's reads of the
stores (which clear it) and any change to the world make the batch set it again. Whatever is
read between the steps is the store the world's own step would have made."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics.world_ref import sync_constraints

from conftest import batch_world


def _same(a, b) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def _flags_hold(batch) -> None:
    """The batch takes a flag for set only where it is (or the world's mark tells the next
    step's end to take it for unknown)."""
    state = batch._state
    for k, w in enumerate(batch.worlds):
        d = w.__dict__
        taken = state.stale_set[:, k] & ~state.flags_dirty[k]
        assert not taken[0] or d["_constraints_stale"]
        assert not taken[1] or d["_contacts_stale"]


@pytest.mark.parametrize("threads", [1, 2])
def test_stores_read_between_batch_steps_are_the_worlds_own(threads):
    # (2 threads: both note the new stores' worlds, batch_step.clock_world, in one list)
    template = batch_world(3)
    alone = [copy.deepcopy(template) for _ in range(6)]
    batch = i2d.WorldBatch.replicate(template, 6, threads=threads)
    made = 0
    for step in range(90):
        batch.step(1.0 / 60.0)
        for w in alone:
            w.step(1.0 / 60.0)
        made += int(np.count_nonzero(batch._state.results[:, 0]))
        _flags_hold(batch)
        k = step % 6
        if step % 3 != 2:  # a world read on two steps in three, each world in turn
            w = batch.worlds[k]
            assert _same(w._contacts, alone[k]._contacts)
            sync_constraints(w)
            sync_constraints(alone[k])  # (a step alone keeps its new store in the reference too)
            assert _same(w._constraints, alone[k]._constraints)
            _flags_hold(batch)
        if step == 40:  # restores (put_contact_stores clears the flags in the dicts)
            snap = batch.snapshot()
            batch.restore(snap, worlds=[1, 4])
            _flags_hold(batch)
    assert made > 30  # (the settling makes new stores on many steps)
    for w, twin in zip(batch.worlds, alone):
        assert _same(w._contacts, twin._contacts)
        sync_constraints(w)
        sync_constraints(twin)
        assert _same(w._constraints, twin._constraints)


def test_a_flag_set_once_is_not_written_again_until_python_reads_the_store():
    batch = i2d.WorldBatch.replicate(batch_world(0), 4, threads=1)
    state = batch._state
    for _ in range(10):
        batch.step(1.0 / 60.0)
    assert state.stale_set.all()  # every world's step made both new stores by now
    w = batch.worlds[2]
    w.__dict__["_contacts_stale"] = "untouched"  # (a value no flag write would leave)
    batch.step(1.0 / 60.0)
    assert w.__dict__["_contacts_stale"] == "untouched"  # taken for set: not written
    w.__dict__["_contacts_stale"] = True
    w._contacts  # synced: the flag cleared, the batch told
    assert not w.__dict__["_contacts_stale"] and state.flags_dirty[2]
    for _ in range(30):
        batch.step(1.0 / 60.0)
        if w.__dict__["_contacts_stale"]:
            break
    assert w.__dict__["_contacts_stale"] is True and state.stale_set[1, 2]
