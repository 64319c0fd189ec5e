"""The front end's patched analyses against Numba's own, call by call, inside one compile: what
each patch saves, measured where the machine's load cannot tell them apart.

    python benchmarks/frontend_paired.py unit:impulse2d._dynamics.solvers_ngs.pgs_block
    python benchmarks/frontend_paired.py unit:KEY,KEY --json out.json

A fresh process (an empty ``NUMBA_CACHE_DIR``, ``IMPULSE2D_COMPILE_PROCESSES=1``) installs
``_core/frontend.py``'s patches and wraps each patched function that is a pure function of its
arguments (``compute_live_map``, ``compute_use_defs``, ``order_by_target_specificity``) so that
every call the compile makes runs the patch and Numba's own (``__wrapped__``) on the same
arguments, in turn (which goes first alternates call by call), sums each one's CPU
(``time.process_time``) and checks the two give the same answer (the same keys in the same
order and equal sets, or the same list); the compile goes on with the patch's. Both run under
the same load a few microseconds apart, so their difference is the patch's saving, a figure
compile pairs in separate processes (``compile_objects.py``) can only bound on a shared
machine. The same for llvmlite's text of each module the compile hands LLVM (``str(module)``
in ``CPUCodeLibrary.add_ir_module``, :mod:`impulse2d._core.ir_text`): written with the patched
functions and with llvmlite's own (swapped in for the one call), every kept text of the
module's values cleared before each (the types' kept texts, shared by every module, are left),
and the two texts compared. The other patches change functions called inside others (or
``isinstance``), so are left to ``compile_objects.py``.
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
what = sys.argv[1]
t0 = time.process_time()
import impulse2d  # noqa: F401
from impulse2d._dynamics import step  # registers the units
from impulse2d._core import frontend, lazy
from numba.core import analysis, ir_utils, utils
from numba.core.typing import context as typing_context
assert frontend.install()
stats = {}


def same_maps(ours, theirs):
    assert list(ours) == list(theirs)
    for key, value in theirs.items():
        assert ours[key] == value, key


def same_use_defs(ours, theirs):
    same_maps(ours.usemap, theirs.usemap)
    same_maps(ours.defmap, theirs.defmap)


def same_list(ours, theirs):
    assert ours == theirs


def paired(name, patched, same):
    own = patched.__wrapped__
    row = stats[name] = {"calls": 0, "patch_s": 0.0, "numba_s": 0.0}

    def both(*args, **kwargs):
        first = row["calls"] % 2 == 0
        for which in ((patched, own) if first else (own, patched)):
            start = time.process_time()
            answer = which(*args, **kwargs)
            spent = time.process_time() - start
            if which is patched:
                ours, row["patch_s"] = answer, row["patch_s"] + spent
            else:
                theirs, row["numba_s"] = answer, row["numba_s"] + spent
        same(ours, theirs)
        row["calls"] += 1
        return ours

    return both


live_map = paired("compute_live_map", analysis.compute_live_map, same_maps)
analysis.compute_live_map = ir_utils.compute_live_map = live_map
patched_use_defs = analysis.compute_use_defs
use_defs = paired("compute_use_defs", patched_use_defs, same_use_defs)
for module in [sys.modules[name] for name in ("numba.core.analysis",) + frontend._USE_DEFS_USERS
               if name in sys.modules]:
    if getattr(module, "compute_use_defs", None) is patched_use_defs:
        module.compute_use_defs = use_defs
order = paired("order_by_target_specificity", utils.order_by_target_specificity, same_list)
utils.order_by_target_specificity = typing_context.order_by_target_specificity = order

# llvmlite's text of each module the compile hands LLVM, written both ways: every kept text of
# the module's values cleared before each (types' texts, shared between modules, kept)
from impulse2d._core import ir_text
from llvmlite.ir import types as ll_types
from numba.core import codegen
KEPT = (ir_text._STR, ir_text._REF)
swaps = [(cls, name, original, cls.__dict__[name]) for cls, name, original in ir_text.REPLACED]


def clear_texts(module):
    seen, todo = set(), [module]
    while todo:
        value = todo.pop()
        if id(value) in seen or isinstance(value, ll_types.Type):
            continue
        seen.add(id(value))
        fields = getattr(value, "__dict__", None)
        if fields is not None and type(value).__module__.startswith("llvmlite.ir"):
            for key in KEPT:
                fields.pop(key, None)
            todo.extend(fields.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            todo.extend(value)
        elif isinstance(value, dict):
            todo.extend(value.values())


text_row = stats["module text"] = {"calls": 0, "patch_s": 0.0, "numba_s": 0.0}
add_ir_module = codegen.CPUCodeLibrary.add_ir_module


def add_paired(self, ir_module):
    first = text_row["calls"] % 2 == 0
    texts = {}
    for which in (("patch", "numba") if first else ("numba", "patch")):
        for cls, name, original, patched in swaps:
            setattr(cls, name, patched if which == "patch" else original)
        clear_texts(ir_module)
        start = time.process_time()
        texts[which] = str(ir_module)
        text_row[which + "_s"] += time.process_time() - start
    for cls, name, original, patched in swaps:
        setattr(cls, name, patched)
    assert texts["patch"] == texts["numba"]
    text_row["calls"] += 1
    return add_ir_module(self, ir_module)


codegen.CPUCodeLibrary.add_ir_module = add_paired

t1 = time.process_time()
by_unit = {}  # each unit (and the callees no unit before it compiled): its CPU, its pairs
for key in what.split(":", 1)[1].split(","):
    if key in lazy.REGISTRY:
        before = {name: dict(row) for name, row in stats.items()}
        start = time.process_time()
        lazy.REGISTRY[key].address()
        by_unit[key] = {"compiling_s": time.process_time() - start}
        for name, row in stats.items():
            by_unit[key][name] = {field: row[field] - before[name][field]
                                  for field in ("calls", "patch_s", "numba_s")}
compiling = time.process_time() - t1
print(json.dumps({"cpu_s": time.process_time() - t0, "compiling_s": compiling,
                  "functions": stats, "by_unit": by_unit}))
"""


def run(src: Path, what: str) -> dict:
    """``what`` compiled in a fresh process from an empty cache, the patches paired."""
    return fresh_compile(CHILD, src, what)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", help="unit:KEY or unit:KEY,KEY,...")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = run(Path(args.src).resolve(), args.what)
    result.update(what=args.what, load_at_start=load, load_at_end=os.getloadavg()[0])
    # (the compile's CPU holds both sides of each pair: less Numba's side, it is the patched
    # compile's)
    alone = result["compiling_s"] - sum(row["numba_s"] for row in result["functions"].values())
    print(f"{args.what}: compiling {result['compiling_s']:.1f} s of CPU with both sides, "
          f"{alone:.1f} s with the patches alone (load {load:.1f} -> "
          f"{result['load_at_end']:.1f})")
    for name, row in result["functions"].items():
        saved = row["numba_s"] - row["patch_s"]
        owner = "llvmlite's" if name == "module text" else "Numba's"
        print(f"  {name}: {row['calls']} calls, {owner} {row['numba_s']:.3f} s, the patch's "
              f"{row['patch_s']:.3f} s: {saved:.3f} s saved ({100 * saved / alone:.1f} % of "
              f"the patched compile), the same answers")
    if len(result["by_unit"]) > 1:
        for key, row in result["by_unit"].items():
            both = sum(pair["numba_s"] for name, pair in row.items() if name != "compiling_s")
            saved = ", ".join(f"{name} {pair['numba_s'] - pair['patch_s']:.3f}"
                              for name, pair in row.items()
                              if name != "compiling_s")
            print(f"  {key}: compiling {row['compiling_s'] - both:.1f} s with the patches "
                  f"alone; saved (s) {saved}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
