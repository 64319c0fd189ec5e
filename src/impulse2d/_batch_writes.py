"""Writes into a batch of copies that ride on its next step, for the native environments.

An environment writes its actions into every world and steps them all: the engines' impulses
(LunarLander), the joints' motor speeds and torque limits (BipedalWalker). Written by
``WorldBatch.apply_impulses`` and ``set_motor_speeds`` / ``set_max_motor_torques``, each is a
pass over every world's stores before the batch step, and among a thousand worlds each world's
stores are out of the cache by then: in the native LunarLander the impulses' pass was 3.4 ms a
step of 1,024 landers (cProfile, one thread), 7 % of the environment's step, for three
numbers a world. :class:`StepWrites` holds the same writes, checked as those methods check
them, and the batch step makes them into each world right before stepping it
(:func:`._dynamics.batch_step.write_world`), on the lines the step is about to read.

The bits are those of the methods' writes followed by the step: the same operations on the
same values, and nothing between the write and the step reads or changes what was written
(the batch's checks before a step read the worlds' settings, stores and flags, not their
velocities or motors). The exceptions go through those methods' own kernels, world by world:
a world whose impulse would wake a sleeping island (Python rebuilds its joint rows before its
step: the kernel leaves it unwritten and unstepped, and :func:`write_alone` writes it before
``World.step`` steps it), and the worlds the batch steps with ``World.step`` anyway
(callbacks, events, ``dt = 0``). Impulses beyond what cannot overflow a velocity are not
carried: ``WorldBatch._writes`` writes them at once, checked, as ``apply_impulses`` does.
"""

from __future__ import annotations

import numpy as np

from . import _batch_views as _views
from . import _validate
from ._dynamics import batch_step as _batch


class StepWrites:
    """Checked writes for a batch's next ``_step_state`` (made by ``WorldBatch._writes``):
    ``impulses`` (worlds, bodies, 3) as ``apply_impulses`` takes them, or None; the template
    joints' motor speeds (``joint_values[0]``, (worlds, joints)) where ``joint_mask[0]`` and
    motor limits (``joint_values[1]``) where ``joint_mask[1]``, or no joint writes
    (``joint_mask`` all False)."""

    __slots__ = ("impulses", "joint_rows", "joint_values", "joint_mask")

    def __init__(self, impulses, joint_rows, joint_values, joint_mask) -> None:
        self.impulses = impulses
        self.joint_rows = joint_rows
        self.joint_values = joint_values
        self.joint_mask = joint_mask

    def kernel_args(self) -> tuple:
        """The write arguments of :func:`._dynamics.batch_step.run` (``NO_WRITES``'s form)."""
        none = _batch.NO_WRITES
        impulses = none[0] if self.impulses is None else self.impulses
        if not self.joint_mask.any():
            return impulses, _validate.MAX_VELOCITY, none[2], none[3], none[4]
        return (impulses, _validate.MAX_VELOCITY, self.joint_rows, self.joint_values,
                self.joint_mask)

    def write_alone(self, batch, refs, k: int) -> None:
        """World ``k``'s writes by the public methods' kernels (``refs``: the batch's current
        references), with their wakes: for a world the batch step does not write."""
        if self.impulses is not None:
            rows = batch._body_rows
            flags = np.zeros(k + 1, dtype=np.int64)
            _views._scatter_bodies.entry(refs, k, k + 1, rows, self.impulses,
                                         _batch.ADD_IMPULSE, _validate.MAX_FORCE,
                                         _validate.MAX_VELOCITY, False, flags)
            if flags[k]:
                _batch.after_writes(batch._worlds[k], rows, int(flags[k]))
        for c in (_views.MOTOR_SPEED, _views.MAX_MOTOR):  # (0 and 1: joint_values' axis)
            if self.joint_mask[c].any():
                _views._scatter_joints.entry(refs, k, k + 1, self.joint_rows,
                                             self.joint_values[c], self.joint_mask[c], c)


__all__ = ["StepWrites"]
