"""The fixed costs around a batch's physics: Python's share of a batch step, dense reads,
resets of a few worlds, and a small world's snapshot and restore.

    PYTHONPATH=src python benchmarks/batch_overheads.py [--worlds 1024] [--json out.json]

For A/B runs against another checkout, point ``PYTHONPATH`` at its ``src`` and run the two
alternately. The world is ``batch_bench.ten_bodies`` (8 circles and 2 boxes dropped on a floor;
the soft step, 4 substeps, sleeping on). Single-thread figures are CPU time of this process
(``time.process_time``), best of ``--reps``: on a shared machine the wall clock also counts the
time other processes held the core. Reported:

* ``step_us``: one batch step of ``--worlds`` worlds (1 thread) per world-step, the first 60
  steps after the drop, and its Python share before (``prepare_us``) and after (``finish_us``)
  the kernel, per world-step;
* ``get_state_us``: ``batch.get_state()`` of every world, per call (after a step);
* ``reset_us``: ``batch.restore(snapshot, worlds=mask)`` of 8 of the worlds, 20 steps after
  the last reset, per world reset (the snapshot taken before the first step, as an
  environment's reset state is);
* ``snapshot_us`` / ``restore_us``: ``world.snapshot()`` / ``world.restore(snap)`` of one
  10-body world between steps (its contacts current, as ``World.step`` leaves them), and
  ``restore_after_steps_us``: the restore 5 steps after the last (median).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import ten_bodies  # noqa: E402

DT = 1.0 / 60.0


def _best(f, reps: int, inner: int = 1) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        for _ in range(inner):
            f()
        best = min(best, (time.process_time() - t) / inner)
    return best


def main(argv=None) -> dict:
    import impulse2d as i2d
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worlds", type=int, default=1024)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    n = args.worlds
    out = {"worlds": n, "load_before": os.getloadavg()[0]}
    i2d.WorldBatch.replicate(ten_bodies(), 4, threads=1).step(DT)  # compile or load first

    # the batch step and its parts
    batch = i2d.WorldBatch.replicate(ten_bodies(), n, threads=1)
    snap = batch.snapshot()
    try:
        from impulse2d import _batch_ready as parts
    except ImportError:  # (before the Python side had a module of its own)
        from impulse2d._dynamics import batch_step as parts
    spent = {"prepare": 0.0, "finish": 0.0}
    original = parts.prepare, parts.finish

    def timed(name, f):
        def call(*a, **k):
            t = time.process_time()
            r = f(*a, **k)
            spent[name] += time.process_time() - t
            return r
        return call

    best_total, best_parts = float("inf"), None
    for _ in range(args.reps):
        batch.restore(snap)
        batch.step(DT)
        spent.update(prepare=0.0, finish=0.0)
        parts.prepare, parts.finish = timed("prepare", original[0]), timed("finish", original[1])
        t = time.process_time()
        for _ in range(60):
            batch.step(DT)
        total = time.process_time() - t
        parts.prepare, parts.finish = original
        if total < best_total:
            best_total, best_parts = total, dict(spent)
    out["step_us"] = 1e6 * best_total / (60 * n)
    out["prepare_us"] = 1e6 * best_parts["prepare"] / (60 * n)
    out["finish_us"] = 1e6 * best_parts["finish"] / (60 * n)

    # dense reads
    batch.step(DT)
    out["get_state_us"] = 1e6 * _best(batch.get_state, args.reps, 10)

    # resets of a few worlds, and what they cost the next step
    mask = np.zeros(n, dtype=bool)
    mask[:: n // 8] = True
    k = int(mask.sum())
    resets = []
    for _ in range(args.reps):
        for _ in range(20):
            batch.step(DT)
        t = time.process_time()
        batch.restore(snap, worlds=mask)
        resets.append((time.process_time() - t) / k)
    out["reset_us"] = 1e6 * min(resets)

    # one world's snapshot and restore
    world = ten_bodies()
    for _ in range(40):
        world.step(DT)
    s = world.snapshot()
    out["snapshot_us"] = 1e6 * _best(world.snapshot, args.reps, 200)
    out["restore_us"] = 1e6 * _best(lambda: world.restore(s), args.reps, 200)
    took = []
    for _ in range(100):  # a reset after some steps: the contacts have changed since
        for _ in range(5):
            world.step(DT)
        t = time.process_time()
        world.restore(s)
        took.append(time.process_time() - t)
    out["restore_after_steps_us"] = 1e6 * float(np.median(took))
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
