"""What a native vector environment's reset costs, phase by phase, in a real run.

    PYTHONPATH=src python benchmarks/envs_resets.py lander|walker [num_envs] [steps] [threads]
        [--warm STEPS] [--json PATH]

One process: ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` with
``num_envs`` environments (default 1,024), reset with seed 0, ``--warm`` steps (default 20) of
seeded uniform random actions (kernels loaded, episodes under way; with 100 or more the first
episodes have ended too, so that the first restore's one-time loading of its kernels from
Numba's cache is not in the figures), then ``steps`` more (default 200), as ``envs_steps.py``
takes them. Each environment step's next-step autoresets go through
``BatchVectorEnv._restart``: the worlds' restore from the snapshot of them as built
(``WorldBatch.restore``), the episodes' random parts (``_begin_episodes``) and the reset's own
action (``_reset_act``); the batch step after them is their reset's step, counted in the step.
Each phase is timed with the calling thread's CPU clock around its call (the phases are
serial Python on that thread, so CPU time is their time whatever the load, and a batch thread
stepping other worlds meanwhile is not counted) and reported per world reset, with the whole
environment step's process CPU and wall time per environment step, the resets' share of the
CPU, and a hash of every observation, reward and flag (equal between checkouts that play the
same episodes).
Since ``batch34`` a next-step autoreset restarts its worlds on the calling thread while the
batch's other threads step the other worlds (``WorldBatch._step_state``'s ``meanwhile``):
``helper_in_kernel_share`` is the share of the restarts' wall time during which another
thread was inside the batch kernel (0 where the restarts come before the step), a measure of
that overlap that a loaded machine does not hide (both clocks are wall clocks, stretched
alike by preemption). Prints one JSON line; ``--json PATH`` appends it to a file.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import time

ENV_IDS = {"walker": "impulse2d/BipedalWalker-v3", "lander": "impulse2d/LunarLander-v3"}
PHASES = ("restore", "begin_episodes", "reset_act")


def _timed(totals: dict, name: str, function):
    """``function`` with its thread CPU time added to ``totals[name]``."""
    def call(*args, **kwargs):
        t = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            totals[name] += time.thread_time() - t
    return call


def _spans(module, name: str, spans: list):
    """``module.name`` replaced by a function recording (thread, start, end) of each call."""
    function = getattr(module, name)

    def call(*args, **kwargs):
        t = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spans.append((threading.get_ident(), t, time.perf_counter()))
    setattr(module, name, call)


def _covered(windows: list, spans: list) -> float:
    """The share of the ``windows``' time during which another thread was in a span."""
    total = sum(w1 - w0 for _, w0, w1 in windows)
    inside = sum(max(0.0, min(w1, s1) - max(w0, s0))
                 for me, w0, w1 in windows for th, s0, s1 in spans if th != me)
    return inside / total if total > 0.0 else 0.0


def main(argv=None) -> dict:
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    from impulse2d._dynamics import batch_step
    argv = sys.argv[1:] if argv is None else list(argv)
    path = None
    if "--json" in argv:
        k = argv.index("--json")
        path = argv[k + 1]
        del argv[k:k + 2]
    warm = 20
    if "--warm" in argv:
        k = argv.index("--warm")
        warm = int(argv[k + 1])
        del argv[k:k + 2]
    env = argv[0]
    n = int(argv[1]) if len(argv) > 1 else 1024
    steps = int(argv[2]) if len(argv) > 2 else 200
    threads = int(argv[3]) if len(argv) > 3 else 2
    envs = gym.make_vec(ENV_IDS[env], num_envs=n, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = threads
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(steps + warm)]
    for k in range(warm):
        envs.step(actions[k])
    totals = dict.fromkeys(PHASES, 0.0)
    kernel, windows = [], []
    _spans(batch_step, "run", kernel)  # (each thread's call of the batch kernel)
    _spans(envs, "_restart", windows)
    batch = envs.batch
    batch.restore = _timed(totals, "restore", batch.restore)
    envs._begin_episodes = _timed(totals, "begin_episodes", envs._begin_episodes)
    envs._reset_act = _timed(totals, "reset_act", envs._reset_act)
    resets = 0
    digest = hashlib.sha256()
    c, w = time.process_time(), time.perf_counter()
    for k in range(steps):
        resets += int(envs._done.sum())
        obs, reward, terminated, truncated, _ = envs.step(actions[warm + k])
        for a in (obs, reward, terminated, truncated):
            digest.update(a.tobytes())
    cpu, wall = time.process_time() - c, time.perf_counter() - w
    per = max(resets, 1)
    out = {"env": env, "num_envs": n, "steps": steps, "warm": warm, "threads": threads,
           "resets": resets,
           "us_per_world_reset": {name: round(totals[name] / per * 1e6, 2) for name in PHASES},
           "reset_us_per_world": round(sum(totals.values()) / per * 1e6, 2),
           "cpu_us_per_env_step": round(cpu / (n * steps) * 1e6, 3),
           "wall_us_per_env_step": round(wall / (n * steps) * 1e6, 3),
           "reset_share_of_cpu": round(sum(totals.values()) / cpu, 4),
           "helper_in_kernel_share": round(_covered(windows, kernel), 3),
           "hash": digest.hexdigest()[:16], "load": round(os.getloadavg()[0], 1),
           "step": "one environment step = 1/50 s (the environment's engine step, its own "
                   "settings), resets as they come"}
    line = json.dumps(out)
    print(line)
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")
    return out


if __name__ == "__main__":
    main()
