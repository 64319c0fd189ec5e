"""Snapshots of a pybox2d world (``b2World.snapshot()``/``restore()``, issue 33 item 3): the
layer's bodies, fixtures and joints come back with the engine's state, bit for bit; objects
made after the snapshot are destroyed, and any use of them raises."""

from __future__ import annotations

import copy
import os
import sys

import numpy as np
import pytest

import impulse2d.compat.box2d as b2
from impulse2d.compat.box2d import (b2CircleShape, b2ContactListener, b2EdgeShape,
                                    b2PolygonShape, b2World)


class Counter(b2ContactListener):
    def __init__(self):
        super().__init__()
        self.begins = 0

    def BeginContact(self, contact):  # noqa: N802
        self.begins += 1


def _scene():
    """A ground, a stack of five boxes, a ball and a pendulum on a revolute joint."""
    world = b2World(gravity=(0, -10))
    world.contactListener = Counter()
    ground = world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-20, 0), (20, 0)]))
    boxes = [world.CreateDynamicBody(position=(0.05 * k, 0.5 + 1.0 * k))
             for k in range(5)]
    for box in boxes:
        box.CreatePolygonFixture(box=(0.5, 0.5), density=1.0, friction=0.6)
    ball = world.CreateDynamicBody(position=(3.0, 4.0))
    ball.CreateCircleFixture(radius=0.4, density=2.0)
    bob = world.CreateDynamicBody(position=(-4.0, 6.0))
    bob.CreateFixture(shape=b2CircleShape(radius=0.3), density=1.0)
    pin = world.CreateRevoluteJoint(bodyA=ground, bodyB=bob, anchor=(-6.0, 6.0))
    return world, ground, boxes, ball, bob, pin


def _poses(world):
    return np.array([(b.position.x, b.position.y, b.angle, b.linearVelocity.x,
                      b.linearVelocity.y, b.angularVelocity) for b in world.bodies])


def test_restore_brings_back_destroyed_objects_and_steps_to_the_same_bits():
    world, ground, boxes, ball, bob, pin = _scene()
    for _ in range(30):
        world.Step(1 / 60, 8, 3)
    ball.userData = "before"
    ball.flag = 1
    snap = world.snapshot()
    saved = _poses(world)
    counts = (world.bodyCount, world.jointCount, len(ball.fixtures), len(bob.joints))
    listener = world.contactListener

    # the original's next 60 steps from the snapshot
    expected = []
    for _ in range(60):
        world.Step(1 / 60, 8, 3)
        expected.append(_poses(world))
    world.restore(snap)
    assert np.array_equal(_poses(world), saved)

    # change everything: destroy a box, the ball and the joint, make new ones
    world.DestroyJoint(pin)
    world.DestroyBody(boxes[2])
    world.DestroyBody(ball)
    ball.flag = 2
    new = world.CreateDynamicBody(position=(5.0, 5.0))
    new.CreatePolygonFixture(box=(0.2, 0.2), density=1.0)
    new_fixture = new.fixtures[0]
    new_joint = world.CreateDistanceJoint(bodyA=ground, bodyB=new, anchorA=(5.0, 8.0),
                                          anchorB=(5.0, 5.0))
    for _ in range(20):
        world.Step(1 / 60, 8, 3)
    assert (world.bodyCount, world.jointCount) == (counts[0] - 1, 1)  # two gone, one made
    world.restore(snap)

    # the snapshot's objects are back, equal to their state then, to the bit
    assert (world.bodyCount, world.jointCount, len(ball.fixtures), len(bob.joints)) == counts
    assert np.array_equal(_poses(world), saved)
    assert world.bodies[-1] is bob and ball in world.bodies and boxes[2] in world.bodies
    assert world.joints == [pin] and pin.bodyB is bob
    assert ball.userData == "before" and ball.flag == 1
    assert world.contactListener is listener  # the program's object, held by reference
    assert ball.fixtures[0].body is ball and ball.fixtures[0].shape.radius == 0.4

    # objects made after the snapshot are destroyed: any use raises, naming them
    with pytest.raises(ValueError, match="b2Body was destroyed"):
        world.DestroyBody(new)
    with pytest.raises(ValueError, match="b2Body was destroyed"):
        new.position  # noqa: B018
    with pytest.raises(ValueError, match="b2Fixture was destroyed"):
        new_fixture.shape  # noqa: B018
    with pytest.raises(ValueError, match="DistanceJoint was destroyed"):
        world.DestroyJoint(new_joint)
    assert new not in world.bodies and new_joint not in world.joints

    # stepping the restored world gives the original's poses, bit for bit, for 60 steps
    for k in range(60):
        world.Step(1 / 60, 8, 3)
        assert np.array_equal(_poses(world), expected[k]), k

    # the restored objects are live: destroying them works and is counted
    world.DestroyBody(ball)
    assert world.bodyCount == counts[0] - 1


def test_restore_twice_revives_an_object_of_the_later_snapshot():
    world, ground, boxes, ball, bob, pin = _scene()
    first = world.snapshot()
    late = world.CreateDynamicBody(position=(8.0, 2.0))
    late.CreateCircleFixture(radius=0.5, density=1.0)
    world.Step(1 / 60, 8, 3)
    second = world.snapshot()
    position = (late.position.x, late.position.y)
    world.restore(first)
    with pytest.raises(ValueError, match="destroyed"):
        late.angle  # noqa: B018
    world.restore(second)
    assert (late.position.x, late.position.y) == position
    assert late in world.bodies and world.bodyCount == 9


def test_engine_restore_refuses_under_the_layer_and_bad_snapshots_change_nothing():
    world, ground, boxes, ball, bob, pin = _scene()
    engine_snap = world.engine.snapshot()
    with pytest.raises(ValueError, match=r"b2World\.restore"):
        world.engine.restore(engine_snap)
    with pytest.raises(TypeError, match="b2World.snapshot"):
        world.restore(engine_snap)
    other = b2World()
    with pytest.raises(ValueError, match="another b2World"):
        other.restore(world.snapshot())
    with pytest.raises(TypeError, match="pickle"):
        copy.deepcopy(world.snapshot())
    world.Step(1 / 60, 8, 3)
    before = _poses(world)
    with pytest.raises(TypeError):
        world.restore(None)
    assert np.array_equal(_poses(world), before)


def test_queued_static_bodies_are_made_by_the_snapshot():
    world = b2World()
    snap = world.snapshot()
    ground = world.CreateStaticBody(shapes=b2PolygonShape(box=(5, 0.5)))
    world.restore(snap)  # the queued body was made, then destroyed by the restore
    assert world.bodyCount == 0 and world.bodies == []
    with pytest.raises(ValueError, match="destroyed"):
        ground.position  # noqa: B018


# -- Gymnasium's LunarLander ------------------------------------------------------------------

@pytest.fixture
def gym_layer():
    gym = pytest.importorskip("gymnasium")
    pytest.importorskip("pygame")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

    def drop():
        for name in [m for m in sys.modules if m.startswith("gymnasium.envs.box2d")]:
            del sys.modules[name]
    drop()
    b2.install()
    yield gym
    b2.uninstall()
    drop()


def test_lunar_lander_restored_replays_the_same_observations(gym_layer):
    """Snapshot after reset, 50 steps, restore, the same 50 steps again: identical
    observations. The b2World restores the world's objects (with the legs' ground_contact
    flags, the layer's bodies' attributes); the environment's own state (its attributes, the
    particles list, its random generator, which the engines' dispersion draws from) is the
    program's, saved beside."""
    # (with a render mode, the engines' flames are particle bodies: made after the snapshot)
    env = gym_layer.make("LunarLander-v3", render_mode="rgb_array")
    u = env.unwrapped
    env.reset(seed=3)
    snap = u.world.snapshot()
    state = dict(vars(u))
    particles = list(u.particles)
    rng = copy.deepcopy(u.np_random.bit_generator.state)
    actions = [(k // 3) % 4 for k in range(50)]

    def run():
        out = []
        for a in actions:
            obs, reward, terminated, _, _ = env.step(a)
            out.append((obs.copy(), reward, terminated))
        return out

    first = run()
    assert len(u.particles) > 0  # the engines fired: particles made after the snapshot
    flames = list(u.particles)
    u.world.restore(snap)
    vars(u).clear()
    vars(u).update(state)
    u.particles[:] = particles
    u.np_random.bit_generator.state = rng
    with pytest.raises(ValueError, match="destroyed"):
        u.world.DestroyBody(flames[-1])
    second = run()
    for k, ((o1, r1, t1), (o2, r2, t2)) in enumerate(zip(first, second)):
        assert np.array_equal(o1, o2) and r1 == r2 and t1 == t2, k
    env.close()


def test_objects_made_and_destroyed_between_snapshot_and_restore_stay_destroyed():
    """A body made after the snapshot and destroyed before the restore: its row belongs to a
    restored body then, and reading it must raise rather than give that body's pose."""
    world, ground, boxes, ball, bob, pin = _scene()
    snap = world.snapshot()
    world.DestroyBody(ball)
    brief = world.CreateDynamicBody(position=(9.0, 9.0))  # takes the freed row
    brief.CreateCircleFixture(radius=0.1, density=1.0)
    fixture = brief.fixtures[0]
    brief.DestroyFixture(fixture)
    with pytest.raises(ValueError, match="b2Fixture was destroyed"):
        fixture.body  # noqa: B018
    world.DestroyBody(brief)
    with pytest.raises(ValueError, match="b2Body was destroyed"):
        brief.position  # noqa: B018
    world.restore(snap)
    assert ball.position.x == 3.0 and ball in world.bodies
    with pytest.raises(ValueError, match="b2Body was destroyed"):
        brief.position  # noqa: B018
    world.DestroyJoint(pin)
    with pytest.raises(ValueError, match="RevoluteJoint was destroyed"):
        pin.bodyA  # noqa: B018


def test_world_attributes_set_after_the_snapshot_go_with_the_restore():
    world, *_ = _scene()
    world.level = 1
    snap = world.snapshot()
    world.level = 2
    world.score = 10
    world.restore(snap)
    assert world.level == 1 and not hasattr(world, "score")


def test_deepcopy_and_pickle_of_a_b2world_step_as_the_original():
    import pickle
    world, *_ = _scene()
    world.contactListener = None  # (a test-local class: pickled by reference all the same)
    for _ in range(30):
        world.Step(1 / 60, 8, 3)
    copies = [copy.deepcopy(world), pickle.loads(pickle.dumps(world))]
    assert all(c.bodyCount == world.bodyCount and c.jointCount == 1 for c in copies)
    assert all(c.bodies[1] is not world.bodies[1] and c.bodies[1]._b2world is c for c in copies)
    for _ in range(60):
        for w in (world, *copies):
            w.Step(1 / 60, 8, 3)
    assert all(np.array_equal(_poses(c), _poses(world)) for c in copies)
