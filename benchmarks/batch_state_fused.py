"""The native LunarLander's batch step and state read, with the state gathered by the step
kernel (``WorldBatch._step_state``) against a step then a pass (``step`` + ``get_state``), in
one process, alternating, so that the machine's load falls on both alike.

    PYTHONPATH=src python benchmarks/batch_state_fused.py [num_envs] [reps]

Two ``impulse2d/LunarLander-v3`` vector environments of ``num_envs`` (default 1,024) landers,
reset with seed 0, one thread; their batches are stepped (1/50 s, no actions: the landers fall)
``reps`` times (default 40) each, alternately, every state compared bit for bit. Prints the
thread CPU time per world of each, median and min, and the median of the paired ratios.
"""

from __future__ import annotations

import sys
import time

import numpy as np


def main() -> None:
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 40

    def make():
        envs = gym.make_vec("impulse2d/LunarLander-v3", num_envs=n,
                            vectorization_mode="vector_entry_point")
        envs.reset(seed=0)
        envs.batch.threads = 1
        return envs.batch

    a, b = make(), make()
    for _ in range(5):  # every kernel loaded
        a.step(1 / 50)
        a.get_state()
        b._step_state(1 / 50)
    times = np.empty((reps, 2))
    for k in range(reps):
        t = time.thread_time()
        a.step(1 / 50)
        plain = a.get_state()
        times[k, 0] = time.thread_time() - t
        t = time.thread_time()
        fused = b._step_state(1 / 50)
        times[k, 1] = time.thread_time() - t
        assert all(np.array_equal(x, y) for x, y in zip(plain, fused))
    us = times / n * 1e6
    for j, name in enumerate(("step + get_state", "_step_state")):
        print(f"{name:17s} median {np.median(us[:, j]):6.2f} us a world, min {us[:, j].min():6.2f}")
    print(f"paired median ratio {np.median(times[:, 1] / times[:, 0]):.3f}")


if __name__ == "__main__":
    main()
