"""What a float32 world's step pays for its second region of lanes: the load after the prepare
(every field of every row rounded into the float32 lanes) and the store before restitution (the
points' written fields widened back), against its whole step, paired in one process.

    PYTHONPATH=src python benchmarks/lanes_f32_loadstore.py [--scenes pyramid_100,rain_2000]
        [--rounds 9] [--steps 10] [--warmup 30] [--out FILE]

A float32 world of each scene (built as ``run.py`` builds it, sleeping off) is stepped
``--warmup`` steps untimed, then ``--rounds`` rounds of ``--steps`` repetitions: a step (1/60 s,
the soft step: 4 substeps, a warm start, a biased and a relax pass a substep; one thread),
then the load and the store of all its rows, each called as the step calls them (once a step,
:func:`impulse2d._dynamics.contact_lanes_f32.load_rows` / ``store_rows``), each timed in thread
CPU. Printed: the median step, load and store (us), the median of the rounds'
(load + store) / step, and the lanes' bytes. This is what writing the float32 lanes in the
prepare and reading them after the solve (issue 31 item 2's second step) would take off at
most; the prepare's and the readers' own change (fewer bytes written, a conversion a field) is
not in it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent


def _kernels():
    from impulse2d._dynamics.contact_lanes_f32 import float32_offset, load_rows, store_rows
    from impulse2d._dynamics.lane_layout import flat_lanes

    @numba.njit(cache=False, _nrt=False)
    def load(cs, n):
        lanes64 = flat_lanes(cs)
        load_rows(lanes64, lanes64.view(np.float32), float32_offset(cs), 0, n)

    @numba.njit(cache=False, _nrt=False)
    def store(cs, n):
        lanes64 = flat_lanes(cs)
        store_rows(lanes64, lanes64.view(np.float32), float32_offset(cs), 0, n)

    return load, store


def measure(scene: str, rounds: int, steps: int, warmup: int) -> dict:
    import impulse2d
    import run
    from engines import build_scene
    from impulse2d._dynamics.world_ref import sync_constraints

    load, store = _kernels()
    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10), solver_precision="float32", enable_sleep=False)
    build_scene(world, builder, **params)
    for _ in range(warmup):
        world.step(1 / 60)
    sync_constraints(world)  # (world._constraints: the step's current rows)
    cs = world._constraints
    load(cs, cs.count.shape[0])  # (compiled outside the figures)
    store(cs, cs.count.shape[0])
    times = {"step": [], "load": [], "store": []}
    ratios, loads, rows = [], [], []
    for _ in range(rounds):
        medians = {k: [] for k in times}
        for _ in range(steps):
            c = time.thread_time()
            world.step(1 / 60)
            medians["step"].append(time.thread_time() - c)
            sync_constraints(world)
            cs = world._constraints
            n = cs.count.shape[0]
            rows.append(n)
            c = time.thread_time()
            load(cs, n)
            medians["load"].append(time.thread_time() - c)
            c = time.thread_time()
            store(cs, n)
            medians["store"].append(time.thread_time() - c)
        for k in times:
            times[k] += medians[k]
        m = {k: statistics.median(v) for k, v in medians.items()}
        ratios.append((m["load"] + m["store"]) / m["step"])
        loads.append(os.getloadavg()[0])
    cs = world._constraints
    return {"scene": scene, "rounds": rounds, "steps": steps, "warmup": warmup,
            "rows": int(statistics.median(rows)), "lanes_bytes": int(cs.lanes.nbytes),
            "load": [round(min(loads), 1), round(max(loads), 1)],
            **{f"{k}_median_us": round(statistics.median(v) * 1e6, 1) for k, v in times.items()},
            "(load+store)/step_median": round(statistics.median(ratios), 4),
            "(load+store)/step_range": [round(min(ratios), 4), round(max(ratios), 4)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="pyramid_100,many_pyramids,rain_2000")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--out")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    results = []
    for scene in args.scenes.split(","):
        result = measure(scene, args.rounds, args.steps, args.warmup)
        print(json.dumps(result), flush=True)
        results.append(result)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
