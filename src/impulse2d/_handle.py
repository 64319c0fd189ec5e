"""The common part of the public handles (``Body``, ``Shape``, and the joints to come).

A handle is (world, row, generation). The world's store for the handle's kind carries an
``alive`` flag and a ``generation`` counter per row; a handle whose generation no longer matches
belongs to a destroyed object, and using it raises instead of reaching the row's next occupant.
"""

from __future__ import annotations


class Handle:
    __slots__ = ("_world", "_index", "_generation", "__weakref__")

    _kind = "object"          # word used in error messages
    _store_name = "_objects"  # attribute of the world holding this kind's store

    def __init__(self, world, index: int, generation: int) -> None:
        self._world = world
        self._index = index
        self._generation = generation

    def _store(self):
        """The world store that holds this kind of object (a NamedTuple of columns)."""
        return getattr(self._world, self._store_name)

    def _row(self) -> int:
        """The row index, after checking the object still exists."""
        store = self._store()
        i = self._index
        try:
            # (ndarray.item: Python values, without NumPy scalars' slower indexing and compare)
            live = store.alive.item(i) and store.generation.item(i) == self._generation
        except IndexError:  # beyond the store: the world was restored to before it grew
            live = False
        if not live:
            raise ValueError(f"this {self._kind} was destroyed; its handle can no longer be used")
        return i

    @property
    def is_valid(self) -> bool:
        """False once the object has been destroyed."""
        store = self._store()
        i = self._index
        try:
            return bool(store.alive.item(i) and store.generation.item(i) == self._generation)
        except IndexError:  # beyond the store: the world was restored to before it grew
            return False

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and other._world is self._world
                and other._index == self._index and other._generation == self._generation)

    def __hash__(self) -> int:
        return hash((type(self).__name__, id(self._world), self._index, self._generation))
