"""The contact prepare with the lanes it is about to write asked for ahead (``prefetchw``),
against the engine's, on one loaded world's rows in one process, float64 or float32 lanes.

    PYTHONPATH=src python benchmarks/lanes_prepare_prefetch.py [--scene pyramid_100]
        [--precision float64] [--reps 15] [--out FILE]

The prepare (:func:`impulse2d._dynamics.contact_solver.prepare_rows`) writes 41 lanes a row
(:mod:`impulse2d._dynamics.lane_layout`): each field of a 64-row chunk is its own run of
values, so a row's writes land in 41 cache lines, each shared with the next 7 rows (float64) or
15 (float32); pyramid_100's 14,950 rows write 4.9 MB of float64 lanes (2.45 of float32), more
than the L2 cache, and a line the step last wrote in the previous step's passes is read back
before it is written (write-allocate). The float64 prepare took 990 us a step against 572 in
float32 (BENCHMARKS.md, session 25, ``pyr50``), the same arithmetic. ``pfw_D``: a copy of the
engine's loop that, at every row ``q`` whose row ``q + D`` starts a line (every 8th row of
float64 lanes, 16th of float32), first asks for that line of each of the 41 fields for writing
(``llvm.prefetch``, write, into every level: ``prefetchw`` on x86). ``copy``: the same copy
without the prefetch (a fair base?). Every way leaves the same bits (checked).

Timed with thread CPU, the ways alternating, ``--reps`` repetitions, each prepare ``cold``
(after a 64 MB buffer is written: what it reads and writes comes from memory, as nearer the
step's, whose narrowphase and passes run between two prepares) and ``warm`` (right after the
same prepare: its lanes in L2 and L3). Printed per state: each way's minimum and median (us),
the ratio of the minima and the median of the repetitions' ratios. Kernels compiled without
reference counting, as the engine's are.
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
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

import impulse2d
from impulse2d._dynamics.contact_solver import point_values, prepare_rows, row_head
from impulse2d._dynamics.lane_layout import (FIELDS, U_CHUNK, lane_index, write_lane_impulses,
                                             write_lane_point, write_lane_row)
from impulse2d._dynamics.world_ref import sync_constraints

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (this directory's)
from engines import build_scene  # noqa: E402

# the step's default soft coefficients do not matter here: every way gets the same
SOFT = (60.0, 0.8, 0.2)
STATIC = (90.0, 0.7, 0.3)


@intrinsic
def _prefetch_write(typingctx, address):
    """``llvm.prefetch`` of the line at ``address`` (bytes): a write, locality 3, data."""
    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        byte = ir.IntType(8).as_pointer()
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]),
            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.inttoptr(args[0], byte), ir.Constant(i32, 1),
                          ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(types.int64), codegen


def _engine(clear_missing):
    @numba.njit(_nrt=False)
    def prepare(cs, lanes, order, contacts, bodies):
        prepare_rows(cs, lanes, order, contacts, bodies, True, SOFT, STATIC, 0, clear_missing)

    return prepare


def _prefetching(ahead, clear_missing):
    """The engine's prepare loop (``prepare_rows`` with ``warm_starting``, from row 0) with the
    41 lines of row ``q + ahead`` asked for at each row ``q`` whose ``q + ahead`` starts a
    line."""
    @numba.njit(_nrt=False)
    def prepare(cs, lanes, order, contacts, bodies):
        center = bodies.center
        v = bodies.v
        w = bodies.w
        n = order.shape[0]
        size = lanes.itemsize
        per_line = 64 // size
        data = lanes.ctypes.data
        for q in range(n):
            ahead_q = q + ahead
            if ahead_q < n and ahead_q % per_line == 0:
                first = np.int64(lane_index(ahead_q)) * size + data
                for f in range(FIELDS):
                    _prefetch_write(first + f * np.int64(U_CHUNK) * size)
            k, count, a, b, masses, scales = row_head(cs, q, order[q], contacts, bodies, True,
                                                      SOFT, STATIC)
            m_a, i_a, m_b, i_b = masses
            rate, mass_scale, impulse_scale = scales
            nx = contacts.normal[k, 0]
            ny = contacts.normal[k, 1]
            r = lane_index(q)
            write_lane_row(lanes, r, m_a, i_a, m_b, i_b, nx, ny, contacts.friction[k], rate,
                           mass_scale, impulse_scale, count)
            for j in range(2):
                warm = j < count
                normal_impulse = contacts.normal_impulse[k, j] if warm else 0.0
                tangent_impulse = contacts.tangent_impulse[k, j] if warm else 0.0
                if clear_missing or j == 0 or count == 2:
                    write_lane_impulses(lanes, r, j, normal_impulse, tangent_impulse)
            centers = (center[a, 0], center[a, 1], center[b, 0], center[b, 1])
            velocities = (v[a, 0], v[a, 1], w[a], v[b, 0], v[b, 1], w[b])
            for j in range(count):
                anchors, base, normal_mass, tangent_mass, approach = point_values(
                    (contacts.point[k, j, 0], contacts.point[k, j, 1]), contacts.separation[k, j],
                    centers, velocities, masses, nx, ny)
                rax, ray, rbx, rby = anchors
                write_lane_point(lanes, r, j, rax, ray, rbx, rby, base, normal_mass,
                                 tangent_mass)
                cs.relative_velocity[q, j] = approach
            if clear_missing and count < 2:
                write_lane_point(lanes, r, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    return prepare


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
    cs, bodies, contacts = world._constraints, world._bodies, world._contacts
    order = cs.contact.copy()
    lanes = cs.lanes.reshape(-1)
    f32 = args.precision == "float32"
    if f32:
        lanes = lanes.view(np.float32)
    ways = {"engine": _engine(f32), "copy": _prefetching(1 << 40, f32)}
    for ahead in (8, 16, 32):
        ways[f"pfw_{ahead}"] = _prefetching(ahead, f32)
    results = {}
    for name, prepare in ways.items():
        lanes[:] = 0.0
        prepare(cs, lanes, order, contacts, bodies)
        results[name] = (lanes.copy(), cs.relative_velocity.copy())
    for name in ways:
        assert all(np.array_equal(x, y) for x, y in zip(results["engine"], results[name])), name
    flush = np.zeros(8 << 20)
    times = {(state, name): [] for state in ("cold", "warm") for name in ways}
    for rep in range(args.reps):
        for name in list(ways) if rep % 2 == 0 else list(ways)[::-1]:
            for state in ("cold", "warm"):
                if state == "cold":
                    flush += 1.0
                c = time.thread_time()
                ways[name](cs, lanes, order, contacts, bodies)
                times[(state, name)].append((time.thread_time() - c) * 1e6)
    load = os.getloadavg()[0]
    print(f"{args.scene} {args.precision}: {order.shape[0]} rows, the same bits every way, "
          f"load {load:.1f}")
    rows = []
    for (state, name), us in times.items():
        base = times[(state, "engine")]
        ratios = [y / x for x, y in zip(base, us)]
        row = {"scene": args.scene, "precision": args.precision, "state": state, "way": name,
               "load": round(load, 1), "min_us": round(min(us), 1),
               "median_us": round(statistics.median(us), 1),
               "ratio_min": round(min(us) / min(base), 3),
               "ratio_median": round(statistics.median(ratios), 3)}
        print(f"{state} {name:7s} {row['min_us']:8.0f} / {row['median_us']:8.0f} us "
              f"({row['ratio_min']:.3f}, {row['ratio_median']:.3f})")
        rows.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
