"""``World._step_repeat``: several engine steps in one call into the engine, for the pybox2d
layer's ``Step`` (``impulse2d.compat``), bit for bit the steps that ``World.step`` takes one by
one, stopping where the layer's contact listener must hear of a change."""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d as i2d

H = 1.0 / 240.0


def _scene(**settings):
    """A box falling onto the ground from 5 cm and a pendulum driven by a motor against a
    limit (joints, a contact that begins, a motor: LunarLander's ingredients)."""
    world = i2d.World(solver="pgs_block", **settings)
    ground = world.create_body(type="static")
    ground.create_box(20.0, 0.5, center=(0.0, -0.5))
    box = world.create_body(position=(0.0, 0.55))
    box.create_box(0.5, 0.5)
    bar = world.create_body(position=(4.0, 3.0))
    bar.create_box(0.5, 0.1)
    world.create_revolute_joint(ground, bar, (3.5, 3.0), enable_limit=True, lower_angle=-0.3,
                                upper_angle=0.3, enable_motor=True, motor_speed=2.0,
                                max_motor_torque=5.0)
    return world, box, bar


def _touching(world):
    c = world._contacts
    return np.ascontiguousarray(c.key[c.count > 0])


def _buffers(world):
    rows = world._bodies.force.shape[0]
    return np.empty((rows, 2)), np.empty(rows), np.empty((rows, 2))


def _state(world):
    return np.concatenate((world.get_positions().ravel(), world.get_angles(),
                           world.get_velocities().ravel()))


def _one_by_one(world, box, n, force):
    """What the layer did before: ``n`` steps, the force put back before each (written to the
    store, as the layer does: no wake, no sleep timer restarted)."""
    for _ in range(n):
        world._bodies.force[box._row()] = force
        world.step(H)


@pytest.mark.parametrize("events", [False, True])
def test_repeated_steps_are_the_single_steps_bit_for_bit(events):
    """Forty steps of 1/240 s in calls of four, a force on the box put back before each step,
    against forty ``step`` calls; with contact events on, ``_step_repeat`` takes one step a
    call (the events are the world's, step by step) and still matches."""
    settings = {"enable_contact_events": events}
    a, box_a, _ = _scene(**settings)
    b, box_b, _ = _scene(**settings)
    force = (3.0, 0.0)
    calls = 0
    for _ in range(10):
        _one_by_one(a, box_a, 4, force)
        b._bodies.force[box_b._row()] = force
        forces, torques, starts = _buffers(b)
        k = 0
        while k < 4:
            taken, changed, far = b._step_repeat(H, 4 - k, _touching(b), forces, torques,
                                                 starts, k == 0)
            assert taken >= 1
            k += taken
            calls += 1
        assert k == 4
        assert np.array_equal(_state(a), _state(b))
    assert a.time == b.time and a.step_count == b.step_count == 40
    assert calls < 40 or events  # fewer calls than steps where nothing needed Python
    if events:
        assert calls == 40


def test_a_call_stops_after_the_step_whose_touching_contacts_change():
    """The box lands: the call stops after the step in which its contact begins touching (the
    layer's BeginContact goes before the next substep)."""
    world, box, _ = _scene()
    forces, torques, starts = _buffers(world)
    before = _touching(world)
    assert before.shape[0] == 0
    steps = 0
    while True:
        taken, changed, _ = world._step_repeat(H, 50, before, forces, torques, starts,
                                               steps == 0)
        steps += taken
        if changed:
            break
        assert taken == 50
    now = _touching(world)
    assert now.shape[0] == 1
    # the same number of single steps leaves the box touching, one fewer does not
    again, _, _ = _scene()
    for _ in range(steps - 1):
        again.step(H)
    assert _touching(again).shape[0] == 0
    again.step(H)
    assert np.array_equal(_touching(again), now)


def test_the_far_test_counts_a_body_moved_beyond_its_velocity():
    """A body teleported 0.5 m (no velocity) between the start buffer and the end of the call
    is counted; at rest, nothing is."""
    world, box, _ = _scene()
    forces, torques, starts = _buffers(world)
    taken, _, far = world._step_repeat(H, 4, _touching(world), forces, torques, starts, True,
                                       4 * H, 0.1)
    assert taken == 4 and far == 0
    world2, box2, _ = _scene()
    f2, t2, s2 = _buffers(world2)
    world2._step_repeat(H, 1, _touching(world2), f2, t2, s2, True)
    s2[box2._row()] -= (0.5, 0.0)  # as if the box had been moved 0.5 m sideways since
    _, _, far = world2._step_repeat(H, 3, _touching(world2), f2, t2, s2, False, 4 * H, 0.1)
    assert far == 1


def test_an_asleep_world_steps_on_through_repeated_steps():
    # An all-asleep world's step solves nothing (the kernel returns early with no joint
    # substep): the repeated call must keep the world as it is, not divide by that substep.
    world = i2d.World(solver="pgs_block")
    ground = world.create_body(type="static")
    ground.create_box(20.0, 0.5, center=(0.0, -0.5))
    box = world.create_body(position=(0.0, 0.55))
    box.create_box(0.5, 0.5)
    forces, torques, starts = _buffers(world)
    for _ in range(600):
        world._step_repeat(H, 4, _touching(world), forces, torques, starts, True)
        if not box.is_awake:
            break
    assert not box.is_awake
    pose = (tuple(box.position), box.angle)
    for _ in range(20):
        taken, _, _ = world._step_repeat(H, 4, _touching(world), forces, torques, starts, True)
        assert taken >= 1
    assert (tuple(box.position), box.angle) == pose and not box.is_awake
    assert abs(box.position.y - 0.5) < 0.01  # m: resting on the ground
