"""What the pybox2d layer's Gymnasium environments compile (or load) after a warm cache: every
kernel of the package compiled in a process that runs them, with its CPU.

    python benchmarks/layer_kernels.py [--steps 300] [--json out.json]

Runs in a fresh process on this tree's kernel cache (``src/impulse2d/_kernels``, or
``NUMBA_CACHE_DIR``): ``impulse2d.compat.box2d.install()``, then ``LunarLander-v3``,
``BipedalWalker-v3`` and ``CarRacing-v3``, each for ``--steps`` random-action steps (seeded),
resets included. Numba's compile events name each kernel compiled at the top level (its callees'
compiles are inside it) and its CPU seconds (``time.process_time``); issue 31 item 6 asks that
none be compiled in the middle of a run once ``impulse2d warmup --all`` has run, so after a
``warmup --all`` this list should be empty.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
from numba.core import event

steps = int(sys.argv[1])
compiled = []
depth = []


class Log(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        depth.append((f"{f.__module__}.{f.__qualname__}", time.process_time()))

    def on_end(self, ev):
        name, start = depth.pop()
        if not depth:
            compiled.append([name, round(time.process_time() - start, 3)])


event.register("numba:compile", Log())
import impulse2d.compat.box2d as b2compat
b2compat.install()
import gymnasium as gym

out = {}
for name in ("LunarLander-v3", "BipedalWalker-v3", "CarRacing-v3"):
    before = len(compiled)
    start = time.process_time()
    env = gym.make(name)
    env.action_space.seed(0)
    env.reset(seed=0)
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
    env.close()
    out[name] = {"cpu": round(time.process_time() - start, 3), "compiled": compiled[before:]}
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--src", default=str(ROOT / "src"))
    parser.add_argument("--json")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=args.src, IMPULSE2D_QUIET="1")
    run = subprocess.run([sys.executable, "-c", CHILD, str(args.steps)], env=env,
                         capture_output=True, text=True, check=True)
    result = json.loads(run.stdout.strip().splitlines()[-1])
    for name, row in result.items():
        total = sum(cpu for _, cpu in row["compiled"])
        print(f"{name}: {row['cpu']:.1f} s CPU, {len(row['compiled'])} kernels compiled "
              f"({total:.1f} s)")
        for kernel, cpu in row["compiled"]:
            print(f"    {cpu:7.2f}  {kernel}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
