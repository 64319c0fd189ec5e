"""Where a small world's step goes, inside a batch and alone: per-stage nanoseconds and the
bytes of each world's stores.

    PYTHONPATH=src python benchmarks/batch_stages.py [--steps 120] [--json FILE]

The world is ``batch_bench.py``'s (8 circles and 2 boxes dropped on a floor, the soft step,
4 substeps, sleeping on); a **world-step** is one 1/60 s engine step of one world. Every step
reads the CPU's cycle counter between its stages into the world's clock (``World.profile``'s
source, :data:`impulse2d._dynamics.step.STAGES`); this script averages those readings over
every world and step of the first ``--steps`` steps, for a batch of 64 and of 1,024 worlds stepped
on one thread (``WorldBatch.step``) and for the same world stepped alone (``World.step``, one
world at a time, so its stores stay in the CPU's caches), and converts them to nanoseconds
with the counter's rate measured against ``time.perf_counter_ns``. The stages:

* ``pairs``: bounding boxes and the pair search; ``collide``: the awake sets, the narrowphase
  and the wake; ``prepare``: colouring, the constraint store, the contact and joint prepare;
  ``solve``: the substeps (integrate, warm start, solve, relax), restitution and storing the
  impulses; ``finalize``: the bodies' finalize and the sleep stage; ``continuous``: the sweep.

``other`` is the batch kernel's wall time less the stages: the loop over the worlds, the
step kernel's entry and return, and the allocations between the clock readings (and, on a
loaded machine, the time the core was taken away: the stages leave out the world-steps that
took over 4 times the median, ``dropped`` is their fraction, the wall time does not).

The bytes: every array of each store a world's step reference holds (its capacity, what a
step may touch), the rows in use (live bodies and shapes, contacts, constraint rows), and the
arrays' descriptors in the reference (:func:`store_bytes`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _envs_timing import ticks_per_ns  # noqa: E402
from batch_bench import ten_bodies  # noqa: E402


def _split(clocks: np.ndarray) -> tuple:
    """Mean ticks per stage over the rows of ``clocks`` (one clock per world-step), leaving
    out the world-steps that took more than 4 times the median (the core was taken from the
    process in the middle: on a loaded machine a time slice is hundreds of world-steps), and
    the fraction left out."""
    ticks = np.diff(clocks, axis=1)
    total = ticks.sum(axis=1)
    kept = total <= 4 * np.median(total)
    return ticks[kept].mean(axis=0), 1.0 - kept.mean()


def _batch_split(n: int, steps: int) -> tuple:
    import impulse2d as i2d
    from impulse2d._dynamics import batch_step
    batch = i2d.WorldBatch.replicate(ten_bodies(), n, threads=1)
    worlds = batch.worlds
    clocks = np.empty((n * steps, 7), dtype=np.int64)
    wall = 0.0
    run = batch_step.run

    def timed(refs, which, args, out, *gather):  # the kernel's own wall time
        nonlocal wall
        seconds = run(refs, which, args, out, *gather)
        wall += seconds
        return seconds

    batch_step.run = timed
    try:
        for s in range(steps):
            batch.step(1 / 60)
            for k, w in enumerate(worlds):
                clocks[s * n + k] = w._clock
    finally:
        batch_step.run = run
    return clocks, wall


def _alone_split(steps: int, copies: int) -> tuple:
    clocks = np.empty((copies * steps, 7), dtype=np.int64)
    wall = 0.0
    for c in range(copies):
        world = ten_bodies()
        for s in range(steps):
            world.step(1 / 60)
            clocks[c * steps + s] = world._clock
            wall += world._step_seconds
    return clocks, wall


def cache_lines(store) -> set:
    """The 64-byte lines (addresses // 64) the data of ``store``'s arrays lie on: what a step
    that reads one entry of each array and all of the rows in use reaches at least. Arrays
    allocated one by one each start a line of their own (and NumPy's small allocations sit
    apart, headers between them); arrays carved from one buffer share lines."""
    lines = set()
    for a in store:
        if isinstance(a, np.ndarray) and a.nbytes:
            start = a.ctypes.data
            lines.update(range(start // 64, (start + a.nbytes - 1) // 64 + 1))
    return lines


def store_bytes(world) -> dict:
    """Bytes of the arrays of each store a world's step reaches (capacity rows), the rows in
    use, and the bytes of their descriptors in the world's reference (what a kernel reads to
    find an array: Numba's array struct, meminfo, parent, item count and size, data pointer,
    then a shape and a stride per dimension, 8 bytes each). The constraint store is the one
    the reference holds (fetched: :func:`~impulse2d._dynamics.world_ref.sync_constraints`),
    its wide solver's lanes as allocated (none for a world solved row by row)."""
    from impulse2d._dynamics.world_ref import sync_constraints
    sync_constraints(world)
    out = {}
    for name, store in (("bodies", world._bodies), ("shapes", world._shapes),
                        ("joints", world._joints), ("contacts", world._contacts),
                        ("constraints", world._constraints)):
        arrays = [a for a in store if isinstance(a, np.ndarray)]
        out[name] = {"capacity_rows": int(arrays[0].shape[0]) if arrays else 0,
                     "bytes": int(sum(a.nbytes for a in arrays)),
                     "arrays": len(arrays),
                     "row_bytes": int(sum(a.nbytes // max(a.shape[0], 1) for a in arrays)),
                     "descriptor_bytes": int(sum(8 * (5 + 2 * a.ndim) for a in arrays))}
    out["bodies"]["live_rows"] = int(world._bodies.alive.sum())
    out["shapes"]["live_rows"] = int(world._shapes.alive.sum())
    out["contacts"]["touching_rows"] = int((world._contacts.count > 0).sum())
    out["constraints"]["lanes_bytes"] = int(world._constraints.lanes.nbytes)
    for name, store in (("bodies", world._bodies), ("shapes", world._shapes),
                        ("joints", world._joints), ("contacts", world._contacts)):
        out[name]["lines"] = len(cache_lines(store))
    stores = [v for v in out.values()]
    out["total_lines_bodies_shapes_contacts"] = len(
        cache_lines(world._bodies) | cache_lines(world._shapes) | cache_lines(world._contacts))
    out["total_bytes"] = int(sum(v["bytes"] for v in stores))
    out["total_descriptor_bytes"] = int(sum(v["descriptor_bytes"] for v in stores))
    out["total_arrays"] = int(sum(v["arrays"] for v in stores))
    return out


def main(argv=None) -> dict:
    from impulse2d._dynamics.step import STAGES
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    _batch_split(4, 2)  # compile or load every kernel
    _alone_split(2, 1)
    rate = ticks_per_ns()
    out = {"load_before": os.getloadavg()[0], "ticks_per_ns": rate, "steps": args.steps,
           "stages": list(STAGES), "ns_per_world_step": {}}
    runs = [("alone", lambda: _alone_split(args.steps, 16), 16),
            ("batch_64", lambda: _batch_split(64, args.steps), 64),
            ("batch_1024", lambda: _batch_split(1024, args.steps), 1024)]
    for name, run, worlds in runs:
        clocks, wall = run()
        ticks, dropped = _split(clocks)
        per = ticks / rate
        row = {stage: float(x) for stage, x in zip(STAGES, per)}
        row["stages_total"] = float(per.sum())
        row["kernel_wall"] = 1e9 * wall / (worlds * args.steps)
        row["other"] = row["kernel_wall"] - row["stages_total"]
        row["dropped"] = float(dropped)
        out["ns_per_world_step"][name] = row
        print(f"{name:>10}: " + " ".join(f"{k} {v:7.0f}" for k, v in row.items()) + " ns",
              flush=True)
    world = ten_bodies()
    for _ in range(60):
        world.step(1 / 60)
    out["store_bytes_after_60_steps"] = store_bytes(world)
    b = out["store_bytes_after_60_steps"]
    print("bytes per world: " + ", ".join(
        f"{k} {v['bytes']} ({v['capacity_rows']} rows of {v['row_bytes']} B, {v['arrays']} "
        f"arrays)" for k, v in b.items() if isinstance(v, dict))
        + f"; total {b['total_bytes']} in {b['total_arrays']} arrays, their descriptors "
        f"{b['total_descriptor_bytes']}; lines of bodies, shapes and contacts "
        f"{b['total_lines_bodies_shapes_contacts']}")
    out["load_after"] = os.getloadavg()[0]
    print(f"load {out['load_before']:.1f} -> {out['load_after']:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
