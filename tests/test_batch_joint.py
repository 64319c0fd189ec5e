"""A revolute joint made from Box2D's definition in one compiled call (``impulse2d._batch_joint``,
taken by the pybox2d layer's ``CreateJoint``): its row is bit for bit what
``World.create_revolute_joint`` and the layer's writes after it leave, a re-used row's leftovers
included, and a world that takes it steps as one that does not."""

from __future__ import annotations

import math

import numpy as np
import pytest

from impulse2d import _batch_joint
from impulse2d.compat import _b2joints
from impulse2d.compat import box2d as b2


def _plain(monkeypatch):
    """The layer's usual path only (the compiled call declines everything)."""
    monkeypatch.setattr(_b2joints, "create_revolute_joint", lambda *args: None)


def _world(leftovers: bool):
    """A stepped layer world (its stores' reference current) of a ground and three boxes, a
    weld joint made, stepped and destroyed (its row free, its impulses left in it); with
    ``leftovers`` every column of that free row but its generation then filled with nonzero
    bytes (whatever a row could hold)."""
    world = b2.b2World(gravity=(0, -10))
    ground = world.CreateStaticBody(shapes=b2.b2EdgeShape(vertices=[(-20, 0), (20, 0)]))
    boxes = [world.CreateDynamicBody(position=(1.3 * k - 1.0, 2.0 + 0.4 * k), angle=0.3 * k - 0.2,
                                     linearVelocity=(0.5 * k, -1.0), angularVelocity=0.7 - k,
                                     fixtures=b2.b2FixtureDef(
                                         shape=b2.b2PolygonShape(box=(0.4, 0.25)), density=2.0))
             for k in range(3)]
    weld = world.CreateJoint(b2.b2WeldJointDef(bodyA=boxes[0], bodyB=boxes[1],
                                               localAnchorA=(0.6, 0.1),
                                               localAnchorB=(-0.6, 0.0)))
    for _ in range(20):
        world.Step(1 / 60, 8, 3)
    world.DestroyJoint(weld)
    world.Step(1 / 60, 8, 3)
    if leftovers:
        jt = world.engine._joints
        j = int(np.flatnonzero(~jt.alive)[0])
        for name, column in zip(jt._fields, jt):
            if name != "generation":
                column[j:j + 1].view(np.uint8)[...] = 0x3F  # (a bool column: True)
    return world, ground, boxes


DEFS = [
    # LunarLander's legs: limits and motor on, the reference angle pybox2d's
    lambda g, bx: b2.b2RevoluteJointDef(
        bodyA=bx[0], bodyB=bx[1], localAnchorA=(0, 0), localAnchorB=(-0.67, 0.6),
        enableMotor=True, enableLimit=True, maxMotorTorque=40.0, motorSpeed=-0.3,
        lowerAngle=-0.9, upperAngle=0.4),
    # no limit, no motor, bodies kept colliding, a given reference angle, anchors off centre
    lambda g, bx: b2.b2RevoluteJointDef(
        bodyA=bx[2], bodyB=bx[1], localAnchorA=(0.31, -0.17), localAnchorB=(-0.2, 0.45),
        referenceAngle=-1.25, collideConnected=True),
    # to the ground (static A), the limit alone
    lambda g, bx: b2.b2RevoluteJointDef(
        bodyA=g, bodyB=bx[2], localAnchorA=(2.5, 1.0), localAnchorB=(0.1, -0.1),
        enableLimit=True, lowerAngle=-0.25, upperAngle=0.25),
]


@pytest.mark.parametrize("leftovers", [False, True])
@pytest.mark.parametrize("case", range(len(DEFS)))
def test_compiled_joint_row_is_the_layers_writes_bit_for_bit(case, leftovers, monkeypatch):
    made = {}
    for form in ("compiled", "plain"):
        with monkeypatch.context() as patch:
            calls = []
            create = _batch_joint.create_revolute_joint

            def recorded(*args):
                joint = create(*args)
                calls.append(joint is not None)
                return joint
            patch.setattr(_b2joints, "create_revolute_joint", recorded)
            if form == "plain":
                _plain(patch)
            world, ground, boxes = _world(leftovers)
            joint = world.CreateJoint(DEFS[case](ground, boxes))
            made[form] = (world, joint, calls)
    (a, ja, taken), (b, jb, none) = made["compiled"], made["plain"]
    assert taken == [True] and none == []
    assert ja._j == jb._j == 0  # (the weld's re-used row)
    ea, eb = a.engine, b.engine
    for field, x, y in zip(ea._joints._fields, ea._joints, eb._joints):
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), field
    assert ea._body_joints == eb._body_joints
    assert list(ea._joint_handles) == list(eb._joint_handles)
    assert (ja.angle, ja.anchorA, ja.anchorB) == (jb.angle, jb.anchorA, jb.anchorB)
    assert ja in ja.bodyA.joints and ja in ja.bodyB.joints
    for world in (a, b):
        for _ in range(60):
            world.Step(1 / 60, 8, 3)
    assert ea.state_hash() == eb.state_hash()
    assert math.isfinite(ja.angle)


def test_not_taken_without_a_current_reference_or_a_free_row():
    world, ground, boxes = _world(False)
    engine = world.engine
    engine._stores_built_from = None
    args = (engine, boxes[0]._handle, boxes[1]._handle, (0.0, 0.0), (0.5, 0.0), 0.0, False,
            0.0, 0.0, False, 0.0, 0.0, False)
    assert _batch_joint.create_revolute_joint(*args) is None
    world.Step(1 / 60, 8, 3)  # (the reference rebuilt)
    for _ in range(len(engine._joints.alive)):
        engine.create_weld_joint(boxes[0]._handle, boxes[2]._handle, (0.0, 2.0))
    world.Step(1 / 60, 8, 3)
    count = len(engine.joints)
    assert _batch_joint.create_revolute_joint(*args) is None  # (the store would grow)
    assert len(engine.joints) == count


@pytest.mark.parametrize("bad, error, match", [
    (dict(lowerAngle=0.5, upperAngle=-0.5), ValueError, "lower_angle"),
    (dict(motorSpeed=math.inf), ValueError, "motor_speed"),
    (dict(maxMotorTorque=-1.0), ValueError, "max_motor_torque"),
    (dict(referenceAngle=math.nan), ValueError, "referenceAngle"),
    (dict(localAnchorB=(1.0,)), TypeError, "localAnchorB"),
])
def test_a_bad_definition_raises_as_before(bad, error, match, monkeypatch):
    outcomes = []
    for plain in (False, True):
        with monkeypatch.context() as patch:
            if plain:
                _plain(patch)
            world, ground, boxes = _world(False)
            defn = b2.b2RevoluteJointDef(bodyA=boxes[0], bodyB=boxes[1], **bad)
            with pytest.raises(error, match=match) as raised:
                world.CreateJoint(defn)
            jt = world.engine._joints
            outcomes.append((str(raised.value), len(world.joints), jt.alive.tobytes(),
                             jt.generation.tobytes()))
    assert outcomes[0] == outcomes[1]
