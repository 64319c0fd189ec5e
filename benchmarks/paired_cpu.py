"""Paired A/B of two source trees on one ``run.py`` scene, by per-step thread CPU time: for a
machine too loaded for wall-clock means (a step preempted for one time slice weighs more than
hundreds of steps).

    python benchmarks/paired_cpu.py --a /path/to/main/src --b src --scenes pyramid_20 --rounds 8 \
        [--precision float32] [--out FILE]

Each round runs the scene once per tree, each in a fresh process (alternating which goes
first), and records the median and mean of the per-step thread CPU time (steps 2..N) and the
state hash after the run. Prints, per scene, the best and median round of each tree and the
ratios b / a of those, the median of the rounds' own ratios, and each tree's state hashes
(``--out``: the same JSON lines to a file). ``--precision float32``: the worlds in
``WorldSettings(solver_precision="float32")`` (the float32 lanes). The scenes are built as
``run.py`` builds them (sleeping off for the all-awake scenes; ``many_pyramids_one_awake``
settled to one awake body first, untimed); a scene ``run.py`` does not name is
:mod:`impulse2d.scenes`' own with its default parameters (sleeping off, 300 steps), such as
``chain_terrain``, the scene of chain segments. Numbers of the awake sets (issue 31 item 3) and of
the float32 lanes (issue 31 item 2) in BENCHMARKS.md.
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
STEPS = {"pyramid_20": 300, "pyramid_100": 60, "rain_2000": 200, "many_pyramids": 60,
         "many_pyramids_one_awake": 300, "chain_100": 300, "joint_grid": 60,
         "restitution": 600, "friction_ramp": 600}


def one_run(scene: str, steps: int, precision: str = "float64",
            solver: str = "soft_step") -> dict:
    """Build ``scene`` in this process (the impulse2d on sys.path), its contact passes in
    ``precision``, stepped by ``solver``, and time ``steps`` steps."""
    sys.path.insert(0, str(HERE))
    import impulse2d
    import run
    from engines import build_scene

    builder, params = run.SCENES[scene][:2] if scene in run.SCENES else (scene, {})
    world = impulse2d.World(gravity=(0, -10))
    world.settings.solver = solver
    if precision != "float64":  # (a tree from before the setting still runs float64 scenes)
        world.settings.solver_precision = precision
    if scene in run.SLEEPING_SCENES:
        builder(world, **params)
        for k in range(run.SETTLE_MAX_STEPS):
            world.step(1 / 60)
            b = world._bodies
            if (k % run.SETTLE_CHECK_EVERY == 0 and int(((b.type == 2) & b.alive & ~b.asleep).sum())
                    <= run.SLEEPING_SCENES[scene]):
                break
    else:
        world.settings.enable_sleep = False
        build_scene(world, builder, **params)
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
    cpu = cpu[1:]
    return {"cpu_median_us": statistics.median(cpu) * 1e6, "cpu_mean_us": statistics.mean(cpu) * 1e6,
            "hash": world.state_hash()[:16]}


def alternate(script: str, trees: dict, scene: str, arg, rounds: int, extra=()):
    """``rounds`` pairs of fresh processes of ``script --one scene arg`` (and the arguments
    ``extra``), one per tree of ``trees`` (``{"a": path, "b": path}``, put first on
    ``PYTHONPATH``), the order swapped every round: each run's JSON line by tree, and the load
    average after each run."""
    runs = {"a": [], "b": []}
    loads = []
    for r in range(rounds):
        for who in ("a", "b") if r % 2 == 0 else ("b", "a"):
            env = dict(os.environ, PYTHONPATH=trees[who])
            out = subprocess.run([sys.executable, script, "--a", "-", "--b", "-", "--one", scene,
                                  str(arg), *extra], env=env, capture_output=True, text=True)
            lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
            if not lines:
                sys.exit(f"{scene} ({who}) failed:\n{out.stderr[-2000:]}")
            runs[who].append(json.loads(lines[-1]))
            loads.append(os.getloadavg()[0])
    return runs, loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="source tree A (the directory holding impulse2d)")
    parser.add_argument("--b", required=True, help="source tree B")
    parser.add_argument("--scenes", default="many_pyramids_one_awake,pyramid_20,rain_2000,pyramid_100")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--precision", choices=("float64", "float32"), default="float64",
                        help="WorldSettings.solver_precision of every world")
    parser.add_argument("--solver", default="soft_step",
                        help="WorldSettings.solver of every world")
    parser.add_argument("--out", help="also write the JSON lines to this file")
    parser.add_argument("--one", nargs=2, metavar=("SCENE", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one[0], int(args.one[1]), args.precision, args.solver)))
        return
    trees = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    rows = []
    for scene in args.scenes.split(","):
        runs, loads = alternate(__file__, trees, scene, STEPS.get(scene, 300), args.rounds,
                                ("--precision", args.precision, "--solver", args.solver))
        row = {"scene": scene, "precision": args.precision, "solver": args.solver,
               "rounds": args.rounds,
               "load": round(statistics.mean(loads), 1),
               "same_hash": len({x["hash"] for x in runs["a"] + runs["b"]}) == 1,
               "hashes": {who: sorted({x["hash"] for x in runs[who]}) for who in runs}}
        for who in ("a", "b"):
            for key in ("cpu_median_us", "cpu_mean_us"):
                values = [x[key] for x in runs[who]]
                row[f"{who}_{key}"] = [round(min(values), 1), round(statistics.median(values), 1)]
        for key in ("cpu_median_us", "cpu_mean_us"):
            row[f"b/a_{key}"] = [round(row[f"b_{key}"][k] / row[f"a_{key}"][k], 3) for k in (0, 1)]
        pairs = [b["cpu_median_us"] / a["cpu_median_us"] for a, b in zip(runs["a"], runs["b"])]
        row["b/a_pairs"] = [round(x, 3) for x in pairs]
        row["b/a_pairs_median"] = round(statistics.median(pairs), 3)
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(row) + "\n" for row in rows))


if __name__ == "__main__":
    main()
