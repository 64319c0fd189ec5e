"""Hashes of the bodies' motion after N steps of the scenes of ``step_hashes.py`` under the
``direct`` solver (both levels) and of ``pgs`` with the exact diagnostics on, with the direct
solver's counters and the exact measure: for checking that a change to the direct solver's
island solve leaves its answers bit-identical (run in both trees, compare).

    PYTHONPATH=src python benchmarks/direct_hashes.py [--steps 120] [--json out.json]

``step_hashes.py`` runs no ``direct`` world. Each line: the motion hash of the final state, then
for the direct solver the sum over the steps of ``World.direct_stats``' per-step counters
(islands, Lemke's pivots, regularised pivots) and its failures at the end; for the diagnostics
a hash of every step's ``solver_stats`` exact-solve figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

SCENES = {"pyramid": {"base": 6}, "chain": {"links": 40}, "ragdolls": {"count": 2}, "car": {},
          "gears": {}, "lander": None, "hub": None}
"""The scenes and their parameters (small enough for Lemke; ``direct_fallback="pgs"`` takes a
step whose island is above ``direct_max_rows``); ``hub``: one body with 40 pinned to it, a dense
block of equality rows (LAPACK's Cholesky, :mod:`impulse2d._dynamics.direct_dense`)."""
RUNS = ("direct/velocity", "direct/acceleration", "pgs/diagnostics")


def _hub(world):
    """A wheel of 40 boxes pinned to one hub on a ground, falling: the scenes' SceneInfo."""
    import math
    from impulse2d.scenes import SceneInfo
    world.create_body(type="static").create_box(20.0, 0.5, center=(0.0, -0.5))
    hub = world.create_body(position=(0.0, 3.0))
    hub.create_circle(0.5)
    for k in range(40):
        a = 2.0 * math.pi * k / 40
        x, y = 1.5 * math.cos(a), 3.0 + 1.5 * math.sin(a)
        spoke = world.create_body(position=(x, y))
        spoke.create_box(0.1, 0.1)
        world.create_revolute_joint(hub, spoke, (0.5 * math.cos(a), 3.0 + 0.5 * math.sin(a)))
    return SceneInfo()


def run_hash(name: str, run: str, steps: int) -> str:
    import impulse2d
    from impulse2d.scenes import build_scene, step_scene
    solver, mode = run.split("/")
    world = impulse2d.World(solver=solver)
    world.settings.direct_fallback = "pgs"
    if mode == "acceleration":
        world.settings.direct_level = "acceleration"
    if mode == "diagnostics":
        world.settings.diagnostics = "exact"
    if name == "lander":
        from small_worlds import build_lander
        info = build_lander(world)
    elif name == "hub":
        info = _hub(world)
    else:
        info = build_scene(world, name, **SCENES[name])
    counted = {"islands": 0, "lcp_pivots": 0, "regularised_pivots": 0}
    measured = hashlib.sha256()
    for i in range(steps):
        step_scene(world, info, i)
        if solver == "direct":
            stats = world.direct_stats
            for key in counted:
                counted[key] += stats[key]
        else:
            measured.update(repr(world.solver_stats).encode())
    line = world.state_hash(motion_only=True)[:16]
    if solver == "direct":
        stats = world.direct_stats
        return (f"{line} islands {counted['islands']} pivots {counted['lcp_pivots']} "
                f"regularised {counted['regularised_pivots']} failures {stats['lemke_failures']}"
                f" fallbacks {stats['fallback_steps']}")
    return f"{line} measured {measured.hexdigest()[:16]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--json")
    args = parser.parse_args()
    out = {f"{name}/{run}": run_hash(name, run, args.steps) for name in SCENES for run in RUNS}
    for key, value in out.items():
        print(f"{key:32s} {value}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
