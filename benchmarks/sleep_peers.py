"""Sleeping on, beside the peers: a settled pile's step once everything sleeps, and with one
ball falling beside it, for impulse2d, pyb2d3 (Box2D v3), pybox2d (Box2D 2.3) and pymunk.

    PYTHONPATH=src python benchmarks/sleep_peers.py --json benchmarks/results/sleep_peers.json

Each scene is recorded once (``engines.RecordingWorld``) and replayed into the peers; impulse2d
builds it directly. Every engine runs with sleeping on, its own defaults otherwise (impulse2d,
pyb2d3 and pybox2d: 0.5 s below their sleep thresholds; pymunk has sleeping off by default,
so ``sleep_time_threshold`` is set to 0.5 s, its idle speed left to its own rule). Then:

1. ``--settle`` steps, each engine in turn;
2. steps until every dynamic body of the engine sleeps (at most ``--wait`` more; the bodies
   still awake then are reported);
3. ``--timed`` steps of the sleeping pile, the engines stepped in turn, step by step, so that
   they share the machine's load (paired): the median wall time of ``step`` from Python;
4. a ball (radius 0.3 m, density 1) added 10 m left of the pile, 50 m up, falling and touching
   nothing: ``--timed`` steps more, timed the same way.

The ratios to impulse2d are of medians taken in the same steps.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from importlib.metadata import version

import numpy as np

from engines import (Box2DEngine, Impulse2dEngine, PymunkEngine, RecordingWorld,
                     _ReplayEngine, build_scene)

DT = 1.0 / 60.0
GRAVITY = (0.0, -10.0)
BALL = 0.3  # m


class Impulse2d(Impulse2dEngine):
    def __init__(self):
        super().__init__({"enable_sleep": True})

    def awake(self):
        return self.awake_count()

    def add_ball(self, x, y):
        ball = self.world.create_body("dynamic", position=(x, y))
        ball.create_circle(BALL)


class Pybox2d(Box2DEngine):
    name = "pybox2d"

    def __init__(self):
        super().__init__({"sleep": True})

    def awake(self):
        return self.awake_count()

    def add_ball(self, x, y):
        body = self.world.CreateDynamicBody(position=(x, y))
        body.CreateCircleFixture(radius=BALL, density=1.0, friction=0.6)


class Pymunk(PymunkEngine):
    def __init__(self):
        super().__init__({})

    def _replay(self, rec):
        super()._replay(rec)
        self.space.sleep_time_threshold = 0.5

    def awake(self):
        return self.awake_count()

    def add_ball(self, x, y):
        pm = self.pm
        body = pm.Body()
        body.position = (x, y)
        shape = pm.Circle(body, BALL)
        shape.density = 1.0
        shape.friction = math.sqrt(0.6)
        self.space.add(body, shape)


class Pyb2d3(_ReplayEngine):
    """The recording replayed into pyb2d3 (Box2D v3.1): boxes and circles, density and
    friction as recorded, 4 substeps (its default)."""

    name = "pyb2d3"

    def __init__(self):
        super().__init__({})

    @staticmethod
    def version():
        return version("pyb2d3")

    def _replay(self, rec):
        import pyb2d3 as b2

        self.b2 = b2
        self.world = b2.World(gravity=GRAVITY)
        self.world.sleeping_enabled = True
        self.bodies = []
        self.dynamic = []
        for br in rec.bodies:
            bd = b2.BodyDef()
            bd.type = b2.BodyType.DYNAMIC if br.type == "dynamic" else b2.BodyType.STATIC
            bd.position = br.position
            r = b2.Rot()
            r.c, r.s = math.cos(br.angle), math.sin(br.angle)
            bd.rotation = r
            body = self.world.create_body_from_def(bd)
            for s in br.shapes:
                sd = self._shape_def(s.density if br.type == "dynamic" else 0.0, s.friction)
                g = s.geometry
                if s.kind == "circle":
                    body.create_circle_shape(sd, b2.circle(center=g["center"], radius=g["radius"]))
                elif s.kind == "box" and g["angle"] == 0.0 and tuple(g["center"]) == (0.0, 0.0):
                    body.create_polygon_shape(sd, b2.box(g["half_width"], g["half_height"]))
                else:
                    raise ValueError(f"shape {s.kind} not replayed")
            self.bodies.append(body)
            if br.type == "dynamic":
                self.dynamic.append(body)

    def _shape_def(self, density, friction):
        sd = self.b2.ShapeDef()
        sd.density = density
        material = sd.material
        material.friction = friction
        sd.material = material
        return sd

    def step(self):
        self.world.step(DT, 4)

    def awake(self):
        return sum(1 for b in self.dynamic if b.awake)

    def add_ball(self, x, y):
        b2 = self.b2
        bd = b2.BodyDef()
        bd.type = b2.BodyType.DYNAMIC
        bd.position = (x, y)
        body = self.world.create_body_from_def(bd)
        body.create_circle_shape(self._shape_def(1.0, 0.6),
                                 b2.circle(center=(0.0, 0.0), radius=BALL))


ENGINES = (Impulse2d, Pyb2d3, Pybox2d, Pymunk)


def _timed_in_turn(engines, steps):
    times = {e.name: [] for e in engines}
    for _ in range(steps):
        for e in engines:
            t0 = time.perf_counter()
            e.step()
            times[e.name].append(time.perf_counter() - t0)
    return {name: 1e3 * statistics.median(t) for name, t in times.items()}


def run(scene, params, settle, wait, timed):
    rec = RecordingWorld(GRAVITY)
    build_scene(rec, scene, **params)
    x_ball = min(b.position[0] for b in rec.bodies if b.type == "dynamic") - 10.0
    engines = []
    for cls in ENGINES:
        e = cls()
        e.build(scene, **params)
        engines.append(e)
    out = {"scene": scene, "params": params, "dynamic_bodies": sum(
        1 for b in rec.bodies if b.type == "dynamic"), "engines": {}}
    for e in engines:
        for _ in range(settle):
            e.step()
        extra = 0
        while e.awake() > 0 and extra < wait:
            e.step()
            extra += 1
        out["engines"][e.name] = {"version": e.version(), "steps_to_sleep": settle + extra,
                                  "awake_when_timed": e.awake()}
        print(f"{scene}: {e.name} settled, {e.awake()} awake after {settle + extra} steps",
              flush=True)
    asleep = _timed_in_turn(engines, timed)
    for e in engines:
        e.add_ball(x_ball, 50.0)
    ball = _timed_in_turn(engines, timed)
    ref_asleep, ref_ball = asleep["impulse2d"], ball["impulse2d"]
    for e in engines:
        row = out["engines"][e.name]
        row.update({"asleep_step_ms": round(asleep[e.name], 4),
                    "one_falling_ball_step_ms": round(ball[e.name], 4),
                    "asleep_vs_impulse2d": round(asleep[e.name] / ref_asleep, 3),
                    "ball_vs_impulse2d": round(ball[e.name] / ref_ball, 3)})
        print(f"{scene:14s} {e.name:10s} asleep {asleep[e.name]:8.3f} ms  with a ball "
              f"{ball[e.name]:8.3f} ms  (awake bodies when timed: {row['awake_when_timed']})",
              flush=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--settle", type=int, default=400)
    parser.add_argument("--wait", type=int, default=600)
    parser.add_argument("--timed", type=int, default=60)
    args = parser.parse_args(argv)
    results = {"machine": platform.processor() or platform.machine(),
               "python": sys.version.split()[0], "numpy": np.__version__,
               "settle": args.settle, "timed": args.timed,
               "scenes": [run("many_pyramids", {}, args.settle, args.wait, args.timed),
                          run("pyramid", {"base": 100}, args.settle, args.wait, args.timed)]}
    text = json.dumps(results, indent=2)
    if args.json:
        with open(args.json, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
