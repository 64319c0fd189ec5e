"""Issue 33's last names on the pybox2d layer: ``b2Manifold()`` and
``b2WorldManifold.Initialize``, the distance and time-of-impact input structures,
``PreSolve``'s old manifold with feature ids, Box2D's free functions and the members the
coverage table found missing. Values are checked against geometry and Box2D 2.3's formulas."""

import math

import pytest

import impulse2d.compat.box2d as b2
from impulse2d.compat.box2d import (b2AABB, b2CircleShape, b2ContactListener, b2EdgeShape,
                                    b2GetPointStates, b2Manifold, b2PolygonShape,
                                    b2RayCastInput, b2RayCastOutput, b2Sweep, b2Transform,
                                    b2Vec2, b2World, b2WorldManifold)


def xf(x, y, angle=0.0):
    t = b2Transform()
    t.Set((x, y), angle)
    return t


def test_empty_manifold_is_filled_by_a_collide_function_and_initialized_to_world_points():
    m = b2Manifold()
    assert m.pointCount == 0 and m.points == [] and m.type == b2Manifold.e_circles
    box = b2PolygonShape(box=(1.0, 1.0))
    # B 1.9 m above A: 10 cm of overlap along y, the faces' full width in contact
    b2.b2CollidePolygons(m, box, xf(0.0, 0.0), box, xf(0.0, 1.9))
    assert m.pointCount == 2 and m.type_ in (b2Manifold.e_faceA, b2Manifold.e_faceB)
    wm = b2WorldManifold()
    wm.Initialize(m, xf(0.0, 0.0), 0.0, xf(0.0, 1.9), 0.0)
    assert tuple(wm.normal) == pytest.approx((0.0, 1.0), abs=1e-12)
    # each point halfway between the two faces (y = 0.9 and 1.0), at the corners x = -1, 1
    assert sorted(round(p.x, 9) for p in wm.points) == [-1.0, 1.0]
    for p in wm.points:
        assert p.y == pytest.approx(0.95, abs=1e-9)


def test_world_manifold_initialize_circles_with_radii():
    m = b2.b2CollideCircles(b2CircleShape(radius=1.0), xf(0.0, 0.0),
                            b2CircleShape(radius=0.5), xf(1.2, 0.0))
    assert m.type == b2Manifold.e_circles and m.pointCount == 1
    wm = b2WorldManifold()
    wm.Initialize(m, xf(0.0, 0.0), 1.0, xf(1.2, 0.0), 0.5)
    # surfaces at x = 1.0 (A's) and 0.7 (B's): the point halfway, the normal along +x
    assert tuple(wm.normal) == pytest.approx((1.0, 0.0))
    assert tuple(wm.points[0]) == pytest.approx((0.85, 0.0))
    with pytest.raises(TypeError, match="manifold must be a b2Manifold"):
        wm.Initialize("m", xf(0, 0), 1.0, xf(1, 0), 1.0)


def test_distance_input_and_proxy_agree_with_the_keyword_form_and_geometry():
    circle = b2CircleShape(radius=0.5)
    box = b2PolygonShape(box=(1.0, 1.0))
    proxy = b2.b2DistanceProxy(box)
    assert len(proxy.vertices) == 4 and proxy.radius == pytest.approx(0.01)
    assert tuple(proxy.GetSupportVertex((1.0, 1.0))) == (1.0, 1.0)
    given = b2.b2DistanceInput(proxyA=b2.b2DistanceProxy(circle), proxyB=proxy,
                               transformA=xf(0.0, 0.0), transformB=xf(3.0, 0.0), useRadii=True)
    out = b2.b2Distance(given)
    # the circle's surface at x = 0.5, the box's face at x = 2: 1.5 m apart
    assert out.distance == pytest.approx(1.5, abs=1e-12)
    assert tuple(out.pointA) == pytest.approx((0.5, 0.0))
    assert tuple(out.pointB) == pytest.approx((2.0, 0.0))
    same = b2.b2Distance(shapeA=circle, shapeB=box, transformA=xf(0, 0), transformB=xf(3, 0))
    assert same.distance == out.distance
    assert isinstance(out, b2.b2DistanceResult)
    with pytest.raises(ValueError, match="no shape"):
        b2.b2Distance(b2.b2DistanceInput())


def test_toi_input_gives_the_keyword_forms_result():
    ball = b2CircleShape(radius=0.5)
    wall = b2PolygonShape(box=(0.5, 5.0))
    sweep_a = b2Sweep(c0=(-5.0, 0.0), c=(5.0, 0.0), a0=0.0, a=0.0)
    sweep_b = b2Sweep(c0=(0.0, 0.0), c=(0.0, 0.0))
    keyword = b2.b2TimeOfImpact(shapeA=ball, shapeB=wall, sweepA=sweep_a, sweepB=sweep_b)
    given = b2.b2TOIInput(proxyA=b2.b2DistanceProxy(ball), proxyB=b2.b2DistanceProxy(wall),
                          sweepA=sweep_a, sweepB=sweep_b, tMax=1.0)
    state, t = b2.b2TimeOfImpact(given)
    assert (state, t) == tuple(keyword)
    assert state == b2.b2TOIOutput.e_touching
    # the ball's surface meets the wall's face (x = -0.5) after 4 m of its 10 m sweep, less
    # Box2D's target gap (radii - 3 slop, within a quarter slop)
    assert t == pytest.approx(0.4, abs=0.003)
    out = b2.b2TOIOutput(state, t)
    assert (out.state, out.t) == (state, t)


class Recorder(b2ContactListener):
    def __init__(self):
        super().__init__()
        self.calls = []

    def PreSolve(self, contact, oldManifold):  # noqa: N802, N803
        new = contact.manifold
        self.calls.append((oldManifold.pointCount, new.pointCount,
                           [p.id.key for p in oldManifold.points[:oldManifold.pointCount]],
                           [p.id.key for p in new.points[:new.pointCount]],
                           b2GetPointStates(oldManifold, new)))


def test_pre_solve_gets_the_old_manifold_with_feature_ids():
    world = b2World(gravity=(0, -10))
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-5, 0), (5, 0)]))
    box = world.CreateDynamicBody(position=(0, 0.6))
    box.CreatePolygonFixture(box=(0.5, 0.5), density=1.0)
    listener = Recorder()
    world.contactListener = listener
    for _ in range(60):
        world.Step(1 / 60, 8, 3)
    first = listener.calls[0]
    assert first[0] == 0 and first[1] == 2          # nothing before: both points added
    assert first[4][1][:2] == (b2.b2_addState, b2.b2_addState)
    last = listener.calls[-1]
    assert last[0] == 2 and sorted(last[2]) == sorted(last[3])   # the same two features
    assert last[4] == ((b2.b2_persistState,) * 2, (b2.b2_persistState,) * 2)
    # each call's old manifold is the call before's new one
    for before, now in zip(listener.calls, listener.calls[1:]):
        assert now[2] == before[3]
    # and the contact manifold is Box2D's form: the reference face A's, normal in A's frame
    m = world.contacts[0].manifold
    assert m.type == b2Manifold.e_faceA and m.pointCount == 2


def test_free_functions_follow_box2d():
    a, b = xf(1.0, 2.0, 0.3), xf(3.0, -1.0, 1.1)
    ab = b2.b2Mul(a, b)
    p = b2Vec2(0.4, -0.7)
    assert tuple(ab * p) == pytest.approx(tuple(a * (b * p)))          # composition
    back = b2.b2MulT(a, ab)
    assert tuple(back.position) == pytest.approx((3.0, -1.0)) and back.q.angle == pytest.approx(1.1)
    assert tuple(b2.b2MulT(a, a * p)) == pytest.approx(tuple(p))         # inverse
    assert tuple(b2.b2Cross(2.0, b2Vec2(1, 3))) == (-6.0, 2.0)
    assert tuple(b2.b2Cross(b2Vec2(1, 3), 2.0)) == (6.0, -2.0)
    assert b2.b2Cross(b2Vec2(1, 0), b2Vec2(0, 1)) == 1.0
    assert b2.b2Dot(b2.b2Vec3(1, 2, 3), b2.b2Vec3(4, 5, 6)) == 32.0
    assert [b2.b2NextPowerOfTwo(x) for x in (0, 1, 5, 8)] == [1, 2, 8, 16]
    assert b2.b2IsPowerOfTwo(8) and not b2.b2IsPowerOfTwo(6)
    assert b2.b2MixFriction(0.5, 0.2) == pytest.approx(math.sqrt(0.1))
    assert b2.b2MixRestitution(0.5, 0.2) == 0.5
    assert tuple(b2.b2Clamp(b2Vec2(5, -5), b2Vec2(-1, -1), b2Vec2(1, 1))) == (1.0, -1.0)
    assert not b2.b2IsValid(float("nan")) and b2.b2IsValid(1.0)
    assert b2.b2_maxTranslationSquared == 4.0 and b2.b2_maxRotation == pytest.approx(math.pi / 2)
    with pytest.raises(TypeError, match="b2Mul takes"):
        b2.b2Mul(1.0, p)


def test_aabb_queries():
    box = b2AABB(lowerBound=(-1, -1), upperBound=(1, 2))
    assert tuple(box.center) == (0.0, 0.5) and tuple(box.extents) == (1.0, 1.5)
    assert box.perimeter == 10.0 and box.valid
    assert box.overlaps(b2AABB((1, 2), (3, 3))) and not box.overlaps(b2AABB((1.1, 0), (2, 1)))
    out = b2RayCastOutput()
    assert box.RayCast(out, b2RayCastInput(p1=(-3, 0), p2=(3, 0), maxFraction=1.0))
    assert out.fraction == pytest.approx(2.0 / 6.0) and tuple(out.normal) == (-1.0, 0.0)
    assert not box.RayCast(out, b2RayCastInput(p1=(-3, 5), p2=(3, 5), maxFraction=1.0))
    box.Combine(b2AABB((4, 4), (5, 5)))
    assert tuple(box.upperBound) == (5.0, 5.0) and tuple(box.lowerBound) == (-1.0, -1.0)


def test_joint_members_read_what_the_definition_gave():
    world = b2World()
    ground = world.CreateStaticBody()
    a = world.CreateDynamicBody(position=(0, 5))
    a.CreatePolygonFixture(box=(0.5, 0.5), density=1)
    c = world.CreateDynamicBody(position=(3, 5))
    c.CreatePolygonFixture(box=(0.5, 0.5), density=1)
    rev = world.CreateRevoluteJoint(bodyA=ground, bodyB=a, anchor=(0.5, 5.0),
                                    collideConnected=True, enableLimit=True)
    assert rev.type == 1 and rev.collideConnected and rev.getAsType() is rev
    assert tuple(rev.GetLocalAnchorA()) == (0.5, 5.0) and tuple(rev.GetLocalAnchorB()) == (0.5, 0.0)
    rev.SetLimits(-0.25, 0.5)
    assert rev.limits == (-0.25, 0.5) and rev.GetReferenceAngle() == 0.0
    pulley = world.CreatePulleyJoint(bodyA=a, bodyB=c, groundAnchorA=(0, 10),
                                     groundAnchorB=(3, 10), anchorA=(0, 5), anchorB=(3, 5),
                                     ratio=2.0)
    assert pulley.type == 4 and tuple(pulley.groundAnchorB) == (3.0, 10.0)
    for _ in range(30):
        world.Step(1 / 60, 8, 3)
    # the lengths it was made with stay; the current ones keep lengthA + 2 lengthB
    assert (pulley.lengthA, pulley.lengthB) == (5.0, 5.0) == (pulley.length1, pulley.length2)
    rope = pulley.GetCurrentLengthA() + 2.0 * pulley.GetCurrentLengthB()
    assert rope == pytest.approx(15.0, abs=0.01)
    wheel = world.CreateWheelJoint(bodyA=a, bodyB=c, anchor=(3, 5), axis=(0, 1))
    wheel.springFrequencyHz = 6.0
    wheel.springDampingRatio = 0.4
    assert wheel._joint.hertz == 6.0 and wheel._joint.damping_ratio == 0.4
    # the world axis (0, 1) in A's frame (A has swung on its hinge)
    assert tuple(wheel.GetLocalAxisA()) == pytest.approx(tuple(a.GetLocalVector((0.0, 1.0))))
    assert b2.b2RevoluteJointDef().type == 1 and b2.b2MotorJointDef().type == 11


def test_shape_body_and_world_members():
    box = b2PolygonShape(box=(1.0, 0.5))
    assert box.type == b2.b2Shape.e_polygon and b2CircleShape(radius=1).type == 0
    assert box.normals == [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)]
    assert box.Validate() and box.valid
    box.set_vertex(0, (2.0, 2.0))    # no longer convex
    assert not box.Validate()
    with pytest.raises(ValueError, match="not convex"):
        box.valid
    chain = b2.b2ChainShape()
    chain.CreateLoop([(0, 0), (1, 0), (1, 1)])
    assert chain.childCount == 3 and tuple(chain.getChildEdge(2).vertices[1]) == (0.0, 0.0)
    world = b2World()
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-5, 0), (5, 0)]))
    body = world.CreateDynamicBody(position=(0, 0.5), bullet=True)
    fixture = body.CreatePolygonFixture(box=(0.5, 0.5), density=2.0)
    world.Step(1 / 60, 8, 3)
    assert body.bullet and body.active
    edges = body.contacts
    assert len(edges) == 1 and edges[0].other.type == 0 and edges[0].contact.touching
    md = body.massData
    assert md.mass == pytest.approx(2.0) and md.I == pytest.approx(2.0 / 6.0)
    assert fixture.massData.mass == pytest.approx(2.0)
    aabb = fixture.GetAABB(0)
    assert aabb.upperBound.x == pytest.approx(0.5, abs=1e-6)
    assert world.contactCount == 1 and world.proxyCount == 2
    world.SetAllowSleeping(False)
    assert not world.GetAllowSleeping()
    world.warmStarting = False
    assert world.engine.settings.warm_starting is False
    r = b2.b2Rot(0.5)
    assert tuple(r.x_axis) == pytest.approx((math.cos(0.5), math.sin(0.5)))
    r.SetIdentity()
    assert r.angle == 0.0


def test_motor_force_holds_the_weight():
    """A prismatic motor at speed 0 holding a 1 kg box against gravity pushes m g."""
    world = b2World(gravity=(0, -10))
    ground = world.CreateStaticBody()
    box = world.CreateDynamicBody(position=(0, 5))
    box.CreatePolygonFixture(box=(0.5, 0.5), density=1)
    slider = world.CreatePrismaticJoint(bodyA=ground, bodyB=box, anchor=(0, 5), axis=(0, 1),
                                        enableMotor=True, motorSpeed=0.0, maxMotorForce=100.0)
    for _ in range(60):
        world.Step(1 / 60, 8, 3)
    assert slider.GetMotorForce(60.0) == pytest.approx(10.0, rel=1e-6)
    assert tuple(box.position) == pytest.approx((0.0, 5.0), abs=1e-9)
    assert slider.type == 2 and (slider.lowerLimit, slider.upperLimit) == slider.limits


def test_bodies_made_on_the_engine_directly_are_left_out_of_the_callbacks():
    """A body made on ``world.engine`` (as the testbed's launched ball was) collides with the
    layer's bodies, and the layer reports only its own fixtures (no KeyError)."""

    class Listener(b2ContactListener):
        def __init__(self):
            super().__init__()
            self.begins, self.pre, self.post = 0, 0, 0

        def BeginContact(self, contact):  # noqa: N802
            self.begins += 1

        def PreSolve(self, contact, oldManifold):  # noqa: N802, N803
            self.pre += 1

        def PostSolve(self, contact, impulse):  # noqa: N802
            self.post += 1

    world = b2World(gravity=(0, -10))
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-5, 0), (5, 0)]))
    box = world.CreateDynamicBody(position=(0, 0.5))
    box.CreatePolygonFixture(box=(0.5, 0.5), density=1.0)
    listener = Listener()
    world.contactListener = listener
    ball = world.engine.create_body(position=(0.0, 2.0))
    ball.create_circle(0.25, density=1.0)
    for _ in range(60):
        world.Step(1 / 60, 8, 3)
    assert ball.position[1] == pytest.approx(1.0 + 0.25, abs=0.02)   # it landed on the box
    assert listener.begins == 1 and listener.pre > 0 and listener.post > 0  # the box's only
    assert len(world.contacts) == 1 and len(box.contacts) == 1
    hits = []

    class Ray(b2.b2RayCastCallback):
        def ReportFixture(self, fixture, point, normal, fraction):  # noqa: N802
            hits.append(fixture)
            return 1.0

    world.RayCast(Ray(), (0, 5), (0, -1))
    # the ray passes the engine's ball first, then the box and the ground: only these two
    assert hits == [box.fixtures[0], world.bodies[0].fixtures[0]]
