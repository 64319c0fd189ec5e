"""The Python checks before a small world's usual step, old and new, timed in one process.

    PYTHONPATH=src python benchmarks/small_checks.py [--calls 200000] [--rounds 7] [--json out.json]

:func:`impulse2d._stepping.step_world` decides whether a step is the usual one (settings,
joint rows and stores as at the last step, no callbacks, diagnostics or ``direct`` solver).
Until session 10 it made the sixteen comparisons of :func:`~impulse2d._stepping.
_usual_step` on every step (``full``: 440 ns of a five-ball step's Python, ``small34``); from
session 10 it kept what they read (``World._step_ready``) and compared seven things (``kept``);
from session 14 (``py39``) a ready flag, cleared by the writers of four of them, and three
comparisons (``flag``). All three are timed here on
``run.py``'s ``restitution`` world after 120 steps, as ``step_world`` makes them (the dict
reads before the comparison included), alternating within one process so the machine's drift
(up to 1.9x between minutes on the AMD machine) falls on both alike: CPU ns a check, the
least and the median of ``--rounds`` rounds of ``--calls`` calls each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    from engines import make_engine
    from run import SCENES
    from impulse2d._stepping import _usual_step
    from impulse2d._stores_epoch import CHANGES

    scene, params, _, _, _ = SCENES["restitution"]
    eng = make_engine("impulse2d", {})
    eng.build(scene, **params)
    world = eng.world
    for _ in range(120):
        world.step(1.0 / 60.0)

    def full(d):  # every comparison, each step (main's step_world)
        settings = d["_settings"]._derived
        rows = d["_joint_index"]
        return _usual_step(d, settings, rows)

    d = world.__dict__
    # what the last full check read, as session 10's step_world kept it (main's before session
    # 14), in a dict entry of its own
    d["_step_ready_seven"] = (d["_settings"]._derived, d["_joint_index"], d["_stores_built_from"],
                              d["_verbs_for"], d["_callbacks"], d["_diagnostics"],
                              CHANGES.value, d["_stores"])

    def kept(d):  # the seven things compared (session 10 to 13)
        settings = d["_settings"]._derived
        rows = d["_joint_index"]
        ready = d["_step_ready_seven"]
        return (ready[0] is settings and ready[1] is rows
                and ready[2] is d["_stores_built_from"] and ready[3] is d["_verbs_for"]
                and ready[4] is d["_callbacks"] and ready[5] is d["_diagnostics"]
                and ready[6] == CHANGES.value)

    def flag(d):  # the ready flag and its three comparisons (session 14's step_world)
        rows = d["_joint_index"]
        ready = d["_step_ready"]
        return (ready[0] is rows and ready[1] is d["_settings"]._derived
                and ready[2] == CHANGES.value)

    assert full(d) and kept(d) and flag(d), "the world does not take the usual step"

    def timed(fn) -> float:
        calls = range(args.calls)
        t = time.process_time()
        for _ in calls:
            fn(d)
        return (time.process_time() - t) / args.calls * 1e9

    def empty(d):
        return True

    times = {"full": [], "kept": [], "flag": [], "empty": []}
    for r in range(args.rounds):
        for name, fn in (("full", full), ("kept", kept), ("flag", flag),
                         ("empty", empty))[:: 1 if r % 2 else -1]:
            times[name].append(timed(fn))
    # the call of the timing loop itself (an empty function) taken off both
    base = statistics.median(times["empty"])
    out = {name: {"least_ns": round(min(v) - base, 1), "median_ns": round(statistics.median(v) - base, 1)}
           for name, v in times.items() if name != "empty"}
    out["loop_and_call_ns"] = round(base, 1)
    out["load"] = os.getloadavg()[0]
    print(json.dumps(out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
