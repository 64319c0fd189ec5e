"""A batch step shared among threads by the batch kernel itself
(:func:`impulse2d._dynamics.batch_step.step_batch`): each thread steps its own part of the
worlds, then takes what is left of the others' parts from their back, each world claimed
first. Whatever order the threads' calls run in, every world is stepped exactly once, with
the bits of the world stepped alone."""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import _crew
from impulse2d._dynamics import batch_crew, batch_step

from conftest import batch_world

STEPS = 90


def _worlds(n: int) -> list:
    """``n`` different worlds: the benchmark's, from other seeds, a third of them with other
    settings (each step reads its world's own)."""
    worlds = [batch_world(seed) for seed in range(n)]
    for k, w in enumerate(worlds):
        if k % 3 == 1:
            w.settings.solver = "pgs"
        if k % 3 == 2:
            w.settings.substeps = 2
    return worlds


@pytest.fixture(scope="module")
def alone():
    """Each world stepped alone: its state hash after every step."""
    worlds = _worlds(11)
    hashes = []
    for _ in range(STEPS):
        for w in worlds:
            w.step(1 / 60)
        hashes.append([w.state_hash() for w in worlds])
    return hashes


class _InTurn:
    """An executor whose calls run on the calling thread, in a set turn: ``first`` runs each
    call when it is submitted (the helpers' shares before the caller's own), ``last`` when its
    result is asked for (after the caller's)."""

    def __init__(self, when: str) -> None:
        self.when = when
        self.calls = 0

    def submit(self, fn, *args):
        self.calls += 1
        turn = self

        class Done:
            value = fn(*args) if turn.when == "first" else None

            def result(self):
                return fn(*args) if turn.when == "last" else self.value

            def done(self):  # (a call left to return by the batch: run when looked at)
                return True

        return Done()


@pytest.fixture
def pool(monkeypatch):
    """The batch's helpers handed each step through its pool of Python threads (where there
    is no crew: :mod:`impulse2d._crew`)."""
    monkeypatch.setattr(_crew, "ENABLED", False)


@pytest.mark.parametrize("when", ["first", "last"])
@pytest.mark.parametrize("threads", [2, 3])
def test_every_world_stepped_once_whatever_the_turns(alone, when, threads, pool):
    """One thread's call finds every world unclaimed and steps them all (its part up, the
    others' down); the others' calls find every claim taken and step none."""
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=threads)
    executor = _InTurn(when)
    batch._workers = lambda: executor
    for s in range(STEPS):
        batch.step(1 / 60)
        assert [w.state_hash() for w in worlds] == alone[s]
    assert executor.calls == STEPS * (threads - 1)
    assert all(w.step_count == STEPS for w in worlds)


@pytest.mark.parametrize("crew", [True, False])
@pytest.mark.parametrize("threads", [2, 3, 4])
def test_threads_at_once_equal_alone(alone, threads, crew, monkeypatch):
    monkeypatch.setattr(_crew, "ENABLED", crew and _crew.ENABLED)
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=threads)
    for s in range(STEPS):
        batch.step(1 / 60)
        assert [w.state_hash() for w in worlds] == alone[s]


def test_the_thread_arguments_share_one_zeroed_claim_per_world():
    calls = batch_step.thread_arguments(7, 3)
    assert [(share, shares) for _, share, shares in calls] == [(0, 3), (1, 3), (2, 3)]
    claimed = calls[0][0]
    assert all(c is claimed for c, _, _ in calls)
    # (then the board's header: the count of worlds done, on a line of its own, the joined
    # word; the step's number is 1, a crew's board flag 0)
    assert claimed.dtype == np.int64 and claimed.tolist() == [0] * (7 + batch_crew.HEADER)
    assert batch_step.ALONE[0].shape == (0,) and batch_step.ALONE[1:] == (0, 1)


def test_a_shared_call_claims_each_world_it_steps():
    """Thread 1 of 2 alone: it steps its part (worlds 3-5) up, then thread 0's part (0-2)
    down; each claim it made is 1 (the step's number). Thread 0 after it finds its first
    claim taken and the last of thread 1's part taken: it steps nothing, and the claims
    stay 1."""
    worlds = _worlds(6)
    batch = i2d.WorldBatch(worlds, threads=1)
    batch.step(1 / 60)  # (made ready, the kernel compiled)
    state = batch._state
    from impulse2d import _batch_ready
    fast, slow = _batch_ready.prepare(state, 1 / 60)
    assert fast.tolist() == list(range(6)) and not slow
    zero, one = batch_step.thread_arguments(6, 2)
    before = [w.state_hash() for w in worlds]
    batch_step.run(state.refs, fast, state.args, state.results, batch_step._NO_GATHER, one)
    claimed, done, joined = (zero[0][:6], zero[0][6 + batch_crew.DONE],
                             zero[0][6 + batch_crew.JOINED])
    assert claimed.tolist() == [1] * 6 and done == 6 and joined == 0  # (thread 1 waits not)
    after = [w.state_hash() for w in worlds]
    assert all(a != b for a, b in zip(after, before))
    batch_step.run(state.refs, fast, state.args, state.results, batch_step._NO_GATHER, zero)
    assert claimed.tolist() == [1] * 6 and zero[0][6 + batch_crew.DONE] == 6
    assert batch_step.joined(zero)  # (thread 0 found every world done)
    assert [w.state_hash() for w in worlds] == after


def test_the_helpers_calls_left_to_return_are_collected(alone, pool):
    """A step whose every world the calling thread saw done returns without waiting for the
    helpers' calls (their futures kept); the next step collects those that returned, so no
    more than a step's helpers are ever left, and the worlds equal their twins alone."""
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=3)
    left = []
    for s in range(STEPS):
        batch.step(1 / 60)
        left.append(len(batch._returning))
        assert [w.state_hash() for w in worlds] == alone[s]
    assert max(left) <= 2 * 2  # (this step's two helpers, and at most the last step's)
    batch.threads = 1  # (the pool shut down: its calls returned)
    batch.step(1 / 60)
    assert batch._returning == [] and all(w.step_count == STEPS + 1 for w in worlds)
