"""Growable structure-of-arrays stores and the generational id pool.

A store is a NamedTuple whose fields are NumPy arrays sharing a first dimension (the capacity).
Kernels take the whole NamedTuple as one argument (Numba unboxes it as a tuple of arrays).
Python grows a store by capacity doubling, which allocates new arrays: handles therefore keep
an index, never an array view.

Rows are recycled through a free list; every row carries a generation counter that is bumped
when the row is freed, so a handle (index, generation) to a destroyed object is detected instead
of silently reading the next occupant of the row (Box2D v3 ``id_pool``, Rapier ``Arena``).
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

import numpy as np

T = TypeVar("T", bound=NamedTuple)


def allocate_store(store_type: type[T], layout: dict, capacity: int) -> T:
    """Create a store of ``store_type`` with zeroed rows; ``layout`` maps field -> (dtype, shape)."""
    return store_type(**{
        name: np.zeros((capacity, *shape), dtype=dtype) for name, (dtype, shape) in layout.items()
    })


def grow_store(store: T, layout: dict, capacity: int) -> T:
    """Return a copy of ``store`` with room for ``capacity`` rows; existing rows are kept."""
    old = len(store[0])
    grown = allocate_store(type(store), layout, capacity)
    for src, dst in zip(store, grown):
        dst[:old] = src
    return grown


class IdPool:
    """Hands out row indices, re-using freed rows first (lowest index first, for determinism)."""

    def __init__(self) -> None:
        self._free: list[int] = []
        self.high_water = 0  # rows [0, high_water) have been used at least once

    _sorted = False  # whether _free is in descending order (a class default: old snapshots)

    def allocate(self) -> int:
        if self._free:
            # Popping the smallest keeps row order, and so the solver order, reproducible.
            # Sorted once after frees, not on every allocation (a reset that frees and
            # re-creates a few hundred bodies sorted the list a few hundred times).
            if not self._sorted:
                self._free.sort(reverse=True)
                self._sorted = True
            return self._free.pop()
        index = self.high_water
        self.high_water += 1
        return index

    def free(self, index: int) -> None:
        self._free.append(index)
        self._sorted = False

    @property
    def live_count(self) -> int:
        return self.high_water - len(self._free)
