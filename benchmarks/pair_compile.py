"""Compile time of the pair search (the step's ``update_pairs`` unit) alone, in a fresh
process with an empty kernel cache: what the compile helper of a cold start does for it.

    python benchmarks/pair_compile.py            # CPU seconds of the unit, and its largest parts
    python benchmarks/pair_compile.py --src /work/main/src   # another tree's unit
    python benchmarks/pair_compile.py --first-step    # every unit of pyramid_20's first step

Each run is a new process with its own empty ``NUMBA_CACHE_DIR``; the figure is the process's
CPU time (``time.process_time``) around the compile, which on a loaded machine means more
than wall time. The parts are Numba's ``numba:compile`` events per kernel: its own CPU time
(less the compiles of the kernels it calls, which happen inside it) and the inclusive time.

``--first-step`` compiles what a cold ``pyramid_20`` compiles (build and first step) in one
process (``IMPULSE2D_COMPILE_PROCESSES=1``) and lists the outermost compiles only: the units
that the compile plan splits between processes (``step.py``'s estimates).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from _fresh_compile import run as fresh_compile

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
from numba.core import event
t0 = time.process_time()
import impulse2d as i2d
from impulse2d.scenes import build_scene
from impulse2d._dynamics.step import STAGE_KERNELS
from impulse2d._dynamics.verbs import PAIRS
t_import = time.process_time() - t0
outer_only = sys.argv[1] == "first-step"
parts = {}
stack = []

class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([time.process_time(), 0.0])
    def on_end(self, ev):
        d = ev.data['dispatcher']
        start, children = stack.pop()
        spent = time.process_time() - start
        if stack:
            stack[-1][1] += spent
            if outer_only:
                return
        name = d.py_func.__module__.rsplit('.', 1)[-1] + '.' + d.py_func.__qualname__
        own, total = parts.get(name, (0.0, 0.0))
        parts[name] = (own + spent - children, total + spent)

with event.install_listener("numba:compile", Listener()):
    t0 = time.process_time()
    if outer_only:
        world = i2d.World()
        build_scene(world, "pyramid", base=20)
        world.step(1.0 / 60.0)
    else:
        STAGE_KERNELS[PAIRS].address()
    unit = time.process_time() - t0
print(json.dumps({"unit_cpu_s": unit, "import_cpu_s": t_import, "parts": parts}))
"""


def run(src: Path, what: str = "pairs") -> dict:
    return fresh_compile(CHILD, src, what)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--top", type=int, default=15, help="parts listed")
    parser.add_argument("--first-step", action="store_true",
                        help="every unit of a cold pyramid_20's first step, in one process")
    args = parser.parse_args()
    result = run(Path(args.src), "first-step" if args.first_step else "pairs")
    what = "build and first step" if args.first_step else "pair search unit"
    print(f"{what}: {result['unit_cpu_s']:.1f} s CPU (import {result['import_cpu_s']:.1f})")
    print("   own  incl.  kernel (CPU s; own: less its callees' compiles)")
    parts = sorted(result["parts"].items(), key=lambda kv: -kv[1][0])
    for name, (own, total) in parts[: args.top]:
        print(f"  {own:5.2f}  {total:5.2f}  {name}")


if __name__ == "__main__":
    main()
