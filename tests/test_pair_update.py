"""The pair stage's incremental update (``_dynamics/pair_update.py``): the pairs it gives must be
the global search's exactly, so that the contact order, and with it every trajectory, does not
depend on which path the step took."""

from __future__ import annotations

import hashlib

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import impulse2d as i2
from impulse2d._collision.broadphase import CELL_SCALE, LARGE_CELLS, SWEEP_BELOW
from impulse2d._dynamics import verbs
from impulse2d._dynamics.awake import RESTING_VALID
from impulse2d._dynamics.pair_update import (FEW_TESTS, INCREMENTAL_BELOW, filtered_pairs,
                                             incremental_pairs, indexed_pairs, pairs_unchanged)
from impulse2d.scenes import build_scene

DT = 1.0 / 60.0


def _global(fat, columns):
    return filtered_pairs(fat, *columns, CELL_SCALE, LARGE_CELLS, SWEEP_BELOW)


def _world_columns(world):
    sh = world._shapes
    return (sh.alive, sh.body, world._bodies.type, sh.is_sensor, sh.group, sh.category, sh.mask,
            world._joint_rows()["no_collide"])


def _keys(pairs):
    return (pairs[:, 0] << 32) | pairs[:, 1]


# ------------------------------------------------------------------ the kernel, under Hypothesis

coordinate = st.floats(-20.0, 20.0, allow_nan=False)
size = st.one_of(st.floats(0.0, 3.0), st.floats(0.0, 40.0), st.just(0.0))


@st.composite
def boxes_and_moves(draw):
    n = draw(st.integers(2, 48))
    def box():
        x, y, w, h = draw(coordinate), draw(coordinate), draw(size), draw(size)
        if draw(st.integers(0, 19)) == 0:
            return (np.inf, np.inf, -np.inf, -np.inf)  # empty (the placeholder of a new shape)
        return (x, y, x + w, y + h)
    old = np.array([box() for _ in range(n)], dtype=np.float64)
    n_bodies = draw(st.integers(1, n))
    body = np.array([draw(st.integers(0, n_bodies - 1)) for _ in range(n)], dtype=np.int64)
    body_type = np.array([draw(st.sampled_from([0, 1, 2, 2, 2])) for _ in range(n_bodies)],
                         dtype=np.int64)
    group = np.array([draw(st.sampled_from([0, 0, 0, -1, 1, -2])) for _ in range(n)],
                     dtype=np.int64)
    category = np.array([draw(st.sampled_from([1, 1, 2, 3])) for _ in range(n)], dtype=np.uint64)
    mask = np.array([draw(st.sampled_from([0xFFFF, 0xFFFF, 1, 2])) for _ in range(n)],
                    dtype=np.uint64)
    sensor = np.array([draw(st.integers(0, 9)) == 0 for _ in range(n)], dtype=np.bool_)
    alive = np.array([draw(st.integers(0, 9)) > 0 for _ in range(n)], dtype=np.bool_)
    lo, hi = sorted((draw(st.integers(0, n_bodies - 1)), draw(st.integers(0, n_bodies - 1))))
    no_collide = np.array([(lo << 32) | hi] if draw(st.booleans()) else [], dtype=np.int64)
    moved = np.array(sorted(draw(st.sets(st.integers(0, n - 1), max_size=n))), dtype=np.int64)
    new = old.copy()
    for i in moved:
        if draw(st.booleans()):  # a moved box may also keep its place (a superset is fine)
            new[i] = box()
    columns = (alive, body, body_type, sensor, group, category, mask, no_collide)
    return old, new, moved, columns


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boxes_and_moves())
def test_incremental_pairs_equal_the_global_search(case):
    old, new, moved, columns = case
    old_keys = _keys(_global(old, columns))
    want = _global(new, columns)
    everything = np.arange(new.shape[0], dtype=np.int64)
    # the sweep (few_tests 0), the direct tests of a few moved boxes (any count), the step's mix
    for few_tests in (0, 1 << 40, FEW_TESTS):
        got = incremental_pairs(old_keys, moved, new, *columns, few_tests)
        np.testing.assert_array_equal(got, want)
        # and from scratch with every box moved
        np.testing.assert_array_equal(incremental_pairs(np.zeros(0, np.int64), everything, new,
                                                        *columns, few_tests), want)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boxes_and_moves())
def test_the_check_without_allocation_says_whether_the_pairs_changed(case):
    """The small world's first test (no allocation): True exactly when the global search on
    the new boxes gives the old pairs, given the old contacts are the old search's."""
    old, new, moved, columns = case
    old_keys = _keys(_global(old, columns))
    want = _keys(_global(new, columns))
    same = want.shape == old_keys.shape and bool(np.all(want == old_keys))
    assert pairs_unchanged(old_keys, moved, new, *columns) == same
    # boxes listed as moved that kept their places: nothing changed
    assert pairs_unchanged(old_keys, moved, old, *columns)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boxes_and_moves())
def test_the_resting_index_finds_the_global_search_s_pairs(case):
    """The grid of resting boxes (built on the old boxes, the moved rows marked loose) gives
    the pairs of the global search on the new boxes, in its order."""
    old, new, moved, columns = case
    old_keys = _keys(_global(old, columns))
    np.testing.assert_array_equal(indexed_pairs(old_keys, moved, old, new, *columns),
                                  _global(new, columns))


@st.composite
def piles_and_moves(draw):
    """Hundreds of boxes of one size and a few of others (a pile of circles and its walls),
    packed or spread up to 10 km, with points and placeholders, and up to all of them moved:
    the moved boxes' grid at its budget of cells, its one-cell axes and its wide boxes."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(50, 600))
    spread = draw(st.sampled_from([3.0, 20.0, 1.0e4]))
    side = draw(st.sampled_from([0.0, 0.5, 0.7]))
    lo = rng.uniform(-spread, spread, (n, 2))
    if draw(st.booleans()):
        lo[:, 1] = np.round(lo[:, 1])  # rows: one-cell spans, equal corners
    size = np.full((n, 2), side)
    odd = rng.random(n) < draw(st.sampled_from([0.0, 0.02, 0.2]))
    size[odd] = rng.uniform(0.0, 50.0, (int(odd.sum()), 2))  # walls and floors
    old = np.concatenate([lo, lo + size], axis=1)
    old[rng.random(n) < 0.02] = (np.inf, np.inf, -np.inf, -np.inf)
    new = old.copy()
    moved = np.flatnonzero(rng.random(n) < draw(st.sampled_from([0.01, 0.1, 0.5, 1.0])))
    shift = rng.uniform(-0.3, 0.3, (moved.shape[0], 2))
    new[moved, 0::2] += shift[:, :1]
    new[moved, 1::2] += shift[:, 1:]
    columns = (rng.random(n) > 0.02, np.arange(n, dtype=np.int64), np.full(n, 2, np.int64),
               np.zeros(n, np.bool_), np.zeros(n, np.int64), np.ones(n, np.uint64),
               np.full(n, 0xFFFF, np.uint64), np.zeros(0, np.int64))
    return old, new, moved.astype(np.int64), columns


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(piles_and_moves())
def test_the_moved_boxes_grid_finds_the_global_search_s_pairs_in_a_pile(case):
    old, new, moved, columns = case
    want = _global(new, columns)
    got = incremental_pairs(_keys(_global(old, columns)), moved, new, *columns, 0)
    np.testing.assert_array_equal(got, want)


def test_a_wide_moved_box_meets_every_box_under_it():
    """A moved plank 40 m long among 1 m boxes (tested directly, not in the sweep) and the small
    moved boxes beside it: every overlap found once."""
    xs = np.arange(40.0)
    small = np.stack([xs, np.zeros(40), xs + 1.0, np.ones(40)], axis=1)
    plank = np.array([[-0.5, 0.9, 40.5, 1.3]])
    old = np.concatenate([small, plank + [0.0, 5.0, 0.0, 5.0]])
    new = np.concatenate([small, plank])
    new[[3, 17], 1::2] += 0.05
    n = new.shape[0]
    columns = (np.ones(n, np.bool_), np.arange(n, dtype=np.int64), np.full(n, 2, np.int64),
               np.zeros(n, np.bool_), np.zeros(n, np.int64), np.ones(n, np.uint64),
               np.full(n, 0xFFFF, np.uint64), np.zeros(0, np.int64))
    want = _global(new, columns)
    assert ((want[:, 1] == n - 1).sum()) == 40  # the plank touches all 40 boxes
    for few_tests in (0, FEW_TESTS):  # the sweep's direct tests of a wide box; every box
        got = incremental_pairs(_keys(_global(old, columns)), np.array([3, 17, n - 1]), new,
                                *columns, few_tests)
        np.testing.assert_array_equal(got, want)


# ------------------------------------------------------------------ whole worlds, step by step


def _trajectory(world, bodies, steps, forced, hook=None, check_pairs=False):
    """Hash of every body's state and the contact keys after each step; ``forced``: the pairs
    are marked dirty before each step, so the step always runs the global search. Returns the
    hash and the steps that updated incrementally (few fat boxes changed, pairs not dirty)."""
    digest = hashlib.sha256()
    incremental = 0
    for n in range(steps):
        if hook is not None:
            hook(world, n, bodies)
        dirty = world._pairs_dirty
        if forced:
            world._pairs_dirty = True
        before = world._shapes.fat_aabb.copy()
        world.step(DT)
        after = world._shapes.fat_aabb
        changed = int(np.count_nonzero(np.any(before != after, axis=1)))
        if (not dirty and not forced and 0 < changed
                and INCREMENTAL_BELOW * changed <= after.shape[0]):
            incremental += 1
        if check_pairs:
            want = _keys(_global(world._shapes.fat_aabb, _world_columns(world)))
            np.testing.assert_array_equal(world._contacts.key, want)
        for b in bodies:
            digest.update(np.array([*b.position, b.angle, *b.linear_velocity,
                                    b.angular_velocity]).tobytes())
        digest.update(world._contacts.key.tobytes())
    return digest.hexdigest(), incremental


def _pile_with_balls(world):
    ground = world.create_body("static", position=(0.0, -1.0))
    ground.create_box(30.0, 1.0)
    bodies = []
    for row in range(6):
        for k in range(6 - row):
            b = world.create_body("dynamic", position=(k - (5 - row) / 2.0, 0.5 + 1.01 * row))
            b.create_box(0.5, 0.5)
            bodies.append(b)
    return bodies


def _drop_balls(world, n, bodies):
    if n == 200:  # beside the pile, touching nothing until it lands
        ball = world.create_body("dynamic", position=(-12.0, 15.0))
        ball.create_circle(0.3)
        bodies.append(ball)
    if n == 260:  # onto the pile: it wakes
        ball = world.create_body("dynamic", position=(0.2, 12.0))
        ball.create_circle(0.4)
        bodies.append(ball)


def test_sleeping_pile_and_falling_balls_are_bit_identical():
    """A pile falls asleep (about step 150), a ball falls beside it (only its box moves: the
    incremental update), another lands on it and wakes it."""
    runs = []
    for forced in (False, True):
        world = i2.World()
        bodies = _pile_with_balls(world)
        runs.append(_trajectory(world, bodies, 400, forced, hook=_drop_balls,
                                check_pairs=not forced))
        if not forced:
            assert not bodies[0].is_awake or any(b.is_awake for b in bodies)
    (hash_inc, incremental), (hash_global, _) = runs
    assert hash_inc == hash_global
    assert incremental >= 50  # the falling ball's steps beside the sleeping pile


def test_the_few_boxes_test_ends_steps_without_the_incremental_unit():
    """The pair stage asks the few moved boxes' test before it calls the incremental unit,
    so the test ends the usual step also while that unit's slot holds 0 (a cold start's first
    steps): every step's pairs are still the global search's, and the trajectory is the one
    with the unit, bit for bit."""
    runs = []
    for unloaded in (False, True):
        world = i2.World()
        bodies = _pile_with_balls(world)

        def hook(w, n, b, unloaded=unloaded):
            _drop_balls(w, n, b)
            if unloaded:
                w._verbs[verbs.MOVED_PAIRS] = 0

        runs.append(_trajectory(world, bodies, 300, False, hook=hook, check_pairs=True))
        assert (world._verbs[verbs.MOVED_PAIRS] == 0) == unloaded
    (hash_with, incremental), (hash_without, _) = runs
    assert hash_with == hash_without
    assert incremental >= 50


def test_scenes_are_bit_identical_with_the_incremental_update():
    """Running scenes (contacts coming and going, joints that forbid collision, filters): the
    same bits whether the step updated the pairs incrementally or searched them all."""
    total = 0
    for name, params, steps in (("pyramid", {"base": 10}, 150), ("ragdolls", {"count": 2}, 150),
                                ("mixed_rain", {"count": 120}, 150), ("bridge", {"planks": 30}, 90)):
        runs = []
        for forced in (False, True):
            world = i2.World()
            info = build_scene(world, name, **params)
            bodies = list(world.bodies)
            hook = None
            if info.update is not None:
                hook = lambda w, n, _b, u=info.update: u(w, n)
            runs.append(_trajectory(world, bodies, steps, forced, hook=hook,
                                    check_pairs=not forced))
        assert runs[0][0] == runs[1][0], name
        total += runs[0][1]
    assert total >= 20  # some steps of these scenes did update incrementally


def _pegs_and_balls(world):
    """1,200 static pegs (0.2 m boxes 1 m apart, rows offset) and three balls falling through
    them: the pegs rest from the start, so a ball's moved box is looked up in the resting
    index (3 moved x 1,203 shapes is past FEW_TESTS)."""
    for r in range(30):
        for c in range(40):
            world.create_body("static", position=(c + 0.5 * (r % 2), float(r))).create_box(
                0.1, 0.1)
    bodies = []
    for k in range(3):
        ball = world.create_body("dynamic", position=(5.3 + 11.0 * k, 31.0))
        ball.create_circle(0.3)
        ball.linear_velocity = (0.7 * (k - 1), 0.0)
        bodies.append(ball)
    return bodies


def _disturb_the_pegs(world, n, bodies, seen):
    """Python changes resting shapes between steps (each must drop the index): a peg moved
    under a ball's path, a peg made, a peg destroyed, a snapshot restored. ``seen``: the
    steps that began with the index holding, and the snapshot."""
    if world._awake_state is not None and world._awake_state[RESTING_VALID] == 1:
        seen["indexed"] += 1
    pegs = [b for b in world.bodies if b.type == "static"]
    if n == 40:
        pegs[1000].position = (bodies[0].position[0], bodies[0].position[1] - 1.5)
    if n == 70:
        world.create_body("static", position=(bodies[1].position[0] + 0.2,
                                              bodies[1].position[1] - 1.2)).create_box(0.1, 0.1)
    if n == 100:
        world.destroy_body(pegs[900])
    if n == 110:
        seen["snapshot"] = world.snapshot()
    if n == 150:
        world.restore(seen["snapshot"])


def test_the_resting_index_keeps_a_mostly_resting_world_bit_identical():
    """Balls falling through a field of resting pegs: the pairs of every step are the global
    search's (checked each step), and the trajectory is the one the global search gives, with
    Python moving, making and destroying pegs and restoring a snapshot between steps."""
    runs = []
    for forced in (False, True):
        world = i2.World()
        bodies = _pegs_and_balls(world)
        seen = {"indexed": 0}
        hook = lambda w, n, b, seen=seen: _disturb_the_pegs(w, n, b, seen)
        runs.append(_trajectory(world, bodies, 200, forced, hook=hook,
                                check_pairs=not forced))
        if not forced:
            indexed = seen["indexed"]
    assert runs[0][0] == runs[1][0]
    assert indexed >= 100  # the index held on most steps
