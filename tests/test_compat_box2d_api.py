"""pybox2d's everyday API on the layer, issue 33's first part: the names pybox2d's testbed
framework imports, the math types, joint definitions' ``Initialize``/``to_kwargs``, rope,
friction and motor joints, chain and loop fixtures, the destruction listener. Expected values
are Box2D 2.3's documented behaviour, computed by hand or with NumPy."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import impulse2d.compat.box2d as b2
from impulse2d.compat.box2d import (
    b2CircleShape, b2Color, b2ContactID, b2DestructionListener, b2DistanceJointDef,
    b2DrawExtended, b2EdgeShape, b2FixtureDef, b2FrictionJointDef, b2GetPointStates,
    b2LoopShape, b2ChainShape, b2Manifold, b2ManifoldPoint, b2Mat22, b2Mat33, b2MotorJointDef,
    b2PolygonShape, b2PrismaticJointDef, b2PulleyJointDef, b2RevoluteJointDef, b2RopeJointDef,
    b2Transform, b2Vec2, b2Vec3, b2WeldJointDef, b2WheelJointDef, b2World)

DT = 1.0 / 60.0


# -- the testbed framework's names -----------------------------------------------------------

def test_the_testbed_framework_names_import_from_the_installed_module():
    b2.install()
    try:
        from Box2D import (b2Color as Color, b2DestructionListener as Listener,  # noqa: F401
                           b2DrawExtended as Drawer, b2GetPointStates as states,  # noqa: F401
                           b2Random as rnd, b2_addState, b2_epsilon, b2_nullState,
                           b2_persistState, b2_removeState)
        from Box2D.b2 import color, loopShape, mat22, ropeJointDef, vec3  # noqa: F401
    finally:
        b2.uninstall()
    assert (b2_nullState, b2_addState, b2_persistState, b2_removeState) == (0, 1, 2, 3)
    assert b2_epsilon == np.finfo(np.float32).eps
    assert color is b2Color and vec3 is b2Vec3


def test_color_constructors_operators_and_bytes():
    c = b2Color(0.5, 0.25, 1.0)
    assert (c.r, c.g, c.b) == (0.5, 0.25, 1.0)
    assert b2Color([0.5, 0.25, 1.0]) == c and b2Color(c) == c and b2Color() == (0, 0, 0)
    assert c.bytes == [127, 63, 255]  # int(255 * component)
    assert c.list == [0.5, 0.25, 1.0] and list(c) == [0.5, 0.25, 1.0] and len(c) == 3
    assert c[1] == 0.25 and c[-1] == 1.0
    c[0] = 0.1
    assert c.r == pytest.approx(0.1)
    assert (b2Color(0.2, 0.2, 0.2) + b2Color(0.1, 0.2, 0.3)) == pytest.approx([0.3, 0.4, 0.5])
    assert (b2Color(0.5, 0.5, 0.5) - b2Color(0.1, 0.2, 0.3)) == pytest.approx([0.4, 0.3, 0.2])
    assert list(b2Color(0.2, 0.4, 0.6) * 0.5) == pytest.approx([0.1, 0.2, 0.3])
    assert list(0.5 * b2Color(0.2, 0.4, 0.6)) == pytest.approx([0.1, 0.2, 0.3])
    assert list(b2Color(0.2, 0.4, 0.6) / 2) == pytest.approx([0.1, 0.2, 0.3])
    c.bytes = [255, 0, 51]
    assert list(c) == pytest.approx([1.0, 0.0, 0.2])


def test_draw_extended_is_subclassable_and_converts_to_screen():
    class Drawer(b2DrawExtended):
        def __init__(self):
            super().__init__()
            self.segments = []

        def DrawSegment(self, p1, p2, color):  # noqa: N802
            self.segments.append((p1, p2, color))

    d = Drawer()
    d.flags = dict(drawShapes=True, drawJoints=False, drawAABBs=True, convertVertices=True)
    assert d.flags["drawShapes"] and d.flags["drawAABBs"] and not d.flags["drawJoints"]
    assert d.GetFlags() == Drawer.e_shapeBit | Drawer.e_aabbBit and d.convertVertices
    d.zoom, d.offset, d.screenSize, d.flipY = 20.0, (-320.0, -40.0), (640.0, 480.0), True
    # x: 1.5 * 20 + 320 = 350; y: 480 - (2 * 20 + 40) = 400
    assert d.to_screen((1.5, 2.0)) == pytest.approx((350.0, 400.0))
    d.DrawSegment((0, 0), (1, 1), b2Color(1, 0, 0))
    assert d.segments == [((0, 0), (1, 1), b2Color(1, 0, 0))]
    with pytest.raises(ValueError, match="flags"):
        d.flags = {"drawEverything": True}


def _manifold(*keys):
    return b2Manifold([b2ManifoldPoint(id=b2ContactID(key=k)) for k in keys], b2Vec2(0, 1))


def test_get_point_states_matches_points_by_feature_key():
    # old points {A, B}, new points {B, C}: A removed, B persists (in both), C added
    a = b2ContactID(key=0x00010200).key
    b = b2ContactID(key=0x01000003).key
    c = 0x00000102
    state1, state2 = b2GetPointStates(_manifold(a, b), _manifold(b, c))
    assert state1 == (b2.b2_removeState, b2.b2_persistState)
    assert state2 == (b2.b2_persistState, b2.b2_addState)
    # a manifold of one point: the second slot is null
    state1, state2 = b2GetPointStates(_manifold(a), _manifold())
    assert state1 == (b2.b2_removeState, b2.b2_nullState)
    assert state2 == (b2.b2_nullState, b2.b2_nullState)
    # the key packs Box2D's four feature bytes, indexA in the low byte
    cf = b2ContactID(key=0x01000203).cf
    assert (cf.indexA, cf.indexB, cf.typeA, cf.typeB) == (3, 2, 0, 1)


def test_random_is_uniform_within_its_bounds():
    random.seed(3)
    values = [b2.b2Random(-2.0, 5.0) for _ in range(4000)]
    assert min(values) >= -2.0 and max(values) <= 5.0
    assert np.mean(values) == pytest.approx(1.5, abs=0.15)  # (lo + hi) / 2, std 2.02/sqrt(4000)
    assert all(-1.0 <= b2.b2Random() <= 1.0 for _ in range(200))


# -- math types ------------------------------------------------------------------------------

def test_mat22_solve_and_inverse_equal_numpy():
    m = b2Mat22(3.0, 1.0, -2.0, 4.0)  # by rows, as Box2D's constructor
    a = np.array([[3.0, 1.0], [-2.0, 4.0]])
    x = m.Solve((5.0, 6.0))
    assert list(x) == pytest.approx(np.linalg.solve(a, [5.0, 6.0]))
    inv = m.GetInverse()
    got = np.array([[inv.col1.x, inv.col2.x], [inv.col1.y, inv.col2.y]])
    assert got == pytest.approx(np.linalg.inv(a))
    assert list(m * b2Vec2(1.0, 2.0)) == pytest.approx(a @ [1.0, 2.0])
    assert b2Mat22((3.0, -2.0), (1.0, 4.0)) == m  # by columns
    product = m * inv
    assert [product.col1.x, product.col1.y, product.col2.x, product.col2.y] == \
        pytest.approx([1.0, 0.0, 0.0, 1.0])
    m.SetIdentity()
    assert m == b2Mat22(1.0, 0.0, 0.0, 1.0)
    assert list(b2Mat22().Solve((1.0, 1.0))) == [0.0, 0.0]  # singular: Box2D's zero


def test_mat33_solves_and_inverses_equal_numpy():
    a = np.array([[4.0, 1.0, 2.0], [1.0, 5.0, -1.0], [2.0, -1.0, 6.0]])  # symmetric
    m = b2Mat33(a[:, 0], a[:, 1], a[:, 2])
    assert list(m.Solve33(b2Vec3(1.0, 2.0, 3.0))) == pytest.approx(np.linalg.solve(a, [1, 2, 3]))
    assert list(m.Solve22((1.0, 2.0))) == pytest.approx(np.linalg.solve(a[:2, :2], [1, 2]))
    sym = m.GetSymInverse33()
    got = np.array([list(sym.col1), list(sym.col2), list(sym.col3)]).T
    assert got == pytest.approx(np.linalg.inv(a))
    inv22 = m.GetInverse22()
    got = np.array([[inv22.col1.x, inv22.col2.x], [inv22.col1.y, inv22.col2.y]])
    assert got == pytest.approx(np.linalg.inv(a[:2, :2]))
    assert inv22.col3 == (0, 0, 0)
    assert list(m * (1.0, 0.0, -1.0)) == pytest.approx(a @ [1.0, 0.0, -1.0])


def test_vec3_operators_and_transform_identity():
    u, v = b2Vec3(1, 2, 3), b2Vec3(-2, 0.5, 4)
    assert list(u.cross(v)) == pytest.approx(np.cross([1, 2, 3], [-2, 0.5, 4]))
    assert u.dot(v) == pytest.approx(11.0)
    assert list(u + v) == [-1, 2.5, 7] and list(u - v) == [3, 1.5, -1]
    assert list(-u * 2) == [-2, -4, -6] and abs(b2Vec3(2, 3, 6)) == pytest.approx(7.0)
    t = b2Transform((3.0, 4.0), 0.7)
    t.SetIdentity()
    assert t.position == (0, 0) and t.angle == 0.0 and t * (1.5, -2.0) == (1.5, -2.0)


# -- joint definitions -----------------------------------------------------------------------

def _two_bodies():
    world = b2World(gravity=(0, 0))
    a = world.CreateDynamicBody(position=(1.0, 2.0), angle=0.3)
    b = world.CreateDynamicBody(position=(4.0, -1.0), angle=-0.5)
    a.CreateCircleFixture(radius=0.5, density=1.0)
    b.CreateCircleFixture(radius=0.5, density=1.0)
    return world, a, b


def _local(pos, angle, p):
    """A world point in the frame of a body at ``pos``, ``angle`` (by hand)."""
    c, s = math.cos(angle), math.sin(angle)
    dx, dy = p[0] - pos[0], p[1] - pos[1]
    return (c * dx + s * dy, -s * dx + c * dy)


def test_initialize_sets_box2d_anchors_axes_and_reference_angles():
    world, a, b = _two_bodies()
    anchor = (2.0, 0.5)
    la, lb = _local((1, 2), 0.3, anchor), _local((4, -1), -0.5, anchor)
    for cls in (b2RevoluteJointDef, b2WeldJointDef):
        d = cls()
        d.Initialize(a, b, anchor)
        assert d.bodyA is a and d.bodyB is b
        assert list(d.localAnchorA) == pytest.approx(la)
        assert list(d.localAnchorB) == pytest.approx(lb)
        assert d.referenceAngle == pytest.approx(-0.8)
    axis = (0.6, 0.8)
    axis_a = (math.cos(0.3) * 0.6 + math.sin(0.3) * 0.8, -math.sin(0.3) * 0.6 + math.cos(0.3) * 0.8)
    d = b2PrismaticJointDef()
    d.Initialize(a, b, anchor, axis)
    assert list(d.localAxisA) == pytest.approx(axis_a) and d.referenceAngle == pytest.approx(-0.8)
    d = b2WheelJointDef()
    d.Initialize(a, b, anchor, axis)
    assert list(d.localAxisA) == pytest.approx(axis_a) and list(d.localAnchorB) == pytest.approx(lb)
    d = b2DistanceJointDef()
    d.Initialize(a, b, (1.0, 3.0), (4.0, -1.0))
    assert d.length == pytest.approx(5.0)  # 3-4-5
    assert list(d.localAnchorA) == pytest.approx(_local((1, 2), 0.3, (1.0, 3.0)))
    assert list(d.localAnchorB) == pytest.approx((0.0, 0.0))
    d = b2PulleyJointDef()
    d.Initialize(a, b, (1.0, 6.0), (4.0, 3.0), (1.0, 2.0), (4.0, -1.0), 2.0)
    assert (d.lengthA, d.lengthB, d.ratio) == pytest.approx((4.0, 4.0, 2.0))
    assert d.groundAnchorA == (1.0, 6.0) and d.groundAnchorB == (4.0, 3.0)
    with pytest.raises(ValueError, match="ratio"):
        d.Initialize(a, b, (1, 6), (4, 3), (1, 2), (4, -1), 0.0)
    d = b2FrictionJointDef()
    d.Initialize(a, b, anchor)
    assert list(d.localAnchorB) == pytest.approx(lb)
    d = b2MotorJointDef()
    d.Initialize(a, b)
    assert list(d.linearOffset) == pytest.approx(_local((1, 2), 0.3, (4, -1)))
    assert d.angularOffset == pytest.approx(-0.8)


def test_an_initialized_revolute_joint_holds_its_anchor_and_reference():
    world, a, b = _two_bodies()
    d = b2RevoluteJointDef()
    d.Initialize(a, b, (2.5, 0.5))
    joint = world.CreateJoint(d)
    assert joint.angle == pytest.approx(0.0, abs=1e-12)
    a.ApplyAngularImpulse(0.5, True)
    for _ in range(60):
        world.Step(DT, 8, 3)
    assert (joint.anchorA - joint.anchorB).length < 1e-3
    assert joint.angle == pytest.approx(b.angle - a.angle + 0.8, abs=1e-9)


def test_to_kwargs_round_trips_definitions():
    world, a, b = _two_bodies()
    d = b2RevoluteJointDef(bodyA=a, bodyB=b, localAnchorA=(0.5, 0), enableLimit=True,
                           lowerAngle=-0.25, upperAngle=0.5, collideConnected=True, userData=7)
    kw = d.to_kwargs()
    assert kw["referenceAngle"] == pytest.approx(-0.8) and kw["userData"] == 7
    again = b2RevoluteJointDef(**kw)
    assert again.to_kwargs() == kw
    for cls in (b2PrismaticJointDef, b2DistanceJointDef, b2WeldJointDef, b2WheelJointDef,
                b2PulleyJointDef, b2RopeJointDef, b2FrictionJointDef, b2MotorJointDef):
        d = cls(bodyA=a, bodyB=b)
        assert cls(**d.to_kwargs()).to_kwargs() == d.to_kwargs()
    fd = b2FixtureDef(shape=b2CircleShape(radius=0.3), density=2.0, friction=0.4,
                      categoryBits=4, isSensor=True)
    fd2 = b2FixtureDef(**fd.to_kwargs())
    assert (fd2.shape, fd2.density, fd2.friction, fd2.categoryBits, fd2.isSensor) == \
        (fd.shape, 2.0, 0.4, 4, True)
    bd = b2.b2BodyDef(position=(1, 2), angle=0.5, type=b2.b2_dynamicBody)
    assert b2.b2BodyDef(**bd.to_kwargs()).to_kwargs() == bd.to_kwargs()


def test_joints_from_keywords_through_both_calls():
    world, a, b = _two_bodies()
    j1 = world.CreateJoint(b2RevoluteJointDef(bodyA=a, bodyB=b, localAnchorA=(1, 0)))
    j2 = world.CreateRevoluteJoint(bodyA=a, bodyB=b, localAnchorA=(1, 0))
    assert type(j1) is type(j2) is b2.b2RevoluteJoint
    assert j1.anchorA == j2.anchorA and j1.referenceAngle == j2.referenceAngle == \
        pytest.approx(-0.8)
    with pytest.raises(TypeError, match="no field"):
        b2RevoluteJointDef(bodyA=a, lenght=3)


# -- rope, friction ---------------------------------------------------------------------------

def test_rope_holds_its_max_length_and_is_slack_inside():
    world = b2World(gravity=(0, -10))
    ground = world.CreateStaticBody(position=(0, 10))
    ball = world.CreateDynamicBody(position=(0.5, 10))
    ball.CreateCircleFixture(radius=0.1, density=1.0)
    rope = world.CreateRopeJoint(bodyA=ground, bodyB=ball, localAnchorA=(0, 0),
                                 localAnchorB=(0, 0), maxLength=2.0)
    assert rope.maxLength == pytest.approx(2.0)
    lengths = []
    for k in range(240):
        world.Step(DT, 8, 3)
        lengths.append((ball.position - ground.position).length)
        if k == 10:  # still slack: a free fall of 11 steps from y = 10
            assert ball.position.y == pytest.approx(10 - 0.5 * 10 * (11 * DT) ** 2, abs=0.02)
    assert max(lengths) <= 2.0 + 0.01  # Box2D's linear slop: the rope's tolerance
    assert lengths[-1] == pytest.approx(2.0, abs=0.01)  # hangs taut at the bottom


def test_friction_joint_stops_a_sliding_box_with_its_force_bound():
    # a 1 kg box sliding at 3 m/s on a frictionless top-down plane, held by a friction joint
    # to the ground with maxForce 2 N: it decelerates at 2 m/s^2 and stops after 1.5 s
    world = b2World(gravity=(0, 0))
    ground = world.CreateStaticBody()
    box = world.CreateDynamicBody(position=(0, 0), linearVelocity=(3, 0))
    box.CreatePolygonFixture(box=(0.5, 0.5), density=1.0)  # 1 m x 1 m, 1 kg
    joint = world.CreateFrictionJoint(bodyA=ground, bodyB=box, maxForce=2.0, maxTorque=1.0)
    assert joint.maxForce == 2.0
    for _ in range(30):  # 0.5 s
        world.Step(DT, 8, 3)
    assert box.linearVelocity.x == pytest.approx(3.0 - 2.0 * 0.5, abs=0.02)
    for _ in range(90):  # to 2 s
        world.Step(DT, 8, 3)
    assert box.linearVelocity.length < 1e-6
    assert box.position.x == pytest.approx(3.0 * 1.5 / 2.0, abs=0.06)  # v^2 / (2 a) = 2.25 m


# -- shapes ----------------------------------------------------------------------------------

def test_loop_fixture_keeps_a_ball_inside_whatever_its_winding():
    for square in ([(-2, -2), (2, -2), (2, 2), (-2, 2)], [(-2, -2), (-2, 2), (2, 2), (2, -2)]):
        world = b2World(gravity=(0, -10))
        ground = world.CreateStaticBody()
        loop = ground.CreateLoopFixture(vertices=square, friction=0.3)
        assert loop.type == 3 and loop.shape.childCount == 4
        ball = world.CreateDynamicBody(position=(0.5, 0), linearVelocity=(9, 14))
        ball.CreateCircleFixture(radius=0.25, density=1.0, restitution=0.8)
        worst = 0.0
        for _ in range(600):
            world.Step(DT, 8, 3)
            p = ball.position
            worst = max(worst, abs(p.x), abs(p.y))
        # never out: its centre stays inside the walls (a step at 12 m/s may end up to
        # 0.2 m into a wall before the contact pushes it back: impulse2d's chains follow
        # Box2D v3's continuous rule, see docs/compat-box2d.md)
        assert worst < 2.0 - 0.1
        # at rest on the floor, the radius above it
        assert ball.position.y == pytest.approx(-2.0 + 0.25, abs=0.01)
        assert abs(ball.position.x) < 2.0 - 0.25 + 0.01


def test_ball_rolls_along_an_edge_chain_without_catching():
    world = b2World(gravity=(0, -10))
    ground = world.CreateStaticBody()
    chain = ground.CreateEdgeChain([(-10, 0), (-5, 0), (0, 0), (5, 0), (10, 0)])
    assert chain.type == 3 and len(ground.fixtures) == 1
    box = world.CreateDynamicBody(position=(-8, 0.25), linearVelocity=(4, 0))
    box.CreatePolygonFixture(box=(0.25, 0.25), density=1.0, friction=0.0)
    chain.friction = 0.0
    ys = []
    for _ in range(180):  # 3 s over three inner vertices
        world.Step(DT, 8, 3)
        ys.append(box.position.y)
    assert box.linearVelocity.x == pytest.approx(4.0, abs=0.01)  # no snag at -5, 0, 5
    assert max(abs(y - 0.25) for y in ys) < 0.02
    # from below too: Box2D 2.3's chains are two-sided
    ball = world.CreateDynamicBody(position=(3, -1), linearVelocity=(0, 20), gravityScale=0)
    ball.CreateCircleFixture(radius=0.2, density=1.0)
    for _ in range(30):
        world.Step(DT, 8, 3)
    assert ball.position.y < -0.2 + 0.02


def test_fixtures_from_shapes_take_the_template_fixture():
    world = b2World()
    body = world.CreateDynamicBody()
    template = b2FixtureDef(density=3.0, friction=0.7, restitution=0.1)
    one = body.CreateFixturesFromShapes(b2CircleShape(radius=0.5), template)
    many = body.CreateFixturesFromShapes(
        shapes=[b2PolygonShape(box=(1, 0.5)), b2CircleShape(radius=0.2, pos=(3, 0))],
        shapeFixture=template)
    assert isinstance(many, list) and len(many) == 2 and one.density == 3.0
    assert [f.friction for f in [one] + many] == pytest.approx([0.7] * 3)
    assert template.shape is None  # the template is not changed
    expected = 3.0 * (math.pi * 0.25 + 2.0 + math.pi * 0.04)
    assert body.mass == pytest.approx(expected)
    with pytest.raises(TypeError, match="shapes"):
        body.CreateFixturesFromShapes()


def test_create_fixture_takes_a_shape_positionally_and_a_list_of_shapes():
    world = b2World()
    body = world.CreateDynamicBody()
    f = body.CreateFixture(b2CircleShape(radius=1.0), density=2.0)
    fs = body.CreateFixture(shape=[b2CircleShape(radius=1.0, pos=(3, 0)),
                                   b2PolygonShape(box=(1, 1))], density=1.0)
    assert f.density == 2.0 and len(fs) == 2
    assert body.mass == pytest.approx(2 * math.pi + math.pi + 4.0)


def test_zero_radius_circle_is_a_massless_point_that_rests_on_ground():
    world = b2World(gravity=(0, -10))
    ground = world.CreateStaticBody()
    ground.CreatePolygonFixture(box=(5, 0.5))
    body = world.CreateDynamicBody(position=(0, 3))
    point = body.CreateFixture(shape=b2CircleShape(radius=0.0), density=1.0)
    assert point.shape.radius == 0.0
    assert body.mass == pytest.approx(1.0)  # massless: Box2D's default 1 kg
    for _ in range(180):
        world.Step(DT, 8, 3)
    # Box2D's point rests on the box's 1 cm skin: 0.5 + 0.01 above the ground's centre
    assert body.position.y == pytest.approx(0.51, abs=0.01)
    with pytest.raises(ValueError, match="radius"):
        body.CreateFixture(shape=b2CircleShape(radius=-1.0))


def test_edges_as_a_flat_list_and_chain_shapes():
    e = b2EdgeShape(vertices=[0, 1, 2, 3])
    assert e.vertices == [(0.0, 1.0), (2.0, 3.0)]
    with pytest.raises(ValueError, match="2 vertices"):
        b2EdgeShape(vertices=[0, 1, 2])
    chain = b2ChainShape(vertices=[(0, 0), (1, 0), (2, 1)])
    assert chain.childCount == 2 and [list(map(tuple, [x.vertex1, x.vertex2])) for x in
                                      chain.edges] == [[(0, 0), (1, 0)], [(1, 0), (2, 1)]]
    assert b2LoopShape(vertices=[(0, 0), (1, 0), (0, 1)]).childCount == 3
    with pytest.raises(ValueError, match="at least 3"):
        b2LoopShape(vertices=[(0, 0), (1, 0)])
    world = b2World()
    ground = world.CreateStaticBody()
    f = ground.CreateFixture(shape=chain)
    with pytest.raises(ValueError, match="sensor"):
        f.sensor = True
    assert f.density == 0.0 and len(world.engine.shapes) == 4  # two chains of 2 segments
    ground.DestroyFixture(f)
    assert ground.fixtures == [] and len(world.engine.shapes) == 0
    # CreateStaticBody(shapes=loop) and DestroyBody: every segment is made and goes
    body = world.CreateStaticBody(shapes=b2LoopShape(vertices=[(0, 0), (1, 0), (0, 1)]))
    assert len(body.fixtures) == 1 and len(world.engine.shapes) == 6
    world.DestroyBody(body)
    assert len(world.engine.shapes) == 0
    with pytest.raises(ValueError, match="maxLength"):
        a = world.CreateDynamicBody()
        world.CreateRopeJoint(bodyA=a, bodyB=world.CreateDynamicBody())  # Box2D's default 0


# -- destruction listener --------------------------------------------------------------------

def test_destroying_a_body_says_goodbye_to_its_joints_then_fixtures():
    calls = []

    class Listener(b2DestructionListener):
        def SayGoodbye(self, obj):  # noqa: N802
            calls.append(obj)

    world, a, b = _two_bodies()
    world.destructionListener = Listener()
    j = world.CreateRevoluteJoint(bodyA=a, bodyB=b, localAnchorA=(0, 0))
    f2 = a.CreatePolygonFixture(box=(0.2, 0.2), density=1.0)
    f1 = a.fixtures[0]
    world.DestroyJoint(world.CreateDistanceJoint(bodyA=a, bodyB=b))  # explicit: no goodbye
    assert calls == []
    world.DestroyBody(a)
    assert calls == [j, f1, f2]
    assert world.jointCount == 0 and b.joints == []
