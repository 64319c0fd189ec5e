"""Analytic checks: each test compares the engine with a closed-form result and a tolerance."""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from conftest import DT, ground_world, run

SOLVERS = ["soft_step", "pgs", "pgs_ngs", "pgs_block", "direct"]


@pytest.mark.parametrize("solver", SOLVERS)
def test_free_fall_matches_semi_implicit_euler_and_the_parabola(solver):
    world = i2d.World(solver=solver)
    body = world.create_body(position=(0.0, 100.0))
    body.create_circle(0.5)
    run(world, 1.0)
    substeps = world.settings.substeps if solver == "soft_step" else 1
    n = 60 * substeps
    h = DT / substeps
    # Semi-implicit Euler: v_k = -g k h, y_n = y0 - g h^2 n (n + 1) / 2, exactly.
    assert body.linear_velocity.y == pytest.approx(-10.0, abs=1e-9)
    assert body.position.y == pytest.approx(100.0 - 10.0 * h * h * n * (n + 1) / 2, abs=1e-9)
    # ... which is within h g t / 2 of the exact parabola y0 - g t^2 / 2.
    assert body.position.y == pytest.approx(95.0, abs=10.0 * h / 2 + 1e-9)


def _settle_height(make_shape, start_y, solver="soft_step"):
    world, _ = ground_world(solver=solver)
    body = world.create_body(position=(0.0, start_y))
    make_shape(body)
    run(world, 3.0)
    return body


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("name, make, rest_y", [
    ("box", lambda b: b.create_box(0.5, 0.3), 0.3),
    ("circle", lambda b: b.create_circle(0.4), 0.4),
    ("capsule", lambda b: b.create_capsule((-0.6, 0.0), (0.6, 0.0), 0.25), 0.25),
    # Regular hexagon with a flat bottom: apothem = r cos(30 deg).
    ("polygon", lambda b: b.create_polygon(
        [(0.5 * math.cos(k * math.pi / 3), 0.5 * math.sin(k * math.pi / 3))
         for k in range(6)]), 0.5 * math.cos(math.pi / 6)),
])
def test_shapes_come_to_rest_at_their_exact_height(solver, name, make, rest_y):
    body = _settle_height(make, rest_y + 0.3, solver)
    assert body.position.y == pytest.approx(rest_y, abs=0.01), name
    assert abs(body.angle) < 0.01
    assert body.linear_velocity.length < 0.01


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("e", [0.5, 0.8])
def test_bounce_apex_is_e_squared_times_drop_height(solver, e):
    world, _ = ground_world(solver=solver)
    ball = world.create_body(position=(0.0, 10.5))
    ball.create_circle(0.5, restitution=e)
    apex = []
    prev_vy = 0.0
    for _ in range(int(4.0 / DT)):
        world.step(DT)
        vy = ball.linear_velocity.y
        if prev_vy > 0.0 >= vy:
            apex.append(ball.position.y - 0.5)
        prev_vy = vy
    assert apex, "the ball never bounced"
    assert apex[0] == pytest.approx(e * e * 10.0, rel=0.05)


def _ramp_world(mu, solver="soft_step"):
    theta = math.radians(30.0)
    world = i2d.World(solver=solver)
    ramp = world.create_body(type="static", angle=theta)
    ramp.create_box(20.0, 0.5, friction=1.0)
    n = (-math.sin(theta), math.cos(theta))
    box = world.create_body(position=(1.0 * n[0], 1.0 * n[1]), angle=theta)
    box.create_box(0.5, 0.5, friction=mu * mu)  # sqrt mixing: sqrt(1 * mu^2) = mu
    return world, box, (math.cos(theta), math.sin(theta))


@pytest.mark.parametrize("solver", SOLVERS)
def test_box_sticks_on_a_30_degree_ramp_when_friction_exceeds_tan30(solver):
    world, box, _ = _ramp_world(0.7, solver)
    start = box.position
    run(world, 2.0)
    assert (box.position - start).length < 0.01


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("mu", [0.2, 0.4])
def test_box_slides_down_a_30_degree_ramp_with_the_coulomb_acceleration(solver, mu):
    world, box, along = _ramp_world(mu, solver)
    run(world, 0.5)  # let the contact settle, then measure the acceleration over 1 s
    v0 = box.linear_velocity.dot(along)
    run(world, 1.0)
    v1 = box.linear_velocity.dot(along)
    theta = math.radians(30.0)
    expected = -10.0 * (math.sin(theta) - mu * math.cos(theta))  # down the slope = -along
    assert (v1 - v0) / 1.0 == pytest.approx(expected, rel=0.10)


@pytest.mark.parametrize("solver", SOLVERS)
def test_sliding_box_stops_at_v_squared_over_2_mu_g(solver):
    mu, v0 = 0.5, 5.0
    world, _ = ground_world(solver=solver)
    box = world.create_body(position=(0.0, 0.5), linear_velocity=(v0, 0.0))
    # The ground keeps the default 0.6; sqrt mixing gives sqrt(0.6 f) = mu for this f.
    box.create_box(0.5, 0.5, friction=mu * mu / 0.6)
    run(world, 2.0)
    assert abs(box.linear_velocity.x) < 1e-3
    assert box.position.x == pytest.approx(v0 * v0 / (2 * mu * 10.0), rel=0.05)


@pytest.mark.parametrize("solver", SOLVERS)
def test_elastic_head_on_collision_swaps_velocities(solver):
    world = i2d.World(gravity=(0.0, 0.0), solver=solver)
    a = world.create_body(position=(0.0, 0.0), linear_velocity=(3.0, 0.0))
    a.create_circle(0.5, restitution=1.0)
    b = world.create_body(position=(3.0, 0.0), linear_velocity=(-1.0, 0.0))
    b.create_circle(0.5, restitution=1.0)
    run(world, 1.5)
    assert a.linear_velocity.x == pytest.approx(-1.0, abs=0.02)
    assert b.linear_velocity.x == pytest.approx(3.0, abs=0.02)
    assert abs(a.linear_velocity.y) + abs(b.linear_velocity.y) < 1e-12


@pytest.mark.parametrize("solver", SOLVERS)
def test_linear_momentum_is_conserved_in_zero_gravity_collisions(solver):
    rng = np.random.default_rng(7)
    world = i2d.World(gravity=(0.0, 0.0), solver=solver)
    for k in range(30):
        body = world.create_body(position=tuple(rng.uniform(-4, 4, 2)),
                                 linear_velocity=tuple(rng.uniform(-5, 5, 2)),
                                 angular_velocity=float(rng.uniform(-3, 3)))
        if k % 3 == 0:
            body.create_circle(float(rng.uniform(0.2, 0.6)), restitution=0.5)
        elif k % 3 == 1:
            body.create_box(float(rng.uniform(0.2, 0.6)), float(rng.uniform(0.2, 0.6)))
        else:
            body.create_capsule((-0.3, 0.0), (0.3, 0.0), 0.2, density=2.0)
    masses = np.array([b.mass for b in world.bodies])

    def momentum():
        return masses @ world.get_velocities()[:, :2]

    p0 = momentum()
    touched = 0
    for _ in range(120):
        world.step(DT)
        touched += len(world.contacts)
    assert touched > 0, "the bodies never collided; the test would prove nothing"
    scale = np.abs(masses[:, None] * world.get_velocities()[:, :2]).sum()
    assert np.abs(momentum() - p0).max() <= 1e-12 * scale
