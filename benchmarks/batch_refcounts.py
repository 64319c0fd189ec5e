"""Who counts references in a batch's world-step: every ``NRT_incref`` / ``NRT_decref`` call of
a few batch steps, by its call site, counted in a live process.

    PYTHONPATH=src python benchmarks/batch_refcounts.py [--worlds 64] [--warm 30] [--steps 2] \\
        [--json benchmarks/results/batch_refcounts_s24.json]

A child process steps ``batch_bench.py``'s batch (``WorldBatch.replicate(ten_bodies(), n)``,
one thread; a **world-step** is one 1/60 s soft step, 4 substeps, 1 iteration, sleeping on, of
one 10-body world) ``--warm`` steps from the drop (every kernel loaded), then waits. ``gdb -p``
attaches, puts a breakpoint on every copy of ``NRT_incref`` and ``NRT_decref`` (each JIT
object links its own; LLVM registers every object with gdb's JIT interface) whose Python
``stop`` tallies the return address (the word at ``$sp`` on entry: the call site) and whether
the MemInfo passed is null (a null count returns at once), and never stops; the child then
steps ``--steps`` batch steps, and raises ``SIGTRAP`` to hand control back to gdb, which names
each call site (``info symbol``: the function holding it and the offset). Printed: the calls
a world-step by function (every call site of it summed), non-null and null apart, and the
sites themselves.

Why not ``perf``: the samples in ``NRT_incref`` say nothing of its callers (a leaf without a
frame: JIT code has no unwind information for perf), and the count of calls, not their cost,
is what a change removes. A breakpoint costs some tens of microseconds, so a census of 64
worlds' two steps (~10^4 counts) takes seconds.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

_GDB_SCRIPT = r'''
import collections, gdb, json
tally = collections.Counter()
pointers = collections.defaultdict(set)


class Count(gdb.Breakpoint):
    def stop(self):
        site = int(gdb.parse_and_eval("*(unsigned long *)$sp"))
        pointer = int(gdb.parse_and_eval("$rdi"))
        null = pointer == 0
        tally[(self.kind, site, null)] += 1
        pointers[(self.kind, site, null)].add(pointer)
        return False


for kind in ("NRT_incref", "NRT_decref"):
    b = Count(kind, internal=False)
    b.kind = kind
locations = {kind: 0 for kind in ("NRT_incref", "NRT_decref")}
for b in gdb.breakpoints():
    locations[b.kind] = len(b.locations) if hasattr(b, "locations") else -1
open(ARMED, "w").write(json.dumps(locations))
gdb.execute("continue")
names = {}
for site in {s for _, s, _ in tally}:
    try:
        text = gdb.execute("info symbol %d" % site, to_string=True)
    except gdb.error:
        continue
    if not text.startswith("No symbol"):
        name, _, rest = text.partition(" + ")
        names[site] = [name.split(" in section")[0].strip(), int(rest.split()[0]) if rest else 0]
listings = {}
for site in names:
    start = site - names[site][1]
    if start not in listings:
        listings[start] = gdb.execute("disassemble %d" % site, to_string=True)
json.dump({"locations": locations, "names": names, "listings": listings,
           "tally": [[k, s, n, c, len(pointers[(k, s, n)])] for (k, s, n), c in tally.items()]},
          open(OUT, "w"))
'''


def child(args) -> None:
    sys.path.insert(0, str(HERE))
    import impulse2d
    from batch_bench import ten_bodies
    batch = impulse2d.WorldBatch.replicate(ten_bodies(), args.worlds, threads=1)
    for _ in range(args.warm):
        batch.step(1 / 60)
    print("READY", os.getpid(), flush=True)
    sys.stdin.readline()  # gdb armed
    for _ in range(args.steps):
        batch.step(1 / 60)
    os.kill(os.getpid(), signal.SIGTRAP)  # back to gdb, which tallied every count
    print("DONE", flush=True)
    sys.stdin.read()


def _function(name: str) -> str:
    """A kernel's dotted path from its mangled name, else the name."""
    sys.path.insert(0, str(HERE))
    from perf_jit import short
    return short(name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=64)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--json")
    parser.add_argument("--listings", help="a file for gdb's listing of each function counting")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    proc = subprocess.Popen([sys.executable, __file__, "--child", "--worlds", str(args.worlds),
                             "--warm", str(args.warm), "--steps", str(args.steps)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if not line.startswith("READY"):
        raise SystemExit(f"the child did not start: {line!r}")
    with tempfile.TemporaryDirectory() as tmp:
        armed, out, script = (Path(tmp) / n for n in ("armed.json", "out.json", "count.py"))
        script.write_text(f"ARMED = {str(armed)!r}\nOUT = {str(out)!r}\n" + _GDB_SCRIPT)
        t0 = time.perf_counter()
        gdb = subprocess.Popen(["gdb", "-p", str(proc.pid), "-batch", "-nx", "-x", str(script)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        while not armed.exists():
            if gdb.poll() is not None:
                raise SystemExit("gdb ended before arming:\n" + gdb.stdout.read()[-3000:])
            time.sleep(0.2)
        armed_s = time.perf_counter() - t0
        proc.stdin.write("go\n")
        proc.stdin.flush()
        log = gdb.communicate(timeout=3600)[0]
        if not out.exists():
            raise SystemExit("gdb wrote no census:\n" + log[-3000:])
        census = json.loads(out.read_text())
    proc.stdin.close()
    proc.wait(timeout=60)
    world_steps = args.worlds * args.steps
    names = {int(k): v for k, v in census["names"].items()}
    by_function = collections.defaultdict(collections.Counter)
    sites = []
    for kind, site, null, count, distinct in census["tally"]:
        name, offset = names.get(site, (hex(site), 0))
        function = _function(name)
        key = f"{kind[4:]}{' (null)' if null else ''}"
        by_function[function][key] += count
        sites.append({"function": function, "offset": offset, "kind": kind, "null": null,
                      "per_world_step": count / world_steps, "meminfos": distinct})
    sites.sort(key=lambda s: -s["per_world_step"])
    table = sorted(by_function.items(), key=lambda kv: -sum(kv[1].values()))
    total = collections.Counter()
    for _, counts in table:
        total.update(counts)
    print(f"{args.worlds} worlds, {args.steps} steps after {args.warm}; breakpoint locations "
          f"{census['locations']}; gdb armed in {armed_s:.1f} s")
    print("calls a world-step:", {k: round(v / world_steps, 2) for k, v in total.items()})
    for function, counts in table:
        print(f"  {function:60s} " + ", ".join(f"{k} {v / world_steps:.2f}"
                                                for k, v in sorted(counts.items())))
    print("sites:")
    for s in sites[:40]:
        print(f"  {s['per_world_step']:7.2f}  {s['kind']}{' null' if s['null'] else ''}  "
              f"{s['function']} +{s['offset']}  ({s['meminfos']} MemInfos)")
    if args.listings:
        Path(args.listings).write_text(re.sub(r"<_Z\w+(\+\d+)>", r"<\1>", re.sub(
            r"function _Z\w+", lambda m: "function " + _function(m.group(0)[9:]),
            "\n".join(census["listings"].values()))))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "worlds": args.worlds, "warm": args.warm, "steps": args.steps,
            "load": os.getloadavg(), "locations": census["locations"],
            "per_world_step": {k: v / world_steps for k, v in total.items()},
            "by_function": {f: {k: v / world_steps for k, v in c.items()} for f, c in table},
            "sites": sites}, indent=1))


if __name__ == "__main__":
    main()
