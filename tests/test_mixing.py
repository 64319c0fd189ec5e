"""A contact's friction and restitution are its shapes' mixed once, when the contact is made
(``contacts.carry_contacts``), not by the narrowphase on every step; a change of a shape's
coefficient or of the world's mixing rule after the contact exists is mixed into it by the next
step (``step.MIXING_STALE``). So a step after such a change is, bit for bit, the step of a world
built with the new value from the start.

The scene makes the coefficients matter only after the change: a ball (one contact point under
its centre: no torque, no sliding) set down on the ground at 0.6 m/s, below the restitution
threshold, so neither friction nor restitution acts on it until it is kicked sideways and into
the ground, after the change. A world that keeps the old value takes another path (checked:
the change is felt).
"""

from __future__ import annotations

import pytest

from conftest import DT, ground_world

RADIUS = 0.5
SETTLE = 30   # steps: the ball lands and rests (a contact with points)
AFTER = 40    # steps after the kick
BALL = {"friction": 0.1, "restitution": 0.7}  # the ground's: 0.6 and 0.0 (the defaults)


def _run(material: dict, settings: dict, change=None, restore: bool = False) -> str:
    """The motion's hash after the ball (``material``; the world's ``settings``) settles,
    ``change(world, ball_shape)`` is made (if any), the ball is kicked and stepped on.
    ``restore``: the change is made and stepped with, then undone by restoring the snapshot
    taken before it."""
    world, _ = ground_world(enable_sleep=False, **settings)
    ball = world.create_body(position=(0.0, RADIUS + 0.02))
    shape = ball.create_circle(RADIUS, **material)
    for _ in range(SETTLE):
        world.step(DT)
    assert [len(c.points) for c in world.contacts] == [1]
    assert ball.linear_velocity.x == 0.0 and ball.angular_velocity == 0.0
    if change is not None:
        snap = world.snapshot()
        change(world, shape)
        if restore:
            for _ in range(5):
                world.step(DT)
            world.restore(snap)
    ball.linear_velocity = (3.0, -3.0)  # sliding, and into the ground above the threshold
    for _ in range(AFTER):
        world.step(DT)
    return world.state_hash(motion_only=True)


def _set(name, value):
    def change(world, shape):
        setattr(shape, name, value)
    return change


def _rule(name, value):
    def change(world, shape):
        setattr(world.settings, name, value)
    return change


CASES = {
    # name: the ball's material and the settings before, after, and the change between
    "friction": ({}, {}, {"friction": 0.1}, {}, _set("friction", 0.1)),
    "restitution": ({}, {}, {"restitution": 0.7}, {}, _set("restitution", 0.7)),
    "friction_mixing": (BALL, {}, BALL, {"friction_mixing": "min"},
                        _rule("friction_mixing", "min")),
    "restitution_mixing": (BALL, {}, BALL, {"restitution_mixing": "mean"},
                           _rule("restitution_mixing", "mean")),
}


@pytest.mark.parametrize("case", CASES)
def test_a_change_after_contact_steps_as_the_new_value_from_the_start(case):
    material, settings, new_material, new_settings, change = CASES[case]
    from_start = _run(new_material, new_settings)
    assert _run(material, settings, change) == from_start
    assert _run(material, settings) != from_start  # the change is felt


@pytest.mark.parametrize("case", ["friction", "restitution_mixing"])
def test_a_restore_takes_back_the_mixed_coefficients(case):
    """A snapshot taken before the change restores the contact's coefficients with the shapes'
    (or the rules): the world steps as one that never changed."""
    material, settings, _, _, change = CASES[case]
    assert _run(material, settings, change, restore=True) == _run(material, settings)
