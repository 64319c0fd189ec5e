"""The ``direct`` solver at the acceleration level (``direct_level="acceleration"``).

Constraint forces from ``Cddot = 0`` (plus Baumgarte stabilisation), integrated with gravity:
a pendulum's rod force is ``m (g cos th + L w^2)`` and its period the elliptic one, its length
drift is bounded with the stabilisation; resting loads are carried exactly; an impulse phase
takes the impacts; Coulomb friction sticks and slides at the force level.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._dynamics import step, verbs
from impulse2d.constants import LINEAR_SLOP

from conftest import DT, ground_world, run

G = 10.0
ACCEL = {"solver": "direct", "direct_level": "acceleration", "enable_sleep": False,
         "gravity": (0.0, -G)}


def _pendulum(L=2.0, theta0=0.5, joint="distance", **settings):
    """A bob (small circle) hanging from the static origin at length ``L``, released at rest
    at ``theta0`` from the downward vertical."""
    world = i2d.World(**{**ACCEL, **settings})
    ground = world.create_body(type="static")
    at = (L * math.sin(theta0), -L * math.cos(theta0))
    bob = world.create_body(position=at)
    bob.create_circle(0.05)
    if joint == "distance":
        j = world.create_distance_joint(ground, bob, (0.0, 0.0), at)
    else:
        j = world.create_revolute_joint(ground, bob, (0.0, 0.0))
    return world, bob, j


def _state(bob):
    """(length, angle from the downward vertical, angular rate) of the bob about the origin."""
    p = bob.position
    v = bob.linear_velocity
    length = math.hypot(p.x, p.y)
    return length, math.atan2(p.x, -p.y), (p.x * v.y - p.y * v.x) / (length * length)


def test_the_rod_force_of_a_distance_pendulum_is_m_g_cos_theta_plus_m_L_omega_squared():
    # Without stabilisation the solved force is exactly the one that keeps the bob on its
    # circle (one substep: the force of the state the step starts from, not a mean over four): |f| = m (g cos th + L w^2), with L, th and w of the state the step starts from
    # (the joint's anchor is the bob's centre: its spin plays no part). Tolerance 1e-12 of m g
    # (rounding of the solve), over more than a period of a 1.2 rad swing.
    world, bob, j = _pendulum(theta0=1.2, baumgarte=0.0, substeps=1)
    m = bob.mass
    worst = 0.0
    for _ in range(240):     # 4 s: a period is 3.2 s
        length, theta, omega = _state(bob)
        world.step(DT)
        expected = m * (G * math.cos(theta) + length * omega * omega)
        worst = max(worst, abs(j.reaction_force.length - expected))
    assert worst < 1e-12 * m * G


def test_the_rod_force_of_a_revolute_pendulum_along_its_arm_is_m_g_cos_theta_plus_m_L_omega_sq():
    # A pin at the origin holds a bob whose centre is L = 2 m away: a rigid physical pendulum.
    # The pinned point does not accelerate (Cddot = 0), so along the arm (centre minus pinned
    # point, L long, turning with the bob) the pin pulls m (g cos th + L w^2), th the arm's angle
    # from the downward vertical, w the bob's spin; 1e-12 of m g, without stabilisation, in one
    # substep.
    L, theta0 = 2.0, 1.2
    world, bob, j = _pendulum(L=L, theta0=theta0, joint="revolute", baumgarte=0.0, substeps=1)
    m = bob.mass
    worst = 0.0
    for _ in range(240):
        c, s = math.cos(bob.angle), math.sin(bob.angle)
        ax, ay = L * math.sin(theta0), -L * math.cos(theta0)  # the arm at angle 0
        ax, ay = c * ax - s * ay, s * ax + c * ay
        theta = math.atan2(ax, -ay)
        omega = bob.angular_velocity
        world.step(DT)
        f = j.reaction_force
        pull = -(f.x * ax + f.y * ay) / L
        worst = max(worst, abs(pull - m * (G * math.cos(theta) + L * omega * omega)))
    assert worst < 1e-12 * m * G


def _complete_elliptic_k(k):
    """K(k) = pi / (2 AGM(1, sqrt(1 - k^2))) (Gauss; the mean converges quadratically)."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    while abs(a - b) > 1e-15 * a:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def _period(world, bob, periods=3):
    """Mean time between successive upward zero crossings of x (linear interpolation)."""
    crossings = []
    t = 0.0
    x_prev = bob.position.x
    while len(crossings) < periods + 1:
        world.step(DT)
        t += DT
        x = bob.position.x
        if x_prev < 0.0 <= x:
            crossings.append(t - DT * x / (x - x_prev))
        x_prev = x
    return (crossings[-1] - crossings[0]) / periods


@pytest.mark.parametrize("theta0", [0.1, 1.0])
def test_the_pendulum_period_is_the_elliptic_one(theta0):
    # T = 4 sqrt(L / g) K(k), k = sin(th0 / 2); small-angle 2 pi sqrt(L / g). Semi-implicit
    # Euler at 60 Hz keeps the period within 0.1 %.
    L = 2.0
    world, bob, _ = _pendulum(L=L, theta0=theta0)
    expected = 4.0 * math.sqrt(L / G) * _complete_elliptic_k(math.sin(theta0 / 2.0))
    assert _period(world, bob) == pytest.approx(expected, rel=1e-3)
    if theta0 < 0.2:
        assert expected == pytest.approx(2.0 * math.pi * math.sqrt(L / G), rel=1e-3)


def _drift(baumgarte, seconds=10.0):
    L = 2.0
    world, bob, _ = _pendulum(L=L, theta0=1.0, baumgarte=baumgarte)
    worst = 0.0
    for _ in range(int(round(seconds / DT))):
        world.step(DT)
        worst = max(worst, abs(_state(bob)[0] - L))
    return worst


def test_baumgarte_stabilisation_bounds_the_length_drift_of_the_pendulum():
    # Semi-implicit Euler on the exact constraint forces leaves the bob h^2 v^2 / (2 L) off its
    # circle per substep (the chord; h = 1/240 s in the default 4 substeps). Without
    # stabilisation that accumulates; Baumgarte's feedback holds it near v^2 / (2 L omega^2)
    # (omega = baumgarte / h). Measured over 10 s of a 1 rad swing of 2 m: 0.10 m without,
    # 0.80 mm at baumgarte 0.2, 0.32 mm at 0.5 (in one substep of 1/60 s: 0.48 m, 13 mm,
    # 5.1 mm).
    free = _drift(0.0)
    held = _drift(0.2)
    tight = _drift(0.5)
    print(f"pendulum length drift over 10 s: {free:.3e} m without, {held:.3e} m (0.2), "
          f"{tight:.3e} m (0.5)")
    assert free > 0.05
    assert held < 1.2e-3
    assert tight < 5e-4


def test_a_resting_box_carries_half_its_weight_on_each_corner_and_holds_still():
    # The box rests at one slop of overlap (the stabilisation's rest point); once settled each
    # corner carries m g / 2 to 1e-9, and over 10 s it moves less than 1e-9 m sideways and stays
    # within 1e-6 m of its rest height.
    world, ground = ground_world(**ACCEL)
    box = world.create_body(position=(0.0, 0.5))
    shape = box.create_box(0.5, 0.5)
    run(world, 2.0)
    rest = 0.5 - LINEAR_SLOP
    lowest, highest, sideways = math.inf, -math.inf, 0.0
    for _ in range(int(10.0 / DT)):
        world.step(DT)
        lowest = min(lowest, box.position.y)
        highest = max(highest, box.position.y)
        sideways = max(sideways, abs(box.position.x))
    assert rest - 1e-6 < lowest <= highest < rest + 1e-6
    assert sideways < 1e-9
    assert abs(box.angle) < 1e-9
    (contact,) = [c for c in world.contacts if shape in (c.shape_a, c.shape_b)]
    assert len(contact.points) == 2
    for point in contact.points:
        assert point.normal_impulse / DT == pytest.approx(box.mass * G / 2.0, rel=1e-9)
        assert abs(point.tangent_impulse) < 1e-9 * box.mass * G * DT


def test_each_contact_of_a_stack_of_three_carries_the_weight_above_it():
    world, ground = ground_world(**ACCEL)
    shapes = [ground.shapes[0]]
    boxes = []
    for k in range(3):
        box = world.create_body(position=(0.0, 0.5 + k * (1.0 - LINEAR_SLOP) - LINEAR_SLOP))
        shapes.append(box.create_box(0.5, 0.5))
        boxes.append(box)
    run(world, 3.0)
    m = boxes[0].mass
    for k in range(3):
        (contact,) = [c for c in world.contacts
                      if {c.shape_a, c.shape_b} == {shapes[k], shapes[k + 1]}]
        carried = sum(p.normal_impulse for p in contact.points) / DT
        assert carried == pytest.approx((3 - k) * m * G, rel=1e-9)
    assert world.direct_stats["lemke_failures"] == 0


def _bounces(e, level, substeps=1):
    """Apex heights and (approach, rebound, separation at the step's start) of the impacts of a
    ball dropped 10 m, for 6 s."""
    world, _ = ground_world(**{**ACCEL, "direct_level": level, "substeps": substeps})
    ball = world.create_body(position=(0.0, 10.5))
    ball.create_circle(0.5, restitution=e)
    apex, impacts = [], []
    prev_vy = 0.0
    for _ in range(int(6.0 / DT)):
        separation = ball.position.y - 0.5
        world.step(DT)
        vy = ball.linear_velocity.y
        if prev_vy < -1.0 and vy > 0.0:
            impacts.append((prev_vy, vy, separation))
        if prev_vy > 0.0 >= vy:
            apex.append(ball.position.y - 0.5)
        prev_vy = vy
    return apex, impacts


@pytest.mark.parametrize("e", [0.5, 0.8])
def test_a_dropped_ball_rebounds_at_e_times_its_approach_speed(e):
    # The impulse phase takes the impact: in one substep, the step that meets the ball ends
    # with pgs's bounce (contact_solver.bounce_speed) to 1e-12 m/s: the approach the step would
    # have reached (its starting speed plus g h, pgs's convention) taken back half a kick,
    # u = v - g h / 2, meets the surface from the separation s (< 0: the ball falls 0.24 m per
    # step, further than the manifold reaches ahead, 2 cm, and is found up to 15 cm deep) at
    # sqrt(u^2 + 2 g s), and leaves it at e times that: from s, sqrt(e^2 (u^2 + 2 g s) - 2 g s),
    # less the half kick. So the bounces are the velocity level's to 1e-9 m, and the apexes
    # e^(2k) h (the bar of tests/test_restitution.py, 1 %): the first two measured 0.03-0.24 %
    # low at both levels for e = 0.5 and 0.8, 0.01-0.08 % in the default 4 substeps (the apex
    # read at the step where the ball turns, not between steps).
    apex, impacts = _bounces(e, "acceleration")
    assert len(apex) >= 2 and len(impacts) >= 2
    for approach, rebound, s in impacts:
        u = approach - G * DT / 2.0
        met = u * u + 2.0 * G * s
        assert abs(rebound - (math.sqrt(e * e * met - 2.0 * G * s) - G * DT / 2.0)) < 1e-12
    assert apex[0] == pytest.approx(e ** 2 * 10.0, rel=0.01)
    assert apex[1] == pytest.approx(e ** 4 * 10.0, rel=0.01)
    velocity_apex, _ = _bounces(e, "velocity")
    assert np.allclose(apex[:3], velocity_apex[:3], rtol=0.0, atol=1e-9)
    apex, _ = _bounces(e, "acceleration", substeps=4)
    assert apex[0] == pytest.approx(e ** 2 * 10.0, rel=0.01)
    assert apex[1] == pytest.approx(e ** 4 * 10.0, rel=0.01)


def test_a_dropped_ball_without_restitution_lands_and_rests():
    world, _ = ground_world(**ACCEL)
    ball = world.create_body(position=(0.0, 3.5))
    ball.create_circle(0.5)
    run(world, 3.0)
    assert ball.position.y == pytest.approx(0.5 - LINEAR_SLOP, abs=1e-6)
    assert abs(ball.linear_velocity.y) < 1e-6


def _ramp_world(mu):
    theta = math.radians(30.0)
    world = i2d.World(**ACCEL)
    ramp = world.create_body(type="static", angle=theta)
    ramp.create_box(20.0, 0.5, friction=1.0)
    n = (-math.sin(theta), math.cos(theta))
    rest = 1.0 - LINEAR_SLOP   # the box placed at its rest depth: no settling first
    box = world.create_body(position=(rest * n[0], rest * n[1]), angle=theta)
    box.create_box(0.5, 0.5, friction=mu * mu)  # sqrt mixing: sqrt(1 * mu^2) = mu
    return world, box, (math.cos(theta), math.sin(theta))


@pytest.mark.parametrize("mu", [0.6, 0.8])
def test_a_box_sticks_on_a_30_degree_ramp_when_mu_exceeds_tan30(mu):
    # tan 30 = 0.577: static friction holds the box: it moves less than 1e-9 m in 5 s.
    world, box, _ = _ramp_world(mu)
    run(world, 0.5)
    start = box.position
    run(world, 5.0)
    assert (box.position - start).length < 1e-9


@pytest.mark.parametrize("mu", [0.2, 0.4])
def test_a_box_slides_down_a_30_degree_ramp_with_the_coulomb_acceleration(mu):
    # a = g (sin th - mu cos th) down the slope, to 1e-6 relative over 1 s of sliding.
    world, box, along = _ramp_world(mu)
    run(world, 0.5)
    v0 = box.linear_velocity.dot(along)
    run(world, 1.0)
    v1 = box.linear_velocity.dot(along)
    theta = math.radians(30.0)
    expected = -G * (math.sin(theta) - mu * math.cos(theta))
    assert (v1 - v0) / 1.0 == pytest.approx(expected, rel=1e-6)


# -- the setting, the limits --------------------------------------------------------------------
def test_direct_level_is_validated_and_selectable_between_steps():
    world = i2d.World(solver="direct")
    assert world.settings.direct_level == "velocity"
    with pytest.raises(ValueError, match="direct_level"):
        world.settings.direct_level = "force"
    assert world.settings.direct_level == "velocity"
    with pytest.raises(ValueError, match="direct_level"):
        i2d.World(direct_level="jerk")


def test_switching_levels_between_steps_keeps_a_resting_box_resting():
    world, _ = ground_world(solver="direct", enable_sleep=False, gravity=(0.0, -G))
    box = world.create_body(position=(0.0, 0.5 - LINEAR_SLOP))
    box.create_box(0.5, 0.5)
    run(world, 0.5)
    world.settings.direct_level = "acceleration"
    run(world, 0.5)
    world.settings.direct_level = "velocity"
    run(world, 0.5)
    assert box.position.y == pytest.approx(0.5 - LINEAR_SLOP, abs=1e-3)
    assert abs(box.linear_velocity.y) < 1e-6


def _snapshot(world):
    return [(b.position.x, b.position.y, b.angle, b.linear_velocity.x, b.linear_velocity.y,
             b.angular_velocity) for b in world.bodies]


def test_an_island_above_the_limit_stops_the_step_with_no_body_moved():
    world, ground = ground_world(**ACCEL, direct_max_rows=7)
    for k in range(2):   # two boxes on the ground, one on the other: 2 x 2 points x 2 rows
        box = world.create_body(position=(0.0, 0.5 - 0.004 + k * 0.996))
        box.create_box(0.5, 0.5)
    before = _snapshot(world)
    with pytest.raises(ValueError, match="direct_max_rows"):
        world.step(DT)
    assert _snapshot(world) == before
    world.settings.direct_fallback = "pgs"
    fallbacks = world.direct_stats["fallback_steps"]
    world.step(DT)
    assert world.direct_stats["fallback_steps"] == fallbacks + 1


def test_every_joint_type_steps_at_this_level_and_compiles_only_its_own_row_exports():
    # Its entry compiles only for worlds that select it; the joint types' row exports (shared
    # with the velocity level) only for the types the world has; no step is handed on.
    world = i2d.World(**ACCEL)
    ground = world.create_body(type="static")
    arm = world.create_body(position=(1.0, 0.0))
    arm.create_box(1.0, 0.1)
    world.create_revolute_joint(ground, arm, (0.0, 0.0), enable_motor=True, motor_speed=1.0,
                                max_motor_torque=100.0)
    world.step(DT)
    table = world._verbs
    assert table[verbs.SOLVER] == step.DIRECT_ACCELERATION_KERNEL.address()
    exports = table[verbs.DIRECT_ROWS:verbs.DIRECT_ROWS + len(step.ROW_LISTS)]
    assert [step.ROW_LISTS[k] for k in np.flatnonzero(exports)] == ["revolute"]
    assert world.direct_stats["fallback_steps"] == 0
    assert arm.angular_velocity == pytest.approx(1.0, abs=1e-9)   # the motor's target speed
    world.settings.direct_level = "velocity"
    world.step(DT)
    assert world._verbs[verbs.SOLVER] == step.SOLVER_KERNELS["direct"].address()


def test_both_levels_and_the_diagnostics_call_one_island_solve():
    # The island solve is one unit called by address (slot DIRECT_ISLANDS) from both levels and
    # the exact diagnostics; a world of another solver without diagnostics leaves it at 0.
    islands = step.ISLANDS_KERNEL.address()
    for settings in (ACCEL, {"solver": "direct"}, {"solver": "pgs", "diagnostics": "exact"},
                     {"solver": "pgs"}):
        world = i2d.World(**settings)
        world.create_body(type="static").create_box(5.0, 0.5, center=(0.0, -0.5))
        box = world.create_body(position=(0.0, 0.45))
        box.create_box(0.5, 0.5)
        world.step(DT)
        expected = 0 if settings == {"solver": "pgs"} else islands
        assert world._verbs[verbs.DIRECT_ISLANDS] == expected
        if settings.get("solver") == "direct":
            assert world.direct_stats["islands"] == 1
            assert world.direct_stats["largest_island_rows"] == 4   # 2 points x 2 rows


def test_random_worlds_hold_at_the_acceleration_level():
    # The fuzz worlds of tests/test_fuzz.py (every shape, sizes 1 cm - 50 m, densities
    # 0.01 - 1000, changed between steps), 100 worlds x 200 steps, checked after every step
    # (no NaN, speeds within the limits, finite reactions), every joint type at this level;
    # pgs (direct_fallback) only takes an island above the size limit.
    from impulse2d.scenes import fuzz
    breaches, taken = [], 0
    for seed in range(100):
        rng = np.random.default_rng(seed)
        world = i2d.World(gravity=(0.0, float(rng.choice([0.0, -10.0]))), solver="direct",
                          direct_level="acceleration", direct_fallback="pgs")
        fuzz.random_world(world, rng)
        for taken_here in range(200):
            if rng.random() < 0.05:
                fuzz.perturb(world, rng, "direct")
            fallbacks = world.direct_stats["fallback_steps"]
            world.step(DT)
            taken += (world.settings.solver == "direct"
                      and world.direct_stats["fallback_steps"] == fallbacks)
            breach = fuzz.check_world(world, DT)
            if breach is not None:
                breaches.append(f"seed {seed}, step {taken_here}: {breach.kind} "
                                f"({breach.detail})")
                break
    assert breaches == []
    assert taken > 2000
