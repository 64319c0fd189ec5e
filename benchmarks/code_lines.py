"""The code a world-step fetches: the 64-byte lines of machine code a callgrind run executed, by
compiled function, from an output made with ``--dump-instr=yes`` (issue 30: a lander
world-step's code that stays in the instruction cache, session 33, ``codeI58``).

    PYTHONPATH=src valgrind --tool=callgrind --collect-atstart=no --dump-instr=yes \\
        --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64 \\
        --toggle-collect=starmap_next --callgrind-out-file=/tmp/cg_a.out \\
        python benchmarks/lander_callgrind.py 1024 10 --symbols /tmp/cg_a.json
    python benchmarks/direct_callgrind.py --name /tmp/cg_a.out /tmp/cg_a.json > /tmp/cg_a.named
    python benchmarks/code_lines.py /tmp/cg_a.named 10240 [--json out.json]

(``10240``: the world-steps the run counted, ``num_envs`` x ``steps``.)

A line of code is the unit the instruction cache fetches. For each line the run executed, the
share of the world-steps that touched it is its most-executed instruction's count over the
world-steps, capped at 1 (a line of a loop's body reads 1; a line of a branch taken by one
world in four, 0.25). Their sum is the **lines a world-step touches**: the code it needs the
I1 (32 KB, 512 lines on Zen 4) to hold, all of it fetched again each world when it is more than
the cache keeps across the step's stages. The lines touched by every world-step (a share of
0.9 or more) are its **hot lines**; a line touched by a few (under 0.1) is **cold**: each, where
it sits between hot lines, is a line of hot code the function spreads over. Printed by function
(each specialisation's and copy's lines summed under its Python name), with the function's own
I1 misses a world-step where the run simulated the caches.
"""

from __future__ import annotations

import argparse
import collections
import json
import re

LINE = 64
"""Bytes of an instruction-cache line (Zen 4, and every x86 since)."""


def executed(named_file: str) -> tuple:
    """({function: {instruction address: times executed}}, {function: I1 misses}) of a named
    callgrind output made with ``--dump-instr=yes`` (its own instructions: a call's inclusive
    cost line is skipped)."""
    counts: dict = collections.defaultdict(lambda: collections.defaultdict(int))
    misses: dict = collections.defaultdict(int)
    names: dict = {}
    fn = None
    skip = False
    events = ["Ir"]
    positions = 2  # "instr line" (callgrind's default --dump-line=yes), "instr" without it
    last = [0, 0]
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
                skip = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                for k in range(positions):
                    p = parts[k]
                    if p == "*":
                        continue
                    if p[0] in "+-":
                        last[k] += int(p)
                    else:
                        last[k] = int(p, 16) if p.startswith("0x") else int(p)
                if skip:
                    skip = False
                    continue
                costs = [int(x) for x in parts[positions:]]
                if costs:
                    counts[fn][last[0]] += costs[0]
                if "I1mr" in events and len(costs) > events.index("I1mr"):
                    misses[fn] += costs[events.index("I1mr")]
    return counts, misses


def line_shares(counts: dict, world_steps: int) -> dict:
    """{function: {line: share of the world-steps that touched it}}."""
    shares = {}
    for fn, by_address in counts.items():
        lines: dict = {}
        for address, n in by_address.items():
            k = address // LINE
            lines[k] = max(lines.get(k, 0.0), min(1.0, n / world_steps))
        shares[fn] = lines
    return shares


def table(named_file: str, world_steps: int) -> dict:
    """{function: its lines touched a world-step, hot, warm and cold lines, span (lines), own
    I1 misses and instructions a world-step}, for the functions touching 0.05 lines or more."""
    counts, misses = executed(named_file)
    shares = line_shares(counts, world_steps)
    rows = {}
    for fn, lines in shares.items():
        touched = sum(lines.values())
        if touched < 0.05:
            continue
        rows[fn] = {"touched": touched,
                    "hot": sum(1 for s in lines.values() if s >= 0.9),
                    "warm": sum(1 for s in lines.values() if 0.1 <= s < 0.9),
                    "cold": sum(1 for s in lines.values() if s < 0.1),
                    "span": (max(lines) - min(lines) + 1) if lines else 0,
                    "I1mr": misses.get(fn, 0) / world_steps,
                    "Ir": sum(counts[fn].values()) / world_steps}
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("named", help="a named callgrind output made with --dump-instr=yes")
    parser.add_argument("world_steps", type=int)
    parser.add_argument("--json", help="write the table here")
    args = parser.parse_args(argv)
    rows = table(args.named, args.world_steps)
    total = {k: sum(r[k] for r in rows.values()) for k in ("touched", "hot", "warm", "cold",
                                                              "I1mr", "Ir")}
    print(f"{'lines touched':>13s} {'hot':>5s} {'warm':>5s} {'cold':>5s} {'span':>5s} "
          f"{'I1mr':>7s} {'Ir':>9s}  a world-step, by function")
    for fn, r in sorted(rows.items(), key=lambda kv: -kv[1]["touched"]):
        print(f"{r['touched']:13.1f} {r['hot']:5d} {r['warm']:5d} {r['cold']:5d} "
              f"{r['span']:5d} {r['I1mr']:7.1f} {r['Ir']:9.1f}  {fn[:80]}")
    print(f"{total['touched']:13.1f} {total['hot']:5d} {total['warm']:5d} {total['cold']:5d} "
          f"{'':5s} {total['I1mr']:7.1f} {total['Ir']:9.1f}  all")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"file": args.named, "world_steps": args.world_steps, "line": LINE,
                       "total": total, "by_function": rows}, f, indent=1)


if __name__ == "__main__":
    main()
