"""The body store's hot columns as flat memoryviews, for the layer's per-step pushes.

Gymnasium's environments push their bodies through the layer every step (LunarLander fires an
engine with ``ApplyLinearImpulse`` on three steps in four; CarRacing pushes its wheels with
``ApplyForceToCenter``). A push reads and writes the body store by row: ``ndarray.item`` costs
about 0.18 us a number and an element write ``column[i, 0] = x`` about the same, where an
element of a flat ``memoryview`` of the same column costs about 0.04 us either way (measured
2026-11-28 on the 2-core machine, ``timeit``, least of 7): ``ApplyLinearImpulse`` (seven reads
and four writes) went from about 4.1 to 2.5 us. A read of one or two numbers (``position``,
``angle``) gains nothing: the view's identity check below costs what the ``item`` calls
save. The values are the same doubles (the view reads and writes the column's own memory), so
every trajectory is unchanged bit for bit.

A :class:`BodyRows` is kept per ``b2World`` for the store it was made from: the engine
replaces its body store (a new NamedTuple) when it grows or a restore brings another shape, so
every use checks ``rows.store is world._bodies`` (one identity test) and makes a new one for
the world's store when it is not. The store's columns are never resized in place
(``grow_store`` makes new arrays), so a view stays valid while its store is the world's. A
view keeps its column alive; the ``BodyRows`` holds the store it was made from, and a
``b2World`` dropped drops both. Copies and pickles of a ``b2World`` take an empty one (a
memoryview is neither copied nor pickled), replaced at first use.
"""

from __future__ import annotations

_COLUMNS = ("center", "v", "w", "force", "torque", "inv_mass", "inv_inertia", "sleep_time",
            "type", "asleep")
"""The body columns a :class:`BodyRows` views (row ``i`` of a two-column one is at ``2 i``
and ``2 i + 1``)."""


def _flat(column):
    """A 1-D memoryview of the C-contiguous ``column``'s elements, in its own format."""
    return memoryview(column).cast("B").cast(column.dtype.char)


class BodyRows:
    """Flat views of a body store's :data:`_COLUMNS` (see the module docstring), each made
    at its first use (a new world's first push, LunarLander's reset's, uses four of the
    ten: making one costs about 0.6 us); ``store``: the store they view (None: none)."""

    __slots__ = ("store",) + _COLUMNS

    def __init__(self, store=None):
        self.store = store

    def __getattr__(self, name):
        # (called for a column's slot not set yet: its view made now, kept in the slot)
        if name not in _COLUMNS or self.store is None:
            raise AttributeError(name)
        view = _flat(getattr(self.store, name))
        setattr(self, name, view)
        return view

    def __reduce__(self):
        return BodyRows, ()  # empty in a copy or a pickle (replaced at first use)


__all__ = ["BodyRows"]
