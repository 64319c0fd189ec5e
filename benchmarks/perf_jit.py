"""Where a running scene's CPU goes, by function, with Numba's JIT code named.

    python benchmarks/perf_jit.py --scene rain --param count=2000
    python benchmarks/perf_jit.py --scene pyramid --param base=100 --threads 2 --func _manifolds
    python benchmarks/perf_jit.py --scene bullets_500 --python /work/base/.venv/bin/python

A child process (``--python``: any interpreter with impulse2d, e.g. another checkout's
environment) builds the scene (sleeping off, ``--threads``), steps it ``--warm`` times (every
kernel loaded or compiled), then steps on for ``--seconds`` while ``perf record -F 2000 -e
cpu-clock -p PID`` samples it (the ``cpu-clock`` event: a VM without hardware counters has
it). Numba's JIT code has no perf map, so perf leaves its addresses unnamed; while the child
still lives, ``gdb -p PID -batch`` names each of them with ``info symbol`` (LLVM registers
every object it loads with gdb's JIT interface). Printed: each function's share of the
samples (every thread; a kernel's dotted name from its mangled one, other code as perf names
it), and the child's CPU a step over the sampled window; ``--by-thread N``, each thread's own
N top functions too (a threaded world's calling thread and Numba's workers apart: who runs the
pieces, who spins).

``--func NAME`` (a part of a function's dotted name; repeatable) also prints its hottest
instructions, each with its address, its offset, its share and its text, and marks the loads
that :func:`stack_alias.alias_pairs` counts (a load from ``d(%rsp)`` a few instructions after
a store to ``s(%rsp)``, ``d - s`` a nonzero multiple of 0x400: Zen 3 replays them, 37-70 ns
each): a hot marked load (or the instruction after it, where perf's skid puts its samples) is a
stack-alias site that costs.

Scenes: any of :mod:`impulse2d.scenes` (``--param key=value`` its parameters),
``lander_env`` (``impulse2d/LunarLander-v3``, ``--param num_envs=1024`` environments, random
actions, resets in: a step is one step of every environment), or
``batch`` (``batch_bench.py``'s 10-body world replicated, ``--param worlds=1024``, its first
``--param steps=120`` steps from the drop over and over, the batch restored between runs), or
``bullets_500`` (``continuous.py``'s 500 bullets at 50-200 m/s in a walled room, no gravity:
the continuous stage's sweeps). ``--json`` writes the table (and the instructions) to
``benchmarks/results/perf_jit_<tag>.json``. Needs ``perf`` and ``gdb`` (run as a user who may
attach to the child); x86-64 for the alias marks.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

_GDB_SCRIPT = r'''
import gdb, json
args = json.load(open(ARGS))
names = {}
for address in args["addresses"]:
    try:
        text = gdb.execute("info symbol %d" % address, to_string=True)
    except gdb.error:
        continue
    if text.startswith("No symbol"):
        continue
    name, _, rest = text.partition(" + ")
    name = name.split(" in section")[0].strip()
    offset = int(rest.split()[0]) if rest else 0
    names[address] = [name, offset]
listing = ""
if args["disassemble"] is not None:
    try:
        listing = gdb.execute("disassemble %d" % args["disassemble"], to_string=True)
    except gdb.error as error:
        listing = "error: %s" % error
json.dump({"names": names, "listing": listing}, open(OUT, "w"))
'''


def short(symbol: str) -> str:
    """A kernel's dotted path from its mangled name (``_ZN9impulse2d9_dynamics4step10_manif..``)
    or from gdb's demangled one (``impulse2d::_collision::manifold::collide[abi:v72](...)``)
    -> ``impulse2d._dynamics.step._manifolds``; other names as they are."""
    if "::" in symbol:
        return re.split(r"[\[(]", symbol, 1)[0].replace("::", ".")
    if not symbol.startswith("_ZN"):
        return symbol
    body, parts, i = symbol[3:], [], 0
    while i < len(body) and body[i].isdigit():
        j = i
        while j < len(body) and body[j].isdigit():
            j += 1
        n = int(body[i:j])
        parts.append(body[j:j + n])
        i = j + n
    return ".".join(parts) or symbol


# ---------------------------------------------------------------- the child: the scene stepping

def child(args) -> None:
    import impulse2d
    from impulse2d.scenes import build_scene, step_scene
    options = {"enable_sleep": False, "threads": args.threads,
               **dict(_param(p) for p in args.setting)}
    params = dict(_param(p) for p in args.param)
    if args.scene == "lander_env":
        _lander_env(args, params)
        return
    if args.scene == "batch":
        _batch(args, params)
        return
    if args.scene == "bullets_500":
        sys.path.insert(0, str(HERE))
        from continuous import build_bullets_i2d
        world = impulse2d.World(gravity=(0, 0), **options)
        build_bullets_i2d(world)
        info = None
    else:
        world = impulse2d.World(**options)
        info = build_scene(world, args.scene, **params)
    dt = 1.0 / 60.0
    k = 0

    def step():
        nonlocal k
        if info is not None:
            step_scene(world, info, k, dt)
        else:
            world.step(dt)
        k += 1

    for _ in range(args.warm):
        step()
    print("READY", os.getpid(), flush=True)
    begin, n = time.process_time(), 0
    wall_end = time.perf_counter() + args.seconds + 1.0  # outlasts perf's window
    while time.perf_counter() < wall_end:
        step()
        n += 1
    cpu = time.process_time() - begin
    print("DONE", json.dumps({"steps": n, "cpu_ms_per_step": 1e3 * cpu / max(n, 1)}),
          flush=True)
    sys.stdin.read()  # alive until the parent's gdb has read the JIT's symbols


def _lander_env(args, params) -> None:
    """The ``lander_env`` scene: ``impulse2d/LunarLander-v3`` as a vector environment of
    ``num_envs`` (default 1,024) on ``--threads``, seeded random actions, resets as they come;
    a step is one environment step of every environment (its cost per environment step is
    printed)."""
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    n = int(params.get("num_envs", 1024))
    envs = gym.make_vec("impulse2d/LunarLander-v3", num_envs=n,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = args.threads
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(64)]
    for k in range(args.warm):
        envs.step(actions[k % 64])
    print("READY", os.getpid(), flush=True)
    begin, k = time.process_time(), 0
    wall_end = time.perf_counter() + args.seconds + 1.0
    while time.perf_counter() < wall_end:
        envs.step(actions[k % 64])
        k += 1
    cpu = time.process_time() - begin
    print("DONE", json.dumps({"steps": k, "cpu_ms_per_step": 1e3 * cpu / max(k, 1),
                              "cpu_us_per_env_step": 1e6 * cpu / max(k * n, 1)}), flush=True)
    sys.stdin.read()


def _batch(args, params) -> None:
    """The ``batch`` scene: ``batch_bench.py``'s batch, ``WorldBatch.replicate(ten_bodies(),
    worlds)`` (default 1,024 worlds) on ``--threads``, its first ``steps`` (default 120) steps
    from the drop over and over: after each run of them every world is restored to the drop
    from a snapshot (``batch.restore``: its samples are named apart). A step is one step of
    every world (its cost per world-step is printed)."""
    sys.path.insert(0, str(HERE))
    import impulse2d
    from batch_bench import ten_bodies
    n = int(params.get("worlds", 1024))
    run = int(params.get("steps", 120))
    batch = impulse2d.WorldBatch.replicate(ten_bodies(), n, threads=args.threads)
    drop = batch.snapshot()
    k = 0

    def step():
        nonlocal k
        if k == run:
            batch.restore(drop)
            k = 0
        batch.step(1 / 60)
        k += 1

    for _ in range(max(args.warm, run + 1)):
        step()
    print("READY", os.getpid(), flush=True)
    begin, steps = time.process_time(), 0
    wall_end = time.perf_counter() + args.seconds + 1.0
    while time.perf_counter() < wall_end:
        step()
        steps += 1
    cpu = time.process_time() - begin
    print("DONE", json.dumps({"steps": steps, "cpu_ms_per_step": 1e3 * cpu / max(steps, 1),
                              "cpu_us_per_world_step": 1e6 * cpu / max(steps * n, 1)}),
          flush=True)
    sys.stdin.read()


def _param(text: str):
    key, _, value = text.partition("=")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, {"True": True, "False": False}.get(value, value)


# ---------------------------------------------------------------- the parent: perf and gdb

def _samples(data: Path) -> tuple[collections.Counter, dict, dict]:
    """Samples by instruction address, perf's own name (with its object) of each address it
    could name, and the samples by address of each thread (by its id)."""
    out = subprocess.run(["perf", "script", "-i", str(data), "-F", "tid,ip,sym,dso"],
                         capture_output=True, text=True, check=True).stdout
    counts, named = collections.Counter(), {}
    threads = collections.defaultdict(collections.Counter)
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) < 2:
            continue
        try:
            tid, address = int(parts[0]), int(parts[1], 16)
        except ValueError:
            continue
        counts[address] += 1
        threads[tid][address] += 1
        rest = parts[2] if len(parts) > 2 else ""
        if address not in named and rest and not rest.startswith("[unknown]"):
            sym, _, dso = rest.rpartition(" (")
            named[address] = f"{sym.strip()} [{Path(dso.rstrip(')')).name}]"
    return counts, named, threads


def _gdb_names(pid: int, addresses: list[int], disassemble: int | None) -> tuple[dict, str]:
    """gdb's name and offset of each of ``addresses`` in the live process ``pid`` (the JIT's
    objects included), and its ``disassemble`` listing of the function holding the address
    ``disassemble`` (or "")."""
    with tempfile.TemporaryDirectory() as tmp:
        args, out, script = (Path(tmp) / n for n in ("args.json", "out.json", "names.py"))
        args.write_text(json.dumps({"addresses": addresses, "disassemble": disassemble}))
        script.write_text(f"ARGS = {str(args)!r}\nOUT = {str(out)!r}\n" + _GDB_SCRIPT)
        subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx", "-x", str(script)],
                       capture_output=True, text=True, timeout=600)
        if not out.exists():
            raise SystemExit("gdb could not attach to the child or name its addresses")
        found = json.loads(out.read_text())
    return {int(a): (name, offset) for a, (name, offset) in found["names"].items()}, \
        found["listing"]


_GDB_LINE = re.compile(r"^\s*(?:=>)?\s*0x([0-9a-f]+)\s*<\+(\d+)>:\s*(\S+)\s*(.*)$")


def hot_instructions(listing: str, counts: dict, total: int, top: int) -> list[dict]:
    """The ``top`` hottest instructions of gdb's ``disassemble`` listing, each with its
    share of all samples, whether it is the load of a stack-alias pair, and whether the
    instruction before it is (a sample lands on the instruction after the one that held the
    CPU: perf's skid)."""
    sys.path.insert(0, str(HERE))
    from stack_alias import alias_loads
    rows = []
    for line in listing.splitlines():
        match = _GDB_LINE.match(line)
        if match:
            operands = re.sub(r"<[^>]*(\+\d+)>", r"<\1>", match.group(4).strip())
            rows.append((int(match.group(1), 16), int(match.group(2)), match.group(3),
                         operands))
    asm = "f:\n" + "\n".join(f"\t{op}\t{operands}" for _, _, op, operands in rows)
    flagged = {i - 1 for i, _ in alias_loads(asm)}  # line 0 of the listing is the label
    hot = sorted(range(len(rows)), key=lambda i: -counts.get(rows[i][0], 0))[:top]
    return [{"address": hex(rows[i][0]), "offset": rows[i][1],
             "pct": round(100.0 * counts.get(rows[i][0], 0) / total, 2),
             "instruction": f"{rows[i][2]} {rows[i][3]}", "alias_load": i in flagged,
             "after_alias_load": i - 1 in flagged}
            for i in sorted(hot, key=lambda i: -counts.get(rows[i][0], 0))
            if counts.get(rows[i][0], 0)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scene", default="rain")
    ap.add_argument("--param", action="append", default=[], help="a scene parameter key=value")
    ap.add_argument("--setting", action="append", default=[],
                    help="a WorldSettings field key=value (sleeping is off unless set here)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--warm", type=int, default=60, help="steps before sampling")
    ap.add_argument("--seconds", type=float, default=4.0, help="perf's sampling window")
    ap.add_argument("--python", default=sys.executable, help="the child's interpreter")
    ap.add_argument("--top", type=int, default=25, help="functions listed")
    ap.add_argument("--func", action="append", default=[],
                    help="part of a function's name: list its hot instructions (repeatable)")
    ap.add_argument("--insns", type=int, default=20, help="instructions listed with --func")
    ap.add_argument("--by-thread", type=int, default=0, metavar="N",
                    help="also each thread's N most sampled functions (the threads apart)")
    ap.add_argument("--json", metavar="TAG", help="write results/perf_jit_TAG.json")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    command = [args.python, str(Path(__file__).resolve()), "--child", "--scene", args.scene,
               "--threads", str(args.threads), "--warm", str(args.warm),
               "--seconds", str(args.seconds)] + [f"--param={p}" for p in args.param] \
        + [f"--setting={p}" for p in args.setting]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ready = proc.stdout.readline()
        if not ready.startswith("READY"):
            raise SystemExit(f"the child did not start: {ready!r}")
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "perf.data"
            subprocess.run(["perf", "record", "-q", "-F", "2000", "-e", "cpu-clock",
                            "-p", str(proc.pid), "-o", str(data), "--", "sleep",
                            str(args.seconds)], capture_output=True, check=True)
            counts, named, threads = _samples(data)
        done = proc.stdout.readline()
        window = json.loads(done.split(None, 1)[1]) if done.startswith("DONE") else {}
        unknown = sorted(a for a in counts if a not in named)
        jit, _ = _gdb_names(proc.pid, unknown, None)
        total = sum(counts.values())
        by_function, name_of = collections.Counter(), {}
        for address, n in counts.items():
            if address in named:
                name = named[address]
            elif address in jit:
                name = short(jit[address][0])
            else:
                name = "[unknown]"
            name_of[address] = name
            by_function[name] += n
        report = {"scene": args.scene, "params": args.param, "settings": args.setting,
                  "threads": args.threads,
                  "python": args.python, "samples": total, **window,
                  "functions": [{"pct": round(100.0 * n / total, 2), "function": name}
                                for name, n in by_function.most_common(args.top)]}
        print(f"{args.scene} {' '.join(args.param + args.setting)} threads={args.threads}: "
              f"{total} samples, "
              f"{window.get('cpu_ms_per_step', float('nan')):.3f} ms CPU a step "
              f"({window.get('steps', 0)} steps)")
        for row in report["functions"]:
            print(f"{row['pct']:6.2f}%  {row['function']}")
        if args.by_thread:
            report["threads_samples"] = []
            for tid, inside in sorted(threads.items(), key=lambda t: -sum(t[1].values())):
                mine = collections.Counter()
                for address, n in inside.items():
                    mine[name_of[address]] += n
                n_thread = sum(inside.values())
                report["threads_samples"].append(
                    {"tid": tid, "samples": n_thread,
                     "functions": [{"pct": round(100.0 * n / n_thread, 2), "function": name}
                                   for name, n in mine.most_common(args.by_thread)]})
                print(f"\nthread {tid}: {n_thread} samples")
                for row in report["threads_samples"][-1]["functions"]:
                    print(f"{row['pct']:6.2f}%  {row['function']}")
        report["hot"] = []
        for part in args.func:
            matching = collections.Counter({name: by_function[name] for name in by_function
                                            if part in name})
            if not matching:
                print(f"\nno sampled function's name holds {part!r}")
                continue
            target = matching.most_common(1)[0][0]
            inside = {a: n for a, n in counts.items() if name_of[a] == target}
            _, listing = _gdb_names(proc.pid, [], max(inside, key=inside.get))
            rows = hot_instructions(listing, inside, total, args.insns)
            report["hot"].append({"function": target, "instructions": rows,
                                  "pct": round(100.0 * sum(inside.values()) / total, 2)})
            print(f"\n{target}: {report['hot'][-1]['pct']:.2f}%, "
                  f"its hottest instructions (* the load of a stack-alias pair, ^ just after "
                  f"one)")
            for row in rows:
                print(f"{row['pct']:6.2f}%  {row['address']} <+{row['offset']}>"
                      f" {'*' if row['alias_load'] else '^' if row['after_alias_load'] else ' '}"
                      f" {row['instruction']}")
        if args.json:
            RESULTS.mkdir(exist_ok=True)
            out = RESULTS / f"perf_jit_{args.json}.json"
            out.write_text(json.dumps(report, indent=1))
            print("wrote", out)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)


if __name__ == "__main__":
    main()
