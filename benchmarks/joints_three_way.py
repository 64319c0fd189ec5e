"""Paired comparison of several source trees on the joints' step times (issue 32 item 3: the
row machinery must leave the joint worlds, ``joint_grid`` and the Gymnasium environments as
fast as the engine before it), by thread CPU time per step.

    python benchmarks/joints_three_way.py --trees base=/work/wt/pre_rows/src \\
        main=/work/main/src branch=src --rounds 6 --json benchmarks/results/joints_three_way.json

Cases (each run in a fresh process per tree and round, the trees' order rotated each round so
that every tree goes first as often as the others):

* the worlds of :mod:`joint_steps` (``walker``, ``revolute``, ``distance_rope``,
  ``distance_rigid``, ``prismatic``, ... : 100 joints of one type, soft step; the walker's
  world with its native settings, ``pgs_block``): 60 untimed steps, then ``--steps`` timed;
  the median CPU time of a step;
* ``revolute_pins``: :mod:`joint_steps`' ``revolute`` world with plain pins (no motor, no
  limit: ``revolute.solve_pins``, code the row machinery did not touch): the same bodies and
  the rest of the step, so that ``revolute`` against it tells the joints' rows from the rest;
* ``joint_grid``: :mod:`paired_cpu`'s scene (``run.py``'s, sleeping off), 60 steps; the
  median of steps 2..60;
* ``gym_walker`` and ``gym_lander``: Gymnasium's ``BipedalWalker-v3`` and ``LunarLander-v3``
  on the pybox2d layer (``impulse2d.compat.box2d.install()``: Box2D's iteration counts,
  180/60 sweeps a step), random actions (the action space seeded), 50 untimed environment
  steps, then ``--env-steps`` timed ones, resets inside the timed loop; the median CPU time of
  an environment step (Gymnasium's Python, the layer and the engine's step together).

Prints per case each tree's best round and median round (us) and the ratios of every tree to
the first (best-round ratio, median-round ratio, and the median of the per-round ratios), with
whether the state hashes agree (worlds only). The machine's load average is recorded.
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
GYM = {"gym_walker": "BipedalWalker-v3", "gym_lander": "LunarLander-v3"}
CASES = ("walker", "revolute", "revolute_pins", "distance_rope", "distance_rigid", "prismatic",
         "joint_grid", "gym_walker", "gym_lander")


def gym_run(name: str, steps: int) -> dict:
    """``steps`` random environment steps of ``name`` on the pybox2d layer, per-step CPU."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import impulse2d.compat.box2d as layer
    layer.install()
    import gymnasium as gym
    env = gym.make(name)
    env.action_space.seed(0)
    env.reset(seed=0)
    sample, step = env.action_space.sample, env.step
    for _ in range(50):  # kernels loaded, Gymnasium's modules warm
        _, _, terminated, truncated, _ = step(sample())
        if terminated or truncated:
            env.reset()
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        _, _, terminated, truncated, _ = step(sample())
        if terminated or truncated:
            env.reset()
        cpu.append(time.thread_time() - c)
    return {"us": statistics.median(cpu) * 1e6, "hash": ""}


def child(case: str, steps: int, env_steps: int) -> dict:
    sys.path.insert(0, str(HERE))
    if case in GYM:
        return gym_run(GYM[case], env_steps)
    if case == "joint_grid":
        import paired_cpu
        out = paired_cpu.one_run("joint_grid", paired_cpu.STEPS["joint_grid"])
        return {"us": out["cpu_median_us"], "hash": out["hash"]}
    import joint_steps
    if case == "revolute_pins":
        return pins_run(steps)
    return joint_steps.one_run(case, steps)


def pins_run(steps: int) -> dict:
    """:func:`joint_steps.one_run` of the ``revolute`` world's bodies on plain pins."""
    import impulse2d as i2d
    world = i2d.World(gravity=(0.0, -10.0), enable_sleep=False)
    ground = world.create_body(type="static")
    for i in range(100):
        b = world.create_body(position=(float(i) + 0.5, 0.0))
        b.create_circle(0.2, group=-1)
        world.create_revolute_joint(ground, b, (float(i), 0.0))
    for _ in range(60):
        world.step(1 / 60)
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
    return {"us": statistics.median(cpu) * 1e6, "hash": world.state_hash()[:16]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", default=[],
                        help="NAME=PATH of each source tree (the directory holding impulse2d); "
                             "the first is the reference of the ratios")
    parser.add_argument("--cases", nargs="+", default=list(CASES))
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--env-steps", type=int, default=1000)
    parser.add_argument("--json")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.steps, args.env_steps)))
        return
    trees = dict(t.split("=", 1) for t in args.trees)
    if len(trees) < 2:
        parser.error("--trees: at least two NAME=PATH")
    names = list(trees)
    runs = {case: {t: [] for t in names} for case in args.cases}
    hashes = {case: {t: set() for t in names} for case in args.cases}
    loads = [os.getloadavg()[0]]
    for k in range(args.rounds):
        order = names[k % len(names):] + names[:k % len(names)]
        for case in args.cases:
            for t in order:
                env = dict(os.environ, PYTHONPATH=os.path.abspath(trees[t]),
                           IMPULSE2D_QUIET="1")
                out = subprocess.run([sys.executable, __file__, "--steps", str(args.steps),
                                      "--env-steps", str(args.env_steps), "--child", case],
                                     env=env, capture_output=True, text=True)
                if out.returncode:
                    sys.exit(f"{case} on {t}: {out.stderr[-2000:]}")
                result = json.loads(out.stdout.strip().splitlines()[-1])
                runs[case][t].append(result["us"])
                hashes[case][t].add(result["hash"])
        loads.append(os.getloadavg()[0])
        print(f"round {k + 1}/{args.rounds} done, load {loads[-1]:.1f}", file=sys.stderr)
    ref = names[0]
    summary = {}
    for case in args.cases:
        r = runs[case]
        row = {}
        for t in names:
            per_round = [b / a for a, b in zip(r[ref], r[t])]
            row[t] = {"best_us": round(min(r[t]), 2), "median_us": round(statistics.median(r[t]), 2),
                      "best_ratio": round(min(r[t]) / min(r[ref]), 3),
                      "median_ratio": round(statistics.median(r[t]) / statistics.median(r[ref]), 3),
                      "paired_ratio": round(statistics.median(per_round), 3),
                      "rounds_us": [round(x, 2) for x in r[t]],
                      "same_hash_as_" + ref: hashes[case][t] == hashes[case][ref]}
        summary[case] = row
        cells = "  ".join(f"{t} {row[t]['best_us']:8.1f} [{row[t]['median_us']:8.1f}]"
                          for t in names)
        ratios = "  ".join(f"{t}/{ref} {row[t]['best_ratio']:.3f} [{row[t]['median_ratio']:.3f}, "
                           f"paired {row[t]['paired_ratio']:.3f}]" for t in names[1:])
        same = "" if case in GYM else "  hashes " + " ".join(
            f"{t}:{'=' if row[t]['same_hash_as_' + ref] else 'x'}" for t in names[1:])
        print(f"{case:15s} best [median] us: {cells}   {ratios}{same}")
    result = {"trees": trees, "rounds": args.rounds, "load": loads, "cases": summary}
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
