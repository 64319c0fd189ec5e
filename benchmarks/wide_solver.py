"""The wide contact solver against the one-row-at-a-time one, on the same rows, in one process.

    PYTHONPATH=src python benchmarks/wide_solver.py [--reps 30] [--scenes pyramid_20,rain_2000]

For each scene, the world is stepped until its stack is loaded; then one step's contact work
of the soft step (prepare the rows, four substeps of warm start, biased pass and relax pass,
restitution, and for the wide solver the copy of the kept impulses back to the rows) runs on
copies of the same contacts and bodies, alternately with
:mod:`~impulse2d._dynamics.contact_solver`'s verbs (the rows) and with
:mod:`~impulse2d._dynamics.contact_lanes` (the lanes, called directly here, not by address).
Alternating in one process makes the ratio robust to a loaded machine; the minimum over the
repetitions is reported, and the prepare alone (each way) beside it. The bodies' velocities
must come out bit for bit equal (checked).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import impulse2d
from impulse2d._dynamics.contact_lanes import (apply_restitution_wide, solve_contacts_wide,
                                               store_lane_impulses, warm_start_contacts_wide)
from impulse2d._dynamics.contact_solver import (apply_restitution, prepare_contacts,
                                                solve_contacts, warm_start_contacts)
from impulse2d._dynamics.world_ref import sync_constraints
from impulse2d.scenes import build_scene, step_scene

SCENES = (("pyramid_20", "pyramid", {"base": 20}, 60),
          ("pyramid_100", "pyramid", {"base": 100}, 60),
          ("rain_2000", "rain", {"count": 2000}, 300),
          ("many_pyramids", "many_pyramids", {"grid": 10, "base": 10}, 60))
SUBSTEPS = 4


# The row passes each a kernel of its own without reference counting, as the engine compiles
# them (.contact_rows' borrowing kernels; those take the world, these the stores held here).
_borrowing = numba.njit(cache=False, _nrt=False, no_cpython_wrapper=True)


@_borrowing
def _warm_rows(cs, bodies, first, last):
    warm_start_contacts(cs, bodies, first, last)


@_borrowing
def _solve_rows(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                contact_speed, last_sweep, speed_cap):
    solve_contacts(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                   contact_speed, last_sweep, speed_cap)


@_borrowing
def _restitution_rows(cs, bodies, first, last, threshold, speed_cap, gx, gy, half_kick):
    apply_restitution(cs, bodies, first, last, threshold, speed_cap, gx, gy, half_kick)


@numba.njit(cache=False)
def _step(cs, contacts, bodies, order, wide, passes, inv_h, contact_speed, speed_cap):
    n = order.shape[0]
    prepare_contacts(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, wide, 0)
    for _ in range(passes):
        if wide:
            warm_start_contacts_wide(cs, bodies, 0, n)
            solve_contacts_wide(cs, bodies, 0, n, inv_h, True, True, 0.0, 0.0, contact_speed,
                                False, speed_cap)
            solve_contacts_wide(cs, bodies, 0, n, inv_h, False, True, 0.0, 0.0, contact_speed,
                                True, speed_cap)
        else:
            _warm_rows(cs, bodies, 0, n)
            _solve_rows(cs, bodies, 0, n, inv_h, True, True, 0.0, 0.0, contact_speed, False,
                        speed_cap)
            _solve_rows(cs, bodies, 0, n, inv_h, False, True, 0.0, 0.0, contact_speed, True,
                        speed_cap)
    if passes > 0:
        if wide:
            apply_restitution_wide(cs, bodies, 0, n, 1.0, speed_cap, 0.0, -10.0, 0.5 / inv_h)
            store_lane_impulses(cs, 0, n)
        else:
            _restitution_rows(cs, bodies, 0, n, 1.0, speed_cap, 0.0, -10.0, 0.5 / inv_h)


def _copy(store):
    return type(store)(*(np.array(column, copy=True) for column in store))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--scenes", default=",".join(key for key, *_ in SCENES))
    args = ap.parse_args()
    print("| scene | rows | two-point rows | serial step us | wide step us | wide/serial | "
          "prepare serial us | prepare wide us |")
    print("|---|---|---|---|---|---|---|---|")
    for key, scene, params, steps in SCENES:
        if key not in args.scenes.split(","):
            continue
        world = impulse2d.World(enable_sleep=False)
        info = build_scene(world, scene, **params)
        for i in range(steps):
            step_scene(world, info, i)
        sync_constraints(world)
        cs0, bodies0, contacts = world._constraints, world._bodies, world._contacts
        order = cs0.contact.copy()
        h = 1.0 / 240.0
        times = {(wide, passes): [] for wide in (False, True) for passes in (0, SUBSTEPS)}
        out = {}
        for rep in range(args.reps + 1):
            for wide in (False, True):
                for passes in (0, SUBSTEPS):
                    cs, bodies = _copy(cs0), _copy(bodies0)
                    t = time.perf_counter()
                    _step(cs, contacts, bodies, order, wide, passes, 1.0 / h, 3.0, 1600.0)
                    times[(wide, passes)].append(time.perf_counter() - t)
                    out[wide] = bodies
        assert np.array_equal(out[False].v, out[True].v)
        assert np.array_equal(out[False].w, out[True].w)
        best = {k: min(v[1:]) * 1e6 for k, v in times.items()}  # the first holds the compile
        serial, wide = best[(False, SUBSTEPS)], best[(True, SUBSTEPS)]
        print(f"| {key} | {order.shape[0]} | {int((cs0.count == 2).sum())} | {serial:.0f} | "
              f"{wide:.0f} | {wide / serial:.2f} | {best[(False, 0)]:.0f} | "
              f"{best[(True, 0)]:.0f} |", flush=True)


if __name__ == "__main__":
    main()
