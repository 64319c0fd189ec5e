"""The native BipedalWalker's continuous stage, by the step's cycle counter, and a hash of
its observations and rewards (the kept static grid of ``_dynamics/static_grid`` must leave
them bit for bit as they were).

    PYTHONPATH=src python benchmarks/ccd_static_grid.py [steps]

Runs 16 walkers (``BipedalWalkerVectorEnv``, flat and hardcore terrain) with seeded uniform
random actions for ``steps`` environment steps (default 300, after 50 unmeasured) and prints:
the process CPU time per world-step (the whole environment step: physics, lidar, NumPy), the
SHA-256 of every observation and reward, and from a second seeded run each world's stage
times read from its clock (``World._clock``, TSC ticks: the continuous stage's and the whole
step's, mean and median over world-steps). For an A/B, run it from two checkouts in turn.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

import numpy as np  # noqa: E402

from impulse2d.envs.bipedal_walker import BipedalWalkerVectorEnv  # noqa: E402

N_ENVS = 16
WARM = 50
CONTINUOUS, END = 5, 6  # the clock's readings before the continuous stage and at the end
                        # (impulse2d._dynamics.step.STAGES)


def main(steps: int) -> None:
    for hardcore in (False, True):
        env = BipedalWalkerVectorEnv(N_ENVS, hardcore=hardcore)
        actions = np.random.default_rng(7).uniform(-1, 1, (steps + WARM, N_ENVS, 4))
        obs, _ = env.reset(seed=3)
        digest = hashlib.sha256(obs.tobytes())
        for k in range(steps + WARM):
            if k == WARM:
                cpu = time.process_time()
            obs, reward, _, _, _ = env.step(actions[k].astype(np.float32))
            digest.update(obs.tobytes())
            digest.update(reward.tobytes())
        cpu = time.process_time() - cpu
        print(f"hardcore={hardcore}: {1e6 * cpu / steps / N_ENVS:.1f} us CPU a world-step "
              f"(whole env step), hash {digest.hexdigest()[:16]}", flush=True)
    for hardcore in (False, True):
        env = BipedalWalkerVectorEnv(N_ENVS, hardcore=hardcore)
        rng = np.random.default_rng(11)
        env.reset(seed=5)
        continuous, total = [], []
        for _ in range(steps):
            env.step(rng.uniform(-1, 1, (N_ENVS, 4)).astype(np.float32))
            for world in env.batch.worlds:
                clock = world._clock
                continuous.append(int(clock[END] - clock[CONTINUOUS]))
                total.append(int(clock[END] - clock[0]))
        print(f"hardcore={hardcore}: ticks a world-step: continuous mean "
              f"{np.mean(continuous):.0f} median {np.median(continuous):.0f}; step mean "
              f"{np.mean(total):.0f} median {np.median(total):.0f}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
