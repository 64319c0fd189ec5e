"""Instructions of one compiled function, each with the count callgrind gave it: where a
kernel's instructions go, line by line of its machine code (session 33, ``jointS58``: the
revolute joint's solve in a lander world-step).

    # the lander_callgrind.py recipe, with --dump-instr=yes added to valgrind's options:
    PYTHONPATH=src valgrind --tool=callgrind --collect-atstart=no --dump-instr=yes \\
        --toggle-collect=starmap_next --callgrind-out-file=/tmp/cg_a.out \\
        python benchmarks/lander_callgrind.py 64 20 --symbols /tmp/cg_a.json
    python benchmarks/callgrind_instr.py /tmp/cg_a.out /tmp/cg_a.json \\
        "$NUMBA_CACHE_DIR" 8revolute5solve --per 1280 > /tmp/solve.txt

The function is the one whose symbol contains the given text; its machine code is read from
the kernel cache (the ``.nbc`` whose object defines the symbol: :mod:`kernel_code`), its
runtime address from the symbols file (:func:`direct_callgrind.symbol_map`), so that each
instruction of ``objdump -d`` gets the callgrind count of its address (self cost, divided by
``--per``, the world-steps). Ends with the instructions by kind (floating arithmetic, loads,
stores, branches, calls, ...), weighted by their counts. Needs ``objdump`` (binutils).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kernel_code import object_code  # noqa: E402


def instruction_counts(out_file: str, start: int, size: int) -> collections.Counter:
    """Self cost (Ir) of each instruction address in ``[start, start + size)`` of a callgrind
    output written with ``--dump-instr=yes`` (``positions: instr line``; addresses relative to
    the previous one after the first; the line after a ``calls=`` is the call's inclusive
    cost, not the instruction's own)."""
    counts: collections.Counter = collections.Counter()
    last = 0
    skip = False
    with open(out_file) as f:
        for line in f:
            if line.startswith("calls="):
                skip = True
                continue
            m = re.match(r"^(0x[0-9a-f]+|\+\d+|-\d+|\*)\s+\S+\s+(\d+)", line)
            if not m:
                continue
            pos = m.group(1)
            if pos.startswith("0x"):
                last = int(pos, 16)
            elif pos != "*":
                last += int(pos)
            if skip:
                skip = False
                continue
            if start <= last < start + size:
                counts[last] += int(m.group(2))
    return counts


KINDS = [
    ("float arithmetic", r"^v?(add|sub|mul|div|sqrt|min|max|fmadd|fmsub|fnmadd|fnmsub)\w*s[sd]$"),
    ("float compare", r"^v?u?comis[sd]$|^vcmp\w*s[sd]$"),
    ("float select/blend/logic", r"^v?(blendv|and|andn|or|xor)p[sd]$|^vblendv"),
    ("call", r"^call"),
    ("branch", r"^j"),
    ("integer compare/test", r"^(cmp|test)"),
    ("lea/integer arithmetic", r"^(lea|add|sub|imul|shl|shr|sar|inc|dec|neg|and|or|xor)[lqwb]?$"),
    ("cmov/set", r"^(cmov|set)"),
    ("push/pop/ret", r"^(push|pop|ret)"),
]


def kind(mnemonic: str, operands: str) -> str:
    """The class of an instruction, for the table: moves split into loads, stores and
    register moves by where their memory operand is."""
    if mnemonic.startswith(("mov", "vmov")):
        if "(" in operands:
            stack = "(%rsp)" in operands
            if operands.rstrip().endswith(")"):
                return "store to the stack (spill)" if stack else "store"
            return "load from the stack (spill reload)" if stack else "load"
        return "register move"
    for name, pattern in KINDS:
        if re.match(pattern, mnemonic):
            if "(" in operands and name in ("float arithmetic", "float compare"):
                return name + (" (stack operand)" if "(%rsp)" in operands
                               else " (memory operand)")
            return name
    return "other"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_file")
    parser.add_argument("symbols")
    parser.add_argument("cache_dir")
    parser.add_argument("symbol", help="text the function's symbol contains")
    parser.add_argument("--per", type=float, default=1.0, help="divide the counts by this")
    args = parser.parse_args(argv)
    rows = [r for r in json.load(open(args.symbols))["functions"]
            if args.symbol in r[2] and not r[2].startswith("cfunc.")]
    if len(rows) != 1:
        raise SystemExit(f"{len(rows)} functions match {args.symbol!r}")
    start, size, name = rows[0]
    needle = name.encode()
    cache = next(p for p in Path(args.cache_dir).rglob("*.nbc") if needle in p.read_bytes())
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(object_code(cache))
        f.flush()
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--disassemble={name}",
                               f.name], check=True, capture_output=True, text=True).stdout
    counts = instruction_counts(args.out_file, start, size)
    base = None
    by_kind: collections.Counter = collections.Counter()
    total = 0.0
    for line in text.splitlines():
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if not m:
            continue
        offset = int(m.group(1), 16)
        if base is None:
            base = offset
        n = counts.get(start + offset - base, 0) / args.per
        total += n
        by_kind[kind(m.group(2), m.group(3))] += n
        operands = re.sub(r"[0-9a-f]+ <[^>]*\+(0x[0-9a-f]+)>", r"\1", m.group(3))
        print(f"{n:8.1f}  {offset - base:5x}: {m.group(2)} {operands}")
    print(f"\n{name[:100]}...: {total:.1f} instructions (per {args.per:g})")
    for k, n in by_kind.most_common():
        print(f"{n:8.1f}  {100 * n / total:5.1f} %  {k}")


if __name__ == "__main__":
    main()
