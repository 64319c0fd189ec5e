"""The usual step's call into the step kernel, two ways, in one process, interleaved: Numba's
entry point of the step kernel (the reference unboxed by its ``_meminfo``, Python's lock let go
and taken back: the usual step's call until session 25) against :data:`impulse2d._step_entry.
ALONE` (three numbers, the lock kept while no other thread state exists).

    PYTHONPATH=src /path/to/bench-venv/bin/python benchmarks/small_alone.py \\
        [--scenes restitution,friction_ramp] [--rounds 41] [--calls 300] [--other-thread] \\
        [--json out.json]

Each round restores the scene's snapshot (built as ``run.py`` builds it, 60 steps in) before
each form and times ``--calls`` calls of it, each a whole step, by the thread's CPU time, the
two forms in turn, which first alternating; the rare new store is adopted as ``World.step``
adopts it. Printed per scene: each form's least and median per-step CPU over the rounds, the
ratio of those (``alone / entry``), the median of the rounds' own ratios, and the state hash
after each form's steps (the same kernel on the same stores: equal). ``--other-thread``: a
second Python thread waits on an event throughout, so that :data:`ALONE` lets the lock go as
the entry point does (its check and release against the entry point's release).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from small_split import DT, _built  # noqa: E402  (the same scenes, warmed up the same way)


def scene_rounds(scene_key: str, rounds: int, calls: int) -> dict:
    from impulse2d._dynamics.step import WHOLE, _step
    from impulse2d._dynamics.world_ref import adopt_step_stores
    from impulse2d._dynamics.step import NEW_CONSTRAINTS, NEW_CONTACTS
    from impulse2d._step_entry import ALONE, usual_arguments
    world = _built(scene_key, "impulse2d").world
    snap = world.snapshot()

    def run(entry, arguments):
        world.restore(snap)
        world.step(DT)  # (the first step after a restore takes the checks)
        stores = world._stores
        args = arguments(stores)
        t0 = time.thread_time()
        for _ in range(calls):
            status = entry(*args)
            if status:
                adopt_step_stores(world, status & NEW_CONTACTS, status & NEW_CONSTRAINTS)
        seconds = time.thread_time() - t0
        return seconds / calls * 1e6, world.state_hash(motion_only=True)[:16]

    forms = {"entry": (_step.entry, lambda stores: (stores, DT, WHOLE)),
             "alone": (ALONE.entry, lambda stores: usual_arguments(stores, DT))}
    times = {name: [] for name in forms}
    hashes = {}
    for r in range(rounds):
        order = list(forms) if r % 2 == 0 else list(forms)[::-1]
        for name in order:
            us, hashes[name] = run(*forms[name])
            times[name].append(us)
    least = {name: min(t) for name, t in times.items()}
    median = {name: statistics.median(t) for name, t in times.items()}
    pairs = [a / e for a, e in zip(times["alone"], times["entry"])]
    return {"scene": scene_key, "rounds": rounds, "calls": calls,
            "least_us": least, "median_us": median,
            "ratio_least": least["alone"] / least["entry"],
            "ratio_median": median["alone"] / median["entry"],
            "ratio_pairs": statistics.median(pairs), "hashes": hashes}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="restitution,friction_ramp")
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--other-thread", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    done = threading.Event()
    waiter = threading.Thread(target=done.wait) if args.other_thread else None
    if waiter is not None:
        waiter.start()
    try:
        results = [scene_rounds(s, args.rounds, args.calls) for s in args.scenes.split(",")]
    finally:
        done.set()
    for res in results:
        res["other_thread"] = args.other_thread
        print(f"{res['scene']}: entry {res['least_us']['entry']:.3f} / "
              f"{res['median_us']['entry']:.3f} us, alone {res['least_us']['alone']:.3f} / "
              f"{res['median_us']['alone']:.3f} us (least / median); alone / entry "
              f"{res['ratio_least']:.3f} / {res['ratio_median']:.3f}, pairs "
              f"{res['ratio_pairs']:.3f}; hashes {res['hashes']}")
    print(f"load {os.getloadavg()[0]:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load": os.getloadavg()[0], "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
