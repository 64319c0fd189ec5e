"""Paired A/B of two source trees on ``batch_bench.py``'s batch, by CPU time: for a machine too
loaded for wall-clock rates.

    python benchmarks/batch_paired.py --a /work/main/src --b src --sizes 64 1024 --rounds 4

Each round steps, once per tree, each in a fresh process (alternating which goes first),
``WorldBatch.replicate(ten_bodies(), n, threads=1)`` for the first ``--steps`` steps after the
drop (a **world-step**: one 1/60 s soft step, 4 substeps, of one 10-body world, sleeping on),
and records world-steps per second of the step's thread CPU time (``time.thread_time``: one
thread steps every world, so the time other processes held the core is left out), of the
process's CPU time (every thread's: the measure at ``--threads 2``) and of wall time, and a
hash of every world's final positions and velocities (the two trees must agree bit for bit).
With ``--threads 2`` the batch steps on two threads: the thread rate is then the calling
thread's alone, the process rate is the CPU cost, the wall rate (on a loaded machine, little)
the speed. Prints the best round of each tree, the ratio b / a of the best rounds and
the median of the rounds' own ratios (a round: a and b back to back).

No process loads both trees: each run is its own interpreter, with its own tree's kernel cache
(``<tree>/impulse2d/_kernels``; a ``NUMBA_CACHE_DIR`` set in the environment, which both trees'
processes would share under the same kernel names, each overwriting the other's entries, is
taken out of the children's environment). What can still make one tree's runs slow is a compile
inside the run: the warm-up steps ``--steps`` steps of 4 worlds first (every stage the run
reaches: the worlds fall, touch and fall asleep), and a run whose process printed a compile
notice is flagged (``compiled`` in the JSON: its notices; ``COMPILED`` in the line; a stage
compiled in a second process while the step runs it in Python is slow in the parent without a
compile of its own: its notice is the only sign) and its round left out of the best and the
ratios.

Run under ``chrt -f 10`` (root: real-time priority, which the processes inherit) on a loaded
machine, each process takes the cores from the others' for its run: the wall rates, and the
two threads' scaling, then mean something (the kernels must be in the cache first: a compile
at that priority would hold both cores for minutes). ``--b-env`` sets environment variables
for tree b's processes only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def one_run(n: int, steps: int, threads: int) -> dict:
    """Step the batch in this process (the impulse2d on sys.path)."""
    sys.path.insert(0, str(HERE))
    import impulse2d as i2d
    from batch_bench import ten_bodies
    warm = i2d.WorldBatch.replicate(ten_bodies(), 4, threads=threads)
    for _ in range(steps):  # compile or load every kernel the run's steps reach
        warm.step(1 / 60)
    batch = i2d.WorldBatch.replicate(ten_bodies(), n, threads=threads)
    c0, p0, t0 = time.thread_time(), time.process_time(), time.perf_counter()
    for _ in range(steps):
        batch.step(1 / 60)
    cpu, wall = time.thread_time() - c0, time.perf_counter() - t0
    process = time.process_time() - p0
    digest = hashlib.sha256(batch.get_positions().tobytes() + batch.get_velocities().tobytes())
    return {"cpu_rate": n * steps / cpu, "process_rate": n * steps / process,
            "wall_rate": n * steps / wall, "hash": digest.hexdigest()[:16]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="/work/main/src")
    parser.add_argument("--b", default=str(HERE.parent / "src"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 1024])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--json", default="")
    parser.add_argument("--b-env", nargs="*", default=[], metavar="NAME=VALUE",
                        help="environment variables for tree b's processes only (e.g. "
                             "GLIBC_TUNABLES=glibc.malloc.hugetlb=1: the same tree on both "
                             "sides measures the setting)")
    parser.add_argument("--one", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(*args.one)))
        return
    out = {"load_before": os.getloadavg()[0], "steps": args.steps, "threads": args.threads,
           "a": args.a, "b": args.b, "b_env": args.b_env,
           "policy": os.sched_getscheduler(0), "sizes": {}}
    for n in args.sizes:
        runs = {"a": [], "b": []}
        for r in range(args.rounds):
            for tree in (("a", "b") if r % 2 == 0 else ("b", "a")):
                src = getattr(args, tree)
                env = dict(os.environ, PYTHONPATH=src)
                env.pop("NUMBA_CACHE_DIR", None)  # (each tree's own cache: see above)
                if tree == "b":
                    env.update(item.split("=", 1) for item in args.b_env)
                res = subprocess.run([sys.executable, __file__, "--one", str(n), str(args.steps),
                                      str(args.threads)], env=env, capture_output=True, text=True,
                                     check=True)
                run = json.loads(res.stdout.strip().splitlines()[-1])
                run["compiled"] = [line for line in res.stderr.splitlines()
                                   if "compiling kernels" in line]
                runs[tree].append(run)
        # (the rounds without a compile, if any: a compile's run is no measure of its tree)
        rounds = [(a, b) for a, b in zip(runs["a"], runs["b"])
                  if not (a["compiled"] or b["compiled"])] or list(zip(runs["a"], runs["b"]))
        best = {t: {k: max(pair["ab".index(t)][k] for pair in rounds)
                    for k in ("cpu_rate", "process_rate", "wall_rate")}
                for t in runs}
        ratios = {k: float(np.median([b[k] / a[k] for a, b in rounds]))
                  for k in ("cpu_rate", "process_rate", "wall_rate")}
        hashes = {t: sorted({r["hash"] for r in runs[t]}) for t in runs}
        compiled = {t: sum(bool(r["compiled"]) for r in runs[t]) for t in runs}
        out["sizes"][str(n)] = {"best": best, "median_round_ratio": ratios, "hashes": hashes,
                                "runs": runs}
        print(f"{n:5d} worlds: a {best['a']['cpu_rate']:8.0f} b {best['b']['cpu_rate']:8.0f} "
              f"world-steps/s of CPU (b/a {best['b']['cpu_rate'] / best['a']['cpu_rate']:.3f}, "
              f"median round {ratios['cpu_rate']:.3f}); process CPU a "
              f"{best['a']['process_rate']:8.0f} b {best['b']['process_rate']:8.0f} (median "
              f"round {ratios['process_rate']:.3f}); "
              f"wall a {best['a']['wall_rate']:8.0f} b {best['b']['wall_rate']:8.0f}; "
              f"hashes equal: {hashes['a'] == hashes['b'] and len(hashes['a']) == 1}"
              + (f"; COMPILED in runs (a, b): {compiled['a']}, {compiled['b']}"
                 if compiled['a'] or compiled['b'] else ""), flush=True)
    out["load_after"] = os.getloadavg()[0]
    print(f"load {out['load_before']:.1f} -> {out['load_after']:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
