"""The solve stage of small ``pgs_block`` worlds (Gymnasium's LunarLander and BipedalWalker on
``impulse2d.compat.box2d``: one engine step of 180 velocity and up to 60 position sweeps per
env step), per env step, old code beside new.

    PYTHONPATH=src python benchmarks/sweeps.py --base /tmp/base/src [--rounds 5] [--json F]

(``/tmp/base``: e.g. ``git archive main src | tar -x -C /tmp/base``, with a copy of
``src/impulse2d/_kernels`` if its kernels are to load rather than compile.)

Each round runs one process per code tree (``--base``'s ``src`` and this checkout's), in
alternating order; a process plays LunarLander-v3 (heuristic pilot, seeds 0-2) and
BipedalWalker-v3 (scripted gait, seed 0, until it falls or 500 steps) after a warm-up and
records, per env step, ``World.profile``'s ``solve`` and ``step`` (the engine's own clock).
Trajectories are the same in both trees (the change this measures is bit-identical), so the
figures compare step by step;
reported: each process's median over the env steps, then the median over the rounds, and the
observation hash of each game (equal in both trees, or the comparison is void). Each process
also times pyramid_20 (``impulse2d.scenes``) under ``pgs_block`` and ``soft_step``, 300 steps
(median of ``World.step``'s wall time and of the engine's clock), for the larger worlds' side of
the same change. Without ``--base`` it measures this checkout alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")


def _play(game: str, seeds, steps: int) -> dict:
    import gymnasium as gym
    if game == "lander":
        from gymnasium.envs.box2d.lunar_lander import heuristic
        env = gym.make("LunarLander-v3")
        pilot = None
    else:
        from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics
        env = gym.make("BipedalWalker-v3")
    solve, step = [], []
    digest = hashlib.sha256()
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        if game != "lander":
            pilot = BipedalWalkerHeuristics()
        for _ in range(steps):
            action = heuristic(env.unwrapped, obs) if game == "lander" else \
                pilot.step_heuristic(obs)
            obs, _, terminated, truncated, _ = env.step(action)
            digest.update(obs.tobytes())
            profile = env.unwrapped.world.engine.profile
            solve.append(profile.solve * 1e6)
            step.append(profile.step * 1e6)
            if terminated or truncated:
                break
    return {"steps": len(solve), "solve_us": statistics.median(solve),
            "solve_mean_us": sum(solve) / len(solve), "step_us": statistics.median(step),
            "hash": digest.hexdigest()[:16]}


def _pyramid(solver: str, steps: int = 300) -> dict:
    """pyramid_20 (impulse2d.scenes, kept awake) under ``solver``: the medians of
    ``World.step``'s wall time and of the engine's own clock (``profile.step``), per step,
    after 30 steps."""
    import impulse2d
    from impulse2d.scenes import build_scene
    world = impulse2d.World(solver=solver, enable_sleep=False)  # asleep it measures nothing
    build_scene(world, "pyramid", base=20)
    for _ in range(30):
        world.step(1 / 60)
    wall, kernel = [], []
    for _ in range(steps):
        t = time.perf_counter()
        world.step(1 / 60)
        wall.append((time.perf_counter() - t) * 1e6)
        kernel.append(world.profile.step * 1e6)
    return {"steps": steps, "call_us": statistics.median(wall),
            "kernel_us": statistics.median(kernel), "hash": world.state_hash(True)[:16]}


GAMES = ("lander", "walker", "pyramid_20/pgs_block", "pyramid_20/soft_step")


def child(games) -> None:
    from impulse2d.compat import box2d
    box2d.install()
    out = {}
    if "lander" in games:
        _play("lander", [0], 50)     # warm-up (compiles or loads the kernels)
        out["lander"] = _play("lander", [0, 1, 2], 1000)
    if "walker" in games:
        _play("walker", [0], 50)
        out["walker"] = _play("walker", [0], 500)
    for game in games:
        if game.startswith("pyramid_20/"):
            out[game] = _pyramid(game.split("/")[1])
    print(json.dumps(out))


def _run(src: str, games) -> dict:
    env = dict(os.environ, PYTHONPATH=src, IMPULSE2D_QUIET="1")
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--games",
                        ",".join(games)], env=env,
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="the src directory of the code to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--games", default=",".join(GAMES), help="of " + ", ".join(GAMES))
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    games = args.games.split(",")
    if args.child:
        child(games)
        return
    trees = {"new": SRC} if not args.base else {"base": args.base, "new": SRC}
    runs = {name: [] for name in trees}
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(trees)[::-1]
        for name in order:
            runs[name].append(_run(trees[name], games))
    report = {}
    for name, rs in runs.items():
        report[name] = {game: {key: (round(statistics.median(x[game][key] for x in rs), 2)
                                     if key != "hash" else sorted({x[game][key] for x in rs}))
                               for key in rs[0][game]} for game in games}
    print(json.dumps(report, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d"), "rounds": args.rounds, **report}, f,
                      indent=1)


if __name__ == "__main__":
    main()
