"""Observation and reward hashes of Gymnasium's Box2D environments on the pybox2d layer: for
checking that a change to the engine or the layer leaves their trajectories bit-identical (run
in both trees, compare the printed hashes).

    PYTHONPATH=src python benchmarks/gym_hashes.py [--steps 3000] [--json F]

Hashed: random-action episodes with every ``reset()`` inside (the action space seeded 0, the
first reset seeded 0) of LunarLander-v3 (discrete, continuous and windy), BipedalWalker-v3
(normal and hardcore) and CarRacing-v3 (a tenth of the steps: it renders every step), and
LunarLander's heuristic pilot on seeds 0-2 to the end of each episode. Each hash is over the
float64 bytes of every observation and reward, with the count of resets.
"""

from __future__ import annotations

import argparse
import hashlib
import json

GAMES = {
    "lander": ("LunarLander-v3", {}),
    "lander_continuous": ("LunarLander-v3", {"continuous": True}),
    "lander_windy": ("LunarLander-v3", {"enable_wind": True}),
    "walker": ("BipedalWalker-v3", {}),
    "walker_hardcore": ("BipedalWalker-v3", {"hardcore": True}),
    "car": ("CarRacing-v3", {}),
}


def random_hash(env_id: str, kwargs: dict, steps: int) -> dict:
    """``steps`` random actions, resets included: the digest and the number of resets."""
    import gymnasium as gym
    import numpy as np
    env = gym.make(env_id, **kwargs)
    env.action_space.seed(0)
    obs, _ = env.reset(seed=0)
    digest = hashlib.sha256(np.asarray(obs, dtype=np.float64).tobytes())
    resets = 0
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        digest.update(np.asarray(obs, dtype=np.float64).tobytes())
        digest.update(np.float64(reward).tobytes())
        if terminated or truncated:
            obs, _ = env.reset()
            resets += 1
            digest.update(np.asarray(obs, dtype=np.float64).tobytes())
    env.close()
    return {"hash": digest.hexdigest()[:16], "resets": resets}


def pilot_hash(seeds) -> dict:
    """LunarLander's heuristic pilot, each seed to the end of its episode."""
    import gymnasium as gym
    import numpy as np
    from gymnasium.envs.box2d.lunar_lander import heuristic
    env = gym.make("LunarLander-v3")
    digest = hashlib.sha256()
    total = 0.0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        while True:
            obs, reward, terminated, truncated, _ = env.step(heuristic(env.unwrapped, obs))
            digest.update(np.asarray(obs, dtype=np.float64).tobytes())
            digest.update(np.float64(reward).tobytes())
            total += reward
            if terminated or truncated:
                break
    env.close()
    return {"hash": digest.hexdigest()[:16], "score": round(float(total), 6)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--games", default=",".join(GAMES) + ",pilot")
    parser.add_argument("--json")
    args = parser.parse_args()
    from impulse2d.compat import box2d
    box2d.install()
    out = {}
    for game in args.games.split(","):
        if game == "pilot":
            out[game] = pilot_hash([0, 1, 2])
        else:
            env_id, kwargs = GAMES[game]
            steps = args.steps // 10 if game == "car" else args.steps
            out[game] = random_hash(env_id, kwargs, steps)
        print(game, out[game], flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
