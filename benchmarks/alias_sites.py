"""The machine code around each stack-alias load of one cached unit, and its functions' frames.

    PYTHONPATH=/work/base/src python benchmarks/alias_sites.py \
        --unit impulse2d._dynamics.solvers.soft_step [--function soft_step] [--asm out.s]

``stack_alias.py --scan`` counts, per function of every cached unit, the loads from
``d(%rsp)`` a few instructions after a store to ``s(%rsp)`` with ``d - s`` a nonzero multiple
of 0x400 (Zen 3 replays them). A count says nothing of cost: a load in a loop that runs once a
step costs 40-70 ns a step, one in a per-contact loop a millisecond. This prints, for the unit
``--unit`` (a key of :data:`impulse2d._core.lazy.REGISTRY`, or the step kernel), the frame size
of each function (its ``sub $N, %rsp``) and each counted load with the lines before it and its
basic block's label, so that one can tell which loop it sits in; ``--asm`` writes the unit's
whole assembly (the cached module emitted again by Numba's target machine: the same code the
cache's object holds) with the names that change from one compile to the next (mangled
symbols, with their unique ids; local labels and constants) replaced by placeholders, so that
a plain ``diff`` of two trees' files shows the code that differs and nothing else.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from stack_alias import _LABEL, _library_bitcode, _short, alias_loads  # noqa: E402

_FRAME = re.compile(r"\bsubq\s+\$(\d+), %rsp")
_NAMES = ((re.compile(r"_ZN[0-9A-Za-z_]+"), "SYM"), (re.compile(r"\.LBB[0-9_]+"), "LBB"),
          (re.compile(r"\.LCPI[0-9_]+"), "LCPI"), (re.compile(r"\.Ltmp[0-9]+"), "Ltmp"))
"""What differs between two compiles of the same code: the placeholders of ``--asm``."""


def normalised(asm: str) -> str:
    for pattern, placeholder in _NAMES:
        asm = pattern.sub(placeholder, asm)
    return asm


def unit_assembly(key: str) -> str:
    """The assembly of the cached unit ``key``, as ``stack_alias.scan`` makes it."""
    from llvmlite import binding

    import impulse2d  # noqa: F401  (makes every LazyKernel)
    from impulse2d._core.lazy import REGISTRY
    from impulse2d._dynamics.step import step_kernel
    if key == "impulse2d._dynamics.step.step_kernel":
        dispatcher = step_kernel.dispatcher() if hasattr(step_kernel, "dispatcher") else step_kernel
        signature = next(iter(dispatcher._cache._cache_file._load_index()))[0]
    else:
        unit = REGISTRY[key]
        dispatcher, signature = unit.dispatcher, tuple(unit.signature.args)
    codegen = dispatcher.targetctx.codegen()
    data = dispatcher._cache._cache_file.load(dispatcher._cache._index_key(signature, codegen))
    bitcode = _library_bitcode(data) if data is not None else None
    if bitcode is None:
        sys.exit(f"{key}: not in this tree's cache (run a scene that uses it first)")
    return codegen._tm.emit_assembly(binding.parse_bitcode(bitcode))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--unit", required=True)
    ap.add_argument("--function", default="", help="only functions whose dotted name has this")
    ap.add_argument("--before", type=int, default=6, help="lines shown before each load")
    ap.add_argument("--asm", help="write the unit's assembly here")
    args = ap.parse_args()
    asm = unit_assembly(args.unit)
    if args.asm:
        Path(args.asm).write_text(normalised(asm))
    lines = asm.splitlines()
    function, frames = "", {}
    for line in lines:
        label = _LABEL.match(line)
        if label and not label.group(1).startswith("."):
            function = label.group(1)
        frame = _FRAME.search(line)
        if frame and function not in frames:
            frames[function] = int(frame.group(1))
    for symbol, size in frames.items():
        if args.function in _short(symbol):
            print(f"frame {size:#07x}  {_short(symbol)}")
    for number, symbol in alias_loads(asm):
        if args.function not in _short(symbol):
            continue
        block = next((lines[k] for k in range(number, -1, -1) if _LABEL.match(lines[k])), "")
        print(f"\n{_short(symbol)}  line {number}  block {block.strip()}")
        for k in range(max(0, number - args.before), number + 1):
            print(("  > " if k == number else "    ") + lines[k].strip())


if __name__ == "__main__":
    main()
