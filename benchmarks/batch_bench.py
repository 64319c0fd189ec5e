"""Many small worlds at once: ``WorldBatch.step`` against ``World.step`` in a Python loop.

    PYTHONPATH=src python benchmarks/batch_bench.py [--quick] [--json benchmarks/results/batch.json]

The world (issue 30's, after the figures published for a GPU port of Box2D 2.3): 8 circles
(r 0.3 m) and 2 boxes (0.8 m) dropped from 1-6 m onto a static floor, copies of one world
(``WorldBatch.replicate``). A **world-step** is one engine step of 1/60 s of one world at the
default settings: the soft step, 4 substeps, 1 velocity iteration and 1 relaxation each,
sleeping on. Reported, world-steps per second:

* ``batch``: ``WorldBatch.step`` with 1 and 2 threads, for 64 to 4,096 worlds, over the first
  ``--steps`` steps after the drop (the worlds fall, collide and settle: the expensive part;
  settled worlds fall asleep and cost little after);
* ``awake``: the same with sleeping off (every body simulated every step);
* ``loop``: ``world.step(dt)`` over the same worlds in a Python loop (one thread), in the same
  run, alternating with the batch (paired ratios: the machine is shared and noisy);
* ``reset``: ``batch.restore(snapshot, mask)`` of half the worlds, per world reset;
* ``memory``: bytes per world (traced allocations of replicating 1,024 worlds).

Each figure is the best of ``--reps`` runs (a run preempted on a loaded machine is slow, never
fast). The machine's load is recorded (``os.getloadavg``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import tracemalloc

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def ten_bodies(seed: int = 0, sleep: bool = True):
    import impulse2d as i2d
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0))
    world.settings.enable_sleep = sleep
    world.create_body("static").create_box(10.0, 0.5)
    for _ in range(8):
        world.create_body("dynamic", (rng.uniform(-4, 4), rng.uniform(1, 6))).create_circle(0.3)
    for _ in range(2):
        world.create_body("dynamic", (rng.uniform(-4, 4), rng.uniform(1, 6))).create_box(0.4, 0.4)
    return world


def _batch_rate(n: int, threads: int, steps: int, sleep: bool) -> float:
    import impulse2d as i2d
    batch = i2d.WorldBatch.replicate(ten_bodies(sleep=sleep), n, threads=threads)
    t = time.perf_counter()
    for _ in range(steps):
        batch.step(1 / 60)
    return n * steps / (time.perf_counter() - t)


def _loop_rate(n: int, steps: int, sleep: bool) -> float:
    import impulse2d as i2d
    batch = i2d.WorldBatch.replicate(ten_bodies(sleep=sleep), n)  # the same copies
    worlds = batch.worlds
    t = time.perf_counter()
    for _ in range(steps):
        for w in worlds:
            w.step(1 / 60)
    return n * steps / (time.perf_counter() - t)


def _reset_cost(n: int) -> float:
    import impulse2d as i2d
    batch = i2d.WorldBatch.replicate(ten_bodies(), n)
    for _ in range(10):
        batch.step(1 / 60)
    snap = batch.snapshot()
    mask = np.arange(n) % 2 == 0
    best = float("inf")
    for _ in range(5):
        for _ in range(20):
            batch.step(1 / 60)
        t = time.perf_counter()
        batch.restore(snap, worlds=mask)
        best = min(best, (time.perf_counter() - t) / mask.sum())
    return best


def _memory_per_world(n: int = 1024) -> float:
    import impulse2d as i2d
    template = ten_bodies()
    template.step(1 / 60)
    tracemalloc.start()
    batch = i2d.WorldBatch.replicate(template, n)
    batch.step(1 / 60)
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return current / n


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and steps")
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", default=os.path.join(HERE, "results", "batch.json"))
    args = parser.parse_args(argv)
    sizes = (64, 1024) if args.quick else (64, 256, 1024, 4096)
    steps = 30 if args.quick else args.steps
    _batch_rate(8, 2, 2, True)  # compile or load every kernel first
    _batch_rate(8, 2, 2, False)
    _loop_rate(8, 2, True)
    out = {"machine": platform.machine(), "python": sys.version.split()[0],
           "cpus": os.cpu_count(), "load_before": os.getloadavg()[0], "steps": steps,
           "definition": "world-steps per second: one 1/60 s soft step (4 substeps) of one "
                         "10-body world (8 circles, 2 boxes dropped on a floor), best of reps",
           "batch": {}, "awake": {}, "loop": {}}
    for n in sizes:
        for sleep, table in ((True, out["batch"]), (False, out["awake"])):
            row = {}
            for threads in (1, 2):
                row[f"threads_{threads}"] = max(_batch_rate(n, threads, steps, sleep)
                                                for _ in range(args.reps))
            table[str(n)] = row
        out["loop"][str(n)] = max(_loop_rate(n, steps, True) for _ in range(args.reps))
        b = out["batch"][str(n)]
        print(f"{n:5d} worlds: batch {b['threads_1']:9.0f} (1 thread) {b['threads_2']:9.0f} "
              f"(2 threads); awake {out['awake'][str(n)]['threads_2']:9.0f} (2 threads); "
              f"loop {out['loop'][str(n)]:9.0f} world-steps/s", flush=True)
    out["reset_us_per_world"] = 1e6 * _reset_cost(256)
    out["memory_bytes_per_world"] = _memory_per_world()
    out["load_after"] = os.getloadavg()[0]
    print(f"reset {out['reset_us_per_world']:.0f} us per world; "
          f"{out['memory_bytes_per_world'] / 1024:.1f} KiB per world; "
          f"load {out['load_before']:.1f} -> {out['load_after']:.1f}")
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
