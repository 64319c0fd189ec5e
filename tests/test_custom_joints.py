"""Joints made from constraint laws (world.create_custom_joint) in every solver: the built-in
joints reproduced, the tautochrone, rolling without slipping, one-sided rows, limits and motors,
parameters changed between steps, reactions, snapshots and pickles, diagnostics and drawing."""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest

pytest.importorskip("sympy")

import impulse2d as i2d  # noqa: E402

import custom_laws  # noqa: E402

DT = 1.0 / 60.0


def _local(body, point):
    return tuple(body.local_point(point))


# -- the built-in joints, re-derived ----------------------------------------------------------
def _chain(custom: bool, solver: str, hertz: float):
    """Two boxes hung by distance joints from off-centre anchors (both bodies turn), let go a
    little off their rest: a swing of small amplitude, so that the two runs' rounding
    differences are not amplified (at large amplitude the double pendulum is chaotic: a
    1e-13 m nudge of the built-in chain grows to 0.1 m in 600 steps)."""
    world = i2d.World(solver=solver)
    ground = world.create_body(type="static")
    one = world.create_body(position=(0.35, -1.2), angle=0.2)
    one.create_box(0.3, 0.1, density=2.0)
    two = world.create_body(position=(0.2, -2.4), angle=-0.3)
    two.create_box(0.2, 0.2, center=(0.05, 0.0))
    links = [(ground, one, (0.0, 0.0), (0.25, -1.15)), (one, two, (0.45, -1.25),
                                                       (0.25, -2.3))]
    for body_a, body_b, pa, pb in links:
        length = math.dist(pa, pb)
        if custom:
            params = dict(zip(("ax", "ay"), _local(body_a, pa)))
            params.update(zip(("bx", "by"), _local(body_b, pb)))
            params["L"] = length
            world.create_custom_joint(body_a, body_b, custom_laws.distance(), params=params,
                                      hertz=hertz, damping_ratio=0.5, anchor_a=pa, anchor_b=pb)
        else:
            world.create_distance_joint(body_a, body_b, pa, pb, enable_spring=hertz > 0.0,
                                        hertz=hertz, damping_ratio=0.5,
                                        max_length=1e6 if hertz > 0.0 else None)
    return world


@pytest.mark.parametrize("solver, hertz", [("soft_step", 0.0), ("soft_step", 3.0), ("pgs", 0.0),
                                           ("pgs_ngs", 0.0)])
def test_custom_distance_law_reproduces_the_distance_joint(solver, hertz):
    """600 steps of a two-link chain: every body within 1e-6 m (and rad) of the built-in
    joint's trajectory (the same rows, in other floating-point operations)."""
    built_in, custom = _chain(False, solver, hertz), _chain(True, solver, hertz)
    worst = 0.0
    for _ in range(600):
        built_in.step(DT)
        custom.step(DT)
        worst = max(worst, np.abs(built_in.get_positions() - custom.get_positions()).max(),
                    np.abs(built_in.get_angles() - custom.get_angles()).max())
    assert worst < 1e-6
    assert np.abs(built_in.get_positions()[1:] - [[0.35, -1.2], [0.2, -2.4]]).max() > 0.2  # swung


def _slider(custom: bool, solver: str):
    """A bar pinned to the ground at its centre, and a block sliding along it: the bar turns,
    so the axis does."""
    world = i2d.World(solver=solver)
    ground = world.create_body(type="static")
    bar = world.create_body(position=(0.0, 0.0), angle=0.3)
    bar.create_box(1.5, 0.05)
    world.create_revolute_joint(ground, bar, (0.0, 0.0))
    block = world.create_body(position=(0.8, 0.5), angle=0.5)
    block.create_box(0.1, 0.1)
    anchor = (0.8, 0.5)
    axis = (math.cos(0.3), math.sin(0.3))
    if custom:
        ux, uy = math.cos(0.3 - bar.angle), math.sin(0.3 - bar.angle)  # in the bar's frame
        params = dict(zip(("ax", "ay"), _local(bar, anchor)))
        params.update(zip(("bx", "by"), _local(block, anchor)))
        params.update(ux=ux, uy=uy, ref=block.angle - bar.angle)
        world.create_custom_joint(bar, block, custom_laws.point_on_line(), params=params,
                                  anchor_a=anchor, anchor_b=anchor)
    else:
        world.create_prismatic_joint(bar, block, anchor, axis)
    return world


@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
def test_custom_point_on_line_law_reproduces_the_prismatic_joint(solver):
    built_in, custom = _slider(False, solver), _slider(True, solver)
    worst = 0.0
    for _ in range(600):
        built_in.step(DT)
        custom.step(DT)
        worst = max(worst, np.abs(built_in.get_positions() - custom.get_positions()).max(),
                    np.abs(built_in.get_angles() - custom.get_angles()).max())
    assert worst < 1e-6
    assert abs(built_in.get_angles()[1] - 0.3) > 0.5  # the bar swung


# -- the tautochrone --------------------------------------------------------------------------
def _tautochrone(phi0: float, **settings) -> float:
    """Time for a bead released from rest at cycloid parameter ``phi0`` (r = 1 m, g = 10) to
    reach the bottom (its angle, the parameter, through zero; linear interpolation)."""
    world = i2d.World(gravity=(0.0, -10.0), **settings)
    ground = world.create_body(type="static")
    r = 1.0
    bead = world.create_body(position=(r * (phi0 + math.sin(phi0)), r * (1 - math.cos(phi0))),
                             angle=phi0)
    # a small bead: its spin's share of the kinetic energy is (0.02 m)^2 / 2 over ~(2 r)^2,
    # some 5e-5
    bead.create_circle(0.02, density=100.0)
    world.create_custom_joint(ground, bead, custom_laws.cycloid(), params={"r": r})
    t = 0.0
    previous = phi0
    for _ in range(200):
        world.step(DT)
        angle = bead.angle
        if angle <= 0.0:
            return t + DT * previous / (previous - angle)
        previous = angle
        t += DT
    raise AssertionError("the bead never reached the bottom")


@pytest.mark.parametrize("settings", [dict(solver="soft_step", substeps=16),
                                      dict(solver="direct", direct_level="acceleration")],
                         ids=["soft_step", "direct_acceleration"])
def test_tautochrone(settings):
    """From any of five heights the bead reaches the bottom after pi sqrt(r / g), to 1 %."""
    expected = math.pi * math.sqrt(1.0 / 10.0)
    times = [_tautochrone(phi0, **settings) for phi0 in (0.4, 0.9, 1.5, 2.1, 2.7)]
    for t in times:
        assert t == pytest.approx(expected, rel=0.01)


# -- rolling without slipping -----------------------------------------------------------------
@pytest.mark.parametrize("solver", ["soft_step", "pgs"])
def test_rolling_wheel_contact_point_does_not_slip(solver):
    """A wheel pushed and twisted rolls: its lowest point's speed stays within 1e-6 m/s, and it
    turns by -distance / R. (``pgs`` moves the point by its Baumgarte correction alone,
    ``-beta C / h`` for the rolling row's small error ``C``, which the rotation integrator's
    ``atan(h w)`` for ``h w`` leaves; the soft step's relax pass has no bias.)"""
    world = i2d.World(solver=solver)
    ground = world.create_body(type="static")
    R = 0.4
    wheel = world.create_body(position=(0.0, R))
    wheel.create_circle(R)
    joint = world.create_custom_joint(ground, wheel, custom_laws.rolling(),
                                      params={"R": R, "c": 0.0})
    rate = world.settings.baumgarte / DT if solver == "pgs" else 0.0
    for k in range(240):
        wheel.apply_force((0.5 * math.sin(0.05 * k), 0.3))
        wheel.apply_torque(-0.1)
        error = joint.value
        world.step(DT)
        vx, vy = wheel.linear_velocity
        contact = (vx - wheel.angular_velocity * (-R), vy)  # v + w x (0, -R)
        assert math.hypot(contact[0] + rate * error[1], contact[1] + rate * error[0]) < 1e-6
        # the rolling error the integrator leaves, R (h w)^3 / 3 a step, held by Baumgarte's
        # beta a step: R (h w)^3 / (3 beta), under 1e-3 m at the wheel's spin here
        assert abs(error[1]) < 1e-3
    assert abs(wheel.position[0]) > 1.0
    assert wheel.position[0] + R * wheel.angle == pytest.approx(0.0, abs=1e-3)  # rolled
    assert wheel.position[1] == pytest.approx(R, abs=1e-4)


# -- one-sided rows ---------------------------------------------------------------------------
def _row_speed(joint, body_a, body_b, jacobian):
    """``J_q qdot`` with the origin velocities of the bodies now (rows of ``jacobian``)."""
    q = []
    for body in (body_a, body_b):
        r = np.subtract(body.position, body.world_center)
        w = body.angular_velocity
        vx, vy = body.linear_velocity
        q += [vx - w * r[1], vy + w * r[0], w]
    return jacobian @ np.array(q)


def test_inequality_pushes_one_way_complementarity_under_direct():
    """A ball thrown along a wavy floor that it may not go below (C = y - h sin(k x) >= 0),
    under the direct solver's exact LCP: the impulse is never negative, and at every step either
    it is 0 or the row's velocity after the solve is (complementarity, to 1e-9)."""
    world = i2d.World(solver="direct")
    ground = world.create_body(type="static")
    ball = world.create_body(position=(0.0, 1.0), linear_velocity=(2.5, 0.0))
    ball.create_circle(0.1)
    joint = world.create_custom_joint(ground, ball, custom_laws.above_curve())
    pushed = free = 0
    for _ in range(300):
        c0 = joint.value[0]
        jac = joint.jacobian
        world.step(DT)
        lam = joint.reaction_impulses[0]
        assert lam >= -1e-12
        # the row's velocity after the solve, with the bias the solve used (C / h while open,
        # Baumgarte's once closed)
        bias = c0 / DT if c0 > 0 else world.settings.baumgarte / DT * c0
        speed = _row_speed(joint, ground, ball, jac)[0] + bias
        assert speed >= -1e-9
        assert min(lam, speed) < 1e-9
        pushed += lam > 1e-6
        free += lam == 0.0
        # The velocity-level row holds the floor's tangent: on the curve (curvature up to
        # h k^2 = 1.2 /m) at 2.5 m/s the ball drifts below by about kappa v^2 h^2 / 2 = 1 mm a
        # step, which Baumgarte's bias takes back a fifth a step: a few cm at most.
        assert joint.value[0] > -0.03
    assert pushed > 50 and free > 10  # it both flew and rolled along the floor


# -- limits and motors ------------------------------------------------------------------------
def test_motor_and_limit_on_a_row():
    """Rows (y_b - y_a, x_b - x_a): the first an equality, the second driven at 1 m/s by a motor
    and bounded above at 2 m: the block moves at 1 m/s, then stops at x = 2."""
    from impulse2d.custom import ConstraintLaw

    a, b = custom_laws.a, custom_laws.b
    law = ConstraintLaw([b.y - a.y, b.x - a.x])
    world = i2d.World(solver="soft_step")
    ground = world.create_body(type="static")
    block = world.create_body(position=(0.0, 0.0))
    block.create_box(0.1, 0.1)
    # a motor of 1 N on a 0.04 kg block: against the (soft) bound it presses it in by
    # F / (m (2 pi joint_hertz)^2) = 0.2 mm
    joint = world.create_custom_joint(ground, block, law, motor_speed=[None, 1.0],
                                      max_motor_force=[0.0, 1.0], upper=[None, 2.0])
    assert joint.lower == (0.0, -math.inf) and joint.upper == (0.0, 2.0)
    for _ in range(60):
        world.step(DT)
    assert block.linear_velocity[0] == pytest.approx(1.0, abs=1e-6)
    assert block.position[1] == pytest.approx(0.0, abs=1e-4)
    for _ in range(120):
        world.step(DT)
    assert block.position[0] == pytest.approx(2.0, abs=1e-3)
    assert abs(block.linear_velocity[0]) < 1e-3
    joint.motor_speed = -1.0
    for _ in range(30):
        world.step(DT)
    assert block.linear_velocity[0] == pytest.approx(-1.0, abs=1e-6)


# -- parameters, reactions --------------------------------------------------------------------
def _pendulum(length: float, solver: str = "pgs"):
    world = i2d.World(solver=solver)
    ground = world.create_body(type="static")
    bob = world.create_body(position=(0.0, -1.0))
    bob.create_circle(0.1, density=3.0)
    joint = world.create_custom_joint(
        ground, bob, custom_laws.distance(),
        params={"ax": 0.0, "ay": 0.0, "bx": 0.0, "by": 0.0, "L": length})
    return world, bob, joint


def test_params_changed_between_steps_take_effect_at_the_next_step():
    """A pendulum made with L = 1 and set to L = 1.5 before its first step moves exactly as
    one made with L = 1.5; ``value`` sees the change at once."""
    changed, _, joint = _pendulum(1.0)
    joint.params["L"] = 1.5
    assert joint.value[0] == pytest.approx(-0.5, abs=1e-15)
    assert dict(joint.params)["L"] == 1.5
    made, _, _ = _pendulum(1.5)
    for _ in range(30):
        changed.step(DT)
        made.step(DT)
    assert changed.state_hash(motion_only=True) == made.state_hash(motion_only=True)
    assert changed.get_positions()[1, 1] < -1.1  # it dropped toward the new length
    with pytest.raises(KeyError):
        joint.params["M"] = 1.0
    with pytest.raises(ValueError, match="finite"):
        joint.params["L"] = float("nan")


def test_reaction_of_a_hanging_bob():
    """At rest, the rod holds the bob's weight: the row's impulse over the step is m g."""
    world, bob, joint = _pendulum(1.0)
    for _ in range(60):
        world.step(DT)
    (lam,) = joint.reaction_impulses
    weight = bob.mass * 10.0
    assert abs(lam) / DT == pytest.approx(weight, rel=1e-6)
    fx, fy = joint.reaction_force
    assert fy == pytest.approx(weight, rel=1e-6) and abs(fx) < 1e-9


# -- every solver -----------------------------------------------------------------------------
@pytest.mark.parametrize("settings", [dict(solver="pgs_block"), dict(solver="direct"),
                                      dict(solver="direct", direct_level="acceleration"),
                                      dict(solver="soft_step", diagnostics=True)],
                         ids=["pgs_block", "direct", "direct_acceleration", "diagnostics"])
def test_pendulum_matches_the_distance_joint_in_every_solver(settings):
    """A pendulum released horizontally (its bob hung at its centre: not chaotic) swings as the
    built-in distance joint's, within 1e-6 m over 300 steps."""
    worlds, bobs, joints = [], [], []
    for custom in (False, True):
        world = i2d.World(**settings)
        ground = world.create_body(type="static")
        bob = world.create_body(position=(1.0, 0.0))
        bob.create_circle(0.05)
        if custom:
            joints.append(world.create_custom_joint(
                ground, bob, custom_laws.distance(),
                params={"ax": 0.0, "ay": 0.0, "bx": 0.0, "by": 0.0, "L": 1.0}))
        else:
            world.create_distance_joint(ground, bob, (0.0, 0.0), (1.0, 0.0))
        worlds.append(world)
        bobs.append(bob)
    lowest = 0.0
    for _ in range(300):
        for world in worlds:
            world.step(DT)
        assert math.dist(bobs[0].position, bobs[1].position) < 1e-6
        lowest = min(lowest, bobs[1].position[1])
    assert lowest < -0.97
    if settings.get("diagnostics"):
        stats = worlds[1].solver_stats
        assert stats.max_joint_error == pytest.approx(worlds[0].solver_stats.max_joint_error,
                                                      abs=1e-9)
        rows = [row for row in worlds[1].constraint_rows() if row.kind.startswith("custom")]
        assert [row.kind for row in rows] == ["custom_row_0"]
        (built_in,) = worlds[0].constraint_rows()
        assert rows[0].impulse == pytest.approx(built_in.impulse, abs=1e-9)


# -- snapshots, pickles, drawing --------------------------------------------------------------
def test_snapshot_pickle_and_copy_step_to_the_same_bits():
    world, bob, joint = _pendulum(1.0, solver="soft_step")
    bob.linear_velocity = (2.0, 0.0)
    for _ in range(20):
        world.step(DT)
    snap = world.snapshot()
    twin = pickle.loads(pickle.dumps(world))
    clone = copy.deepcopy(world)
    for _ in range(20):
        world.step(DT)
    after = world.state_hash()
    world.restore(snap)
    for w in (world, twin, clone):
        if w is not world:
            assert w.joints[0].params["L"] == 1.0
        for _ in range(20):
            w.step(DT)
        assert w.state_hash() == after


def test_debug_draw_marks_the_anchors():
    pytest.importorskip("PIL")
    from impulse2d import draw

    world, bob, joint = _pendulum(1.0)
    cam = draw.Camera(center=(0.0, -0.5), scale=100.0)
    with_joints = np.asarray(draw.image(world, size=(200, 200), camera=cam))
    without = np.asarray(draw.image(world, size=(200, 200), camera=cam,
                                    flags=draw.Flags(joints=False)))
    changed = np.argwhere(np.any(with_joints != without, axis=-1))
    assert changed.size
    # the line from the ground's origin (pixel 100, 50) to the bob (100, 150)
    assert changed[:, 1].min() >= 95 and changed[:, 1].max() <= 105
    assert changed[:, 0].min() <= 55 and changed[:, 0].max() >= 145
