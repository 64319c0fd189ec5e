"""The cost of one query call, impulse2d against pyb2d3 (Box2D v3.1), for every query both
have a single-call form of. Writes ``benchmarks/results/query_calls.json``.

    python benchmarks/query_calls.py [--calls 200] [--rounds 31]

The scene is the one of ``benchmarks/queries.py``: ``rain`` (2,000 circles r = 0.25 m in a
40 m container) settled for 300 steps, its shapes then created as static shapes in pyb2d3.
Queries (the same inputs for both engines, seeded):

* ``ray_hit``: ``ray_cast`` / ``cast_ray_closest``, 20 m rays that hit (nearest hit).
* ``ray_hit_read``: the same, and reading the result's shape, point, normal and fraction
  (pyb2d3 converts its fields when they are read; impulse2d's are built with the result).
* ``ray_miss``: the same, a ray far from every shape (the cost of the call itself).
* ``ray_mixed``: ``20 --calls`` such rays as they come (7 in 10 hit), each cast once a pass:
  the loop of ``benchmarks/queries.py``, paired.
* ``ray_all``: ``ray_cast_all`` / ``cast_ray`` with a callback that collects every hit
  (returns 1), 2 m rays inside the pile (a few hits each).
* ``ray_callback``: ``ray_cast_callback`` / ``cast_ray``, the same rays and the same
  closest-hit callback (returns the fraction).
* ``aabb``: ``query_aabb`` / ``overlap_aabb`` with a collecting callback, 1 m boxes in the
  pile (a handful of shapes each).
* ``point``: ``query_point`` / ``shape_at_point``, points on circles' centres (one shape).

``shape_cast`` and ``query_shape`` have no pyb2d3 form; they are timed alone.

Each round times ``--calls`` calls of every query in impulse2d and in pyb2d3 back to back
(the order alternating between rounds), so the two see the same machine load; reported: the
median over rounds of the time per call, and the median of the paired ratios (impulse2d over
pyb2d3).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

import impulse2d as i2d  # noqa: E402
from queries import rays, settled_rain  # noqa: E402


def peer_world(circles, boxes):
    import pyb2d3 as b2

    world = b2.World(gravity=(0.0, -10.0))
    sd = b2.ShapeDef()
    for x, y, r in circles:
        world.create_static_body(position=(x, y)).create_circle_shape(
            sd, b2.circle(center=(0.0, 0.0), radius=r))
    for cx, cy, hx, hy in boxes:
        world.create_static_body(position=(cx, cy)).create_polygon_shape(sd, b2.box(hx, hy))
    return world


def cases(world, peer, circles, calls, seed=1):
    """``name -> (impulse2d pass, pyb2d3 pass or None)``, each pass ``calls`` calls."""
    import pyb2d3 as b2

    rng = np.random.default_rng(seed)
    origins, translations = rays(world, 20 * calls, 20.0, seed)
    batch = world.ray_cast_many(origins, translations)
    hit = np.flatnonzero(batch.shape >= 0)[:calls]
    ray_o = [tuple(p) for p in origins[hit].tolist()]
    ray_d = [tuple(p) for p in translations[hit].tolist()]
    centres = np.array([(x, y) for x, y, _ in circles])
    pick = rng.integers(0, len(centres), calls)
    short_o = [tuple(p) for p in (centres[pick] + rng.uniform(-0.3, 0.3, (calls, 2))).tolist()]
    angle = rng.uniform(0.0, 2.0 * np.pi, calls)
    short_d = [tuple(p) for p in (np.stack([np.cos(angle), np.sin(angle)], 1) * 2.0).tolist()]
    box_lo = [tuple(p) for p in (centres[pick] - 0.5).tolist()]
    box_hi = [tuple(p) for p in (centres[pick] + 0.5).tolist()]
    peer_boxes = [b2.aabb(lower_bound=lo, upper_bound=hi) for lo, hi in zip(box_lo, box_hi)]
    points = [tuple(p) for p in centres[pick].tolist()]
    far_o, far_d = (500.0, 500.0), (1.0, 0.0)
    pairs = list(zip(ray_o, ray_d))
    mixed = [(tuple(o), tuple(d)) for o, d in zip(origins.tolist(), translations.tolist())]
    short = list(zip(short_o, short_d))
    boxes = list(zip(box_lo, box_hi))
    handles = [s for b in world.bodies for s in b.shapes if b.type != "static"][:calls]
    moves = [(0.0, -1.0)] * len(handles)

    def closest(shape, point, normal, fraction):
        return fraction

    def ours_ray_hit():
        cast = world.ray_cast
        for o, d in pairs:
            cast(o, d)

    def peer_ray_hit():
        cast = peer.cast_ray_closest
        for o, d in pairs:
            cast(o, d)

    def ours_ray_hit_read():
        cast = world.ray_cast
        for o, d in pairs:
            h = cast(o, d)
            h.shape, h.point, h.normal, h.fraction

    def peer_ray_hit_read():
        cast = peer.cast_ray_closest
        for o, d in pairs:
            h = cast(o, d)
            h.shape, h.point, h.normal, h.fraction

    def ours_ray_mixed():
        cast = world.ray_cast
        for o, d in mixed:
            cast(o, d)

    def peer_ray_mixed():
        cast = peer.cast_ray_closest
        for o, d in mixed:
            cast(o, d)

    def ours_ray_miss():
        cast = world.ray_cast
        for _ in range(calls):
            cast(far_o, far_d)

    def peer_ray_miss():
        cast = peer.cast_ray_closest
        for _ in range(calls):
            cast(far_o, far_d)

    def ours_ray_all():
        cast = world.ray_cast_all
        for o, d in short:
            cast(o, d)

    def peer_ray_all():
        cast = peer.cast_ray
        for o, d in short:
            hits = []
            cast(o, d, lambda s, p, n, f: hits.append((s, p, n, f)) or 1.0)

    def ours_ray_callback():
        cast = world.ray_cast_callback
        for o, d in short:
            cast(o, d, closest)

    def peer_ray_callback():
        cast = peer.cast_ray
        for o, d in short:
            cast(o, d, closest)

    def ours_aabb():
        query = world.query_aabb
        for lo, hi in boxes:
            query(lo, hi)

    def peer_aabb():
        query = peer.overlap_aabb
        for box in peer_boxes:
            found = []
            query(box, found.append)

    def ours_point():
        query = world.query_point
        for p in points:
            query(p)

    def peer_point():
        query = peer.shape_at_point
        for p in points:
            query(p)

    def ours_shape_cast():
        cast = world.shape_cast
        for s, t in zip(handles, moves):
            cast(s, t)

    def ours_query_shape():
        query = world.query_shape
        for s in handles:
            query(s)

    return {"ray_hit": (ours_ray_hit, peer_ray_hit, len(pairs)),
            "ray_hit_read": (ours_ray_hit_read, peer_ray_hit_read, len(pairs)),
            "ray_miss": (ours_ray_miss, peer_ray_miss, calls),
            "ray_mixed": (ours_ray_mixed, peer_ray_mixed, len(mixed)),
            "ray_all": (ours_ray_all, peer_ray_all, calls),
            "ray_callback": (ours_ray_callback, peer_ray_callback, calls),
            "aabb": (ours_aabb, peer_aabb, calls),
            "point": (ours_point, peer_point, calls),
            "shape_cast": (ours_shape_cast, None, len(handles)),
            "query_shape": (ours_query_shape, None, len(handles))}


def measure(table, rounds, only=None):
    times = {name: ([], []) for name in table}
    for r in range(rounds):
        for name, (ours, theirs, n) in table.items():
            if only and name not in only:
                continue
            order = [(0, ours), (1, theirs)] if r % 2 == 0 else [(1, theirs), (0, ours)]
            for side, fn in order:
                if fn is None:
                    continue
                t0 = time.perf_counter()
                fn()
                times[name][side].append((time.perf_counter() - t0) / n * 1e6)
    report = {}
    for name, (ours, theirs) in times.items():
        if not ours:
            continue
        row = {"impulse2d_us": statistics.median(ours), "impulse2d_fastest_us": min(ours)}
        if theirs:
            row["pyb2d3_us"] = statistics.median(theirs)
            row["pyb2d3_fastest_us"] = min(theirs)
            row["median_ratio"] = statistics.median(a / b for a, b in zip(ours, theirs))
        report[name] = row
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "query_calls.json")
    a = ap.parse_args(argv)
    world, circles, boxes = settled_rain()
    peer = peer_world(circles, boxes)
    table = cases(world, peer, circles, a.calls)
    for ours, theirs, _ in table.values():  # warm up (compile, grid)
        ours()
        if theirs:
            theirs()
    report = measure(table, a.rounds, a.only)
    from importlib.metadata import version
    out = {"date": time.strftime("%Y-%m-%d"), "impulse2d": i2d.__version__,
           "pyb2d3": version("pyb2d3"), "calls": a.calls, "rounds": a.rounds,
           "queries": report}
    for name, row in report.items():
        peer_part = (f"  pyb2d3 {row['pyb2d3_us']:6.2f} us  ratio {row['median_ratio']:.2f}"
                     if "pyb2d3_us" in row else "")
        print(f"{name:13s} impulse2d {row['impulse2d_us']:6.2f} us{peer_part}")
    if not a.only:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
