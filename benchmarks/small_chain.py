"""Where ``chain_100``'s step goes, by the piece, for issue 31 item 5 (``chain_100`` against
pymunk).

    PYTHONPATH=src python benchmarks/small_chain.py [--scene chain_100] [--json out.json]

Builds ``run.py``'s scene (``chain_100``: 100 links hanging from revolute joints; any of
``small_fixed.py``'s worlds), steps it 60 steps, and times, with the step kernel's own cycle
counter (``impulse2d._core.jit.cycles``, the x86 time-stamp counter):

* ``stages``: each stage's cycles (``World._clock``), median over ``--steps`` steps;
* ``pieces``: each piece of the soft step's solve stage (``solvers._soft_step``) called as the
  solver calls it, cycles per call, least of 5 runs of ``--reps`` calls: the joint passes
  (prepare, warm start, soft solve, relax: :func:`.joint_solver.joint_pass`, each joint type
  called by address from the world's table of verbs; in a world whose joints are all
  revolute, such as ``chain_100``, the revolute passes compiled in, ``revolute_prepare`` and
  its kin, as :func:`.solvers.soft_step_revolute` calls them) and the integration
  (:func:`.integrate.integrate_clamp_velocities`, :func:`.integrate.integrate_positions`)
  over the awake bodies; with ``per_step``, the cycles a step spends in it (a soft step of
  ``s`` substeps: prepare once, the rest ``s`` times each) and ``rest``, the solve stage less
  the pieces (the contact passes, the clock, the calls' set-up; negative when the machine
  changed speed between the stages' steps and the pieces' calls: compare within one of them).

Each piece starts from the same state: a snapshot restored, then one step (which rebuilds
the stores' reference and the table of verbs that a restore leaves out). A step is
``World.step(1/60)`` with the scene's settings (``soft_step``, 4 substeps).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numba
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
DT = 1.0 / 60.0


def _timers():
    """The compiled timers (made on first use: they need the engine's kernels)."""
    from impulse2d._core.jit import cycles
    from impulse2d._dynamics.awake import body_rows
    from impulse2d._dynamics.integrate import integrate_clamp_velocities, integrate_positions
    from impulse2d._dynamics.joint_solver import (all_revolute, joint_pass, revolute_prepare,
                                                  revolute_solve, revolute_warm_start)
    from impulse2d._dynamics.verbs import PREPARE, WARM_START

    @numba.njit(_nrt=False)
    def joint_timer(world, verb, h, flag, soft, rate, mass_scale, impulse_scale, speed_cap,
                    spin_cap, reps):
        # as the soft step calls them: a world whose joints are all revolute has their passes
        # compiled in (its table of verbs holds no joint entry), any other calls them by address
        revolute = all_revolute(world)
        best = 1 << 62
        for _ in range(5):
            t0 = cycles()
            for _ in range(reps):
                if not revolute:
                    joint_pass(world, verb, h, flag, soft, rate, mass_scale, impulse_scale, 0.0,
                               speed_cap, spin_cap)
                elif verb == PREPARE:
                    revolute_prepare(world, h, flag)
                elif verb == WARM_START:
                    revolute_warm_start(world)
                else:
                    revolute_solve(world, h, flag, soft, rate, mass_scale, impulse_scale, 0.0,
                                   speed_cap, spin_cap)
            best = min(best, cycles() - t0)
        return best / reps

    @numba.njit(_nrt=False)
    def integrate_timer(world, which, gx, gy, h, linear, angular, reps):
        rows = body_rows(world)
        best = 1 << 62
        for _ in range(5):
            t0 = cycles()
            for _ in range(reps):
                if which == 0:
                    integrate_clamp_velocities(world, rows, gx, gy, h, linear, angular)
                else:
                    integrate_positions(world, rows, h, linear, angular)
            best = min(best, cycles() - t0)
        return best / reps

    return joint_timer, integrate_timer


def _world(name):
    from small_fixed import WORLDS
    world = WORLDS[name]()
    for _ in range(60):
        world.step(DT)
    return world


def stages(world, steps: int) -> dict:
    """Median cycles of each stage over ``steps`` steps (the world restored after)."""
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


def pieces(world, reps: int) -> dict:
    """Cycles per call of each piece of the soft step's solve, as the solver calls it."""
    from impulse2d._dynamics.softness import soft_coefficients
    from impulse2d._dynamics.solvers import AFTER_CLAMP, impulse_caps
    from impulse2d._dynamics.verbs import PREPARE, SOLVE, WARM_START
    from impulse2d.constants import MAX_ROTATION
    joint_timer, integrate_timer = _timers()
    s = world.settings
    substeps = int(s.substeps)
    h = DT / substeps
    # (their Python functions: kernels compiled without a wrapper for Python)
    speed_cap, spin_cap = impulse_caps.py_func(float(s.max_linear_speed), DT)
    rate, m_scale, i_scale = soft_coefficients.py_func(min(float(s.joint_hertz), 0.25 / h),
                                               float(s.joint_damping_ratio), h)
    max_linear, max_angular = float(s.max_linear_speed), MAX_ROTATION / DT
    gx, gy = world._gravity
    snap = world.snapshot()
    calls = {
        "joint_prepare": (1, lambda: joint_timer(ref, PREPARE, h, bool(s.warm_starting), False,
                                                 0.0, 1.0, 0.0, speed_cap, spin_cap, reps)),
        "joint_warm_start": (substeps, lambda: joint_timer(ref, WARM_START, h, False, False,
                                                           0.0, 1.0, 0.0, speed_cap, spin_cap,
                                                           reps)),
        "joint_solve": (substeps, lambda: joint_timer(ref, SOLVE, h, True, True, rate, m_scale,
                                                      i_scale, speed_cap, spin_cap, reps)),
        "joint_relax": (substeps, lambda: joint_timer(ref, SOLVE, h, False, True, 0.0, 1.0,
                                                      0.0, speed_cap, spin_cap, reps)),
        "integrate_velocities": (substeps, lambda: integrate_timer(
            ref, 0, float(gx), float(gy), h, max_linear, max_angular, reps)),
        "integrate_positions": (substeps, lambda: integrate_timer(
            ref, 1, 0.0, 0.0, h, AFTER_CLAMP * max_linear, AFTER_CLAMP * max_angular, reps)),
    }
    out = {}
    for name, (per_step, call) in calls.items():
        # a restore leaves the stores' reference and the table of verbs to the next step
        world.restore(snap)
        world.step(DT)
        ref = world._stores
        cycles = call()
        out[name] = {"cycles": round(cycles, 1), "per_step": round(cycles * per_step)}
        print(name, json.dumps(out[name]), flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scene", default="chain_100")
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    world = _world(args.scene)
    st = stages(world, args.steps)
    print("stages", json.dumps(st), flush=True)
    pc = pieces(world, args.reps)
    rest = st["solve"] - sum(p["per_step"] for p in pc.values())
    print("solve less the pieces", rest, flush=True)
    st2 = stages(world, args.steps)
    print("stages again", json.dumps(st2), flush=True)
    result = {"scene": args.scene, "stages": st, "pieces": pc, "rest": rest,
              "stages_again": st2}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
