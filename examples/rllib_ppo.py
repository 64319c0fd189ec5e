"""Train PPO with RLlib on impulse2d's native vector environment ``impulse2d/LunarLander-v3``.

    pip install 'impulse2d[rl]'          # Ray's RLlib, PyTorch and Gymnasium
    python examples/rllib_ppo.py --iterations 200 --num-envs 256

RLlib's env runner builds its environments with ``gymnasium.make_vec``; with
``gym_env_vectorize_mode="vector_entry_point"`` that returns impulse2d's own vector environment,
which steps all ``--num-envs`` landers in one compiled call per step, instead of a Python loop
over ``--num-envs`` environment objects. The id is given as ``"impulse2d.envs:impulse2d/
LunarLander-v3"``: Gymnasium imports ``impulse2d.envs`` (which registers the id) in each Ray
worker before making the environment. RLlib expects Gymnasium's next-step autoreset, the vector
environment's default.

``--env gymnasium`` trains on Gymnasium's own LunarLander-v3 instead, running on impulse2d's
pybox2d layer (``impulse2d.compat.box2d``, installed as ``Box2D`` in each worker before Gymnasium
imports its Box2D environments), vectorized by Gymnasium's ``SyncVectorEnv``: one Python
environment object per lander. The same PPO on both gives a like-for-like throughput comparison.

Each iteration prints the environment steps it sampled, its wall time (sampling and learning) and
the mean return of the episodes that ended in it; at the end the env runners sample one more
batch on their own, timed, for the sampling rate alone (:func:`sampling_rate`). The script
stops at ``--iterations`` or when the mean return reaches ``--stop-return`` (200: "solved").
"""

from __future__ import annotations

import argparse
import json
import time


def gymnasium_lander(config: dict):
    """RLlib env creator for ``--env gymnasium``: Gymnasium's LunarLander-v3 on impulse2d's
    pybox2d layer; a ``SyncVectorEnv`` of ``config["num_envs"]`` of them when RLlib asks for a
    vector environment (it adds ``num_envs`` to the config), else one."""
    import impulse2d.compat.box2d as b2compat
    b2compat.install()                  # before Gymnasium imports its Box2D environments
    import gymnasium as gym
    if "num_envs" in config:
        return gym.make_vec("LunarLander-v3", num_envs=config["num_envs"],
                            vectorization_mode="sync")
    return gym.make("LunarLander-v3")


def build_config(args):
    from ray.rllib.algorithms.ppo import PPOConfig

    config = PPOConfig()
    if args.env == "native":
        config = config.environment("impulse2d.envs:impulse2d/LunarLander-v3")
    else:
        from ray.tune.registry import register_env
        register_env("gymnasium-lander-on-impulse2d", gymnasium_lander)
        config = config.environment("gymnasium-lander-on-impulse2d")
    fragment = max(1, args.batch // (args.num_envs * max(1, args.env_runners)))
    return (
        config
        .env_runners(num_env_runners=args.env_runners,
                     num_envs_per_env_runner=args.num_envs,
                     gym_env_vectorize_mode="vector_entry_point",
                     rollout_fragment_length=fragment,
                     num_cpus_per_env_runner=1)
        .learners(num_learners=0)       # learn in the driver process, on its CPU
        .training(train_batch_size_per_learner=args.batch,
                  minibatch_size=args.minibatch,
                  num_epochs=args.epochs,
                  lr=3e-4, gamma=0.99, lambda_=0.95,
                  entropy_coeff=0.01,
                  # LunarLander's returns span hundreds: do not clip the value loss at 10
                  vf_clip_param=1000.0, vf_loss_coeff=0.5)
        .rl_module(model_config={"fcnet_hiddens": [64, 64]})
        .debugging(seed=args.seed)
    )


def sampling_rate(algo, steps: int, local: bool) -> float:
    """Environment steps per second of sampling alone: each env runner (the driver's own with
    ``--env-runners 0``) samples ``steps`` steps with the current policy, timed inside it, so the
    figure holds the environments, the policy's forward passes and RLlib's connectors, as in
    training, and not Ray's messaging. (RLlib's own per-iteration timers are exponential moving
    averages with a coefficient of 0.01, which over a few iterations still mostly show the first
    one, warm-up included.)"""
    def sample(runner):
        start = time.perf_counter()
        episodes = runner.sample(num_timesteps=steps)
        return sum(len(e) for e in episodes), time.perf_counter() - start

    timed = algo.env_runner_group.foreach_env_runner(sample, local_env_runner=local)
    return sum(n for n, _ in timed) / max(t for _, t in timed)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", choices=["native", "gymnasium"], default="native")
    parser.add_argument("--num-envs", type=int, default=256,
                        help="environments per env runner (default 256)")
    parser.add_argument("--env-runners", type=int, default=1,
                        help="Ray actors that sample (default 1; 0 samples in the driver)")
    parser.add_argument("--batch", type=int, default=16384,
                        help="environment steps per training batch (default 16384)")
    parser.add_argument("--minibatch", type=int, default=2048)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--stop-return", type=float, default=200.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--num-cpus", type=int, default=None,
                        help="CPUs of the local Ray cluster (default: all)")
    parser.add_argument("--json", default=None, help="write the per-iteration figures here")
    args = parser.parse_args(argv)

    import ray
    ray.init(num_cpus=args.num_cpus, include_dashboard=False, logging_level="ERROR")
    algo = build_config(args).build_algo()
    history = []
    try:
        for i in range(args.iterations):
            start = time.perf_counter()
            result = algo.train()
            wall = time.perf_counter() - start
            runners = result.get("env_runners", {})
            steps = int(runners.get("num_env_steps_sampled", 0))
            ret = runners.get("episode_return_mean", float("nan"))
            history.append({"iteration": i + 1, "env_steps": steps, "wall_s": wall,
                            "steps_per_s": steps / wall, "episode_return_mean": ret})
            print(f"iter {i + 1:3d}  {steps:6d} env steps in {wall:6.2f} s "
                  f"({steps / wall:7.0f} steps/s, sampling and learning)  "
                  f"mean return {ret:7.1f}", flush=True)
            if ret == ret and ret >= args.stop_return:     # NaN until an episode has ended
                print(f"mean return {ret:.1f} >= {args.stop_return}: stopping")
                break
        rate = sampling_rate(algo, args.batch, local=args.env_runners == 0)
    finally:
        algo.stop()
        ray.shutdown()
    # PPO's iteration samples a batch, then learns from it: what is not sampling is learning
    # (and the weights' trip to the env runners, milliseconds)
    later = history[1:] or history                 # the first iteration also warms up
    wall = sum(h["wall_s"] for h in later) / len(later)
    steps = sum(h["env_steps"] for h in later) / len(later)
    print(f"sampling alone: {rate:.0f} env steps/s ({args.num_envs} envs x "
          f"{max(1, args.env_runners)} env runner(s)); per iteration after the first: "
          f"{steps:.0f} steps in {wall:.2f} s = {steps / wall:.0f} steps/s end to end, of which "
          f"sampling ~{steps / rate:.2f} s and learning ~{wall - steps / rate:.2f} s")
    summary = {"env": args.env, "num_envs": args.num_envs, "env_runners": args.env_runners,
               "batch": args.batch, "sampling_steps_per_s": rate, "iterations": history}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    return summary


if __name__ == "__main__":
    main()
