"""Where a native vector environment's step goes, by the calling thread's CPU time: the batch
kernel, the restarts (restore, episode beginning), the environment's NumPy and the batch's
Python around the kernel.

    PYTHONPATH=src python benchmarks/envs_split.py [--env lander] [--num-envs 1024]
        [--steps 100] [--threads 1] [--json FILE]

``envs_bench.py``'s split is of wall time, which a loaded machine stretches unevenly; this one
wraps each piece in ``time.thread_time_ns`` (the calling thread's CPU, so other processes'
time is left out) and prints nanoseconds per environment step (one step of one environment:
1/50 s, the environment's soft step; resets included, as the random actions bring them) and
each piece's share of the thread's CPU in ``env.step``. Pieces nest (``_restart`` holds
``batch.restore``, which holds ``_restore_rest``); each wrapper's own two clock reads fall
inside its caller's figure (a few calls a step, against 1,024 environment steps). With ``--threads 1`` every piece runs on the timed thread (the restarts
before the step); with 2 the restarts run beside the helper's share of the kernel and the
kernel's line is the calling thread's part only.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from _envs_timing import cpu_into

ENV_IDS = {"walker": "impulse2d/BipedalWalker-v3", "lander": "impulse2d/LunarLander-v3"}


def timed_steps(envs, steps: int, before_timing) -> tuple[int, int]:
    """``steps`` random-action steps of ``envs`` after 40 untimed ones (kernels loaded,
    episodes under way, the first resets past; ``before_timing()`` called between):
    the calling thread's CPU over the timed steps (ns) and the episodes they ended."""
    space = envs.action_space
    space.seed(0)
    actions = [space.sample() for _ in range(steps + 40)]
    for k in range(40):
        envs.step(actions[k])
    before_timing()
    ended = 0
    t = time.thread_time_ns()
    for k in range(steps):
        _, _, terminated, truncated, _ = envs.step(actions[40 + k])
        ended += int((terminated | truncated).sum())
    return time.thread_time_ns() - t, ended


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", choices=sorted(ENV_IDS), default="lander")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", default="")
    args = parser.parse_args()

    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    from impulse2d import _batch_ready, _batch_worlds, batch, body, snapshot
    from impulse2d._dynamics import batch_step
    envs = gym.make_vec(ENV_IDS[args.env], num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point")
    acc: dict = {}
    cls = type(envs)
    for name in ("step", "_act", "_engines", "_next_dispersion", "_fill_dispersion", "_observe",
                 "_after_step", "_come_to_rest",
                 "_restart", "_begin_episodes", "_move_terrain"):
        cpu_into(acc, cls, name, name)
    cpu_into(acc, batch_step, "run", "kernel (batch_step.run)")
    cpu_into(acc, _batch_ready, "clock", "_batch_ready.clock")
    cpu_into(acc, _batch_ready, "finish", "_batch_ready.finish")
    cpu_into(acc, _batch_ready, "prepare", "_batch_ready.prepare")
    cpu_into(acc, batch.WorldBatch, "restore", "WorldBatch.restore")
    cpu_into(acc, snapshot, "_restore_rest", "snapshot._restore_rest")
    cpu_into(acc, _batch_worlds, "absorb", "_batch_worlds.absorb")
    cpu_into(acc, body.Body, "apply_force", "Body.apply_force")
    envs.reset(seed=0)
    envs.batch.threads = args.threads
    total, ended = timed_steps(envs, args.steps, acc.clear)
    env_steps = args.num_envs * args.steps
    out = {"env": args.env, "num_envs": args.num_envs, "steps": args.steps,
           "threads": args.threads, "episodes_ended": ended,
           "thread_ns_per_env_step": round(total / env_steps, 1),
           "load": round(os.getloadavg()[0], 1),
           "pieces_ns": {k: round(v / env_steps, 1) for k, v in
                         sorted(acc.items(), key=lambda kv: -kv[1])}}
    print(f"{args.env}, {args.num_envs} environments, {args.threads} thread(s), load "
          f"{out['load']}: {out['thread_ns_per_env_step']} ns of the calling thread's CPU an "
          f"environment step, {ended} episodes ended")
    for k, v in out["pieces_ns"].items():
        print(f"  {k:26s} {v:9.1f} ns  {v / out['thread_ns_per_env_step']:6.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
