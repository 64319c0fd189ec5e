"""NumPy allocations a batch step makes inside compiled code (Numba's NRT counters).

    NUMBA_NRT_STATS=1 PYTHONPATH=src python benchmarks/batch_allocs.py [--worlds 1024] [--steps 120]

The world of ``batch_bench.py`` (8 circles and 2 boxes dropped on a floor; soft step, 4
substeps, sleeping on), ``--worlds`` copies in one ``WorldBatch`` (1 thread). Reported: the
NRT's allocations (each an ``np.empty``/``np.zeros``/... inside a kernel, or a new store)
per world-step over the ``--steps`` steps after the drop, and over the last ``--tail`` of them
(the settled phase), with a hash of every world's final positions and velocities. Counting
needs ``NUMBA_NRT_STATS=1`` in the environment (the counters are off otherwise); it does not
change the compiled code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--tail", type=int, default=60)
    parser.add_argument("--json")
    args = parser.parse_args()
    if os.environ.get("NUMBA_NRT_STATS") != "1":
        sys.exit("set NUMBA_NRT_STATS=1 (Numba counts allocations only then)")
    import numpy as np
    from numba.core.runtime import rtsys

    import impulse2d as i2d
    from batch_bench import ten_bodies

    batch = i2d.WorldBatch.replicate(ten_bodies(), args.worlds, threads=1)
    batch.step(1 / 60)  # compiled, references built
    per_step = []
    for _ in range(args.steps):
        before = rtsys.get_allocation_stats()
        batch.step(1 / 60)
        after = rtsys.get_allocation_stats()
        per_step.append(after.alloc - before.alloc)
    h = hashlib.sha256()
    for w in batch.worlds:
        b = w._bodies
        h.update(np.ascontiguousarray(b.origin).tobytes())
        h.update(np.ascontiguousarray(b.v).tobytes())
    allocs = np.array(per_step, dtype=float) / args.worlds
    out = {"worlds": args.worlds, "steps": args.steps,
           "allocations_per_world_step": float(allocs.mean()),
           "allocations_per_world_step_tail": float(allocs[-args.tail:].mean()),
           "allocations_per_batch_step_first": per_step[:5],
           "hash": h.hexdigest()[:16], "load": os.getloadavg()[0]}
    print(json.dumps(out, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
