"""Restitution against the analytic bounce (issue 13 item 7a): a ball dropped from h onto the
ground rises to e^(2k) h after its k-th bounce, whatever the phase of the step at which it
meets the ground.

The ball (r 0.5 m) is dropped from 10 m at dt = 1/60 s: it meets the ground at 14.1 m/s,
0.236 m a step, so it overlaps the ground by up to one step's travel before a contact pushes
(the speculative contact sees the ground from 2 cm). Restitution counts the height that
overlap and the late measure of the approach cost (:func:`impulse2d._dynamics.contact_solver.
bounce_speed`); before, e = 0.5's second and third apexes were 10 % and 16 % low.
"""

from __future__ import annotations

import pytest

from conftest import DT, ground_world

DROP = 10.0
RADIUS = 0.5
THRESHOLD = 1.0  # WorldSettings.restitution_threshold, m/s


def bounces(solver, e, count=3, steps=900):
    """Per bounce, up to ``count``: (impact speed m/s, deepest overlap m, apex of the lowest
    point m); the ball's state after the run."""
    world, _ = ground_world(solver=solver)
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


# The solvers whose bounce is exact to the tolerance below; pgs_ngs and pgs_block below.
# ``direct`` keeps Box2D's rule (-e times the approach), as its acceleration level does.
EXACT = ["soft_step", "soft_step_v31", "pgs"]


@pytest.mark.parametrize("solver", EXACT)
@pytest.mark.parametrize("e", [0.25, 0.5, 0.75, 1.0])
def test_bounces_one_to_three_rise_to_e_to_the_2k_of_the_drop(solver, e):
    """Bounces 1-3 within 1 % of e^(2k) h (the target was 3 %; measured within 0.35 %: the
    slowest, e = 0.25's second, 0.0389 against 0.0391 m). Exempt, being under the 1 m/s
    restitution threshold: e = 0.25's third impact (0.9 m/s; see the next test)."""
    measured, _, _ = bounces(solver, e)
    expected = [e ** (2 * k) * DROP for k in (1, 2, 3)]
    if e == 0.25:
        expected = expected[:2]
    assert len(measured) >= len(expected)
    for k, want in enumerate(expected):
        speed, _, apex = measured[k]
        assert speed > THRESHOLD
        assert apex == pytest.approx(want, rel=0.01), f"bounce {k + 1}"


@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
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


@pytest.mark.parametrize("solver", ["pgs_ngs", "pgs_block"])
@pytest.mark.parametrize("e", [0.25, 0.5, 0.75, 1.0])
def test_bounces_with_position_correction_stay_within_nine_percent(solver, e):
    """pgs_ngs and pgs_block take the same restitution as pgs, but their position pass then
    lifts a ball that ends the step overlapping the ground, which adds height restitution
    does not see: measured up to +8.6 % (e = 0.25's second bounce; e = 0.75 and 1 within
    0.3 %). Before the bounce was counted from the surface: -10 % to +30 %."""
    measured, _, _ = bounces(solver, e)
    expected = [e ** (2 * k) * DROP for k in (1, 2, 3)]
    if e == 0.25:
        expected = expected[:2]
    for k, want in enumerate(expected):
        assert measured[k][2] == pytest.approx(want, rel=0.09), f"bounce {k + 1}"


@pytest.mark.parametrize("solver", EXACT)
@pytest.mark.parametrize("e", [0.5, 1.0])
def test_a_bouncing_ball_does_not_sink(solver, e):
    """At impact the ball overlaps the ground by less than one step's travel at its impact
    speed (and so less than the continuous stage's 0.25 m for this ball: measured at most
    0.153 m, pgs), and each bounce starts it back above the ground; e = 0.5 comes to rest at its
    exact height (within 5 mm) and never below it after."""
    measured, ball, world = bounces(solver, e)
    for speed, overlap, _ in measured:
        assert overlap < speed * DT
        assert overlap < 0.16
    if e == 0.5:
        for _ in range(600):
            world.step(DT)
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
