"""The wide contact solver (:mod:`impulse2d._dynamics.contact_lanes`): the same bits as the
one-constraint-at-a-time solver, rows read back from the lanes as the serial solver leaves
them, colour runs that never share a dynamic body, and SIMD code."""

from __future__ import annotations

import os
import re

import numba
from numba.core import types
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics import contact_lanes, step as step_module
from impulse2d._dynamics.constraint_graph import mark_colour_runs
from impulse2d._dynamics.contact_lanes import (add_lane_totals, apply_restitution_wide,
                                               rows_from_lanes, solve_contacts_wide,
                                               store_lane_impulses, sync_constraint_rows,
                                               warm_start_contacts_wide)
from impulse2d._dynamics.constraint_graph import COLOR_COUNT, color_contacts
from impulse2d._dynamics.contact_solver import (CONSTRAINT_LAYOUT, apply_restitution,
                                                contact_constraints, prepare_contacts,
                                                prepare_wide, rows_of, solve_contacts,
                                                warm_start_contacts)
from impulse2d._dynamics.lane_layout import CHUNK, FIELDS, lane_rows
from impulse2d._dynamics.solvers import add_sweep_totals
from impulse2d._dynamics.verbs import LANES
from impulse2d._dynamics.world_ref import sync_constraints
from impulse2d._stepping import NOT_READY
from impulse2d.scenes import build_scene, step_scene

NO_JIT = os.environ.get("NUMBA_DISABLE_JIT") == "1"
SCRATCH = ("lanes", "lane_end", "in_lanes")


@numba.njit(cache=False)
def _sweeps(cs, contacts, bodies, wide, inv_h, baumgarte, slop, contact_speed, speed_cap):
    """Prepare the rows (soft coefficients of 30 Hz at 240 Hz; into the lanes when ``wide``),
    warm start, then every pass the solvers run: the soft step's biased and relax passes,
    pgs's Baumgarte pass (the last sweep adds the totals), the totals of a pgs step whose
    sweeps stopped early, and restitution."""
    order = cs.contact.copy()
    n = order.shape[0]
    prepare_contacts(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, wide, 0)
    if wide:
        warm_start_contacts_wide(cs, bodies, 0, n)
        solve_contacts_wide(cs, bodies, 0, n, inv_h, True, True, 0.0, 0.0, contact_speed, False,
                            speed_cap)
        solve_contacts_wide(cs, bodies, 0, n, inv_h, False, True, 0.0, 0.0, contact_speed, True,
                            speed_cap)
        solve_contacts_wide(cs, bodies, 0, n, inv_h, True, False, baumgarte, slop, contact_speed,
                            True, speed_cap)
        add_lane_totals(cs, 0, n)
        apply_restitution_wide(cs, bodies, 0, n, 0.0, speed_cap, 0.0, -10.0, 0.5 / inv_h)
        store_lane_impulses(cs, 0, n)
    else:
        warm_start_contacts(cs, bodies, 0, n)
        solve_contacts(cs, bodies, 0, n, inv_h, True, True, 0.0, 0.0, contact_speed, False,
                       speed_cap)
        solve_contacts(cs, bodies, 0, n, inv_h, False, True, 0.0, 0.0, contact_speed, True,
                       speed_cap)
        solve_contacts(cs, bodies, 0, n, inv_h, True, False, baumgarte, slop, contact_speed,
                       True, speed_cap)
        add_sweep_totals(cs)
        apply_restitution(cs, bodies, 0, n, 0.0, speed_cap, 0.0, -10.0, 0.5 / inv_h)


@numba.njit(cache=False)
def _read_back(cs):
    rows_from_lanes(cs)  # a kernel without a Python wrapper


@numba.njit(cache=False)
def _mark(lane_end, starts):
    mark_colour_runs(lane_end, starts)  # a kernel without a Python wrapper


def _copy(store):
    return type(store)(*(np.array(column, copy=True) for column in store))


def _stepped(scene, steps, **params):
    world = i2d.World()
    info = build_scene(world, scene, **params)
    for _ in range(steps):
        world.step(1.0 / 60.0)
    sync_constraints(world)
    assert world._constraints.count.shape[0] > 0
    return world, info


@pytest.mark.parametrize("scene, steps, params", [
    ("pyramid", 30, {"base": 12}),           # boxes: two-point manifolds, a static ground
    ("rain", 90, {"count": 300}),            # circles: one-point manifolds, many colours
    ("many_pyramids", 20, {"grid": 3, "base": 5}),
])
def test_wide_sweeps_give_the_bits_of_the_serial_sweeps(scene, steps, params):
    """Prepared into the lanes and solved there, the rows give the serial solver's bodies and,
    read back, its rows: every column, bit for bit (a missing second point's anchors and
    masses, which no verb reads, are zeros)."""
    world, _ = _stepped(scene, steps, **params)
    # Velocities that make every row work: the settled stack's plus a spin and a drift, so the
    # friction clamps, the normal clamps and the speculative rows all take part; every contact
    # bouncy, so restitution does too.
    rng = np.random.default_rng(7)
    bodies = _copy(world._bodies)
    dynamic = bodies.type == DYNAMIC
    bodies.v[dynamic] += rng.normal(0.0, 0.5, (int(dynamic.sum()), 2))
    bodies.w[dynamic] += rng.normal(0.0, 1.0, int(dynamic.sum()))
    bodies.dp[dynamic] += rng.normal(0.0, 0.002, (int(dynamic.sum()), 2))
    contacts = _copy(world._contacts)
    contacts.restitution[:] = 0.5
    results = []
    for wide in (False, True):
        cs, b = _copy(world._constraints), _copy(bodies)
        cs.lanes[:] = rng.normal(0.0, 1.0, cs.lanes.shape)  # kept lanes hold an older step's
        _sweeps(cs, contacts, b, wide, 240.0, 0.2, 0.005, 3.0, 1600.0)
        results.append((cs, b))
    (cs0, b0), (cs1, b1) = results
    assert np.abs(b0.v - bodies.v).max() > 1e-3  # the sweeps did move the bodies
    assert (cs0.max_normal_impulse > 0).any() and (cs0.unclamped != 0).any()
    for name in ("v", "w"):
        assert np.array_equal(getattr(b0, name), getattr(b1, name)), name
    assert cs1.in_lanes.all() and not cs0.in_lanes.any()
    # what the step keeps, without reading the rest back
    for name in ("normal_impulse", "tangent_impulse", "max_normal_impulse",
                 "total_normal_impulse", "total_tangent_impulse", "relative_velocity",
                 "restitution", "count", "contact", "body_a", "body_b"):
        assert np.array_equal(getattr(cs0, name), getattr(cs1, name)), name
    _read_back(cs1)
    missing = cs0.count < 2
    for name in ("r_a", "r_b", "base_separation", "normal_mass", "tangent_mass"):
        getattr(cs0, name)[missing, 1] = 0.0
    for name in CONSTRAINT_LAYOUT:
        if name not in SCRATCH:
            assert np.array_equal(getattr(cs0, name), getattr(cs1, name)), name


@numba.njit(cache=False)
def _prepare(cs, order, contacts, bodies, color, starts, cursors, replayed):
    """The float64 lanes' prepare (30 Hz soft coefficients at 240 Hz) in the rows' order, or
    replayed in the colouring's order of the contacts."""
    if replayed:
        prepare_wide(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, 0, color,
                     starts, cursors)
    else:
        prepare_contacts(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3,
                         True, 0)


@pytest.mark.parametrize("scene, steps, params", [
    ("pyramid", 30, {"base": 12}),           # boxes: 7 colours, a static ground
    ("rain", 90, {"count": 300}),            # circles: one-point manifolds, more colours
])
def test_the_prepare_replayed_in_contact_order_writes_what_the_rows_order_writes(scene, steps,
                                                                                 params):
    """The float64 prepare visiting the rows in the colouring's pass over the contacts (each
    contact its colour's next row) writes every row and lane bit for bit as the rows' order
    does, its cursors left at each colour's end."""
    world, _ = _stepped(scene, steps, **params)
    contacts, bodies = world._contacts, world._bodies
    order, starts = color_contacts(contacts.count, contacts.body_a, contacts.body_b,
                                   bodies.type, bodies.asleep, bodies.type.shape[0],
                                   COLOR_COUNT, np.empty(0, np.int64), -1)
    color = np.full(contacts.count.shape[0], -1, np.int64)
    for c in range(COLOR_COUNT + 1):
        color[order[starts[c]:starts[c + 1]]] = c
    assert (np.diff(starts) > 0).sum() >= 3  # rows of several colours, interleaved
    older = np.random.default_rng(3).normal(0.0, 1.0, world._constraints.lanes.shape)
    results = []
    for replayed in (False, True):
        cs = _copy(world._constraints)
        cs.lanes[:] = older  # kept lanes hold an older step's
        cursors = np.full(COLOR_COUNT + 1, -7, np.int64)
        _prepare(cs, order.copy(), contacts, bodies, color, starts, cursors, replayed)
        results.append(cs)
    assert cursors.tolist() == starts[1:].tolist()
    rows, replayed = results
    assert np.array_equal(rows.contact, order)
    for name in CONSTRAINT_LAYOUT:
        if name != "lanes":
            assert np.array_equal(getattr(rows, name), getattr(replayed, name)), name
    # a missing second point's lanes are left as they were: the same random values both ways
    assert np.array_equal(rows.lanes, replayed.lanes)


def test_a_wide_step_reads_its_rows_back_for_python():
    """After a step of a wide solver the rows hold the impulses the step keeps; the rest is
    read back from the lanes when Python reads the rows (the state hash, the constraint
    rows), once."""
    world, _ = _stepped("pyramid", 20, base=8)  # 36 boxes: solved in lanes
    assert world._verbs[LANES] == step_module.LANES_KERNEL.address()
    cs = world._constraints
    assert cs.in_lanes.all()
    contacts = world._contacts
    assert np.array_equal(contacts.total_normal_impulse[cs.contact],
                          cs.total_normal_impulse)  # kept: the step's store_impulses
    assert (cs.total_normal_impulse > 0).any()
    before = cs.normal_mass.copy()
    sync_constraint_rows(world)
    assert not cs.in_lanes.any()
    filled = cs.normal_mass[cs.count == 2]
    assert (filled > 0).all() and not np.array_equal(before, cs.normal_mass)
    rows = world.constraint_rows()
    normal = [r for r in rows if r.kind == "contact_normal"]
    assert normal and all(r.effective_mass > 0 for r in normal)


@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
def test_a_small_world_solves_row_by_row_with_the_same_bits(monkeypatch, solver):
    """Below MIN_BODIES dynamic bodies a world's contact passes are the row-at-a-time ones
    (compiled on their own, called by address as the lanes are), and the motion is the same
    bits either way."""
    def run(min_bodies):
        monkeypatch.setattr(contact_lanes, "MIN_BODIES", min_bodies)
        world = i2d.World(solver=solver)
        info = build_scene(world, "pyramid", base=8)  # 36 boxes
        for k in range(60):
            step_scene(world, info, k)
        sync_constraints(world)
        return world

    default = contact_lanes.MIN_BODIES
    rows, lanes = run(1000), run(default)
    assert rows._verbs[LANES] == step_module.ROWS_KERNEL.address()
    assert lanes._verbs[LANES] == step_module.LANES_KERNEL.address()
    assert not rows._constraints.in_lanes.any() and lanes._constraints.in_lanes.all()
    assert rows.state_hash(motion_only=True) == lanes.state_hash(motion_only=True)
    for name in ("normal_impulse", "tangent_impulse", "total_normal_impulse",
                 "total_tangent_impulse"):
        assert np.array_equal(getattr(rows._contacts, name), getattr(lanes._contacts, name))


def test_lanes_come_when_a_world_first_solves_in_them(monkeypatch):
    """A world solved row by row carries no lanes (lane_rows_for); when its table of verbs is
    refilled with the lanes (here: MIN_BODIES lowered, the settings' refill forced) at a step
    whose row count holds, the step still makes it a store with lanes for every row, and the
    motion is the bits of the world that stayed row by row."""
    def run(switch):
        monkeypatch.setattr(contact_lanes, "MIN_BODIES", 1000)
        world = i2d.World(enable_sleep=False)
        info = build_scene(world, "pyramid", base=8)  # 36 boxes
        for k in range(60):
            step_scene(world, info, k)
        sync_constraints(world)
        before = world._constraints
        assert before.lanes.shape == (0, FIELDS) and before.count.shape[0] > 0
        if switch:
            monkeypatch.setattr(contact_lanes, "MIN_BODIES", 1)
            world._verbs_for = (None, None)
            world._step_ready = NOT_READY  # as every writer of _verbs_for does (chains.py)
        step_scene(world, info, 60)
        sync_constraints(world)
        after = world._constraints
        assert after.count.shape[0] == before.count.shape[0]  # the count held: the lanes did not
        for k in range(61, 90):
            step_scene(world, info, k)
        sync_constraints(world)
        return world, after

    rows, kept = run(False)
    lanes, grown = run(True)
    assert rows._verbs[LANES] == step_module.ROWS_KERNEL.address()
    assert lanes._verbs[LANES] == step_module.LANES_KERNEL.address()
    assert kept.lanes.shape[0] == 0 and not kept.in_lanes.any()
    assert grown.lanes.shape == (lane_rows(grown.count.shape[0]), FIELDS) and grown.in_lanes.all()
    assert rows.state_hash(motion_only=True) == lanes.state_hash(motion_only=True)


@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
def test_measuring_a_wide_solve_changes_nothing(solver):
    """The diagnostics read the rows, which a wide solve fills from the lanes for them: with
    them on, a world solved in lanes steps to the same bits, and they see its impulses."""
    def run(diagnostics):
        world = i2d.World(solver=solver, diagnostics=diagnostics, enable_sleep=False)
        info = build_scene(world, "pyramid", base=9)  # 45 boxes: in lanes
        for k in range(40):
            step_scene(world, info, k)
        return world

    plain, measured = run(False), run("exact")
    assert measured._verbs[LANES] == step_module.LANES_KERNEL.address()
    assert plain.state_hash(motion_only=True) == measured.state_hash(motion_only=True)
    stats = measured.solver_stats
    assert stats.contact_points > 0 and np.all(np.isfinite(stats.residuals))
    assert stats.residuals[-1] < stats.residuals[0]  # the impulses it read converge


@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
def test_a_wide_solve_measures_what_its_rows_measure(monkeypatch, solver):
    """The diagnostics' own unit fills the rows from the lanes at each point a solver measures
    (``verbs.LANE_COLUMNS``: the solvers no longer compile that copy): a world solved in
    lanes records, bit for bit, what the same world solved row by row records (whose rows are
    always current), every residual, count and the exact solve's distances."""
    def run(min_bodies):
        monkeypatch.setattr(contact_lanes, "MIN_BODIES", min_bodies)
        world = i2d.World(solver=solver, diagnostics="exact", enable_sleep=False)
        info = build_scene(world, "pyramid", base=9)  # 45 boxes
        records = []
        for k in range(30):
            step_scene(world, info, k)
            records.append(world._diagnostics.copy())
        return world, np.array(records)

    default = contact_lanes.MIN_BODIES
    (rows, by_rows), (lanes, in_lanes) = run(1000), run(default)
    assert rows._verbs[LANES] == step_module.ROWS_KERNEL.address()
    assert lanes._verbs[LANES] == step_module.LANES_KERNEL.address()
    assert lanes._constraints.in_lanes.all()
    assert rows.state_hash(motion_only=True) == lanes.state_hash(motion_only=True)
    assert np.array_equal(by_rows, in_lanes, equal_nan=True)
    stats = lanes.solver_stats
    assert stats.contact_points > 0 and stats.residuals[-1] < stats.residuals[0]


@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
def test_restitution_by_the_contact_passes_entry_bounces_alike_in_lanes_and_rows(monkeypatch,
                                                                                solver):
    """Restitution is a verb of the contact passes' entry (``LANE_RESTITUTION``: the wide
    routine in ``lanes_entry``, the row-at-a-time one in ``rows_entry``), not compiled into the
    solvers: 40 balls (e = 0.7) dropped from 2 m onto the ground bounce to the same bits either
    way, each leaving the ground at about e times its impact speed, sqrt(2 g h)."""
    e, drop, g = 0.7, 2.0, 10.0

    def run(min_bodies):
        monkeypatch.setattr(contact_lanes, "MIN_BODIES", min_bodies)
        world = i2d.World(solver=solver, gravity=(0.0, -g), enable_sleep=False)
        ground = world.create_body(type="static")
        ground.create_box(50.0, 0.5, center=(0.0, -0.5), restitution=e)
        balls = [world.create_body(position=(-20.0 + k, drop + 0.25)) for k in range(40)]
        for ball in balls:
            ball.create_circle(0.25, restitution=e)
        rebound = 0.0
        for _ in range(60):  # the impact at ~0.63 s (38 steps)
            world.step(1.0 / 60.0)
            rebound = max(rebound, float(world.get_velocities()[1:, 1].min()))
        return world, rebound

    default = contact_lanes.MIN_BODIES
    (rows, rebound_rows), (lanes, rebound_lanes) = run(1000), run(default)
    assert rows._verbs[LANES] == step_module.ROWS_KERNEL.address()
    assert lanes._verbs[LANES] == step_module.LANES_KERNEL.address()
    assert rows.state_hash(motion_only=True) == lanes.state_hash(motion_only=True)
    assert rebound_rows == rebound_lanes
    assert rebound_lanes == pytest.approx(e * np.sqrt(2.0 * g * drop), rel=0.1)


def test_colour_runs_never_share_a_dynamic_body_and_the_overflow_runs_alone():
    world, _ = _stepped("pyramid", 10, base=20)
    cs = world._constraints
    end = cs.lane_end
    n = end.shape[0]
    q, runs = 0, 0
    while q < n:
        assert q < end[q] <= n
        rows = range(q, end[q])
        bodies = [int(b) for r in rows for b in (cs.body_a[r], cs.body_b[r])
                  if world._bodies.type[b] == DYNAMIC]
        assert len(bodies) == len(set(bodies))
        q, runs = end[q], runs + 1
    assert 3 <= runs <= 24  # a pyramid colours in a handful of colours, no overflow
    starts = np.array([0, 3, 3, 5, 8], dtype=np.int64)  # two colours, one empty, overflow 5:8
    lanes = np.zeros(8, dtype=np.int64)
    _mark(lanes, starts)
    assert lanes.tolist() == [3, 3, 3, 5, 5, 6, 7, 8]


def _has_avx2():
    try:
        with open("/proc/cpuinfo") as f:
            return " avx2" in f.read()
    except OSError:
        return False


@pytest.mark.skipif(NO_JIT or not _has_avx2(), reason="machine code needs the JIT and AVX2")
def test_the_lane_loops_compile_to_packed_double_arithmetic():
    """The point of the layout: LLVM packs four rows into each ``ymm`` register (AVX2), eight
    into each ``zmm`` (AVX-512: the Zen 4 machine of session 25). Counted in the machine code
    of the compiled passes: packed (``pd``) multiplies on ``ymm`` or ``zmm`` registers (the
    sweep's rows have ~70 multiplies, the warm start's ~20, four rows at a time), no fused
    multiply-add (the engine compiles without contraction, for the bits), and no masked move
    (``vmaskmovpd``/``vpmaskmov``): a masked store is a store under a condition, which AMD's
    Zen 2 and 3 microcode (on the Zen 3 machine of session 10 the passes ran at half the Intel
    machine's speed with 19 of them), and a masked load, a load sunk into a condition's arm,
    costs about twice a plain load and its blend there (``benchmarks/lanes_masked.py``)."""
    world, _ = _stepped("pyramid", 2, base=4)  # 10 boxes: solved row by row, so no lanes
    cs = _copy(world._constraints)
    assert cs.lanes.shape[0] == 0
    cs = cs._replace(lanes=np.zeros((lane_rows(cs.count.shape[0]), FIELDS)))
    # and colour runs, which a world solved row by row leaves unmarked: each row a run of its
    # own (as the overflow colour's), valid in any order (the sweep walks q = lane_end[q])
    cs.lane_end[:] = np.arange(1, cs.count.shape[0] + 1)
    _sweeps(cs, _copy(world._contacts), _copy(world._bodies), True, 240.0, 0.2, 0.005, 3.0,
            1600.0)
    for kernel, packed in ((solve_contacts_wide, 40), (warm_start_contacts_wide, 10)):
        assert kernel.signatures
        # every specialisation met, and the one with run-time flags that the compiled entry
        # (lanes_entry) calls: there a flag's branch inside the rows' loop is no constant
        signatures = {tuple(types.unliteral(t) for t in sig) for sig in kernel.signatures}
        for signature in signatures | set(kernel.signatures):
            # compiled afresh: a kernel loaded from the cache has no assembly to show
            fresh = numba.njit(cache=False, error_model="numpy", _nrt=False)(kernel.py_func)
            fresh.compile(signature)
            asm = fresh.inspect_asm(signature)
            assert not re.search(r"\bvf(n)?m(add|sub)\w*", asm), (kernel, signature)
            assert len(re.findall(r"\bvmulpd\s[^\n]*%[yz]mm", asm)) >= packed, (kernel, signature)
            assert not re.search(r"\bv(p)?maskmov\w*", asm), (kernel, signature)
            if kernel is warm_start_contacts_wide:
                # the bodies' velocities loaded one body at a time (lane_layout.scalar_index):
                # as AVX-512 gathers they made the warm start 1.12-1.15x slower on Zen 4 (the
                # biased and relax passes' gaps loop keeps its gathers of the in-step motions,
                # which pay there)
                assert not re.search(r"\bv(p)?gather\w*", asm), (kernel, signature)
            # the pass's scratch chunk is not zero-filled (lane_layout.scratch_chunk): no
            # memset of its 4 KB on every call (cgutils.alloca_once's, until session 17)
            assert "memset" not in asm, (kernel, signature)


def test_the_lanes_are_whole_chunks_of_rows():
    """Every chunk has the literal stride the vectoriser needs, the last one too: the lanes
    are padded to whole chunks, and a world's store is allocated so."""
    assert [lane_rows(n) for n in (0, 1, CHUNK - 1, CHUNK, CHUNK + 1)] == [
        0, CHUNK, CHUNK, CHUNK, 2 * CHUNK]
    world, _ = _stepped("pyramid", 5, base=12)  # 78 boxes: more than one chunk of rows
    cs = world._constraints
    n = cs.count.shape[0]
    assert n > CHUNK
    assert cs.lanes.shape == (lane_rows(n), FIELDS)


@numba.njit(cache=False)
def _rows_of(cs, lo, hi):
    return rows_of(cs, lo, hi)


def test_rows_of_cuts_the_rows_numpys_slices_cut_in_the_same_memory():
    """``rows_of`` cuts each column by a header of its own (``lane_layout.row_range``), not
    Numba's slice: the same rows, shapes and memory as NumPy's ``[lo:hi]``, for empty, inner,
    tail and whole ranges; the lanes and their runs stay the whole store's."""
    n = 13
    cs = contact_constraints(n)
    rng = np.random.default_rng(3)
    for column in cs:
        column[...] = rng.integers(0, 2, column.shape) if column.dtype == np.bool_ else (
            rng.integers(-50, 50, column.shape).astype(column.dtype))
    for lo, hi in ((0, 0), (3, 3), (2, 9), (5, n), (0, n), (n, n)):
        cut = _rows_of(cs, lo, hi)
        for name, whole, part in zip(cs._fields, cs, cut):
            if name in ("lanes", "lane_end"):
                assert part.shape == whole.shape and np.shares_memory(part, whole), name
                continue
            expected = whole[lo:hi]
            assert part.shape == expected.shape and part.dtype == expected.dtype, name
            assert np.array_equal(part, expected), name
            if hi > lo:
                assert part.__array_interface__["data"][0] == \
                    expected.__array_interface__["data"][0], name
    cut = _rows_of(cs, 4, 7)
    cut.normal_impulse[1, 0] = 123.0  # a view: written through to row 5
    assert cs.normal_impulse[5, 0] == 123.0
