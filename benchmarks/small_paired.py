"""Paired A/B of two source trees on the small world that issue 30 steps by the thousand:
``batch_bench.ten_bodies()`` (a ground, 8 circles, 2 boxes; sleeping off) stepped alone with
``World.step``, by per-step thread CPU time.

    python benchmarks/small_paired.py --a /work/main/src --b src --rounds 5

Each round runs each tree in a fresh process (alternating which goes first), steps the world
``--steps`` times after 60 untimed steps (the bodies have landed: contact rows every step),
and records the median and mean per-step CPU time and a hash of the final motion (the trees
must agree). Prints the best and median round of each tree and the ratios b / a.
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


def one_run(steps: int) -> dict:
    sys.path.insert(0, str(HERE))
    from batch_bench import ten_bodies
    from impulse2d._dynamics.world_ref import sync_constraints
    world = ten_bodies(sleep=False)
    for _ in range(60):
        world.step(1 / 60)
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
    sync_constraints(world)  # the step's newest constraint store
    return {"median_us": statistics.median(cpu) * 1e6, "mean_us": statistics.mean(cpu) * 1e6,
            "rows": int(world._constraints.count.shape[0]),
            "hash": world.state_hash(motion_only=True)[:16]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="/work/main/src")
    ap.add_argument("--b", default="src")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one)))
        return
    trees = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    runs = {"a": [], "b": []}
    for r in range(args.rounds):
        for who in ("a", "b") if r % 2 == 0 else ("b", "a"):
            env = dict(os.environ, PYTHONPATH=trees[who])
            out = subprocess.run([sys.executable, __file__, "--one", str(args.steps)], env=env,
                                 capture_output=True, text=True)
            lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
            if not lines:
                sys.exit(f"{who} failed:\n{out.stderr[-2000:]}")
            runs[who].append(json.loads(lines[-1]))
    row = {"rounds": args.rounds, "load": round(os.getloadavg()[0], 1),
           "rows": runs["a"][0]["rows"],
           "same_hash": len({x["hash"] for x in runs["a"] + runs["b"]}) == 1}
    for key in ("median_us", "mean_us"):
        for who in ("a", "b"):
            values = [x[key] for x in runs[who]]
            row[f"{who}_{key}"] = [round(min(values), 2), round(statistics.median(values), 2)]
        row[f"b/a_{key}"] = [round(row[f"b_{key}"][k] / row[f"a_{key}"][k], 3) for k in (0, 1)]
    print(json.dumps(row))


if __name__ == "__main__":
    main()
