"""A new dynamic body of one shape written in one compiled call (``impulse2d._batch_dynamic``,
taken by the pybox2d layer's ``CreateDynamicBody``): its rows are bit for bit those of
``World.create_body`` and ``World._attach_shape``, and a layer world that takes it steps as one
that does not."""

from __future__ import annotations

import math

import pytest

from impulse2d import _batch_dynamic
from impulse2d._collision import geometry
from impulse2d.compat import _b2dynamic
from impulse2d.compat import box2d as b2
from impulse2d.shapes import parse_material

from conftest import world_with_room


LANDER = geometry.make_polygon([(-0.47, 0.33), (-0.57, 0.07), (-0.57, -0.33), (0.57, -0.33),
                                (0.57, 0.07), (0.47, 0.33)])
CASES = [
    # (kind, geometry, material, body: x, y, angle, v, w, dampings, gravity scale, fixed, sleepy)
    ("polygon", LANDER, dict(density=5.0, friction=0.1, category=0x10, mask=0x001,
                             user_data="lander"),
     (10.0, 13.3, 0.0, (0.0, 0.0), 0.0, 0.0, 0.0, 1.0, False, True)),
    ("polygon", geometry.make_box(0.1, 0.27, (0.05, -0.02), 0.3),
     dict(density=1.0, restitution=0.25, category=1 << 63, mask=0xFFFF_FFFF_FFFF_FFF0,
          group=-3),
     (-3.25, 12.0, -0.05, (1.5, -2.0), 3.0, 0.1, 0.2, -0.5, False, False)),
    ("circle", geometry.make_circle((0.3, -0.1), 0.25),
     dict(density=2.0, is_sensor=True, enable_sensor_events=False),
     (2.0, -0.0, 1e3, (-0.0, 0.5), -7.0, 0.0, 0.0, 1.0, True, True)),
]


def _make(world, case, compiled: bool):
    kind, geom, material, (x, y, angle, v, w, lin, ang, g, fixed, sleepy) = case
    m = parse_material(dict(material))
    if compiled:
        made = _batch_dynamic.create_dynamic_body(world, x, y, angle, v, w, lin, ang, g,
                                                  fixed, sleepy, kind, geom, m)
        assert made is not None
        return made
    body = world.create_body("dynamic", position=(x, y), angle=angle, linear_velocity=v,
                             angular_velocity=w, linear_damping=lin, angular_damping=ang,
                             gravity_scale=g, fixed_rotation=fixed, allow_sleep=sleepy)
    return body, world._attach_shape(body._row(), kind, geom, m, "size")


@pytest.mark.parametrize("case", range(len(CASES)))
def test_compiled_body_rows_are_the_python_writes_bit_for_bit(case):
    a, b = world_with_room(40, 20, -7.0), world_with_room(40, 20, -7.0)
    _make(a, CASES[case], compiled=False)  # (what the geometry gives a body, kept)
    _make(b, CASES[case], compiled=False)
    made_a = _make(a, CASES[case], compiled=False)
    made_b = _make(b, CASES[case], compiled=True)
    assert [h._index for h in made_a] == [h._index for h in made_b]
    for name in ("_bodies", "_shapes"):
        for field, x, y in zip(getattr(a, name)._fields, getattr(a, name), getattr(b, name)):
            assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), f"{name}.{field}"
    assert b._shape_user_data == a._shape_user_data
    assert b._events.sensor_count == a._events.sensor_count
    assert b._body_shapes == a._body_shapes and b._body_joints == a._body_joints
    assert made_b[0].shapes == [made_b[1]]
    for world in (a, b):
        for _ in range(60):
            world.step(1 / 60)
    assert a.state_hash() == b.state_hash()
    assert math.isfinite(made_b[0].position[1])


def test_not_taken_without_a_current_reference_or_a_kept_shape():
    world = world_with_room(40, 20, -7.0)
    case = CASES[1]
    _make(world, case, compiled=False)
    world._stores_built_from = None
    kind, geom, material, (x, y, angle, v, w, lin, ang, g, fixed, sleepy) = case
    m = parse_material(dict(material))
    rows = world._body_pool.live_count
    assert _batch_dynamic.create_dynamic_body(world, x, y, angle, v, w, lin, ang, g, fixed,
                                              sleepy, kind, geom, m) is None
    world.step(1 / 60)  # (the reference rebuilt)
    other = geometry.make_box(0.1, 0.27, (0.05, -0.02), 0.3)  # the same values, not kept
    assert _batch_dynamic.create_dynamic_body(world, x, y, angle, v, w, lin, ang, g, fixed,
                                              sleepy, kind, other, m) is None
    assert world._body_pool.live_count == rows  # nothing made


def _lander_world(compiled: bool, monkeypatch):
    """A layer world as LunarLander's reset makes it, twice over (the second round on a world
    stepped with free rows): its state hash after 90 steps, and how many bodies went the
    compiled way."""
    taken = []
    create = _b2dynamic.create_dynamic_body

    def recorded(*args):
        made = create(*args) if compiled else None
        taken.append(made is not None)
        return made
    monkeypatch.setattr(_b2dynamic, "create_dynamic_body", recorded)
    world = b2.b2World(gravity=(0, -10))
    moon = world.CreateStaticBody(shapes=b2.b2EdgeShape(vertices=[(0, 0), (20, 0)]))
    joints = []
    for k in range(2):
        lander = world.CreateDynamicBody(
            position=(10, 13.3), angle=0.0,
            fixtures=b2.b2FixtureDef(
                shape=b2.b2PolygonShape(vertices=[(-0.47, 0.33), (-0.57, 0.07), (-0.57, -0.33),
                                                  (0.57, -0.33), (0.57, 0.07), (0.47, 0.33)]),
                density=5.0, friction=0.1, categoryBits=0x0010, maskBits=0x001,
                restitution=0.0))
        lander.ApplyForceToCenter((3.0, -2.0), True)
        for i in (-1, 1):
            leg = world.CreateDynamicBody(
                position=(10 - i * 0.67, 13.3), angle=i * 0.05,
                fixtures=b2.b2FixtureDef(shape=b2.b2PolygonShape(box=(0.067, 0.27)),
                                         density=1.0, restitution=0.0, categoryBits=0x0020,
                                         maskBits=0x001))
            joints.append(world.CreateJoint(b2.b2RevoluteJointDef(
                bodyA=lander, bodyB=leg, localAnchorA=(0, 0), localAnchorB=(i * 0.67, 0.6),
                enableMotor=True, enableLimit=True, maxMotorTorque=40.0, motorSpeed=0.3 * i,
                lowerAngle=-0.9 + 0.5 * (i > 0), upperAngle=0.9 - 0.5 * (i < 0))))
        for _ in range(30):
            world.Step(1 / 50, 6, 2)
        if k == 0:
            for body in [b for b in world.bodies if b is not moon]:
                world.DestroyBody(body)
    for _ in range(60):
        world.Step(1 / 50, 6, 2)
    return world.engine.state_hash(), taken


def test_layer_bodies_step_as_made_one_by_one(monkeypatch):
    hashed, taken = _lander_world(True, monkeypatch)
    assert any(taken)  # (the second round's bodies, on a stepped world with free rows)
    with monkeypatch.context() as patch:
        plain, none = _lander_world(False, patch)
    assert not any(none)
    assert hashed == plain


def test_a_bad_call_raises_as_before_and_makes_nothing():
    world = b2.b2World(gravity=(0, -10))
    world.CreateDynamicBody(position=(0, 5), fixtures=b2.b2FixtureDef(
        shape=b2.b2PolygonShape(box=(1, 1)), density=1.0))
    world.Step(1 / 60, 8, 3)
    count = world.bodyCount
    with pytest.raises(ValueError, match="linear_damping"):
        world.CreateDynamicBody(position=(0, 5), linearDamping=-1.0, fixtures=b2.b2FixtureDef(
            shape=b2.b2PolygonShape(box=(1, 1)), density=1.0))
    with pytest.raises(ValueError, match="density"):
        world.CreateDynamicBody(position=(0, 5), fixtures=b2.b2FixtureDef(
            shape=b2.b2PolygonShape(box=(1, 1)), density=-1.0))
    assert world.bodyCount == count
