"""The float32 prepare with a software prefetch of the contacts some rows ahead, against the
rows' loop without it, on one loaded world's rows in one process (not built at session 25's
warm caches: BENCHMARKS.md, ``pyr50``; built, ``pf10_16``, from session 30's ``--cold`` runs:
``pyrS55``, :func:`impulse2d._dynamics.contact_lanes_f32.prepare_f32_entry`).

    PYTHONPATH=src python benchmarks/prepare_prefetch.py [--scene pyramid_100] [--reps 21]
        [--cold] [--out FILE]

The world is built as ``run.py`` builds the scene (float32, sleeping off) and stepped 60 steps;
then its rows are prepared into its float32 lanes by :func:`impulse2d._dynamics.contact_solver.
prepare_rows` (``engine``: the rows' loop without a prefetch, as ``prepare_f32_entry`` called
it before session 30) and by a copy of its loop that first asks for the cache lines of the
contact ``D`` rows ahead (``llvm.prefetch``, read, into every level): its points, normal and
two impulses (``pf4``), or those and its separations, point count, bodies, friction and
restitution (``pf10``). Every way leaves the same bits (checked). ``--cold``: a 64 MB buffer
written before each call, so that the contacts come from memory, as the step's prepare (2-3x
its time with warm caches) finds most of them. Thread CPU, the ways alternating, ``--reps``
repetitions; printed: each way's minimum and median (us), the ratio of the minima and the
median of the repetitions' ratios. Kernels compiled without reference counting, as the
engine's are (with it, each access of a store's column in the rows' loop is counted: 8x the
time).
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
from impulse2d._dynamics.lane_layout import (lane_index, write_lane_impulses, write_lane_point,
                                             write_lane_row)
from impulse2d._dynamics.world_ref import sync_constraints

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (this directory's)
from engines import build_scene  # noqa: E402

# the step's default soft coefficients do not matter here: both ways get the same
SOFT = (60.0, 0.8, 0.2)
STATIC = (90.0, 0.7, 0.3)


@intrinsic
def _prefetch(typingctx, address):
    """``llvm.prefetch`` of the line at ``address`` (bytes): a read, locality 3, data."""
    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        byte = ir.IntType(8).as_pointer()
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]),
            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.inttoptr(args[0], byte), ir.Constant(i32, 0),
                          ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.none(types.int64), codegen


@numba.njit(_nrt=False)
def _engine(cs, lanes, order, contacts, bodies):
    prepare_rows(cs, lanes, order, contacts, bodies, True, SOFT, STATIC, 0, True)


def _prefetching(ahead, more):
    """The engine's float32 prepare loop (``prepare_rows`` with ``warm_starting`` and
    ``clear_missing``, from row 0) with the prefetch of the contact ``ahead`` rows on."""
    @numba.njit(_nrt=False)
    def prepare(cs, lanes, order, contacts, bodies):
        center = bodies.center
        v = bodies.v
        w = bodies.w
        n = order.shape[0]
        for q in range(n):
            if q + ahead < n:
                k = order[q + ahead]
                _prefetch(contacts.point.ctypes.data + k * 32)
                _prefetch(contacts.normal.ctypes.data + k * 16)
                _prefetch(contacts.normal_impulse.ctypes.data + k * 16)
                _prefetch(contacts.tangent_impulse.ctypes.data + k * 16)
                if more:
                    _prefetch(contacts.separation.ctypes.data + k * 16)
                    _prefetch(contacts.count.ctypes.data + k * 8)
                    _prefetch(contacts.body_a.ctypes.data + k * 8)
                    _prefetch(contacts.body_b.ctypes.data + k * 8)
                    _prefetch(contacts.friction.ctypes.data + k * 8)
                    _prefetch(contacts.restitution.ctypes.data + k * 8)
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
                write_lane_impulses(lanes, r, j,
                                    contacts.normal_impulse[k, j] if warm else 0.0,
                                    contacts.tangent_impulse[k, j] if warm else 0.0)
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
            if count < 2:
                write_lane_point(lanes, r, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    return prepare


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--cold", action="store_true", help="the caches flushed before each call")
    ap.add_argument("--out")
    args = ap.parse_args()
    builder, params = run.SCENES[args.scene][:2]
    world = impulse2d.World(gravity=(0, -10))
    world.settings.solver_precision = "float32"
    world.settings.enable_sleep = False
    build_scene(world, builder, **params)
    for _ in range(60):
        world.step(1 / 60)
    sync_constraints(world)
    cs, bodies, contacts = world._constraints, world._bodies, world._contacts
    order = cs.contact.copy()
    lanes = cs.lanes.reshape(-1).view(np.float32)
    ways = {"engine": _engine, "copy": _prefetching(1 << 40, False),
            "pf4_8": _prefetching(8, False), "pf10_8": _prefetching(8, True),
            "pf4_16": _prefetching(16, False), "pf10_16": _prefetching(16, True),
            "pf10_32": _prefetching(32, True)}
    results = {}
    for name, prepare in ways.items():
        lanes[:] = 0.0
        prepare(cs, lanes, order, contacts, bodies)
        results[name] = (lanes.copy(), cs.relative_velocity.copy())
    for name in ways:
        assert all(np.array_equal(x, y) for x, y in zip(results["engine"], results[name])), name
    times = {name: [] for name in ways}
    flush = np.zeros(8 << 20 if args.cold else 0)  # 64 MB: beyond the L3 cache's share
    for rep in range(args.reps):
        for name in list(ways) if rep % 2 == 0 else list(ways)[::-1]:
            flush += 1.0
            c = time.thread_time()
            ways[name](cs, lanes, order, contacts, bodies)
            times[name].append((time.thread_time() - c) * 1e6)
    load = os.getloadavg()[0]
    print(f"{args.scene}: {order.shape[0]} rows, the same bits every way, "
          f"{'cold' if args.cold else 'warm'}, load {load:.1f}")
    rows = []
    for name, us in times.items():
        ratios = [y / x for x, y in zip(times["engine"], us)]
        row = {"scene": args.scene, "way": name, "cold": args.cold, "load": round(load, 1),
               "min_us": round(min(us), 1), "median_us": round(statistics.median(us), 1),
               "ratio_min": round(min(us) / min(times["engine"]), 3),
               "ratio_median": round(statistics.median(ratios), 3)}
        print(f"{name:7s} {row['min_us']:8.0f} / {row['median_us']:8.0f} us "
              f"({row['ratio_min']:.3f}, {row['ratio_median']:.3f})")
        rows.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
