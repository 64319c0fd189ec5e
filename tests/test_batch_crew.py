"""A batch's crew (:mod:`impulse2d._crew`): helper threads that wait for the next batch step
inside the batch kernel. Every world stepped exactly once with the bits of the world alone,
and a crew never holds up its process: at the interpreter's exit, after an error, when its
batch is collected in the middle of a step, in a child after ``fork``."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import _crew
from impulse2d._dynamics import batch_crew, batch_step

from test_batch_shares import STEPS, _worlds, alone  # noqa: F401 (the fixture: each world alone)

pytestmark = pytest.mark.skipif(not _crew.ENABLED, reason="no crew here (Linux and the JIT)")


@pytest.mark.parametrize("threads", [2, 3])
def test_a_crew_steps_every_world_as_alone(alone, threads):
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=threads)
    for s in range(STEPS):
        batch.step(1 / 60)
        assert [w.state_hash() for w in worlds] == alone[s]
    crew = batch._crew
    assert crew is not None and len(crew.helpers) == threads - 1
    assert all(h.is_alive() for h in crew.helpers)
    board = crew.board
    assert board[crew.top + batch_crew.GO] == STEPS  # (one post a step)
    assert board[crew.top + batch_crew.DONE] == 11
    assert (board[:11] == STEPS).all()  # (every claim stamped with the last step's number)
    # the clocks, advanced by the thread that stepped each world (batch_step.clock_world):
    # World.step's float64 sums, and each world's profile the same share of the kernel's time
    clock = 0.0
    for _ in range(STEPS):
        clock += 1 / 60
    assert all(w.step_count == STEPS and w.time == clock for w in worlds)
    seconds = {w._step_seconds for w in worlds}
    assert len(seconds) == 1 and seconds.pop() > 0.0
    tally = batch._state.clocks[batch_step.TALLY]
    assert tally[batch_step.UNWRITTEN_WORLDS] == 0


def test_a_crew_leaves_when_the_threads_change_and_the_batch_goes(alone):
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=2)
    for s in range(10):
        batch.step(1 / 60)
    crew = batch._crew
    batch.threads = 3  # (a new crew at the next step)
    assert not any(h.is_alive() for h in crew.helpers)
    for s in range(10, 20):
        batch.step(1 / 60)
        assert [w.state_hash() for w in worlds] == alone[s]
    helpers = batch._crew.helpers
    assert len(helpers) == 2
    del batch
    gc.collect()
    for h in helpers:
        h.join(5.0)
    assert not any(h.is_alive() for h in helpers)


def test_a_late_helper_steps_what_is_left_and_the_caller_what_remains(alone):
    """The board's protocol in one thread: a step posted, a helper's call (the crew called
    off first, so the call returns after that step) steps every world of it, the calling
    thread's call finds every claim taken; then a helper's call that comes after the step
    was joined steps nothing (its claims all below none)."""
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=1)
    batch.step(1 / 60)
    state = batch._state
    from impulse2d import _batch_ready
    n = len(worlds)
    board = np.zeros(n + batch_crew.HEADER, dtype=np.int64)
    board[n + batch_crew.CREW] = 1
    board[n + batch_crew.SPINS] = 10
    empty = (np.zeros(0, dtype=np.int64), np.zeros((0, batch_step.ARGUMENTS)))
    fast, _ = _batch_ready.prepare(state, 1 / 60)
    batch_crew._post.entry(board, fast, state.args, *batch_step._NO_GATHER)
    batch_crew._call_off.entry(board)  # (QUIT: the helper's call returns after this step)
    batch_step._step_batch.entry(state.refs, *empty, state.results, *batch_step._NO_GATHER,
                                 state.clocks, board, 1, 2)
    assert board[n + batch_crew.DONE] == n and (board[:n] == 1).all()
    batch_step.run(state.refs, fast, state.args, state.results, batch_step._NO_GATHER,
                   (board, 0, 2), state.clocks)  # (the caller: every claim taken, every world done)
    bits, _ = _batch_ready.clock(state, fast, 0.0)
    _batch_ready.finish(state, fast, 1 / 60, 0.0, bits)
    assert [w.state_hash() for w in worlds] == alone[1]
    # a helper late for that step, the next not posted: it finds no step to take
    batch_step._step_batch.entry(state.refs, *empty, state.results, *batch_step._NO_GATHER,
                                 state.clocks, board, 1, 2)
    assert [w.state_hash() for w in worlds] == alone[1]


class _HelpersFail:
    """The batch kernel's direct call, but a helper's call (share > 0) raises."""

    def __init__(self, real) -> None:
        self.real = real

    def prepare(self, *args) -> None:
        self.real.prepare(*args)

    def entry(self, *args):
        if args[-2] != 0:
            raise RuntimeError("a helper's call failed")
        return self.real.entry(*args)


def test_a_helper_that_fails_leaves_the_step_to_the_caller_and_a_new_crew(alone, monkeypatch):
    """A helper whose call raises counts itself gone: the calling thread steps every world
    (its walk takes the others' parts), and the next step makes a new crew."""
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=2)
    monkeypatch.setattr(batch_step, "_step_batch", _HelpersFail(batch_step._step_batch))
    batch.step(1 / 60)
    crew = batch._crew
    crew.helpers[0].join(5.0)
    assert [str(e) for e in crew.errors] == ["a helper's call failed"]
    assert crew.board[crew.top + batch_crew.GONE] == 1 and not crew.usable
    assert [w.state_hash() for w in worlds] == alone[0]
    monkeypatch.undo()
    for s in range(1, 10):
        batch.step(1 / 60)
        assert [w.state_hash() for w in worlds] == alone[s]
    assert batch._crew is not crew and batch._crew.usable


def test_a_batch_collected_in_the_middle_of_a_step_lets_its_helpers_finish_and_leave():
    """A step posted and never joined (as if the calling thread raised between the two), then
    the batch dropped: its helpers step every world of that step (they take the calling
    thread's part too), then leave."""
    worlds = _worlds(64)
    batch = i2d.WorldBatch(worlds, threads=2)
    batch.step(1 / 60)
    state = batch._state
    from impulse2d import _batch_ready
    fast, _ = _batch_ready.prepare(state, 1 / 60)
    crew = batch._crew
    crew.post(state.refs, fast, state.args, state.results, batch_step._NO_GATHER)
    helpers = crew.helpers
    del batch, crew, state
    gc.collect()
    for h in helpers:
        h.join(10.0)
    assert not any(h.is_alive() for h in helpers)


_EXIT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    import impulse2d as i2d
    from conftest import batch_world
    batch = i2d.WorldBatch([batch_world(s) for s in range(16)], threads=2)
    for _ in range(5):
        batch.step(1 / 60)
    assert batch._crew is not None and batch._crew.helpers[0].is_alive()
    print("stepped", flush=True)
    {end}
""")


@pytest.mark.parametrize("end", ["", "raise SystemExit(3)", "del batch"])
def test_a_process_with_a_crew_exits(end):
    """The interpreter's exit (at the end of the program, by an exception, the batch dropped
    first) while the helpers wait for a next step that never comes."""
    code = _EXIT.format(tests=os.path.dirname(__file__), end=end)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert "stepped" in done.stdout, done.stderr
    assert done.returncode == (3 if "3" in end else 0), done.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_child_after_fork_steps_its_batch_with_a_crew_of_its_own(alone):
    worlds = _worlds(11)
    batch = i2d.WorldBatch(worlds, threads=2)
    for s in range(10):
        batch.step(1 / 60)
    parents = batch._crew
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only if it stepped on, the same bits, with a new crew
        code = 1
        try:
            for s in range(10, 20):
                batch.step(1 / 60)
                if [w.state_hash() for w in worlds] != alone[s]:
                    break
            else:
                code = 0 if batch._crew is not parents and batch._crew.usable else 2
        finally:
            os._exit(code)
    deadline = time.monotonic() + 120
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the child hung stepping its batch after fork")
        time.sleep(0.05)
    assert os.waitstatus_to_exitcode(status) == 0
    for s in range(10, 20):  # (the parent's crew goes on)
        batch.step(1 / 60)
        assert [w.state_hash() for w in worlds] == alone[s]
    assert batch._crew is parents
