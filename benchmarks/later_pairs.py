"""What a step costs while the search around the moved boxes is not delivered yet (its slot 0 in
the table of verbs, ``step.LATER_SLOTS``: a cold start's first steps, the pair stage taking the
global search instead), against the same step with it; and that both give the same bits.

    PYTHONPATH=src python benchmarks/later_pairs.py [--rounds 9] [--json out.json]

Two copies of each scene in one process (the tree's cached kernels), stepped alike past
their first steps; then one copy's slot is set to 0 and the two step alternately, a block of
steps each in turn (the order swapped every round), timed by the thread's CPU clock. Per scene:
the median of the rounds' ratios (slot 0 over the search), each copy's median step, and whether
the two states hash the same at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import impulse2d as i2d
from impulse2d._dynamics import verbs
from impulse2d.scenes import build_scene

SCENES = {"pyramid_20": ("pyramid", {"base": 20}), "pyramid_100": ("pyramid", {"base": 100}),
          "rain_2000": ("rain", {"count": 2000}),
          "many_pyramids": ("many_pyramids", {"grid": 10, "base": 10})}


def _world(name):
    scene, params = SCENES[name]
    world = i2d.World(enable_sleep=False)
    build_scene(world, scene, **params)
    return world


def _block(world, steps):
    t0 = time.thread_time()
    for _ in range(steps):
        world.step(1.0 / 60.0)
    return (time.thread_time() - t0) / steps


def measure(name, rounds, steps, warm):
    searched, global_only = _world(name), _world(name)
    for world in (searched, global_only):
        for _ in range(warm):
            world.step(1.0 / 60.0)
    assert searched._verbs[verbs.MOVED_PAIRS] != 0
    global_only._verbs[verbs.MOVED_PAIRS] = 0
    ratios, a, b = [], [], []
    for r in range(rounds):
        pair = (searched, global_only) if r % 2 == 0 else (global_only, searched)
        times = {id(w): _block(w, steps) for w in pair}
        a.append(times[id(searched)])
        b.append(times[id(global_only)])
        ratios.append(b[-1] / a[-1])
    return {"scene": name, "rounds": rounds, "steps": steps, "warm_steps": warm,
            "ratio_median": statistics.median(ratios), "ratios": ratios,
            "searched_step_us": statistics.median(a) * 1e6,
            "global_step_us": statistics.median(b) * 1e6,
            "same_state": searched.state_hash() == global_only.state_hash(),
            "load_1min": os.getloadavg()[0]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default=",".join(SCENES))
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--warm", type=int, default=30)
    ap.add_argument("--json")
    a = ap.parse_args()
    rows = []
    for name in a.scenes.split(","):
        row = measure(name, a.rounds, a.steps, a.warm)
        rows.append(row)
        print(f"{name}: slot 0 / search {row['ratio_median']:.3f} (median of {a.rounds}; steps "
              f"{row['global_step_us']:.0f} / {row['searched_step_us']:.0f} us), same state "
              f"{row['same_state']}, load {row['load_1min']:.1f}", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
