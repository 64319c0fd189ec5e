"""The revolute joint's solve row: the constants its passes read, packed into one record a
joint by its ``prepare`` once a step (Box2D v3's ``b2JointSim``: each joint's solve constants
in one struct).

The passes of the revolute list (the joints with a spring, motor or limit; warm start, the
biased and relax sweeps: 25 calls a step of LunarLander's 8 substeps) read this record and the
accumulated impulses, not the ~25 columns of the joint and
body stores the values come from. A record array is one data pointer to the compiled code (its
fields are at constant offsets from ``data + j * itemsize``), where the columns were 39
descriptor words that LLVM kept live across the joint loop, spilled to the stack and read back
on every joint (BENCHMARKS.md, session 31, ``solveL56``; session 32, ``jointR57``). The records
live in the world's reference (``joint_sims``, one a joint row), refilled by every step before
they are read: no snapshot holds them. Only the revolute list has records (:data:`.revolute.RECORDED`).

This file names the layout only (no kernels), so that the reference can make the records
without importing a joint type.
"""

import numpy as np

SIM_DTYPE = np.dtype([
    ("frame_a", np.float64, (2,)),  # anchor from A's centre of mass, world frame, step start, m
    ("frame_b", np.float64, (2,)),  # the same for B
    ("delta_center", np.float64, (2,)),  # centre of B minus centre of A at the step's start, m
    ("delta_angle", np.float64),  # joint angle at the step's start, rad
    ("axial_mass", np.float64),  # 1 / (1/I_a + 1/I_b), kg m^2
    ("spring_soft", np.float64, (3,)),  # the spring's bias rate, mass scale, impulse scale
    ("motor_speed", np.float64),  # rad/s
    ("max_motor_impulse", np.float64),  # max motor torque times the (sub)step h, N m s
    ("lower", np.float64),  # rad
    ("upper", np.float64),  # rad
    ("inv_mass_a", np.float64),  # 1/kg
    ("inv_mass_b", np.float64),
    ("inv_inertia_a", np.float64),  # 1/(kg m^2)
    ("inv_inertia_b", np.float64),
    ("body_a", np.int64),  # body rows
    ("body_b", np.int64),
    ("spring_on", np.bool_),  # the spring acts (enabled, hertz > 0)
    ("motor_on", np.bool_),
    ("limit_on", np.bool_),
], align=True)
"""One revolute joint's solve constants (176 bytes: under three 64-byte lines)."""
