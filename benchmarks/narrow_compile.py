"""The narrowphase's cold compile, paired between two source trees, in CPU seconds.

    python benchmarks/narrow_compile.py --a /work/base/src --b src --rounds 3

Each round compiles, in a fresh process per tree (alternating which goes first) and an empty
``NUMBA_CACHE_DIR`` (a cold start: the callees compile too), the step's narrowphase stage
(:func:`impulse2d._dynamics.step.collide`, every world's first step compiles it) and the
threaded one (:func:`impulse2d._dynamics.threaded.collide_threaded`, a world of more than one
thread), each timed by the process's CPU clock. Prints the median of each tree and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def one() -> dict:
    from impulse2d._dynamics.step import COLLIDE_SIGNATURE, collide
    from impulse2d._dynamics.threaded import collide_threaded

    out = {}
    for name, kernel in (("collide", collide), ("collide_threaded", collide_threaded)):
        t = time.process_time()
        kernel.compile(COLLIDE_SIGNATURE.args)
        out[name] = time.process_time() - t
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a")
    parser.add_argument("--b")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one()))
        return
    runs = {"a": [], "b": []}
    loads = []
    for r in range(args.rounds):
        for who in ("a", "b") if r % 2 == 0 else ("b", "a"):
            with tempfile.TemporaryDirectory() as cache:
                # one process: no helper compiling the stage beside this one
                env = dict(os.environ, PYTHONPATH=os.path.abspath(getattr(args, who)),
                           NUMBA_CACHE_DIR=cache, IMPULSE2D_COMPILE_PROCESSES="1")
                done = subprocess.run([sys.executable, __file__, "--one"], env=env,
                                      capture_output=True, text=True)
            lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
            if not lines:
                sys.exit(done.stderr[-2000:])
            runs[who].append(json.loads(lines[-1]))
            loads.append(os.getloadavg()[0])
    for name in runs["a"][0]:
        a = statistics.median(x[name] for x in runs["a"])
        b = statistics.median(x[name] for x in runs["b"])
        print(json.dumps({"kernel": name, "a_cpu_s": round(a, 2), "b_cpu_s": round(b, 2),
                          "b/a": round(b / a, 3), "rounds": args.rounds,
                          "load": round(statistics.mean(loads), 1)}))


if __name__ == "__main__":
    main()
