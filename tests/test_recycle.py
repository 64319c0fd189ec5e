"""A dropped ``b2World``'s engine world made new for the next ``b2World`` of the same settings
(``impulse2d._recycle``): the same world as a new one, store for store and step for step, bit
for bit; kept only when nothing else holds it or its handles."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from impulse2d import _recycle
from impulse2d.compat import _b2world
from impulse2d.compat.box2d import (b2EdgeShape, b2FixtureDef, b2PolygonShape,
                                    b2RevoluteJointDef, b2World)
from impulse2d.world import World


@pytest.fixture(autouse=True)
def _empty_pool():
    _recycle.clear()
    yield
    _recycle.clear()


def _lander(seed):
    """A LunarLander-like world: terrain edges of random heights, a hull and two legs on
    motorised revolute joints with limits, a push; as Gymnasium's reset makes it."""
    rng = np.random.default_rng(seed)
    world = b2World(gravity=(0, -10))
    heights = rng.uniform(0.0, 4.0, 12).tolist()
    moon = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0, 0), (20, 0)]))
    for i in range(10):
        moon.CreateEdgeFixture(vertices=[(2.0 * i, heights[i]), (2.0 * i + 2.0, heights[i + 1])],
                               density=0, friction=0.1)
    hull = world.CreateDynamicBody(position=(10.0, 9.0), fixtures=b2FixtureDef(
        shape=b2PolygonShape(vertices=[(-0.5, 0.3), (-0.6, 0.0), (-0.6, -0.3), (0.6, -0.3),
                                       (0.6, 0.0), (0.5, 0.3)]), density=5.0, friction=0.1))
    hull.ApplyForceToCenter((float(rng.uniform(-30, 30)), float(rng.uniform(-30, 30))), True)
    bodies = [moon, hull]
    for side in (-1, 1):
        leg = world.CreateDynamicBody(position=(10.0 - side * 0.6, 9.0), angle=side * 0.05,
                                      fixtures=b2FixtureDef(shape=b2PolygonShape(
                                          box=(0.07, 0.3)), density=1.0))
        world.CreateJoint(b2RevoluteJointDef(
            bodyA=hull, bodyB=leg, localAnchorA=(0, 0), localAnchorB=(side * 0.6, 0.5),
            enableMotor=True, enableLimit=True, maxMotorTorque=40.0, motorSpeed=0.3 * side,
            lowerAngle=0.4 if side < 0 else -0.9, upperAngle=0.9 if side < 0 else -0.4))
        bodies.append(leg)
    return world, bodies


def _episode(seed, steps=250):
    """Observations of one episode (a world made, stepped with engine pushes, then its
    bodies destroyed and the world dropped, as Gymnasium's LunarLander does)."""
    world, bodies = _lander(seed)
    hull = bodies[1]
    out = []
    for k in range(steps):
        if k % 3 == 0:  # an engine's push, a quarter of the weight's impulse a step
            hull.ApplyLinearImpulse((0.0, 0.5), (hull.position[0] + 0.1, hull.position[1]), True)
        world.Step(1 / 50, 180, 60)
        out.append((*hull.position, hull.angle, *hull.linearVelocity, hull.angularVelocity,
                    *bodies[2].position, *bodies[3].position))
    engine = id(world._world)
    for body in bodies:
        world.DestroyBody(body)
    return out, engine


def test_episodes_on_recycled_worlds_are_those_of_new_worlds_bit_for_bit(monkeypatch):
    recycled = []
    for seed in range(5):
        recycled.append(_episode(seed))
    # at least the later worlds were recycled ones (the one dropped two episodes before)
    assert len({engine for _, engine in recycled}) < 5
    monkeypatch.setattr(_b2world, "take", lambda *args: None)
    for seed in range(5):
        out, _ = _episode(seed)
        assert out == recycled[seed][0]
    # the physics: the hull falls until the legs touch the terrain (at most 4 m high), lands
    # and comes to rest there
    for out, _ in recycled:
        assert 0.5 < out[-1][1] < 6.0
        assert abs(out[-1][3]) < 0.2 and abs(out[-1][4]) < 0.2


def test_a_recycled_world_is_a_new_worlds_stores_and_keeps_its_step_reference():
    _episode(0)
    _episode(1)
    assert len(_recycle._KEPT) == 1
    ref = next(iter(_recycle._KEPT.values()))[0]._stores
    world = b2World(gravity=(0, -10))
    e = world._world
    assert e._stores is ref and not _recycle._KEPT  # taken, its reference kept
    fresh = World(gravity=(0.0, -10.0), **b2World.engine_settings)
    for name in ("_bodies", "_shapes", "_joints", "_contacts", "_constraints"):
        for mine, theirs in zip(getattr(e, name), getattr(fresh, name)):
            assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
            assert np.array_equal(mine, theirs)
    assert e.body_count == 0 and e.time == 0.0 and e.step_count == 0 and not e.joints
    assert e._settings.enable_sleep and e._settings.solver == "pgs_block"
    assert e._uid != fresh._uid


def _packed_world_checked():
    """A taken world's stores checked as views of one buffer, equal to ``World()``'s."""
    world = b2World(gravity=(0, -10))
    e = world._world
    columns = [c for name in ("_bodies", "_shapes", "_joints") for c in getattr(e, name)]
    base = columns[0].base
    while base.base is not None:
        base = base.base
    fresh = World(gravity=(0.0, -10.0), **b2World.engine_settings)
    others = [c for name in ("_bodies", "_shapes", "_joints") for c in getattr(fresh, name)]
    for mine, theirs in zip(columns, others):
        assert np.shares_memory(mine, base)
        assert mine.flags.c_contiguous and mine.flags.aligned and mine.flags.writeable
        assert mine.__array_interface__["data"][0] % _recycle.ALIGN == 0
        assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
        assert np.array_equal(mine, theirs)
    built = e._stores_built_from
    assert built[0] is e._bodies and built[1] is e._shapes and built[2] is e._joints
    engine = id(e)
    del e, built  # (the layer's alone, then dropped: kept again)
    del world
    return engine


def test_a_world_taken_again_zeroes_its_stores_in_one_buffer():
    """The first take lays a kept world's stores out as views of one buffer (each column
    64-byte aligned, C-contiguous, of its dtype and shape), with a reference built for them;
    a later take zeroes that buffer and keeps that reference; episodes on it are a new
    world's, bit for bit."""
    for seed in range(3):
        _episode(seed)
    packed = _packed_world_checked()
    assert len(_recycle._KEPT) == 1  # (kept again when its b2World went)
    out, engine = _episode(7)  # (on the packed stores, then kept again)
    assert engine == packed
    ref = next(iter(_recycle._KEPT.values()))[0]._stores
    assert _packed_world_checked() == packed
    assert next(iter(_recycle._KEPT.values()))[0]._stores is ref  # zeroed, its reference kept
    _recycle.clear()
    assert _episode(7)[0] == out


def test_a_world_whose_handle_or_engine_is_held_is_not_recycled():
    world, bodies = _lander(0)
    world.Step(1 / 50, 180, 60)
    held = bodies[1]._handle  # the program holds an engine handle
    for body in bodies:
        world.DestroyBody(body)
    del world, bodies
    gc.collect()
    assert not _recycle._KEPT
    assert held._world is not None
    world, bodies = _lander(1)
    world.Step(1 / 50, 180, 60)
    engine = world.engine  # the program took the engine
    del world, bodies
    gc.collect()
    assert not _recycle._KEPT and engine.body_count == 4


def test_other_settings_take_another_world_or_a_new_one():
    made = [_lander(0), _lander(1)]
    made[1][0].allowSleeping = False  # (a world without sleeping is not kept)
    for world, bodies in made:
        world.Step(1 / 50, 180, 60)
        for body in bodies:
            world.DestroyBody(body)
    del made, world, bodies
    gc.collect()
    assert len(_recycle._KEPT) == 1
    world = b2World(gravity=(0, -10), doSleep=False)  # another key: a new world
    assert len(_recycle._KEPT) == 1 and world._world._stores is None
    world = b2World(gravity=(0, -5))  # the same key, another gravity: taken
    assert not _recycle._KEPT and world._world._stores is not None
    assert tuple(world.gravity) == (0.0, -5.0)
    body = world.CreateDynamicBody(position=(0.0, 0.0), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.5, 0.5)), density=1.0))
    for _ in range(50):
        world.Step(1 / 50, 8, 3)
    # free fall at 5 m/s^2 for 1 s (semi-implicit Euler: v = g t, y = g dt^2 n (n + 1) / 2)
    assert body.linearVelocity[1] == pytest.approx(-5.0, rel=1e-9)
    assert body.position[1] == pytest.approx(-5.0 * (1 / 50) ** 2 * 50 * 51 / 2, rel=1e-9)


def test_a_kept_world_whose_settings_were_changed_comes_back_with_a_new_worlds_settings():
    """The layer's own setters (here ``warmStarting``) change the engine's settings: the kept
    world is taken for its arrays, with a new world's settings, table and reference, and its
    maker's sweeps are not handed over."""
    world, bodies = _lander(0)
    world.warmStarting = False
    world.Step(1 / 50, 180, 60)
    for body in bodies:
        world.DestroyBody(body)
    del world, bodies
    gc.collect()
    assert len(_recycle._KEPT) == 1
    world = b2World(gravity=(0, -10))
    e = world._world
    assert not _recycle._KEPT and e._stores is None and e._verbs_for == (None, None)
    assert e._settings.warm_starting is True and e._settings.velocity_iterations == 8
    assert world._iterations == (8, 3)
    fresh_out, _ = _episode(3)
    _recycle.clear()
    again, _ = _episode(3)
    assert fresh_out == again


def test_the_capacities_kept_are_a_new_worlds():
    """``_recycle.ROWS`` are ``World()``'s store capacities (a world of any other is not kept,
    and a world whose stores were not lent back gets a new world's settings and sweeps)."""
    w = World()
    assert (w._bodies.alive.shape[0], w._shapes.alive.shape[0],
            w._joints.alive.shape[0]) == _recycle.ROWS


def _sweeps_episode(velocity_iterations, position_iterations, steps=120):
    """A box dropped on a ramp of edges, stepped with the given sweeps: its states."""
    world = b2World(gravity=(0, -10))
    ground = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-10, 0), (10, 0)]))
    ground.CreateEdgeFixture(vertices=[(-10, 2), (0, 0)], density=0, friction=0.3)
    box = world.CreateDynamicBody(position=(-4.0, 3.0), angle=0.3, fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.5, 0.25)), density=2.0, friction=0.3))
    top = world.CreateDynamicBody(position=(-4.0, 4.0), fixtures=b2FixtureDef(
        shape=b2PolygonShape(box=(0.3, 0.3)), density=1.0, friction=0.6))
    out = []
    for _ in range(steps):
        world.Step(1 / 60, velocity_iterations, position_iterations)
        out.append((*box.position, box.angle, *top.position, top.angle))
    for body in (ground, box, top):
        world.DestroyBody(body)
    return out


def test_a_recycled_world_steps_with_its_makers_sweeps_not_the_kept_ones():
    """The sweeps are the one setting a kept world hands over (the maker sets them each Step):
    a world taken after an episode of 180/60 sweeps and stepped with 2/1 is a new world
    stepped with 2/1, bit for bit (the kernel reads the settings row the reference shares)."""
    _sweeps_episode(180, 60)
    gc.collect()
    assert len(_recycle._KEPT) == 1
    recycled = _sweeps_episode(2, 1)
    _recycle.clear()
    fresh = _sweeps_episode(2, 1)
    _recycle.clear()
    many = _sweeps_episode(180, 60)
    assert recycled == fresh
    # the sweeps matter in this scene (else the test could not tell a stale row)
    assert fresh != many
    # the physics: both boxes come to rest on the ramp or the floor, above it
    assert all(y > 0.0 for y in (fresh[-1][1], fresh[-1][4]))


_STORES = ("_bodies", "_shapes", "_joints", "_contacts", "_constraints")


def _world_state(engine, stepped=True) -> dict:
    """Everything of an engine world that a new world and a recycled one must share, in
    comparable form: every store column's bytes (with its dtype and shape), the settings'
    fields and the packed settings row (before its first ``Step``, the fields but the sweeps,
    which the layer sets at each ``Step``, and not the row, which the step writes before it
    reads it: a recycled world keeps both from its last step until then), the length
    tolerances, the pools, the attribute names, the gravity, the clock of time and steps, the
    state hash."""
    d = vars(engine)
    skipped = ("_lock",) if stepped else _recycle._NOT_COMPARED
    state = {"names": sorted(d), "hash": engine.state_hash(),
             "settings": {k: v for k, v in vars(engine._settings).items() if k not in skipped},
             "step_settings": engine._step_settings.tobytes() if stepped else None,
             "lengths": np.asarray(engine._lengths).tobytes(),
             "gravity": engine.gravity, "time": engine.time, "steps": engine.step_count,
             "pools": [dict(vars(d[name]))
                       for name in ("_body_pool", "_shape_pool", "_joint_pool")]}
    for name in _STORES:
        store = getattr(engine, name)
        for field, column in zip(store._fields, store):
            state[f"{name}.{field}"] = (column.dtype.str, column.shape, column.tobytes())
    return state


def _built(seed, steps):
    """``_lander(seed)`` stepped ``steps`` times: the engine world's state as made, and after."""
    world, bodies = _lander(seed)
    made = _world_state(world._world, stepped=False)
    for _ in range(steps):
        world.Step(1 / 50, 6, 2)
    after = _world_state(world._world)
    engine = id(world._world)
    for body in bodies:
        world.DestroyBody(body)
    return made, after, engine


def test_a_recycled_world_is_a_new_world_column_for_column_and_setting_for_setting(
        monkeypatch):
    """The same episode built on a recycled world (``World._renew`` on the kept stores, the
    settings, table and reference kept) and on a new world: every store column byte for byte,
    every settings field, the packed settings row, the pools and the attribute names the same,
    as made and after 40 steps; and for a world taken empty, before anything is made in it."""
    for seed in range(3):  # (the third takes a packed world: the later ones zero it in place)
        _built(seed, 40)
    assert len(_recycle._KEPT) == 1
    kept = id(next(iter(_recycle._KEPT.values()))[0])
    world = b2World(gravity=(0, -10))
    empty = _world_state(world._world, stepped=False)
    del world  # (kept again)
    recycled = [_built(seed, 40) for seed in (5, 6)]
    assert {engine for _, _, engine in recycled} == {kept}
    monkeypatch.setattr(_b2world, "take", lambda *args: None)
    new_empty = _world_state(b2World(gravity=(0, -10))._world, stepped=False)
    new = [_built(seed, 40) for seed in (5, 6)]
    assert kept not in {engine for _, _, engine in new}
    for mine, theirs in [(empty, new_empty)] + [pair for r, n in zip(recycled, new)
                                                for pair in zip(r[:2], n[:2])]:
        assert mine.keys() == theirs.keys()
        for name in mine:
            assert mine[name] == theirs[name], name
    # the episodes moved: the hull fell (else the comparison after the steps shows nothing)
    assert recycled[0][1]["hash"] != recycled[0][0]["hash"]
