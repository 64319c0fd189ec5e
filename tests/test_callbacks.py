"""The pair filter and the pre-solve hook (``World.pair_filter``, ``World.pre_solve``)."""

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, ground_world

G = 10.0


def _state(world):
    return np.concatenate([world.get_positions().ravel(), world.get_angles(),
                           world.get_velocities().ravel()])


def _pile(**settings):
    world, ground = ground_world(gravity=(0.0, -G), **settings)
    rng = np.random.default_rng(3)
    for k in range(12):
        body = world.create_body(position=(rng.uniform(-2, 2), 0.6 + 0.9 * k),
                                 angle=rng.uniform(-0.5, 0.5))
        if k % 2:
            body.create_box(0.3, 0.3, friction=0.6)
        else:
            body.create_circle(0.3, restitution=0.3)
    return world, ground


def test_callbacks_that_accept_everything_change_no_bit():
    """With callbacks set the step runs in two calls around them; accepting every pair and
    contact, that is the same step, bit for bit."""
    plain, _ = _pile()
    hooked, _ = _pile()
    asked = []
    hooked.pair_filter = lambda a, b: asked.append((a, b)) or True
    hooked.pre_solve = lambda contact: True
    for _ in range(180):
        plain.step(DT)
        hooked.step(DT)
    assert np.array_equal(_state(plain), _state(hooked))
    assert len(asked) >= 12  # every box and ball met the ground at least


def test_a_rejected_pair_never_collides_and_is_asked_once():
    """A ball whose pair with the ground is rejected falls through it exactly as in free fall
    (semi-implicit Euler over m = substeps x steps substeps of h: y = y_0 - g h^2 m (m + 1) / 2),
    a box beside it lands; the filter
    is asked once per pair while their boxes keep overlapping."""
    world, ground = ground_world(gravity=(0.0, -G))
    ball = world.create_body(position=(0.0, 1.0))
    ball_shape = ball.create_circle(0.5)
    box = world.create_body(position=(3.0, 1.0))
    box.create_box(0.5, 0.5)
    ground_shape = ground.shapes[0]
    asked = []

    def keep(a, b):
        asked.append({a, b})
        return {a, b} != {ball_shape, ground_shape}

    world.pair_filter = keep
    n = 90
    for _ in range(n):
        world.step(DT)
    m = world.settings.substeps * n
    h = DT / world.settings.substeps
    assert ball.position.y == pytest.approx(1.0 - G * h * h * m * (m + 1) / 2, abs=1e-9)
    assert box.position.y == pytest.approx(0.5, abs=0.01)  # resting on the ground
    assert asked.count({ball_shape, ground_shape}) == 1
    assert world.contacts and all({c.shape_a, c.shape_b} != {ball_shape, ground_shape}
                                  for c in world.contacts)


def test_a_pair_is_asked_again_when_it_meets_again():
    world = i2d.World(gravity=(0.0, 0.0))
    wall = world.create_body(type="static")
    wall_shape = wall.create_box(0.5, 2.0)
    mover = world.create_body(position=(0.6, 0.0))  # moved by hand, no gravity
    mover_shape = mover.create_box(0.5, 0.5)
    asked = []
    world.pair_filter = lambda a, b: asked.append({a, b}) or False
    for x in (0.6, 0.7, 5.0, 6.0, 0.9, 0.8):  # overlapping, apart (boxes parted), again
        mover.position = (x, 0.0)
        world.step(DT)
    assert asked == [{wall_shape, mover_shape}] * 2
    assert world.contacts == []


def test_pre_solve_makes_a_one_way_platform():
    """A ball shot up through a platform passes (its contacts declined while it is below the
    top or rising), then lands on it from above and rests there: centre at top + radius."""
    world = i2d.World(gravity=(0.0, -G))
    platform = world.create_body(type="static", position=(0.0, 3.0))
    top = 3.0 + 0.1
    platform_shape = platform.create_box(2.0, 0.1)
    ball = world.create_body(position=(0.0, 1.0), linear_velocity=(0.0, 12.0))
    ball.create_circle(0.25)
    declined = []

    def one_way(contact):
        if platform_shape not in (contact.shape_a, contact.shape_b):
            return True
        below = ball.position.y - 0.25 < top - 0.05 or ball.linear_velocity.y > 0.0
        if below:
            declined.append(ball.position.y)
        return not below

    world.pre_solve = one_way
    highest = 0.0
    for _ in range(240):
        world.step(DT)
        highest = max(highest, ball.position.y)
    assert highest > top + 1.0          # it went through (12 m/s reaches 8.2 m from 1 m)
    assert declined                      # the hook declined the contacts on the way up
    assert ball.position.y == pytest.approx(top + 0.25, abs=0.01)
    assert abs(ball.linear_velocity.y) < 1e-3


def test_callbacks_are_validated_and_exceptions_leave_the_bodies_where_they_were():
    world, _ = _pile()
    with pytest.raises(TypeError, match="pre_solve"):
        world.pre_solve = 3
    with pytest.raises(TypeError, match="pair_filter"):
        world.pair_filter = "yes"
    assert world.pre_solve is None and world.pair_filter is None
    for _ in range(30):
        world.step(DT)

    def broken(contact):
        raise RuntimeError("from the hook")

    world.pre_solve = broken
    before = _state(world)
    with pytest.raises(RuntimeError, match="from the hook"):
        world.step(DT)
    assert np.array_equal(_state(world), before)
    world.pre_solve = None
    world.step(DT)
    assert np.all(np.isfinite(_state(world)))
