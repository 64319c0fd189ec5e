"""Hashes of the bodies' motion after N steps of a few scenes, per solver: for checking that a
change to the step leaves trajectories bit-identical (run before and after, compare).

    PYTHONPATH=src python benchmarks/step_hashes.py [--steps 240] [--json out.json]

Scenes: pyramid (base 20), chain (100 links), ragdolls, car, gears, and a small lander
(:mod:`small_worlds`'s, motors into limits, landing on a ground); each under ``soft_step``,
``pgs`` and ``pgs_block``. Plus one LunarLander-v3 episode (heuristic pilot, seed 0) through
``impulse2d.compat.box2d``, hashed over its observations, when Gymnasium is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

SCENES = ("pyramid", "chain", "ragdolls", "car", "gears", "lander")
SOLVERS = ("soft_step", "pgs", "pgs_block")


def scene_hash(name: str, solver: str, steps: int) -> str:
    import impulse2d
    from impulse2d.scenes import build_scene, step_scene
    world = impulse2d.World(solver=solver)
    if name == "lander":
        from small_worlds import build_lander
        info = build_lander(world)
    else:
        info = build_scene(world, name)
    for i in range(steps):
        step_scene(world, info, i)
    return world.state_hash(motion_only=True)[:16]


def lander_episode_hash(seed: int = 0) -> str | None:
    import importlib.util
    if importlib.util.find_spec("gymnasium") is None:
        return None
    # install() before Gymnasium's Box2D module is imported: that import binds ``Box2D``, and
    # imported first it would bind pybox2d, and this would hash Box2D 2.3's episode
    from impulse2d.compat import box2d
    box2d.install()
    import gymnasium as gym
    from gymnasium.envs.box2d.lunar_lander import heuristic
    env = gym.make("LunarLander-v3")
    if type(env.unwrapped.world).__module__.split(".")[0] != "impulse2d":
        raise RuntimeError("LunarLander-v3 is not running on impulse2d.compat.box2d")
    obs, _ = env.reset(seed=seed)
    digest = hashlib.sha256(obs.tobytes())
    while True:
        obs, reward, terminated, truncated, _ = env.step(heuristic(env.unwrapped, obs))
        digest.update(obs.tobytes())
        if terminated or truncated:
            break
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=240)
    parser.add_argument("--json")
    args = parser.parse_args()
    out = {f"{name}/{solver}": scene_hash(name, solver, args.steps)
           for name in SCENES for solver in SOLVERS}
    out["LunarLander-v3/seed0"] = lander_episode_hash(0)
    for key, value in out.items():
        print(f"{key:24s} {value}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
