"""Hashes of Gymnasium's Box2D environments on the pybox2d layer, for checking that a change
leaves every trajectory bit-identical (run on two trees, compare the JSON).

    python benchmarks/layer_hashes.py SRC_ROOT out.json    # SRC_ROOT: a checkout (its src/)

Random actions (the action space seeded 0) with every reset inside the run (seeds 1001, 1002,
... after the first episode's 0): LunarLander-v3 discrete, continuous and windy, BipedalWalker-v3
normal and hardcore, CarRacing-v3; each hashed (SHA-256, first 16 hex digits) over its
observations and rewards, with its count of resets. And LunarLander's heuristic pilot, seeds
0-2: the hash, the episode's length and its score. Needs the ``gym`` extra (Gymnasium, pygame).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys


def _random_run(gym, np, env_id: str, steps: int, **options) -> list:
    env = gym.make(env_id, **options)
    env.action_space.seed(0)
    h = hashlib.sha256()
    obs, _ = env.reset(seed=0)
    h.update(np.asarray(obs).tobytes())
    resets = 0
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        h.update(np.asarray(obs).tobytes())
        h.update(np.float64(reward).tobytes())
        if terminated or truncated:
            resets += 1
            obs, _ = env.reset(seed=1000 + resets)
            h.update(np.asarray(obs).tobytes())
    env.close()
    return [h.hexdigest()[:16], resets]


def main() -> None:
    root, out = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.join(os.path.abspath(root), "src"))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import numpy as np
    import impulse2d.compat.box2d as b2compat
    b2compat.install()
    import gymnasium as gym
    from gymnasium.envs.box2d.lunar_lander import heuristic
    result = {
        "LunarLander-v3": _random_run(gym, np, "LunarLander-v3", 6000),
        "LunarLander-v3 continuous": _random_run(gym, np, "LunarLander-v3", 3000,
                                                 continuous=True),
        "LunarLander-v3 wind": _random_run(gym, np, "LunarLander-v3", 3000, enable_wind=True),
        "BipedalWalker-v3": _random_run(gym, np, "BipedalWalker-v3", 3000),
        "BipedalWalker-v3 hardcore": _random_run(gym, np, "BipedalWalker-v3", 3000,
                                                 hardcore=True),
        "CarRacing-v3": _random_run(gym, np, "CarRacing-v3", 300),
    }
    env = gym.make("LunarLander-v3")
    for seed in range(3):
        h = hashlib.sha256()
        obs, _ = env.reset(seed=seed)
        steps, total = 0, 0.0
        while True:
            obs, reward, terminated, truncated, _ = env.step(heuristic(env.unwrapped, obs))
            h.update(obs.tobytes())
            h.update(np.float64(reward).tobytes())
            steps += 1
            total += reward
            if terminated or truncated:
                break
        result[f"heuristic seed {seed}"] = [h.hexdigest()[:16], steps, round(float(total), 3)]
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
