"""Paired A/B of two source trees on the big scenes at a thread count, by CPU time: on a machine
whose cores other processes share, a threaded step's wall time measures the scheduler, its CPU
time (every thread's, and the calling thread's apart) much less so.

    python benchmarks/threads_paired.py --a /path/to/main/src --b src --threads 2 \
        [--scenes pyramid_100,rain_2000,many_pyramids] [--rounds 4] [--precision float32]
        [--json out.json]

Each round runs each scene once per tree, each in a fresh process, the trees alternating which
goes first. A run builds the scene as ``run.py`` does (sleeping off), steps it past its
settling steps untimed, then times ``STEPS`` steps one by one: the process's CPU time (every
thread: the calling thread and Numba's workers, whose spinning between and inside launches
counts), the calling thread's CPU time, and the wall time; the median step of each, and the
state hash after the run. Prints per scene the median of the rounds for each tree and the
median of the per-round ratios b / a.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from paired_cpu import alternate  # (this directory: the script's own, first on sys.path)

HERE = Path(__file__).resolve().parent
STEPS = {"pyramid_20": 200, "pyramid_100": 30, "rain_2000": 100, "many_pyramids": 30}
"""Timed steps a run."""
SETTLE = {"pyramid_20": 60, "pyramid_100": 60, "rain_2000": 300, "many_pyramids": 60}
"""Untimed steps first (as ``threads_stages.py``: the stacks loaded, rain's circles landed)."""


def one_run(scene: str, threads: int, precision: str = "float64") -> dict:
    """Build ``scene`` in this process (the impulse2d on sys.path) with ``threads`` threads, its
    contact passes in ``precision``, and time its steps."""
    sys.path.insert(0, str(HERE))
    import impulse2d
    import run
    from engines import build_scene

    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10), threads=threads)
    world.settings.enable_sleep = False
    if precision != "float64":
        world.settings.solver_precision = precision
    build_scene(world, builder, **params)
    for _ in range(SETTLE[scene]):
        world.step(1 / 60)
    cpu, main, wall = [], [], []
    for _ in range(STEPS[scene]):
        c, m, w = time.process_time(), time.thread_time(), time.perf_counter()
        world.step(1 / 60)
        cpu.append(time.process_time() - c)
        main.append(time.thread_time() - m)
        wall.append(time.perf_counter() - w)
    return {"cpu_us": statistics.median(cpu) * 1e6, "main_us": statistics.median(main) * 1e6,
            "wall_us": statistics.median(wall) * 1e6, "hash": world.state_hash()[:16]}


KEYS = ("cpu_us", "main_us", "wall_us")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="source tree A (the directory holding impulse2d)")
    ap.add_argument("--b", required=True, help="source tree B")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--scenes", default="pyramid_100,rain_2000,many_pyramids")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--precision", choices=("float64", "float32"), default="float64",
                    help="WorldSettings.solver_precision of every world")
    ap.add_argument("--json", default=None)
    ap.add_argument("--one", nargs=2, metavar=("SCENE", "THREADS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one[0], int(args.one[1]), args.precision)))
        return
    trees = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    report = {"threads": args.threads, "precision": args.precision, "trees": trees,
              "scenes": {}}
    for scene in args.scenes.split(","):
        runs, loads = alternate(__file__, trees, scene, args.threads, args.rounds,
                                ("--precision", args.precision))
        row = {"scene": scene, "rounds": args.rounds,
               "load": [round(min(loads), 1), round(max(loads), 1)],
               "same_hash": len({x["hash"] for x in runs["a"] + runs["b"]}) == 1}
        for key in KEYS:
            for who in ("a", "b"):
                row[f"{who}_{key}"] = round(statistics.median(x[key] for x in runs[who]), 1)
            row[f"b/a_{key}"] = round(statistics.median(
                y[key] / x[key] for x, y in zip(runs["a"], runs["b"])), 3)
        row["runs"] = runs
        report["scenes"][scene] = row
        print(json.dumps({k: v for k, v in row.items() if k != "runs"}), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
