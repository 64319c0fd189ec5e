"""State hashes of the big contact scenes in float32 (``WorldSettings(solver_precision=
"float32")``) at 1 and 2 threads: a change to the float32 contact passes must leave them as they
were (run this in two trees, compare the lines; ``wide_hashes.py`` does the same for float64).

    PYTHONPATH=src python benchmarks/lanes_f32_hashes.py [--threads 1,2] [--json out.json]

Each scene is built as ``run.py`` builds it (sleeping off) and stepped ``wide_hashes.STEPS``
times at 1/60 s (4 substeps, the default), under ``soft_step`` and ``soft_step_v31`` (the
solvers the setting applies to); a line gives the full :func:`~impulse2d.snapshot.state_hash`
and the motion-only one. A ``pyramid_20`` with the diagnostics on is added (the passes' rows
read between the passes).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", default="pyramid_20,pyramid_100,rain_2000,many_pyramids")
    ap.add_argument("--solvers", default="soft_step,soft_step_v31")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--json")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    import impulse2d
    import run
    from engines import build_scene
    from wide_hashes import STEPS

    out = {}
    cases = [(scene, solver, int(t), False) for scene in args.scenes.split(",")
             for solver in args.solvers.split(",") for t in args.threads.split(",")]
    cases += [("pyramid_20", "soft_step", int(t), True) for t in args.threads.split(",")]
    for scene, solver, threads, diagnostics in cases:
        builder, params = run.SCENES[scene][:2]
        world = impulse2d.World(gravity=(0, -10), solver_precision="float32")
        world.settings.enable_sleep = False
        world.settings.solver = solver
        world.settings.threads = threads
        world.settings.diagnostics = diagnostics
        build_scene(world, builder, **params)
        for _ in range(STEPS[scene]):
            world.step(1 / 60)
        key = f"{scene} {solver} threads={threads}" + (" diagnostics" if diagnostics else "")
        out[key] = [world.state_hash(), world.state_hash(motion_only=True)]
        print(f"{key} {out[key][0]} motion {out[key][1]}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
