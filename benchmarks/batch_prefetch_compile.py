"""The compile of the batch kernel's prefetch of a world, by form: the CPU of compiling it alone,
in a fresh process each.

    PYTHONPATH=src python benchmarks/batch_prefetch_compile.py [--rounds 3] [--json FILE]

Each round runs one child process per form; the child loads the package's kernels, compiles a
small function first (Numba's own start-up, paid once a process, out of the figure), then
compiles the form for the batch kernel's signature (a typed list of references and four
int64) with no cache, timed by the process's CPU clock. Forms: ``table`` (the module's own
``prefetch_world``: one loop over :func:`impulse2d._dynamics.batch_step.prefetch_table`'s rows)
and ``unrolled`` (session 26's form, a loop a column unrolled over the stores' ~150 arrays:
``lander_prefetch_ab.py``'s variant). Printed: each form's seconds, every round and the
median.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def child(form: str) -> float:
    sys.path.insert(0, HERE)
    import numba
    from numba.typed import List

    import impulse2d as i2d
    from impulse2d._dynamics import batch_step as bs

    world = i2d.World()
    world.create_body("dynamic").create_circle(0.5)
    batch = i2d.WorldBatch([world], threads=1)
    batch.step(1.0 / 60.0)
    refs = batch._state.current_refs()
    assert isinstance(refs, List)
    signature = (numba.typeof(refs),) + (numba.int64,) * 4
    numba.njit(cache=False)(lambda x: x + 1)(1)  # (Numba's first compile of a process)
    if form == "table":
        function = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                              error_model="numpy", cache=False)(bs.prefetch_world.py_func)
    else:
        import lander_prefetch_ab
        function = lander_prefetch_ab.unrolled_prefetch(bs)
    t = time.process_time()
    function.compile(signature)
    return time.process_time() - t


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", default="")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child)))
        return {}
    seconds = {"table": [], "unrolled": []}
    for _ in range(args.rounds):
        for form in seconds:
            out = subprocess.run([sys.executable, __file__, "--child", form], check=True,
                                 capture_output=True, text=True).stdout
            seconds[form].append(round(json.loads(out.strip().splitlines()[-1]), 3))
    result = {"rounds": args.rounds, "load": round(os.getloadavg()[0], 1), "cpu_s": seconds,
              "median_cpu_s": {f: sorted(s)[len(s) // 2] for f, s in seconds.items()}}
    print(json.dumps(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
