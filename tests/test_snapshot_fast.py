"""The snapshot's fast path (:mod:`impulse2d._snapshot_copy`) against the checked path: the
same bits, the same guarantees.

The checked path is forced by making ``plan_for`` find no plan (what it does without the
JIT). Each test takes the same world's snapshot both ways, or restores both ways, and compares
every stored column and the state hash after stepping on."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d import events
from impulse2d import _snapshot_copy as fast
from test_snapshot import DT, busy_world, run, stored_arrays
from test_snapshot import assert_same_state as _assert_same_state


def assert_same_state(a, b):
    a.state_hash(), b.state_hash()  # (each syncs its constraint store with the step's first)
    _assert_same_state(a, b)


def ten_bodies():
    """The batch's small world: 8 circles and 2 boxes on a floor, one pin joint."""
    world = i2d.World(gravity=(0.0, -10.0), enable_sleep=False)
    floor = world.create_body("static")
    floor.create_box(20.0, 0.5, center=(0.0, -0.5))
    balls = []
    for k in range(8):
        ball = world.create_body(position=(-7.0 + 2.0 * k, 0.5 + 0.3 * k))
        ball.create_circle(0.5)
        balls.append(ball)
    for k in range(2):
        box = world.create_body(position=(-3.0 + 6.0 * k, 2.5), angle=0.3)
        box.create_box(0.5, 0.5)
    world.create_revolute_joint(balls[0], balls[1], (-6.0, 1.0))
    return world


def slow(monkeypatch):
    monkeypatch.setattr(fast, "plan_for", lambda *args: None)


@pytest.mark.parametrize("make", [ten_bodies, busy_world])
def test_fast_and_checked_snapshots_hold_the_same_bits_and_replay_alike(make, monkeypatch):
    world = make()
    run(world, 40)
    snap_fast = world.snapshot()
    assert snap_fast._buffer is not None                       # the fast path was taken
    with monkeypatch.context() as m:
        slow(m)
        snap_slow = world.snapshot()
    assert snap_slow._buffer is None
    state_f, state_s = snap_fast._full_state(), snap_slow._state
    assert state_f.keys() == state_s.keys()
    for name, value in state_s.items():
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            for field, a, b in zip(value._fields, state_f[name], value):
                assert a.dtype == b.dtype and a.shape == b.shape
                assert a.tobytes() == b.tobytes(), f"{name}.{field}"
    run(world, 60)
    end = world.state_hash()
    world.restore(snap_fast)                                   # fast restore
    run(world, 60)
    assert world.state_hash() == end
    with monkeypatch.context() as m:
        slow(m)
        world.restore(snap_slow)                               # checked restore
        run(world, 60)
    assert world.state_hash() == end
    world.restore(snap_slow)                                   # a checked snapshot, fast world
    run(world, 60)
    assert world.state_hash() == end


def test_fast_restore_keeps_the_steps_reference_and_copies_in_place():
    world = ten_bodies()
    run(world, 30)
    snap = world.snapshot()
    run(world, 30)
    ref, bodies, settings, verbs = world._stores, world._bodies, world._settings, world._verbs
    origin = bodies.origin
    handles = list(world.bodies)
    world.restore(snap)
    # in place: the same arrays, the step's reference and table kept, the same handles
    assert world._stores is ref and world._bodies is bodies and bodies.origin is origin
    assert world._settings is settings and world._verbs is verbs
    assert list(world.bodies) == handles and all(a is b for a, b in zip(world.bodies, handles))
    assert world.time == pytest.approx(30 * DT) and world.step_count == 30
    twin = ten_bodies()
    run(twin, 30)
    assert_same_state(world, twin)
    run(world, 45)
    run(twin, 45)
    assert_same_state(world, twin)


def test_restore_after_the_world_grew_or_changed_settings_takes_the_checked_path():
    world = ten_bodies()
    run(world, 20)
    snap = world.snapshot()
    hash0 = world.state_hash()
    arrays0 = {k: v.copy() for k, v in stored_arrays(world).items()}
    extra = [world.create_body(position=(float(k), 8.0)) for k in range(40)]  # past capacity
    for body in extra:
        body.create_circle(0.2)
    world.settings.velocity_iterations = 3
    world.gravity = (0.0, -3.0)
    run(world, 10)
    world.restore(snap)
    assert world.state_hash() == hash0
    assert not any(b.is_valid for b in extra)
    assert world.settings.velocity_iterations == i2d.WorldSettings().velocity_iterations
    assert tuple(world.gravity) == (0.0, -10.0)
    arrays = stored_arrays(world)
    assert arrays.keys() == arrays0.keys()
    twin = ten_bodies()
    run(twin, 20)
    assert_same_state(world, twin)
    run(world, 40)
    run(twin, 40)
    assert_same_state(world, twin)
    # settings changed alone (same stores): the fast copy, settings as they were
    snap = world.snapshot()
    world.settings.velocity_iterations = 2
    world.restore(snap)
    assert world.settings.velocity_iterations == i2d.WorldSettings().velocity_iterations
    run(world, 30)
    run(twin, 30)
    assert_same_state(world, twin)


def test_destroyed_and_created_objects_come_back_as_they_were():
    world = ten_bodies()
    run(world, 25)
    snap = world.snapshot()
    ball = world.bodies[3]
    world.destroy_body(ball)
    newcomer = world.create_body(position=(0.0, 9.0))
    newcomer.create_box(0.4, 0.4)
    world.destroy_joint(world.joints[0])
    run(world, 5)
    world.restore(snap)
    assert ball.is_valid and not newcomer.is_valid and len(world.joints) == 1
    twin = ten_bodies()
    run(twin, 25)
    assert_same_state(world, twin)
    run(world, 30)
    run(twin, 30)
    assert_same_state(world, twin)


def test_pickled_and_copied_fast_snapshots_are_checked_and_replay_alike():
    world = ten_bodies()
    run(world, 30)
    snap = world.snapshot()
    assert snap.nbytes > 0 and snap.step_count == 30
    loaded = pickle.loads(pickle.dumps(snap))
    assert loaded._buffer is None and loaded._unchecked         # bytes: the checked path
    run(world, 20)
    end = world.state_hash()
    world.restore(loaded)
    run(world, 20)
    assert world.state_hash() == end
    # a NaN in bytes is refused and changes nothing
    bad = pickle.loads(pickle.dumps(snap))
    bad._state["_bodies"].origin[1, 0] = np.nan
    before = world.state_hash()
    with pytest.raises(ValueError, match="NaN"):
        world.restore(bad)
    assert world.state_hash() == before
    # a copy of the world (taken through the fast path) steps as the world
    world.restore(snap)
    clone = copy.deepcopy(world)
    unpickled = pickle.loads(pickle.dumps(world))
    run(world, 25)
    run(clone, 25)
    run(unpickled, 25)
    assert clone.state_hash() == unpickled.state_hash() == world.state_hash()


def test_another_worlds_fast_snapshot_is_refused_and_changes_nothing():
    a, b = ten_bodies(), ten_bodies()
    run(a, 10)
    run(b, 12)
    before = b.state_hash()
    with pytest.raises(ValueError, match="another world"):
        b.restore(a.snapshot())
    assert b.state_hash() == before


def test_fast_restore_keeps_equal_id_pools_and_renews_the_event_tracker():
    """The fast restore keeps the world's id pools when they equal the snapshot's, copies the
    snapshot's when a body, shape or joint was made or destroyed since (within the stores'
    capacity: the stores keep their layout), and gives the world a tracker of its own; the
    world then steps as one never changed, and the snapshot is not touched by what follows."""
    world = ten_bodies()
    run(world, 20)
    snap = world.snapshot()
    kept = snap._state
    pools = [world._body_pool, world._shape_pool, world._joint_pool]
    world.restore(snap)
    assert [world._body_pool, world._shape_pool, world._joint_pool] == pools
    assert all(a is b for a, b in zip(
        [world._body_pool, world._shape_pool, world._joint_pool], pools))  # equal: kept
    tracker = world._events
    assert tracker is not kept["_events"]
    assert all(a is b for a, b in zip(vars(tracker).values(), vars(kept["_events"]).values()))
    # made and destroyed since the snapshot, within capacity: the pools differ
    world.destroy_body(world.bodies[4])
    extra = world.create_body(position=(0.0, 6.0))
    extra.create_circle(0.3)
    world.bodies[2].create_box(0.2, 0.2, center=(0.0, 0.4))
    world.destroy_joint(world.joints[0])
    world.settings.enable_contact_events = True
    run(world, 5)
    bodies, shapes = world._bodies, world._shapes
    world.restore(snap)
    assert world._bodies is bodies and world._shapes is shapes  # (the fast path: in place)
    for name in ("_body_pool", "_shape_pool", "_joint_pool"):
        pool = getattr(world, name)
        assert pool is not kept[name] and vars(pool) == vars(kept[name])
    before = {name: dict(vars(kept[name])) for name in ("_body_pool", "_shape_pool")}
    frees = {name: list(kept[name]._free) for name in ("_body_pool", "_shape_pool")}
    twin = ten_bodies()
    run(twin, 20)
    assert_same_state(world, twin)
    world.create_body(position=(1.0, 7.0)).create_circle(0.2)  # the pools change again
    world.destroy_body(world.bodies[1])
    world.settings.enable_contact_events = True
    run(world, 5)
    for name in before:  # the snapshot's pools are its own
        assert vars(kept[name]).keys() == before[name].keys()
        assert kept[name]._free == frees[name] and kept[name].high_water == before[name][
            "high_water"]
    assert kept["_events"].contact is events._NO_CONTACT_EVENTS
    world.restore(snap)
    run(world, 30)
    run(twin, 30)
    assert_same_state(world, twin)


def test_snapshots_share_equal_pools_and_maps_and_a_copy_of_the_world_takes_its_own():
    """Two snapshots of an unchanged world share their copies of the id pools and the maps of
    rows (a snapshot never changes them); a copy or an unpickled world made after them owns
    its own, so that what it makes and destroys reaches neither snapshot."""
    world = ten_bodies()
    run(world, 10)
    first = world.snapshot()
    run(world, 3)
    second = world.snapshot()
    for name in ("_body_pool", "_shape_pool", "_joint_pool", "_body_shapes", "_body_joints"):
        assert second._state[name] is first._state[name]
        assert getattr(world, name) is not first._state[name]
    saved = {name: copy.deepcopy(first._state[name])
             for name in ("_body_pool", "_shape_pool", "_body_shapes", "_body_joints")}
    for other in (copy.deepcopy(world), pickle.loads(pickle.dumps(world))):
        other.destroy_body(other.bodies[5])
        other.create_body(position=(2.0, 5.0)).create_circle(0.25)
        other.bodies[1].create_circle(0.1)
        run(other, 2)
    for name, value in saved.items():
        assert vars(first._state[name]) == vars(value) if name.endswith("pool") \
            else first._state[name] == value
    world.destroy_body(world.bodies[5])  # changed: the next snapshot copies again
    third = world.snapshot()
    assert third._state["_body_pool"] is not first._state["_body_pool"]
    assert vars(third._state["_body_pool"]) == vars(world._body_pool)
    world.restore(first)
    run(world, 3)
    replayed = world.state_hash()
    world.restore(second)
    assert world.state_hash() == replayed


def test_snapshots_share_an_unchanged_tracker_and_callbacks_until_the_world_changes_them():
    """Two snapshots of a world without events or callbacks share their copies of the event
    tracker and the callbacks (each holds only what cannot change: numbers, empty arrays, the
    events' constants); once events are made, the next snapshot copies the tracker again and
    shares none of its arrays with the world, and a pair filter set since is not in a
    snapshot taken before. Each snapshot replays as taken."""
    world = ten_bodies()
    run(world, 10)
    first = world.snapshot()
    run(world, 3)
    second = world.snapshot()
    for name in ("_events", "_callbacks"):
        assert second._state[name] is first._state[name]
        assert getattr(world, name) is not first._state[name]
    assert second._state["_events"].contact is events._NO_CONTACT_EVENTS
    world.settings.enable_contact_events = True
    run(world, 5)
    third = world.snapshot()
    tracker = third._state["_events"]
    assert tracker is not first._state["_events"]
    assert tracker.touching.size and tracker.touching is not world._events.touching
    assert np.array_equal(tracker.touching, world._events.touching)
    assert not np.shares_memory(tracker.touching, world._events.touching)
    assert first._state["_events"].touching.size == 0           # the older ones untouched
    assert first._state["_events"].contact is events._NO_CONTACT_EVENTS
    world.pair_filter = lambda a, b: True
    run(world, 2)
    fourth = world.snapshot()
    assert fourth._state["_callbacks"] is not first._state["_callbacks"]
    assert first._state["_callbacks"].pair_filter is None
    assert fourth._state["_callbacks"].pair_filter is not None
    world.restore(first)
    assert world._callbacks.pair_filter is None and world._events.touching.size == 0
    run(world, 3)
    replayed = world.state_hash()
    world.restore(second)
    assert world.state_hash() == replayed
    world.restore(third)
    assert world._events.touching.tobytes() == tracker.touching.tobytes()


def test_the_worlds_arrays_go_with_the_stores_copy_and_come_back_in_place():
    """The step row and the length tolerances (arrays of the world, not stores) are copied in
    the plan's one call: the snapshot holds them in its buffer (no memory shared with the
    world), the fast restore writes them into the world's own arrays (the step's reference
    reads the row there) with the snapshot's numbers, and the world steps on as it did."""
    world = ten_bodies()
    run(world, 15)
    plan = fast.plan_for(world, *_plan_tests())
    assert {"_step_settings", "_lengths"} <= set(plan.names)
    assert "_clock" in plan.others                  # (differs between a batch's copies)
    snap = world.snapshot()
    row, lengths = world._step_settings, world._lengths
    saved_row, saved_lengths = row.copy(), lengths.copy()
    state = snap._full_state()
    for name, mine in (("_step_settings", row), ("_lengths", lengths)):
        assert state[name].tobytes() == mine.tobytes()
        assert not np.shares_memory(state[name], mine)
    run(world, 20)
    end = world.state_hash()
    row[:] = -7.0                                   # (garbage: the restore must write it all)
    world.restore(snap)
    assert world._step_settings is row and world._lengths is lengths
    assert row.tobytes() == saved_row.tobytes() and lengths.tobytes() == saved_lengths.tobytes()
    run(world, 20)
    assert world.state_hash() == end


def _plan_tests():
    from impulse2d import snapshot
    return snapshot._in_plan, snapshot._skipped
