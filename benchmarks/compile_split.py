"""A unit's compile split between LLVM and Python, and LLVM's passes library by library with
the size of the IR they ran on: which library's IR is large, and which is optimised again in
its callers.

    python benchmarks/compile_split.py --what unit:impulse2d._dynamics.threaded.soft_step_threaded
    python benchmarks/compile_split.py --what unit:KEY,KEY --src /work/base/src --json out.json

The units compile in one fresh process (``IMPULSE2D_COMPILE_PROCESSES=1``) from an empty
kernel cache (``NUMBA_CACHE_DIR``). CPU seconds (``time.process_time``):

* ``llvm``: inside llvmlite's calls into LLVM (its ``ffi`` wrapper: parsing, the passes,
  linking, machine code), by LLVM function; ``python``: the rest (Numba's typing, lowering
  and IR passes, and llvmlite building the IR as Python objects and text);
* per library: ``fpass``, the function passes on the module Numba adds (its own functions,
  before any callee is linked: ``add_llvm_module``), with that module's instruction count;
  ``mpass``, the module passes on the linked whole at ``finalize`` (every linked callee is
  optimised again there), with the instruction count before and after; ``code``, machine code
  (``_finalize_specific``).

``compile_llvm.py`` gives the same phases summed by kind of library, ``warmup_profile.py``
by kernel over a whole ``warmup --all``; this is for one unit's libraries, e.g. a parallel
kernel's loop body and Numba's wrappers around it (BENCHMARKS.md, session 26, ``warmB51``).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from _fresh_compile import run as fresh_compile

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, runpy, sys, time
from collections import Counter, defaultdict
from llvmlite.binding import ffi
from numba.core import codegen

llvm = Counter()
calls = Counter()
original_call = ffi._lib_fn_wrapper.__call__


counting = [False, 0.0]  # in instructions(), and its CPU: left out of every figure


def call(self, *args, **kwargs):
    if counting[0]:
        return original_call(self, *args, **kwargs)
    start = time.process_time()
    try:
        return original_call(self, *args, **kwargs)
    finally:
        name = self._cfn.__name__
        llvm[name] += time.process_time() - start
        calls[name] += 1


ffi._lib_fn_wrapper.__call__ = call
libraries = defaultdict(lambda: {"fpass": 0.0, "own_instructions": 0, "mpass": 0.0,
                                 "linked_instructions": 0, "optimised_instructions": 0,
                                 "code": 0.0})


def instructions(module):
    counting[0] = True
    start = time.process_time()
    try:
        return sum(sum(1 for _ in block.instructions) for f in module.functions
                   if not f.is_declaration for block in f.blocks)
    finally:
        counting[0] = False
        counting[1] += time.process_time() - start


def timed(cls, name, body):
    original = getattr(cls, name)

    def run(self, *args):
        return body(self, original, *args)

    setattr(cls, name, run)


def add(self, original, module):
    row = libraries[self.name]
    row["own_instructions"] += instructions(module)
    start = time.process_time()
    try:
        return original(self, module)
    finally:
        row["fpass"] += time.process_time() - start


def optimise(self, original):
    row = libraries[self.name]
    row["linked_instructions"] += instructions(self._final_module)
    start = time.process_time()
    try:
        return original(self)
    finally:
        row["mpass"] += time.process_time() - start
        row["optimised_instructions"] += instructions(self._final_module)


def machine_code(self, original):
    start = time.process_time()
    try:
        return original(self)
    finally:
        libraries[self.name]["code"] += time.process_time() - start


timed(codegen.CPUCodeLibrary, "add_llvm_module", add)
timed(codegen.CPUCodeLibrary, "_optimize_final_module", optimise)
timed(codegen.JITCodeLibrary, "_finalize_specific", machine_code)
t0 = time.process_time()
from impulse2d._dynamics import step  # registers the units
from impulse2d._core import lazy
if sys.argv[1].startswith("script:"):  # a script's calls (e.g. benchmarks/query_kernels.py)
    runpy.run_path(sys.argv[1].split(":", 1)[1], run_name="__main__")
else:
    for key in sys.argv[1].split(":", 1)[1].split(","):
        if key in lazy.REGISTRY:
            lazy.REGISTRY[key].address()
total = time.process_time() - t0 - counting[1]  # (the counts are outside the phases' clocks)
print(json.dumps({"what": sys.argv[1], "cpu_s": total, "llvm_s": sum(llvm.values()),
                  "llvm_by_function": dict(llvm.most_common(12)), "calls": dict(calls),
                  "libraries": libraries}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--what", required=True, help="unit:KEY[,KEY...] or script:PATH (its calls)")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = fresh_compile(CHILD, args.src, args.what)
    result["load_at_start"] = load
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    cpu, llvm = result["cpu_s"], result["llvm_s"]
    print(f"{result['what']}: {cpu:.2f} s CPU (load {load:.1f} at the start): LLVM {llvm:.2f}, "
          f"Python {cpu - llvm:.2f}")
    for name, seconds in result["llvm_by_function"].items():
        print(f"  {seconds:6.2f}  {result['calls'][name]:6d}  {name}")
    print("\n  fpass (own instr)   mpass (linked -> optimised)   code  library")
    rows = sorted(result["libraries"].items(),
                  key=lambda kv: -(kv[1]["fpass"] + kv[1]["mpass"] + kv[1]["code"]))
    for name, r in rows[: args.top]:
        print(f"  {r['fpass']:5.2f} ({r['own_instructions']:6d})  {r['mpass']:5.2f} "
              f"({r['linked_instructions']:6d} -> {r['optimised_instructions']:6d})  "
              f"{r['code']:5.2f}  {name[-60:]}")


if __name__ == "__main__":
    main()
