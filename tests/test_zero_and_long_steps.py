"""``world.step(0)`` and a long frame (issue 29, item 7).

A paused game passes 0, a frame after a breakpoint passes a large dt; both raised. As in Box2D
v3, ``step(0)`` updates the contacts and moves nothing (poses and velocities bit for bit, the
forces applied meanwhile kept for the next step), and a large finite dt is stepped and held by
the speed limits. Every solver is checked with both: no NaN, no division by zero.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, ground_world
from impulse2d.scenes import build_scene, fuzz

SOLVERS = [{"solver": "soft_step"}, {"solver": "soft_step_v31"}, {"solver": "pgs"},
           {"solver": "pgs_ngs"}, {"solver": "pgs_block"}, {"solver": "direct"},
           {"solver": "direct", "direct_level": "acceleration"}]
IDS = [" ".join(str(v) for v in s.values()) for s in SOLVERS]


def _motion(world) -> bytes:
    b = world._bodies
    return b"".join(np.ascontiguousarray(c).tobytes()
                    for c in (b.origin, b.angle, b.rot, b.center, b.v, b.w))


def _pile(**settings):
    """A box resting on the ground, a spinning ball in flight, a joint: every stage has work."""
    world, ground = ground_world(**settings)
    box = world.create_body(position=(0.0, 0.5))
    box.create_box(0.5, 0.5)
    ball = world.create_body(position=(3.0, 4.0), linear_velocity=(1.0, 2.0),
                             angular_velocity=3.0)
    ball.create_circle(0.5)
    arm = world.create_body(position=(-3.0, 2.0))
    arm.create_box(1.0, 0.1)
    world.create_revolute_joint(ground, arm, (-4.0, 2.0))
    for _ in range(30):
        world.step(DT)
    return world, box, ball


@pytest.mark.parametrize("settings", SOLVERS, ids=IDS)
def test_step_zero_moves_nothing_and_updates_contacts(settings):
    world, box, ball = _pile(**settings)
    pairs = {(c.shape_a.body, c.shape_b.body) for c in world.contacts}
    assert not any(ball in pair for pair in pairs)
    ball.position = (0.0, 1.45)        # teleported onto the box: touching only from now on
    motion = _motion(world)
    time, count = world.time, world.step_count
    world.step(0.0)
    assert _motion(world) == motion    # every pose and velocity, bit for bit
    touching = [c for c in world.contacts if {box, ball} == {c.shape_a.body, c.shape_b.body}]
    assert len(touching) == 1 and touching[0].points
    # the ball's depth below the box's top face, where the box is now (it rests slightly tilted)
    (x1, y1), (x2, y2) = sorted((box.world_point(v) for v in box.shapes[0].vertices),
                                key=lambda p: p.y)[-2:]
    height = ((x2 - x1) * (1.45 - y1) - (y2 - y1) * (0.0 - x1)) / math.hypot(x2 - x1, y2 - y1)
    assert touching[0].points[0].separation == pytest.approx(abs(height) - 0.5, abs=1e-9)
    assert world.time == time and world.step_count == count + 1
    world.step(0)                       # an int 0 too
    assert _motion(world) == motion
    world.step(DT)                      # and the world steps on from there
    assert fuzz.check_world(world, DT) is None
    assert np.isfinite(world.get_velocities()).all()


def test_step_zero_keeps_the_forces_for_the_next_step():
    # Box2D v3: its solver, which clears the forces, is skipped at a zero step.
    world = i2d.World(gravity=(0.0, 0.0))
    body = world.create_body()
    body.create_circle(0.5, density=8.0 / math.pi)  # 2 kg
    body.apply_force((10.0, -4.0))
    body.apply_torque(1.0)
    world.step(0.0)
    assert body.linear_velocity == (0.0, 0.0) and body.angular_velocity == 0.0
    assert body.mass == pytest.approx(2.0, rel=1e-12)
    world.step(DT)
    assert body.linear_velocity.x == pytest.approx(10.0 / 2.0 * DT, rel=1e-12)
    assert body.linear_velocity.y == pytest.approx(-4.0 / 2.0 * DT, rel=1e-12)
    assert body.angular_velocity == pytest.approx(1.0 / body.inertia * DT, rel=1e-12)
    world.step(DT)  # cleared by the real step
    assert body.linear_velocity.x == pytest.approx(10.0 / 2.0 * DT, rel=1e-12)


def test_step_zero_reports_contact_begin_events_and_no_hits():
    world, ground = ground_world(enable_contact_events=True)
    box = world.create_body(position=(0.0, 5.0))
    box.create_box(0.5, 0.5)
    world.step(DT)
    box.position = (0.0, 0.49)
    world.step(0.0)
    events = world.contact_events()
    assert len(events.begin) == 1 and {events.begin[0].shape_a.body,
                                      events.begin[0].shape_b.body} == {ground, box}
    assert len(events.hit) == 0


@pytest.mark.parametrize("settings", SOLVERS, ids=IDS)
@pytest.mark.parametrize("dt", [1.5, 10.0])
def test_a_long_frame_is_stepped_and_held_by_the_speed_limits(settings, dt):
    # (the pile a 10 s step throws together is one island of about 400 rows: direct solves it)
    world = i2d.World(**settings, **({"direct_max_rows": 2000} if "direct_level" in settings
                                     or settings["solver"] == "direct" else {}))
    build_scene(world, "pyramid", base=6)
    world.step(DT)
    for _ in range(3):
        world.step(dt)
        assert fuzz.check_world(world, dt) is None
    for _ in range(5):
        world.step(DT)
        assert fuzz.check_world(world, DT) is None


@pytest.mark.parametrize("dt", [math.nan, math.inf, -math.inf, -DT, -0.0 - 1e-300, 1e-12, 2e6])
def test_only_what_cannot_be_stepped_is_refused(dt):
    world, _ = ground_world()
    with pytest.raises(ValueError, match="dt"):
        world.step(dt)
    assert world.step_count == 0 and world.time == 0.0


def test_the_pybox2d_layer_steps_zero_as_box2d_2_4():
    # Box2D 2.4's Step(0): contacts updated and reported, nothing moved, forces cleared
    # (autoClearForces).
    import impulse2d.compat.box2d as b2

    class Listener(b2.b2ContactListener):
        def __init__(self):
            super().__init__()
            self.began = 0

        def BeginContact(self, contact):  # noqa: N802
            self.began += 1

    listener = Listener()
    world = b2.b2World(gravity=(0, -10), contactListener=listener)
    world.CreateStaticBody(shapes=b2.b2PolygonShape(box=(5, 0.5)))
    body = world.CreateDynamicBody(position=(0, 5), fixtures=b2.b2FixtureDef(
        shape=b2.b2PolygonShape(box=(0.5, 0.5)), density=1.0))
    world.Step(DT, 8, 3)
    body.position = (0, 0.99)
    body.ApplyForceToCenter((100.0, 0.0), True)
    velocity = tuple(body.linearVelocity)
    world.Step(0.0, 8, 3)
    assert tuple(body.position) == (0.0, 0.99) and tuple(body.linearVelocity) == velocity
    assert listener.began == 1
    world.Step(DT, 8, 3)
    assert abs(body.linearVelocity.x) < 1e-9  # the force went with the zero step
