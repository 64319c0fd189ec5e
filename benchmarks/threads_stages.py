"""Where a threaded world's step goes, thread by thread (``WorldSettings.threads``).

    PYTHONPATH=src python benchmarks/threads_stages.py [--scenes pyramid_100,rain_2000]
        [--threads 1,2] [--steps 40] [--precision float64] [--json out.json]

On a machine whose cores are shared, a threaded step's wall time measures the scheduler as much
as the engine. This reads what does not depend on it, per step, for each scene at each thread
count (sleeping off, as ``run.py``):

* each thread's CPU time, its time **waiting for a core** (Linux's
  ``/proc/self/task/<tid>/schedstat``: ns on a CPU, ns runnable on a run queue) and its
  context switches, the calling thread apart from Numba's workers: the workers' CPU is their
  share of the parallel passes plus the time they spin between them;
* the stages' wall shares from the step's own clock (``World.profile``);
* the solve order's cut into segments (:func:`impulse2d._dynamics.threaded.segments`): the
  parallel blocks (colours) and their sizes, and the rows left to serial runs (the overflow
  colour).
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time

import numba
import numpy as np

import impulse2d as i2d
from impulse2d import _threads
from impulse2d._dynamics.constraint_graph import COLOR_COUNT, color_contacts
from impulse2d._dynamics.threaded import segments as _segments
from impulse2d.scenes import build_scene, step_scene

SCENES = {"pyramid_20": ("pyramid", {"base": 20}, 60),
          "pyramid_100": ("pyramid", {"base": 100}, 60),
          "rain_2000": ("rain", {"count": 2000}, 300),
          "many_pyramids": ("many_pyramids", {"grid": 10, "base": 10}, 60),
          "joint_grid": ("joint_grid", {"n": 100}, 40)}
"""name: (scene, parameters, steps before the timed ones: the stack loaded, as run.py's)."""
STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")


def thread_clocks() -> dict:
    """Per thread of this process: (ns on a CPU, ns waiting on a run queue, context switches:
    voluntary ones are sleeps, a worker's between launches among them)."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                run, wait, _ = f.read().split()
            with open(f"/proc/self/task/{tid}/status") as f:
                switches = sum(int(line.split()[1]) for line in f
                               if line.startswith(("voluntary_ctxt", "nonvoluntary_ctxt")))
            out[int(tid)] = (int(run), int(wait), switches)
        except OSError:
            continue
    return out


@numba.njit(cache=False)
def segments(body_a, body_b, order, body_type, min_rows, starts):
    """:func:`~impulse2d._dynamics.threaded.segments` from Python (an inner kernel: only the
    threaded soft step calls it)."""
    return _segments(body_a, body_b, order, body_type, min_rows, starts)


def cut(world) -> dict:
    """The solve order's segments at the world's threshold: parallel blocks and serial runs."""
    bodies, contacts = world._bodies, world._contacts
    order, starts = color_contacts(contacts.count, contacts.body_a, contacts.body_b, bodies.type,
                                   bodies.asleep, bodies.type.shape[0], COLOR_COUNT,
                                   np.empty(0, dtype=np.int64), -1)  # the step's (sleep off)
    parts = segments(contacts.body_a, contacts.body_b, order, bodies.type, _threads.MIN_ROWS,
                     starts)
    sizes = [int(hi - lo) for lo, hi, par in parts if par]
    serial = [int(hi - lo) for lo, hi, par in parts if not par]
    return {"rows": int(order.shape[0]), "parallel_blocks": sizes,
            "serial_runs": serial, "serial_rows": int(sum(serial))}


def measure(kind, params, warm, steps, threads, precision="float64") -> dict:
    world = i2d.World(threads=threads, enable_sleep=False, solver_precision=precision)
    info = build_scene(world, kind, **params)
    for k in range(warm):
        step_scene(world, info, k)
    main = threading.get_native_id()
    shares = dict.fromkeys(STAGES, 0.0)
    c0, w0, t0 = thread_clocks(), time.perf_counter(), time.process_time()
    for k in range(warm, warm + steps):
        step_scene(world, info, k)
        p = world.profile
        for s in STAGES:
            shares[s] += getattr(p, s)
    wall, cpu = time.perf_counter() - w0, time.process_time() - t0
    c1 = thread_clocks()
    per = {tid: ((c1[tid][0] - c0.get(tid, (0, 0, 0))[0]) / steps / 1e6,
                 (c1[tid][1] - c0.get(tid, (0, 0, 0))[1]) / steps / 1e6,
                 (c1[tid][2] - c0.get(tid, (0, 0, 0))[2]) / steps) for tid in c1}
    workers = {tid: v for tid, v in per.items() if tid != main and v[0] > 0.001}
    out = {"threads": threads, "wall_ms": 1e3 * wall / steps, "cpu_ms": 1e3 * cpu / steps,
           "main_cpu_ms": per[main][0], "main_runqueue_ms": per[main][1],
           "workers_cpu_ms": [round(v[0], 3) for v in workers.values()],
           "workers_runqueue_ms": [round(v[1], 3) for v in workers.values()],
           "main_switches": per[main][2],
           "workers_switches": [round(v[2], 1) for v in workers.values()],
           "stage_wall_ms": {s: 1e3 * v / steps for s, v in shares.items()},
           "hash": world.state_hash()}
    if threads > 1:
        out["cut"] = cut(world)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", default="pyramid_100,rain_2000,many_pyramids")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--precision", choices=("float64", "float32"), default="float64")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    report = {"load_before": os.getloadavg()[0], "precision": a.precision, "scenes": {}}
    for name in a.scenes.split(","):
        kind, params, warm = SCENES[name]
        runs = []
        for r in range(a.rounds):
            order = [int(t) for t in a.threads.split(",")]
            for t in (order if r % 2 == 0 else order[::-1]):
                m = measure(kind, params, warm, a.steps, t, a.precision)
                runs.append(m)
                st = " ".join(f"{s} {v:.2f}" for s, v in m["stage_wall_ms"].items())
                print(f"{name} t{t}: wall {m['wall_ms']:.2f} cpu {m['cpu_ms']:.2f} | main cpu "
                      f"{m['main_cpu_ms']:.2f} runq {m['main_runqueue_ms']:.2f} switches "
                      f"{m['main_switches']:.0f} | workers cpu {m['workers_cpu_ms']} runq "
                      f"{m['workers_runqueue_ms']} switches {m['workers_switches']} | {st} | "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
                if "cut" in m and r == 0:
                    c = m["cut"]
                    print(f"  rows {c['rows']}, parallel blocks {c['parallel_blocks']}, "
                          f"serial rows {c['serial_rows']} in {len(c['serial_runs'])} runs",
                          flush=True)
        report["scenes"][name] = runs
    report["load_after"] = os.getloadavg()[0]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
