"""Where a big scene's run goes, stage by stage and window by window of its steps, against
pyb2d3's steps over the same windows (issue 31 items 2-4).

    python benchmarks/big_stages.py [--scenes rain_2000,many_pyramids] [--precision float64]
        [--threads 1] [--windows 6] [--peer] [--out FILE]

Each scene is built as ``run.py`` builds it (``engines.build_scene``, gravity -10, sleeping off)
and stepped for ``run.py``'s steps (rain_2000 600: the circles fall, land and pile up; the
pyramids 300) at 1/60 s, the default soft step (4 substeps, one relax pass), the contact passes
in ``--precision`` on ``--threads`` threads. A step's stages are read from the world's own
clock (``World.profile``'s cycle counter, :data:`impulse2d._dynamics.step.STAGES`, converted to
us by the counter's rate measured here), and its CPU from ``time.process_time`` (every thread
of the process: a worker's spinning between stages counts) and ``time.thread_time`` (the
calling thread). The stage clock counts wall time, preemption included: on a loaded machine
read the CPU columns first and the stages as shares.

``--peer``: the same scene in pyb2d3 (``engines.Pyb2d3Engine``, its ``threads``), stepped in
the same process after impulse2d's run, its process CPU per window beside ours: which part
of the run the gap is in (rain's fall, its landing, its pile).

Prints one table a scene (per window: steps, our CPU a step, the stages' us a step, each as
the mean and, in brackets, the median over the window's steps; pyb2d3's mean CPU a step and
the ratio of the means) and writes the JSON to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engines  # noqa: E402
import run  # noqa: E402
from impulse2d._core.jit import cycles  # noqa: E402
from impulse2d._dynamics.step import STAGES  # noqa: E402

RESULTS = HERE / "results"


def cycles_per_us() -> float:
    """The cycle counter's rate, from two readings 0.2 s apart."""
    @numba.njit(cache=False)
    def read():
        return cycles()

    read()
    c0, t0 = read(), time.perf_counter()
    while time.perf_counter() - t0 < 0.2:
        pass
    c1, t1 = read(), time.perf_counter()
    return (c1 - c0) / ((t1 - t0) * 1e6)


def ours(scene: str, precision: str, threads: int, rate: float) -> dict:
    """Per step of ``scene``: process CPU, calling thread's CPU, wall, each stage's us."""
    name, params, steps = run.SCENES[scene][:3]
    eng = engines.make_engine("impulse2d", {"solver_precision": precision, "threads": threads})
    eng.build(name, **params)
    world = eng.world
    rows = {k: [] for k in ("cpu", "thread", "wall", *STAGES)}
    for _ in range(steps):
        p, t, w = time.process_time(), time.thread_time(), time.perf_counter()
        world.step(engines.DT)
        rows["cpu"].append((time.process_time() - p) * 1e6)
        rows["thread"].append((time.thread_time() - t) * 1e6)
        rows["wall"].append((time.perf_counter() - w) * 1e6)
        clock = world._clock
        for k, s in enumerate(STAGES):
            rows[s].append((clock[k + 1] - clock[k]) / rate)
    return {"rows": rows, "hash": world.state_hash()[:16], "steps": steps}


def peer(scene: str, threads: int) -> list:
    """pyb2d3's process CPU per step of ``scene`` (us)."""
    name, params, steps = run.SCENES[scene][:3]
    eng = engines.make_engine("pyb2d3", {"threads": threads})
    eng.build(name, **params)
    out = []
    for _ in range(steps):
        p = time.process_time()
        eng.step()
        out.append((time.process_time() - p) * 1e6)
    return out


def windows(values, n: int, stat=np.mean) -> list:
    """``stat`` (the mean, or the median: robust to a step preempted on a loaded machine) of
    each of ``n`` equal windows of ``values``, step 1 (a compile or first touch) left out."""
    v = np.asarray(values[1:], dtype=float)
    return [float(stat(w)) for w in np.array_split(v, n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", default="rain_2000,many_pyramids")
    ap.add_argument("--precision", choices=("float64", "float32"), default="float64")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--windows", type=int, default=6)
    ap.add_argument("--peer", action="store_true", help="pyb2d3 over the same windows")
    ap.add_argument("--out", default=str(RESULTS / "big_stages.json"))
    args = ap.parse_args()
    rate = cycles_per_us()
    report = {"what": "per window of run.py's steps (1/60 s, soft step, 4 substeps, sleeping "
                      "off): mean us a step of process CPU, calling thread CPU, wall and each "
                      "stage of the step's clock (wall); pyb2d3's process CPU",
              "precision": args.precision, "threads": args.threads,
              "machine": platform.processor() or platform.machine(),
              "load_before": os.getloadavg(), "cycles_per_us": rate, "scenes": {}}
    for scene in args.scenes.split(","):
        # a small copy first: the kernels load (or compile) outside the timed run
        small = engines.make_engine("impulse2d", {"solver_precision": args.precision,
                                                  "threads": args.threads})
        small.build(run.SCENES[scene][0], **run.WARMUP_PARAMS[run.SCENES[scene][0]])
        for _ in range(3):
            small.step()
        r = ours(scene, args.precision, args.threads, rate)
        win = {k: windows(v, args.windows) for k, v in r["rows"].items()}
        total = {k: float(np.mean(v[1:])) for k, v in r["rows"].items()}
        entry = {"steps": r["steps"], "hash": r["hash"], "windows": win, "mean": total,
                 "window_medians": {k: windows(v, args.windows, np.median)
                                    for k, v in r["rows"].items()},
                 "median": {k: float(np.median(v[1:])) for k, v in r["rows"].items()}}
        if args.peer:
            p = peer(scene, args.threads)
            entry["pyb2d3_windows"] = windows(p, args.windows)
            entry["pyb2d3_mean"] = float(np.mean(p[1:]))
        report["scenes"][scene] = entry
        print(f"\n{scene} ({args.precision}, {args.threads} thread(s), hash {r['hash']}): "
              "mean us a step (median)")
        cols = ["cpu", "thread", "wall", *STAGES] + (["pyb2d3", "ratio"] if args.peer else [])
        print("| steps | " + " | ".join(cols) + " |")
        print("|---" * (len(cols) + 1) + "|")
        edges = np.array_split(np.arange(1, r["steps"]), args.windows)
        for w, idx in enumerate(edges + [None]):
            label = f"{idx[0] + 1}-{idx[-1] + 1}" if idx is not None else "all"
            keys = ("cpu", "thread", "wall", *STAGES)
            mean = ([win[k][w] for k in keys] if idx is not None else [total[k] for k in keys])
            med = ([entry["window_medians"][k][w] for k in keys] if idx is not None
                   else [entry["median"][k] for k in keys])
            cells = [f"{m:.0f} ({d:.0f})" for m, d in zip(mean, med)]
            if args.peer:
                pv = entry["pyb2d3_windows"][w] if idx is not None else entry["pyb2d3_mean"]
                cells += [f"{pv:.0f}", f"{mean[0] / pv:.2f}"]
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    report["load_after"] = os.getloadavg()
    Path(args.out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
