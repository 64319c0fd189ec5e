"""The lanes' gather of the bodies, three ways, on one loaded world's rows in one process: the
engine's (:func:`impulse2d._dynamics.contact_lanes._gather`: the velocities loaded one body at a
time, :func:`~impulse2d._dynamics.lane_layout.scalar_index`, the gaps in a vectorised loop of
their own), session 24's (``gathers``: one loop, which LLVM vectorises, its loads of the bodies
by index as ``vgatherqpd`` on an AVX-512 machine), and every load and the gaps' arithmetic
scalar (``scalar``).

    PYTHONPATH=src python benchmarks/lanes_gather.py [--scene pyramid_100] [--precision float32]
        [--reps 15] [--out FILE]

The world is built as ``run.py`` builds the scene (sleeping off) and stepped 60 steps; then its
rows' passes (the engine's :func:`~impulse2d._dynamics.contact_lanes._warm_lanes` and
:func:`~impulse2d._dynamics.contact_lanes._solve_lanes` between each way's gather and the
engine's scatter) are timed each alone, thread CPU: a warm start, a biased and a relax pass. The
ways alternate in each repetition, the bodies and lanes restored before each. (The gather and
scatter alone, back to back without a pass between, are left out: timed so, each way's figure
moved by 0.4-2x from one run of this script to the next.) Checked first: every
way leaves the same bits in the bodies and lanes. Printed per pass: each way's minimum and
median (us), and the ratio to the engine's of the minima and the median of the repetitions'
ratios. Compiled here, not cached (about a minute).
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
from impulse2d._dynamics.contact_lanes import (_gather, _piece, _scatter, _solve_lanes,
                                               _warm_lanes)
from impulse2d._dynamics.lane_layout import (BASE, GAP, GAP_STEP, NX, NY, POINT_STEP, RAX, RAY,
                                             RBX, RBY, VAX, VAY, VBX, VBY, WA, WB, lane_float,
                                             scalar_index, scratch_chunk)
from impulse2d._dynamics.world_ref import sync_constraints

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (this directory's)
from engines import build_scene  # noqa: E402

PASSES = ("warm", "biased", "relax")


@numba.njit(inline="always")
def _itself(index):
    return index


def _gather_copy(scalar):
    """Session 24's gather (one loop, bodies and gaps), its indices made opaque (``scalar``) or
    not."""
    index = scalar_index if scalar else _itself

    @numba.njit(inline="always")
    def gather(cs, lanes, scratch, bodies, base, start, i0, i1, gaps):
        v = bodies.v
        w = bodies.w
        dp = bodies.dp
        dq = bodies.dq
        zero = lane_float(lanes, 0.0)
        for i in range(i0, i1):
            q = start + i
            r = base + i
            a = index(np.uint64(cs.body_a[q]))
            b = index(np.uint64(cs.body_b[q]))
            scratch[i + VAX] = v[a, 0]
            scratch[i + VAY] = v[a, 1]
            scratch[i + WA] = w[a]
            scratch[i + VBX] = v[b, 0]
            scratch[i + VBY] = v[b, 1]
            scratch[i + WB] = w[b]
            if gaps:
                nx = lanes[r + NX]
                ny = lanes[r + NY]
                ca = lane_float(lanes, dq[a, 0])
                sa = lane_float(lanes, dq[a, 1])
                cb = lane_float(lanes, dq[b, 0])
                sb = lane_float(lanes, dq[b, 1])
                ddx = lane_float(lanes, dp[b, 0]) - lane_float(lanes, dp[a, 0])
                ddy = lane_float(lanes, dp[b, 1]) - lane_float(lanes, dp[a, 1])
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

    return gather


def make(gather):
    """The warm start and a velocity pass with ``gather``."""
    @numba.njit(_nrt=False)  # (as the engine's borrowing kernels: no reference counts)
    def solve(cs, bodies, lanes, last, inv_h, use_bias, last_sweep):
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
            gather(cs, lanes, scratch, bodies, base, start, i0, i1, True)
            _solve_lanes(lanes, scratch, base, i0, i1, inv_h, use_bias, True, baumgarte_rate,
                         linear_slop, contact_speed, last_sweep, speed_cap)
            _scatter(cs, scratch, bodies, start, i0, i1)
            lo = end

    @numba.njit(_nrt=False)  # (as the engine's borrowing kernels: no reference counts)
    def warm(cs, bodies, lanes, last):
        hi = np.uint64(last)
        scratch = scratch_chunk(lanes)
        lo = np.uint64(0)
        while lo < hi:
            end, start, base, i0, i1 = _piece(cs, lo, hi)
            gather(cs, lanes, scratch, bodies, base, start, i0, i1, False)
            _warm_lanes(lanes, scratch, base, i0, i1)
            _scatter(cs, scratch, bodies, start, i0, i1)
            lo = end

    return {"warm": lambda cs, b, l, n: warm(cs, b, l, n),
            "biased": lambda cs, b, l, n: solve(cs, b, l, n, 240.0, True, False),
            "relax": lambda cs, b, l, n: solve(cs, b, l, n, 240.0, False, True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--precision", choices=("float64", "float32"), default="float32")
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
    ways = {"engine": make(_gather), "gathers": make(_gather_copy(False)),
            "scalar": make(_gather_copy(True))}
    v0, w0, l0 = bodies.v.copy(), bodies.w.copy(), lanes.copy()

    def restore():
        bodies.v[:] = v0
        bodies.w[:] = w0
        lanes[:] = l0

    results = {}
    for name, calls in ways.items():
        t = time.time()
        restore()
        for p in PASSES:
            calls[p](cs, bodies, lanes, n)
        print(f"{name}: compiled in {time.time() - t:.1f} s", file=sys.stderr)
        restore()
        for p in PASSES:
            calls[p](cs, bodies, lanes, n)
        results[name] = (bodies.v.copy(), bodies.w.copy(), lanes.copy())
    for name in ways:
        assert all(np.array_equal(x, y) for x, y in zip(results["engine"], results[name])), name
    times = {(w, p): [] for w in ways for p in PASSES}
    for rep in range(args.reps):
        for name in list(ways) if rep % 2 == 0 else list(ways)[::-1]:
            restore()
            for p in PASSES:
                c = time.thread_time()
                ways[name][p](cs, bodies, lanes, n)
                times[(name, p)].append((time.thread_time() - c) * 1e6)
    load = os.getloadavg()[0]
    print(f"{args.scene} {args.precision}: {n} rows, the same bits every way, load {load:.1f}")
    rows = []
    for p in PASSES:
        base = times[("engine", p)]
        row = {"scene": args.scene, "precision": args.precision, "rows": n, "pass": p,
               "load": round(load, 1)}
        line = f"{p:10s}"
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
