"""What a small world's snapshot keeps from one snapshot to the next (issue 31 item 5): the
events' "no events" constants shared by reference, the maps of rows and the settings' fields
remembered by the world's plan, leaves copied inline. Each must leave a snapshot as
independent of its world as a full copy: a later change of the world (events made, bodies
and shapes created, settings changed) never reaches a snapshot taken before it, and a
restore replays to the same bits."""

from __future__ import annotations

import numpy as np

from impulse2d import events
from test_snapshot import run
from test_snapshot_fast import ten_bodies


def _arrays_of(value):
    """Every array inside a snapshot's copied value (containers and package objects)."""
    if type(value) is np.ndarray:
        yield value
    elif isinstance(value, (tuple, list)):
        for x in value:
            yield from _arrays_of(x)
    elif isinstance(value, dict):
        for x in value.values():
            yield from _arrays_of(x)
    elif hasattr(value, "__dict__") and type(value).__module__.startswith("impulse2d."):
        yield from _arrays_of(vars(value))


def test_a_snapshot_shares_no_number_with_its_world():
    """Every non-empty array a snapshot holds is its own memory (only empty arrays, the
    events' constants, which hold no number, and the joint rows, which the world replaces
    rather than changes, are shared), with contact events on."""
    world = ten_bodies()
    world.settings.enable_contact_events = True
    run(world, 30)
    snap = world.snapshot()
    mine = [a for a in _arrays_of(vars(world)) if a.size]
    for name, value in snap._full_state().items():
        if name == "_joint_index":
            continue  # shared by design: the world replaces its joint rows, never changes them
        for array in _arrays_of(value):
            if array.size:
                assert not any(np.shares_memory(array, a) for a in mine), name
    shared = {id(x) for x in events.SHARED}
    assert id(world._events.contact) not in shared  # events were made: the tracker's own
    assert snap._state["_events"].contact is not world._events.contact


def test_the_events_constants_stay_shared_and_a_restore_replays_the_events():
    """With events off, the tracker's "no events" values are the module's constants, in the
    snapshot too; switched on after the snapshot, the events made since do not reach it, and
    a restore replays the same bits and the same begin events."""
    world = ten_bodies()
    run(world, 5)
    snap = world.snapshot()
    state = snap._state["_events"]
    assert state.contact is events._NO_CONTACT_EVENTS
    assert state.moved is events._NO_MOVES
    world.settings.enable_contact_events = True
    began = _begins(world, 40)
    assert sum(began) > 0  # the balls land in these steps
    after = world.state_hash()
    assert snap._state["_events"].contact is events._NO_CONTACT_EVENTS  # untouched
    world.restore(snap)
    assert world._events.contact is events._NO_CONTACT_EVENTS
    world.settings.enable_contact_events = True
    assert _begins(world, 40) == began
    assert world.state_hash() == after


def _begins(world, steps):
    """The number of contacts that began in each of ``steps`` steps."""
    out = []
    for _ in range(steps):
        world.step(1.0 / 60.0)
        out.append(len(world.contact_events().begin_shapes))
    return out


def test_rows_maps_remembered_by_the_plan_are_still_copied():
    """A body and shape made after a snapshot (the world's map of each body's shapes grows)
    do not reach it; restoring it gives back the map and the bits of then."""
    world = ten_bodies()
    run(world, 10)
    first = world.snapshot()
    world.snapshot()  # a second through the same plan: the maps are known now
    assert "_body_shapes" in world._snapshot_plan.rows_maps
    shapes_then = {k: list(v) for k, v in world._body_shapes.items()}
    run(world, 10)
    expected = world.state_hash()
    world.restore(first)
    extra = world.create_body(position=(0.0, 8.0))
    extra.create_circle(0.25)
    second = world.snapshot()
    assert world._body_shapes != shapes_then
    assert first._state["_body_shapes"] == shapes_then
    assert second._state["_body_shapes"] == world._body_shapes
    assert second._state["_body_shapes"] is not world._body_shapes
    world.restore(first)
    assert world._body_shapes == shapes_then
    run(world, 10)
    assert world.state_hash() == expected


def test_settings_fields_follow_every_change():
    """The settings' fields a snapshot records are remembered while the settings are
    unchanged, and a change (which clears their packed form) is recorded by the next one;
    restoring each gives its own settings and replays its own bits."""
    world = ten_bodies()
    run(world, 10)
    a = world.snapshot()
    b = world.snapshot()
    assert b._settings is a._settings  # unchanged: one record
    world.settings.substeps = 2
    c = world.snapshot()  # before a step has packed the new settings
    run(world, 1)
    d = world.snapshot()
    assert c._settings["substeps"] == d._settings["substeps"] == 2
    assert a._settings["substeps"] == 4
    run(world, 20)
    with_two = world.state_hash()
    world.restore(a)
    assert world.settings.substeps == 4
    run(world, 21)
    with_four = world.state_hash()
    assert with_four != with_two
    world.restore(d)
    assert world.settings.substeps == 2
    run(world, 20)
    assert world.state_hash() == with_two
    world.restore(a)
    run(world, 21)
    assert world.state_hash() == with_four


def test_pools_and_tuples_copied_inline_are_independent():
    """The id pools (a list of free rows) and the gravity tuple, copied inline: freeing rows
    after a snapshot leaves its pool as it was."""
    world = ten_bodies()
    run(world, 5)
    snap = world.snapshot()
    free_then = list(world._body_pool._free)
    body = world.bodies[3]
    world.destroy_body(body)
    assert world._body_pool._free != free_then
    assert snap._state["_body_pool"]._free == free_then
    assert snap._state["_gravity"] == (0.0, -10.0)
    world.restore(snap)
    assert world._body_pool._free == free_then
