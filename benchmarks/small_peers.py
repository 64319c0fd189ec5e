"""impulse2d against a peer (pymunk by default) on the small scenes, by per-step thread CPU
time, both engines in one process: for a machine too loaded for ``run.py``'s wall-clock means
(one preempted step outweighs hundreds of 5-us steps; restitution's paired ratio spread
0.20-23.8 in one run at load 10, 2026-11-29).

    PYTHONPATH=src /path/to/bench-venv/bin/python benchmarks/small_peers.py \\
        --scenes restitution,friction_ramp,chain_100 --rounds 3

Each round builds each scene afresh for each engine (as ``run.py`` builds it, its steps),
alternating which engine goes first, steps it ``run.py``'s count of steps and records the
median and the mean of the per-step thread CPU time (steps 2..N, as ``run.py`` leaves step 1
out). Prints, per scene and statistic, each engine's best and median round and the ratios
impulse2d / peer of the best and of the median rounds. The peer is imported from the environment (``pip install -e
'.[bench]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def one_run(scene_key: str, engine_name: str) -> tuple:
    """Median and mean thread CPU time of a step (us) of ``scene_key`` on ``engine_name``:
    the mean holds the rare steps that cost more (a store made and handed to Python), which
    ``run.py``'s means weigh and a median leaves out."""
    from engines import make_engine
    from run import SCENES
    scene, params, steps, _, _ = SCENES[scene_key]
    eng = make_engine(engine_name, {})
    eng.build(scene, **params)
    step = eng.step
    clock = time.thread_time
    cpu = []
    for i in range(steps):
        t = clock()
        step()
        if i > 0:
            cpu.append(clock() - t)
    return 1e6 * statistics.median(cpu), 1e6 * statistics.mean(cpu)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="restitution,friction_ramp,chain_100")
    parser.add_argument("--peer", default="pymunk")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    engines = ("impulse2d", args.peer)
    for name in args.scenes.split(","):  # untimed: kernels loaded, imports done
        for engine in engines:
            one_run(name, engine)
    out = {"load_before": os.getloadavg()[0], "peer": args.peer}
    for name in args.scenes.split(","):
        runs = {engine: [] for engine in engines}
        for r in range(args.rounds):
            for engine in engines if r % 2 == 0 else engines[::-1]:
                runs[engine].append(one_run(name, engine))
        row = {}
        for k, stat in enumerate(("median", "mean")):
            for engine, v in runs.items():
                values = [x[k] for x in v]
                row[f"{engine}_{stat}"] = [round(min(values), 2),
                                           round(statistics.median(values), 2)]
            row[f"ratio_{stat}"] = [round(row[f"impulse2d_{stat}"][j]
                                          / row[f"{args.peer}_{stat}"][j], 3) for j in (0, 1)]
        row["rounds"] = {engine: [[round(x, 2) for x in pair] for pair in v]
                         for engine, v in runs.items()}
        out[name] = row
        print(json.dumps({"scene": name, **row}), flush=True)
    out["load_after"] = os.getloadavg()[0]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
