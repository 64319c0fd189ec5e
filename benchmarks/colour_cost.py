"""What the colouring of a settled big scene costs, and whether finding the free colour with a
count of trailing (or leading) zeros pays: the engine's :func:`~impulse2d._dynamics.
constraint_graph.color_contacts_into` against its copy here (``loops``: the same
loops, compiled in this script), the copy with its colour loops replaced by ``tzcnt`` /
``lzcnt`` (``counted_zeros``: Box2D v3's ``b2CTZ64``), and the copy's first pass alone
(``first_pass``: the scatter into colour order left out), compiled in one process, called in turn on the same
contacts, thread CPU, the minimum over ``--rounds`` rounds of ``--calls`` calls.

    PYTHONPATH=src python benchmarks/colour_cost.py [--scene rain_2000] [--settle 300] \
        [--rounds 15] [--calls 200] [--json NAME]

The variant's order and colour starts are checked equal to the engine's before timing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from impulse2d._dynamics.constraint_graph import COLOR_COUNT, color_contacts_into

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


@njit
def _first_pass(count, body_a, body_b, body_type, asleep, color_count, used, color, sizes,
                counted_zeros):
    """The colouring's pass over every contact row (``n_rows`` -1), its colour counts in
    ``sizes``: the engine's loops, or (``counted_zeros``) the lowest / highest free colour
    found by a count of zeros of the free colours' mask."""
    used[:] = 0
    sizes[:] = 0
    full = (1 << color_count) - 1
    for t in range(count.shape[0]):
        color[t] = -1
        if count[t] == 0:
            continue
        a = body_a[t]
        b = body_b[t]
        dyn_a = body_type[a] == 2
        dyn_b = body_type[b] == 2
        if (asleep[a] or asleep[b]) and not (dyn_a and not asleep[a]) and not (
                dyn_b and not asleep[b]):
            continue
        mask = 0
        if dyn_a:
            mask |= used[a]
        if dyn_b:
            mask |= used[b]
        chosen = color_count
        if counted_zeros:
            free = ~mask & full
            if free != 0:
                chosen = trailing_zeros(free) if dyn_a and dyn_b else 63 - leading_zeros(free)
        elif dyn_a and dyn_b:
            for c in range(color_count):
                if (mask >> c) & 1 == 0:
                    chosen = c
                    break
        else:
            for c in range(color_count - 1, -1, -1):
                if (mask >> c) & 1 == 0:
                    chosen = c
                    break
        if chosen < color_count:
            bit = 1 << chosen
            if dyn_a:
                used[a] |= bit
            if dyn_b:
                used[b] |= bit
        color[t] = chosen
        sizes[chosen] += 1


@njit
def _scatter(color, order, sizes, fill, starts):
    total = 0
    starts[0] = 0
    for c in range(sizes.shape[0]):
        fill[c] = total
        total += sizes[c]
        starts[c + 1] = total
    for t in range(color.shape[0]):
        c = color[t]
        if c >= 0:
            order[fill[c]] = t
            fill[c] += 1


@njit
def _engine(calls, count, body_a, body_b, body_type, asleep, color_count, used, color, order,
            sizes, fill, starts):
    from_numba = 0
    for _ in range(calls):
        from_numba += color_contacts_into(count, body_a, body_b, body_type, asleep, color_count,
                                   np.empty(0, dtype=np.int64), -1, used, color, order, sizes,
                                   fill, starts)[0].shape[0]
    return from_numba


@njit
def _variant(calls, count, body_a, body_b, body_type, asleep, color_count, used, color, order,
             sizes, fill, starts, counted_zeros, scatter):
    for _ in range(calls):
        _first_pass(count, body_a, body_b, body_type, asleep, color_count, used, color, sizes,
                    counted_zeros)
        if scatter:
            _scatter(color, order, sizes, fill, starts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="rain_2000")
    ap.add_argument("--settle", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--json", default=None, help="write results/NAME.json")
    args = ap.parse_args()
    import impulse2d
    import run
    from engines import build_scene

    builder, params = run.SCENES[args.scene][:2]
    world = impulse2d.World(gravity=(0, -10), enable_sleep=False, solver_precision="float32")
    build_scene(world, builder, **params)
    for _ in range(args.settle):
        world.step(1 / 60)
    _ = world.contacts  # (the contact store synced to Python)
    c, b = world._contacts, world._bodies
    inputs = (c.count, c.body_a, c.body_b, b.type, b.asleep, COLOR_COUNT)
    n = c.count.shape[0]

    def scratch():
        return (np.zeros(b.type.shape[0], np.int64), np.zeros(n, np.int64),
                np.zeros(n, np.int64), np.zeros(COLOR_COUNT + 1, np.int64),
                np.zeros(COLOR_COUNT + 1, np.int64), np.zeros(COLOR_COUNT + 2, np.int64))

    forms = {"engine": lambda s, k: _engine(k, *inputs, *s),
             "loops": lambda s, k: _variant(k, *inputs, *s, False, True),
             "counted_zeros": lambda s, k: _variant(k, *inputs, *s, True, True),
             "first_pass": lambda s, k: _variant(k, *inputs, *s, False, False)}
    bufs = {name: scratch() for name in forms}
    for name, f in forms.items():
        f(bufs[name], 1)
    m = int(bufs["engine"][5][-1])
    same = (np.array_equal(bufs["engine"][2][:m], bufs["counted_zeros"][2][:m])
            and np.array_equal(bufs["engine"][5], bufs["counted_zeros"][5]))
    best = {name: float("inf") for name in forms}
    load0 = os.getloadavg()[0]
    for _ in range(args.rounds):
        for name, f in forms.items():
            t = time.thread_time_ns()
            f(bufs[name], args.calls)
            best[name] = min(best[name], (time.thread_time_ns() - t) / args.calls / 1e3)
    report = {"scene": args.scene, "settle": args.settle, "contact_rows": n, "coloured": m,
              "load": [round(load0, 2), round(os.getloadavg()[0], 2)],
              "counted_zeros_same_order": bool(same),
              "us_per_colouring": {k: round(v, 2) for k, v in best.items()}}
    print(json.dumps(report))
    if args.json:
        with open(HERE / "results" / f"{args.json}.json", "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
