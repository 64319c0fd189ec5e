"""Whether where the heap put a world's arrays changes its step's speed: two copies of one scene
in one process, stepped in turn, and each copy's big arrays' offsets within a 4 KiB page.

    PYTHONPATH=/work/base/src python benchmarks/alias_layout.py --scene pyramid_100 \
        --pairs 200 --tag base_1_s14

The same code and the same physics in both copies (their state hashes must agree); what differs
is only where their arrays lie. The arrays of a big world are too big for one page but not for
glibc's heap once its mmap threshold has risen (a freed mmapped block raises it): each array
then starts at some offset in a page, which depends on every allocation before it, so on the
process's history (what was imported, which cache files were read) as much as on the source.
Two arrays that a loop reads and writes together at the same offset within a page (4 KiB
apart, modulo) alias in the store-to-load prediction of many x86 cores, which makes a load
wait for an unrelated store. Per pair of consecutive steps (ABBA order), the ratio of their
thread CPU (copy 1 / copy 0); the median over ``--pairs`` is robust to the load. Printed with
the offsets (mod 4096) of each copy's arrays over 64 KiB: bodies, contacts, constraints.

A step is the scene as ``run.py`` builds it, sleeping off, one thread, default settings (the
soft step, 4 substeps). Writes JSON to ``benchmarks/results/alias_layout_<tag>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from alias_swap import build  # noqa: E402

STORES = ("_bodies", "_contacts", "_constraints")


def layout(world) -> dict:
    """Offset within a 4 KiB page of each array over 64 KiB in the world's big stores."""
    out = {}
    for store in STORES:
        s = getattr(world, store)
        for name in s._fields:
            a = getattr(s, name)
            if isinstance(a, np.ndarray) and a.nbytes > 65536:
                out[f"{store[1:]}.{name}"] = a.ctypes.data % 4096
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--warm", type=int, default=10)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--tag", default="s14")
    args = ap.parse_args()
    worlds = [build(args.scene), build(args.scene)]
    for _ in range(args.warm):
        for w in worlds:
            w.step(1 / 60)
    cpu = [[], []]
    for k in range(2 * args.pairs):
        who = (0, 1, 1, 0)[k % 4]
        c = time.thread_time()
        worlds[who].step(1 / 60)
        cpu[who].append(time.thread_time() - c)
    ratios = [b / a for a, b in zip(*cpu)]
    q = statistics.quantiles(ratios, n=4)
    report = {"scene": args.scene, "pairs": args.pairs, "load": os.getloadavg()[0],
              "tree": os.path.dirname(os.path.dirname(sys.modules["impulse2d"].__file__)),
              "step": "run.py's scene, sleeping off, one thread, default settings (soft step, "
                      "4 substeps); thread CPU a step",
              "ratio_1_to_0": [round(min(ratios), 3), round(q[0], 3), round(q[1], 3),
                               round(q[2], 3), round(max(ratios), 3)],
              "median_us": [statistics.median(c) * 1e6 for c in cpu],
              "hashes": [w.state_hash()[:16] for w in worlds],
              "layouts": [layout(w) for w in worlds]}
    print(json.dumps({k: v for k, v in report.items() if k != "layouts"}))
    for k, lay in enumerate(report["layouts"]):
        print(k, " ".join(f"{n}:{v:#05x}" for n, v in lay.items()))
    out = HERE / "results" / f"alias_layout_{args.tag}.json"
    out.write_text(json.dumps(dict(report, cpu=cpu), indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
