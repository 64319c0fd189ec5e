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


def impulse_rows(n: int, nb: int) -> tuple:
    """Zeroed rows of the batch step's arguments for ``n`` worlds with room for an impulse on
    each of ``nb`` template bodies (:meth:`StepWrites.kernel_args`' layout), and the first
    impulse column: for an environment to write its impulses into in place
    (:meth:`StepWrites.of_rows`)."""
    return np.zeros((n, _batch.WRITES + 3 * nb)), _batch.WRITES


class StepWrites:
    """Checked writes for a batch's next ``_step_state`` (made by ``WorldBatch._writes``):
    ``impulses`` (worlds, bodies, 3) as ``apply_impulses`` takes them, or None; the template
    joints' motor speeds (``joint_values[0]``, (worlds, joints)) where ``joint_mask[0]`` and
    motor limits (``joint_values[1]``) where ``joint_mask[1]``, or no joint writes
    (``joint_mask`` all False). Or impulses already in the kernel's rows of arguments
    (``packed``, :meth:`of_rows`). ``joints``: whether any joint column is written
    (``joint_mask.any()``, known to the maker: a NumPy reduction in the step's Python, the
    only one of a LunarLander step, cost its first call's code out of the cache, 20-25 us,
    BENCHMARKS.md session 29)."""

    __slots__ = ("impulses", "joint_rows", "joint_values", "joint_mask", "joints", "packed")

    def __init__(self, impulses, joint_rows, joint_values, joint_mask, joints: bool,
                 packed=None) -> None:
        self.impulses = impulses
        self.joint_rows = joint_rows
        self.joint_values = joint_values
        self.joint_mask = joint_mask
        self.joints = joints
        self.packed = packed

    @classmethod
    def of_rows(cls, rows: np.ndarray, joint_rows) -> "StepWrites":
        """Impulses written into :func:`impulse_rows`' ``rows`` (worlds, ``WRITES`` + 3 a
        template body), no joint writes: the kernel takes ``rows`` as its rows of arguments
        (its own columns copied in), where :meth:`kernel_args` would pack a copy of them."""
        nj = 0 if joint_rows is None else joint_rows.shape[0]
        return cls(None, joint_rows, None, np.zeros((2, nj), dtype=bool), False, rows)

    def kernel_args(self, args: np.ndarray, rows: np.ndarray) -> tuple:
        """The batch's rows of arguments ``args`` and the template body ``rows`` with these
        writes packed after them, as :func:`._dynamics.batch_step.write_world` reads them: per
        world the impulses (3 a body) then the motor speeds and limits (one a joint each)
        after its arguments; the joints' rows (-1 where a column is not written) after the
        body rows. Unchanged when there is nothing to write. (Packed rather than passed as
        arrays of their own: Numba wraps each array argument at the call, an allocation each.)"""
        if self.packed is not None:
            self.packed[:, :_batch.ARGUMENTS] = args
            return self.packed, rows
        impulses, mask, joints = self.impulses, self.joint_mask, self.joints
        if impulses is None and not joints:
            return args, rows
        n, nb, nj = args.shape[0], rows.shape[0], mask.shape[1] if joints else 0
        wide = np.zeros((n, _batch.WRITES + 3 * nb + 2 * nj))
        wide[:, :_batch.ARGUMENTS] = args
        if impulses is not None:
            wide[:, _batch.WRITES: _batch.WRITES + 3 * nb] = impulses.reshape(n, 3 * nb)
        if not joints:
            return wide, rows
        first = _batch.WRITES + 3 * nb
        wide[:, first: first + nj] = self.joint_values[0]
        wide[:, first + nj:] = self.joint_values[1]
        cols = np.where(mask, self.joint_rows[None, :], -1).reshape(2 * nj)
        return wide, np.concatenate((rows, cols))

    def write_alone(self, batch, refs, k: int) -> None:
        """World ``k``'s writes by the public methods' kernels (``refs``: the batch's current
        references), with their wakes: for a world the batch step does not write."""
        if self.impulses is None and self.packed is not None:   # (once: a copy of them all)
            n = self.packed.shape[0]
            self.impulses = self.packed[:, _batch.WRITES:].reshape(n, -1, 3).copy()
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


__all__ = ["StepWrites", "impulse_rows"]
