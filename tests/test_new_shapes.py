"""Making and destroying things, cut without changing what a world holds or how it moves
(issue 31 items 5 and 8).

``create_body`` writes a shapeless body's mass, centre of mass and velocity itself instead of
calling ``World._update_mass``; ``Body.local_point`` reads its row with ``ndarray.item``; a
polygon's extents read its vertices with ``tolist``; the pybox2d layer queues a queued static
body's edges without a fixture definition, and starts a joint definition from its fields in
one update. Each must give what the general path gives, bit for bit (``-0.0`` against ``0.0``
included), and bad input must still raise at once with nothing queued.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d
from impulse2d._core.state import DYNAMIC

KINDS = ("static", "kinematic", "dynamic")
POSES = [((0.0, 0.0), 0.0), ((-0.0, -0.0), 0.0), ((3.25, -7.5), 0.7), ((-0.0, 2.0), -2.9),
         ((1e4, -1e4), 1e3), ((0.1, 0.2), math.pi)]
MOTIONS = [((0.0, 0.0), 0.0), ((-0.0, 0.0), -0.0), ((1.5, -2.0), 3.0), ((-4.0, 0.5), -7.25)]


def _row_bytes(world, i):
    b = world._bodies
    return {name: column[i].tobytes() for name, column in zip(b._fields, b)}


def _general_path(world, body, position, v, w):
    """Rewrite body ``body``'s row as ``create_body`` wrote it before: the centre and the
    velocity as given, then ``World._update_mass`` with a shapeless body's mass (1 kg for a
    dynamic body) or the massless body's writes and ``_sync_center``."""
    i = body._row()
    b = world._bodies
    b.center[i, 0], b.center[i, 1] = position
    b.v[i, 0], b.v[i, 1] = v
    b.w[i] = w
    if b.type[i] == DYNAMIC:
        world._update_mass(i, (1.0, (0.0, 0.0), 0.0))
    else:
        b.mass[i] = b.inv_mass[i] = b.inertia[i] = b.inv_inertia[i] = 0.0
        world._sync_center(i)


@pytest.mark.parametrize("kind", KINDS)
def test_create_body_writes_what_update_mass_wrote(kind):
    for position, angle in POSES:
        for v, w in (MOTIONS if kind != "static" else MOTIONS[:2]):
            world = impulse2d.World()
            body = world.create_body(kind, position=position, angle=angle, linear_velocity=v,
                                     angular_velocity=w)
            mine = _row_bytes(world, body._row())
            _general_path(world, body, position, v, w)
            assert _row_bytes(world, body._row()) == mine, (kind, position, angle, v, w)
            # what a dynamic body without shapes has: Box2D's 1 kg about its origin
            assert body.mass == (1.0 if kind == "dynamic" else 0.0)
            assert body.inertia == 0.0
            assert tuple(body.world_center) == (position[0] + 0.0, position[1] + 0.0)


def test_a_spun_body_keeps_its_velocity_at_its_origin():
    """The velocity is kept at the old centre (the origin): a body created spinning has the
    velocity given there, and a shape that moves the centre changes it by w x (c - origin)."""
    world = impulse2d.World(gravity=(0.0, 0.0))
    body = world.create_body("dynamic", position=(-0.0, 1.0), linear_velocity=(2.0, -1.0),
                             angular_velocity=3.0)
    assert tuple(body.linear_velocity) == (2.0, -1.0)
    body.create_circle(0.5, center=(1.0, 0.0), density=1.0)
    vx, vy = body.linear_velocity
    assert (vx, vy) == pytest.approx((2.0, -1.0 + 3.0 * 1.0), abs=1e-12)


def test_local_point_is_the_inverse_rotation_of_the_offset():
    world = impulse2d.World()
    for angle in (0.0, 0.3, -2.0, math.pi):
        body = world.create_body("dynamic", position=(1.5, -2.5), angle=angle)
        b = world._bodies
        i = body._row()
        c, s = b.rot[i]
        for point in ((0.0, 0.0), (3.0, 4.0), (-1e3, 7.0), (-0.0, -0.0)):
            dx, dy = point[0] - b.origin[i, 0], point[1] - b.origin[i, 1]
            want = (float(c * dx + s * dy), float(-s * dx + c * dy))  # the array reads' value
            got = body.local_point(point)
            assert type(got[0]) is float and type(got[1]) is float
            assert np.array(got).tobytes() == np.array(want).tobytes()
            back = body.world_point(got)
            assert back == pytest.approx(point, abs=1e-9)
    with pytest.raises(TypeError, match="world_point"):
        body.local_point("xy")


# -- the pybox2d layer's edges on a queued body (LunarLander's moon) -------------------------

def _moon(world, defs: bool):
    """A static body of edges as LunarLander makes its moon: by ``CreateEdgeFixture``
    (queued with the body without a definition) or by ``CreateFixture`` of a definition."""
    from impulse2d.compat.box2d import b2EdgeShape, b2FixtureDef
    moon = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0, 0), (20, 0)]))
    for k in range(10):
        p1, p2 = (2.0 * k, 0.3 * (k % 3)), (2.0 * k + 2.0, 0.3 * ((k + 1) % 3))
        options = dict(density=0, friction=0.1) if k % 4 else dict(
            friction=0.5, restitution=0.25, userData=("edge", k))
        if defs:
            moon.CreateFixture(b2FixtureDef(shape=b2EdgeShape(vertices=[p1, p2]), **options))
        else:
            moon.CreateEdgeFixture(vertices=[p1, p2], **options)
    return moon


def test_queued_edges_are_the_fixtures_a_definition_makes():
    from impulse2d.compat.box2d import b2World
    worlds = [b2World(gravity=(0, -10)) for _ in range(2)]
    moons = [_moon(world, defs) for world, defs in zip(worlds, (False, True))]
    assert len(worlds[0]._queue) == 1  # queued, with its eleven edges
    for world in worlds:
        world.CreateDynamicBody(position=(5.0, 4.0)).CreateCircleFixture(radius=0.5,
                                                                         density=1.0)
        for _ in range(60):
            world.Step(1 / 50, 6, 2)
    assert worlds[0].engine.state_hash() == worlds[1].engine.state_hash()
    for a, b in zip(moons[0].fixtures, moons[1].fixtures):
        assert a.shape.vertices == b.shape.vertices and a.shape.radius == b.shape.radius
        assert (a.density, a.friction, a.restitution, a.userData) == \
            (b.density, b.friction, b.restitution, b.userData)
        fa, fb = a.filterData, b.filterData
        assert (fa.categoryBits, fa.maskBits, fa.groupIndex) == \
            (fb.categoryBits, fb.maskBits, fb.groupIndex) == (1, 0xFFFF, 0)
        assert a.shape is not b.shape and a.body is moons[0]


def test_a_bad_queued_edge_raises_and_queues_nothing():
    from impulse2d.compat.box2d import b2EdgeShape, b2World
    world = b2World(gravity=(0, -10))
    moon = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0, 0), (20, 0)]))
    queued = list(world._queue[-1][1][4])
    with pytest.raises(ValueError, match="friction"):
        moon.CreateEdgeFixture(vertices=[(0, 0), (1, 0)], friction=-1.0)
    with pytest.raises(ValueError, match="density"):
        moon.CreateEdgeFixture(vertices=[(0, 0), (1, 0)], density=float("nan"))
    with pytest.raises(ValueError, match="apart"):
        moon.CreateEdgeFixture(vertices=[(0, 0), (0, 0)])
    with pytest.raises(TypeError, match="vertices"):
        moon.CreateEdgeFixture(vertices=[(0, 0), 1])
    assert world._queue[-1][1][4] == queued and len(moon.fixtures) == 1
    moon.CreateEdgeFixture(vertices=[(0, 0), (1, 0)], categoryBits=2)  # (by a definition)
    assert moon.fixtures[-1].filterData.categoryBits == 2 and len(moon.fixtures) == 2


def test_joint_definitions_start_from_their_fields_and_refuse_unknown_keywords():
    from impulse2d.compat import _b2joints
    from impulse2d.compat.box2d import b2World
    world = b2World(gravity=(0, -10))
    a = world.CreateDynamicBody(position=(0.0, 2.0))
    b = world.CreateDynamicBody(position=(1.0, 2.0), angle=0.25)
    kinds = [name for name in dir(_b2joints) if name.endswith("JointDef") and name != "b2JointDef"]
    assert len(kinds) >= 10
    for name in kinds:
        cls = getattr(_b2joints, name)
        d = cls()
        assert vars(d) == {"bodyA": None, "bodyB": None, "collideConnected": False,
                           "userData": None, **cls._fields}
        with pytest.raises(TypeError, match="no field 'bogus'"):
            cls(bodyA=a, bogus=1.0)
    d = _b2joints.b2RevoluteJointDef(bodyA=a, bodyB=b, anchor=(0.5, 2.0), enableMotor=True)
    assert d.enableMotor is True and d.referenceAngle == pytest.approx(0.25)
    assert tuple(d.localAnchorA) == pytest.approx((0.5, 0.0))

    class Traced(_b2joints.b2RevoluteJointDef):  # a program's subclass: a field's property
        seen: list = []

        @property
        def motorSpeed(self):  # noqa: N802
            return self.__dict__.get("_speed", 0.0)

        @motorSpeed.setter
        def motorSpeed(self, value):  # noqa: N802
            Traced.seen.append(value)
            self.__dict__["_speed"] = value

    t = Traced(motorSpeed=2.0)
    assert t.motorSpeed == 2.0 and Traced.seen == [0.0, 2.0]  # the default, then the keyword


def _reach_by_items(shapes, s, local_center):
    """``world._reach`` of a polygon as it read its vertices before (one ``item`` each)."""
    v = shapes.vertices
    cx, cy = local_center
    d, top = [], 0.0
    for k in range(shapes.count.item(s)):
        x, y = v.item(s, k, 0) - cx, v.item(s, k, 1) - cy
        q = x * x + y * y
        d.append((q, x, y))
        top = max(top, q)
    cut = top * (1.0 - 1e-9)
    return max([np.hypot(x, y) for q, x, y in d if q >= cut]) + shapes.radius.item(s)


def _min_extent_by_items(shapes, s):
    v, n = shapes.vertices, shapes.normals
    cx, cy = shapes.centroid.item(s, 0), shapes.centroid.item(s, 1)
    inner = min(n.item(s, k, 0) * (v.item(s, k, 0) - cx) + n.item(s, k, 1) * (v.item(s, k, 1)
                                                                            - cy)
                for k in range(shapes.count.item(s)))
    return max(inner, 0.0) + shapes.radius.item(s)


def test_polygon_extents_read_as_lists_are_those_read_by_items():
    from impulse2d import world as world_module
    rng = np.random.default_rng(5)
    world = impulse2d.World()
    for trial in range(60):
        body = world.create_body("dynamic", position=tuple(rng.uniform(-50, 50, 2)))
        count = int(rng.integers(3, 9))
        angles = np.sort(rng.uniform(0, 2 * np.pi, count))
        points = [(float(r * np.cos(a)) + 3.0, float(r * np.sin(a)) - 1.0)
                  for r, a in zip(rng.uniform(0.2, 4.0, count), angles)]
        try:
            shape = body.create_polygon(points, radius=float(rng.choice([0.0, 0.05])),
                                        density=1.0)
        except ValueError:
            continue  # (a degenerate hull)
        s = shape._row()
        sh = world._shapes
        for center in ((0.0, 0.0), tuple(body.local_center), (-0.0, 7.25)):
            got = world_module._reach(sh, s, center)
            assert np.float64(got).tobytes() == np.float64(
                _reach_by_items(sh, s, center)).tobytes()
        assert np.float64(world_module._min_extent(sh, s)).tobytes() == np.float64(
            _min_extent_by_items(sh, s)).tobytes()
        assert world_module._min_extent(sh, s) > 0.0
    assert len(world.shapes) > 40
