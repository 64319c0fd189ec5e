"""The world is locked while a step callback runs; ``world.after_step`` (issue 29, item 5).

Destroying a coin in ``pre_solve`` raised ``IndexError`` from inside the step, and creating a
body there was silently half-stepped. Every mutating call made from a callback now raises
``WorldLockedError`` ("the world is stepping: ... after world.step returns") before it writes
anything: the world then steps to exactly the state of a twin whose callback did not try
(equal ``state_hash``, settings and gravity). ``world.after_step(fn)`` is the way to do it.
"""

from __future__ import annotations

import copy
import pickle

import pytest

import impulse2d as i2d
from conftest import DT

MESSAGE = r"^the world is stepping: .+ after world\.step returns"


def _world():
    """Ground, a chain, a box and a ball resting on it, joined, a kinematic paddle, a coin."""
    world = i2d.World()
    ground = world.create_body(type="static")
    ground.create_box(10.0, 0.5, center=(0.0, -0.5))
    chain = ground.create_chain([(6.0, 2.0), (4.0, 0.0), (-4.0, 0.0), (-6.0, 2.0)])
    box = world.create_body(position=(0.0, 0.5))
    box.create_box(0.5, 0.5)
    ball = world.create_body(position=(1.5, 0.5))
    ball.create_circle(0.5)
    joint = world.create_revolute_joint(box, ball, (0.75, 0.5), enable_motor=True,
                                        max_motor_torque=5.0)
    paddle = world.create_body(type="kinematic", position=(-3.0, 3.0), angular_velocity=1.0)
    paddle.create_box(1.0, 0.1)
    coin = world.create_body(position=(-1.5, 0.25))
    coin.create_circle(0.25)
    world.step(DT)
    return world, dict(ground=ground, chain=chain, box=box, ball=ball, joint=joint,
                       paddle=paddle, coin=coin, snap=world.snapshot())


def _new_pair(world, h):
    return world.create_revolute_joint(h["box"], h["coin"], (-1.0, 0.5))


CALLS = {
    "create_body": lambda w, h: w.create_body(position=(0.0, 3.0)),
    "destroy_body": lambda w, h: w.destroy_body(h["coin"]),
    "destroy_shape": lambda w, h: w.destroy_shape(h["ball"].shapes[0]),
    "destroy_chain": lambda w, h: w.destroy_chain(h["chain"]),
    "destroy_joint": lambda w, h: w.destroy_joint(h["joint"]),
    "create_revolute_joint": _new_pair,
    "create_distance_joint": lambda w, h: w.create_distance_joint(h["box"], h["coin"],
                                                                  (0.0, 0.5), (-1.5, 0.25)),
    "create_mouse_joint": lambda w, h: w.create_mouse_joint(h["box"], (0.0, 1.0), 100.0),
    "create_circle": lambda w, h: h["box"].create_circle(0.1),
    "create_box": lambda w, h: h["box"].create_box(0.1, 0.1, center=(0.0, 0.6)),
    "create_polygon": lambda w, h: h["box"].create_polygon([(0, 0), (0.2, 0), (0, 0.2)]),
    "create_capsule": lambda w, h: h["box"].create_capsule((0, 0), (0.2, 0), 0.05),
    "create_segment": lambda w, h: h["ground"].create_segment((0, 3), (1, 3)),
    "create_chain": lambda w, h: h["ground"].create_chain([(0, 4), (1, 4), (2, 4)]),
    "type": lambda w, h: setattr(h["box"], "type", "static"),
    "position": lambda w, h: setattr(h["box"], "position", (0.0, 2.0)),
    "angle": lambda w, h: setattr(h["box"], "angle", 1.0),
    "linear_velocity": lambda w, h: setattr(h["box"], "linear_velocity", (1.0, 0.0)),
    "angular_velocity": lambda w, h: setattr(h["box"], "angular_velocity", 1.0),
    "kinematic velocity": lambda w, h: setattr(h["paddle"], "angular_velocity", -3.0),
    "linear_damping": lambda w, h: setattr(h["box"], "linear_damping", 1.0),
    "angular_damping": lambda w, h: setattr(h["box"], "angular_damping", 1.0),
    "gravity_scale": lambda w, h: setattr(h["box"], "gravity_scale", 0.0),
    "fixed_rotation": lambda w, h: setattr(h["box"], "fixed_rotation", True),
    "bullet": lambda w, h: setattr(h["box"], "bullet", True),
    "is_awake": lambda w, h: setattr(h["box"], "is_awake", False),
    "allow_sleep": lambda w, h: setattr(h["box"], "allow_sleep", False),
    "sleep_threshold": lambda w, h: setattr(h["box"], "sleep_threshold", 1.0),
    "apply_force": lambda w, h: h["box"].apply_force((0.0, 100.0)),
    "apply_torque": lambda w, h: h["box"].apply_torque(10.0),
    "apply_linear_impulse": lambda w, h: h["box"].apply_linear_impulse((0.0, 5.0), (0.5, 1.0)),
    "apply_angular_impulse": lambda w, h: h["box"].apply_angular_impulse(1.0),
    "density": lambda w, h: setattr(h["box"].shapes[0], "density", 5.0),
    "friction": lambda w, h: setattr(h["box"].shapes[0], "friction", 0.0),
    "restitution": lambda w, h: setattr(h["box"].shapes[0], "restitution", 1.0),
    "is_sensor": lambda w, h: setattr(h["box"].shapes[0], "is_sensor", True),
    "enable_sensor_events": lambda w, h: setattr(h["box"].shapes[0], "enable_sensor_events",
                                                 False),
    "mask": lambda w, h: setattr(h["box"].shapes[0], "mask", 0),
    "category": lambda w, h: setattr(h["box"].shapes[0], "category", 2),
    "group": lambda w, h: setattr(h["box"].shapes[0], "group", -1),
    "joint motor_speed": lambda w, h: setattr(h["joint"], "motor_speed", 3.0),
    "joint enable_limit": lambda w, h: setattr(h["joint"], "enable_limit", True),
    "joint limits": lambda w, h: setattr(h["joint"], "limits", (-0.1, 0.1)),
    "settings.substeps": lambda w, h: setattr(w.settings, "substeps", 1),
    "settings.solver": lambda w, h: setattr(w.settings, "solver", "pgs"),
    "settings.max_linear_speed": lambda w, h: setattr(w.settings, "max_linear_speed", 1.0),
    "settings": lambda w, h: setattr(w, "settings", w.settings.replace(contact_hertz=5.0)),
    "gravity": lambda w, h: setattr(w, "gravity", (0.0, 10.0)),
    "pre_solve": lambda w, h: setattr(w, "pre_solve", None),
    "pair_filter": lambda w, h: setattr(w, "pair_filter", lambda a, b: False),
    "restore": lambda w, h: w.restore(h["snap"]),
    "step": lambda w, h: w.step(DT),
    "step(0)": lambda w, h: w.step(0.0),
}


def _run(call=None, where="pre_solve", steps=5):
    """The scene stepped ``steps`` times with a callback that (with ``call``) tries it once;
    returns the world and what the try raised."""
    world, h = _world()
    raised = []

    def attempt():
        if call is not None and not raised:
            with pytest.raises(i2d.WorldLockedError, match=MESSAGE) as info:
                call(world, h)
            raised.append(info.value)

    if where == "pre_solve":
        def pre_solve(contact):
            attempt()
            return True
        world.pre_solve = pre_solve
    else:
        def pair_filter(a, b):
            attempt()
            return True
        world.pair_filter = pair_filter
        h["coin"].position = (-1.5, 5.0)  # its pairs are new at the next step: asked then
    for _ in range(steps):
        world.step(DT)
    return world, raised


def _same(world, twin):
    assert world.state_hash() == twin.state_hash()
    assert world.settings == twin.settings and world.gravity == twin.gravity
    assert world.pre_solve is not None or twin.pre_solve is None
    assert len(world.bodies) == len(twin.bodies) and len(world.joints) == len(twin.joints)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_mutating_call_in_pre_solve_raises_and_changes_nothing(name):
    world, raised = _run(CALLS[name])
    assert len(raised) == 1 and isinstance(raised[0], RuntimeError)
    twin, _ = _run(None)
    _same(world, twin)


@pytest.mark.parametrize("name", ["create_body", "destroy_body", "position", "apply_force",
                                  "settings.substeps", "joint motor_speed", "density"])
def test_mutating_calls_in_the_pair_filter_raise_and_change_nothing(name):
    world, raised = _run(CALLS[name], where="pair_filter")
    assert len(raised) == 1
    twin, _ = _run(None, where="pair_filter")
    _same(world, twin)


def test_the_message_names_the_call():
    world, h = _world()
    messages = []

    def pre_solve(contact):
        for call in (lambda: world.destroy_body(h["coin"]),
                     lambda: setattr(h["box"], "position", (0, 1))):
            try:
                call()
            except i2d.WorldLockedError as error:
                messages.append(str(error))
        return True

    world.pre_solve = pre_solve
    world.step(DT)
    assert "World.destroy_body" in messages[0] and "Body.position" in messages[1]
    assert "world.after_step" in messages[0]


def test_reading_and_user_data_are_free_inside_a_callback():
    world, h = _world()
    seen = []

    def pre_solve(contact):
        seen.append((contact.shape_a.body.position, len(world.contacts),
                     world.ray_cast((0.0, 5.0), (0.0, -10.0)) is not None))
        contact.shape_a.user_data = "touched"
        return True

    world.pre_solve = pre_solve
    world.step(DT)
    assert seen and all(hit for _, _, hit in seen)
    assert any(s.user_data == "touched" for s in world.shapes)


def test_a_coin_destroyed_in_pre_solve_through_after_step():
    # The game's pattern: the player's touch queues the coin's removal; it goes right after
    # the step, with its contacts; the step itself ran as without the removal.
    world, h = _world()
    coin = h["coin"]
    ground_shape = h["ground"].shapes[0]
    taken = []

    def pre_solve(contact):
        bodies = (contact.shape_a.body, contact.shape_b.body)
        if coin in bodies and not taken:
            taken.append(world.step_count)
            world.after_step(lambda: world.destroy_body(coin))
        return True

    world.pre_solve = pre_solve
    twin, _ = _world()
    twin.pre_solve = lambda contact: True
    world.step(DT)
    twin.step(DT)
    assert taken == [1] and not coin.is_valid
    assert world.body_count == twin.body_count - 1
    assert all(coin not in (c.shape_a.body, c.shape_b.body) for c in world.contacts)
    # the step itself is the twin's: every other body where the twin's is
    for mine, theirs in zip(world.bodies, [b for b in twin.bodies if b != twin.bodies[-1]]):
        assert mine.position == theirs.position and mine.angle == theirs.angle
    for _ in range(30):
        world.step(DT)
    assert taken == [1] and ground_shape.is_valid


def test_after_step_runs_in_order_once_after_the_next_step():
    world, h = _world()
    order = []
    world.after_step(lambda: order.append(("first", world.step_count)))
    world.after_step(lambda: order.append(("second", world.step_count)))
    assert order == []
    world.step(DT)
    assert order == [("first", 2), ("second", 2)]
    world.step(DT)
    assert len(order) == 2


def test_after_step_exceptions_propagate_after_every_function_ran():
    world, h = _world()
    ran = []

    def boom():
        raise KeyError("boom")

    world.after_step(boom)
    world.after_step(lambda: world.destroy_body(h["coin"]))
    world.after_step(lambda: ran.append(world.step_count))
    with pytest.raises(KeyError, match="boom"):
        world.step(DT)
    assert ran == [2] and not h["coin"].is_valid and world.step_count == 2
    world.step(DT)  # consistent: steps on, nothing queued twice
    assert ran == [2]


def test_functions_queued_by_a_step_that_raised_wait_for_the_next_step():
    world, h = _world()
    done = []

    def pre_solve(contact):
        world.after_step(lambda: done.append(world.step_count))
        raise ZeroDivisionError("in the callback")

    world.pre_solve = pre_solve
    with pytest.raises(ZeroDivisionError):
        world.step(DT)
    assert done == []
    world.pre_solve = None
    world.step(DT)
    assert len(done) >= 1 and set(done) == {2}


def test_after_step_takes_a_callable():
    world, _ = _world()
    with pytest.raises(TypeError, match="fn"):
        world.after_step("destroy")


def test_the_lock_is_released_when_a_callback_raises():
    world, h = _world()
    world.pre_solve = lambda contact: 1 / 0
    with pytest.raises(ZeroDivisionError):
        world.step(DT)
    world.pre_solve = None
    world.destroy_body(h["coin"])  # not locked any more
    world.step(DT)
    assert not h["coin"].is_valid


def test_a_copy_has_no_queue_of_its_own_and_locks_its_own_settings():
    world, h = _world()
    ran = []
    world.after_step(lambda: ran.append("original"))  # a lambda: pickles must not carry it
    clone = copy.deepcopy(world)
    loaded = pickle.loads(pickle.dumps(world))
    for other in (clone, loaded):
        tried = []

        def pre_solve(contact, other=other, tried=tried):
            if not tried:
                with pytest.raises(i2d.WorldLockedError):
                    other.settings.substeps = 2
                tried.append(True)
            return True

        other.pre_solve = pre_solve
        other.step(DT)
        assert tried and other.settings.substeps == world.settings.substeps
    assert ran == []
    world.step(DT)
    assert ran == ["original"]
