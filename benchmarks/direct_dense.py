"""LAPACK's Cholesky (``_dynamics/direct_dense.py``) against the envelope loops, and its compile.

    python benchmarks/direct_dense.py          # writes benchmarks/results/direct_dense.json

Part 1: the factor of one symmetric positive definite block of n rows, dense (every entry
non-zero: a hub with n/2 joints) or banded (half-width n/4), by the loops of
``direct_linalg.envelope_cholesky`` and by LAPACK called by address as the island solve calls it
(copy, ``dpotrf``, pivot check), with SciPy's OpenBLAS held to one thread as the step holds
it, and with its default threads; interleaved, median of ``--repeats`` (us). Part 2: the time to
compile the kernel (an empty cache, in a fresh process) and to load it (the cache populated),
each in its own process, ``--processes`` of each alternately (s).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

_COMPILE = """
import time, sys
sys.path.insert(0, {src!r})
from impulse2d._dynamics.step import DENSE_KERNEL
t0 = time.perf_counter()
DENSE_KERNEL.address()
print(time.perf_counter() - t0)
"""


def factor_times(repeats):
    import numba
    import numpy as np
    from impulse2d._dynamics import direct_linalg as dl
    from impulse2d._dynamics.direct_dense import SingleThreadedBlas
    from impulse2d._dynamics.step import DENSE_KERNEL
    from impulse2d._dynamics.verbs import call_dense

    @numba.njit
    def loops(K, reps):
        # the block as the island solve holds it: CSR, its envelope over the skyline; each
        # factor on a fresh copy of the skyline (the factor is in place)
        counts = np.zeros(1, dtype=np.int64)
        start, column, value = dl.from_dense(K)
        first, last, work, _ = dl.envelope(start, column, value)
        row, sky = dl.skyline(start, column, value, first)
        t = 0.0
        for _ in range(reps):
            factor = sky.copy()
            dl.envelope_cholesky(row, factor, first, last, counts, 0)
            t += factor[-1]
        return t

    @numba.njit
    def envelope_work(K):
        start, column, value = dl.from_dense(K)
        return dl.envelope(start, column, value)[2]

    @numba.njit
    def lapack(address, K, reps):
        t = 0.0
        for _ in range(reps):
            L = np.empty_like(K)
            call_dense(address, (K, L))
            t += L[-1, -1]
        return t

    address = DENSE_KERNEL.address()
    rng = np.random.default_rng(1)
    out = {}
    for shape in ("dense", "banded"):
        for n in (8, 16, 24, 32, 48, 64, 100, 200, 400, 800):
            B = rng.uniform(-1.0, 1.0, (n, n))
            K = B @ B.T + n * np.eye(n)
            if shape == "banded":
                w = max(1, n // 4)
                K = np.where(np.abs(np.subtract.outer(np.arange(n), np.arange(n))) <= w, K, 0.0)
                K += n * np.eye(n)
            K = np.ascontiguousarray(K)
            work = envelope_work(K)
            reps = max(1, int(2e6 / (n ** 3 / 6 + 1000)))
            loops(K, 1), lapack(address, K, 1)
            a, b, c = [], [], []
            for _ in range(repeats):
                t0 = time.perf_counter()
                loops(K, reps)
                a.append(time.perf_counter() - t0)
                with SingleThreadedBlas():   # as the step calls it (step.step_world)
                    t0 = time.perf_counter()
                    lapack(address, K, reps)
                    b.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                lapack(address, K, reps)
                c.append(time.perf_counter() - t0)
            out[f"{shape}_{n}"] = {"n": n, "envelope_work": work,
                                   "loops_us": 1e6 * statistics.median(a) / reps,
                                   "lapack_us": 1e6 * statistics.median(b) / reps,
                                   "lapack_default_threads_us": 1e6 * statistics.median(c) / reps}
            r = out[f"{shape}_{n}"]
            print(f"{shape:6s} n {n:4d} work {work:10.0f}  loops {r['loops_us']:9.2f} us  "
                  f"lapack {r['lapack_us']:9.2f} us  "
                  f"(default threads {r['lapack_default_threads_us']:9.2f})", flush=True)
    return out


def compile_times(src, processes):
    cold, warm = [], []
    for _ in range(processes):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, IMPULSE2D_QUIET="1")
            for into in (cold, warm):
                r = subprocess.run([sys.executable, "-c", _COMPILE.format(src=src)], env=env,
                                   capture_output=True, text=True, check=True)
                into.append(float(r.stdout.split()[-1]))
    print(f"compile {cold} s, load {warm} s", flush=True)
    return {"cold_s": cold, "warm_s": warm}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(HERE.parent / "src"))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", default=str(HERE / "results" / "direct_dense.json"))
    a = parser.parse_args()
    sys.path.insert(0, a.src)
    out = {"date": "2026-11-24", "python": platform.python_version(),
           "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
           "factor": factor_times(a.repeats), "compile": compile_times(a.src, a.processes)}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
