"""Joint gaps of a chain step by step, impulse2d against Box2D v3.1 (pyb2d3) on the same scene.

    PYTHONPATH=src python benchmarks/chain_whip.py --scene chain --json out.json
    PYTHONPATH=src python benchmarks/chain_whip.py --scene stretched_chain --param hanging=False \
        --solver soft_step --solver soft_step_v31

Results of both on 2026-11-24: ``benchmarks/results/chain_whip.json``.

The gap of a revolute joint is the distance between its anchor as carried by body A and by body
B. Each anchor is fixed in its body's frame when the joint is created (the stretched chain moves
its bodies afterwards, so the frames cannot be taken from the first state). The gap is measured
after every step, not sampled: the chain's worst gap lasts a few steps of its first swing.

Engines: ``impulse2d`` (``--opt key=value`` are WorldSettings fields) and ``pyb2d3`` (Box2D
v3.1.1, float32, ``World.step(dt, 4)`` with the default b2WorldDef, as the peers harness in
/work/shared/peers-bench runs it; not installed by the project: ``pip install pyb2d3``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

try:
    from engines import DT, GRAVITY, RecordingWorld, build_scene
except ImportError:  # run as benchmarks.chain_whip
    from .engines import DT, GRAVITY, RecordingWorld, build_scene


class AnchorRecordingWorld(RecordingWorld):
    """A recording that also keeps each joint's anchor in body A's and body B's frame, taken
    from the bodies' poses when the joint is created."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.local_anchors = []

    def create_revolute_joint(self, body_a, body_b, anchor, **kw):
        rec = super().create_revolute_joint(body_a, body_b, anchor, **kw)
        pair = []
        for b in (body_a, body_b):
            c, s = math.cos(b.angle), math.sin(b.angle)
            dx, dy = anchor[0] - b.position[0], anchor[1] - b.position[1]
            pair.append((c * dx + s * dy, -s * dx + c * dy))
        self.local_anchors.append(pair)
        return rec


def record(scene, params):
    rec = AnchorRecordingWorld(GRAVITY)
    build_scene(rec, scene, **params)
    return rec


def gaps(states, ja, jb, la, lb):
    """Every joint's gap (m) from body states rows ``(x, y, angle, ...)``."""
    def world(st, q):
        c, s = np.cos(st[:, 2]), np.sin(st[:, 2])
        return st[:, :2] + np.column_stack([c * q[:, 0] - s * q[:, 1], s * q[:, 0] + c * q[:, 1]])
    d = world(states[ja], la) - world(states[jb], lb)
    return np.hypot(d[:, 0], d[:, 1])


class Impulse2d:
    def __init__(self, rec, scene, params, opts):
        import impulse2d as i2d
        from impulse2d.scenes import build_scene as build
        self.world = i2d.World(gravity=GRAVITY, **opts)
        build(self.world, scene, **params)

    def step(self):
        self.world.step(DT)

    def states(self):
        w = self.world
        p = np.asarray(w.get_positions(), dtype=np.float64).reshape(-1, 2)
        a = np.asarray(w.get_angles(), dtype=np.float64).reshape(-1)
        v = np.asarray(w.get_velocities(), dtype=np.float64).reshape(-1, 3)
        return np.column_stack([p, a, v])


class Pyb2d3:
    """The recording replayed into pyb2d3: bodies at their final pose, joints with the recorded
    local anchors (reference angle 0: every joint here is built at relative angle 0)."""

    def __init__(self, rec, scene, params, opts):
        import pyb2d3 as b2
        self.substeps = int(opts.get("substeps", 4))
        self.world = b2.World(gravity=GRAVITY)
        self.world.sleeping_enabled = False
        self.bodies = []
        for br in rec.bodies:
            bd = b2.BodyDef()
            bd.type = b2.BodyType.DYNAMIC if br.type == "dynamic" else b2.BodyType.STATIC
            bd.position = br.position
            r = b2.Rot()
            r.c, r.s = math.cos(br.angle), math.sin(br.angle)
            bd.rotation = r
            body = self.world.create_body_from_def(bd)
            for s in br.shapes:
                sd = b2.ShapeDef()
                sd.density = s.density if br.type == "dynamic" else 0.0
                if s.group:
                    f = b2.Filter()
                    f.group_index = s.group
                    sd.filter = f
                g = s.geometry
                if s.kind == "circle":
                    body.create_circle_shape(sd, b2.circle(center=g["center"], radius=g["radius"]))
                elif s.kind == "box":
                    body.create_polygon_shape(sd, b2.box(g["half_width"], g["half_height"]))
                else:
                    raise ValueError(f"shape {s.kind} not replayed")
            self.bodies.append(body)
        for jr, (la, lb) in zip(rec.joints, rec.local_anchors):
            jd = b2.RevoluteJointDef()
            jd.body_a = self.bodies[jr.body_a]
            jd.body_b = self.bodies[jr.body_b]
            jd.local_anchor_a = la
            jd.local_anchor_b = lb
            jd.reference_angle = 0.0
            jd.collide_connected = False
            self.world.create_revolute_joint(jd)

    def step(self):
        self.world.step(DT, self.substeps)

    def states(self):
        out = np.empty((len(self.bodies), 6))
        for i, b in enumerate(self.bodies):
            p, q, v = b.position, b.rotation, b.linear_velocity
            out[i] = (p.x, p.y, math.atan2(q.s, q.c), v.x, v.y, b.angular_velocity)
        return out


ENGINES = {"impulse2d": Impulse2d, "pyb2d3": Pyb2d3}


def run(engine, scene, params, steps, opts, first=120, last=60):
    rec = record(scene, params)
    ja = np.array([j.body_a for j in rec.joints])
    jb = np.array([j.body_b for j in rec.joints])
    la = np.array([p[0] for p in rec.local_anchors])
    lb = np.array([p[1] for p in rec.local_anchors])
    eng = ENGINES[engine](rec, scene, params, opts)
    per_step, speed, spin, where = [], [], [], []
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        eng.step()
        times.append(time.perf_counter() - t0)
        s = eng.states()
        g = gaps(s, ja, jb, la, lb)
        per_step.append(float(np.max(g)))
        where.append(int(np.argmax(g)))
        speed.append(float(np.max(np.hypot(s[:, 3], s[:, 4]))))
        spin.append(float(np.max(np.abs(s[:, 5]))))
    worst = int(np.argmax(per_step))
    return {"engine": engine, "scene": scene, "params": params, "opts": opts, "steps": steps,
            "gap_max_run": max(per_step), "gap_max_step": worst + 1,
            "gap_max_joint": where[worst],
            f"gap_max_first_{first}": max(per_step[:first]),
            f"gap_max_last_{last}": max(per_step[-last:]), "gap_end": per_step[-1],
            "speed_max_run": max(speed), f"speed_max_last_{last}": max(speed[-last:]),
            "spin_max_run": max(spin),
            "ms_per_step_median": 1e3 * float(np.median(times)), "gap_per_step": per_step,
            "speed_per_step": speed, "spin_per_step": spin}


def _value(text):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="chain")
    ap.add_argument("--param", action="append", default=[], help="scene parameter key=value")
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--engine", action="append", choices=sorted(ENGINES))
    ap.add_argument("--opt", action="append", default=[], help="engine option key=value")
    ap.add_argument("--json", help="write the results here (a list, one entry per engine run)")
    ap.add_argument("--series", action="store_true",
                    help="keep the per-step series (gap, speed, spin) in the JSON")
    ap.add_argument("--solver", action="append",
                    help="impulse2d solver(s) to run (default: the world's default)")
    args = ap.parse_args(argv)
    params = dict((k, _value(v)) for k, v in (p.split("=", 1) for p in args.param))
    opts = dict((k, _value(v)) for k, v in (p.split("=", 1) for p in args.opt))
    out = []
    for engine in args.engine or ["impulse2d", "pyb2d3"]:
        if engine == "impulse2d":
            runs = [dict(opts, solver=s) for s in args.solver] if args.solver else [opts]
        else:
            runs = [{k: v for k, v in opts.items() if k == "substeps"}]
        for o in runs:
            r = run(engine, args.scene, params, args.steps, o)
            summary = {k: v for k, v in r.items() if not k.endswith("per_step")}
            out.append(r if args.series else summary)
            print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    sys.exit(main() and 0)
