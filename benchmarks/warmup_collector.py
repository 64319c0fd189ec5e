"""Python's cyclic collector in a process that compiles many units one after the other (a
``warmup --all`` helper): what each way of running it costs, paired.

    python benchmarks/warmup_collector.py                      # the joint entries, every mode
    python benchmarks/warmup_collector.py --units KEY,KEY --modes now,settle_all --rounds 3

Each run is a fresh process on an empty ``NUMBA_CACHE_DIR`` (``_fresh_compile``) that
compiles ``--units`` in order, as a helper does (``LazyKernel.address``, then the settle
between units), under one mode:

* ``now``: the package's own (``lazy.COMPILE_COLLECTOR`` while a kernel compiles,
  ``parallel.settle_heap`` after each unit once Python has collected in full once);
* ``settle_all``: no full collection while a unit compiles (the oldest generation's
  threshold out of reach), a ``gc.collect()`` and ``gc.freeze()`` after every unit;
* ``no_gc``: the collector off while a unit compiles, ``gc.collect()`` and ``gc.freeze()``
  after every unit;
* ``freeze``: the collector off all along, ``gc.freeze()`` after every unit (the garbage is
  never freed: the bound on the collector's own cost, and the memory it takes).

The modes' runs alternate (``--rounds`` rounds, which goes first turning round each round),
two at a time side by side, so that each pair saw the same load. Each child gives its CPU
(user and system, ``os.times``) from the first unit to the last, the CPU of its collections by
generation (``gc.callbacks``: the thread's CPU between a collection's start and stop), and its
peak resident memory (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

from _fresh_compile import result, start

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import gc, json, os, resource, sys, time
mode, keys = sys.argv[1], sys.argv[2].split(",")
import impulse2d  # noqa: F401
from impulse2d._dynamics import step  # noqa: F401  (registers the units)
from impulse2d._core import lazy, parallel

spent, counts, started = [0.0, 0.0, 0.0], [0, 0, 0], {}


def timed(phase, info):
    if phase == "start":
        started["t"] = time.thread_time()
    else:
        spent[info["generation"]] += time.thread_time() - started.pop("t")
        counts[info["generation"]] += 1


gc.callbacks.append(timed)
BIG = 1 << 30  # (a C int: out of reach)
if mode in ("settle_all", "no_gc"):
    lazy.COMPILE_COLLECTOR = (700, 10, BIG)
units = [lazy.REGISTRY[key] for key in keys]
t0 = os.times()
for unit in units:
    if mode in ("no_gc", "freeze"):
        gc.disable()
    unit.address()
    if mode == "now":
        parallel.settle_heap()
    elif mode in ("settle_all", "no_gc"):
        gc.collect()
        gc.freeze()
    elif mode == "freeze":
        gc.freeze()
    gc.enable()
t1 = os.times()
print(json.dumps({"mode": mode, "cpu_s": (t1.user - t0.user) + (t1.system - t0.system),
                  "system_s": t1.system - t0.system, "gc_cpu_s": spent, "collections": counts,
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "load_1min": os.getloadavg()[0]}))
"""

JOINT_ENTRIES = ",".join(f"impulse2d._dynamics.joint_solver.{name}_entry" for name in
                         ("revolute", "distance", "prismatic", "weld", "wheel", "custom",
                          "gear"))
MODES = ("now", "settle_all", "no_gc", "freeze")


def pair(src, keys, modes):
    """``modes`` run side by side (each its own process and empty cache); their figures."""
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        children = [start(CHILD, src, cache, mode, keys) for cache, mode in zip((a, b), modes)]
        outs = []
        for child in children:
            out, err = child.communicate()
            if child.returncode != 0:
                raise RuntimeError(err[-3000:])
            outs.append(result(out))
    return outs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", default=JOINT_ENTRIES, help="unit keys, comma-separated")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--src", default=str(ROOT / "src"))
    parser.add_argument("--json", help="write every run's figures here")
    args = parser.parse_args()
    modes = args.modes.split(",")
    runs = []
    for k in range(args.rounds):
        order = modes if k % 2 == 0 else modes[::-1]
        for i in range(0, len(order), 2):
            for run in pair(args.src, args.units, order[i:i + 2]):
                run["round"] = k
                runs.append(run)
                print(f"round {k} {run['mode']:10s} CPU {run['cpu_s']:6.2f} s (system "
                      f"{run['system_s']:.2f}), collections {run['collections']} "
                      f"{[round(s, 2) for s in run['gc_cpu_s']]} s, peak "
                      f"{run['maxrss_mb']:.0f} MB, load {run['load_1min']:.1f}", flush=True)
    print("\nmedians:")
    for mode in modes:
        mine = [r for r in runs if r["mode"] == mode]
        print(f"  {mode:10s} CPU {statistics.median(r['cpu_s'] for r in mine):6.2f} s, "
              f"collector {statistics.median(sum(r['gc_cpu_s']) for r in mine):5.2f} s, "
              f"peak {statistics.median(r['maxrss_mb'] for r in mine):.0f} MB")
    if args.json:
        Path(args.json).write_text(json.dumps({"units": args.units, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
