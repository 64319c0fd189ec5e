"""A recycled world's construction replayed from a template, or made call by call: the two
alternated episode by episode in one run of Gymnasium's LunarLander (issue 31 item 8; branch
``layer35``).

    PYTHONPATH=src python benchmarks/layer_replay_ab.py [--resets 1000] [--json F]

Random-action episodes (the action space seeded 0) on the layer; each ``reset()`` makes its
world either with ``compat._b2replay`` on (``replay``: the engine calls of its construction
replayed from the template recorded at the first recycled world) or off (``made``: every call
made, as before it). Timed by thread CPU: the whole reset (Gymnasium's ``_destroy`` and
``reset``, its closing ``step`` included) and, per environment step, the episode that follows
it (a replayed world steps as a made one: the same stores, bit for bit). Mean, median and
least in microseconds, the first 20 episodes of each left out. A path that a reset takes once
costs, inside a run of episodes, several times what a loop of it costs alone (its code and
data are out of the caches after ~90 steps): this measures it where it runs.
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
    parser.add_argument("--resets", type=int, default=1000)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import impulse2d.compat.box2d as b2compat
    b2compat.install()
    import gymnasium as gym
    from impulse2d.compat import _b2world

    clock = time.thread_time_ns
    start = _b2world.start_replay
    times: dict = {f"{part} {form}": [] for part in ("reset", "steps")
                   for form in ("made", "replay")}
    env = gym.make("LunarLander-v3").unwrapped
    env.reset(seed=0)
    env.action_space.seed(0)
    sample = env.action_space.sample
    replayed = 0
    try:
        for k in range(args.resets):
            form = "made" if k % 2 else "replay"
            _b2world.start_replay = start if form == "replay" else (lambda b2world: None)
            t = clock()
            env._destroy()
            env.reset()  # (its own _destroy finds nothing left to destroy)
            times[f"reset {form}"].append(clock() - t)
            tracker = env.world._replay
            replayed += tracker is not None and tracker.k == len(tracker.template.entries)
            t, n = clock(), 0
            while True:
                _, _, terminated, truncated, _ = env.step(sample())
                n += 1
                if terminated or truncated:
                    break
            times[f"steps {form}"].append((clock() - t) / n)
    finally:
        _b2world.start_replay = start
    out = {}
    for name, values in times.items():
        values = values[20:]
        out[name] = {"mean_us": round(statistics.fmean(values) / 1e3, 1),
                     "median_us": round(statistics.median(values) / 1e3, 1),
                     "least_us": round(min(values) / 1e3, 1), "n": len(values)}
    report = {"what": __doc__.split("\n\n")[0], "results": out,
              "replayed resets": replayed,
              "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
