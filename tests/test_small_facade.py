"""``World.step``'s usual step (:func:`impulse2d._stepping.world_step`): one Python frame that
trusts a plain float ``dt`` in range, events off and the ready flag, and hands everything else
to the checks (:func:`impulse2d._stepping._step_other`).

Two worlds built alike take the same changes and the same ``dt`` values; one steps as usual,
the other has its ready flag cleared before every step, so each of its steps goes through the
checks (the way every step went before the usual step was inlined). Their motion, clock, step
count and events must agree after every step, and the usual world must have taken the short
path on most of its steps (a test of that path, not of the checks).
"""

from __future__ import annotations

import numpy as np
import pytest

import impulse2d
from impulse2d._stepping import NOT_READY

DT = 1.0 / 60.0


def _built(world):
    """A ground and three balls dropped onto it from different heights."""
    ground = world.create_body("static")
    ground.create_box(30.0, 0.5, density=0.0)
    for k in range(3):
        ball = world.create_body(position=(-2.0 + 2.0 * k, 1.5 + 0.7 * k))
        ball.create_circle(0.3, density=1.0, restitution=0.5)
    return {"ground": ground}


def _contact_events_on(world, h):
    world.settings.enable_contact_events = True


def _body_events_on(world, h):
    world.settings.enable_body_events = True


def _events_off(world, h):
    world.settings.enable_contact_events = False
    world.settings.enable_body_events = False


def _sensor(world, h):
    h["sensor"] = h["ground"].create_box(1.0, 2.0, center=(0.0, 1.5), is_sensor=True)


def _no_sensor(world, h):
    world.destroy_shape(h.pop("sensor"))


def _nothing(world, h):
    pass


# Each change, then the dt values stepped after it: np.float64 is a float subclass and an int
# is no float (both are checked, then stepped as the float), 0 and 0.0 are paused steps.
CHANGES = [(_nothing, [DT] * 20), (_contact_events_on, [DT] * 20),
           (_body_events_on, [DT] * 10), (_events_off, [DT] * 20), (_sensor, [DT] * 30),
           (_no_sensor, [DT] * 20), (_nothing, [np.float64(DT), 0, 0.0, DT, 1, DT])]


def _events(world) -> list:
    """What the last step's events say, as plain lists (empty when off)."""
    out = []
    if world.settings.enable_contact_events:
        e = world.contact_events()
        out += [e.begin_shapes.tolist(), e.end_shapes.tolist(), e.hit_shapes.tolist()]
    if world.settings.enable_body_events:
        b = world.body_events()
        out += [b.indices.tolist(), b.positions.tolist()]
    s = world.sensor_events()
    return out + [s.begin_shapes.tolist(), s.end_shapes.tolist()]


def test_the_usual_step_and_the_checked_step_agree_through_every_exit():
    usual = impulse2d.World(gravity=(0.0, -10.0))
    checked = impulse2d.World(gravity=(0.0, -10.0))
    handles = (_built(usual), _built(checked))
    short = 0
    begun = sensed = 0  # contacts begun while contact events were on, sensor overlaps begun
    for change, steps in CHANGES:
        for world, h in zip((usual, checked), handles):
            change(world, h)
        for dt in steps:
            short += (usual._step_ready[0] is usual._joint_index
                      and usual._step_ready[1] is usual.settings._derived
                      and not usual._events.on and type(dt) is float and dt > 0.0)
            usual.step(dt)
            checked._step_ready = NOT_READY
            checked.step(dt)
            assert usual.state_hash(motion_only=True) == checked.state_hash(motion_only=True)
            assert usual.time == checked.time and usual.step_count == checked.step_count
            events = _events(usual)
            assert events == _events(checked), change.__name__
            begun += len(events[0]) if usual.settings.enable_contact_events else 0
            sensed += len(events[-2])
    assert usual.step_count == sum(len(steps) for _, steps in CHANGES)
    total = 0.0
    for _, steps in CHANGES:
        for dt in steps:
            total += float(dt)  # (in step order: the same roundings as the clock's)
    assert usual.time == total
    assert short > 50
    assert begun > 0 and sensed > 0  # (the events compared were made)


def test_the_usual_step_runs_the_queued_functions_and_refuses_a_bad_dt():
    world = impulse2d.World(gravity=(0.0, -10.0))
    _built(world)
    for _ in range(3):
        world.step(DT)
    assert world._step_ready is not NOT_READY  # the next step is a usual one
    ran = []
    world.after_step(lambda: ran.append(world.step_count))
    world.step(DT)
    assert ran == [4]  # once, after the step that followed
    world.step(DT)
    assert ran == [4]
    before = world.state_hash()
    for bad in (float("nan"), -DT, 1.0e-12, 2.0e6):
        with pytest.raises(ValueError, match="dt"):
            world.step(bad)
    with pytest.raises(TypeError, match="dt"):
        world.step("0.016")
    assert world.state_hash() == before and world.step_count == 5
    assert world.time == DT + DT + DT + DT + DT


def test_the_flag_trusts_only_its_own_dt_and_after_step_clears_it():
    """The usual step takes the ``dt`` the ready flag was made with without checking it again
    (the same float object: the same value, checked once); any other ``dt`` is checked. A
    function queued by ``after_step`` clears the flag (the usual step never reads the queue),
    so it runs after the next step, once."""
    world = impulse2d.World(gravity=(0.0, -10.0))
    alone = impulse2d.World(gravity=(0.0, -10.0))
    _built(world)
    _built(alone)
    dt = 1.0 / 60.0
    for _ in range(3):
        world.step(dt)
        alone.step(DT)
    assert world._step_ready[3][2] is dt  # the flag's own dt
    half = float(str(dt / 2.0))  # another float object: checked, then the usual step
    other = float(repr(dt))  # equal to the flag's dt, not the same object
    assert other == dt and other is not dt
    for step in (half, other, np.float64(dt), 1):
        world.step(step)
        alone._step_ready = NOT_READY  # every step through the checks
        alone.step(float(step))
        assert type(world.time) is float and world.time == alone.time
        assert world.state_hash(motion_only=True) == alone.state_hash(motion_only=True)
    with pytest.raises(ValueError, match="dt"):
        world.step(float("nan"))
    ran = []
    world.step(dt)
    assert world._step_ready is not NOT_READY
    world.after_step(lambda: ran.append(world.step_count))
    assert world._step_ready is NOT_READY
    world.step(dt)
    world.step(dt)
    assert ran == [9] and world.step_count == 10
