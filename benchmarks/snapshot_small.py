"""Small worlds' ``snapshot()`` / ``restore()``: the fast path against the checked path, paired.

    PYTHONPATH=src python benchmarks/snapshot_small.py [--json benchmarks/results/snapshot_small.json]

Worlds: ``two`` (a box on a floor: 2 bodies), ``ten`` (8 circles and 2 boxes on a floor, the
batch's small world) and ``lander`` (LunarLander's hull and legs on their joints on a floor),
stepped 60 steps with every body kept awake, one world per path. In turn and in the same loop
(so that they share the machine's load): ``world.snapshot()`` and ``world.restore(snap)`` through the
fast path (:mod:`impulse2d._snapshot_copy`) and through the checked path (the fast path's
``plan_for`` made to find no plan, as without the JIT), and a reinforcement-learning reset:
``restore`` then one ``step`` (the step after a checked restore rebuilds the stores'
reference and the table of kernels; after a fast one, when the contacts are as many as in the
snapshot, it does not). Median and least of ``--reps`` timings, in microseconds.

The paired loop leaves the caches cold for each fast call (the checked path's 300-us calls come
between). ``--loop N`` (0: none) then times each world's fast ``snapshot()`` alone, ``N`` calls
in a row, and its ``restore(snap)`` alone likewise: each call by the wall clock (median and
least), and the loop's mean by the thread's CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import impulse2d as i2d
from impulse2d import _snapshot_copy

DT = 1.0 / 60.0


def two(world):
    floor = world.create_body("static")
    floor.create_box(20.0, 0.5, center=(0.0, -0.5))
    box = world.create_body(position=(0.0, 0.5), allow_sleep=False)
    box.create_box(0.5, 0.5)


def ten(world):
    floor = world.create_body("static")
    floor.create_box(20.0, 0.5, center=(0.0, -0.5))
    for k in range(8):
        ball = world.create_body(position=(-7.0 + 2.0 * k, 0.5), allow_sleep=False)
        ball.create_circle(0.5)
    for k in range(2):
        box = world.create_body(position=(-3.0 + 6.0 * k, 0.5), allow_sleep=False)
        box.create_box(0.5, 0.5)


def lander(world):
    floor = world.create_body("static")
    floor.create_segment((-20.0, 0.0), (20.0, 0.0))
    hull = world.create_body(position=(0.0, 1.2), allow_sleep=False)
    hull.create_box(0.57, 0.45, density=5.0)
    for side in (-1.0, 1.0):
        leg = world.create_body(position=(0.6 * side, 0.6), allow_sleep=False)
        leg.create_box(0.07, 0.27)
        world.create_revolute_joint(hull, leg, (0.6 * side, 0.85), enable_limit=True,
                                    lower_angle=-0.4, upper_angle=0.4, enable_motor=True,
                                    max_motor_torque=40.0, motor_speed=0.3 * side)


def checked(flag):
    _snapshot_copy.plan_for = _no_plan if flag else _PLAN_FOR


_PLAN_FOR = _snapshot_copy.plan_for


def _no_plan(*args):
    return None


def measure(build, reps):
    worlds, snaps = {}, {}
    for mode in ("fast", "checked"):  # a world each: a checked restore replaces every store
        checked(mode == "checked")
        world = worlds[mode] = i2d.World(gravity=(0.0, -10.0))
        build(world)
        for _ in range(60):
            world.step(DT)
        snaps[mode] = world.snapshot()
        world.restore(snaps[mode])
    times = {f"{what}_{mode}": [] for what in ("snapshot", "restore", "reset_step")
             for mode in ("fast", "checked")}
    clock = time.perf_counter
    for _ in range(reps):
        for mode in ("fast", "checked"):
            checked(mode == "checked")
            world = worlds[mode]
            t0 = clock()
            snap = world.snapshot()
            t1 = clock()
            world.restore(snaps[mode])
            t2 = clock()
            world.step(DT)
            t3 = clock()
            times[f"snapshot_{mode}"].append(t1 - t0)
            times[f"restore_{mode}"].append(t2 - t1)
            times[f"reset_step_{mode}"].append(t3 - t1)
            del snap
    checked(False)
    return {k: {"median_us": round(1e6 * statistics.median(v), 2),
                "min_us": round(1e6 * min(v), 2)} for k, v in times.items()}


def loop(build, calls):
    """Each fast call alone, ``calls`` in a row (see the module's text)."""
    world = i2d.World(gravity=(0.0, -10.0))
    build(world)
    for _ in range(60):
        world.step(DT)
    snap = world.snapshot()
    clock = time.perf_counter
    out = {}
    for what, call in (("snapshot", world.snapshot), ("restore", lambda: world.restore(snap))):
        walls = []
        c0 = time.thread_time()
        for _ in range(calls):
            t0 = clock()
            call()
            walls.append(clock() - t0)
        cpu = (time.thread_time() - c0) / calls
        out[what] = {"median_us": round(1e6 * statistics.median(walls), 2),
                     "min_us": round(1e6 * min(walls), 2), "cpu_mean_us": round(1e6 * cpu, 2)}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--loop", type=int, default=2000)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    out = {"load_start": os.getloadavg(), "reps": args.reps, "worlds": {}}
    for name, build in (("two", two), ("ten", ten), ("lander", lander)):
        r = out["worlds"][name] = measure(build, args.reps)
        for what in ("snapshot", "restore", "reset_step"):
            f, c = r[f"{what}_fast"], r[f"{what}_checked"]
            print(f"{name:7s} {what:11s} fast {f['median_us']:8.1f} us (min {f['min_us']:7.1f})"
                  f"   checked {c['median_us']:8.1f} us (min {c['min_us']:7.1f})"
                  f"   {c['median_us'] / f['median_us']:5.1f}x", flush=True)
    if args.loop:
        out["loop"] = {"calls": args.loop, "worlds": {}}
        for name, build in (("two", two), ("ten", ten), ("lander", lander)):
            r = out["loop"]["worlds"][name] = loop(build, args.loop)
            for what, t in r.items():
                print(f"{name:7s} {what:11s} alone in a loop {t['median_us']:8.1f} us "
                      f"(min {t['min_us']:7.1f}; CPU mean {t['cpu_mean_us']:7.1f})", flush=True)
    out["load_end"] = os.getloadavg()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
