"""Where threads inside one world pay (``WorldSettings.threads``): the cost of a parallel
launch, the step of the big scenes at 1 and 2 threads with the serial threshold swept, and the
small scenes at 1 and 2 threads (what picks the default).

    python benchmarks/threads_overhead.py                 # everything below (~3-5 min warm)
    python benchmarks/threads_overhead.py --launch-only   # the launch cost only

Each world is stepped in this process, the engines' kernels loaded first (the first steps are
left out). Reported per case: wall ms per step and CPU ms per step (``time.process_time``, all
threads), median of ``--rounds`` alternating rounds; the load average is printed, as the
2-core machine is shared. ``MIN_ROWS`` (:data:`impulse2d._threads.MIN_ROWS`) is the threshold
below which a pass runs serially, and ``MIN_BODIES`` (:data:`impulse2d._threads.MIN_BODIES`)
the awake bodies from which a world with fewer contact rows than that still takes the threaded
solver (below both, the step calls the serial entries): both are read when a world's verbs are
filled, so each case builds its world after setting them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numba
import numpy as np
from numba import prange

import impulse2d as i2d
from impulse2d import _threads
from impulse2d.scenes import build_scene, step_scene

BIG = {"pyramid_100": ("pyramid", {"base": 100}, 60), "rain_2000": ("rain", {"count": 2000}, 150),
       "many_pyramids": ("many_pyramids", {"grid": 10, "base": 10}, 60),
       "joint_grid": ("joint_grid", {"n": 100}, 40)}
SMALL = {"pyramid_20": ("pyramid", {"base": 20}, 300), "stack_10": ("stack", {}, 300),
         "bouncing_balls": ("bouncing_balls", {}, 300),
         "friction_ramp": ("friction_ramp", {}, 300), "chain_100": ("chain", {"links": 100}, 300)}


@numba.njit(parallel=True, cache=True)
def _launches(n, chunks, out):
    """``n`` parallel loops of ``chunks`` trivial iterations (the launch and join alone)."""
    for _ in range(n):
        for c in prange(chunks):
            out[c] += 1.0


def launch_cost(n: int = 20000) -> dict:
    """Microseconds per ``prange`` launch of 2 chunks (wall and CPU of both threads)."""
    out = np.zeros(8)
    _launches(10, 2, out)
    w0, c0 = time.perf_counter(), time.process_time()
    _launches(n, 2, out)
    return {"launch_us": 1e6 * (time.perf_counter() - w0) / n,
            "launch_cpu_us": 1e6 * (time.process_time() - c0) / n}


def run_case(kind, params, steps, threads, min_rows=None, warm=5,
             min_bodies=None) -> tuple[float, float, str]:
    """(wall ms/step, cpu ms/step, state hash) of ``steps`` steps after ``warm`` untimed ones."""
    if min_rows is not None:
        _threads.MIN_ROWS = min_rows
    if min_bodies is not None:
        _threads.MIN_BODIES = min_bodies
    try:
        world = i2d.World(threads=threads)
        info = build_scene(world, kind, **params)
        for k in range(warm):
            step_scene(world, info, k)
        w0, c0 = time.perf_counter(), time.process_time()
        for k in range(warm, warm + steps):
            step_scene(world, info, k)
        wall = (time.perf_counter() - w0) / steps * 1e3
        cpu = (time.process_time() - c0) / steps * 1e3
        return wall, cpu, world.state_hash()
    finally:
        _threads.MIN_ROWS = DEFAULT_MIN_ROWS
        _threads.MIN_BODIES = DEFAULT_MIN_BODIES


DEFAULT_MIN_ROWS = _threads.MIN_ROWS
DEFAULT_MIN_BODIES = _threads.MIN_BODIES


def paired(cases: dict, variants: list, rounds: int) -> dict:
    """Each scene of ``cases`` under each variant ``(label, threads, min_rows, min_bodies)``
    (None: the default), the variants alternating within a round (reversed on odd rounds);
    medians over rounds."""
    variants = [v if len(v) == 4 else (*v, None) for v in variants]
    report = {}
    for name, (kind, params, steps) in cases.items():
        samples = {label: [] for label, *_ in variants}
        hashes = {}
        for r in range(rounds):
            order = variants if r % 2 == 0 else variants[::-1]
            for label, threads, min_rows, min_bodies in order:
                wall, cpu, digest = run_case(kind, params, steps, threads, min_rows,
                                             min_bodies=min_bodies)
                samples[label].append((wall, cpu))
                hashes[label] = digest
        report[name] = {label: {"wall_ms": statistics.median(s[0] for s in v),
                                "cpu_ms": statistics.median(s[1] for s in v)}
                        for label, v in samples.items()}
        report[name]["same_bits"] = len(set(hashes.values())) == 1
        base = report[name][variants[0][0]]["wall_ms"]
        print(f"{name}: " + ", ".join(
            f"{label} {report[name][label]['wall_ms']:.3f} ms (cpu {report[name][label]['cpu_ms']:.3f},"
            f" x{base / report[name][label]['wall_ms']:.2f})" for label, *_ in variants)
            + f"; same bits: {report[name]['same_bits']}; load {os.getloadavg()[0]:.1f}",
            flush=True)
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--launch-only", action="store_true")
    ap.add_argument("--scenes", default=",".join([*BIG, *SMALL]))
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    report = {"load_before": os.getloadavg()[0], "numba_threads": numba.config.NUMBA_NUM_THREADS}
    # the threaded kernels loaded (or compiled) before anything is timed
    run_case("pyramid", {"base": 4}, 2, 2, 1, warm=1)
    report["threading_layer"] = numba.threading_layer()
    report.update(launch_cost())
    print(f"layer {report['threading_layer']}: a launch of 2 chunks {report['launch_us']:.1f} us "
          f"wall, {report['launch_cpu_us']:.1f} us CPU; load {report['load_before']:.1f}",
          flush=True)
    if not a.launch_only:
        chosen = a.scenes.split(",")
        big = {k: v for k, v in BIG.items() if k in chosen}
        small = {k: v for k, v in SMALL.items() if k in chosen}
        report["big"] = paired(big, [("t1", 1, None), ("t2", 2, None), ("t2_rows64", 2, 64),
                                     ("t2_rows1024", 2, 1024),
                                     ("t2_bodies1024", 2, None, 1024),
                                     ("t2_bodies4096", 2, None, 4096)], a.rounds)
        report["small"] = paired(small, [("t1", 1, None), ("t2", 2, None)], a.rounds)
    report["load_after"] = os.getloadavg()[0]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
