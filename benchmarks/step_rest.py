"""Where a big scene's step goes, stage by stage as the step runs it, and how often it makes
new stores (issue 31 items 2-3).

    python benchmarks/step_rest.py [--steps 40] [--scenes rain_2000,pyramid_100,many_pyramids]

Each scene (``wide_solver.SCENES``: loaded, sleeping off, one thread, 4 substeps) is stepped on
with ``World.step``; each step's stages are read from the world's own clock, the CPU's cycle
counter that the step kernel reads between its stages (:data:`impulse2d._dynamics.step.STAGES`,
``World.profile``), converted to us by the counter's rate (measured here against
``perf_counter``). The stages, as the step kernel runs them:

- ``pairs``: the awake sets' refresh, the fat boxes, and (a box moved out of its fat box) the
  pair search with the contact store's merge, which makes a new contact store when the pairs
  changed;
- ``collide``: the contacts the stages visit (``find_contacts``) and the narrowphase;
- ``prepare``: the colouring, a new constraint store when the touching count changed, the wide
  solver's runs, and the solver's prepare of every row;
- ``solve``: the substeps (warm start, passes, integration), restitution, the impulses' store;
- ``finalize``: positions written back, the fast test (sleeping is off);
- ``continuous``: the sweeps of fast bodies;
- ``python``: the thread CPU of ``World.step`` less the kernel's cycles (the checks, the call).

After the steps, ``World.step(0)`` (the step's first stages only: bounds, no pair search as no
box moved, ``find_contacts`` and the narrowphase; poses and velocities unchanged, the manifolds
the same) runs ``--again`` rounds: its thread CPU less its pair stage is the ``collide`` stage
with the caches warm from the same stage (the step's follows the previous step's solve).
Alternating with it: ``contact_stages._narrow`` (the narrowphase compiled here, standalone) on
the world's own stores, and the step's own ``collide`` entry and ``find_contacts`` compiled here
from their source, called with the world's reference. Last, ``contact_stages.stage_times``
times the narrowphase, the colouring and the prepare alone on copies of the same stores
(``--verbs`` reps, 0: not run): what ``lanes36``'s fit subtracted from the step's once-a-step
part.

A loaded machine stretches a stage when the thread is preempted inside it, so each stage's
figure is its minimum over the steps (and the median beside it); the stores' counts are over
every step. A step's new stores are counted by wrapping ``adopt_step_stores``, which the step
calls with the two flags the kernel returns; the contact and touching counts before and after
tell why.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numba
import numpy as np

import impulse2d
from impulse2d._core.jit import cycles
from impulse2d import _stepping
from impulse2d._dynamics import step as step_module
from impulse2d._dynamics.awake import find_contacts
from impulse2d._dynamics.step import STAGES
from impulse2d._dynamics.world_ref import sync_constraints
from impulse2d.scenes import build_scene, step_scene
from contact_stages import _narrow, stage_times
from wide_solver import SCENES

RESULTS = Path(__file__).parent / "results"


def cycles_per_us() -> float:
    """The cycle counter's rate, from two readings of the world's clock 0.2 s apart."""
    @numba.njit(cache=False)
    def read():
        return cycles()

    read()
    c0, t0 = read(), time.perf_counter()
    while time.perf_counter() - t0 < 0.2:
        pass
    c1, t1 = read(), time.perf_counter()
    return (c1 - c0) / ((t1 - t0) * 1e6)


class StoreCounter:
    """Counts the steps that made a new contact or constraint store (the flags the step kernel
    returns, as ``step_world`` hands them to ``adopt_step_stores``)."""

    def __init__(self):
        self.contacts = 0
        self.constraints = 0
        self._adopt = _stepping.adopt_step_stores

    def __call__(self, world, contacts, constraints):
        self.contacts += bool(contacts)
        self.constraints += bool(constraints)
        self._adopt(world, contacts, constraints)


def counts(world):
    """The contact store's rows and the constraint store's (touching) rows."""
    sync_constraints(world)
    return world._contacts.key.shape[0], world._constraints.count.shape[0]


# The step's collide entry and find_contacts from their source, compiled here (not the cached
# machine code the step calls by address): called from Python with the world's reference.
_collide_here = numba.njit(cache=False, error_model="numpy")(step_module.collide.py_func)


@numba.njit(cache=False, error_model="numpy")
def _find_contacts_here(stores):
    find_contacts(stores)


def collide_again(world, reps, rate):
    """The collide stage run again on the same poses (``World.step(0)``), interleaved with the
    narrowphase alone (``contact_stages._narrow``, compiled here) on the world's own stores,
    and with the step's collide entry and ``find_contacts`` compiled here: the minimum over
    ``reps`` rounds of each, us of thread CPU, the first less its pair stage's cycles."""
    normal, points, ids = np.zeros(2), np.zeros((2, 3)), np.zeros(2, np.int64)
    every = np.empty(0, np.int64)
    world.step(0.0)
    stores = world._stores
    best = dict.fromkeys(("stage", "narrowphase", "entry_here", "find_contacts_here"), np.inf)

    def timed(name, fn, *a):
        t = time.thread_time()
        fn(*a)
        best[name] = min(best[name], (time.thread_time() - t) * 1e6)

    for rep in range(reps + 1):
        t = time.thread_time()
        world.step(0.0)
        cpu = (time.thread_time() - t) * 1e6
        best["stage"] = min(best["stage"], cpu - (world._clock[1] - world._clock[0]) / rate)
        timed("narrowphase", _narrow, world._contacts, world._shapes, world._bodies, normal,
              points, ids, every)
        timed("entry_here", _collide_here, stores)
        timed("find_contacts_here", _find_contacts_here, stores)
        if rep == 0:  # the compiles
            best = dict.fromkeys(best, np.inf)
    return {k: float(v) for k, v in best.items()}


def measure(key, scene, params, warm_steps, steps, again, verbs, rate):
    world = impulse2d.World(enable_sleep=False)
    info = build_scene(world, scene, **params)
    for i in range(warm_steps):
        step_scene(world, info, i)
    counter = StoreCounter()
    _stepping.adopt_step_stores = counter
    rows = {s: [] for s in (*STAGES, "kernel", "python", "step")}
    why = {"contact_rows_changed": 0, "contact_store_same_rows": 0,
           "touching_changed": 0, "constraint_store_same_touching": 0}
    split = {"pairs_new_store": [], "pairs_same_store": [],
             "prepare_new_store": [], "prepare_same_store": []}
    try:
        for i in range(steps):
            before = counts(world)
            c0, k0 = counter.contacts, counter.constraints
            t = time.thread_time()
            step_scene(world, info, warm_steps + i)
            cpu = (time.thread_time() - t) * 1e6
            clock = world._clock
            us = {s: (clock[k + 1] - clock[k]) / rate for k, s in enumerate(STAGES)}
            us["kernel"] = (clock[-1] - clock[0]) / rate
            us["python"] = max(cpu - us["kernel"], 0.0)
            us["step"] = cpu
            for s, v in us.items():
                rows[s].append(v)
            after = counts(world)
            new_c, new_k = counter.contacts > c0, counter.constraints > k0
            if new_c:
                why["contact_rows_changed" if after[0] != before[0]
                    else "contact_store_same_rows"] += 1
            if new_k:
                why["touching_changed" if after[1] != before[1]
                    else "constraint_store_same_touching"] += 1
            split["pairs_new_store" if new_c else "pairs_same_store"].append(us["pairs"])
            split["prepare_new_store" if new_k else "prepare_same_store"].append(us["prepare"])
    finally:
        _stepping.adopt_step_stores = counter._adopt
    contact_rows, touching = counts(world)
    again_us = collide_again(world, again, rate)
    alone = stage_times(world, verbs)[0] if verbs > 0 else {}
    low = {s: float(np.min(v)) for s, v in rows.items()}
    med = {s: float(np.median(v)) for s, v in rows.items()}
    return {
        "scene": key, "steps": steps, "after_steps": warm_steps,
        "contact_rows": contact_rows, "touching_rows": touching,
        "min_us": low, "median_us": med,
        "median_share": {s: med[s] / med["step"] for s in (*STAGES, "python")},
        "collide_again_min_us": again_us,
        "verbs_alone_min_us": {k: alone[k] for k in ("narrowphase", "colour", "prepare")
                               if k in alone},
        "new_contact_store_steps": counter.contacts,
        "new_constraint_store_steps": counter.constraints,
        "why": why,
        "split_min_us": {k: (float(np.min(v)) if v else None) for k, v in split.items()},
        "split_median_us": {k: (float(np.median(v)) if v else None) for k, v in split.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--again", type=int, default=15)
    ap.add_argument("--verbs", type=int, default=7)
    ap.add_argument("--scenes", default="rain_2000,pyramid_100,many_pyramids")
    ap.add_argument("--out", default=str(RESULTS / "step_rest_s11.json"))
    args = ap.parse_args()
    rate = cycles_per_us()
    out = {"what": "one World.step at 1/60 s, 4 substeps (soft_step), 1 thread, sleeping off; "
                   "stages from the step kernel's cycle counter (World.profile's clock); "
                   "python = thread CPU of World.step less the kernel's cycles; "
                   "collide_again = World.step(0) repeated, less its pair stage",
           "engine": impulse2d.__file__, "machine": platform.processor() or platform.machine(),
           "load_before": os.getloadavg(), "cycles_per_us": rate, "scenes": []}
    for key, scene, params, warm in SCENES:
        if key not in args.scenes.split(","):
            continue
        r = measure(key, scene, params, warm, args.steps, args.again, args.verbs,
                    rate)
        out["scenes"].append(r)
        print(f"\n{key}: {r['contact_rows']} contact rows, {r['touching_rows']} touching; "
              f"new contact store on {r['new_contact_store_steps']}/{args.steps} steps, "
              f"new constraint store on {r['new_constraint_store_steps']}; why {r['why']}")
        print("| stage | min us | median us | median share |")
        print("|---|---|---|---|")
        for s in (*STAGES, "python", "kernel", "step"):
            share = r["median_share"].get(s)
            print(f"| {s} | {r['min_us'][s]:.0f} | {r['median_us'][s]:.0f} | "
                  + (f"{100 * share:.1f} % |" if share is not None else "|"))
        print("collide again, interleaved (min us): the stage (World.step(0)), the narrowphase "
              "alone, the collide entry and find_contacts compiled here:",
              {k: round(v) for k, v in r["collide_again_min_us"].items()})
        print("alone (contact_stages, min us):",
              {k: round(v) for k, v in r["verbs_alone_min_us"].items()})
        print("split (min / median us):",
              {k: (None if v is None else f"{v:.0f}/{r['split_median_us'][k]:.0f}")
               for k, v in r["split_min_us"].items()}, flush=True)
    out["load_after"] = os.getloadavg()
    Path(args.out).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
