"""A world that is all asleep: its step returns after the pair stage (``step._at_rest``), and
must be the step that runs every stage, to the bit; and a pile that slept a long time wakes to
the motion of one that never slept."""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2

DT = 1.0 / 60.0


def _pile(world, base=4):
    ground = world.create_body("static", position=(0.0, -1.0))
    ground.create_box(20.0, 1.0)
    bodies = []
    for row in range(base):
        for k in range(base - row):
            x = k - (base - row - 1) / 2.0
            b = world.create_body("dynamic", position=(x, 0.5 + row * 1.01 + 0.01))
            b.create_box(0.5, 0.5)
            bodies.append(b)
    return bodies


def _poses(bodies):
    return np.array([(*b.position, b.angle, *b.linear_velocity, b.angular_velocity)
                     for b in bodies])


def _asleep(world, bodies, limit=600):
    for _ in range(limit):
        world.step(DT)
        if not any(b.is_awake for b in bodies):
            return
    raise AssertionError("the pile did not fall asleep")


def _run(enable_sleep, keep_full_step, solver="soft_step", asleep_steps=1000, platform=None):
    """A pile, settled (and asleep, with sleeping on), ``asleep_steps`` more steps, then a box
    dropped from 1.5 m above its top box and 240 steps. ``keep_full_step``: a body far away
    is awake for good and still (no gravity), so that no step of the world is an all-asleep
    one and every stage runs (else it is static). Returns (poses of the pile when settled,
    after the asleep steps, at the end; the dropped box's pose at the end; whether the last
    asleep step returned early). ``platform``: an angle (rad): an idle kinematic box
    beside the pile, turned by it."""
    world = i2.World(enable_sleep=enable_sleep, solver=solver)
    pile = _pile(world)
    # The same rows either way (a shape's row orders its contacts): static, or awake for good.
    far = world.create_body("dynamic" if keep_full_step else "static", position=(500.0, 500.0),
                            gravity_scale=0.0, allow_sleep=False)
    far.create_circle(0.5)
    if platform is not None:  # 1 cm right of the pile's base: a speculative contact
        idle = world.create_body("kinematic", position=(2.51, 0.5), angle=platform)
        idle.create_box(0.5, 0.5)
    if enable_sleep:
        _asleep(world, pile)
    else:
        for _ in range(200):
            world.step(DT)
    settled = _poses(pile)
    for _ in range(asleep_steps):
        world.step(DT)
    still = _poses(pile)
    # The stages after the pair search ran or not (their shares of the last step's profile).
    early = world.profile.collide == 0.0 and world.profile.solve == 0.0
    top = max(pile, key=lambda b: b.position.y)
    box = world.create_body("dynamic", position=(top.position.x + 0.2, top.position.y + 2.5))
    box.create_box(0.5, 0.5)
    for _ in range(240):
        world.step(DT)
    return settled, still, _poses(pile), _poses([box])[0], early


@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
def test_an_all_asleep_step_is_the_full_step_to_the_bit(solver):
    """The same pile with and without a far, awake body that keeps every stage running: every
    pose equal to the bit, asleep for 1000 steps and after a dropped box wakes it."""
    quick = _run(True, False, solver)
    full = _run(True, True, solver)
    assert quick[4] and not full[4]
    for a, b in zip(quick[:4], full[:4]):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("angle", [0.0, 0.3])
def test_an_idle_kinematic_body_beside_a_sleeping_pile_changes_nothing(angle):
    """An idle kinematic box beside the sleeping pile: the step returns early once the box's
    pose is what finalize would make of it (its rotation renormalised to a fixed point), and
    every pose equals the full step's to the bit either way."""
    quick = _run(True, False, platform=angle)
    full = _run(True, True, platform=angle)
    for a, b in zip(quick[:4], full[:4]):
        assert np.array_equal(a, b)
    assert not full[4]
    if angle == 0.0:
        assert quick[4]


def test_a_sleeping_pile_keeps_its_poses_to_the_bit_and_wakes_when_hit():
    settled, still, end, box, _ = _run(True, False)
    assert np.array_equal(settled, still)  # 1000 steps asleep: not one bit moved
    assert np.all(still[:, 3:] == 0.0)     # and no velocity
    # The dropped box woke the pile: it moved (the hit), and came to rest on the top box.
    assert not np.array_equal(still[:, :3], end[:, :3])
    top = still[np.argmax(still[:, 1])]
    assert box[1] == pytest.approx(top[1] + 1.0, abs=0.02)   # resting on it, 1 m above


def test_a_pile_asleep_for_1000_steps_wakes_to_the_motion_of_one_never_asleep():
    """Sleeping on (asleep 1000 steps, then woken by a dropped box) against sleeping off (the
    same steps, every body simulated throughout): the settled poses agree within the creep
    a simulated pile has over 1000 steps, and the dropped box ends on the top box as in the
    pile that never slept (within 2 cm), every box of the pile within 2 cm and 0.02 rad."""
    _, still_on, end_on, box_on, *_ = _run(True, False)
    _, still_off, end_off, box_off, *_ = _run(False, False)
    assert np.allclose(still_on[:, :3], still_off[:, :3], atol=0.01)
    assert np.allclose(end_on[:, :2], end_off[:, :2], atol=0.02)
    assert np.allclose(end_on[:, 2], end_off[:, 2], atol=0.02)
    assert np.allclose(box_on[:3], box_off[:3], atol=0.02)


def test_a_joint_asleep_keeps_its_reaction_force():
    """A hanging pendulum falls asleep with its joint holding m g; its reaction force reads the
    same over 300 steps asleep (those steps solve nothing and keep the last substep)."""
    world = i2.World()
    anchor = world.create_body("static", position=(0.0, 5.0))
    bob = world.create_body("dynamic", position=(0.0, 3.0))
    bob.create_circle(0.25, density=2.0)
    joint = world.create_revolute_joint(anchor, bob, (0.0, 5.0))
    _asleep(world, [bob])
    force = tuple(joint.reaction_force)
    assert force[1] == pytest.approx(-bob.mass * world.gravity.y, rel=0.02)
    position = tuple(bob.position)
    for _ in range(300):
        world.step(DT)
        assert tuple(joint.reaction_force) == force
    assert tuple(bob.position) == position and not bob.is_awake


def test_a_force_on_a_body_put_to_sleep_is_not_applied_when_it_wakes():
    """apply_force, then is_awake = False: the force is dropped (as the next step's finalize
    dropped it before the all-asleep step could return early), and the body woken later
    falls as one never pushed."""
    pushed, plain = (i2.World() for _ in range(2))
    bodies = []
    for world in (pushed, plain):
        b = world.create_body("dynamic", position=(0.0, 10.0), gravity_scale=0.0)
        b.create_circle(0.5)
        bodies.append(b)
    bodies[0].apply_force((1000.0, 0.0))
    for b in bodies:
        b.is_awake = False
    for _ in range(10):
        pushed.step(DT)
        plain.step(DT)
    for b in bodies:
        b.is_awake = True
    for _ in range(10):
        pushed.step(DT)
        plain.step(DT)
    assert tuple(bodies[0].linear_velocity) == (0.0, 0.0)
    assert tuple(bodies[0].position) == tuple(bodies[1].position) == (0.0, 10.0)


def _woken_within(world, bodies, steps):
    """Whether every body of ``bodies`` was awake after one of the next ``steps`` steps (a
    woken pile may settle and sleep again before they are over)."""
    for _ in range(steps):
        world.step(DT)
        if all(b.is_awake for b in bodies):
            return True
    return False


def test_wakes_still_reach_an_all_asleep_world():
    """Each way in while everything sleeps: a body created above the pile falls onto it and
    wakes it; a kinematic body given a velocity toward it wakes it; a velocity set on one
    body wakes its island; a shape added to a sleeping body wakes it."""
    # a falling body
    world = i2.World()
    pile = _pile(world, 3)
    _asleep(world, pile)
    ball = world.create_body("dynamic", position=(0.0, 5.0))
    ball.create_circle(0.25)
    assert _woken_within(world, pile, 90)
    # a kinematic body moving in
    world = i2.World()
    pile = _pile(world, 3)
    _asleep(world, pile)
    pusher = world.create_body("kinematic", position=(-4.0, 0.5))
    pusher.create_box(0.5, 0.5)
    for _ in range(30):
        world.step(DT)
    assert not any(b.is_awake for b in pile)  # a kinematic body at rest wakes nothing
    pusher.linear_velocity = (2.0, 0.0)
    assert _woken_within(world, pile, 120)  # 2 m to go at 2 m/s
    # a velocity, and a shape
    world = i2.World()
    pile = _pile(world, 3)
    _asleep(world, pile)
    start = _poses(pile)
    pile[0].linear_velocity = (0.0, 0.5)
    world.step(DT)
    assert all(b.is_awake for b in pile) and not np.array_equal(_poses(pile), start)
    _asleep(world, pile)
    pile[-1].create_circle(0.2, center=(0.0, 0.6))
    assert all(b.is_awake for b in pile)
