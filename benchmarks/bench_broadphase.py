"""Benchmark of the broadphase (``impulse2d._collision.broadphase.find_pairs``).

Scenes (fat boxes, margin ``AABB_MARGIN`` = 0.1 m on every side, fixed seeds):

* ``random_20k``: 20,000 boxes with sides uniform in 0.5..1.5 m, centres uniform in a 400 m square.
* ``pyramid_5050``: the classic 100-row pyramid of 1 m boxes (5050 boxes) on a 220 m ground box.
* ``pile_2000``: 2000 circles r = 0.25 m piled (hexagonal packing, jittered) at the bottom of a
  40 m open box (ground and two walls).

For each scene: one warm-up call (includes JIT compile or cache load), then ``--repeats`` timed
calls; the median (and min) wall time per call in ms, and the pair count, are printed as a table
and written to ``benchmarks/results/broadphase.json``.

Run: ``python benchmarks/bench_broadphase.py [--repeats N] [--out PATH]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np

from impulse2d._collision.broadphase import CELL_SCALE, LARGE_CELLS, find_pairs

MARGIN = 0.1  # impulse2d.constants.AABB_MARGIN


def _fat(x0, y0, x1, y1):
    b = np.stack([x0 - MARGIN, y0 - MARGIN, x1 + MARGIN, y1 + MARGIN], axis=1)
    return b.astype(np.float64)


def scene_random(n=20_000, side=400.0, seed=1):
    rng = np.random.default_rng(seed)
    c = rng.uniform(0.0, side, (n, 2))
    h = 0.5 * rng.uniform(0.5, 1.5, (n, 2))
    return _fat(c[:, 0] - h[:, 0], c[:, 1] - h[:, 1], c[:, 0] + h[:, 0], c[:, 1] + h[:, 1])


def scene_pyramid(rows=100, size=1.0):
    boxes = [np.array([[-110.0, -1.0, 110.0, 0.0]])]  # 220 m ground box
    xs, ys = [], []
    for r in range(rows):
        count = rows - r
        x_start = -0.5 * count * size
        for k in range(count):
            xs.append(x_start + k * size)
            ys.append(r * size)
    x = np.array(xs)
    y = np.array(ys)
    boxes.append(np.stack([x, y, x + size, y + size], axis=1))
    b = np.concatenate(boxes)
    return _fat(b[:, 0], b[:, 1], b[:, 2], b[:, 3])


def scene_pile(n=2000, radius=0.25, width=40.0, seed=2):
    rng = np.random.default_rng(seed)
    d = 2.0 * radius
    per_row = int(width / d) - 1
    pts = []
    row = 0
    while len(pts) < n:
        off = radius if row % 2 else 0.0
        y = radius + row * d * np.sqrt(3.0) / 2.0
        for k in range(per_row):
            if len(pts) == n:
                break
            pts.append((-0.5 * width + radius + off + k * d, y))
        row += 1
    p = np.array(pts) + rng.normal(0.0, 0.01, (n, 2))
    circles = np.stack([p[:, 0] - radius, p[:, 1] - radius, p[:, 0] + radius, p[:, 1] + radius], 1)
    half = 0.5 * width
    walls = np.array(
        [
            [-half, 0.0, half, 0.0],  # ground segment
            [-half, 0.0, -half, width],  # left wall segment
            [half, 0.0, half, width],  # right wall segment
        ]
    )
    b = np.concatenate([walls, circles])
    return _fat(b[:, 0], b[:, 1], b[:, 2], b[:, 3])


SCENES = {
    "random_20k": scene_random,
    "pyramid_5050": scene_pyramid,
    "pile_2000": scene_pile,
}


def bench(aabbs, repeats):
    enabled = np.ones(aabbs.shape[0], dtype=bool)
    t0 = time.perf_counter()
    pairs = find_pairs(aabbs, enabled)
    warm = time.perf_counter() - t0
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        again = find_pairs(aabbs, enabled)
        times.append(time.perf_counter() - t0)
    if not np.array_equal(pairs, again):
        raise AssertionError("find_pairs is not deterministic")
    return {
        "proxies": int(aabbs.shape[0]),
        "pairs": int(pairs.shape[0]),
        "ms_median": 1e3 * statistics.median(times),
        "ms_min": 1e3 * min(times),
        "first_call_s": warm,
        "repeats": repeats,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument(
        "--out",
        default=str(Path(__file__).resolve().parent / "results" / "broadphase.json"),
    )
    args = ap.parse_args(argv)

    results = {name: bench(make(), args.repeats) for name, make in SCENES.items()}

    print(f"{'scene':<14} {'proxies':>8} {'pairs':>8} {'ms median':>10} {'ms min':>8}")
    for name, r in results.items():
        print(
            f"{name:<14} {r['proxies']:>8} {r['pairs']:>8} "
            f"{r['ms_median']:>10.3f} {r['ms_min']:>8.3f}"
        )

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "benchmark": "broadphase.find_pairs",
        "cell_scale": CELL_SCALE,
        "large_cells": LARGE_CELLS,
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpu_count": os.cpu_count(),
            # other jobs on the machine inflate the times; judge them against this
            "load_average_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        },
        "scenes": results,
    }
    out.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"wrote {out}")
    return results


if __name__ == "__main__":
    main()
