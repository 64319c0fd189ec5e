"""The layout of a joint's solve row: the constants a revolute joint's passes read, packed into
one row of float64 by its ``prepare`` once a step (Box2D v3's ``b2JointSim``: each joint's
solve constants in one struct).

The passes (warm start, the biased and relax sweeps: 25 calls a step of LunarLander's 8
substeps) read this row and the accumulated impulses, not the ~25 columns of the joint and
body stores they come from: a pass keeps ~20 descriptor words live across its joint loop
where it kept 39, which LLVM spilled to the stack and read back on every joint (BENCHMARKS.md,
session 31, ``solveL56``). The rows live in the world's reference (``joint_sims``, one row a
joint row), refilled by every step before they are read: no snapshot holds them.

This file names the columns only (no kernels), so that the reference can size the rows without
importing a joint type. Columns are float64: the body rows as exact floats (below 2**53), the
switches as 1.0 or 0.0.
"""

FRAME_A = 0  # (2) anchor from A's centre of mass, world frame at the step's start, m
FRAME_B = 2  # (2) the same for B
DELTA_CENTER = 4  # (2) centre of B minus centre of A at the step's start, m
DELTA_ANGLE = 6  # joint angle at the step's start, rad
AXIAL_MASS = 7  # 1 / (1/I_a + 1/I_b), kg m^2
SPRING_SOFT = 8  # (3) the spring's bias rate, mass scale and impulse scale
MOTOR_SPEED = 11  # rad/s
MAX_MOTOR_IMPULSE = 12  # max motor torque times the (sub)step h, N m s
LOWER = 13  # rad
UPPER = 14  # rad
INV_MASS_A = 15  # 1/kg
INV_MASS_B = 16
INV_INERTIA_A = 17  # 1/(kg m^2)
INV_INERTIA_B = 18
BODY_A = 19  # body row of A
BODY_B = 20  # body row of B
SPRING_ON = 21  # the spring acts (enabled, hertz > 0)
MOTOR_ON = 22
LIMIT_ON = 23

SIM = 24
"""Columns of a joint's solve row (three 64-byte lines)."""
