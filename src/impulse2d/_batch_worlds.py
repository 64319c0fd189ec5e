"""A world's seat in a :class:`~impulse2d.WorldBatch`: the per-step values the batch keeps in
arrays, and the mark that tells the batch a world changed.

A batch step ends with bookkeeping that ``World.step`` does in Python per world: the clock
(``time``, ``step_count``), the profile's time and the dropped query index (the sleeping
counts, the joints' step and the dirty-pairs flag the step kernel writes itself, in the
world's step row: :data:`IN_ROW`). Written world by world that is about a
microsecond a world per step (2.6 us a world-step in all, measured on the 2-core CI machine,
2026-11-28), and it does not thread. Here a batch's worlds keep those values in the batch's
arrays (one column per value, one row per world), which the batch advances with a few NumPy
writes for all its worlds; the world reads them from there when Python asks (:class:`_Lazy`,
data descriptors of :func:`batched_class`, the world's class while it is in a batch).

The checks before a step (``World.step``'s: settings packed, table of verbs, joint rows, the
step's reference) are skipped for a world that did not change since the batch last checked
it. A change is seen by its mark (:meth:`Seat.mark`): every attribute written on the world
(the batched class's ``__setattr__``), every public mutating call (``_lock.check``), a change
of its settings (``WorldSettings.__setattr__``), an after-step function queued, a restore.
What a world's arrays hold in place (positions, velocities, motor speeds) the kernel reads
anyway and needs no mark.

A world in a batch is still a full ``World``: its values read and write as ever (from the
arrays), and its snapshots, copies and pickles see them (:func:`flush` before; after a
restore, :func:`absorb`). A copy or an unpickled world is a plain ``World``.
"""

from __future__ import annotations

from array import array

import numpy as np

from . import snapshot as _snapshot

# world attribute -> (the batch's column, the Python type the world reads)
LAZY = {
    "time": ("times", float),
    "step_count": ("steps", int),
    "_step_seconds": ("step_seconds", float),
}

IN_ROW = frozenset(("_pairs_dirty", "_sleepers", "_fell_asleep", "_joint_inv_h"))
"""The per-step values the step kernel itself reads and writes in each world's step row
(``World``'s properties over ``_dynamics.step.STEP_ROW``): the batch's kernel steps a world
with them as ``World.step`` does, so they need no column here."""

# _query_index, one int8 per world: no index (a step or a move dropped it), the world's spare
# (a batched ray cast refreshed it and made it the index), or the one in the world's dict
NO_INDEX, SPARE_INDEX, OWN_INDEX = 0, 1, 2


class Seat:
    """World ``k`` of a batch's arrays (``state``: its :class:`~._batch_ready.ReadyState`)."""

    __slots__ = ("state", "k", "values", "_marks", "_at")

    def __init__(self, state, k: int) -> None:
        self.state = state
        self.k = k
        self.values = state.values  # the LAZY columns as array.array objects, in order
        # the marks' bytes (ReadyState.marks views them) and this world's six of them: a
        # bytearray's item is set in tens of nanoseconds, a NumPy column in about a
        # microsecond, and every attribute written on the world marks it
        self._marks = state.mark_bytes
        n = len(state.worlds)
        self._at = (k, n + k, 2 * n + k, 3 * n + k, 4 * n + k, 5 * n + k)

    def mark(self) -> None:
        """The world changed: the batch's next step checks it, its next read its entry in the
        list of references and its template rows, its next ray cast its query index, the
        end of its next step its stale flags, and its next restore all of it
        (:mod:`._batch_restore`)."""
        marks, (a, b, c, d, e, f) = self._marks, self._at
        marks[a] = marks[b] = marks[c] = marks[d] = marks[e] = marks[f] = 1

    def unseen(self) -> None:
        """The world may change where its marks cannot see (its user data was read: a dict
        that the program may change in place): its next restore restores it in full."""
        self._marks[self._at[5]] = 1

    def query_changed(self) -> None:
        """The world's spare query index was replaced: its next batched ray cast checks it."""
        self._marks[self._at[2]] = 1

    def synced(self) -> None:
        """A stale flag of the world was cleared (Python's view of a store made current
        without an attribute write, which would mark it): the end of the batch's next step
        writes its flags again where its step makes a new store
        (:func:`._batch_ready.finish`), and its next restore restores it in full (Python's
        stores may no longer be those its last restore kept)."""
        marks, at = self._marks, self._at
        marks[at[4]] = marks[at[5]] = 1


class _Lazy:
    """A data descriptor over one of :data:`LAZY`: the batch's array while the world has a
    seat, else the world's own entry. Writes go to both (so that the entry a snapshot reads
    is right unless the batch advanced the array since: :func:`flush`). The arrays are read
    and written here through ``array.array`` objects, whose items Python gets and sets in
    tens of nanoseconds (a NumPy item costs several times that), and by the batch through
    NumPy views of the same memory (:func:`columns`)."""

    __slots__ = ("name", "index", "kind")

    def __init__(self, name: str, index: int, kind) -> None:
        self.name = name
        self.index = index
        self.kind = kind

    def __get__(self, world, owner=None):
        if world is None:
            return self
        d = world.__dict__
        seat = d["_lock"].seat
        if seat is None:
            return d[self.name]
        return seat.values[self.index][seat.k]

    def __set__(self, world, value) -> None:
        d = world.__dict__
        d[self.name] = value
        lock = d.get("_lock")
        if lock is not None and lock.seat is not None:
            seat = lock.seat
            seat.values[self.index][seat.k] = value if self.kind is float else int(value)


class _QueryIndex:
    """``World._query_index`` of a world with a seat (see :data:`SPARE_INDEX`)."""

    def __get__(self, world, owner=None):
        if world is None:
            return self
        d = world.__dict__
        seat = d["_lock"].seat
        if seat is None:
            return d["_query_index"]
        kind = seat.state.query_kind[seat.k]
        if kind == NO_INDEX:
            return None
        return d["_query_spare"] if kind == SPARE_INDEX else d["_query_index"]

    def __set__(self, world, value) -> None:
        d = world.__dict__
        d["_query_index"] = value
        lock = d.get("_lock")
        if lock is not None and lock.seat is not None:
            lock.seat.state.query_kind[lock.seat.k] = NO_INDEX if value is None else OWN_INDEX


class _Watched:
    """A world's user data (``_body_user_data``, ``_shape_user_data``: :data:`.snapshot.
    WATCHED`) with a seat: a dict that a body's or shape's handle reads and writes in place,
    which marks nothing, so any read of it from the world marks its next restore in full
    (:meth:`Seat.unseen`); a world untouched since its last restore then holds the very copy
    that restore made, and its restore again need not look at it (:func:`.snapshot.
    restore_untouched`: reading two cold dicts a restarting lander, and its snapshot's)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, world, owner=None):
        if world is None:
            return self
        d = world.__dict__
        seat = d["_lock"].seat
        if seat is not None:
            seat.unseen()
        return d[self.name]

    def __set__(self, world, value) -> None:
        world.__dict__[self.name] = value  # (marked by _setattr, as any attribute written)


_UNMARKED = frozenset(LAZY) | IN_ROW | {"_query_index"}
"""Attributes held in the batch's arrays or the worlds' step rows, which ``World.step`` writes
on every step: no check reads them (the kernel reads the rows, the batch passes the arrays),
so writing them marks nothing."""


def _setattr(self, name: str, value) -> None:
    """Any other attribute written marks the world (its batch checks it again)."""
    if name in _UNMARKED:
        object.__setattr__(self, name, value)
        return
    d = self.__dict__
    lock = d.get("_lock")
    seat = None if lock is None else lock.seat
    if seat is not None and name == "_query_spare" and \
            seat.state.query_kind[seat.k] == SPARE_INDEX:
        d["_query_index"] = d["_query_spare"]  # the index stays the spare of before
        seat.state.query_kind[seat.k] = OWN_INDEX
    object.__setattr__(self, name, value)
    if seat is not None:
        if name == "_query_spare":  # (only the batched ray casts read it, through their mark;
            seat.query_changed()    # a restore drops it: the batched lidar's spare, made anew
        else:                       # after each restore, leaves the world restorable again)
            seat.mark()


def _snapshot_method(self):
    flush(self)
    return self._plain.snapshot(self)


def _restore_method(self, snapshot) -> None:
    self._plain.restore(self, snapshot)
    absorb(self)


def _getstate(self):
    flush(self)
    return self._plain.__getstate__(self)


def _deepcopy(self, memo):
    flush(self)
    clone = _snapshot.deep_copy(self, memo)
    clone.__class__ = self._plain  # (its lock has no seat: it read and wrote its own dict)
    return clone


def _reduce_ex(self, protocol):
    return new_world, (self._plain,), self.__getstate__()


def new_world(cls):
    """An empty object of the plain world class ``cls``, which unpickling then fills (its
    ``__setstate__``): a pickle of a world of a batch loads as a world of no batch."""
    return cls.__new__(cls)


def _after_step(self, fn) -> None:
    self._plain.after_step(self, fn)
    self.__dict__["_lock"].seat.mark()  # (the batch runs the queue after this world's step)


_CLASSES: dict = {}


def batched_class(plain: type) -> type:
    """The class of a world of class ``plain`` while it sits in a batch (made once per
    class; same name, so that reprs and errors read as before)."""
    cls = _CLASSES.get(plain)
    if cls is None:
        namespace = {name: _Lazy(name, i, kind) for i, (name, (_, kind)) in
                     enumerate(LAZY.items())}
        namespace.update({name: _Watched(name) for name in _snapshot.WATCHED})
        namespace.update(
            _query_index=_QueryIndex(), __setattr__=_setattr, snapshot=_snapshot_method,
            restore=_restore_method, __getstate__=_getstate, __deepcopy__=_deepcopy,
            __reduce_ex__=_reduce_ex, after_step=_after_step, _plain=plain,
            __module__=plain.__module__, __qualname__=plain.__qualname__,
            __doc__=plain.__doc__)
        cls = _CLASSES[plain] = type(plain.__name__, (plain,), namespace)
    return cls


def seat(world, state, k: int) -> None:
    """Give ``world`` row ``k`` of ``state``'s arrays (leaving another batch's seat, whose
    batch finds it gone at its next step and takes it back)."""
    lock = world.__dict__["_lock"]
    if lock.seat is not None:
        flush(world)
        lock.seat.mark()
    plain = type(world)._plain if "_plain" in type(world).__dict__ else type(world)
    world.__class__ = batched_class(plain)
    lock.seat = Seat(state, k)
    absorb(world)


def flush(world) -> None:
    """Write the batch's values of ``world`` into its own entries (what snapshots read)."""
    d = world.__dict__
    seat = d["_lock"].seat
    if seat is None:
        return
    cls = type(world)
    for name in LAZY:
        d[name] = getattr(cls, name).__get__(world)
    d["_query_index"] = cls._query_index.__get__(world)


def absorb(world) -> None:
    """Take ``world``'s own entries into the batch's arrays (after a restore wrote them), and
    mark it."""
    d = world.__dict__
    seat = d["_lock"].seat
    if seat is None:
        return
    cls = type(world)
    for name in LAZY:
        getattr(cls, name).__set__(world, d[name])
    seat.state.query_kind[seat.k] = NO_INDEX if d["_query_index"] is None else OWN_INDEX
    seat.mark()


_TYPECODES = {float: ("d", np.float64), int: ("q", np.int64)}


def columns(n: int) -> tuple:
    """The columns of :data:`LAZY` for ``n`` worlds: a tuple of ``array.array`` (the worlds'
    side, in :data:`LAZY`'s order) and a dict column name -> NumPy view of the same memory
    (the batch's side)."""
    values, views = [], {}
    for column, kind in LAZY.values():
        code, dtype = _TYPECODES[kind]
        a = array(code, bytes(n * np.dtype(dtype).itemsize))
        values.append(a)
        views[column] = np.frombuffer(a, dtype=dtype)
    return tuple(values), views
