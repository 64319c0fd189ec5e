"""Whether the native vector environment's speed depends on how far its episodes are: the
steps just after ``reset(seed)`` (all 1,024 episodes begun together, the landers still in the
air) against those after (episodes begun at every step by autoreset).

    PYTHONPATH=src python benchmarks/envs_phase.py [--env lander] [--windows 8] [--window 50] \
        [--runs 6] [--rt 10] [--json benchmarks/results/NAME.json]

``envs_bench.py`` times the native environment's steps 2-101 after its reset; ``envs_paired.py``
times blocks from about step 40 on. Each run is a fresh process (``--rt``: under ``chrt -f``,
every thread at real-time priority) that makes the environment as ``envs_bench.native`` does
(1,024 environments, 2 threads, seeded uniform random actions drawn ahead), takes one step (the
kernels loaded), then times ``--windows`` windows of ``--window`` steps each: environment steps
a second of wall and the episodes ended in each window. Printed: each window's median over the
runs, and its ratio to the median of the windows after the first two.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def one_run(env: str, windows: int, window: int, seed: int) -> list:
    """In this process: each window's (environment steps a second, episodes ended)."""
    import gymnasium as gym
    import numpy as np

    sys.path.insert(0, HERE)
    import envs_bench
    import impulse2d.envs  # noqa: F401 (registers the environments)
    envs = gym.make_vec(envs_bench.ENVS[env]["native"], num_envs=1024,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=seed)
    envs.batch.threads = 2
    actions = envs_bench._random_actions(envs.action_space, 1 + windows * window,
                                         np.random.default_rng(seed))
    envs.step(actions[0])
    out = []
    for w in range(windows):
        ended = 0
        t = time.perf_counter()
        for k in range(1 + w * window, 1 + (w + 1) * window):
            _, _, term, trunc, _ = envs.step(actions[k])
            ended += int(np.count_nonzero(term | trunc))
        out.append((window * 1024 / (time.perf_counter() - t), ended))
    return out


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        env, windows, window, seed = sys.argv[2], *map(int, sys.argv[3:6])
        print(json.dumps(one_run(env, windows, window, seed)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="lander")
    parser.add_argument("--windows", type=int, default=8)
    parser.add_argument("--window", type=int, default=50)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rt", type=int, default=0, metavar="PRIORITY")
    parser.add_argument("--json")
    args = parser.parse_args()
    runs = []
    for r in range(args.runs):
        done = subprocess.run(
            (["chrt", "-f", str(args.rt)] if args.rt else [])
            + [sys.executable, os.path.abspath(__file__), "--one", args.env, str(args.windows),
               str(args.window), str(args.seed)],
            capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"run {r}: " + " ".join(f"{rate / 1e3:.0f}k" for rate, _ in runs[-1]), flush=True)
    rates = [statistics.median(run[w][0] for run in runs) for w in range(args.windows)]
    steady = statistics.median(rates[2:]) if args.windows > 2 else rates[-1]
    rows = [{"steps": f"{1 + w * args.window}-{(w + 1) * args.window}",
             "rate_median": rates[w], "over_steady": rates[w] / steady,
             "ended_median": statistics.median(run[w][1] for run in runs)}
            for w in range(args.windows)]
    for row in rows:
        print(f"steps {row['steps']:>9}: {row['rate_median']:,.0f} env-steps/s "
              f"({row['over_steady']:.3f} of the later windows'), episodes ended "
              f"{row['ended_median']:.0f}")
    report = {"env": args.env, "window": args.window, "runs": args.runs, "rt": args.rt,
              "load": os.getloadavg()[0], "windows": rows, "per_run": runs}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
