"""Where a small world's step goes: per ``World.step`` call, per stage, per velocity sweep.

    PYTHONPATH=src python benchmarks/small_worlds.py [--json benchmarks/results/small_worlds.json]

Worlds (gravity -10, 1/60 s steps unless said):

Bodies are kept awake (``allow_sleep=False``): a resting world would fall asleep and measure
nothing.

* ``one_body``: a 1 m box resting on a static ground segment (one contact);
* ``ten_bodies``: ten 1 m boxes side by side on the ground (ten contacts);
* ``lander``: Gymnasium's LunarLander in impulse2d terms (a 1.13 x 0.9 m hull of density 5 and
  two 0.13 x 0.53 m legs of density 1 on revolute joints with motors of 40 N m driving them
  into their limits), falling from 3 m onto a static ground; 50 Hz steps as the game's, run
  as the compat layer runs it (``pgs_block``, 4 engine steps of (30, 10) sweeps per env step)
  and under the other solvers at their defaults; ``lander_air``: the same with no ground (its
  joints alone, falling).

Each world is stepped ``--steps`` times from the same snapshot, ``--reps`` times, each step
timed on its own, and each step's fastest rep is taken (the machine is shared: a step preempted
in one rep is seldom preempted in all); reported, per step: the wall time of ``World.step`` per call (``call_us``), the
compiled kernel's share (``kernel_us``, the engine's own clock) and the rest, the Python of
``World.step`` (``python_us``); the stage shares (``World.profile``); and, for the rigid
solvers, the cost of one velocity sweep (``sweep_us``: the kernel time at 1 + ``--extra``
sweeps minus that at 1, over ``--extra``) and for the soft step, of one substep.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from time import perf_counter

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
SCALE = 30.0  # LunarLander's pixels per metre


def build_one_body(world):
    ground = world.create_body("static")
    ground.create_segment((-20.0, 0.0), (20.0, 0.0))
    box = world.create_body(position=(0.0, 0.5), allow_sleep=False)
    box.create_box(0.5, 0.5, density=1.0)
    return None


def build_ten_bodies(world):
    ground = world.create_body("static")
    ground.create_segment((-20.0, 0.0), (20.0, 0.0))
    for k in range(10):
        box = world.create_body(position=(-9.0 + 2.0 * k, 0.5), allow_sleep=False)
        box.create_box(0.5, 0.5, density=1.0)
    return None


def build_lander(world, height=3.0, ground=True):
    """LunarLander's lander (gymnasium/envs/box2d/lunar_lander.py's dimensions, in metres)."""
    if ground:
        world.create_body("static").create_segment((0.0, 0.0), (20.0, 0.0), friction=0.1)
    x0, y0 = 10.0, height
    hull = world.create_body(position=(x0, y0), allow_sleep=False)
    hull.create_polygon([(-14 / SCALE, 17 / SCALE), (-17 / SCALE, 0.0), (-17 / SCALE, -10 / SCALE),
                         (17 / SCALE, -10 / SCALE), (17 / SCALE, 0.0), (14 / SCALE, 17 / SCALE)],
                        density=5.0, friction=0.1)
    for i in (-1, 1):
        # Box2D's joint pins the leg's local point (i * 20, 18) / SCALE to the hull's centre:
        # the leg starts there
        leg = world.create_body(position=(x0 - i * 20 / SCALE, y0 - 18 / SCALE), angle=0.05 * i)
        leg.create_box(2 / SCALE, 8 / SCALE, density=1.0, friction=0.2)
        lower, upper = (0.4, 0.9) if i == -1 else (-0.9, -0.4)
        world.create_revolute_joint(hull, leg, (x0, y0), enable_limit=True, lower_angle=lower,
                                    upper_angle=upper, enable_motor=True, motor_speed=0.3 * i,
                                    max_motor_torque=40.0)
    return None


def build_lander_air(world):
    """The lander with no ground: its joints alone (no contact) while it falls."""
    return build_lander(world, ground=False)


WORLDS = {"one_body": build_one_body, "ten_bodies": build_ten_bodies, "lander": build_lander,
          "lander_air": build_lander_air}

CONFIGS = {
    # name: (world settings, dt, engine steps per measured step)
    "soft_step": ({"solver": "soft_step"}, 1 / 60, 1),
    "pgs": ({"solver": "pgs"}, 1 / 60, 1),
    "pgs_block": ({"solver": "pgs_block"}, 1 / 60, 1),
    "layer": ({"solver": "pgs_block", "velocity_iterations": 30, "position_iterations": 10},
              1 / 200, 4),
}


def _run(world, snap, steps, dt):
    """One rep: ``steps`` steps from ``snap``, each timed on its own: (wall s, kernel s, stage s)
    arrays of shape (steps,), (steps,), (steps, 6). The first step after a restore rebuilds
    the world's reference: it is taken untimed."""
    world.restore(snap)
    world.step(dt)
    wall = np.empty(steps)
    kernel = np.empty(steps)
    stages = np.empty((steps, len(STAGES)))
    step = world.step
    clock = perf_counter
    for i in range(steps):
        t0 = clock()
        step(dt)
        wall[i] = clock() - t0
        p = world.profile
        kernel[i] = p.step
        stages[i] = [getattr(p, k) for k in STAGES]
    return wall, kernel, stages


def _best(world, snap, steps, dt, reps):
    """Each step's fastest rep, summed over the steps, per step in us: on a shared machine a
    step preempted in one rep is seldom preempted in all (the sum of the fastest is the step
    time of an undisturbed run)."""
    runs = [_run(world, snap, steps, dt) for _ in range(reps)]
    wall = np.min([r[0] for r in runs], axis=0).mean() * 1e6
    kernel = np.min([r[1] for r in runs], axis=0).mean() * 1e6
    stages = np.min([r[2] for r in runs], axis=0).mean(axis=0) * 1e6
    return wall, kernel, dict(zip(STAGES, (round(float(x), 3) for x in stages)))


def _world(world_name, settings, dt):
    import impulse2d
    world = impulse2d.World(**settings)
    WORLDS[world_name](world)
    for _ in range(30):  # settle the contacts, compile
        world.step(dt)
    return world, world.snapshot()


def measure(world_name, config, steps, reps, extra):
    settings, dt, _ = CONFIGS[config]
    world, snap = _world(world_name, settings, dt)
    wall, kernel, stages = _best(world, snap, steps, dt, reps)
    out = {"call_us": wall, "kernel_us": kernel, "python_us": wall - kernel,
           "stages_us": stages}
    # the cost of one sweep (rigid solvers) or one substep (soft step), from the kernel clock
    knob = "substeps" if settings["solver"] == "soft_step" else "velocity_iterations"
    per = {}
    for n in (1, 1 + extra):
        w, s = _world(world_name, {**settings, knob: n}, dt)
        per[n] = _best(w, s, steps, dt, reps)[1]
    out[("substep_us" if knob == "substeps" else "sweep_us")] = (per[1 + extra] - per[1]) / extra
    return {k: (round(float(v), 3) if isinstance(v, float) else v) for k, v in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--extra", type=int, default=200)
    parser.add_argument("--worlds", default=",".join(WORLDS))
    parser.add_argument("--configs", default=",".join(CONFIGS))
    args = parser.parse_args()
    results = {}
    for name in args.worlds.split(","):
        for config in args.configs.split(","):
            if config == "layer" and not name.startswith("lander"):
                continue
            r = measure(name, config, args.steps, args.reps, args.extra)
            results[f"{name}/{config}"] = r
            s = r["stages_us"]
            sweep = r.get("sweep_us", r.get("substep_us"))
            print(f"{name:10s} {config:9s} call {r['call_us']:7.2f} us  kernel {r['kernel_us']:7.2f}"
                  f"  python {r['python_us']:5.2f}  sweep/substep {sweep:6.3f}  | "
                  + " ".join(f"{k} {v:.2f}" for k, v in s.items()), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d"), "machine": platform.machine(),
                       "python": sys.version.split()[0], "steps": args.steps, "reps": args.reps,
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
