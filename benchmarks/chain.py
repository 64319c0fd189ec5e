"""Chain shapes: what they cost. Writes ``benchmarks/results/chain.json``.

    python benchmarks/chain.py [--rounds 3] [--steps 300] [--count 300] [--skip-pyramid]

1. The default step without chains: ``pyramid`` of base 20 and 100 (sleeping off, so every
   step solves the whole pyramid), median ms per step in process, ``--rounds`` fresh worlds.
   Run it on two checkouts to compare (the narrowphase skips chain pairs with one type test
   per contact; the chain narrowphase is a stage of its own, only in worlds with chains).
2. ``chain_terrain`` (``--count`` boxes, circles and capsules dropped on 482 chain segments;
   sleeping off) in impulse2d, the same ground as 482 separate two-sided segments in
   impulse2d, and the same scene in Box2D v3.1 (pyb2d3, 4 substeps, its default), median ms
   per step over ``--steps`` steps after 150 untimed ones (by then every body has landed).
   Also the bodies' lowest height above the surface at the end (negative: below the ground),
   as a check that all three hold the bodies up.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import impulse2d as i2d  # noqa: E402
from impulse2d.scenes import build_scene  # noqa: E402
from impulse2d.scenes.terrain import drop_layout, terrain_points  # noqa: E402

DT = 1.0 / 60.0
SETTLE = 150
"""Untimed steps of chain_terrain before the timed ones: the bodies have landed (2.5 s)."""


def _median_ms(step, steps, settle=0):
    for _ in range(1 + settle):  # the first step (loads kernels, builds pairs) is left out
        step()
    times = []
    for _ in range(steps):
        t = time.perf_counter()
        step()
        times.append(time.perf_counter() - t)
    return 1e3 * statistics.median(times)


def pyramid(base, steps):
    world = i2d.World(enable_sleep=False)
    build_scene(world, "pyramid", base=base)
    return _median_ms(lambda: world.step(DT), steps)


def _clearance(xy):
    """Lowest height of the body centres above the terrain under them, m."""
    ground = np.array(terrain_points()[1:-1])[::-1]
    xy = np.asarray(xy)
    return float((xy[:, 1] - np.interp(xy[:, 0], ground[:, 0], ground[:, 1])).min())


def impulse2d_terrain(count, steps, separate=False):
    world = i2d.World(enable_sleep=False)
    if separate:
        ground = world.create_body(type="static")
        points = terrain_points()
        for a, b in zip(points[:-1], points[1:]):
            ground.create_segment(a, b, friction=0.6)
        for kind, x, y, angle in drop_layout(count):
            body = world.create_body(position=(x, y), angle=angle)
            _i2d_shape(body, kind)
    else:
        build_scene(world, "chain_terrain", count=count)
    ms = _median_ms(lambda: world.step(DT), steps, SETTLE)
    dynamic = [b for b in world.bodies if b.type == i2d.BodyType.DYNAMIC]
    return ms, _clearance([tuple(b.position) for b in dynamic])


def _i2d_shape(body, kind):
    if kind == "box":
        body.create_box(0.4, 0.3)
    elif kind == "circle":
        body.create_circle(0.35)
    else:
        body.create_capsule((-0.35, 0.0), (0.35, 0.0), 0.2)


def pyb2d3_terrain(count, steps):
    import pyb2d3 as b2
    world = b2.World(gravity=(0.0, -10.0))
    world.sleeping_enabled = False
    ground = world.create_static_body(position=(0.0, 0.0))
    # An open chain in Box2D v3 uses its first and last points only as ghost vertices (no
    # segment to them): one more point above each wall gives it the same segments as ours.
    points = terrain_points()
    points = [(points[0][0], points[0][1] + 1.0)] + points + [(points[-1][0], points[-1][1] + 1.0)]
    ground.create_chain(b2.chain_def([tuple(p) for p in points], is_loop=False,
                                     material=_material(b2)))
    sd = b2.ShapeDef()
    sd.density = 1.0
    sd.material = _material(b2)
    bodies = []
    for kind, x, y, angle in drop_layout(count):
        r = b2.Rot()
        r.c, r.s = math.cos(angle), math.sin(angle)
        bd = b2.BodyDef()
        bd.type = b2.BodyType.DYNAMIC
        bd.position = (x, y)
        bd.rotation = r
        body = world.create_body_from_def(bd)
        if kind == "box":
            body.create_polygon_shape(sd, b2.box(0.4, 0.3))
        elif kind == "circle":
            body.create_circle_shape(sd, b2.circle(center=(0.0, 0.0), radius=0.35))
        else:
            body.create_capsule_shape(sd, b2.capsule((-0.35, 0.0), (0.35, 0.0), 0.2))
        bodies.append(body)
    ms = _median_ms(lambda: world.step(DT, 4), steps, SETTLE)
    return ms, _clearance([(b.position.x, b.position.y) for b in bodies])


def _material(b2):
    m = b2.SurfaceMaterial()
    m.friction = 0.6
    return m


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--skip-pyramid", action="store_true")
    parser.add_argument("--out", default=str(HERE / "results" / "chain.json"))
    args = parser.parse_args(argv)
    result = {"rounds": args.rounds, "steps": args.steps, "count": args.count}
    if not args.skip_pyramid:
        for base, steps in ((20, 500), (100, 150)):
            runs = [pyramid(base, steps) for _ in range(args.rounds)]
            result[f"pyramid_{base}_ms"] = runs
            print(f"pyramid_{base}: median ms/step per round {[round(r, 3) for r in runs]}")
    engines = {"impulse2d chain": lambda: impulse2d_terrain(args.count, args.steps),
               "impulse2d separate segments":
                   lambda: impulse2d_terrain(args.count, args.steps, separate=True)}
    try:
        import pyb2d3  # noqa: F401
        engines["pyb2d3 (Box2D 3.1) chain"] = lambda: pyb2d3_terrain(args.count, args.steps)
    except ImportError:
        print("pyb2d3 not installed: Box2D left out")
    for name, run in engines.items():
        runs = [run() for _ in range(args.rounds)]
        result[name] = {"ms": [r[0] for r in runs], "clearance_m": [r[1] for r in runs]}
        print(f"chain_terrain {args.count}, {name}: median ms/step per round "
              f"{[round(r[0], 3) for r in runs]}, lowest centre above the ground "
              f"{min(r[1] for r in runs):.3f} m")
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
