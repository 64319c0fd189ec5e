"""The 2-thread wall of two checkouts' native LunarLander, in fresh processes alternating, the
order rotated each round (issue 30's figure on a loaded machine: one run means nothing).

    python benchmarks/lander_wall_ab.py --a /work/base [--b .] [--rounds 8] [--num-envs 1024]
        [--steps 600] [--threads 2] [--env lander|walker] [--json FILE]

Each round runs ``benchmarks/envs_steps.py`` (``--env``, ``--num-envs``, ``--steps``,
``--threads``) once in each checkout, in a fresh process with ``PYTHONPATH`` at that
checkout's ``src`` (its own kernel cache), a first in even rounds and b first in odd ones.
Printed: each run's wall and process CPU a environment step (us), its episodes' hash, then
the median of the rounds' ratios a / b of the wall and of the CPU (above 1: b is faster), and
whether every run of both played the same episodes (the same hash).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys


def run_once(tree: str, env: str, num_envs: int, steps: int, threads: int) -> dict:
    """``envs_steps.py`` of checkout ``tree``, in a fresh process: its JSON line."""
    tree = os.path.abspath(tree)
    done = subprocess.run(
        [sys.executable, os.path.join(tree, "benchmarks", "envs_steps.py"), env,
         str(num_envs), str(steps), str(threads)],
        cwd=tree, env={**os.environ, "PYTHONPATH": os.path.join(tree, "src")},
        capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", default=".")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--env", default="lander")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    runs = []
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        got = {}
        for side in order:
            got[side] = run_once(getattr(args, side), args.env, args.num_envs, args.steps,
                                 args.threads)
            print(r, side, json.dumps(got[side]), flush=True)
        runs.append(got)
    wall = [g["a"]["wall_us"] / g["b"]["wall_us"] for g in runs]
    cpu = [g["a"]["cpu_us"] / g["b"]["cpu_us"] for g in runs]
    out = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b), "env": args.env,
           "num_envs": args.num_envs, "steps": args.steps, "threads": args.threads,
           "runs": runs, "wall_ratios_a_over_b": [round(x, 4) for x in wall],
           "cpu_ratios_a_over_b": [round(x, 4) for x in cpu],
           "wall_median_a_over_b": round(statistics.median(wall), 4),
           "cpu_median_a_over_b": round(statistics.median(cpu), 4),
           "b_faster_rounds": sum(x > 1.0 for x in wall),
           "same_episodes": len({g[s]["hash"] for g in runs for s in g}) == 1}
    print(json.dumps({k: v for k, v in out.items() if k != "runs"}))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
