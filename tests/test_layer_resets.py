"""A Gymnasium reset's paths on the pybox2d layer, cut without changing what a world holds or
how it moves (issue 31 item 8).

A dynamic body's first shape takes the mass, centre, inertia and extents that an earlier body
of the same geometry object, density and rotation got (``impulse2d._first_shape``): the body's
row must be what the full computation writes, bit for bit, and the body must move as one made
without the kept values. A world's identity (``World._uid``) is a per-process prefix and a
count: unique among a process's worlds and across processes, forked ones included.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest

import impulse2d
from impulse2d import _first_shape
from impulse2d._collision import geometry

LEG = [(-0.0667, -0.2667), (0.0667, -0.2667), (0.0667, 0.2667), (-0.0667, 0.2667)]
HULL = [(-0.467, 0.567), (-0.6, 0.0), (-0.6, -0.333), (0.6, -0.333), (0.6, 0.0), (0.467, 0.567)]


def _row_bytes(store, i):
    return {name: column[i].tobytes() for name, column in zip(store._fields, store)}


def _body_with(world, geom, density, fixed=False, pose=((1.25, 3.5), 0.3), spin=2.5):
    body = world.create_body("dynamic", position=pose[0], angle=pose[1],
                             angular_velocity=spin, fixed_rotation=fixed)
    material = impulse2d.shapes.parse_material({"density": density, "friction": 0.1})
    world._attach_shape(body._row(), "polygon", geom, material, "vertices")
    return body


@pytest.mark.parametrize("vertices", [LEG, HULL])
@pytest.mark.parametrize("density", [1.0, 5.0, 0.0, 1e3])
@pytest.mark.parametrize("fixed", [False, True])
def test_a_kept_first_shape_writes_what_the_full_path_writes(vertices, density, fixed):
    geom = geometry.make_polygon(np.array(vertices, dtype=np.float64), 0.0)
    _first_shape.clear()
    fresh = impulse2d.World()
    full = _body_with(fresh, geom, density, fixed)   # computed, then kept
    assert _first_shape.lookup(geom, density, fixed) is not None
    again = impulse2d.World()
    kept = _body_with(again, geom, density, fixed)   # from the kept values
    assert _row_bytes(again._bodies, kept._row()) == _row_bytes(fresh._bodies, full._row())
    assert (_row_bytes(again._shapes, kept.shapes[0]._row())
            == _row_bytes(fresh._shapes, full.shapes[0]._row()))
    # the physics of the values: a box's mass and inertia (m (w^2 + h^2) / 12), 1 kg unmassed
    if vertices is LEG and density > 0.0:
        w, h = 2 * 0.0667, 2 * 0.2667
        assert kept.mass == pytest.approx(density * w * h, rel=1e-12)
        if not fixed:
            assert kept.inertia == pytest.approx(density * w * h * (w * w + h * h) / 12,
                                                 rel=1e-12)
    if density == 0.0:
        assert kept.mass == 1.0
    # and it moves as the other does, step for step
    for _ in range(30):
        fresh.step(1 / 60)
        again.step(1 / 60)
    assert again.state_hash() == fresh.state_hash()


def test_kept_values_are_per_density_rotation_and_geometry_object():
    geom = geometry.make_polygon(np.array(LEG, dtype=np.float64), 0.0)
    same_vertices = geometry.make_polygon(np.array(LEG, dtype=np.float64), 0.0)
    _first_shape.clear()
    _body_with(impulse2d.World(), geom, 1.0)
    assert _first_shape.lookup(geom, 1.0, False) is not None
    assert _first_shape.lookup(geom, 2.0, False) is None
    assert _first_shape.lookup(geom, 1.0, True) is None
    assert _first_shape.lookup(same_vertices, 1.0, False) is None  # another object
    _body_with(impulse2d.World(), geom, 0.0)
    assert _first_shape.lookup(geom, -0.0, False) is None  # -0.0 kept apart from 0.0


def test_a_second_shape_and_other_bodies_take_the_full_path():
    """Only a dynamic body's first shape is kept: a second shape moves the centre of mass,
    and a static body has no mass to keep."""
    geom = geometry.make_polygon(np.array(LEG, dtype=np.float64), 0.0)
    world = impulse2d.World()
    body = _body_with(world, geom, 1.0)
    body.create_box(0.5, 0.25, center=(1.0, 0.0), density=2.0)
    # the centre between the two parts, weighted by their masses (0.1423 and 0.5 kg)
    m1, m2 = 1.0 * (2 * 0.0667) * (2 * 0.2667), 2.0 * 1.0 * 0.5
    assert body.mass == pytest.approx(m1 + m2, rel=1e-12)
    assert body.local_center[0] == pytest.approx(m2 * 1.0 / (m1 + m2), rel=1e-12)
    static = world.create_body("static")
    material = impulse2d.shapes.parse_material({"density": 1.0})
    world._attach_shape(static._row(), "polygon", geom, material, "vertices")
    assert static.mass == 0.0


def test_lunar_lander_bodies_match_with_and_without_kept_values():
    """The layer's lander and legs (the same geometry objects every reset) against bodies made
    after the kept values are forgotten: the same rows, and the same steps."""
    from impulse2d.compat import box2d as b2

    def lander_world():
        world = b2.b2World(gravity=(0, -10))
        lander = world.CreateDynamicBody(position=(10.0, 13.3), fixtures=b2.b2FixtureDef(
            shape=b2.b2PolygonShape(vertices=[(x / 30.0, y / 30.0) for x, y in
                                              [(-14, 17), (-17, 0), (-17, -10), (17, -10),
                                               (17, 0), (14, 17)]]), density=5.0))
        for side in (-1, 1):
            leg = world.CreateDynamicBody(position=(10.0 - side * 0.667, 13.3), angle=side * 0.05,
                                          fixtures=b2.b2FixtureDef(shape=b2.b2PolygonShape(
                                              box=(0.0667, 0.2667)), density=1.0))
            world.CreateJoint(b2.b2RevoluteJointDef(
                bodyA=lander, bodyB=leg, localAnchorA=(0, 0), localAnchorB=(side * 0.667, 0.6),
                enableMotor=True, enableLimit=True, maxMotorTorque=40.0, motorSpeed=0.3 * side,
                lowerAngle=-0.9, upperAngle=0.9))
        return world

    _first_shape.clear()
    first = lander_world()      # computes and keeps
    second = lander_world()     # takes the kept values
    a, b = first.engine, second.engine
    for i in range(3):
        assert _row_bytes(a._bodies, i) == _row_bytes(b._bodies, i)
    for _ in range(50):
        first.Step(1 / 50, 180, 60)
        second.Step(1 / 50, 180, 60)
    assert a.state_hash() == b.state_hash()
    assert first.bodies[0].position.y < 13.3  # it fell


def test_world_identities_are_unique_in_a_process_and_in_a_forked_child():
    uids = {impulse2d.World()._uid for _ in range(200)}
    assert len(uids) == 200
    assert all(len(u) == 32 and int(u, 16) >= 0 for u in uids)
    if not hasattr(os, "fork") or sys.platform == "win32":
        return
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next worlds' identities, to the parent
        try:
            os.write(write, " ".join(impulse2d.World()._uid for _ in range(5)).encode())
        finally:
            os._exit(0)
    os.close(write)
    child = os.read(read, 4096).decode().split()
    os.close(read)
    os.waitpid(pid, 0)
    mine = [impulse2d.World()._uid for _ in range(5)]
    assert len(child) == 5 and not set(child) & set(mine)
    assert not set(child) & uids


def test_another_worlds_snapshot_is_still_refused():
    one, two = impulse2d.World(), impulse2d.World()
    one.create_body("dynamic").create_circle(0.5)
    with pytest.raises(ValueError):
        two.restore(one.snapshot())
    assert math.isfinite(one.bodies[0].position[1])


def _lander_in(b2, world):
    lander = world.CreateDynamicBody(position=(10.0, 13.3), fixtures=b2.b2FixtureDef(
        shape=b2.b2PolygonShape(box=(0.5, 0.4)), density=5.0))
    leg = world.CreateDynamicBody(position=(10.6, 13.3), fixtures=b2.b2FixtureDef(
        shape=b2.b2PolygonShape(box=(0.0667, 0.2667)), density=1.0))
    world.CreateJoint(b2.b2RevoluteJointDef(bodyA=lander, bodyB=leg, localAnchorA=(0, 0),
                                            localAnchorB=(0.6, 0.0), enableMotor=True,
                                            maxMotorTorque=40.0, motorSpeed=0.3))
    moon = world.CreateStaticBody(shapes=b2.b2EdgeShape(vertices=[(0, 0), (20, 0)]))
    world.Step(1 / 50, 180, 60)
    return [moon, lander, leg]


def test_a_dropped_world_whose_bodies_were_destroyed_goes_without_the_collector():
    """Gymnasium's reset: every body destroyed, the world dropped. Its engine world is kept
    for the next b2World of its settings (impulse2d._recycle), the only thing holding it, and
    its handles go by their reference counts; dropped from there, the world goes the same
    way: no cyclic garbage left, as Box2D's would."""
    import gc
    import weakref
    from impulse2d import _recycle
    from impulse2d.compat import box2d as b2
    _recycle.clear()
    world = b2.b2World(gravity=(0, -10))
    bodies = _lander_in(b2, world)
    handle = weakref.ref(bodies[1]._handle)
    for body in bodies:
        world.DestroyBody(body)
    engine = weakref.ref(world._world)
    was = gc.isenabled()
    gc.disable()
    try:
        del world, bodies, body
        assert handle() is None  # the handles freed at once, by reference counts
        assert [kept for kept, _ in _recycle._KEPT.values()] == [engine()]
        _recycle.clear()
        assert engine() is None  # freed at once, by reference counts
    finally:
        if was:
            gc.enable()


def test_a_world_the_program_took_or_holds_is_never_emptied():
    """``b2World.engine`` read, or the engine world held some other way, or live bodies
    left: the engine world keeps every handle, and the collector frees it when unreachable."""
    import gc
    import weakref
    from impulse2d.compat import box2d as b2
    world = b2.b2World(gravity=(0, -10))
    _lander_in(b2, world)
    engine = world.engine  # taken: the program may use it after the b2World goes
    del world
    gc.collect()
    assert len(engine.bodies) == 3 and len(engine.joints) == 1
    before = engine.bodies[1].position
    engine.step(1 / 50)
    assert engine.bodies[1].position[1] < before[1]  # it still falls
    # held through a private reference only, with its bodies destroyed: the count tells
    world = b2.b2World(gravity=(0, -10))
    bodies = _lander_in(b2, world)
    for body in bodies:
        world.DestroyBody(body)
    held = world._world
    del world, bodies, body
    assert len(held._body_handles) == 3  # (the destroys were queued: the rows still live)
    # live bodies left: not emptied, and still collected with the world
    world = b2.b2World(gravity=(0, -10))
    _lander_in(b2, world)
    engine = weakref.ref(world._world)
    del world
    gc.collect()
    assert engine() is None


def test_a_copied_or_restored_world_keeps_working_after_the_other_goes():
    import copy
    from impulse2d.compat import box2d as b2
    world = b2.b2World(gravity=(0, -10))
    bodies = _lander_in(b2, world)
    snap = world.snapshot()
    twin = copy.deepcopy(world)
    for body in bodies:
        world.DestroyBody(body)
    world.restore(snap)  # the bodies back, in the same engine world
    assert len(world.bodies) == 3
    del twin  # a copy going frees nothing of the original
    for _ in range(20):
        world.Step(1 / 50, 180, 60)
    assert len(world.bodies) == 3 and world.bodies[1].position.y < 13.3


@pytest.mark.parametrize("with_gear", [False, True])
def test_destroying_a_joint_or_a_body_forgets_the_gears_that_go_with_it(with_gear):
    """``DestroyJoint`` and ``DestroyBody`` forget the joints that go; a gear coupling one of
    them goes with it (the engine frees it), found by the search that a world without gears
    skips (``b2World._gears``): the same lists either way, and the world steps on."""
    from impulse2d.compat import box2d as b2
    world = b2.b2World(gravity=(0, -10))
    ground = world.CreateStaticBody(position=(0, 0))
    small = world.CreateDynamicBody(position=(0.0, 3.0))
    small.CreateCircleFixture(radius=1.0, density=5.0)
    big = world.CreateDynamicBody(position=(4.0, 3.0))
    big.CreateCircleFixture(radius=2.0, density=5.0)
    hinge1 = world.CreateRevoluteJoint(bodyA=ground, bodyB=small, anchor=(0.0, 3.0))
    hinge2 = world.CreateRevoluteJoint(bodyA=ground, bodyB=big, anchor=(4.0, 3.0))
    if with_gear:
        gear = world.CreateGearJoint(bodyA=small, bodyB=big, joint1=hinge1, joint2=hinge2,
                                     ratio=2.0)
    assert world._gears is with_gear
    assert world.jointCount == (3 if with_gear else 2)
    world.Step(1 / 60, 8, 3)
    world.DestroyJoint(hinge1)  # (the gear, on small and big, goes with it)
    assert world.joints == [hinge2] and world.jointCount == 1
    assert small.joints == [] and big.joints == [hinge2] and ground.joints == [hinge2]
    assert len(world.engine.joints) == 1
    for gone in (hinge1, gear) if with_gear else (hinge1,):
        with pytest.raises(ValueError, match="destroyed"):
            gone.bodyA
    world.Step(1 / 60, 8, 3)
    world.DestroyBody(ground)
    assert world.joints == [] and big.joints == [] and world.jointCount == 0
    world.Step(1 / 60, 8, 3)
    assert math.isfinite(big.angle) and big.position[1] < 3.0
