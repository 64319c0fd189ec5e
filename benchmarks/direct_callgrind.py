"""Instructions a step of a ``direct`` world under callgrind, by compiled function: counts that
do not move with the machine's load (its CPU times drift by up to 2x between processes).

    eval "$(python benchmarks/direct_callgrind.py --env /tmp/cg_a)"   # once per tree and shell
    PYTHONPATH=src python benchmarks/direct_callgrind.py hub/direct/velocity 5   # fills the cache
    PYTHONPATH=src valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=starmap_next --callgrind-out-file=/tmp/cg_a.out \\
        python benchmarks/direct_callgrind.py hub/direct/velocity 100 --symbols /tmp/cg_a.json
    python benchmarks/direct_callgrind.py --name /tmp/cg_a.out /tmp/cg_a.json > /tmp/cg_a.named
    callgrind_annotate --inclusive=yes /tmp/cg_a.named
    python benchmarks/direct_callgrind.py x 100 --compare /tmp/cg_a.named /tmp/cg_b.named \
        --json out.json                     # two trees' named runs of 100 steps, a step each

**The cache.** valgrind 3.19 stops at the first AVX-512 instruction, which the kernels compiled
for this host (``znver4``) hold. ``--env DIR`` prints the lines that make Numba compile for
``znver3`` with the host's features less every ``avx512*`` (AVX2 code, as ``small50`` ran it)
into the cache ``DIR``: the same key inside valgrind and out, so the first, plain run compiles
and the run under valgrind only loads.

**The steps.** The case (``direct_paired.py``'s: ``NAME/direct/velocity`` or
``.../acceleration``) is built and stepped ``--warm`` steps (60), then ``N`` steps are run by
``itertools.starmap`` (its C function ``starmap_next`` is what callgrind collects inside, and
nothing else: the scene's ``update`` hook, where it has one, runs inside too). The inclusive
count of ``starmap_next`` over ``N`` is the instructions a step. The state hash is printed: two
trees must agree (the same steps).

**The names.** Callgrind names JIT code by address. ``--symbols FILE`` writes, after the steps,
each compiled function's address range in this process (from every loaded code library's
object code: its ELF symbol table, placed where the execution engine put its global names);
``--name OUT FILE`` rewrites a callgrind output's addresses as those functions' Python names
(``module.function``, Numba's mangling undone; several specialisations of one function share
it), for ``callgrind_annotate``; ``--compare A B`` prints each event a step in two named runs
(``--cache-sim=yes`` adds the caches' misses) and the functions whose own instructions differ
most.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

_SECTION = [("name", "<u4"), ("type", "<u4"), ("flags", "<u8"), ("addr", "<u8"),
            ("offset", "<u8"), ("size", "<u8"), ("link", "<u4"), ("info", "<u4"),
            ("addralign", "<u8"), ("entsize", "<u8")]
_SYMBOL = [("name", "<u4"), ("info", "u1"), ("other", "u1"), ("shndx", "<u2"),
           ("value", "<u8"), ("size", "<u8")]
_STT_FUNC, _STB_LOCAL = 2, 0


def host_env(cache_dir: str) -> str:
    """Shell lines: Numba compiles for znver3 without AVX-512 into ``cache_dir``."""
    import llvmlite.binding as llvm
    features = ",".join("-" + f[1:] if f.startswith("+avx512") else f
                        for f in llvm.get_host_cpu_features().flatten().split(","))
    return (f"export NUMBA_CPU_NAME=znver3\nexport NUMBA_CPU_FEATURES='{features}'\n"
            f"export NUMBA_CACHE_DIR={cache_dir}")


def _functions(data: bytes):
    """(section index, name, offset, size, is local) of each function an ELF64 object defines."""
    import numpy as np
    shoff = int.from_bytes(data[0x28:0x30], "little")
    shnum = int.from_bytes(data[0x3C:0x3E], "little")
    sections = np.frombuffer(data, dtype=np.dtype(_SECTION), count=shnum, offset=shoff)
    for table in np.flatnonzero(sections["type"] == 2):  # SHT_SYMTAB
        strings_at = sections[sections[table]["link"]]
        strings = data[int(strings_at["offset"]):int(strings_at["offset"] + strings_at["size"])]
        symbols = np.frombuffer(data, dtype=np.dtype(_SYMBOL),
                                count=int(sections[table]["size"]) // 24,
                                offset=int(sections[table]["offset"]))
        for s in symbols:
            if s["info"] & 0xF == _STT_FUNC and s["shndx"] != 0:
                at = int(s["name"])
                name = strings[at:strings.index(b"\0", at)].decode()
                yield int(s["shndx"]), name, int(s["value"]), int(s["size"]), \
                    s["info"] >> 4 == _STB_LOCAL


def keep_object_code() -> None:
    """Make every code library loaded from here on keep its object code (Numba drops it once
    the execution engine has it), for :func:`symbol_map`."""
    from numba.core.codegen import CPUCodeLibrary
    numba_set = CPUCodeLibrary._set_compiled_object

    def set_and_keep(library, value):
        library.kept_object_code = value
        numba_set(library, value)

    CPUCodeLibrary._set_compiled_object = set_and_keep


def symbol_map() -> list:
    """[start, size, name] of every function of every code library loaded since
    :func:`keep_object_code`."""
    import gc
    from numba.core.codegen import CodeLibrary
    rows = {}
    for library in [o for o in gc.get_objects() if isinstance(o, CodeLibrary)]:
        data = getattr(library, "kept_object_code", None)
        if not data or data[:4] != b"\x7fELF":
            continue
        functions = list(_functions(data))
        engine = library._codegen._engine
        bases = {}
        for section, name, offset, _, local in functions:
            if not local and engine.is_symbol_defined(name):
                base = engine.get_function_address(name) - offset
                bases.setdefault(section, []).append(base)
        for section, name, offset, size, _ in functions:
            if section in bases and size:
                # The base most of the section's global names agree on (a name that another
                # library defines too may resolve there).
                base = max(set(bases[section]), key=bases[section].count)
                rows[base + offset] = [base + offset, size, name]
    return sorted(rows.values())


def demangle(name: str) -> str:
    """``module.function`` of a Numba-mangled name (``_ZN`` + length-prefixed parts)."""
    at = name.find("_ZN")
    if at < 0:
        return name
    prefix, name = name[:at], name[at:]
    parts, i = [], 3
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        n = int(name[i:j])
        parts.append(name[j:j + n])
        i = j + n
    text = prefix + ".".join(parts)
    # Numba escapes what is not [a-z0-9_] as _XX (hex): undo it for those characters alone
    # (a name's own "_de" stays).
    text = re.sub(r"_([0-9a-f]{2})", lambda m: m.group(0) if chr(int(m.group(1), 16)).isalnum()
                  or m.group(1) == "5f" else chr(int(m.group(1), 16)), text)
    return text.replace("impulse2d.", "").replace("_dynamics.", "").replace("_collision.", "")


def name_output(out_file: str, map_file: str) -> str:
    """The callgrind output ``out_file`` with its JIT addresses named by ``map_file``."""
    with open(map_file) as f:
        rows = json.load(f)["functions"]
    starts = [r[0] for r in rows]

    def named(match):
        address = int(match.group(2), 16)
        k = bisect.bisect_right(starts, address) - 1
        if k >= 0 and address < rows[k][0] + rows[k][1]:
            start, _, name = rows[k]
            tail = "" if address == start else f"+{address - start}"
            return f"{match.group(1)}{demangle(name)}{tail} [{address:#x}]"
        return match.group(0)

    pattern = re.compile(r"^((?:c?fn)=(?:\(\d+\) )?)(0x[0-9a-f]+)$")
    with open(out_file) as f:
        return "".join(pattern.sub(named, line.rstrip("\n")) + "\n" for line in f)


def self_counts(named_file: str) -> tuple:
    """(the events' names, their collected totals, {function: its own counts}) of a named
    callgrind output, each specialisation's and copy's summed under its name."""
    own, names, fn, skip, events = {}, {}, None, False, ["Ir"]
    positions = 1  # the columns before the costs: 2 with --dump-instr=yes ("instr line")
    with open(named_file) as f:
        for line in f:
            if line.startswith("positions:"):
                positions = len(line.split()) - 1
            elif line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith(("fn=", "cfn=")):
                key, _, rest = line.rstrip("\n").partition("=")
                m = re.match(r"(\(\d+\))(?: (.*))?$", rest)
                ident, name = (m.group(1), m.group(2)) if m else (rest, rest)
                if name is not None:
                    names[ident] = re.sub(r"(\+\d+)? \[0x[0-9a-f]+\]$", "", name)
                if key == "fn":
                    fn = names[ident]
            elif line.startswith("calls="):
                skip = True  # the next cost line is the call's inclusive cost
            elif line[:1].isdigit() or line[:1] in "+-*":
                if skip:
                    skip = False
                    continue
                costs = [int(x) for x in line.split()[positions:]]
                mine = own.setdefault(fn, [0] * len(events))
                for k, x in enumerate(costs):
                    mine[k] += x
    totals = [sum(c[k] for c in own.values()) for k in range(len(events))]
    return events, totals, own


def compare(a_file: str, b_file: str, steps: int, top: int = 25, json_file=None) -> str:
    """Each event a step in two named outputs, and the functions whose own instructions differ
    most (those of 10 or more a step, with their other events, into ``json_file``)."""
    (events, ta, a), (_, tb, b) = self_counts(a_file), self_counts(b_file)
    if json_file:
        with open(json_file, "w") as f:
            json.dump({"files": [a_file, b_file], "steps": steps, "events": events,
                       "a_step": [x / steps for x in ta], "b_step": [y / steps for y in tb],
                       "by_function_step": {
                           k[:160]: [[x / steps for x in a.get(k, [])],
                                     [y / steps for y in b.get(k, [])]]
                           for k in sorted(set(a) | set(b))
                           if max(a.get(k, [0])[0], b.get(k, [0])[0]) >= 10 * steps}},
                      f, indent=0)
    lines = [f"{e:6s} a {x / steps:14,.1f}  b {y / steps:14,.1f}  b - a {(y - x) / steps:+12,.1f}"
             f"  ({y / x if x else float('nan'):.4f})" for e, x, y in zip(events, ta, tb)]
    lines.append(f"a step, {steps} steps; by function, Ir a step (a, b, b - a):")
    diff = sorted(set(a) | set(b), key=lambda k: -abs(b.get(k, [0])[0] - a.get(k, [0])[0]))
    for k in diff[:top]:
        x, y = a.get(k, [0])[0] / steps, b.get(k, [0])[0] / steps
        lines.append(f"{x:14,.1f} {y:14,.1f} {y - x:+12,.1f}  {k[:90]}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", nargs="?", default="hub/direct/velocity")
    parser.add_argument("steps", nargs="?", type=int, default=100)
    parser.add_argument("--warm", type=int, default=60)
    parser.add_argument("--symbols", help="write the compiled functions' addresses here")
    parser.add_argument("--env", metavar="CACHE_DIR", help="print the NUMBA_* lines")
    parser.add_argument("--name", nargs=2, metavar=("OUT", "MAP"),
                        help="print callgrind's OUT with its addresses named by MAP")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"),
                        help="two named outputs of STEPS steps: a step's instructions, by "
                             "function")
    parser.add_argument("--json", help="with --compare: write the counts a step here")
    args = parser.parse_args(argv)
    if args.env:
        print(host_env(args.env))
        return
    if args.name:
        sys.stdout.write(name_output(*args.name))
        return
    if args.compare:
        print(compare(*args.compare, args.steps, json_file=args.json))
        return
    if args.symbols:
        keep_object_code()
    from direct_paired import build
    world, info = build(args.case)
    update = info.update if info is not None else None

    def step(k):
        if update is not None:
            update(world, k)
        world.step(1 / 60)

    for k in range(args.warm):
        step(k)
    list(itertools.starmap(step, ((args.warm + k,) for k in range(args.steps))))
    print(args.case, args.steps, "steps after", args.warm, "hash:", world.state_hash()[:16])
    if args.symbols:
        with open(args.symbols, "w") as f:
            json.dump({"case": args.case, "steps": args.steps, "functions": symbol_map()}, f)


if __name__ == "__main__":
    main()
