"""A new world's empty stores, copied from a template of each store (``World()``).

``World()`` makes five stores of about 150 columns (bodies, shapes and joints, and the
empty contact and constraint stores). Zeroing each column afresh
(:func:`._core.storage.allocate_store`: a dict of ``np.zeros`` calls, then the NamedTuple's
keyword constructor) was most of ``World()``'s cost and so a large part of a Gymnasium reset,
which makes a new world every episode (issue 31 item 8). A copy of an array already zeroed,
handed to ``tuple.__new__``, skips the dtype and shape parsing and the keyword matching;
the stores are the same, zero for zero (their growth, :func:`._core.storage.grow_store`, is
unchanged).

The templates are private and never written: each world gets copies (or, of a store with no
rows, the template's own empty arrays). A recycled world (:mod:`._recycle`) lends its own
zeroed stores instead (:func:`lent`).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TypeVar

import numpy as np

from ._core.storage import allocate_store

T = TypeVar("T")

_templates: dict[tuple[type, int], tuple] = {}
_copy = np.ndarray.copy
_lent: dict = {}  # (store type, capacity) -> a zeroed store to hand out once (lent)


def empty_store(store_type: type[T], layout: dict, capacity: int) -> T:
    """A zeroed store of ``store_type`` with ``capacity`` rows, as
    ``allocate_store(store_type, layout, capacity)`` makes it."""
    if _lent:
        store = _lent.pop((store_type, capacity), None)
        if store is not None:
            return store
    template = _templates.get((store_type, capacity))
    if template is None:
        template = _templates[(store_type, capacity)] = allocate_store(store_type, layout,
                                                                       capacity)
    if capacity == 0:
        # No rows, nothing to write: every world may hold the same zero-length arrays (the step
        # replaces such a store, the contacts' and constraints', rather than writing it).
        return tuple.__new__(store_type, template)
    return tuple.__new__(store_type, map(_copy, template))


@contextmanager
def lent(stores):
    """While it lasts, :func:`empty_store` hands out ``stores`` (zeroed stores, as a template's
    copies are) for their type and capacity, each once, instead of copies (a recycled world's
    own arrays, which its step reference reads: :mod:`._recycle`)."""
    _lent.clear()
    _lent.update(((type(store), store.alive.shape[0]), store) for store in stores)
    try:
        yield
    finally:
        _lent.clear()


__all__ = ["empty_store", "lent"]
