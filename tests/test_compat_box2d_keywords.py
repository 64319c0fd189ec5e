"""pybox2d's world-coordinate keywords of joint definitions (``anchor`` for revolute, weld,
wheel, prismatic and friction; ``axis`` for wheel and prismatic; ``anchorA``/``anchorB`` for
distance, rope and pulley): stored local to the bodies as ``Initialize`` stores them, with
the bodies set first whatever the keywords' order. Numbers are by hand (the frames of two
bodies at known poses)."""

from __future__ import annotations

import math

import pytest

from impulse2d.compat.box2d import (b2DistanceJointDef, b2FrictionJointDef,
                                    b2PrismaticJointDef, b2RevoluteJointDef, b2WeldJointDef,
                                    b2WheelJointDef, b2World)

POSE_A, POSE_B = ((1.0, 2.0), 0.3), ((4.0, -1.0), -0.5)


def _two_bodies():
    world = b2World(gravity=(0, 0))
    a = world.CreateDynamicBody(position=POSE_A[0], angle=POSE_A[1])
    b = world.CreateDynamicBody(position=POSE_B[0], angle=POSE_B[1])
    a.CreateCircleFixture(radius=0.5, density=1.0)
    b.CreateCircleFixture(radius=0.5, density=1.0)
    return world, a, b


def _local(pose, p):
    (x, y), angle = pose
    c, s = math.cos(angle), math.sin(angle)
    dx, dy = p[0] - x, p[1] - y
    return (c * dx + s * dy, -s * dx + c * dy)


def test_anchor_keyword_is_stored_local_to_both_bodies_with_the_reference_angle():
    world, a, b = _two_bodies()
    anchor = (2.0, 0.5)
    for cls, has_reference in ((b2RevoluteJointDef, True), (b2WeldJointDef, True),
                               (b2PrismaticJointDef, True), (b2WheelJointDef, False),
                               (b2FrictionJointDef, False)):
        d = cls(anchor=anchor, bodyA=a, bodyB=b)  # (bodies after: set first all the same)
        assert list(d.localAnchorA) == pytest.approx(_local(POSE_A, anchor), abs=1e-12)
        assert list(d.localAnchorB) == pytest.approx(_local(POSE_B, anchor), abs=1e-12)
        assert list(d.anchor) == pytest.approx(anchor, abs=1e-12)
        if has_reference:
            assert d.referenceAngle == pytest.approx(-0.8, abs=1e-15)
        assert "anchor" not in d.to_kwargs()  # (pybox2d leaves the world points out)


def test_axis_keyword_is_stored_in_body_a_frame():
    world, a, b = _two_bodies()
    c, s = math.cos(0.3), math.sin(0.3)
    for cls in (b2PrismaticJointDef, b2WheelJointDef):
        d = cls(bodyA=a, bodyB=b, anchor=(2.0, 0.5), axis=(0.6, 0.8))
        assert list(d.localAxisA) == pytest.approx((c * 0.6 + s * 0.8, -s * 0.6 + c * 0.8))
        assert list(d.axis) == pytest.approx((0.6, 0.8))


def test_distance_anchors_give_the_length_and_explicit_length_wins():
    world, a, b = _two_bodies()
    d = b2DistanceJointDef(bodyA=a, bodyB=b, anchorA=(1.0, 3.0), anchorB=(4.0, -1.0))
    assert d.length == pytest.approx(5.0)  # 3-4-5
    assert list(d.localAnchorB) == pytest.approx((0.0, 0.0), abs=1e-12)
    d = b2DistanceJointDef(bodyA=a, bodyB=b, anchorA=(1.0, 3.0), anchorB=(4.0, -1.0),
                           length=2.0)
    assert d.length == 2.0
    # local anchors given without a length: the length is their distance now (pybox2d)
    d = b2DistanceJointDef(bodyA=a, bodyB=b, localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0))
    assert d.length == pytest.approx(math.hypot(3.0, 3.0))


def test_world_points_need_their_bodies():
    d = b2RevoluteJointDef()
    with pytest.raises(ValueError, match="bodyA"):
        d.anchor = (0.0, 0.0)
    with pytest.raises(ValueError, match="bodyA"):
        b2DistanceJointDef(anchorA=(0.0, 0.0))
    with pytest.raises(TypeError, match="no field 'anchr'"):
        b2RevoluteJointDef(anchr=(0.0, 0.0))


def test_create_revolute_joint_with_anchor_keyword_pins_both_bodies_there():
    world, a, b = _two_bodies()
    joint = world.CreateRevoluteJoint(bodyA=a, bodyB=b, anchor=(2.0, 0.5))
    assert list(joint.anchorA) == pytest.approx((2.0, 0.5), abs=1e-12)
    assert list(joint.anchorB) == pytest.approx((2.0, 0.5), abs=1e-12)
    b.linearVelocity = (1.0, 0.0)
    for _ in range(60):
        world.Step(1 / 60, 8, 3)
    # the hinge holds: both anchors stay together (within the solver's slop)
    ax, ay = joint.anchorA
    bx, by = joint.anchorB
    assert math.hypot(ax - bx, ay - by) < 5e-3
