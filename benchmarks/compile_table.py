"""Where the compile time goes, per kernel: a table of what a cold start or ``warmup --all``
compiles, from nothing (an empty ``NUMBA_CACHE_DIR``), in one process.

    python benchmarks/compile_table.py                    # cold pyramid_20: build, first step
    python benchmarks/compile_table.py --what all         # impulse2d warmup --all
    python benchmarks/compile_table.py --what unit:impulse2d._dynamics.pair_update.update_pairs
    python benchmarks/compile_table.py --what unit:KEY,KEY   # several units, those the tree has
    python benchmarks/compile_table.py --what script:benchmarks/query_kernels.py  # a script's
    python benchmarks/compile_table.py --what 'scene:chain:{"links": 100}'   # cold chain_100
    python benchmarks/compile_table.py --src /work/main/src --json out.json

Everything is compiled in the one process (``IMPULSE2D_COMPILE_PROCESSES=1``), so the table
is the whole compile work, which the compile plan (:mod:`impulse2d._core.parallel`) then splits
over the CPUs. For each kernel (all its signatures together), CPU seconds
(``time.process_time``; a loaded machine stretches wall time, not this):

* ``own``: its compiles less the compiles of the kernels it called inside them (Numba's
  ``numba:compile`` events): typing, lowering and LLVM for its own module;
* ``llvm``: of ``own``, the time in LLVM (``CodeLibrary.finalize``: linking its callees'
  modules in, optimising the whole module, making machine code);
* ``sigs``: how many signatures it was compiled for (a second one compiles it all again);
* ``opt``: how many times its LLVM code was optimised: once as its own module per signature,
  and again in every caller's module that links it (Numba links a callee's module into each
  caller that calls it directly, and optimises the caller's whole module: a callee shared by
  N entries is optimised N+1 times unless they call it by address);
* ``inl``: how many times its Numba IR was inlined into a caller (``inline="always"``:
  typed and lowered again in each);
* ``unit``: the outermost compile it happened in (a :class:`~impulse2d._core.lazy.LazyKernel`
  unit, or the kernel Python called).

A unit table follows: each unit's CPU seconds with everything compiled inside it. Units are
what the compile plan splits between processes; a cold start is about half their sum on 2 CPUs
plus import and build (``benchmarks/startup.py`` measures it end to end).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from _fresh_compile import run as fresh_compile

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, runpy, sys, time
from collections import defaultdict
from numba.core import event, codegen, inline_closurecall

what = sys.argv[1]
stack = []   # per open compile: [start, children's CPU, children's LLVM, name, llvm]
rows = defaultdict(lambda: {"own": 0.0, "llvm": 0.0, "sigs": 0, "opt": 0, "inl": 0,
                            "unit": None, "signatures": []})
units = defaultdict(float)


def name_of(function):
    return f"{function.__module__}.{function.__qualname__}"


class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([time.process_time(), 0.0, name_of(ev.data["dispatcher"].py_func), 0.0,
                      str(ev.data["args"])])

    def on_end(self, ev):
        start, children, name, llvm, signature = stack.pop()
        spent = time.process_time() - start
        row = rows[name]
        row["own"] += spent - children
        row["llvm"] += llvm
        row["sigs"] += 1
        row["signatures"].append(signature)
        if stack:
            stack[-1][1] += spent
            unit = stack[0][2]
        else:
            unit = name
            units[name] += spent
        row["unit"] = row["unit"] or unit


finalize = codegen.CPUCodeLibrary.finalize


def timed_finalize(self):
    # Every module this one links (directly or through its callees' modules) is optimised
    # again inside this one.
    seen, todo = set(), list(self._linking_libraries)
    while todo:
        library = todo.pop()
        if id(library) in seen:
            continue
        seen.add(id(library))
        rows_of_library = getattr(library, "_table_name", None)
        if rows_of_library is not None:
            rows[rows_of_library]["opt"] += 1
        todo.extend(getattr(library, "_linking_libraries", ()))
    if stack:
        self._table_name = stack[-1][2]
        rows[stack[-1][2]]["opt"] += 1
    start = time.process_time()
    try:
        return finalize(self)
    finally:
        if stack:
            stack[-1][3] += time.process_time() - start


codegen.CPUCodeLibrary.finalize = timed_finalize
untyped = inline_closurecall.InlineWorker.run_untyped_passes


def counted_untyped(self, func, *args, **kwargs):
    rows[name_of(func)]["inl"] += 1
    return untyped(self, func, *args, **kwargs)


inline_closurecall.InlineWorker.run_untyped_passes = counted_untyped

t0 = time.process_time()
import impulse2d as i2d
t_import = time.process_time() - t0
with event.install_listener("numba:compile", Listener()):
    t0 = time.process_time()
    if what == "pyramid" or what.startswith("scene:"):
        from impulse2d.scenes import build_scene
        name, options = ("pyramid", '{"base": 20}') if what == "pyramid" else (
            what.split(":", 2)[1:] + ["{}"])[:2]
        world = i2d.World()
        build_scene(world, name, **json.loads(options))
        world.step(1.0 / 60.0)
        digest = world.state_hash()
    elif what == "all":
        i2d.warmup(all_kernels=True, progress=False)
        digest = None
    elif what.startswith("script:"):  # a script's calls (e.g. benchmarks/query_kernels.py)
        runpy.run_path(what.split(":", 1)[1], run_name="__main__")
        digest = None
    else:
        from impulse2d._core import lazy
        for key in what.split(":", 1)[1].split(","):  # units by key; one the tree lacks: none
            if key in lazy.REGISTRY:
                lazy.REGISTRY[key].address()
        digest = None
    total = time.process_time() - t0
print(json.dumps({"what": what, "import_cpu_s": t_import, "total_cpu_s": total,
                  "hash": digest, "kernels": rows, "units": units}))
"""


def run(src: Path, what: str) -> dict:
    """The table of ``what`` compiled by the tree ``src`` in a fresh process, empty cache."""
    return fresh_compile(CHILD, src, what)


def short(name: str) -> str:
    return name.replace("impulse2d.", "").replace("._dynamics.", ".").replace(
        "._collision.", ".").lstrip("_")


def report(result: dict, top: int) -> None:
    kernels = result["kernels"]
    print(f"{result['what']}: {result['total_cpu_s']:.1f} s CPU of compiling and running "
          f"(import {result['import_cpu_s']:.2f} s)"
          + (f", state hash {result['hash']}" if result.get("hash") else ""))
    print("\nunits (CPU s with everything compiled inside):")
    for name, seconds in sorted(result["units"].items(), key=lambda kv: -kv[1]):
        if seconds >= 0.2:
            print(f"  {seconds:6.1f}  {short(name)}")
    own = sum(r["own"] for r in kernels.values())
    llvm = sum(r["llvm"] for r in kernels.values())
    print(f"\nkernels: {len(kernels)}, own CPU {own:.1f} s (LLVM {llvm:.1f} s); "
          f"the {top} largest:")
    print("    own   llvm sigs  opt  inl  kernel  [unit]")
    for name, r in sorted(kernels.items(), key=lambda kv: -kv[1]["own"])[:top]:
        print(f"  {r['own']:5.2f}  {r['llvm']:5.2f}  {r['sigs']:3d}  {r['opt']:3d}  "
              f"{r['inl']:3d}  {short(name)}  [{short(r['unit'] or '-')}]")
    optimised = sorted(((r["opt"], name) for name, r in kernels.items() if r["opt"] > 2),
                       reverse=True)[:top]
    if optimised:
        print("\noptimised most often (own module + callers' modules linking it):")
        for count, name in optimised:
            print(f"  {count:3d}  {short(name)} (own {kernels[name]['own']:.2f} s)")
    twice = sorted(((r["own"], name) for name, r in kernels.items() if r["sigs"] > 1),
                   reverse=True)[:top]
    if twice:
        print("\ncompiled for several signatures (own CPU s, all of them):")
        for seconds, name in twice:
            print(f"  {seconds:5.2f}  {short(name)}")
            for signature in kernels[name]["signatures"]:
                print(f"           {signature[:150]}")
    inlined = sorted(((r["inl"], name) for name, r in kernels.items() if r["inl"] > 1),
                     reverse=True)[:top]
    if inlined:
        print("\ninlined most often (Numba IR, typed again in each caller):")
        for count, name in inlined:
            print(f"  {count:3d}  {short(name)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--what", default="pyramid",
                        help="pyramid (cold pyramid_20), all (warmup --all), unit:KEY, script:PATH or "
                             "scene:NAME:JSON (a cold scene's build and first step)")
    parser.add_argument("--top", type=int, default=30, help="kernels listed")
    parser.add_argument("--json", help="write the whole table here")
    args = parser.parse_args()
    result = run(Path(args.src).resolve(), args.what)  # the child runs in the cache's folder
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    report(result, args.top)


if __name__ == "__main__":
    main()
