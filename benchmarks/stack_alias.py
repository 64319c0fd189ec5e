"""The cost of a stack store followed by a stack load 1 KiB (or a multiple) away, on this CPU.

    python benchmarks/stack_alias.py [--reps 2000000]   # the hazard alone
    python benchmarks/stack_alias.py --scan              # where the step's kernels have it

Found in the step's narrowphase loop (session 12): loaded from the cache, the loop re-stored
its callee's arguments from its own incoming arguments, each load 0x400 bytes above the store
before it, and ran 4x slower than the same loop compiled in another frame layout. This
measures the hazard alone, in machine code written here (x86-64 only): ten pairs of
``mov %rcx, S(%rsp)`` then ``mov S+d(%rsp), %rcx`` (the load right after the store), for
several distances ``d``, and the same moves through a plain pointer instead of ``%rsp``.
AMD's Zen 2 and 3 rename memory accessed through the stack pointer (their "memory file"),
matching a load to an earlier store by the low bits of the offset: a load 1 KiB away from a
store is predicted to read it, and the mistake costs a replay (tens of cycles). Another CPU
may show no difference; the figures say which this one is. Writes JSON to
``benchmarks/results/stack_alias_<tag>.json``.

``--scan`` looks for the pattern in the machine code of every compiled unit of the step that
the cache holds (:data:`impulse2d._core.lazy.REGISTRY` and the step kernel): each unit's
cached LLVM module, as the cache keeps it beside the object code, is emitted again as
assembly by Numba's own target machine (the same code), and :func:`alias_pairs` counts, per
function, the loads from ``d(%rsp)`` that follow a store to ``s(%rsp)`` within a few
instructions with ``d - s`` a nonzero multiple of 0x400. A count is not a cost: only a pair in
a hot loop costs (the narrowphase's did: 21 pairs a contact); the list says where to look.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import platform
import time
from pathlib import Path

import numba
import numpy as np
from llvmlite import binding, ir
from numba.core import types
from numba.extending import intrinsic

RESULTS = Path(__file__).parent / "results"
WINDOW = 6
"""Instructions after a stack store within which a load 1 KiB away is counted."""
OFFSETS = (0x1d0, 0x1b8, 0x1c0, 0x1a8, 0x1b0, 0x198, 0x1a0, 0x188, 0x190, 0x178)
DISTANCES = (0x8, 0x100, 0x3f8, 0x400, 0x408, 0x800, 0xc00, 0x1000)
FRAME = 0x2800  # room below the stack pointer: the moves stay far beneath the red zone


def _moves(distance: int, base: str) -> str:
    return "".join(f"movq %rcx, {s}({base})\n\tmovq {s + distance}({base}), %rcx\n\t"
                   for s in OFFSETS)


def _block(distance: int, through_stack: bool):
    """A kernel running the ten store-load pairs ``n`` times (on a scratch buffer when not
    through the stack)."""
    if through_stack:
        text = f"subq $${FRAME}, %rsp\n\t{_moves(distance, '%rsp')}addq $${FRAME}, %rsp"
        constraints = "~{rcx},~{memory}"
    else:
        text = _moves(distance, "$0")
        constraints = "r,~{rcx},~{memory}"

    @intrinsic
    def pairs(typingctx, n, buffer):
        def codegen(context, builder, signature, args):
            count, array = args
            data = context.make_array(signature.args[1])(context, builder, array).data
            fnty = ir.FunctionType(ir.VoidType(), [] if through_stack else [data.type])
            asm = ir.InlineAsm(fnty, text, constraints, side_effect=True)
            loop = builder.append_basic_block("pairs")
            done = builder.append_basic_block("done")
            i = builder.alloca(count.type)
            builder.store(count, i)
            builder.branch(loop)
            builder.position_at_end(loop)
            builder.call(asm, [] if through_stack else [data])
            left = builder.sub(builder.load(i), ir.Constant(count.type, 1))
            builder.store(left, i)
            builder.cbranch(builder.icmp_signed(">", left, ir.Constant(count.type, 0)), loop,
                            done)
            builder.position_at_end(done)
            return context.get_dummy_value()

        return types.void(n, buffer), codegen

    @numba.njit(cache=False)
    def run(n, buffer):
        pairs(n, buffer)

    return run


_STACK = re.compile(r"(-?(?:0x[0-9a-f]+|\d+))?\(%rsp\)")  # LLVM's decimal, gdb's hex
_LABEL = re.compile(r"^([\w.$]+):")
_READS = ("cmp", "test", "ucomis", "vucomis", "comis", "vcomis")
_ADDRESSES = ("lea",)  # computes the address only: no memory access, no hazard


def alias_loads(asm: str, window: int = WINDOW):
    """``(line number, function)`` of each load from ``d(%rsp)`` in the AT&T assembly
    ``asm`` within ``window`` instructions after a store to ``s(%rsp)`` with ``d - s`` a
    nonzero multiple of 0x400 (a call, a jump or a change of ``%rsp`` in between ends the
    window)."""
    function, stores = "", []
    for number, line in enumerate(asm.splitlines()):
        label = _LABEL.match(line)
        if label:
            if not label.group(1).startswith("."):
                function = label.group(1)
            stores = []
            continue
        parts = line.split(None, 1)
        if not parts or parts[0].startswith("."):
            continue
        op, operands = parts[0], parts[1] if len(parts) > 1 else ""
        if op.startswith(("call", "j", "ret")) or operands.rstrip().endswith("%rsp"):
            stores = []
            continue
        match = _STACK.search(operands)
        if match is None or op.startswith(_ADDRESSES):
            continue
        offset = int(match.group(1) or "0", 0)
        if operands.rstrip().endswith("(%rsp)") and not op.startswith(_READS):
            stores = (stores + [offset])[-window:]
        elif any(offset != s and (offset - s) % 0x400 == 0 for s in stores):
            yield number, function


def alias_pairs(asm: str, window: int = WINDOW) -> collections.Counter:
    """Per function of the AT&T assembly ``asm``: the loads :func:`alias_loads` finds."""
    return collections.Counter(function for _, function in alias_loads(asm, window))


def _library_bitcode(value):
    """The LLVM bitcode of the code library in a cached kernel's data (Numba keeps a library
    as ``(name, "object", (object code, bitcode))``)."""
    if isinstance(value, tuple):
        if len(value) == 3 and value[1] == "object" and isinstance(value[2], tuple):
            return value[2][1]
        for item in value:
            found = _library_bitcode(item)
            if found is not None:
                return found
    return None


def scan() -> dict:
    """:func:`alias_pairs` of every step unit the cache holds, by unit and function."""
    import impulse2d  # noqa: F401  (makes every LazyKernel)
    from impulse2d._core.lazy import REGISTRY
    from impulse2d._dynamics.step import step_kernel
    units = {key: (unit.dispatcher, tuple(unit.signature.args))
             for key, unit in REGISTRY.items() if unit.must_compile() is False}
    step = step_kernel.dispatcher() if hasattr(step_kernel, "dispatcher") else step_kernel
    cached = next(iter(step._cache._cache_file._load_index()), None)  # one signature
    if cached is not None:
        units["impulse2d._dynamics.step.step_kernel"] = (step, cached[0])
    out = {}
    for name, (dispatcher, signature) in sorted(units.items()):
        codegen = dispatcher.targetctx.codegen()
        data = dispatcher._cache._cache_file.load(dispatcher._cache._index_key(signature,
                                                                               codegen))
        bitcode = _library_bitcode(data) if data is not None else None
        if bitcode is None:
            continue
        asm = codegen._tm.emit_assembly(binding.parse_bitcode(bitcode))
        pairs = alias_pairs(asm)
        out[name] = {_short(f): n for f, n in pairs.most_common()}
        total = sum(pairs.values())
        print(f"{total:5d}  {name}" + "".join(f"\n         {n:4d} {_short(f)}"
                                             for f, n in pairs.most_common(4)))
    return out


def _short(symbol: str) -> str:
    """A mangled kernel name's dotted path (``_ZN9impulse2d...`` -> ``impulse2d....``)."""
    body = symbol[3:] if symbol.startswith("_ZN") else symbol
    parts, i = [], 0
    while i < len(body) and body[i].isdigit():
        j = i
        while body[j].isdigit():
            j += 1
        n = int(body[i:j])
        parts.append(body[j:j + n])
        i = j + n
    return ".".join(parts) or symbol[:60]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=2_000_000)
    ap.add_argument("--tag", default="s12")
    ap.add_argument("--scan", action="store_true")
    args = ap.parse_args()
    if args.scan:
        RESULTS.mkdir(exist_ok=True)
        out = RESULTS / f"stack_alias_scan_{args.tag}.json"
        out.write_text(json.dumps(scan(), indent=1))
        print("wrote", out)
        return
    if platform.machine().lower() not in ("x86_64", "amd64"):
        raise SystemExit("x86-64 only (the moves are written in its machine code)")
    binding.initialize_native_asmparser()  # inline machine code needs LLVM's assembler
    buffer = np.zeros(FRAME // 8 * 2)
    rows = []
    for through_stack in (True, False):
        for d in DISTANCES:
            run = _block(d, through_stack)
            run(10, buffer)
            best = float("inf")
            for _ in range(5):
                t = time.perf_counter()
                run(args.reps, buffer)
                best = min(best, time.perf_counter() - t)
            ns = best / (args.reps * len(OFFSETS)) * 1e9
            rows.append({"through": "rsp" if through_stack else "pointer", "distance": d,
                         "ns_per_pair": round(ns, 3)})
            print(f"{rows[-1]['through']:>7}  d={d:#07x}  {ns:7.2f} ns a store-load pair")
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"stack_alias_{args.tag}.json"
    out.write_text(json.dumps({"cpu": platform.processor() or platform.machine(),
                               "reps": args.reps, "pairs_per_rep": len(OFFSETS),
                               "rows": rows}, indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
