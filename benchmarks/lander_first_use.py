"""The native LunarLander's own kernels' compile on a lander's first use, trees alternating: the
process CPU of a first use with those kernels' cache files gone, less that of the next (warm)
run, in fresh processes.

    PYTHONPATH=src python benchmarks/lander_first_use.py --trees /work/base . [--rounds 2] \
        [--kernels PATTERN ...] [--json FILE]

Each round, for each tree in turn: its ``src`` copied into a temporary folder (its kernel cache
``_kernels/`` with it, so the tree itself is not touched), the environment's kernels' cache
files (``_kernels/envs/_lander_step.*``; or those of ``--kernels``, glob patterns under
``_kernels/``, e.g. the batch kernel's, ``batch_step.step_batch-* batch_step._walk-*``)
removed from the copy, then two children on the copy,
each making 64 landers, resetting them and taking 120 steps of seeded random actions: the
first compiles the environment's kernels (``impulse2d warmup --all`` compiles none of them:
an environment compiles its own on its first use), the second loads them. Printed per run: the
two children's process CPU (s) and their difference, the compile's CPU; then each tree's
median difference.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from statistics import median

CHILD = """
import json, time
t = time.process_time()
import numpy as np
from impulse2d.envs.lunar_lander import LunarLanderVectorEnv
env = LunarLanderVectorEnv(64, threads=1, max_episode_steps=1000)
env.reset(seed=0)
actions = np.random.default_rng(0).integers(0, 4, size=(120, 64))
for a in actions:
    env.step(a)
print(json.dumps(time.process_time() - t))
"""


LANDER = ("envs/_lander_step.*",)
"""The cache files of the lander's own kernels (the default of ``--kernels``)."""


def first_use(tree: str, kernels=LANDER) -> tuple:
    """The process CPU (s) of a first use of ``tree``'s lander without the cache files of
    ``kernels`` (glob patterns under its ``_kernels``), then of the next."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        shutil.copytree(os.path.join(tree, "src"), src)
        for pattern in kernels:
            for path in glob.glob(os.path.join(src, "impulse2d", "_kernels", pattern)):
                os.remove(path)
        # (IMPULSE2D_COMPILE_PROCESSES=1: no helper process compiles a unit, so the child's
        # CPU holds the whole compile, as benchmarks/_fresh_compile.py takes it)
        env = dict(os.environ, PYTHONPATH=src, IMPULSE2D_QUIET="1",
                   IMPULSE2D_COMPILE_PROCESSES="1")
        return tuple(json.loads(subprocess.run(
            [sys.executable, "-c", CHILD], env=env, cwd=tmp, check=True, capture_output=True,
            text=True).stdout.strip().splitlines()[-1]) for _ in range(2))


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--kernels", nargs="+", default=list(LANDER),
                        help="glob patterns of the cache files removed, under _kernels/")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    runs = []
    for r in range(args.rounds):
        for tree in args.trees:
            cold, warm = first_use(tree, args.kernels)
            runs.append({"round": r + 1, "tree": os.path.abspath(tree),
                         "load": round(os.getloadavg()[0], 1), "cold_cpu_s": round(cold, 2),
                         "warm_cpu_s": round(warm, 2), "compile_cpu_s": round(cold - warm, 2)})
            print(json.dumps(runs[-1]), flush=True)
    out = {"runs": runs, "median_compile_cpu_s": {
        os.path.abspath(t): median(x["compile_cpu_s"] for x in runs
                                   if x["tree"] == os.path.abspath(t)) for t in args.trees}}
    print(json.dumps(out["median_compile_cpu_s"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
