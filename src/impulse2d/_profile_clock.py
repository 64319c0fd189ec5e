"""``World.profile``'s seconds from the step's own clock: the cycle counter's rate.

The step kernel reads the CPU's cycle counter before each of its stages and at its end
(``World._clock``, :data:`._dynamics.step.STAGES`). On x86 that is the time-stamp counter,
which runs at a constant rate whatever the core's clock does (the ``constant_tsc`` and
``nonstop_tsc`` flags of ``/proc/cpuinfo``, on every x86-64 CPU of the last 15 years), so its
span is the step's time once the rate is known. The usual step (:func:`._stepping.world_step`)
is therefore not timed by Python: two ``perf_counter`` reads were about 0.13 us of a five-ball
step's ~3 us (``benchmarks/small_clock.py``, 2026-12-01), paid every step by worlds whose profile
nobody reads. It writes :data:`UNTIMED` as the step's seconds, and the profile divides the span
by the rate, measured here once per process when a profile first needs it.

The other steps (the first, the checked ones, a batch's share of its call, several calls around
Python's callbacks or a wake) keep the seconds Python measured; so does every step where the
kernel reads no counter (:data:`._core.jit.CYCLE_COUNTER`: ``World.step`` is then
:func:`._stepping.timed_world_step`).
"""

from __future__ import annotations

from time import perf_counter, sleep

from ._core.jit import cycles, kernel
from ._core.lazy import compiling

UNTIMED = -1.0
"""``World._step_seconds`` of a step that Python did not time: read the step's clock."""

_SPAN = 0.005
"""Seconds between the rate's two readings: a reading's uncertainty (its bracket of two
``perf_counter`` reads, ~0.1-1 us under load) over it is 2e-5 to 2e-4 of the rate."""

_RATE: list[float] = []


@kernel
def _ticks():
    """The cycle counter now (the step's clock: :func:`._core.jit.cycles`)."""
    return cycles()


def _reading() -> tuple[float, int]:
    """``(seconds, ticks)`` at one moment: the counter read between two ``perf_counter``
    reads, the narrowest bracket of five (a thread preempted in one is not taken), at its
    middle."""
    best = None
    for _ in range(5):
        t0 = perf_counter()
        ticks = _ticks()
        t1 = perf_counter()
        if best is None or t1 - t0 < best[0]:
            best = (t1 - t0, 0.5 * (t0 + t1), ticks)
    return best[1], best[2]


def ticks_per_second() -> float:
    """The cycle counter's rate, in ticks a second: measured over :data:`_SPAN` on the first
    call of the process (the kernel loaded or compiled first), then kept."""
    if not _RATE:
        with compiling("the profile's clock", 1.0):
            _ticks()  # (loaded or compiled before the readings)
        t0, c0 = _reading()
        sleep(_SPAN)
        t1, c1 = _reading()
        _RATE.append((c1 - c0) / (t1 - t0))
    return _RATE[0]


def step_seconds(seconds: float, ticks: int) -> float:
    """The last step's seconds: Python's ``seconds``, or for a step it did not time
    (:data:`UNTIMED`) its clock's span of ``ticks`` in seconds."""
    if seconds != UNTIMED:
        return seconds
    return ticks / ticks_per_second() if ticks > 0 else 0.0
