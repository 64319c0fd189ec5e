"""A small batch's heap advice with and without the look at Python's views first, paired in one
process (for a loaded machine).

    PYTHONPATH=src python benchmarks/batch_advice_ab.py [--worlds 64] [--rounds 5] [--json F]

Two copies of ``batch_bench.py``'s batch (``WorldBatch.replicate(ten_bodies(), n)``, one
thread; a **world-step** one 1/60 s soft step, 4 substeps, 1 iteration, sleeping on, of one
10-body world), each stepped the first 120 steps from the drop, a step of one then the same step
of the other (the order alternating), each timed by the thread's CPU clock. ``look``: the
advice as built (:meth:`impulse2d._huge_pages.Advice.renew` returns when Python's views of the
stores, as they are, are :data:`~impulse2d._huge_pages.UNSEEN` times below the TLB's reach);
``sync``: ``UNSEEN`` set past any batch, so every renewal boxes the stores the steps made
first, as before session 19 (both then find the batch below the reach and advise nothing).
Reported per round: CPU us a world-step of each over the 120 steps (the advice's renewals
after steps 1, 2, 4, ..., 64 included) and sync / look; and each batch's final hash of
positions and velocities (the same: the advice changes no value).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from batch_bench import ten_bodies  # noqa: E402

FORMS = {"look": None, "sync": float("inf")}  # UNSEEN of each form (None: the module's)


def one_round(n: int, steps: int) -> dict:
    import impulse2d as i2d
    from impulse2d import _huge_pages
    built = _huge_pages.UNSEEN
    batches = {form: i2d.WorldBatch.replicate(ten_bodies(), n, threads=1) for form in FORMS}
    cpu = {form: 0.0 for form in FORMS}
    try:
        for s in range(steps):
            order = list(FORMS) if s % 2 == 0 else list(reversed(FORMS))
            for form in order:
                _huge_pages.UNSEEN = built if FORMS[form] is None else FORMS[form]
                c = time.thread_time()
                batches[form].step(1 / 60)
                cpu[form] += time.thread_time() - c
    finally:
        _huge_pages.UNSEEN = built
    out = {form: 1e6 * cpu[form] / (n * steps) for form in FORMS}
    out["sync_over_look"] = cpu["sync"] / cpu["look"]
    out["hashes"] = {form: hashlib.sha256(b.get_positions().tobytes()
                                          + b.get_velocities().tobytes()).hexdigest()[:16]
                     for form, b in batches.items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, default=64)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    import impulse2d as i2d
    warm = i2d.WorldBatch.replicate(ten_bodies(), 4, threads=1)
    for _ in range(3):  # load every kernel first
        warm.step(1 / 60)
    result = {"worlds": args.worlds, "steps": args.steps, "load_before": os.getloadavg()[0],
              "rounds": []}
    for _ in range(args.rounds):
        r = one_round(args.worlds, args.steps)
        result["rounds"].append(r)
        print(f"look {r['look']:.2f} us  sync {r['sync']:.2f} us a world-step  "
              f"sync/look {r['sync_over_look']:.3f}  {r['hashes']}", flush=True)
    ratios = sorted(r["sync_over_look"] for r in result["rounds"])
    result["median_sync_over_look"] = ratios[len(ratios) // 2]
    result["load_after"] = os.getloadavg()[0]
    print(f"median sync/look {result['median_sync_over_look']:.3f}; load "
          f"{result['load_before']:.1f} -> {result['load_after']:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
