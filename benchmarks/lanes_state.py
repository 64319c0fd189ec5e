"""The lanes' passes with the bodies' solver state in one compact array (Box2D v3's
``b2BodyState``), against the engine's body columns, on one loaded world's rows in one process.

    PYTHONPATH=src python benchmarks/lanes_state.py [--scene pyramid_100] [--precision float64]
        [--reps 15] [--out FILE]

The engine's passes (:mod:`impulse2d._dynamics.contact_lanes`) gather each row's two bodies from
four columns of the body store: ``v`` (n, 2), ``w`` (n,), and for the biased and relax passes'
gaps the in-step motion ``dp`` (n, 2) and rotation ``dq`` (n, 2): four cache lines a body, read
by index, and two of them written back by the scatter. Box2D v3 keeps what its solver stages
read of a body in one 32-byte ``b2BodyState`` (velocity, angular velocity, flags, position delta,
rotation delta: float32), which its passes gather and scatter and its integration updates in
place. Here ``state`` is that record in float64: 8 doubles a body, ``(vx, vy, w, 0, dpx, dpy,
dqc, dqs)``, 64 bytes, one cache line (aligned), a flat array indexed ``8 a + k`` (a literal
stride). ``state`` is the engine's passes with that gather and scatter: the velocities one body
at a time (as the engine's, :func:`~impulse2d._dynamics.lane_layout.scalar_index`), the gaps in
a vectorised loop of their own (as the engine's), the scatter into the record. The rows'
arithmetic is the engine's own (:func:`~impulse2d._dynamics.contact_lanes._warm_lanes`,
:func:`~impulse2d._dynamics.contact_lanes._solve_lanes`).

Timed as ``lanes_gather.py`` times: the world built as ``run.py`` builds the scene (sleeping
off), stepped 60 steps; a warm start, a biased and a relax pass, each alone, thread CPU, the ways
alternating in each repetition, the bodies, the record and the lanes restored before each.
Checked first: both ways leave the same lanes, and the record the same velocities as the
engine's bodies. What is not timed: the record's upkeep (built from the columns before the
passes and copied back after them, or kept by the integration in place of the columns, as
Box2D's is): that is the step's layout, not the passes'. Printed per pass: each way's minimum
and median (us), and the ratio to the engine's of the minima and the median of the
repetitions' ratios. Compiled here, not cached (about a minute).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

import impulse2d
from impulse2d._dynamics.contact_lanes import _gather, _piece, _scatter, _solve_lanes, _warm_lanes
from impulse2d._dynamics.lane_layout import (BASE, GAP, GAP_STEP, NX, NY, POINT_STEP, RAX, RAY,
                                             RBX, RBY, VAX, VAY, VBX, VBY, WA, WB, lane_float,
                                             scalar_index, scratch_chunk)
from impulse2d._dynamics.world_ref import sync_constraints

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (this directory's)
from engines import build_scene  # noqa: E402

PASSES = ("warm", "biased", "relax")
RECORD = 8
"""Doubles a body's record holds: vx, vy, w, (unused), dpx, dpy, dqc, dqs."""
U_RECORD = np.uint64(RECORD)


def record_of(bodies):
    """The bodies' record (flat, 64-byte aligned rows) from their columns."""
    n = bodies.w.shape[0]
    raw = np.zeros(n * RECORD + RECORD)
    shift = (-raw.ctypes.data % 64) // 8
    state = raw[shift:shift + n * RECORD]
    rows = state.reshape(n, RECORD)
    rows[:, 0:2] = bodies.v
    rows[:, 2] = bodies.w
    rows[:, 4:6] = bodies.dp
    rows[:, 6:8] = bodies.dq
    return state


@numba.njit(inline="always")
def _gather_state(cs, lanes, scratch, state, base, start, i0, i1, gaps):
    """The engine's ``_gather`` reading the record ``state``."""
    for i in range(i0, i1):
        q = start + i
        a = scalar_index(np.uint64(cs.body_a[q]) * U_RECORD)
        b = scalar_index(np.uint64(cs.body_b[q]) * U_RECORD)
        scratch[i + VAX] = state[a]
        scratch[i + VAY] = state[a + np.uint64(1)]
        scratch[i + WA] = state[a + np.uint64(2)]
        scratch[i + VBX] = state[b]
        scratch[i + VBY] = state[b + np.uint64(1)]
        scratch[i + WB] = state[b + np.uint64(2)]
    if gaps:
        zero = lane_float(lanes, 0.0)
        for i in range(i0, i1):
            q = start + i
            r = base + i
            a = np.uint64(cs.body_a[q]) * U_RECORD
            b = np.uint64(cs.body_b[q]) * U_RECORD
            nx = lanes[r + NX]
            ny = lanes[r + NY]
            ca = lane_float(lanes, state[a + np.uint64(6)])
            sa = lane_float(lanes, state[a + np.uint64(7)])
            cb = lane_float(lanes, state[b + np.uint64(6)])
            sb = lane_float(lanes, state[b + np.uint64(7)])
            ddx = (lane_float(lanes, state[b + np.uint64(4)])
                   - lane_float(lanes, state[a + np.uint64(4)]))
            ddy = (lane_float(lanes, state[b + np.uint64(5)])
                   - lane_float(lanes, state[a + np.uint64(5)]))
            count = cs.count[q]
            for j in range(2):
                p = r + np.uint64(j) * POINT_STEP
                rax = lanes[p + RAX]
                ray = lanes[p + RAY]
                rbx = lanes[p + RBX]
                rby = lanes[p + RBY]
                gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
                gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
                gap = lanes[p + BASE] + gx * nx + gy * ny
                scratch[i + GAP + np.uint64(j) * GAP_STEP] = gap if j < count else zero


@numba.njit(inline="always")
def _scatter_state(cs, scratch, state, start, i0, i1):
    """The engine's ``_scatter`` writing the record ``state``."""
    for i in range(i0, i1):
        q = start + i
        a = np.uint64(cs.body_a[q]) * U_RECORD
        b = np.uint64(cs.body_b[q]) * U_RECORD
        state[a] = scratch[i + VAX]
        state[a + np.uint64(1)] = scratch[i + VAY]
        state[a + np.uint64(2)] = scratch[i + WA]
        state[b] = scratch[i + VBX]
        state[b + np.uint64(1)] = scratch[i + VBY]
        state[b + np.uint64(2)] = scratch[i + WB]


@numba.njit(_nrt=False)  # (as the engine's borrowing kernels: no reference counts)
def engine_solve(cs, bodies, lanes, last, inv_h, use_bias, last_sweep):
    hi = np.uint64(last)
    scratch = scratch_chunk(lanes)
    baumgarte_rate = lane_float(lanes, 0.0)
    contact_speed = lane_float(lanes, 3.0)
    linear_slop = lane_float(lanes, 0.005)
    speed_cap = lane_float(lanes, 1600.0)
    inv_h = lane_float(lanes, inv_h)
    lo = np.uint64(0)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, scratch, bodies, base, start, i0, i1, True)
        _solve_lanes(lanes, scratch, base, i0, i1, inv_h, use_bias, True, baumgarte_rate,
                     linear_slop, contact_speed, last_sweep, speed_cap)
        _scatter(cs, scratch, bodies, start, i0, i1)
        lo = end


@numba.njit(_nrt=False)
def engine_warm(cs, bodies, lanes, last):
    hi = np.uint64(last)
    scratch = scratch_chunk(lanes)
    lo = np.uint64(0)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, scratch, bodies, base, start, i0, i1, False)
        _warm_lanes(lanes, scratch, base, i0, i1)
        _scatter(cs, scratch, bodies, start, i0, i1)
        lo = end


@numba.njit(_nrt=False)
def state_solve(cs, state, lanes, last, inv_h, use_bias, last_sweep):
    hi = np.uint64(last)
    scratch = scratch_chunk(lanes)
    baumgarte_rate = lane_float(lanes, 0.0)
    contact_speed = lane_float(lanes, 3.0)
    linear_slop = lane_float(lanes, 0.005)
    speed_cap = lane_float(lanes, 1600.0)
    inv_h = lane_float(lanes, inv_h)
    lo = np.uint64(0)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather_state(cs, lanes, scratch, state, base, start, i0, i1, True)
        _solve_lanes(lanes, scratch, base, i0, i1, inv_h, use_bias, True, baumgarte_rate,
                     linear_slop, contact_speed, last_sweep, speed_cap)
        _scatter_state(cs, scratch, state, start, i0, i1)
        lo = end


@numba.njit(_nrt=False)
def state_warm(cs, state, lanes, last):
    hi = np.uint64(last)
    scratch = scratch_chunk(lanes)
    lo = np.uint64(0)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather_state(cs, lanes, scratch, state, base, start, i0, i1, False)
        _warm_lanes(lanes, scratch, base, i0, i1)
        _scatter_state(cs, scratch, state, start, i0, i1)
        lo = end


def calls(solve, warm):
    return {"warm": lambda cs, b, l, n: warm(cs, b, l, n),
            "biased": lambda cs, b, l, n: solve(cs, b, l, n, 240.0, True, False),
            "relax": lambda cs, b, l, n: solve(cs, b, l, n, 240.0, False, True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--precision", choices=("float64", "float32"), default="float64")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--out")
    args = ap.parse_args()
    builder, params = run.SCENES[args.scene][:2]
    world = impulse2d.World(gravity=(0, -10))
    world.settings.solver_precision = args.precision
    world.settings.enable_sleep = False
    build_scene(world, builder, **params)
    for _ in range(60):
        world.step(1 / 60)
    sync_constraints(world)
    cs, bodies = world._constraints, world._bodies
    n = int(cs.count.shape[0])
    lanes = cs.lanes.reshape(-1)
    if args.precision == "float32":
        lanes = lanes.view(np.float32)
    state = record_of(bodies)
    v0, w0, l0, s0 = bodies.v.copy(), bodies.w.copy(), lanes.copy(), state.copy()

    def restore():
        bodies.v[:] = v0
        bodies.w[:] = w0
        lanes[:] = l0
        state[:] = s0

    ways = {"engine": (calls(engine_solve, engine_warm), bodies),
            "state": (calls(state_solve, state_warm), state)}
    results = {}
    for name, (passes, target) in ways.items():
        t = time.time()
        restore()
        for p in PASSES:
            passes[p](cs, target, lanes, n)
        print(f"{name}: compiled in {time.time() - t:.1f} s", file=sys.stderr)
        restore()
        for p in PASSES:
            passes[p](cs, target, lanes, n)
        results[name] = lanes.copy()
        if name == "engine":
            v, w = bodies.v.copy(), bodies.w.copy()
    rows_state = state.reshape(-1, RECORD)
    assert np.array_equal(results["engine"], results["state"]), "lanes differ"
    assert np.array_equal(rows_state[:, 0:2], v) and np.array_equal(rows_state[:, 2], w), \
        "velocities differ"
    times = {(w_, p): [] for w_ in ways for p in PASSES}
    for rep in range(args.reps):
        for name in list(ways) if rep % 2 == 0 else list(ways)[::-1]:
            passes, target = ways[name]
            restore()
            for p in PASSES:
                c = time.thread_time()
                passes[p](cs, target, lanes, n)
                times[(name, p)].append((time.thread_time() - c) * 1e6)
    load = os.getloadavg()[0]
    print(f"{args.scene} {args.precision}: {n} rows, the same bits both ways, load {load:.1f}")
    rows = []
    for p in PASSES:
        base = times[("engine", p)]
        row = {"scene": args.scene, "precision": args.precision, "rows": n, "pass": p,
               "load": round(load, 1)}
        line = f"{p:8s}"
        for name in ways:
            us = times[(name, p)]
            ratios = [y / x for x, y in zip(base, us)]
            row[name] = {"min_us": round(min(us), 1), "median_us": round(statistics.median(us), 1),
                         "ratio_min": round(min(us) / min(base), 3),
                         "ratio_median": round(statistics.median(ratios), 3)}
            line += (f" | {name} {min(us):6.0f} / {statistics.median(us):6.0f} us"
                     f" ({row[name]['ratio_min']:.3f}, {row[name]['ratio_median']:.3f})")
        print(line)
        rows.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
