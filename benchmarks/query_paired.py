"""Paired A/B of two source trees on the query kernels, by thread CPU a call: for a machine too
loaded for wall-clock means.

    python benchmarks/query_paired.py --a /work/base/src --b src --rounds 6 [--repeat 10] [--out FILE]

Each round runs every case once per tree, each tree in a fresh process (alternating which goes
first). The scene is ``benchmarks/queries.py``'s: ``rain`` (2,000 circles in a container)
settled for 300 steps. Cases, each timed as passes of calls (the median pass, per call):

* ``rows_long``: the pybox2d layer's ray cast (every hit as rows, ``queries._ray_hits``:
  ``shape_queries.every_hit_rows``), 400 rays of 20 m across the pile: dozens of hits each,
  more than ``SHORT_LIST`` (the merge sort) for most;
* ``rows_short``: the same, 2 m rays (a few hits: the insertion sort);
* ``cast_many``: ``World.ray_cast_many`` (``shape_queries.cast_rays``), 4,000 rays of 20 m;
* ``lidar``: the same rays through the batch's lidar kernel (``_batch_lidar.cast_rays_many``,
  the world's index not refreshed), as ``WorldBatch.ray_cast_many`` casts a world's rays;
* ``nearest``: ``World.ray_cast`` (``shape_queries.nearest_hit``), 400 rays of 20 m, one call
  each;
* ``refresh``: the query index's moving layer binned again (``query_index.refresh``);
* ``sense``: the sensor events' overlaps (``events.sensor_overlaps``, through the tracker's
  ``_sense``): two sensor boxes over a field of 30 balls, each overlapping all 30.

Prints per case each tree's median over rounds and the median of the rounds' ratios b / a,
with a hash of every answer (equal in both trees, or the comparison is void).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import hashlib, json, statistics, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from queries import rays, settled_rain
import impulse2d as i2d
from impulse2d import queries

world, _, _ = settled_rain()
result = {}
digest = hashlib.sha256()


def timed(name, calls, call, passes=9):
    call()  # compiled, loaded, warm
    times = []
    repeats = calls * int(sys.argv[2])
    for _ in range(passes):
        t0 = time.thread_time_ns()
        for _ in range(repeats):
            call()
        times.append((time.thread_time_ns() - t0) / repeats)
    result[name] = statistics.median(times) * 1e-9


for name, count, length in (("rows_long", 400, 20.0), ("rows_short", 400, 2.0)):
    origins, translations = rays(world, count, length, seed=1)
    pairs = [(float(o[0]), float(o[1]), float(d[0]), float(d[1]))
             for o, d in zip(origins, translations)]
    for ox, oy, dx, dy in pairs:
        rows, fractions, normals = queries._ray_hits(world, ox, oy, dx, dy, queries._CATEGORY,
                                                     queries._MASK)
        digest.update(np.asarray(rows, np.int64).tobytes())
        digest.update(np.asarray(fractions).tobytes())
        digest.update(np.asarray(normals).tobytes())

    def every_row(pairs=pairs):
        for ox, oy, dx, dy in pairs:
            queries._ray_hits(world, ox, oy, dx, dy, queries._CATEGORY, queries._MASK)

    timed(name, 1, every_row)
    result[name] /= len(pairs)
origins, translations = rays(world, 4000, 20.0, seed=2)
batch = world.ray_cast_many(origins, translations)
for column in batch:
    digest.update(np.ascontiguousarray(column).tobytes())
timed("cast_many", 1, lambda: world.ray_cast_many(origins, translations))
result["cast_many"] /= 4000
from impulse2d._batch_lidar import _cast_rays_many
from impulse2d._collision.query_index import CELL_SCALE
ats = np.array([queries._index(world).address], dtype=np.float64)
out = (np.empty((1, 4000)), np.empty((1, 4000, 2)), np.empty((1, 4000, 2)),
       np.empty((1, 4000), np.int64), np.zeros(1, dtype=bool))
lidar_args = (ats, np.zeros(1, dtype=bool), CELL_SCALE, origins[None], translations[None], 1.0,
              queries._CATEGORY, queries._MASK) + out
_cast_rays_many(*lidar_args)
for column in out:
    digest.update(np.ascontiguousarray(column).tobytes())
timed("lidar", 1, lambda: _cast_rays_many(*lidar_args))
result["lidar"] /= 4000
origins, translations = rays(world, 400, 20.0, seed=3)
pairs = [((float(o[0]), float(o[1])), (float(d[0]), float(d[1])))
         for o, d in zip(origins, translations)]
for o, d in pairs:
    hit = world.ray_cast(o, d)
    digest.update(repr(None if hit is None else (hit.shape.index, hit.fraction, hit.point,
                                                 hit.normal)).encode())


def nearest(pairs=pairs):
    for o, d in pairs:
        world.ray_cast(o, d)


timed("nearest", 1, nearest)
result["nearest"] /= len(pairs)
index = queries._index(world)
assert index.refresh()
timed("refresh", 20, index.refresh)
sensing = i2d.World(gravity=(0, 0))
for y in range(3):
    for x in range(10):
        sensing.create_body(type="static", position=(float(x), float(y))).create_circle(0.2)
for _ in range(2):
    sensing.create_body(type="kinematic", position=(4.5, 1.0)).create_box(6.0, 2.0,
                                                                          is_sensor=True)
tracker = sensing._events
tracker._sense(sensing)
digest.update(np.ascontiguousarray(tracker.sensor_begin).tobytes())
timed("sense", 20, lambda: tracker._sense(sensing))
result["hash"] = digest.hexdigest()[:16]
print(json.dumps(result))
"""

CASES = ("rows_long", "rows_short", "cast_many", "lidar", "nearest", "refresh", "sense")


def one_process(src: str, repeat: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()), IMPULSE2D_QUIET="1")
    done = subprocess.run([sys.executable, "-c", CHILD, str(HERE), str(repeat)], env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the first tree's src/ folder (main)")
    parser.add_argument("--b", default=str(HERE.parent / "src"), help="the second's")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=1,
                        help="each pass calls a case this many times more (a loaded machine: "
                             "passes of ~20 ms of queries read 0.4-2x from one round to the next)")
    parser.add_argument("--out", help="write the rounds here (JSON)")
    args = parser.parse_args()
    rounds = []
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        row = {"load": os.getloadavg()[0]}
        for tree in order:
            row[tree] = one_process(getattr(args, tree), args.repeat)
        rounds.append(row)
        print(json.dumps(row), flush=True)
    summary = {}
    for case in CASES:
        a = [row["a"][case] for row in rounds]
        b = [row["b"][case] for row in rounds]
        ratios = [y / x for x, y in zip(a, b)]
        summary[case] = {"a_us": statistics.median(a) * 1e6, "b_us": statistics.median(b) * 1e6,
                         "ratio": statistics.median(ratios), "low": min(ratios),
                         "high": max(ratios)}
        s = summary[case]
        print(f"{case:11s} a {s['a_us']:9.3f} us  b {s['b_us']:9.3f} us  b/a {s['ratio']:.3f} "
              f"[{s['low']:.3f}-{s['high']:.3f}]")
    hashes = {tree: sorted({row[tree]["hash"] for row in rounds}) for tree in ("a", "b")}
    print("hashes:", hashes, "equal" if hashes["a"] == hashes["b"] else "DIFFER")
    if args.out:
        Path(args.out).write_text(json.dumps({"rounds": rounds, "summary": summary,
                                              "hashes": hashes}, indent=1))


if __name__ == "__main__":
    main()
