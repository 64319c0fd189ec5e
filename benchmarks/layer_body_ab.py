"""The lander's and legs' bodies written by one compiled call (new,
``impulse2d._batch_dynamic``) or by ``World.create_body`` and ``World._attach_shape`` (old),
alternated episode by episode in one run of Gymnasium's LunarLander episodes on the pybox2d
layer (issue 31 item 8; branch ``layer37``).

    PYTHONPATH=src python benchmarks/layer_body_ab.py [--resets 600] [--json F]

A reset's code runs once per ~90 steps, out of the caches: this measures it where it runs.
Random-action episodes (the action space seeded 0); each episode's reset takes the old or the
new form, alternating. Timed, in thread CPU: the three ``CreateDynamicBody`` calls (the
lander's makes the queued moon first: timed apart, ``_batch.create_static_bodies`` as the
layer's queue calls it), the bodies without the moon, and the whole ``reset()``. Per form:
mean, median and least in microseconds (the first 20 episodes left out). Both forms write the
same rows (``tests/test_batch_dynamic.py``), so the episodes are the same.
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
    parser.add_argument("--resets", type=int, default=600)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import impulse2d.compat.box2d as b2compat
    b2compat.install()
    import gymnasium as gym
    from impulse2d import _batch
    from impulse2d.compat import _b2dynamic, _b2queue
    from impulse2d.compat._b2world import b2World

    clock = time.thread_time_ns
    forms = {"new": _b2dynamic.create_dynamic_body, "old": lambda *args: None}
    parts = ("bodies", "moon", "reset")
    times = {f"{part} {form}": [] for part in (*parts, "bodies less moon") for form in forms}
    now = {part: 0 for part in parts}

    def timed(function, part):
        def call(*args, **kwargs):
            t = clock()
            try:
                return function(*args, **kwargs)
            finally:
                now[part] += clock() - t
        return call

    _b2queue.create_static_bodies = timed(_batch.create_static_bodies, "moon")
    b2World.CreateDynamicBody = timed(b2World.CreateDynamicBody, "bodies")
    env = gym.make("LunarLander-v3").unwrapped
    env.reset(seed=0)
    env.action_space.seed(0)
    sample = env.action_space.sample
    for k in range(args.resets + 20):
        form = "new" if k % 2 == 0 else "old"
        while True:
            _, _, terminated, truncated, _ = env.step(sample())
            if terminated or truncated:
                break
        _b2dynamic.create_dynamic_body = forms[form]
        for part in parts:
            now[part] = 0
        t = clock()
        env.reset()
        now["reset"] = clock() - t
        if k >= 20:
            for part in parts:
                times[f"{part} {form}"].append(now[part] / 1e3)
            times[f"bodies less moon {form}"].append((now["bodies"] - now["moon"]) / 1e3)
    out = {"resets_each": args.resets // 2,
           "us": {key: {"mean": round(statistics.fmean(v), 1),
                        "median": round(statistics.median(v), 1), "least": round(min(v), 1)}
                  for key, v in times.items()},
           "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
