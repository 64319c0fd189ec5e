"""pybox2d's debug draw (``world.renderer``, ``DrawDebugData``), ``PostSolve`` and the contact
filter on the compat layer, against Box2D 2.3's documented behaviour: the shapes' world
vertices, the flags, the order, the colours, the screen conversion, the impulses of a resting
box, a filter that lets a box through the ground."""

import math

import pytest

from impulse2d.compat.box2d import (b2ContactFilter, b2ContactListener, b2Draw,
                                    b2DrawExtended, b2EdgeShape, b2LoopShape, b2PolygonShape,
                                    b2World)

SHAPES = {"drawShapes": True}


class Recorder(b2Draw):
    """Records every call as (name, args)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = []

    def DrawPolygon(self, vertices, color):  # noqa: N802
        self.calls.append(("DrawPolygon", vertices, color))

    def DrawSolidPolygon(self, vertices, color):  # noqa: N802
        self.calls.append(("DrawSolidPolygon", vertices, color))

    def DrawCircle(self, center, radius, color):  # noqa: N802
        self.calls.append(("DrawCircle", center, radius, color))

    def DrawSolidCircle(self, center, radius, axis, color):  # noqa: N802
        self.calls.append(("DrawSolidCircle", center, radius, axis, color))

    def DrawSegment(self, p1, p2, color):  # noqa: N802
        self.calls.append(("DrawSegment", p1, p2, color))

    def DrawTransform(self, xf):  # noqa: N802
        self.calls.append(("DrawTransform", xf))

    def DrawPoint(self, p, size, color):  # noqa: N802
        self.calls.append(("DrawPoint", p, size, color))


class ExtendedRecorder(b2DrawExtended, Recorder):
    pass


def _rotate(p, angle, origin):
    c, s = math.cos(angle), math.sin(angle)
    return (origin[0] + c * p[0] - s * p[1], origin[1] + s * p[0] + c * p[1])


def _close(a, b, tol=1e-9):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert abs(x[0] - y[0]) <= tol and abs(x[1] - y[1]) <= tol, (a, b)


def _box_world(angle=0.3):
    world = b2World(gravity=(0, -10))
    body = world.CreateDynamicBody(position=(1.0, 2.0), angle=angle)
    body.CreatePolygonFixture(box=(0.5, 0.25), density=1.0)
    return world, body


def test_box_gives_its_four_world_vertices():
    world, body = _box_world(0.3)
    world.renderer = r = Recorder(flags=SHAPES)
    world.DrawDebugData()
    assert len(r.calls) == 1
    name, vertices, color = r.calls[0]
    assert name == "DrawSolidPolygon"
    # Box2D's SetAsBox order: (-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy), turned and moved
    local = [(-0.5, -0.25), (0.5, -0.25), (0.5, 0.25), (-0.5, 0.25)]
    _close(vertices, [_rotate(p, 0.3, (1.0, 2.0)) for p in local])


def test_circle_gives_centre_radius_axis():
    world = b2World(gravity=(0, -10))
    body = world.CreateDynamicBody(position=(3.0, 2.0), angle=0.5)
    body.CreateCircleFixture(radius=0.4, pos=(0.1, 0.2), density=1.0)
    world.renderer = r = Recorder(flags=SHAPES)
    world.DrawDebugData()
    (name, center, radius, axis, _), = r.calls
    assert name == "DrawSolidCircle"
    _close([center], [_rotate((0.1, 0.2), 0.5, (3.0, 2.0))])
    assert radius == pytest.approx(0.4, abs=1e-12)
    _close([axis], [(math.cos(0.5), math.sin(0.5))])


def test_edge_and_loop_give_segments_and_vertex_circles():
    world = b2World(gravity=(0, -10))
    ground = world.CreateStaticBody(position=(0.0, 1.0))
    ground.CreateFixture(shape=b2EdgeShape(vertices=[(-2, 0), (3, 0.5)]))
    square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    ground.CreateFixture(shape=b2LoopShape(vertices=square))
    world.renderer = r = Recorder(flags=SHAPES)
    world.DrawDebugData()
    assert r.calls[0][0] == "DrawSegment"
    _close(r.calls[0][1:3], [(-2, 1), (3, 1.5)])
    # the loop: per edge a segment and a 5 cm circle at its first vertex, closed back to v0
    loop = r.calls[1:]
    assert [c[0] for c in loop] == ["DrawSegment", "DrawCircle"] * 4
    ends = [(x, y + 1.0) for x, y in square]
    for k in range(4):
        _close(loop[2 * k][1:3], [ends[k], ends[(k + 1) % 4]])
        _close([loop[2 * k + 1][1]], [ends[k]])
        assert loop[2 * k + 1][2] == pytest.approx(0.05)


def test_flags_off_give_no_calls_and_each_flag_its_own():
    world, body = _box_world()
    other = world.CreateDynamicBody(position=(3.0, 2.0))
    other.CreateCircleFixture(radius=0.3, density=1.0)
    world.CreateDistanceJoint(bodyA=body, bodyB=other, localAnchorA=(0, 0), localAnchorB=(0, 0))
    world.renderer = r = Recorder()
    world.DrawDebugData()
    assert r.calls == []
    r.flags = {"drawShapes": False, "drawJoints": False, "drawAABBs": False,
               "drawPairs": True, "drawCOMs": False}
    world.DrawDebugData()
    assert r.calls == []  # Box2D 2.3 draws nothing for the pairs
    for flag, names in (("drawShapes", {"DrawSolidPolygon", "DrawSolidCircle"}),
                        ("drawJoints", {"DrawSegment"}), ("drawAABBs", {"DrawPolygon"}),
                        ("drawCOMs", {"DrawTransform"})):
        r.calls.clear()
        r.flags = 0
        r.flags = {flag: True}
        world.DrawDebugData()
        assert r.calls and {c[0] for c in r.calls} == names, flag
    world.renderer = None
    world.DrawDebugData()  # no renderer: nothing to call


def test_extended_converts_points_to_screen():
    world, body = _box_world(0.3)
    world.CreateStaticBody(position=(0, 0), shapes=b2EdgeShape(vertices=[(-4, 0), (4, 0)]))
    ball = world.CreateDynamicBody(position=(-2.0, 3.0))
    ball.CreateCircleFixture(radius=0.4, density=1.0)
    r = ExtendedRecorder(flags=SHAPES)
    r.calls = []
    r.zoom, r.offset, r.screenSize = 20.0, (-100.0, -50.0), (640.0, 480.0)
    r.flipY, r.convertVertices = True, True
    world.renderer = r
    world.DrawDebugData()

    def screen(p):  # pybox2d's conversion: x * zoom - offset.x; mirrored y: size.y - (...)
        return (p[0] * 20.0 + 100.0, 480.0 - (p[1] * 20.0 + 50.0))

    local = [(-0.5, -0.25), (0.5, -0.25), (0.5, 0.25), (-0.5, 0.25)]
    polygon = next(c for c in r.calls if c[0] == "DrawSolidPolygon")
    _close(polygon[1], [screen(_rotate(p, 0.3, (1.0, 2.0))) for p in local])
    _close(polygon[1], [r.to_screen(_rotate(p, 0.3, (1.0, 2.0))) for p in local])
    segment = next(c for c in r.calls if c[0] == "DrawSegment")
    _close(segment[1:3], [screen((-4, 0)), screen((4, 0))])
    # a circle: its centre in pixels, its radius and axis in world units (pybox2d's)
    circle = next(c for c in r.calls if c[0] == "DrawSolidCircle")
    _close([circle[1]], [screen((-2.0, 3.0))])
    assert circle[2] == pytest.approx(0.4, abs=1e-12)
    _close([circle[3]], [(1.0, 0.0)])
    # without convertVertices the same renderer gets world metres
    r.calls.clear()
    r.convertVertices = False
    world.DrawDebugData()
    polygon = next(c for c in r.calls if c[0] == "DrawSolidPolygon")
    _close(polygon[1], [_rotate(p, 0.3, (1.0, 2.0)) for p in local])


def test_order_bodies_fixtures_then_joints():
    world = b2World(gravity=(0, -10))
    a = world.CreateDynamicBody(position=(0, 0))
    a.CreatePolygonFixture(box=(0.5, 0.5), density=1.0)
    a.CreateCircleFixture(radius=0.2, pos=(1, 0), density=1.0)
    b = world.CreateDynamicBody(position=(4, 0))
    b.CreateCircleFixture(radius=0.3, density=1.0)
    world.CreateRevoluteJoint(bodyA=a, bodyB=b, localAnchorA=(2, 0), localAnchorB=(-2, 0))
    world.renderer = r = Recorder(flags={"drawShapes": True, "drawJoints": True})
    world.DrawDebugData()
    names = [c[0] for c in r.calls]
    assert names == ["DrawSolidPolygon", "DrawSolidCircle", "DrawSolidCircle",
                     "DrawSegment", "DrawSegment", "DrawSegment"]
    _close([r.calls[1][1], r.calls[2][1]], [(1, 0), (4, 0)])
    # a revolute joint: body A's origin to anchor A, anchor A to B, body B's origin to anchor B
    _close(r.calls[3][1:3], [(0, 0), (2, 0)])
    _close(r.calls[4][1:3], [(2, 0), (2, 0)])
    _close(r.calls[5][1:3], [(4, 0), (2, 0)])
    assert tuple(r.calls[3][3]) == pytest.approx((0.5, 0.8, 0.8))


def test_distance_joint_and_centre_of_mass():
    world = b2World(gravity=(0, -10))
    a = world.CreateDynamicBody(position=(0, 0), angle=0.4)
    a.CreatePolygonFixture(box=(0.5, 0.5), density=1.0)
    a.CreateCircleFixture(radius=0.25, pos=(1.0, 0.0), density=4.0)
    b = world.CreateDynamicBody(position=(3, 1))
    b.CreateCircleFixture(radius=0.3, density=1.0)
    world.CreateDistanceJoint(bodyA=a, bodyB=b, localAnchorA=(0.5, 0), localAnchorB=(0, 0.1))
    world.renderer = r = Recorder(flags={"drawJoints": True, "drawCOMs": True})
    world.DrawDebugData()
    assert [c[0] for c in r.calls] == ["DrawSegment", "DrawTransform", "DrawTransform"]
    _close(r.calls[0][1:3], [_rotate((0.5, 0), 0.4, (0, 0)), (3, 1.1)])
    xf = r.calls[1][1]
    _close([xf.position], [tuple(a.worldCenter)])
    assert xf.angle == pytest.approx(0.4, abs=1e-12)
    # the centre of mass is off the origin (the dense circle pulls it along the body's x axis)
    assert math.hypot(*xf.position) > 0.1


def test_colours_by_body_state():
    world = b2World(gravity=(0, -10))
    static = world.CreateStaticBody(position=(0, 0))
    static.CreatePolygonFixture(box=(1, 1))
    kinematic = world.CreateKinematicBody(position=(3, 0))
    kinematic.CreatePolygonFixture(box=(1, 1))
    awake = world.CreateDynamicBody(position=(6, 0))
    awake.CreatePolygonFixture(box=(1, 1), density=1.0)
    asleep = world.CreateDynamicBody(position=(9, 0))
    asleep.CreatePolygonFixture(box=(1, 1), density=1.0)
    asleep.awake = False
    world.renderer = r = Recorder(flags=SHAPES)
    world.DrawDebugData()
    colours = [tuple(c[2]) for c in r.calls]
    expected = [(0.5, 0.9, 0.5), (0.5, 0.5, 0.9), (0.9, 0.7, 0.7), (0.6, 0.6, 0.6)]
    for got, want in zip(colours, expected, strict=True):
        assert got == pytest.approx(want)


class ImpulseRecorder(b2ContactListener):
    def __init__(self):
        super().__init__()
        self.steps = []  # per Step: [(contact, impulse)]

    def PostSolve(self, contact, impulse):  # noqa: N802
        self.steps[-1].append((contact, impulse))


def _resting_box(dt):
    world = b2World(gravity=(0, -10))
    world.CreateStaticBody(position=(0, 0), shapes=b2PolygonShape(box=(5, 0.5)))
    box = world.CreateDynamicBody(position=(0, 1.0))
    box.CreatePolygonFixture(box=(0.5, 0.5), density=2.0, friction=0.6)
    listener = ImpulseRecorder()
    world.contactListener = listener
    return world, box, listener


def test_post_solve_normal_impulses_carry_the_weight():
    dt = 1.0 / 60.0
    world, box, listener = _resting_box(dt)
    world.allowSleeping = False
    for _ in range(120):
        listener.steps.append([])
        world.Step(dt, 8, 3)
    (contact, impulse), = listener.steps[-1]
    assert impulse.count == 2 == len(impulse.normalImpulses) == len(impulse.tangentImpulses)
    weight = box.mass * 10.0 * dt  # N s the ground gives per step to hold the box
    assert sum(impulse.normalImpulses) == pytest.approx(weight, rel=0.01)
    assert abs(sum(impulse.tangentImpulses)) <= 1e-6 * weight  # nothing pushes it sideways
    assert {contact.fixtureA.body, contact.fixtureB.body} == {box, world.bodies[0]}


def test_post_solve_stops_when_the_island_sleeps():
    dt = 1.0 / 60.0
    world, box, listener = _resting_box(dt)
    for _ in range(240):
        listener.steps.append([])
        world.Step(dt, 8, 3)
    assert not box.awake
    # solved in the step that put it to sleep, not in the steps it slept through
    asleep_from = next(k for k, calls in enumerate(listener.steps) if not calls)
    assert all(not calls for calls in listener.steps[asleep_from:])
    assert 30 < asleep_from < 240


class NoFloor(b2ContactFilter):
    def __init__(self, floor):
        super().__init__()
        self.floor = floor
        self.asked = 0

    def ShouldCollide(self, fixtureA, fixtureB):  # noqa: N802, N803
        self.asked += 1
        return self.floor not in (fixtureA.body, fixtureB.body)


def test_contact_filter_false_lets_the_box_fall_through():
    world, box, _ = _resting_box(1 / 60)
    world.contactListener = None
    floor = world.bodies[0]
    world.contactFilter = NoFloor(floor)
    for _ in range(60):
        world.Step(1 / 60, 8, 3)
    assert world.contactFilter.asked >= 1
    # free fall from rest for 1 s: 5 m down (the semi-implicit Euler sum: g dt^2 n (n+1) / 2)
    assert box.position.y == pytest.approx(1.0 - 10.0 * (1 / 60) ** 2 * 60 * 61 / 2, abs=1e-6)


def test_default_contact_filter_keeps_the_floor():
    world, box, _ = _resting_box(1 / 60)
    world.contactListener = None
    world.contactFilter = b2ContactFilter()
    for _ in range(60):
        world.Step(1 / 60, 8, 3)
    assert box.position.y == pytest.approx(1.0, abs=0.02)
    with pytest.raises(TypeError, match="contactFilter"):
        world.contactFilter = object()
    assert isinstance(world.contactFilter, b2ContactFilter)  # unchanged
