"""Where a compile's LLVM time goes: per phase, for libraries only linked into others and for
those with an entry point, in one process from an empty kernel cache.

    python benchmarks/compile_llvm.py                          # cold pyramid_20
    python benchmarks/compile_llvm.py --what unit:impulse2d._dynamics.pair_update.update_pairs
    python benchmarks/compile_llvm.py --src /work/base/src --json out.json

Numba makes one LLVM code library per compiled signature. Its IR goes through the function
passes as it is added, then ``finalize`` links the callees' libraries in, runs the module
passes on the whole (the cheap pre-pass and the full -O3 pipeline) and makes machine code
(``finalize_object``), which the cache saves. A library with neither a Python nor a C wrapper
(an ``inner_kernel`` or ``borrowing_kernel``) is *link-only*: its machine code is never
called, every caller links its IR and makes its own. CPU seconds (``time.process_time``, so a
loaded machine stretches them less than the wall), by kind of library:

* ``function_passes``: Numba's per-function passes as IR is added (all libraries together);
* ``module_passes``: the module passes at ``finalize``;
* ``machine_code``: making the machine code (``_finalize_specific``);
* ``codegen_ir_passes``: in a tree with ``_core/link_only.py``, a link-only library's code
  generator's IR passes, which it runs instead of making machine code;
* ``finalize``: the whole of ``finalize`` (linking, the two above, and checks).

Everything compiles in the one process (``IMPULSE2D_COMPILE_PROCESSES=1``); ``what`` as in
``compile_table.py``: ``pyramid`` (import, build ``pyramid_20``, first step) or ``unit:KEY`` (a
unit by its key; several, comma-separated: those the tree has).
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
from collections import defaultdict
from numba.core import codegen

library, jit_library = codegen.CPUCodeLibrary, codegen.JITCodeLibrary
seconds = defaultdict(lambda: defaultdict(float))
count = defaultdict(int)
by_library = defaultdict(float)  # machine code, or IR passes, by library name


def kind(lib):
    # (before the callees are linked in: the library's own functions)
    names = [f.name for f in lib._final_module.functions if not f.is_declaration]
    wrapped = any(n.startswith(("cpython.", "cfunc.")) for n in names)
    return "with_entry_point" if wrapped else "link_only"


def timed(cls, name, phase, before=None):
    original = getattr(cls, name)

    def run(self, *args, **kwargs):
        if before is not None:
            before(self)
        start = time.process_time()
        try:
            return original(self, *args, **kwargs)
        finally:
            spent = time.process_time() - start
            seconds[getattr(self, "_bench_kind", "all")][phase] += spent
            if phase in ("machine_code", "codegen_ir_passes"):
                by_library[f"{phase} {self.name}"] += spent

    setattr(cls, name, run)


def classify(lib):
    lib._bench_kind = kind(lib)
    count[lib._bench_kind] += 1


timed(library, "finalize", "finalize", before=classify)
timed(library, "_optimize_final_module", "module_passes")
timed(jit_library, "_finalize_specific", "machine_code")
original_add = library.add_llvm_module


def add_llvm_module(self, module):
    start = time.process_time()
    try:
        return original_add(self, module)
    finally:
        seconds["all"]["function_passes"] += time.process_time() - start


library.add_llvm_module = add_llvm_module
try:  # a tree whose link-only libraries make no machine code: their code generator's IR passes
    from impulse2d._core.link_only import LinkOnlyLibrary
    timed(LinkOnlyLibrary, "_finalize_final_module", "codegen_ir_passes")
except ImportError:
    pass
what = sys.argv[1]
t0 = time.process_time()
import impulse2d as i2d
if what == "pyramid":
    from impulse2d.scenes import build_scene
    world = i2d.World()
    build_scene(world, "pyramid", base=20)
    world.step(1.0 / 60.0)
else:
    from impulse2d._dynamics import step  # registers the units
    from impulse2d._core import lazy
    for key in what.split(":", 1)[1].split(","):  # units by key; one the tree lacks: none
        if key in lazy.REGISTRY:
            lazy.REGISTRY[key].address()
top = dict(sorted(by_library.items(), key=lambda kv: -kv[1])[:40])
print(json.dumps({"what": what, "total_cpu_s": time.process_time() - t0, "libraries": count,
                  "seconds": seconds, "largest_by_library": top}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--what", default="pyramid", help="pyramid or unit:KEY")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = fresh_compile(CHILD, args.src, args.what)
    result["load_at_start"] = load
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    print(f"{result['what']}: {result['total_cpu_s']:.1f} s CPU (load {load:.1f} at the start); "
          f"function passes {result['seconds']['all']['function_passes']:.1f} s")
    for kind in ("link_only", "with_entry_point"):
        s = result["seconds"].get(kind, {})
        print(f"  {kind}: {result['libraries'].get(kind, 0)} libraries, finalize "
              f"{s.get('finalize', 0.0):.1f} s: module passes {s.get('module_passes', 0.0):.1f}, "
              f"machine code {s.get('machine_code', 0.0):.1f}")


if __name__ == "__main__":
    main()
