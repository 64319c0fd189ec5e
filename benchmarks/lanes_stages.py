"""The lanes' contact passes of two source trees, paired: each pass alone on one loaded world's
rows, in fresh processes that alternate between the trees (this machine's speed drifts by up
to 1.9x between processes and minutes: only a ratio within a round means anything).

    python benchmarks/lanes_stages.py --a /work/base/src --b src --scenes pyramid_100 --rounds 5

A process builds the scene as :mod:`contact_stages` does (sleeping off, stepped until loaded),
then times, on the same rows: the prepare into the lanes (once a step), one warm-start pass,
one biased and one relax pass over every row (each a soft step's substep runs once: 4 of each
a step), and the gather and scatter alone, with the gaps (the biased and relax passes') and
without (the warm start's); thread CPU (``time.thread_time``), the minimum of ``--reps``
repetitions, us. It compiles only these (:mod:`contact_stages`' kernels), not the
narrowphase. Printed per scene and pass: each tree's median over the rounds and the median of
the rounds' ratios b / a; ``--out`` writes every round. Both trees must call the passes as this tree's
:mod:`contact_stages` does: across session 12's change of their arguments and layout
(``lanes37``), :mod:`lanes_bytes_ab` compares them in one process.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PASSES = ("prepare", "warm", "biased", "relax", "gather+scatter", "gather(gaps)+scatter")


def one_run(scene: str, reps: int) -> dict:
    """The passes' minimum CPU times (us) on ``scene``, in this process (the impulse2d on
    sys.path)."""
    sys.path.insert(0, str(HERE))
    import impulse2d
    from impulse2d.scenes import build_scene, step_scene
    from impulse2d._dynamics.world_ref import sync_constraints
    from contact_stages import _moves, _pass, _prepare
    from wide_solver import SCENES, _copy

    _, name, params, steps = next(s for s in SCENES if s[0] == scene)
    world = impulse2d.World(enable_sleep=False)
    info = build_scene(world, name, **params)
    for i in range(steps):
        step_scene(world, info, i)
    sync_constraints(world)
    cs0, bodies0, contacts0 = world._constraints, world._bodies, world._contacts
    order = cs0.contact.copy()
    best = dict.fromkeys(PASSES, float("inf"))
    for _ in range(reps + 1):  # the first repetition compiles
        cs, bodies = _copy(cs0), _copy(bodies0)
        for key, call in (("prepare", lambda: _prepare(cs, order, contacts0, bodies)),
                          ("warm", lambda: _pass(cs, bodies, 0)),
                          ("biased", lambda: _pass(cs, bodies, 1)),
                          ("relax", lambda: _pass(cs, bodies, 2)),
                          ("gather+scatter", lambda: _moves(cs, bodies, False)),
                          ("gather(gaps)+scatter", lambda: _moves(cs, bodies, True))):
            t = time.thread_time()
            call()
            best[key] = min(best[key], (time.thread_time() - t) * 1e6)
    return {"rows": int(cs0.count.shape[0]), "us": best}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", help="source tree A (its src directory)")
    ap.add_argument("--b", help="source tree B")
    ap.add_argument("--scenes", default="pyramid_100")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--python", default=sys.executable, help="interpreter for both trees")
    ap.add_argument("--out")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # child process: one scene
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one, args.reps)))
        return
    trees = {"a": str(Path(args.a).resolve()), "b": str(Path(args.b).resolve())}
    rounds: dict = {}
    for scene in args.scenes.split(","):
        rounds[scene] = []
        for k in range(args.rounds):
            order = ("a", "b") if k % 2 == 0 else ("b", "a")
            result = {}
            for tree in order:
                env = dict(os.environ, PYTHONPATH=trees[tree])
                out = subprocess.run([args.python, __file__, "--one", scene, "--reps",
                                      str(args.reps)], env=env, check=True, capture_output=True,
                                     text=True).stdout
                result[tree] = json.loads(out.strip().splitlines()[-1])
            result["load"] = os.getloadavg()[0]
            result["at"] = time.strftime("%H:%M:%S")
            rounds[scene].append(result)
            print(scene, k, {t: {p: round(v) for p, v in result[t]["us"].items()}
                             for t in ("a", "b")}, f"load {result['load']:.1f}", flush=True)
        print(f"| {scene} | a us (median) | b us (median) | b / a (median of rounds) |")
        print("|---|---|---|---|")
        for p in PASSES:
            a = statistics.median(r["a"]["us"][p] for r in rounds[scene])
            b = statistics.median(r["b"]["us"][p] for r in rounds[scene])
            ratio = statistics.median(r["b"]["us"][p] / r["a"]["us"][p] for r in rounds[scene])
            print(f"| {p} | {a:.0f} | {b:.0f} | {ratio:.3f} |")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"trees": trees, "reps": args.reps, "rounds": rounds}, f, indent=1)


if __name__ == "__main__":
    main()
