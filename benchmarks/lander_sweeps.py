"""Where the layer's LunarLander ``Step`` spends its solve, by what touches: in the air (the two
leg joints alone) and with the legs or the hull on the moon (contact rows, one- and two-point
manifolds), and how many position sweeps each step runs (issue 31 item 8).

    PYTHONPATH=src python benchmarks/lander_sweeps.py [--episodes 30] [--json F]

Random-action and heuristic-pilot episodes of Gymnasium's LunarLander-v3 on
``impulse2d.compat.box2d`` (``Step(1/50, 180, 60)``: ``pgs_block``). Per env step it reads the
engine's own clock (``World.profile``: ``solve`` and ``step``, so the layer's Python is out)
and the touching constraint rows; the steps are grouped by (constraint rows, manifold points)
and each group reports its count and the median solve and step in us. A second pass with
``diagnostics`` on (which slows the step, so it is not timed) counts the position sweeps run.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))


def _episodes(env, episodes: int, pilot: bool):
    """Yield the engine world after each env step of ``episodes`` episodes."""
    from gymnasium.envs.box2d.lunar_lander import heuristic
    env.action_space.seed(0)
    for k in range(episodes):
        obs, _ = env.reset(seed=k)
        while True:
            action = heuristic(env.unwrapped, obs) if pilot else env.action_space.sample()
            obs, _, terminated, truncated, _ = env.step(action)
            yield env.unwrapped.world.engine
            if terminated or truncated:
                break


def profile(episodes: int) -> dict:
    import gymnasium as gym
    from impulse2d._dynamics.world_ref import sync_constraints
    env = gym.make("LunarLander-v3")
    for _ in _episodes(env, 2, True):  # warm-up: kernels loaded
        pass
    out = {}
    for pilot in (False, True):
        groups = collections.defaultdict(lambda: ([], []))
        for world in _episodes(env, episodes, pilot):
            sync_constraints(world)
            counts = world._constraints.count  # the touching rows' manifold points
            key = (int(counts.shape[0]), int(counts.sum()))
            solve, step = groups[key]
            solve.append(world.profile.solve * 1e6)
            step.append(world.profile.step * 1e6)
        total = sum(len(s) for s, _ in groups.values())
        out["pilot" if pilot else "random"] = {
            f"{rows} rows, {points} points": {
                "share": round(len(solve) / total, 3),
                "solve_us": round(statistics.median(solve), 1),
                "step_us": round(statistics.median(step), 1)}
            for (rows, points), (solve, step) in sorted(groups.items())}
        out["pilot" if pilot else "random"]["mean solve_us"] = round(
            sum(sum(s) for s, _ in groups.values()) / total, 1)
        out["pilot" if pilot else "random"]["mean step_us"] = round(
            sum(sum(s) for _, s in groups.values()) / total, 1)
    passes = collections.Counter()
    for world in _episodes(env, max(episodes // 3, 1), False):
        if not world.settings.diagnostics:
            world.settings.diagnostics = True
            continue
        passes[world.solver_stats.position_iterations] += 1
    out["position sweeps run (random episodes)"] = dict(sorted(passes.items()))
    env.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=30)
    parser.add_argument("--json")
    args = parser.parse_args()
    from impulse2d.compat import box2d
    box2d.install()
    out = profile(args.episodes)
    print(json.dumps(out, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
