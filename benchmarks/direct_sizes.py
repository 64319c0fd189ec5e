"""The ``direct`` solver's step time against the rows of its largest island.

    python benchmarks/direct_sizes.py                    # writes benchmarks/results/direct_sizes.json
    python benchmarks/direct_sizes.py --only chain_400 --steps 10
    python benchmarks/direct_sizes.py --src /tmp/old/src --out old.json   # another checkout

Each case is one world stepped by ``solver="direct"`` (``direct_max_rows`` out of the way,
sleeping off), in process, after the kernels are loaded and the scene has run ``--settle``
steps; the time is the median of ``--steps`` timed steps (ms), with the rows of the largest
island, the islands, Lemke's pivots and failures of the last step (``World.direct_stats``).
The cases: chains of 10-5000 links (revolute joints only: the equality block), bridges of
160-400 planks pinned at both ends, with and without boxes resting on them (a joint island
with contacts: the Schur complement), chains whose joints are made in a random order and nets
of joints made in two passes (wide envelopes: the rows are reordered), stars of joints round
one hub (a dense equality block), and pyramids of base 4-10 (contacts only: Lemke).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DT = 1.0 / 60.0


def chain(i2d, world, links):
    ground = world.create_body(type="static")
    parent = ground
    for k in range(links):
        link = world.create_body(position=(0.5 + k, 0.0))
        link.create_box(0.5, 0.1, group=-1)
        world.create_revolute_joint(parent, link, (float(k), 0.0))
        parent = link


def shuffled_chain(i2d, world, links, seed=1):
    """A chain whose joints are made in a random order: the same island as ``chain``, with
    the equality block's envelope spread over the whole block."""
    import random
    ground = world.create_body(type="static")
    bodies = [ground]
    for k in range(links):
        link = world.create_body(position=(0.5 + k, 0.0))
        link.create_box(0.5, 0.1, group=-1)
        bodies.append(link)
    order = list(range(links))
    random.Random(seed).shuffle(order)
    for k in order:
        world.create_revolute_joint(bodies[k], bodies[k + 1], (float(k), 0.0))


def grid(i2d, world, n):
    """An n x n net of small circles 1 m apart, joined to their right and lower neighbours
    by revolute joints made in two passes (every horizontal joint, then every vertical one:
    a wide envelope), hanging from the two top corners."""
    ground = world.create_body(type="static")
    nodes = [[None] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            body = world.create_body(position=(float(c), -float(r)))
            body.create_circle(0.2, group=-1)
            nodes[r][c] = body
    for r in range(n):
        for c in range(n - 1):
            world.create_revolute_joint(nodes[r][c], nodes[r][c + 1], (c + 0.5, -float(r)))
    for r in range(n - 1):
        for c in range(n):
            world.create_revolute_joint(nodes[r][c], nodes[r + 1][c], (float(c), -r - 0.5))
    world.create_revolute_joint(ground, nodes[0][0], (0.0, 0.0))
    world.create_revolute_joint(ground, nodes[0][n - 1], (n - 1.0, 0.0))


def star(i2d, world, spokes):
    """A hub pinned to the ground with ``spokes`` bobs hanging from pins round its rim: every
    joint row meets the hub, so the equality block is dense."""
    import math
    ground = world.create_body(type="static")
    hub = world.create_body(position=(0.0, 0.0))
    hub.create_circle(0.5, group=-1)
    world.create_revolute_joint(ground, hub, (0.0, 0.0))
    for k in range(spokes):
        angle = 2.0 * math.pi * k / spokes
        x, y = 0.3 * math.cos(angle), 0.3 * math.sin(angle)
        bob = world.create_body(position=(x, y - 1.0))
        bob.create_circle(0.1, group=-1)
        world.create_revolute_joint(hub, bob, (x, y))


def bridge(i2d, world, planks, boxes=0):
    ground = world.create_body(type="static")
    x0 = -0.5 * planks
    parent = ground
    deck = []
    for k in range(planks):
        plank = world.create_body(position=(x0 + k + 0.5, 0.0))
        plank.create_box(0.5, 0.125, density=20.0)
        world.create_revolute_joint(parent, plank, (x0 + k, 0.0))
        deck.append(plank)
        parent = plank
    world.create_revolute_joint(parent, ground, (x0 + planks, 0.0))
    for j in range(boxes):   # spread over the middle half of the deck
        x = x0 + planks * (0.25 + 0.5 * (j + 0.5) / boxes)
        world.create_body(position=(x, 0.125 + 0.25)).create_box(0.25, 0.25)


def pyramid(i2d, world, base):
    ground = world.create_body(type="static")
    ground.create_box(50.0, 0.5, center=(0.0, -0.5))
    for row in range(base):
        for k in range(base - row):
            x = (k - 0.5 * (base - row - 1)) * 1.0
            world.create_body(position=(x, 0.5 + row * 1.0)).create_box(0.5, 0.5)


CASES = {
    **{f"chain_{n}": (chain, (n,)) for n in (10, 20, 50, 100, 200, 400, 1000, 2000, 5000)},
    **{f"chain_{n}_shuffled": (shuffled_chain, (n,)) for n in (50, 100, 200)},
    **{f"grid_{n}": (grid, (n,)) for n in (6, 10, 14, 20, 30)},
    **{f"star_{n}": (star, (n,)) for n in (30, 60, 200, 400)},
    **{f"bridge_{n}": (bridge, (n,)) for n in (160, 400)},
    **{f"bridge_{n}_boxes_{b}": (bridge, (n, b)) for n, b in ((100, 10), (200, 20))},
    **{f"pyramid_{b}": (pyramid, (b,)) for b in (4, 6, 8, 10)},
}


def run_case(i2d, name, steps, settle):
    build, args = CASES[name]
    world = i2d.World(solver="direct", gravity=(0.0, -10.0), enable_sleep=False,
                      direct_max_rows=100000)
    build(i2d, world, *args)
    for _ in range(settle):
        world.step(DT)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        world.step(DT)
        times.append(time.perf_counter() - t0)
    stats = world.direct_stats
    return {"ms_per_step": 1e3 * statistics.median(times), "min_ms": 1e3 * min(times),
            "rows": stats["largest_island_rows"], "islands": stats["islands"],
            "lcp_pivots": stats["lcp_pivots"], "lemke_failures": stats["lemke_failures"],
            "regularised_pivots": stats["regularised_pivots"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(HERE.parent / "src"))
    parser.add_argument("--only", nargs="*", default=None, help="case names")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--settle", type=int, default=10)
    parser.add_argument("--out", default=str(HERE / "results" / "direct_sizes.json"))
    a = parser.parse_args()
    sys.path.insert(0, a.src)
    import impulse2d as i2d

    t0 = time.perf_counter()
    world = i2d.World(solver="direct")
    chain(i2d, world, 2)
    world.step(DT)
    load = time.perf_counter() - t0
    results = {}
    for name in a.only or CASES:
        steps = a.steps if not name.startswith("pyramid_1") else max(3, a.steps // 10)
        results[name] = run_case(i2d, name, steps, a.settle)
        print(f"{name:24s} rows {results[name]['rows']:5d}  "
              f"{results[name]['ms_per_step']:10.3f} ms/step", flush=True)
    out = {"date": "2026-11-24", "src": a.src, "python": platform.python_version(),
           "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
           "first_direct_step_s": load, "cases": results}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
