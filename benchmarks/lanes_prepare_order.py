"""The contact prepare in the contacts' order, against the engine's in the rows' (colour) order,
on one loaded world's rows in one process, float64 or float32 lanes.

    PYTHONPATH=src python benchmarks/lanes_prepare_order.py [--scene pyramid_100]
        [--precision float64] [--reps 15] [--out FILE]

``engine``: the prepare in the rows' order (:func:`impulse2d._dynamics.contact_solver.
prepare_rows`: the float32 lanes' prepare, and the float64 one's before session 26), colour by
colour (:mod:`impulse2d._dynamics.constraint_graph`): within a colour
the contacts come in increasing order, every 7th or so on the pyramids (7 colours), so each
colour's run reads every cache line of the contact store's ten columns (about 2 MB on
pyramid_100, more than the L2 cache) for a seventh of it, and the store is read about seven
times a step. ``row_order``: a copy of the engine's loop (a fair base?). ``contact_order``: the
same rows, each computed and written exactly as the engine does, visited in increasing contact
order (``perm``: the rows sorted by their contact, computed outside the timing): the contacts'
columns read once, front to back; the writes of a row land in one of 7 fronts (one a colour),
each moving forward. ``replay`` (float64): the same order found as the engine finds it
(:func:`impulse2d._dynamics.contact_solver.prepare_wide`): the colouring's own pass over the
contacts replayed, each contact its colour's next row, from each contact's colour and each
colour's first row (built here from the rows' runs, as the colouring leaves them in the world's
scratch). Every way leaves the same bits (checked).

Timed as ``lanes_prepare_prefetch.py`` times (thread CPU, alternating, ``cold``: after a 64 MB
buffer is written; ``warm``: right after the same prepare). Kernels compiled without reference
counting, as the engine's are.
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
from impulse2d._dynamics.contact_solver import point_values, prepare_rows, row_head
from impulse2d._dynamics.lane_layout import (lane_index, write_lane_impulses, write_lane_point,
                                             write_lane_row)
from impulse2d._dynamics.world_ref import sync_constraints

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (this directory's)
from engines import build_scene  # noqa: E402

SOFT = (60.0, 0.8, 0.2)
STATIC = (90.0, 0.7, 0.3)


def _engine(clear_missing):
    @numba.njit(_nrt=False)
    def prepare(cs, lanes, order, contacts, bodies, perm):
        prepare_rows(cs, lanes, order, contacts, bodies, True, SOFT, STATIC, 0, clear_missing)

    return prepare


def _visiting(clear_missing):
    """The engine's prepare loop visiting row ``perm[t]`` at step ``t``."""
    @numba.njit(_nrt=False)
    def prepare(cs, lanes, order, contacts, bodies, perm):
        center = bodies.center
        v = bodies.v
        w = bodies.w
        for t in range(perm.shape[0]):
            q = perm[t]
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


def _replaying():
    """The engine's prepare loop visiting the rows in the colouring's own pass over the
    contacts (:func:`impulse2d._dynamics.constraint_graph.color_into`'s last loop, replayed:
    contact ``t`` of colour ``color[t]`` is that colour's next row), ``plan`` holding ``color``
    (one a contact, -1 for none), then each colour's first row, then its cursor."""
    @numba.njit(_nrt=False)
    def prepare(cs, lanes, order, contacts, bodies, plan):
        m = contacts.count.shape[0]
        colours = (plan.shape[0] - m) // 2
        for c in range(colours):
            plan[m + colours + c] = plan[m + c]
        visited = 0
        t = 0
        while visited < order.shape[0]:
            c = plan[t]
            t += 1
            if c < 0:
                continue
            q = plan[m + colours + c]
            plan[m + colours + c] = q + 1
            visited += 1
            _row(cs, lanes, order, contacts, bodies, q, False)

    return prepare


@numba.njit(inline="always")
def _row(cs, lanes, order, contacts, bodies, q, clear_missing):
    """Row ``q`` of the engine's prepare loop."""
    center = bodies.center
    v = bodies.v
    w = bodies.w
    k, count, a, b, masses, scales = row_head(cs, q, order[q], contacts, bodies, True, SOFT,
                                              STATIC)
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
        write_lane_point(lanes, r, j, rax, ray, rbx, rby, base, normal_mass, tangent_mass)
        cs.relative_velocity[q, j] = approach
    if clear_missing and count < 2:
        write_lane_point(lanes, r, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def replay_plan(order, lane_end, contacts):
    """``_replaying``'s plan: each contact's colour (its run of rows, :func:`impulse2d.
    _dynamics.constraint_graph.mark_colour_runs`), each colour's first row, room for cursors."""
    starts = [0]
    while starts[-1] < order.shape[0]:
        starts.append(int(lane_end[starts[-1]]))
    runs = len(starts) - 1
    color = np.full(contacts, -1, np.int64)
    for c in range(runs):
        color[order[starts[c]:starts[c + 1]]] = c
    return np.concatenate([color, np.array(starts[:-1], np.int64), np.zeros(runs, np.int64)])


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
    rows = np.arange(order.shape[0], dtype=np.int64)
    ways = {"engine": (_engine(f32), rows), "row_order": (_visiting(f32), rows),
            "contact_order": (_visiting(f32), np.argsort(order, kind="stable"))}
    if not f32:
        ways["replay"] = (_replaying(), replay_plan(order, cs.lane_end,
                                                    contacts.count.shape[0]))
    results = {}
    for name, (prepare, perm) in ways.items():
        lanes[:] = 0.0
        cs.relative_velocity[:] = 0.0
        prepare(cs, lanes, order, contacts, bodies, perm)
        results[name] = (lanes.copy(), cs.relative_velocity.copy(), cs.body_a.copy())
    for name in ways:
        assert all(np.array_equal(x, y) for x, y in zip(results["engine"], results[name])), name
    flush = np.zeros(8 << 20)
    times = {(state, name): [] for state in ("cold", "warm") for name in ways}
    for rep in range(args.reps):
        for name in list(ways) if rep % 2 == 0 else list(ways)[::-1]:
            prepare, perm = ways[name]
            for state in ("cold", "warm"):
                if state == "cold":
                    flush += 1.0
                c = time.thread_time()
                prepare(cs, lanes, order, contacts, bodies, perm)
                times[(state, name)].append((time.thread_time() - c) * 1e6)
    load = os.getloadavg()[0]
    print(f"{args.scene} {args.precision}: {order.shape[0]} rows, the same bits every way, "
          f"load {load:.1f}")
    out = []
    for (state, name), us in times.items():
        base = times[(state, "engine")]
        ratios = [y / x for x, y in zip(base, us)]
        row = {"scene": args.scene, "precision": args.precision, "state": state, "way": name,
               "load": round(load, 1), "min_us": round(min(us), 1),
               "median_us": round(statistics.median(us), 1),
               "ratio_min": round(min(us) / min(base), 3),
               "ratio_median": round(statistics.median(ratios), 3)}
        print(f"{state} {name:13s} {row['min_us']:8.0f} / {row['median_us']:8.0f} us "
              f"({row['ratio_min']:.3f}, {row['ratio_median']:.3f})")
        out.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in out))


if __name__ == "__main__":
    main()
