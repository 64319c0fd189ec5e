"""Where a big scene's contact step goes, verb by verb, on one world's rows, in one process.

    PYTHONPATH=src python benchmarks/contact_stages.py [--reps 15] [--scenes pyramid_100,rain_2000]

The world is stepped until its stack is loaded (sleeping off); then each verb of the soft step
runs alone on copies of the same stores, and the minimum over the repetitions is printed, us:
the narrowphase (``update_manifolds``: manifolds and the warm-start match), the colouring, the
prepare into the lanes, one warm-start pass, one biased and one relax pass over every row (as
a soft step's substeps but its last run them: keeping no bias or unclamped impulse; and
the same passes' gather and scatter alone, to show what the arithmetic costs), one
``integrate_velocities`` and one ``integrate_positions``, restitution and the copy back. The
step's own counts per step are printed beside it: a soft step of 4 substeps runs 4 of each pass
and of each integration. The minimum of repetitions on copies is robust to a loaded machine
(the scene stays the same); it is the cost of warm caches, not of the step's order of stages.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import impulse2d
from impulse2d._dynamics.constraint_graph import COLOR_COUNT, color_contacts
from impulse2d._dynamics.contact_lanes import (_gather, _piece, _scatter, apply_restitution_wide,
                                               solve_contacts_wide, store_lane_impulses,
                                               warm_start_contacts_wide)
from impulse2d._dynamics.contact_solver import prepare_contacts
from impulse2d._dynamics.contacts import update_manifolds
from impulse2d._dynamics.integrate import integrate_positions, integrate_velocities
from impulse2d._dynamics.lane_layout import flat_lanes, scratch_chunk
from impulse2d._dynamics.world_ref import stores_for_step, sync_constraints
from impulse2d.scenes import build_scene, step_scene
from wide_solver import SCENES, _copy  # (the same loaded scenes, the same store copies)

H = 1.0 / 240.0


@numba.njit(cache=False, _nrt=False)
def _narrow(contacts, shapes, bodies, out_normal, out_points, out_ids, rows):
    update_manifolds(contacts, shapes, bodies, 0.02, False, out_normal, out_points, out_ids, rows,
                     -1)


@numba.njit(cache=False, _nrt=False)
def _prepare(cs, order, contacts, bodies):
    prepare_contacts(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, True, 0)


@numba.njit(cache=False, _nrt=False)
def _pass(cs, bodies, verb):
    n = cs.count.shape[0]
    if verb == 0:
        warm_start_contacts_wide(cs, bodies, 0, n)
    elif verb == 1:
        solve_contacts_wide(cs, bodies, 0, n, 1.0 / H, True, True, 0.0, 0.0, 3.0, False, 1600.0)
    else:
        solve_contacts_wide(cs, bodies, 0, n, 1.0 / H, False, True, 0.0, 0.0, 3.0, True, 1600.0)


@numba.njit(cache=False, _nrt=False)
def _moves(cs, bodies, gaps):
    """A pass's gather and scatter alone (no arithmetic between them)."""
    hi = np.uint64(cs.count.shape[0])
    lanes = flat_lanes(cs)
    scratch = scratch_chunk(lanes)
    lo = np.uint64(0)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, scratch, bodies, base, start, i0, i1, gaps)
        _scatter(cs, scratch, bodies, start, i0, i1)
        lo = end


@numba.njit(cache=False, _nrt=False)
def _integrate(world, rows, which):
    if which == 0:
        integrate_velocities(world, rows, 0.0, -10.0, H)
    else:
        integrate_positions(world, rows, H, 400.0, 100.0)


@numba.njit(cache=False, _nrt=False)
def _finish(cs, bodies):
    n = cs.count.shape[0]
    apply_restitution_wide(cs, bodies, 0, n, 1.0, 1600.0, 0.0, -10.0, 0.5 * H)
    store_lane_impulses(cs, 0, n)


COLUMNS = ("narrowphase", "colour", "prepare", "warm", "solve", "relax", "gather+scatter",
           "gather(gaps)+scatter", "integrate v", "integrate x", "restitution+copy")


def loaded_world(scene, params, steps):
    """The scene stepped ``steps`` steps with sleeping off, its constraint rows current."""
    world = impulse2d.World(enable_sleep=False)
    info = build_scene(world, scene, **params)
    for i in range(steps):
        step_scene(world, info, i)
    sync_constraints(world)
    return world


def stage_times(world, reps):
    """Each verb alone on copies of ``world``'s stores, ``reps`` times after one untimed round
    (the compile); the minimum of each, us of thread CPU, and the constraint rows."""
    cs0, bodies0, contacts0, shapes = (world._constraints, world._bodies, world._contacts,
                                       world._shapes)
    order = cs0.contact.copy()
    rows = np.flatnonzero(bodies0.alive & (bodies0.type == 2)).astype(np.int64)
    normal, points, ids = np.zeros(2), np.zeros((2, 3)), np.zeros(2, np.int64)
    best = dict.fromkeys(COLUMNS, np.inf)

    def timed(name, fn, *a):
        t = time.thread_time()
        fn(*a)
        if rep > 0:
            best[name] = min(best[name], time.thread_time() - t)

    for rep in range(reps + 1):
        contacts, bodies, cs = _copy(contacts0), _copy(bodies0), _copy(cs0)
        timed("narrowphase", _narrow, contacts, shapes, bodies, normal, points, ids,
              np.empty(0, np.int64))
        timed("colour", color_contacts, contacts0.count, contacts0.body_a, contacts0.body_b,
              bodies0.type, bodies0.asleep, bodies0.type.shape[0], COLOR_COUNT,
              np.empty(0, np.int64), -1)
        timed("prepare", _prepare, cs, order, contacts0, bodies)
        timed("warm", _pass, cs, bodies, 0)
        timed("solve", _pass, cs, bodies, 1)
        timed("relax", _pass, cs, bodies, 2)
        timed("gather+scatter", _moves, cs, bodies, False)
        timed("gather(gaps)+scatter", _moves, cs, bodies, True)
        world._bodies = bodies  # (the integrations borrow the bodies from the world)
        ref = stores_for_step(world)
        timed("integrate v", _integrate, ref, rows, 0)
        timed("integrate x", _integrate, ref, rows, 1)
        timed("restitution+copy", _finish, cs, bodies)
    return {k: v * 1e6 for k, v in best.items()}, order.shape[0]


def substep_total(us):
    """A soft step of 4 substeps from the verbs' times: once a step the narrowphase, the
    colouring, the prepare, restitution and the copy back; 4 times the rest (one warm start,
    one biased and one relax pass, both integrations)."""
    return (us["narrowphase"] + us["colour"] + us["prepare"] + us["restitution+copy"]
            + 4 * (us["warm"] + us["solve"] + us["relax"] + us["integrate v"]
                   + us["integrate x"]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--scenes", default=",".join(key for key, *_ in SCENES))
    args = ap.parse_args()
    print("| scene | rows | " + " | ".join(COLUMNS) + " | 4-substep total |")
    print("|---" * (len(COLUMNS) + 3) + "|")
    for key, scene, params, steps in SCENES:
        if key not in args.scenes.split(","):
            continue
        us, rows = stage_times(loaded_world(scene, params, steps), args.reps)
        print(f"| {key} | {rows} | " + " | ".join(f"{us[c]:.0f}" for c in COLUMNS)
              + f" | {substep_total(us):.0f} |", flush=True)


if __name__ == "__main__":
    main()
