"""Issue 30's 10-body batch in float32 against float64 (``WorldSettings.solver_precision``),
paired in one process: does the float32 contact solver pay for small worlds?

    PYTHONPATH=src python benchmarks/lanes_f32_batch.py [--sizes 64,1024] [--rounds 7]
        [--steps 120] [--sleep 1] [--out FILE]

The world is :func:`batch_bench.ten_bodies` (8 circles, 2 boxes dropped onto a floor). A
**world-step**: one 1/60 s soft step (4 substeps, a warm start, a biased and a relax pass a
substep) of one such world, in a ``WorldBatch`` on one thread. Each round replicates the world
``n`` times at each precision (fresh batches) and steps each batch ``--steps`` steps after the
drop, timed in thread CPU, the precisions' order swapped every round. A float64 world of 10
bodies solves its contacts row by row (``contact_lanes.MIN_BODIES``), a float32 one in the
float32 lanes whatever its size (``step.LANES_F32_KERNEL``). Printed: each precision's median
CPU per world-step (us) and the median of the rounds' float32 / float64 ratios, with their
range and the load.
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
PRECISIONS = ("float64", "float32")


def _batch(n: int, precision: str, sleep: bool):
    import impulse2d as i2d
    from batch_bench import ten_bodies

    world = ten_bodies(sleep=sleep)
    world.settings.solver_precision = precision
    return i2d.WorldBatch.replicate(world, n, threads=1)


def _cpu(batch, steps: int) -> float:
    c = time.thread_time()
    for _ in range(steps):
        batch.step(1 / 60)
    return time.thread_time() - c


def measure(n: int, rounds: int, steps: int, sleep: bool) -> dict:
    for p in PRECISIONS:  # compile or load every kernel, outside the figures
        _cpu(_batch(4, p, sleep), 3)
    per = {p: [] for p in PRECISIONS}
    ratios, loads = [], []
    for r in range(rounds):
        got = {}
        for p in PRECISIONS if r % 2 == 0 else PRECISIONS[::-1]:
            got[p] = _cpu(_batch(n, p, sleep), steps) / (n * steps)
            per[p].append(got[p])
        ratios.append(got["float32"] / got["float64"])
        loads.append(os.getloadavg()[0])
    return {"worlds": n, "steps": steps, "rounds": rounds, "sleep": sleep,
            "load": [round(min(loads), 1), round(max(loads), 1)],
            **{f"{p}_us_per_world_step": round(statistics.median(v) * 1e6, 2)
               for p, v in per.items()},
            "f32/f64_median": round(statistics.median(ratios), 3),
            "f32/f64_range": [round(min(ratios), 3), round(max(ratios), 3)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="64,1024")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--sleep", type=int, default=1)
    parser.add_argument("--out")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    results = []
    for n in (int(s) for s in args.sizes.split(",")):
        result = measure(n, args.rounds, args.steps, bool(args.sleep))
        print(json.dumps(result), flush=True)
        results.append(result)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
