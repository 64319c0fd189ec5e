"""Two source trees and pyb2d3 on one big scene at a thread count, as ``run.py`` times it, in
fresh processes taking turns, with the machine's CPU-to-CPU latency beside each round.

    python benchmarks/rain_threads_ab.py --a /work/base/src --b src [--scene rain_2000]
        [--threads 2] [--precision float32] [--rounds 4] [--chrt] [--json out.json]

Each round runs ``run.py --worker`` (the scene from its start, every step timed: the
measurement of ``run.py``'s tables) for tree a, tree b and pyb2d3 (the order turning each
round), and before them the one-way latency of a cache line handed between the two CPUs
(``vcpu_siblings.py``'s ping-pong, 50 batches, the fastest): on this VM it is about 24 ns or
about 160 ns by where the host puts the two vCPUs (BENCHMARKS.md, session 25, ``big50``), and
a threaded step's cost follows it. ``--chrt`` runs every process at real-time priority
(``chrt -f 50``): the other processes of a busy machine then wait for it, as on a quiet one.
Prints each run's mean step (wall and every thread's CPU) and its tenths, and the medians of
the rounds' ratios b / a and b / pyb2d3.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from vcpu_siblings import SOURCE

HERE = Path(__file__).resolve().parent


def ping_pong_ns(exe: str, chrt: list) -> float:
    """The fastest one-way hand-over of a cache line between CPU 0 and CPU 1 (ns)."""
    lines = subprocess.run([*chrt, exe, "0", "50"], capture_output=True, text=True, check=True,
                           timeout=120).stdout.split()
    return round(min(float(s) for s in lines[1::2]) / 2000 / 2 * 1e9, 1)


def one_run(tree: str, engine: str, scene: str, threads: int, precision: str,
            chrt: list) -> dict:
    """``run.py --worker`` of ``scene`` on ``engine`` (impulse2d from ``tree``)."""
    args = [*chrt, sys.executable, str(HERE / "run.py"), "--worker", scene, engine,
            "--opt", f"threads={threads}"]
    if engine == "impulse2d" and precision != "float64":
        args += ["--opt", f"solver_precision={precision}"]
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run(args, capture_output=True, text=True, env=env, check=True,
                         cwd=str(HERE.parent)).stdout
    timing = json.loads([line for line in out.splitlines() if line.startswith("{")][-1])["timing"]
    return {"wall_ms": timing["ms_step_mean"], "cpu_ms": timing["cpu_ms_step_mean"],
            "tenths_ms": [round(x, 3) for x in timing["tenths_ms"]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="source tree A (the directory holding impulse2d)")
    ap.add_argument("--b", required=True, help="source tree B")
    ap.add_argument("--scene", default="rain_2000")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--precision", choices=("float64", "float32"), default="float32")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--chrt", action="store_true", help="run every process under chrt -f 50")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    chrt = ["chrt", "-f", "50"] if args.chrt else []
    a, b = os.path.abspath(args.a), os.path.abspath(args.b)
    runs = [("a", a, "impulse2d"), ("b", b, "impulse2d"), ("pyb2d3", b, "pyb2d3")]
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "s.c"), os.path.join(tmp, "s")
        with open(src, "w") as f:
            f.write(SOURCE)
        subprocess.run(["cc", "-O2", "-pthread", src, "-o", exe], check=True)
        for r in range(args.rounds):
            row = {"load": round(os.getloadavg()[0], 1), "ping_pong_ns": ping_pong_ns(exe, chrt)}
            turn = runs[r % 3:] + runs[:r % 3]
            for name, tree, engine in turn:
                row[name] = one_run(tree, engine, args.scene, args.threads, args.precision, chrt)
            rounds.append(row)
            print(json.dumps({"round": r, "load": row["load"], "ping_pong_ns": row["ping_pong_ns"],
                              **{k: (row[k]["wall_ms"], row[k]["cpu_ms"]) for k in ("a", "b",
                                                                                     "pyb2d3")}}))
    summary = {}
    for key in ("wall_ms", "cpu_ms"):
        for name in ("a", "b", "pyb2d3"):
            summary[f"{name}_{key}"] = statistics.median(row[name][key] for row in rounds)
        summary[f"b/a_{key}"] = round(statistics.median(row["b"][key] / row["a"][key]
                                                        for row in rounds), 3)
        summary[f"b/pyb2d3_{key}"] = round(statistics.median(row["b"][key] / row["pyb2d3"][key]
                                                             for row in rounds), 3)
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "summary": summary, "rounds": rounds}, f, indent=1)


if __name__ == "__main__":
    main()
