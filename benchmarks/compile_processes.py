"""Who compiles what in a cold start that shares its compiles between processes: each process
(this one and every compile helper of :mod:`impulse2d._core.parallel`), its CPU time, the
units it compiled and when, and the kernels compiled in more than one process.

    python benchmarks/compile_processes.py                  # cold pyramid_20, default processes
    python benchmarks/compile_processes.py --what all       # impulse2d warmup --all
    python benchmarks/compile_processes.py --src /work/main/src --json out.json
    python benchmarks/compile_processes.py --scene chain --params '{"links": 100}'  # cold chain_100
    python benchmarks/compile_processes.py --report out.json   # print a saved run

``benchmarks/compile_table.py`` gives the whole compile work in one process; this gives its
split as a real cold start makes it: a fresh process, an empty ``NUMBA_CACHE_DIR``, the
helpers the compile plan starts. Every process of the run gets a listener of Numba's compile
events through a ``sitecustomize`` module put first on ``PYTHONPATH`` (the helpers inherit the
environment), which writes, when the process exits, each compile's kernel, signature, depth,
start and end (seconds since the process started), the process's CPU time at its start and
its CPU seconds (``time.process_time``: a shared machine stretches wall time, not this), and
the process's start (``time.time()``) and exit, which line the processes up. A kernel compiled
in two processes is compiled twice (its CPU is counted in each): that is what two processes
cost over one. For ``--what all`` the report gives the critical path in CPU: what the main
process compiled after the last helper had exited (the other core idle) on top of the larger
of the two processes' CPU before that.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SITE = r'''
import atexit, json, os, time
_OUT = os.environ.get("I2D_COMPILE_LOG")
if _OUT:
    from numba.core import event

    _T0, _EPOCH = time.perf_counter(), time.time()
    _rows, _open = [], []

    class _Log(event.Listener):
        def on_start(self, ev):
            f = ev.data["dispatcher"].py_func
            _open.append((time.perf_counter() - _T0, time.process_time(),
                          f"{f.__module__}.{f.__qualname__}", str(ev.data["args"])[:120]))

        def on_end(self, ev):
            start, cpu, name, args = _open.pop()
            _rows.append({"name": name, "args": args, "depth": len(_open), "start": start,
                          "end": time.perf_counter() - _T0, "cpu_start": cpu,
                          "cpu": time.process_time() - cpu})

    event.register("numba:compile", _Log())

    def _write():
        with open(os.path.join(_OUT, f"{os.getpid()}.json"), "w") as f:
            json.dump({"pid": os.getpid(), "parent": os.getppid(), "cpu": time.process_time(),
                       "epoch": _EPOCH, "exit": time.perf_counter() - _T0, "rows": _rows}, f)

    atexit.register(_write)
'''

CHILD = r"""
import json, sys, time
what = sys.argv[1]
t0 = time.perf_counter()
import impulse2d as i2d
from impulse2d._core import parallel
plans, _plan = [], parallel.plan


def _logged_plan(units, own_seconds, processes, together=(), pinned=(), busy=()):
    # each plan's inputs and split, by the units' keys (what the estimates decided)
    mine, helpers = _plan(units, own_seconds, processes, together, pinned, busy)
    plans.append({"own_seconds": own_seconds, "busy": [round(b, 2) for b in busy],
                  "estimates": {u.key: u.seconds for u in units},
                  "mine": [u.key for u in mine], "helpers": [[u.key for u in h] for h in helpers]})
    return mine, helpers


parallel.plan = _logged_plan
if what == "pyramid":
    from impulse2d.scenes import build_scene
    world = i2d.World()
    build_scene(world, sys.argv[2], **json.loads(sys.argv[3]))
    world.step(1.0 / 60.0)
    first = {"first_step_wall_s": time.perf_counter() - t0, "first_step_cpu_s": time.process_time()}
    digest = world.state_hash()
    # the units a helper compiles after the first step's (a tree with later units): waited
    # for here, after the figures above, so that the helper's log is written before this ends
    try:
        first["later"] = sorted({u.key for h in set(parallel._LATER.values()) for u in h.later})
        parallel.wait_later()
    except (ImportError, AttributeError):
        first["later"] = []
else:
    i2d.warmup(all_kernels=True, progress=False)
    digest, first = None, {}
print(json.dumps({"wall_s": time.perf_counter() - t0, "hash": digest, "plans": plans, **first}))
"""


def run(src: Path, what: str, processes: int | None, scene: str = "pyramid",
        params: str = '{"base": 20}') -> dict:
    """Run ``what`` with the tree ``src`` in a fresh process and an empty cache (``pyramid``:
    the scene ``scene`` built with the JSON ``params``, its first step); every process's
    compile log."""
    with tempfile.TemporaryDirectory() as tmp:
        site, logs, cache = (os.path.join(tmp, d) for d in ("site", "logs", "cache"))
        for d in (site, logs, cache):
            os.makedirs(d)
        Path(site, "sitecustomize.py").write_text(SITE)
        env = {k: v for k, v in os.environ.items() if k != "IMPULSE2D_COMPILE_PROCESSES"}
        env.update(NUMBA_CACHE_DIR=cache, PYTHONPATH=f"{site}{os.pathsep}{src}",
                   IMPULSE2D_QUIET="1", I2D_COMPILE_LOG=logs)
        if processes is not None:
            env["IMPULSE2D_COMPILE_PROCESSES"] = str(processes)
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", CHILD, what, scene, params], env=env, capture_output=True,
                           text=True, cwd=tmp)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-3000:])
        result = json.loads(p.stdout.strip().splitlines()[-1])
        procs = [json.loads(Path(logs, name).read_text()) for name in sorted(os.listdir(logs))]
    pids = {d["pid"] for d in procs}
    for d in procs:  # the process whose parent is not among the logged ones ran CHILD
        d["role"] = "helper" if d["parent"] in pids else "main"
    return {"what": what, "scene": scene, "params": json.loads(params), "src": str(src),
            "process_wall_s": wall, "load_1min":
            round(os.getloadavg()[0], 2), "processes": procs, **result}


def _own(rows):
    """Each kernel's own CPU (its compiles less those of kernels compiled inside them)."""
    own = collections.defaultdict(float)
    for r in rows:
        own[r["name"]] += r["cpu"]
    # compiles nest in time: a compile's parent is the last one of depth - 1 started before it
    ordered = sorted(rows, key=lambda r: r["start"])
    for k, r in enumerate(ordered):
        for parent in ordered[k - 1::-1] if k else ():
            if parent["depth"] == r["depth"] - 1:
                own[parent["name"]] -= r["cpu"]
                break
    return own


def report(result: dict, top: int) -> None:
    procs = sorted(result["processes"], key=lambda d: d["role"] != "main")
    total = sum(d["cpu"] for d in procs)
    what = result["what"] if result["what"] == "all" else f"{result['scene']} {result['params']}"
    print(f"{what} ({result['src']}): {result['process_wall_s']:.1f} s wall, "
          f"{total:.1f} s CPU in {len(procs)} processes, load {result['load_1min']}"
          + (f", state hash {result['hash']}" if result.get("hash") else ""))
    if "first_step_cpu_s" in result:  # (the main process's, from its start: import, build, step)
        print(f"first step done at {result['first_step_wall_s']:.1f} s wall, "
              f"{result['first_step_cpu_s']:.1f} s of the main process's CPU")
    for k, p in enumerate(result.get("plans", ())):
        print(f"plan {k}: own {p['own_seconds']:.1f} s, helpers busy {p['busy']}; this "
              f"process {[key.rsplit('.', 1)[1] for key in p['mine']]}, helpers "
              f"{[[key.rsplit('.', 1)[1] for key in h] for h in p['helpers']]}")
    owns = []
    later = set(result.get("later", ()))
    critical = result.get("first_step_cpu_s", 0.0)
    for d in procs:
        units = [r for r in d["rows"] if r["depth"] == 0]
        after = sum(r["cpu"] for r in units if r["name"] in later)
        print(f"\n{d['role']} {d['pid']}: {d['cpu']:.1f} s CPU, {len(d['rows'])} compiles; "
              f"units (start s, CPU s):")
        if d["role"] == "helper":
            # what the first step waited for: all but the units compiled after it
            print(f"  to the first step {d['cpu'] - after:.1f} s CPU, after it {after:.1f} s")
            critical = max(critical, d["cpu"] - after)
        for r in sorted(units, key=lambda r: r["start"]):
            print(f"  {r['start']:7.1f} {r['cpu']:6.2f}  {r['name']}")
        owns.append(_own(d["rows"]))
    if "first_step_cpu_s" in result:
        print(f"\nthe first step's critical path: {critical:.1f} s CPU")
        result["critical_cpu_s"] = critical
    helpers = [d for d in procs if d["role"] == "helper" and "epoch" in d]
    if result["what"] == "all" and helpers and "epoch" in procs[0]:
        main = procs[0]
        # (the main process's top-level compiles that started after every helper had exited)
        last = max(d["epoch"] + d["exit"] for d in helpers) - main["epoch"]
        alone = [r for r in main["rows"] if r["depth"] == 0 and r["start"] >= last]
        before = main["cpu"] - sum(r["cpu"] for r in alone)
        busiest = max([before] + [d["cpu"] for d in helpers])
        tail = sum(r["cpu"] for r in alone)
        print(f"\nthe last helper exited at {last:.1f} s of the main process's wall; the main "
              f"process then compiled alone {tail:.1f} s CPU ({len(alone)} kernels: "
              f"{', '.join(sorted({r['name'].rsplit('.', 1)[-1] for r in alone})[:12])}); "
              f"critical path {busiest:.1f} + {tail:.1f} = {busiest + tail:.1f} s CPU")
        result["critical_cpu_s"] = busiest + tail
        result["alone_cpu_s"] = tail
    if len(owns) > 1:
        seen = collections.Counter(name for own in owns for name in own)
        twice = {name: [own.get(name, 0.0) for own in owns] for name, n in seen.items() if n > 1}
        extra = sum(sum(v) - max(v) for v in twice.values())
        print(f"\ncompiled in more than one process: {len(twice)} kernels, {extra:.1f} s CPU "
              f"beyond one compile each (own CPU per process):")
        for name, cpu in sorted(twice.items(), key=lambda kv: -sum(kv[1]))[:top]:
            print("  " + " ".join(f"{c:5.2f}" for c in cpu) + f"  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--what", default="pyramid", choices=("pyramid", "all"),
                        help="pyramid (a cold scene's first step: --scene) or all "
                        "(warmup --all)")
    parser.add_argument("--scene", default="pyramid", help="the scene of --what pyramid")
    parser.add_argument("--params", help="its parameters (JSON; default pyramid's base 20, "
                        "another scene's own)")
    parser.add_argument("--processes", type=int,
                        help="IMPULSE2D_COMPILE_PROCESSES (default: the package's)")
    parser.add_argument("--top", type=int, default=20, help="duplicated kernels listed")
    parser.add_argument("--json", help="write every process's log here")
    parser.add_argument("--report", help="print a result saved with --json, run nothing")
    args = parser.parse_args()
    if args.report:
        report(json.loads(Path(args.report).read_text()), args.top)
        return
    params = args.params or ('{"base": 20}' if args.scene == "pyramid" else "{}")
    result = run(Path(args.src).resolve(), args.what, args.processes, args.scene, params)
    report(result, args.top)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
