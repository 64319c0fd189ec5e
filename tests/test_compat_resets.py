"""What makes a Gymnasium reset on the pybox2d layer cheaper changes nothing a program sees:
destructions queued with their joints (``_b2queue``), destroyed objects that drop their fields
(freed by their reference counts, not the cyclic collector), polygon hulls and geometry kept
per distinct vertices (``_b2shapes``), and a world's settings copied from the same changes
validated before (``WorldSettings._with_changes``)."""

from __future__ import annotations

import gc
import math
import weakref

import pytest

from impulse2d import World
from impulse2d.compat._b2shapes import convex_hull
from impulse2d.compat.box2d import (b2EdgeShape, b2FixtureDef, b2PolygonShape,
                                    b2RevoluteJointDef, b2World)

LANDER = [(-14 / 30, 17 / 30), (-17 / 30, 0.0), (-17 / 30, -10 / 30), (17 / 30, -10 / 30),
          (17 / 30, 0.0), (14 / 30, 17 / 30)]  # Gymnasium's LunarLander hull, m


def _lander_world(batch: bool):
    """A lander on two motor-driven legs, the legs' joints limited as Gymnasium's, over a moon
    of edges; ``batch``: the layer's queue on or off."""
    world = b2World(gravity=(0, -10))
    world.batch_static = batch
    moon = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0, 0), (20, 0)]))
    for k in range(10):
        moon.CreateEdgeFixture(vertices=[(2.0 * k, 4.0), (2.0 * k + 2.0, 4.0)], friction=0.1)
    lander = world.CreateDynamicBody(position=(10, 6), fixtures=b2FixtureDef(
        shape=b2PolygonShape(vertices=LANDER), density=5.0, friction=0.1))
    legs = []
    for side in (-1, 1):
        leg = world.CreateDynamicBody(position=(10 - side * 0.66, 6), angle=side * 0.05,
                                      fixtures=b2FixtureDef(
                                          shape=b2PolygonShape(box=(0.066, 0.266)),
                                          density=1.0))
        world.CreateJoint(b2RevoluteJointDef(
            bodyA=lander, bodyB=leg, localAnchorA=(0, 0), localAnchorB=(side * 0.66, 0.6),
            enableMotor=True, enableLimit=True, maxMotorTorque=40.0, motorSpeed=0.3 * side,
            lowerAngle=0.4 if side < 0 else -0.9, upperAngle=0.9 if side < 0 else -0.4))
        legs.append(leg)
    return world, moon, lander, legs


def _state(world):
    return [(tuple(b.position), b.angle, tuple(b.linearVelocity), b.angularVelocity, b.awake)
            for b in world.bodies]


def test_a_queued_destruction_with_joints_gives_the_steps_of_one_done_at_once():
    """Destroying a leg (with its joint) and the moon, then stepping: the queued world and the
    one that destroys at once are bit for bit the same, step by step, and the destroyed
    joint's partner and listener see what they saw before."""
    runs = []
    for batch in (True, False):
        world, moon, lander, legs = _lander_world(batch)
        for _ in range(90):
            world.Step(1 / 50, 180, 60)
        world.DestroyBody(legs[0])
        assert world.jointCount == 1 and len(lander.joints) == 1
        world.DestroyBody(moon)
        trace = []
        for _ in range(60):
            world.Step(1 / 50, 180, 60)
            trace.append(_state(world))
        runs.append(trace)
        assert world.bodyCount == 2 and world.engine.body_count == 2
    assert runs[0] == runs[1]
    # the lander stood on the moon's edges at y = 4 m and fell once they were gone
    assert runs[0][-1][0][0][1] < 2.0


def test_a_queued_destruction_wakes_what_rested_on_the_body_before_awake_is_read():
    """A box asleep on a static slab: destroying the slab wakes it in the engine. With the
    destruction queued, ``awake`` (read), and a force with ``wake=False``, carry the queue
    out first, so both read and act as with the queue off."""
    seen = []
    for batch in (True, False):
        world = b2World(gravity=(0, -10))
        world.batch_static = batch
        slab = world.CreateStaticBody(shapes=b2PolygonShape(box=(5.0, 0.5)))
        box = world.CreateDynamicBody(position=(0, 1.0), fixtures=b2FixtureDef(
            shape=b2PolygonShape(box=(0.5, 0.5)), density=1.0))
        for _ in range(300):
            world.Step(1 / 60, 8, 3)
        assert not box.awake
        world.DestroyBody(slab)
        box.ApplyForceToCenter((3.0, 0.0), False)   # a sleeping body would ignore it
        seen.append((box.awake, tuple(world.engine._bodies.force[box._i])))
        world.Step(1 / 60, 8, 3)
        seen.append((tuple(box.position), tuple(box.linearVelocity)))
    assert seen[0] == seen[2] and seen[1] == seen[3]
    assert seen[0] == (True, (3.0, 0.0))
    # one step of free fall with 3 N on 1 kg: v = (3, -10) / 60 m/s
    assert seen[1][1] == pytest.approx((3.0 / 60, -10.0 / 60), rel=1e-12)


def test_a_destroyed_body_and_its_fixtures_are_freed_by_their_reference_counts():
    """With the cyclic collector off, a destroyed body, its fixture and its joint go as soon as
    the program drops them (they referred to each other); any use before raises."""
    def destroyed():  # the destroyed layer objects alive now, by class name
        return sorted(type(o).__name__ for o in gc.get_objects()
                      if type(o).__name__.startswith("destroyed_"))

    world, moon, lander, legs = _lander_world(True)
    leg = legs[1]
    joint, fixture = leg.joints[0], leg.fixtures[0]
    body_ref = weakref.ref(leg)
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        world.DestroyBody(leg)
        with pytest.raises(ValueError, match="destroyed"):
            leg.position
        with pytest.raises(ValueError, match="destroyed"):
            fixture.body
        assert destroyed() == ["destroyed_b2Body", "destroyed_b2Fixture",
                               "destroyed_b2RevoluteJoint"]
        del leg, fixture, joint, legs
        assert body_ref() is None and destroyed() == []
    finally:
        if was:
            gc.enable()


def test_restore_brings_back_a_body_destroyed_after_the_snapshot():
    """The dropped fields of a destroyed body come back with a restore, bit for bit."""
    world, moon, lander, legs = _lander_world(True)
    for _ in range(20):
        world.Step(1 / 50, 180, 60)
    snap = world.snapshot()
    before = _state(world)
    world.DestroyBody(legs[0])
    world.Step(1 / 50, 180, 60)
    world.restore(snap)
    assert _state(world) == before
    assert legs[0].fixtures[0].body is legs[0] and legs[0].joints[0].bodyB is legs[0]
    assert world.jointCount == 2


def test_the_hull_of_points_seen_before_is_the_hull_computed_and_a_list_of_its_own():
    points = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 2.0), (0.0, 1.0), (1.0, 0.5)]
    first = convex_hull(points)
    again = convex_hull(points)
    assert first == again == [(2.0, 0.0), (2.0, 1.0), (1.0, 2.0), (0.0, 1.0), (0.0, 0.0)]
    assert first is not again
    a = b2PolygonShape(vertices=points)
    b = b2PolygonShape(vertices=points)
    a.set_vertex(0, (3.0, 0.0))          # one shape's vertices changed: the other's are not
    assert b.vertices[0] == (2.0, 0.0) and convex_hull(points)[0] == (2.0, 0.0)
    # -0.0 and 0.0 are different inputs (the engine would keep the sign)
    signed = convex_hull([(-0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
    assert math.copysign(1.0, [p for p in signed if p[1] == 0.0 and p[0] < 0.5][0][0]) == -1.0


def test_a_cached_polygon_makes_the_body_of_a_fresh_one():
    """The lander's hull made twice (the second from the caches) gives the same mass, centre
    and inertia as a world that made it first, to the bit."""
    props = []
    for _ in range(2):
        world, moon, lander, legs = _lander_world(True)
        props.append((lander.mass, tuple(lander.localCenter), lander.inertia,
                      legs[0].mass, legs[0].inertia))
    assert props[0] == props[1]
    # the hull's area times 5 kg/m^2: (34 x 27 - 2 (3 x 17) / 2) / 900 m^2 of Gymnasium's polygon
    area = (34 * 27 - 3 * 17) / 900
    assert props[0][0] == pytest.approx(5.0 * area, rel=1e-12)
    # a leg: 0.132 x 0.532 m at 1 kg/m^2
    assert props[0][3] == pytest.approx(0.132 * 0.532, rel=1e-12)


def test_worlds_of_the_same_settings_get_settings_of_their_own():
    a = World(solver="pgs_block", enable_sleep=True, velocity_iterations=12)
    b = World(solver="pgs_block", enable_sleep=True, velocity_iterations=12)
    assert a.settings is not b.settings and a.settings == b.settings
    b.settings.velocity_iterations = 3
    assert a.settings.velocity_iterations == 12
    assert World(solver="pgs_block", enable_sleep=True,
                 velocity_iterations=12).settings.velocity_iterations == 12
    with pytest.raises(ValueError, match="velocity_iterations"):
        World(velocity_iterations=0)
    with pytest.raises(ValueError, match="velocity_iterations"):
        World(velocity_iterations=0)  # refused again: a refused change is not remembered
    with pytest.raises(TypeError, match="unknown setting"):
        World(no_such_setting=1)
    # True is not 1 for a count: refused, whatever was made with 1 before
    World(substeps=1)
    with pytest.raises((TypeError, ValueError), match="substeps"):
        World(substeps=True)
