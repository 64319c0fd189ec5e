"""The moon's shape rows written by one compiled call (new, ``impulse2d._segment_rows``) or by
a NumPy assignment per column (old), alternated episode by episode in one run of Gymnasium's
LunarLander episodes on the pybox2d layer (issue 31 item 8; branch ``layer36``).

    PYTHONPATH=src python benchmarks/layer_moon_ab.py [--resets 600] [--json F]

A reset's code runs once per ~90 steps, out of the caches: this measures it where it runs.
Random-action episodes (the action space seeded 0); each episode's reset takes the old or the
new form, alternating. Timed, in thread CPU: the moon's batch (``_batch.create_static_bodies``
as the layer's queue calls it, inside the lander's ``CreateDynamicBody``), its shape writes
(``_batch._write_shapes``) and the whole ``reset()``. Per form: mean, median and least in
microseconds (the first 20 episodes left out). Both forms write the same rows
(``tests/test_segment_rows.py``), so the episodes are the same.
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


def reset_ab(resets: int, install, wrap) -> dict:
    """Gymnasium's LunarLander on the layer, random actions (seeded 0), each episode's reset
    taking the form ``install("new")`` or ``install("old")`` in turn, ``resets`` of them after
    20 left out. ``wrap(timed)`` wraps the calls to time: ``timed(function, part)`` returns
    ``function`` adding its thread CPU to ``part``. Returns ``{"<part> <form>": [us a reset]}``
    with the whole ``reset()`` as part ``"reset"``, the lists aligned reset by reset."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import impulse2d.compat.box2d as b2compat
    b2compat.install()
    import gymnasium as gym

    clock = time.thread_time_ns
    now = {"reset": 0}

    def timed(function, part):
        now[part] = 0

        def call(*args, **kwargs):
            t = clock()
            try:
                return function(*args, **kwargs)
            finally:
                now[part] += clock() - t
        return call

    wrap(timed)
    times = {f"{part} {form}": [] for part in now for form in ("new", "old")}
    env = gym.make("LunarLander-v3").unwrapped
    env.reset(seed=0)
    env.action_space.seed(0)
    sample = env.action_space.sample
    for k in range(resets + 20):
        form = "new" if k % 2 == 0 else "old"
        while True:
            _, _, terminated, truncated, _ = env.step(sample())
            if terminated or truncated:
                break
        install(form)
        for part in now:
            now[part] = 0
        t = clock()
        env.reset()
        now["reset"] = clock() - t
        if k >= 20:
            for part in now:
                times[f"{part} {form}"].append(now[part] / 1e3)
    return times


def report(resets: int, times: dict, path: str | None) -> None:
    """Print (and write to ``path``) each part's mean, median and least microseconds."""
    out = {"resets_each": resets // 2,
           "us": {key: {"mean": round(statistics.fmean(v), 1),
                        "median": round(statistics.median(v), 1), "least": round(min(v), 1)}
                  for key, v in times.items()},
           "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}
    text = json.dumps(out, indent=2)
    print(text)
    if path:
        with open(path, "w") as f:
            f.write(text + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=600)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    from impulse2d import _batch
    from impulse2d.compat import _b2queue
    forms = {"new": _batch.write_static_segments, "old": lambda *args: False}

    def install(form):
        _batch.write_static_segments = forms[form]

    def wrap(timed):
        _b2queue.create_static_bodies = timed(_batch.create_static_bodies, "moon")
        _batch._write_shapes = timed(_batch._write_shapes, "shapes")

    report(args.resets, reset_ab(args.resets, install, wrap), args.json)


if __name__ == "__main__":
    main()
