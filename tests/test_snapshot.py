"""Snapshots, restore, pickle and deepcopy (issue 15 item 3): a world brought back by any of
them steps to exactly the bits of the original, every array of every store compared with
``np.array_equal`` and the state hash, over 600 steps of a scene with contacts, every joint
type, a sensor, events and sleeping bodies; handles, user data and settings survive; a bad
snapshot raises and changes nothing."""

from __future__ import annotations

import copy
import gc
import math
import pickle
from typing import NamedTuple

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.snapshot import Snapshot, _is_store

DT = 1.0 / 60.0
STEPS = 600
SNAP_AT = 150  # the pile on the right is asleep then, the machine still moving


def _box(world, position, half=0.5, **kwargs):
    body = world.create_body(position=position, **kwargs)
    body.create_box(half, half)
    return body


def busy_world(**settings):
    """Contacts (a pyramid), a pile that falls asleep and is hit by a ball at 4 s, a sensor,
    contact and body events, and every joint type, some with motors, limits and springs."""
    world = i2d.World(enable_contact_events=True, enable_body_events=True, **settings)
    ground = world.create_body(type="static", user_data={"name": "ground"})
    ground.create_box(60.0, 0.5, center=(0.0, -0.5))
    ground.create_box(1.0, 1.0, center=(-12.0, 1.0), is_sensor=True)  # a sensor on the floor
    for row in range(4):                                          # pyramid: contacts
        for k in range(4 - row):
            _box(world, (-10.0 + k - (3 - row) / 2.0, 0.5 + 1.01 * row), user_data=(row, k))
    for k in range(3):                                            # a pile that falls asleep
        _box(world, (30.0, 0.5 + 1.01 * k))
    ball = world.create_body(position=(30.0, 40.0), user_data="ball")  # wakes the pile at ~3 s
    ball.create_circle(0.4, density=4.0)
    # every joint type
    hub = world.create_body(type="static", position=(0.0, 12.0))
    arm = _box(world, (1.5, 12.0), half=0.3)
    hinge = world.create_revolute_joint(hub, arm, (0.0, 12.0), enable_motor=True,
                                        motor_speed=1.0, max_motor_torque=50.0)
    bob = _box(world, (1.5, 9.0), half=0.2)
    world.create_distance_joint(arm, bob, (1.5, 12.0), (1.5, 9.0), enable_spring=True,
                                hertz=2.0, damping_ratio=0.1)
    slider = _box(world, (6.0, 8.0), half=0.3)
    rail = world.create_prismatic_joint(hub, slider, (6.0, 8.0), (1.0, 0.2), enable_limit=True,
                                        lower=-2.0, upper=2.0, enable_spring=True, hertz=1.0,
                                        damping_ratio=0.2)
    glued = _box(world, (6.0, 7.0), half=0.3)
    world.create_weld_joint(slider, glued, (6.0, 7.5), angular_hertz=3.0,
                            angular_damping_ratio=0.5)
    chassis = _box(world, (12.0, 2.0), half=0.6)
    wheel = world.create_body(position=(12.0, 0.8))
    wheel.create_circle(0.4)
    world.create_wheel_joint(chassis, wheel, (12.0, 0.8), (0.0, 1.0), enable_motor=True,
                             motor_speed=-3.0, max_motor_torque=20.0)
    dragged = _box(world, (-4.0, 6.0), half=0.3)
    world.create_mouse_joint(dragged, (-4.0, 6.0), max_force=500.0).target = (-3.0, 7.0)
    follower = _box(world, (-6.0, 8.0), half=0.3)
    world.create_motor_joint(dragged, follower, max_force=200.0, max_torque=50.0)
    left, right = _box(world, (18.0, 6.0), half=0.3), _box(world, (21.0, 6.0), half=0.3)
    world.create_pulley_joint(left, right, (18.0, 10.0), (21.0, 10.0), (18.0, 6.0),
                              (21.0, 6.0), ratio=1.5)
    cog = world.create_body(position=(-1.5, 14.0))
    cog.create_circle(0.5)
    axle = world.create_revolute_joint(hub, cog, (-1.5, 14.0))
    world.create_gear_joint(hinge, axle, ratio=2.0)
    world.create_gear_joint(axle, rail, ratio=0.5)
    return world


def stored_arrays(world) -> dict[str, np.ndarray]:
    """Every column of every store of ``world``, by ``store.column``."""
    return {f"{name}.{field}": column for name, store in vars(world).items()
            if _is_store(store) for field, column in zip(store._fields, store)}


def assert_same_state(a, b):
    arrays_a, arrays_b = stored_arrays(a), stored_arrays(b)
    assert arrays_a.keys() == arrays_b.keys()
    for key in arrays_a:
        assert np.array_equal(arrays_a[key], arrays_b[key]), key
    assert a.state_hash() == b.state_hash()
    assert (a.time, a.step_count, a._sleepers) == (b.time, b.step_count, b._sleepers)


def run(world, steps):
    for _ in range(steps):
        world.step(DT)


@pytest.fixture(scope="module")
def reference():
    """The busy world at SNAP_AT with its snapshot, and its state hash and arrays at STEPS."""
    world = busy_world()
    run(world, SNAP_AT)
    snap = world.snapshot()
    pile = [b for b in world.bodies if b.type == i2d.BodyType.DYNAMIC and b.position.x > 25
            and b.user_data != "ball"]
    asleep = [not b.is_awake for b in pile]
    woken = 0
    for _ in range(STEPS - SNAP_AT):
        world.step(DT)
        woken = max(woken, sum(b.is_awake for b in pile))
    return world, snap, (asleep, woken)


def test_the_scene_has_what_the_test_needs(reference):
    world, snap, (asleep, woken) = reference
    assert asleep == [True] * 3                   # the pile sleeps when the snapshot is taken
    assert woken == 3                             # and the ball wakes it after
    assert {type(j).__name__ for j in world.joints} == {
        "RevoluteJoint", "DistanceJoint", "PrismaticJoint", "WeldJoint", "WheelJoint",
        "MouseJoint", "MotorJoint", "PulleyJoint", "GearJoint"}
    assert len(world.contacts) > 10


def test_restore_replays_bit_identically(reference):
    original, snap, _ = reference
    world = busy_world()
    run(world, SNAP_AT)
    mid = world.snapshot()
    run(world, 200)                               # on past the snapshot (the ball lands) ...
    world.restore(mid)                            # ... and back
    assert world.step_count == SNAP_AT
    run(world, STEPS - SNAP_AT)
    assert_same_state(world, original)
    world.restore(mid)                            # a snapshot restores as often as wanted
    run(world, STEPS - SNAP_AT)
    assert_same_state(world, original)


@pytest.mark.parametrize("how", ["pickle world", "pickle snapshot", "deepcopy", "copy"])
def test_copies_replay_bit_identically(reference, how):
    original, _, _ = reference
    world = busy_world()
    run(world, SNAP_AT)
    if how == "pickle world":
        clone = pickle.loads(pickle.dumps(world))
    elif how == "deepcopy":
        clone = copy.deepcopy(world)
    elif how == "copy":
        clone = copy.copy(world)
    else:
        clone = world
        snap = pickle.loads(pickle.dumps(world.snapshot()))
        run(world, 100)
        world.restore(snap)
    if clone is not world:
        assert clone._uid != world._uid and clone.bodies[0]._world is clone
        run(world, 10)                            # the copy does not share the original's arrays
    run(clone, STEPS - SNAP_AT)
    assert_same_state(clone, original)


def test_restore_right_after_creation_and_before_any_step():
    world = busy_world()
    snap = world.snapshot()
    run(world, 30)
    world.restore(snap)
    run(world, 30)
    fresh = busy_world()
    run(fresh, 30)
    assert_same_state(world, fresh)


def test_handles_user_data_and_settings_survive():
    world = busy_world(substeps=6, solver="soft_step", friction_mixing="max")
    world.gravity = (0.5, -9.0)
    run(world, 20)
    ball = next(b for b in world.bodies if b.user_data == "ball")
    joints = world.joints
    snap = world.snapshot()
    extra = world.create_body(position=(0.0, 30.0))
    extra.create_circle(0.5)
    world.destroy_body(ball)
    world.settings.substeps = 2
    world.gravity = (0.0, 0.0)
    assert not ball.is_valid
    world.restore(snap)
    assert ball.is_valid and ball.user_data == "ball"        # the very handle, valid again
    assert not extra.is_valid                                  # made after the snapshot
    assert any(b is ball for b in world.bodies)
    assert [j for j in world.joints] == joints and all(j.is_valid for j in joints)
    assert world.settings.substeps == 6 and world.settings.friction_mixing == "max"
    assert tuple(world.gravity) == (0.5, -9.0)
    # unpickled and deep-copied worlds: handles of the new world, user data and settings
    for clone in (pickle.loads(pickle.dumps(world)), copy.deepcopy(world)):
        assert [b.user_data for b in clone.bodies] == [b.user_data for b in world.bodies]
        assert all(b._world is clone for b in clone.bodies)
        assert [type(j) for j in clone.joints] == [type(j) for j in joints]
        assert clone.settings == world.settings and clone.settings is not world.settings
        assert tuple(clone.gravity) == (0.5, -9.0)
        assert [s.user_data for s in clone.shapes] == [s.user_data for s in world.shapes]
    # deepcopy copies user data (and a handle held in it becomes the copy's handle)
    ball.user_data = {"partner": world.bodies[1], "list": [1, 2]}
    clone = copy.deepcopy(world)
    data = clone.bodies[world.bodies.index(ball)].user_data
    assert data == {"partner": clone.bodies[1], "list": [1, 2]}
    assert data["partner"] is clone.bodies[1] and data["list"] is not ball.user_data["list"]
    # a snapshot holds user data by reference
    snap = world.snapshot()
    ball.user_data["list"].append(3)
    world.restore(snap)
    assert ball.user_data["list"] == [1, 2, 3]


def test_restore_to_a_smaller_world_invalidates_newer_handles():
    world = i2d.World()
    snap = world.snapshot()
    made = [world.create_body(position=(float(k), 0.0)) for k in range(40)]  # the stores grow
    world.restore(snap)
    assert world.body_count == 0 and not any(b.is_valid for b in made)
    with pytest.raises(ValueError, match="destroyed"):
        made[-1].position
    again = world.create_body()
    assert again.is_valid and world.bodies == [again]


def test_bad_snapshots_raise_and_change_nothing():
    world, other = busy_world(), i2d.World()
    run(world, 10)
    before = world.state_hash()
    snap = world.snapshot()
    with pytest.raises(TypeError, match="snapshot must be a Snapshot"):
        world.restore(42)
    with pytest.raises(TypeError, match="snapshot must be a Snapshot"):
        world.restore(pickle.dumps(snap))
    with pytest.raises(ValueError, match="another world"):
        other.restore(snap)
    with pytest.raises(ValueError, match="another world"):
        copy.deepcopy(world).restore(snap)
    # another version of the stores: a column missing (a snapshot made before it was added)
    state = snap.__getstate__()                   # what pickle writes
    del state[2]["_bodies"]["sleep_time"]
    old = Snapshot.__new__(Snapshot)
    old.__setstate__(state)                       # what pickle.loads does
    with pytest.raises(ValueError, match="_bodies has the columns"):
        world.restore(old)
    old = pickle.loads(pickle.dumps(snap))
    old._state["_shapes"] = old._state["_shapes"]._replace(
        radius=old._state["_shapes"].radius.astype(np.float32))
    with pytest.raises(ValueError, match="radius"):
        world.restore(old)
    old = pickle.loads(pickle.dumps(snap))
    old._state["_bodies"].v[3, 0] = math.nan
    with pytest.raises(ValueError, match="NaN"):
        world.restore(old)
    old = pickle.loads(pickle.dumps(snap))
    old._settings["substeps"] = 0
    with pytest.raises(ValueError, match="substeps"):
        world.restore(old)
    old = pickle.loads(pickle.dumps(snap))
    del old._state["time"]
    with pytest.raises(ValueError, match="version"):
        world.restore(old)
    with pytest.raises(ValueError, match="not an impulse2d snapshot"):
        Snapshot.__new__(Snapshot).__setstate__((99,))
    assert world.state_hash() == before and world.step_count == 10
    run(world, 5)                                  # and it still steps
    assert world.step_count == 15


def test_pickled_worlds_keep_their_direct_solver_counters_and_events():
    world = busy_world(solver="direct", direct_fallback="pgs", direct_max_rows=20)
    run(world, 30)
    stats = world.direct_stats
    assert stats["fallback_steps"] > 0
    clone = pickle.loads(pickle.dumps(world))
    assert clone.direct_stats == stats
    assert [e.shape_a.index for e in clone.contact_events().begin] == \
        [e.shape_a.index for e in world.contact_events().begin]
    assert np.array_equal(clone.body_events().indices, world.body_events().indices)
    run(world, 30)
    run(clone, 30)
    assert_same_state(clone, world)
    assert clone.direct_stats == world.direct_stats


def test_snapshot_size_and_repr():
    world = busy_world()
    snap = world.snapshot()
    assert snap.nbytes > 0 and snap.step_count == 0 and "Snapshot" in repr(snap)
    assert isinstance(pickle.loads(pickle.dumps(snap)), Snapshot)


Bodies = type(i2d.World()._bodies)
BodiesWithCharge = NamedTuple("BodiesWithCharge", [(f, np.ndarray) for f in Bodies._fields]
                              + [("charge", np.ndarray)])


class Tally(NamedTuple):  # a store a later version might add
    count: np.ndarray
    total: np.ndarray


class LaterWorld(i2d.World):
    """A World as a later version might have it: a column more in the body store (a charge per
    body), a store more, an attribute more."""

    def __init__(self, **settings):
        super().__init__(**settings)
        b = self._bodies
        self._bodies = BodiesWithCharge(*b, charge=np.zeros(len(b.alive)))
        self._tally = Tally(np.zeros(4, dtype=np.int64), np.zeros(4))
        self._toi_count = 0


def test_new_columns_stores_and_attributes_are_carried_without_a_change():
    """What the engineers adding continuous collision and chains do: a column, a store, an
    attribute. A snapshot carries them with no change to snapshot.py (not stepped: the kernels
    know the present columns only)."""
    world = LaterWorld()
    bodies = [world.create_body(position=(float(k), 1.0)) for k in range(3)]
    world._bodies.charge[bodies[1]._index] = 2.5
    world._tally.total[:] = np.linspace(0.0, 1.0, 4)
    world._toi_count = 7
    snap = world.snapshot()
    world._bodies.charge[:] = 0.0
    world._tally.total[:] = -1.0
    world._toi_count = 8
    world.destroy_body(bodies[0])
    world.restore(snap)
    assert world._bodies.charge[bodies[1]._index] == 2.5 and world._bodies.charge.sum() == 2.5
    assert np.array_equal(world._tally.total, np.linspace(0.0, 1.0, 4))
    assert world._toi_count == 7 and bodies[0].is_valid
    for clone in (pickle.loads(pickle.dumps(world)), copy.deepcopy(world)):
        assert type(clone) is LaterWorld and type(clone._bodies) is BodiesWithCharge
        assert clone._toi_count == 7 and clone._bodies.charge.sum() == 2.5
        assert np.array_equal(clone._tally.total, world._tally.total)
        assert stored_arrays(clone).keys() == stored_arrays(world).keys()
    # and a snapshot of the present World does not restore into the later one, nor back
    with pytest.raises(ValueError, match="version"):
        LaterWorld.__new__(LaterWorld).__setstate__(busy_world().snapshot())


ASKED = []


def _no_balls_on_the_pile(shape_a, shape_b):
    """A pair filter (module-level, so that it pickles): the ball passes through the pile."""
    ASKED.append((shape_a.index, shape_b.index))
    return not any(s.body.user_data == "ball" for s in (shape_a, shape_b))


def _one_way_floor(contact):
    """A pre-solve hook: contacts whose normal points down are switched off this step."""
    return contact.normal.y > -0.5


def test_callbacks_and_diagnostics_are_carried_and_replay_alike():
    world = busy_world(diagnostics=True)
    world.pair_filter = _no_balls_on_the_pile
    world.pre_solve = _one_way_floor
    run(world, SNAP_AT)
    snap = world.snapshot()
    data = pickle.dumps(world)
    del ASKED[:]
    run(world, 100)
    asked, expected = list(ASKED), world.state_hash()
    stats = world.solver_stats
    for way in ("restore", "pickle"):
        del ASKED[:]
        if way == "restore":
            world.pre_solve = None                 # the callbacks come back with the snapshot
            world.restore(snap)
            clone = world
        else:
            clone = pickle.loads(data)
        assert clone.pair_filter is _no_balls_on_the_pile and clone.pre_solve is _one_way_floor
        run(clone, 100)
        assert ASKED == asked                      # the filter's memory came along: no new asks
        assert clone.state_hash() == expected
        assert clone.solver_stats.iterations == stats.iterations
    assert len(asked) > 0


@pytest.mark.parametrize("how", ["restore", "pickle", "deepcopy"])
def test_queries_after_a_copy_or_restore_see_the_copied_world(how):
    """The queries' grid holds the addresses of the arrays it indexes: it belongs to the
    process and to those arrays, so a restored or copied world builds its own. A ray then hits
    what it hits in the original at the same state (same fraction, same shape row)."""
    world = i2d.World(gravity=(0.0, -10.0))
    ground = world.create_body(type="static")
    ground.create_box(20.0, 0.5, center=(0.0, -0.5))
    for k in range(20):
        _box(world, (-5.0 + 0.6 * k, 0.5 + 0.3 * k), half=0.25)
    for _ in range(30):
        world.step(1 / 60)
    assert world.ray_cast((-8.0, 9.0), (16.0, -9.0)) is not None   # the grid is built now
    snap = world.snapshot()
    for _ in range(30):
        world.step(1 / 60)
    expected = world.ray_cast((-8.0, 9.0), (16.0, -9.0))
    if how == "restore":
        world.restore(snap)
        for _ in range(30):
            world.step(1 / 60)
        copy_ = world
    else:
        copy_ = pickle.loads(pickle.dumps(world)) if how == "pickle" else copy.deepcopy(world)
        del world
        gc.collect()                      # the original's arrays are gone
    hit = copy_.ray_cast((-8.0, 9.0), (16.0, -9.0))
    assert hit.fraction == expected.fraction and hit.shape.index == expected.shape.index
