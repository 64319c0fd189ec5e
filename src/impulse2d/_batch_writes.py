"""Compiled writes of a :class:`~impulse2d.WorldBatch` into its worlds' joint columns.

Beside :func:`._dynamics.batch_step.scatter_motor_speeds`, kept here (outside the engine's
folders, whose every edit makes the whole kernel cache stale) so that it compiles on its own.
A reinforcement-learning action sets both a joint's motor speed and its torque limit each step
(BipedalWalker: speed = sign(a) x rated speed, torque = |a| x rated torque); a loop over the
worlds in Python costs about a microsecond a world, this one call for all.
"""

from __future__ import annotations

from ._core.jit import DirectCall, gil_free_kernel
from ._dynamics.world_ref import borrow


@gil_free_kernel
def scatter_max_motor(refs, rows, values, motorised):
    """Write ``values`` (worlds, joints) into the template joints' ``max_motor`` column (the
    motor's torque limit, N m, or force limit, N), only where ``motorised``."""
    for i in range(len(refs)):
        joints = borrow(refs[i], "joints")
        for j in range(rows.shape[0]):
            if motorised[j]:
                joints.max_motor[rows[j]] = values[i, j]


_scatter_max_motor = DirectCall(scatter_max_motor, "the batch's motor limit writes", 1.0)
