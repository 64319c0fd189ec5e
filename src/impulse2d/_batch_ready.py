"""The Python around a batch step, and the batch's list of its worlds' references.

A batch step, and every dense read or write of a batch, hands the kernels each world's
current stores' reference (:mod:`._dynamics.world_ref`) and, for a step, its arguments (a row
of :data:`._dynamics.batch_step.ARGUMENTS`). Most worlds change nothing between two batch
steps that would change either, and a loop over the worlds in Python costs about a
microsecond a world for each attribute it looks at, so:

* the references are checked only after some world's stores or reference were replaced
  (:mod:`._stores_epoch`, a process-wide count); otherwise the list is kept as it is;
* a world's settings, gravity and joint-rows flag are written into its row of arguments when
  it is made ready (:func:`_make_ready`, the checks of :func:`._dynamics.step.step_world`),
  and the two arguments that vary from step to step (dirty pairs, sleepers) for every world
  in one write;
* after the kernel, what only some worlds need (new stores, a first sweep, joint rows to
  rebuild) is done for those worlds only (:func:`finish`).
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter, itemgetter

import numba
import numpy as np

from ._core.jit import DirectCall, kernel
from ._dynamics import batch_step as _batch
from ._dynamics.batch_step import (DT, GX, GY, HAS_SLEEPERS, JOINTS_FILTERED, PAIRS_DIRTY,
                                   SETTINGS)
from ._dynamics.step import _continuous_first, _ready, _settings_arguments, _step_checked
from ._dynamics.world_ref import WORLD_STORES, stores_for_step
from ._sleep import wake_all
from ._stores_epoch import CHANGES
from .snapshot import restore as restore_world

# What every step reads afresh (Python sets them between steps: a body moved, one woken).
_VARYING = itemgetter("_pairs_dirty", "_sleepers")
_STEPPING = attrgetter("_lock.stepping")
_LOCK = itemgetter("_lock")


class ReadyState:
    """A batch's worlds' references (:attr:`refs`, current as of :attr:`epoch`) and step
    arguments (:attr:`args`, one row per world; :attr:`results`, what each step returned)."""

    __slots__ = ("worlds", "dicts", "refs", "ref_of", "epoch", "args", "results", "written",
                 "everyone")

    def __init__(self, worlds) -> None:
        n = len(worlds)
        self.worlds = worlds
        self.dicts = [w.__dict__ for w in worlds]  # (an instance keeps its dict for life)
        self.refs = ref_list()  # the worlds' references, as the kernels take them
        for w in worlds:
            self.refs.append(stores_for_step(w))
        # the Python objects of the list's entries (an entry read back is a new proxy object)
        self.ref_of = [w._stores for w in worlds]
        self.epoch = CHANGES.value
        self.args = np.zeros((n, _batch.ARGUMENTS))
        self.results = np.zeros((n, _batch.RESULTS))
        # per world: the packed settings, joint rows, gravity and reference its row of
        # arguments and its entry in refs were written for (None: not yet)
        self.written = [(None, None, None, None)] * n
        self.everyone = np.arange(n, dtype=np.int64)

    def any_stepping(self) -> bool:
        return any(map(_STEPPING, self.worlds))

    def varying(self) -> np.ndarray:
        """(worlds, 2) float64: each world's ``_pairs_dirty`` and ``_sleepers``."""
        n = len(self.dicts)
        return np.fromiter(chain.from_iterable(map(_VARYING, self.dicts)), dtype=np.float64,
                           count=2 * n).reshape(n, 2)

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
            self.written[k] = (None, None, None, None)  # (the step writes its row again)

    def current_refs(self, chosen=None):
        """The worlds' references (of ``chosen`` only, an int64 array of indices, in that
        order, if given): the list as it is when no world's stores or reference were replaced
        since it was last checked, else checked world by world first."""
        while CHANGES.value != self.epoch:
            # (a rebuild here bumps the count again: the second pass finds all current)
            self.epoch = CHANGES.value
            for k in range(len(self.dicts)):
                self.refresh_ref(k)
        if chosen is None:
            return self.refs
        subset = ref_list()
        refs = self.refs
        for k in chosen.tolist():
            subset.append(refs[k])
        return subset

    def restore(self, chosen: list, snapshots) -> None:
        """Restore ``snapshots[k]`` into world ``k`` for each ``k`` of ``chosen`` (checked by
        the caller). A restore may replace a world's stores or drop its reference; the worlds
        restored have their entries checked here, so that a list that was current stays so
        and the next read checks nothing (the cost is the worlds restored)."""
        current = self.epoch == CHANGES.value
        worlds = self.worlds
        for k in chosen:
            restore_world(worlds[k], snapshots[k])
        for k in chosen:
            self.refresh_ref(k)
        if current:
            self.epoch = CHANGES.value


@kernel
def _set_ref(refs, k, ref):
    refs[k] = ref


_put_ref = DirectCall(_set_ref, "the batch's list of references", 2.0)
"""``refs[k] = ref`` in compiled code: the typed list's own ``__setitem__`` from Python goes
through Numba's dispatcher on every call (tens of microseconds)."""


def ref_list():
    """An empty list of worlds' references as the kernels take it (Numba's typed list; a
    Python list without the JIT)."""
    return [] if numba.config.DISABLE_JIT else numba.typed.List.empty_list(WORLD_STORES)


# -- the step ------------------------------------------------------------------------------------
def prepare(state: ReadyState, dt: float) -> tuple:
    """Make every world of ``state`` ready for a step of ``dt`` and its arguments current in
    ``state.args``; returns the worlds for the kernel (int64 array) and those whose step needs
    Python in the middle (events, callbacks, diagnostics, the ``direct`` solver: the batch
    steps those with ``World.step``; a list).

    The checks are :func:`.step.step_world`'s, inline: a world whose settings, joint rows and
    stores are those its table of verbs and reference were made for (the usual step), and
    whose row of arguments was written for them and its gravity, costs a few identity tests;
    any other goes through :func:`_make_ready`. The two arguments that vary from step to step
    (dirty pairs, sleepers) are written for every world in one go."""
    slow = []
    written = state.written
    for k, d in enumerate(state.dicts):
        s = d["_settings"]
        settings = s._derived
        events = d["_events"]
        if events.on or settings is None:
            events.on = events.wanted(s)
        callbacks = d["_callbacks"]
        if (events.on or callbacks.pair_filter is not None or callbacks.pre_solve is not None
                or s.diagnostics or d["_diagnostics"].shape[0] or s.solver == "direct"):
            slow.append(k)
            continue
        rows = d["_joint_index"]
        verbs_for = d["_verbs_for"]
        built = d["_stores_built_from"]
        mine = written[k]
        if not (settings is not None and settings is verbs_for[0] and rows is verbs_for[1]
                and built is not None and built[5] is rows and built[0] is d["_bodies"]
                and built[1] is d["_shapes"] and built[2] is d["_joints"]
                and built[3] is d["_contacts"] and built[4] is d["_constraints"]
                and built[6] is d["_diagnostics"] and mine[0] is settings
                and mine[1] is rows and mine[2] is d["_gravity"] and mine[3] is d["_stores"]):
            _make_ready(state, k, dt, settings, rows)
    args = state.args
    varying = state.varying()
    args[:, PAIRS_DIRTY] = varying[:, 0]
    args[:, DT] = dt
    args[:, HAS_SLEEPERS] = varying[:, 1] != 0.0
    if not slow:
        return state.everyone, slow
    fast = np.ones(len(state.dicts), dtype=bool)
    fast[slow] = False
    return np.flatnonzero(fast), slow


def _make_ready(state: ReadyState, k: int, dt: float, settings, rows) -> None:
    """World ``k`` made ready as :func:`.step._step_checked` makes it, if it is not (the
    settings packed, sleepers woken if sleeping was turned off, the verbs filled, the
    reference rebuilt), and its settings, gravity and joint-rows flag written into its row
    of arguments, its reference into the list."""
    w = state.worlds[k]
    d = state.dicts[k]
    verbs_for = d["_verbs_for"]
    built = d["_stores_built_from"]
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
        rows, _ = _ready(w, dt, settings)
    args = state.args
    gravity = d["_gravity"]
    args[k, SETTINGS:HAS_SLEEPERS] = settings
    args[k, GX], args[k, GY] = gravity
    args[k, JOINTS_FILTERED] = rows["filtered"]
    ref = d["_stores"]
    if state.ref_of[k] is not ref:
        _put_ref.entry(state.refs, k, ref)
        state.ref_of[k] = ref
    state.written[k] = (settings, rows, gravity, ref)


def finish(state: ReadyState, fast: np.ndarray, dt: float, share: float) -> None:
    """What :func:`.step.step_world` and ``World.step`` do after the kernel, for the worlds
    ``fast`` the kernel stepped: the sweep of a first fast body, the stores (a new contact
    store stays in the reference, see :func:`.world_ref.sync_contacts`), the sleeping counts
    (:func:`.step._after_step`), the step again with the joint rows rebuilt when a jointed
    island woke, the clock and the after-step queue. Columnar where it can be: the stores' flags,
    first sweeps, joint rows to rebuild and second steps only for the worlds they concern, and
    the rest in one pass. ``share``: each world's share of the batch's time (its
    ``Profile.step``), s."""
    worlds, dicts = state.worlds, state.dicts
    r = state.results[fast]
    new_contacts, new_cs, joint_h, sleeping, fell, unswept = r.T
    for k in fast[new_cs != 0.0].tolist():
        dicts[k]["_constraints_stale"] = True
    for k in fast[new_contacts != 0.0].tolist():
        dicts[k]["_contacts_stale"] = True
    for k in fast[unswept > 0.0].tolist():
        _continuous_first(worlds[k], dicts[k]["_stores"])
    awake = sleeping >= 0.0  # (-1: a jointed island woke, stepped again below)
    for k in fast[awake & (fell > 0.0)].tolist():
        if dicts[k]["_joint_handles"]:
            dicts[k]["_joint_index"] = None  # leave the joints of the islands that fell asleep
    normal = fast[awake]
    for d, h, n_sleeping, n_fell in zip([dicts[k] for k in normal.tolist()],
                                        joint_h[awake].tolist(),
                                        sleeping[awake].astype(np.int64).tolist(),
                                        fell[awake].astype(np.int64).tolist()):
        d["_pairs_dirty"] = False
        d["_step_seconds"] = share
        if h > 0.0:
            d["_joint_inv_h"] = 1.0 / h
        d["_sleepers"] = n_sleeping
        d["_fell_asleep"] = n_fell
        d["_query_index"] = None
        d["time"] += dt
        d["step_count"] += 1
    for k in fast[~awake].tolist():
        d = dicts[k]
        d["_pairs_dirty"] = False
        d["_joint_index"] = None  # a jointed island woke: its joints join the rows
        _step_checked(worlds[k], dt, share)
        d["_query_index"] = None
        d["time"] += dt
        d["step_count"] += 1
    for lock in map(_LOCK, [dicts[k] for k in fast.tolist()]):
        if lock.after:
            lock.run_after()
