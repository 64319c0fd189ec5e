"""What ``World.profile``'s clock would cost a small world's usual step: ``World.step``, which
Python does not time (the profile reads the kernel's clock, :mod:`impulse2d._profile_clock`,
since session 24), against the same function with its two ``perf_counter`` reads put back (the
engine's usual step until then), in one process, interleaved.

    PYTHONPATH=src /path/to/bench-venv/bin/python benchmarks/small_clock.py \\
        [--scenes restitution,friction_ramp] [--rounds 41] [--calls 300] [--json out.json]

The variant is made from :func:`impulse2d._stepping.world_step`'s own source at run time (the
clock's lines put in: ``t0`` read before the call, the seconds after it, ``t0`` handed to the
rare unusual step), so it is the same code but for the clock; it is not the engine's. Each
round restores the scene's snapshot (built as ``run.py`` builds it, 60 steps in) before each
form and times ``--calls`` steps of it by the thread's CPU time, the two forms in turn, which
first alternating. Printed per scene: each form's least and median per-step CPU over the
rounds, the ratio without / with of those, and the median of the rounds' own ratios; the state
hash after each form's steps (the same: the clock changes no bit). (Session 23's form of this
script took the two reads out of a ``World.step`` that had them: ``small48`` in BENCHMARKS.md.)
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from small_split import DT, _built  # noqa: E402  (the same scenes, warmed up the same way)

CLOCK_LINES = {
    "        status = ALONE.entry(*args)\n":
        "        t0 = perf_counter()\n        status = ALONE.entry(*args)\n",
    "            _after_unusual(world, dt, status, ready[4], None)\n":
        "            _after_unusual(world, dt, status, ready[4], t0)\n",
    "            world._step_seconds = UNTIMED\n":
        "            world._step_seconds = perf_counter() - t0\n",
}


def with_clock():
    """``world_step`` with the profile's clock read by Python, compiled in its module's
    namespace."""
    from impulse2d import _stepping
    source = inspect.getsource(_stepping.world_step)
    for old, new in CLOCK_LINES.items():
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    namespace = dict(vars(_stepping))
    exec(compile(source, "<world_step with the clock>", "exec"), namespace)
    return namespace["world_step"]


def scene_rounds(scene_key: str, rounds: int, calls: int) -> dict:
    from impulse2d import _stepping
    world = _built(scene_key, "impulse2d").world
    snap = world.snapshot()
    forms = {"with": with_clock(), "without": _stepping.world_step}
    per_step = {name: [] for name in forms}
    hashes = {name: set() for name in forms}
    clock = time.thread_time
    for r in range(rounds):
        order = list(forms) if r % 2 == 0 else list(forms)[::-1]
        for name in order:
            step = forms[name]
            world.restore(snap)
            world.step(DT)  # (the first step after a restore takes the checks)
            t = clock()
            for _ in range(calls):
                step(world, DT)
            per_step[name].append((clock() - t) / calls * 1e6)
            hashes[name].add(world.state_hash(motion_only=True)[:16])
    least = {k: min(v) for k, v in per_step.items()}
    median = {k: statistics.median(v) for k, v in per_step.items()}
    pairs = [b / a for a, b in zip(per_step["with"], per_step["without"])]
    return {"scene": scene_key, "rounds": rounds, "calls": calls, "load": os.getloadavg()[0],
            "least_us": least, "median_us": median,
            "without/with_least": round(least["without"] / least["with"], 3),
            "without/with_median": round(median["without"] / median["with"], 3),
            "pairs_median": round(statistics.median(pairs), 3),
            "saved_us_median": round(median["with"] - median["without"], 3),
            "hashes": {k: sorted(v) for k, v in hashes.items()}}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="restitution,friction_ramp")
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    out = [scene_rounds(s, args.rounds, args.calls) for s in args.scenes.split(",")]
    for row in out:
        print(json.dumps(row))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
