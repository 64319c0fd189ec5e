"""The public API: handles, bulk state, contacts, and clear errors that change nothing."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, ground_world, run


def _state(world):
    """Everything observable about a world, to check that a failed call changed nothing."""
    return (len(world.bodies), len(world.shapes), world.get_positions().tobytes(),
            world.get_velocities().tobytes(), [b.mass for b in world.bodies])


def test_vec2_and_body_properties_round_trip():
    world = i2d.World()
    body = world.create_body(position=(1, 2), angle=0.5, linear_velocity=(3, 4), angular_velocity=5,
                             linear_damping=0.1, angular_damping=0.2, gravity_scale=0.5, user_data="me")
    assert body.position == (1.0, 2.0) and isinstance(body.position, i2d.Vec2)
    assert body.position.x == 1.0 and body.angle == 0.5
    assert body.linear_velocity == (3.0, 4.0) and body.angular_velocity == 5.0
    assert (body.linear_damping, body.angular_damping, body.gravity_scale) == (0.1, 0.2, 0.5)
    assert body.user_data == "me" and body.type is i2d.BodyType.DYNAMIC
    body.position = (5, 6)
    assert body.position == (5.0, 6.0)
    assert (i2d.Vec2(1, 2) + (3, 4)) == (4, 6) and i2d.Vec2(3, 4).length == 5.0


def test_mass_centre_and_inertia_of_a_compound_body():
    world = i2d.World()
    body = world.create_body(position=(10.0, 0.0), angle=math.pi / 2)
    body.create_box(1.0, 0.5, density=2.0)                     # 2 x 1 m, 4 kg at the origin
    body.create_circle(0.5, center=(2.0, 0.0), density=1.0)    # pi/4 kg at x = 2
    m_box, m_disc = 4.0, math.pi * 0.25
    assert body.mass == pytest.approx(m_box + m_disc, rel=1e-12)
    cx = m_disc * 2.0 / (m_box + m_disc)
    assert body.local_center == pytest.approx((cx, 0.0), abs=1e-12)
    # Rotated by 90 degrees, the local x axis points up.
    assert body.world_center == pytest.approx((10.0, cx), abs=1e-12)
    i_box = m_box * (2.0**2 + 1.0**2) / 12.0
    i_disc = m_disc * 0.5**2 / 2.0
    expected = i_box + m_box * cx**2 + i_disc + m_disc * (2.0 - cx) ** 2
    assert body.inertia == pytest.approx(expected, rel=1e-9)


def test_fixed_rotation_and_static_bodies_have_no_rotational_response():
    world = i2d.World()
    body = world.create_body(fixed_rotation=True)
    body.create_box(1, 1)
    body.apply_angular_impulse(10.0)
    assert body.angular_velocity == 0.0 and body.inertia == 0.0
    ground = world.create_body(type="static")
    ground.create_box(1, 1)
    assert ground.mass == 0.0 and not ground.is_awake


def test_forces_and_impulses_at_points():
    world = i2d.World(gravity=(0, 0))
    body = world.create_body()
    body.create_box(0.5, 0.5)  # 1 kg, I = 1/6
    body.apply_linear_impulse((0.0, 1.0), point=(0.5, 0.0))
    assert body.linear_velocity == pytest.approx((0.0, 1.0))
    assert body.angular_velocity == pytest.approx(0.5 * 6.0)
    body.linear_velocity = (0, 0)
    body.angular_velocity = 0
    body.apply_force((60.0, 0.0))  # a = 60 m/s^2 for one step of 1/60 s
    world.step(DT)
    assert body.linear_velocity.x == pytest.approx(1.0, rel=1e-12)
    world.step(DT)  # forces are cleared after each step
    assert body.linear_velocity.x == pytest.approx(1.0, rel=1e-12)
    body.apply_torque(6.0)
    world.step(DT)
    assert body.angular_velocity == pytest.approx(6.0 * 6.0 * DT, rel=1e-9)


def test_kinematic_body_moves_at_its_velocity_and_pushes_dynamic_bodies():
    world = i2d.World()
    paddle = world.create_body(type="kinematic", position=(0, 0), linear_velocity=(0, 1))
    paddle.create_box(2, 0.1)
    box = world.create_body(position=(0, 0.6))
    box.create_box(0.5, 0.5)
    run(world, 1.0)
    assert paddle.position.y == pytest.approx(1.0, abs=1e-9)
    assert paddle.linear_velocity == (0.0, 1.0)
    assert box.position.y == pytest.approx(1.0 + 0.1 + 0.5, abs=0.02)


def test_bulk_state_and_contacts():
    world, ground = ground_world()
    box = world.create_body(position=(0, 0.5))
    box.create_box(0.5, 0.5)
    run(world, 1.0)
    pos = world.get_positions()
    assert pos.shape == (2, 2) and pos.dtype == np.float64
    assert world.get_angles().shape == (2,)
    assert world.get_velocities().shape == (2, 3)
    assert np.allclose(pos[1], box.position)
    contacts = world.contacts
    assert len(contacts) == 1
    c = contacts[0]
    assert {c.shape_a, c.shape_b} == {ground.shapes[0], box.shapes[0]}
    sign = 1.0 if c.shape_a == ground.shapes[0] else -1.0
    assert c.normal == pytest.approx((0.0, sign), abs=1e-9)
    assert len(c.points) == 2
    # The two normal impulses carry the box's weight: m g dt per step, within 1 %.
    assert sum(p.normal_impulse for p in c.points) == pytest.approx(10.0 * DT, rel=0.01)
    assert all(-0.01 < p.separation < 0.005 for p in c.points)


def test_destroying_a_body_removes_its_shapes_and_contacts():
    world, ground = ground_world()
    box = world.create_body(position=(0, 0.5))
    shape = box.create_box(0.5, 0.5)
    run(world, 0.5)
    assert len(world.contacts) == 1
    world.destroy_body(box)
    assert not box.is_valid and not shape.is_valid
    assert len(world.bodies) == 1 and len(world.shapes) == 1 and world.contacts == []
    with pytest.raises(ValueError, match="destroyed"):
        _ = box.position
    with pytest.raises(ValueError, match="destroyed"):
        world.destroy_body(box)
    # The freed row is reused with a new generation: the old handle stays dead.
    again = world.create_body(position=(3, 3))
    assert again._index == box._index and not box.is_valid and again.is_valid
    run(world, 0.1)


def test_collision_filter_groups_and_masks():
    def touching(**b_options):
        world, _ = ground_world(gravity=(0, 0))
        a = world.create_body(position=(0, 5))
        a.create_box(0.5, 0.5, category=0b01, mask=0b11, group=-1 if "group" in b_options else 0)
        b = world.create_body(position=(0.5, 5))
        b.create_box(0.5, 0.5, **b_options)
        world.step(DT)
        return len(world.contacts)

    assert touching() == 1
    assert touching(category=0b10, mask=0b10) == 0    # b does not accept a's category
    assert touching(category=0b10, mask=0b11) == 1
    assert touching(group=-1) == 0                    # equal negative groups never collide
    world = i2d.World()
    a = world.create_body()
    a.create_box(0.5, 0.5, group=2, mask=0)
    b = world.create_body(position=(0.5, 0))
    b.create_box(0.5, 0.5, group=2, mask=0)           # equal positive groups always do
    world.step(DT)
    assert len(world.contacts) == 1


@pytest.mark.parametrize("call, error", [
    (lambda w, b: w.create_body(position=(math.nan, 0)), ValueError),
    (lambda w, b: w.create_body(position=(0, math.inf)), ValueError),
    (lambda w, b: w.create_body(position=(0,)), TypeError),
    (lambda w, b: w.create_body(type="floating"), ValueError),
    (lambda w, b: w.create_body(type=3.5), TypeError),
    (lambda w, b: w.create_body(type="static", linear_velocity=(1, 0)), ValueError),
    (lambda w, b: w.create_body(linear_damping=-1), ValueError),
    (lambda w, b: b.create_circle(0.0), ValueError),
    (lambda w, b: b.create_circle(-1.0), ValueError),
    (lambda w, b: b.create_circle(math.nan), ValueError),
    (lambda w, b: b.create_circle("1"), TypeError),
    (lambda w, b: b.create_box(1.0, 0.0), ValueError),
    (lambda w, b: b.create_box(1.0, 1.0, density=-2.0), ValueError),
    (lambda w, b: b.create_box(1.0, 1.0, friction=math.nan), ValueError),
    (lambda w, b: b.create_box(1.0, 1.0, colour="red"), TypeError),
    (lambda w, b: b.create_polygon([(0, 0), (1, 0), (2, 0)]), ValueError),        # collinear
    (lambda w, b: b.create_polygon([(0, 0), (1, 0)]), ValueError),                # too few
    (lambda w, b: b.create_polygon([(0, 0), (1, 0), (0, 0)]), ValueError),        # degenerate
    (lambda w, b: b.create_polygon([(math.cos(k), math.sin(k)) for k in range(9)]), ValueError),
    (lambda w, b: b.create_capsule((0, 0), (0, 0), 0.5), ValueError),
    (lambda w, b: b.create_segment((1, 1), (1, 1)), ValueError),
    (lambda w, b: w.step(1e-12), ValueError),          # 0 < dt < 1e-9: the solver divides by it
    (lambda w, b: w.step(1e7), ValueError),            # beyond 1e6 s
    (lambda w, b: w.step(math.inf), ValueError),
    (lambda w, b: w.step(-DT), ValueError),
    (lambda w, b: w.step(math.nan), ValueError),
    (lambda w, b: w.step("fast"), TypeError),
    (lambda w, b: setattr(b, "position", (math.nan, 1)), ValueError),
    (lambda w, b: setattr(b, "angle", math.inf), ValueError),
    (lambda w, b: setattr(b, "linear_velocity", (1, math.nan)), ValueError),
    (lambda w, b: b.apply_force((math.nan, 0)), ValueError),
    (lambda w, b: b.apply_linear_impulse((0, 1), point=(math.inf, 0)), ValueError),
    (lambda w, b: setattr(w.settings, "substeps", 0), ValueError),
    (lambda w, b: setattr(w.settings, "position_iterations", 0), ValueError),
    (lambda w, b: setattr(w.settings, "position_iterations", 1001), ValueError),
    (lambda w, b: setattr(w.settings, "position_iterations", 2.5), TypeError),
    (lambda w, b: setattr(w.settings, "solver", "magic"), ValueError),
    (lambda w, b: setattr(w.settings, "contact_hertz", -1.0), ValueError),
    (lambda w, b: setattr(w.settings, "warm_starting", "yes"), TypeError),
    (lambda w, b: i2d.World(substeps=-1), ValueError),
    (lambda w, b: i2d.World(enable_teleport=True), TypeError),
    (lambda w, b: w.destroy_body("body"), TypeError),
])
def test_bad_input_raises_a_clear_error_and_changes_nothing(call, error):
    world, _ = ground_world()
    body = world.create_body(position=(0, 2))
    body.create_box(0.5, 0.5)
    run(world, 0.2)
    before = _state(world)
    settings_before = world.settings.replace()
    with pytest.raises(error) as info:
        call(world, body)
    assert str(info.value)  # the message says what is wrong
    assert _state(world) == before
    assert world.settings == settings_before
    world.step(DT)  # and the world still steps, with no NaN
    assert np.isfinite(world.get_positions()).all()


def test_handles_from_another_world_are_rejected():
    w1, w2 = i2d.World(), i2d.World()
    body = w1.create_body()
    with pytest.raises(ValueError, match="another world"):
        w2.destroy_body(body)


def test_profile_times_the_last_step_and_splits_it_over_the_stages():
    from impulse2d._core.jit import CYCLE_COUNTER

    world, _ = ground_world()
    for k in range(5):
        world.create_body(position=(0.1 * k, 0.5 + 1.1 * k)).create_box(0.5, 0.5)
    assert world.profile.step == 0.0  # nothing stepped yet
    run(world, 0.5)
    p = world.profile
    stages = [p.pairs, p.collide, p.prepare, p.solve, p.finalize, p.continuous]
    assert 0.0 < p.step < 1.0
    assert all(t >= 0.0 for t in stages)
    if CYCLE_COUNTER:
        assert sum(stages) == pytest.approx(p.step, rel=1e-9)
        assert p.solve > 0.0
    else:
        assert sum(stages) == 0.0
    assert set(p.as_dict()) == {"step", "pairs", "collide", "prepare", "solve", "finalize",
                                "continuous"}


def test_changed_settings_reach_the_next_step():
    # the step packs the settings once per change; every change must still count from the next
    # step on
    world = i2d.World(gravity=(0.0, -10.0))
    ball = world.create_body(position=(0.0, 100.0))
    ball.create_circle(0.5)
    run(world, 1.0)
    assert ball.linear_velocity[1] == pytest.approx(-10.0, rel=0.02)
    world.settings.max_linear_speed = 0.5  # clamps the falling speed
    world.step(DT)
    assert abs(ball.linear_velocity[1]) == pytest.approx(0.5, abs=1e-12)
    world.settings.max_linear_speed = 400.0  # and lets go again
    run(world, 0.5)
    assert ball.linear_velocity[1] == pytest.approx(-0.5 - 5.0, rel=0.02)


def test_stores_replaced_between_steps_reach_the_next_step():
    # The step kernel takes the stores behind one reference that is rebuilt only when Python
    # replaces a store; growing every store and destroying a shape must all be seen.
    world, _ = ground_world()
    first = world.create_body(position=(0.0, 0.5))
    first.create_box(0.5, 0.5)
    run(world, 0.5)
    capacity = len(world._bodies.alive)
    late = [world.create_body(position=(3.0 * k + 5.0, 20.0)) for k in range(capacity)]
    for body in late:
        body.create_circle(0.5)
    assert len(world._bodies.alive) > capacity  # the body store grew
    world.create_revolute_joint(late[0], late[1], (5.0, 20.0))
    run(world, 1.0)
    # free fall for 1 s: 20 - 5 = 15 m (the joined pair falls together)
    assert late[-1].position[1] == pytest.approx(15.0, abs=0.2)
    assert late[0].position[1] == pytest.approx(late[1].position[1], abs=0.1)
    assert first.position[1] == pytest.approx(0.5, abs=0.02)  # resting on the ground
    assert len(world.contacts) >= 1
    world.destroy_shape(first.shapes[0])  # its contact goes with it
    run(world, 1.0)
    assert first.position[1] == pytest.approx(0.5 - 5.0, abs=0.2)  # falls freely now
