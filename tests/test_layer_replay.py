"""A recycled world's construction replayed from a template (``compat._b2replay``): the same
stores, Python state and episodes as the calls made one by one, bit for bit; a call with other
arguments, or a world changed between the calls, ends the replay."""

from __future__ import annotations

import numpy as np
import pytest

from impulse2d import _recycle
from impulse2d.compat import _b2replay, _b2world
from impulse2d.compat.box2d import (b2EdgeShape, b2FixtureDef, b2PolygonShape,
                                    b2RevoluteJointDef, b2World)


@pytest.fixture(autouse=True)
def _fresh():
    _recycle.clear()
    _b2replay.clear()
    yield
    _recycle.clear()
    _b2replay.clear()


def _lander(seed, hull_x=10.0, between=None):
    """A LunarLander-like world as Gymnasium's reset makes it: terrain edges of random
    heights, a hull with a random push, two legs on motorised revolute joints with limits
    (``between(world, hull)`` called after the hull is made)."""
    rng = np.random.default_rng(seed)
    world = b2World(gravity=(0, -10))
    heights = rng.uniform(0.0, 4.0, 12).tolist()
    moon = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(0, 0), (20, 0)]))
    for i in range(10):
        moon.CreateEdgeFixture(vertices=[(2.0 * i, heights[i]), (2.0 * i + 2.0, heights[i + 1])],
                               density=0, friction=0.1)
    hull = world.CreateDynamicBody(position=(hull_x, 9.0), fixtures=b2FixtureDef(
        shape=b2PolygonShape(vertices=[(-0.5, 0.3), (-0.6, 0.0), (-0.6, -0.3), (0.6, -0.3),
                                       (0.6, 0.0), (0.5, 0.3)]), density=5.0, friction=0.1))
    hull.ApplyForceToCenter((float(rng.uniform(-30, 30)), float(rng.uniform(-30, 30))), True)
    if between is not None:
        between(world, hull)
    bodies = [moon, hull]
    for side in (-1, 1):
        leg = world.CreateDynamicBody(position=(hull_x - side * 0.6, 9.0), angle=side * 0.05,
                                      fixtures=b2FixtureDef(shape=b2PolygonShape(
                                          box=(0.07, 0.3)), density=1.0))
        world.CreateJoint(b2RevoluteJointDef(
            bodyA=hull, bodyB=leg, localAnchorA=(0, 0), localAnchorB=(side * 0.6, 0.5),
            enableMotor=True, enableLimit=True, maxMotorTorque=40.0, motorSpeed=0.3 * side,
            lowerAngle=0.4 if side < 0 else -0.9, upperAngle=0.9 if side < 0 else -0.4))
        bodies.append(leg)
    return world, bodies


def _state(world) -> dict:
    """The engine world's stores, column by column, and the Python state a construction
    makes (pools, handles by class, row and generation, the body-shape and body-joint
    lists)."""
    e = world._world
    out = {f"{name}.{field}": column.copy() for name in ("_bodies", "_shapes", "_joints")
           for field, column in zip(getattr(e, name)._fields, getattr(e, name))}
    for name in ("_body_pool", "_shape_pool", "_joint_pool"):
        pool = getattr(e, name)
        out[name] = (list(pool._free), pool.high_water)
    for name in ("_body_handles", "_shape_handles", "_joint_handles"):
        out[name] = [(k, type(h), h._index, h._generation) for k, h in getattr(e, name).items()]
    for name in ("_body_shapes", "_body_joints", "_body_user_data", "_shape_user_data"):
        out[name] = {k: list(v) if isinstance(v, list) else v
                     for k, v in getattr(e, name).items()}
    out["awake"] = None if e._awake_state is None else e._awake_state.copy()
    out["flags"] = (e._pairs_dirty, e._live_rows, e._joint_index, e._query_index)
    return out


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for name in a:
        if isinstance(a[name], np.ndarray) and isinstance(b[name], np.ndarray):
            assert a[name].dtype == b[name].dtype and a[name].tobytes() == b[name].tobytes(), name
        else:
            assert a[name] == b[name], name


def _episode(seed, steps=150, **options):
    """The world's state once made, then its hull's path over ``steps`` steps, and the calls
    its construction tracked (None: not tracked, or the replay ended); the world's bodies
    destroyed and the world dropped after (as Gymnasium's LunarLander does)."""
    world, bodies = _lander(seed, **options)
    replay = world._replay
    made = _state(world)
    hull = bodies[1]
    out = []
    for k in range(steps):
        if k % 3 == 0:
            hull.ApplyLinearImpulse((0.0, 0.5), (hull.position[0] + 0.1, hull.position[1]), True)
        world.Step(1 / 50, 180, 60)
        out.append((*hull.position, hull.angle, *hull.linearVelocity, *bodies[2].position,
                    bodies[3].angle))
    for body in bodies:
        world.DestroyBody(body)
    return made, out, None if replay is None else replay.k


def _made_one_by_one(monkeypatch, seeds, **options):
    with monkeypatch.context() as m:
        m.setattr(_b2world, "start_replay", lambda b2world: None)
        _recycle.clear()
        return [_episode(seed, **options) for seed in seeds]


def _counted(monkeypatch) -> list:
    """The calls replayed (their signatures), as they are replayed."""
    calls = []
    apply = _b2replay._apply

    def counted(entry, *args):
        calls.append(entry.sig)
        return apply(entry, *args)

    monkeypatch.setattr(_b2replay, "_apply", counted)
    return calls


def test_a_replayed_construction_is_the_calls_made_one_by_one(monkeypatch):
    seeds = range(6)
    calls = _counted(monkeypatch)
    replayed = [_episode(seed) for seed in seeds]
    (template,) = _b2replay._TEMPLATES.values()
    # the moon's batch, the hull, its shape, and per leg a body, its shape and a joint
    assert len(template.entries) == 9
    # the first world is new, every later one recycled: the first of those records the
    # calls, the others replay every one
    assert [k for *_, k in replayed] == [None, 9, 9, 9, 9, 9]
    assert calls == [entry.sig for entry in template.entries] * 4
    made = _made_one_by_one(monkeypatch, seeds)
    assert all(k is None for *_, k in made)
    for (state, path, _), (state_made, path_made, _) in zip(replayed, made):
        _same(state, state_made)
        assert path == path_made
    # the terrains differ (the segments are written anew) and so do the paths (the pushes)
    assert replayed[2][0]["_shapes.vertices"].tobytes() != replayed[3][0]["_shapes.vertices"].tobytes()
    assert replayed[2][1] != replayed[3][1]
    # the physics: the hull falls until its legs stand on the terrain (at most 4 m high)
    for _, path, _ in replayed:
        assert 0.5 < path[-1][1] < 6.5


def test_a_call_with_other_arguments_ends_the_replay_at_that_call(monkeypatch):
    for seed in range(3):
        _episode(seed)
    calls = _counted(monkeypatch)
    state, path, k = _episode(3, hull_x=11.0)
    # the moon replayed; the hull made, and every call after it (the replay ended)
    assert len(calls) == 1 and k is None
    (made,) = _made_one_by_one(monkeypatch, [0, 1, 3], hull_x=11.0)[2:]
    _same(state, made[0])
    assert path == made[1]


def test_a_world_changed_between_the_calls_is_not_replayed_after_the_change(monkeypatch):
    def spin(world, hull):
        hull.angularVelocity = 0.5

    for seed in range(3):
        _episode(seed)
    calls = _counted(monkeypatch)
    state, path, k = _episode(3, between=spin)
    # the moon, the hull and its shape replayed; not the first leg (the replay ended)
    assert len(calls) == 3 and k is None
    (made,) = _made_one_by_one(monkeypatch, [0, 1, 3], between=spin)[2:]
    _same(state, made[0])
    assert path == made[1]
    assert made[0]["_bodies.w"][1] == 0.5
