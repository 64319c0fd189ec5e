"""A batch's crew: its helper threads, each inside one call of the batch kernel for the crew's
life, taking each batch step as the calling thread posts it (:mod:`._dynamics.batch_crew`:
why, and the board they share).

A :class:`~impulse2d.WorldBatch` of more than one thread makes its crew at its first step
where threads can sleep in compiled code (Linux, the JIT on: :data:`ENABLED`); elsewhere it
hands its helpers each step through its pool of Python threads, as before. A crew never holds
up its process:

* its helpers are daemon threads, called off (and waited for a moment) at the interpreter's
  exit, when the batch is collected, and when its thread count changes; a helper asleep
  between steps wakes at once when called off, one inside a step finishes it first;
* a helper whose call ends in an error counts itself gone on the board: the calling thread,
  waiting for that step's worlds, stops waiting and raises the error;
* in a child process after ``fork`` the helpers do not exist: the crews are forgotten, and
  each batch makes a new one at its next step;
* a step posted and never joined by the calling thread (an exception between the two) is
  stepped whole by the helpers (each takes the calling thread's part from its back too), and
  joined at the next post before its arrays are let go.
"""

from __future__ import annotations

import atexit
import os
import threading
import weakref

import numba
import numpy as np

from . import _threads
from ._dynamics import batch_crew as _board
from ._dynamics import batch_step as _batch

ENABLED = _board.SLEEPS and not numba.config.DISABLE_JIT
"""Whether a batch of more than one thread steps with a crew (else with its pool)."""

IDLE_SPINS = 20_000
"""Spin-wait hints a helper issues after its share of a step before it sleeps (x86 ``pause``:
28 ns on the AMD EPYC machine, so about 0.56 ms): the calling thread's Python between two
steps of a vector environment (its observation, rewards and actions: 0.5-1 ms for 1,024
landers) mostly falls within it, and a helper still spinning takes the next step at once,
where one woken from its sleep begins some 0.1 ms late under KVM (its vCPU woken)."""

CALL_OFF_WAIT = 5.0
"""Seconds to wait for each helper to leave its call when a crew is called off (at exit: a
helper inside a step finishes it first)."""

_EMPTY = (np.zeros(0, dtype=np.int64), np.zeros((0, _batch.ARGUMENTS)))
"""A helper's own ``which`` and ``args`` (it reads each step's from the board)."""

_crews: weakref.WeakSet = weakref.WeakSet()


class Crew:
    """The helper threads of one batch (``shares - 1`` of them; the calling thread is share
    0) over its references ``refs``, its results ``results`` (one row per world) and its
    clock columns ``clocks`` (:data:`._dynamics.batch_step.TIMES`), each fixed for the
    batch's life."""

    def __init__(self, refs, results: np.ndarray, clocks: tuple, shares: int) -> None:
        n = results.shape[0]
        self.board = np.zeros(n + _board.HEADER, dtype=np.int64)
        self.top = n
        self.board[n + _board.CREW] = 1
        self.board[n + _board.SPINS] = IDLE_SPINS
        self.shares = shares
        self.clocks = clocks
        self.serial = _threads._used[0]  # (Numba's thread count set to 1 on the helpers)
        self.errors: list = []
        self.posted = None  # the step posted and not joined yet: (which, args, gather)
        self.forked = False
        # compiled (or loaded) before any helper calls it
        _batch._step_batch.prepare(refs, *_EMPTY, results, *_batch._NO_GATHER, clocks,
                                   self.board, 0, shares)
        self.helpers = [threading.Thread(target=_serve, args=(self, refs, results, share),
                                         name=f"impulse2d-crew-{share}", daemon=True)
                        for share in range(1, shares)]
        for helper in self.helpers:
            helper.start()
        _crews.add(self)

    def step(self, refs, which: np.ndarray, args: np.ndarray, results: np.ndarray,
             gather) -> None:
        """The worlds ``which`` stepped by the crew and the calling thread."""
        self.post(refs, which, args, results, gather)
        self.join(refs, results)

    def post(self, refs, which: np.ndarray, args: np.ndarray, results: np.ndarray,
             gather) -> None:
        """Post the step of the worlds ``which`` (the helpers begin it; this thread's share
        waits for :meth:`join`)."""
        if self.posted is not None:
            self.join(refs, results)  # (a step posted and left: see the module)
        self.posted = (which, args, gather)
        _board._post.entry(self.board, which, args, *gather)

    def join(self, refs, results: np.ndarray) -> None:
        """This thread's share of the step posted last, then its wait for the helpers' last
        worlds; raises a helper's error."""
        which, args, gather = self.posted
        run = _threads.serial(_batch.run)  # (a threaded world steps serially in a batch)
        run(refs, which, args, results, gather, (self.board, 0, self.shares), self.clocks)
        done = self.board[self.top + _board.DONE]
        self.posted = None
        if done != which.shape[0]:
            raise RuntimeError(f"impulse2d: a batch's helper thread failed ({done} of "
                               f"{which.shape[0]} worlds stepped)") from (
                self.errors[0] if self.errors else None)

    def call_off(self) -> None:
        """Tell the helpers to leave, wake them and wait for them (a moment each; not from a
        helper itself)."""
        _crews.discard(self)
        if self.forked:
            return
        _board._call_off.entry(self.board)
        me = threading.current_thread()
        for helper in self.helpers:
            if helper is not me:
                helper.join(CALL_OFF_WAIT)

    @property
    def usable(self) -> bool:
        """Whether this crew can take the batch's next step: its helpers exist (not a child
        after fork), none failed, and Numba's threads are set as the batch's kernels need
        (:func:`._threads.serial`)."""
        return not self.forked and not self.errors and self.serial == _threads._used[0]


def _serve(crew: Crew, refs, results: np.ndarray, share: int) -> None:
    """A helper thread's life: one call of the batch kernel, which takes each step posted
    until the crew is called off."""
    try:
        if crew.serial:
            numba.set_num_threads(1)  # (the batch's kernels step threaded worlds serially)
        _batch._step_batch.entry(refs, *_EMPTY, results, *_batch._NO_GATHER, crew.clocks,
                                 crew.board, share, crew.shares)
    except BaseException as error:  # (none expected: the kernel raises nothing)
        crew.errors.append(error)
        crew.board[crew.top + _board.GONE] += 1  # (the calling thread's wait looks at it)


def _call_off_all() -> None:
    for crew in list(_crews):
        crew.call_off()


def _forget_all() -> None:
    for crew in list(_crews):
        crew.forked = True
        crew.helpers = []
    _crews.clear()


atexit.register(_call_off_all)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_all)


__all__ = ["Crew", "ENABLED", "IDLE_SPINS"]
