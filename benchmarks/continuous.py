"""The cost of continuous collision (issue 15, item 1).

    python benchmarks/continuous.py                    # everything, results/continuous.json
    python benchmarks/continuous.py --before ../main/src   # also the step of pyramid_20 of
                                                        # another checkout (before the change)
    python benchmarks/continuous.py --rounds 1 --quick # a quick look

Measured, each in a fresh process (``--child``), engines and settings alternating per round:

* ``rain_2000`` (2,000 circles of r = 0.25 m falling up to 31 m into a box): step time with
  ``enable_continuous`` on and off, and the share of the continuous stage (``Profile``);
* ``bullets_500``: 500 bullet circles (r = 0.05 m) shot at 50-200 m/s in random directions
  (no gravity) inside a 20 m room of 0.1 m static walls holding 40 free 4 cm planks: step time
  on and off, and how many bullets left the room (continuous on: none should);
* the same bullet scene in pyb2d3 (Box2D v3.1) with and without its continuous collision, when
  pyb2d3 is installed;
* ``pyramid_20`` (sleep off, so that every step works): the default step, this checkout and,
  with ``--before``, another one, to show that slow scenes pay nothing;
* ``chain_loop_kicks`` (the scene: a 0.25 m circle kicked at 20 m/s inside a chain loop,
  issue 29): step time on and off, and the deepest the circle got into the wall
  (``deepest_m``; pyb2d3: 0.096 m).

Times are medians of per-step wall times (first steps, which load or compile kernels, left
out); the JSON keeps every round.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DT = 1.0 / 60.0
ROOM = 10.0        # half-size of the bullet room, m
WALL = 0.05        # half-thickness of its walls, m


def _bullet_setup(seed=1, count=500, planks=40):
    """Positions, velocities of the bullets and the planks' centres (the same for both
    engines)."""
    import numpy as np
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-ROOM + 1.0, ROOM - 1.0, size=(count, 2))
    angle = rng.uniform(0.0, 2.0 * math.pi, count)
    speed = rng.uniform(50.0, 200.0, count)
    vel = np.stack([speed * np.cos(angle), speed * np.sin(angle)], axis=1)
    plank_pos = rng.uniform(-ROOM + 1.5, ROOM - 1.5, size=(planks, 2))
    plank_angle = rng.uniform(0.0, math.pi, planks)
    return pos, vel, plank_pos, plank_angle


def _escaped(points) -> int:
    return int(sum(1 for x, y in points if abs(x) > ROOM or abs(y) > ROOM))


def build_bullets_i2d(world):
    pos, vel, plank_pos, plank_angle = _bullet_setup()
    room = world.create_body(type="static")
    for cx, cy, hx, hy in ((0, -ROOM, ROOM + WALL, WALL), (0, ROOM, ROOM + WALL, WALL),
                           (-ROOM, 0, WALL, ROOM + WALL), (ROOM, 0, WALL, ROOM + WALL)):
        room.create_box(hx, hy, center=(cx, cy))
    for (x, y), a in zip(plank_pos, plank_angle):
        world.create_body(position=(x, y), angle=a).create_box(0.02, 0.5)
    bullets = []
    for (x, y), (vx, vy) in zip(pos, vel):
        b = world.create_body(position=(x, y), linear_velocity=(vx, vy), bullet=True)
        b.create_circle(0.05, density=5.0)
        bullets.append(b)
    return bullets


def child_impulse2d(scene, steps, options):
    import impulse2d as i2d
    from impulse2d.scenes import build_scene
    world = i2d.World(**options) if scene != "bullets_500" else i2d.World(gravity=(0, 0),
                                                                           **options)
    bullets = None
    info = None
    if scene == "rain_2000":
        build_scene(world, "rain", count=2000)
    elif scene == "pyramid_20":
        build_scene(world, "pyramid", base=20)
    elif scene == "chain_loop_kicks":
        info = build_scene(world, "chain_loop_kicks")
    else:
        bullets = build_bullets_i2d(world)
    times, shares = [], []
    least = math.inf
    for k in range(steps):
        if info is not None:
            info.update(world, k)       # the kick, not timed
        t0 = time.perf_counter()
        world.step(DT)
        t = time.perf_counter() - t0
        if info is not None:
            least = min(least, info.data["wall_distance"](info.bodies["body"].position))
        if k >= 10:
            times.append(t)
            shares.append(getattr(world.profile, "continuous", 0.0))  # 0 before the change
    out = {"median_ms": 1e3 * statistics.median(times), "mean_ms": 1e3 * statistics.mean(times),
           "continuous_mean_ms": 1e3 * statistics.mean(shares)}
    if bullets is not None:
        out["escaped"] = _escaped([tuple(b.position) for b in bullets])
    if info is not None:
        out["deepest_m"] = info.data["half_thickness"] - least
    return out


def child_box2d(steps, options):
    import pyb2d3 as b2
    pos, vel, plank_pos, plank_angle = _bullet_setup()
    world = b2.World(gravity=(0.0, 0.0))
    world.continuous_enabled = bool(options.get("enable_continuous", True))

    def body(kind, x, y, angle=0.0, v=(0.0, 0.0), bullet=False):
        bd = b2.BodyDef()
        bd.type = kind
        bd.position = (float(x), float(y))
        r = b2.Rot()
        r.c, r.s = math.cos(angle), math.sin(angle)
        bd.rotation = r
        bd.linear_velocity = (float(v[0]), float(v[1]))
        bd.is_bullet = bullet
        return world.create_body_from_def(bd)

    room = body(b2.BodyType.STATIC, 0.0, 0.0)
    for cx, cy, hx, hy in ((0, -ROOM, ROOM + WALL, WALL), (0, ROOM, ROOM + WALL, WALL),
                           (-ROOM, 0, WALL, ROOM + WALL), (ROOM, 0, WALL, ROOM + WALL)):
        room.create_polygon_shape(b2.ShapeDef(), b2.box(hx, hy, center=(cx, cy)))
    for (x, y), a in zip(plank_pos, plank_angle):
        body(b2.BodyType.DYNAMIC, x, y, a).create_polygon_shape(b2.ShapeDef(),
                                                                b2.box(0.02, 0.5))
    bullets = []
    for (x, y), (vx, vy) in zip(pos, vel):
        b = body(b2.BodyType.DYNAMIC, x, y, v=(vx, vy), bullet=True)
        sd = b2.ShapeDef()
        sd.density = 5.0
        b.create_circle_shape(sd, b2.circle(center=(0.0, 0.0), radius=0.05))
        bullets.append(b)
    times = []
    for k in range(steps):
        t0 = time.perf_counter()
        world.step(DT, 4)
        t = time.perf_counter() - t0
        if k >= 10:
            times.append(t)
    return {"median_ms": 1e3 * statistics.median(times), "mean_ms": 1e3 * statistics.mean(times),
            "escaped": _escaped([(b.position[0], b.position[1]) for b in bullets])}


def run_child(args, src=None):
    env = dict(os.environ, IMPULSE2D_QUIET="1")
    env["PYTHONPATH"] = str(src or ROOT / "src")
    out = subprocess.run([sys.executable, __file__, "--child", json.dumps(args)], env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{args} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fewer steps")
    parser.add_argument("--before", help="src directory of another checkout, for pyramid_20")
    parser.add_argument("--out", default=str(HERE / "results" / "continuous.json"))
    a = parser.parse_args()
    if a.child:
        job = json.loads(a.child)
        if job["engine"] == "box2d":
            print(json.dumps(child_box2d(job["steps"], job["options"])))
        else:
            print(json.dumps(child_impulse2d(job["scene"], job["steps"], job["options"])))
        return
    try:
        import pyb2d3  # noqa: F401
        peers = True
    except ImportError:
        peers = False
    steps = {"rain_2000": 300 if a.quick else 600, "bullets_500": 120 if a.quick else 300,
             "pyramid_20": 200 if a.quick else 400,
             "chain_loop_kicks": 600 if a.quick else 3000}
    jobs = []
    for on in (True, False):
        jobs.append(("rain_2000", {"engine": "impulse2d", "scene": "rain_2000",
                                   "steps": steps["rain_2000"],
                                   "options": {"enable_continuous": on}}, None))
        jobs.append(("bullets_500", {"engine": "impulse2d", "scene": "bullets_500",
                                     "steps": steps["bullets_500"],
                                     "options": {"enable_continuous": on}}, None))
        jobs.append(("chain_loop_kicks", {"engine": "impulse2d", "scene": "chain_loop_kicks",
                                          "steps": steps["chain_loop_kicks"],
                                          "options": {"enable_continuous": on}}, None))
        if peers:
            jobs.append(("bullets_500 pyb2d3", {"engine": "box2d", "scene": "bullets_500",
                                                "steps": steps["bullets_500"],
                                                "options": {"enable_continuous": on}}, None))
    pyramid = {"engine": "impulse2d", "scene": "pyramid_20", "steps": steps["pyramid_20"],
               "options": {"enable_sleep": False}}
    jobs.append(("pyramid_20 this checkout", pyramid, None))
    if a.before:
        jobs.append(("pyramid_20 before", {**pyramid, "options": {"enable_sleep": False}},
                     Path(a.before).resolve()))
    # warm the kernel caches (not timed)
    for _, job, src in jobs:
        run_child({**job, "steps": 12}, src)
    rounds = []
    for r in range(a.rounds):
        order = jobs if r % 2 == 0 else jobs[::-1]
        result = {}
        for name, job, src in order:
            on = job["options"].get("enable_continuous", True)
            key = f"{name} continuous={'on' if on else 'off'}"
            if name.startswith("pyramid"):
                key = name
            result[key] = run_child(job, src)
            print(f"round {r + 1}: {key}: {result[key]}", flush=True)
        rounds.append(result)
    summary = {key: {"median_ms": statistics.median(x[key]["median_ms"] for x in rounds)}
               for key in rounds[0]}
    for key in summary:
        for extra in ("escaped", "continuous_mean_ms", "deepest_m"):
            if extra in rounds[0][key]:
                summary[key][extra] = statistics.median(x[key][extra] for x in rounds)
    report = {"machine": platform.machine(), "python": platform.python_version(),
              "cpus": os.cpu_count(), "rounds": rounds, "summary": summary,
              "steps": steps, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(report, indent=1))
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
