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

Each compiled call (``batch_step.run``: one chunk of worlds on one thread) is also timed on its
thread, by wall and by the thread's CPU time: per world-step, ``calls_cpu_us`` is the CPU of
the calls on every thread (the physics' cost, without the Python around them; at 2 threads
against 1 it shows contention: the two cores slowing each other); per thread, ``busy`` is the
share of the kernel's wall time that thread spent in calls (the rest it waited: for the other
thread's last chunk, for Python's lock between chunks, to be woken); ``calls`` is the compiled
calls per step; ``same_thread`` the share of world-steps made on the same thread as the
world's previous step (a world that moves between threads frees its old stores in the other
thread's allocator arena and finds its lines in the other core's cache). On a loaded machine
run it at real-time priority (``chrt -f 10``, root) or its threads seldom run at once.

The Python around the kernel, per world-step: ``prepare_us``
(:func:`impulse2d._batch_ready.prepare`), ``finish_us`` (:func:`~impulse2d._batch_ready.finish`),
``pages_us`` (the heaps' advice after the step, :class:`impulse2d._huge_pages.Advice`); and,
at 2 threads, per step (us, medians over the steps): ``launch_us``, from the kernel's start
(``WorldBatch._run``) to the helper's compiled call beginning (the pool's hand-off and
Python's lock), ``skew_us``, between the two calls' ends, and ``join_us``, from the later end
to ``_run``'s return. ``--from-drop`` counts
every step from the drop, the first included (``batch_bench.py``'s protocol: the first step
checks every world and makes it ready); by default the first step is left out.
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


def _round(n: int, steps: int, threads: int, from_drop: bool = False) -> dict:
    import threading

    import numpy as np

    import impulse2d as i2d
    from impulse2d import _batch_ready
    from impulse2d._dynamics import batch_step
    batch = i2d.WorldBatch.replicate(ten_bodies(), n, threads=threads)
    kernel = [0.0]
    run = batch._run
    phases = {"prepare": 0.0, "finish": 0.0, "pages": 0.0}
    starts = []  # (perf_counter at the start of _run) of every step
    offsets = {"launch": [], "skew": [], "join": []}

    def phase(name, f):
        def timed_phase(*a):
            t = time.perf_counter()
            r = f(*a)
            phases[name] += time.perf_counter() - t
            return r
        return timed_phase

    prepare, finish, stepped = _batch_ready.prepare, _batch_ready.finish, batch._pages.stepped
    _batch_ready.prepare = phase("prepare", prepare)
    _batch_ready.finish = phase("finish", finish)
    batch._pages = type("TimedAdvice", (), {"stepped": staticmethod(phase("pages", stepped))})()
    calls = []  # (thread, worlds, wall s, thread CPU s, thread arguments, start) of each call
    owner = np.full(n, -1)  # the thread that made each world's last step
    same = [0, 0]  # world-steps on the same thread as the world's previous one, of those
    compiled = batch_step.run

    def timed(which):
        starts.append(time.perf_counter())
        seconds = run(which)  # (its own wall time: the kernel's calls on every thread)
        end = time.perf_counter()
        kernel[0] += seconds
        mine = [c for c in calls if c[5] >= starts[-1]]
        if len(mine) == 2:
            last_end = max(c[5] + c[2] for c in mine)
            offsets["launch"].append(max(c[5] for c in mine) - starts[-1])
            offsets["skew"].append(last_end - min(c[5] + c[2] for c in mine))
            offsets["join"].append(end - last_end)
        return seconds

    def call(refs, which, *rest):
        t, c = time.perf_counter(), time.thread_time()
        compiled(refs, which, *rest)
        wall, cpu = time.perf_counter() - t, time.thread_time() - c
        # (the thread arguments, if the kernel shares the worlds out: a call of this tree)
        calls.append((threading.get_ident(), which, wall, cpu, rest[3] if len(rest) > 3
                      else None, t))
        return wall

    def stepped_by(which, share) -> np.ndarray:
        """The share (thread) that stepped each world of ``which``, from the claims of 2
        threads sharing it in the kernel (step_batch): in each part the owner's walk up and
        the other's walk down met where a claim found another's (a count of 2)."""
        claimed, _, shares = share
        by = np.empty(which.shape[0], dtype=np.int64)
        for part in range(shares):
            lo, hi = which.shape[0] * part // shares, which.shape[0] * (part + 1) // shares
            met = lo + np.flatnonzero(claimed[lo:hi] >= 2)
            end = hi if not met.shape[0] else (
                met.max() if met.shape[0] > 1 or met[0] == lo else met[0] + 1)
            by[lo:end] = part
            by[end:hi] = 1 - part
        return by

    batch._run = timed
    batch_step.run = call
    try:
        if not from_drop:
            batch.step(DT)  # (the first step checks every world and makes it ready)
        kernel[0] = 0.0
        for name in phases:
            phases[name] = 0.0
        for v in offsets.values():
            v.clear()
        busy: dict = {}
        cpu_calls = 0.0
        ncalls = 0
        t, c = time.perf_counter(), time.process_time()
        for _ in range(steps):
            calls.clear()
            batch.step(DT)
            ncalls += len(calls)
            ids = sorted({tid for tid, *_ in calls})
            for tid, which, wall, cpu, share, _ in calls:
                k = ids.index(tid)
                busy[k] = busy.get(k, 0.0) + wall
                cpu_calls += cpu
            if calls[0][4] is not None and calls[0][4][0].shape[0]:  # shared in the kernel
                which = calls[0][1]
                now = stepped_by(which, calls[0][4])
            else:  # a chunk a call
                which = np.concatenate([c[1] for c in calls])
                now = np.concatenate([np.full(c[1].shape[0], ids.index(c[0])) for c in calls])
            before = owner[which]
            same[0] += int(np.count_nonzero(before == now))
            same[1] += int(np.count_nonzero(before >= 0))
            owner[which] = now
        wall, cpu = time.perf_counter() - t, time.process_time() - c
    finally:
        batch_step.run = compiled
        _batch_ready.prepare, _batch_ready.finish = prepare, finish
    per = 1e6 / (n * steps)
    extra = {f"{name}_us": seconds * per for name, seconds in phases.items()}
    for name, values in offsets.items():
        if values:
            extra[f"{name}_us"] = 1e6 * float(np.median(values))
    return {"step_us": wall * per, "kernel_us": kernel[0] * per,
            "python_us": (wall - kernel[0]) * per, "cpu_us": cpu * per,
            "calls_cpu_us": cpu_calls * per, "calls": ncalls / steps,
            "busy": [busy[k] / kernel[0] for k in sorted(busy)],
            "same_thread": same[0] / max(same[1], 1), **extra}


def main(argv=None) -> dict:
    import impulse2d as i2d
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worlds", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default=None)
    parser.add_argument("--from-drop", action="store_true",
                        help="count the first step too (batch_bench.py's protocol)")
    args = parser.parse_args(argv)
    i2d.WorldBatch.replicate(ten_bodies(), 4, threads=2).step(DT)  # compile or load first
    out = {"worlds": args.worlds, "steps": args.steps, "from_drop": args.from_drop,
           "load_before": os.getloadavg()[0]}
    best: dict = {1: None, 2: None}
    for _ in range(args.rounds):
        for threads in (1, 2):
            r = _round(args.worlds, args.steps, threads, args.from_drop)
            if best[threads] is None or r["step_us"] < best[threads]["step_us"]:
                best[threads] = r
    for threads, r in best.items():
        out[f"threads_{threads}"] = {k: [round(x, 3) for x in v] if isinstance(v, list)
                                     else round(v, 3) for k, v in r.items()}
    out["kernel_speedup"] = round(best[1]["kernel_us"] / best[2]["kernel_us"], 3)
    out["step_speedup"] = round(best[1]["step_us"] / best[2]["step_us"], 3)
    out["calls_cpu_growth"] = round(best[2]["calls_cpu_us"] / best[1]["calls_cpu_us"], 3)
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
