"""Paired A/B of two source trees on the small scenes by ``World.step`` in blocks of steps, each
block timed by one pair of thread CPU readings: fresh processes, the trees alternating.

    PYTHONPATH=src python benchmarks/small_trees.py --a /work/base/src --b src \\
        [--scenes restitution,friction_ramp,chain_100] [--pairs 6] [--rounds 21] \\
        [--calls 300] [--json out.json]

``paired_cpu.py`` times each step by its own pair of ``thread_time`` readings: a system call
each under KVM, ~1 us, half of restitution's step, inside every measured step. Here a block of
``--calls`` steps is timed by one pair. Each process builds each scene as ``run.py`` builds it
(``small_split._built``: 60 steps in), takes a snapshot, and for each of ``--rounds`` rounds
restores it, takes one untimed step (the first step after a restore takes the checks) and times
``--calls`` steps of ``World.step(1/60)``; it reports the least and the median of the rounds'
per-step CPU and the motion hash after its last round. ``--pairs`` pairs of processes, one
per tree, the first of each pair alternating. Printed per scene: each tree's least and median
(over the processes' least and median), the ratios b / a, the median of the pairs' own ratios
of the least and of the median, and whether every process of both trees ended on the same
hash.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DT = 1 / 60


def one_process(scenes: list, rounds: int, calls: int) -> dict:
    sys.path.insert(0, HERE)
    from small_split import _built
    out = {}
    for key in scenes:
        world = _built(key, "impulse2d").world
        snap = world.snapshot()
        per_step = []
        for _ in range(rounds):
            world.restore(snap)
            world.step(DT)
            step = world.step
            t0 = time.thread_time()
            for _ in range(calls):
                step(DT)
            per_step.append((time.thread_time() - t0) / calls * 1e6)
        out[key] = {"least_us": min(per_step), "median_us": statistics.median(per_step),
                    "hash": world.state_hash(motion_only=True)[:16]}
    return out


def run_tree(src: str, scenes: str, rounds: int, calls: int) -> dict:
    env = dict(os.environ, PYTHONPATH=src)
    proc = subprocess.run([sys.executable, __file__, "--one", scenes, str(rounds), str(calls)],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", help="source tree A (the directory holding impulse2d)")
    parser.add_argument("--b", help="source tree B")
    parser.add_argument("--scenes", default="restitution,friction_ramp,chain_100")
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--json")
    parser.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        scenes, rounds, calls = args.one
        print(json.dumps(one_process(scenes.split(","), int(rounds), int(calls))))
        return
    runs = {"a": [], "b": []}
    loads = []
    for p in range(args.pairs):
        order = ("a", "b") if p % 2 == 0 else ("b", "a")
        for tree in order:
            runs[tree].append(run_tree(getattr(args, tree), args.scenes, args.rounds,
                                       args.calls))
        loads.append(os.getloadavg()[0])
    result = {"a": args.a, "b": args.b, "pairs": args.pairs, "rounds": args.rounds,
              "calls": args.calls, "load": [min(loads), max(loads)], "scenes": {}}
    for key in args.scenes.split(","):
        row = {}
        for stat in ("least_us", "median_us"):
            a = [r[key][stat] for r in runs["a"]]
            b = [r[key][stat] for r in runs["b"]]
            row[stat] = {"a": [min(a), statistics.median(a)], "b": [min(b), statistics.median(b)],
                         "b/a": [min(b) / min(a), statistics.median(b) / statistics.median(a)],
                         "pairs": statistics.median(y / x for x, y in zip(a, b))}
        hashes = {r[key]["hash"] for tree in runs for r in runs[tree]}
        row["same_hash"] = len(hashes) == 1
        result["scenes"][key] = row
        print(f"{key}: least a {row['least_us']['a'][0]:.3f} b {row['least_us']['b'][0]:.3f} us "
              f"(b/a {row['least_us']['b/a'][0]:.3f}, pairs {row['least_us']['pairs']:.3f}); "
              f"median a {row['median_us']['a'][1]:.3f} b {row['median_us']['b'][1]:.3f} us "
              f"(b/a {row['median_us']['b/a'][1]:.3f}, pairs {row['median_us']['pairs']:.3f}); "
              f"same hash {row['same_hash']}")
    print(f"load {result['load'][0]:.1f}-{result['load'][1]:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
