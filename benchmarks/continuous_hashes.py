"""Hashes of the bodies' motion after N steps of scenes that run the continuous stage, under
Box2D v3's rules and under Box2D 2.3's (``WorldSettings.continuous_box2d23``): for checking
that a change to the continuous stages leaves their results bit-identical (run in both trees,
compare).

    PYTHONPATH=src python benchmarks/continuous_hashes.py [--steps 200] [--json out.json]

``step_hashes.py`` has no fast body. The scenes: ``continuous.py``'s 500 bullets in a room of
planks (the bullets' general pass), ``rain`` of 500 circles falling into a box (fast
non-bullets: the kept pass over the static grid), ``chain_loop_kicks`` (a circle kicked at 20
m/s inside a chain loop: chain segments as obstacles); each line the motion hash of the final
state (``World.state_hash``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

SCENES = ("bullets", "rain", "chain_loop_kicks")
RULES = ("v3", "box2d23")
DT = 1.0 / 60.0


def scene_hash(name: str, rules: str, steps: int) -> str:
    import impulse2d
    from impulse2d.scenes import build_scene
    box2d23 = rules == "box2d23"
    info = None
    if name == "bullets":
        import continuous
        world = impulse2d.World(gravity=(0, 0), continuous_box2d23=box2d23)
        continuous.build_bullets_i2d(world)
    else:
        world = impulse2d.World(continuous_box2d23=box2d23)
        info = build_scene(world, name, **({"count": 500} if name == "rain" else {}))
    for k in range(steps):
        if info is not None and info.update is not None:
            info.update(world, k)
        world.step(DT)
    return world.state_hash()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--json", help="write the lines here")
    args = parser.parse_args()
    lines = {}
    for name in SCENES:
        for rules in RULES:
            key = f"{name}/{rules}"
            lines[key] = scene_hash(name, rules, args.steps)
            print(f"{key:28s} {lines[key]}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(lines, f, indent=1)


if __name__ == "__main__":
    main()
