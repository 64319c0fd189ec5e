"""rain_2000's pair stage, step by step: which path each step takes and what its pieces cost
(issue 31 items 2/3: rain's landing against pyb2d3).

    python benchmarks/rain_landing.py [--precision float32] [--threads 1] [--steps 300]
        [--every 20] [--reps 20] [--out FILE]

The scene is built and stepped as ``run.py`` steps it (``engines``' impulse2d, gravity -10,
sleeping off, 1/60 s). Each step, from Python around ``World.step``: the shapes whose fat box
changed (the step's move buffer, found by comparing the fat boxes), the path the pair stage
took for them (:mod:`impulse2d._dynamics.pair_update`'s rules: none moved, the few boxes'
test, the search around the moved boxes, or the global search), whether the contact store was
made anew (its keys changed) and the constraint store (its row count changed), and the stage
clock (each stage's us of wall, :data:`impulse2d._dynamics.step.STAGES`: ``pairs`` the bounds
and the pair stage), and the process's wall, user and system time and minor page faults around
the call (``getrusage``: every thread's; the system time is counted in the kernel's ticks, 4 ms
here: a mean over many steps only).

Every ``--every`` steps from ``--from``, the pieces of that step's pair stage are timed again on
its own inputs (process CPU, the minimum of ``--reps`` calls, each piece a kernel compiled here
over the tree's code, so that a call is one Python call): both searches, whichever the step
took (the global one with its filter; the moved boxes' with its filter, sort, comparison and
merge, passing over the old keys: ``incremental_pairs``), a new contact store
(``allocate_contacts``, a new allocation: the old store has come through Python) with the
merge into it (``carry_contacts``), the merge alone into a store allocated beforehand, and a
new constraint store of the step's touching rows (``allocate_constraints``, a new allocation,
lanes kept).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engines  # noqa: E402
import run  # noqa: E402
from big_stages import cycles_per_us  # noqa: E402
from impulse2d._dynamics import pair_update  # noqa: E402
from impulse2d._dynamics.contact_solver import allocate_constraints  # noqa: E402
from impulse2d._dynamics.contacts import allocate_contacts, carry_contacts  # noqa: E402
from impulse2d._dynamics.step import STAGES  # noqa: E402
from impulse2d.settings import MIXING_CODES  # noqa: E402
from impulse2d._dynamics.world_ref import sync_constraints, sync_contacts  # noqa: E402

RESULTS = HERE / "results"
SQRT, MAX = MIXING_CODES["sqrt"], MIXING_CODES["max"]  # the merge's rules (Box2D's)


@numba.njit(cache=False)
def _new_store(old, pairs, shapes, reps):
    n = 0
    for _ in range(reps):
        fresh = allocate_contacts(pairs.shape[0], old)
        carry_contacts(old, fresh, pairs, shapes, SQRT, MAX)
        n += fresh.key.shape[0]
    return n


@numba.njit(cache=False)
def _spare_contacts(count, old):
    """:func:`allocate_contacts` from Python (an inner kernel: no Python wrapper)."""
    return allocate_contacts(count, old)


@numba.njit(cache=False)
def _merge_only(old, spare, pairs, shapes, reps):
    for _ in range(reps):
        carry_contacts(old, spare, pairs, shapes, SQRT, MAX)
    return spare.key.shape[0]


@numba.njit(cache=False)
def _new_constraints(n, old, rows, reps):
    m = 0
    for _ in range(reps):
        m += allocate_constraints(n, old, rows).count.shape[0]
    return m


def _best(call, reps: int) -> float:
    """Minimum process CPU of ``call()`` over ``reps`` calls, us."""
    call()
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        call()
        best = min(best, time.process_time() - t)
    return best * 1e6


def _path(n: int, n_moved: int) -> str:
    """The pair stage's path for ``n_moved`` moved boxes of ``n`` rows (no dirty pairs)."""
    if n_moved == 0:
        return "none"
    if n * n_moved <= pair_update.FEW_TESTS:
        return "few"
    if pair_update.INCREMENTAL_BELOW * n_moved <= n:
        return "moved"
    return "global"


def _pieces(world, old, old_keys, moved, reps: int) -> dict:
    """The pair stage's pieces on this step's inputs (the contact store before the step,
    ``old``, and the shapes ``moved``)."""
    s = world._shapes
    b = world._bodies
    args = (s.fat_aabb, s.alive, s.body, b.type, s.is_sensor, s.group, s.category, s.mask,
            np.empty(0, dtype=np.int64))  # (no joint in rain)
    out = {}
    # both searches give the same pairs (tests/test_pair_update.py): each is timed, whichever
    # path the step took
    search = lambda: pair_update.filtered_pairs(  # noqa: E731
        *args, pair_update.CELL_SCALE, pair_update.LARGE_CELLS, pair_update.SWEEP_BELOW)
    out["global_search_us"] = _best(search, reps)
    search = lambda: pair_update.incremental_pairs(old_keys, moved, *args)  # noqa: E731
    out["moved_search_us"] = _best(search, reps)
    pairs = np.ascontiguousarray(search())
    spare = _spare_contacts(pairs.shape[0], old)
    out["new_store_us"] = _best(lambda: _new_store(old, pairs, s, 1), reps)
    out["merge_only_us"] = _best(lambda: _merge_only(old, spare, pairs, s, 1), reps)
    sync_constraints(world)
    cs = world._constraints
    out["new_constraints_us"] = _best(
        lambda: _new_constraints(cs.count.shape[0], cs, cs.lanes.shape[0], 1), reps)
    out["pairs"] = int(pairs.shape[0])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--precision", choices=("float64", "float32"), default="float32")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--from", dest="first", type=int, default=61)
    ap.add_argument("--every", type=int, default=20, help="0: no step's pieces timed")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--out", default=str(RESULTS / "rain_landing.json"))
    args = ap.parse_args()
    rate = cycles_per_us()
    name, params = run.SCENES["rain_2000"][:2]
    eng = engines.make_engine("impulse2d", {"solver_precision": args.precision,
                                            "threads": args.threads})
    eng.build(name, **params)
    world = eng.world
    rows = []
    for k in range(1, args.steps + 1):
        sync_contacts(world)
        old = world._contacts
        old_keys = old.key.copy()
        fat = world._shapes.fat_aabb.copy()
        sync_constraints(world)
        touching = world._constraints.count.shape[0]
        u = resource.getrusage(resource.RUSAGE_SELF)
        p, w = time.process_time(), time.perf_counter()
        world.step(engines.DT)
        cpu, wall = (time.process_time() - p) * 1e6, (time.perf_counter() - w) * 1e6
        v = resource.getrusage(resource.RUSAGE_SELF)
        clock = world._clock
        shapes = world._shapes
        moved = np.flatnonzero((shapes.fat_aabb != fat).any(axis=1)).astype(np.int64)
        sync_contacts(world)
        sync_constraints(world)
        row = {"step": k, "cpu_us": cpu, "wall_us": wall,
               "user_us": (v.ru_utime - u.ru_utime) * 1e6,
               "sys_us": (v.ru_stime - u.ru_stime) * 1e6, "minflt": v.ru_minflt - u.ru_minflt,
               "pairs_stage_us": float(clock[1] - clock[0]) / rate,
               "stages_us": {name: float(clock[i + 1] - clock[i]) / rate
                             for i, name in enumerate(STAGES)},
               "moved": int(moved.shape[0]), "path": _path(shapes.alive.shape[0], moved.shape[0]),
               "contacts": int(world._contacts.key.shape[0]),
               "new_contacts": not np.array_equal(world._contacts.key, old_keys),
               "touching": int(world._constraints.count.shape[0]),
               "new_constraints": int(world._constraints.count.shape[0]) != touching}
        if (args.every > 0 and k >= args.first and (k - args.first) % args.every == 0
                and row["path"] != "none"):
            row.update(_pieces(world, old, old_keys, moved, args.reps))
        rows.append(row)
        if "moved_search_us" in row:
            print(f"step {k}: moved {row['moved']} ({row['path']}), contacts {row['contacts']},"
                  f" touching {row['touching']}, new stores {row['new_contacts']:d}"
                  f"{row['new_constraints']:d}; pair stage {row['pairs_stage_us']:.0f} us;"
                  f" global search {row['global_search_us']:.0f}, moved boxes' search"
                  f" {row['moved_search_us']:.0f}, new store + merge {row['new_store_us']:.0f},"
                  f" merge alone {row['merge_only_us']:.0f}, new constraint store"
                  f" {row['new_constraints_us']:.0f}", flush=True)
    summary = {}
    for lo, hi in ((2, 60), (61, 300), (301, args.steps)):
        w = [r for r in rows if lo <= r["step"] <= hi]
        if not w:
            continue
        paths = {}
        for r in w:
            paths[r["path"]] = paths.get(r["path"], 0) + 1
        summary[f"{lo}-{hi}"] = {
            "steps": len(w), "paths": paths,
            "new_contact_stores": sum(r["new_contacts"] for r in w),
            "new_constraint_stores": sum(r["new_constraints"] for r in w),
            "moved_median": float(np.median([r["moved"] for r in w])),
            "pairs_stage_median_us": float(np.median([r["pairs_stage_us"] for r in w])),
            "cpu_median_us": float(np.median([r["cpu_us"] for r in w])),
            "stages_mean_us": {name: round(float(np.mean([r["stages_us"][name] for r in w])), 1)
                               for name in STAGES},
            **{f"{key}_mean": float(np.mean([r[key] for r in w]))
               for key in ("wall_us", "cpu_us", "user_us", "sys_us", "minflt")}}
        print(lo, hi, summary[f"{lo}-{hi}"])
    report = {"precision": args.precision, "threads": args.threads,
              "machine": platform.processor() or platform.machine(),
              "load_before": os.getloadavg(), "summary": summary, "steps": rows,
              "hash": world.state_hash()[:16]}
    report["load_after"] = os.getloadavg()
    Path(args.out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
