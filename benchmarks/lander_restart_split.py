"""The native LunarLander's restarts, piece by piece: the calling thread's CPU of each piece of
``BatchVectorEnv._restart`` (the restore of the finished worlds, the episodes' draws, terrain and
push, the reset's own step's draws), a step of 1,024 landers with seeded random actions.

    PYTHONPATH=src python benchmarks/lander_restart_split.py [--num-envs 1024] [--steps 300] \
        [--threads 2] [--json FILE]

With a next-step autoreset the restarts run on the calling thread while the batch's other
threads step the other worlds (``WorldBatch._step_state``'s ``meanwhile``): their CPU is half
of it off the step's wall at 2 threads (the other thread takes as many more worlds), the
serial Python before and after the kernel all of it. Each piece is wrapped (its calls timed by
``time.thread_time_ns``; a piece's time holds the pieces it calls); printed: us a vector step
and us a restart for each, largest first, after ``--warm`` untimed steps. Run it in each
checkout (its own ``src``) to compare two: the pieces' names are the same.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from _envs_timing import TimedEntry, cpu_into


def wrap_pieces(totals: dict) -> None:
    """The pieces of ``_restart`` timed into ``totals`` (either checkout's names: a piece a
    tree lacks is left out)."""
    from impulse2d import _batch_restore, batch
    from impulse2d.envs import lunar_lander
    from impulse2d.envs.lunar_lander import LunarLanderVectorEnv
    from impulse2d.envs._segments import Segments
    for name in ("_begin_episodes", "_reset_act", "_move_terrain", "_add_forces"):
        cpu_into(totals, LunarLanderVectorEnv, name, name)
    cpu_into(totals, batch.WorldBatch, "restore", "WorldBatch.restore")
    cpu_into(totals, batch.WorldBatch, "_restore", "WorldBatch._restore")
    cpu_into(totals, batch.WorldBatch, "_checked_refs", "WorldBatch._checked_refs (every call)")
    cpu_into(totals, _batch_restore.Restores, "_again", "Restores._again")  # (before session 32)
    cpu_into(totals, _batch_restore.Restores, "again", "Restores.again")
    cpu_into(totals, _batch_restore, "restore_untouched", "snapshot.restore_untouched")
    cpu_into(totals, Segments, "move", "Segments.move")
    if hasattr(_batch_restore, "_restore_again"):
        _batch_restore._restore_again = TimedEntry(_batch_restore._restore_again,
                                                   "restore_again (kernel)", totals)
    for kernel, label in (("_episode_draws", "episode_draws (kernel)"),
                          ("_begin_episodes", "begin_episodes (kernel)"),
                          ("_start_episodes", "start_episodes (kernel)")):
        if hasattr(lunar_lander, kernel):  # (each checkout's own: sessions 29 and 31 renamed)
            setattr(lunar_lander, kernel, TimedEntry(getattr(lunar_lander, kernel), label, totals))


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--warm", type=int, default=100)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--total", action="store_true",
                        help="time _restart alone (no wrapper inside it: each costs ~1 us)")
    parser.add_argument("--json", default="")
    args = parser.parse_args()

    from impulse2d.envs.lunar_lander import LunarLanderVectorEnv
    totals: dict = {}
    env = LunarLanderVectorEnv(args.num_envs, threads=args.threads, max_episode_steps=1000)
    cpu_into(totals, LunarLanderVectorEnv, "_restart", "_restart")
    if not args.total:
        wrap_pieces(totals)
    env.reset(seed=0)
    actions = np.random.default_rng(0).integers(0, 4, size=(args.warm + args.steps,
                                                            args.num_envs))
    for k in range(args.warm):
        env.step(actions[k])
    totals.clear()
    restarts = 0
    cpu = time.thread_time_ns()
    for k in range(args.warm, args.warm + args.steps):
        restarts += int(env._done.sum())
        env.step(actions[k])
    cpu = time.thread_time_ns() - cpu
    out = {"num_envs": args.num_envs, "steps": args.steps, "threads": args.threads,
           "total_only": args.total,
           "load": round(os.getloadavg()[0], 1),
           "caller_us_a_vector_step": round(cpu / args.steps / 1e3, 1),
           "restarts_a_step": round(restarts / args.steps, 2),
           "us_a_vector_step": {k: round(v / args.steps / 1e3, 1) for k, v in
                                sorted(totals.items(), key=lambda kv: -kv[1])}}
    print(f"{args.num_envs} landers, {args.threads} thread(s), load {out['load']}: the calling "
          f"thread {out['caller_us_a_vector_step']} us of CPU a vector step, "
          f"{out['restarts_a_step']} restarts a step")
    for label, us in out["us_a_vector_step"].items():
        print(f"  {us:8.1f} us a step  {us / max(out['restarts_a_step'], 1e-9):7.2f} us a "
              f"restart  {label}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
