"""Numba's front end sampled, not traced: where a unit's compile spends its CPU, by Python
function, with the profiler's own cost kept small.

    python benchmarks/frontend_sample.py unit:impulse2d._dynamics.step.collide --top 40
    python benchmarks/frontend_sample.py unit:KEY,KEY --src /work/base/src --json o.json

cProfile traces every call, and Numba's front end is millions of small calls: under it a
unit's compile took 7.7 times its CPU (``step.collide``: 58.9 s against 7.6 s, load 1-4,
2026-12-01), which inflates the call-heavy passes (SSA, ``list_vars``) against the rest. Here
a CPU-time timer (``ITIMER_PROF``, every ``--interval`` ms of the process's CPU) interrupts the
compile and the handler records the Python stack it interrupted: a function's own share is the
samples with it at the top, its cumulative share the samples with it anywhere on the stack
(counted once per sample); a sample also goes to the innermost of Numba's compiler passes on
its stack (``PassManager._runPass``: a callee's compile inside type inference is the callee's
passes'), and "cumulative inside the innermost pass" counts only the frames above that pass
(in the JSON also by pass: ``inner_by_pass``). Time inside C (LLVM, ``isinstance``) is
charged to the Python function that called it, or to a Python callback C calls in the middle
(LLVM's machine code lands on llvmlite's object cache's ``_raw_object_cache_notify``).
``--below F`` (repeatable): the samples with the function ``F`` on the stack (its key, or a
part of it: ``'postproc.py:71(run)'``), by function, own and cumulative above its outermost
frame; ``--callers F``: ``F``'s samples by the function that called its innermost frame. One
process, ``what`` as in ``compile_objects.py`` (``unit:KEY``, a key the tree lacks left out),
compiled from an empty cache (a fresh ``NUMBA_CACHE_DIR``) in one process
(``IMPULSE2D_COMPILE_PROCESSES=1``).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from _fresh_compile import run as fresh_compile

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, signal, sys, time
from collections import Counter
what, interval = sys.argv[1], float(sys.argv[2]) / 1000.0
below = [name for name in sys.argv[3].split("|") if name]
callers_of = [name for name in sys.argv[4].split("|") if name]
t0 = time.process_time()
import impulse2d  # noqa: F401
from impulse2d._dynamics import step  # registers the units
from impulse2d._core import lazy

own, cumulative, inner, passes, by_pass = Counter(), Counter(), Counter(), Counter(), Counter()
below_own = {name: Counter() for name in below}
below_cumulative = {name: Counter() for name in below}
callers = {name: Counter() for name in callers_of}
samples, below_samples = [0], Counter()


def name(code):
    path = code.co_filename
    for marker in ("site-packages/", "/src/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{path}:{code.co_firstlineno}({code.co_name})"


def sample(signum, frame):
    samples[0] += 1
    seen, above, stack = set(), [], []
    top, in_pass = True, True
    while frame is not None:
        code = frame.f_code
        key = name(code)
        if top:
            own[key] += 1
            top = False
        if in_pass and code.co_name == "_runPass" and "pss" in frame.f_locals:
            pass_name = frame.f_locals["pss"].name()
            passes[pass_name] += 1
            for above_key in above:
                by_pass[f"{pass_name}: {above_key}"] += 1
            in_pass = False
        stack.append(key)
        if key not in seen:
            seen.add(key)
            cumulative[key] += 1
            if in_pass:
                inner[key] += 1
                above.append(key)
        frame = frame.f_back
    for wanted in below:  # the frames above the outermost frame of this function
        outer = max((i for i, key in enumerate(stack) if wanted in key), default=None)
        if outer is not None:
            below_samples[wanted] += 1
            below_own[wanted][stack[0]] += 1
            for key in set(stack[:outer + 1]):
                below_cumulative[wanted][key] += 1
    for wanted in callers_of:  # the caller of its innermost frame
        inner_most = next((i for i, key in enumerate(stack) if wanted in key), None)
        if inner_most is not None and inner_most + 1 < len(stack):
            callers[wanted][stack[inner_most + 1]] += 1


signal.signal(signal.SIGPROF, sample)
t1 = time.process_time()
signal.setitimer(signal.ITIMER_PROF, interval, interval)
for key in what.split(":", 1)[1].split(","):
    if key in lazy.REGISTRY:
        lazy.REGISTRY[key].address()
signal.setitimer(signal.ITIMER_PROF, 0, 0)
compiling = time.process_time() - t1
print(json.dumps({"cpu_s": time.process_time() - t0, "compiling_s": compiling,
                  "samples": samples[0], "own": own, "cumulative": cumulative,
                  "inner": inner, "passes": passes, "inner_by_pass": by_pass,
                  "below_samples": below_samples, "below_own": below_own,
                  "below_cumulative": below_cumulative, "callers": callers}))
"""


def run(src: Path, what: str, interval_ms: float, below: tuple = (), callers: tuple = ()) -> dict:
    """``what`` compiled in a fresh process from an empty cache, sampled: the child's figures
    (and, for each function named in ``below``, the samples inside it by function; for each
    in ``callers``, its samples by the function that called it)."""
    return fresh_compile(CHILD, src, what, str(interval_ms), "|".join(below), "|".join(callers))


def report(result: dict, top: int) -> str:
    n = max(1, result["samples"])
    lines = [f"CPU {result['cpu_s']:.1f} s, compiling {result['compiling_s']:.1f} s, "
             f"{result['samples']} samples"]
    for title, table in (("own", result["own"]), ("by pass (the innermost)", result["passes"]),
                         ("cumulative inside the innermost pass", result["inner"]),
                         ("cumulative", result["cumulative"])):
        lines.append(f"-- {title} (% of the samples)")
        for key, count in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            lines.append(f"  {100 * count / n:5.1f} %  {key}")
    for wanted, inside in result["below_samples"].items():
        lines.append(f"-- inside {wanted}: {100 * inside / n:.1f} % of the samples; own, then "
                     "cumulative inside it (% of all the samples)")
        for title in ("below_own", "below_cumulative"):
            for key, count in sorted(result[title][wanted].items(), key=lambda kv: -kv[1])[:top]:
                lines.append(f"  {100 * count / n:5.1f} %  {key}")
            lines.append("  --")
    for wanted, table in result["callers"].items():
        lines.append(f"-- {wanted}'s samples by its caller (% of all the samples)")
        for key, count in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            lines.append(f"  {100 * count / n:5.1f} %  {key}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", help="unit:KEY or unit:KEY,KEY,...")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--interval", type=float, default=2.0, help="ms of CPU between samples")
    parser.add_argument("--top", type=int, default=40, help="rows per table")
    parser.add_argument("--below", action="append", default=[],
                        help="a function, as its key reads or a part of it (e.g. "
                             "'postproc.py:71(run)'): the samples inside it, by function "
                             "(repeatable)")
    parser.add_argument("--callers", action="append", default=[],
                        help="a function, as for --below: its samples by its caller "
                             "(repeatable)")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = run(Path(args.src).resolve(), args.what, args.interval, tuple(args.below),
                 tuple(args.callers))
    result.update(what=args.what, src=str(Path(args.src).resolve()), load_at_start=load,
                  load_at_end=os.getloadavg()[0])
    print(report(result, args.top))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
