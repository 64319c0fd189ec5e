"""``world.constraint_rows()``: the rows of the last step's solve, checked against the physics.

A box resting on the ground: J is the contact normal and the lever arms ``r x n`` worked out by
hand, the effective mass is ``1 / (J M^-1 J^T)`` from the box's mass and inertia, the normal
impulses are ``world.contacts``' to the bit and carry the box's weight (``m g dt``), and the
friction bounds are ``mu`` times the normal impulse. Every joint type: J agrees with central
finite differences of the joint's position constraint, evaluated on the live world at the pose
the step started from, along random body velocities.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.constants import LINEAR_SLOP

DT = 1.0 / 60.0
SOLVERS = ("soft_step", "pgs", "pgs_ngs", "pgs_block", "direct")
MU = 0.6


def _resting_box(solver, angle=0.0):
    world = i2d.World(solver=solver, enable_sleep=False)
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.5, friction=MU)
    box = world.create_body(position=(0.3, 0.5 + 0.25), angle=angle)
    box.create_box(0.5, 0.25, density=2.0, friction=MU)
    for _ in range(90):
        world.step(DT)
    return world, ground, box


def _cross(r, n):
    return r[0] * n[1] - r[1] * n[0]


@pytest.mark.parametrize("solver", SOLVERS)
def test_resting_box_rows_match_the_hand_worked_jacobian_mass_and_weight(solver):
    world, ground, box = _resting_box(solver)
    rows = world.constraint_rows()
    (contact,) = world.contacts
    normals = [r for r in rows if r.kind == "contact_normal"]
    frictions = [r for r in rows if r.kind == "contact_friction"]
    assert len(normals) == len(frictions) == len(contact.points) == 2
    m, inertia = box.mass, box.inertia
    assert m == pytest.approx(2.0 * 1.0 * 0.5) and inertia > 0.0
    n = np.array(contact.normal)
    t = np.array([n[1], -n[0]])
    c_a = np.array(ground.world_center)
    c_b = np.array(box.world_center)
    for row, p in zip(normals, contact.points):
        assert row.owner == contact and row.body_a == ground and row.body_b == box
        assert row.point == p.point
        r_a = np.array(p.point) - c_a
        r_b = np.array(p.point) - c_b
        # J = [-n, -(r_a x n), n, r_b x n] (the box barely moves in a resting step: 1e-6 m)
        hand = (*(-n), -_cross(r_a, n), *n, _cross(r_b, n))
        assert row.J == pytest.approx(hand, abs=1e-6)
        # effective mass 1 / (J M^-1 J^T): the ground is static (zero inverse mass)
        jb = np.array(row.J[3:])
        k = (jb[0] ** 2 + jb[1] ** 2) / m + jb[2] ** 2 / inertia
        assert row.effective_mass == pytest.approx(1.0 / k, rel=1e-12)
        # bit for bit the impulse world.contacts reports
        assert row.impulse == p.normal_impulse
        assert (row.lower, row.upper) == (0.0, math.inf) and row.impulse > 0.0
        assert row.unclamped == row.impulse  # resting: the clamp did not act
    for row, p in zip(frictions, contact.points):
        assert row.J[3:5] == pytest.approx(tuple(t), abs=1e-12)
        r_b = np.array(p.point) - c_b
        assert row.J[5] == pytest.approx(_cross(r_b, t), abs=1e-6)
        jb = np.array(row.J[3:])
        k = (jb[0] ** 2 + jb[1] ** 2) / m + jb[2] ** 2 / inertia
        assert row.effective_mass == pytest.approx(1.0 / k, rel=1e-12)
        assert row.impulse == p.tangent_impulse
        assert row.upper == -row.lower == MU * p.normal_impulse  # friction mixes sqrt(mu mu)
        assert abs(row.impulse) <= row.upper
        assert row.bias == 0.0
    # the ground carries the box's weight: sum of normal impulses = m g dt
    total = sum(r.impulse for r in normals)
    assert total == pytest.approx(m * 10.0 * DT, rel=2e-3)


def test_rows_are_listed_in_contact_order_then_joints():
    world = i2d.World(enable_sleep=False)
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.5)
    boxes = []
    for k in range(3):
        b = world.create_body(position=(-2.0 + 2.0 * k, 0.75))
        b.create_box(0.25, 0.25)
        boxes.append(b)
    world.create_revolute_joint(boxes[0], boxes[1], (-1.0, 0.75))
    for _ in range(30):
        world.step(DT)
    rows = world.constraint_rows()
    owners = [r.owner for r in rows if r.kind.startswith("contact")]
    listed = world.get_contacts(touching_only=False)
    assert [o for k, o in enumerate(owners) if k == 0 or o is not owners[k - 1]] == listed
    joint_rows = [r for r in rows if not r.kind.startswith("contact")]
    assert [r.kind for r in joint_rows] == ["revolute_point_x", "revolute_point_y"]
    assert rows[-2:] == joint_rows
    assert all(isinstance(r, i2d.ConstraintRow) for r in rows)


@pytest.mark.parametrize("solver", ("soft_step", "pgs"))
def test_a_lifting_box_shows_the_clamped_pull(solver):
    """A box kicked upward off the ground keeps speculative points whose normal rows want to
    pull it back: clamped at 0, with the pull (negative) in ``unclamped``."""
    world, ground, box = _resting_box(solver)
    box.linear_velocity = (0.0, 0.4)
    world.step(DT)  # its manifold was made where it rested: still touching
    world.step(DT)  # 7 mm up when the manifold is made, within the 2 cm margin
    rows = [r for r in world.constraint_rows() if r.kind == "contact_normal"]
    assert rows, "the speculative contact is still solved"
    for row in rows:
        assert row.impulse == 0.0
        assert row.unclamped < 0.0
        assert row.bias >= 0.0  # an open gap: C / h lets it approach up to contact
    assert world.contacts == []  # not touching: apart and no push
    (speculative,) = world.get_contacts(touching_only=False)
    assert not speculative.touching


def test_pgs_bias_is_baumgarte_of_the_separation():
    world, ground, box = _resting_box("pgs")
    s = world.settings
    (contact,) = world.contacts
    for row, p in zip([r for r in world.constraint_rows() if r.kind == "contact_normal"],
                      contact.points):
        expected = max(s.baumgarte / DT * min(0.0, p.separation + LINEAR_SLOP),
                       -s.contact_speed) if p.separation <= 0.0 else p.separation / DT
        assert row.bias == pytest.approx(expected, abs=1e-9)
        assert (row.mass_scale, row.impulse_scale) == (1.0, 0.0)


def test_soft_step_rows_carry_the_contact_softness():
    world, ground, box = _resting_box("soft_step")
    s = world.settings
    h = DT / s.substeps
    # Catto's soft constraint (DESIGN.md 5), twice as stiff against a static body, the hertz
    # capped at a quarter of the substep rate
    omega = 2.0 * math.pi * min(2.0 * s.contact_hertz, 0.5 / h)
    a1 = 2.0 * s.contact_damping_ratio + h * omega
    a2 = h * omega * a1
    mass_scale, impulse_scale = a2 / (1.0 + a2), 1.0 / (1.0 + a2)
    for row in world.constraint_rows():
        if row.kind == "contact_normal":
            assert row.mass_scale == pytest.approx(mass_scale, rel=1e-12)
            assert row.impulse_scale == pytest.approx(impulse_scale, rel=1e-12)
            assert -s.contact_speed <= row.bias <= 0.0


# -- joints: J against finite differences of C --------------------------------------------------
def _pose(world):
    return [(tuple(b.position), b.angle) for b in world.bodies]


def _set_pose(world, pose):
    for body, (position, angle) in zip(world.bodies, pose):
        if body.type != i2d.BodyType.STATIC:
            body.position = position
            body.angle = angle


def _moved(world, pose, velocity, eps):
    """``pose`` moved for ``eps`` s at ``velocity`` (per body: centre of mass vx, vy, w)."""
    out = []
    for body, (position, angle), (vx, vy, w) in zip(world.bodies, pose, velocity):
        lc = np.array(body.local_center)
        c, s = math.cos(angle), math.sin(angle)
        center = np.array(position) + (c * lc[0] - s * lc[1], s * lc[0] + c * lc[1])
        angle2 = angle + eps * w
        center2 = center + eps * np.array([vx, vy])
        c2, s2 = math.cos(angle2), math.sin(angle2)
        origin = center2 - (c2 * lc[0] - s2 * lc[1], s2 * lc[0] + c2 * lc[1])
        out.append((tuple(origin), angle2))
    return out


def _perp_offset(joint, local_axis):
    """``p . d``: B's anchor from A's across the axis fixed in A (prismatic and wheel)."""
    a = joint.body_a.angle
    c, s = math.cos(a), math.sin(a)
    ux, uy = c * local_axis[0] - s * local_axis[1], s * local_axis[0] + c * local_axis[1]
    ax, ay = joint.world_anchor_a
    bx, by = joint.world_anchor_b
    return -uy * (bx - ax) + ux * (by - ay)


def _along(joint, local_axis):
    a = joint.body_a.angle
    c, s = math.cos(a), math.sin(a)
    ux, uy = c * local_axis[0] - s * local_axis[1], s * local_axis[0] + c * local_axis[1]
    ax, ay = joint.world_anchor_a
    bx, by = joint.world_anchor_b
    return ux * (bx - ax) + uy * (by - ay)


def _relative_angle(joint):
    return joint.body_b.angle - joint.body_a.angle


def _point(joint):
    return np.subtract(joint.world_anchor_b, joint.world_anchor_a)


def _scene(kind):
    """A world with one joint of type ``kind`` (bodies moving, gravity off) and each of its
    rows' position constraint ``C(world)`` (the row's J is d C / dt)."""
    world = i2d.World(gravity=(0.0, 0.0), enable_sleep=False)
    world.settings.enable_continuous = False
    ground = world.create_body(type="static", position=(0.0, -3.0))
    ground.create_box(4.0, 0.2)
    a = world.create_body(position=(0.2, 0.1), angle=0.3, angular_velocity=0.7,
                          linear_velocity=(0.5, -0.2))
    a.create_box(0.4, 0.2, center=(0.1, 0.05))
    b = world.create_body(position=(1.1, 0.6), angle=-0.4, angular_velocity=-0.9,
                          linear_velocity=(-0.3, 0.4))
    b.create_box(0.3, 0.15, center=(-0.05, 0.1))
    axis = (0.8, 0.6)
    local = (math.cos(-0.3) * axis[0] - math.sin(-0.3) * axis[1],
             math.sin(-0.3) * axis[0] + math.cos(-0.3) * axis[1])  # the axis in A's frame
    if kind == "revolute":
        j = world.create_revolute_joint(a, b, (0.7, 0.4), enable_limit=True, lower_angle=-0.2,
                                        upper_angle=0.3, enable_motor=True, motor_speed=0.5,
                                        max_motor_torque=2.0, enable_spring=True, hertz=2.0,
                                        damping_ratio=0.5)
        ang = lambda: _relative_angle(j)  # noqa: E731
        rows = {"point_x": lambda: _point(j)[0], "point_y": lambda: _point(j)[1], "spring": ang,
                "motor": ang, "limit_lower": ang, "limit_upper": lambda: -ang()}
    elif kind == "prismatic":
        j = world.create_prismatic_joint(a, b, (0.7, 0.4), axis, enable_limit=True, lower=-0.5,
                                         upper=0.5, enable_motor=True, max_motor_force=3.0,
                                         enable_spring=True, hertz=1.5, damping_ratio=0.3)
        along = lambda: _along(j, local)  # noqa: E731
        rows = {"perpendicular": lambda: _perp_offset(j, local),
                "angle": lambda: _relative_angle(j), "spring": along, "motor": along,
                "limit_lower": along, "limit_upper": lambda: -along()}
    elif kind == "wheel":
        j = world.create_wheel_joint(a, b, (0.7, 0.4), axis, enable_motor=True,
                                     max_motor_torque=1.0, enable_limit=True, lower=-0.3,
                                     upper=0.3)
        along = lambda: _along(j, local)  # noqa: E731
        rows = {"perpendicular": lambda: _perp_offset(j, local),
                "motor": lambda: _relative_angle(j), "spring": along, "limit_lower": along,
                "limit_upper": lambda: -along()}
    elif kind == "distance":
        j = world.create_distance_joint(a, b, (0.3, 0.2), (1.0, 0.7))
        rows = {"length": lambda: j.current_length}
    elif kind == "distance_spring":
        j = world.create_distance_joint(a, b, (0.3, 0.2), (1.0, 0.7), min_length=0.5,
                                        max_length=1.5, enable_spring=True, hertz=2.0,
                                        enable_motor=True, max_motor_force=1.0)
        length = lambda: j.current_length  # noqa: E731
        rows = {"spring": length, "motor": length, "limit_lower": length,
                "limit_upper": lambda: -length()}
    elif kind == "weld":
        j = world.create_weld_joint(a, b, (0.7, 0.4))
        rows = {"angle": lambda: _relative_angle(j), "point_x": lambda: _point(j)[0],
                "point_y": lambda: _point(j)[1]}
    elif kind == "mouse":
        j = world.create_mouse_joint(b, (1.5, 1.0), max_force=50.0)
        target = np.array((1.5, 1.0))
        rows = {"point_x": lambda: (np.array(j.world_anchor_b) - target)[0],
                "point_y": lambda: (np.array(j.world_anchor_b) - target)[1]}
    elif kind == "motor":
        j = world.create_motor_joint(a, b, max_force=5.0, max_torque=5.0)
        offset = tuple(j.linear_offset)
        linear = lambda: np.subtract(b.position, a.world_point(offset))  # noqa: E731
        rows = {"angle": lambda: _relative_angle(j), "linear_x": lambda: linear()[0],
                "linear_y": lambda: linear()[1]}
    elif kind == "pulley":
        j = world.create_pulley_joint(a, b, (0.0, 3.0), (1.5, 3.0), (0.2, 0.2), (1.0, 0.7),
                                      ratio=1.5)
        rows = {"length": lambda: -(j.length_a + 1.5 * j.length_b)}
        # The pulley's export reads the rope's directions through the bodies' centres now,
        # which the step has moved (constraint_rows' doc): at rest they are the step's.
        for body in (a, b):
            body.linear_velocity = (0.0, 0.0)
            body.angular_velocity = 0.0
    elif kind == "gear":
        ra = world.create_revolute_joint(ground, a, (0.2, 0.1))
        rb = world.create_prismatic_joint(ground, b, (1.1, 0.6), (1.0, 0.0))
        j = world.create_gear_joint(ra, rb, ratio=0.5)
        rows = {"ratio": lambda: ra.angle + 0.5 * rb.translation}
    elif kind == "custom":
        # a point on a line fixed in A (rigid) and the relative angle, free within bounds and
        # driven by a motor (impulse2d.custom): laid out motor_1, lower_1, upper_1, row_0
        sp = pytest.importorskip("sympy")
        from impulse2d.custom import ConstraintLaw, Pose, dot
        pa, pb = Pose("a"), Pose("b")
        ax, ay, bx, by, ux, uy = sp.symbols("ax ay bx by ux uy", real=True)
        d = pb.world_point((bx, by)) - pa.world_point((ax, ay))
        law = ConstraintLaw([dot(pa.world_vector((-uy, ux)), d), pb.angle - pa.angle],
                            params=["ax", "ay", "bx", "by", "ux", "uy"])
        anchor_a, anchor_b = a.local_point((0.7, 0.4)), b.local_point((0.7, 0.4))
        j = world.create_custom_joint(
            a, b, law, params={"ax": anchor_a[0], "ay": anchor_a[1], "bx": anchor_b[0],
                               "by": anchor_b[1], "ux": local[0], "uy": local[1]},
            lower=[None, -1.0], upper=[None, 0.0], motor_speed=[None, 0.5],
            max_motor_force=[0.0, 2.0])
        rows = {"motor_1": lambda: j.value[1], "lower_1": lambda: j.value[1],
                "upper_1": lambda: -j.value[1], "row_0": lambda: j.value[0]}
    else:
        raise ValueError(kind)
    return world, j, rows


JOINT_KINDS = ("revolute", "prismatic", "wheel", "distance", "distance_spring", "weld", "mouse",
               "motor", "pulley", "gear", "custom")


@pytest.mark.parametrize("solver", ("pgs", "soft_step"))
@pytest.mark.parametrize("kind", JOINT_KINDS)
def test_joint_jacobians_match_finite_differences_of_the_position_constraint(kind, solver):
    world, joint, constraint = _scene(kind)
    world.settings.solver = solver
    for _ in range(3):
        world.step(DT)
    start = _pose(world)      # the pose the next step starts from: its rows' J are there
    world.step(DT)
    rows = [r for r in world.constraint_rows() if r.owner == joint]
    assert [r.kind.split("_", 1)[1] for r in rows] == list(constraint), "the rows, in order"
    index = {b: k for k, b in enumerate(world.bodies)}
    rng = np.random.default_rng(7)
    eps = 1e-6
    for _ in range(3):
        velocity = rng.normal(size=(len(world.bodies), 3))
        velocity[index[world.bodies[0]]] = 0.0  # the ground does not move
        _set_pose(world, _moved(world, start, velocity, eps))
        plus = {name: c() for name, c in constraint.items()}
        _set_pose(world, _moved(world, start, velocity, -eps))
        minus = {name: c() for name, c in constraint.items()}
        for row in rows:
            name = row.kind.split("_", 1)[1]
            fd = (plus[name] - minus[name]) / (2.0 * eps)
            if row.terms:   # a gear couples more than two bodies
                jv = sum(np.dot(term, velocity[index[body]]) for body, term in row.terms)
            else:
                jv = (np.dot(row.J[:3], velocity[index[row.body_a]])
                      + np.dot(row.J[3:], velocity[index[row.body_b]]))
            assert jv == pytest.approx(fd, rel=1e-6, abs=1e-6), row.kind
            # the effective mass of the row alone, 1 / (J M^-1 J^T)
            terms = row.terms or ((row.body_a, row.J[:3]), (row.body_b, row.J[3:]))
            k = 0.0
            for body in {b for b, _ in terms}:
                jt = np.sum([t for b, t in terms if b == body], axis=0)
                if body.type == i2d.BodyType.DYNAMIC:
                    k += (jt[0] ** 2 + jt[1] ** 2) / body.mass + jt[2] ** 2 / body.inertia
            assert row.effective_mass == pytest.approx(1.0 / k, rel=1e-9)


@pytest.mark.parametrize("solver", SOLVERS)
def test_joint_rows_report_the_joints_impulses_and_bounds(solver):
    world = i2d.World(solver=solver, enable_sleep=False)
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.2)
    bob = world.create_body(position=(1.0, 2.0))
    bob.create_circle(0.2)
    pin = world.create_revolute_joint(ground, bob, (0.0, 2.0), enable_motor=True,
                                      max_motor_torque=0.5, motor_speed=3.0)
    for _ in range(20):
        world.step(DT)
    rows = {r.kind: r for r in world.constraint_rows() if r.owner == pin}
    assert set(rows) == {"revolute_point_x", "revolute_point_y", "revolute_motor"}
    h = DT / world.settings.substeps if solver == "soft_step" else DT
    # the point's impulses are what reaction_force reads (impulse / h)
    force = pin.reaction_force
    assert rows["revolute_point_x"].impulse / h == pytest.approx(force.x, rel=1e-12)
    assert rows["revolute_point_y"].impulse / h == pytest.approx(force.y, rel=1e-12)
    assert rows["revolute_point_y"].lower == -math.inf
    motor = rows["revolute_motor"]
    assert (motor.lower, motor.upper) == pytest.approx((-0.5 * h, 0.5 * h), rel=1e-12)
    assert abs(motor.impulse) <= motor.upper + 1e-15
    assert motor.impulse / h == pytest.approx(pin.reaction_torque, rel=1e-12)
    assert motor.bias == -3.0   # the motor's speed


def test_no_rows_before_a_step_and_none_for_a_sleeping_island():
    world = i2d.World()
    ground = world.create_body(type="static")
    ground.create_box(5.0, 0.5)
    box = world.create_body(position=(0.0, 0.75))
    box.create_box(0.25, 0.25)
    assert world.constraint_rows() == []
    for _ in range(400):
        world.step(DT)
    assert not box.is_awake
    assert world.constraint_rows() == []  # asleep: not solved, no rows
