"""Many independent worlds stepped together: :class:`WorldBatch`.

Reinforcement learning and parameter studies step thousands of small worlds. One
``World.step`` per world pays Python's share of a step (a few microseconds) per world; a batch
hands every world to the engine in one call, which spreads them over worker threads (worlds
in parallel, each world's step serial inside, so a world's bits never depend on its
neighbours or the thread count).

Each world of a batch stays a full :class:`~impulse2d.World` between batch steps: its handles,
events, queries and snapshots work as ever, and stepping it alone is allowed. ``batch.step(dt)``
gives every world exactly the bits ``world.step(dt)`` would. While in a batch, a world's clock
and per-step counts live in the batch's arrays, which one step advances for all its worlds,
and Python checks before a step only the worlds changed since the last one
(:mod:`impulse2d._batch_worlds`); the world's class is then a subclass of its own, of the same
name (``isinstance(w, World)`` holds, ``type(w) is World`` does not; a copy or a pickle of it
is a plain ``World``).

A batch made by :meth:`WorldBatch.replicate` (copies of one world) also has dense views: the
template's bodies (``world.bodies`` when it was replicated, in that order) and joints
(``world.joints``) are the same rows in every copy, so their state reads and writes as
``(worlds, bodies, ...)`` arrays in one call each.
"""

from __future__ import annotations

import copy
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from time import perf_counter
from typing import NamedTuple

import numpy as np

from . import _batch_lidar as _lidar
from . import _crew
from . import _batch_ready as _ready
from . import _batch_restore as _restores
from . import _threads
from . import _batch_worlds as _seats
from . import _batch_views as _views
from . import _batch_writes as _rides
from . import _huge_pages
from . import _lock, _validate
from . import queries as _queries
from ._collision.query_index import CELL_SCALE
from ._dynamics import batch_step as _batch
from ._dynamics.step import UNSWEPT, WOKE
from .constants import HUGE
from .joints import DistanceJoint, PrismaticJoint, RevoluteJoint, WheelJoint
from .snapshot import Snapshot, share_buffers

_MOTORISED = (RevoluteJoint, PrismaticJoint, WheelJoint, DistanceJoint)
"""Joint types with a ``motor_speed`` (rad/s for revolute and wheel, m/s for the others)."""


class BatchSnapshot(NamedTuple):
    """The state of every world of a batch (:meth:`WorldBatch.snapshot`): one
    :class:`~impulse2d.Snapshot` per world, in the batch's order."""

    worlds: tuple


class BatchState(NamedTuple):
    """The template bodies' state in every world of a batch (or some of them), from one pass
    over the worlds (:meth:`WorldBatch.get_state`): what ``get_positions``, ``get_angles``,
    ``get_velocities``, ``get_awake`` and ``get_touching`` give one by one."""

    positions: np.ndarray   # (worlds, bodies, 2) origins, m
    angles: np.ndarray      # (worlds, bodies), rad
    velocities: np.ndarray  # (worlds, bodies, 3): vx, vy (m/s), w (rad/s)
    awake: np.ndarray       # (worlds, bodies) bool
    touching: np.ndarray    # (worlds, bodies) bool


class WorldBatch:
    """Independent worlds stepped by one call (see the module's docstring).

    ``worlds``: the :class:`~impulse2d.World` objects, each at most once; they may differ in
    bodies, shapes, joints and settings. ``threads``: worker threads for :meth:`step`
    (default: the machine's cores)."""

    def __init__(self, worlds, threads: int | None = None) -> None:
        from .world import World
        if isinstance(worlds, World) or not hasattr(worlds, "__iter__"):
            raise TypeError("worlds must be a sequence of World objects (for copies of one "
                            "world, use WorldBatch.replicate(world, n))")
        worlds = tuple(worlds)
        if not worlds:
            raise ValueError("worlds must hold at least one World")
        for k, w in enumerate(worlds):
            if not isinstance(w, World):
                raise TypeError(f"worlds[{k}] must be a World, got {type(w).__name__}")
        if len({id(w) for w in worlds}) != len(worlds):
            raise ValueError("worlds holds the same World more than once; a batch steps each "
                             "world once (use copy.deepcopy(world) for a copy)")
        self._worlds = worlds
        self._threads = _validate.integer(_cores() if threads is None else threads, "threads",
                                         lower=1)
        self._body_rows = None   # the template's body rows (replicated batches)
        self._joint_rows = None  # the template's joint rows
        self._joint_kinds = None  # per template joint: its handle class
        # the worlds' references and step arguments, and what each was made from
        self._state = _ready.ReadyState(worlds)
        self._restores = _restores.Restores(self._state)  # (what restores keep of each world)
        self._pool = None  # worker threads (threads - 1 of them: the caller works too)
        self._crew = None  # or the step's helpers, inside the kernel between steps (_crew)
        self._returning = []  # their calls of steps whose worlds are done (see _run)
        self._beside = 0  # batch steps whose meanwhile ran beside the kernel (_run_around)
        # the worlds' heaps on 2 MiB pages, asked for again as the steps grow the stores
        self._pages = _huge_pages.Advice(worlds)

    @classmethod
    def replicate(cls, world, n: int, threads: int | None = None) -> "WorldBatch":
        """A batch of ``n`` copies of ``world`` (deep copies: ``world`` itself is not one of
        them), with the dense views of the template's bodies and joints."""
        from .world import World
        if not isinstance(world, World):
            raise TypeError(f"world must be a World, got {type(world).__name__}")
        n = _validate.integer(n, "n", lower=1)
        _lock.check(world, "WorldBatch.replicate")
        copies = [copy.deepcopy(world) for _ in range(n)]
        batch = cls(copies, threads)
        batch._state.copies_made()  # (their first step's checks: one stands for all)
        batch._body_rows = np.array([b._index for b in world.bodies], dtype=np.int64)
        joints = world.joints
        batch._joint_rows = np.array([j._index for j in joints], dtype=np.int64)
        batch._joint_kinds = tuple(type(j) for j in joints)
        return batch

    # -- the batch ------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._worlds)

    @property
    def worlds(self) -> tuple:
        """The worlds, in the batch's order (each a full :class:`~impulse2d.World`)."""
        return self._worlds

    @property
    def threads(self) -> int:
        """Worker threads of :meth:`step` (at least 1); settable."""
        return self._threads

    @threads.setter
    def threads(self, value: int) -> None:
        value = _validate.integer(value, "threads", lower=1)
        if value != self._threads and self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if value != self._threads and self._crew is not None:
            self._crew.call_off()
            self._crew = None
        self._threads = value

    @property
    def body_rows(self) -> np.ndarray:
        """The template's body rows (int64), the second axis of the dense views."""
        return self._replicated().copy()

    def step(self, dt: float = 1.0 / 60.0) -> None:
        """Advance every world by ``dt`` seconds: for each world exactly the bits of
        ``world.step(dt)``, whatever the batch, its order or :attr:`threads`.

        The worlds go to the engine in one call per thread, each thread stepping its share of
        them one after the other with Python's global lock released. A world whose step needs
        Python in the middle (contact or body events, callbacks, diagnostics, the ``direct``
        solver) is stepped by ``World.step`` after the others; so is every world at
        ``dt = 0``. Each world's ``Profile.step`` is its share of the batch's time. A world
        locked in a step of its own raises :class:`~impulse2d.WorldLockedError` before any
        world moves. As with ``World.step``, no other thread may use a world while it steps."""
        if type(dt) is not float or not _validate.MIN_DT <= dt <= _validate.MAX_DT:
            dt = _validate.time_step(dt, "dt")
        worlds = self._worlds
        state = self._state
        if state.any_stepping():
            raise _lock.locked("WorldBatch.step")
        if dt == 0.0:
            for w in worlds:
                w.step(dt)
            return
        fast, slow = _ready.prepare(state, dt)
        if fast.shape[0]:
            seconds = self._run(fast)
            bits, _ = _ready.clock(state, fast, seconds)
            _ready.finish(state, fast, dt, seconds / fast.shape[0], bits)
        for k in slow:
            worlds[k].step(dt)
        self._pages.stepped()

    def _step_state(self, dt: float, writes: _rides.StepWrites | None = None,
                    held: np.ndarray | None = None, meanwhile=None,
                    out: BatchState | None = None) -> BatchState:
        """:meth:`step` then :meth:`get_state` of every world (a batch of copies), for the
        native environments: the kernel gathers each world's state right after stepping it,
        while its stores are still in the cache (:func:`._dynamics.batch_step.gather_world`),
        where a pass after the step misses on every world's stores again. The worlds whose
        state Python may have changed after the kernel (stepped by ``World.step``, stepped
        again or swept by Python, running after-step functions) are gathered again after
        that, from their own columns. The same arrays as ``step(dt)`` then ``get_state()``.

        ``writes`` (:meth:`_writes`, or None): written into each world before its step, by
        the kernel right before it steps the world (:mod:`._batch_writes`); the same bits as
        the writes made by their public methods before ``step(dt)``.

        ``held`` (int64 indices, ascending) and ``meanwhile`` (a function of no arguments
        that changes only the worlds ``held``: an environment's resets): ``meanwhile()`` runs
        on this thread while the batch's other threads step the other worlds, and the worlds
        ``held`` are checked again and stepped after it, last (:meth:`_run_around`): the same
        bits as ``meanwhile()`` then this step, where the serial Python of the resets would
        leave the other threads idle. Should ``meanwhile`` raise, the other worlds have taken
        their step, the worlds ``held`` have not, and the exception propagates.

        ``out``: the arrays to gather into (a :class:`BatchState` this method returned before,
        of the batch's shapes), for a caller that holds none of them beyond the step (a native
        environment's observation reads them and keeps numbers of its own): five arrays less
        made a step, each a NumPy call on the serial Python around the kernel; None: new ones."""
        rows = self._replicated()
        if type(dt) is not float or not _validate.MIN_DT <= dt <= _validate.MAX_DT:
            dt = _validate.time_step(dt, "dt")
        if held is not None and (not held.shape[0] or dt == 0.0 or min(
                self._threads, len(self._worlds)) <= 1 or self._state.any_stepping()):
            if held.shape[0]:
                meanwhile()  # (no other thread to step the other worlds meanwhile)
            held = None
        state = self._state
        refs = self._checked_refs(rows)  # (raises before any world moves if one lacks a body)
        if writes is not None and writes.joints:
            self._checked_refs(writes.joint_rows, joints=True)
        if dt == 0.0 or state.any_stepping():
            if writes is not None:
                self._check_unlocked("WorldBatch._step_state")
                for k in range(len(self._worlds)):
                    writes.write_alone(self, refs, k)
            self.step(dt)
            return self.get_state()
        n, nb = len(self._worlds), rows.shape[0]
        if out is None or out.angles.shape != (n, nb):
            out = BatchState(np.empty((n, nb, 2)), np.empty((n, nb)), np.empty((n, nb, 3)),
                             np.empty((n, nb), dtype=bool), np.empty((n, nb), dtype=bool))
        fast, slow = _ready.prepare(state, dt)
        failed = None
        if held is not None:
            # (a compiled merge, not np.setdiff1d / np.union1d: NumPy 2.4's hashed np.unique
            # takes 0.3-0.6 ms over 1,024 indices, a sort 13 us; the two lists are disjoint)
            fast = state.others[:_ready._others.entry(fast, held, state.others)]
            slow = [k for k in slow if not _in(held, k)]
            # (the kernel may read the batch's own rows of arguments: the held worlds' are
            # written again after meanwhile, no other row: _batch_ready.prepare's ``only``)
            args, rows_written = (state.args, rows) if writes is None else \
                writes.kernel_args(state.args, rows)
            try:
                seconds, later, slow_later = self._run_around(
                    fast, held, (rows_written, *out), args, meanwhile, dt)
            except _Meanwhile as error:
                seconds, later, slow_later, failed = error.seconds, held[:0], [], error.cause
            if fast.shape[0] + later.shape[0] == len(self._worlds):
                fast = state.everyone  # (disjoint: every world; finish's passes take every row)
            else:
                fast = np.sort(np.concatenate((fast, later)))
            slow = sorted(slow + slow_later)
        elif fast.shape[0]:
            args, rows_written = (state.args, rows) if writes is None else \
                writes.kernel_args(state.args, rows)
            seconds = self._run(fast, (rows_written, *out), args)
        again = list(slow)
        alone = slow
        if fast.shape[0]:
            # (the clocks were advanced by the kernel, world by world: here the profile's
            # share and the stale flags; the worlds found by NumPy only where some world was
            # left unwritten or stepped again or swept by Python)
            bits, unwritten = _ready.clock(state, fast, seconds, writes is not None)
            if writes is not None and unwritten:  # the worlds whose writes would wake an island
                left = state.results[fast, _batch.UNWRITTEN] != 0.0
                alone = fast[left].tolist() + list(slow)
                again.extend(alone)
                fast = fast[~left]
            if bits & (WOKE | UNSWEPT):
                again.extend(fast[(state.results[fast, _batch.STATUS].astype(np.int64)
                                   & (WOKE | UNSWEPT)) != 0].tolist())
            ran = _ready.finish(state, fast, dt, seconds / max(fast.shape[0], 1), bits)
            if state.any_marked(_ready.DIRTY):  # (marked after the kernel)
                again.extend(np.flatnonzero(state.dirty).tolist())
            again.extend(ran)  # (their after-step functions ran)
        if writes is not None and alone:
            refs = state.current_refs()  # (the kernel may have replaced a reference's stores)
        for k in alone:
            if writes is not None:
                writes.write_alone(self, refs, k)
            self._worlds[k].step(dt)
        if again:
            chosen = np.unique(np.array(again, dtype=np.int64))
            part = self.get_state(chosen)
            for mine, theirs in zip(out, part):
                mine[chosen] = theirs
        self._pages.stepped()
        if failed is not None:
            raise failed
        return out

    def _run_around(self, first: np.ndarray, held: np.ndarray, gather, args, meanwhile,
                    dt: float) -> tuple:
        """The kernel over the worlds ``first`` on the helper threads while this thread runs
        ``meanwhile()``; then the worlds ``held`` made ready (:func:`._batch_ready.prepare` of
        them alone) and stepped by this thread, which then joins in over ``first``.
        Returns the kernel's wall time (s), the worlds ``held`` it stepped and those left to
        ``World.step``; raises :class:`_Meanwhile` (after the helpers finished ``first``) if
        ``meanwhile`` raised.

        Each thread makes one call over ``first``, which shares the worlds out itself
        (:func:`._dynamics.batch_step.step_batch`): while ``meanwhile`` runs Python here, each
        helper steps its own part and then takes this thread's part from its back, needing
        Python's lock only to begin and to end; this thread, after ``meanwhile``, steps what
        they left of its part, from the front."""
        state = self._state
        refs, results, clocks = state.refs, state.results, state.clocks
        run = _threads.serial(_batch.run)
        self._returned()  # (as _run: a helper's earlier call's error, if any, raised here)
        crew = self._crew_ready()
        t0 = perf_counter()
        if crew is not None:
            # the helpers begin at once, without Python's lock: meanwhile's Python runs beside
            crew.post(refs, first, args, results, gather)
            futures = ()
        else:
            mine, *theirs = _batch.thread_arguments(first.shape[0], self._threads)
            started = threading.Event()  # (a helper has begun: see below)

            def helper(share) -> None:
                started.set()
                run(refs, first, args, results, gather, share, clocks)

            futures = [self._workers().submit(helper, share) for share in theirs]
        try:
            # a pool's helper needs Python's lock to begin, which meanwhile's Python would
            # hold for up to the interpreter's switch interval (5 ms): wait (the lock
            # released) until one has begun
            if futures:
                started.wait()
            meanwhile()
            self._beside += 1
            stepped, slow = _ready.prepare(state, dt, held)
            # (the writes, if any, are in their rows of args already: only the arguments;
            # args may be the batch's own rows, then this copies them onto themselves)
            args[stepped, :_batch.ARGUMENTS] = state.args[stepped]
        except BaseException as cause:
            # (the helpers step all of first: theirs, then this thread's)
            if crew is not None:
                crew.join(refs, results)
            for f in futures:
                f.result()
            raise _Meanwhile(perf_counter() - t0, cause) from cause
        if stepped.shape[0]:  # (by this thread alone, while the helpers step first)
            run(refs, stepped, args, results, gather, _batch.ALONE, clocks)
        if crew is not None:
            crew.join(refs, results)
        else:
            run(refs, first, args, results, gather, mine, clocks)
            for f in futures:
                f.result()
        return perf_counter() - t0, stepped, slow

    def _run(self, which: np.ndarray, gather=_batch._NO_GATHER, args=None) -> float:
        """The kernel over the worlds ``which``, spread over the threads; returns the wall
        time, s. ``gather``: the template rows and state arrays the kernel gathers each world
        into after its step (:func:`._dynamics.batch_step.run`); ``args``: the rows of
        arguments, with writes packed after them (:mod:`._batch_writes`; None: the batch's)."""
        refs, results, clocks = self._state.refs, self._state.results, self._state.clocks
        if args is None:
            args = self._state.args
        run = _threads.serial(_batch.run)  # a threaded world steps serially in a batch
        threads = min(self._threads, which.shape[0])
        self._returned()
        if threads <= 1:
            return run(refs, which, args, results, gather, _batch.ALONE, clocks)
        crew = self._crew_ready()
        if crew is not None:  # (the helpers wait inside the kernel: no Python hand-off)
            t0 = perf_counter()
            crew.step(refs, which, args, results, gather)
            return perf_counter() - t0
        # one call per thread, which shares the worlds out itself (step_batch: each thread
        # its part, then what is left of the others'): no Python between chunks, the threads
        # ending within a world-step of each other, each world on the same thread every step
        t0 = perf_counter()
        mine, *theirs = _batch.thread_arguments(which.shape[0], threads)
        helpers = [self._workers().submit(run, refs, which, args, results, gather, share,
                                          clocks)
                   for share in theirs]
        run(refs, which, args, results, gather, mine, clocks)
        if _batch.joined(mine):
            # every world done and seen by this thread: the helpers' calls are left to return
            # (each takes Python's lock to, then the future's wake of this thread: some tens of
            # microseconds a step under KVM, about as long again as the threads' skew)
            self._returning.extend(helpers)
        else:
            for h in helpers:
                h.result()
        return perf_counter() - t0

    def _crew_ready(self):
        """The batch's crew (:mod:`._crew`), made at its first use (and again after a fork,
        an error or a change to Numba's threads), or None where the batch steps with its pool
        (one thread, or no crew here)."""
        crew = self._crew
        if crew is not None and crew.usable:
            return crew
        if crew is not None:
            crew.call_off()
            self._crew = None
        if self._threads <= 1 or not _crew.ENABLED:
            return None
        state = self._state
        self._crew = crew = _crew.Crew(state.refs, state.results, state.clocks, self._threads)
        weakref.finalize(self, crew.call_off)  # (the batch collected: its helpers leave)
        return crew

    def _returned(self) -> None:
        """The helpers' calls left to return by :meth:`_run` that have: their errors raised,
        if any (none is expected: every world they took was done). Only the last step's
        calls may stay out: an older one still on its way out (a loaded machine can keep a
        helper from taking Python's lock for several steps) is waited for, so no more than
        two steps' calls are ever left and the pool's queue cannot grow."""
        if self._returning:
            returning, self._returning = self._returning, []
            older = len(returning) - (self._threads - 1)  # (the calls before the last step's)
            for i, h in enumerate(returning):
                if h.done() or i < older:
                    h.result()
                else:
                    self._returning.append(h)

    def _workers(self) -> ThreadPoolExecutor:
        """The batch's helper threads (:attr:`threads` - 1: the caller works too), started at
        their first use."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._threads - 1,
                                            thread_name_prefix="impulse2d-batch")
        return self._pool

    def _spread(self, n: int, work) -> None:
        """``work(lo, hi)`` over ``range(n)`` in chunks that the threads take as they come
        free (worlds differ in cost: several chunks per thread, so that a thread that drew
        cheap worlds takes more); ``work`` releases Python's lock (a compiled call)."""
        threads = min(self._threads, n)
        if threads <= 1:
            work(0, n)
            return
        bounds = np.linspace(0, n, min(n, 8 * threads) + 1).astype(np.int64).tolist()
        chunks = iter(zip(bounds[:-1], bounds[1:]))
        take = threading.Lock()

        def worker() -> None:
            while True:
                with take:
                    chunk = next(chunks, None)
                if chunk is None:
                    return
                work(*chunk)

        helpers = [self._workers().submit(worker) for _ in range(threads - 1)]
        worker()
        for h in helpers:
            h.result()

    # -- dense views (replicated batches) -------------------------------------------------------
    def get_positions(self) -> np.ndarray:
        """(worlds, bodies, 2) float64: the template bodies' origins, m."""
        out = np.empty((len(self._worlds), self._replicated().shape[0], 2))
        self._gather(positions=out)
        return out

    def get_angles(self) -> np.ndarray:
        """(worlds, bodies) float64: the template bodies' angles, rad."""
        out = np.empty((len(self._worlds), self._replicated().shape[0]))
        self._gather(angles=out)
        return out

    def get_velocities(self) -> np.ndarray:
        """(worlds, bodies, 3) float64: vx, vy of the centre of mass (m/s) and the angular
        velocity (rad/s)."""
        out = np.empty((len(self._worlds), self._replicated().shape[0], 3))
        self._gather(velocities=out)
        return out

    def get_awake(self) -> np.ndarray:
        """(worlds, bodies) bool: whether each template body is awake (``Body.is_awake``)."""
        out = np.empty((len(self._worlds), self._replicated().shape[0]), dtype=bool)
        self._gather(awake=out)
        return out

    def get_touching(self) -> np.ndarray:
        """(worlds, bodies) bool: whether each template body has a touching contact (a point
        that overlaps or pushed, as ``World.contacts`` counts them) with any other body."""
        rows = self._replicated()
        refs = self._checked_refs(rows)
        out = np.empty((len(self._worlds), rows.shape[0]), dtype=bool)
        _batch._gather_touching.entry(refs, rows, out)
        return out

    def get_state(self, worlds=None) -> BatchState:
        """Every view of the template bodies at once (:class:`BatchState`), of every world or
        of ``worlds`` (indices or a boolean mask, as :meth:`restore` takes them; in batch
        order): one check of the worlds and one call for all, where the five views cost five
        (an environment's observation after its resets reads only the worlds reset)."""
        rows = self._replicated()
        chosen = None if worlds is None else np.array(self._indices(worlds), dtype=np.int64)
        refs = self._checked_refs(rows, chosen=chosen)
        # (the count from Python's side: the typed list's len() is a kernel of Numba's that
        # its cache does not keep, compiled again in every process)
        n, nb = len(self._worlds) if chosen is None else chosen.shape[0], rows.shape[0]
        state = BatchState(np.empty((n, nb, 2)), np.empty((n, nb)), np.empty((n, nb, 3)),
                           np.empty((n, nb), dtype=bool), np.empty((n, nb), dtype=bool))
        if chosen is None:  # every world: one pass, on the threads
            gather = _views._gather_state.entry
            self._spread(n, lambda lo, hi: gather(refs, lo, hi, rows, *state[:4],
                                                  state.touching))
        elif n:
            _batch._gather_bodies.entry(refs, rows, state.positions, state.angles,
                                        state.velocities, state.awake)
            _batch._gather_touching.entry(refs, rows, state.touching)
        return state

    def set_velocities(self, velocities) -> None:
        """Set the template bodies' velocities from a (worlds, bodies, 3) array (vx, vy in
        m/s, w in rad/s, each within +-1e30), waking each body given one as the velocity
        setters do. A static body may only be given zero."""
        self._scatter(velocities, "velocities", _batch.SET_VELOCITY, _validate.MAX_VELOCITY,
                      "gives a static body a velocity; make it kinematic")

    def apply_forces(self, forces) -> None:
        """Add forces and torques for the next step from a (worlds, bodies, 3) array: fx, fy
        at the centre of mass (N) and a torque (N m). Only dynamic bodies with a nonzero row
        are touched (and woken, as ``Body.apply_force`` wakes): a zero row leaves its body,
        and its sleep timer, alone. Each step total must stay within +-1e30."""
        self._scatter(forces, "forces", _batch.ADD_FORCE, _validate.MAX_FORCE,
                      f"would bring the body's accumulated force or torque of this step "
                      f"beyond +-{_validate.MAX_FORCE:g}")

    def apply_impulses(self, impulses) -> None:
        """Change the template bodies' momenta at once from a (worlds, bodies, 3) array: a
        linear impulse at the centre of mass (N s) and an angular impulse (N m s), as
        ``Body.apply_linear_impulse`` and ``apply_angular_impulse`` do (v += p / m, w += L / I;
        a fixed-rotation body does not turn). Only dynamic bodies with a nonzero row are
        touched and woken; velocities beyond +-1e30 are scaled into it."""
        self._scatter(impulses, "impulses", _batch.ADD_IMPULSE, None,
                      "would give the body a velocity that overflows: impulse / mass must "
                      "stay within float64's range")

    def _gather(self, positions=None, angles=None, velocities=None, awake=None) -> None:
        rows = self._replicated()
        refs = self._checked_refs(rows)
        none2, none1 = np.empty((0, 0, 0)), np.empty((0, 0))
        _batch._gather_bodies.entry(
            refs, rows, none2 if positions is None else positions,
            none1 if angles is None else angles, none2 if velocities is None else velocities,
            np.empty((0, 0), dtype=bool) if awake is None else awake)

    def _scatter(self, value, name: str, mode: int, bound, why: str) -> None:
        rows = self._replicated()
        a = self._dense(value, name, 3, bound)
        refs = self._checked_refs(rows)
        self._check_unlocked(f"WorldBatch.{_WRITERS[mode]}")
        n = len(self._worlds)
        flags = np.zeros(n, dtype=np.int64)
        scatter = _views._scatter_bodies.entry
        limits = (_validate.MAX_FORCE, _validate.MAX_VELOCITY)
        if mode != _batch.ADD_IMPULSE or np.abs(a).max(initial=0.0) > _SAFE_IMPULSE:
            # every world checked before any is written (on the threads, as the write)
            self._spread(n, lambda lo, hi: scatter(refs, lo, hi, rows, a, mode, *limits, True,
                                                   flags))
            bad = np.flatnonzero(flags)
            if bad.shape[0]:
                k = int(bad[0])
                raise ValueError(f"{name}[{k}, {int(flags[k]) - 1}] {why}")
        self._spread(n, lambda lo, hi: scatter(refs, lo, hi, rows, a, mode, *limits, False,
                                               flags))
        for k in np.flatnonzero(flags):
            _batch.after_writes(self._worlds[k], rows, int(flags[k]))

    def set_motor_speeds(self, speeds) -> None:
        """Set the template joints' motor speeds from a (worlds, joints) array (rad/s for
        revolute and wheel joints, m/s for prismatic and distance joints, within +-1e5); a
        joint without a motor speed (weld, mouse, motor, pulley, gear) must be given 0."""
        rows, s, motorised = self._motor_speeds(speeds)
        self._scatter_joints(rows, s, motorised, _views.MOTOR_SPEED, "set_motor_speeds")

    def _motor_speeds(self, speeds) -> tuple:
        """:meth:`set_motor_speeds`' checks: the joint rows, the speeds and the joints they
        are written to."""
        if self._joint_rows is None:
            self._replicated()
        rows = self._joint_rows
        s = np.asarray(speeds, dtype=np.float64) if _numeric(speeds) else None
        if s is None:
            raise TypeError("speeds must be a (worlds, joints) array of numbers")
        if s.shape != (len(self._worlds), rows.shape[0]):
            raise ValueError(f"speeds must have shape {(len(self._worlds), rows.shape[0])}, "
                             f"got {s.shape}")
        if not np.all(np.isfinite(s)) or np.any(np.abs(s) > _validate.MAX_SPEED):
            raise ValueError(f"speeds must be finite and within +-{_validate.MAX_SPEED:g}")
        motorised = np.array([issubclass(kind, _MOTORISED) for kind in self._joint_kinds],
                             dtype=bool)
        if np.any(s[:, ~motorised] != 0.0):
            j = int(np.flatnonzero(np.any(s[:, ~motorised] != 0.0, axis=0))[0])
            raise ValueError(f"speeds[:, {int(np.flatnonzero(~motorised)[j])}] is for a joint "
                             "without a motor; give it 0")
        return rows, s, motorised

    def set_max_motor_torques(self, limits) -> None:
        """Set the template joints' motor limits from a (worlds, joints) array: the maximum
        motor torque (N m) of revolute and wheel joints, the maximum motor force (N) of
        prismatic and distance joints, each in [0, 1e30] (their setters' bounds); a joint
        without a motor must be given 0. With :meth:`set_motor_speeds`, a torque-driven
        agent's action in two calls for every world."""
        rows, s, limited = self._motor_limits(limits)
        self._scatter_joints(rows, s, limited, _views.MAX_MOTOR, "set_max_motor_torques")

    def _motor_limits(self, limits) -> tuple:
        """:meth:`set_max_motor_torques`' checks: the joint rows, the limits and the joints
        they are written to."""
        if self._joint_rows is None:
            self._replicated()
        rows = self._joint_rows
        s = np.asarray(limits, dtype=np.float64) if _numeric(limits) else None
        if s is None:
            raise TypeError("limits must be a (worlds, joints) array of numbers")
        if s.shape != (len(self._worlds), rows.shape[0]):
            raise ValueError(f"limits must have shape {(len(self._worlds), rows.shape[0])}, "
                             f"got {s.shape}")
        if not np.all(np.isfinite(s)) or np.any(s < 0.0) or np.any(s > _validate.MAX_FORCE):
            raise ValueError(f"limits must be finite and within [0, {_validate.MAX_FORCE:g}]")
        limited = np.array([issubclass(kind, _MOTORISED) for kind in self._joint_kinds],
                           dtype=bool)
        if np.any(s[:, ~limited] != 0.0):
            j = int(np.flatnonzero(np.any(s[:, ~limited] != 0.0, axis=0))[0])
            raise ValueError(f"limits[:, {int(np.flatnonzero(~limited)[j])}] is for a joint "
                             "without a motor limit; give it 0")
        return rows, s, limited

    def _writes(self, impulses=None, motor_speeds=None,
                max_motor_torques=None) -> _rides.StepWrites:
        """What :meth:`apply_impulses`, :meth:`set_motor_speeds` and
        :meth:`set_max_motor_torques` would write (each None: not written), checked as they
        check it, for the next :meth:`_step_state` to write into each world right before its
        step (:mod:`._batch_writes`; the native environments' actions). Impulses large enough
        to need the overflow check are written now, as ``apply_impulses`` writes them."""
        if impulses is not None:
            impulses = self._dense(impulses, "impulses", 3, None)
            if np.abs(impulses).max(initial=0.0) > _SAFE_IMPULSE:
                self.apply_impulses(impulses)
                impulses = None
        nj = 0 if self._joint_rows is None else self._joint_rows.shape[0]
        values = np.zeros((2, len(self._worlds), nj))
        mask = np.zeros((2, nj), dtype=bool)
        rows = self._joint_rows
        for c, given, check in ((_views.MOTOR_SPEED, motor_speeds, self._motor_speeds),
                                (_views.MAX_MOTOR, max_motor_torques, self._motor_limits)):
            if given is not None:
                rows, values[c], mask[c] = check(given)
        return _rides.StepWrites(impulses, rows, values, mask, bool(mask.any()))

    def _impulse_rows(self) -> tuple:
        """Zeroed rows of the next batch step's arguments with an impulse's 3 columns for each
        template body, and the first of those columns (:func:`._batch_writes.impulse_rows`):
        for a native environment to write its own impulses into (:meth:`_packed_writes`)."""
        return _rides.impulse_rows(len(self._worlds), self._replicated().shape[0])

    def _packed_writes(self, rows: np.ndarray) -> _rides.StepWrites:
        """The impulses an environment wrote into :meth:`_impulse_rows`' ``rows``, for the next
        :meth:`_step_state` as :meth:`_writes` would carry them (the same bits), without its
        checks and copies: for impulses the environment makes itself, finite and far within
        ``_SAFE_IMPULSE`` by construction (LunarLander's engines: a few N s at full
        throttle)."""
        return _rides.StepWrites.of_rows(rows, self._joint_rows)

    def _scatter_joints(self, rows, values, mask, column: int, name: str) -> None:
        """``values`` (checked) into a joint column of every world, on the threads."""
        refs = self._checked_refs(rows, joints=True)
        self._check_unlocked(f"WorldBatch.{name}")
        scatter = _views._scatter_joints.entry
        self._spread(len(self._worlds),
                     lambda lo, hi: scatter(refs, lo, hi, rows, values, mask, column))

    # -- snapshots --------------------------------------------------------------------------------
    def snapshot(self) -> BatchSnapshot:
        """Every world's :class:`~impulse2d.Snapshot`, for :meth:`restore`. Worlds whose stores
        hold the same bytes (copies of one world, as :meth:`replicate` makes them) share
        them in memory (``snapshot.share_buffers``)."""
        snapshots = tuple(w.snapshot() for w in self._worlds)
        share_buffers(snapshots)
        return BatchSnapshot(snapshots)

    def restore(self, snapshot: BatchSnapshot, worlds=None) -> None:
        """Put worlds back in their state of ``snapshot`` (of this batch): all of them
        (``worlds=None``), those of a sequence of indices, or those where a boolean mask of
        the batch's length is True. Only the worlds named are touched (the cost is theirs);
        a bad argument raises before any world changes."""
        if not isinstance(snapshot, BatchSnapshot):
            raise TypeError(f"snapshot must be a BatchSnapshot (from WorldBatch.snapshot()), "
                            f"got {type(snapshot).__name__}")
        if len(snapshot.worlds) != len(self._worlds):
            raise ValueError(f"snapshot holds {len(snapshot.worlds)} worlds, this batch "
                             f"{len(self._worlds)}")
        self._restore(snapshot, np.array(self._indices(worlds), dtype=np.int64))

    def _restore(self, snapshot: BatchSnapshot, chosen: np.ndarray) -> None:
        """:meth:`restore` of the worlds ``chosen`` (distinct indices, ascending, an int64
        array) from ``snapshot``, a snapshot of this batch: the native environments' restarts,
        whose indices and snapshot are their own (``restore``'s checks of its arguments, 9 us
        a call warm and about 100 us of a restarting step of 1,024 landers at load 13, are for
        a program's: BENCHMARKS.md session 29)."""
        mine, theirs = self._worlds, snapshot.worlds
        # (worlds untouched since their last restore from the same snapshot were checked then,
        # and their next restore is a copy: _batch_restore; when every one is, one call)
        if self._restores.again(chosen, theirs):
            return
        _, full = self._restores.split(chosen.tolist(), theirs)
        for k in full:
            s = theirs[k]
            if not isinstance(s, Snapshot) or s._uid != mine[k]._uid:
                raise ValueError(f"snapshot.worlds[{k}] is not a snapshot of worlds[{k}]")
            if mine[k]._lock.stepping:
                _lock.check(mine[k], "WorldBatch.restore")  # (raises, naming the call)
        self._restores.restore(chosen, full, theirs)

    # -- queries ----------------------------------------------------------------------------------
    def ray_cast_many(self, origins, translations, filter=None) -> _queries.RayBatch:
        """The nearest hit of each ray in each world: ``origins`` (worlds, rays, 2) and
        ``translations`` of that shape, or (rays, 2) or (2,) for every world alike. Returns a
        :class:`~impulse2d.queries.RayBatch` of (worlds, rays, ...) arrays, each world's part
        equal, bit for bit, to ``world.ray_cast_many(origins[k], translations[k])``. Cast in
        compiled code on the batch's :attr:`threads`, as its step is."""
        n = len(self._worlds)
        o = np.asarray(origins, dtype=np.float64) if _numeric(origins) else None
        if o is None or o.ndim != 3 or o.shape[0] != n or o.shape[2] != 2:
            raise ValueError(f"origins must be a ({n}, rays, 2) array of numbers")
        d = np.asarray(translations, dtype=np.float64) if _numeric(translations) else None
        if d is None or d.shape not in (o.shape, o.shape[1:], (2,)):
            raise ValueError(f"translations must have shape {o.shape}, {o.shape[1:]} or (2,)")
        if not (np.all(np.isfinite(o)) and np.all(np.isfinite(d))):
            raise ValueError("origins and translations must be finite")
        if max(np.abs(o).max(initial=0.0), np.abs(d).max(initial=0.0)) > HUGE:
            raise ValueError(f"origins and translations must lie within {HUGE:g} m of the "
                             "origin; check units")
        category, mask = _queries._filter(filter)._bits
        # (the translations given whole as they are: a broadcast view is read-only, and a
        # read-only array is another signature of the kernel, compiled again)
        d = np.ascontiguousarray(d if d.shape == o.shape else np.broadcast_to(d, o.shape))
        o = np.ascontiguousarray(o)
        r = o.shape[1]
        out = _queries.RayBatch(np.empty((n, r)), np.empty((n, r, 2)), np.empty((n, r, 2)),
                                np.empty((n, r), np.int64))
        ats, refresh = self._query_indexes()
        done = np.zeros(n, dtype=bool)
        cast = _lidar._cast_rays_many.entry
        self._spread(n, lambda lo, hi: cast(
            ats[lo:hi], refresh[lo:hi], CELL_SCALE, o[lo:hi], d[lo:hi], 1.0, category, mask,
            out.fraction[lo:hi], out.point[lo:hi], out.normal[lo:hi], out.shape[lo:hi],
            done[lo:hi]))
        # the spares refreshed are the worlds' indexes now (World._query_index = the spare)
        self._state.query_kind[refresh & done] = _seats.SPARE_INDEX
        for k in np.flatnonzero(~done):  # an index to grow or build again: World's own way
            one = _queries.ray_cast_many(self._worlds[k], o[k], d[k], filter)
            for column, part in zip(out, one):
                column[k] = part
        return out

    def _query_indexes(self) -> tuple:
        """Each world's query index as ``World.ray_cast_many`` finds it (``queries._index``):
        the one in place, else the spare, whose moving shapes the kernel bins again first
        (``refresh``), else one built anew. Returns the indexes' addresses and the refresh
        flags. Python looks at a world only if it was marked since the last cast (its spare
        checked against its stores) or its index is its own; after a batch step every index
        was dropped and every spare still holds, so usually at none."""
        state = self._state
        stale = np.flatnonzero(state.query_dirty).tolist()
        if stale:
            for k in stale:
                d = state.dicts[k]
                spare = d["_query_spare"]
                ok = (spare is not None and spare.shapes is d["_shapes"]
                      and spare.bodies is d["_bodies"] and spare.handles is d["_shape_handles"])
                state.query_at[k] = spare.address if ok else 0.0
            state.query_dirty[stale] = False
        kind = state.query_kind
        ats = state.query_at.copy()
        refresh = kind == _seats.NO_INDEX
        for k in np.flatnonzero((kind == _seats.OWN_INDEX)
                                | ((kind == _seats.SPARE_INDEX) & (ats == 0.0))).tolist():
            ats[k] = self._worlds[k]._query_index.address
        for k in np.flatnonzero(refresh & (ats == 0.0)).tolist():
            ats[k] = _queries._index(self._worlds[k]).address  # built anew
            refresh[k] = False
        return ats, refresh

    # -- checks -----------------------------------------------------------------------------------
    def _replicated(self) -> np.ndarray:
        if self._body_rows is None:
            raise ValueError("dense views need a batch of copies of one world: make it with "
                             "WorldBatch.replicate(world, n)")
        return self._body_rows

    def _checked_refs(self, rows, joints: bool = False, chosen=None):
        """The worlds' current references (of ``chosen`` only, in that order, if given), after
        checking that each of those worlds still has every template body (or joint)."""
        refs = self._state.current_refs(chosen)
        if not self._state.any_marked(_ready.ROWS_DIRTY):
            return refs  # (a world that lacks one stays marked: none does)
        lacks = self._lacking()
        bit = _LACKS_JOINT if joints else _LACKS_BODY
        bad = np.flatnonzero(lacks & bit) if chosen is None else \
            chosen[(lacks[chosen] & bit) != 0]
        if bad.shape[0]:
            what = "joint" if joints else "body"
            raise ValueError(f"worlds[{int(bad[0])}] no longer has every {what} of the "
                             "template (one was destroyed)")
        return refs

    def _lacking(self) -> np.ndarray:
        """Per world, whether it lacks a template body (:data:`_LACKS_BODY`) or joint
        (:data:`_LACKS_JOINT`): checked for the worlds marked since the last check only (a
        row is destroyed from Python, which marks the world), from the Python stores (the
        step never replaces the body and joint stores); a world that lacks one stays
        marked."""
        state = self._state
        marked = np.flatnonzero(state.rows_dirty).tolist()
        if marked:
            bodies, joints = self._body_rows, self._joint_rows
            lacks = state.lacks
            for k in marked:
                d = state.dicts[k]
                lacks[k] = (_LACKS_BODY * _missing(d["_bodies"].alive, bodies)
                            + _LACKS_JOINT * _missing(d["_joints"].alive, joints))
            state.rows_dirty[marked] = lacks[marked] != 0
        return state.lacks

    def _check_unlocked(self, what: str) -> None:
        if self._state.any_stepping():
            for w in self._worlds:
                _lock.check(w, what)  # (raises, naming the call)

    def _dense(self, value, name: str, width: int, bound) -> np.ndarray:
        shape = (len(self._worlds), self._body_rows.shape[0], width)
        a = np.asarray(value, dtype=np.float64) if _numeric(value) else None
        if a is None:
            raise TypeError(f"{name} must be a {shape} array of numbers")
        if a.shape != shape:
            raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} must be finite")
        if bound is not None and np.any(np.abs(a) > bound):
            raise ValueError(f"{name} must be within +-{bound:g}")
        return a

    def _indices(self, worlds) -> list:
        n = len(self._worlds)
        if worlds is None:
            return list(range(n))
        a = np.asarray(worlds) if _numeric(worlds, allow_bool=True) else None
        if a is None or a.ndim != 1:
            raise TypeError("worlds must be None, a sequence of indices or a boolean mask")
        if a.dtype == bool:
            if a.shape[0] != n:
                raise ValueError(f"a boolean mask for worlds must have length {n}, got "
                                 f"{a.shape[0]}")
            return [int(k) for k in np.flatnonzero(a)]
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise TypeError("worlds indices must be integers")
        if a.size and (a.min() < -n or a.max() >= n):
            raise ValueError(f"worlds indices must lie in [-{n}, {n})")
        return sorted({int(k) % n for k in a})


_LACKS_BODY, _LACKS_JOINT = 1, 2

_SAFE_IMPULSE = 1.0e300 * min(_validate.MIN_MASS, _validate.MIN_INERTIA)
"""N s (1e270). An impulse of at most this cannot overflow a velocity, so ``apply_impulses``
skips its check pass (the write's alone): a velocity is within ``MAX_VELOCITY`` (1e30: every
setter and write scales into it, the step clamps below it) and a body's inverse mass and
inertia within ``1 / MIN_MASS`` and ``1 / MIN_INERTIA`` (1e30: ``check_mass``), so
``|v + p / m|`` stays below 1e30 + 1e300."""


class _Meanwhile(Exception):
    """:meth:`WorldBatch._run_around`'s ``meanwhile`` raised ``cause`` after the kernel had
    run for ``seconds``."""

    def __init__(self, seconds: float, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.seconds = seconds
        self.cause = cause


def _in(sorted_indices: np.ndarray, k: int) -> bool:
    """Is ``k`` in the ascending int64 array ``sorted_indices``?"""
    at = int(np.searchsorted(sorted_indices, k))
    return at < sorted_indices.shape[0] and int(sorted_indices[at]) == k


def _missing(alive: np.ndarray, rows: np.ndarray) -> bool:
    """Whether any of ``rows`` is not a live row of a store (``alive``: its column)."""
    return bool(rows.shape[0]) and (int(rows.max()) >= alive.shape[0]
                                    or not alive[rows].all())


_WRITERS = {_batch.SET_VELOCITY: "set_velocities", _batch.ADD_FORCE: "apply_forces",
            _batch.ADD_IMPULSE: "apply_impulses"}


def _numeric(value, allow_bool: bool = False) -> bool:
    """Whether ``value`` converts to a NumPy array of numbers (not strings or objects)."""
    try:
        a = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return a.dtype.kind in ("biuf" if allow_bool else "iuf") or (a.size == 0)


def _cores() -> int:
    """The cores this process may run on (its affinity where the OS tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


__all__ = ["WorldBatch", "BatchSnapshot", "BatchState"]
