"""The usual step's ready flag (``World._step_ready``, :func:`impulse2d._stepping.step_world`).

After a step whose full checks held, a world's next steps compare three things and trust a
flag for the rest; every change between two steps must still reach the next step. Each kind
of change is made to two worlds built alike: one steps as usual, the other has its flag
cleared before every step, so each of its steps takes the full checks (what every step did
before the flag). A change the flag missed would step stale stores, joint rows, settings or
verbs in the first world only: their states must stay bit for bit the same.
"""

from __future__ import annotations

import impulse2d
from impulse2d._stepping import NOT_READY

DT = 1.0 / 60.0


def _built(world):
    """A ground, a resting box, a pendulum at rest on a revolute joint; the handles by
    name."""
    ground = world.create_body("static")
    ground.create_box(30.0, 0.5, density=0.0)
    box = world.create_body(position=(0.0, 1.0))
    box.create_box(0.5, 0.5, density=1.0)
    anchor = world.create_body("static", position=(-10.0, 8.0))
    bob = world.create_body(position=(-10.0, 6.0))  # hanging at rest: it falls asleep
    bob.create_circle(0.2, density=1.0)
    joint = world.create_revolute_joint(anchor, bob, (-10.0, 8.0))
    return {"ground": ground, "box": box, "anchor": anchor, "bob": bob, "joint": joint}


def _add_body(world, h):
    h["ball"] = world.create_body(position=(3.0, 4.0), linear_velocity=(-1.0, 0.0))
    h["ball"].create_circle(0.3, density=2.0)


def _add_shape(world, h):
    h["extra"] = h["box"].create_circle(0.3, center=(0.4, 0.4), density=1.0)


def _grow_stores(world, h):
    # more bodies than the body store's first rows: new stores between two steps
    h["rain"] = []
    for k in range(24):
        body = world.create_body(position=(-6.0 + 0.6 * k, 6.0 + 0.1 * k))
        body.create_circle(0.2, density=1.0)
        h["rain"].append(body)


def _destroy_shape(world, h):
    world.destroy_shape(h.pop("extra"))


def _destroy_body(world, h):
    world.destroy_body(h.pop("ball"))


def _add_joint(world, h):
    h["rope"] = world.create_distance_joint(h["box"], h["rain"][3], (0.0, 1.0),
                                            tuple(h["rain"][3].position))


def _destroy_joint(world, h):
    world.destroy_joint(h.pop("rope"))


def _change_a_setting(world, h):
    world.settings.substeps = 2


def _replace_the_settings(world, h):
    world.settings = world.settings.replace(velocity_iterations=3, substeps=4)


def _add_a_chain(world, h):
    h["ground"].create_chain([(-20.0, 3.0), (-14.0, 0.6), (-12.0, 0.6)])


def _switch_contacts_off(world, h):
    world.pre_solve = lambda contact: False


def _switch_contacts_on(world, h):
    world.pre_solve = None


def _diagnostics_on(world, h):
    world.settings.diagnostics = True


def _diagnostics_off(world, h):
    world.settings.diagnostics = False


def _take(world, h):
    h["snapshot"] = world.snapshot()


def _restore(world, h):
    world.restore(h["snapshot"])


def _wake(world, h):
    assert not h["bob"].is_awake  # (the jointed island fell asleep in the steps before)
    h["bob"].is_awake = True


def _push_a_sleeper(world, h):
    assert not h["bob"].is_awake
    h["bob"].apply_linear_impulse((0.4, 0.0))


CHANGES = [(_add_body, 20), (_add_shape, 10), (_grow_stores, 20), (_destroy_shape, 10),
           (_take, 0), (_destroy_body, 10), (_add_joint, 20), (_destroy_joint, 10),
           (_change_a_setting, 10), (_replace_the_settings, 10), (_add_a_chain, 20),
           (_switch_contacts_off, 5), (_switch_contacts_on, 10), (_diagnostics_on, 5),
           (_diagnostics_off, 10), (_restore, 10), (_restore, 300), (_wake, 90),
           (_push_a_sleeper, 30)]
"""Each change, and the steps taken after it."""


def test_every_change_between_usual_steps_reaches_the_next_step():
    usual = impulse2d.World(gravity=(0.0, -10.0))
    checked = impulse2d.World(gravity=(0.0, -10.0))
    handles = (_built(usual), _built(checked))
    for _ in range(30):
        usual.step(DT)
        checked._step_ready = NOT_READY
        checked.step(DT)
    flagged = 0
    for change, steps in CHANGES:
        for world, h in zip((usual, checked), handles):
            change(world, h)
        for _ in range(steps):
            flagged += usual._step_ready[0] is usual._joint_index
            usual.step(DT)
            checked._step_ready = NOT_READY
            checked.step(DT)
            assert (usual.state_hash(motion_only=True)
                    == checked.state_hash(motion_only=True)), change.__name__
        assert usual.state_hash() == checked.state_hash(), change.__name__
    # most steps were usual ones that trusted the flag (a test of the flag, not of the checks)
    assert flagged > 300
    assert handles[0]["bob"].linear_velocity[0] != 0.0  # (the push woke it: it swings)


def test_a_new_world_and_a_restored_one_start_without_the_flag():
    world = impulse2d.World()
    assert world._step_ready is NOT_READY
    _built(world)
    snap = world.snapshot()
    for _ in range(3):
        world.step(DT)
    assert world._step_ready is not NOT_READY
    world.restore(snap)
    assert world._step_ready is NOT_READY
