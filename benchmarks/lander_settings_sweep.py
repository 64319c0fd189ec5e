"""The native LunarLander's task under other solver settings: Gymnasium's heuristic pilot over
seeds 0-99 (as ``tests/test_envs_lander.py``) for each combination of substeps, joint stiffness
and joint damping given, one JSON line each (issue 30: whether a cheaper step keeps the task).

    PYTHONPATH=src python benchmarks/lander_settings_sweep.py --substeps 4,5,6 \
        --joint-hertz 60,100 --joint-damping 2,5 [--seeds 100] [--json FILE]

Per line: the settings, the mean score, how many episodes ended at rest (+100), crashed (-100)
or were truncated (1,000 steps), and the steps the slowest episode took. The environment's own
settings (``lunar_lander.SETTINGS``: 8 substeps, 100 Hz, damping 5) give mean 241, 93 at rest,
7 crashes (2026-12-02); Box2D 2.3: 253, 95 / 4. The test asks a mean of 200 and 90 at rest.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def pilot_scores(settings: dict, seeds: int) -> dict:
    """The heuristic pilot's episodes of seeds ``0..seeds-1`` under ``settings``."""
    from gymnasium.envs.box2d.lunar_lander import heuristic
    from impulse2d.envs.lunar_lander import LunarLanderVectorEnv

    class _Env:  # (Gymnasium's heuristic reads env.unwrapped.continuous)
        continuous = False
        unwrapped = None
    env = _Env()
    env.unwrapped = env
    envs = LunarLanderVectorEnv(seeds, settings=settings, threads=1, max_episode_steps=1000)
    obs, _ = envs.reset(seed=list(range(seeds)))
    done = np.zeros(seeds, bool)
    total, last = np.zeros(seeds), np.zeros(seeds)
    truncated = np.zeros(seeds, bool)
    steps, t0 = 0, time.perf_counter()
    while not done.all():
        obs, r, term, trunc, _ = envs.step(np.array([heuristic(env, o) for o in obs]))
        total += np.where(done, 0.0, r)
        newly = (term | trunc) & ~done
        last[newly] = np.where(term[newly], r[newly], 0.0)
        truncated[newly] = trunc[newly]
        done |= term | trunc
        steps += 1
    return {"mean": round(float(total.mean()), 1), "rest": int((last == 100).sum()),
            "crash": int((last == -100).sum()), "truncated": int(truncated.sum()),
            "steps": steps, "seconds": round(time.perf_counter() - t0, 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--substeps", default="6,8")
    p.add_argument("--joint-hertz", default="100")
    p.add_argument("--joint-damping", default="5")
    p.add_argument("--seeds", type=int, default=100)
    p.add_argument("--json", help="also write the lines to this file")
    args = p.parse_args()
    lines = []
    for sub in map(int, args.substeps.split(",")):
        for hz in map(float, args.joint_hertz.split(",")):
            for damping in map(float, args.joint_damping.split(",")):
                settings = {"solver": "soft_step", "substeps": sub, "joint_hertz": hz,
                            "joint_damping_ratio": damping}
                line = {**settings, **pilot_scores(settings, args.seeds)}
                print(json.dumps(line), flush=True)
                lines.append(line)
    if args.json:
        with open(args.json, "w") as f:
            f.write("".join(json.dumps(line) + "\n" for line in lines))


if __name__ == "__main__":
    main()
