"""The ``direct`` solver's two levels side by side: time per step and constraint drift.

    python benchmarks/direct_accel.py            # writes benchmarks/results/direct_accel.json

Time per step (median of the timed steps, in process, after the kernels are loaded and the
scene has run 1 s) of small scenes under ``solver="direct"`` at ``direct_level="velocity"``
and ``"acceleration"`` (1 and 4 substeps); the length drift of a pendulum over 10 s with and without the
acceleration level's Baumgarte stabilisation (``baumgarte`` 0, 0.2, 0.5), and a hanging chain's
worst anchor gap at both levels; a slider's distance from the axis of a spinning arm (prismatic
joint and limit) with and without the stabilisation; and the default solver's step on pyramid_20, the check that
the hook in the step costs nothing.
"""

from __future__ import annotations

import json
import math
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import impulse2d as i2d  # noqa: E402

DT = 1.0 / 60.0
G = 10.0


def pendulum(world, L=2.0, theta0=1.0):
    ground = world.create_body(type="static")
    at = (L * math.sin(theta0), -L * math.cos(theta0))
    bob = world.create_body(position=at)
    bob.create_circle(0.05)
    world.create_distance_joint(ground, bob, (0.0, 0.0), at)
    return bob


def chain(world, links):
    ground = world.create_body(type="static")
    parent, joints = ground, []
    for k in range(links):
        link = world.create_body(position=(0.5 + k, 0.0))
        link.create_box(0.5, 0.1)
        joints.append(world.create_revolute_joint(parent, link, (float(k), 0.0)))
        parent = link
    return joints


def stack(world, count):
    ground = world.create_body(type="static")
    ground.create_box(50.0, 0.5, center=(0.0, -0.5))
    for k in range(count):
        world.create_body(position=(0.0, 0.495 + 0.995 * k)).create_box(0.5, 0.5)


def pyramid(world, base):
    ground = world.create_body(type="static")
    ground.create_box(50.0, 0.5, center=(0.0, -0.5))
    for row in range(base):
        for k in range(base - row):
            x = (k - (base - row - 1) / 2.0) * 1.05
            world.create_body(position=(x, 0.5 + row * 1.0)).create_box(0.5, 0.5)


SCENES = {
    "pendulum (1 rod, 1 row)": lambda w: pendulum(w),
    "chain of 10 pins (20 rows)": lambda w: chain(w, 10),
    "chain of 50 pins (100 rows)": lambda w: chain(w, 50),
    "stack of 3 boxes (12 rows)": lambda w: stack(w, 3),
    "pyramid base 4 (88 rows)": lambda w: pyramid(w, 4),
}


def step_ms(build, steps=300, **settings):
    world = i2d.World(gravity=(0.0, -G), enable_sleep=False, **settings)
    build(world)
    for _ in range(60):
        world.step(DT)
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        world.step(DT)
        times.append(time.perf_counter() - t0)
    return 1e3 * statistics.median(times)


def pendulum_drift(baumgarte, substeps, seconds=10.0):
    world = i2d.World(solver="direct", direct_level="acceleration", gravity=(0.0, -G),
                      enable_sleep=False, baumgarte=baumgarte, substeps=substeps)
    bob = pendulum(world)
    worst = 0.0
    for _ in range(int(round(seconds / DT))):
        world.step(DT)
        p = bob.position
        worst = max(worst, abs(math.hypot(p.x, p.y) - 2.0))
    return worst


def chain_gap(level, links=10, seconds=10.0, substeps=4):
    world = i2d.World(solver="direct", direct_level=level, gravity=(0.0, -G), enable_sleep=False,
                      substeps=substeps)
    joints = chain(world, links)
    worst = 0.0
    for _ in range(int(round(seconds / DT))):
        world.step(DT)
        for j in joints:
            worst = max(worst, (j.world_anchor_a - j.world_anchor_b).length)
    return worst


def slider_drift(baumgarte, seconds=10.0):
    """A slider on a prismatic joint along a free arm spinning at 3 rad/s (pinned at its
    centre, no gravity) flies out to its limit (0.7 m) in 0.75 s: its distance from the arm's
    axis (m), the largest before the impact, the largest over ``seconds`` and at the end."""
    world = i2d.World(solver="direct", direct_level="acceleration", gravity=(0.0, 0.0),
                      enable_sleep=False, baumgarte=baumgarte)
    ground = world.create_body(type="static")
    arm = world.create_body()
    arm.create_box(1.0, 0.05)
    world.create_revolute_joint(ground, arm, (0.0, 0.0))
    slider = world.create_body(position=(0.2, 0.0))
    slider.create_box(0.05, 0.05)
    joint = world.create_prismatic_joint(arm, slider, (0.2, 0.0), (1.0, 0.0), enable_limit=True,
                                         lower=-0.1, upper=0.7)
    arm.angular_velocity = slider.angular_velocity = 3.0
    slider.linear_velocity = (0.0, 0.6)
    before = worst = off = 0.0
    reached = False
    for _ in range(int(round(seconds / DT))):
        world.step(DT)
        c, s = math.cos(arm.angle), math.sin(arm.angle)
        off = abs(-s * slider.position.x + c * slider.position.y)
        worst = max(worst, off)
        reached = reached or joint.translation >= 0.69
        if not reached:
            before = worst
    return {"before the limit": before, "worst": worst, "at the end": off}


def main():
    out = {"machine": {"python": platform.python_version(), "platform": platform.platform()},
           "dt": DT, "step_ms": {}, "drift_m": {}}
    for name, build in SCENES.items():
        row = {"velocity": step_ms(build, solver="direct"),
               "acceleration, 1 substep": step_ms(build, solver="direct",
                                                  direct_level="acceleration", substeps=1),
               "acceleration, 4 substeps": step_ms(build, solver="direct",
                                                   direct_level="acceleration")}
        out["step_ms"][name] = row
        print(name, {k: round(x, 3) for k, x in row.items()}, flush=True)
    out["drift_m"]["pendulum_10s_length"] = {
        f"{n} substeps, baumgarte {b}": pendulum_drift(b, substeps=n)
        for n in (1, 4) for b in (0.0, 0.2, 0.5)}
    out["drift_m"]["chain_10_worst_gap_10s"] = {
        "velocity": chain_gap("velocity"),
        "acceleration, 1 substep": chain_gap("acceleration", substeps=1),
        "acceleration, 4 substeps": chain_gap("acceleration", substeps=4)}
    out["drift_m"]["slider_on_spinning_arm_10s_off_axis"] = {
        f"baumgarte {b}": slider_drift(b) for b in (0.0, 0.2)}
    print(json.dumps(out["drift_m"], indent=1), flush=True)
    out["default_pyramid_20_ms"] = step_ms(lambda w: pyramid(w, 20), steps=300)
    print(f"default solver, pyramid_20: {out['default_pyramid_20_ms']:.3f} ms/step")
    (HERE / "results" / "direct_accel.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
