"""State hashes of the big contact scenes under the solvers the wide contact solver serves, at
1 and 2 threads: the wide solver must leave them as the one-row-at-a-time solver gives them
(run this on main and on a branch, compare the lines).

    PYTHONPATH=src python benchmarks/wide_hashes.py [--threads 1,2] [--solvers soft_step,pgs]

Each scene is built as ``run.py`` builds it (sleeping off) and stepped ``STEPS`` times at
1/60 s; the line gives the full :func:`~impulse2d.snapshot.state_hash` and the motion-only one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
STEPS = {"pyramid_20": 120, "pyramid_100": 40, "rain_2000": 150, "many_pyramids": 40}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", default=",".join(STEPS))
    ap.add_argument("--solvers", default="soft_step,pgs")
    ap.add_argument("--threads", default="1")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    import impulse2d
    import run
    from engines import build_scene

    for scene in args.scenes.split(","):
        for solver in args.solvers.split(","):
            for threads in (int(t) for t in args.threads.split(",")):
                builder, params = run.SCENES[scene][:2]
                world = impulse2d.World(gravity=(0, -10))
                world.settings.enable_sleep = False
                world.settings.solver = solver
                world.settings.threads = threads
                build_scene(world, builder, **params)
                for _ in range(STEPS[scene]):
                    world.step(1 / 60)
                print(f"{scene} {solver} threads={threads} {world.state_hash()} "
                      f"motion {world.state_hash(motion_only=True)}", flush=True)


if __name__ == "__main__":
    main()
