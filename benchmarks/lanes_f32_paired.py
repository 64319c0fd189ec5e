"""Paired A/B of two source trees on the big contact scenes in float32
(``WorldSettings(solver_precision="float32")``), by per-step thread CPU time:
``paired_cpu.py``'s rounds (fresh processes alternating, :func:`paired_cpu.alternate`) with the
worlds in float32.

    python benchmarks/lanes_f32_paired.py --a /path/to/main/src --b src \
        [--scenes pyramid_100,many_pyramids,rain_2000] [--rounds 6] [--out FILE]

A run: the scene built as ``run.py`` builds it (sleeping off), in float32, stepped
``paired_cpu.STEPS`` steps of 1/60 s (the default soft step: 4 substeps, a warm start, a biased
and a relax pass a substep, one thread), each step's thread CPU timed, the first left out.
Printed per scene (a JSON line): each tree's best and median round of the median and mean step
(us), the ratios b / a of those, whether every run of both trees ended in one state hash, and
the load.
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
sys.path.insert(0, str(HERE))

from paired_cpu import STEPS, alternate  # noqa: E402  (this directory, put on the path above)


def one_run(scene: str, steps: int) -> dict:
    """Build ``scene`` in float32 in this process (the impulse2d on ``sys.path``), time
    ``steps`` steps."""
    import impulse2d
    import run
    from engines import build_scene

    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10), solver_precision="float32", enable_sleep=False)
    build_scene(world, builder, **params)
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
    cpu = cpu[1:]
    return {"cpu_median_us": statistics.median(cpu) * 1e6,
            "cpu_mean_us": statistics.mean(cpu) * 1e6, "hash": world.state_hash()[:16]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="source tree A (the directory of impulse2d)")
    parser.add_argument("--b", required=True, help="source tree B")
    parser.add_argument("--scenes", default="pyramid_100,many_pyramids,rain_2000")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--out")
    parser.add_argument("--one", nargs=2, metavar=("SCENE", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one[0], int(args.one[1]))))
        return
    trees = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    rows = []
    for scene in args.scenes.split(","):
        runs, loads = alternate(__file__, trees, scene, STEPS[scene], args.rounds)
        row = {"scene": scene, "precision": "float32", "rounds": args.rounds,
               "load": [round(min(loads), 1), round(max(loads), 1)],
               "same_hash": len({x["hash"] for x in runs["a"] + runs["b"]}) == 1,
               "hashes": {who: sorted({x["hash"] for x in runs[who]}) for who in runs}}
        for who in ("a", "b"):
            for key in ("cpu_median_us", "cpu_mean_us"):
                values = [x[key] for x in runs[who]]
                row[f"{who}_{key}"] = [round(min(values), 1), round(statistics.median(values), 1)]
        for key in ("cpu_median_us", "cpu_mean_us"):
            row[f"b/a_{key}"] = [round(row[f"b_{key}"][k] / row[f"a_{key}"][k], 3) for k in (0, 1)]
        pairs = [b["cpu_median_us"] / a["cpu_median_us"] for a, b in zip(runs["a"], runs["b"])]
        row["b/a_pairs_median"] = round(statistics.median(pairs), 3)
        row["b/a_pairs"] = [round(x, 3) for x in pairs]
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(row) + "\n" for row in rows))


if __name__ == "__main__":
    main()
