"""The Python around a batch step, and the batch's list of its worlds' references.

A batch step, and every dense read or write of a batch, hands the kernels each world's
current stores' reference (:mod:`._dynamics.world_ref`) and, for a step, its arguments (a row
of :data:`._dynamics.batch_step.ARGUMENTS`). Most worlds change nothing between two batch
steps that would change either, and a loop over the worlds in Python costs about a
microsecond a world for each attribute it looks at, so Python looks only at the worlds
marked since it last did (every change to a world marks it: :mod:`._batch_worlds`):

* the references are checked only after some world's stores or reference were replaced
  (:mod:`._stores_epoch`, a process-wide count), and then only those of the marked worlds;
* what a world's step reads besides dt is in its own step row, as for ``World.step``
  (:data:`._dynamics.step.STEP_ROW`: its settings and joint-rows flag written when it is made
  ready, :func:`_make_ready`, the checks of :func:`._stepping.step_world` made for the marked
  worlds only; its gravity by its writers; the dirty pairs' flag and the sleepers by Python's
  writers and the step itself), so the rows of arguments hold dt alone, written for every
  world in one write;
* the clock of every world is a few writes into the batch's arrays, made by the kernel's
  thread right after the world's step (:data:`._dynamics.batch_step.TIMES`; the step wrote
  the sleeping counts and the joints' step into each row), and after the kernel what only
  some worlds need (new stores, a first sweep, joint rows to rebuild) is done for those
  worlds only, found from their status bits (:func:`clock`, :func:`finish`).
"""

from __future__ import annotations

import weakref

import numba
import numpy as np

from . import _batch_worlds as _seats
from ._core.jit import DirectCall, kernel
from ._dynamics import batch_step as _batch
from ._dynamics.batch_step import DT, STATUS, UNWRITTEN
from ._dynamics.contact_lanes import sync_constraint_rows
from ._dynamics.step import (FELL, JOINTS_FILTERED, NEW_CONSTRAINTS, NEW_CONTACTS, UNSWEPT, WOKE,
                             _LATER_LOCK, _LATER_TABLES, _settings_arguments)
from ._dynamics.verbs import LANE_PREPARE
from ._dynamics.world_ref import WORLD_STORES, stores_for_step
from ._sleep import wake_all
from ._stepping import _continuous_first, _ready, _step_checked
from ._stores_epoch import CHANGES



DIRTY, REFS_DIRTY, QUERY_DIRTY, ROWS_DIRTY, FLAGS_DIRTY, RESTORED = range(6)
"""The rows of :attr:`ReadyState.marks`, in the order of its views of the same names."""


class ReadyState:
    """A batch's worlds' references (:attr:`refs`, current as of :attr:`epoch`), step arguments
    (:attr:`args`, one row per world; :attr:`results`, what each step returned) and the
    per-step values its worlds read from here while they sit in it (:mod:`._batch_worlds`:
    ``times``, ``steps``, ...; :attr:`dirty`: changed since the last check)."""

    __slots__ = ("worlds", "dicts", "refs", "ref_of", "epoch", "args", "results", "written",
                 "everyone", "values", "mark_bytes", "marks", "dirty", "refs_dirty", "query_dirty", "rows_dirty",
                 "flags_dirty", "restored", "stale_set", "checked", "slow", "slow_bytes", "lacks",
                 "query_kind", "query_at", "fresh", "like", "picked", "others", "clocks") + tuple(
                     column for column, _ in _seats.LAZY.values())

    def __init__(self, worlds) -> None:
        n = len(worlds)
        self.worlds = worlds
        self.dicts = [w.__dict__ for w in worlds]  # (an instance keeps its dict for life)
        self.refs = ref_list()  # the worlds' references, as the kernels take them
        for w in worlds:
            _add_ref.entry(self.refs, stores_for_step(w))
        # the Python objects of the list's entries (an entry read back is a new proxy object)
        self.ref_of = [w._stores for w in worlds]
        self.epoch = CHANGES.value
        self.picked = None  # current_refs' list of some worlds' references (made on first use)
        self.args = np.zeros((n, _batch.ARGUMENTS))
        self.results = np.zeros((n, _batch.RESULTS))
        # per world: the packed settings, joint rows and reference its step row and its entry
        # in refs were written for (None: not yet)
        self.written = [(None, None, None)] * n
        self.everyone = np.arange(n, dtype=np.int64)
        self.others = np.empty(n, dtype=np.int64)   # (others_than's: the worlds not held)
        # the marks (_batch_worlds.Seat.mark sets a world's column; all, at first): worlds to
        # check before the next step, whose entries in refs to check at the next read, whose
        # query index to find at the next ray cast, whose template rows to check at the next
        # dense read or write, whose stale flags to write again at the next step's end (also
        # set alone: Seat.synced), whose next restore to make in full (_batch_restore)
        self.mark_bytes = bytearray(b"\x01" * (6 * n))
        self.marks = np.frombuffer(self.mark_bytes, dtype=np.bool_).reshape(6, n)
        (self.dirty, self.refs_dirty, self.query_dirty, self.rows_dirty,
         self.flags_dirty, self.restored) = self.marks
        # per world, whether its _constraints_stale (row 0) and _contacts_stale (row 1) were
        # set by this batch's steps, the world neither marked nor synced since (_flag_stale)
        self.stale_set = np.zeros((2, n), dtype=bool)
        self.checked = np.zeros(0, dtype=np.int64)  # the worlds the last step checked
        # copies of one world not made ready yet (WorldBatch.replicate: see copies_made), and
        # the first of them made ready, whose table of verbs stands for the others'
        self.fresh = np.zeros(n, dtype=bool)
        self.like = None
        # stepped by World.step (as of its last check); over a bytearray, as the marks, so that
        # whether any world is (any_slow) is a search of its bytes
        self.slow_bytes = bytearray(n)
        self.slow = np.frombuffer(self.slow_bytes, dtype=np.bool_)
        self.lacks = np.zeros(n, dtype=np.int8)  # LACKS_BODY | LACKS_JOINT (batch.py)
        # the batched ray casts' view of each world's query index (batch.ray_cast_many)
        self.query_kind = np.zeros(n, dtype=np.int8)
        self.query_at = np.zeros(n)  # the spare's address (0: no spare to refresh)
        self.values, views = _seats.columns(n)  # (the worlds' side, and the batch's)
        for column, view in views.items():
            setattr(self, column, view)
        # the columns the kernel advances after each world's step, in batch_step.TIMES' order
        self.clocks = (self.times, self.steps, self.query_kind, self.stale_set,
                       self.flags_dirty, np.empty((2, n), dtype=np.int64),
                       np.zeros(_batch.TALLIES, dtype=np.int64))
        for k, w in enumerate(worlds):
            _seats.seat(w, self, k)

    def any_marked(self, row: int) -> bool:
        """Whether some world's mark of row ``row`` of :attr:`marks` is set (:data:`DIRTY`...):
        a search of the marks' bytes (0.1-0.2 us for 1,024 worlds, where
        NumPy's ``any`` or ``flatnonzero`` of the row costs 2-4 us on the loaded 2-core machine,
        several times a step)."""
        n = len(self.worlds)
        return self.mark_bytes.find(1, row * n, (row + 1) * n) >= 0

    def any_slow(self) -> bool:
        """Whether some world was stepped by ``World.step`` as of its last check."""
        return self.slow_bytes.find(1) >= 0

    def any_stepping(self) -> bool:
        """Whether a world is in a step (a callback of its runs). Only a world with callbacks
        (slow) can be, or one changed since its last check (it may have got some since)."""
        if not (self.any_slow() or self.any_marked(DIRTY)):
            return False
        worlds = self.worlds
        return any(worlds[k]._lock.stepping for k in np.flatnonzero(self.slow | self.dirty))

    def copies_made(self) -> None:
        """The worlds are copies of one world, made just now (:meth:`WorldBatch.replicate
        <impulse2d.WorldBatch.replicate>`): the first made ready fills its table of verbs
        (:func:`._dynamics.step._fill_verbs`: the units its settings, shapes and joints need,
        about 50 us of Python a world), and each other copy not changed since takes that
        table (:func:`_copy_verbs`), the same values. A change is seen by the world's mark:
        ``flags_dirty`` is set by every :meth:`._batch_worlds.Seat.mark` (and by
        ``Seat.synced``, a read of a store: taken for a change too), and cleared here, where
        no world's stale flag is taken for set yet (:attr:`stale_set` is all False), so that
        clearing it changes nothing else."""
        self.fresh[:] = True
        self.flags_dirty[:] = False
        self.like = None

    # -- the references ------------------------------------------------------------------------
    def refresh_ref(self, k: int) -> None:
        """World ``k``'s reference, rebuilt first if Python replaced a store since it was
        built, put in :attr:`refs`."""
        d = self.dicts[k]
        built = d["_stores_built_from"]
        if (built is None or built[0] is not d["_bodies"] or built[1] is not d["_shapes"]
                or built[2] is not d["_joints"] or built[3] is not d["_contacts"]
                or built[4] is not d["_constraints"]):
            stores_for_step(self.worlds[k])
        ref = d["_stores"]
        if self.ref_of[k] is not ref:
            _put_ref.entry(self.refs, k, ref)
            self.ref_of[k] = ref
            self.written[k] = (None, None, None)  # (the step writes its row again)

    def current_refs(self, chosen=None):
        """The worlds' references (of ``chosen`` only, an int64 array of indices, in that
        order, if given): the list as it is when no world's stores or reference were replaced
        since it was last checked; else the entries of the worlds marked since then (every
        replacement in a world of the batch marks it: :mod:`._batch_worlds`) checked first.
        The list of ``chosen``'s is the same list each time, filled again by each such call
        (valid until the next: its callers pass it straight to kernels), where a new list
        cost its making and boxing (7 us a call, 40-60 us of a restarting step of 1,024
        landers: BENCHMARKS.md session 29)."""
        if CHANGES.value != self.epoch:
            stale = np.flatnonzero(self.refs_dirty).tolist()
            for k in stale:
                self.refresh_ref(k)
            self.refs_dirty[stale] = False
            self.epoch = CHANGES.value  # (after: a rebuild above bumps the count)
        if chosen is None:
            return self.refs
        if numba.config.DISABLE_JIT:
            return [self.refs[k] for k in chosen.tolist()]
        if self.picked is None:
            self.picked = ref_list()
        _pick_refs.entry(self.refs, chosen, self.picked)
        return self.picked


@kernel
def _set_ref(refs, k, ref):
    refs[k] = ref


@kernel
def _picked_refs(refs, chosen, picked):
    """``picked[:] = [refs[k] for k in chosen]`` (a typed list): from Python each entry read
    and appended goes through Numba's dispatcher (about 2 ms for the eight worlds an
    environment step of 1,024 landers reads apart, cProfile)."""
    picked.clear()
    for k in chosen:
        picked.append(refs[k])


@kernel
def _empty_refs():
    return numba.typed.List.empty_list(WORLD_STORES)


@kernel
def _append_ref(refs, ref):
    refs.append(ref)


_pick_refs = DirectCall(_picked_refs, "the batch's list of references", 2.0)
_put_ref = DirectCall(_set_ref, "the batch's list of references", 2.0)
"""``refs[k] = ref`` in compiled code: the typed list's own ``__setitem__`` from Python goes
through Numba's dispatcher on every call (tens of microseconds)."""
# The list made and filled in compiled code too: the typed list's own methods called from
# Python are Numba's kernels, which its cache does not keep (``_make_list``, ``_append``: 0.6
# and 0.2 s of CPU compiled again in every process that makes a batch, load 5: after
# ``warmup --all``, a batch's only compiles; benchmarks/warm_cover.py, 2026-12-02)
_new_refs = DirectCall(_empty_refs, "the batch's list of references", 1.0)
_add_ref = DirectCall(_append_ref, "the batch's list of references", 1.0)


def ref_list():
    """An empty list of worlds' references as the kernels take it (Numba's typed list; a
    Python list without the JIT)."""
    if numba.config.DISABLE_JIT:
        return []
    return _new_refs.entry()


# -- the step ------------------------------------------------------------------------------------
def prepare(state: ReadyState, dt: float, only: np.ndarray | None = None) -> tuple:
    """Make every world of ``state`` (or those of ``only``, an int64 array of indices,
    ascending) ready for a step of ``dt`` and its arguments current in ``state.args``; returns
    the worlds for the kernel (int64 array) and those whose step needs Python in the middle
    (events, callbacks, diagnostics, the ``direct`` solver: the batch steps those with
    ``World.step``; a list). With ``only``, no other world's row of arguments is written
    (the kernel may be reading them: ``WorldBatch._step_state``'s ``held`` worlds), and
    :attr:`ReadyState.checked` holds the worlds checked by both calls.

    Only the worlds marked since their last check (:mod:`._batch_worlds`) are checked, with
    :func:`._stepping.step_world`'s checks, inline: a world whose settings, joint rows and stores
    are those its table of verbs and reference were made for (the usual step), and whose row
    of arguments was written for them and its gravity, costs a few identity tests; any other
    goes through :func:`_make_ready`. A world not marked changed nothing those checks read.
    The step's ``dt`` is written for every world in one go."""
    if only is not None:
        return _prepare_only(state, dt, only)
    if state.any_marked(DIRTY):
        dirty = state.dirty
        state.checked = marked = np.flatnonzero(dirty)
        for k in marked.tolist():
            _check(state, k, dt)
        dirty[marked] = False  # (after the checks: making a world ready writes to it)
    else:
        state.checked = _NONE
    _write_arguments(state, dt, _EVERY)
    state.clocks[_batch.TALLY][:] = 0  # (the kernel's calls of this step add to it)
    if not state.any_slow():
        return state.everyone, []
    slow = state.slow
    return np.flatnonzero(~slow), np.flatnonzero(slow).tolist()


def _prepare_only(state: ReadyState, dt: float, only: np.ndarray) -> tuple:
    """:func:`prepare` of the worlds ``only``, writing their rows of arguments only."""
    dirty = state.dirty
    marked = only[dirty[only]]
    state.checked = np.union1d(state.checked, marked)
    for k in marked.tolist():
        _check(state, k, dt)
    dirty[marked] = False
    _write_arguments(state, dt, only)
    slow = state.slow[only]
    return only[~slow], only[slow].tolist()


_EVERY = slice(None)
_NONE = np.zeros(0, dtype=np.int64)
""":attr:`ReadyState.checked` when no world was marked (never written into)."""


def _write_arguments(state: ReadyState, dt: float, rows) -> None:
    """The step's ``dt`` into the ``rows`` (every world: :data:`_EVERY`; or an int64 array of
    indices) of ``state.args``."""
    state.args[rows, DT] = dt


def _check(state: ReadyState, k: int, dt: float) -> None:
    """World ``k``'s checks before a step (see :func:`prepare`): whether it is slow, and if
    not, made ready when it is not."""
    d = state.dicts[k]
    lock = d["_lock"]
    if lock.seat is None or lock.seat.state is not state:
        _seats.seat(state.worlds[k], state, k)  # (it sat in another batch meanwhile)
    s = d["_settings"]
    settings = s._derived
    events = d["_events"]
    if events.on or settings is None:
        events.on = events.wanted(s)
    callbacks = d["_callbacks"]
    if (events.on or callbacks.pair_filter is not None or callbacks.pre_solve is not None
            or s.diagnostics or d["_diagnostics"].shape[0] or s.solver == "direct"):
        state.slow[k] = True
        return
    state.slow[k] = False
    rows = d["_joint_index"]
    verbs_for = d["_verbs_for"]
    built = d["_stores_built_from"]
    mine = state.written[k]
    if not (settings is not None and settings is verbs_for[0] and rows is verbs_for[1]
            and built is not None and built[5] is rows and built[0] is d["_bodies"]
            and built[1] is d["_shapes"] and built[2] is d["_joints"]
            and built[3] is d["_contacts"] and built[4] is d["_constraints"]
            and built[6] is d["_diagnostics"] and mine[0] is settings
            and mine[1] is rows and mine[2] is d["_stores"]):
        _make_ready(state, k, dt, settings, rows)
    else:  # (a restore copies the step row of then, whose flag may be of other rows)
        d["_step_settings"][JOINTS_FILTERED] = rows["filtered"]


def _make_ready(state: ReadyState, k: int, dt: float, settings, rows) -> None:
    """World ``k`` made ready as :func:`._stepping._step_checked` makes it, if it is not (the
    settings packed, sleepers woken if sleeping was turned off, the verbs filled, the
    reference rebuilt), and its joint-rows flag written into its step row, its reference into
    the list."""
    w = state.worlds[k]
    d = state.dicts[k]
    verbs_for = d["_verbs_for"]
    built = d["_stores_built_from"]
    # a copy unchanged since the batch made it (its mark's flags_dirty still clear: making a
    # world ready below writes its attributes, which marks it)
    copy = state.fresh[k] and not state.flags_dirty[k]
    state.fresh[k] = False
    if not (settings is not None and settings is verbs_for[0] and rows is verbs_for[1]
            and built is not None and built[5] is rows and built[0] is d["_bodies"]
            and built[1] is d["_shapes"] and built[2] is d["_joints"]
            and built[3] is d["_contacts"] and built[4] is d["_constraints"]
            and built[6] is d["_diagnostics"]):
        s = d["_settings"]
        if settings is None:
            settings = _settings_arguments(s)
        if settings is not verbs_for[0] and not s.enable_sleep:
            wake_all(w)
        like = state.like if copy else None
        if like is None:
            rows, _ = _ready(w, dt, settings)  # (it writes the joint-rows flag)
            if copy:
                state.like = w
        else:
            rows, _ = _ready(w, dt, settings, lambda world, by_type, prepare_step:
                             _copy_verbs(world, like))
    else:
        d["_step_settings"][JOINTS_FILTERED] = rows["filtered"]
    ref = d["_stores"]
    if state.ref_of[k] is not ref:
        _put_ref.entry(state.refs, k, ref)
        state.ref_of[k] = ref
    state.written[k] = (settings, rows, ref)


def _copy_verbs(world, like) -> None:
    """``world``'s table of verbs made ``like``'s, a copy of the same world made ready before it
    (:meth:`ReadyState.copies_made`), in the place of :func:`._dynamics.step._fill_verbs`: the
    same settings, shapes, joints and custom laws, so the same units and values, and their
    tables held the same values before ``like``'s was filled (the same snapshot's), so what
    that fill did besides (the rows' lanes read back when the float32 prepare comes or goes)
    ``world`` needs too. A later unit not delivered yet (0 in ``like``'s table, noted) is noted
    for ``world``'s table as well."""
    table, theirs = world._verbs, like._verbs
    if bool(table[LANE_PREPARE]) != bool(theirs[LANE_PREPARE]):
        sync_constraint_rows(world)
    with _LATER_LOCK:
        table[:] = theirs
        _LATER_TABLES.extend([(weakref.ref(table), slot) for ref, slot in _LATER_TABLES
                              if ref() is theirs])


_FLAGS = ((NEW_CONSTRAINTS, "_constraints_stale"), (NEW_CONTACTS, "_contacts_stale"))
"""A step's status bit for a new store kept in the reference, and the world's flag that says
so (:func:`._dynamics.world_ref.adopt_step_stores`), in :attr:`ReadyState.stale_set`'s
order."""


@kernel
def others_than(fast, held, out):
    """The worlds of ``fast`` not in ``held`` (both int64, ascending) into ``out``, in order;
    returns how many. One compiled merge, where NumPy took four calls over the batch (a mask
    made, cleared at ``held``, gathered at ``fast``, ``fast`` gathered through it: 35-45 us
    of a restarting step of 1,024 landers, each call's code and arrays out of the cache
    after the kernel's step before)."""
    m = 0
    j = 0
    for k in range(fast.shape[0]):
        i = fast[k]
        while j < held.shape[0] and held[j] < i:
            j += 1
        if j < held.shape[0] and held[j] == i:
            continue
        out[m] = i
        m += 1
    return m


_others = DirectCall(others_than, "the batch's held worlds", 1.0)


def clock(state: ReadyState, fast: np.ndarray, seconds: float,
          skip_unwritten: bool = False) -> tuple:
    """After the kernel stepped the worlds ``fast`` (less, if ``skip_unwritten``, those it
    left unwritten: their writes would wake an island, the caller steps them alone), which
    advanced each world's clock and noted its new stale flags right after its step
    (:func:`._dynamics.batch_step.clock_world`): each world's share of ``seconds`` (the
    kernel's time, among the worlds clocked) as its ``Profile.step``, and the stale flags
    set in the worlds' dicts (:data:`_FLAGS`: only Python writes a dict; the dict of a
    world among 1,024 is out of the cache, 1.1-1.2 us a world, session 19, and after its
    first steps a world's flags stay set unless Python reads its stores). Returns the union
    of the stepped worlds' status bits (what :func:`finish` needs) and how many worlds of
    ``fast`` the kernel left unwritten, from the kernel's tally (:data:`.batch_step.TALLY`)."""
    _, _, _, _, _, new, tally = state.clocks
    bits, unwritten, *counts = tally.tolist()
    m = fast.shape[0]
    share = seconds / max(m - unwritten if skip_unwritten else m, 1)
    if not unwritten and not bits & WOKE:  # (the usual step: every world of fast clocked)
        if fast is state.everyone:
            state.step_seconds.fill(share)  # (NumPy's fill: ~5 us less than a slice's, cold)
        else:
            state.step_seconds[fast] = share
    else:  # (a world woke, which Python steps again, or was left unwritten)
        results = state.results[fast]
        state.step_seconds[fast[((results[:, STATUS].astype(np.int64) & WOKE) == 0)
                                & (results[:, UNWRITTEN] == 0.0)]] = share
    dicts = state.dicts
    for row, (_, name) in enumerate(_FLAGS):
        for k in new[row, :counts[row]].tolist():
            dicts[k][name] = True
    return bits, unwritten


def finish(state: ReadyState, fast: np.ndarray, dt: float, share: float, bits: int) -> list:
    """What :func:`._stepping.step_world` and ``World.step`` do after the kernel, for the worlds
    ``fast`` the kernel stepped: the sweep of a first fast body, the stores (a new contact
    store stays in the reference, see :func:`.world_ref.sync_contacts`), the joint rows
    dropped when islands with joints fell asleep, the step again with the joint rows rebuilt
    when a jointed island woke, the clock and the after-step queue. The values every world's
    step changes are a few writes into the batch's arrays (the clock), which the worlds read
    (:mod:`._batch_worlds`), or were written by the step into the world's step row (the
    sleeping counts, the joints' step, the dirty pairs' flag); what only some worlds need (new
    stores, a first sweep, joint rows to rebuild, second steps, after-step functions), found
    from the steps' status bits (``bits``: their union, :func:`clock`'s, which writes the
    clocks first), is done for those only, and marks them. ``share``: each world's share of
    the batch's time (its ``Profile.step``), s. Returns the worlds whose after-step functions
    ran."""
    worlds, dicts = state.worlds, state.dicts
    every = fast is state.everyone
    touched = []
    woke = []
    if bits & (UNSWEPT | FELL | WOKE):  # (none, on the usual step)
        status = (state.results[:, STATUS] if every else
                  state.results[fast, STATUS]).astype(np.int64)
        which = np.flatnonzero if every else (lambda mask: fast[mask])
        if bits & UNSWEPT:
            for k in which((status & UNSWEPT) != 0).tolist():
                _continuous_first(worlds[k], dicts[k]["_stores"])
                touched.append(k)
        if bits & FELL:
            for k in which((status & FELL) != 0).tolist():
                if dicts[k]["_joint_handles"]:
                    dicts[k]["_joint_index"] = None  # leave the joints of the islands that fell asleep
                    touched.append(k)
        if bits & WOKE:
            woke = which((status & WOKE) != 0).tolist()  # (stepped again below)
    for k in woke:
        w = worlds[k]
        w._joint_index = None  # a jointed island woke: its joints join the rows
        _step_checked(w, dt, share)
        w._query_index = None
        w.time += dt
        w.step_count += 1
        touched.append(k)
    if touched:  # (their next step and read check them)
        state.marks[:, touched] = True
    # after-step functions: queued only through a marked world (World.after_step), so only
    # the worlds checked before this step or marked since can have some
    checked = state.checked
    if not checked.shape[0] and not state.any_marked(DIRTY):
        return []  # (the usual step: no world checked or marked)
    maybe = state.dirty.copy()
    maybe[checked] = True
    ran = []
    for k in (np.flatnonzero(maybe) if every else fast[maybe[fast]]).tolist():
        lock = dicts[k]["_lock"]
        if lock.after:
            lock.run_after()
            ran.append(k)
    return ran
