"""What the layer's worlds compile, compiled ahead by ``impulse2d warmup --all``.

Gymnasium's three Box2D environments on the layer use kernels that no engine world of the
warm-up reaches: the layer's own step checks and contact columns (:mod:`._b2after`), the
one-call paths of a reset (a body of one fixture, the moon's static segments, a revolute
joint's row, a kept world renewed), the ray casts of BipedalWalker's lidar (every hit, as
rows), CarRacing's sensor overlaps and the continuous stage with Box2D 2.3's rules
(``continuous_box2d23``, which a ``b2World`` turns on). Without this, a process warmed up by
``warmup --all`` compiled ten of them in the first steps of the three environments (60 s of CPU
at load 5-7, ``benchmarks/layer_kernels.py``, 2026-12-01). :func:`warm_layer` makes small
worlds the way the three environments do (their calls, none of their numbers) and steps them.
"""

from __future__ import annotations

from ._b2shapes import b2CircleShape, b2EdgeShape, b2FixtureDef, b2PolygonShape
from ._b2joints import b2RevoluteJointDef
from ._b2world import b2ContactListener, b2RayCastCallback, b2World


class _Listener(b2ContactListener):
    """Begins and ends counted (the environments' detectors set flags there)."""

    def __init__(self):
        b2ContactListener.__init__(self)
        self.events = 0

    def BeginContact(self, contact):  # noqa: N802
        self.events += 1

    def EndContact(self, contact):  # noqa: N802
        self.events += 1


class _Lidar(b2RayCastCallback):
    """BipedalWalker's lidar: every fixture the ray meets, the last fraction kept."""

    fraction = 1.0

    def ReportFixture(self, fixture, point, normal, fraction):  # noqa: N802
        self.fraction = fraction
        return fraction


def _lander(world):
    """LunarLander's reset: a moon of edges, a polygon lander and two box legs on revolute
    joints with motors and limits, an impulse, a particle; and a fast falling box (the
    continuous stage). Returns the bodies and the joints. (At most a new world's 16 bodies
    and shapes, :data:`impulse2d._recycle.ROWS`: a world whose stores grew is not kept.)"""
    moon = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0.0, 0.0), (20.0, 0.0)]))
    for k in range(10):  # (a moon of this many segments is written in one call: _segment_rows)
        moon.CreateEdgeFixture(vertices=[(2.0 * k, 3.0 + 0.5 * (k % 2)),
                                         (2.0 * k + 2.0, 3.5 - 0.5 * (k % 2))],
                               density=0.0, friction=0.1)
    lander = world.CreateDynamicBody(
        position=(10.0, 8.0), angle=0.0,
        fixtures=b2FixtureDef(shape=b2PolygonShape(vertices=[(-0.5, 0.6), (-0.6, 0.0),
                                                             (-0.6, -0.3), (0.6, -0.3),
                                                             (0.6, 0.0), (0.5, 0.6)]),
                              density=5.0, friction=0.1, categoryBits=0x0010, maskBits=0x001))
    lander.ApplyForceToCenter((1.0, -1.0), True)
    bodies, joints = [moon, lander], []
    for side in (-1.0, 1.0):
        leg = world.CreateDynamicBody(
            position=(10.0 - side * 0.7, 8.0), angle=side * 0.05,
            fixtures=b2FixtureDef(shape=b2PolygonShape(box=(0.07, 0.27)), density=1.0,
                                  categoryBits=0x0020, maskBits=0x001))
        joints.append(world.CreateJoint(b2RevoluteJointDef(
            bodyA=lander, bodyB=leg, localAnchorA=(0.0, 0.0), localAnchorB=(side * 0.7, 0.6),
            enableMotor=True, enableLimit=True, maxMotorTorque=40.0, motorSpeed=0.3 * side,
            lowerAngle=-0.9, upperAngle=0.9)))
        bodies.append(leg)
    bodies.append(world.CreateDynamicBody(position=(9.0, 6.0), fixtures=b2FixtureDef(
        shape=b2CircleShape(radius=0.07), density=1.0, categoryBits=0x0100, maskBits=0x001)))
    bodies.append(world.CreateDynamicBody(
        position=(4.0, 6.0), linearVelocity=(0.0, -300.0),
        fixtures=b2FixtureDef(shape=b2PolygonShape(box=(0.2, 0.2)), density=1.0)))
    return bodies, joints


def _track(world):
    """CarRacing's track: static sensor tiles under a car body of two polygons; and boxes
    resting on a wall from the start, whose contacts outgrow a new world's constraint store
    (as BipedalWalker's do)."""
    bodies = [world.CreateStaticBody(fixtures=b2FixtureDef(
        shape=b2PolygonShape(vertices=[(2.0 * k, -1.0), (2.0 * k + 2.0, -1.0),
                                       (2.0 * k + 2.0, 1.0), (2.0 * k, 1.0)]),
        isSensor=True)) for k in range(3)]
    bodies.append(world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0.0, 5.0),
                                                                     (20.0, 5.0)])))
    bodies += [world.CreateDynamicBody(position=(2.0 + 0.5 * k, 5.1), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.1, 0.1)), density=1.0)) for k in range(8)]
    car = world.CreateDynamicBody(position=(1.0, 0.0))
    car.CreatePolygonFixture(vertices=[(-0.5, 0.8), (0.5, 0.8), (0.5, 0.2), (-0.5, 0.2)],
                             density=1.0)
    car.CreatePolygonFixture(vertices=[(-0.6, 0.2), (0.6, 0.2), (0.6, -1.0), (-0.6, -1.0)],
                             density=1.0)
    car.ApplyForceToCenter((100.0, 0.0), True)
    return bodies + [car], []


def _episode(make, gravity, steps):
    """A world made by ``make``, stepped as an environment steps it (its motors set and its
    joints read, BipedalWalker's lidar cast, a body destroyed before the last step, which
    rebuilds the step's reference over the constraint store the steps made), its bodies
    destroyed; dropped on return, as a reset drops it (:mod:`._b2release`: the next world of
    these settings is that one renewed)."""
    world = b2World(gravity=gravity, contactListener=_Listener())
    bodies, joints = make(world)
    for k in range(steps):
        if k == steps - 1:  # a body dropped between steps, as LunarLander's particles are
            world.DestroyBody(bodies.pop())
        for joint in joints:
            joint.motorSpeed = 0.5 * joint.speed - joint.angle
        world.Step(1.0 / 50.0, 180, 60)
        world.RayCast(_Lidar(), (10.0, 10.0), (10.0, -1.0))
    for body in bodies:
        world.DestroyBody(body)


def needed_units():
    """The compile units (:class:`..._core.lazy.LazyKernel`) the worlds of :func:`warm_layer`
    step with: what :func:`..._dynamics.step.needed_units` gives engine worlds of the layer's
    settings holding what the lander's world holds (segments, polygons, a circle, a revolute
    joint with a motor and limits) and what the track's does (polygons alone), and the
    continuous stage of those settings (the lander's fast box). ``warmup --all`` steps the
    layer's worlds as soon as these are compiled (:func:`..._core.parallel.take_turns`)."""
    from .. import World
    from .._dynamics.step import _continuous_kernel, needed_units as step_units

    units = {}
    for lander in (True, False):
        world = World(**b2World.engine_settings)
        world.create_body(type="static").create_segment((0.0, 0.0), (20.0, 0.0))
        hull = world.create_body(position=(10.0, 1.0))
        hull.create_box(0.5, 0.3)
        if lander:
            leg = world.create_body(position=(10.5, 0.5))
            leg.create_circle(0.1)
            world.create_revolute_joint(hull, leg, (10.5, 0.5), enable_limit=True,
                                        lower_angle=-0.9, upper_angle=0.9, enable_motor=True,
                                        max_motor_torque=40.0)
        needed = step_units(world, world._joint_rows()["by_type"]).values()
        units.update((id(unit), unit) for unit in (*needed, _continuous_kernel(world.settings)))
    return list(units.values())


def warm_layer(steps: int = 3) -> None:
    """Three of LunarLander's episodes (the second and third in a kept world renewed) and one
    of CarRacing's track (see the module)."""
    for _ in range(3):
        _episode(_lander, (0.0, -10.0), steps)
    _episode(_track, (0.0, 0.0), steps)
