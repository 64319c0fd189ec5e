"""Two trees' native LunarLander at 2 threads in fresh processes, alternating, the order rotated
each round: ``envs_steps.py lander N STEPS 2`` per tree and round, the wall and CPU an
environment step, and the median over the rounds of each round's ratio (a over b).

    python benchmarks/lander_trees_ab.py --a /work/base --b . [--rounds 6] [--num-envs 1024] \\
        [--steps 600] [--json FILE]

Each run is its own interpreter on its tree's ``src`` and kernel cache; the two runs of a round
are back to back (tree a first in even rounds), so the load and the vCPUs' mode of that minute
fall on both. Every run of a round must print the same hash (the same episodes)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from statistics import median

HERE = os.path.dirname(os.path.abspath(__file__))


def run(tree: str, num_envs: int, steps: int) -> dict:
    """One ``envs_steps.py lander`` run on ``tree``'s sources: its JSON line."""
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(tree), "src"))
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, os.path.join(HERE, "envs_steps.py"), "lander",
                          str(num_envs), str(steps), "2"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    rounds = []
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        got = {name: run(getattr(args, name), args.num_envs, args.steps) for name in order}
        row = {"first": order[0], "load": round(os.getloadavg()[0], 1),
               **{f"{name}_{k}": got[name][k] for name in "ab"
                  for k in ("wall_us", "cpu_us", "hash", "ended")},
               "wall_a_over_b": round(got["a"]["wall_us"] / got["b"]["wall_us"], 4),
               "cpu_a_over_b": round(got["a"]["cpu_us"] / got["b"]["cpu_us"], 4)}
        rounds.append(row)
        print(json.dumps(row), flush=True)
    result = {"a": args.a, "b": args.b, "num_envs": args.num_envs, "steps": args.steps,
              "threads": 2, "rounds": rounds,
              "median_wall_a_over_b": median(r["wall_a_over_b"] for r in rounds),
              "median_cpu_a_over_b": median(r["cpu_a_over_b"] for r in rounds),
              "hashes_equal": all(r["a_hash"] == r["b_hash"] for r in rounds)}
    print(json.dumps({k: v for k, v in result.items() if k != "rounds"}))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
