"""How a batch step scales from 1 to 2 threads: the kernel's wall time and the Python around it.

    PYTHONPATH=src python benchmarks/batch_threads.py [--worlds 1024] [--steps 60] [--rounds 3]

1,024 copies of ``batch_bench.ten_bodies`` (8 circles and 2 boxes dropped on a floor; the
soft step, 4 substeps, sleeping on); each round replicates the world afresh and steps it
``--steps`` times (the fall and the first contacts) with 1 thread, then again with 2, and the
rounds alternate (the machine is shared: a paired comparison). Per world-step, best of the
rounds: the whole ``batch.step`` (wall), the kernel's part of it (the wall time of
``WorldBatch._run``: the compiled steps, spread over the threads), the Python before and after
(the difference), and the process's CPU time. A kernel that scales perfectly halves its wall
time on 2 threads at the same CPU time; CPU time that grows with the threads is work added by
threading (contention), wall time that does not halve at the same CPU time is the threads
waiting (an idle core, a chunk left to one thread, another process holding a core).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import ten_bodies  # noqa: E402

DT = 1.0 / 60.0


def _round(n: int, steps: int, threads: int) -> dict:
    import impulse2d as i2d
    batch = i2d.WorldBatch.replicate(ten_bodies(), n, threads=threads)
    kernel = [0.0]
    run = batch._run

    def timed(which):
        seconds = run(which)  # (its own wall time: the kernel's calls on every thread)
        kernel[0] += seconds
        return seconds

    batch._run = timed
    batch.step(DT)  # (the first step checks every world and makes it ready: not counted)
    kernel[0] = 0.0
    t, c = time.perf_counter(), time.process_time()
    for _ in range(steps):
        batch.step(DT)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    per = 1e6 / (n * steps)
    return {"step_us": wall * per, "kernel_us": kernel[0] * per,
            "python_us": (wall - kernel[0]) * per, "cpu_us": cpu * per}


def main(argv=None) -> dict:
    import impulse2d as i2d
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worlds", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    i2d.WorldBatch.replicate(ten_bodies(), 4, threads=2).step(DT)  # compile or load first
    out = {"worlds": args.worlds, "steps": args.steps, "load_before": os.getloadavg()[0]}
    best: dict = {1: None, 2: None}
    for _ in range(args.rounds):
        for threads in (1, 2):
            r = _round(args.worlds, args.steps, threads)
            if best[threads] is None or r["step_us"] < best[threads]["step_us"]:
                best[threads] = r
    for threads, r in best.items():
        out[f"threads_{threads}"] = {k: round(v, 3) for k, v in r.items()}
    out["kernel_speedup"] = round(best[1]["kernel_us"] / best[2]["kernel_us"], 3)
    out["step_speedup"] = round(best[1]["step_us"] / best[2]["step_us"], 3)
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
