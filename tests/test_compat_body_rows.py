"""The pybox2d layer's pushes through flat views of the body store (``compat._b2rows``):
``ApplyLinearImpulse``, ``ApplyForceToCenter`` and ``ApplyForce`` give what the engine's own
``Body`` calls give, bit for bit, on the right row after the store grew, was restored or
copied, and leave sleeping, static and kinematic bodies as Box2D does."""

from __future__ import annotations

import copy
import pickle

import pytest

from impulse2d.compat.box2d import b2EdgeShape, b2FixtureDef, b2PolygonShape, b2World


def _world():
    world = b2World(gravity=(0, -10))
    world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-10, 0), (10, 0)]))
    box = world.CreateDynamicBody(position=(0.5, 3.0), angle=0.3, fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.5, 0.25)), density=2.0))
    return world, box


def _state(body):
    return (tuple(body.position), body.angle, tuple(body.linearVelocity), body.angularVelocity)


def test_an_impulse_is_the_engine_bodys_impulse_bit_for_bit_and_turns_by_r_cross_j():
    """The layer's impulse and the engine's ``Body.apply_linear_impulse`` leave the same
    velocities (to the bit) and so the same motion; the change is J / m and (r x J) / I."""
    world_a, a = _world()
    world_b, b = _world()
    v0, w0 = a.linearVelocity, a.angularVelocity
    a.ApplyLinearImpulse((1.5, -2.0), (0.0, 3.2), True)
    b._handle.apply_linear_impulse((1.5, -2.0), (0.0, 3.2))
    assert _state(a) == _state(b)
    c = a.worldCenter
    r = (0.0 - c[0], 3.2 - c[1])
    assert a.linearVelocity[0] - v0[0] == pytest.approx(1.5 / a.mass, rel=1e-12)
    assert a.linearVelocity[1] - v0[1] == pytest.approx(-2.0 / a.mass, rel=1e-12)
    # the inertia about the centre of mass: Box2D's GetInertia is about the origin
    i_center = a._handle.inertia
    assert a.angularVelocity - w0 == pytest.approx((r[0] * -2.0 - r[1] * 1.5) / i_center,
                                                   rel=1e-12)
    for _ in range(40):
        world_a.Step(1 / 60, 8, 3)
        world_b.Step(1 / 60, 8, 3)
    assert _state(a) == _state(b)


def test_a_force_accumulates_and_acts_over_the_step_as_the_engines_force():
    """``ApplyForceToCenter`` twice adds up (F dt / m over one step, gravity aside) and moves
    the body as the engine's ``apply_force`` does, bit for bit; ``ApplyForce`` off the centre
    adds the torque r x F."""
    world_a, a = _world()
    world_b, b = _world()
    a.ApplyForceToCenter((3.0, 1.0), True)
    a.ApplyForceToCenter((1.0, 1.0), True)
    b._handle.apply_force((3.0, 1.0))
    b._handle.apply_force((1.0, 1.0))
    world_a.Step(1 / 60, 8, 3)
    world_b.Step(1 / 60, 8, 3)
    assert _state(a) == _state(b)
    assert a.linearVelocity[0] == pytest.approx(4.0 / a.mass / 60, rel=1e-9)
    world_c, c = _world()
    world_d, d = _world()
    p = (c.worldCenter[0] + 0.2, c.worldCenter[1] + 0.1)
    c.ApplyForce((0.0, 5.0), p, True)
    d._handle.apply_force((0.0, 5.0), p)
    assert c._w._bodies.torque[c._i] == pytest.approx(0.2 * 5.0, rel=1e-12)
    world_c.Step(1 / 60, 8, 3)
    world_d.Step(1 / 60, 8, 3)
    assert _state(c) == _state(d)


def test_pushes_reach_the_right_row_after_the_store_grew():
    """Bodies made after a push grow the body store (16 rows, then 32): the next push goes to
    the new store, the one the step reads, and to the pushed body's row alone."""
    world, box = _world()
    box.ApplyLinearImpulse((0.5, 0.0), (0.5, 3.0), True)
    store = box._w._bodies
    others = [world.CreateDynamicBody(position=(float(k) - 10.0, 8.0), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.2, 0.2)), density=1.0)) for k in range(20)]
    assert box._w._bodies is not store  # (grown)
    before = [tuple(o.linearVelocity) for o in others]
    v = box.linearVelocity
    box.ApplyLinearImpulse((0.0, 4.0), box.worldCenter, True)
    assert box.linearVelocity[1] == pytest.approx(v[1] + 4.0 / box.mass, rel=1e-12)
    assert [tuple(o.linearVelocity) for o in others] == before
    others[-1].ApplyForceToCenter((0.0, 100.0), True)
    world.Step(1 / 60, 8, 3)
    assert others[-1].linearVelocity[1] > others[-2].linearVelocity[1] + 1.0


def test_a_sleeping_body_wakes_for_a_push_unless_told_not_to():
    """Box2D's rule: with ``wake=False`` a sleeping body ignores the push; with ``wake=True``
    it wakes and takes it. Static and kinematic bodies take no push."""
    world, box = _world()
    for _ in range(300):
        world.Step(1 / 60, 8, 3)
    assert not box.awake
    box.ApplyLinearImpulse((1.0, 0.0), box.worldCenter, False)
    box.ApplyForceToCenter((50.0, 0.0), False)
    assert not box.awake and tuple(box.linearVelocity) == (0.0, 0.0)
    assert box._w._bodies.force[box._i].tolist() == [0.0, 0.0]
    box.ApplyLinearImpulse((1.0, 0.0), box.worldCenter, True)
    assert box.awake and box.linearVelocity[0] == pytest.approx(1.0 / box.mass, rel=1e-12)
    ground = world.bodies[0]
    ground.ApplyLinearImpulse((1.0, 0.0), (0.0, 0.0), True)
    ground.ApplyForceToCenter((1.0, 0.0), True)
    assert tuple(ground.linearVelocity) == (0.0, 0.0)
    assert ground._w._bodies.force[ground._i].tolist() == [0.0, 0.0]
    kinematic = world.CreateKinematicBody(position=(3.0, 3.0), linearVelocity=(1.0, 0.0))
    kinematic.ApplyLinearImpulse((5.0, 5.0), (3.0, 3.0), True)
    assert tuple(kinematic.linearVelocity) == (1.0, 0.0)


def test_pushes_after_a_restore_a_copy_and_a_pickle_act_on_each_worlds_own_store():
    """A restore, ``copy.deepcopy`` and a pickle round trip each leave a world whose pushes
    act on its own store: the copies move alike and the original is untouched by theirs."""
    world, box = _world()
    snap = world.snapshot()
    box.ApplyLinearImpulse((2.0, 0.0), box.worldCenter, True)
    world.restore(snap)
    assert tuple(box.linearVelocity) == (0.0, 0.0)
    box.ApplyLinearImpulse((2.0, 0.0), box.worldCenter, True)
    assert box.linearVelocity[0] == pytest.approx(2.0 / box.mass, rel=1e-12)
    twin = copy.deepcopy(world)
    thawed = pickle.loads(pickle.dumps(world))
    moved = []
    for w in (twin, thawed):
        body = w.bodies[1]
        body.ApplyLinearImpulse((0.0, 3.0), body.worldCenter, True)
        w.Step(1 / 60, 8, 3)
        moved.append(_state(body))
    assert moved[0] == moved[1]
    assert box.linearVelocity[1] == 0.0  # the original's store untouched
    box.ApplyLinearImpulse((0.0, 3.0), box.worldCenter, True)
    world.Step(1 / 60, 8, 3)
    assert _state(box) == moved[0]


def test_a_bad_push_is_refused_naming_it_and_changes_nothing():
    world, box = _world()
    before = _state(box)
    with pytest.raises(ValueError, match="force"):
        box.ApplyForceToCenter((float("nan"), 0.0), True)
    with pytest.raises(TypeError, match="force"):
        box.ApplyForceToCenter(("a", 0.0), True)
    with pytest.raises(ValueError, match="point"):
        box.ApplyForce((1.0, 0.0), (float("inf"), 0.0), True)
    assert box._w._bodies.force[box._i].tolist() == [0.0, 0.0]
    assert box._w._bodies.torque[box._i] == 0.0
    assert _state(box) == before
