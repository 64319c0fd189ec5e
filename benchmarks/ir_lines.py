"""The LLVM IR Numba's lowering emits for one kernel, by source line: which inlined helper, call
or store makes a kernel's IR large (the front end's lowering and LLVM's function passes scale
with it).

    python benchmarks/ir_lines.py unit:impulse2d._dynamics.threaded.soft_step_threaded _substeps
    python benchmarks/ir_lines.py unit:KEY QUALNAME --src /work/base/src --top 40 --json o.json

The unit compiles in one fresh process (``IMPULSE2D_COMPILE_PROCESSES=1``) from an empty cache
(a fresh ``NUMBA_CACHE_DIR``). While the kernel whose qualified name is ``QUALNAME`` is lowered,
every instruction llvmlite's builder inserts (``IRBuilder._insert``) is counted to the Numba IR
statement being lowered (``Lower.lower_inst``), by that statement's source file and line: an
inlined kernel's statements keep their own lines, so a helper inlined at 15 sites shows the
sum of its 15 copies at its lines. The total is the kernel's IR as Numba hands it to LLVM, less
the entry block's set-up (the arguments, the stack slots), which no statement holds. Used to
find what made ``_substeps`` 27,000 instructions (BENCHMARKS.md, session 27, ``warmC52``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from _fresh_compile import run as fresh_compile

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import collections, json, os, sys
from llvmlite import ir
from numba.core import lowering

inserted = [0]
original_insert = ir.IRBuilder._insert


def _insert(self, instr):
    inserted[0] += 1
    return original_insert(self, instr)


ir.IRBuilder._insert = _insert
by_line = collections.Counter()
want = sys.argv[2]
original_lower_inst = lowering.Lower.lower_inst


def lower_inst(self, inst):
    if self.fndesc.qualname != want:
        return original_lower_inst(self, inst)
    before = inserted[0]
    try:
        return original_lower_inst(self, inst)
    finally:
        by_line[(os.path.relpath(inst.loc.filename or "?", sys.argv[3]), inst.loc.line)] += (
            inserted[0] - before)


lowering.Lower.lower_inst = lower_inst
from impulse2d._dynamics import step  # registers the units
from impulse2d._core import lazy
for key in sys.argv[1].split(":", 1)[1].split(","):
    lazy.REGISTRY[key].address()
print(json.dumps([[f, line, n] for (f, line), n in by_line.most_common()]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", help="unit:KEY[,KEY...]: the units to compile")
    parser.add_argument("qualname", help="the kernel to count, by its qualified name")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--json", help="write the counts here")
    args = parser.parse_args()
    src = str(Path(args.src).resolve())
    rows = fresh_compile(CHILD, src, args.what, args.qualname, src)
    by_file: dict = {}
    for name, _, n in rows:
        by_file[name] = by_file.get(name, 0) + n
    print(f"{args.qualname} in {args.what} ({src}): {sum(n for _, _, n in rows)} instructions")
    for name, n in sorted(by_file.items(), key=lambda item: -item[1]):
        print(f"  {n:7d}  {name}")
    print()
    for name, line, n in rows[:args.top]:
        print(f"  {n:7d}  {name}:{line}")
    if args.json:
        Path(args.json).write_text(json.dumps({"what": args.what, "qualname": args.qualname,
                                               "src": src, "lines": rows}, indent=1))


if __name__ == "__main__":
    main()
