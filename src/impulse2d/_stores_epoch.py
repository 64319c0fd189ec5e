"""A process-wide count of replacements of worlds' stores and of their step references.

A :class:`~impulse2d.WorldBatch` keeps its worlds' stores' references (:mod:`._dynamics.
world_ref`) in one list that its kernels take. A world's entry goes stale only when Python
replaces one of the world's stores (a store grown, contacts dropped with a destroyed shape, a
restore into stores of another size) or rebuilds its reference (the next step after such a
change, new joint rows or settings). Every place that does so calls :func:`bump`; a batch
that finds the count unchanged since it last checked its worlds knows every entry is still
good, and skips the check, which costs about a microsecond a world in Python (0.6-0.8 ms a
dense read of 1,024 worlds, measured on the 2-core CI machine under load, 2026-11-28).
A replacement in any world (of this batch or not) makes the next read check every world.

A world's own usual step relies on it too (:func:`._stepping.step_world` keeps what its
checks read, the count among them): a store replaced without a bump would be stepped stale.
"""

from __future__ import annotations


class _Count:
    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


CHANGES = _Count()
"""``CHANGES.value``: replacements so far (only compared for equality)."""


def bump() -> None:
    """Record that some world's stores or step reference were replaced."""
    CHANGES.value += 1
