"""Where a unit's LLVM function passes go: the modules Numba hands them, replayed at each
optimisation level, and by pass.

    python benchmarks/llvm_fpass.py --what impulse2d._dynamics.solvers.soft_step_revolute
    python benchmarks/llvm_fpass.py --what KEY,KEY --src /work/base/src --json out.json

The units compile in a fresh process (``IMPULSE2D_COMPILE_PROCESSES=1``, an empty
``NUMBA_CACHE_DIR``) that keeps a copy of every module given to a code library's
``add_llvm_module`` before its function passes (``CPUCodeLibrary._optimize_functions``: Numba's
function simplification pipeline at ``-O3`` and the reference-count pruning, on each function
of the module apart). A second process replays them (CPU seconds, ``time.process_time``):

* ``levels``: the pipeline at ``-O3`` (Numba's), ``-O2``, ``-O1`` and ``-O0``, each then followed
  by the ``-O3`` pipeline again (what a caller's module passes redo on a linked callee), with the
  instruction count in between; and ``-O3`` with one pass builder for every function against
  Numba's one per function;
* ``passes``: LLVM's own pass timers over the ``-O3`` pipeline, summed by pass;
* ``largest``: the libraries by own function-pass CPU, with their IR's size as text and the
  share of it in ``extractvalue`` lines (a struct passed by value is taken apart field by field,
  each line naming the whole struct's type).

For a link-only library (``_core/link_only.py``) those function passes are the only optimisation
of its own; its callers' module passes optimise it again inside theirs (``compile_split.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CAPTURE = r"""
import pickle, sys, time
from numba.core import codegen
modules = []
original = codegen.CPUCodeLibrary.add_llvm_module


def add(self, module):
    text = str(module)
    start = time.process_time()
    try:
        return original(self, module)
    finally:
        modules.append((self.name, type(self).__name__, text, time.process_time() - start))


codegen.CPUCodeLibrary.add_llvm_module = add
from impulse2d._dynamics import step  # registers the units
from impulse2d._core import lazy
for key in sys.argv[1].split(","):
    lazy.REGISTRY[key].address()
with open(sys.argv[2], "wb") as f:
    pickle.dump(modules, f)
"""

REPLAY = r"""
import collections, json, pickle, re, sys, time
import llvmlite.binding as ll
from numba.core import codegen as cg
from numba.core.registry import cpu_target
codegen = cpu_target.target_context.codegen()
with open(sys.argv[1], "rb") as f:
    modules = pickle.load(f)


def parsed(text):
    module = ll.parse_assembly(text)
    module.data_layout = codegen._data_layout
    return module


def defined(module):
    return [f for f in module.functions if not f.is_declaration]


def run(module, manager):
    fpm, pb = manager
    start = time.process_time()
    for function in defined(module):
        fpm.run(function, pb)
    return time.process_time() - start


def per_function(module):  # Numba's: a pass builder and pipeline for every function
    start = time.process_time()
    for function in module.functions:
        fpm, pb = codegen._function_pass_manager()
        fpm.run(function, pb)
    return time.process_time() - start


out = {"modules": len(modules), "levels": {}}
managers = {level: codegen._function_pass_manager(opt=level) for level in (3, 2, 1, 0)}
for level in (3, 2, 1, 0):
    first = again = 0.0
    size = 0
    for _, _, text, _ in modules:
        module = parsed(text)
        first += run(module, managers[level])
        size += sum(1 for f in defined(module) for b in f.blocks for _ in b.instructions)
        again += run(module, managers[3])
    out["levels"][f"O{level}"] = {"cpu_s": first, "instructions": size, "O3_again_s": again}
out["numba_per_function_s"] = sum(per_function(parsed(t)) for _, _, t, _ in modules)
out["one_builder_s"] = sum(run(parsed(t), managers[3]) for _, _, t, _ in modules)
pb = codegen._pass_builder()
pb.start_pass_timing()
fpm = pb.getFunctionPassManager()
fpm.add_refprune_pass(cg._parse_refprune_flags())
for _, _, text, _ in modules:
    run(parsed(text), (fpm, pb))
passes = collections.Counter()
column = r"\s+[\d.]+ \(.*?\)"  # (user, system, user+system, wall: the third kept)
row = re.compile(column * 2 + r"\s+([\d.]+) \(.*?\)" + column + r"\s+(\S.*)$")
for line in pb.finish_pass_timing().splitlines():
    m = row.match(line)
    if m and not m.group(2).startswith("Total"):
        passes[m.group(2).split(" #")[0]] += float(m.group(1))
out["passes"] = dict(passes.most_common(12))
libraries = collections.defaultdict(lambda: [0.0, 0, 0, ""])
for name, kind, text, cpu in modules:
    row = libraries[name]
    row[0] += cpu
    row[1] += len(text)
    row[2] += sum(len(l) for l in text.splitlines() if " = extractvalue " in l)
    row[3] = kind
out["largest"] = sorted(([n] + r for n, r in libraries.items()), key=lambda r: -r[1])[:12]
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--what", required=True, help="unit keys, comma-separated")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as top:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(top, "cache"), IMPULSE2D_QUIET="1",
                   IMPULSE2D_COMPILE_PROCESSES="1", PYTHONPATH=args.src)
        captured = os.path.join(top, "modules.pickle")
        subprocess.run([sys.executable, "-c", CAPTURE, args.what, captured], env=env, check=True)
        done = subprocess.run([sys.executable, "-c", REPLAY, captured], env=env, check=True,
                              capture_output=True, text=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["what"] = args.what
    with open("/proc/loadavg") as f:
        out["load"] = float(f.read().split()[0])
    print(f"{args.what}: {out['modules']} modules (load {out['load']})")
    for level, row in out["levels"].items():
        print(f"  {level}: {row['cpu_s']:6.2f} s -> {row['instructions']:7d} instructions;"
              f" -O3 again after it {row['O3_again_s']:6.2f} s")
    print(f"  -O3, a pass builder per function (Numba's) {out['numba_per_function_s']:.2f} s,"
          f" one for all {out['one_builder_s']:.2f} s")
    print("  by pass (-O3, LLVM's timers): " + ", ".join(
        f"{name} {cpu:.2f}" for name, cpu in out["passes"].items()))
    print("  fpass s  IR bytes  extractvalue  library")
    for name, cpu, size, extract, kind in out["largest"]:
        print(f"  {cpu:7.2f} {size:9d} {extract / max(size, 1):12.0%}  {name} ({kind})")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
