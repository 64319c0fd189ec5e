"""What the step kernel's entry pays to release and retake Python's GIL (issue 31 item 5): two
trivial kernels of the step entry's signature, alike but for ``nogil``, called from Python
alternately.

    PYTHONPATH=src python benchmarks/small_gil.py [--rounds 15] [--calls 200000] [--json F]

``step_kernel`` is a ``gil_free_kernel`` (``nogil=True``) so that Python threads step separate
worlds at once; Numba's wrapper then calls ``PyEval_SaveThread`` before the kernel and
``PyEval_RestoreThread`` after it (under callgrind ~385 instructions a call: two mutexes and a
condition signal; BENCHMARKS.md, ``small47``). Both kernels take a real world's step reference
(the engine's own unboxing), a float and an int, and return the int, as
``step_kernel(world, dt, phase)`` does; the work besides the call is nil. They are compiled
here, uncached (a second or two). CPU ns a call (``time.process_time``), least and median of
the rounds, the two alternating round by round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from numba import njit

import impulse2d


def _trivial(world, dt, phase):
    return phase


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=200000)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    world = impulse2d.World(gravity=(0.0, -10.0))
    world.create_body(position=(0.0, 1.0)).create_circle(0.5)
    world.step(1.0 / 60.0)  # (the step reference is made by the first step)
    stores = world._stores
    kernels = {"gil_released": njit(nogil=True)(_trivial), "gil_kept": njit(_trivial)}
    for k in kernels.values():
        assert k(stores, 1.0 / 60.0, 3) == 3  # compiled, and the reference unboxes
    # the compiled entry points, called as the step's is (no dispatcher: _core/direct_call.py)
    entries = {name: next(iter(k.overloads.values())).entry_point for name, k in kernels.items()}
    ns = {name: [] for name in entries}
    n = args.calls
    for r in range(args.rounds):
        order = list(entries) if r % 2 == 0 else list(entries)[::-1]
        for name in order:
            f = entries[name]
            t = time.process_time()
            for _ in range(n):
                f(stores, 0.016, 0)
            ns[name].append((time.process_time() - t) / n * 1e9)
    out = {name: {"least_ns": round(min(v), 1), "median_ns": round(statistics.median(v), 1)}
           for name, v in ns.items()}
    out["released_less_kept_ns"] = {
        "least": round(out["gil_released"]["least_ns"] - out["gil_kept"]["least_ns"], 1),
        "median": round(out["gil_released"]["median_ns"] - out["gil_kept"]["median_ns"], 1)}
    out["load"] = os.getloadavg()[0]
    print(json.dumps(out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
