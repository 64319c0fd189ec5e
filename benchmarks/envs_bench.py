"""impulse2d's native vector LunarLander (``impulse2d/LunarLander-v3``, one batch call per
step) against Gymnasium's LunarLander-v3 on Box2D 2.3 (pybox2d, extra ``bench``), as one
environment and as Gymnasium's ``SyncVectorEnv``, paired in one run; ``--env walker`` the
same for BipedalWalker-v3 (``impulse2d/BipedalWalker-v3``; see :data:`ENVS` for its step).

    PYTHONPATH=src python benchmarks/envs_bench.py --json benchmarks/results/envs_lander.json
    PYTHONPATH=src python benchmarks/envs_bench.py --env walker \
        --json benchmarks/results/envs_walker.json

A step here is one environment step: 1/50 s of simulated time. On Box2D that is one
``b2World.Step(1/50, 180, 60)`` (180 velocity and 60 position iterations); natively, one
engine step of ``"soft_step"`` with the environment's substeps and 1 iteration each
(``impulse2d.envs.lunar_lander.SETTINGS``). Actions are uniform random (seeded), so most
episodes end by crashing within ~100 steps: resets are a real share of the work and are
included in every rate (the vector environments reset by autoreset; the single one by
``reset()`` when an episode ends).

Measured:

* ``steps_per_s``: environment steps per second of wall time (and of process CPU time);
* for the native environment, where the time goes: the batch step (physics; since
  ``batch32`` with the observed state, which the step kernel gathers world by world:
  ``WorldBatch._step_state``), the dense reads and writes of the batch (impulses, forces,
  motor speeds, and the state of worlds reset), the resets, and the rest (the environment's
  NumPy); a timed call's own timed calls count as its own, except a next-step autoreset's
  restarts, which since ``batch34`` run inside the batch step while its other threads step
  the other worlds: their wall time is shown apart (``of physics: resets beside the step``),
  a part of the physics' share;
* ``reset_ms_per_env``, ``reset_cpu_ms_per_env``: the wall and process CPU time of resetting
  one environment (native: a masked reset of a quarter of the batch, divided; Box2D:
  ``env.reset()``);
* ``bytes_per_world``: memory allocated per environment when the vector environment is built
  (``tracemalloc``: NumPy's arrays and Python objects) and the size of one world's snapshot.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))

import numpy as np  # noqa: E402


ENVS = {
    "lander": {
        "box2d": "LunarLander-v3", "native": "impulse2d/LunarLander-v3",
        "step": "one environment step = 1/50 s: Box2D 2.3 Step(1/50, 180, 60); impulse2d "
                "soft_step with the settings given (substeps x 1 iteration)"},
    "walker": {
        "box2d": "BipedalWalker-v3", "native": "impulse2d/BipedalWalker-v3",
        "step": "one environment step = 1/50 s: Box2D 2.3 Step(1/50, 180, 60) and 10 lidar "
                "ray casts; impulse2d one engine step of pgs_block with the velocity and "
                "position iterations given (impulse2d.envs.bipedal_walker.NATIVE_SETTINGS) "
                "and one batched cast of every walker's 10 rays"},
}
"""The environments this script measures: Gymnasium's id, the native id, what a step is."""


def _random_actions(space, steps: int, rng) -> np.ndarray:
    """``steps`` batches of uniform random actions of the (batched) ``space``."""
    import gymnasium as gym
    if isinstance(space, gym.spaces.Box):
        return rng.uniform(space.low, space.high, size=(steps, *space.shape)).astype(space.dtype)
    high = np.asarray(space.nvec if hasattr(space, "nvec") else space.n)
    if np.all(high == high.flat[0]):
        high = int(high.flat[0])   # one bound: the draws of integers(0, n, size)
    return rng.integers(0, high, size=(steps, *space.shape))


def _rate(steps, wall, cpu):
    return {"steps": int(steps), "wall_s": round(wall, 3), "steps_per_s": round(steps / wall, 1),
            "steps_per_cpu_s": round(steps / max(cpu, 1e-9), 1)}


def box2d_steps(env, steps: int) -> int:
    """``steps`` steps of one Gymnasium environment ``env`` with random actions, ``reset()``
    where an episode ends: the episodes ended (also ``envs_paired.py``'s Box2D block)."""
    resets = 0
    for _ in range(steps):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            env.reset()
            resets += 1
    return resets


def box2d_single(steps: int, seed: int, env_id: str = "LunarLander-v3") -> dict:
    import gymnasium as gym
    env = gym.make(env_id)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    start, start_cpu = time.perf_counter(), time.process_time()
    resets = box2d_steps(env, steps)
    out = _rate(steps, time.perf_counter() - start, time.process_time() - start_cpu)
    out["episodes_ended"] = resets
    t, t_cpu = time.perf_counter(), time.process_time()
    for _ in range(50):
        env.reset()
    out["reset_ms_per_env"] = round((time.perf_counter() - t) / 50 * 1e3, 4)
    out["reset_cpu_ms_per_env"] = round((time.process_time() - t_cpu) / 50 * 1e3, 4)
    return out


def sync_steps(envs, steps: int) -> None:
    """``steps`` steps of Gymnasium's vector environment ``envs`` with random actions (its
    autoreset resets ended episodes; also ``envs_paired.py``'s block of it)."""
    for _ in range(steps):
        envs.step(envs.action_space.sample())


def box2d_sync(num_envs: int, steps: int, seed: int, env_id: str = "LunarLander-v3") -> dict:
    import gymnasium as gym
    envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync")
    envs.action_space.seed(seed)
    envs.reset(seed=seed)
    start, start_cpu = time.perf_counter(), time.process_time()
    sync_steps(envs, steps)
    out = _rate(steps * num_envs, time.perf_counter() - start, time.process_time() - start_cpu)
    out["num_envs"] = num_envs
    envs.close()
    return out


def native(num_envs: int, steps: int, seed: int, threads: int | None,
           env_id: str = "impulse2d/LunarLander-v3") -> dict:
    import gymnasium as gym
    import impulse2d.envs  # noqa: F401
    tracemalloc.start()
    envs = gym.make_vec(env_id, num_envs=num_envs,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=seed)
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    batch = envs.batch
    if threads is not None:
        batch.threads = threads
    import pickle
    snapshot_bytes = len(pickle.dumps(batch.worlds[0].snapshot()))
    # where the time goes: wrap the batch's calls with timers
    spent = {"physics (batch.step)": 0.0, "batch reads and writes": 0.0,
             "lidar (batch.ray_cast_many)": 0.0, "resets": 0.0,
             "of physics: resets beside the step": 0.0}
    # (since batch34 a next-step autoreset restarts its worlds inside the batch step, while
    # the batch's other threads step the other worlds: that time is the physics' too, and
    # shown apart, not added to the total)

    inside = [None]   # a timed call's own timed calls count as its own (a reset's reads and
    # step as the reset's, the state the batch step gathers as the step's); the key timing

    def timed(fn, key, beside=None):
        def wrapper(*a, **k):
            if inside[0] == "physics (batch.step)" and beside is not None:
                t = time.perf_counter()
                try:
                    return fn(*a, **k)
                finally:
                    spent[beside] += time.perf_counter() - t
            if inside[0] is not None:
                return fn(*a, **k)
            inside[0] = key
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                spent[key] += time.perf_counter() - t
                inside[0] = None
        return wrapper

    originals = {}
    for name in ("step", "get_positions", "get_angles", "get_velocities", "get_touching",
                 "get_awake", "apply_impulses", "apply_forces", "_gather", "set_motor_speeds",
                 "set_max_motor_torques", "get_state", "ray_cast_many", "_step_state",
                 "_writes"):
        if not hasattr(batch, name):  # (a checkout before the write)
            continue
        originals[name] = getattr(batch, name)
        # (the environments' step: the batch step, which gathers the observed state too)
        key = {"step": "physics (batch.step)", "_step_state": "physics (batch.step)",
               "ray_cast_many": "lidar (batch.ray_cast_many)"}.get(name, "batch reads and writes")
        setattr(batch, name, timed(originals[name], key))
    reset_worlds = envs._reset_worlds
    envs._reset_worlds = timed(reset_worlds, "resets")
    # a next-step autoreset restores and begins episodes before the batch step, which takes
    # their reset's step with the others' (a checkout before that has no _restart)
    restart = getattr(envs, "_restart", None)
    if restart is not None:
        envs._restart = timed(restart, "resets", "of physics: resets beside the step")
    actions = _random_actions(envs.action_space, steps, np.random.default_rng(seed))
    envs.step(actions[0])   # warm: every kernel compiled
    for k in spent:
        spent[k] = 0.0
    ended = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for k in range(steps):
        _, _, term, trunc, _ = envs.step(actions[k])
        ended += int(np.count_nonzero(term | trunc))
    wall = time.perf_counter() - start
    out = _rate(steps * num_envs, wall, time.process_time() - start_cpu)
    out["time_share"] = {k: round(v / wall, 3) for k, v in spent.items() if v > 0.0}
    out["time_share"]["rest (environment NumPy, Python)"] = round(
        1 - (sum(spent.values()) - spent["of physics: resets beside the step"]) / wall, 3)
    out["episodes_ended"] = ended
    out["num_envs"] = num_envs
    out["threads"] = batch.threads
    for name, fn in originals.items():
        setattr(batch, name, fn)
    envs._reset_worlds = reset_worlds
    if restart is not None:
        envs._restart = restart
    # reset cost: a quarter of the batch by mask
    mask = np.zeros(num_envs, dtype=bool)
    mask[::4] = True
    t, t_cpu = time.perf_counter(), time.process_time()
    envs.reset(options={"reset_mask": mask})
    out["reset_ms_per_env"] = round((time.perf_counter() - t) / mask.sum() * 1e3, 4)
    out["reset_cpu_ms_per_env"] = round((time.process_time() - t_cpu) / mask.sum() * 1e3, 4)
    out["bytes_per_world_built"] = int(current / num_envs)
    out["snapshot_bytes_per_world"] = snapshot_bytes
    out["settings"] = dict(envs.settings)
    envs.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=100, help="vector steps (native, sync)")
    parser.add_argument("--single-steps", type=int, default=20000)
    parser.add_argument("--sync-steps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--env", choices=sorted(ENVS), default="lander")
    args = parser.parse_args()
    env = ENVS[args.env]
    results = {
        "box2d_single": box2d_single(args.single_steps, args.seed, env["box2d"]),
        "box2d_sync_vector_env": box2d_sync(args.num_envs, args.sync_steps, args.seed,
                                            env["box2d"]),
        "impulse2d_native_vector_env": native(args.num_envs, args.steps, args.seed,
                                              args.threads, env["native"]),
    }
    nat = results["impulse2d_native_vector_env"]["steps_per_s"]
    report = {
        "machine": platform.platform(), "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "environment": env["box2d"],
        "step": env["step"],
        "actions": "uniform random (seeded); resets included",
        "results": results,
        "speedup_over_box2d_single": round(nat / results["box2d_single"]["steps_per_s"], 2),
        "speedup_over_box2d_sync": round(
            nat / results["box2d_sync_vector_env"]["steps_per_s"], 2),
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
