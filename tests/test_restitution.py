"""Restitution against the analytic bounce (issue 13 item 7a): a ball dropped from h onto the
ground rises to e^(2k) h after its k-th bounce, whatever the phase of the step at which it
meets the ground.

The ball (r 0.5 m) is dropped from 10 m at dt = 1/60 s: it meets the ground at 14.1 m/s,
0.236 m a step, so it overlaps the ground by up to one step's travel before a contact pushes
(the speculative contact sees the ground from 2 cm). Restitution counts the height that
overlap and the late measure of the approach cost (:func:`impulse2d._dynamics.contact_solver.
bounce_speed`); before, e = 0.5's second and third apexes were 10 % and 16 % low. The solvers
that project positions (``pgs_ngs``, ``pgs_block``) lift the ball out of that overlap; their
position pass takes the height it gives back from the ball's speed (before, up to 8.6 % high).
"""

from __future__ import annotations

import pytest

from impulse2d.constants import LINEAR_SLOP

from conftest import DT, ground_world

DROP = 10.0
RADIUS = 0.5
THRESHOLD = 1.0  # WorldSettings.restitution_threshold, m/s


LEVELS = {"direct_acceleration": {"solver": "direct", "direct_level": "acceleration"}}
"""Test names of solver settings other than a ``solver`` alone."""


def bounces(solver, e, count=3, steps=900):
    """Per bounce, up to ``count``: (impact speed m/s, deepest overlap m, apex of the lowest
    point m); the ball's state after the run."""
    world, _ = ground_world(**LEVELS.get(solver, {"solver": solver}))
    assert world.settings.restitution_threshold == THRESHOLD
    ball = world.create_body(position=(0.0, DROP + RADIUS))
    ball.create_circle(RADIUS, restitution=e)
    out = []
    falling = True
    lowest = DROP
    speed = 0.0
    prev_vy = 0.0
    for _ in range(steps):
        y_before = ball.position.y - RADIUS
        world.step(DT)
        y = ball.position.y - RADIUS
        vy = ball.linear_velocity.y
        if falling:
            lowest = min(lowest, y)
            speed = max(speed, -vy)
            if prev_vy <= 0.0 < vy:
                falling = False
        elif vy <= 0.0 < prev_vy:
            out.append((speed, -lowest, max(y, y_before)))
            falling = True
            lowest = DROP
            speed = 0.0
            if len(out) == count:
                break
        prev_vy = vy
    return out, ball, world


# Every solver: ``direct`` at both levels takes pgs's restitution (the acceleration level in
# its substeps); pgs_ngs and pgs_block too, their position pass taking back from a bounce's
# speed the height by which it lifts the ball (contact_position.in_flight_speed).
EXACT = ["soft_step", "soft_step_v31", "pgs", "pgs_ngs", "pgs_block", "direct",
         "direct_acceleration"]


@pytest.mark.parametrize("solver", EXACT)
@pytest.mark.parametrize("e", [0.25, 0.5, 0.75, 1.0])
def test_bounces_one_to_three_rise_to_e_to_the_2k_of_the_drop(solver, e):
    """Bounces 1-3 within 1 % of e^(2k) h (the target was 3 %; measured within 0.4 %: the
    slowest, e = 0.25's second, 0.0389 against 0.0391 m, 0.39 % low under pgs_ngs and
    pgs_block, 0.18 % under pgs and direct). Exempt, being under the 1 m/s restitution
    threshold: e = 0.25's third impact (0.7-0.9 m/s; see the next test)."""
    measured, _, _ = bounces(solver, e)
    expected = [e ** (2 * k) * DROP for k in (1, 2, 3)]
    if e == 0.25:
        expected = expected[:2]
    assert len(measured) >= len(expected)
    for k, want in enumerate(expected):
        speed, _, apex = measured[k]
        assert speed > THRESHOLD
        assert apex == pytest.approx(want, rel=0.01), f"bounce {k + 1}"


@pytest.mark.parametrize("solver", ["soft_step", "pgs", "pgs_ngs", "direct"])
def test_an_impact_under_the_threshold_does_not_bounce(solver):
    """e = 0.25: the third impact, from the second bounce's 0.039 m, is 0.9 m/s, under the
    1 m/s threshold: the ball stays down (no rise above 1 mm) and rests at its height."""
    measured, ball, world = bounces(solver, 0.25, count=2)
    assert len(measured) == 2
    third_impact = (2.0 * 10.0 * measured[1][2]) ** 0.5
    assert third_impact < THRESHOLD
    while ball.linear_velocity.y < 0.0:  # down to the third impact
        world.step(DT)
    highest = 0.0
    for _ in range(120):
        world.step(DT)
        highest = max(highest, ball.position.y - RADIUS)
    assert highest < 1e-3
    assert ball.position.y == pytest.approx(RADIUS, abs=5e-3)


@pytest.mark.parametrize("solver", EXACT)
@pytest.mark.parametrize("e", [0.5, 1.0])
def test_a_bouncing_ball_does_not_sink(solver, e):
    """At impact the ball overlaps the ground by less than one step's travel at its impact
    speed (and so less than the continuous stage's 0.25 m for this ball: measured at most
    0.153 m, pgs), and each bounce starts it back above the ground; e = 0.5 comes to rest at its
    exact height (within 5 mm; the acceleration level at its rest depth, one slop, to 1 mm:
    tests/test_direct_accel.py) and never below it after."""
    measured, ball, world = bounces(solver, e)
    for speed, overlap, _ in measured:
        assert overlap < speed * DT
        assert overlap < 0.16
    if e == 0.5:
        for _ in range(600):
            world.step(DT)
        if solver == "direct_acceleration":
            assert ball.position.y == pytest.approx(RADIUS - LINEAR_SLOP, abs=1e-3)
        else:
            assert ball.position.y == pytest.approx(RADIUS, abs=5e-3)
        assert abs(ball.linear_velocity.y) < 0.01


@pytest.mark.parametrize("e", [0.0, 0.5, 1.0])
def test_a_ball_falling_beside_a_box_corner_is_not_touched(e):
    """A ball (r 0.5 m) dropped from 11.5 m passes 1 cm beside a box's corner at 13 m/s, 0.22 m
    a step: the corner's speculative point (slanted normal) must not catch it (a ghost
    collision). It keeps falling straight (no sideways speed at all) and bounces off the ground
    below as the analytic bounce: its first apex within 1 % of e^2 times its drop."""
    world, _ = ground_world()
    box = world.create_body(type="static", position=(0.0, 1.0))
    box.create_box(0.5, 0.5)  # top at 1.5 m, right side at x = 0.5 m
    ball = world.create_body(position=(0.5 + RADIUS + 0.01, 11.5 + RADIUS))
    ball.create_circle(RADIUS, restitution=e)
    apex = None
    prev_vy = 0.0
    for _ in range(240):
        world.step(DT)
        assert ball.linear_velocity.x == 0.0
        vy = ball.linear_velocity.y
        if vy <= 0.0 < prev_vy and apex is None:
            apex = ball.position.y - RADIUS
        prev_vy = vy
    if e > 0.0:
        assert apex == pytest.approx(e * e * 11.5, rel=0.01)


@pytest.mark.parametrize("solver", ["pgs", "pgs_ngs", "pgs_block"])
@pytest.mark.parametrize("e", [0.25, 0.5])
def test_the_position_pass_lifts_a_bouncing_ball_without_adding_energy(solver, e):
    """The integrator (kick, then drift, at dt) keeps the ball's discrete energy
    ``(v + g dt/2)^2 + 2 g y`` (y its lowest point, m) exactly in flight; restitution sets it
    to e^2 times its value at impact. pgs_ngs and pgs_block then lift the ball, caught 0.153 m
    inside the ground, by 0.041 m beyond its drift in the bounce step (e = 0.25); the lift is
    taken from its speed, so the energy stays e^2 times the impact's to 1e-12 (relative)
    at every step until the next impact (measured: 2e-15)."""
    world, _ = ground_world(solver=solver)
    ball = world.create_body(position=(0.0, DROP + RADIUS))
    ball.create_circle(RADIUS, restitution=e)
    g = 10.0

    def energy():
        vy = ball.linear_velocity.y
        return (vy - g * DT / 2.0) ** 2 + 2.0 * g * (ball.position.y - RADIUS)

    before = energy()
    y = ball.position.y
    while ball.linear_velocity.y <= 0.0:  # falls, then the bounce step
        before = energy()
        y = ball.position.y
        world.step(DT)
    # what the bounce step moved the ball beyond its drift (dt times the speed it left with)
    lift = ball.position.y - y - DT * ball.linear_velocity.y
    steps = 0
    while ball.linear_velocity.y > 0.0 or ball.position.y - RADIUS > 0.3:
        assert energy() == pytest.approx(e * e * before, rel=1e-12)
        world.step(DT)
        steps += 1
    assert steps > 20
    if solver == "pgs":
        assert abs(lift) < 1e-12
    elif e == 0.25:
        assert lift == pytest.approx(0.041, abs=0.002)
