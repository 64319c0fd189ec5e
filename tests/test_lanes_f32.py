"""The contact passes in float32 (``WorldSettings.solver_precision``,
:mod:`impulse2d._dynamics.contact_lanes_f32`): the setting's validation and its place in
snapshots, a pyramid that stands, float32 trajectories within a bound of float64's, the same
bits for every thread count and in a batch, and packed single-precision code."""

from __future__ import annotations

import os
import re

import numba
import numpy as np
import pytest
from numba.core import types

import impulse2d as i2d
from impulse2d import _threads
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics import step as step_module
from impulse2d._dynamics.contact_lanes import sync_constraint_rows
from impulse2d._dynamics.contact_lanes_f32 import solve_contacts32, warm_start_contacts32
from impulse2d._dynamics.lane_layout import FIELDS, lane_rows
from impulse2d._dynamics.verbs import LANE_PREPARE, LANES
from impulse2d.scenes import build_scene, step_scene

NO_JIT = os.environ.get("NUMBA_DISABLE_JIT") == "1"
DT = 1.0 / 60.0


def _pyramid(precision, base=20, gravity=-10.0, **settings):
    world = i2d.World(gravity=(0.0, gravity), solver_precision=precision, enable_sleep=False,
                      **settings)
    info = build_scene(world, "pyramid", base=base)
    return world, info


def _positions(world):
    bodies = world._bodies
    dynamic = np.flatnonzero(bodies.alive & (bodies.type == DYNAMIC))
    return bodies.center[dynamic].copy(), bodies.angle[dynamic].copy()


def _copy(store):
    return type(store)(*(np.array(column, copy=True) for column in store))


def _run(world, info, steps):
    for k in range(steps):
        step_scene(world, info, k)
    return world


@pytest.mark.parametrize("value", ["float16", "single", None, 32])
def test_bad_precision_raises_and_changes_nothing(value):
    with pytest.raises(ValueError, match="solver_precision"):
        i2d.World(solver_precision=value)
    world = i2d.World(solver_precision="float32")
    with pytest.raises(ValueError, match="solver_precision"):
        world.settings.solver_precision = value
    assert world.settings.solver_precision == "float32"
    assert i2d.World().settings.solver_precision == "float64"


def test_a_float32_world_solves_in_float32_lanes_in_half_the_bytes():
    world = _run(*_pyramid("float32", base=8), 20)  # 36 boxes: lanes pay (MIN_BODIES)
    assert world._verbs[LANES] == step_module.LANES_F32_KERNEL.address()
    assert world._verbs[LANE_PREPARE] == step_module.PREPARE_F32_KERNEL.address()
    cs = world._constraints
    rows = lane_rows(cs.count.shape[0])
    # the float32 lanes of `rows` rows in the bytes of rows // 2 float64 ones (kept up to 2x)
    assert rows // 2 <= cs.lanes.shape[0] <= rows and cs.lanes.shape[1] == FIELDS
    # what the step keeps (the warm start's impulses) is float32 arithmetic, widened
    impulses = world._contacts.normal_impulse
    assert (impulses > 0).any()
    assert np.array_equal(impulses.astype(np.float32).astype(np.float64), impulses)
    pgs = _run(*_pyramid("float32", base=8, solver="pgs"), 5)
    assert pgs._verbs[LANES] == step_module.LANES_KERNEL.address()  # (float64: documented)
    assert pgs._verbs[LANE_PREPARE] == 0


def test_a_float32_world_reads_its_rows_back_from_its_float32_lanes():
    """What Python reads of the rows (``sync_constraint_rows``: the constraint rows, the state
    hash) comes from the float32 lanes, widened: each row's inverse masses are its bodies'
    rounded to float32, its normal a unit vector to float32's rounding, its anchors those of
    finite float32 values."""
    world = _run(*_pyramid("float32", base=8), 20)
    sync_constraint_rows(world)
    cs = world._constraints
    assert not cs.in_lanes.any() and cs.count.shape[0] > 0
    bodies = world._bodies
    for column, side in ((0, cs.body_a), (2, cs.body_b)):
        expected = bodies.inv_mass[side].astype(np.float32).astype(np.float64)
        assert np.array_equal(cs.inv_mass[:, column], expected)
    assert np.abs(np.hypot(cs.normal[:, 0], cs.normal[:, 1]) - 1.0).max() < 1e-6
    anchors = cs.r_a[:, 0]
    assert np.array_equal(anchors.astype(np.float32).astype(np.float64), anchors)
    assert np.isfinite(anchors).all() and (anchors != 0.0).any()


@pytest.mark.parametrize("scene, params", [("pyramid", {"base": 7}), ("bouncing_balls", {})])
def test_a_small_float32_world_is_a_float64_world_row_by_row(scene, params):
    """Under ``MIN_BODIES`` dynamic bodies (a pyramid of 28 boxes; five balls bouncing with
    restitution) a float32 world's contacts go row by row in float64, where lanes do not pay:
    its state after 120 steps is the float64 world's, bit for bit."""
    worlds = {}
    for precision in ("float64", "float32"):
        world = i2d.World(solver_precision=precision, enable_sleep=False)
        info = build_scene(world, scene, **params)
        worlds[precision] = _run(world, info, 120)
    assert worlds["float32"]._verbs[LANES] == step_module.ROWS_KERNEL.address()
    assert worlds["float32"].state_hash() == worlds["float64"].state_hash()
    assert worlds["float32"]._contacts.normal_impulse.any()


# A pyramid of 20 boxes a side (210 boxes of 1 m), sleeping off, 300 steps (5 s) at 60 Hz.
# Measured (BENCHMARKS.md, session 13, lanes38): every box within 30.3 mm of where it was built
# (the settling of 20 layers of soft contacts: 30.26 mm in float64, 30.25 in float32) and 3.6 mm
# sideways in float64, 4.0 in float32; float32's bodies 0.445 mm from float64's at 5 s and at
# 10 s alike (a resting state, not a drift). A float64 run with gravity one float32 ulp larger
# moves them 6.7 um: a settled small pyramid is not chaotic, so the ulp yardstick of the big
# scenes (BENCHMARKS.md) does not bound this; the bound is the contacts' own: the linear slop
# (5 mm), the penetration the solver leaves alone, of which float32 may use a fifth.
STEPS = 300
DROP = 0.0305  # m: the soft contacts' settling, 30.26 mm measured
SIDEWAYS = 0.005  # m: the linear slop
SPREAD = 0.001  # m: a fifth of the linear slop (0.445 mm measured)


def test_a_pyramid_stands_in_float32_as_in_float64():
    """Each box ends where it was built, less the settling of its soft contacts, in float32 as
    in float64, and float32's boxes within a fifth of the linear slop of float64's."""
    p0, _ = _positions(_pyramid("float64")[0])
    runs = {}
    for precision in ("float64", "float32"):
        world, info = _pyramid(precision)
        runs[precision] = _positions(_run(world, info, STEPS))
    for precision, (p, _) in runs.items():
        assert (p0[:, 1] - p[:, 1]).max() < DROP, precision
        assert np.abs(p[:, 0] - p0[:, 0]).max() < SIDEWAYS, precision
    assert np.abs(runs["float32"][0] - runs["float64"][0]).max() < SPREAD


@pytest.mark.skipif(not _threads._safe_layer(),
                    reason="Numba has no thread-safe threading layer here")
@pytest.mark.parametrize("diagnostics", [False, True])
def test_float32_is_the_same_bits_for_every_thread_count(monkeypatch, diagnostics):
    """Every pass parallel (``_threads.MIN_ROWS`` 1, as ``tests/test_threads.py``): the prepare
    into the float32 lanes, restitution and the copy back of the impulses go by the threads'
    pieces too; with the diagnostics on the rows are read from the float32 lanes between
    the passes."""
    monkeypatch.setattr(_threads, "MIN_ROWS", 1)
    monkeypatch.setattr(_threads, "MIN_BODIES", 1)
    hashes = set()
    for threads in (1, 2, 3):
        world, info = _pyramid("float32", base=12, threads=threads, diagnostics=diagnostics)
        hashes.add(_run(world, info, 40).state_hash())
    assert len(hashes) == 1


def test_measuring_a_float32_solve_changes_nothing():
    """The diagnostics read the rows between the passes, which the float32 entry fills from
    its lanes: the motion is the bits of the unmeasured world."""
    plain = _run(*_pyramid("float32", base=9), 40)
    measured = _run(*_pyramid("float32", base=9, diagnostics="exact"), 40)
    assert plain.state_hash(motion_only=True) == measured.state_hash(motion_only=True)
    stats = measured.solver_stats
    assert stats.contact_points > 0 and np.all(np.isfinite(stats.residuals))


@pytest.mark.parametrize("batch_threads", [1, 2])
def test_a_float32_world_in_a_batch_equals_itself_alone(batch_threads):
    def worlds():
        made = []
        for base, precision in ((8, "float32"), (10, "float64"), (12, "float32")):
            world = i2d.World(solver_precision=precision)
            build_scene(world, "pyramid", base=base)
            made.append(world)
        return made

    alone = worlds()
    for _ in range(60):
        for world in alone:
            world.step(DT)
    batch = i2d.WorldBatch(worlds(), threads=batch_threads)
    for _ in range(60):
        batch.step(DT)
    assert [w.state_hash() for w in batch.worlds] == [w.state_hash() for w in alone]


def _bounces(precision, restitutions, drop=2.0, radius=0.25, steps=90):
    """Each ball's first apex after its first bounce (its centre's height, m): ``len(restitutions)``
    balls 1 m apart dropped from ``drop`` (their lowest point) onto a static box, sleeping off."""
    world = i2d.World(gravity=(0.0, -10.0), solver_precision=precision, enable_sleep=False)
    world.create_body(type="static", position=(0.0, -0.5)).create_box(
        0.5 * len(restitutions) + 1.0, 0.5, restitution=0.0)
    balls = []
    for k, e in enumerate(restitutions):
        ball = world.create_body(type="dynamic", position=(k - 0.5 * len(restitutions),
                                                           drop + radius))
        ball.create_circle(radius, restitution=e)
        balls.append(ball)
    ys, vys = [], []
    for _ in range(steps):
        world.step(DT)
        ys.append([b.position[1] for b in balls])
        vys.append([b.linear_velocity[1] for b in balls])
    ys, vys = np.array(ys), np.array(vys)
    apex = []
    for k in range(len(balls)):
        up = np.flatnonzero(vys[:, k] > 0.0)
        first = up[0]
        down = np.flatnonzero(vys[first:, k] <= 0.0)
        apex.append(ys[first:first + down[0] + 1, k].max())
    return world, np.array(apex)


def test_restitution_on_float32_lanes_bounces_as_on_float64_ones():
    """Restitution reads the float32 lanes (widened) and writes them (rounded): 40 balls (the
    lanes pay) with restitution 0.5, 0.75 and 1 bounce to within 0.1 mm of float64's apexes,
    and those within 3 % of e^2 h (h = 2 m, the drop of the ball's lowest point)."""
    restitutions = [(0.5, 0.75, 1.0)[k % 3] for k in range(40)]
    world64, apex64 = _bounces("float64", restitutions)
    world32, apex32 = _bounces("float32", restitutions)
    assert world32._verbs[LANES] == step_module.LANES_F32_KERNEL.address()
    assert world64._verbs[LANES] == step_module.LANES_KERNEL.address()
    expected = np.array(restitutions) ** 2 * 2.0 + 0.25
    assert np.abs(apex64 - expected).max() < 0.03 * 2.0
    assert np.abs(apex32 - apex64).max() < 1e-4


def test_precision_travels_in_snapshots_and_a_change_midway_steps_on():
    """The setting is restored with a snapshot; a world switched to float64 midway and back
    steps on (its rows are read back from its lanes before they change precision, and a
    float32 prepare writes every lane a float32 pass reads: no value of the other precision is
    read)."""
    world, info = _pyramid("float32", base=8)
    _run(world, info, 20)
    snap = world.snapshot()
    world.settings.solver_precision = "float64"
    for k in range(20, 30):
        step_scene(world, info, k)
    assert world._verbs[LANES] == step_module.LANES_KERNEL.address()
    world.restore(snap)
    assert world.settings.solver_precision == "float32"
    copy, _ = _pyramid("float32", base=8)
    _run(copy, info, 20)
    for k in range(20, 40):
        step_scene(world, info, k)
        step_scene(copy, info, k)
    assert world.state_hash() == copy.state_hash()


def _has_avx2():
    try:
        with open("/proc/cpuinfo") as f:
            return " avx2" in f.read()
    except OSError:
        return False


@numba.njit(cache=False)
def _passes32(cs, bodies, lanes, n):
    """A soft step's warm start and biased pass on the float32 lanes ``lanes``."""
    warm_start_contacts32(cs, bodies, lanes, 0, n)
    solve_contacts32(cs, bodies, lanes, 0, n, 240.0, True, True, 0.0, 0.0, 3.0, False, 1600.0)


@pytest.mark.skipif(NO_JIT or not _has_avx2(), reason="machine code needs the JIT and AVX2")
def test_the_float32_passes_compile_to_packed_single_arithmetic():
    """Eight rows a ``ymm`` register: packed single (``ps``) multiplies on ``ymm`` registers (or
    ``zmm``, which LLVM uses for part of them on AVX-512: the Zen 4 machine of session 25),
    no fused multiply-add (the engine compiles without contraction) and no masked move (Zen 3
    microcodes masked stores: ``tests/test_contact_lanes.py``)."""
    world = _run(*_pyramid("float32", base=8), 2)
    cs, bodies = _copy(world._constraints), _copy(world._bodies)
    lanes = cs.lanes.reshape(cs.lanes.size).view(np.float32)
    _passes32(cs, bodies, lanes, cs.count.shape[0])  # (one loaded from the cache has no signature)
    for kernel, packed in ((solve_contacts32, 40), (warm_start_contacts32, 10)):
        signatures = {tuple(types.unliteral(t) for t in sig) for sig in kernel.signatures}
        assert signatures, kernel
        for signature in signatures:
            # compiled afresh: a kernel loaded from the cache has no assembly to show
            fresh = numba.njit(cache=False, error_model="numpy", _nrt=False)(kernel.py_func)
            fresh.compile(signature)
            asm = fresh.inspect_asm(signature)
            assert not re.search(r"\bvf(n)?m(add|sub)\w*", asm), (kernel, signature)
            assert len(re.findall(r"\bvmulps\s[^\n]*%[yz]mm", asm)) >= packed, (kernel, signature)
            assert not re.search(r"\bv(p)?maskmov\w*", asm), (kernel, signature)
            assert not re.search(r"\bv\w+pd\s[^\n]*%ymm", asm), (kernel, signature)
