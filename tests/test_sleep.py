"""Islands and sleeping: when islands fall asleep, what wakes them, that a sleeping body is
exactly still for every solver, ``world.islands``, and the validation of the new settings."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2
from impulse2d.settings import SOLVERS

DT = 1.0 / 60.0
THRESHOLD = 0.05  # m/s, the default sleep_threshold


def _ground(world, half_width=20.0):
    ground = world.create_body("static", position=(0.0, -1.0))
    ground.create_box(half_width, 1.0)
    return ground


def _pyramid(world, base, x0=0.0, gap=0.01):
    """Boxes of 1 m on the ground (top at y = 0), rows ``gap`` apart so that they fall into
    place and settle."""
    bodies = []
    for row in range(base):
        for k in range(base - row):
            x = x0 + (k - (base - row - 1) / 2.0)
            b = world.create_body("dynamic", position=(x, 0.5 + row * (1.0 + gap) + gap))
            b.create_box(0.5, 0.5)
            bodies.append(b)
    return bodies


def _stack(world, x, height=3):
    bodies = []
    for k in range(height):
        b = world.create_body("dynamic", position=(x, 0.5 + 1.01 * k))
        b.create_box(0.5, 0.5)
        bodies.append(b)
    return bodies


def _max_speed(bodies):
    return max(math.hypot(*b.linear_velocity) for b in bodies)


def _state(bodies):
    return [(tuple(b.position), b.angle, tuple(b.linear_velocity), b.angular_velocity)
            for b in bodies]


def _settle_until_asleep(world, bodies, seconds=6.0):
    """Step until every body of ``bodies`` sleeps; returns (step of rest, step asleep), rest
    being the first step after which the bodies stay below the sleep threshold."""
    rest = None
    for n in range(int(seconds / DT)):
        world.step(DT)
        if _max_speed(bodies) <= THRESHOLD:
            rest = n if rest is None else rest
        else:
            rest = None
        if not any(b.is_awake for b in bodies):
            return rest, n
    raise AssertionError("the bodies never fell asleep")


def test_settled_pyramid_sleeps_then_every_body_wakes_when_hit_and_not_before():
    world = i2.World()
    _ground(world)
    pyramid = _pyramid(world, 10)
    rest, asleep = _settle_until_asleep(world, pyramid)
    # every body slow for time_to_sleep (0.5 s, 30 steps), then the island sleeps at once:
    # well within 2 s of coming to rest
    assert rest is not None and (asleep - rest) * DT <= 2.0
    assert (asleep - rest) * DT >= 0.5 - 1e-9
    assert world.islands and len(world.islands[0]) == 55

    # sleeping bodies keep their positions to the bit (100 steps)
    before = _state(pyramid)
    for _ in range(100):
        world.step(DT)
    assert _state(pyramid) == before
    assert not any(b.is_awake for b in pyramid)

    # a box dropped on the top box wakes every body, on the step it touches and not before
    top = max(pyramid, key=lambda b: b.position.y)
    top_y = top.position.y + 0.5
    box = world.create_body("dynamic", position=(top.position.x, top_y + 3.0))
    box.create_box(0.5, 0.5)
    for _ in range(200):
        gap = box.position.y - 0.5 - top_y
        world.step(DT)
        awake = [b.is_awake for b in pyramid]
        if any(awake):
            assert all(awake)
            # the box reached the top box this step (it falls about 0.13 m a step by then)
            assert gap < 0.2
            break
        assert _state(pyramid) == before
    else:
        raise AssertionError("the pyramid never woke")


@pytest.mark.parametrize("solver", SOLVERS)
def test_sleeping_bodies_are_exactly_still_and_wake_to_normal_simulation(solver):
    world = i2.World(solver=solver)
    _ground(world)
    stack = _stack(world, 0.0)
    _settle_until_asleep(world, stack)
    assert all(b.linear_velocity == (0.0, 0.0) and b.angular_velocity == 0.0 for b in stack)
    before = _state(stack)
    for _ in range(100):
        world.step(DT)
    assert _state(stack) == before
    # waking restores simulation: an impulse on the top box sends it sideways
    stack[-1].apply_linear_impulse((5.0, 0.0))
    assert all(b.is_awake for b in stack)
    for _ in range(10):
        world.step(DT)
    assert stack[-1].position.x > 0.3
    assert all(b.is_awake for b in stack)


def _pile_contacts(world, bodies):
    """The contacts of ``bodies`` as plain tuples (shapes by body row, manifold, impulses)."""
    rows = {b._index for b in bodies}
    return sorted((c.shape_a.body._index, c.shape_b.body._index, tuple(c.normal), c.points)
                  for c in world.contacts
                  if c.shape_a.body._index in rows or c.shape_b.body._index in rows)


def test_a_sleeping_island_keeps_its_manifolds_when_the_contact_store_is_rebuilt():
    # A new pair anywhere rebuilds the contact store; the narrowphase recomputes the awake
    # pairs' manifolds but keeps a sleeping island's, so the rebuild must carry them whole
    # (they are what the island solves when it wakes).
    world = i2.World()
    _ground(world)
    stack = _stack(world, 0.0)
    _settle_until_asleep(world, stack)
    before = _pile_contacts(world, stack)
    assert len(before) == 3 and all(len(points) == 2 for *_, points in before)
    assert all(abs(abs(normal[1]) - 1.0) < 1e-6 for _, _, normal, _ in before)  # stacked
    # a box dropped 10 m away: it pairs with the ground (a new pair) while the stack sleeps
    box = world.create_body("dynamic", position=(10.0, 3.0))
    box.create_box(0.5, 0.5)
    rebuilt = 0
    for _ in range(60):
        store = world._contacts.key
        world.step(DT)
        rebuilt += world._contacts.key is not store
        assert not any(b.is_awake for b in stack)
        assert _pile_contacts(world, stack) == before
    assert rebuilt >= 1 and box.position.y < 0.6


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_pile_woken_by_a_heavy_box_holds_as_if_it_had_never_slept(solver):
    # Solver2D's high mass ratio 2: a 400:1 box lands on two unit boxes that have fallen
    # asleep on a thin ground. The step that wakes them must solve their ground contacts as
    # the step of a pile that never slept does (it once solved them with a zero normal, and
    # the boxes went down at 18 m/s where the awake pile's take 1.9).
    # Compared from the start until the woken island falls asleep again (then the slept run
    # stands still while the awake pile may creep: direct's sinks 1.4e-5 m a step under the
    # heavy box).
    from impulse2d.scenes import build_scene
    runs = []
    for sleep in (True, False):
        world = i2.World(solver=solver, enable_sleep=sleep)
        small = build_scene(world, "high_mass_ratio_2").bodies["small"]
        trace = []
        for _ in range(300):
            world.step(DT)
            trace.append((min(b.position.y for b in small),
                          min(b.linear_velocity.y for b in small), small[0].is_awake))
        runs.append(trace)
    slept, awake = runs
    asleep_at = next(n for n, (_, _, on) in enumerate(slept) if not on)
    woken_at = next(n for n in range(asleep_at, 300) if slept[n][2])
    end = next((n for n in range(woken_at, 300) if not slept[n][2]), 300)
    assert asleep_at < woken_at  # the small boxes slept before the heavy box arrived
    assert end - woken_at >= 30  # and the comparison covers the impact and half a second after
    for (y_s, v_s, _), (y_a, v_a, _) in zip(slept[:end], awake[:end]):
        assert abs(y_s - y_a) <= 1e-3  # m
        assert abs(v_s - v_a) <= 0.05  # m/s


def test_sleeping_matches_no_sleeping_until_something_sleeps():
    # the sleep stage watches; it changes nothing before an island falls asleep
    worlds = [i2.World(enable_sleep=flag) for flag in (True, False)]
    piles = []
    for world in worlds:
        _ground(world)
        piles.append(_pyramid(world, 4))
    for _ in range(400):
        for world in worlds:
            world.step(DT)
        if not piles[0][0].is_awake:
            break
        assert _state(piles[0]) == _state(piles[1])
    assert not piles[0][0].is_awake and piles[1][0].is_awake


def test_a_motor_or_a_force_each_step_keeps_a_body_awake():
    world = i2.World()
    ground = _ground(world)
    # a slow motor: the wheel's rim moves 0.002 m/s, far below the sleep threshold
    wheel = world.create_body("dynamic", position=(-5.0, 2.0))
    wheel.create_circle(0.2)
    world.create_revolute_joint(ground, wheel, (-5.0, 2.0), enable_motor=True,
                                motor_speed=0.01, max_motor_torque=100.0)
    pushed = world.create_body("dynamic", position=(0.0, 0.5))
    pushed.create_box(0.5, 0.5)
    resting = world.create_body("dynamic", position=(5.0, 0.5))
    resting.create_box(0.5, 0.5)
    for _ in range(int(3.0 / DT)):
        pushed.apply_force((0.0, -1.0))
        world.step(DT)
        assert wheel.is_awake and pushed.is_awake
    assert not resting.is_awake  # the same box without the force sleeps
    assert wheel.angle == pytest.approx(0.01 * 3.0, rel=0.05)


def test_is_awake_and_allow_sleep():
    world = i2.World()
    _ground(world)
    left = _stack(world, -3.0)
    right = _stack(world, 3.0)
    world.step(DT)
    left[0].is_awake = False  # the whole island sleeps, the other stack does not
    assert not any(b.is_awake for b in left) and all(b.is_awake for b in right)
    assert all(b.linear_velocity == (0.0, 0.0) for b in left)
    before = _state(left)
    world.step(DT)
    assert _state(left) == before
    left[2].is_awake = True
    assert all(b.is_awake for b in left)
    world.step(DT)
    assert _state(left) != before  # simulated again

    right[1].allow_sleep = False
    assert not right[1].allow_sleep
    for _ in range(int(3.0 / DT)):
        world.step(DT)
    assert all(b.is_awake for b in right)  # one body that may not sleep keeps its island up
    assert not any(b.is_awake for b in left)
    right[1].allow_sleep = True
    for _ in range(int(1.0 / DT)):
        world.step(DT)
    assert not any(b.is_awake for b in right)

    static = world.bodies[0]
    assert not static.is_awake
    static.is_awake = True  # static and kinematic bodies neither sleep nor wake
    assert not static.is_awake


def test_islands_follow_contacts_and_joints_not_static_bodies():
    world = i2.World()
    _ground(world)
    left = _stack(world, -3.0)
    right = _stack(world, 3.0)
    for _ in range(30):
        world.step(DT)
    islands = world.islands
    assert len(islands) == 2
    assert [set(i) for i in islands] == [set(left), set(right)]  # ordered by first row
    world.create_distance_joint(left[-1], right[-1], left[-1].position, right[-1].position)
    assert len(world.islands) == 1 and len(world.islands[0]) == 6
    # a lone body is an island of its own; kinematic bodies belong to none
    lone = world.create_body("dynamic", position=(10.0, 5.0))
    lone.create_circle(0.5)
    world.create_body("kinematic", position=(-10.0, 5.0)).create_circle(0.5)
    assert sorted(len(i) for i in world.islands) == [1, 6]


def test_a_jointed_island_wakes_with_its_joints_solved():
    world = i2.World()
    _ground(world)
    links = []
    for k in range(6):  # a chain of boxes lying on the ground, pinned to each other
        b = world.create_body("dynamic", position=(k * 1.0, 0.25))
        b.create_box(0.5, 0.25)
        links.append(b)
    joints = [world.create_revolute_joint(a, b, (a.position.x + 0.5, 0.25))
              for a, b in zip(links, links[1:])]
    _settle_until_asleep(world, links)
    assert len(world.islands) == 1
    ball = world.create_body("dynamic", position=(5.0, 3.0))
    ball.create_circle(0.3, density=20.0)
    woke = False
    for _ in range(120):
        world.step(DT)
        woke = woke or links[0].is_awake
        # the pins hold through the wake: the step that wakes the island solves its joints
        # (measured worst gap 0.016 m under this heavy ball; 0.105 m when the woken joints
        # are left out of that step's rows)
        for j in joints:
            a, b = j.world_anchor_a, j.world_anchor_b
            assert math.hypot(a.x - b.x, a.y - b.y) < 0.03
    assert woke


def test_a_moving_kinematic_body_wakes_and_keeps_awake():
    world = i2.World()
    _ground(world)
    stack = _stack(world, 0.0)
    _settle_until_asleep(world, stack)
    pusher = world.create_body("kinematic", position=(-3.0, 0.5))
    pusher.create_box(0.5, 0.5)
    for _ in range(30):
        world.step(DT)
    assert not any(b.is_awake for b in stack)  # at rest it touches nothing
    pusher.linear_velocity = (1.0, 0.0)
    for _ in range(int(2.5 / DT)):  # it reaches the stack after 2 s
        world.step(DT)
    assert all(b.is_awake for b in stack)
    assert stack[0].position.x > 0.2  # pushed


def test_destroying_a_body_or_a_shape_wakes_its_island():
    world = i2.World()
    _ground(world)
    stack = _stack(world, 0.0)
    _settle_until_asleep(world, stack)
    world.destroy_body(stack[0])
    assert stack[1].is_awake and stack[2].is_awake
    for _ in range(30):
        world.step(DT)
    assert stack[1].position.y < 1.0  # fell onto the ground


def test_turning_sleeping_off_wakes_everything():
    world = i2.World()
    _ground(world)
    stack = _stack(world, 0.0)
    _settle_until_asleep(world, stack)
    world.settings.enable_sleep = False
    world.step(DT)
    assert all(b.is_awake for b in stack)
    for _ in range(60):
        world.step(DT)
    assert all(b.is_awake for b in stack)


def test_validation_of_the_sleep_settings_and_properties():
    with pytest.raises(TypeError, match="enable_sleep"):
        i2.World(enable_sleep="yes")
    for bad in (-1.0, math.nan, math.inf, 2e6):
        with pytest.raises(ValueError, match="time_to_sleep"):
            i2.World(time_to_sleep=bad)
    with pytest.raises(TypeError, match="time_to_sleep"):
        i2.World(time_to_sleep="1")
    world = i2.World()
    assert world.settings.enable_sleep is True and world.settings.time_to_sleep == 0.5
    with pytest.raises(ValueError, match="time_to_sleep"):
        world.settings.time_to_sleep = -0.1
    assert world.settings.time_to_sleep == 0.5
    with pytest.raises(TypeError, match="allow_sleep"):
        world.create_body("dynamic", allow_sleep="no")
    assert world.body_count == 0
    body = world.create_body("dynamic", allow_sleep=False)
    assert not body.allow_sleep and body.sleep_threshold == THRESHOLD
    for bad, error in ((-0.01, ValueError), (math.nan, ValueError), (1e6, ValueError),
                       ("0.1", TypeError), (True, TypeError)):
        with pytest.raises(error, match="sleep_threshold"):
            body.sleep_threshold = bad
    assert body.sleep_threshold == THRESHOLD
    for bad in ("yes", 2, None):
        with pytest.raises(TypeError, match="is_awake"):
            body.is_awake = bad
        with pytest.raises(TypeError, match="allow_sleep"):
            body.allow_sleep = bad
    assert body.is_awake and not body.allow_sleep
    body.sleep_threshold = 0.2
    assert body.sleep_threshold == 0.2
    assert np.isfinite(body.sleep_threshold)


def test_body_events_flag_the_bodies_that_fell_asleep():
    world = i2.World(enable_body_events=True)
    _ground(world)
    stack = _stack(world, 0.0)
    flagged = []
    for n in range(300):
        world.step(DT)
        events = world.body_events()
        assert events.fell_asleep.shape == events.indices.shape
        if events.fell_asleep.any():
            flagged.append((n, sorted(events.indices[events.fell_asleep].tolist())))
        if flagged and n > flagged[0][0] + 10:
            assert events.indices.shape[0] == 0  # asleep: nothing moves
    rows = sorted(b._index for b in stack)
    assert len(flagged) == 1 and flagged[0][1] == rows  # once, all three, the step they slept
    assert not any(b.is_awake for b in stack)


def _joint(world, stack):
    return world.create_revolute_joint(stack[1], stack[2], tuple(stack[2].position))


_WAKES = {
    "apply_force": lambda w, s: s[1].apply_force((1.0, 0.0)),
    "apply_torque": lambda w, s: s[1].apply_torque(1.0),
    "apply_linear_impulse": lambda w, s: s[1].apply_linear_impulse((0.1, 0.0)),
    "apply_angular_impulse": lambda w, s: s[1].apply_angular_impulse(0.1),
    "linear_velocity": lambda w, s: setattr(s[1], "linear_velocity", (0.1, 0.0)),
    "angular_velocity": lambda w, s: setattr(s[1], "angular_velocity", 0.1),
    "position": lambda w, s: setattr(s[1], "position", tuple(s[1].position)),
    "angle": lambda w, s: setattr(s[1], "angle", 0.01),
    "fixed_rotation": lambda w, s: setattr(s[1], "fixed_rotation", True),
    "is_awake": lambda w, s: setattr(s[1], "is_awake", True),
    "allow_sleep": lambda w, s: setattr(s[1], "allow_sleep", False),
    "create_shape": lambda w, s: s[1].create_circle(0.1),
    "destroy_shape": lambda w, s: w.destroy_shape(s[1].shapes[0]),
    "density": lambda w, s: setattr(s[1].shapes[0], "density", 2.0),
    "filter": lambda w, s: setattr(s[1].shapes[0], "mask", 1),
    "create_joint": lambda w, s: _joint(w, s),
    "destroy_body": lambda w, s: w.destroy_body(s[0]),
    "type": lambda w, s: setattr(s[0], "type", "static"),
}


@pytest.mark.parametrize("action", sorted(_WAKES))
def test_what_acts_on_a_sleeping_island_wakes_all_of_it(action):
    world = i2.World()
    _ground(world)
    stack = _stack(world, 0.0)
    other = _stack(world, 5.0)
    _settle_until_asleep(world, stack + other)
    _WAKES[action](world, stack)
    alive = [b for b in stack if b.is_valid and b.type == i2.BodyType.DYNAMIC]
    assert alive and all(b.is_awake for b in alive)
    assert not any(b.is_awake for b in other)  # a separate island sleeps on


@pytest.mark.parametrize("change", ["motor_speed", "enable_limit", "destroy"])
def test_joint_changes_wake_the_island(change):
    world = i2.World()
    _ground(world)
    stack = _stack(world, 0.0)
    joint = _joint(world, stack)
    _settle_until_asleep(world, stack)
    if change == "destroy":
        world.destroy_joint(joint)
    else:
        setattr(joint, change, 1.0 if change == "motor_speed" else True)
    assert all(b.is_awake for b in stack)
    world.step(DT)


def test_a_body_on_a_resting_kinematic_platform_sleeps_and_a_moving_one_keeps_it_awake():
    world = i2.World()
    still = world.create_body("kinematic", position=(-3.0, -0.5))
    still.create_box(1.0, 0.5)
    moving = world.create_body("kinematic", position=(3.0, -0.5), linear_velocity=(0.01, 0.0))
    moving.create_box(1.0, 0.5)
    riders = []
    for x in (-3.0, 3.0):
        rider = world.create_body("dynamic", position=(x, 0.5))
        rider.create_box(0.5, 0.5)
        riders.append(rider)
    for _ in range(int(2.0 / DT)):
        world.step(DT)
        assert riders[1].is_awake  # carried at 0.01 m/s, below the threshold, yet kept awake
    assert not riders[0].is_awake
    assert riders[1].position.x == pytest.approx(3.02, abs=2e-3)
