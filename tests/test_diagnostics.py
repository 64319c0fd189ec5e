"""Solver diagnostics (``WorldSettings.diagnostics``, ``World.solver_stats``), each number checked
against a route that does not go through the diagnostics: geometry read from the public handles,
the ``direct`` solver's own answer in a second world, closed-form energies."""

import numpy as np
import pytest

from conftest import DT, ground_world

G = 10.0
SOLVERS = ("soft_step", "pgs", "pgs_ngs", "pgs_block", "direct")


def _state(world):
    return np.concatenate([world.get_positions().ravel(), world.get_angles(),
                           world.get_velocities().ravel()])


def _busy_world(solver, diagnostics):
    """A stack, a pendulum chain and a sliding box: contacts, friction and joints at once."""
    world, ground = ground_world(solver=solver, gravity=(0.0, -G), diagnostics=diagnostics,
                                 enable_sleep=False)
    for k in range(3):
        world.create_body(position=(0.1 * k, 0.5 + 1.0 * k)).create_box(0.5, 0.5, friction=0.6)
    slider = world.create_body(position=(5.0, 0.5), linear_velocity=(3.0, 0.0))
    slider.create_box(0.5, 0.5, friction=0.3)
    previous = ground
    for k in range(4):
        link = world.create_body(position=(-5.0 + 0.5 * (k + 1), 6.0))
        link.create_circle(0.1)
        world.create_revolute_joint(previous, link, (-5.0 + 0.5 * k, 6.0))
        previous = link
    return world


def test_off_by_default_and_validated():
    world, _ = ground_world()
    assert world.settings.diagnostics is False
    world.step(DT)
    assert world.solver_stats is None
    with pytest.raises(ValueError, match="diagnostics"):
        world.settings.diagnostics = "everything"
    with pytest.raises(TypeError, match="diagnostics"):
        world.settings.diagnostics = 2
    assert world.settings.diagnostics is False


@pytest.mark.parametrize("solver", SOLVERS)
def test_measuring_changes_nothing(solver):
    """The diagnostics only read: every solver gives the same bits with them on and off."""
    plain = _busy_world(solver, False)
    measured = _busy_world(solver, "exact")
    for _ in range(60):
        plain.step(DT)
        measured.step(DT)
    assert np.array_equal(_state(plain), _state(measured))
    stats = measured.solver_stats
    assert stats.solver == solver
    assert stats.contact_points > 0 and stats.rows > 0
    assert np.all(np.isfinite(stats.residuals))


def test_joint_error_is_the_anchor_gap():
    """The joint error after the solve is the gap between each revolute joint's world anchors
    (read from the handles after the step: the step moves the bodies exactly as the solve
    left them)."""
    world = _busy_world("soft_step", True)
    joints = world.joints
    worst = 0.0
    for _ in range(40):
        world.step(DT)
        gaps = [np.abs(np.subtract(j.world_anchor_b, j.world_anchor_a)).max() for j in joints]
        stats = world.solver_stats
        assert stats.max_joint_error == pytest.approx(max(gaps), rel=1e-6, abs=1e-12)
        worst = max(worst, stats.max_joint_error)
    assert worst > 1e-6  # the swinging chain does stretch: the comparison is not 0 == 0


def test_penetration_and_energy_of_simple_scenes():
    """A box pressed into the ground: the penetration is the overlap of its bottom face and the
    ground's top (y = 0) after the step. A falling ball: kinetic energy m v^2 / 2."""
    world, _ = ground_world(solver="pgs", gravity=(0.0, -G), diagnostics=True, enable_sleep=False)
    box = world.create_body(position=(0.0, 0.5 - 0.03))
    box.create_box(0.5, 0.5)
    ball = world.create_body(position=(10.0, 20.0))
    ball.create_circle(0.5, density=2.0)
    for _ in range(3):
        world.step(DT)
        stats = world.solver_stats
        corners = [box.world_point(p) for p in ((-0.5, -0.5), (0.5, -0.5))]
        assert stats.max_penetration == pytest.approx(-min(c[1] for c in corners), abs=1e-12)
        v = np.array(box.linear_velocity), np.array(ball.linear_velocity)
        energy = (0.5 * box.mass * v[0] @ v[0] + 0.5 * box.inertia * box.angular_velocity ** 2
                  + 0.5 * ball.mass * v[1] @ v[1])
        assert stats.kinetic_energy == pytest.approx(energy, rel=1e-12)


def test_direct_solves_its_rows_exactly():
    """The direct solver's residual, complementarity and cone errors are rounding. (Before
    Lemke's basis was refined on the exact LCP, the slack regularisation, ``direct``'s
    ``SLACK_REGULARISATION``, 1e-9 of the sliding speed, left the sliding box's rows ~3e-9 m/s
    and its complementarity ~1.4e-9 N s: issue 29, item 3.)"""
    world = _busy_world("direct", True)
    for _ in range(30):
        world.step(DT)
        stats = world.solver_stats
        assert stats.iterations == 1
        assert stats.residuals[0] < 1e-12
        assert stats.equality_residual_max < 1e-9
        assert stats.complementarity_error < 1e-12
        assert stats.friction_cone_violation < 1e-12


def _two_circles(ratio, solver, iterations, diagnostics=False):
    """Catto's convergence example (GDC 2014): a circle of mass ``ratio`` on a unit one on the
    ground, one step from slightly overlapping rest, no warm starting."""
    world, _ = ground_world(solver=solver, gravity=(0.0, -G), warm_starting=False,
                            velocity_iterations=iterations, diagnostics=diagnostics)
    world.create_body(position=(0.0, 0.496)).create_circle(0.5, density=1.0)
    world.create_body(position=(0.0, 1.492)).create_circle(0.5, density=ratio)
    world.step(DT)
    return world


def test_no_exact_solve_above_the_direct_limit():
    """An island above ``direct_max_rows`` is not solved exactly (Lemke's cubic cost): the
    distance is then not measured, and the rest still is."""
    world = _busy_world("pgs", "exact")
    world.settings.direct_max_rows = 4
    world.step(DT)
    stats = world.solver_stats
    assert stats.exact_impulse_error is None and stats.exact_velocity_error is None
    assert stats.contact_points > 0 and np.isfinite(stats.complementarity_error)
    world.settings.direct_max_rows = 400
    world.step(DT)
    assert world.solver_stats.exact_impulse_error is not None


@pytest.mark.parametrize("ratio", [1.0, 10.0])
def test_exact_distance_matches_a_second_world_solved_by_direct(ratio):
    """``diagnostics="exact"`` measures pgs against the exact solution of its own system; a
    second world stepped by ``direct`` gives that solution independently."""
    exact = np.array([c.points[0].normal_impulse for c in _two_circles(ratio, "direct", 1)
                      .contacts])
    errors = []
    for n in (10, 100, 1000):
        world = _two_circles(ratio, "pgs", n, "exact")
        got = np.array([c.points[0].normal_impulse for c in world.contacts])
        expected = np.abs(got - exact).max() / exact.max()
        stats = world.solver_stats
        assert stats.exact_impulse_error == pytest.approx(expected, rel=1e-6, abs=1e-12)
        assert stats.iterations == n and stats.residuals.shape == (n,)
        errors.append(stats.exact_impulse_error)
    # Measured: ratio 1: 9.8e-4, 2e-16, 2e-16; ratio 10: 0.39, 7.3e-5, 6e-16 (as Catto's figures:
    # heavy on light needs about 3 x ratio + 2 iterations).
    assert errors[0] > errors[1] >= errors[2]
    assert errors[2] < 1e-9
    if ratio == 10.0:
        assert errors[0] > 0.1


def test_residual_history_converges_for_pgs():
    """The residual per iteration falls as pgs converges on a heavy-on-light stack, to
    rounding after 1000 sweeps; its last entry is the last iteration's."""
    world = _two_circles(10.0, "pgs", 1000, True)
    r = world.solver_stats.residuals
    assert r[0] > 1e-3
    assert r[9] > r[99] > r[999]
    assert r[999] < 1e-9
    assert world.solver_stats.complementarity_error < 1e-9


def test_soft_step_records_each_substep_and_ngs_its_position_passes():
    world = _busy_world("soft_step", True)
    world.settings.substeps = 6
    world.step(DT)
    stats = world.solver_stats
    assert stats.iterations == 6 and stats.position_iterations is None
    assert stats.exact_impulse_error is None  # no single system to compare with
    world.settings.solver = "pgs_ngs"
    world.settings.position_iterations = 5
    world.step(DT)
    stats = world.solver_stats
    assert stats.iterations == world.settings.velocity_iterations
    assert 1 <= stats.position_iterations <= 5
    world.settings.diagnostics = False
    world.step(DT)
    assert world.solver_stats is None


@pytest.mark.parametrize("ratio", [10.0, 100.0])
def test_heavy_on_light_needs_three_times_the_ratio_in_iterations(ratio):
    """Catto's figure (GDC 2014): pgs needs about ``3 x ratio + 2`` iterations for the impulses
    of a heavy circle on a light one to come within 5 % of the exact ones (measured here: 32
    and 302, exactly the rule)."""
    rule = int(3 * ratio + 2)
    before = _two_circles(ratio, "pgs", rule - 3, "exact").solver_stats.exact_impulse_error
    after = _two_circles(ratio, "pgs", rule + 2, "exact").solver_stats.exact_impulse_error
    assert before > 0.05 > after
