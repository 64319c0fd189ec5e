"""Soak: thousands of random worlds and a long ragdoll-and-debris rain, counting what broke.

    python benchmarks/soak.py                    # 2,000 worlds per solver, an hour of rain
    python benchmarks/soak.py --worlds 5000 --rain-minutes 60 --jobs 16

*Random worlds* (:func:`impulse2d.scenes.fuzz.random_world`, every shape and joint type, sizes
from 1 cm to 50 m, densities from 0.01 to 1000, fast motion, kinematic bodies, far anchors)
stepped ``--steps`` times each, changed before one step in 20 (bodies and joints created and
destroyed, forces and impulses, settings, solver switches: :func:`~impulse2d.scenes.fuzz.perturb`)
and checked after every step (:func:`~impulse2d.scenes.fuzz.check_world`). *Rain*: the
``debris_rain`` scene (ragdolls and random debris falling into a pit, the oldest removed) for
``--rain-minutes`` of simulated time at 60 Hz, checked after every step, one process per solver.

Counts go to ``benchmarks/results/soak.json``: worlds, steps, and worlds with a NaN, a speed or
spin over the limit, or a non-finite reaction (each with its seed and step: a failing seed is a
regression test in one line, ``tests/test_fuzz.py``). Worlds run in ``--jobs`` processes.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


RESULTS = Path(__file__).resolve().parent / "results"
DT = 1.0 / 60.0


def _worlds(args) -> dict:
    """Fuzz worlds ``seeds`` with ``solver``: counts and the failures."""
    seeds, solver, steps = args
    from impulse2d.scenes import fuzz
    counts = collections.Counter()
    failures = []
    taken = 0
    for seed in seeds:
        n, breach = fuzz.run_world(seed, solver, steps, 0.05, DT)
        taken += n
        if breach is not None:
            counts[breach.kind] += 1
            failures.append({"seed": seed, "step": n - 1, "kind": breach.kind,
                             "detail": breach.detail})
    return {"worlds": len(seeds), "steps": taken, "counts": dict(counts), "failures": failures}


def _rain(args) -> dict:
    """The debris rain with ``solver`` for ``minutes`` of simulated time."""
    solver, minutes, seed = args
    import impulse2d as i2d
    from impulse2d.scenes import build_scene, fuzz, step_scene
    world = i2d.World(solver=solver)
    info = build_scene(world, "debris_rain", seed=seed)
    counts = collections.Counter()
    failures = []
    step = 0
    bodies = 0
    t0 = time.perf_counter()
    while step < round(minutes * 60.0 / DT):
        step_scene(world, info, step)
        breach = fuzz.check_world(world, DT)
        if breach is not None:   # note it and go on: later failures count too
            counts[breach.kind] += 1
            if len(failures) < 20:
                failures.append({"step": step, "kind": breach.kind, "detail": breach.detail})
        bodies = max(bodies, world.body_count)
        step += 1
    return {"solver": solver, "steps": step, "simulated_s": step * DT,
            "wall_s": time.perf_counter() - t0, "max_bodies": bodies,
            "joints_at_end": len(world.joints), "counts": dict(counts), "failures": failures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, default=2000, help="random worlds per solver")
    parser.add_argument("--steps", type=int, default=600, help="steps per random world")
    parser.add_argument("--rain-minutes", type=float, default=60.0,
                        help="simulated minutes of debris rain per solver (0: none)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--first-seed", type=int, default=100_000)
    args = parser.parse_args()

    t0 = time.perf_counter()
    report = {"machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
              "worlds": {}, "rain": []}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rain = [pool.submit(_rain, (solver, args.rain_minutes, 0))
                for solver in ("soft_step", "pgs") if args.rain_minutes > 0]
        for solver in ("soft_step", "pgs"):
            seeds = list(range(args.first_seed, args.first_seed + args.worlds))
            chunks = [(seeds[k::args.jobs], solver, args.steps) for k in range(args.jobs)]
            parts = list(pool.map(_worlds, chunks))
            total = {"worlds": sum(p["worlds"] for p in parts),
                     "steps": sum(p["steps"] for p in parts),
                     "counts": dict(sum((collections.Counter(p["counts"]) for p in parts),
                                        collections.Counter())),
                     "failures": [f for p in parts for f in p["failures"]]}
            report["worlds"][solver] = total
            print(f"{solver}: {total['worlds']} worlds, {total['steps']} steps, "
                  f"breaches {total['counts'] or 'none'}", flush=True)
        for future in rain:
            result = future.result()
            report["rain"].append(result)
            print(f"rain ({result['solver']}): {result['steps']} steps "
                  f"({result['simulated_s'] / 60:.1f} simulated min in "
                  f"{result['wall_s']:.0f} s), up to "
                  f"{result['max_bodies']} bodies, breaches {result['counts'] or 'none'}",
                  flush=True)
    report["wall_s"] = time.perf_counter() - t0
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "soak.json").write_text(json.dumps(report, indent=1))
    print(f"wrote {RESULTS / 'soak.json'} ({report['wall_s']:.0f} s)")


if __name__ == "__main__":
    main()
