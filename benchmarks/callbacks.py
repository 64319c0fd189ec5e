"""What the pair filter and the pre-solve hook cost (``World.pair_filter``, ``World.pre_solve``).

The settled base-20 pyramid (210 boxes, sleeping off) and the rain of 2000 circles, each
stepped with no callback, with a pair filter that accepts every pair, and with a pre-solve
hook that accepts every contact: median step time, and the cost per call.

Writes ``benchmarks/results/callbacks.json``.

    python benchmarks/callbacks.py
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time

import impulse2d as i2d
from impulse2d.scenes import build_scene

HERE = os.path.dirname(os.path.abspath(__file__))
DT = 1.0 / 60.0
SCENES = (("pyramid_20", "pyramid", {"base": 20}, 120, 200), ("rain_2000", "rain", {}, 120, 100))


def measure(scene, params, warm, steps):
    """Three copies of the scene (no callback, pair filter, pre-solve hook) stepped in turn,
    each step timed (paired: the machine is shared and noisy); medians in ms and calls per
    step."""
    worlds, calls = [], []
    for k in range(3):
        world = i2d.World(enable_sleep=False)
        build_scene(world, scene, **params)
        count = [0]
        calls.append(count)

        def accept(*args, count=count):
            count[0] += 1
            return True

        if k == 1:
            world.pair_filter = accept
        if k == 2:
            world.pre_solve = accept
        worlds.append(world)
    for _ in range(warm):
        for world in worlds:
            world.step(DT)
    for count in calls:
        count[0] = 0
    times = [[], [], []]
    for _ in range(steps):
        for k, world in enumerate(worlds):
            t = time.perf_counter()
            world.step(DT)
            times[k].append(time.perf_counter() - t)
    return ([statistics.median(t) * 1e3 for t in times], [c[0] / steps for c in calls])


def main() -> dict:
    out = {"machine": platform.machine(), "python": platform.python_version(), "scenes": {}}
    for name, scene, params, warm, steps in SCENES:
        (none, filtered, hooked), (_, filter_calls, hook_calls) = measure(scene, params, warm,
                                                                          steps)
        row = {"ms_step": none, "ms_step_pair_filter": filtered,
               "pair_filter_calls_per_step": filter_calls,
               "ms_step_pre_solve": hooked, "pre_solve_calls_per_step": hook_calls,
               "us_per_pre_solve_call": (hooked - none) * 1e3 / max(hook_calls, 1),
               "us_per_pair_filter_call": (filtered - none) * 1e3 / max(filter_calls, 1)}
        out["scenes"][name] = row
        print(name, json.dumps({k: round(v, 3) for k, v in row.items()}))
    path = os.path.join(HERE, "results", "callbacks.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
