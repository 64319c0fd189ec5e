"""Kernels a cache holds for a literal signature and for its plain twin, and whether any other
cached kernel's code names the literal one.

    python benchmarks/literal_twins.py [KERNELS_DIR]     # default: this tree's _kernels/

Numba types a constant as a literal (``False`` is ``Literal[bool](False)``) and resolves a
call as soon as its arguments have types, during type inference, while a variable's type may
still widen: ``joints = False`` then ``joints = joints or ...`` in a loop first reaches a call
as the literal, later as ``bool``. The callee is then compiled for both signatures, and the
literal one's code may never be called. Some twins are meant (a literal verb or flag that
prunes a branch, compiled for each value). This reads every index (``.nbi``) in the cache:
for each kernel with a literal signature and a plain one, how many of its mangled symbols
other kernels' code (``.nbc``: object code and bitcode) names, and how many of those with a
literal argument. A literal signature that no other kernel names is compiled for nothing.
"""

from __future__ import annotations

import glob
import os
import pickle
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYMBOL = re.compile(rb"[\w$.]+")


def twins(root: str) -> list:
    """(index, signatures, literal ones, symbols named by other kernels, literal ones of
    those) for each kernel of ``root`` with a literal signature among several."""
    code = {p: Path(p).read_bytes() for p in glob.glob(root + "/**/*.nbc", recursive=True)}
    rows = []
    for index in sorted(glob.glob(root + "/**/*.nbi", recursive=True)):
        try:
            with open(index, "rb") as f:
                pickle.load(f)  # (Numba's version)
                _, overloads = pickle.loads(f.read())
        except Exception:  # (an index of another format: not a kernel's)
            continue
        signatures = [key[0] for key in overloads]
        literal = [s for s in signatures if "Literal" in str(s)]
        if len(signatures) < 2 or not literal:
            continue
        name = os.path.basename(index).split("-")[0].split(".")[-1].encode()
        key = str(len(name)).encode() + name + b"B"  # (Numba's mangling: <length><name>B...)
        own = index[:-len(".nbi")]
        named = with_literal = 0
        for path, data in code.items():
            if path.startswith(own):
                continue
            seen = set()
            at = data.find(key)
            while at >= 0:
                symbol = SYMBOL.match(data, at).group(0)
                if symbol not in seen:
                    seen.add(symbol)
                    named += 1
                    with_literal += b"Literal" in symbol
                at = data.find(key, at + 1)
        rows.append((os.path.relpath(index, root), len(signatures), len(literal), named,
                     with_literal))
    return rows


def main() -> None:
    root = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "src" / "impulse2d" / "_kernels")
    rows = twins(root)
    print("index, signatures, literal, symbols other kernels name, of which literal")
    for row in rows:
        print(*row)
    print(f"{len(rows)} kernels with literal twins; a literal signature no other kernel names: "
          f"{sum(1 for row in rows if row[4] == 0)}")


if __name__ == "__main__":
    main()
