"""A world's seat in a WorldBatch (impulse2d._batch_worlds): the batch keeps each world's clock
and per-step counts in arrays and checks before a step only the worlds that changed. Every
change made between batch steps must still be seen (stepping in the batch stays bit for bit
stepping alone), the worlds read their values as ``World.step`` leaves them, and snapshots,
copies, pickles and a second batch see the same."""

import copy
import pickle

import numpy as np
import pytest

import impulse2d as i2d


def _world(seed: int) -> i2d.World:
    """A floor, three circles and a box on a revolute joint to a hanging box."""
    rng = np.random.default_rng(seed)
    w = i2d.World(gravity=(0.0, -10.0))
    w.create_body("static").create_segment((-20.0, 0.0), (20.0, 0.0))
    for k in range(3):
        b = w.create_body(position=(rng.uniform(-3, 3), 1.0 + 1.5 * k))
        b.create_circle(0.3 + 0.1 * rng.random(), density=1.0)
    a = w.create_body(position=(0.0, 6.0))
    a.create_box(0.4, 0.4, density=1.0)
    c = w.create_body(position=(0.8, 6.0))
    c.create_box(0.3, 0.3, density=1.0)
    w.create_revolute_joint(a, c, anchor=(0.4, 6.0), enable_motor=True, motor_speed=1.0,
                            max_motor_torque=5.0)
    return w


def _change(w: i2d.World, n: int, calls: list) -> None:
    """A change to ``w`` before step ``n`` of the kind a batch must see: its settings, gravity,
    callbacks, bodies, joints, the after-step queue, a teleport, sleeping turned off."""
    k = n % 9
    if k == 0:
        w.settings.substeps = 2 + n % 3
    elif k == 1:
        w.gravity = (0.5, -9.0)
    elif k == 2:
        w.pre_solve = lambda contact: True
    elif k == 3:
        w.pre_solve = None
    elif k == 4:
        w.create_body(position=(1.0, 8.0)).create_circle(0.25, density=2.0)
    elif k == 5:
        w.after_step(lambda: calls.append(n))
    elif k == 6:
        w.bodies[1].position = (-1.0, 3.0)
    elif k == 7 and w.joints:
        w.destroy_joint(w.joints[0])
    elif k == 8:
        w.settings.enable_sleep = not w.settings.enable_sleep


def _values(w: i2d.World) -> tuple:
    return (w.state_hash(), w.time, w.step_count, w._sleepers, w._fell_asleep,
            w._joint_inv_h, w._pairs_dirty)


@pytest.mark.parametrize("threads", [1, 2])
def test_changes_between_batch_steps_are_seen(threads):
    alone = [_world(k) for k in range(6)]
    worlds = [_world(k) for k in range(6)]
    batch = i2d.WorldBatch(worlds, threads=threads)
    calls_alone = [[] for _ in alone]
    calls_batch = [[] for _ in worlds]
    for n in range(90):
        if n % 7 == 3:
            for k in range(0, 6, 2):  # half the worlds change, the others are left alone
                _change(alone[k], n // 7, calls_alone[k])
                _change(worlds[k], n // 7, calls_batch[k])
        for w in alone:
            w.step(1 / 60)
        batch.step(1 / 60)
        if n % 10 == 9:
            for a, b in zip(alone, worlds):
                assert _values(a) == _values(b)
    assert calls_batch == calls_alone and any(calls_batch)


def test_steady_batch_checks_no_world():
    batch = i2d.WorldBatch([_world(k) for k in range(8)], threads=1)
    batch.step(1 / 60)
    batch.step(1 / 60)
    batch.step(1 / 60)
    assert batch._state.checked.shape[0] == 0  # nothing changed: no world checked
    batch.worlds[3].gravity = (0.0, -5.0)
    batch.worlds[5].settings.max_linear_speed = 100.0
    batch.step(1 / 60)
    assert batch._state.checked.tolist() == [3, 5]
    batch.step(1 / 60)
    assert batch._state.checked.shape[0] == 0


def _searches(state) -> tuple:
    return tuple(state.any_marked(row) for row in range(state.marks.shape[0])) + (
        state.any_slow(),)


def _masks(state) -> tuple:
    return tuple(bool(state.marks[row].any()) for row in range(state.marks.shape[0])) + (
        bool(state.slow.any()),)


def test_the_marks_searches_agree_with_the_marks():
    # ReadyState.any_marked / any_slow search the marks' bytes in place of NumPy's any: the
    # same answers through changes, steps, a slow world, a destroyed template body and reads
    from impulse2d._batch_ready import DIRTY, ROWS_DIRTY
    batch = i2d.WorldBatch.replicate(_world(3), 5, threads=1)
    state = batch._state
    assert _searches(state) == _masks(state) and state.any_marked(DIRTY)  # (all, at first)
    for n in range(12):
        if n == 3:
            batch.worlds[2].gravity = (0.0, -4.0)
        if n == 5:
            batch.worlds[4].pre_solve = lambda contact: True  # (slow: World.step)
        if n == 8:
            batch.worlds[4].pre_solve = None
        if n == 10:
            batch.get_positions()
        assert _searches(state) == _masks(state)
        batch.step(1 / 60)
        assert _searches(state) == _masks(state)
        assert state.any_slow() == (5 <= n < 8)
    assert not state.any_marked(DIRTY) and not state.any_marked(ROWS_DIRTY)
    batch.worlds[1].destroy_body(batch.worlds[1].bodies[2])
    assert state.any_marked(ROWS_DIRTY)
    with pytest.raises(ValueError, match=r"worlds\[1\] no longer has every body"):
        batch.get_positions()
    with pytest.raises(ValueError, match=r"worlds\[1\] no longer has every body"):
        batch.get_velocities()  # (a world that lacks one stays marked)
    assert _searches(state) == _masks(state)


def test_worlds_read_the_batchs_clock_and_counts():
    alone = _world(1)
    batch = i2d.WorldBatch([_world(1), _world(2)], threads=1)
    w = batch.worlds[0]
    for _ in range(40):
        alone.step(1 / 60)
        batch.step(1 / 60)
    assert w.time == alone.time and w.step_count == alone.step_count == 40
    assert (w._sleepers, w._fell_asleep, w._joint_inv_h) == (
        alone._sleepers, alone._fell_asleep, alone._joint_inv_h)
    assert w.profile.step > 0.0 and w._query_index is None
    # a world of a batch stepped alone, then in the batch again
    w.step(1 / 60)
    alone.step(1 / 60)
    batch.step(1 / 60)
    alone.step(1 / 60)
    assert (w.time, w.step_count, w.state_hash()) == (alone.time, 42, alone.state_hash())
    w.time = 1.5  # (settable, as on any world)
    assert w.time == 1.5 and w.__dict__["time"] == 1.5


def test_snapshots_copies_and_pickles_of_batched_worlds():
    batch = i2d.WorldBatch([_world(3), _world(4)], threads=1)
    w = batch.worlds[0]
    for _ in range(30):
        batch.step(1 / 60)
    snap = w.snapshot()
    assert snap.time == w.time and snap.step_count == 30
    clone = copy.deepcopy(w)
    loaded = pickle.loads(pickle.dumps(w))
    for other in (clone, loaded):
        assert type(other) is i2d.World  # a plain world, of no batch
        assert (other.time, other.step_count, other.state_hash()) == (
            w.time, 30, w.state_hash())
    for _ in range(20):
        batch.step(1 / 60)
        clone.step(1 / 60)
    assert w.state_hash() == clone.state_hash() and w.time == clone.time
    batch.restore(batch.snapshot(), worlds=[1])  # (a batch restore: nothing moves)
    w.restore(snap)  # a world's own restore: the batch reads the clock of then
    assert (w.time, w.step_count) == (snap.time, 30)
    batch.step(1 / 60)
    assert w.step_count == 31 and w.time == snap.time + 1 / 60


def test_a_world_taken_into_another_batch():
    alone = [_world(k) for k in range(3)]
    worlds = [_world(k) for k in range(3)]
    first = i2d.WorldBatch(worlds, threads=1)
    first.step(1 / 60)
    second = i2d.WorldBatch(worlds[:2], threads=1)  # takes worlds 0 and 1
    second.step(1 / 60)
    first.step(1 / 60)  # takes them back
    second.step(1 / 60)
    for k, w in enumerate(alone):
        for _ in range(4 if k < 2 else 2):
            w.step(1 / 60)
    for a, b in zip(alone, worlds):
        assert (a.state_hash(), a.time, a.step_count) == (b.state_hash(), b.time, b.step_count)


@pytest.mark.parametrize("threads", [1, 2])
def test_batched_lidar_follows_changes_to_the_worlds(threads):
    batch = i2d.WorldBatch([_world(k) for k in range(4)], threads=threads)
    angles = np.linspace(-np.pi, 0.0, 12)
    rays = np.stack([np.cos(angles), np.sin(angles)], axis=1) * 9.0
    origins = np.zeros((4, 12, 2)) + [0.0, 7.0]
    for n in range(12):
        if n == 3:
            batch.worlds[1].create_body(position=(0.5, 4.0)).create_box(1.0, 0.2, density=1.0)
        if n == 5:
            batch.worlds[2].bodies[2].position = (0.0, 4.5)  # moved: the index dropped
        if n == 7:
            batch.worlds[0].ray_cast((0.0, 7.0), (0.0, -9.0))  # an index of its own
        if n % 2 == 0:
            batch.step(1 / 60)
        out = batch.ray_cast_many(origins, rays)
        for k, w in enumerate(batch.worlds):
            one = w.ray_cast_many(origins[k], rays)
            for a, b in zip(out, one):
                np.testing.assert_array_equal(a[k], b)
        assert (out.shape >= 0).sum() >= 4


def test_max_motor_torques_are_the_setters_values():
    batch = i2d.WorldBatch.replicate(_world(0), 3, threads=1)
    limits = np.array([[0.0], [2.5], [1e3]])
    batch.set_max_motor_torques(limits)
    assert [w.joints[0].max_motor_torque for w in batch.worlds] == [0.0, 2.5, 1e3]
    for bad, error in (([[1.0], [2.0]], ValueError), (np.full((3, 1), -1.0), ValueError),
                       (np.full((3, 1), np.nan), ValueError), ("x", TypeError)):
        with pytest.raises(error, match="limits"):
            batch.set_max_motor_torques(bad)
    assert [w.joints[0].max_motor_torque for w in batch.worlds] == [0.0, 2.5, 1e3]
    # a motor with a limit of 0 exerts nothing; with one, it drives the bodies apart
    batch.set_motor_speeds(np.full((3, 1), 4.0))
    for _ in range(20):
        batch.step(1 / 60)
    speeds = [w.joints[0].speed for w in batch.worlds]
    assert abs(speeds[2] - 4.0) < 0.1 < abs(speeds[0] - 4.0)
