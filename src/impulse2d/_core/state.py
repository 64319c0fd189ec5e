"""Column layouts of the body and shape stores.

Bodies and shapes are rows of these stores; public ``Body``/``Shape`` handles index into them.
Every array is float64 unless stated (precision far from the origin matters more to Python users
than memory; DESIGN.md section 3). Per body about 40 float64 = 320 bytes; per shape about 60 with
its 8-vertex polygon.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# Body types, with Box2D's numbering (also the values of the public ``BodyType`` enum).
STATIC = 0
KINEMATIC = 1
DYNAMIC = 2


class Bodies(NamedTuple):
    alive: np.ndarray            # bool: row holds a live body
    generation: np.ndarray       # int64: bumped when the row is freed (stale-handle check)
    type: np.ndarray             # int64: STATIC | KINEMATIC | DYNAMIC
    origin: np.ndarray           # (n, 2) body origin in world coordinates, m
    angle: np.ndarray            # rad, counter-clockwise, unwrapped (continuous)
    rot: np.ndarray              # (n, 2) cos(angle), sin(angle), kept in step with angle
    local_center: np.ndarray     # (n, 2) centre of mass in body coordinates, m
    center: np.ndarray           # (n, 2) centre of mass in world coordinates, m
    v: np.ndarray                # (n, 2) linear velocity of the centre of mass, m/s
    w: np.ndarray                # angular velocity, rad/s
    force: np.ndarray            # (n, 2) accumulated force for the next step, N (cleared after it)
    torque: np.ndarray           # accumulated torque about the centre of mass, N m
    mass: np.ndarray             # kg (0 for static and kinematic bodies)
    inv_mass: np.ndarray         # 1/kg, 0 when not dynamic
    inertia: np.ndarray          # kg m^2 about the centre of mass
    inv_inertia: np.ndarray      # 0 when not dynamic or rotation is fixed
    linear_damping: np.ndarray   # 1/s
    angular_damping: np.ndarray  # 1/s
    gravity_scale: np.ndarray    # dimensionless
    fixed_rotation: np.ndarray   # bool
    dp: np.ndarray               # (n, 2) position change of the centre of mass within this step, m
    dq: np.ndarray               # (n, 2) rotation change within this step as (cos, sin)
    asleep: np.ndarray           # bool: the body's island sleeps (not integrated nor solved)
    allow_sleep: np.ndarray      # bool: may the body fall asleep (False keeps its island awake)
    sleep_threshold: np.ndarray  # m/s: speed below which the sleep timer runs
    sleep_time: np.ndarray       # s the body has been slow for (its island sleeps when all are)
    island: np.ndarray           # int64: lowest body row of its island (dynamic bodies), else -1
    island_sleep: np.ndarray     # s, scratch of the sleep stage: least sleep time of the island
                                 # whose lowest row this is
    extent: np.ndarray           # m: farthest shape point from the centre of mass (the angular
                                 # part of the sleep speed is |w| times this, as in Box2D v3)
    step_motion: np.ndarray      # m^2: square of how far the last step moved the body (centre,
                                 # or its turn times extent), position corrections included
    min_extent: np.ndarray       # m: thinnest half-width of its shapes (a circle's radius, a
                                 # box's smaller half side, 0 for a segment); HUGE without shapes
    bullet: np.ndarray           # bool: swept against dynamic bodies too (continuous collision)
    fast: np.ndarray             # bool: moved far this step, to be swept (set by finalize,
                                 # cleared by the continuous stage)
    sweep: np.ndarray            # (n, 3) centre of mass x, y and angle at the start of the step,
                                 # kept for fast bodies


BODY_LAYOUT = {
    "alive": (np.bool_, ()),
    "generation": (np.int64, ()),
    "type": (np.int64, ()),
    "origin": (np.float64, (2,)),
    "angle": (np.float64, ()),
    "rot": (np.float64, (2,)),
    "local_center": (np.float64, (2,)),
    "center": (np.float64, (2,)),
    "v": (np.float64, (2,)),
    "w": (np.float64, ()),
    "force": (np.float64, (2,)),
    "torque": (np.float64, ()),
    "mass": (np.float64, ()),
    "inv_mass": (np.float64, ()),
    "inertia": (np.float64, ()),
    "inv_inertia": (np.float64, ()),
    "linear_damping": (np.float64, ()),
    "angular_damping": (np.float64, ()),
    "gravity_scale": (np.float64, ()),
    "fixed_rotation": (np.bool_, ()),
    "dp": (np.float64, (2,)),
    "dq": (np.float64, (2,)),
    "asleep": (np.bool_, ()),
    "allow_sleep": (np.bool_, ()),
    "sleep_threshold": (np.float64, ()),
    "sleep_time": (np.float64, ()),
    "island": (np.int64, ()),
    "island_sleep": (np.float64, ()),
    "extent": (np.float64, ()),
    "step_motion": (np.float64, ()),
    "min_extent": (np.float64, ()),
    "bullet": (np.bool_, ()),
    "fast": (np.bool_, ()),
    "sweep": (np.float64, (3,)),
}


class Shapes(NamedTuple):
    """Every shape is stored as a rounded convex polygon (see ``impulse2d._collision``)."""

    alive: np.ndarray        # bool
    generation: np.ndarray   # int64
    body: np.ndarray         # int64 row of the owning body
    type: np.ndarray         # int64 shape type code (_collision.shape_types)
    count: np.ndarray        # int64 vertex count: 1 circle, 2 capsule/segment, 3..8 polygon
    vertices: np.ndarray     # (n, 8, 2) body-frame vertices, counter-clockwise, m
    normals: np.ndarray      # (n, 8, 2) outward unit edge normals, edge i = v[i] -> v[i+1]
    radius: np.ndarray       # rounding radius, m (circle radius, capsule radius)
    centroid: np.ndarray     # (n, 2) body-frame centroid, m
    density: np.ndarray      # kg/m^2
    friction: np.ndarray     # Coulomb coefficient, >= 0
    restitution: np.ndarray  # >= 0
    is_sensor: np.ndarray    # bool: makes no contacts, reports overlaps (sensor events)
    sensor_events: np.ndarray  # bool: sensors detect this shape
    category: np.ndarray     # uint64 bits this shape is
    mask: np.ndarray         # uint64 bits this shape collides with
    group: np.ndarray        # int64: equal negative groups never collide, equal positive always do
    aabb: np.ndarray         # (n, 4) tight world box: min x, min y, max x, max y
    fat_aabb: np.ndarray     # (n, 4) enlarged box kept by the broadphase
    ghost: np.ndarray        # (n, 2, 2) chain segment: body-frame vertex before v0 and after v1
                             # along its chain (_collision.chain); zero for other shapes


SHAPE_LAYOUT = {
    "alive": (np.bool_, ()),
    "generation": (np.int64, ()),
    "body": (np.int64, ()),
    "type": (np.int64, ()),
    "count": (np.int64, ()),
    "vertices": (np.float64, (8, 2)),
    "normals": (np.float64, (8, 2)),
    "radius": (np.float64, ()),
    "centroid": (np.float64, (2,)),
    "density": (np.float64, ()),
    "friction": (np.float64, ()),
    "restitution": (np.float64, ()),
    "is_sensor": (np.bool_, ()),
    "sensor_events": (np.bool_, ()),
    "category": (np.uint64, ()),
    "mask": (np.uint64, ()),
    "group": (np.int64, ()),
    "aabb": (np.float64, (4,)),
    "fat_aabb": (np.float64, (4,)),
    "ghost": (np.float64, (2, 2)),
}


# Joint types (values of the public ``JointType`` enum).
REVOLUTE = 0
DISTANCE = 1
PRISMATIC = 2
WELD = 3
WHEEL = 4
MOUSE = 5
MOTOR = 6
PULLEY = 7
GEAR = 8
CUSTOM = 9

LAW_ROWS = 3
"""Most rows of a custom joint's law (impulse2d.custom)."""
LAW_PARAMS = 8
"""Most named parameters of a law."""
LAW_STATE = 16
"""The state a law kernel reads: per body x, y, angle, cos, sin (origin pose) and vx, vy, w
(origin velocity), A then B."""
LAW_OUT = 8
"""What a law kernel writes per row: C, J on A (x, y, angle), J on B, Jdot v."""


class Joints(NamedTuple):
    """Every joint type shares these columns; a type uses the options that apply to it."""

    alive: np.ndarray             # bool
    generation: np.ndarray        # int64
    type: np.ndarray              # int64 joint type code
    body_a: np.ndarray            # int64
    body_b: np.ndarray            # int64
    local_anchor_a: np.ndarray    # (n, 2) anchor in body A's frame (from its origin), m
    local_anchor_b: np.ndarray    # (n, 2)
    reference_angle: np.ndarray   # rad: angle_b - angle_a at creation
    collide_connected: np.ndarray  # bool: may the two bodies still collide
    enable_limit: np.ndarray      # bool
    lower: np.ndarray             # rad (revolute) or m
    upper: np.ndarray
    enable_motor: np.ndarray      # bool
    motor_speed: np.ndarray       # rad/s or m/s
    max_motor: np.ndarray         # N m or N
    enable_spring: np.ndarray     # bool
    hertz: np.ndarray             # spring stiffness, Hz
    damping_ratio: np.ndarray     # spring damping ratio
    local_axis_a: np.ndarray      # (n, 2) unit axis in body A's frame (prismatic, wheel)
    length: np.ndarray            # rest length (distance), m
    min_length: np.ndarray        # m (distance)
    max_length: np.ndarray        # m (distance)
    angular_hertz: np.ndarray     # angular spring stiffness (weld), Hz
    angular_damping_ratio: np.ndarray
    target: np.ndarray            # (n, 2) world target point (mouse), m
    max_torque: np.ndarray        # N m (motor joint; max_motor holds its max force)
    correction_factor: np.ndarray  # motor joint: fraction of the pose error driven per step
    ground_a: np.ndarray          # (n, 2) world point the rope to A runs over (pulley), m
    ground_b: np.ndarray          # (n, 2)
    ratio: np.ndarray             # pulley: rope on B counts ratio times; gear: coord_a + ratio coord_b
    constant: np.ndarray          # pulley: rope length len_a + ratio len_b, m; gear: the kept sum
    linked: np.ndarray            # (n, 2) int64 rows of the two joints a gear couples
    # Accumulated impulses, per (sub)step: the warm-start memory.
    linear_impulse: np.ndarray    # (n, 2) N s
    spring_impulse: np.ndarray    # N m s (or N s)
    motor_impulse: np.ndarray
    lower_impulse: np.ndarray
    upper_impulse: np.ndarray
    angular_impulse: np.ndarray   # N m s: the rigid angular row (prismatic, weld, motor)
    # Prepared each step.
    frame_a: np.ndarray           # (n, 2) anchor from A's centre of mass, world frame, m
    frame_b: np.ndarray
    delta_center: np.ndarray      # (n, 2) centre of B minus centre of A, m
    delta_angle: np.ndarray       # joint angle at the start of the step, rad
    axial_mass: np.ndarray        # 1 / (1/I_a + 1/I_b), kg m^2
    spring_soft: np.ndarray       # (n, 3) softness of the spring (bias rate, mass and impulse scale)
    axis: np.ndarray              # (n, 2) joint axis in world frame at the start of the step
    angular_soft: np.ndarray      # (n, 3) softness of the angular spring (weld)
    # Scratch of the current iteration (kept here so the solver allocates nothing).
    jacobian: np.ndarray          # (n, 4, 4) gear: Jacobian rows (body, jvx, jvy, jw), merged
    turn_kept: np.ndarray         # (n, 3) revolute: the last in-step turn's sin, cos and angle
                                  # (rad), found again by the next pass at the same rotations
    # Custom joints (impulse2d.custom): a law of up to LAW_ROWS rows C(q_a, q_b; params).
    law: np.ndarray               # int64 slot of the law's kernel in the world's table of verbs
    law_rows: np.ndarray          # int64 rows of the law (1..LAW_ROWS)
    law_angle: np.ndarray         # bool: the law reads a bare angle (not only its cos and sin)
    law_params: np.ndarray        # (n, LAW_PARAMS) the law's parameters, in its order
    row_lower: np.ndarray         # (n, LAW_ROWS) lower bound of each row's C (-inf: none)
    row_upper: np.ndarray         # (n, LAW_ROWS) upper bound (+inf: none); lower == upper: equality
    row_motor: np.ndarray         # (n, LAW_ROWS) bool: a motor drives the row's Cdot
    row_speed: np.ndarray         # (n, LAW_ROWS) the motor's target Cdot (unit of C per s)
    row_max_force: np.ndarray     # (n, LAW_ROWS) the motor's largest force (N, or N m)
    row_impulse: np.ndarray       # (n, LAW_ROWS, 3) accumulated: equality or motor, lower, upper
    law_base: np.ndarray          # (n, 2, 5) A's and B's centre x, y, angle, cos, sin at the
                                  # start of the step (prepared, as the other joints' frames)
    law_state: np.ndarray         # (n, LAW_STATE) the state the law kernel last read (NaN
                                  # first: prepared afresh)
    law_out: np.ndarray           # (n, LAW_ROWS, LAW_OUT) scratch: what the law kernel writes


JOINT_LAYOUT = {
    "alive": (np.bool_, ()),
    "generation": (np.int64, ()),
    "type": (np.int64, ()),
    "body_a": (np.int64, ()),
    "body_b": (np.int64, ()),
    "local_anchor_a": (np.float64, (2,)),
    "local_anchor_b": (np.float64, (2,)),
    "reference_angle": (np.float64, ()),
    "collide_connected": (np.bool_, ()),
    "enable_limit": (np.bool_, ()),
    "lower": (np.float64, ()),
    "upper": (np.float64, ()),
    "enable_motor": (np.bool_, ()),
    "motor_speed": (np.float64, ()),
    "max_motor": (np.float64, ()),
    "enable_spring": (np.bool_, ()),
    "hertz": (np.float64, ()),
    "damping_ratio": (np.float64, ()),
    "local_axis_a": (np.float64, (2,)),
    "length": (np.float64, ()),
    "min_length": (np.float64, ()),
    "max_length": (np.float64, ()),
    "angular_hertz": (np.float64, ()),
    "angular_damping_ratio": (np.float64, ()),
    "target": (np.float64, (2,)),
    "max_torque": (np.float64, ()),
    "correction_factor": (np.float64, ()),
    "ground_a": (np.float64, (2,)),
    "ground_b": (np.float64, (2,)),
    "ratio": (np.float64, ()),
    "constant": (np.float64, ()),
    "linked": (np.int64, (2,)),
    "linear_impulse": (np.float64, (2,)),
    "spring_impulse": (np.float64, ()),
    "motor_impulse": (np.float64, ()),
    "lower_impulse": (np.float64, ()),
    "upper_impulse": (np.float64, ()),
    "angular_impulse": (np.float64, ()),
    "frame_a": (np.float64, (2,)),
    "frame_b": (np.float64, (2,)),
    "delta_center": (np.float64, (2,)),
    "delta_angle": (np.float64, ()),
    "axial_mass": (np.float64, ()),
    "spring_soft": (np.float64, (3,)),
    "axis": (np.float64, (2,)),
    "angular_soft": (np.float64, (3,)),
    "jacobian": (np.float64, (4, 4)),
    "turn_kept": (np.float64, (3,)),
    "law": (np.int64, ()),
    "law_rows": (np.int64, ()),
    "law_angle": (np.bool_, ()),
    "law_params": (np.float64, (LAW_PARAMS,)),
    "row_lower": (np.float64, (LAW_ROWS,)),
    "row_upper": (np.float64, (LAW_ROWS,)),
    "row_motor": (np.bool_, (LAW_ROWS,)),
    "row_speed": (np.float64, (LAW_ROWS,)),
    "row_max_force": (np.float64, (LAW_ROWS,)),
    "row_impulse": (np.float64, (LAW_ROWS, 3)),
    "law_base": (np.float64, (2, 5)),
    "law_state": (np.float64, (LAW_STATE,)),
    "law_out": (np.float64, (LAW_ROWS, LAW_OUT)),
}
