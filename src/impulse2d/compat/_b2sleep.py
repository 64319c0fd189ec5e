"""The layer's sleep timers for the bodies of turning joint motors (Box2D 2.3's rule, which
impulse2d does not keep: see :mod:`._b2world`'s "Sleeping with motors"), one compiled pass a
``Step``: reading the six body columns from Python cost several microseconds a Step (a third
of LunarLander's Python share of ``Step``), the call about one (it takes the world's stores'
reference rather than the columns)."""

from __future__ import annotations

import math

from .._core.jit import DirectCall, kernel
from .._dynamics.world_ref import borrow_column


@kernel
def motor_timers(world, held, timer, dt, time_to_sleep):
    """For each awake body row ``held[k]``: ``timer[k]`` (s) grows by ``dt`` while the body is
    slow (``max(|v|, |w| extent) <= threshold``, the engine's test, and it may sleep), else
    restarts at 0; asleep bodies keep theirs. Returns the number of awake held bodies and
    whether each of them has been slow for ``time_to_sleep``.

    ``world``: the world's stores' reference (:mod:`.._dynamics.world_ref`), whose body
    columns it reads: passing the six columns cost about 1 us more a call (each array is
    unboxed; measured 2026-11-24)."""
    asleep = borrow_column(world, "bodies", "asleep")
    v = borrow_column(world, "bodies", "v")
    w = borrow_column(world, "bodies", "w")
    extent = borrow_column(world, "bodies", "extent")
    threshold = borrow_column(world, "bodies", "sleep_threshold")
    allowed = borrow_column(world, "bodies", "allow_sleep")
    awake = 0
    ready = True
    for k in range(held.shape[0]):
        i = held[k]
        if asleep[i]:
            continue
        awake += 1
        vx = v[i, 0]
        vy = v[i, 1]
        speed = max(math.sqrt(vx * vx + vy * vy), abs(w[i]) * extent[i])
        if speed <= threshold[i] and allowed[i]:
            timer[k] += dt
        else:
            timer[k] = 0.0
        if timer[k] < time_to_sleep:
            ready = False
    return awake, ready


_motor_timers = DirectCall(motor_timers, "motor sleep timers (compat)", 2.0)
