"""Where a threaded world's solve cuts its blocks of rows into parallel stages, paired in one
process: worlds of one scene at one thread count, equal bit for bit, whose tables of verbs
differ only in the threshold of rows from which a block of the solve order is solved as a
parallel stage (the slot :data:`impulse2d._dynamics.verbs.THREAD_ROWS`, which the solver's
:func:`~impulse2d._dynamics.threaded.segments` reads; the world's other uses of it, the
narrowphase's launch and the serial entry's choice, are far from it on the big scenes), stepped in
turn, the order of the worlds rotated each round.

    PYTHONPATH=src python benchmarks/segments_ab.py --scene rain_2000 --thresholds 256,128,64 \
        [--threads 2] [--precision float32] [--steps 400] [--json NAME]

Each world is built as ``run.py`` builds the scene (sleeping off), stepped past its settling
steps untimed (``threads_paired.py``'s), then ``--steps`` rounds: each world one step, timed by
wall clock, by the calling thread's CPU and by the process's CPU (which holds Numba's workers'
spin and their waits, the other worlds' steps excluded since they run in turn). Printed per
threshold: the medians, the median of the per-round ratios to the first threshold's step, the
segments of the last step's solve order (parallel and serial rows), and whether every world's
state hash equals the first's (the cut changes no bits: rows of a block commute); and what
the cut itself costs, from the colours' starts and by the walk of every row (:func:`cut`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def build(scene: str, threads: int, precision: str):
    import impulse2d
    import run
    from engines import build_scene
    from threads_paired import SETTLE

    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10), threads=threads)
    world.settings.enable_sleep = False
    if precision != "float64":
        world.settings.solver_precision = precision
    build_scene(world, builder, **params)
    for _ in range(SETTLE[scene]):
        world.step(1 / 60)
    return world


def cut(world, threshold: int, repeats: int = 300) -> dict:
    """The segments of ``world``'s present solve order at ``threshold`` (rows in parallel
    stages, rows in serial runs, stages a pass), and what :func:`segments` costs (thread CPU,
    minimum over ``repeats`` calls, each path in turn): from the colours' starts (the engine's
    call) and walking every row (the same call with starts that are not the order's: session
    23's algorithm), and whether the two cuts are equal."""
    import numba
    import numpy as np
    from impulse2d._dynamics.constraint_graph import COLOR_COUNT, color_contacts
    from impulse2d._dynamics.threaded import segments as inner

    @numba.njit(cache=False)
    def segments(body_a, body_b, order, body_type, min_rows, starts):  # (an inner kernel)
        return inner(body_a, body_b, order, body_type, min_rows, starts)

    c, b = world._contacts, world._bodies
    order, starts = color_contacts(c.count, c.body_a, c.body_b, b.type, b.asleep,
                                   b.type.shape[0], COLOR_COUNT, np.empty(0, dtype=np.int64), -1)
    walked = starts.copy()
    walked[-1] = -1  # not the order's starts: every row walked
    parts = segments(c.body_a, c.body_b, order, b.type, threshold, starts)
    every = segments(c.body_a, c.body_b, order, b.type, threshold, walked)
    best = {"colours_us": 1e9, "walk_us": 1e9}
    for _ in range(repeats):
        for key, s in (("colours_us", starts), ("walk_us", walked)):
            t = time.thread_time_ns()
            segments(c.body_a, c.body_b, order, b.type, threshold, s)
            best[key] = min(best[key], (time.thread_time_ns() - t) / 1e3)
    sizes = parts[:, 1] - parts[:, 0]
    return {"rows": int(order.shape[0]), "stages": int(parts.shape[0]),
            "parallel_rows": int(sizes[parts[:, 2] == 1].sum()),
            "serial_rows": int(sizes[parts[:, 2] == 0].sum()),
            "serial_runs": [int(s) for s in sizes[parts[:, 2] == 0]],
            "walk_stages": int(every.shape[0]), "same_cut": bool(np.array_equal(parts, every)),
            **{k: round(v, 2) for k, v in best.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="rain_2000")
    ap.add_argument("--thresholds", default="256,128,64")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--precision", choices=("float64", "float32"), default="float32")
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--json", default=None, help="write results/NAME.json")
    args = ap.parse_args()
    from impulse2d._dynamics.verbs import THREAD_ROWS

    thresholds = [int(t) for t in args.thresholds.split(",")]
    worlds = [build(args.scene, args.threads, args.precision) for _ in thresholds]
    for world, t in zip(worlds, thresholds):
        world._verbs[THREAD_ROWS] = t
    times = {t: {"wall": [], "main": [], "cpu": []} for t in thresholds}
    load0 = os.getloadavg()[0]
    for r in range(args.steps):
        k = r % len(worlds)
        for world, t in list(zip(worlds, thresholds))[k:] + list(zip(worlds, thresholds))[:k]:
            c, m, w = time.process_time(), time.thread_time(), time.perf_counter()
            world.step(1 / 60)
            times[t]["cpu"].append(time.process_time() - c)
            times[t]["main"].append(time.thread_time() - m)
            times[t]["wall"].append(time.perf_counter() - w)
    load1 = os.getloadavg()[0]
    assert all(w._verbs[THREAD_ROWS] == t for w, t in zip(worlds, thresholds))
    hashes = [w.state_hash() for w in worlds]
    base = thresholds[0]
    report = {"scene": args.scene, "threads": args.threads, "precision": args.precision,
              "steps": args.steps, "load": [round(load0, 2), round(load1, 2)],
              "same_hash": len(set(hashes)) == 1, "thresholds": {}}
    for world, t in zip(worlds, thresholds):
        row = {key: round(statistics.median(v) * 1e6, 1) for key, v in times[t].items()}
        for key in ("wall", "main", "cpu"):
            row[f"{key}/{base}"] = round(statistics.median(
                x / y for x, y in zip(times[t][key], times[base][key])), 4)
        row["cut"] = cut(world, t)
        report["thresholds"][t] = row
        print(t, json.dumps(row), flush=True)
    print("load", report["load"], "same hash", report["same_hash"])
    if args.json:
        with open(HERE / "results" / f"{args.json}.json", "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
