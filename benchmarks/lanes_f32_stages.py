"""Where a float32 world's contact passes go, piece by piece, on one loaded world's rows in one
process (``contact_stages.py`` does it for float64).

    PYTHONPATH=src python benchmarks/lanes_f32_stages.py [--scenes pyramid_100,many_pyramids]
        [--reps 15] [--out FILE]

Each scene is built as ``run.py`` builds it, ``WorldSettings(solver_precision="float32")``,
sleeping off, and stepped 60 steps; then, on copies of its constraint and body stores (fresh
each repetition), each piece runs alone over every row, in this order: the rows' prepare into
the float32 lanes (:func:`impulse2d._dynamics.contact_solver.prepare_rows`, the loop without
the engine's prefetch), one warm start, one biased and one relax pass (the engine's
:func:`~impulse2d._dynamics.contact_lanes._warm_start` and ``_solve`` on the float32 view),
the passes' gather and scatter alone (``moves``: the velocities; ``moves+gaps``: and the
points' gaps, as the biased and relax passes gather), the solve's arithmetic alone on a
chunk's gathered velocities (``arith``: every piece of the rows, no gather or scatter), and
restitution with the copy back of the kept impulses. Thread CPU, us; printed: the minimum and
the median of ``--reps`` repetitions. A soft step runs the prepare, restitution and the copy
once, and 4 of each pass. Compiled here (about a minute).
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
from impulse2d._dynamics.contact_lanes import (_gather, _piece, _scatter, _solve, _solve_lanes,
                                               _warm_start, impulses_from, restitution_lanes)
from impulse2d._dynamics.contact_solver import prepare_rows
from impulse2d._dynamics.lane_layout import CHUNK, lane_float, scratch_chunk
from impulse2d._dynamics.world_ref import sync_constraints
from impulse2d.scenes import build_scene, step_scene

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (this directory's)

H = 1.0 / 240.0
SOFT = (60.0, 0.8, 0.2)
STATIC = (90.0, 0.7, 0.3)


@numba.njit(_nrt=False)
def _prepare(cs, lanes, order, contacts, bodies):
    prepare_rows(cs, lanes, order, contacts, bodies, True, SOFT, STATIC, 0, True)


@numba.njit(_nrt=False)
def _warm(cs, bodies, lanes, n):
    _warm_start(cs, bodies, lanes, 0, n)


@numba.njit(_nrt=False)
def _pass(cs, bodies, lanes, n, biased):
    _solve(cs, bodies, lanes, 0, n, 1.0 / H, biased, True, 0.0, 0.005, 3.0, not biased, 1600.0)


@numba.njit(_nrt=False)
def _moves(cs, bodies, lanes, n, gaps):
    hi = np.uint64(n)
    scratch = scratch_chunk(lanes)
    lo = np.uint64(0)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, scratch, bodies, base, start, i0, i1, gaps)
        _scatter(cs, scratch, bodies, start, i0, i1)
        lo = end


@numba.njit(_nrt=False)
def _arith(cs, bodies, lanes, n, biased):
    hi = np.uint64(n)
    scratch = scratch_chunk(lanes)
    _gather(cs, lanes, scratch, bodies, 0, 0, 0, min(n, CHUNK), True)
    lo = np.uint64(0)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _solve_lanes(lanes, scratch, base, i0, i1, lane_float(lanes, 1.0 / H), biased, True,
                     lane_float(lanes, 0.0), lane_float(lanes, 0.005), lane_float(lanes, 3.0),
                     False, lane_float(lanes, 1600.0))
        lo = end


@numba.njit(_nrt=False)
def _finish(cs, bodies, lanes, n):
    restitution_lanes(cs, bodies, lanes, 0, n, 1.0, 1600.0, 0.0, -10.0, 0.5 * H)
    impulses_from(cs, lanes, 0, n)


def _copy(store):
    return type(store)(*(np.array(column, copy=True) for column in store))


def one_scene(scene: str, reps: int) -> dict:
    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(enable_sleep=False, solver_precision="float32")
    info = build_scene(world, builder, **params)
    for i in range(60):
        step_scene(world, info, i)
    sync_constraints(world)
    cs0, bodies0, contacts = world._constraints, world._bodies, world._contacts
    n = cs0.count.shape[0]
    order = cs0.contact.copy()
    times = {}
    for rep in range(reps + 1):  # the first compiles
        cs, bodies = _copy(cs0), _copy(bodies0)
        lanes = cs.lanes.reshape(-1).view(np.float32)
        for name, call in (("prepare", lambda: _prepare(cs, lanes, order, contacts, bodies)),
                           ("warm", lambda: _warm(cs, bodies, lanes, n)),
                           ("biased", lambda: _pass(cs, bodies, lanes, n, True)),
                           ("relax", lambda: _pass(cs, bodies, lanes, n, False)),
                           ("moves", lambda: _moves(cs, bodies, lanes, n, False)),
                           ("moves+gaps", lambda: _moves(cs, bodies, lanes, n, True)),
                           ("arith biased", lambda: _arith(cs, bodies, lanes, n, True)),
                           ("arith relax", lambda: _arith(cs, bodies, lanes, n, False)),
                           ("restitution+copy", lambda: _finish(cs, bodies, lanes, n))):
            t = time.thread_time()
            call()
            if rep:
                times.setdefault(name, []).append((time.thread_time() - t) * 1e6)
    return {"scene": scene, "rows": n, "load": round(os.getloadavg()[0], 1),
            "us": {name: [round(min(us), 1), round(statistics.median(us), 1)]
                   for name, us in times.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", default="pyramid_100,many_pyramids")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = []
    for scene in args.scenes.split(","):
        row = one_scene(scene, args.reps)
        print(f"{scene}: {row['rows']} rows, load {row['load']} (min / median us)")
        for name, (low, mid) in row["us"].items():
            print(f"  {name:17s} {low:8.1f} / {mid:8.1f}")
        rows.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(row) + "\n" for row in rows))


if __name__ == "__main__":
    main()
