"""The native vector environments' step alone, for paired A/B runs between checkouts.

    PYTHONPATH=src python benchmarks/envs_steps.py walker|lander [num_envs] [steps] [threads]

``benchmarks/envs_bench.py`` measures Box2D 2.3 beside the native environment (minutes per
run); this measures only the native one, so that two checkouts can be run alternately several
times on a loaded machine (``PYTHONPATH`` at each checkout's ``src``). One process: make
``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` with ``num_envs``
environments (default 1,024), reset with seed 0, take 20 steps (kernels loaded, episodes under
way), then time ``steps`` steps of seeded uniform random actions (resets included, as they
come). Prints one JSON line: wall and process CPU time per environment step (us), the episodes
ended and a hash of every observation, reward and flag (equal between checkouts when both
play the same episodes) and the load average.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time

ENV_IDS = {"walker": "impulse2d/BipedalWalker-v3", "lander": "impulse2d/LunarLander-v3"}


def main(argv=None) -> dict:
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    argv = sys.argv[1:] if argv is None else argv
    env = argv[0]
    n = int(argv[1]) if len(argv) > 1 else 1024
    steps = int(argv[2]) if len(argv) > 2 else 50
    threads = int(argv[3]) if len(argv) > 3 else 2
    envs = gym.make_vec(ENV_IDS[env], num_envs=n, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = threads
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(steps + 20)]
    for k in range(20):
        envs.step(actions[k])
    ended = 0
    seen = []
    t, c = time.perf_counter(), time.process_time()
    for k in range(steps):
        obs, reward, terminated, truncated, _ = envs.step(actions[20 + k])
        ended += int((terminated | truncated).sum())
        seen.append((obs, reward, terminated, truncated))
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    digest = hashlib.sha256()
    for arrays in seen:
        for a in arrays:
            digest.update(a.tobytes())
    out = {"env": env, "num_envs": n, "steps": steps, "threads": threads,
           "wall_us": round(wall / (n * steps) * 1e6, 2),
           "cpu_us": round(cpu / (n * steps) * 1e6, 2), "ended": ended,
           "hash": digest.hexdigest()[:16],
           "load": round(os.getloadavg()[0], 1)}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
