"""The big scenes' contact step in impulse2d and in Box2D v3 (pyb2d3), stage by stage, in one
process.

    PYTHONPATH=src python benchmarks/lanes_vs_box2d.py [--reps 15] [--scenes pyramid_100]
        [--out benchmarks/results/lanes_vs_box2d.json]

Both engines step the same scene (:mod:`engines` replays impulse2d's builder into pyb2d3) the
same settling steps, sleeping off, on one thread, 60 Hz, **4 substeps, one relax pass a
substep**: Box2D v3's ``b2World_Step(dt, 4)`` runs once a step its pair update, its collide
(every touching contact's manifold), the contacts' and joints' prepare, restitution, the
impulses' store and the bodies' finalize, and 4 times integrate velocities, warm start, solve
(biased), integrate positions, relax; impulse2d's ``soft_step`` is the same structure
(narrowphase, colouring, prepare into the lanes, 4 x (integrate v, warm start, biased pass,
integrate x, relax pass), restitution and the impulses' copy back).

Box2D v3 keeps a per-stage profile (``b2World_GetProfile``), but pyb2d3 0.11 does not bind
it (its ``Profile`` class has no getter on the world, and its extension module is stripped:
no symbol to reach by ``ctypes``); nor can its collide be run alone (``step(0, n)`` returns
before the pair update: 1-6 us measured). So Box2D's step is cut from outside, by thread CPU
of whole ``World.step`` calls at n = 1, 2, 4, 8 substeps, interleaved, the minimum of each
over the repetitions, fitted by least squares to ``once + n * per_substep``: **per substep**
is integrate velocities, warm start, solve, integrate positions and relax (and the solver's
per-substep stage barriers); **once a step** is the rest: pairs, collide, the contacts' and
joints' prepare, restitution, the impulses' store, the bodies' finalize, the broadphase's
enlarged boxes, the islands. The contacts barely change with n on a loaded scene.

impulse2d's stages are :mod:`contact_stages`'s (each verb alone on copies of the world's stores,
the minimum of ``--reps``); its whole step is measured like Box2D's (``world.step`` at n = 1,
2, 4, 8 substeps, the same fit) so that both columns of the fit compare like with like. The
verbs' sum misses the step's own overheads (the pair update, the stores' rebuild, the
finalize): the fit's ``once`` minus the narrowphase, colour, prepare and restitution says how
much. Writes a JSON record of everything printed to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import numpy as np

from contact_stages import COLUMNS, loaded_world, stage_times, substep_total
from engines import DT, make_engine
from wide_solver import SCENES

SUBSTEP_COUNTS = (1, 2, 4, 8)


def fit(times):
    """Least squares of ``once + n * per_substep`` through {n: us}; (once, per_substep, the
    largest residual's share of the step at 4)."""
    n = np.array(list(times), float)
    t = np.array(list(times.values()))
    slope, once = np.polyfit(n, t, 1)
    residual = np.abs(t - (once + slope * n)).max()
    return float(once), float(slope), float(residual / (once + 4 * slope))


def box2d_times(scene, params, steps, reps):
    """pyb2d3's steps at each substep count, us of thread CPU, minimum of ``reps`` interleaved
    rounds after the settling ``steps``."""
    engine = make_engine("pyb2d3")
    engine.build(scene, **params)
    for _ in range(steps):
        engine.step()
    world = engine.world
    best = dict.fromkeys(SUBSTEP_COUNTS, np.inf)
    for _ in range(reps):
        for n in SUBSTEP_COUNTS:
            t = time.thread_time()
            world.step(DT, n)
            best[n] = min(best[n], time.thread_time() - t)
    return {k: v * 1e6 for k, v in best.items()}


def impulse2d_steps(world, reps):
    """impulse2d's whole step at each substep count, us of thread CPU, minimum of ``reps``
    interleaved rounds (one untimed round first: the compile of each count's kernels is the
    same, but the first step after a change of count refreshes the settings)."""
    best = dict.fromkeys(SUBSTEP_COUNTS, np.inf)
    for rep in range(reps + 1):
        for n in SUBSTEP_COUNTS:
            world.settings.substeps = n
            t = time.thread_time()
            world.step(DT)
            if rep > 0:
                best[n] = min(best[n], time.thread_time() - t)
    world.settings.substeps = 4
    return {k: v * 1e6 for k, v in best.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--scenes", default="pyramid_100,rain_2000,many_pyramids")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    record = {"machine": platform.processor() or platform.machine(), "reps": args.reps,
              "step": "60 Hz, 4 substeps, 1 relax pass a substep, 1 thread, sleeping off",
              "unit": "us of thread CPU, minimum over the repetitions", "scenes": {}}
    for key, scene, params, steps in SCENES:
        if key not in args.scenes.split(","):
            continue
        world = loaded_world(scene, params, steps)
        us, rows = stage_times(world, args.reps)
        own = impulse2d_steps(world, args.reps)
        theirs = box2d_times(scene, params, steps, args.reps)
        i_once, i_sub, i_res = fit(own)
        b_once, b_sub, b_res = fit(theirs)
        once_verbs = us["narrowphase"] + us["colour"] + us["prepare"] + us["restitution+copy"]
        sub_verbs = (us["warm"] + us["solve"] + us["relax"] + us["integrate v"]
                     + us["integrate x"])
        rows_out = [
            ("once a step (fit)", i_once, b_once),
            ("  narrowphase", us["narrowphase"], None),
            ("  colour", us["colour"], None),
            ("  prepare", us["prepare"], None),
            ("  restitution + impulses' copy", us["restitution+copy"], None),
            ("  the step's own rest (pairs, stores, finalize)", i_once - once_verbs, None),
            ("per substep (fit)", i_sub, b_sub),
            ("  warm start", us["warm"], None),
            ("  biased pass", us["solve"], None),
            ("  relax pass", us["relax"], None),
            ("  integrate v + x", us["integrate v"] + us["integrate x"], None),
            ("  the substep's own rest", i_sub - sub_verbs, None),
            ("step at 4 substeps (measured)", own[4], theirs[4]),
            ("step at 4 substeps (fit)", i_once + 4 * i_sub, b_once + 4 * b_sub),
            ("step at 4 substeps (impulse2d's verbs' sum)", substep_total(us), None),
        ]
        print(f"\n{key}: {rows} constraint rows; fit residual at most {100 * i_res:.1f} % "
              f"(impulse2d), {100 * b_res:.1f} % (Box2D) of the step")
        print("| stage | impulse2d us | Box2D v3 us | ratio |")
        print("|---|---|---|---|")
        for name, ours, box in rows_out:
            ratio = f"{ours / box:.2f}" if box else ""
            box_s = f"{box:.0f}" if box is not None else ""
            print(f"| {name} | {ours:.0f} | {box_s} | {ratio} |")
        print("steps at n substeps, us: impulse2d "
              + ", ".join(f"{n}: {own[n]:.0f}" for n in SUBSTEP_COUNTS) + "; Box2D "
              + ", ".join(f"{n}: {theirs[n]:.0f}" for n in SUBSTEP_COUNTS), flush=True)
        record["scenes"][key] = {
            "rows": rows, "impulse2d_verbs": {c: us[c] for c in COLUMNS},
            "impulse2d_steps": own, "box2d_steps": theirs,
            "impulse2d_fit": {"once": i_once, "per_substep": i_sub, "max_residual": i_res},
            "box2d_fit": {"once": b_once, "per_substep": b_sub, "max_residual": b_res},
            "table": [{"stage": n, "impulse2d": o, "box2d": b} for n, o, b in rows_out]}
    if args.out:
        Path(args.out).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
