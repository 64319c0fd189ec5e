"""How late Numba's worker joins a parallel launch, after the calling thread has run alone for
a while: the cost a threaded step pays at each of its launches (the narrowphase's, the
solve's), whatever the engine does inside them.

    PYTHONPATH=src python benchmarks/threads_join.py [--gaps 0,20,100,300,1000] [--launches 400]
        [--json results/NAME.json]
    chrt -f 50 env PYTHONPATH=src python benchmarks/threads_join.py ...   # both cores free

Each launch is a ``prange`` of two iterations on Numba's threading layer (TBB where
``impulse2d[threads]`` installed it, as the engine launches: :func:`impulse2d._threads.
prefer_tbb`); each iteration notes the cycle counter when it starts, by thread, and then waits
(up to ``--wait`` us) for the other thread to note its own, so that the calling thread does not
take both iterations before the worker arrives. Before each launch the calling thread computes
alone for ``gap`` us (the serial stages between two launches: a step's colouring, bounds,
Python). Printed per gap: the share of launches the worker joined within the wait, and the
median and 90th percentile of its join, us after the launch began.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gaps", default="0,20,100,300,1000", help="us alone before each launch")
    ap.add_argument("--launches", type=int, default=400)
    ap.add_argument("--wait", type=float, default=2000.0, help="us a thread waits for the other")
    ap.add_argument("--json", help="write the table to this file")
    args = ap.parse_args()

    from impulse2d import _threads
    _threads.prefer_tbb()
    import numba
    import numpy as np
    from numba import njit, prange
    from numba.np.ufunc.parallel import _launch_threads
    _launch_threads()
    from impulse2d._core.jit import cycles
    from impulse2d._dynamics.atomics import load_acquire

    @njit(parallel=True)
    def launch(seen, wait):
        t0 = cycles()
        for i in prange(2):
            me = min(numba.get_thread_id(), 1)
            seen[me] = cycles() - t0
            while load_acquire(seen, 1 - me) < 0 and cycles() - t0 < wait:
                pass

    @njit
    def alone(until):
        while cycles() < until:
            pass

    @njit
    def now():
        return cycles()

    t0, c0 = time.perf_counter(), now()
    time.sleep(0.2)
    hz = (now() - c0) / (time.perf_counter() - t0)  # the cycle counter's rate
    seen = np.full(2, -1, dtype=np.int64)
    launch(seen, 0)
    rows = []
    for gap in (float(g) for g in args.gaps.split(",")):
        joins = []
        for _ in range(args.launches):
            alone(now() + int(gap * 1e-6 * hz))
            seen[:] = -1
            launch(seen, int(args.wait * 1e-6 * hz))
            if seen[1] >= 0:
                joins.append(seen[1] / hz * 1e6)
        joined = len(joins) / args.launches
        q = statistics.quantiles(joins, n=10) if len(joins) > 1 else [float("nan")] * 9
        row = {"gap_us": gap, "joined": joined,
               "join_median_us": statistics.median(joins) if joins else None,
               "join_p90_us": q[8] if joins else None}
        rows.append(row)
        print(f"gap {gap:7.0f} us: worker joined {100 * joined:5.1f} % of launches, "
              f"median {row['join_median_us'] or float('nan'):8.1f} us, "
              f"p90 {row['join_p90_us'] or float('nan'):8.1f} us")
    out = {"layer": numba.threading_layer(), "threads": numba.get_num_threads(),
           "counter_hz": hz, "launches": args.launches, "wait_us": args.wait,
           "load": open("/proc/loadavg").read().split()[:3], "rows": rows}
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
