"""Our narrowphase against Box2D v3's per-step stages (pyb2d3), per touching pair, on the big
scenes, in one process, by thread CPU time.

    PYTHONPATH=src python benchmarks/narrow_vs_box2d.py --stores /tmp/stores [--out results.json]

pyb2d3 0.11 binds ``b2Profile`` but no ``b2World_GetProfile`` (its module has no function that
returns a profile, and the library's symbols are stripped), so Box2D's collide stage is not
read directly. What is measured instead: Box2D's step at 1, 2, 4 and 8 substeps, interleaved
step by step on the loaded scene (built as ``run.py`` builds it, stepped to the dumped state's
step count at 4 substeps first), and the least-squares line through the median thread CPU time
of each count. Its intercept is the part of a step that does not repeat per substep: collide
(the pair update and the narrowphase, ``b2Collide``) plus the contact prepare, restitution,
the impulses' store, the finalize, the continuous stage and the islands; an upper bound of
Box2D's collide. Ours is the narrowphase alone (``update_manifolds`` on the stores that
``benchmarks/narrow_kernel.py --dump`` saved, best of ``--reps``, every contact row visited as
a step visits them). Both per touching pair (our store's count of rows with points; Box2D's
scenes are the same bodies).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SETTLED = {"pyramid_100": 60, "rain_2000": 300, "many_pyramids": 60}
SUBSTEPS = (1, 2, 4, 8)
DT = 1.0 / 60.0


def box2d_intercept(scene: str, rounds: int) -> dict:
    """Box2D's step time against its substep count on the loaded scene: the line's intercept
    and slope, us."""
    sys.path.insert(0, str(HERE))
    import run
    from engines import make_engine

    builder, params = run.SCENES[scene][:2]
    engine = make_engine("pyb2d3", {})
    engine.build(builder, **params)
    step = engine.world.step
    for _ in range(SETTLED[scene]):
        step(DT, 4)
    times = {n: [] for n in SUBSTEPS}
    for _ in range(rounds):
        for n in SUBSTEPS:
            t = time.thread_time()
            step(DT, n)
            times[n].append(time.thread_time() - t)
    med = np.array([statistics.median(times[n]) for n in SUBSTEPS]) * 1e6
    slope, intercept = np.polyfit(np.array(SUBSTEPS, float), med, 1)
    return {"box2d_step_us": {str(n): round(float(m), 1) for n, m in zip(SUBSTEPS, med)},
            "box2d_per_substep_us": round(float(slope), 1),
            "box2d_per_step_us": round(float(intercept), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", type=Path, default=Path("/tmp/narrow_stores"))
    parser.add_argument("--scenes", default=",".join(SETTLED))
    parser.add_argument("--rounds", type=int, default=40, help="steps per substep count")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from narrow_kernel import one_run

    rows = []
    for scene in args.scenes.split(","):
        ours = one_run(args.stores, scene, args.reps)
        box2d = box2d_intercept(scene, args.rounds)
        row = {"scene": scene, "rows": ours["rows"], "touching": ours["touching"],
               "ours_narrowphase_us": round(ours["us"], 1),
               "ours_ns_touching": round(ours["ns_touching"], 1), **box2d,
               "box2d_per_step_ns_touching": round(box2d["box2d_per_step_us"] * 1e3
                                                   / ours["touching"], 1),
               "load": round(os.getloadavg()[0], 1)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"what": __doc__.split("\n\n")[2].replace("\n", " "),
                                        "scenes": rows}, indent=1))


if __name__ == "__main__":
    main()
