"""A Gymnasium environment's steps on the pybox2d layer with ``b2World.Step`` reading the contact
store the step left through the world's view (old: ``World._contacts``, which boxes a new store
whole) or through the reference (new), alternated chunk by chunk in one run (branch
``layer34``, issue 31 item 8).

    PYTHONPATH=src python benchmarks/layer_steps_ab.py ENV_ID [--chunk 100] [--chunks 120] [--json F]

Random actions (the action space seeded 0), every ``reset()`` inside the chunks; thread CPU
time of each chunk per environment step; per form: the mean and median over its chunks (the
first of each left out). ``benchmarks/layer_reset_ab.py`` does the same for LunarLander by
episode, with its resets' paths.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("env_id")
    parser.add_argument("--chunk", type=int, default=100, help="steps per chunk")
    parser.add_argument("--chunks", type=int, default=120)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import impulse2d.compat.box2d as b2compat
    b2compat.install()
    import gymnasium as gym
    from impulse2d.compat._b2world import b2World

    clock = time.thread_time_ns
    new = b2World._stores_now

    def old(self):
        self._world._contacts  # noqa: B018 (boxes a store the step made: the old path's read)
        return new(self)

    env = gym.make(args.env_id).unwrapped
    env.reset(seed=0)
    env.action_space.seed(0)
    sample = env.action_space.sample
    per_step: dict = {"old": [], "new": []}
    try:
        for k in range(args.chunks):
            form = "old" if k % 2 else "new"
            b2World._stores_now = old if form == "old" else new
            t = clock()
            for _ in range(args.chunk):
                _, _, terminated, truncated, _ = env.step(sample())
                if terminated or truncated:
                    env.reset()
            per_step[form].append((clock() - t) / args.chunk / 1e3)
    finally:
        b2World._stores_now = new
    report = {"what": __doc__.split("\n\n")[0], "env": args.env_id, "chunk": args.chunk,
              "results": {form: {"mean_us_per_step": round(statistics.fmean(v[1:]), 1),
                                 "median_us_per_step": round(statistics.median(v[1:]), 1),
                                 "chunks": len(v) - 1} for form, v in per_step.items()},
              "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
