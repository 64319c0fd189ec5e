"""The narrowphase's cold compile, paired between two source trees, in CPU seconds.

    python benchmarks/narrow_compile.py --a /work/base/src --b src --rounds 3
    python benchmarks/narrow_compile.py --a /work/base/src --b src,/tmp/other/src \
        --kernels collide --json out.jsonl

Each round compiles, in a fresh process per tree (rotating which goes first) and an empty
``NUMBA_CACHE_DIR`` (a cold start: the callees compile too), the step's narrowphase stage
(:func:`impulse2d._dynamics.step.collide`, every world's first step compiles it) and the
threaded one (:func:`impulse2d._dynamics.threaded.collide_threaded`, a world of more than one
thread), each timed by the process's CPU clock (``--kernels``: those named only; also
``collide_polygons``, the stage of a world without circles, which a cold ``pyramid_20``
compiles). Prints the
median of each tree and its ratio to ``--a``'s, for each tree of ``--b`` (several, comma
separated: variants of one change ranked in the same rounds), and the package each child
imported (so that a tree's ``PYTHONPATH`` is seen to win over an editable install).
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


def one(names: list[str]) -> dict:
    import impulse2d
    from impulse2d._dynamics.step import COLLIDE_SIGNATURE, collide, collide_polygons
    from impulse2d._dynamics.threaded import collide_threaded

    out = {"package": os.path.dirname(impulse2d.__file__)}
    for name, kernel in (("collide", collide), ("collide_polygons", collide_polygons),
                         ("collide_threaded", collide_threaded)):
        if name not in names:
            continue
        t = time.process_time()
        kernel.compile(COLLIDE_SIGNATURE.args)
        out[name] = time.process_time() - t
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a")
    parser.add_argument("--b", help="a tree, or several comma separated")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kernels", default="collide,collide_threaded")
    parser.add_argument("--json", help="append the summary lines to this file")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = args.kernels.split(",")
    if args.one:
        print(json.dumps(one(names)))
        return
    trees = [args.a] + args.b.split(",")
    runs = {tree: [] for tree in trees}
    loads = []
    for r in range(args.rounds):
        for tree in trees[r % len(trees):] + trees[:r % len(trees)]:
            with tempfile.TemporaryDirectory() as cache:
                # one process: no helper compiling the stage beside this one
                env = dict(os.environ, PYTHONPATH=os.path.abspath(tree),
                           NUMBA_CACHE_DIR=cache, IMPULSE2D_COMPILE_PROCESSES="1")
                done = subprocess.run([sys.executable, __file__, "--one", "--kernels",
                                       args.kernels], env=env, capture_output=True, text=True)
            lines = [x for x in done.stdout.splitlines() if x.startswith("{")]
            if not lines:
                sys.exit(done.stderr[-2000:])
            runs[tree].append(json.loads(lines[-1]))
            loads.append(os.getloadavg()[0])
    summary = []
    for tree in trees[1:]:
        for name in names:
            a = statistics.median(x[name] for x in runs[args.a])
            b = statistics.median(x[name] for x in runs[tree])
            summary.append({"kernel": name, "a": args.a, "b": tree, "a_cpu_s": round(a, 2),
                            "b_cpu_s": round(b, 2), "b/a": round(b / a, 3),
                            "a_runs": [round(x[name], 2) for x in runs[args.a]],
                            "b_runs": [round(x[name], 2) for x in runs[tree]],
                            "rounds": args.rounds, "load": round(statistics.mean(loads), 1),
                            "packages": sorted({x["package"] for x in runs[tree]})})
    for line in summary:
        print(json.dumps(line))
    if args.json:
        with open(args.json, "a") as out:
            out.writelines(json.dumps(line) + "\n" for line in summary)


if __name__ == "__main__":
    main()
