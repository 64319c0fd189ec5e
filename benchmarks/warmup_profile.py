"""Where ``impulse2d warmup --all``'s CPU goes, in every process it runs (the helpers too):
Numba's front end against LLVM, by kernel and by unit, and what two processes both compile.

    python benchmarks/warmup_profile.py --json out.json            # this tree
    python benchmarks/warmup_profile.py --src /work/main/src       # another tree
    python benchmarks/warmup_profile.py --report out.json          # print a saved profile

Unlike ``compile_table.py`` (one process, ``IMPULSE2D_COMPILE_PROCESSES=1``) this runs the
real ``warmup --all`` with its compile plan, from an empty cache (a fresh ``NUMBA_CACHE_DIR``),
and profiles each process through a ``sitecustomize`` on ``PYTHONPATH`` that the helpers
inherit. Per kernel (all its signatures in that process; CPU seconds, ``time.process_time``,
so a loaded machine stretches wall time, not these):

* ``own``: its compiles less the compiles of the kernels it called inside them (Numba's
  ``numba:compile`` events);
* ``fpass``: LLVM's function passes on its own module (``_optimize_functions``);
* ``link``: linking its callees' modules into its module (``ModuleRef.link_in`` in
  ``finalize``);
* ``mpass``: LLVM's module passes on the linked module (``_optimize_final_module``: the cheap
  and the full pipeline; every linked callee is optimised again here);
* ``code``: the rest of ``finalize``: machine code (MCJIT), or the code generator's IR passes
  of a link-only library (:mod:`impulse2d._core.link_only`);
* ``front``: ``own`` less the four above (Numba's typing and lowering in Python, mostly).

Each finalised library also records the libraries it linked and the functions they define,
so the report says how often a callee's code was optimised again in its callers' modules.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SITECUSTOMIZE = r'''
import atexit, json, os, sys, time
from collections import defaultdict

_OUT = os.environ["WARMUP_PROFILE_DIR"]
_T0 = time.process_time()


def _install():
    from llvmlite import binding as ll
    from numba.core import codegen, event

    stack = []  # per open compile: [start, children, name, llvm phases]
    rows = defaultdict(lambda: {"own": 0.0, "fpass": 0.0, "link": 0.0, "mpass": 0.0,
                                "code": 0.0, "sigs": 0, "unit": None, "linked": 0,
                                "linked_functions": 0})
    units = defaultdict(float)
    links = defaultdict(int)  # callee library name -> times linked into a caller's module
    state = {"phase": None}

    def name_of(function):
        return f"{function.__module__}.{function.__qualname__}"

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([time.process_time(), 0.0, name_of(ev.data["dispatcher"].py_func)])

        def on_end(self, ev):
            start, children, name = stack.pop()
            spent = time.process_time() - start
            row = rows[name]
            row["own"] += spent - children
            row["sigs"] += 1
            if stack:
                stack[-1][1] += spent
                row["unit"] = row["unit"] or stack[0][2]
            else:
                units[name] += spent
                row["unit"] = row["unit"] or name

    event.register("numba:compile", Listener())

    def current():
        return rows[stack[-1][2]] if stack else rows["(outside a compile)"]

    def timed(phase, original):
        def wrapper(*args, **kwargs):
            if state["phase"] is not None:  # (nested: counted by the outer phase)
                return original(*args, **kwargs)
            state["phase"] = phase
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                state["phase"] = None
                current()[phase] += time.process_time() - start
        return wrapper

    library = codegen.CPUCodeLibrary
    library._optimize_functions = timed("fpass", library._optimize_functions)
    library._optimize_final_module = timed("mpass", library._optimize_final_module)
    ll.ModuleRef.link_in = timed("link", ll.ModuleRef.link_in)
    finalize = library.finalize

    def timed_finalize(self):
        row = current()
        for callee in {id(c): c for c in self._linking_libraries}.values():
            links[callee.name] += 1
            row["linked"] += 1
        before = {k: row[k] for k in ("fpass", "link", "mpass")}
        start = time.process_time()
        try:
            return finalize(self)
        finally:
            spent = time.process_time() - start
            row["code"] += spent - sum(row[k] - before[k] for k in before)

    library.finalize = timed_finalize

    def dump():
        path = os.path.join(_OUT, f"profile-{os.getpid()}.json")
        with open(path, "w") as out:
            json.dump({"pid": os.getpid(), "argv": sys.argv[:2],
                       "cpu_s": time.process_time() - _T0, "rows": rows, "units": units,
                       "links": links}, out)

    atexit.register(dump)


_install()
'''


def run(src: Path, out_dir: str) -> dict:
    """``impulse2d warmup --all`` of the tree ``src`` from an empty cache, profiled; returns
    the wall, the CPU of every process (children included) and each process's profile."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as site:
        Path(site, "sitecustomize.py").write_text(SITECUSTOMIZE)
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=f"{site}:{src}",
                   WARMUP_PROFILE_DIR=out_dir, PYTHONPYCACHEPREFIX=os.path.join(cache, "pyc"))
        before = os.times()
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "impulse2d.cli", "warmup", "--all"], env=env,
                           capture_output=True, text=True, cwd=cache)
        wall = time.perf_counter() - t0
        after = os.times()
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-3000:])
    # (a later unit's helper may outlive the parent by a little: wait for its file)
    time.sleep(2.0)
    profiles = [json.loads(Path(out_dir, name).read_text())
                for name in sorted(os.listdir(out_dir)) if name.startswith("profile-")]
    return {"src": str(src), "wall_s": wall,
            "cpu_s": (after.children_user - before.children_user)
            + (after.children_system - before.children_system),
            "load_1min": os.getloadavg()[0], "stderr": p.stderr.splitlines(),
            "processes": profiles}


def short(name: str) -> str:
    return name.replace("impulse2d.", "").replace("._dynamics.", ".").replace(
        "._collision.", ".").lstrip("_")


PHASES = ("fpass", "link", "mpass", "code")


def report(result: dict, top: int) -> None:
    print(f"{result['src']}: warmup --all {result['wall_s']:.1f} s wall, "
          f"{result['cpu_s']:.1f} s CPU (load {result['load_1min']:.1f} at the end)")
    merged = defaultdict(lambda: defaultdict(float))
    seen_in = defaultdict(list)  # kernel -> [(process index, own)]
    for k, proc in enumerate(result["processes"]):
        rows = proc["rows"]
        own = sum(r["own"] for r in rows.values())
        llvm = {p: sum(r[p] for r in rows.values()) for p in PHASES}
        kind = "main" if proc["argv"][:2] != ["-c"] and "helper" not in str(proc["argv"]) \
            else "helper"
        print(f"\nprocess {k} ({proc['argv'][0]}, pid {proc['pid']}): CPU {proc['cpu_s']:.1f} s, "
              f"compiling {own:.1f} s: front end {own - sum(llvm.values()):.1f}, "
              + ", ".join(f"{p} {v:.1f}" for p, v in llvm.items()))
        for name, seconds in sorted(proc["units"].items(), key=lambda kv: -kv[1])[:25]:
            if seconds >= 1.0:
                print(f"    {seconds:6.1f}  {short(name)}")
        for name, r in rows.items():
            for key in ("own", *PHASES):
                merged[name][key] += r[key]
            seen_in[name].append((k, r["own"]))
    twice = {name: places for name, places in seen_in.items() if len(places) > 1}
    again = sum(sum(o for _, o in sorted(places, key=lambda p: -p[1])[1:])
                for places in twice.values())
    print(f"\nkernels compiled in more than one process: {len(twice)}, "
          f"{again:.1f} s of own CPU beyond the first; the largest:")
    for name, places in sorted(twice.items(), key=lambda kv: -sum(o for _, o in kv[1]))[:top]:
        print(f"  {'/'.join(f'{o:.2f}' for _, o in places):>18}  {short(name)}")
    total = sum(r["own"] for r in merged.values())
    print(f"\nall processes: compiling {total:.1f} s; the {top} largest kernels (own, front, "
          f"then LLVM's phases):")
    for name, r in sorted(merged.items(), key=lambda kv: -kv[1]["own"])[:top]:
        front = r["own"] - sum(r[p] for p in PHASES)
        print(f"  {r['own']:6.2f}  {front:6.2f}  " + "  ".join(f"{r[p]:5.2f}" for p in PHASES)
              + f"  {short(name)}")
    links = defaultdict(int)
    for proc in result["processes"]:
        for name, count in proc["links"].items():
            links[name] += count
    print("\nlinked most often into callers' modules (all processes):")
    for name, count in sorted(links.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {count:4d}  {name[:120]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--json", help="write the whole profile here")
    parser.add_argument("--report", help="print a profile saved with --json, run nothing")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    if args.report:
        report(json.loads(Path(args.report).read_text()), args.top)
        return
    with tempfile.TemporaryDirectory() as out_dir:
        result = run(Path(args.src), out_dir)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    report(result, args.top)


if __name__ == "__main__":
    main()
