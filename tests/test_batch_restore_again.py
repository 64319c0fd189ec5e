"""A world restored again from the snapshot it was last restored from, untouched since but for
its batch's steps (impulse2d._batch_restore: its stores copied, its contact stores put back in
its reference in one compiled call, no Python walk of its attributes, no checks before the next
step) has the bits of a world restored in full, and so does every world touched in between
(by a write, a public call, a read of its contacts, a step of its own)."""

import numpy as np
import pytest

import impulse2d as i2d

DT = 1 / 50


def _template(kind=i2d.World) -> i2d.World:
    """A lander's kind of world: a floor, a body with two legs on motorised revolute joints
    with limits (their motors keep them awake), and a loose box."""
    w = kind(gravity=(0.0, -10.0), solver="soft_step", substeps=8)
    w.create_body("static").create_segment((-20.0, 0.0), (20.0, 0.0), friction=0.2)
    hull = w.create_body(position=(0.0, 3.0))
    hull.create_box(0.5, 0.3, density=5.0, friction=0.1)
    for side in (-1, 1):
        leg = w.create_body(position=(0.6 * side, 2.6), angle=0.05 * side)
        leg.create_box(0.07, 0.27, density=1.0, friction=0.2)
        w.create_revolute_joint(hull, leg, (0.6 * side, 2.9), enable_limit=True,
                                lower_angle=-0.9, upper_angle=0.9, enable_motor=True,
                                motor_speed=0.3 * side, max_motor_torque=40.0)
    w.create_body(position=(2.0, 1.0)).create_box(0.3, 0.3, density=1.0)
    return w


def _pushes(rng, n: int, bodies: int) -> np.ndarray:
    pushes = np.zeros((n, bodies, 3))
    pushes[:, 0, :2] = rng.uniform(-3.0, 3.0, (n, 2))
    return pushes


def _pair(n: int, threads: int = 1):
    """Two batches of ``n`` copies of the template and a snapshot of each as built; the second
    is restored in full every time (its worlds marked before each restore)."""
    template = _template()
    batches = [i2d.WorldBatch.replicate(template, n, threads) for _ in range(2)]
    for b in batches:
        b.step(DT)
    return batches, [b.snapshot() for b in batches]


def _restore(batches, snaps, idx) -> None:
    again, full = batches
    again.restore(snaps[0], worlds=idx)
    full._state.restored[:] = True  # (every world touched: the full restore)
    full.restore(snaps[1], worlds=idx)


def _hashes(batch) -> list:
    return [w.state_hash() for w in batch.worlds]


@pytest.mark.parametrize("threads", [1, 2])
def test_restored_again_equals_restored_in_full(threads):
    rng = np.random.default_rng(3)
    n = 12
    batches, snaps = _pair(n, threads)
    bodies = batches[0].body_rows.shape[0]
    taken = 0
    for episode in range(8):
        for _ in range(15):
            pushes = _pushes(rng, n, bodies)
            for b in batches:
                b.apply_impulses(pushes)
                b.step(DT)
        idx = np.flatnonzero(rng.random(n) < 0.5)
        again, _ = batches[0]._restores.split(idx.tolist(), snaps[0].worlds)
        taken += len(again)
        _restore(batches, snaps, idx)
        assert _hashes(batches[0]) == _hashes(batches[1])
        # the restored worlds are as built, their clocks and counts with them (read through
        # the batch's arrays, which the restore again writes from its table of each world)
        for k in idx:
            w = batches[0].worlds[k]
            snap = snaps[0].worlds[k]
            assert (w.time, w.step_count, w._step_seconds) == (
                snap.time, snap.step_count, snap._state["_step_seconds"])
    assert taken > 10  # (the path under test was taken)
    for _ in range(20):
        for b in batches:
            b.step(DT)
    assert _hashes(batches[0]) == _hashes(batches[1])
    # and a world of the batch stepped alone after its restore steps as one restored in full
    batches[0].restore(snaps[0], worlds=[0])
    _restore(batches, snaps, [0])
    for b in batches:
        for _ in range(5):
            b.worlds[0].step(DT)
    assert batches[0].worlds[0].state_hash() == batches[1].worlds[0].state_hash()


def _touch(w: i2d.World, kind: int) -> None:
    """Something done to ``w`` between its restores that the next restore must undo."""
    if kind == 0:
        w.bodies[0].user_data = "touched"  # (marks nothing: the restore copies user data)
    elif kind == 1:
        w.bodies[3].position = (1.0, 2.0)
    elif kind == 2:
        len(w.contacts)  # Python's contact store made the step's (synced)
    elif kind == 3:
        w.step(DT)  # a step of its own, outside the batch
    elif kind == 4:
        w.ray_cast((-5.0, 1.0), (10.0, 0.0))  # a query index made
    elif kind == 5:
        w.settings.substeps = 4
    elif kind == 6:
        w.create_body(position=(-2.0, 1.0)).create_circle(0.2)
    elif kind == 7:
        w.bodies[1].apply_angular_impulse(0.5)


def _lidar(batch) -> np.ndarray:
    origins = np.zeros((len(batch), 3, 2))
    origins[:, :, 1] = 2.0
    return batch.ray_cast_many(origins, np.array([[-4.0, -3.0], [0.0, -3.0], [4.0, -3.0]]))


def test_batched_ray_casts_between_restores_read_the_restored_worlds():
    """A batched ray cast makes each world a spare query index (marking its query row only:
    the world stays restorable again), which a restore drops."""
    batches, snaps = _pair(4)
    for round_ in range(4):
        for _ in range(8):
            for b in batches:
                b.step(DT)
        casts = [_lidar(b) for b in batches]
        assert all((x == y).all() for x, y in zip(*casts))
        if round_:
            assert not batches[0]._state.restored[[0, 2]].any()  # (the path under test)
        _restore(batches, snaps, [0, 2])
        casts = [_lidar(b) for b in batches]
        assert all((x == y).all() for x, y in zip(*casts))
        assert _hashes(batches[0]) == _hashes(batches[1])


@pytest.mark.parametrize("kind", range(8))
def test_a_world_touched_between_restores_is_restored_in_full_bits(kind):
    batches, snaps = _pair(4)
    for round_ in range(3):
        for _ in range(10):
            for b in batches:
                b.step(DT)
        for b in batches:
            _touch(b.worlds[1], kind)
        _restore(batches, snaps, [1, 2])
        assert _hashes(batches[0]) == _hashes(batches[1])
        w = batches[0].worlds[1]
        assert w.bodies[0].user_data is None
        assert w.settings.substeps == 8
        assert len(w.bodies) == 5
    for _ in range(10):
        for b in batches:
            b.step(DT)
    assert _hashes(batches[0]) == _hashes(batches[1])


def test_restored_again_costs_no_check_and_no_walk():
    """The second restore of an untouched world from the same snapshot is the path without
    Python's walk: the world is not marked for the next step's checks, its reference entry
    and its template rows are not checked again; a touched world is."""
    batches, snaps = _pair(4)
    batch, snap = batches[0], snaps[0]
    batch.restore(snap, worlds=[0, 1])  # (in full: kept for the next time)
    batch.step(DT)
    state = batch._state
    assert not state.dirty.any() and not state.restored[[0, 1]].any()
    batch.worlds[1].gravity = (0.0, -9.0)  # touched
    assert batch._restores.split([0, 1], snap.worlds) == ([0], [1])
    before = state.marks[:, 0].copy()
    batch.restore(snap, worlds=[0, 1])
    assert state.dirty.tolist() == [False, True, False, False]
    # world 0's marks as they were, but its stale flags' (cleared by the restore)
    after = state.marks[:, 0].copy()
    assert after[4] and (np.delete(after, 4) == np.delete(before, 4)).all()
    assert batch.worlds[1].gravity == (0.0, -10.0)


def test_a_world_restored_again_shows_the_snapshots_clock_and_user_data_everywhere():
    """The restore again leaves the world's own entries of its clock, counts and atoms as its
    episode left them (its seat holds the values it reads): its snapshots, copies and pickles
    see the restored ones all the same. Its user data it leaves alone: a world untouched since
    its last restore holds the copy that restore made, and one whose user data was read (a
    handle writes it in place, unmarked) is restored in full."""
    import copy
    import pickle

    batches, snaps = _pair(3)
    batch, snap = batches[0], snaps[0]
    batch.worlds[2].bodies[1].user_data = "kept"
    held = batch.snapshot()
    for snapshot in (snap, held):
        batch.restore(snapshot, worlds=[1, 2])  # (in full: kept for the next time)
        expected = {1: "kept"} if snapshot is held else {}
        for round_ in range(4):
            for _ in range(7):
                batch.step(DT)
            if round_ == 2:  # (as a handle's setter writes it: the world's next restore in full)
                batch.worlds[2]._body_user_data[1] = {"episode": round_}
            again, full = batch._restores.split([1, 2], snapshot.worlds)
            assert (again, full) == (([1], [2]) if round_ == 2 else ([1, 2], []))
            batch.restore(snapshot, worlds=[1, 2])
            for k in (1, 2):
                w = batch.worlds[k]
                taken = snapshot.worlds[k]
                assert (w.time, w.step_count) == (taken.time, taken.step_count)
                assert vars(w)["_body_user_data"] == (expected if k == 2 else {})
                assert w.gravity == (0.0, -10.0)
        for k in (1, 2):  # (a snapshot reads the stores: the world's next restore is in full)
            w = batch.worlds[k]
            clock = (snapshot.worlds[k].time, snapshot.worlds[k].step_count)
            assert (w.snapshot().time, w.snapshot().step_count) == clock
            assert (copy.deepcopy(w).time, pickle.loads(pickle.dumps(w)).step_count) == clock
            assert w.bodies[1].user_data == ("kept" if k == 2 and snapshot is held else None)


class _TaggedWorld(i2d.World):
    """A world with user data of its own kind, which no seat watches (only World's own are)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._tag_user_data = {}


def test_user_data_no_seat_watches_is_copied_by_the_restore_again():
    template = _template(_TaggedWorld)
    template._tag_user_data[0] = "as built"
    batch = i2d.WorldBatch.replicate(template, 2)
    batch.step(DT)
    snap = batch.snapshot()
    batch.restore(snap, worlds=[0, 1])  # (in full: kept for the next time)
    for _ in range(3):
        batch.step(DT)
        for w in batch.worlds:
            w._tag_user_data[0] = "changed"  # (through an attribute no seat watches: unmarked)
        assert batch._restores.split([0, 1], snap.worlds) == ([0, 1], [])
        batch.restore(snap, worlds=[0])
        assert vars(batch.worlds[0])["_tag_user_data"] == {0: "as built"}
        assert vars(batch.worlds[1])["_tag_user_data"] == {0: "changed"}
        batch.restore(snap, worlds=[1])
        assert vars(batch.worlds[1])["_tag_user_data"] == {0: "as built"}
