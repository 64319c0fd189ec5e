"""The environment benchmarks' timers, in one place: a function or method timed at each call by
a clock of the script's choice (the calling thread's CPU for a split of its work, the wall for a
timeline), a compiled call's entry timed alike, and the batch kernel's cycle counter against the
wall clock.

    from _envs_timing import cpu_into, timed_calls, TimedEntry, cycle_reader, ticks_per_ns

Each wrapper reads its clock twice a call: its own cost (about a microsecond a call under KVM)
falls in the figure of whatever holds the call.
"""

from __future__ import annotations

import functools
import time


def timed_calls(owner, name: str, clock, record) -> None:
    """``owner.name`` replaced by a wrapper that calls ``record(start, end)`` (``clock()``'s
    readings, ns) after each call; nothing where ``owner`` has no such attribute (another
    tree's code)."""
    f = getattr(owner, name, None)
    if f is None:
        return

    @functools.wraps(f)
    def timed(*a, **k):
        t = clock()
        try:
            return f(*a, **k)
        finally:
            record(t, clock())

    setattr(owner, name, timed)


def cpu_into(acc: dict, owner, name: str, label: str, calls: dict | None = None) -> None:
    """``owner.name`` timed into ``acc[label]`` (the calling thread's CPU, ns), its calls
    counted into ``calls`` if given (:func:`timed_calls`)."""
    def record(t: int, u: int) -> None:
        acc[label] = acc.get(label, 0) + u - t
        if calls is not None:
            calls[label] = calls.get(label, 0) + 1

    timed_calls(owner, name, time.thread_time_ns, record)


class TimedEntry:
    """A ``DirectCall``'s ``entry`` timed into ``totals[name]`` (the calling thread's CPU,
    ns): a compiled call made through ``entry``, which :func:`cpu_into` cannot wrap."""

    def __init__(self, call, name: str, totals: dict) -> None:
        self.call, self.name, self.totals = call, name, totals

    def entry(self, *args):
        t = time.thread_time_ns()
        out = self.call.entry(*args)
        self.totals[self.name] = self.totals.get(self.name, 0) + time.thread_time_ns() - t
        return out


def cycle_reader():
    """A compiled reader of the batch kernel's cycle counter (``impulse2d._core.jit.cycles``:
    the x86 time-stamp counter, a constant rate), compiled by its first call here."""
    import numba
    from impulse2d._core.jit import cycles

    @numba.njit
    def read():
        return cycles()

    read()
    return read


def ticks_per_ns(seconds: float = 0.2, read=None) -> float:
    """The cycle counter's ticks a nanosecond of ``perf_counter_ns``, over ``seconds``
    (``read``: a :func:`cycle_reader`, or a new one)."""
    read = read or cycle_reader()
    t0, c0 = time.perf_counter_ns(), read()
    time.sleep(seconds)
    t1, c1 = time.perf_counter_ns(), read()
    return (c1 - c0) / (t1 - t0)


__all__ = ["timed_calls", "cpu_into", "TimedEntry", "cycle_reader", "ticks_per_ns"]
