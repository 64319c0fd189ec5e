"""What a step's new contact or constraint store costs, and how often a step makes one
(issue 31 item 3).

    python benchmarks/store_cost.py [--steps 40] [--reps 400] [--json FILE]

Two worlds: ``rain_2000`` (``wide_solver.SCENES``: loaded, sleeping off, one thread, 4 substeps
of the soft step, 1/60 s) and ``batch_bench.py``'s 10-body world (8 circles and 2 boxes dropped
on a floor, sleeping on; a world of the 1,024-world batch, stepped alone here). Each is stepped
``--steps`` times with ``World.step``; the steps that made a new store are counted by wrapping
``adopt_step_stores`` (the kernel's two flags), and the step's time is the world's own clock
(the cycle counter the step kernel reads between its stages) and the process's CPU; the minor
page faults of each step (``getrusage``) are split by whether it made a store.

Then, on the world's own sizes (its contact rows, its touching rows, the lanes it solves in),
micro-kernels compiled here time, per store made (CPU time of ``--reps`` repetitions, the
minimum of 5 rounds):

- ``constraints_new``: ``allocate_constraints`` as the step calls it (the count alternating
  between n and n + 1, each new store made while the last is alive, then the last freed);
- ``constraints_zeroed``: the same rows zeroed in place in a store that has the capacity (what a
  kept store costs if its rows must read as a new one's);
- ``contacts_new``: ``allocate_contacts`` and ``carry_contacts`` (the pair stage's merge, a pair
  dropped and put back in turn), less ``contacts_carry``: the merge alone into a store of the
  capacity, already allocated.

The difference between the first of each and the in-place figure is what keeping capacity can
save; times the fraction of steps that make a store, over the step, it is the share of the step.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time

import numba
import numpy as np
from numba import literal_unroll

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import impulse2d  # noqa: E402
from impulse2d import _stepping  # noqa: E402
from impulse2d._dynamics.contact_solver import allocate_constraints  # noqa: E402
from impulse2d._dynamics.contacts import allocate_contacts, carry_contacts  # noqa: E402
from impulse2d.settings import MIXING_CODES  # noqa: E402
from impulse2d._dynamics.world_ref import sync_constraints  # noqa: E402
from impulse2d.scenes import build_scene, step_scene  # noqa: E402
from batch_bench import ten_bodies  # noqa: E402
from wide_solver import SCENES  # noqa: E402

RESULTS = os.path.join(HERE, "results")
SQRT, MAX = MIXING_CODES["sqrt"], MIXING_CODES["max"]  # the merge's rules (Box2D's)


@numba.njit(cache=False)
def _constraints_new(n, old, lane_rows, reps):
    cs = allocate_constraints(n, old, lane_rows)
    for r in range(reps):
        cs = allocate_constraints(n + (r & 1), cs, lane_rows)
    return cs.count.shape[0]


@numba.njit(cache=False)
def _constraints_zeroed(n, old, lane_rows, reps):
    cs = allocate_constraints(n + 1, old, lane_rows)
    for r in range(reps):
        m = n + (r & 1)
        for column in literal_unroll(cs[:-3]):  # the rows' columns, not the lanes
            column[:m] = 0
        cs.lane_end[:m] = 0
        cs.in_lanes[:m] = False
    return cs.count.shape[0]


@numba.njit(cache=False)
def _spare_contacts(count, old):
    """:func:`allocate_contacts` from Python (an inner kernel: no Python wrapper)."""
    return allocate_contacts(count, old)


@numba.njit(cache=False)
def _contacts_new(old, pairs_a, pairs_b, shapes, reps):
    for r in range(reps):
        pairs = pairs_b if r & 1 else pairs_a
        fresh = allocate_contacts(pairs.shape[0], old)
        carry_contacts(old, fresh, pairs, shapes, SQRT, MAX)
        old = fresh
    return old.key.shape[0]


@numba.njit(cache=False)
def _contacts_carry(old, spare_a, spare_b, pairs_a, pairs_b, shapes, reps):
    for r in range(reps):
        if r & 1:
            carry_contacts(old, spare_b, pairs_b, shapes, SQRT, MAX)
            old = spare_b
        else:
            carry_contacts(old, spare_a, pairs_a, shapes, SQRT, MAX)
            old = spare_a
    return old.key.shape[0]


def _cpu_per_rep(call, reps: int, rounds: int = 5) -> float:
    """Minimum over ``rounds`` of the process CPU of ``call(reps)``, us a repetition."""
    call(2)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        call(reps)
        best = min(best, time.process_time() - t0)
    return best / reps * 1e6


def _counted_steps(world, steps: int, step) -> dict:
    """Step ``world`` ``steps`` times; the steps that made each store, and the step's time."""
    made = {"contacts": 0, "constraints": 0}
    adopt = _stepping.adopt_step_stores

    def counting(w, contacts, constraints):
        made["contacts"] += bool(contacts)
        made["constraints"] += bool(constraints)
        adopt(w, contacts, constraints)

    _stepping.adopt_step_stores = counting
    cycles = []
    faults = {True: [], False: []}  # minor page faults a step, by whether it made a store
    try:
        t0 = time.process_time()
        for _ in range(steps):
            before = made["contacts"] + made["constraints"]
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            step()
            f1 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            faults[made["contacts"] + made["constraints"] > before].append(f1 - f0)
            c = world._clock
            cycles.append(int(c[-1] - c[0]))
        cpu = (time.process_time() - t0) / steps * 1e6
    finally:
        _stepping.adopt_step_stores = adopt
    return {"steps": steps, "new_contact_stores": made["contacts"],
            "new_constraint_stores": made["constraints"], "step_cpu_us": cpu,
            "step_cycles_median": float(np.median(cycles)),
            "page_faults_new_store_steps_median": float(np.median(faults[True] or [0])),
            "page_faults_other_steps_median": float(np.median(faults[False] or [0]))}


def _sizes(world) -> tuple:
    sync_constraints(world)
    contacts = world._contacts
    cs = world._constraints
    return contacts, cs


def _pairs_pair(contacts) -> tuple:
    """The world's pairs, and the same less one in the middle (the merge's two inputs)."""
    keys = contacts.key
    pairs = np.stack([keys >> 32, keys & 0xFFFFFFFF], axis=1).astype(np.int64)
    return np.ascontiguousarray(pairs), np.ascontiguousarray(np.delete(pairs, len(pairs) // 2,
                                                                       axis=0))


def measure(world, reps: int) -> dict:
    contacts, cs = _sizes(world)
    n = cs.count.shape[0]
    lane_rows = cs.lanes.shape[0]
    shapes = world._shapes
    pairs_a, pairs_b = _pairs_pair(contacts)
    spare_a = _spare_contacts(pairs_a.shape[0], contacts)
    spare_b = _spare_contacts(pairs_b.shape[0], contacts)
    out = {"touching_rows": int(n), "contact_rows": int(pairs_a.shape[0]),
           "lane_rows": int(lane_rows)}
    out["constraints_new_us"] = _cpu_per_rep(
        lambda r: _constraints_new(n, cs, lane_rows, r), reps)
    out["constraints_zeroed_us"] = _cpu_per_rep(
        lambda r: _constraints_zeroed(n, cs, lane_rows, r), reps)
    out["contacts_new_us"] = _cpu_per_rep(
        lambda r: _contacts_new(contacts, pairs_a, pairs_b, shapes, r), reps)
    out["contacts_carry_us"] = _cpu_per_rep(
        lambda r: _contacts_carry(contacts, spare_a, spare_b, pairs_a, pairs_b, shapes, r), reps)
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--json", default=os.path.join(RESULTS, "store_cost.json"))
    args = parser.parse_args(argv)

    result = {"machine": platform.processor() or platform.machine(),
              "load": os.getloadavg(), "engine": os.path.dirname(impulse2d.__file__),
              "worlds": {}}
    name, kind, params, warm = SCENES[2]  # rain_2000
    world = impulse2d.World(enable_sleep=False)
    info = build_scene(world, kind, **params)
    for i in range(warm):
        step_scene(world, info, i)
    steps = iter(range(warm, warm + args.steps))
    rain = _counted_steps(world, args.steps, lambda: step_scene(world, info, next(steps)))
    rain.update(measure(world, max(args.reps // 20, 10)))
    result["worlds"][name] = rain

    small = ten_bodies()
    for _ in range(20):
        small.step(1 / 60)
    ten = _counted_steps(small, args.steps * 3, lambda: small.step(1 / 60))
    ten.update(measure(small, args.reps * 20))
    result["worlds"]["ten_bodies"] = ten

    for key, row in result["worlds"].items():
        f_c = row["new_constraint_stores"] / row["steps"]
        f_k = row["new_contact_stores"] / row["steps"]
        saved_c = row["constraints_new_us"]
        saved_k = row["contacts_new_us"] - row["contacts_carry_us"]
        row["share_of_step_cpu"] = (f_c * saved_c + f_k * saved_k) / row["step_cpu_us"]
        print(f"{key}: {row['steps']} steps, new constraint stores {row['new_constraint_stores']},"
              f" new contact stores {row['new_contact_stores']}; step {row['step_cpu_us']:.1f} us"
              f" CPU; rows: touching {row['touching_rows']}, contacts {row['contact_rows']},"
              f" lanes {row['lane_rows']}; minor page faults a step (median), making a store"
              f" {row['page_faults_new_store_steps_median']:.0f}, not"
              f" {row['page_faults_other_steps_median']:.0f}")
        print(f"  constraints: new {row['constraints_new_us']:.3f} us, zeroed in place"
              f" {row['constraints_zeroed_us']:.3f}; contacts: new + merge"
              f" {row['contacts_new_us']:.3f}, merge alone {row['contacts_carry_us']:.3f};"
              f" share of the step's CPU: {100 * row['share_of_step_cpu']:.2f} %")
    result["load_after"] = os.getloadavg()
    if args.json:
        os.makedirs(os.path.dirname(args.json), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
