"""Whether a scene's step time is bimodal per process or over time: one process steps the same
600 steps again and again (restored from a snapshot each time) for ``--seconds`` and prints
each block's median step (thread CPU us) and median cycles of the step kernel.

    PYTHONPATH=src python benchmarks/step_modes.py --scene chain_100 --seconds 25

``chain_100``'s mean step read 35-39 us in some processes and 48-65 us in others (BENCHMARKS.md,
"After the 2026-11-28 evening merges"). If that were the process's own (where its arrays or its
code landed, a kernel variant), every block of one process would read alike; if the blocks of
one process switch between the two, it is the machine (the core's speed while others run).
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


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="chain_100")
    ap.add_argument("--seconds", type=float, default=25.0)
    ap.add_argument("--block", type=int, default=600)
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    from engines import make_engine
    from run import SCENES
    kind, params = SCENES[a.scene][:2]
    engine = make_engine("impulse2d", {})
    engine.build(kind, **params)
    world = engine.world
    world.settings.enable_sleep = False
    for _ in range(60):
        world.step(1 / 60)
    snap = world.snapshot()
    blocks = []
    end = time.time() + a.seconds
    while time.time() < end:
        world.restore(snap)
        cpu = np.empty(a.block)
        cyc = np.empty(a.block)
        clock = world._clock
        for i in range(a.block):
            c = time.thread_time()
            world.step(1 / 60)
            cpu[i] = time.thread_time() - c
            cyc[i] = clock[-1] - clock[0]
        blocks.append((1e6 * float(np.median(cpu)), float(np.median(cyc))))
    us = np.array([b[0] for b in blocks])
    report = {"scene": a.scene, "blocks": blocks, "load": os.getloadavg()[0],
              "median_us": float(np.median(us)), "p10_us": float(np.percentile(us, 10)),
              "p90_us": float(np.percentile(us, 90))}
    print(" ".join(f"{u:.0f}" for u, _ in blocks))
    print(f"{a.scene}: {len(blocks)} blocks of {a.block} steps, block medians p10 "
          f"{report['p10_us']:.1f} / median {report['median_us']:.1f} / p90 "
          f"{report['p90_us']:.1f} us (thread CPU); load {report['load']:.1f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)
    return report


if __name__ == "__main__":
    main()
