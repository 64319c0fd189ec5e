"""A small world's fixed costs, for paired A/B runs of two source trees: ``World.step`` per
call (CPU time), its kernel's stages in cycles, and ``snapshot()`` / ``restore()``.

    PYTHONPATH=src python benchmarks/small_fixed.py [--json out.json]

Worlds: ``run.py``'s ``restitution`` (5 balls) and ``friction_ramp`` (5 boxes on ramps) scenes
and ``chain_100`` (100 links), built as ``run.py`` builds them, and ``batch_bench.ten_bodies``
(8 circles and 2 boxes dropped on a floor, sleeping off so that it stays awake). Each world is
stepped 60 steps untimed (compiles, contacts settle), then timed:

* ``step_us``: ``World.step(1/60)`` per call, CPU time of this process (``time.process_time``)
  over ``--steps`` steps, best of ``--reps`` runs from the same snapshot (the machine is
  shared: CPU time leaves out the time other processes held the core);
* ``kernel_us``: the compiled kernel's share (the wall time around its call, median over the
  steps, least over the runs) and ``python_us`` the rest;
* ``cycles``: each stage's cycle count (the step kernel's own cycle counter,
  ``World._clock``), median over the steps, least over the runs, and their sum;
* ``snapshot_us`` / ``restore_us``: ``world.snapshot()`` between steps and
  ``world.restore(snap)`` straight after it, best of ``--reps`` runs of 200 calls; and
  ``restore_after_steps_us``: a restore 5 steps after the last (median of 100).
* ``hash``: the state hash after the timed steps of the first run (paired runs of two trees
  must print the same).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
DT = 1.0 / 60.0


def _scene(name):
    from engines import make_engine
    from run import SCENES
    scene, params, _, _, _ = SCENES[name]
    eng = make_engine("impulse2d", {})
    eng.build(scene, **params)
    return eng.world


def _ten_bodies():
    from batch_bench import ten_bodies
    return ten_bodies(sleep=False)


WORLDS = {"restitution": lambda: _scene("restitution"),
          "friction_ramp": lambda: _scene("friction_ramp"),
          "chain_100": lambda: _scene("chain_100"), "ten_bodies": _ten_bodies}


def measure(name, steps, reps):
    world = WORLDS[name]()
    for _ in range(60):
        world.step(DT)
    snap = world.snapshot()
    best = float("inf")
    kernel = []
    cycles = []
    digest = None
    step = world.step
    for r in range(reps):
        world.restore(snap)
        world.step(DT)  # the first step after a restore is not a step like the others
        ks = np.empty(steps)
        cs = np.empty((steps, len(STAGES)), dtype=np.int64)
        clock = world._clock
        t = time.process_time()
        for i in range(steps):
            step(DT)
        total = time.process_time() - t
        best = min(best, total / steps)
        if r == 0:
            digest = world.state_hash()
        # a second pass for the kernel's own clocks (reading them costs Python time)
        world.restore(snap)
        world.step(DT)
        for i in range(steps):
            step(DT)
            ks[i] = world._step_seconds
            cs[i] = np.diff(clock)
        kernel.append(np.median(ks))
        cycles.append(np.median(cs, axis=0))
    cyc = np.min(cycles, axis=0)
    out = {"step_us": 1e6 * best, "kernel_us": 1e6 * min(kernel),
           "python_us": 1e6 * (best - min(kernel)),
           "cycles": dict(zip(STAGES, (int(c) for c in cyc))), "cycles_total": int(cyc.sum()),
           "hash": digest}
    world.restore(snap)
    world.step(DT)
    s = world.snapshot()
    took = []
    for _ in range(reps):
        t = time.process_time()
        for _ in range(200):
            world.snapshot()
        took.append((time.process_time() - t) / 200)
    out["snapshot_us"] = 1e6 * min(took)
    took = []
    for _ in range(reps):
        t = time.process_time()
        for _ in range(200):
            world.restore(s)
        took.append((time.process_time() - t) / 200)
    out["restore_us"] = 1e6 * min(took)
    took = []
    for _ in range(100):
        for _ in range(5):
            world.step(DT)
        t = time.perf_counter()
        world.restore(s)
        took.append(time.perf_counter() - t)
    out["restore_after_steps_us"] = 1e6 * float(np.median(took))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worlds", default=",".join(WORLDS))
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    res = {"load_before": os.getloadavg()[0]}
    for name in args.worlds.split(","):
        r = measure(name, args.steps, args.reps)
        res[name] = r
        c = r["cycles"]
        print(f"{name:13s} step {r['step_us']:6.2f} us (kernel {r['kernel_us']:6.2f}, python "
              f"{r['python_us']:5.2f}) cycles {r['cycles_total']:7d} ["
              + " ".join(f"{k} {v}" for k, v in c.items()) + f"] snapshot {r['snapshot_us']:.1f}"
              f" restore {r['restore_us']:.1f} / {r['restore_after_steps_us']:.1f} us "
              f"hash {r['hash'][:12]}", flush=True)
    res["load_after"] = os.getloadavg()[0]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return res


if __name__ == "__main__":
    main()
