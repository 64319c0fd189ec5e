"""Python's side of a world's step: the checks and calls around the step kernel.

:func:`world_step` (``World.step`` itself: the lock, ``dt``, the events, the clock),
:func:`step_world` (a step's checks and call), :func:`collide_world` (``World.step(0)``) and
:func:`step_world_repeat` (the layers' several steps in one call) make a world ready for its
step (the settings packed, the table of verbs filled, the stores' reference current), call the
compiled step (:mod:`._dynamics.step`) and record what it returns. A small world's step spends
about a fifth of its time here, so this code is tuned call by call.

It lives outside ``_dynamics/`` because it is plain Python: the kernel cache's stamp hashes
every file of ``_core/``, ``_collision/`` and ``_dynamics/`` (:mod:`._core.cache`), so an edit
of this module inside them made every kernel stale (15-20 minutes of CPU to compile again on the
2-core machine).
"""

from __future__ import annotations

from time import perf_counter

from . import _lock
from ._core.jit import CYCLE_COUNTER
from ._dynamics import direct_dense
from ._dynamics.lengths import write_lengths
from ._dynamics.contacts import FRICTION_MIXING, RESTITUTION_MIXING
from ._dynamics.step import (DENSE_KERNEL, FELL, FROM_MANIFOLDS, JOINTS_FILTERED, MIXING_STALE,
                             NEW_CONSTRAINTS, NEW_CONTACTS, PAUSED, REFUSED, REFUSED_ROWS,
                             SETTINGS_ROW, TO_MANIFOLDS, UNSWEPT, WHOLE, WOKE, _continuous_kernel,
                             _fill_verbs, _settings_arguments, fill_later, _step, _step_arguments,
                             _step_repeat)
from ._dynamics.verbs import CONTINUOUS, DIRECT_DENSE
from ._dynamics.world_ref import adopt_step_stores, stores_for_step
from ._profile_clock import UNTIMED
from ._step_entry import ALONE, usual_arguments
from ._sleep import wake_all
from ._stores_epoch import CHANGES as STORES_CHANGES
from ._validate import MAX_DT, MIN_DT, time_step
from .solver_stats import prepare_record


def _continuous_first(world, stores) -> None:
    """The sweep of the first step of ``world`` with a fast body: compile (or load) the
    continuous stage, point the world's table at it for the steps to come, and run it."""
    kernel = _continuous_kernel(world.settings)
    world._verbs[CONTINUOUS] = kernel.address()
    kernel.dispatcher(stores)


_BLAS = []


def _single_blas():
    """SciPy's OpenBLAS held to one thread (:class:`.direct_dense.SingleThreadedBlas`, found on
    first use)."""
    if not _BLAS:
        _BLAS.append(direct_dense.SingleThreadedBlas())
    return _BLAS[0]


def _uses_lapack(world) -> bool:
    """Whether the step of ``world`` may call LAPACK's Cholesky (its slot holds an address; 0:
    never asked, -1: asked by the last step; without the JIT, a Python function)."""
    slot = world._verbs.item(DIRECT_DENSE)
    return type(slot) is not int or slot > 0


_NEVER = object()
NOT_READY = (_NEVER, _NEVER, _NEVER, (0, 0, _NEVER), None)
"""A world's ``_step_ready`` until its usual step's checks have held (:func:`step_world`), and
again after a change of what those checks read that none of the three kept comparisons sees:
the callbacks (their setters), the table of verbs' record (:func:`_ready`, a chain's first
segment), a restore (:mod:`.snapshot`); and after a function is queued to run after the step
(``World.after_step``), which only :func:`world_step`'s other path runs. A world made or
recycled starts with it (``World.__init__``)."""


def world_step(world, dt: float = 1.0 / 60.0) -> None:
    """Advance the simulation by ``dt`` seconds (typically 1/60).

    Any ``dt`` from 1e-9 s to 1e6 s is stepped: a long frame (1.5 s after a breakpoint) is
    held by the speed limits (``WorldSettings.max_linear_speed``, a quarter turn per step),
    though one long step is coarser than several short ones. ``dt = 0`` (a paused game)
    updates the contacts (pairs, manifolds, the callbacks, contact and sensor begin/end
    events) and moves nothing: every pose and velocity stays bit for bit, sleep timers do
    not run, and the forces applied since the last step are kept for the next one (Box2D
    v3 skips its solver, which clears them, at a zero step). Then the functions queued
    by :meth:`after_step` run."""
    # ``World.step`` itself (world.py binds it), so that the usual step is one Python frame:
    # a plain float in range, no events, the ready flag holding (:func:`step_world`; it only
    # holds for packed settings, whose change asks the events again), then
    # :func:`step_world`'s call inline. Anything else (a dt to check, 0 or NaN included,
    # events, the checks) takes :func:`timed_world_step`.
    #
    # Two of the usual step's tests are proven instead of made (each ~10 bytecodes, ~200
    # instructions of a 5-ball step's ~22,000, callgrind): ``dt`` is the very float the flag
    # was made with (floats are immutable: the same value, already checked in range), else it
    # is checked; and the lock is not read, for the flag cannot hold while the world is
    # stepping (only a world with callbacks runs user code in its step: their setters clear
    # the flag, step_world makes it only without them, and they cannot be set from inside a
    # callback) nor while a function waits to run after the step (``World.after_step`` clears
    # it: the other path runs the queue). With the flag's own ``dt`` the kernel is called
    # with the flag's tuple of arguments as it is: Numba's entry takes a tuple, which a call
    # with three arguments builds and frees every step (~365 instructions). The call is
    # :data:`._step_entry.ALONE`'s, three numbers (the kernel's code, the reference, ``dt``),
    # Python's lock kept while no other thread can want it: not the kernel's own entry point,
    # which unboxes the reference and lets the lock go (~0.05 us of a 5-ball step's ~1.6 on
    # the AMD EPYC machine). Nor is the usual step timed: the profile reads the kernel's own
    # clock (:mod:`._profile_clock`; two ``perf_counter`` reads were ~0.13 us of a 5-ball
    # step's ~3 on the machine of session 23).
    ready = world._step_ready
    args = ready[3]
    if dt is not args[2]:
        if type(dt) is float and MIN_DT <= dt <= MAX_DT:
            args = (args[0], args[1], dt)
        else:
            ready = NOT_READY
    if (not world._events.on
            and ready[0] is world._joint_index and ready[1] is world._settings._derived
            and ready[2] == STORES_CHANGES.value):
        status = ALONE.entry(*args)
        if status:
            _after_unusual(world, dt, status, ready[4], None)
        else:
            world._step_seconds = UNTIMED
        world._query_index = None
        world.time += dt
        world.step_count += 1
        return
    timed_world_step(world, dt)


def timed_world_step(world, dt: float = 1.0 / 60.0) -> None:
    """:func:`world_step` for any step but the usual one, timed by Python; ``World.step``
    itself where the step kernel reads no clock (:data:`CYCLE_COUNTER`)."""
    lock = world._lock
    if lock.stepping:
        raise _lock.locked("World.step")
    dt = _step_other(world, dt)
    world._query_index = None
    world.time += dt
    world.step_count += 1
    if lock.after:
        lock.run_after()


if not CYCLE_COUNTER:
    # Where the step kernel reads no clock the profile has only Python's: World.step (world.py
    # binds this name) times every step.
    timed_world_step.__doc__ = world_step.__doc__
    world_step = timed_world_step


def _step_other(world, dt) -> float:
    """:func:`world_step` for any other step: ``dt`` checked, the events asked again when on
    or when the settings changed (and made when on), the step taken by :func:`step_world`
    (``dt = 0``: :func:`collide_world`). Returns ``dt`` as checked."""
    if type(dt) is not float or not MIN_DT <= dt <= MAX_DT:
        dt = time_step(dt, "dt")
    events = world._events
    settings = world._settings
    if events.on or settings._derived is None:  # on, or the settings just changed
        events.on = events.wanted(settings)
    if events.on:
        advance = collide_world if dt == 0.0 else step_world
        events.before_step(world)
        advance(world, dt)
        events.after_step(world, solved=dt != 0.0)
    elif dt != 0.0:
        step_world(world, dt)
    else:
        collide_world(world, dt)
    return dt


def step_world(world, dt: float) -> None:
    """Advance ``world`` by ``dt`` seconds (already validated). ``World.step``'s usual step
    (:func:`world_step`) runs this function's first branch inline; this is its other steps'.

    Python's share of a small world's step is a third of it (about 3 us of a box on the ground's
    9), so the common case reads what it needs directly: the settings packed once per change,
    the diagnostics' record only while they are (or were just) on, the stores' reference given
    the joint rows already fetched, and the step kernel's code called by
    :data:`._step_entry.ALONE`.

    The usual step (settings, joint rows and stores as at the last step, no callbacks,
    diagnostics or ``direct`` solver: :func:`_usual_step`) makes one call, into the kernel:
    the checks and calls of :func:`_step_checked`, which takes any other step, cost about 2 us
    (half of LunarLander's Python share of ``World.step``, measured 2026-11-24). Once those
    checks have held, the world keeps a ready flag (``_step_ready``: three things to compare,
    :data:`._step_entry.ALONE`'s arguments, made with this ``dt``, and the stores' reference,
    which it keeps alive) until something they read is written. Three of those things have
    writers too many or too far to clear the flag, and are compared instead: the joint rows
    (replaced in a dozen places, by sleep and wakes among them), the packed settings (any
    field's write clears them, and the settings object does not know its world) and the
    process's count of replaced stores (:mod:`impulse2d._stores_epoch`: whatever replaces a
    store or the reference bumps it, a restore that replaces one too). What is left is cleared
    by its writers (:data:`NOT_READY`): the callbacks, the table's record, a restore, a
    function queued to run after the step.
    The reference's record of its stores needs neither: Python rewrites it without a bump only
    to take stores the reference already holds (``sync_contacts``, ``put_contact_stores``);
    nor does the diagnostics' record, written only by a step that is not the usual one.
    Three comparisons where session 10 to 13 made seven: 101 / 136 ns a check (least /
    median) against 236 / 327 (``benchmarks/small_checks.py``, load 19, 2026-11-29).

    The kernel reads the rest of its inputs from the world's step row (gravity, the dirty
    pairs' flag, the sleepers, the joint rows' flag: :data:`._dynamics.step.STEP_ROW`) and
    writes its outputs there (the sleeping counts, the joints' reaction scale), so the call
    passes three arguments and returns one integer, 0 for the usual step: Python then only
    clocks it (the rest, :func:`_after_unusual`)."""
    d = world.__dict__
    rows = d["_joint_index"]
    ready = d["_step_ready"]
    if not (ready[0] is rows and ready[1] is d["_settings"]._derived
            and ready[2] == STORES_CHANGES.value):
        if not _usual_step(d, d["_settings"]._derived, rows):
            _step_checked(world, dt, 0.0)
            return
        stores = d["_stores"]
        d["_step_settings"][JOINTS_FILTERED] = rows["filtered"]
        ready = d["_step_ready"] = (rows, d["_settings"]._derived, STORES_CHANGES.value,
                                    usual_arguments(stores, dt), stores)
    code, reference, _ = ready[3]
    t0 = perf_counter()
    status = ALONE.entry(code, reference, dt)
    if status:
        _after_unusual(world, dt, status, ready[4], t0)
    else:
        d["_step_seconds"] = perf_counter() - t0


def _after_unusual(world, dt: float, status: int, stores, t0: float | None) -> None:
    """:func:`step_world` after a call of the step kernel that returned ``status`` (not 0)
    at ``t0`` (``perf_counter``; None: an untimed call, :func:`world_step`'s): the first sweep
    of a fast body, the new stores, the joint rows dropped when islands with joints fell
    asleep; or, when a jointed island woke, the step again with the rows rebuilt. (Untimed, the
    profile is the kernel's clock: a first sweep run here is not in it, and after a wake only
    the call that took the step is, the first having stopped at its wake stage.)"""
    if status & UNSWEPT:
        _continuous_first(world, stores)
    seconds = UNTIMED if t0 is None else perf_counter() - t0
    adopt_step_stores(world, status & NEW_CONTACTS, status & NEW_CONSTRAINTS)
    if not status & WOKE:
        world._step_seconds = seconds
        _drop_sleeping_joints(world, status)
        return
    world._joint_index = None  # a jointed island woke: its joints join the rows (below)
    fill_later(world)  # (or the step had sleepers and no wake stage yet: it did nothing)
    _step_checked(world, dt, 0.0 if t0 is None else seconds)


def _drop_sleeping_joints(world, status: int) -> None:
    """After a step that returned ``status``: when islands fell asleep (:data:`FELL`) in a
    world with joints, drop its joint rows, so that the next step's check builds them without
    the joints of those islands (:meth:`World._joint_rows`)."""
    if status & FELL and world._joint_handles:
        world._joint_index = None


def _usual_step(d: dict, settings, rows) -> bool:
    """Whether a world (``d``: its ``__dict__``) takes the usual step: the verbs are filled for
    these (packed) ``settings`` and joint ``rows``, the stores' reference is current, no
    diagnostics, no callbacks, no LAPACK (the direct solver's), one whole step. (Python's view
    of the contact store read unsynced, as stores_for_step reads it: a view a batch step left
    stale is not the reference's, and the property would sync it first.)"""
    s = d["_settings"]
    verbs_for = d["_verbs_for"]
    built = d["_stores_built_from"]
    callbacks = d["_callbacks"]
    return (settings is not None and settings is verbs_for[0] and rows is verbs_for[1]
            and built is not None and built[5] is rows and built[0] is d["_bodies"]
            and built[1] is d["_shapes"] and built[2] is d["_joints"]
            and built[3] is d["_contacts"] and built[4] is d["_constraints"]
            and built[6] is d["_diagnostics"] and not s.diagnostics
            and not built[6].size and callbacks.pair_filter is None
            and callbacks.pre_solve is None and s.solver != "direct")


def _ready(world, dt: float, settings: tuple, fill=_fill_verbs):
    """The joint rows and the stores' reference for a step with ``settings`` (packed), the
    table of verbs filled again first (by ``fill``, :func:`._dynamics.step._fill_verbs`'s
    arguments) if the settings or the rows changed since it was; the rows' flag written into
    the step row."""
    rows = world._joint_rows()
    if settings is not world._verbs_for[0] or rows is not world._verbs_for[1]:
        world._step_ready = NOT_READY  # (the table is filled for other settings or rows)
        write_lengths(world)  # the settings' unit (WorldSettings.length_units_per_meter)
        # in place: the stores' reference shares the row
        row = world._step_settings
        if (row[FRICTION_MIXING] != settings[FRICTION_MIXING]
                or row[RESTITUTION_MIXING] != settings[RESTITUTION_MIXING]):
            row[MIXING_STALE] = 1.0  # the contacts' coefficients were mixed by the old rules
        row[:SETTINGS_ROW] = settings
        fill(world, rows["by_type"], lambda: _step.prepare(*_step_arguments(world, dt)))
        world._verbs_for = (settings, rows)
    world._step_settings[JOINTS_FILTERED] = rows["filtered"]
    return rows, stores_for_step(world, rows)


def _step_checked(world, dt: float, seconds: float) -> None:
    """:func:`step_world` with every check: the settings (packed again after a change), the
    diagnostics' record, the callbacks' two calls, the verbs (filled again after a change of
    settings or joint rows), the stores' reference, LAPACK's thread count (the direct solver).
    ``seconds``: the kernel time of this step so far (a first call that stopped at its wake
    stage)."""
    s = world._settings
    settings = s._derived
    if settings is None:
        settings = _settings_arguments(s)
    if s.diagnostics or world._diagnostics.shape[0]:
        prepare_record(world)
    if settings is not world._verbs_for[0] and not s.enable_sleep:
        wake_all(world)  # sleeping was turned off (or the settings changed while it is off)
    callbacks = world._callbacks
    phase = TO_MANIFOLDS if callbacks.active else WHOLE
    while True:
        _, stores = _ready(world, dt, settings)
        t0 = perf_counter()
        if _uses_lapack(world):
            with _single_blas():
                status = _step.entry(stores, float(dt), phase)
        else:
            status = _step.entry(stores, float(dt), phase)
        if status & UNSWEPT:
            _continuous_first(world, stores)
        seconds += perf_counter() - t0
        adopt_step_stores(world, status & NEW_CONTACTS, status & NEW_CONSTRAINTS)
        if status & PAUSED:  # paused after the narrowphase: the callbacks, then the rest
            callbacks.run(world)
            phase = FROM_MANIFOLDS
            continue
        if not status & WOKE:
            break
        world._joint_index = None  # a jointed island woke: its joints join the rows (above)
        fill_later(world)  # (or the step had sleepers and no wake stage yet: it did nothing)
    world._step_seconds = seconds
    if world._verbs.item(DIRECT_DENSE) == -1:
        # The direct solver met a dense equality block and factored it with its own loops:
        # LAPACK's Cholesky for this world's next steps.
        world._verbs[DIRECT_DENSE] = DENSE_KERNEL.address()
    if status & REFUSED:
        raise ValueError(
            f"solver 'direct': an island of {int(world._step_settings[REFUSED_ROWS])} "
            "constraint rows is above "
            f"WorldSettings.direct_max_rows = {world.settings.direct_max_rows}; the step was "
            "not taken (no body moved). Raise direct_max_rows (Lemke's cost grows as the cube "
            "of the rows), or set direct_fallback to a solver for such steps, e.g. 'pgs'")
    _drop_sleeping_joints(world, status)


def collide_world(world, dt: float = 0.0) -> None:
    """``World.step(0)``: the step's first stages only (bounds, pairs, narrowphase: the
    :data:`TO_MANIFOLDS` phase that the callbacks already pause at), then the callbacks;
    no solver, no integration, no sleep timers, no continuous collision. So every pose and
    velocity stays bit for bit, the contacts are those of the bodies where they are now (a body
    moved by its position setter gets its new contacts), and the forces applied since the last
    step are kept for the next one. Box2D v3's ``b2World_Step`` at a zero time step does the
    same: it updates the pairs and collides, and skips ``b2Solve`` (which clears the forces);
    no ``1 / dt`` is ever formed. ``dt`` is ignored (``World.step`` passes 0)."""
    s = world._settings
    settings = s._derived
    if settings is None:
        settings = _settings_arguments(s)
    if settings is not world._verbs_for[0] and not s.enable_sleep:
        wake_all(world)  # as _step_checked: _ready below marks these settings as seen
    while True:
        _, stores = _ready(world, 0.0, settings)
        t0 = perf_counter()
        status = _step.entry(stores, 0.0, TO_MANIFOLDS)
        if not status & WOKE:
            break
        fill_later(world)  # (it gained a circle its narrowphase leaves out: nothing was done)
    world._step_seconds = perf_counter() - t0
    adopt_step_stores(world, status & NEW_CONTACTS, status & NEW_CONSTRAINTS)
    if world._callbacks.active:
        world._callbacks.run(world)
    world._fell_asleep = 0  # nothing fell asleep (body events read it)


def step_world_repeat(world, dt: float, n: int, touching, forces, torques, starts,
                      first: bool, whole_dt: float, far_distance: float) -> tuple:
    """Up to ``n`` steps of ``dt`` (already validated) in one call into the engine, each the
    step :func:`step_world` would take, bit for bit; stops after the first step whose touching
    contacts' keys are no longer ``touching`` (int64, ascending), or that leaves Python
    something to do. The buffers and the far test: :func:`.step_repeat_kernel`. Returns
    ``(taken, changed, far)``: the steps taken (at least 1 for ``n >= 1``), whether the
    touching keys now differ from ``touching``, the count of far bodies.

    For a world without events, callbacks, diagnostics or the direct solver (the caller,
    :meth:`World._step_repeat`, checks): a layer that runs several engine steps per step of its
    own (:mod:`impulse2d.compat`) pays Python's share of a step (a few microseconds) once."""
    s = world._settings
    settings = s._derived
    if settings is None:
        settings = _settings_arguments(s)
    if settings is not world._verbs_for[0] and not s.enable_sleep:
        wake_all(world)
    seconds = 0.0
    while True:
        _, stores = _ready(world, dt, settings)
        t0 = perf_counter()
        status, taken, changed, far = _step_repeat.entry(
            stores, float(dt), int(n), touching, forces, torques, starts, bool(first),
            float(whole_dt), float(far_distance))
        if status & UNSWEPT:
            _continuous_first(world, stores)
        seconds += perf_counter() - t0
        adopt_step_stores(world, status & NEW_CONTACTS, status & NEW_CONSTRAINTS)
        if status & WOKE:
            world._joint_index = None  # a jointed island woke: its joints join the rows
            fill_later(world)  # (or the step had sleepers and no wake stage yet)
        if taken > 0 or not status & WOKE:
            break
        first = False  # the buffers are filled; the retried step puts the forces back
    world._step_seconds = seconds
    if status & REFUSED:
        raise ValueError("the direct solver refused a step (step_world_repeat is not for it)")
    _drop_sleeping_joints(world, status)
    return taken, changed, far
