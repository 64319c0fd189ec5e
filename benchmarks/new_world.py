"""A new world's cost, part by part: ``World()``, its bodies, shapes and joints, its first step
(issue 31 items 5 and 8: a Gymnasium reset makes a new world every episode).

    python benchmarks/new_world.py [--worlds 300] [--json F]
    python benchmarks/new_world.py --pair OTHER_SRC [--runs 3]   # paired against another tree

The world is LunarLander's, made with the engine's own API: a static body with 10 segments
(the moon), a dynamic polygon (the lander), two legs (a body and a box each) hinged to it by
revolute joints, then three steps of 1/50 s. Each part is timed with the CPU clock
(``time.process_time_ns`` around each call; on a shared machine the wall clock counts other
processes' time) over ``--worlds`` new worlds after 30 warm-up worlds (every kernel loaded),
and the least and the median are reported: the least is what the code costs, the load of a
shared machine only ever adds to it.

``--pair OTHER_SRC`` runs this script ``--runs`` times on each tree (this one's ``src`` and
``OTHER_SRC``, e.g. main's checkout), alternating processes so that both see the same load,
and prints both trees' least times side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OWN_SRC = os.path.join(os.path.dirname(HERE), "src")
DT = 1.0 / 50.0
PARTS = ("World()", "static body", "10 segments", "lander body", "lander polygon", "leg body",
         "leg box", "revolute joint", "first step", "second step", "third step")
MOON = [(k * 2.0 - 10.0, 0.3 * (k % 3)) for k in range(11)]
HULL = [(-0.5, 0.0), (0.5, 0.0), (0.4, 0.4), (-0.4, 0.4), (-0.3, 0.5), (0.3, 0.5)]


def one_world(times: dict) -> None:
    """Build and step one world, adding each part's CPU nanoseconds to ``times``."""
    import impulse2d
    clock = time.process_time_ns

    def timed(part, fn, *args, **kwargs):
        t = clock()
        out = fn(*args, **kwargs)
        times[part].append(clock() - t)
        return out

    world = timed("World()", impulse2d.World, gravity=(0.0, -10.0))
    moon = timed("static body", world.create_body, "static")
    t = clock()
    for a, b in zip(MOON, MOON[1:]):
        moon.create_segment(a, b, friction=0.1)
    times["10 segments"].append(clock() - t)
    lander = timed("lander body", world.create_body, "dynamic", position=(0.0, 8.0))
    timed("lander polygon", lander.create_polygon, HULL, density=5.0, friction=0.1)
    for side in (-1.0, 1.0):
        leg = timed("leg body", world.create_body, "dynamic", position=(0.6 * side, 7.6),
                    angle=0.05 * side)
        timed("leg box", leg.create_box, 0.1, 0.3, density=1.0, friction=0.1)
        timed("revolute joint", world.create_revolute_joint, lander, leg,
              (0.4 * side, 7.9), enable_limit=True, lower_angle=-0.4, upper_angle=0.4,
              enable_motor=True, max_motor_torque=40.0, motor_speed=0.3 * side)
    timed("first step", world.step, DT)
    timed("second step", world.step, DT)
    timed("third step", world.step, DT)


def measure(worlds: int) -> dict:
    """``{part: (least us, median us)}`` over ``worlds`` new worlds (legs and joints: each)."""
    times = {part: [] for part in PARTS}
    for _ in range(30):
        one_world(times)
    times = {part: [] for part in PARTS}
    for _ in range(worlds):
        one_world(times)
    out = {}
    for part, ns in times.items():
        ns.sort()
        out[part] = (ns[0] / 1e3, ns[len(ns) // 2] / 1e3)
    return out


def pair(other: str, runs: int, worlds: int) -> dict:
    """Alternate processes of this script on this tree and on ``other``; least per part."""
    trees = {"this": OWN_SRC, "other": os.path.abspath(other)}
    best: dict = {name: {} for name in trees}
    for k in range(runs):
        for name in (list(trees) if k % 2 == 0 else list(trees)[::-1]):
            env = dict(os.environ, PYTHONPATH=trees[name])
            out = subprocess.run([sys.executable, __file__, "--worlds", str(worlds),
                                  "--print-json"], env=env, capture_output=True, text=True,
                                 check=True).stdout
            result = json.loads(out.strip().splitlines()[-1])
            for part, (least, _median) in result.items():
                best[name][part] = min(best[name].get(part, least), least)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, default=300, help="new worlds timed")
    parser.add_argument("--pair", metavar="OTHER_SRC", help="another tree's src to pair with")
    parser.add_argument("--runs", type=int, default=3, help="processes per tree with --pair")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--print-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pair:
        best = pair(args.pair, args.runs, args.worlds)
        print(f"{'part (least CPU us)':22s} {'this tree':>10s} {'other':>10s}")
        for part in PARTS:
            print(f"{part:22s} {best['this'][part]:10.1f} {best['other'][part]:10.1f}")
        result = best
    else:
        if OWN_SRC not in sys.path and not os.environ.get("PYTHONPATH"):
            sys.path.insert(0, OWN_SRC)
        result = measure(args.worlds)
        if args.print_json:
            print(json.dumps(result))
            return
        print(f"{'part (CPU us)':22s} {'least':>8s} {'median':>8s}")
        for part, (least, median) in result.items():
            print(f"{part:22s} {least:8.1f} {median:8.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
