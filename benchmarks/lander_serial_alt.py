"""The native LunarLander's serial Python around the batch kernel (issue 30), of two checkouts
in alternating processes: the calling thread's CPU of a vector step less its CPU in the batch
kernel's calls (``WorldBatch._run_around``, the restarts beside the kernel included in it, and
``_run``), each checkout in its own process (its own kernel cache), round after round.

    PYTHONPATH=src python benchmarks/lander_serial_alt.py --a /work/base [--b .] [--rounds 4] \
        [--num-envs 1024] [--steps 300] [--threads 2] [--env lander|walker] [--json FILE]

``lander_env_ab.py`` pairs two checkouts' environment code in one process on one batch; a
change to the batch's own Python (``batch.py``, ``_batch_ready.py``) with the environment's
needs each checkout whole, so each in its own process, alternated so that the machine's
minute-to-minute changes (load, the vCPUs' mode) fall on both. Printed: each round's median
serial CPU a vector step (us) of each side, then each side's mean of the rounds' medians and
their ratio a / b. ``--env walker``: the same of ``impulse2d/BipedalWalker-v3``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


ENVS = {"lander": "impulse2d/LunarLander-v3", "walker": "impulse2d/BipedalWalker-v3"}


def child(num_envs: int, steps: int, threads: int, env_name: str = "lander") -> dict:
    """This process's checkout's environment ``env_name`` (:data:`ENVS`): the serial CPU of
    each of ``steps`` vector steps (after 40 to warm), its median and mean (us), and the whole
    step's median."""
    import numpy as np
    import gymnasium as gym
    import impulse2d.envs  # noqa: F401 (registers the environments)
    envs = gym.make_vec(ENVS[env_name], num_envs=num_envs,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = threads
    inside = [0]
    batch = envs.batch
    for name in ("_run_around", "_run"):
        def timed(*a, _f=getattr(batch, name), **k):
            t = time.thread_time_ns()
            try:
                return _f(*a, **k)
            finally:
                inside[0] += time.thread_time_ns() - t
        setattr(batch, name, timed)
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(steps + 40)]
    for k in range(40):
        envs.step(actions[k])
    serial, whole = [], []
    for k in range(steps):
        inside[0] = 0
        t = time.thread_time_ns()
        envs.step(actions[40 + k])
        t = time.thread_time_ns() - t
        serial.append((t - inside[0]) / 1e3)
        whole.append(t / 1e3)
    return {"serial_median_us": round(float(np.median(serial)), 1),
            "serial_mean_us": round(float(np.mean(serial)), 1),
            "step_median_us": round(float(np.median(whole)), 1),
            "load": round(os.getloadavg()[0], 1)}


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", help="checkout a (its src/ is imported); required")
    parser.add_argument("--b", default=".", help="checkout b (default: this one)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--env", choices=sorted(ENVS), default="lander")
    parser.add_argument("--json", default="")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.num_envs, args.steps, args.threads, args.env)))
        return {}
    if not args.a:
        parser.error("--a is required")
    sides = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    rounds = []
    for r in range(args.rounds):
        row = {}
        for name in (("a", "b") if r % 2 == 0 else ("b", "a")):
            env = dict(os.environ, PYTHONPATH=os.path.join(sides[name], "src"))
            out = subprocess.run([sys.executable, __file__, "--child", "--num-envs",
                                  str(args.num_envs), "--steps", str(args.steps), "--threads",
                                  str(args.threads), "--env", args.env], env=env, check=True,
                                 capture_output=True, text=True).stdout
            row[name] = json.loads(out.strip().splitlines()[-1])
        rounds.append(row)
        print(f"round {r}: a {row['a']['serial_median_us']} us, b {row['b']['serial_median_us']} "
              f"us (load {row['a']['load']} / {row['b']['load']})", flush=True)
    mean = {s: sum(row[s]["serial_median_us"] for row in rounds) / len(rounds) for s in sides}
    result = {"a": sides["a"], "b": sides["b"], "env": args.env, "num_envs": args.num_envs,
              "steps": args.steps,
              "threads": args.threads, "rounds": rounds,
              "a_serial_us": round(mean["a"], 1), "b_serial_us": round(mean["b"], 1),
              "ratio_a_over_b": round(mean["a"] / mean["b"], 4)}
    print(f"serial CPU a vector step, mean of the rounds' medians: a {result['a_serial_us']} us, "
          f"b {result['b_serial_us']} us, a / b {result['ratio_a_over_b']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
