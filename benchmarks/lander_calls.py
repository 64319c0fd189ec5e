"""How often the native LunarLander's step calls a few functions, by the calling function:
``NRT_incref`` / ``NRT_decref`` (Numba's reference counts) and libm's ``atan2`` by default,
counted in a live process.

    PYTHONPATH=src python benchmarks/lander_calls.py [--num-envs 64] [--warm 30] [--steps 2] \\
        [--count NRT_incref --count NRT_decref --count atan2] [--json FILE]

A child process makes ``impulse2d/LunarLander-v3`` as a vector environment of ``--num-envs``
landers on one thread, resets it with seed 0 and takes ``--warm`` steps of seeded uniform random
actions (every kernel loaded, episodes under way), then waits. ``gdb -p`` attaches and puts a
breakpoint on every copy of each function counted (each JIT object links its own
``NRT_incref``; ``atan2`` is libm's) whose Python ``stop`` tallies the return address (the word
at ``$sp`` on entry: the call site) and whether the first argument is null (a null MemInfo
returns at once), and never stops; the child takes ``--steps`` more steps and raises
``SIGTRAP``, and gdb names each call site (``info symbol``). Printed: the calls a world-step (one
lander's step of 1/50 s) by calling function, null arguments apart.

``batch_refcounts.py`` takes the same census of ``batch_bench.py``'s batch; this one steps the
environment, whose batch step gathers each world's state and makes its writes (the engines'
impulses) inside the batch kernel, and counts ``atan2`` too (the legs' revolute limits).
Counts, not times: the same on a loaded machine.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
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


class Count(gdb.Breakpoint):
    def stop(self):
        site = int(gdb.parse_and_eval("*(unsigned long *)$sp"))
        tally[(self.name, site, int(gdb.parse_and_eval("$rdi")) == 0)] += 1
        return False


for name in NAMES:
    b = Count(name, internal=False)
    b.name = name
open(ARMED, "w").write("armed")
gdb.execute("continue")
names = {}
for site in {s for _, s, _ in tally}:
    try:
        text = gdb.execute("info symbol %d" % site, to_string=True)
    except gdb.error:
        continue
    if not text.startswith("No symbol"):
        names[site] = text.partition(" + ")[0].split(" in section")[0].strip()
json.dump({"names": names, "tally": [[n, s, z, c] for (n, s, z), c in tally.items()]},
          open(OUT, "w"))
'''


def child(args) -> None:
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    envs = gym.make_vec("impulse2d/LunarLander-v3", num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = 1
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(args.warm + args.steps)]
    for k in range(args.warm):
        envs.step(actions[k])
    print("READY", flush=True)
    sys.stdin.readline()  # gdb armed
    for k in range(args.steps):
        envs.step(actions[args.warm + k])
    os.kill(os.getpid(), signal.SIGTRAP)  # back to gdb, which tallied every call
    sys.stdin.read()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--warm", type=int, default=30)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--count", action="append", help="a function to count (repeatable)")
    parser.add_argument("--json")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    counted = args.count or ["NRT_incref", "NRT_decref", "atan2"]
    proc = subprocess.Popen([sys.executable, __file__, "--child", "--num-envs",
                             str(args.num_envs), "--warm", str(args.warm), "--steps",
                             str(args.steps)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    line = proc.stdout.readline()
    if not line.startswith("READY"):
        raise SystemExit(f"the child did not start: {line!r}")
    with tempfile.TemporaryDirectory() as tmp:
        armed, out, script = (Path(tmp) / n for n in ("armed", "out.json", "count.py"))
        script.write_text(f"ARMED = {str(armed)!r}\nOUT = {str(out)!r}\nNAMES = {counted!r}\n"
                          + _GDB_SCRIPT)
        gdb = subprocess.Popen(["gdb", "-p", str(proc.pid), "-batch", "-nx", "-x", str(script)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        while not armed.exists():
            if gdb.poll() is not None:
                raise SystemExit("gdb ended before arming:\n" + gdb.stdout.read()[-3000:])
            time.sleep(0.2)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        log = gdb.communicate(timeout=3600)[0]
        if not out.exists():
            raise SystemExit("gdb wrote no census:\n" + log[-3000:])
        census = json.loads(out.read_text())
    proc.stdin.close()
    proc.wait(timeout=60)
    sys.path.insert(0, str(HERE))
    from perf_jit import short
    world_steps = args.num_envs * args.steps
    names = {int(k): short(v) for k, v in census["names"].items()}
    table = collections.defaultdict(collections.Counter)
    total = collections.Counter()
    for name, site, null, count in census["tally"]:
        key = name + (" (null)" if null and name.startswith("NRT") else "")
        table[names.get(site, hex(site))][key] += count / world_steps
        total[key] += count / world_steps
    print(f"{args.num_envs} landers, {args.steps} steps after {args.warm}, load "
          f"{os.getloadavg()[0]:.1f}; calls a world-step:",
          {k: round(v, 2) for k, v in sorted(total.items())})
    for function, counts in sorted(table.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"  {function:60s} " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(counts.items())))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "num_envs": args.num_envs, "warm": args.warm, "steps": args.steps,
            "load": os.getloadavg()[0], "per_world_step": dict(total),
            "by_function": {f: dict(c) for f, c in table.items()}}, indent=1))


if __name__ == "__main__":
    main()
