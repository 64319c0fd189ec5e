"""Compile (or load from the cache) the kernels ahead of time: ``impulse2d.warmup()``.

A world compiles what it uses the first time it steps (:mod:`._core.lazy`). This compiles the
same kernels without waiting for a world to need them: by default those of a world of contacts
under the default solver, the first run of almost every program; with ``all_kernels=True`` also
every solver, every joint type and chains, many worlds at once (``WorldBatch``) and the pybox2d
layer's worlds; with ``environments=True`` the native Gymnasium environments (a wheel ships
both: ``scripts/build_wheel.py``).
Each part is compiled by stepping a small world that uses it, so what is compiled is exactly
what a real world loads later.
"""

from __future__ import annotations

import sys
import time


def _contact_world(world):
    """A static ground and one body of every shape type, touching, so that every stage of the
    step and every manifold runs."""
    ground = world.create_body(type="static")
    ground.create_box(10.0, 0.5, center=(0.0, -0.5))
    ground.create_segment((-10.0, 2.0), (-8.0, 0.0))
    for k, make in enumerate((lambda b: b.create_box(0.5, 0.5),
                              lambda b: b.create_circle(0.5),
                              lambda b: b.create_capsule((-0.3, 0.0), (0.3, 0.0), 0.2),
                              lambda b: b.create_polygon([(-0.5, 0.0), (0.5, 0.0), (0.0, 0.6)]))):
        make(world.create_body(position=(-4.5 + 3.0 * k, 0.6)))


def _joint_world(world):
    """One joint of every type (with its springs, motors and limits on), on bodies above the
    contact world, and a fast bullet."""
    pivot = world.create_body(type="static", position=(0.0, 5.0))
    bob = world.create_body(position=(1.0, 5.0))
    bob.create_circle(0.1)
    world.create_revolute_joint(pivot, bob, (0.0, 5.0), enable_limit=True, lower_angle=-1.0,
                                upper_angle=1.0, enable_motor=True, max_motor_torque=1.0,
                                enable_spring=True, hertz=1.0)
    rope_end = world.create_body(position=(-1.0, 5.0))
    rope_end.create_circle(0.1)
    world.create_distance_joint(pivot, rope_end, (0.0, 5.0), (-1.0, 5.0))
    world.create_distance_joint(pivot, rope_end, (0.0, 5.0), (-1.0, 5.0), enable_spring=True,
                                hertz=2.0, min_length=0.5, max_length=1.5, enable_motor=True,
                                max_motor_force=1.0)
    slider = world.create_body(position=(2.0, 5.0))
    slider.create_box(0.1, 0.1)
    world.create_prismatic_joint(pivot, slider, (2.0, 5.0), (1.0, 1.0), enable_limit=True,
                                 lower=-1.0, upper=1.0, enable_motor=True,
                                 max_motor_force=1.0, enable_spring=True, hertz=1.0)
    glued = world.create_body(position=(-2.0, 5.0))
    glued.create_box(0.1, 0.1)
    world.create_weld_joint(pivot, glued, (-2.0, 5.0))
    world.create_weld_joint(pivot, glued, (-2.0, 5.0), linear_hertz=5.0, angular_hertz=5.0)
    tyre = world.create_body(position=(3.0, 5.0))
    tyre.create_circle(0.2)
    world.create_wheel_joint(pivot, tyre, (3.0, 5.0), (0.0, 1.0), enable_motor=True,
                             max_motor_torque=1.0, enable_limit=True, lower=-0.5, upper=0.5)
    world.create_mouse_joint(tyre, (3.0, 5.0), max_force=10.0)
    world.create_motor_joint(pivot, tyre, linear_offset=(3.0, 0.0), angular_offset=0.5)
    world.create_pulley_joint(bob, slider, (1.0, 7.0), (2.0, 7.0), (1.0, 5.0), (2.0, 5.0),
                              ratio=2.0)
    hinge = world.create_revolute_joint(pivot, bob, (0.0, 5.0))
    slide = world.create_prismatic_joint(pivot, slider, (2.0, 5.0), (1.0, 0.0))
    world.create_gear_joint(hinge, slide, ratio=0.5)
    dart = world.create_body(position=(0.0, 8.0), linear_velocity=(0.0, -100.0), bullet=True)
    dart.create_circle(0.05)  # fast: continuous collision


def _chain_world(world):
    """A chain with a box resting on it, beside the contact world (the chain narrowphase)."""
    world.create_body(type="static").create_chain([(16.0, 0.0), (14.0, 0.0), (12.0, 0.5)])
    world.create_body(position=(14.0, 0.5)).create_box(0.5, 0.5)


SHARED_CALLEES = (("soft_step", "soft_step_v31", "soft_step_revolute", "pgs"),
                  ("revolute_rows_entry", "distance_rows_entry", "prismatic_rows_entry",
                   "wheel_rows_entry", "custom_rows_entry"),
                  ("collide", "collide_chains", "collide_polygons"),
                  ("search_pairs", "grid_search"))
"""Units (by kernel name) that link the same callees besides the direct solver's levels, so
that split between two processes they would compile those twice: the contact solver (compiled
one after the other, the soft step took 9.4 s, ``soft_step_v31`` then 2.9 s and ``pgs`` 4.5 s;
``soft_step_revolute`` is the soft step with the revolute passes inline, 2026-11-30),
the joints' row exports (``put_axis_rows``, 3.2 s), the polygon manifold
(``manifold._face_manifold``, 2.0 s; ``collide_polygons`` is the narrowphase without its circle
routines, ``grid_search`` the global search by the grid alone: each shares its general unit's
callees, session 21). Found by Numba's compile events and by listing the
functions each unit's linking bitcode defines (2026-11-28). Every joint type's velocity and
position entries are one group too (:func:`_joint_entries`)."""


def _joint_entries(units):
    """The joint types' velocity and position entries (``joint_solver.*_entry`` less the row
    exports): they share the joints' rows (``jacobian_rows``), the revolute joint's ``prepare``
    and ``prepare_anchors`` (the prismatic and gear joints'), the weld joint's ``warm_start``
    (the motor joint's) and the gear's ``coordinate`` (its two entries). Split between two
    processes, as the plan split them by their estimates, both compiled those: 9-10 s of CPU in
    ``warmup --all`` at load 8-12 (``benchmarks/warmup_profile.py``, 2026-11-30 session 21)."""
    prefix = "impulse2d._dynamics.joint_solver."
    return [u for u in units if u.key.startswith(prefix) and u.key.endswith("_entry")
            and not u.key.endswith("_rows_entry")]


def _compile_ahead(progress: bool) -> None:
    """Every kernel the plans below load, in one plan over all processes, the batch's
    kernels in this process while the helpers finish (:func:`_batch_kernels`), and the pybox2d
    layer's worlds (:func:`.compat._b2warmup.warm_layer`: kernels of their own, none a unit)
    in this process as soon as the units they step with are compiled, while the helpers take
    the rest of the queue (:func:`.parallel.take_turns`; stepped after the plan, they took
    17.8 s of this process's CPU at load 15 with the other process ended: BENCHMARKS.md,
    session 25). The kernel of a feature off by default is left to the first world that asks:
    the solver diagnostics (22 s). The continuous stage with Box2D 2.3's rules
    (``continuous_box2d23``, off by default but on in every world of the pybox2d layer: 21.8 s
    of CPU at load 5-7) is in the plan.

    The direct solver's two levels go to one process: they share its row export, the contact
    prepare and the island sizes (split, both processes compiled those and, before the island
    solve became a unit of its own that both call by address, that too: 28 s of 410 s of
    compiling under load, measured with Numba's compile events); likewise
    :data:`SHARED_CALLEES`. The island solve (:data:`.step.ISLANDS_KERNEL`) goes where the plan
    puts it. The units the batch's world needs are this process's (it steps
    that world before the helpers deliver theirs)."""
    from ._core import lazy, parallel
    from ._dynamics.step import (DENSE_KERNEL, DIAGNOSTICS_KERNEL, DIRECT_ACCELERATION_KERNEL,
                                 SOLVER_KERNELS, compile_ahead, needed_units)
    from .compat import _b2warmup

    def layer():
        if progress:
            print(f"impulse2d warmup: {LAYER}", file=sys.stderr, flush=True)
        _b2warmup.warm_layer()

    # A helper starts at once on the joint types' entries (the largest group no work of this
    # process needs first), so that it starts and compiles while this process builds the
    # batch's world: 2.0-2.7 s of this process's CPU earlier than from the plan, at load 10-14
    # (benchmarks/warmup_timeline.py, session 29); the plan below takes it over. The batch's
    # world needs the pair search and the narrowphase in this process before a helper would
    # deliver them: no other early helper (the first compile's) takes them, and the processes
    # take the units in turn rather than by their estimates (parallel.take_turns).
    units = [u for u in lazy.REGISTRY.values() if u is not DIAGNOSTICS_KERNEL]
    parallel.hold_early(_joint_entries(units))
    world = _batch_world()
    parallel.take_turns(layer, _b2warmup.needed_units())
    by_name = {u.key.rsplit(".", 1)[1]: u for u in units}
    together = [(SOLVER_KERNELS["direct"], DIRECT_ACCELERATION_KERNEL, DENSE_KERNEL)]
    together += [[by_name[name] for name in group if name in by_name]
                 for group in SHARED_CALLEES]
    together.append(_joint_entries(units))
    pinned = needed_units(world, world._joint_rows()["by_type"]).values()
    compile_ahead(world, 1.0 / 60.0, units, together, pinned,
                  then=lambda: _batch_kernels(world))


LAYER = "the pybox2d layer's worlds (Gymnasium's Box2D environments)"


def _batch_world():
    """The world the batch is made of: contacts and a revolute joint with a motor."""
    from . import World
    world = World()
    _contact_world(world)
    world.create_revolute_joint(world.bodies[0], world.bodies[1], (-4.5, 0.6),
                                enable_motor=True, max_motor_torque=1.0)
    return world


def _batch_kernels(world) -> None:
    """A batch of two copies of ``world`` (:func:`_batch_world`), stepped, read, written, ray
    cast and restored in part (:func:`_restores`): every kernel of
    :class:`~impulse2d.WorldBatch`; and ``world``'s snapshot and islands."""
    import numpy as np
    from . import WorldBatch
    dt = 1.0 / 60.0
    batch = WorldBatch.replicate(world, 2)
    blank = batch.snapshot()
    batch.step(dt)
    shape = (2, len(batch.body_rows), 3)
    batch.get_positions()
    batch.get_touching()
    batch.get_state()
    batch.apply_impulses(np.zeros(shape))
    batch.set_motor_speeds(np.zeros((2, 1)))
    batch.ray_cast_many(np.zeros((2, 1, 2)), (0.0, -1.0))
    _restores(batch, blank, dt)
    world.step(1.0 / 60.0)
    world.islands  # the island labels (World.islands, is_awake = False)
    world.restore(world.snapshot())  # the snapshot's copy kernel


ENVIRONMENTS = "the native Gymnasium environments (LunarLander, BipedalWalker)"


def _environments() -> None:
    """Episodes of the native vector environments (:mod:`impulse2d.envs`, where Gymnasium is
    installed; LunarLander's discrete and continuous, BipedalWalker), three environments each
    on two threads, with random actions: their own kernels and those of the batch that only
    they reach. 250 steps, so that episodes end at different steps (some worlds restarted
    while the others step on) after contacts grew the worlds' stores, and end again (a world
    restored anew from the snapshot it was restored from)."""
    try:
        import gymnasium  # noqa: F401 (the extra the environments need)
    except ImportError:
        return
    from .envs.bipedal_walker import BipedalWalkerVectorEnv
    from .envs.lunar_lander import LunarLanderVectorEnv
    for make in (lambda: LunarLanderVectorEnv(3, threads=2),
                 lambda: LunarLanderVectorEnv(3, continuous=True, threads=2),
                 lambda: BipedalWalkerVectorEnv(3, threads=2)):
        envs = make()
        envs.reset(seed=0)
        envs.action_space.seed(0)
        for _ in range(250):
            envs.step(envs.action_space.sample())
        envs.close()


def _restores(batch, blank, dt: float) -> None:
    """The batch's restores of some of its worlds (:mod:`._batch_restore`), as an
    environment's restarts take them: ``blank``, a snapshot of the batch as built, restored
    into world 0 once the bodies have settled on the ground (its contact store grown since:
    put into the reference as it is; the batch's typed list of kept stores made), then into
    both worlds (another kept), then into world 0 again after a step (its reference put back
    into the batch's list); then the references of some worlds (``get_state(worlds)``). Each
    step of it loaded a kernel no other part of the warm-up does (found by Numba's compile
    events, ``benchmarks/warm_cover.py``, 2026-12-02)."""
    for _ in range(30):
        batch.step(dt)
    batch.restore(blank, [0])
    batch.step(dt)
    batch.restore(blank, [0])
    batch.restore(blank, [1])
    batch.step(dt)
    batch.restore(blank, [0])
    batch.get_state([1])


def warmup(all_kernels: bool = False, progress: bool = True, *,
           environments: bool = False) -> float:
    """Compile the kernels a world needs ahead of time, or load them from the cache.

    ``all_kernels``: every solver and joint type too, not only a world of contacts under the
    default solver. ``environments``: episodes of the native Gymnasium environments too (their
    kernels, and the batch's that only their restarts reach), where Gymnasium is installed; a
    choice of its own because it adds some 10-18 s to ``all_kernels``' 75-85 s on a 2-core
    machine (the episodes run after the plans, on one core). ``progress``: say on stderr what
    is being done (the compile notices of a first run come on top). Returns the seconds it
    took."""
    from . import World
    from .settings import SOLVERS

    t0 = time.perf_counter()
    plans = [("contacts, default solver", None, False)]
    if all_kernels:
        plans += [(f"contacts and every joint type, {solver} solver", solver, True)
                  for solver in SOLVERS]
        plans.append(("contacts and every joint type, direct solver at the acceleration level",
                      "direct", "acceleration"))
        if progress:
            print("impulse2d warmup: every kernel, many worlds at once (WorldBatch) and "
                  + LAYER, file=sys.stderr, flush=True)
        _compile_ahead(progress)
    for k, (what, solver, joints) in enumerate(plans):
        if progress:
            print(f"impulse2d warmup [{k + 1}/{len(plans)}]: {what}", file=sys.stderr, flush=True)
        world = World() if solver is None else World(solver=solver)
        _contact_world(world)
        if joints == "acceleration":
            world.settings.direct_level = "acceleration"
        if joints:
            _joint_world(world)
            _chain_world(world)
        world.step(1.0 / 60.0)
        if joints:
            world.islands  # the island labels (World.islands, is_awake = False), once
    if environments:
        # (after the plans, every unit compiled. Run in the pybox2d layer's turn instead, as
        # soon as their worlds' units were compiled, the warm-up took 574.7 and 677.1 s of
        # wall against 451.3 s here, the same CPU, single runs at load 5-8: BENCHMARKS.md,
        # session 31, warmF56)
        if progress:
            print(f"impulse2d warmup: {ENVIRONMENTS}", file=sys.stderr, flush=True)
        _environments()
    # the profile's clock: World.profile of a step Python did not time (the testbed reads it
    # every frame) measures the cycle counter's rate with a kernel of its own
    from ._profile_clock import ticks_per_second
    ticks_per_second()
    # the usual step's call, from a world's second step on (._step_entry: its argument types,
    # two addresses and dt)
    from ._step_entry import ALONE
    ALONE.prepare(0, 0, 0.0)
    # what a first step leaves to a helper while the world steps (the pair stage's incremental
    # path, the wake stage: .step.LATER_SLOTS), loaded here and in the cache before this
    # returns: a scene warmed up by running it loads no kernel mid-run
    from ._core.parallel import wait_later
    wait_later()

    seconds = time.perf_counter() - t0
    if progress:
        print(f"impulse2d warmup: done in {seconds:.1f} s", file=sys.stderr, flush=True)
    return seconds
