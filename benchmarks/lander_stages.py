"""The native LunarLander's world-step by stage, read from each world's stage clock, inside the
batch and alone, for paired A/B runs between checkouts (issue 30: where a lander's step goes).

    PYTHONPATH=src python benchmarks/lander_stages.py [num_envs] [steps]

Makes ``impulse2d/LunarLander-v3`` as a vector environment of ``num_envs`` (default 256) on one
thread, resets it with seed 0 and takes 20 steps of seeded uniform random actions (kernels
loaded, episodes under way), then ``steps`` (default 200) more, reading after each every world's
clock (``World._clock``: the cycle counter before each stage of the step and at its end,
:data:`impulse2d._dynamics.step.STAGES`). The same is done with the worlds stepped one by one
by ``World.step`` (the environment's actions and observations as in the batch, the engine
called per world). Prints, per stage, the median and mean over world-steps in microseconds (at
the counter's rate, ``--ghz``, 2.1 on the 2-core machine), the share of world-steps whose
continuous stage swept a body near the moon (over 1.5 us: the quick exit and an empty stage
take well under 1) and that stage's median there, the episodes ended (equal between checkouts
that play the same episodes), a hash of every observation and reward, the process CPU
time per world-step, and the load average.

Medians are the figure to compare on a loaded machine: a world-step preempted mid-stage reads
milliseconds and moves the means.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time

import numpy as np

STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
NEAR_US = 1.5


def _run(n: int, steps: int, alone: bool, ghz: float) -> dict:
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    envs = gym.make_vec("impulse2d/LunarLander-v3", num_envs=n,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = 1
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(steps + 20)]
    if alone:   # the batch's step replaced by World.step on each world, in order
        batch = envs.batch

        def step_alone(dt, worlds=batch.worlds):
            for w in worlds:
                w.step(dt)
        batch.step = step_alone
    for k in range(20):
        envs.step(actions[k])
    ticks = np.empty((steps, n, len(STAGES)))
    ended = 0
    digest = hashlib.sha256()  # every observation and reward: the same episodes in both trees
    cpu = time.process_time()
    for k in range(steps):
        obs, reward, terminated, truncated, _ = envs.step(actions[20 + k])
        ended += int((terminated | truncated).sum())
        digest.update(np.ascontiguousarray(obs).tobytes() + np.ascontiguousarray(reward).tobytes())
        for i, w in enumerate(envs.batch.worlds):
            ticks[k, i] = np.diff(w._clock.astype(np.int64))
    cpu = time.process_time() - cpu
    us = ticks.reshape(-1, len(STAGES)) / (ghz * 1e3)
    continuous = us[:, -1]
    near = continuous > NEAR_US
    out = {"mode": "alone" if alone else "batch", "num_envs": n, "steps": steps,
           "ended": ended, "hash": digest.hexdigest()[:16],
           "cpu_us_per_world_step": round(cpu / (n * steps) * 1e6, 2),
           "load": round(os.getloadavg()[0], 1),
           "near_share": round(float(near.mean()), 4),
           "continuous_near_median": round(float(np.median(continuous[near])), 3)
           if near.any() else 0.0,
           "step_median": round(float(np.median(us.sum(axis=1))), 3),
           "step_mean": round(float(us.sum(axis=1).mean()), 3)}
    for j, name in enumerate(STAGES):
        out[f"{name}_median"] = round(float(np.median(us[:, j])), 3)
        out[f"{name}_mean"] = round(float(us[:, j].mean()), 3)
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("num_envs", nargs="?", type=int, default=256)
    parser.add_argument("steps", nargs="?", type=int, default=200)
    parser.add_argument("--ghz", type=float, default=2.1,
                        help="the cycle counter's rate (GHz) to convert ticks to us")
    args = parser.parse_args(argv)
    for alone in (False, True):
        print(json.dumps(_run(args.num_envs, args.steps, alone, args.ghz)), flush=True)


if __name__ == "__main__":
    main()
