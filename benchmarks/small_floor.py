"""A small world's step kernel by the piece: the fixed floor under a few bodies (issue 31
item 5, issue 30: what a world of a batch pays too).

    PYTHONPATH=src python benchmarks/small_floor.py [--worlds restitution,ten_bodies] \\
        [--reps 400] [--json out.json]

Builds each world as ``small_fixed.py`` does (``run.py``'s ``restitution``: 5 balls on a
floor; ``batch_bench.ten_bodies``: 8 circles and 2 boxes dropped on a floor, sleeping off),
steps it 60 steps, and times, in cycles of the step kernel's own counter
(:func:`impulse2d._core.jit.cycles`, the x86 time-stamp counter):

* ``stages``: each stage's cycles in ``World.step`` (``World._clock``), median over
  ``--steps`` steps, and their sum;
* ``entry_cycles``: the step through its compiled entry point from Python (``step_world``'s
  call: the wrapper, the reference's unboxing, the GIL, the tuple, the kernel), CPU time a call
  (``time.process_time``, least of 5 runs from the same state) at the counter's rate measured
  here (``ghz``);
* ``pieces``: each call the step kernel and the soft step (``solvers._soft_step``) make, called
  alone as they call it, cycles a call and a step (the soft step's per-substep calls times
  the substeps). A stage's pieces called on the state one step leaves (the bounds of bodies
  that did not move since, the colouring of the same contacts) cost what the step's own
  call costs when nothing changed, so the pieces name the floor: what a step pays whatever its
  rows hold. ``pieces`` at the step (of the 60 after the snapshot) with the most touching
  rows, ``pieces_least`` at the one with the fewest (balls in flight: the floor itself).

Each piece is timed from the same state: a snapshot restored, then the steps up to the one
chosen (the first rebuilds the stores' reference and the table of verbs that a restore leaves
out); least of 5 runs of ``--reps`` calls. A step is ``World.step(1/60)`` with ``run.py``'s settings (``soft_step``, 4
substeps, 1 thread, sleeping off). No timing is compared against a fixed figure: the pieces
rank against each other within one process.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numba
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
DT = 1.0 / 60.0
# a piece's arguments, one float64 row: dt, gravity, the substep and its inverse, the speed
# cap of a row (solvers.impulse_caps), the solve order's rows and where they start
DT_, GX, GY, H, INV_H, CAP, N, AT = range(8)


def _timer(body, nrt=False):
    """A compiled timer of ``body(world, a)`` (``a``: a float64 row of its arguments): least of
    5 runs of ``reps`` calls, cycles a call. The results are summed and returned so that no
    call is dropped as unused. ``nrt``: with Numba's runtime (a body that may allocate)."""
    from impulse2d._core.jit import cycles

    @numba.njit(_nrt=nrt)
    def timer(world, a, reps):
        best = 1 << 62
        sink = 0.0
        for _ in range(5):
            t0 = cycles()
            for _ in range(reps):
                sink += body(world, a)
            best = min(best, cycles() - t0)
        return best / reps, sink

    return timer


_MADE = {}


def _bodies():
    """The pieces (made once a process): name -> (whether it runs every substep, its timer).
    ``a``: a row of the arguments (:data:`DT_` ...)."""
    from impulse2d._dynamics import step as S
    from impulse2d._dynamics.awake import body_rows, find_contacts
    from impulse2d._dynamics.contact_lanes import (LANE_SOLVE, LANE_WARM_START, finish_lanes,
                                                   in_lanes, lanes_pass, restitution)
    from impulse2d._dynamics.contact_solver import prepare_contacts, store_impulses
    from impulse2d._dynamics.integrate import (finalize_bodies, integrate_clamp_velocities,
                                               integrate_positions)
    from impulse2d._dynamics.scratch import order_view
    from impulse2d._dynamics.softness import soft_coefficients
    from impulse2d._dynamics.solvers import AFTER_CLAMP, has_joint_rows, impulse_caps
    from impulse2d._dynamics.world_ref import borrow
    from impulse2d.constants import MAX_ROTATION
    from impulse2d._core.jit import cycles

    nj = numba.njit(_nrt=False)

    def settings_row(world, a):
        return S._settings_row(world)[4]

    def tick(world, a):
        S._tick(world, 6)
        return 0.0

    def move_size(world, a):
        return S._move_size(world)

    def update_bounds(world, a):
        n, new = S._update_bounds(world, False)
        return n

    def contact_rows(world, a):
        return S._contact_rows(world)

    def find(world, a):
        find_contacts(world)
        return 0.0

    def collide(world, a):
        return 1.0 if S.call_collide(S._collide_entry(world), (world,)) else 0.0

    def verb_chains(world, a):
        return S._verb(world, S.CHAINS)

    def colour_size(world, a):
        return S._colour_size(world)

    def colour(world, a):
        n, at = S._colour(world)
        return n

    def constraints_needed(world, a):
        new, lanes = S._constraints_needed(world, np.int64(a[N]))
        return lanes

    def mark_runs(world, a):
        S._mark_runs(world)
        return 0.0

    def velocities_rows(world, a):
        return S._velocities_rows(world, 0.0)

    def soft_coefficients3(world, a):
        r, m, i = soft_coefficients(30.0, 10.0, a[H])
        r2, m2, i2 = soft_coefficients(60.0, 10.0, a[H])
        r3, m3, i3 = soft_coefficients(60.0, 2.0, a[H])
        return r + m2 + i3

    def lanes_and_joints(world, a):
        return (1.0 if in_lanes(world) else 0.0) + (1.0 if has_joint_rows(world) else 0.0)

    def prepare(world, a):
        order = order_view(borrow(world, "scratch"), np.int64(a[AT]), np.int64(a[N]))
        prepare_contacts(borrow(world, "constraints"), order, borrow(world, "contacts"),
                         borrow(world, "bodies"), True, 1.0, 0.5, 0.5, 2.0, 0.5, 0.5,
                         in_lanes(world), 0)
        return 0.0

    def rows(world, a):
        return body_rows(world).shape[0]

    def integrate_v(world, a):
        integrate_clamp_velocities(world, body_rows(world), a[GX], a[GY],
                                   a[H], 400.0, MAX_ROTATION / a[DT_])
        return 0.0

    def warm_start(world, a):
        return lanes_pass(world, LANE_WARM_START, 0, np.int64(a[N]), a[INV_H], False, True,
                          0.0, 0.0, 3.0, False, a[CAP])

    def solve(world, a):
        return lanes_pass(world, LANE_SOLVE, 0, np.int64(a[N]), a[INV_H], True, True, 0.0,
                          0.0, 3.0, False, a[CAP])

    def integrate_p(world, a):
        integrate_positions(world, body_rows(world), a[H],
                            AFTER_CLAMP * 400.0, AFTER_CLAMP * MAX_ROTATION / a[DT_])
        return 0.0

    def relax(world, a):
        return lanes_pass(world, LANE_SOLVE, 0, np.int64(a[N]), a[INV_H], False, True, 0.0,
                          0.0, 3.0, True, a[CAP])

    def restitution_(world, a):
        restitution(world, 0, np.int64(a[N]), 1.0, a[CAP], a[GX], a[GY], 0.5 * a[H])
        return 0.0

    def finish(world, a):
        finish_lanes(world, borrow(world, "constraints"), in_lanes(world), 0, np.int64(a[N]))
        return 0.0

    def store(world, a):
        cs = borrow(world, "constraints")
        store_impulses(cs, borrow(world, "contacts"), np.int64(0), cs.count.shape[0])
        return 0.0

    def finalize(world, a):
        return finalize_bodies(world, body_rows(world), 400.0,
                               MAX_ROTATION / a[DT_], True)

    def clock_read(world, a):
        borrow(world, "clock")[3] = cycles()
        return 0.0

    def caps(world, a):
        s, w = impulse_caps(400.0, a[DT_])
        return s + w

    once, sub = False, True
    pieces = {
        # the step kernel's own calls, in its order
        "settings_row": (once, settings_row), "tick (x7)": (once, tick),
        "move_size": (once, move_size), "update_bounds (unmoved)": (once, update_bounds),
        "contact_rows": (once, contact_rows), "find_contacts": (once, find),
        "collide": (once, collide), "verb_chains": (once, verb_chains),
        "colour_size": (once, colour_size), "colour": (once, colour),
        "constraints_needed": (once, constraints_needed), "mark_runs": (once, mark_runs),
        "velocities_rows": (once, velocities_rows),
        # the soft step's (solvers._soft_step), in its order
        "impulse_caps": (once, caps), "soft_coefficients (x3)": (once, soft_coefficients3),
        "in_lanes + has_joint_rows": (once, lanes_and_joints),
        "prepare_contacts": (once, prepare), "clock read": (once, clock_read),
        "body_rows": (once, rows),
        "integrate_velocities": (sub, integrate_v), "warm_start": (sub, warm_start),
        "solve": (sub, solve), "integrate_positions": (sub, integrate_p),
        "relax": (sub, relax), "restitution": (once, restitution_),
        "finish_lanes": (once, finish),
        # after the solver (step._solve)
        "store_impulses": (once, store), "finalize_bodies": (once, finalize),
    }
    if not _MADE:
        # (the contacts' gathering may allocate, since session 20: compiled with the runtime)
        _MADE["pieces"] = {name: (per, _timer((numba.njit if fn is find else nj)(fn),
                                              fn is find))
                           for name, (per, fn) in pieces.items()}
    return _MADE["pieces"]


def _world(name):
    from small_fixed import WORLDS
    world = WORLDS[name]()
    for _ in range(60):
        world.step(DT)
    return world


def _stages(world, steps: int) -> dict:
    snap = world.snapshot()
    cyc = []
    for _ in range(steps):
        world.step(DT)
        cyc.append(np.diff(world._clock))
    world.restore(snap)
    med = np.median(np.array(cyc), axis=0)
    out = {k: int(c) for k, c in zip(STAGES, med)}
    out["all"] = int(np.median(np.array(cyc).sum(axis=1)))
    return out


def _ghz() -> float:
    """The cycle counter's rate (GHz), against ``time.perf_counter`` over 0.2 s."""
    from impulse2d._core.jit import cycles

    @numba.njit
    def read():
        return cycles()
    read()
    t0, c0 = time.perf_counter(), read()
    while time.perf_counter() - t0 < 0.2:
        pass
    return (read() - c0) / (time.perf_counter() - t0) / 1e9


def measure(name: str, steps: int, reps: int) -> dict:
    from impulse2d._dynamics import step as S
    from impulse2d._dynamics.solvers import impulse_caps
    world = _world(name)
    snap = world.snapshot()
    out = {"stages": _stages(world, steps)}
    pieces = _bodies()
    s = world.settings
    substeps = int(s.substeps)
    h = DT / substeps
    cap, _ = impulse_caps.py_func(float(s.max_linear_speed), DT)
    gx, gy = world._gravity
    colour_of = numba.njit(_nrt=False)(lambda ref: S._colour(ref))  # (not callable from Python)

    def fresh(k):
        world.restore(snap)
        for _ in range(k + 1):
            world.step(DT)
        ref = world._stores
        n, at = colour_of(ref)
        a = np.array([DT, gx, gy, h, 1.0 / h, cap, n, at], dtype=np.float64)
        return ref, a

    # the step after the snapshot with the most touching rows (the balls bounce)
    counts = [int(fresh(k)[1][N]) for k in range(60)]
    k = int(np.argmax(counts))
    out["rows"] = counts[k]
    ghz = _ghz()
    out["ghz"] = round(ghz, 3)
    # the step through its entry from Python, each run from the same state
    entry = S._step.entry
    called = []
    for _ in range(5):
        ref, a = fresh(k)
        args = (ref, DT, S.WHOLE)  # (gravity and the flags: the world's step row)
        t0 = time.process_time()
        for _ in range(reps):
            entry(*args)
        called.append((time.process_time() - t0) / reps * 1e9 * ghz)
    out["entry_cycles"] = round(min(called), 1)
    k_least = int(np.argmin(counts))
    out["rows_least"] = counts[k_least]
    for key, at_k in (("pieces", k), ("pieces_least", k_least)):
        out[key] = {}
        total = 0.0
        for piece, (per_substep, timer) in pieces.items():
            ref, a = fresh(at_k)
            cyc, _ = timer(ref, a, reps)
            calls = 7 if piece.startswith("tick") else substeps if per_substep else 1
            total += cyc * calls
            out[key][piece] = {"cycles": round(cyc, 1), "per_step": round(cyc * calls)}
            print(name, key, piece, json.dumps(out[key][piece]), flush=True)
        out[key + "_sum"] = round(total)
    world.restore(snap)
    summary = ("stages", "rows", "rows_least", "entry_cycles", "ghz", "pieces_sum",
               "pieces_least_sum")
    print(name, json.dumps({k: out[k] for k in summary}), flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worlds", default="restitution,ten_bodies")
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    result = {"definition": "cycles of the step kernel's counter; a step is World.step(1/60), "
                            "soft_step, 4 substeps, 1 thread, sleeping off",
              "worlds": {w: measure(w, args.steps, args.reps) for w in args.worlds.split(",")}}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
