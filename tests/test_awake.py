"""Awake sets (issue 31 item 3, :mod:`impulse2d._dynamics.awake`): the step visits only the awake
bodies, shapes and contacts, and that changes no result.

* the sets the step keeps are exactly what the rows say, after the step's own sleeping and
  waking and after every kind of change Python makes between steps;
* a sleeping pyramid beside a rolling ball changes the ball's trajectory by not one bit, and
  stays where it fell asleep to the bit;
* colouring the awake contacts gives the order that colouring every contact gives;
* a snapshot restored across an island falling asleep or waking replays the same bits.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from numba import njit

import impulse2d as i2d
from impulse2d._core.state import DYNAMIC, KINEMATIC, STATIC
from impulse2d._dynamics.awake import BODY_COUNT, SHAPE_COUNT, SLEEPING, STALE
from impulse2d._dynamics.constraint_graph import color_contacts

DT = 1.0 / 60.0


@njit(cache=False)
def _sets(ref):
    state = ref.awake_state
    return (state.copy(), ref.awake_bodies[: state[BODY_COUNT]].copy(),
            ref.awake_shapes[: state[SHAPE_COUNT]].copy())


def assert_sets_match_rows(world):
    """The step's awake sets (read from its reference) against the rows."""
    state, bodies, shapes = _sets(world._stores)
    assert state[STALE] == 0
    b, sh = world._bodies, world._shapes
    moving = b.alive & (b.type != STATIC)
    expected = np.flatnonzero(moving & ~b.asleep)
    np.testing.assert_array_equal(bodies, expected)
    np.testing.assert_array_equal(shapes, np.flatnonzero(sh.alive & np.isin(sh.body, expected)))
    assert state[SLEEPING] == int(np.count_nonzero(moving & b.asleep))


def pyramid(world, base=6, x0=0.0, half=0.5):
    ground = world.create_body(type="static", position=(x0, 0.0))
    ground.create_box(base + 4.0, 0.5, center=(0.0, -0.5))
    boxes = []
    for row in range(base):
        for k in range(base - row):
            body = world.create_body(position=(x0 + (k - 0.5 * (base - row - 1)) * 2.0 * half,
                                               half + 2.0 * half * row))
            body.create_box(half, half, friction=0.6)
            boxes.append(body)
    return boxes


def settle(world, boxes, max_steps=1200):
    for _ in range(max_steps):
        world.step(DT)
        if all(not b.is_awake for b in boxes):
            return
    raise AssertionError("the pyramid did not fall asleep")


def test_awake_sets_follow_sleep_wake_and_every_change_from_python():
    world = i2d.World()
    boxes = pyramid(world)
    shapeless = world.create_body(position=(30.0, 5.0))  # integrated: falls, never collides
    platform = world.create_body(type="kinematic", position=(-30.0, 0.0))
    platform.create_box(1.0, 0.2)
    world.step(DT)
    assert_sets_match_rows(world)
    settle(world, boxes)
    assert_sets_match_rows(world)
    assert shapeless.is_awake and platform.is_awake  # a shapeless body keeps falling
    # a setter wakes an island; a static body moved by hand; a new body; a destroyed one
    boxes[3].apply_linear_impulse((0.5, 0.0))
    world.step(DT)
    assert_sets_match_rows(world)
    settle(world, boxes)
    extra = world.create_body(position=(0.0, 12.0))
    extra.create_circle(0.4)
    world.step(DT)
    assert_sets_match_rows(world)
    world.destroy_body(shapeless)
    world.step(DT)
    assert_sets_match_rows(world)
    boxes[-1].is_awake = False
    world.step(DT)
    assert_sets_match_rows(world)
    boxes[0].type = "static"
    world.step(DT)
    assert_sets_match_rows(world)
    snap = world.snapshot()
    for _ in range(120):  # the ball lands on the pyramid and wakes it
        world.step(DT)
    assert_sets_match_rows(world)
    world.restore(snap)
    world.step(DT)
    assert_sets_match_rows(world)


def test_a_sleeping_pyramid_changes_a_rolling_ball_by_not_one_bit():
    """The same ball rolling on the same floor, alone and beside a sleeping pyramid: the same
    bits each step (the step visits the ball's rows only), the pyramid's poses unchanged to
    the bit, and the ball rolling at its speed (no slip: v = -w r)."""
    alone = i2d.World()
    crowded = i2d.World()
    boxes = pyramid(crowded, base=8)
    settle(crowded, boxes)
    poses = crowded._bodies.origin.copy(), crowded._bodies.angle.copy()
    balls = []
    for world in (alone, crowded):
        floor = world.create_body(type="static", position=(60.0, -10.5))
        floor.create_box(40.0, 0.5)
        ball = world.create_body(position=(30.0, -9.5), linear_velocity=(2.0, 0.0),
                                 angular_velocity=-4.0)
        ball.create_circle(0.5)
        balls.append(ball)
    for _ in range(180):
        alone.step(DT)
        crowded.step(DT)
        a, c = balls
        assert (a.position.x, a.position.y, a.angle) == (c.position.x, c.position.y, c.angle)
        assert (a.linear_velocity.x, a.angular_velocity) == (c.linear_velocity.x,
                                                              c.angular_velocity)
    assert all(not b.is_awake for b in boxes)
    rows = [b._row() for b in boxes]
    np.testing.assert_array_equal(crowded._bodies.origin[rows], poses[0][rows])
    np.testing.assert_array_equal(crowded._bodies.angle[rows], poses[1][rows])
    ball = balls[1]
    assert ball.linear_velocity.x == pytest.approx(2.0, rel=1e-3)
    assert ball.angular_velocity == pytest.approx(-ball.linear_velocity.x / 0.5, rel=1e-3)
    assert ball.position.x == pytest.approx(30.0 + 2.0 * 180 * DT, rel=1e-3)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 2)),
             max_size=150),
    st.lists(st.sampled_from((STATIC, KINEMATIC, DYNAMIC)), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n))))
def test_colouring_the_awake_contacts_gives_the_order_of_colouring_every_contact(case):
    n, contacts, kinds, sleeps = case
    # a contact has a dynamic body (the pair filter's rule: two bodies that cannot move never
    # collide)
    contacts = [(a, b, c) for a, b, c in contacts
                if a != b and DYNAMIC in (kinds[a], kinds[b])]
    body_a = np.array([a for a, _, _ in contacts], dtype=np.int64)
    body_b = np.array([b for _, b, _ in contacts], dtype=np.int64)
    count = np.array([c for _, _, c in contacts], dtype=np.int64)
    kind = np.array(kinds, dtype=np.int64)
    asleep = np.array(sleeps) & (kind == DYNAMIC)  # only dynamic bodies sleep
    awake = (kind != STATIC) & ~asleep
    rows = np.flatnonzero(awake[body_a] | awake[body_b]) if contacts else np.empty(0, np.int64)
    every = color_contacts(count, body_a, body_b, kind, asleep, n, 24, np.empty(0, np.int64), -1)
    some = color_contacts(count, body_a, body_b, kind, asleep, n, 24, rows.astype(np.int64),
                          rows.shape[0])
    np.testing.assert_array_equal(every[0], some[0])
    np.testing.assert_array_equal(every[1], some[1])


def _run(world, steps):
    for _ in range(steps):
        world.step(DT)
    return world.state_hash()


@pytest.mark.parametrize("when", ["awake", "asleep"])
def test_a_restored_snapshot_replays_falling_asleep_and_waking(when):
    """Snapshot, then islands fall asleep (or wake, hit by a ball): the restored world, its
    awake sets rebuilt, replays the same bits."""
    world = i2d.World()
    boxes = pyramid(world)
    if when == "asleep":
        settle(world, boxes)
        ball = world.create_body(position=(0.2, 9.0))
        ball.create_circle(0.4, density=4.0)
    else:
        world.step(DT)
    snap = world.snapshot()
    start = world._bodies.origin.copy()
    first = _run(world, 400)
    if when == "awake":
        assert all(not b.is_awake for b in boxes)
    else:  # the ball woke the pyramid, which moved
        rows = [b._row() for b in boxes]
        assert np.abs(world._bodies.origin[rows] - start[rows]).max() > 1e-3
    world.restore(snap)
    assert _run(world, 400) == first
