"""What ``b2World.Step`` checks after each engine step, in one compiled call: whether the
touching contacts changed (the listener's ``BeginContact``/``EndContact`` are due) and, when
they did not, the sleep timers of the bodies of turning motors (:mod:`._b2sleep`).

Done in Python these were two passes of about a microsecond each a Step (a list of the touching
keys compared with the last one, then the timers' own compiled call): a third of the layer's
Python share of LunarLander's and BipedalWalker's ``Step`` (measured 2026-11-24). When the
touching contacts changed, nothing is advanced here: ``Step`` calls the listener first and then
the timers, in Box2D's order (its callbacks come before its solver's sleep timers), as it always
did.
"""

from __future__ import annotations

from .._core.jit import DirectCall, kernel
from .._dynamics.world_ref import borrow_column
from ._b2sleep import motor_timers


@kernel
def after_step(world, touching, held, timer, dt, time_to_sleep, timed):
    """Returns ``(changed, awake, ready)``. ``changed``: the keys of the contacts with manifold
    points (``count > 0``; ``shape_a << 32 | shape_b``, in the contact store's ascending order)
    are not ``touching`` (int64, ascending). Only when unchanged and ``timed``, the timers
    ``timer`` of the body rows ``held`` advance by ``dt`` (:func:`._b2sleep.motor_timers`,
    whose ``(awake, ready)`` this returns; else ``(0, False)``).

    ``world``: the world's stores' reference (:mod:`.._dynamics.world_ref`)."""
    key = borrow_column(world, "contacts", "key")
    count = borrow_column(world, "contacts", "count")
    n = touching.shape[0]
    m = 0
    for k in range(count.shape[0]):
        if count[k] > 0:
            if m >= n or key[k] != touching[m]:
                return True, 0, False
            m += 1
    if m != n:
        return True, 0, False
    if not timed:
        return False, 0, False
    awake, ready = motor_timers(world, held, timer, dt, time_to_sleep)
    return False, awake, ready


_after_step = DirectCall(after_step, "the b2World step's checks (compat)", 2.0)


@kernel
def touch_columns(world):
    """``(key, count, shape_a, shape_b, normal, point)``: the columns of the contact store in
    ``world``'s reference (the world's stores' reference, :mod:`.._dynamics.world_ref`) that
    ``b2World._dispatch`` reads."""
    return (borrow_column(world, "contacts", "key"), borrow_column(world, "contacts", "count"),
            borrow_column(world, "contacts", "shape_a"),
            borrow_column(world, "contacts", "shape_b"),
            borrow_column(world, "contacts", "normal"), borrow_column(world, "contacts", "point"))


_touch_columns = DirectCall(touch_columns, "the b2World's touching contacts (compat)", 1.0)
"""What ``b2World._dispatch`` reads when the step left a new contact store that Python's view
has not taken yet: ``World._contacts`` would box all 16 columns of it (60-75 us at load 10,
on 3 % of LunarLander's steps), of which the touching contacts' changes and the begun ones'
data need these six."""
