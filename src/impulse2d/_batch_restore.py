"""A batch's restore of some of its worlds from a snapshot (:meth:`WorldBatch.restore
<impulse2d.WorldBatch.restore>`), and the same restore again of a world untouched since.

An environment restores the worlds whose episodes end from one snapshot of them as built, about
ten worlds of 1,024 a step for LunarLander. A restore through :func:`.snapshot.restore_many`
costs about 140 us a world with the machine's caches cold as they are in such a run (11 us
warm): Python's walk of the world's attributes other than its stores, its settings checked,
the contact stores the step left in its reference replaced by Python's (31 us: their 38
arrays unboxed by Numba's wrapper), its plan checked, its seat marked, so that the next step
checks it again (BENCHMARKS.md, ``lander46`` and ``lander47``).

Most of that restores what is already there. A world restored from a snapshot and, since,
only stepped by its batch (no attribute written, no public mutating call, no store read back
by Python: :meth:`._batch_worlds.Seat.mark`'s ``restored`` row still clear; not a world the
batch steps with ``World.step``) holds, besides its arrays, the very objects that restore
left: its id pools, maps of rows, joint rows, settings, table of kernels, reference and plan.
Restored from the same snapshot again (:meth:`Restores.again`), it needs only

* in one compiled call for all such worlds (:func:`restore_again`): its stores' columns and
  its stage clock copied from the snapshot (as the first restore's copy); its reference given
  back the contact and constraint stores Python holds (a step may have left newer ones there:
  kept, as the reference held them after the first restore, in a typed list of the batch,
  :func:`keep_stores`, so that nothing is unboxed); its awake sets marked stale; and the
  joint-rows flag of its step row kept (the copy takes it back to the snapshot's; its check
  had written its rows');
* the few values of its attributes that a step or the program changes without a mark,
  written as the full restore writes them (:func:`.snapshot.restore_untouched`);
* its clock and counts in the batch's arrays; and, as the restore clears its stores' stale
  flags and drops its spare query index, the seat's ``flags`` and ``query`` marks. No other
  mark: its checks before a step, its reference in the batch's list and its template rows are
  as they were.

What the compiled call reads of a world (its columns' addresses and sizes, its snapshot's
sources, its stage clock and its clock and counts as restored) is the same at each restore
again, so it is kept in the batch's tables, a row per world, when the world is kept
(:meth:`Restores._keep_row`), and the call takes the rows of the worlds restored: no Python per
world for it (joining each world's lists into the call's arrays, and reading the clock and
counts back from the worlds' dicts, was some 15 NumPy calls and 30 cold dicts' reads a step of
ten landers, about 0.1 ms of the 0.4 ms of their restores, BENCHMARKS.md session 28).

Any other world takes the full restore; a world restored through it is kept for the next
time when it took the one copy and no Python ran on it since.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.typed import List

from . import _batch_worlds as _seats
from ._core.jit import DirectCall, kernel
from ._dynamics.awake import EDGES_VALID, STALE
from ._dynamics.step import JOINTS_FILTERED
from ._snapshot_copy import copy_spans
from .snapshot import restore_many, restore_untouched


class Restores:
    """What a batch's restores keep of each world (``state``: the batch's
    :class:`~._batch_ready.ReadyState`): the snapshot it was last restored from (None: not
    restorable again), the plan that restore copied through (the addresses and sizes of its
    columns: :mod:`._snapshot_copy`), and, in :attr:`kept`, its contact and constraint stores
    as its reference held them after it."""

    __slots__ = ("state", "last", "last_ids", "theirs", "plans", "kept", "spans", "clocks",
                 "starts", "columns")

    def __init__(self, state) -> None:
        n = len(state.worlds)
        self.state = state
        self.last = [None] * n
        # for the compiled split (again): the id of each world's last[k] (0: None; the list
        # keeps the object alive, so the id stays its own), and the snapshots last given with
        # their ids (held for the same reason; found once for each batch snapshot)
        self.last_ids = np.zeros(n, dtype=np.int64)
        self.theirs = (None, None)
        self.plans = [None] * n
        self.kept = None  # the typed list of (contacts, constraints), made on the first keep
        # per kept world (_keep_row): its plan's columns' addresses, its snapshot's sources and
        # the sizes (int64, (3, worlds, spans): the most spans of a kept plan, a shorter
        # plan's row padded with 0 bytes), its snapshot's stage clock, and its clock and
        # counts as restored (the batch's columns of _seats.LAZY, in order)
        self.spans = np.zeros((3, n, 0), dtype=np.int64)
        self.clocks = None
        self.starts = tuple(np.zeros_like(getattr(state, column))
                            for column, _ in _seats.LAZY.values())
        self.columns = tuple(getattr(state, column) for column, _ in _seats.LAZY.values())

    def split(self, chosen: list, snapshots) -> tuple:
        """``chosen`` as two lists: the worlds untouched since their last restore from
        ``snapshots[k]`` (checked then), and the others."""
        touched, last = self.state.restored, self.last
        again, full = [], []
        for k in chosen:
            (full if touched[k] or last[k] is not snapshots[k] else again).append(k)
        return again, full

    def again(self, chosen: np.ndarray, snapshots) -> bool:
        """Restore ``snapshots[k]`` into world ``k`` for each ``k`` of ``chosen`` (distinct
        indices, an int64 array) if every one of them is untouched since its last restore
        from ``snapshots[k]`` (:meth:`split`, checked then), and say so; else restore none
        (the caller checks the others and calls :meth:`restore`). The split is made in the
        restore's compiled call: in Python (a list of the indices, the test and the two lists
        per world, an array of them made again for the call) it cost a restart of 1,024
        landers 1-3 us, each line of Python's and NumPy's code being cold after the batch's
        step (BENCHMARKS.md session 32)."""
        if self.kept is None:
            return False  # (no world kept yet)
        if self.theirs[0] is not snapshots:
            self.theirs = (snapshots, np.array([id(s) for s in snapshots], dtype=np.int64))
        state = self.state
        # (the copies, the clocks and counts, and the marks: their spare query index dropped,
        # its address with it; their stale flags cleared, as Seat.synced says)
        if not _restore_again.entry(state.refs, self.kept, chosen, state.restored,
                                    self.last_ids, self.theirs[1], self.spans, self.clocks,
                                    self.columns, self.starts, state.query_kind,
                                    _seats.NO_INDEX, state.query_dirty, state.flags_dirty):
            return False
        dicts = state.dicts
        for k in chosen.tolist():
            restore_untouched(dicts[k], snapshots[k])
        return True

    def restore(self, chosen: np.ndarray, full: list, snapshots) -> None:
        """Restore ``snapshots[k]`` into world ``k`` for each ``k`` of ``chosen`` (as
        :meth:`again`), those of ``full`` (:meth:`split`'s, checked by the caller) in full, the
        others again, marking the worlds for the next step's checks (the cost is the worlds
        restored)."""
        if len(full) < chosen.shape[0]:
            taken = set(full)
            self.again(np.array([k for k in chosen.tolist() if k not in taken],
                                dtype=np.int64), snapshots)
        if full:
            self._full(full, snapshots)

    def _full(self, chosen: list, snapshots) -> None:
        state = self.state
        worlds = state.worlds
        plans = restore_many([worlds[k] for k in chosen], [snapshots[k] for k in chosen])
        for k in chosen:
            _seats.absorb(worlds[k])  # (its clock and counts, from the snapshot; marked)
        for k in chosen:
            state.refresh_ref(k)
        state.refs_dirty[chosen] = False
        # kept for the next restore: the worlds restored through their plan (its reference
        # now holds Python's stores: put back, or built from them by refresh_ref) and stepped
        # by the batch's kernel
        keep, last = [], self.last
        for k, plan in zip(chosen, plans):
            last[k] = None
            self.last_ids[k] = 0
            if plan is not None and not state.slow[k]:
                keep.append((k, plan))
        if not keep or numba.config.DISABLE_JIT:
            return
        ks = np.array([k for k, _ in keep], dtype=np.int64)
        if self.kept is None:
            self.kept = _kept_stores.entry(state.refs)
        else:
            _keep_stores.entry(state.refs, self.kept, ks)
        plans = self.plans
        for k, plan in keep:
            plans[k] = plan
            last[k] = snapshots[k]
            self.last_ids[k] = id(snapshots[k])
            self._keep_row(k, plan, snapshots[k])
        state.restored[ks] = False

    def _keep_row(self, k: int, plan, snapshot) -> None:
        """World ``k``'s rows of the tables (see ``__init__``), restored just now through
        ``plan`` from ``snapshot``: what its next restores again copy and write."""
        sizes = plan.sizes
        spans = self.spans
        if spans.shape[2] < sizes.shape[0]:  # (a longer plan: the rows padded anew)
            self.spans = np.zeros(spans.shape[:2] + (sizes.shape[0],), dtype=np.int64)
            self.spans[:, :, :spans.shape[2]] = spans
            spans = self.spans
        spans[:, k] = 0
        m = sizes.shape[0]
        spans[0, k, :m] = plan.addresses
        spans[1, k, :m] = snapshot._sources()
        spans[2, k, :m] = sizes
        clock = snapshot._state["_clock"]
        if self.clocks is None:
            self.clocks = np.zeros((spans.shape[1], clock.shape[0]))
        self.clocks[k] = clock
        state = self.state
        for start, (column, _) in zip(self.starts, _seats.LAZY.values()):
            start[k] = getattr(state, column)[k]  # (the snapshot's own: absorb took them)


@kernel
def kept_stores(refs):
    """A typed list of every reference's ``(contacts, constraints)`` now (:class:`Restores`
    reads only the entries of the worlds it keeps)."""
    kept = List()
    for k in range(len(refs)):
        kept.append((refs[k].contacts, refs[k].constraints))
    return kept


@kernel
def keep_stores(refs, kept, worlds):
    """``kept[k]``: the contact and constraint stores of ``refs[k]`` now, for each ``k`` of
    ``worlds``."""
    for k in worlds:
        kept[k] = (refs[k].contacts, refs[k].constraints)


@kernel
def restore_again(refs, kept, worlds, restored, last_ids, their_ids, spans, clocks, columns,
                  starts, query_kind, no_index, query_dirty, flags_dirty):
    """The compiled part of restoring the worlds ``worlds`` again (see the module), if every
    one is untouched since its last restore from the snapshot given for it now (its
    ``restored`` mark clear, and ``last_ids[k]``, the id of the snapshot it was last restored
    from, not 0 and ``their_ids[k]``); else nothing is written and False returned. From
    :class:`Restores`' rows of each world ``k``: the spans copied (:func:`._snapshot_copy.
    copy_spans` of ``spans[0, k]``, ``spans[1, k]``, ``spans[2, k]``: the stores' columns, as
    the plan of its first restore lays them out), each step row's joint-rows flag kept through
    it, its stage clock set to its snapshot's (``clocks[k]``), its reference given its kept
    stores ``kept[k]`` (the newer ones a step left there dropped), its awake sets marked stale
    (:func:`._sleep.awake_changed`); then in the batch's arrays its clock and counts
    (``columns[c][k] = starts[c][k]``: :data:`._batch_worlds.LAZY`'s three), its query index
    kind ``no_index`` and its ``query_dirty`` and ``flags_dirty`` marks set."""
    for i in range(worlds.shape[0]):
        k = worlds[i]
        if restored[k] or last_ids[k] == 0 or last_ids[k] != their_ids[k]:
            return False
    flags = np.empty(worlds.shape[0])
    for i in range(worlds.shape[0]):
        flags[i] = refs[worlds[i]].settings[JOINTS_FILTERED]
    for i in range(worlds.shape[0]):
        k = worlds[i]
        copy_spans(spans[0, k], 0, spans[1, k], 0, spans[2, k])
    for i in range(worlds.shape[0]):
        k = worlds[i]
        ref = refs[k]
        ref.settings[JOINTS_FILTERED] = flags[i]
        clock = ref.clock
        for j in range(clock.shape[0]):
            clock[j] = clocks[k, j]
        contacts, constraints = kept[k]
        ref.contacts = contacts
        ref.constraints = constraints
        awake = ref.awake_state
        awake[STALE] = 1
        awake[EDGES_VALID] = 0
        columns[0][k] = starts[0][k]
        columns[1][k] = starts[1][k]
        columns[2][k] = starts[2][k]
        query_kind[k] = no_index
        query_dirty[k] = True
        flags_dirty[k] = True
    return True


# (compile, s of CPU, measured at load 6-8: kept_stores 2.7; keep_stores and restore_again
# together 5.2; the stores' types are the costly part of each)
_kept_stores = DirectCall(kept_stores, "the batch's restore", 2.5)
_keep_stores = DirectCall(keep_stores, "the batch's restore", 2.0)
_restore_again = DirectCall(restore_again, "the batch's restore", 3.0)


__all__ = ["Restores", "kept_stores", "keep_stores", "restore_again"]
