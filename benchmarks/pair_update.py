"""The pair stage's two paths: the global search and the incremental update of the moved boxes.

    PYTHONPATH=src python benchmarks/pair_update.py --json benchmarks/results/pair_update.json

For each scene (stepped until its contacts are those of a settled or a running scene), ``k``
shapes of non-static bodies chosen at random (fixed seed) get a new fat box: shifted by up to 0.15 m on each axis,
as a box that left its margin would be re-grown. Then both paths compute the pairs for the new
boxes from the same columns, interleaved call by call:

* ``global``: :func:`impulse2d._dynamics.pair_update.filtered_pairs`, the grid broadphase and the
  filter, which the pair stage runs on ``pairs_dirty`` and when many boxes moved;
* ``incremental``: :func:`impulse2d._dynamics.pair_update.incremental_pairs`, the old contacts'
  keys less those of the moved shapes, merged with the moved shapes' pairs.

Both give the same array (checked on every call). Medians of ``--repeats`` calls, in ms of
process CPU (wall clock before session 18: on a loaded machine a preempted call counted its
wait), with the Python call overhead of each (a few microseconds) included in both. The crossover, the
fraction of moved shapes where the incremental update stops paying, sets
``pair_update.INCREMENTAL_BELOW``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time

import numpy as np

import impulse2d as i2
from impulse2d._collision.broadphase import CELL_SCALE, LARGE_CELLS, SWEEP_BELOW
from impulse2d._dynamics.pair_update import incremental_pairs, filtered_pairs
from impulse2d.scenes import build_scene

DT = 1.0 / 60.0
SCENES = (("many_pyramids", {}, 300), ("pyramid", {"base": 100}, 300),
          ("rain", {"count": 2000}, 300), ("pyramid", {"base": 20}, 200))


def columns(world):
    sh, bd = world._shapes, world._bodies
    rows = world._joint_rows()
    return (sh.alive, sh.body, bd.type, sh.is_sensor, sh.group, sh.category, sh.mask,
            rows["no_collide"])


def measure(scene, params, steps, fractions, repeats, seed=7):
    world = i2.World(enable_sleep=False)
    build_scene(world, scene, **params)
    for _ in range(steps):
        world.step(DT)
    alive, body, body_type, sensor, group, category, mask, no_collide = columns(world)
    old_keys = world._contacts.key.copy()
    # shapes of bodies that may move (a static body's shapes move only when a script moves them)
    live = np.flatnonzero(alive & (body_type[body] != i2.BodyType.STATIC.code))
    rng = np.random.default_rng(seed)
    rows = []
    counts = sorted({max(1, int(round(f * live.shape[0]))) for f in fractions} | {1, 4, 16})
    for k in counts:
        moved = np.sort(rng.choice(live, size=k, replace=False)).astype(np.int64)
        fat = world._shapes.fat_aabb.copy()
        shift = rng.uniform(-0.15, 0.15, (k, 2))
        fat[moved, 0::2] += shift[:, :1]
        fat[moved, 1::2] += shift[:, 1:]
        glob = lambda: filtered_pairs(fat, alive, body, body_type, sensor, group, category, mask,
                                      no_collide, CELL_SCALE, LARGE_CELLS, SWEEP_BELOW)
        inc = lambda: incremental_pairs(old_keys, moved, fat, alive, body, body_type, sensor,
                                        group, category, mask, no_collide)
        a, b = glob(), inc()
        if not np.array_equal(a, b):
            raise AssertionError(f"{scene}: incremental pairs differ from the global ones, k={k}")
        times = {"global": [], "incremental": []}
        for _ in range(repeats):
            for name, call in (("global", glob), ("incremental", inc)):
                t0 = time.process_time()
                call()
                times[name].append(time.process_time() - t0)
        g = 1e3 * statistics.median(times["global"])
        n = 1e3 * statistics.median(times["incremental"])
        rows.append({"moved": k, "moved_fraction": round(k / live.shape[0], 5),
                     "global_ms": round(g, 4), "incremental_ms": round(n, 4),
                     "incremental_over_global": round(n / g, 3)})
        print(f"{scene:14s} {live.shape[0]:5d} shapes {old_keys.shape[0]:6d} pairs  moved {k:5d} "
              f"({k / live.shape[0]:6.2%}): global {g:7.3f} ms  incremental {n:7.3f} ms",
              flush=True)
    return {"scene": scene, "params": params, "steps": steps, "shapes": int(live.shape[0]),
            "contacts": int(old_keys.shape[0]), "rows": rows}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args(argv)
    fractions = (0.001, 0.01, 0.03, 0.0625, 0.125, 0.25, 0.5, 1.0)
    results = {"machine": platform.processor() or platform.machine(),
               "python": sys.version.split()[0], "impulse2d": i2.__version__,
               "scenes": [measure(s, p, n, fractions, args.repeats) for s, p, n in SCENES]}
    text = json.dumps(results, indent=2)
    if args.json:
        with open(args.json, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
