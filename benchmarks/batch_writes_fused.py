"""The native environments' writes made by the batch step (``WorldBatch._writes``, ridden on
``_step_state``) against the same writes by the public methods before it, in one process,
alternating: for a machine too loaded for runs in separate processes.

    PYTHONPATH=src python benchmarks/batch_writes_fused.py [--env lander|walker] [--n 1024]

Builds the environment's batch (``impulse2d/LunarLander-v3``: 1,024 landers; ``walker``:
BipedalWalker-v3), resets it with seed 0, and then, in blocks of ``--block`` steps, alternates

* **public**: ``apply_impulses`` (lander; walker: ``set_motor_speeds`` and
  ``set_max_motor_torques``) then ``_step_state(dt)``;
* **fused**: ``_step_state(dt, _writes(...))``, the writes made by the kernel before each
  world's step,

with the same seeded random actions' writes (the lander's engine impulses on the lander body;
the walker's motor speeds and torques), every world restored to its reset state after each
block (not timed), so both see the same worlds. Records the thread CPU time (``time.thread_time``,
one thread: the batch's threads set to 1) per world-step of each block; prints the medians and
the median of the paired ratios fused / public, and checks that the two variants' states after
a block are equal bit for bit (they must be).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def _writes_for(env: str, rng, n: int, nb: int, nj: int) -> dict:
    if env == "lander":
        p = np.zeros((n, nb, 3))
        p[:, 0, :2] = rng.normal(size=(n, 2)) * 2.0   # N s, about an engine's
        p[:, 0, 2] = rng.normal(size=n) * 0.05        # N m s
        return {"impulses": p}
    a = rng.uniform(-1.0, 1.0, size=(n, nj))
    return {"motor_speeds": 4.0 * np.sign(a), "max_motor_torques": 80.0 * np.abs(a)}


def _public(batch, w: dict) -> None:
    if "impulses" in w:
        batch.apply_impulses(w["impulses"])
    else:
        batch.set_motor_speeds(w["motor_speeds"])
        batch.set_max_motor_torques(w["max_motor_torques"])


def main() -> None:
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=("lander", "walker"), default="lander")
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--block", type=int, default=5)
    parser.add_argument("--blocks", type=int, default=40)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    ids = {"lander": "impulse2d/LunarLander-v3", "walker": "impulse2d/BipedalWalker-v3"}
    envs = gym.make_vec(ids[args.env], num_envs=args.n, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    batch = envs.batch
    batch.threads = 1
    start = batch.snapshot()
    n, nb = args.n, len(batch.body_rows)
    nj = 0 if args.env == "lander" else 4
    dt = envs.dt
    rng = np.random.default_rng(0)
    plans = [[_writes_for(args.env, rng, n, nb, nj) for _ in range(args.block)]
             for _ in range(args.blocks)]
    for w in plans[0]:  # warm: every kernel of both paths loaded
        _public(batch, w)
        batch._step_state(dt)
        batch._step_state(dt, batch._writes(**w))
    batch.restore(start)
    times = {"public": [], "fused": []}
    hashes = {"public": [], "fused": []}
    for b, plan in enumerate(plans):
        for variant in (("public", "fused") if b % 2 == 0 else ("fused", "public")):
            batch.restore(start)
            c0 = time.thread_time()
            for w in plan:
                if variant == "public":
                    _public(batch, w)
                    batch._step_state(dt)
                else:
                    batch._step_state(dt, batch._writes(**w))
            times[variant].append((time.thread_time() - c0) / (n * args.block) * 1e6)
            v = batch.get_velocities()
            hashes[variant].append(hash(v.tobytes()))
    assert hashes["public"] == hashes["fused"], "the two paths' states differ"
    ratios = np.array(times["fused"]) / np.array(times["public"])
    out = {"env": args.env, "n": n, "block": args.block, "blocks": args.blocks,
           "public_us_median": round(float(np.median(times["public"])), 3),
           "fused_us_median": round(float(np.median(times["fused"])), 3),
           "paired_ratio_median": round(float(np.median(ratios)), 4),
           "states_equal": True, "load": round(os.getloadavg()[0], 1)}
    print(json.dumps(out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({**out, "times": times}, f, indent=1)


if __name__ == "__main__":
    main()
