"""Engine adapters for the benchmarks: impulse2d, pymunk (Chipmunk2D), pybox2d (Box2D 2.3) and
pyb2d3 (Box2D v3.1).

Every engine gets its bodies from the same scene builders in :mod:`impulse2d.scenes`. impulse2d
builds straight into a real ``World``; the peers build into a :class:`RecordingWorld`, which
implements the body/shape creation calls of the public API with the same signatures and just
records them, and the record is then replayed into the peer engine.  So each scene has exactly
one definition.

An adapter (:class:`Engine`) offers ``build(scene, **params)``, ``step()`` (the only call the
benchmark times), ``states()`` (an (N, 6) array of x, y, angle, vx, vy, w in body creation
order), ``indices(info)`` (the scene's :class:`SceneInfo` with every body handle replaced by its
creation index) and ``config()`` (the solver settings actually used).

Material mapping (the scenes fix the *pair* coefficients with Box2D's mixing rule, friction
``sqrt(fa fb)`` and restitution ``max(ea, eb)``):

* impulse2d and Box2D (2.3 and v3) mix like that already: values pass through.
* pymunk multiplies both: shape friction = ``sqrt(value)`` (so the pair product is the sqrt
  rule); static and kinematic shapes get elasticity 1.0 and dynamic ones their own value, so the
  product equals the max for every pair in the standard scenes (a dynamic body against a static
  one, or two dynamic bodies with restitution 0).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

DT = 1.0 / 60.0
GRAVITY = (0.0, -10.0)

__all__ = ["load_scenes", "build_scene", "RecordingWorld", "BodyRecord", "ShapeRecord",
           "JointRecord", "Engine",
           "Impulse2dEngine", "PymunkEngine", "Box2DEngine", "Pyb2d3Engine", "ENGINES",
           "make_engine",
           "index_info", "timed_import", "DT", "GRAVITY"]

_ALL_BITS = 0xFFFFFFFF


# --------------------------------------------------------------------------------------------
# recording world
# --------------------------------------------------------------------------------------------

@dataclass
class ShapeRecord:
    """One ``body.create_*`` call: ``kind`` is circle | box | polygon | capsule | segment and
    ``geometry`` holds that call's geometric arguments (local coordinates)."""

    kind: str
    geometry: dict[str, Any]
    density: float = 1.0
    friction: float = 0.6
    restitution: float = 0.0
    is_sensor: bool = False
    category: int = 0x1
    mask: int = _ALL_BITS
    group: int = 0


def _vec(v, what):
    x, y = v
    x, y = float(x), float(y)
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"{what} must be finite, got {v!r}")
    return (x, y)


@dataclass
class BodyRecord:
    """One ``world.create_body`` call plus the shapes created on it; light stand-in for a Body."""

    index: int
    type: str = "dynamic"
    position: tuple[float, float] = (0.0, 0.0)
    angle: float = 0.0
    linear_velocity: tuple[float, float] = (0.0, 0.0)
    angular_velocity: float = 0.0
    linear_damping: float = 0.0
    angular_damping: float = 0.0
    gravity_scale: float = 1.0
    fixed_rotation: bool = False
    bullet: bool = False
    allow_sleep: bool = True
    user_data: Any = None
    shapes: list[ShapeRecord] = field(default_factory=list)

    def _add(self, kind, geometry, density=1.0, friction=0.6, restitution=0.0, is_sensor=False,
             category=0x1, mask=_ALL_BITS, group=0, user_data=None):
        for name, v in (("density", density), ("friction", friction), ("restitution", restitution)):
            if not (math.isfinite(v) and v >= 0.0):
                raise ValueError(f"{name} must be finite and >= 0, got {v!r}")
        rec = ShapeRecord(kind, geometry, float(density), float(friction), float(restitution),
                          bool(is_sensor), int(category), int(mask), int(group))
        self.shapes.append(rec)
        return rec

    def create_circle(self, radius, center=(0.0, 0.0), **material):
        if not radius > 0.0:
            raise ValueError(f"circle radius must be > 0, got {radius!r}")
        return self._add("circle", {"radius": float(radius), "center": _vec(center, "center")},
                         **material)

    def create_box(self, half_width, half_height, center=(0.0, 0.0), angle=0.0, radius=0.0,
                   **material):
        if not (half_width > 0.0 and half_height > 0.0):
            raise ValueError(f"box half extents must be > 0, got {half_width!r}, {half_height!r}")
        return self._add("box", {"half_width": float(half_width), "half_height": float(half_height),
                                 "center": _vec(center, "center"), "angle": float(angle),
                                 "radius": float(radius)}, **material)

    def create_polygon(self, vertices, radius=0.0, **material):
        verts = [_vec(v, "vertex") for v in vertices]
        if len(verts) < 3:
            raise ValueError("a polygon needs at least 3 vertices")
        return self._add("polygon", {"vertices": verts, "radius": float(radius)}, **material)

    def create_capsule(self, p1, p2, radius, **material):
        if not radius > 0.0:
            raise ValueError(f"capsule radius must be > 0, got {radius!r}")
        return self._add("capsule", {"p1": _vec(p1, "p1"), "p2": _vec(p2, "p2"),
                                     "radius": float(radius)}, **material)

    def create_segment(self, p1, p2, **material):
        return self._add("segment", {"p1": _vec(p1, "p1"), "p2": _vec(p2, "p2")}, **material)


@dataclass
class JointRecord:
    """One ``world.create_revolute_joint`` call (bodies as their creation indices)."""

    index: int
    kind: str
    body_a: int
    body_b: int
    anchor: tuple[float, float]
    enable_limit: bool = False
    lower_angle: float = 0.0
    upper_angle: float = 0.0
    enable_motor: bool = False
    motor_speed: float = 0.0
    max_motor_torque: float = 0.0
    enable_spring: bool = False
    hertz: float = 0.0
    damping_ratio: float = 0.0
    collide_connected: bool = False


class RecordingWorld:
    """Implements ``create_body`` and ``create_revolute_joint`` of the public API and records
    every body, shape and joint."""

    def __init__(self, gravity=GRAVITY, **settings):
        self.gravity = _vec(gravity, "gravity")
        self.settings = settings
        self.bodies: list[BodyRecord] = []
        self.joints: list[JointRecord] = []

    def create_revolute_joint(self, body_a, body_b, anchor, enable_limit=False, lower_angle=0.0,
                              upper_angle=0.0, enable_motor=False, motor_speed=0.0,
                              max_motor_torque=0.0, enable_spring=False, hertz=0.0,
                              damping_ratio=0.0, collide_connected=False):
        for b in (body_a, body_b):
            if not isinstance(b, BodyRecord) or self.bodies[b.index] is not b:
                raise TypeError("joint bodies must be bodies of this RecordingWorld")
        if body_a is body_b:
            raise ValueError("a joint needs two different bodies, got the same body twice")
        if body_a.type == "static" and body_b.type == "static":
            raise ValueError("a joint between two static bodies can do nothing")
        if float(lower_angle) > float(upper_angle):
            raise ValueError(f"lower limit {lower_angle} is above upper limit {upper_angle}")
        rec = JointRecord(len(self.joints), "revolute", body_a.index, body_b.index,
                          _vec(anchor, "anchor"), bool(enable_limit), float(lower_angle),
                          float(upper_angle), bool(enable_motor), float(motor_speed),
                          float(max_motor_torque), bool(enable_spring), float(hertz),
                          float(damping_ratio), bool(collide_connected))
        self.joints.append(rec)
        return rec

    def create_body(self, type="dynamic", position=(0.0, 0.0), angle=0.0,
                    linear_velocity=(0.0, 0.0), angular_velocity=0.0, linear_damping=0.0,
                    angular_damping=0.0, gravity_scale=1.0, fixed_rotation=False, bullet=False,
                    allow_sleep=True, user_data=None):
        type = getattr(type, "name", type)
        type = str(type).lower()
        if type not in ("dynamic", "static", "kinematic"):
            raise ValueError(f"unknown body type {type!r}")
        rec = BodyRecord(len(self.bodies), type, _vec(position, "position"), float(angle),
                         _vec(linear_velocity, "linear_velocity"), float(angular_velocity),
                         float(linear_damping), float(angular_damping), float(gravity_scale),
                         bool(fixed_rotation), bool(bullet), bool(allow_sleep), user_data)
        self.bodies.append(rec)
        return rec

    # the scenes only create; these make a recording usable as a stand-in in a few more places
    def step(self, dt=DT):  # pragma: no cover - a recording does not simulate
        raise NotImplementedError("RecordingWorld only records a scene; replay it into an engine")


def index_info(info, index_of):
    """Copy of ``info.bodies`` with every handle replaced by ``index_of(handle)`` (nested lists,
    tuples and dicts are followed)."""

    def conv(v):
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        return index_of(v)

    return {k: conv(v) for k, v in info.bodies.items()}


def _box_vertices(hx, hy, center=(0.0, 0.0), angle=0.0):
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for x, y in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)):
        out.append((center[0] + c * x - s * y, center[1] + s * x + c * y))
    return out


def _capsule_polygon(p1, p2, r):
    """Convex 8-gon hull approximating a capsule (Box2D 2.3 has no capsule shape)."""
    dx, dy = p2[0] - p1[0], p2[1] - p1[1]
    base = math.atan2(dy, dx)
    verts = []
    for end, offs in ((p2, (-90, -30, 30, 90)), (p1, (90, 150, 210, 270))):
        for d in offs:
            a = base + math.radians(d)
            verts.append((end[0] + r * math.cos(a), end[1] + r * math.sin(a)))
    return verts


# --------------------------------------------------------------------------------------------
# adapters
# --------------------------------------------------------------------------------------------

def load_scenes():
    """The ``impulse2d.scenes`` module, for :func:`build_scene`.

    The scene builders only need the public API of the world they are given, so the peers can
    run even while the engine package itself does not import (work in progress, a broken
    build): then the two scene modules are loaded straight from their files.
    """
    import sys

    try:
        import impulse2d.scenes as scenes
        scenes._load()
        return scenes
    except Exception:
        pass
    name = "_impulse2d_scenes_standalone"
    if name in sys.modules:
        return sys.modules[name]
    import importlib.util

    here = Path(__file__).resolve().parent.parent / "src" / "impulse2d" / "scenes"
    spec = importlib.util.spec_from_file_location(name, here / "__init__.py",
                                                  submodule_search_locations=[str(here)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    mod._load()
    return mod


def build_scene(world, name, **params):
    """Build scene ``name`` of :mod:`impulse2d.scenes` into ``world``; ``name`` may also be a
    builder itself (a function of the world and the params that uses only the public API), for
    a benchmark's own variant of a scene."""
    if callable(name):
        return name(world, **params)
    return load_scenes().build_scene(world, name, **params)


class Engine:
    name = "?"

    def __init__(self, options=None):
        self.options = dict(options or {})
        self.info = None            # SceneInfo as the builder returned it
        self.index = None           # info.bodies with creation indices instead of handles
        self.n_bodies = 0

    @staticmethod
    def version() -> str:
        raise NotImplementedError

    def build(self, scene, **params):
        raise NotImplementedError

    def step(self):
        raise NotImplementedError

    def states(self) -> np.ndarray:
        raise NotImplementedError

    def config(self) -> dict:
        return {}

    def awake_count(self):
        return None


class Impulse2dEngine(Engine):
    """impulse2d, built straight from the scene builders into a real World.

    ``options`` are WorldSettings fields (``solver``, ``substeps``, ...); sleeping is turned off
    (``enable_sleep=False``) unless an option says otherwise.
    """

    name = "impulse2d"

    @staticmethod
    def version():
        import impulse2d
        return impulse2d.__version__

    def build(self, scene, **params):
        import impulse2d as i2d

        settings = dict(self.options)
        fields = {f.name for f in dataclasses.fields(i2d.WorldSettings)}
        if "enable_sleep" in fields:
            settings.setdefault("enable_sleep", False)       # sleeping off for timing runs
        self.world = i2d.World(gravity=GRAVITY, **settings)
        world = self.world
        order = {}

        class _Tracking:
            # forwards create_body and remembers each handle's creation index
            def create_body(self, *a, **k):
                b = world.create_body(*a, **k)
                order[id(b)] = len(order)
                handles.append(b)
                return b

            def __getattr__(self, name):
                return getattr(world, name)

        handles = []
        self.info = build_scene(_Tracking(), scene, **params)
        self.index = index_info(self.info, lambda h: order[id(h)])
        self.n_bodies = len(handles)
        self._handles = handles
        return self.info

    def step(self):
        self.world.step(DT)

    def states(self):
        p = np.asarray(self.world.get_positions(), dtype=np.float64).reshape(-1, 2)
        a = np.asarray(self.world.get_angles(), dtype=np.float64).reshape(-1)
        v = np.asarray(self.world.get_velocities(), dtype=np.float64).reshape(-1, 3)
        if len(p) != self.n_bodies:
            raise RuntimeError(f"world has {len(p)} bodies, the scene built {self.n_bodies}")
        return np.column_stack([p, a, v])

    def config(self):
        s = getattr(self.world, "settings", None)
        try:
            d = dataclasses.asdict(s)
        except Exception:
            d = {k: v for k, v in vars(s).items() if not k.startswith("_")} if s is not None else {}
        return {k: (v if isinstance(v, (int, float, str, bool, type(None))) else repr(v))
                for k, v in d.items()}

    def awake_count(self):
        try:
            return int(sum(1 for b in self._handles
                           if str(getattr(b.type, "name", b.type)).lower() == "dynamic"
                           and b.is_awake))
        except Exception:
            return None


class _ReplayEngine(Engine):
    """Common part of the peers: record the scene, then replay it."""

    def build(self, scene, **params):
        rec = RecordingWorld(GRAVITY)
        self.info = build_scene(rec, scene, **params)
        self.record = rec
        self.index = index_info(self.info, lambda h: h.index)
        self.n_bodies = len(rec.bodies)
        self._replay(rec)
        return self.info

    def _replay(self, rec):
        raise NotImplementedError


class PymunkEngine(_ReplayEngine):
    """pymunk (Chipmunk2D 7): Space(iterations=10), collision_slop=0.005, no sleeping (option
    ``sleep=true``: ``sleep_time_threshold`` 0.5 s, as impulse2d's and Box2D's time to sleep;
    Chipmunk's idle speed left to its own rule)."""

    name = "pymunk"

    @staticmethod
    def version():
        import pymunk
        return f"{pymunk.version} (Chipmunk {pymunk.chipmunk_version.split('-')[0]})"

    def _replay(self, rec):
        import pymunk

        self.pm = pymunk
        space = pymunk.Space()
        space.gravity = rec.gravity
        space.iterations = int(self.options.get("iterations", 10))
        space.collision_slop = float(self.options.get("slop", 0.005))
        if self.options.get("sleep", False):
            space.sleep_time_threshold = 0.5
        self.space = space
        types = {"dynamic": pymunk.Body.DYNAMIC, "static": pymunk.Body.STATIC,
                 "kinematic": pymunk.Body.KINEMATIC}
        self.bodies = []
        # Chipmunk has only world-wide damping and gravity: a scene whose dynamic bodies all
        # share one damping (linear = angular) and one gravity scale maps onto those exactly
        # enough (Chipmunk: v *= damping^dt; Box2D: v *= 1 / (1 + c dt); damping = e^-c)
        per_body = {(br.linear_damping, br.angular_damping, br.gravity_scale)
                    for br in rec.bodies if br.type == "dynamic"}
        if len(per_body) > 1 or any(lin != ang for lin, ang, _ in per_body):
            raise NotImplementedError("pymunk adapter: per-body damping / gravity scale")
        if per_body:
            lin, _, gs = per_body.pop()
            space.damping = math.exp(-lin)
            space.gravity = (rec.gravity[0] * gs, rec.gravity[1] * gs)
        for br in rec.bodies:
            body = pymunk.Body(body_type=types[br.type])
            body.position = br.position
            body.angle = br.angle
            shapes = [self._shape(body, br, s) for s in br.shapes]
            if br.type == "dynamic":
                body.velocity = br.linear_velocity
                body.angular_velocity = br.angular_velocity
            space.add(body, *shapes)
            if br.type == "dynamic" and br.fixed_rotation:
                body.moment = math.inf
            elif br.type == "kinematic":
                body.velocity = br.linear_velocity
                body.angular_velocity = br.angular_velocity
            self.bodies.append(body)
        self._dynamic = [b for b, r in zip(self.bodies, rec.bodies) if r.type == "dynamic"]
        self.joints = [self._joint(jr) for jr in rec.joints]

    def _joint(self, jr):
        """PivotJoint at the anchor; RotaryLimitJoint for a limit (on angle_b - angle_a, so
        shifted by the angle at creation, which impulse2d and Box2D measure from) and
        SimpleMotor for a motor (Chipmunk's rate drives w_a - w_b, hence the sign)."""
        pm = self.pm
        a, b = self.bodies[jr.body_a], self.bodies[jr.body_b]
        if jr.enable_spring:
            raise NotImplementedError("pymunk adapter: revolute joint springs")
        parts = [pm.PivotJoint(a, b, jr.anchor)]
        if jr.enable_limit:
            ref = b.angle - a.angle
            parts.append(pm.RotaryLimitJoint(a, b, jr.lower_angle + ref, jr.upper_angle + ref))
        if jr.enable_motor:
            motor = pm.SimpleMotor(a, b, -jr.motor_speed)
            motor.max_force = jr.max_motor_torque
            parts.append(motor)
        for c in parts:
            c.collide_bodies = jr.collide_connected
        self.space.add(*parts)
        return parts

    def _shape(self, body, br, s):
        pm = self.pm
        g = s.geometry
        if s.kind == "circle":
            shape = pm.Circle(body, g["radius"], g["center"])
        elif s.kind == "box":
            shape = pm.Poly(body, _box_vertices(g["half_width"], g["half_height"], g["center"],
                                                g["angle"]), radius=g["radius"])
        elif s.kind == "polygon":
            shape = pm.Poly(body, g["vertices"], radius=g["radius"])
        elif s.kind == "capsule":
            shape = pm.Segment(body, g["p1"], g["p2"], g["radius"])
        elif s.kind == "segment":
            shape = pm.Segment(body, g["p1"], g["p2"], 0.0)
        else:  # pragma: no cover
            raise ValueError(s.kind)
        if br.type == "dynamic":
            shape.density = s.density
        shape.friction = math.sqrt(s.friction)
        shape.elasticity = s.restitution if br.type == "dynamic" else 1.0
        shape.sensor = s.is_sensor
        # impulse2d/Box2D: a shared negative group never collides; Chipmunk: a shared non-zero
        # group never collides (positive "always collide" groups have no Chipmunk equivalent)
        shape.filter = pm.ShapeFilter(group=-s.group if s.group < 0 else 0,
                                      categories=s.category, mask=s.mask)
        return shape

    def step(self):
        self.space.step(DT)

    def states(self):
        out = np.empty((len(self.bodies), 6))
        for i, b in enumerate(self.bodies):
            p, v = b.position, b.velocity
            out[i] = (p.x, p.y, b.angle, v.x, v.y, b.angular_velocity)
        return out

    def config(self):
        sp = self.space
        return {"iterations": sp.iterations, "collision_slop": sp.collision_slop,
                "collision_bias": sp.collision_bias,
                "collision_persistence": sp.collision_persistence,
                "sleep_time_threshold": sp.sleep_time_threshold,
                "friction_per_shape": "sqrt(value)", "elasticity": "static 1.0, dynamic own"}

    def awake_count(self):
        return sum(1 for b in self._dynamic if not b.is_sleeping)


class Box2DEngine(_ReplayEngine):
    """pybox2d (Box2D 2.3): world.Step(dt, 8, 3), warm starting and continuous physics on
    (defaults), sleeping off -- per body too, since this build's world-level switch alone does
    not stop islands from sleeping."""

    name = "box2d"

    @staticmethod
    def version():
        import Box2D
        return Box2D.__version__

    def _replay(self, rec):
        import Box2D as b2

        self.b2 = b2
        self.vel_iters = int(self.options.get("velocity_iterations", 8))
        self.pos_iters = int(self.options.get("position_iterations", 3))
        sleep = bool(self.options.get("sleep", False))
        world = b2.b2World(gravity=rec.gravity, doSleep=sleep)
        self.world = world
        types = {"dynamic": b2.b2_dynamicBody, "static": b2.b2_staticBody,
                 "kinematic": b2.b2_kinematicBody}
        self.bodies = []
        for br in rec.bodies:
            bd = b2.b2BodyDef()
            bd.type = types[br.type]
            bd.position = br.position
            bd.angle = br.angle
            bd.linearVelocity = br.linear_velocity
            bd.angularVelocity = br.angular_velocity
            bd.linearDamping = br.linear_damping
            bd.angularDamping = br.angular_damping
            bd.gravityScale = br.gravity_scale
            bd.fixedRotation = br.fixed_rotation
            bd.bullet = br.bullet
            bd.allowSleep = sleep and br.allow_sleep
            body = world.CreateBody(bd)
            for s in br.shapes:
                fd = b2.b2FixtureDef(shape=self._shape(s), density=s.density, friction=s.friction,
                                     restitution=s.restitution, isSensor=s.is_sensor)
                fd.filter = b2.b2Filter(categoryBits=s.category & 0xFFFF,
                                        maskBits=s.mask & 0xFFFF, groupIndex=s.group)
                body.CreateFixture(fd)
            self.bodies.append(body)
        self.joints = [self._joint(jr) for jr in rec.joints]

    def _joint(self, jr):
        """b2RevoluteJoint, initialised at the world anchor (reference angle = the relative
        angle at creation, as in impulse2d); limit, motor and collideConnected as given."""
        if jr.enable_spring:
            raise NotImplementedError("Box2D 2.3 revolute joints have no spring")
        return self.world.CreateRevoluteJoint(
            bodyA=self.bodies[jr.body_a], bodyB=self.bodies[jr.body_b], anchor=jr.anchor,
            enableLimit=jr.enable_limit, lowerAngle=jr.lower_angle, upperAngle=jr.upper_angle,
            enableMotor=jr.enable_motor, motorSpeed=jr.motor_speed,
            maxMotorTorque=jr.max_motor_torque, collideConnected=jr.collide_connected)

    def _shape(self, s):
        b2 = self.b2
        g = s.geometry
        if s.kind == "circle":
            return b2.b2CircleShape(radius=g["radius"], pos=g["center"])
        if s.kind == "box":
            # Box2D 2.3 polygons have a fixed 1 cm skin: a rounded box becomes a box grown by r
            r = g["radius"]
            sh = b2.b2PolygonShape()
            sh.SetAsBox(g["half_width"] + r, g["half_height"] + r, g["center"], g["angle"])
            return sh
        if s.kind == "polygon":
            return b2.b2PolygonShape(vertices=g["vertices"])
        if s.kind == "capsule":
            return b2.b2PolygonShape(vertices=_capsule_polygon(g["p1"], g["p2"], g["radius"]))
        if s.kind == "segment":
            return b2.b2EdgeShape(vertices=[g["p1"], g["p2"]])
        raise ValueError(s.kind)  # pragma: no cover

    def step(self):
        self.world.Step(DT, self.vel_iters, self.pos_iters)

    def states(self):
        out = np.empty((len(self.bodies), 6))
        for i, b in enumerate(self.bodies):
            p, v = b.position, b.linearVelocity
            out[i] = (p[0], p[1], b.angle, v[0], v[1], b.angularVelocity)
        return out

    def config(self):
        return {"velocity_iterations": self.vel_iters, "position_iterations": self.pos_iters,
                "continuous": bool(self.world.continuousPhysics),
                "warm_starting": bool(self.world.warmStarting),
                "sleep": bool(self.options.get("sleep", False))}

    def awake_count(self):
        return sum(1 for b in self.bodies if b.type == self.b2.b2_dynamicBody and b.awake)


class Pyb2d3Engine(_ReplayEngine):
    """pyb2d3 (Box2D v3.1 through nanobind), used as a Box2D v3 user would: its default world
    (contact 30 Hz, damping ratio 10, push-out 3 m/s, continuous on), ``World.step(dt, 4)``
    (the 4 substeps Box2D v3 recommends), sleeping off unless option ``sleep=true``.

    Option ``threads=N`` (default 1): N > 1 gives the world a ``pyb2d3.ThreadPool(N)``, so Box2D
    runs its tasks on N workers; with 1 no pool is installed and every task runs inline on the
    calling thread. ``substeps=N`` changes the substep count.

    Shapes: boxes (offset, rotated, rounded), polygons (their hull, rounded), capsules, circles
    and segments map one to one; joints are revolute joints with the anchor in each body's frame
    and the reference angle at creation, limit, motor, spring and collide_connected as recorded.
    A shape's negative ``group`` is Box2D's group index as it is.
    """

    name = "pyb2d3"

    @staticmethod
    def version():
        from importlib.metadata import version
        # pyb2d3 0.11 does not report its Box2D; its build fetches Box2D v3.1.1
        return f"{version('pyb2d3')} (Box2D 3.1.1)"

    def _replay(self, rec):
        import pyb2d3 as b2

        self.b2 = b2
        unknown = set(self.options) - {"threads", "substeps", "sleep"}
        if unknown:
            raise ValueError(f"unknown pyb2d3 options: {', '.join(sorted(unknown))}")
        self.threads = int(self.options.get("threads", 1))
        self.substeps = int(self.options.get("substeps", 4))
        self.pool = None
        if self.threads > 1:
            if not b2.WITH_THREADING:
                raise ValueError("this pyb2d3 build has no threading support")
            self.pool = b2.ThreadPool(self.threads)
            world = b2.World(gravity=rec.gravity, thread_pool=self.pool)
        else:
            world = b2.World(gravity=rec.gravity)
        world.sleeping_enabled = bool(self.options.get("sleep", False))
        self.world = world
        types = {"dynamic": b2.BodyType.DYNAMIC, "static": b2.BodyType.STATIC,
                 "kinematic": b2.BodyType.KINEMATIC}
        self.bodies, self._dynamic = [], []
        for br in rec.bodies:
            bd = b2.BodyDef()
            bd.type = types[br.type]
            bd.position = br.position
            bd.rotation = self._rot(br.angle)
            bd.linear_velocity = br.linear_velocity
            bd.angular_velocity = br.angular_velocity
            bd.linear_damping = br.linear_damping
            bd.angular_damping = br.angular_damping
            bd.gravity_scale = br.gravity_scale
            bd.fixed_rotation = br.fixed_rotation
            bd.is_bullet = br.bullet
            bd.enable_sleep = br.allow_sleep
            body = world.create_body_from_def(bd)
            for s in br.shapes:
                self._shape(body, br, s)
            self.bodies.append(body)
            if br.type == "dynamic":
                self._dynamic.append(body)
        self.joints = [self._joint(jr) for jr in rec.joints]
        # the timed call goes straight into the binding, arguments bound
        self.step = functools.partial(world.step, DT, self.substeps)

    def _rot(self, angle):
        """The rotation of ``angle`` from the exact cos and sin (Box2D v3's ``b2MakeRot``
        approximates them, about 1e-3 off)."""
        r = self.b2.Rot()
        r.c, r.s = math.cos(angle), math.sin(angle)
        return r

    def _shape(self, body, br, s):
        b2 = self.b2
        sd = b2.ShapeDef()
        sd.density = s.density if br.type == "dynamic" else 0.0
        mat = sd.material
        mat.friction = s.friction
        mat.restitution = s.restitution
        sd.material = mat
        sd.is_sensor = s.is_sensor
        f = b2.Filter()
        f.category_bits = s.category
        f.mask_bits = s.mask
        f.group_index = s.group
        sd.filter = f
        g = s.geometry
        if s.kind == "circle":
            body.create_circle_shape(sd, b2.circle(center=g["center"], radius=g["radius"]))
        elif s.kind == "box":
            body.create_polygon_shape(sd, b2.make_offset_rounded_box(
                g["half_width"], g["half_height"], g["center"], self._rot(g["angle"]),
                g["radius"]))
        elif s.kind == "polygon":
            body.create_polygon_shape(sd, b2.polygon(points=g["vertices"], radius=g["radius"]))
        elif s.kind == "capsule":
            body.create_capsule_shape(sd, b2.capsule(g["p1"], g["p2"], g["radius"]))
        elif s.kind == "segment":
            body.create_segment_shape(sd, b2.segment(g["p1"], g["p2"]))
        else:  # pragma: no cover
            raise ValueError(s.kind)

    def _joint(self, jr):
        b2 = self.b2
        a, b = self.bodies[jr.body_a], self.bodies[jr.body_b]
        jd = b2.RevoluteJointDef()
        jd.body_a, jd.body_b = a, b
        jd.local_anchor_a = a.local_point(jr.anchor)
        jd.local_anchor_b = b.local_point(jr.anchor)
        qa, qb = a.rotation, b.rotation
        jd.reference_angle = math.atan2(qa.c * qb.s - qa.s * qb.c, qa.c * qb.c + qa.s * qb.s)
        jd.collide_connected = jr.collide_connected
        jd.enable_limit = jr.enable_limit
        jd.lower_angle, jd.upper_angle = jr.lower_angle, jr.upper_angle
        jd.enable_motor = jr.enable_motor
        jd.motor_speed, jd.max_motor_torque = jr.motor_speed, jr.max_motor_torque
        jd.enable_spring = jr.enable_spring
        jd.hertz, jd.damping_ratio = jr.hertz, jr.damping_ratio
        return self.world.create_revolute_joint(jd)

    def step(self):  # replaced per instance by the bound binding call in _replay
        self.world.step(DT, self.substeps)

    def states(self):
        out = np.empty((len(self.bodies), 6))
        atan2 = math.atan2
        for i, b in enumerate(self.bodies):
            # shapes are centred on the body origin in every scene here; the angle from the
            # rotation's (cos, sin) (Body.angle is Box2D's approximate atan2)
            p, q, v = b.position, b.rotation, b.linear_velocity
            out[i] = (p.x, p.y, atan2(q.s, q.c), v.x, v.y, b.angular_velocity)
        return out

    def config(self):
        w = self.world
        return {"sub_step_count": self.substeps, "threads": self.threads,
                "sleeping_enabled": w.sleeping_enabled,
                "continuous_enabled": w.continuous_enabled,
                "restitution_threshold": w.restitution_threshold}

    def awake_count(self):
        return sum(1 for b in self._dynamic if b.awake)


ENGINES = {"impulse2d": Impulse2dEngine, "pymunk": PymunkEngine, "box2d": Box2DEngine,
           "pyb2d3": Pyb2d3Engine}


def make_engine(name, options=None) -> Engine:
    try:
        cls = ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}") from None
    return cls(options)


def timed_import(name):
    """Import an engine module and return the seconds it took (0 if it was already loaded)."""
    import importlib
    import sys

    mod = {"impulse2d": "impulse2d", "pymunk": "pymunk", "box2d": "Box2D",
           "pyb2d3": "pyb2d3"}[name]
    if mod in sys.modules:
        return 0.0
    t0 = time.perf_counter()
    importlib.import_module(mod)
    return time.perf_counter() - t0
