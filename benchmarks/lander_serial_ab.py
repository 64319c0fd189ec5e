"""The native LunarLander's serial Python around the batch kernel, piece by piece, of another
checkout's environment code against this one's, in one process (issue 30: at 2 threads the
calling thread's pieces before and after the kernel leave the other thread idle).

    PYTHONPATH=src python benchmarks/lander_serial_ab.py --a-envs /path/to/main/src/impulse2d/envs \
        [--num-envs 1024] [--steps 300] [--threads 2] [--json FILE]

As ``lander_env_ab.py``: the other checkout's ``envs`` modules loaded beside this one's (the
base class, the batch and the engine are this checkout's), both vector environments stepped
with the same seeded random actions, the two alternating step by step. Each step, the calling
thread's CPU (``time.thread_time_ns``) of each piece: ``_act`` (the actions, the engines'
impulses and their writes), ``kernel_args`` (the writes packed into the kernel's rows of
arguments), ``_observe`` (the rest timers, the observation, the rewards and endings) and the
whole ``step``. Printed: each piece's median over the steps, us a vector step, for each side,
the median of the per-step ratios a / b of each, and whether every observation, reward and
flag was equal bit for bit.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from _envs_timing import timed_calls
from lander_env_ab import load_other

PIECES = ("_act", "kernel_args", "_observe", "step")


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a-envs", required=True, help="the other checkout's envs folder")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", default="")
    args = parser.parse_args()

    from impulse2d import _batch_writes
    from impulse2d.envs import lunar_lander as b_module
    a_module = load_other(args.a_envs)
    spent = {"a": {p: 0 for p in PIECES}, "b": {p: 0 for p in PIECES}}
    side = ["a"]

    def timed(owner, name, piece):
        def record(t: int, u: int) -> None:
            spent[side[0]][piece] += u - t
        timed_calls(owner, name, time.thread_time_ns, record)

    timed(_batch_writes.StepWrites, "kernel_args", "kernel_args")
    envs = {}
    for name, module in (("a", a_module), ("b", b_module)):
        env = module.LunarLanderVectorEnv(args.num_envs, max_episode_steps=1000,
                                          threads=args.threads)
        for piece in ("_act", "_observe", "step"):
            timed(env, piece, piece)
        env.reset(seed=0)
        envs[name] = env
    space = envs["b"].action_space
    space.seed(0)
    actions = [space.sample() for _ in range(args.warm + args.steps)]
    rows = {"a": [], "b": []}
    equal = True
    for k, a in enumerate(actions):
        order = ("a", "b") if k % 2 == 0 else ("b", "a")
        out = {}
        for name in order:
            side[0] = name
            for p in PIECES:
                spent[name][p] = 0
            out[name] = envs[name].step(a)
            if k >= args.warm:
                rows[name].append([spent[name][p] for p in PIECES])
        equal = equal and all(np.array_equal(x, y) for x, y in zip(out["a"][:4], out["b"][:4]))
    a_rows, b_rows = np.array(rows["a"], float), np.array(rows["b"], float)
    result = {"num_envs": args.num_envs, "steps": args.steps, "threads": args.threads,
              "a": args.a_envs, "bits_equal": bool(equal),
              "load": round(os.getloadavg()[0], 1),
              "us_a_vector_step_median": {
                  "a": dict(zip(PIECES, np.round(np.median(a_rows, axis=0) / 1e3, 1).tolist())),
                  "b": dict(zip(PIECES, np.round(np.median(b_rows, axis=0) / 1e3, 1).tolist()))},
              "median_ratio_a_over_b": dict(zip(PIECES, np.round(
                  np.median(a_rows / np.maximum(b_rows, 1.0), axis=0), 3).tolist()))}
    print(json.dumps(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
