"""Where a five-ball step goes, by the piece: the contact rows' passes, the stages by touching
rows, and Python's share, for issue 31 item 5 (``restitution`` against pymunk).

    PYTHONPATH=src python benchmarks/small_rows.py [--json out.json]

Builds ``run.py``'s ``restitution`` scene (5 balls of restitution 0 to 1 dropped on a static
ground) and measures, with the step kernel's own cycle counter (``impulse2d._core.jit.cycles``,
the x86 time-stamp counter) and CPU time:

* ``stages``: each stage's cycles, median over the steps of a 600-step run grouped by the
  number of touching contact rows of the step (0 while the balls fall, up to 5);
* ``passes``: one contact pass of the soft step called by address as the solver calls it
  (:func:`.contact_lanes.lanes_pass`: warm start, soft solve, relax), cycles per call, least
  of 5 runs of 2,000 calls, on the world stopped where it has 1, 2, 3 and 4 rows;
* ``record``: the soft solve's arithmetic, operation for operation, on the same rows laid out
  one record of :data:`K` doubles a row (the layout the row-by-row path lacks: each of its
  rows reads some 20 arrays, each a base pointer and a run-time row stride), cycles per call
  the same way, and whether it leaves the same bits (velocities and impulses) as the engine's
  pass: what a small world's rows could cost;
* ``python``: CPU us per call of ``World.step``, of ``step_world`` (the step less the facade)
  and of the compiled entry's call alone (the step less Python's checks and bookkeeping),
  least of 5 runs of 3,000 steps from one snapshot.

A step of the soft step (the default: 4 substeps) runs each pass 4 times; restitution once.
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

# The record of one constraint row: the row's fields, then each point's.
M_A, I_A, M_B, I_B, NX, NY, FRICTION, RATE, MASS_SCALE, IMPULSE_SCALE = range(10)
POINT, POINT_STEP = 10, 15
RAX, RAY, RBX, RBY, BASE, NMASS, TMASS, NIMP, TIMP, MAXN, TOTN, TOTT, BIAS, UNN, UNT = range(15)
K = POINT + 2 * POINT_STEP


def _scene():
    from engines import make_engine
    from run import SCENES
    scene, params, _, _, _ = SCENES["restitution"]
    eng = make_engine("impulse2d", {})
    eng.build(scene, **params)
    return eng.world


def _rows(world) -> int:
    from impulse2d._dynamics.world_ref import _constraints_of_ref
    return int(_constraints_of_ref(world._stores).count.shape[0])


def _world_with_rows(target: int):
    """The restitution world stepped until a step (after the first 100) leaves ``target``
    touching rows; None if none does within 600 steps."""
    world = _scene()
    for i in range(600):
        world.step(DT)
        if i > 100 and _rows(world) == target:
            return world
    return None


@numba.njit(error_model="numpy")
def record_solve(rec, body, count, v, w, dp, dq, inv_h, use_bias, soft, contact_speed,
                 speed_cap):
    """:func:`.contact_solver.solve_contacts` (``last_sweep`` off, no Baumgarte branch: the soft
    step's passes) on rows laid out one record a row: the same operations in the same order."""
    for q in range(count.shape[0]):
        n = count[q]
        a = body[q, 0]
        b = body[q, 1]
        m_a = rec[q, M_A]
        i_a = rec[q, I_A]
        m_b = rec[q, M_B]
        i_b = rec[q, I_B]
        vax, vay, wa, vbx, vby, wb = v[a, 0], v[a, 1], w[a], v[b, 0], v[b, 1], w[b]
        nx = rec[q, NX]
        ny = rec[q, NY]
        tx = ny
        ty = -nx
        friction = rec[q, FRICTION]
        for j in range(n):
            p = POINT + j * POINT_STEP
            rax = rec[q, p + RAX]
            ray = rec[q, p + RAY]
            rbx = rec[q, p + RBX]
            rby = rec[q, p + RBY]
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vt = dvx * tx + dvy * ty
            impulse = -rec[q, p + TMASS] * vt
            limit = friction * rec[q, p + NIMP]
            old = rec[q, p + TIMP]
            total = min(max(old + impulse, -limit), limit)
            rec[q, p + UNT] = old + impulse
            rec[q, p + TIMP] = total
            impulse = total - old
            px = impulse * tx
            py = impulse * ty
            vax -= m_a * px
            vay -= m_a * py
            wa -= i_a * (rax * py - ray * px)
            vbx += m_b * px
            vby += m_b * py
            wb += i_b * (rbx * py - rby * px)
        ca = dq[a, 0]
        sa = dq[a, 1]
        cb = dq[b, 0]
        sb = dq[b, 1]
        ddx = dp[b, 0] - dp[a, 0]
        ddy = dp[b, 1] - dp[a, 1]
        for j in range(n):
            p = POINT + j * POINT_STEP
            rax = rec[q, p + RAX]
            ray = rec[q, p + RAY]
            rbx = rec[q, p + RBX]
            rby = rec[q, p + RBY]
            gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
            gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
            s = rec[q, p + BASE] + gx * nx + gy * ny
            mass_scale = 1.0
            impulse_scale = 0.0
            if s > 0.0:
                bias = s * inv_h
            elif not use_bias:
                bias = 0.0
            else:
                bias = max(rec[q, RATE] * s, -contact_speed)
                mass_scale = rec[q, MASS_SCALE]
                impulse_scale = rec[q, IMPULSE_SCALE]
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = rec[q, p + NIMP]
            normal_mass = rec[q, p + NMASS]
            impulse = -normal_mass * mass_scale * (vn + bias) - impulse_scale * old
            total = min(max(old + impulse, 0.0), normal_mass * speed_cap)
            rec[q, p + UNN] = old + impulse
            if use_bias or not soft:
                rec[q, p + BIAS] = bias
            rec[q, p + NIMP] = total
            if total > rec[q, p + MAXN]:
                rec[q, p + MAXN] = total
            impulse = total - old
            px = impulse * nx
            py = impulse * ny
            vax -= m_a * px
            vay -= m_a * py
            wa -= i_a * (rax * py - ray * px)
            vbx += m_b * px
            vby += m_b * py
            wb += i_b * (rbx * py - rby * px)
        v[a, 0] = vax
        v[a, 1] = vay
        w[a] = wa
        v[b, 0] = vbx
        v[b, 1] = vby
        w[b] = wb


def _record_of(cs) -> tuple:
    """The engine's rows ``cs`` (a ContactConstraints store, rows filled) as records."""
    n = cs.count.shape[0]
    rec = np.zeros((n, K))
    rec[:, M_A:I_B + 1] = cs.inv_mass
    rec[:, NX] = cs.normal[:, 0]
    rec[:, NY] = cs.normal[:, 1]
    rec[:, FRICTION] = cs.friction
    rec[:, RATE:IMPULSE_SCALE + 1] = cs.softness
    for j in range(2):
        p = POINT + j * POINT_STEP
        rec[:, p + RAX] = cs.r_a[:, j, 0]
        rec[:, p + RAY] = cs.r_a[:, j, 1]
        rec[:, p + RBX] = cs.r_b[:, j, 0]
        rec[:, p + RBY] = cs.r_b[:, j, 1]
        rec[:, p + BASE] = cs.base_separation[:, j]
        rec[:, p + NMASS] = cs.normal_mass[:, j]
        rec[:, p + TMASS] = cs.tangent_mass[:, j]
        rec[:, p + NIMP] = cs.normal_impulse[:, j]
        rec[:, p + TIMP] = cs.tangent_impulse[:, j]
        rec[:, p + MAXN] = cs.max_normal_impulse[:, j]
    body = np.ascontiguousarray(np.stack([cs.body_a, cs.body_b], axis=1))
    return rec, body, cs.count.copy()


def _timers():
    """Two compiled timers (made on first use: they need the engine's kernels)."""
    from impulse2d._core.jit import cycles
    from impulse2d._dynamics.verbs import LANES, call_lanes
    from impulse2d._dynamics.world_ref import borrow

    @numba.njit(_nrt=False)
    def engine_pass(world, verb, n, reps, use_bias, inv_h, contact_speed, speed_cap, rounds=5):
        best = 1 << 62
        for _ in range(rounds):
            t0 = cycles()
            for _ in range(reps):
                call_lanes(borrow(world, "verbs")[LANES],
                           (world, verb, 0, n, inv_h, use_bias, True, 0.0, 0.0, contact_speed,
                            False, speed_cap))
            best = min(best, cycles() - t0)
        return best / reps

    @numba.njit(error_model="numpy")
    def record_pass(rec, body, count, v, w, dp, dq, reps, use_bias, inv_h, contact_speed,
                    speed_cap):
        best = 1 << 62
        for _ in range(5):
            t0 = cycles()
            for _ in range(reps):
                record_solve(rec, body, count, v, w, dp, dq, inv_h, use_bias, True,
                             contact_speed, speed_cap)
            best = min(best, cycles() - t0)
        return best / reps

    return engine_pass, record_pass


def passes(reps: int) -> list:
    """Cycles per call of the engine's passes and of the record's solve, by rows; and whether
    one record solve leaves the engine's bits."""
    from impulse2d._dynamics.contact_lanes import LANE_SOLVE, LANE_WARM_START
    from impulse2d._dynamics.world_ref import _constraints_of_ref
    engine_pass, record_pass = _timers()
    out = []
    for target in (1, 2, 3, 4):
        world = _world_with_rows(target)
        if world is None:
            continue
        ref = world._stores
        s = world.settings
        h = DT / s.substeps
        speed_cap = 4.0 * float(s.max_linear_speed)  # solvers.impulse_caps' speed budget
        contact_speed = float(s.contact_speed)
        cs = _constraints_of_ref(ref)
        bodies = world._bodies
        # bits: one soft solve by the engine and by the record, from the same state
        v0, w0 = bodies.v.copy(), bodies.w.copy()
        rec, body, count = _record_of(cs)
        ni0, ti0 = cs.normal_impulse.copy(), cs.tangent_impulse.copy()
        mx0, un0 = cs.max_normal_impulse.copy(), cs.unclamped.copy()
        engine_pass(ref, LANE_SOLVE, target, 1, True, 1.0 / h, contact_speed, speed_cap, 1)
        ve, we = bodies.v.copy(), bodies.w.copy()
        same_impulses = True
        v, w = v0.copy(), w0.copy()
        record_solve(rec, body, count, v, w, bodies.dp, bodies.dq, 1.0 / h, True, True,
                     contact_speed, speed_cap)
        for j in range(2):
            p = POINT + j * POINT_STEP
            same_impulses &= bool(np.array_equal(rec[:, p + NIMP], cs.normal_impulse[:, j])
                                  and np.array_equal(rec[:, p + TIMP], cs.tangent_impulse[:, j]))
        same = bool(np.array_equal(v, ve) and np.array_equal(w, we)) and same_impulses
        bodies.v[:] = v0
        bodies.w[:] = w0
        cs.normal_impulse[:] = ni0
        cs.tangent_impulse[:] = ti0
        cs.max_normal_impulse[:] = mx0
        cs.unclamped[:] = un0
        row = {"rows": target,
               "warm": engine_pass(ref, LANE_WARM_START, target, reps, False, 1.0 / h,
                                   contact_speed, speed_cap),
               "solve": engine_pass(ref, LANE_SOLVE, target, reps, True, 1.0 / h,
                                    contact_speed, speed_cap),
               "relax": engine_pass(ref, LANE_SOLVE, target, reps, False, 1.0 / h,
                                    contact_speed, speed_cap),
               "record_solve": record_pass(rec, body, count, bodies.v.copy(), bodies.w.copy(),
                                           bodies.dp, bodies.dq, reps, True, 1.0 / h,
                                           contact_speed, speed_cap),
               "record_same_bits": same}
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


def stages(steps: int) -> dict:
    """Median cycles of each stage by the step's touching rows, over one run from the drop."""
    world = _scene()
    clock = world._clock
    cyc, rows = [], []
    for _ in range(steps):
        world.step(DT)
        cyc.append(np.diff(clock))
        rows.append(_rows(world))
    cyc, rows = np.array(cyc), np.array(rows)
    out = {}
    for n in sorted(set(rows.tolist())):
        m = rows == n
        med = np.median(cyc[m], axis=0)
        out[str(n)] = {"steps": int(m.sum()), **{k: int(c) for k, c in zip(STAGES, med)},
                       "all": int(np.median(cyc[m].sum(axis=1)))}
        print(n, json.dumps(out[str(n)]), flush=True)
    return out


def python_share(steps: int) -> dict:
    """CPU us per call of ``World.step``, ``step_world`` and the compiled entry alone."""
    from impulse2d import _stepping
    from impulse2d._dynamics import step as S
    world = _scene()
    for _ in range(300):
        world.step(DT)
    snap = world.snapshot()
    gx, gy = world._gravity
    entry = S._step.entry

    def bare():
        entry(world._stores, world._pairs_dirty, DT, gx, gy, world._sleepers != 0, False, 0)

    def run(fn):
        best = float("inf")
        for _ in range(5):
            world.restore(snap)
            world.step(DT)
            t = time.process_time()
            for _ in range(steps):
                fn()
            best = min(best, (time.process_time() - t) / steps)
        return round(best * 1e6, 3)

    out = {"world_step_us": run(lambda: world.step(DT)),
           "step_world_us": run(lambda: _stepping.step_world(world, DT)),
           "entry_us": run(bare)}
    print(json.dumps(out), flush=True)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    out = {"passes": passes(args.reps), "stages": stages(args.steps),
           "python": python_share(3000), "load": os.getloadavg()[0]}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
