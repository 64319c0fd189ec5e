"""Static bodies made in one batch (``impulse2d._batch``) and the pybox2d layer's queue of
``CreateStaticBody`` calls (``compat/_b2queue``).

A batch must write what making the bodies one by one writes, bit for bit (every store column,
the pools, the handles and lists), so that every later step is the same; the layer's queue must
be invisible: whatever touches the world first makes the queued bodies, a bad call raises at
once and queues nothing, and a program's trajectory is the same with the queue on or off.
"""

from __future__ import annotations

import inspect
import math
import random

import numpy as np
import pytest

import impulse2d
from impulse2d import _batch
from impulse2d._collision import geometry
from impulse2d.compat._b2queue import _QUEUEING, queueing_class
from impulse2d.compat.box2d import (b2CircleShape, b2EdgeShape, b2FixtureDef, b2PolygonShape,
                                    b2World)
from impulse2d.shapes import parse_material


def _specs(seed: int, n: int):
    """n static bodies of 0-3 massless shapes each (segments, density-0 polygons and circles)."""
    rng = random.Random(seed)
    specs = []
    for k in range(n):
        x = -0.0 if k == 3 else rng.uniform(-40, 40)  # -0.0: the centre is 0.0 (x + 0 - 0)
        angle = 0.0 if k % 4 == 0 else rng.uniform(-3, 3)
        parts = []
        for j in range(k % 4):
            material = dict(friction=rng.uniform(0, 3), restitution=rng.uniform(0, 1),
                            category=1 << (j + k % 3), is_sensor=(k + j) % 5 == 0,
                            user_data=("tag", k, j) if j == 1 else None)
            kind = (k + j) % 3
            if kind == 0:
                a = (rng.uniform(-2, 2), rng.uniform(-2, 2))
                b = (a[0] + rng.uniform(0.1, 3), a[1] + rng.uniform(-1, 1))
                parts.append(("segment", lambda a=a, b=b: geometry.make_segment(a, b),
                              material))
            elif kind == 1:
                pts = [(rng.uniform(-1, 1) + 2 * math.cos(t), rng.uniform(-1, 1)
                        + 2 * math.sin(t)) for t in (0.0, 1.9, 3.8, 5.0)]
                parts.append(("polygon", lambda p=pts: geometry.make_polygon(p), material))
            else:
                c = (rng.uniform(-1, 1), rng.uniform(-1, 1))
                parts.append(("circle", lambda c=c, r=rng.uniform(0.1, 1): geometry.make_circle(
                    c, r), material))
        specs.append((x, rng.uniform(-5, 5), angle, parts))
    return specs


def _world_with_history():
    """A world with live and destroyed bodies and shapes (free rows to reuse) and a pile."""
    world = impulse2d.World(gravity=(0.0, -10.0))
    ground = world.create_body("static")
    ground.create_segment((-50.0, -6.0), (50.0, -6.0))
    doomed = []
    for k in range(12):
        body = world.create_body("dynamic", position=(0.7 * k - 4.0, 8.0 + k))
        body.create_box(0.3, 0.3, density=1.0)
        doomed.append(body)
    for body in doomed[::3]:
        world.destroy_body(body)
    for _ in range(20):
        world.step(1 / 60)
    return world


def _one_by_one(world, specs):
    out = []
    for x, y, angle, parts in specs:
        body = world.create_body("static", position=(x, y), angle=angle)
        shapes = []
        for kind, make, material in parts:
            m = {k: v for k, v in material.items()}
            shapes.append(world._attach_shape(body._row(), kind, make(), parse_material(m),
                                              "size"))
        out.append((body, shapes))
    return out


def _batched(world, specs):
    """The batch, with segments given as their checked ends (built by the batch) but for the
    odd one, given built (a mix in one batch)."""
    bodies = []
    parsed = {}  # one parsed material per material given (shared, as the layer shares them)
    for k, (x, y, angle, parts) in enumerate(specs):
        made = []
        for kind, make, material in parts:
            geom = make()
            if kind == "segment" and k % 5:
                geom = geometry.segment_ends(tuple(geom.vertices[0].tolist()),
                                             tuple(geom.vertices[1].tolist()))
            if id(material) not in parsed:
                parsed[id(material)] = parse_material(dict(material))
            made.append((kind, geom, parsed[id(material)]))
        bodies.append((x, y, angle, made))
    return _batch.create_static_bodies(world, bodies)


def _assert_same_world(a, b):
    for name in ("_bodies", "_shapes"):
        sa, sb = getattr(a, name), getattr(b, name)
        assert len(sa.alive) == len(sb.alive), f"{name} capacity"
        for field, ca, cb in zip(sa._fields, sa, sb):
            assert ca.dtype == cb.dtype and np.array_equal(ca, cb, equal_nan=True), \
                f"{name}.{field} differs"
            # bit for bit, -0.0 against 0.0 included
            assert ca.tobytes() == cb.tobytes(), f"{name}.{field} differs in its bits"
    for name in ("_body_pool", "_shape_pool"):
        pa, pb = getattr(a, name), getattr(b, name)
        assert (pa.high_water, sorted(pa._free)) == (pb.high_water, sorted(pb._free))
    assert a._body_shapes == b._body_shapes and a._body_joints == b._body_joints
    assert sorted(a._body_handles) == sorted(b._body_handles)
    assert sorted(a._shape_handles) == sorted(b._shape_handles)
    assert a._shape_user_data == b._shape_user_data
    assert a._events.sensor_count == b._events.sensor_count
    assert a._pairs_dirty == b._pairs_dirty


@pytest.mark.parametrize("n", [1, 7, 150])  # 150: the stores grow (capacity doubling)
def test_batch_writes_what_one_by_one_writes(n):
    specs = _specs(n, n)
    a, b = _world_with_history(), _world_with_history()
    made_a = _one_by_one(a, specs)
    made_b = _batched(b, specs)
    _assert_same_world(a, b)
    assert [(h._index, h._generation, [s._index for s in ss]) for h, ss in made_a] == \
        [(h._index, h._generation, [s._index for s in ss]) for h, ss in made_b]
    assert all(h.type == impulse2d.BodyType.STATIC for h, _ in made_b)
    # and so every later step: a rain of boxes on the new terrain
    for world in (a, b):
        for k in range(10):
            box = world.create_body("dynamic", position=(4.0 * k - 20.0, 12.0))
            box.create_box(0.4, 0.3, density=2.0)
        for _ in range(90):
            world.step(1 / 60)
    assert a.state_hash() == b.state_hash()


def _few_body_specs(seed: int, bodies: int, segments_only: bool):
    """A few static bodies of many shapes each (LunarLander's moon: one body of 11 edges),
    which the batch writes row by row, element by element (``_batch.FEW_BODIES``), and whose
    extents it takes in one pass when they are all segments."""
    rng = random.Random(seed)
    specs = []
    for k in range(bodies):
        x = -0.0 if k == 0 else rng.uniform(-40, 40)  # -0.0: the centre is 0.0
        angle = 0.0 if k == 1 else rng.uniform(-3, 3)
        parts = []
        # one material for every shape of a body of segments (the batch then writes each
        # material column once), the high bits of the mask and a negative group included
        shared = dict(friction=rng.uniform(0, 3), density=0.0, mask=0xFFFF_FFFF_FFFF_FFF0,
                      group=-3, category=1 << 63, restitution=0.25, user_data=("moon", k),
                      is_sensor=k % 2 == 0)
        for j in range(11):
            material = shared if segments_only else dict(
                friction=rng.uniform(0, 3), density=0.0,
                user_data=("tag", k, j) if j == 2 else None)
            if segments_only or j % 3:
                a = (rng.uniform(-20, 20), rng.uniform(-2, 2))
                if j == 4:
                    a = (-0.0, -0.0)  # (an end at the origin: hypot 0)
                b = (a[0] + rng.uniform(0.1, 3), a[1] + rng.uniform(-1, 1))
                parts.append(("segment", lambda a=a, b=b: geometry.make_segment(a, b),
                              material))
            else:
                c = (rng.uniform(-1, 1), rng.uniform(-1, 1))
                parts.append(("circle", lambda c=c, r=rng.uniform(0.1, 1): geometry.make_circle(
                    c, r), material))
        specs.append((x, rng.uniform(-5, 5), angle, parts))
    return specs


@pytest.mark.parametrize("bodies", [1, 2, 3])
@pytest.mark.parametrize("segments_only", [True, False])
def test_few_bodies_of_many_shapes_are_written_as_one_by_one(bodies, segments_only):
    assert bodies < _batch.FEW_BODIES
    specs = _few_body_specs(bodies, bodies, segments_only)
    a, b = _world_with_history(), _world_with_history()
    made_a = _one_by_one(a, specs)
    made_b = _batched(b, specs)
    _assert_same_world(a, b)
    assert [(h._index, h._generation, [s._index for s in ss]) for h, ss in made_a] == \
        [(h._index, h._generation, [s._index for s in ss]) for h, ss in made_b]
    extents = [a._bodies.extent[h._index] for h, _ in made_a]
    assert all(2.0 < e < 30.0 for e in extents)  # the farthest end of its shapes, m
    for world in (a, b):
        for k in range(6):
            box = world.create_body("dynamic", position=(4.0 * k - 12.0, 8.0))
            box.create_box(0.4, 0.3, density=2.0)
        for _ in range(60):
            world.step(1 / 60)
    assert a.state_hash() == b.state_hash()


def _resting_world(sleep: bool):
    """Boxes resting across several static slabs, asleep or awake, and a jointed pair."""
    world = impulse2d.World(gravity=(0.0, -10.0), enable_sleep=sleep)
    slabs = []
    for k in range(6):
        slab = world.create_body("static", position=(3.0 * k, 0.0))
        slab.create_box(1.4, 0.2)
        slab.create_segment((-1.5, 0.3), (1.5, 0.3))
        slabs.append(slab)
    for k in range(8):
        box = world.create_body("dynamic", position=(2.1 * k + 0.4, 0.9))
        box.create_box(0.35, 0.35, density=1.0)
    a = world.create_body("dynamic", position=(7.0, 3.0))
    a.create_circle(0.3, density=1.0)
    world.create_revolute_joint(slabs[0], a, (7.0, 3.0))
    for _ in range(240):
        world.step(1 / 60)
    return world, slabs


@pytest.mark.parametrize("sleep", [True, False])
def test_batch_destroy_does_what_one_by_one_does(sleep):
    (a, slabs_a), (b, slabs_b) = _resting_world(sleep), _resting_world(sleep)
    assert a.state_hash() == b.state_hash()
    if sleep:
        assert a._sleepers  # the boxes on the doomed slabs sleep: their islands must wake
    doomed = [1, 2, 4, 5]
    touching = {int(x) for x in a._contacts.body_a[a._contacts.count > 0]}
    assert touching & {slabs_a[k]._index for k in doomed}  # slabs with resting boxes
    for k in doomed:
        a.destroy_body(slabs_a[k])
    _batch.destroy_bodies(b, [slabs_b[k] for k in doomed])
    _assert_same_world(a, b)
    for column_a, column_b in zip(a._contacts, b._contacts):
        assert np.array_equal(column_a, column_b)
    assert not any(slabs_b[k].is_valid for k in doomed)
    for world in (a, b):
        for _ in range(120):
            world.step(1 / 60)
    assert a.state_hash() == b.state_hash()
    # (and with a joint on a doomed body: one by one, the joint goes too)
    _batch.destroy_bodies(b, [slabs_b[0], slabs_b[3]])
    a.destroy_body(slabs_a[0])
    a.destroy_body(slabs_a[3])
    _assert_same_world(a, b)
    assert a.state_hash() == b.state_hash()


# -- the layer's queue -------------------------------------------------------------------------

def _edge_terrain(world, n, fd):
    bodies = []
    for k in range(n):
        fd.shape.vertices = [(k * 1.0, math.sin(k)), ((k + 1) * 1.0, math.sin(k + 1))]
        bodies.append(world.CreateStaticBody(fixtures=fd))
    return bodies


def _layer_program(batch: bool):
    """Terrain made and remade between runs of a falling, jointed walker-like pair: the
    engine state hash after each phase."""
    saved = b2World.batch_static
    b2World.batch_static = batch
    try:
        world = b2World(gravity=(0, -10))
        fd = b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (1, 0)]), friction=2.5)
        base = world.CreateStaticBody()  # (not queued: no fixtures)
        hashes = []
        for episode in range(3):
            terrain = _edge_terrain(world, 60, fd)
            # a body made before: its new fixture, and one destroyed, come after the queue
            wall = base.CreateFixture(b2FixtureDef(shape=b2EdgeShape(
                vertices=[(-5.0, 0.0), (-5.0, 9.0 + episode)])))
            if episode:
                base.DestroyFixture(base.fixtures[0])
            terrain += _edge_terrain(world, 3, fd)
            if episode == 2:
                base.DestroyFixture(wall)
            # a moon: one body of edges, its first by shapes=, then added while it is the
            # last body queued (queued with it) and after another was queued (made at once)
            moon = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0, -2), (70, -2)]))
            for k in range(4):
                moon.CreateEdgeFixture(vertices=[(8.0 * k, -1.0), (8.0 * k + 8, -1.5)],
                                       density=0, friction=0.1)
            pad = world.CreateStaticBody(position=(30.0, 3.0), fixtures=fd)
            pad.fixtures[0].sensor = True  # (a tile: the ball falls through it)
            moon.CreateEdgeFixture(vertices=[(40.0, -1.0), (48.0, -0.5)], friction=0.3)
            terrain += [moon, pad]
            stump = world.CreateStaticBody(position=(12.0 + episode, 1.0), fixtures=b2FixtureDef(
                shape=b2PolygonShape(vertices=[(0, 0), (1, 0), (1, 1), (0, 1)])))
            ball = world.CreateDynamicBody(position=(10.0 + episode, 5.0),
                                           fixtures=b2FixtureDef(shape=b2CircleShape(radius=0.5),
                                                                 density=1.0))
            for _ in range(120):
                world.Step(1 / 50, 6, 2)
            hashes.append(world.engine.state_hash())
            for body in terrain + [stump, ball]:
                world.DestroyBody(body)
        return hashes
    finally:
        b2World.batch_static = saved


def test_layer_program_is_the_same_with_the_queue_on_or_off():
    assert _layer_program(True) == _layer_program(False)


def test_queued_bodies_are_made_by_whatever_touches_the_world_first():
    world = b2World(gravity=(0, -10))
    fd = b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (1, 0)]), friction=2.5)
    body = world.CreateStaticBody(position=(3.0, -1.5), angle=0.25, fixtures=fd, userData="g")
    assert world._queue and world.engine.body_count == 1  # (engine: a member, so it flushed)
    assert type(world) is b2World and not world._queue
    # a queued body's own state makes it
    other = world.CreateStaticBody(position=(-2.0, 4.0), fixtures=fd)
    assert world._queue
    assert tuple(other.position) == (-2.0, 4.0) and not world._queue
    # a queued fixture's sensor flag is set in the queue (CarRacing's tiles); reading its
    # engine shape makes it
    third = world.CreateStaticBody(fixtures=[fd, fd])
    assert len(third.fixtures) == 2 and world._queue  # (its b2 objects need nothing made)
    third.fixtures[1].sensor = True
    assert world._queue
    assert third.fixtures[1].sensor and not world._queue and not third.fixtures[0].sensor
    assert world.engine._events.sensor_count == 1
    assert body.userData == "g" and body.angle == 0.25
    assert world.bodyCount == 3 and world.bodies == [body, other, third]


def test_every_public_member_of_the_world_makes_the_queue_first():
    sub = queueing_class(b2World)
    public = [name for name in dir(b2World) if not name.startswith("_")]
    members = [name for name in public if isinstance(inspect.getattr_static(b2World, name),
                                                     (property, type(lambda: 0)))]
    assert len(members) > 25
    for name in members:
        wrapped = inspect.getattr_static(sub, name) is not inspect.getattr_static(b2World, name)
        assert wrapped == (name not in _QUEUEING), name


def test_queue_keeps_call_order_with_other_bodies():
    world = b2World(gravity=(0, -10))
    fd = b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (1, 0)]))
    first = world.CreateStaticBody(fixtures=fd)
    ball = world.CreateDynamicBody(position=(0.5, 2.0),
                                   fixtures=b2FixtureDef(shape=b2CircleShape(radius=0.2)))
    last = world.CreateStaticBody(fixtures=fd)
    assert [b._i for b in (first, ball, last)] == [0, 1, 2]


def test_bad_calls_raise_at_once_and_queue_nothing():
    world = b2World(gravity=(0, -10))
    fd = b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (1, 0)]))
    good = world.CreateStaticBody(fixtures=fd)
    bad_edge = b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (0.001, 0)]))
    with pytest.raises(ValueError, match="end points"):
        world.CreateStaticBody(fixtures=[fd, bad_edge])
    with pytest.raises(ValueError, match="position"):
        world.CreateStaticBody(position=(math.nan, 0.0), fixtures=fd)
    with pytest.raises(ValueError, match="friction"):
        world.CreateStaticBody(fixtures=b2FixtureDef(shape=b2EdgeShape(
            vertices=[(0, 0), (1, 0)]), friction=-1.0))
    with pytest.raises(TypeError, match="fixtureDef"):
        world.CreateStaticBody(fixtures=[fd, "ground"])
    assert len(world._queue) == 1 and world.bodyCount == 1
    assert world.engine.body_count == 1 and len(world.engine.shapes) == 1
    assert tuple(good.position) == (0.0, 0.0)


def test_what_is_not_queued_is_made_at_once():
    world = b2World(gravity=(0, -10))
    heavy = b2FixtureDef(shape=b2PolygonShape(box=(1, 1)), density=2.0)  # a mass to check
    world.CreateStaticBody(fixtures=heavy)
    world.CreateStaticBody()  # no fixtures
    world.CreateStaticBody(fixtures=b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (1, 0)])),
                           linearDamping=0.5)  # an option the queue does not take
    assert not world._queue and world.engine.body_count == 3


def test_pickles_and_copies_hold_the_queued_bodies_made():
    import copy
    import pickle

    def world_with_a_queue():
        world = b2World(gravity=(0, -10))
        world.CreateDynamicBody(position=(0.5, 2.0), fixtures=b2FixtureDef(
            shape=b2CircleShape(radius=0.5), density=1.0))
        ground = world.CreateStaticBody(fixtures=[b2FixtureDef(shape=b2EdgeShape(
            vertices=[(k, 0.1 * k), (k + 1.0, 0.1 * k + 0.1)])) for k in range(12)])
        return world, ground

    reference, _ = world_with_a_queue()
    reference._flush_queue()
    for take in (copy.deepcopy, lambda w: pickle.loads(pickle.dumps(w))):
        world, _ = world_with_a_queue()
        assert world._queue
        other = take(world)
        assert type(other) is b2World and not other._queue and other.bodyCount == 2
        assert other.engine.state_hash() == reference.engine.state_hash()
        for _ in range(60):
            other.Step(1 / 60, 8, 3)
        assert 0.4 < other.bodies[0].position[1] < 0.7  # the ball rests on the made ground
    # a queued body or fixture copied on its own: made first
    world, ground = world_with_a_queue()
    body = copy.deepcopy(ground)
    assert not world._queue and len(body.fixtures) == 12 and body._b2world.bodyCount == 2
    world, ground = world_with_a_queue()
    fixture = copy.deepcopy(ground.fixtures[5])
    assert not world._queue and fixture._shape._index == 6
