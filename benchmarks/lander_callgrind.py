"""Instructions a lander world-step under callgrind, by compiled function: the native
LunarLander's batch step (issue 30) in counts that do not move with the machine's load.

    eval "$(python benchmarks/direct_callgrind.py --env /tmp/cg_a)"   # once per tree and shell
    PYTHONPATH=src python benchmarks/lander_callgrind.py 64 20           # fills the cache
    PYTHONPATH=src valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=starmap_next --callgrind-out-file=/tmp/cg_a.out \\
        python benchmarks/lander_callgrind.py 64 20 --symbols /tmp/cg_a.json
    python benchmarks/direct_callgrind.py --name /tmp/cg_a.out /tmp/cg_a.json > /tmp/cg_a.named
    python benchmarks/direct_callgrind.py x 1280 --compare /tmp/cg_a.named /tmp/cg_b.named

(``x 1280``: the world-steps, ``num_envs`` x ``steps``, so that the counts read a world-step.)

``impulse2d/LunarLander-v3`` as a vector environment of ``num_envs`` (64) on one thread, reset
with seed 0, 20 steps of seeded uniform random actions (episodes under way, the kernels
loaded), then ``steps`` (20) steps of the batch alone (``WorldBatch.step``: the worlds' steps,
no environment Python, no restart) inside ``itertools.starmap``, whose C function
``starmap_next`` is what callgrind collects in. The environment's own step (its Python, its
restarts) is left out: the landers fly those steps with their engines off, most of them in the
air (no touching contact). Prints a hash of every world's state after the steps: two trees that
count the same steps print the same hash. The cache and the names: :mod:`direct_callgrind`.

``--env-steps``: ``steps`` steps of the environment instead (``envs.step`` with the next seeded
random actions, drawn before: the engines, the kernel, the step's end, the restarts, the
Python around them), so that work moved between the environment's Python and the batch
kernel (a step's hook, session 33's ``hookE58``) is counted on both sides; the hash is then of
every observation, reward and flag too.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from direct_callgrind import keep_object_code, symbol_map  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("num_envs", nargs="?", type=int, default=64)
    parser.add_argument("steps", nargs="?", type=int, default=20)
    parser.add_argument("--symbols", help="write the compiled functions' addresses here")
    parser.add_argument("--env-steps", action="store_true",
                        help="step the environment (its Python too), not the batch alone")
    args = parser.parse_args(argv)
    if args.symbols:
        keep_object_code()
    import gymnasium as gym

    import impulse2d.envs  # noqa: F401 (registers the environments)
    envs = gym.make_vec("impulse2d/LunarLander-v3", num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    envs.batch.threads = 1
    space = envs.action_space
    space.seed(0)
    for _ in range(20):
        envs.step(space.sample())
    batch = envs.batch
    dt = envs.dt
    digest = hashlib.sha256()
    if args.env_steps:
        actions = [(space.sample(),) for _ in range(args.steps)]
        for out in itertools.starmap(envs.step, actions):
            for a in out[:4]:
                digest.update(a.tobytes())
    else:
        list(itertools.starmap(batch.step, ((dt,) for _ in range(args.steps))))
    for w in batch.worlds:
        digest.update(w.state_hash().encode())
    print(args.num_envs, "landers,", args.steps, "environment" if args.env_steps else "batch",
          "steps, hash:", digest.hexdigest()[:16])
    if args.symbols:
        with open(args.symbols, "w") as f:
            json.dump({"case": "lander", "steps": args.steps * args.num_envs,
                       "functions": symbol_map()}, f)


if __name__ == "__main__":
    main()
