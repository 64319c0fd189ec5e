"""Small worlds' ``snapshot()``, ``restore()`` and a reset (``restore`` then ``step``) by thread
CPU time, two source trees paired in fresh processes: for a machine too loaded for wall clocks.

    python benchmarks/snapshot_cpu.py --a /path/to/main/src --b src --rounds 3 \\
        [--json benchmarks/results/snapshot_cpu.json]

Worlds (:mod:`snapshot_small`'s): ``two`` (a box on a floor), ``ten`` (8 circles and 2 boxes on
a floor, the batch's small world), every body kept awake, 60 steps, then a snapshot. Each round
runs each tree in a fresh process (alternating which goes first); a process times ``--calls``
calls of each operation ``--reps`` times over and keeps the least and the median per call, in
microseconds of its thread's CPU. A reset is ``world.restore(snap)`` then ``world.step(1/60)``
(what a reinforcement-learning environment's reset and first step cost); the step alone is
timed too, so that the reset's restore share reads as reset - step. The processes print the
state hash after a reset and 30 steps: the trees must agree.

``--one`` (internal): one process's measurement, as JSON on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPS = ("snapshot", "restore", "reset", "step")


def one(reps: int, calls: int) -> dict:
    sys.path.insert(0, str(HERE))
    import impulse2d as i2d
    from snapshot_small import DT, ten, two
    out = {}
    for name, build in (("two", two), ("ten", ten)):
        world = i2d.World(gravity=(0.0, -10.0))
        build(world)
        for _ in range(60):
            world.step(DT)
        snap = world.snapshot()
        world.restore(snap)
        world.step(DT)

        def op_snapshot():
            world.snapshot()

        def op_restore():
            world.restore(snap)

        def op_reset():
            world.restore(snap)
            world.step(DT)

        def op_step():
            world.step(DT)

        ops = {"snapshot": op_snapshot, "restore": op_restore, "reset": op_reset,
               "step": op_step}
        times = {op: [] for op in OPS}
        for _ in range(reps):
            for op in OPS:
                f = ops[op]
                world.restore(snap)  # (each op from the snapshot's state)
                t = time.thread_time()
                for _ in range(calls):
                    f()
                times[op].append((time.thread_time() - t) / calls * 1e6)
        world.restore(snap)
        for _ in range(30):
            world.step(DT)
        out[name] = {op: {"least_us": round(min(v), 2), "median_us": round(statistics.median(v), 2)}
                     for op, v in times.items()}
        out[name]["hash"] = world.state_hash()[:12]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", help="tree A's src (e.g. main's)")
    parser.add_argument("--b", help="tree B's src")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--json")
    parser.add_argument("--one", action="store_true")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.reps, args.calls)))
        return 0
    trees = {"a": args.a, "b": args.b}
    runs = {"a": [], "b": []}
    out = {"load_start": os.getloadavg(), "trees": trees, "reps": args.reps,
           "calls": args.calls, "rounds": []}
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        row = {}
        for tree in order:
            env = dict(os.environ, PYTHONPATH=trees[tree])
            done = subprocess.run([sys.executable, __file__, "--one", "--reps", str(args.reps),
                                   "--calls", str(args.calls)], env=env, check=True,
                                  capture_output=True, text=True)
            row[tree] = json.loads(done.stdout.splitlines()[-1])
            runs[tree].append(row[tree])
        row["load"] = os.getloadavg()
        out["rounds"].append(row)
        for world in ("two", "ten"):
            print(f"round {r} {world:4s} " + "  ".join(
                f"{op} {row['a'][world][op]['least_us']:6.1f}->{row['b'][world][op]['least_us']:6.1f}"
                for op in OPS) + f"  hashes {row['a'][world]['hash']} {row['b'][world]['hash']}"
                f"  load {row['load'][0]:.1f}", flush=True)
    out["best"] = {tree: {world: {op: min(run[world][op]["least_us"] for run in runs[tree])
                                  for op in OPS} for world in ("two", "ten")}
                   for tree in runs if runs[tree]}
    out["load_end"] = os.getloadavg()
    print(json.dumps(out["best"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
