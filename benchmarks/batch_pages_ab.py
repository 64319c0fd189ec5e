"""A batch on 2 MiB pages against the same batch on 4 KiB pages, paired in one process.

    PYTHONPATH=src python benchmarks/batch_pages_ab.py --worlds 1024 --steps 120 --runs 2 \\
        [--threads 1] [--all-sizes] [--json F]

Fresh processes alternating (``batch_paired.py``) read b/a 0.94-1.26 from round to round for
this change at this machine's load (session 18, load 7): too wide for a 2-5 % effect. Here two copies
of ``batch_bench.py``'s batch (``WorldBatch.replicate(ten_bodies(), n, threads=1)``; a
**world-step**: one 1/60 s soft step, 4 substeps, sleeping on, of one 10-body world) live in
one process, each built and stepped on a thread of its own, so that glibc's malloc gives each
its own arena (a thread's heaps: the batch's stores, and every store its steps make, lie in
that thread's mappings, apart from the other batch's). One batch is advised by
:mod:`impulse2d._huge_pages` as a batch is (``on``), the other is built with the advice off
(``off``: its arena stays on 4 KiB pages, THP being ``madvise`` mode here). Every step each
batch steps once, in an order that alternates, timed by its thread's CPU clock
(``time.thread_time_ns``): the two are a few milliseconds apart, so the machine's drift cancels
out of the ratio. Run ``--runs`` times with the roles swapped between runs (which thread, which
arena, built first). Reports per run the CPU per world-step of each (total and median step),
the ratio off / on of the totals and the median of the per-step ratios (the totals include the
advice's own cost in the steps, after steps 1, 2, 4, ...; it is also given apart, with the
advice's cost at construction, by the CPU clock of the thread that made it), each batch's huge pages
(``AnonHugePages`` of the mappings holding its stores) and the hash of every world's positions
and velocities (the two must agree, and with ``batch_bench.py``'s: ``9b77c8cb5ba0e60b`` at
1,024 worlds after 120 steps).

``--force`` advises ``on`` whatever its size (below ``TLB_REACH`` a batch is left alone).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_bench import ten_bodies  # noqa: E402

DT = 1.0 / 60.0


class Worker:
    """A thread that runs the functions it is given, one at a time, and returns their values."""

    def __init__(self) -> None:
        self.jobs, self.done = queue.Queue(), queue.Queue()
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self) -> None:
        while True:
            fn = self.jobs.get()
            try:
                self.done.put((True, fn()))
            except BaseException as error:  # noqa: BLE001 (handed back to the caller)
                self.done.put((False, error))

    def __call__(self, fn):
        self.jobs.put(fn)
        ok, value = self.done.get()
        if not ok:
            raise value
        return value


def _huge_kb(samples: np.ndarray) -> int:
    """AnonHugePages (kB) of the mappings holding any of ``samples``."""
    total, held = 0, False
    samples = np.sort(samples)
    with open("/proc/self/smaps") as f:
        for line in f:
            p = line.split()
            if "-" in p[0] and not p[0].endswith(":"):
                lo, hi = (int(x, 16) for x in p[0].split("-"))
                i = np.searchsorted(samples, lo)
                held = i < samples.shape[0] and samples[i] < hi
            elif held and p[0] == "AnonHugePages:":
                total += int(p[1])
    return total


def _samples(batch) -> np.ndarray:
    from impulse2d._core.address import address
    return np.array([address(w.__dict__[name][0]) for w in batch.worlds
                     for name in ("_bodies", "_shapes", "_contacts", "_constraints")
                     if w.__dict__[name][0].shape[0]], dtype=np.int64)


def one_run(n: int, steps: int, on_first: bool, force: bool) -> dict:
    import impulse2d as i2d
    from impulse2d import _huge_pages
    renew = _huge_pages.Advice.renew
    spent = {"ns": 0, "bytes": 0, "calls": 0}

    def timed(advice, collapse=True):  # (the advice's own cost: construction, steps)
        t = time.thread_time_ns()
        done = renew(advice, collapse)
        spent["ns"] += time.thread_time_ns() - t
        spent["bytes"] += done
        spent["calls"] += 1
        return done

    _huge_pages.Advice.renew = timed
    workers = {"on": Worker(), "off": Worker()}
    batches = {}
    madvise = _huge_pages._MADVISE
    for role in (("on", "off") if on_first else ("off", "on")):
        if role == "off":
            _huge_pages._MADVISE = None  # (this batch's Advice never asks)
        reach = _huge_pages.TLB_REACH
        if force:
            _huge_pages.TLB_REACH = 0
        try:
            batches[role] = workers[role](
                lambda: i2d.WorldBatch.replicate(ten_bodies(), n, threads=1))
        finally:
            _huge_pages._MADVISE, _huge_pages.TLB_REACH = madvise, reach
    ns = {"on": [], "off": []}

    def step(batch):
        def go():
            t = time.thread_time_ns()
            batch.step(DT)
            return time.thread_time_ns() - t
        return go

    built = dict(spent)
    for s in range(steps):
        for role in (("on", "off") if s % 2 == 0 else ("off", "on")):
            ns[role].append(workers[role](step(batches[role])))
    _huge_pages.Advice.renew = renew
    out = {"worlds": n, "steps": steps, "on_built_first": on_first,
           "advice_at_construction": {"cpu_ms": built["ns"] / 1e6, "mb": built["bytes"] / 2**20},
           "advice_in_steps": {"cpu_ms": (spent["ns"] - built["ns"]) / 1e6,
                               "mb": (spent["bytes"] - built["bytes"]) / 2**20,
                               "calls": spent["calls"] - built["calls"]}}
    for role, batch in batches.items():
        t = np.array(ns[role]) / 1e3 / n
        digest = hashlib.sha256(batch.get_positions().tobytes()
                                + batch.get_velocities().tobytes()).hexdigest()[:16]
        out[role] = {"us_per_world_step": float(t.mean()), "median_step_us": float(np.median(t)),
                     "huge_kb": _huge_kb(_samples(batch)), "hash": digest}
    out["off_over_on_total"] = out["off"]["us_per_world_step"] / out["on"]["us_per_world_step"]
    out["off_over_on_median_step"] = float(np.median(np.array(ns["off"]) / np.array(ns["on"])))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, nargs="+", default=[1024])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--force", action="store_true")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    import impulse2d as i2d
    warm = i2d.WorldBatch.replicate(ten_bodies(), 4, threads=1)
    for _ in range(3):  # every kernel loaded before the runs
        warm.step(DT)
    out = {"load_before": os.getloadavg()[0], "policy": os.sched_getscheduler(0), "runs": []}
    for n in args.worlds:
        for r in range(args.runs):
            res = one_run(n, args.steps, r % 2 == 0, args.force)
            res["load"] = os.getloadavg()[0]
            out["runs"].append(res)
            print(f"{n:5d} worlds, on built {'first' if r % 2 == 0 else 'second'}: on "
                  f"{res['on']['us_per_world_step']:.2f} us (median step "
                  f"{res['on']['median_step_us']:.2f}, {res['on']['huge_kb'] // 1024} MB huge), "
                  f"off {res['off']['us_per_world_step']:.2f} us ({res['off']['median_step_us']:.2f}, "
                  f"{res['off']['huge_kb'] // 1024} MB huge): off/on {res['off_over_on_total']:.3f} "
                  f"(median step {res['off_over_on_median_step']:.3f}); hashes "
                  f"{res['on']['hash']} {res['off']['hash']}; load {res['load']:.1f}; advice: "
                  f"{res['advice_at_construction']['mb']:.0f} MB in "
                  f"{res['advice_at_construction']['cpu_ms']:.0f} ms at construction, "
                  f"{res['advice_in_steps']['mb']:.0f} MB in "
                  f"{res['advice_in_steps']['cpu_ms']:.0f} ms in the steps", flush=True)
    out["load_after"] = os.getloadavg()[0]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
