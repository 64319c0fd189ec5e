"""Numba's front end by compiler pass: where a unit's typing, rewrites and lowering spend their
CPU, each pass's own time (the compiles it starts inside it, a callee's, left out).

    python benchmarks/frontend_passes.py unit:impulse2d._dynamics.solvers.soft_step --json o.json
    python benchmarks/frontend_passes.py unit:KEY,KEY --src /work/main/src --profile 40

``warmup_profile.py`` splits ``warmup --all``'s CPU by kernel into Numba's front end and
LLVM's phases; this splits the front end further, by pass of Numba's pipelines
(``PassManager._runPass``: the untyped passes, type inference, the rewrites, the inliners,
SSA, the lowering), in one process (``IMPULSE2D_COMPILE_PROCESSES=1``) from an empty cache
(a fresh ``NUMBA_CACHE_DIR``), ``what`` as in ``compile_objects.py``. A pass's time is
``time.process_time`` over its ``run_pass`` less the passes run inside it (type inference
compiles each callee: those callees' passes are theirs), and LLVM's calls made inside it
(``CodeLibrary``'s ``_optimize_functions`` and ``finalize``: the lowering's, mostly) are
counted apart as ``llvm``; how many times each ran is ``calls``. A pass's time holds the
pass manager's checks after it (``_runPass``); what no pass holds (the dispatchers, the
pipelines' set-up, the cache) is the compile's CPU less their sum. ``--profile N`` also runs
cProfile (CPU clock) and prints the N functions with the most time of their own.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from _fresh_compile import run as fresh_compile

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import cProfile, io, json, pstats, sys, time
from collections import defaultdict
what, top = sys.argv[1], int(sys.argv[2])
t0 = time.process_time()
import impulse2d  # noqa: F401
from numba.core import codegen, compiler_machinery as cm

own = defaultdict(float)
calls = defaultdict(int)
stack = []  # per open pass or LLVM call: [name, start, time of those inside it]


def timed(name_of, original):
    def wrapper(*args, **kwargs):
        name = name_of(*args)
        stack.append([name, time.process_time(), 0.0])
        try:
            return original(*args, **kwargs)
        finally:
            entry = stack.pop()
            spent = time.process_time() - entry[1]
            own[entry[0]] += spent - entry[2]
            calls[entry[0]] += 1
            if stack:
                stack[-1][2] += spent
    wrapper.__wrapped__ = original
    return wrapper


pm = cm.PassManager
pm._runPass = timed(lambda self, index, pss, state: pss.name(), pm._runPass)
library = codegen.CPUCodeLibrary
library._optimize_functions = timed(lambda *a: "llvm: function passes",
                                    library._optimize_functions)
library.finalize = timed(lambda *a: "llvm: finalize", library.finalize)

profiler = cProfile.Profile(time.process_time) if top else None
t1 = time.process_time()
if profiler:
    profiler.enable()
from impulse2d._dynamics import step  # registers the units
from impulse2d._core import lazy
for key in what.split(":", 1)[1].split(","):
    if key in lazy.REGISTRY:
        lazy.REGISTRY[key].address()
if profiler:
    profiler.disable()
compiling = time.process_time() - t1
text = ""
if profiler:
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    text = out.getvalue()
print(json.dumps({"cpu_s": time.process_time() - t0, "compiling_s": compiling,
                  "own": own, "calls": calls, "profile": text}))
"""


def run(src: Path, what: str, top: int) -> dict:
    """``what`` compiled in a fresh process from an empty cache: the child's figures."""
    return fresh_compile(CHILD, src, what, str(top))


def report(result: dict, rows: int = 30) -> str:
    own, calls = result["own"], result["calls"]
    timed = sum(own.values())
    lines = [f"CPU {result['cpu_s']:.1f} s, compiling {result['compiling_s']:.1f} s, in passes "
             f"and LLVM {timed:.1f} s (the rest: the dispatchers, the pipelines' set-up, the "
             "cache)"]
    for name, spent in sorted(own.items(), key=lambda kv: -kv[1])[:rows]:
        lines.append(f"  {spent:8.2f} s {100 * spent / result['compiling_s']:5.1f} %  "
                     f"{calls[name]:6d}  {name}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", help="unit:KEY or unit:KEY,KEY,...")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--profile", type=int, default=0,
                        help="also cProfile, printing this many functions")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = run(Path(args.src).resolve(), args.what, args.profile)
    result.update(what=args.what, src=str(Path(args.src).resolve()), load_at_start=load,
                  load_at_end=os.getloadavg()[0])
    print(report(result))
    if result["profile"]:
        print(result["profile"])
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
