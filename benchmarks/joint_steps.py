"""Paired A/B of two source trees on worlds of one joint type each, by per-step thread CPU time
(the row machinery, issue 32 item 3: a joint type's step must not get slower on it).

    python benchmarks/joint_steps.py --a /path/to/main/src --b src --rounds 8

Worlds (soft step, sleeping off, no contacts: every shape in group -1), 100 joints each but
the last:

* ``distance_rope``: a hanging chain of bodies 1 m apart, each to the next by a distance joint
  with ``enable_spring`` and no spring (``hertz`` 0): the rows of its length limits only;
* ``distance_rigid``: the same chain, rigid distance joints;
* ``revolute``: pendulums each hung from the ground by a revolute joint with limits and a
  motor (the revolute joint's optional rows);
* ``prismatic``: bodies each on a prismatic joint to the ground along a tilted axis, with
  limits and a motor;
* ``pulley``: 50 pairs of bodies hung over pulleys (100 joints: each pair's rope twice, ratios
  1 and 2, so both code paths run);
* ``mouse``: bodies each dragged by a mouse joint toward a point beside it;
* ``gear``: 50 wheels on revolute joints to the ground, the first driven by a motor, each
  geared to the next (49 gears, ratio 1);
* ``walker``: the native BipedalWalker's world (``build_walker``, its settings: ``pgs_block``)
  on a flat floor, its four revolute joints with motors and limits.

Each round runs each world once per tree, each in a fresh process (alternating which tree goes
first), 60 untimed steps then ``--steps`` timed ones; it records the median thread CPU time per
step and the state hash after the run. Prints per world the median over rounds of each tree
and the ratio b / a, and whether the hashes agree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORLDS = ("distance_rope", "distance_rigid", "revolute", "prismatic", "pulley", "mouse", "gear",
          "walker")
SETTLE = 60


def build(name: str):
    import impulse2d as i2d
    if name == "walker":
        from impulse2d.envs import _walker_terrain as terrain
        from impulse2d.envs.bipedal_walker import NATIVE_SETTINGS, build_walker
        world = build_walker({**NATIVE_SETTINGS, "enable_sleep": False})
        floor = world.create_body(type="static", position=(0.0, terrain.TERRAIN_HEIGHT - 0.5))
        floor.create_box(50.0, 0.5)
        return world
    world = i2d.World(gravity=(0.0, -10.0), enable_sleep=False)
    ground = world.create_body(type="static")

    def body(x, y):
        b = world.create_body(position=(x, y))
        b.create_circle(0.2, group=-1)
        return b

    if name.startswith("distance"):
        prev, rope = ground, name == "distance_rope"
        for i in range(100):
            b = body(float(i + 1), 0.0)
            if rope:
                world.create_distance_joint(prev, b, (float(i), 0.0), (float(i + 1), 0.0),
                                            enable_spring=True, min_length=0.9,
                                            max_length=1.05)
            else:
                world.create_distance_joint(prev, b, (float(i), 0.0), (float(i + 1), 0.0))
            prev = b
    elif name == "revolute":
        for i in range(100):
            b = body(float(i) + 0.5, 0.0)
            world.create_revolute_joint(ground, b, (float(i), 0.0), enable_limit=True,
                                        lower_angle=-0.5, upper_angle=0.5, enable_motor=True,
                                        motor_speed=0.5 * (i % 3 - 1), max_motor_torque=5.0)
    elif name == "prismatic":
        for i in range(100):
            b = body(float(i), 0.0)
            world.create_prismatic_joint(ground, b, (float(i), 0.0), (1.0, 1.0),
                                         enable_limit=True, lower=-0.5, upper=0.5,
                                         enable_motor=True, motor_speed=0.5 * (i % 3 - 1),
                                         max_motor_force=20.0)
    elif name == "pulley":
        for i in range(50):
            x = 3.0 * i
            left, right = body(x, 0.0), body(x + 1.0, -0.5)
            for ratio in (1.0, 2.0):
                world.create_pulley_joint(left, right, (x, 3.0), (x + 1.0, 3.0), (x, 0.0),
                                          (x + 1.0, -0.5), ratio=ratio)
    elif name == "mouse":
        for i in range(100):
            b = body(float(i), 0.0)
            world.create_mouse_joint(b, (float(i) + 0.5, 1.0), max_force=50.0)
    elif name == "gear":
        hinges = []
        for i in range(50):
            b = body(float(i), 0.0)
            hinges.append(world.create_revolute_joint(ground, b, (float(i), 0.0),
                                                      enable_motor=i == 0, motor_speed=2.0,
                                                      max_motor_torque=100.0))
        for first, second in zip(hinges, hinges[1:]):
            world.create_gear_joint(first, second, ratio=1.0)
    return world


def one_run(name: str, steps: int) -> dict:
    world = build(name)
    for _ in range(SETTLE):
        world.step(1 / 60)
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
    return {"us": statistics.median(cpu) * 1e6, "hash": world.state_hash()[:16]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--worlds", nargs="+", default=list(WORLDS))
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_run(args.child, args.steps)))
        return
    runs = {name: {"a": [], "b": [], "hash_a": set(), "hash_b": set()} for name in args.worlds}
    for k in range(args.rounds):
        for name in args.worlds:
            for tree in (("a", "b") if k % 2 == 0 else ("b", "a")):
                env = dict(os.environ, PYTHONPATH=getattr(args, tree), IMPULSE2D_QUIET="1")
                out = subprocess.run([sys.executable, __file__, "--a", args.a, "--b", args.b,
                                      "--steps", str(args.steps), "--child", name], env=env,
                                     capture_output=True, text=True, check=True)
                result = json.loads(out.stdout.strip().splitlines()[-1])
                runs[name][tree].append(result["us"])
                runs[name]["hash_" + tree].add(result["hash"])
    summary = {}
    for name, r in runs.items():
        a, b = statistics.median(r["a"]), statistics.median(r["b"])
        summary[name] = {"a_us": round(a, 1), "b_us": round(b, 1), "ratio": round(b / a, 3),
                         "same_hash": r["hash_a"] == r["hash_b"], "rounds_a": r["a"],
                         "rounds_b": r["b"]}
        print(f"{name:15s} a {a:8.1f} us  b {b:8.1f} us  b/a {b / a:.3f}  "
              f"hashes {'same' if r['hash_a'] == r['hash_b'] else 'differ'}")
    print(json.dumps({"load": os.getloadavg(), "worlds": summary}))


if __name__ == "__main__":
    main()
