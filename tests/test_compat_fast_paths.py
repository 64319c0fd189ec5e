"""The pybox2d layer's fast paths (``impulse2d.compat.box2d``) give what its general paths give,
and bad input is still refused: plain floats skip the conversions of ``ApplyLinearImpulse`` and
``RayCast``, joint motor setters skip the sleep flags while nothing sleeps, and ``Step`` checks
the touching contacts and the motor sleep timers in one compiled call (``_b2after``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from impulse2d.compat._b2after import _after_step
from impulse2d.compat.box2d import (b2CircleShape, b2ContactListener, b2EdgeShape,
                                    b2FixtureDef, b2PolygonShape, b2RayCastCallback,
                                    b2RevoluteJointDef, b2Vec2, b2World)


def _ball_world():
    world = b2World(gravity=(0, -10))
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-10, 0), (10, 0)]))
    ball = world.CreateDynamicBody(position=(0.0, 3.0), angle=0.3, fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.5, 0.25)), density=2.0))
    return world, ball


def _state(body):
    return (tuple(body.position), body.angle, tuple(body.linearVelocity), body.angularVelocity)


@pytest.mark.parametrize("impulse, point", [
    ((1, -2), (0, 3)),                                    # ints: through the conversions
    ((np.float64(1.0), np.float64(-2.0)), np.array([0.0, 3.0])),  # NumPy scalars and arrays
    (b2Vec2(1.0, -2.0), b2Vec2(0.0, 3.0)),                 # b2Vec2 (floats: the fast path)
    ([1.0, -2.0], [0.0, 3.0]),                             # lists of floats
])
def test_an_impulse_of_any_number_type_is_the_impulse_of_floats(impulse, point):
    """The fast path (plain floats) and the general one give the same velocities bit for bit,
    and so the same motion; the off-centre point turns the box (I w = r x J)."""
    world_a, a = _ball_world()
    world_b, b = _ball_world()
    a.ApplyLinearImpulse((1.0, -2.0), (0.0, 3.0), True)
    b.ApplyLinearImpulse(impulse, point, True)
    assert _state(a) == _state(b)
    c = a.worldCenter
    r = (0.0 - c[0], 3.0 - c[1])
    assert a.angularVelocity == pytest.approx((r[0] * -2.0 - r[1] * 1.0) / a.inertia, rel=1e-12)
    for _ in range(30):
        world_a.Step(1 / 60, 8, 3)
        world_b.Step(1 / 60, 8, 3)
    assert _state(a) == _state(b)


@pytest.mark.parametrize("impulse, point, name", [
    ((math.nan, 0.0), (0.0, 3.0), "impulse"),
    ((0.0, math.inf), (0.0, 3.0), "impulse"),
    ((2e30, 0.0), (0.0, 3.0), "impulse"),
    ((1.0, 0.0), (math.nan, 3.0), "point"),
    ((1.0, 0.0), (0.0, -math.inf), "point"),
    ((np.float64(math.nan), 0.0), (0.0, 3.0), "impulse"),
    ((1, 0), (0, np.float64(math.inf)), "point"),
])
def test_a_bad_impulse_is_refused_naming_it_and_changes_nothing(impulse, point, name):
    world, ball = _ball_world()
    before = _state(ball)
    with pytest.raises(ValueError, match=name):
        ball.ApplyLinearImpulse(impulse, point, True)
    assert _state(ball) == before
    with pytest.raises(TypeError, match="impulse"):
        ball.ApplyLinearImpulse((1.0, "x"), (0.0, 3.0), True)
    with pytest.raises(TypeError, match="point"):
        ball.ApplyLinearImpulse((1.0, 0.0), (None, 3.0), True)
    assert _state(ball) == before


class _Nearest(b2RayCastCallback):
    def __init__(self):
        super().__init__()
        self.hits = []

    def ReportFixture(self, fixture, point, normal, fraction):  # noqa: N802
        self.hits.append((fixture, tuple(point), tuple(normal), fraction))
        return fraction


def _ray_world():
    world = b2World(gravity=(0, -10))
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-10, 0), (10, 0)]))
    for x in (-2.0, 0.5, 3.0):
        world.CreateDynamicBody(position=(x, 1.0), fixtures=b2FixtureDef(
            shape=b2CircleShape(radius=0.5), density=1.0))
    world.Step(1 / 60, 8, 3)
    return world


@pytest.mark.parametrize("p1, p2", [
    ((-5, 1), (5, 0)),
    (np.array([-5.0, 1.0]), (np.float64(5.0), np.float64(0.0))),
    (b2Vec2(-5, 1), b2Vec2(5, 0)),
    ([-5.0, 1.0], [5.0, 0.0]),
])
def test_a_ray_of_any_number_type_reports_what_the_ray_of_floats_does(p1, p2):
    world = _ray_world()
    expected = _Nearest()
    world.RayCast(expected, (-5.0, 1.0), (5.0, 0.0))
    assert expected.hits  # it meets the first ball
    got = _Nearest()
    world.RayCast(got, p1, p2)
    assert got.hits == expected.hits
    fixture, point, _, fraction = expected.hits[-1]
    assert point == pytest.approx((-5.0 + 10.0 * fraction, 1.0 - fraction), abs=1e-12)
    # the nearest hit is the first ball's circle: |point - centre| = radius
    centre = fixture.body.position
    assert math.hypot(point[0] - centre[0], point[1] - centre[1]) == pytest.approx(0.5, abs=1e-9)


@pytest.mark.parametrize("p1, p2, name", [
    ((math.nan, 1.0), (5.0, 0.0), "point1"),
    ((-5.0, 1.0), (5.0, math.inf), "point2"),
    (b2Vec2(-5.0, math.inf), (5.0, 0.0), "point1"),
    ((-5.0, 1.0), (np.float64(math.nan), 0.0), "point2"),
    ((-5.0, 1e31), (5.0, 0.0), "point1"),
])
def test_a_bad_ray_is_refused_naming_its_point(p1, p2, name):
    world = _ray_world()
    callback = _Nearest()
    with pytest.raises(ValueError, match=name):
        world.RayCast(callback, p1, p2)
    with pytest.raises(TypeError, match="point2"):
        world.RayCast(callback, (-5.0, 1.0), ("a", 0.0))
    assert callback.hits == []


def _motor_world():
    world = b2World(gravity=(0, -10))
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-10, 0), (10, 0)]))
    box = world.CreateDynamicBody(position=(0, 0.5), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(1, 0.5)), density=1.0))
    flap = world.CreateDynamicBody(position=(0, 1.2), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.5, 0.1)), density=1.0))
    joint = world.CreateJoint(b2RevoluteJointDef(bodyA=box, bodyB=flap, localAnchorA=(0, 0.6),
                                                 enableMotor=True, maxMotorTorque=5.0,
                                                 motorSpeed=0.0, enableLimit=True,
                                                 lowerAngle=-0.3, upperAngle=0.3))
    return world, box, flap, joint


@pytest.mark.parametrize("speed, torque", [(1.5, 4.0), (np.float64(1.5), np.float64(4.0)),
                                           (np.float32(1.5), 4)])
def test_motor_setters_of_any_number_type_store_and_act_as_floats(speed, torque):
    world_a, _, flap_a, joint_a = _motor_world()
    world_b, _, flap_b, joint_b = _motor_world()
    joint_a.motorSpeed = 1.5
    joint_a.maxMotorTorque = 4.0
    joint_b.motorSpeed = speed
    joint_b.maxMotorTorque = torque
    assert (joint_b.motorSpeed, joint_b.maxMotorTorque) == (1.5, 4.0)
    for _ in range(20):
        world_a.Step(1 / 60, 8, 3)
        world_b.Step(1 / 60, 8, 3)
    assert _state(flap_a) == _state(flap_b)
    assert (joint_a.angle, joint_a.speed) == (joint_b.angle, joint_b.speed)
    for bad in (math.nan, math.inf, 2e5):
        with pytest.raises(ValueError):
            joint_b.motorSpeed = bad
        assert joint_b.motorSpeed == 1.5
    with pytest.raises(ValueError):
        joint_b.maxMotorTorque = -1.0
    assert joint_b.maxMotorTorque == 4.0


def test_a_motor_setter_wakes_a_sleeping_pair_and_a_turning_motor_still_lets_it_sleep():
    """With bodies asleep the setters read the sleep flags and wake the pair (Box2D's
    SetMotorSpeed); with a turning motor the pair still falls asleep (the timers of the fused
    check), and a motor stopped and started again is followed."""
    world, box, flap, joint = _motor_world()
    joint.motorSpeed = 1.0
    for step in range(300):
        world.Step(1 / 60, 8, 3)
        if not box.awake:
            break
    assert not box.awake and not flap.awake and step < 150
    joint.maxMotorTorque = 5.0
    assert box.awake and flap.awake
    for _ in range(300):
        world.Step(1 / 60, 8, 3)
        if not box.awake:
            break
    assert not box.awake
    joint.motorSpeed = 0.0  # stopped: the set of turning motors changes, the pair wakes
    assert box.awake and flap.awake and world._held is None
    world.Step(1 / 60, 8, 3)
    assert world._held_list == []
    joint.motorSpeed = -1.0
    world.Step(1 / 60, 8, 3)
    assert world._held_list == sorted([box._i, flap._i])
    # the joint's angle is Box2D's: body angles' difference less the reference angle
    assert joint.angle == flap.angle - box.angle - joint.referenceAngle


class _Recorder(b2ContactListener):
    def __init__(self):
        super().__init__()
        self.events = []

    def BeginContact(self, contact):  # noqa: N802
        self.events.append(("begin", contact.fixtureA, contact.fixtureB))

    def EndContact(self, contact):  # noqa: N802
        self.events.append(("end", contact.fixtureA, contact.fixtureB))


def test_the_fused_check_sees_every_change_of_the_touching_contacts():
    """A bouncing ball's touches begin and end (the listener hears each, ends paired with
    begins), and the compiled check called on the world after a step says "changed" for any
    touching list but the current one, leaving the timers alone then."""
    world = b2World(gravity=(0, -10))
    listener = _Recorder()
    world.contactListener = listener
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-10, 0), (10, 0)]))
    ball = world.CreateDynamicBody(position=(0, 2.0), fixtures=b2FixtureDef(
        shape=b2CircleShape(radius=0.5), density=1.0, restitution=0.8))
    box = world.CreateDynamicBody(position=(3, 0.5), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.5, 0.5)), density=1.0))
    checked = rested = 0
    for _ in range(240):
        world.Step(1 / 60, 8, 3)
        touching = world._touching
        held = np.zeros(1, np.int64)
        held[0] = box._i
        timer = np.zeros(1)
        stores = world._stores_now()
        assert _after_step.entry(stores, touching, held, timer, 1 / 60, 0.5, True)[0] is False
        assert timer[0] in (0.0, 1 / 60)  # unchanged: the timer ran (dt while slow, else 0)
        rested += timer[0] == 1 / 60
        timer[0] = 0.0
        variants = [touching[:-1], np.append(touching, touching[-1:] + 1)] if touching.shape[
            0] else [np.array([5], np.int64)]
        for other in variants:
            other = np.ascontiguousarray(other, np.int64)
            assert _after_step.entry(stores, other, held, timer, 1 / 60, 0.5, True) == (
                True, 0, False)
            assert timer[0] == 0.0
            checked += 1
    kinds = [e[0] for e in listener.events]
    assert kinds.count("begin") >= 3 and kinds.count("end") >= 2  # it bounced
    ball_events = [e[0] for e in listener.events if ball in (e[1].body, e[2].body)]
    assert all(a != b for a, b in zip(ball_events, ball_events[1:]))  # begin, end, begin, ...
    # the box rests on the ground (its timer runs) until it falls asleep (asleep: left alone)
    assert checked >= 240 and rested >= 20 and not box.awake


@pytest.mark.parametrize("queued", [True, False])
def test_an_edge_fixture_by_keywords_is_the_edge_of_its_definition(queued):
    """``CreateEdgeFixture`` takes the shape's keywords by name (``vertices``, or ``vertex1``
    and ``vertex2``) and the rest as the fixture definition's, on a queued static body (the
    moon of LunarLander) and on a made one: a box dropped on either edge rests on it at the
    same height, and a keyword of neither is refused naming it."""
    world = b2World(gravity=(0, -10))
    ground = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-10, 0), (10, 0)]))
    if not queued:
        world.Step(1 / 60, 8, 3)  # the queue carried out: the body is made
    a = ground.CreateEdgeFixture(vertices=[(-10.0, 2.0), (0.0, 2.0)], friction=0.3)
    b = ground.CreateEdgeFixture(vertex1=(0.0, 2.0), vertex2=(10.0, 2.0), friction=0.3)
    assert [tuple(v) for v in a.shape.vertices] == [(-10.0, 2.0), (0.0, 2.0)]
    assert [tuple(v) for v in b.shape.vertices] == [(0.0, 2.0), (10.0, 2.0)]
    assert a.friction == pytest.approx(0.3) and b.friction == pytest.approx(0.3)
    with pytest.raises(TypeError, match="bogus"):
        ground.CreateEdgeFixture(vertices=[(0.0, 1.0), (1.0, 1.0)], bogus=1)
    assert len(ground.fixtures) == 3  # the refused call made no fixture
    boxes = [world.CreateDynamicBody(position=(x, 3.0), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.5, 0.5)), density=1.0)) for x in (-5.0, 5.0)]
    for _ in range(120):
        world.Step(1 / 60, 8, 3)
    for box in boxes:  # resting on the edge at y = 2 (half height 0.5), not on the ground
        assert box.position.y == pytest.approx(2.5, abs=0.02)
        assert abs(box.linearVelocity.y) < 1e-3
