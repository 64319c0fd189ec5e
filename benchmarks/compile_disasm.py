"""Two kernel caches' machine code compared as instructions: which units' code a change really
changed, and by how many instructions.

    python benchmarks/compile_disasm.py --a /work/base/src/impulse2d/_kernels \\
        --b src/impulse2d/_kernels [--json out.json]

``compile_objects.py`` compares the object code byte for byte, and two compiles of the same
code differ there whenever Numba numbered its functions otherwise (the ``B<n>v<m>B`` in every
mangled name, a per-process counter): a compile that creates its libraries in another order
renames every callee. Here each kernel entry with object code in both caches is disassembled
(``objdump -d -r``) and compared instruction by instruction, the symbols' names (Numba's numbers
in them), the addresses and the offsets left out: ``same`` (byte for byte), ``same
instructions``, or the number of instructions that differ (``difflib``'s changed spans: the
longer side of each). The same instructions are the same machine code: the same results at the
same speed; a unit whose instructions differ is the one to pair (``paired_cpu.py``, ...).
"""

from __future__ import annotations

import argparse
import difflib
import json
import pickle
import re
import subprocess
import tempfile
from pathlib import Path

from compile_objects import _libraries

_LINE = re.compile(r"\s*[0-9a-f]+:\s+(.*)$")
_SYMBOL = re.compile(r"<[^>]*>")
_NUMBER = re.compile(r"B\d+v\d+B")
_HEX = re.compile(r"\b[0-9a-f]{3,}\b")


def objects(path: Path) -> list:
    """The object code of each code library in a cache entry (link-only ones have none)."""
    with open(path, "rb") as f:
        entry = pickle.load(f)
    return [blobs[0] for kind, blobs in _libraries(entry, []) if kind == "object"]


def instructions(blob: bytes) -> list:
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(blob)
        f.flush()
        listing = subprocess.run(["objdump", "-d", "-r", "--no-show-raw-insn", f.name],
                                 capture_output=True, text=True, check=True).stdout
    out = []
    for line in listing.splitlines():
        m = _LINE.match(line)
        if m:
            out.append(_HEX.sub("X", _NUMBER.sub("BvB", _SYMBOL.sub("<>", m.group(1)))))
    return out


def compare(a: Path, b: Path) -> dict:
    rows, counts = {}, {"same": 0, "same instructions": 0, "different": 0}
    for path_a in sorted(a.rglob("*.nbc")):
        path_b = b / path_a.relative_to(a)
        if not path_b.exists():
            continue
        code_a, code_b = objects(path_a), objects(path_b)
        if not code_a or not code_b:
            continue
        if code_a == code_b:
            counts["same"] += 1
            continue
        ins_a = [x for blob in code_a for x in instructions(blob)]
        ins_b = [x for blob in code_b for x in instructions(blob)]
        if ins_a == ins_b:
            counts["same instructions"] += 1
            continue
        counts["different"] += 1
        spans = difflib.SequenceMatcher(None, ins_a, ins_b, autojunk=False).get_opcodes()
        rows[str(path_a.relative_to(a))] = {
            "a": len(ins_a), "b": len(ins_b),
            "changed": sum(max(i2 - i1, j2 - j1) for t, i1, i2, j1, j2 in spans if t != "equal")}
    return {"counts": counts, "different": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the first tree's kernel cache folder")
    parser.add_argument("--b", required=True, help="the second's")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    out = compare(Path(args.a), Path(args.b))
    for name, row in sorted(out["different"].items(), key=lambda kv: -kv[1]["changed"]):
        print(f"{name}: {row['a']} -> {row['b']} instructions, {row['changed']} changed")
    print(out["counts"])
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
