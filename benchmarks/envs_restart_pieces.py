"""A native environment's restarts piece by piece, per call: how many worlds restart a step, and
what each piece of their restore costs a call and a world, in a real run.

    PYTHONPATH=src python benchmarks/envs_restart_pieces.py [--env lander] [--threads 1]
        [--steps 100] [--json FILE]

``envs_split.py`` gives each piece's share of an environment step; this adds each piece's
calls and its cost a call (the restore's pieces are called once a world restored, so their
cost a call is a world's, with the machine's caches as cold as they are inside the run), and
the pieces of ``WorldBatch.restore``'s two paths (``_batch_restore``: a world restored in full,
or again, untouched since its last restore from the same snapshot). One process, 1,024
environments, seeded random actions, 40 steps first (kernels loaded, the first episodes
ended), then ``--steps`` steps timed by the calling thread's CPU clock
(``time.thread_time_ns``) around each piece; a piece absent from the checkout (main's tree
has no ``_batch_restore``) is left out. Pieces nest; each wrapper's clock reads (about a
microsecond a call under KVM) fall in its caller's figure.
"""

from __future__ import annotations

import argparse
import json
import os

from _envs_timing import cpu_into
from envs_split import ENV_IDS, timed_steps

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
    from impulse2d import _batch_ready, _batch_worlds, _sleep, batch, snapshot
    from impulse2d._dynamics import batch_step
    try:
        from impulse2d import _batch_restore
    except ImportError:  # (main's tree before lander47)
        _batch_restore = None
    envs = gym.make_vec(ENV_IDS[args.env], num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point")
    acc: dict = {}
    calls: dict = {}

    def wrap(owner, name: str, label: str) -> None:
        cpu_into(acc, owner, name, label, calls)

    cls = type(envs)
    for name in ("step", "_act", "_observe", "_after_step", "_come_to_rest", "_restart",
                 "_begin_episodes",
                 "_move_terrain", "_reset_act"):
        wrap(cls, name, "env." + name)
    wrap(batch_step, "run", "kernel (batch_step.run)")
    for name in ("prepare", "finish", "_check"):
        wrap(_batch_ready, name, "_batch_ready." + name)
    wrap(batch.WorldBatch, "restore", "WorldBatch.restore")
    wrap(_batch_ready.ReadyState, "restore", "ReadyState.restore")  # (main's)
    wrap(_batch_ready.ReadyState, "refresh_ref", "ReadyState.refresh_ref")
    for name in ("restore_many", "_same_layout", "_restore_rest", "put_contact_stores"):
        wrap(snapshot, name, "snapshot." + name)
    wrap(_batch_worlds, "absorb", "_batch_worlds.absorb")
    wrap(_sleep, "awake_changed", "_sleep.awake_changed")
    if _batch_restore is not None:
        wrap(_batch_restore.Restores, "_full", "Restores._full (in full)")
        wrap(_batch_restore.Restores, "_again", "Restores._again (again)")  # (before session 32)
        wrap(_batch_restore.Restores, "again", "Restores.again (again)")
        wrap(_batch_restore, "restore_many", "snapshot.restore_many")
        wrap(_batch_restore, "restore_untouched", "snapshot.restore_untouched")
    envs.reset(seed=0)
    envs.batch.threads = args.threads
    def clear() -> None:
        acc.clear()
        calls.clear()

    total, ended = timed_steps(envs, args.steps, clear)
    env_steps = args.num_envs * args.steps
    out = {"env": args.env, "num_envs": args.num_envs, "steps": args.steps,
           "threads": args.threads, "episodes_ended": ended,
           "restarts_per_step": ended / args.steps,
           "thread_ns_per_env_step": round(total / env_steps, 1),
           "load": round(os.getloadavg()[0], 1),
           "pieces": {k: {"ns_per_env_step": round(v / env_steps, 1), "calls": calls[k],
                          "us_per_call": round(v / calls[k] / 1000, 2)}
                      for k, v in sorted(acc.items(), key=lambda kv: -kv[1])}}
    print(f"{args.env}, {args.num_envs} environments, {args.threads} thread(s), load "
          f"{out['load']}: {out['thread_ns_per_env_step']} ns of the calling thread's CPU an "
          f"environment step, {ended} episodes ended ({out['restarts_per_step']:.1f} a step)")
    for k, v in out["pieces"].items():
        print(f"  {k:34s} {v['ns_per_env_step']:9.1f} ns  {v['calls']:6d} calls "
              f"{v['us_per_call']:9.2f} us a call")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
