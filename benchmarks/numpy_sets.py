"""NumPy's set operations on a batch's world indices against a sort or a mask: what the batch's
Python around a step pays for them.

    python benchmarks/numpy_sets.py [--json FILE]

A batch step whose environment restarts some worlds beside the kernel (``WorldBatch._step_state``
with ``held``) took the held worlds out of the kernel's list with ``np.setdiff1d`` and put them
back with ``np.union1d``. NumPy 2.4's ``np.unique`` (which both call) hashes its input before
it sorts; on 1,024 distinct int64 indices that costs far more than a sort. Timed
here (the calling thread's CPU, best of 5 rounds of 200 calls, us a call) for 1, 10, 50 and 1,024
indices: ``np.unique``, ``np.union1d`` of the list less a few and those few,
``np.setdiff1d(..., assume_unique=True)``, and what gives the same arrays for sorted disjoint
lists: ``np.sort(np.concatenate(...))`` and a boolean mask.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np


def _best(f, calls: int = 200, rounds: int = 5) -> float:
    """The best round's CPU a call of ``f``, us."""
    best = float("inf")
    f()
    for _ in range(rounds):
        t = time.thread_time_ns()
        for _ in range(calls):
            f()
        best = min(best, (time.thread_time_ns() - t) / calls / 1e3)
    return round(best, 2)


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    out = {"numpy": np.__version__, "load": round(os.getloadavg()[0], 1), "us_a_call": {}}
    for n in (1, 10, 50, 1024):
        every = np.arange(n, dtype=np.int64)
        held = every[:: max(1, n // 10)][:10]   # (about ten worlds restarting)
        mask = np.ones(n, dtype=bool)
        mask[held] = False
        rest = every[mask]

        def masked():
            keep = np.ones(n, dtype=bool)
            keep[held] = False
            return every[keep[every]]

        assert np.array_equal(masked(), np.setdiff1d(every, held, assume_unique=True))
        assert np.array_equal(np.sort(np.concatenate((rest, held))), np.union1d(rest, held))
        out["us_a_call"][n] = {
            "unique": _best(lambda: np.unique(every)),
            "union1d": _best(lambda: np.union1d(rest, held)),
            "sort(concatenate)": _best(lambda: np.sort(np.concatenate((rest, held)))),
            "setdiff1d": _best(lambda: np.setdiff1d(every, held, assume_unique=True)),
            "mask": _best(masked)}
    print(f"NumPy {out['numpy']}, load {out['load']}: us a call")
    for n, row in out["us_a_call"].items():
        print(f"  {n:5d} indices: " + ", ".join(f"{k} {v}" for k, v in row.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
