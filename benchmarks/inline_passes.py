"""The inliner's untyped passes in a compile: how many runs, for how many callees, their CPU,
and what a cache of each callee's IR could save.

    python benchmarks/inline_passes.py --what unit:impulse2d._dynamics.solvers_ngs.pgs_block
    python benchmarks/inline_passes.py --what pyramid --src /work/base/src --json out.json

Numba inlines an ``inline="always"`` callee by running its untyped passes afresh at every call
site (``InlineWorker.run_untyped_passes``, called by ``inline_function``), the callee's own
inlines nested inside. ``what`` compiles in one fresh process (``IMPULSE2D_COMPILE_PROCESSES=1``)
from an empty kernel cache (``NUMBA_CACHE_DIR``), as in ``compile_objects.py``: ``unit:KEY,...``
(units by key), ``pyramid`` (a cold ``pyramid_20`` and its first step) or ``all`` (``warmup
--all`` in one process). Each run is timed with ``time.process_time`` (CPU, the nested runs
inside the outer ones), keyed by function and the caller's flags (the passes read them), and
counted by what it advanced of Numba's global counters (block labels, function identities,
``mk_unique_var``'s names).

``repeat_s``: the CPU of runs whose key ran before in the process, not counting a repeat inside
a repeat (a kept IR of the outer one would make both): what a cache for the process's life
could skip at most; ``repeat_function_s``: keyed by the function alone (flags ignored).
``repeat_compile_s``: the same with the key made per outermost compile
(``Dispatcher.compile`` not nested in another), a cache that lives one compile. The copies a
cache hands out are not counted.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from _fresh_compile import run as fresh_compile

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
from collections import Counter
from numba.core import bytecode, ir_utils
from numba.core.dispatcher import Dispatcher
from numba.core.inline_closurecall import InlineWorker

runs = []  # (qualname, key, depth, cpu, ancestors' indices, labels, uids, uvars, via inline)
stack = []
compiles = [0, 0]  # depth of Dispatcher.compile, outermost compiles so far
original_run = InlineWorker.run_untyped_passes
original_compile = Dispatcher.compile


def uid_now():
    # itertools.count has no peek: its repr names the next value
    return int(repr(bytecode.FunctionIdentity._unique_ids)[6:-1])


def run_untyped_passes(self, func, enable_ssa=False):
    via = sys._getframe(1).f_code.co_name in ("inline_fresh", "inline_function")
    key = (func, tuple(sorted((k, repr(v)) for k, v in self.flags.values().items()
                              if k != "enable_ssa")))
    index = len(runs)
    runs.append(None)
    labels, uids, uvars = ir_utils._the_max_label._value, uid_now(), ir_utils._unique_var_count
    stack.append(index)
    start = time.process_time()
    try:
        return original_run(self, func, enable_ssa)
    finally:
        stack.pop()
        runs[index] = (func.__qualname__, key, len(stack), time.process_time() - start,
                       tuple(stack), ir_utils._the_max_label._value - labels,
                       uid_now() - uids, ir_utils._unique_var_count - uvars, via,
                       compiles[1])


def compile(self, sig):
    compiles[0] += 1
    if compiles[0] == 1:
        compiles[1] += 1
    try:
        return original_compile(self, sig)
    finally:
        compiles[0] -= 1


InlineWorker.run_untyped_passes = run_untyped_passes
Dispatcher.compile = compile
t0 = time.process_time()
import impulse2d as i2d
what = sys.argv[1]
if what == "pyramid":
    from impulse2d.scenes import build_scene
    world = i2d.World()
    build_scene(world, "pyramid", base=20)
    world.step(1.0 / 60.0)
elif what == "all":
    i2d.warmup(all_kernels=True, progress=False)
else:
    from impulse2d._dynamics import step  # registers the units
    from impulse2d._core import lazy
    for name in what.split(":", 1)[1].split(","):
        if name in lazy.REGISTRY:
            lazy.REGISTRY[name].address()
cpu = time.process_time() - t0
seen, seen_compile, seen_function = set(), set(), set()
repeat, repeat_compile, repeat_function, repeats = set(), set(), set(), set()
for i, (name, key, depth, seconds, ancestors, *_rest, outer) in enumerate(runs):
    keyed = (id(key[0]), key[1])
    if keyed in seen:
        repeats.add(i)
        if not repeat.intersection(ancestors):
            repeat.add(i)
    if (outer, keyed) in seen_compile and not repeat_compile.intersection(ancestors):
        repeat_compile.add(i)
    if id(key[0]) in seen_function and not repeat_function.intersection(ancestors):
        repeat_function.add(i)
    seen.add(keyed)
    seen_function.add(id(key[0]))
    seen_compile.add((outer, keyed))
functions = Counter(r[0] for r in runs if r[8])
print(json.dumps({
    "what": what, "cpu_s": cpu, "runs": len(runs),
    "runs_by_inline": sum(1 for r in runs if r[8]),
    "keys": len({(id(r[1][0]), r[1][1]) for r in runs}),
    "functions": len({id(r[1][0]) for r in runs}),
    "flag_sets": len({r[1][1] for r in runs}),
    "outermost_compiles": compiles[1],
    "passes_s": sum(r[3] for r in runs if r[2] == 0),
    "repeat_s": sum(runs[i][3] for i in repeat),
    "repeat_compile_s": sum(runs[i][3] for i in repeat_compile),
    "repeat_function_s": sum(runs[i][3] for i in repeat_function),
    "repeats": len(repeats), "repeat_runs_outer": len(repeat),
    "runs_making_unique_vars": sum(1 for r in runs if r[7]),
    "labels_used": sum(r[5] for r in runs if r[2] == 0),
    "uids_used": sum(r[6] for r in runs if r[2] == 0),
    "most_run": functions.most_common(15)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--what", required=True, help="unit:KEY[,KEY...], pyramid or all")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = fresh_compile(CHILD, args.src, args.what)
    result["load_at_start"] = load
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    print(f"{result['what']}: {result['cpu_s']:.2f} s CPU (load {load:.1f} at the start); "
          f"untyped passes {result['passes_s']:.2f} s in {result['runs']} runs "
          f"({result['runs_by_inline']} by the inliner) of {result['keys']} keys "
          f"({result['functions']} functions, {result['flag_sets']} flag sets); repeats "
          f"{result['repeats']} ({result['repeat_runs_outer']} outermost), "
          f"{result['repeat_s']:.2f} s per process, {result['repeat_compile_s']:.2f} s per "
          f"compile ({result['outermost_compiles']} compiles), "
          f"{result['repeat_function_s']:.2f} s keyed by function alone; runs making unique vars "
          f"{result['runs_making_unique_vars']}")
    for name, count in result["most_run"]:
        print(f"  {count:4d}  {name}")


if __name__ == "__main__":
    main()
