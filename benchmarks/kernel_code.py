"""The machine code of a compiled kernel in several source trees, from their kernel caches: how
many instructions each function of the kernel's object code has, and how far the trees' mixes
of instructions are apart. For a question a timing on a loaded machine cannot settle: did a
change of the source change what the step runs? (Issue 32: the revolute joint through the row
machinery against the engine before it, BENCHMARKS.md, 2026-11-28 evening.)

    python benchmarks/kernel_code.py joint_solver.revolute_entry \\
        --trees base=/work/wt/pre_rows/src main=/work/main/src

The kernel must be in each tree's cache (``src/impulse2d/_kernels``, filled by running the
tree: ``benchmarks/joints_three_way.py`` does). Numba links a kernel's callees into its object
code and LLVM inlines what it judges small, so the object code of a verb is what its joints
run; a call that stayed a call shows as an undefined symbol (``calls to``). Needs ``objdump``
(binutils).
"""

from __future__ import annotations

import argparse
import collections
import re
import struct
import subprocess
import tempfile
from pathlib import Path


def object_code(cache_file: Path) -> bytes:
    """The ELF object in a Numba cache file (``.nbc``: a pickle holding it as bytes), cut to
    the length its header gives (the section headers come last in Numba's objects)."""
    data = cache_file.read_bytes()
    start = data.find(b"\x7fELF")
    if start < 0:
        raise ValueError(f"{cache_file}: no object code")
    shoff, = struct.unpack_from("<Q", data, start + 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, start + 0x3A)
    return data[start:start + shoff + shentsize * shnum]


def disassemble(code: bytes) -> tuple[dict, collections.Counter, list]:
    """Instructions per function, the mnemonics' counts, the undefined symbols."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(code)
        f.flush()
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f.name], check=True,
                              capture_output=True, text=True).stdout
        table = subprocess.run(["objdump", "-t", f.name], check=True, capture_output=True,
                               text=True).stdout
    functions: dict = {}
    ops: collections.Counter = collections.Counter()
    current = None
    for line in text.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if head:
            current = head.group(1)
            functions[current] = 0
        elif current:
            body = re.match(r"^\s+[0-9a-f]+:\s+(\S+)", line)
            if body:
                functions[current] += 1
                ops[body.group(1)] += 1
    undefined = [line.split()[-1] for line in table.splitlines() if "*UND*" in line]
    return functions, ops, undefined


def short(symbol: str) -> str:
    """A Numba mangled name's dotted path (``_ZN9impulse2d...`` -> ``impulse2d....``)."""
    parts, rest = [], symbol.split("_ZN", 1)[-1]
    while rest and rest[0].isdigit():
        n = int(re.match(r"\d+", rest).group())
        rest = rest[len(str(n)):]
        parts.append(rest[:n])
        rest = rest[n:]
    return ".".join(parts) or symbol[:60]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel", help="module.function as the cache names it, e.g. "
                                       "joint_solver.revolute_entry")
    parser.add_argument("--trees", nargs="+", required=True, help="NAME=SRC")
    args = parser.parse_args()
    mixes = {}
    for name, src in (t.split("=", 1) for t in args.trees):
        files = sorted(Path(src, "impulse2d", "_kernels").rglob(f"{args.kernel}-*.nbc"))
        if not files:
            print(f"{name}: {args.kernel} not in the cache of {src}")
            continue
        for cache_file in files:
            functions, ops, undefined = disassemble(object_code(cache_file))
            mixes[f"{name} {cache_file.name}"] = ops
            sizes = ", ".join(f"{short(f)} {n}" for f, n in functions.items())
            calls = ", ".join(sorted({u for u in undefined if not u.startswith(("Py", "numba_",
                                                                               "_Py"))}))
            print(f"{name:8s} {cache_file.name}: {sum(functions.values())} instructions "
                  f"({sizes}); calls to: {calls or 'none'}")
    names = list(mixes)
    for other in names[1:]:
        a, b = mixes[names[0]], mixes[other]
        apart = sum(abs(a[k] - b[k]) for k in set(a) | set(b))
        print(f"mnemonic counts apart, {names[0]} / {other}: {apart} of "
              f"{sum(a.values())} / {sum(b.values())}")


if __name__ == "__main__":
    main()
