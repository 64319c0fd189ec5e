"""Gymnasium's LunarLander ``reset()`` split by phase, on the pybox2d layer and on Box2D 2.3, in
one process (issue 31 item 8: the layer's LunarLander with resets at >= 0.7x Box2D).

    python benchmarks/reset_split.py [--resets 400] [--between 20] [--json F]
    IMPULSE2D_SRC=/other/tree/src python benchmarks/reset_split.py ...   # another tree's engine

Both engines run in this one process (Gymnasium's ``lunar_lander`` module loaded once over each
``Box2D``, as ``gym_envs.py --mode interleaved`` does), alternating reset by reset so that they
share the machine's load. Between two resets each environment takes ``--between`` random
steps (untimed), so that the destroy meets the particles an episode leaves. Each reset, as
Gymnasium's own ``reset()`` runs it, is timed whole (CPU, ``time.process_time``), and its
engine calls by wrappers on the engine's classes:

* ``destroy``: ``DestroyBody`` (the old world's moon, lander, legs and particles);
* ``world``: ``b2World(...)``;
* ``moon``: ``CreateStaticBody`` and the moon's ten ``CreateEdgeFixture``;
* ``bodies``: ``CreateDynamicBody`` (the lander and the legs; the layer makes its queued moon
  inside the lander's call);
* ``joints``: ``CreateJoint`` (the two legs' revolute joints with their definitions' use);
* ``Step``: the new world's first ``Step`` (inside the reset's closing ``self.step``);
* ``gc``: Python's cyclic collector while the reset ran (``gc.callbacks``);
* ``rest``: everything else: Gymnasium's own Python (the terrain's heights, the definitions
  built, the observation of the closing step, its body reads).

Reported per engine: the mean and the median of each phase in CPU microseconds a reset (the
mean is what a run of episodes pays; the median is less moved by the load).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gym_envs import _env_modules  # noqa: E402
from lander_split import _modules  # noqa: E402

# the engine measured: this tree's, or another tree's src (a paired run against main)
sys.path.insert(0, os.environ.get("IMPULSE2D_SRC") or os.path.join(os.path.dirname(HERE), "src"))

PHASES = ("destroy", "world", "moon", "bodies", "joints", "Step", "gc", "rest", "reset")


def _wrap(cls, name, acc, phase, clock):
    """Time ``cls.name`` into ``acc[phase]`` (outermost call only: a nested engine call, the
    layer's queued moon made inside the lander's ``CreateDynamicBody``, counts as its caller's)."""
    inner = getattr(cls, name)

    def timed(*args, **kwargs):
        if acc["depth"]:
            return inner(*args, **kwargs)
        acc["depth"] = 1
        t = clock()
        try:
            return inner(*args, **kwargs)
        finally:
            acc[phase] += clock() - t
            acc["depth"] = 0
    timed.__name__ = name
    setattr(cls, name, timed)
    return inner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=400, help="timed resets per engine")
    parser.add_argument("--between", type=int, default=20,
                        help="untimed random steps between two resets")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    clock = time.process_time
    modules = _modules()
    runs = {}
    for engine, mods in modules.items():
        acc = dict.fromkeys(PHASES, 0.0)
        acc["depth"] = 0
        world_cls = mods["Box2D"].b2World
        body_cls = mods["Box2D"].b2Body
        _wrap(world_cls, "DestroyBody", acc, "destroy", clock)
        _wrap(world_cls, "CreateStaticBody", acc, "moon", clock)
        _wrap(body_cls, "CreateEdgeFixture", acc, "moon", clock)
        _wrap(world_cls, "CreateDynamicBody", acc, "bodies", clock)
        _wrap(world_cls, "CreateJoint", acc, "joints", clock)
        _wrap(world_cls, "Step", acc, "Step", clock)
        _wrap(world_cls, "__init__", acc, "world", clock)
        cls, _ = _env_modules(mods, f"reset_{engine}")["LunarLander-v3"]
        env = cls()
        env.reset(seed=0)
        env.action_space.seed(0)
        runs[engine] = {"env": env, "acc": acc, "rows": []}
    gc_acc = {"t": 0.0, "start": 0.0}

    def on_gc(phase, info):
        if phase == "start":
            gc_acc["start"] = clock()
        else:
            gc_acc["t"] += clock() - gc_acc["start"]
    gc.callbacks.append(on_gc)
    try:
        for k in range(args.resets + 20):  # the first 20: warm-up
            for engine in (list(runs) if k % 2 == 0 else list(runs)[::-1]):
                run = runs[engine]
                env, acc = run["env"], run["acc"]
                sample = env.action_space.sample
                for _ in range(args.between):
                    _, _, terminated, truncated, _ = env.step(sample())
                    if terminated or truncated:
                        break
                for phase in PHASES:
                    acc[phase] = 0.0
                gc_acc["t"] = 0.0
                t = clock()
                env.reset()
                whole = clock() - t
                if k < 20:
                    continue
                row = {phase: acc[phase] for phase in PHASES[:6]}
                row["gc"] = gc_acc["t"]
                row["reset"] = whole
                row["rest"] = whole - sum(row[p] for p in PHASES[:7])
                run["rows"].append(row)
    finally:
        gc.callbacks.remove(on_gc)
    out = {}
    for engine, run in runs.items():
        rows = run["rows"]
        out[engine] = {
            "mean_us": {p: round(statistics.fmean(r[p] for r in rows) * 1e6, 1) for p in PHASES},
            "median_us": {p: round(statistics.median(r[p] for r in rows) * 1e6, 1)
                          for p in PHASES}}
        run["env"].close()
    out["resets"] = args.resets
    out["engine"] = os.path.dirname(sys.modules["impulse2d"].__file__)
    out["load_average_1_5_15"] = [round(x, 2) for x in os.getloadavg()]
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
