"""The wide contact solver against the one-row-at-a-time one, on the same rows, in one process.

    PYTHONPATH=src python benchmarks/wide_solver.py [--reps 30]

For each scene, the world is stepped until its stack is loaded, then one substep's contact
passes of the soft step (warm start, the biased pass, the relax pass) run on copies of the same
constraint rows and bodies, alternately with :func:`~impulse2d._dynamics.contact_solver`'s
verbs and with :mod:`~impulse2d._dynamics.contact_lanes` (its pack and unpack included, which
a step pays once, not per substep: so this overstates the wide solver's cost by 3/4 of them;
and the pack here is a pass of its own, where the step packs each row as it prepares it).
Alternating in one process makes the ratio robust to a loaded machine; the minimum over the
repetitions is reported. The bodies' velocities must come out bit for bit equal (checked).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import impulse2d
from impulse2d._dynamics.contact_lanes import (flat_lanes, pack_row, solve_contacts_wide,
                                               unpack_lanes, warm_start_contacts_wide)
from impulse2d._dynamics.contact_solver import solve_contacts, warm_start_contacts
from impulse2d._dynamics.world_ref import sync_constraints
from impulse2d.scenes import build_scene, step_scene

SCENES = (("pyramid_20", "pyramid", {"base": 20}, 60),
          ("pyramid_100", "pyramid", {"base": 100}, 60),
          ("rain_2000", "rain", {"count": 2000}, 300),
          ("many_pyramids", "many_pyramids", {"grid": 10, "base": 10}, 60))


@numba.njit(cache=False)
def _serial(cs, bodies, inv_h, contact_speed, speed_cap):
    warm_start_contacts(cs, bodies)
    solve_contacts(cs, bodies, inv_h, True, True, 0.0, 0.0, contact_speed, False, speed_cap)
    solve_contacts(cs, bodies, inv_h, False, True, 0.0, 0.0, contact_speed, True, speed_cap)


@numba.njit(cache=False)
def _pack_lanes(cs):
    lanes = flat_lanes(cs)
    for q in range(cs.count.shape[0]):
        pack_row(cs, lanes, q)  # what prepare_contacts does as it prepares each row


@numba.njit(cache=False)
def _wide(cs, bodies, inv_h, contact_speed, speed_cap):
    _pack_lanes(cs)
    warm_start_contacts_wide(cs, bodies)
    solve_contacts_wide(cs, bodies, inv_h, True, True, 0.0, 0.0, contact_speed, False,
                        speed_cap)
    solve_contacts_wide(cs, bodies, inv_h, False, True, 0.0, 0.0, contact_speed, True,
                        speed_cap)
    unpack_lanes(cs)


@numba.njit(cache=False)
def _pack_only(cs):
    _pack_lanes(cs)
    unpack_lanes(cs)


def _copy(store):
    return type(store)(*(np.array(column, copy=True) for column in store))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--scenes", default=",".join(key for key, *_ in SCENES))
    args = ap.parse_args()
    print("| scene | rows | serial us | wide us | wide/serial | pack+unpack us |")
    print("|---|---|---|---|---|---|")
    for key, scene, params, steps in SCENES:
        if key not in args.scenes.split(","):
            continue
        world = impulse2d.World(enable_sleep=False)
        info = build_scene(world, scene, **params)
        for i in range(steps):
            step_scene(world, info, i)
        sync_constraints(world)
        cs0, bodies0 = world._constraints, world._bodies
        h = 1.0 / 240.0
        times = {"serial": [], "wide": [], "pack": []}
        out = {}
        for rep in range(args.reps + 1):
            for name, fn in (("serial", _serial), ("wide", _wide)):
                cs, bodies = _copy(cs0), _copy(bodies0)
                t = time.perf_counter()
                fn(cs, bodies, 1.0 / h, 3.0, 1600.0)
                times[name].append(time.perf_counter() - t)
                out[name] = bodies
            cs = _copy(cs0)
            t = time.perf_counter()
            _pack_only(cs)
            times["pack"].append(time.perf_counter() - t)
        assert np.array_equal(out["serial"].v, out["wide"].v)
        assert np.array_equal(out["serial"].w, out["wide"].w)
        best = {k: min(v[1:]) * 1e6 for k, v in times.items()}  # the first holds the compile
        print(f"| {key} | {cs0.count.shape[0]} | {best['serial']:.0f} | {best['wide']:.0f} | "
              f"{best['wide'] / best['serial']:.2f} | {best['pack']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
