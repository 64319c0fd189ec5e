"""The ``direct`` solver: the exact solution of the system ``pgs`` iterates on.

Resting loads are carried exactly (a box, a stack, a hanging chain), the contact solution is
complementary and inside the friction cone, ``pgs`` converges to it, and an island above
``direct_max_rows`` stops the step with no body changed (or takes the fallback solver).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.constants import LINEAR_SLOP

from conftest import DT, ground_world

G = 10.0
OVERLAP = 0.004
"""m: resting overlap within the slop (5 mm), so that no position bias acts: what is left for
the solver is the weight alone."""


def _contact_between(world, shape_a, shape_b):
    for c in world.contacts:
        if {c.shape_a, c.shape_b} == {shape_a, shape_b}:
            return c
    raise AssertionError("no contact between the shapes")


def test_a_box_resting_flat_carries_half_its_weight_on_each_corner():
    world, ground = ground_world(solver="direct", gravity=(0.0, -G))
    box = world.create_body(position=(0.0, 0.5 - OVERLAP))
    shape = box.create_box(0.5, 0.5)
    for _ in range(10):
        world.step(DT)
    contact = _contact_between(world, ground.shapes[0], shape)
    expected = box.mass * G * DT / 2.0
    assert len(contact.points) == 2
    for point in contact.points:
        assert point.normal_impulse == pytest.approx(expected, rel=1e-9)
        assert abs(point.tangent_impulse) <= 1e-9 * expected
    assert abs(box.linear_velocity.y) < 1e-12


def test_each_layer_of_a_stack_carries_the_weight_above_it():
    world, ground = ground_world(solver="direct", gravity=(0.0, -G))
    shapes = [ground.shapes[0]]
    boxes = []
    for k in range(5):
        box = world.create_body(position=(0.0, 0.5 - OVERLAP + k * (1.0 - OVERLAP)))
        shapes.append(box.create_box(0.5, 0.5))
        boxes.append(box)
    for _ in range(10):
        world.step(DT)
    m = boxes[0].mass
    for k in range(5):   # the layer under box k carries boxes k..4
        contact = _contact_between(world, shapes[k], shapes[k + 1])
        carried = sum(p.normal_impulse for p in contact.points)
        assert carried == pytest.approx((5 - k) * m * G * DT, rel=1e-9)
    assert world.direct_stats["lemke_failures"] == 0


def test_a_hanging_chain_carries_the_weight_below_each_joint():
    world = i2d.World(solver="direct", gravity=(0.0, -G))
    ground = world.create_body(type="static")
    links, joints = [], []
    parent = ground
    for k in range(10):
        link = world.create_body(position=(0.0, -0.5 - k))
        link.create_box(0.1, 0.5)
        joints.append(world.create_revolute_joint(parent, link, (0.0, -float(k))))
        links.append(link)
        parent = link
    for _ in range(5):
        world.step(DT)
    m = links[0].mass
    for k, joint in enumerate(joints):
        force = joint.reaction_force     # N, on body B: up, the weight of the links below
        assert force.y == pytest.approx((10 - k) * m * G, rel=1e-9)
        assert abs(force.x) <= 1e-9 * force.y
    assert world.direct_stats["largest_island_rows"] == 20


def _pile(seed, count=12, friction=0.4):
    """Boxes and circles of mixed sizes and densities dropped into a narrow pit, settled."""
    rng = np.random.default_rng(seed)
    # Sleeping off: the checks below read every contact's impulses and velocities as this
    # step's solve left them, and a settled pile would otherwise fall asleep (its contacts are
    # then not solved, and keep the impulses of the step before it slept).
    # Continuous collision off: the boxes fall fast enough to be swept, which changes each
    # pile's history, and so which of its steps Lemke's algorithm answers itself (below); these
    # are the piles the checks were written for.
    world = i2d.World(solver="direct", gravity=(0.0, -G), enable_sleep=False,
                      enable_continuous=False)
    pit = world.create_body(type="static")
    pit.create_box(3.0, 0.5, center=(0.0, -0.5), friction=friction)
    for x in (-3.0, 3.0):
        pit.create_box(0.5, 4.0, center=(x, 3.5), friction=friction)
    for k in range(count):
        body = world.create_body(position=(float(rng.uniform(-1.5, 1.5)), 1.0 + 1.2 * k),
                                 angle=float(rng.uniform(-1.0, 1.0)))
        size = float(rng.uniform(0.25, 0.5))
        density = float(rng.uniform(0.5, 5.0))
        if k % 2:
            body.create_circle(size, density=density, friction=friction)
        else:
            body.create_box(size, 0.7 * size, density=density, friction=friction)
    return world


@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
def test_the_contact_solution_is_complementary_and_inside_the_friction_cone(seed):
    """From the stored impulses and the velocities after the step (the post-solve velocities:
    positions are integrated from them, and restitution is off): every contact point's
    ``w = v_n + bias`` (pgs's bias from the separation at the step's start) is >= 0, its impulse
    >= 0 and their product 0; friction is within ``mu lambda_n``; a point that slides has its
    friction at the cone's edge, opposing the slip. To 1e-9 of the scales: velocities relative
    to V = max(1 m/s, the fastest body), impulses to the largest normal impulse I. (What is
    left is Lemke's rounding, after refinement: measured up to 5e-11 V on these piles.) The
    step checked must be Lemke's own answer: one that fails the solver's check falls back to
    projected Gauss-Seidel (counted); pile 1's 241st step is such a one, so it is not used."""
    friction = 0.4
    world = _pile(seed, friction=friction)
    for _ in range(240):
        world.step(DT)
    centers = world.get_positions().copy()   # shapes are centred: origin = centre of mass
    failures = world.direct_stats["lemke_failures"]
    world.step(DT)
    assert world.direct_stats["lemke_failures"] == failures   # this step is Lemke's own answer
    velocities = world.get_velocities()
    V = max(1.0, float(np.abs(velocities).max()))
    I = max(p.normal_impulse for c in world.contacts for p in c.points)
    index = {body: i for i, body in enumerate(world.bodies)}
    beta = world.settings.baumgarte
    checked = 0
    for contact in world.contacts:
        a = index[contact.shape_a.body]
        b = index[contact.shape_b.body]
        nx, ny = contact.normal
        tx, ty = ny, -nx
        for p in contact.points:
            def velocity(i):
                rx = p.point[0] - centers[i, 0]
                ry = p.point[1] - centers[i, 1]
                vx, vy, w = velocities[i]
                return vx - w * ry, vy + w * rx
            vax, vay = velocity(a)
            vbx, vby = velocity(b)
            vn = (vbx - vax) * nx + (vby - vay) * ny
            vt = (vbx - vax) * tx + (vby - vay) * ty
            s = p.separation
            bias = s / DT if s > 0 else max(beta / DT * min(0.0, s + LINEAR_SLOP), -3.0)
            w = vn + bias
            ln, lt = p.normal_impulse, p.tangent_impulse
            assert ln >= 0.0
            assert w >= -1e-9 * V
            assert ln * w <= 1e-9 * V * I
            assert abs(lt) <= friction * ln * (1 + 1e-12)
            if abs(vt) > 1e-9 * V:                 # sliding: friction at the cone's edge,
                assert lt * vt <= 0.0              # opposing the slip
                assert abs(lt) == pytest.approx(friction * ln, rel=1e-9, abs=1e-12 * I)
            checked += 1
    assert checked >= 20


def _two_circles(ratio, solver, iterations=8):
    """Catto's convergence example (GDC 2014, "Understanding Constraints"): a circle of mass
    ``ratio`` resting on a unit one resting on the ground; one step from rest, without warm
    starting."""
    world, ground = ground_world(solver=solver, gravity=(0.0, -G), warm_starting=False,
                                 velocity_iterations=iterations)
    low = world.create_body(position=(0.0, 0.5 - OVERLAP))
    low.create_circle(0.5, density=1.0)
    high = world.create_body(position=(0.0, 1.5 - 2.0 * OVERLAP))
    high.create_circle(0.5, density=ratio)
    world.step(DT)
    return np.array([c.points[0].normal_impulse for c in world.contacts]), low.mass, high.mass


@pytest.mark.parametrize("ratio", [1.0, 10.0])
def test_pgs_converges_to_the_direct_solution(ratio):
    exact, m_low, m_high = _two_circles(ratio, "direct")
    assert sorted(exact) == pytest.approx(sorted([m_high * G * DT, (m_low + m_high) * G * DT]),
                                          rel=1e-12)
    distance = [np.abs(_two_circles(ratio, "pgs", n)[0] - exact).max() / exact.max()
                for n in (10, 100, 1000)]
    # Measured (largest normal impulse's relative error, pgs at 10, 100, 1000 iterations):
    # ratio 1: 9.8e-4, 2.1e-16, 2.1e-16; ratio 10: 0.39, 7.3e-5, 6.2e-16.
    assert distance[0] > distance[1] >= distance[2]
    assert distance[2] < 1e-9


def test_an_island_above_the_limit_stops_the_step_with_nothing_changed():
    world, _ = ground_world(solver="direct", direct_max_rows=7)
    for k in range(2):   # 2 boxes: 4 contact points, 8 rows
        world.create_body(position=(0.0, 0.5 - OVERLAP + k * (1.0 - OVERLAP))).create_box(0.5, 0.5)
    for body in world.bodies[1:]:
        body.linear_velocity = (0.3, -0.2)
        body.angular_velocity = 0.1
    positions = world.get_positions().copy()
    angles = world.get_angles().copy()
    velocities = world.get_velocities().copy()
    with pytest.raises(ValueError, match=r"island of 8 constraint rows .*direct_max_rows = 7"):
        world.step(DT)
    assert np.array_equal(world.get_positions(), positions)
    assert np.array_equal(world.get_angles(), angles)
    assert np.array_equal(world.get_velocities(), velocities)
    # Raised to fit, it steps; with a fallback below it, the fallback takes the step.
    world.settings.direct_fallback = "pgs"
    world.step(DT)
    assert not np.array_equal(world.get_positions(), positions)
    assert world.direct_stats["fallback_steps"] == 1
    world.settings.direct_max_rows = 8
    world.step(DT)
    assert world.direct_stats["fallback_steps"] == 1
    assert world.direct_stats["largest_island_rows"] == 8


def test_redundant_joints_are_regularised_not_singular():
    # Two pins between the same bodies at the same point: A_ee is singular. The pivot floor
    # makes the second pin's rows (eliminated after the first's, with nothing left to carry)
    # a stiff spring of nearly zero load; the first carries the weight, and nothing blows up.
    # Sleeping off: the link hangs at rest and would fall asleep after 0.5 s, and the last
    # step's statistics (direct_stats) would then describe a step that solved nothing.
    world = i2d.World(solver="direct", gravity=(0.0, -G), enable_sleep=False)
    ground = world.create_body(type="static")
    link = world.create_body(position=(0.0, -0.5))
    link.create_box(0.1, 0.5)
    first = world.create_revolute_joint(ground, link, (0.0, 0.0))
    second = world.create_revolute_joint(ground, link, (0.0, 0.0))
    for _ in range(60):
        world.step(DT)
    assert world.direct_stats["regularised_pivots"] >= 2
    weight = link.mass * G
    assert first.reaction_force.y + second.reaction_force.y == pytest.approx(weight, rel=1e-9)
    assert abs(second.reaction_force.y) <= 1e-9 * weight
    assert abs(link.position.y + 0.5) < 1e-9


def test_settings_are_validated():
    world = i2d.World()
    with pytest.raises(ValueError, match="direct_fallback"):
        world.settings.direct_fallback = "direct"
    with pytest.raises(ValueError, match="direct_max_rows"):
        world.settings.direct_max_rows = 0
    with pytest.raises(TypeError):
        world.settings.direct_max_rows = 2.5
    assert world.settings.direct_fallback is None


def test_a_heavy_box_landing_on_light_ones_is_held_by_their_ground_contacts():
    """Solver2D's high mass ratio 2: a 20 x 20 m box (400:1) lands at 17 m/s on two 1 kg boxes
    standing on a thin segment. The exact answer passes the impact on to the ground (about
    6,800 N s through the small boxes' contacts, above the per-row budget of 4 v_max times a
    1 kg row's effective mass, which once clipped it: the small boxes went through the ground
    and out at 400 m/s). Sleeping off: the impact meets awake boxes."""
    from impulse2d.scenes import build_scene

    world = i2d.World(solver="direct", enable_sleep=False)
    info = build_scene(world, "high_mass_ratio_2")
    small, big = info.bodies["small"], info.bodies["big"]
    start = [b.position for b in small]
    fastest = 0.0
    for _ in range(300):
        world.step(DT)
        fastest = max(fastest, *(math.hypot(*b.linear_velocity) for b in small))
    assert fastest < 2.0                              # m/s; clipped: 400 (the speed limit)
    for b, (x0, y0) in zip(small, start):
        assert abs(b.position[0] - x0) < 0.01         # m: neither pushed aside
        assert abs(b.position[1] - y0) < 0.02         # nor into the ground
    # the big box rests on them: 1 m of small box, its 10 m half height, within 2 cm
    assert big.position[1] == pytest.approx(11.0, abs=0.02)
