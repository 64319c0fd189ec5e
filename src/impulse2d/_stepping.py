"""Python's side of a world's step: the checks and calls around the step kernel.

:func:`step_world` (``World.step``), :func:`collide_world` (``World.step(0)``) and
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

from ._dynamics import direct_dense
from ._dynamics.lengths import write_lengths
from ._dynamics.step import (DENSE_KERNEL, FROM_MANIFOLDS, TO_MANIFOLDS, WHOLE, _continuous_kernel,
                             _fill_verbs, _settings_arguments, _step, _step_arguments,
                             _step_repeat)
from ._dynamics.verbs import CONTINUOUS, DIRECT_DENSE
from ._dynamics.world_ref import adopt_step_stores, stores_for_step
from ._sleep import wake_all
from ._stores_epoch import CHANGES as STORES_CHANGES
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


NOT_READY = (object(),) * 4
"""A world's ``_step_ready`` until its usual step's checks have held (:func:`step_world`), and
again after a change of what those checks read that none of the three kept comparisons sees:
the callbacks (their setters), the table of verbs' record (:func:`_ready`, a chain's first
segment), a restore (:mod:`.snapshot`). A world made or recycled starts with it
(``World.__init__``)."""


def step_world(world, dt: float) -> None:
    """Advance ``world`` by ``dt`` seconds (already validated).

    Python's share of a small world's step is a third of it (about 3 us of a box on the ground's
    9), so the common case reads what it needs directly: the settings packed once per change,
    the diagnostics' record only while they are (or were just) on, the stores' reference given
    the joint rows already fetched, and the step kernel's compiled entry point.

    The usual step (settings, joint rows and stores as at the last step, no callbacks,
    diagnostics or ``direct`` solver: :func:`_usual_step`) makes one call, into the kernel:
    the checks and calls of :func:`_step_checked`, which takes any other step, cost about 2 us
    (half of LunarLander's Python share of ``World.step``, measured 2026-11-24). Once those
    checks have held, the world keeps a ready flag (``_step_ready``: the stores' reference, with
    three things to compare) until something they read is written. Three of those things have
    writers too many or too far to clear the flag, and are compared instead: the joint rows
    (replaced in a dozen places, by sleep and wakes among them), the packed settings (any
    field's write clears them, and the settings object does not know its world) and the
    process's count of replaced stores (:mod:`impulse2d._stores_epoch`: whatever replaces a
    store or the reference bumps it, a restore that replaces one too). What is left is cleared
    by its writers (:data:`NOT_READY`): the callbacks, the table's record, a restore.
    The reference's record of its stores needs neither: Python rewrites it without a bump only
    to take stores the reference already holds (``sync_contacts``, ``put_contact_stores``);
    nor does the diagnostics' record, written only by a step that is not the usual one.
    Three comparisons where session 10 to 13 made seven: 101 / 136 ns a check (least /
    median) against 236 / 327 (``benchmarks/small_checks.py``, load 19, 2026-11-29)."""
    d = world.__dict__
    rows = d["_joint_index"]
    ready = d["_step_ready"]
    if (ready[0] is rows and ready[1] is d["_settings"]._derived
            and ready[2] == STORES_CHANGES.value):
        stores = ready[3]
    elif _usual_step(d, d["_settings"]._derived, rows):
        stores = d["_stores"]
        d["_step_ready"] = (rows, d["_settings"]._derived, STORES_CHANGES.value, stores)
    else:
        _step_checked(world, dt, 0.0)
        return
    gx, gy = d["_gravity"]
    t0 = perf_counter()
    contacts, constraints, joint_h, sleeping, fell, unswept = _step.entry(
        stores, d["_pairs_dirty"], dt, gx, gy, d["_sleepers"] != 0, rows["filtered"], WHOLE)
    if unswept > 0:
        _continuous_first(world, stores)
    seconds = perf_counter() - t0
    if contacts or constraints:
        adopt_step_stores(world, contacts, constraints)
    d["_pairs_dirty"] = False
    if sleeping >= 0:
        d["_step_seconds"] = seconds
        # _after_step, written out (one Python call fewer on every usual step)
        if joint_h > 0.0:
            d["_joint_inv_h"] = 1.0 / joint_h
        d["_sleepers"] = sleeping
        d["_fell_asleep"] = fell
        if fell > 0 and d["_joint_handles"]:
            d["_joint_index"] = None
        return
    d["_joint_index"] = None  # a jointed island woke: its joints join the rows (below)
    _step_checked(world, dt, seconds)


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


def _after_step(world, joint_h: float, sleeping: int, fell: int) -> None:
    """What every step records for Python after its kernel: the joints' reaction scale (the
    (sub)step their impulses were accumulated over; 0 when a sleeping world's step solved
    nothing, :func:`step_kernel`'s early return, which keeps the last), the sleeping counts,
    and the joint rows to rebuild when islands with joints fell asleep."""
    if joint_h > 0.0:
        world._joint_inv_h = 1.0 / joint_h
    world._sleepers = sleeping
    world._fell_asleep = fell
    if fell > 0 and world._joint_handles:
        world._joint_index = None  # leave the joints of the islands that fell asleep out


def _ready(world, dt: float, settings: tuple):
    """The joint rows and the stores' reference for a step with ``settings`` (packed), the
    table of verbs filled again first if the settings or the rows changed since it was."""
    rows = world._joint_rows()
    if settings is not world._verbs_for[0] or rows is not world._verbs_for[1]:
        world._step_ready = NOT_READY  # (the table is filled for other settings or rows)
        write_lengths(world)  # the settings' unit (WorldSettings.length_units_per_meter)
        world._step_settings[:] = settings  # in place: the stores' reference shares the row
        _fill_verbs(world, rows["by_type"],
                    lambda: _step.prepare(*_step_arguments(world, dt)))
        world._verbs_for = (settings, rows)
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
        rows, stores = _ready(world, dt, settings)
        gx, gy = world._gravity
        t0 = perf_counter()
        if _uses_lapack(world):
            with _single_blas():
                contacts, constraints, joint_h, sleeping, fell, unswept = _step.entry(
                    stores, bool(world._pairs_dirty), float(dt), float(gx), float(gy),
                    bool(world._sleepers), bool(rows["filtered"]), phase)
        else:
            contacts, constraints, joint_h, sleeping, fell, unswept = _step.entry(
                stores, bool(world._pairs_dirty), float(dt), float(gx), float(gy),
                bool(world._sleepers), bool(rows["filtered"]), phase)
        if unswept > 0:
            _continuous_first(world, stores)
        seconds += perf_counter() - t0
        adopt_step_stores(world, contacts, constraints)
        world._pairs_dirty = False
        if sleeping == -2:  # paused after the narrowphase: the callbacks, then the rest
            callbacks.run(world)
            phase = FROM_MANIFOLDS
            continue
        if sleeping >= 0:
            break
        world._joint_index = None  # a jointed island woke: its joints join the rows (above)
    world._step_seconds = seconds
    if world._verbs.item(DIRECT_DENSE) == -1:
        # The direct solver met a dense equality block and factored it with its own loops:
        # LAPACK's Cholesky for this world's next steps.
        world._verbs[DIRECT_DENSE] = DENSE_KERNEL.address()
    if joint_h < 0.0:
        raise ValueError(
            f"solver 'direct': an island of {int(-joint_h)} constraint rows is above "
            f"WorldSettings.direct_max_rows = {world.settings.direct_max_rows}; the step was "
            "not taken (no body moved). Raise direct_max_rows (Lemke's cost grows as the cube "
            "of the rows), or set direct_fallback to a solver for such steps, e.g. 'pgs'")
    _after_step(world, joint_h, sleeping, fell)


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
    rows, stores = _ready(world, 0.0, settings)
    gx, gy = world._gravity
    t0 = perf_counter()
    contacts, constraints, _, _, _, _ = _step.entry(
        stores, bool(world._pairs_dirty), 0.0, float(gx), float(gy), bool(world._sleepers),
        bool(rows["filtered"]), TO_MANIFOLDS)
    world._step_seconds = perf_counter() - t0
    adopt_step_stores(world, contacts, constraints)
    world._pairs_dirty = False
    if world._callbacks.active:
        world._callbacks.run(world)
    world._fell_asleep = 0  # nothing fell asleep (body events read it)


def step_world_repeat(world, dt: float, n: int, touching, forces, torques, starts,
                      first: bool, whole_dt: float, far_distance: float) -> tuple:
    """Up to ``n`` steps of ``dt`` (already validated) in one call into the engine, each the
    step :func:`step_world` would take, bit for bit; stops after the first step whose touching
    contacts' keys are no longer ``touching`` (int64, ascending), or that leaves Python
    something to do. The buffers and the far test: :func:`step_repeat_kernel`. Returns
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
        rows, stores = _ready(world, dt, settings)
        gx, gy = world._gravity
        t0 = perf_counter()
        contacts, constraints, joint_h, sleeping, fell, unswept, taken, woke, changed, far = \
            _step_repeat.entry(stores, bool(world._pairs_dirty), float(dt), float(gx),
                               float(gy), bool(world._sleepers), bool(rows["filtered"]),
                               int(n), touching, forces, torques, starts, bool(first),
                               float(whole_dt), float(far_distance))
        if unswept > 0:
            _continuous_first(world, stores)
        seconds += perf_counter() - t0
        adopt_step_stores(world, contacts, constraints)
        world._pairs_dirty = False
        if woke:
            world._joint_index = None  # a jointed island woke: its joints join the rows
        if taken > 0 or not woke:
            break
        first = False  # the buffers are filled; the retried step puts the forces back
    world._step_seconds = seconds
    if joint_h < 0.0:
        raise ValueError("the direct solver refused a step (step_world_repeat is not for it)")
    _after_step(world, joint_h, sleeping, fell)
    return taken, changed, far
