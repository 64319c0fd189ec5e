"""A batch's restore of some of its worlds, per world restored: CPU time, paired between trees.

    python benchmarks/batch_restore.py --trees /work/base . [--rounds 3] [--worlds 256]
        [--restores 30] [--steps 5] [--json benchmarks/results/batch_restore_s10.json]

Each round runs one process per tree (alternating, so that both meet the same load), each
with that tree's ``src`` first on the path. In a process: ``WorldBatch.replicate`` of the
batch benchmark's 10-body world (8 circles and 2 boxes dropped on a floor; soft step, 4
substeps, 1 iteration, sleeping on) ``--worlds`` times, 10 steps of 1/60 s, a snapshot of the
batch; then ``--restores`` times: ``--steps`` steps of every world (their contacts change, so
that the stores the step left in each world's reference are newer than Python's, as in an
environment's episode), and ``WorldBatch.restore`` of 8 worlds drawn at random (a next-step autoreset's usual count for 1,024
landers), timed with the thread's CPU clock (``time.thread_time``: the restore is serial
Python and one compiled copy, so its CPU time is its time whatever the load). Reported: the
median and the minimum over the restores, us per world restored, and a hash of every
world's state after the last restore (equal between trees that restore the same bits).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(worlds: int, restores: int, steps: int) -> dict:
    import hashlib
    import time

    import numpy as np

    import impulse2d as i2d
    sys.path.insert(0, HERE)
    from batch_bench import ten_bodies

    batch = i2d.WorldBatch.replicate(ten_bodies(), worlds)
    for _ in range(10):
        batch.step(1 / 60)
    snap = batch.snapshot()
    rng = np.random.default_rng(0)
    times = []
    for _ in range(restores):
        for _ in range(steps):
            batch.step(1 / 60)
        chosen = np.sort(rng.choice(worlds, 8, replace=False))
        t = time.thread_time()
        batch.restore(snap, worlds=chosen)
        times.append((time.thread_time() - t) / 8)
    digest = hashlib.sha256()
    for w in batch.worlds:
        digest.update(w.state_hash().encode())
    return {"median_us": round(statistics.median(times) * 1e6, 2),
            "min_us": round(min(times) * 1e6, 2), "hash": digest.hexdigest()[:16],
            "load": round(os.getloadavg()[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", default=["."])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=256)
    parser.add_argument("--restores", type=int, default=30)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.worlds, args.restores, args.steps)))
        return
    rows = []
    for r in range(args.rounds):
        for tree in args.trees:
            tree = os.path.abspath(tree)
            env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src"))
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--one",
                                  "--worlds", str(args.worlds), "--restores",
                                  str(args.restores), "--steps", str(args.steps)],
                                 env=env, check=True,
                                 capture_output=True, text=True).stdout
            row = {"round": r + 1, "tree": tree, **json.loads(out.strip().splitlines()[-1])}
            rows.append(row)
            print(json.dumps(row), flush=True)
    result = {"what": "WorldBatch.restore of 8 of the worlds, thread CPU per world restored",
              "worlds": args.worlds, "restores": args.restores,
              "world": "10 bodies (8 circles, 2 boxes on a floor), soft step, 4 substeps, "
                       f"1 iteration, sleeping on; {args.steps} steps of 1/60 s between "
                       "restores",
              "rows": rows}
    if len(args.trees) == 2:
        first, second = (os.path.abspath(t) for t in args.trees)
        ratios = [b["median_us"] / a["median_us"] for a, b in
                  zip([x for x in rows if x["tree"] == first],
                      [x for x in rows if x["tree"] == second])]
        result["ratio_second_over_first"] = [round(x, 3) for x in ratios]
        result["median_ratio"] = round(statistics.median(ratios), 3)
        print(f"median ratio {result['median_ratio']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
