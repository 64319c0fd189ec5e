"""A whole step with the contact passes in float32 (``WorldSettings(solver_precision="float32")``)
against float64, paired in one process: the same tree, two worlds of each scene.

    PYTHONPATH=src python benchmarks/lanes_f32_step.py [--scenes pyramid_100,rain_2000]
        [--rounds 9] [--steps 10] [--warmup 30] [--out FILE]

Each scene is built twice as ``run.py`` builds it (sleeping off), one world per precision, and
both are stepped ``--warmup`` steps (untimed: the pyramids settle into their load, the rain
starts to pile). Then ``--rounds`` rounds: each world steps ``--steps`` steps, each step's
thread CPU timed, the worlds' order swapped every round, so that the machine's drift between
minutes reaches both alike. A step: 1/60 s, the default soft step (4 substeps, one biased and
one relax pass a substep, a warm start), one thread. Printed per scene: the median step of each
precision over all rounds, the median of the rounds' float32 / float64 ratios (of their median
steps), their range, and the load.
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


def _world(scene: str, precision: str):
    import impulse2d
    import run
    from engines import build_scene

    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10), solver_precision=precision, enable_sleep=False)
    build_scene(world, builder, **params)
    return world


def _steps(world, steps: int) -> list:
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
    return cpu


def measure(scene: str, rounds: int, steps: int, warmup: int) -> dict:
    worlds = {p: _world(scene, p) for p in PRECISIONS}
    for world in worlds.values():
        _steps(world, warmup)
    times = {p: [] for p in PRECISIONS}
    ratios, loads = [], []
    for r in range(rounds):
        medians = {}
        for p in PRECISIONS if r % 2 == 0 else PRECISIONS[::-1]:
            cpu = _steps(worlds[p], steps)
            times[p] += cpu
            medians[p] = statistics.median(cpu)
        ratios.append(medians["float32"] / medians["float64"])
        loads.append(os.getloadavg()[0])
    return {"scene": scene, "rounds": rounds, "steps": steps, "warmup": warmup,
            "load": [round(min(loads), 1), round(max(loads), 1)],
            **{f"{p}_median_us": round(statistics.median(times[p]) * 1e6, 1)
               for p in PRECISIONS},
            "f32/f64_median": round(statistics.median(ratios), 3),
            "f32/f64_range": [round(min(ratios), 3), round(max(ratios), 3)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="pyramid_100,many_pyramids,rain_2000")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--out")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    rows = []
    for scene in args.scenes.split(","):
        row = measure(scene, args.rounds, args.steps, args.warmup)
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
