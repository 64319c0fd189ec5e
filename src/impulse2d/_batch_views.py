"""Compiled reads and writes of a :class:`~impulse2d.WorldBatch`'s dense views, over a range
of its worlds, so that the batch spreads them over its threads as it spreads its step.

An environment reads the template bodies' state and writes its joints' motors in every world
on every step. Each is a pass over all the worlds' stores, which for a thousand walkers (about
half a megabyte of state each) miss the caches world after world: in the native
BipedalWalker the two motor writes, the two gathers and their checks took 12 % of the time,
on one thread while the step ran on two (cProfile, 1,024 environments, 2026-11-28 afternoon,
load 8). Here the state is gathered
in one pass (:func:`gather_state`: what ``gather_bodies`` and ``gather_touching`` of
:mod:`._dynamics.batch_step` give, the same operations) and a joint column written in one
(:func:`scatter_joints`), both over ``[lo, hi)`` with Python's lock released. Kept outside
the engine's folders, whose every edit makes the whole kernel cache stale, so that they
compile on their own.
"""

from __future__ import annotations

import numpy as np

from ._core.jit import DirectCall, gil_free_kernel
from ._core.state import STATIC
from ._dynamics.world_ref import borrow

MOTOR_SPEED, MAX_MOTOR = 0, 1
"""The joint columns :func:`scatter_joints` writes: ``motor_speed`` (rad/s or m/s) and
``max_motor`` (the motor's torque limit, N m, or force limit, N)."""


@gil_free_kernel
def gather_state(refs, lo, hi, rows, positions, angles, velocities, awake, touching):
    """Worlds ``lo`` to ``hi``: the template bodies' origins, angles, velocities (vx, vy, w),
    awake flags and whether each has a touching contact (a manifold point that overlaps or
    pushed), into row ``i`` of each array."""
    for i in range(lo, hi):
        b = borrow(refs[i], "bodies")
        for j in range(rows.shape[0]):
            r = rows[j]
            positions[i, j, 0] = b.origin[r, 0]
            positions[i, j, 1] = b.origin[r, 1]
            angles[i, j] = b.angle[r]
            velocities[i, j, 0] = b.v[r, 0]
            velocities[i, j, 1] = b.v[r, 1]
            velocities[i, j, 2] = b.w[r]
            awake[i, j] = b.type[r] != STATIC and not b.asleep[r]
        c = borrow(refs[i], "contacts")
        hit = np.zeros(b.alive.shape[0], dtype=np.bool_)
        for k in range(c.count.shape[0]):
            for p in range(min(c.count[k], 2)):
                if c.separation[k, p] < 0.0 or c.total_normal_impulse[k, p] > 0.0:
                    hit[c.body_a[k]] = True
                    hit[c.body_b[k]] = True
        for j in range(rows.shape[0]):
            touching[i, j] = hit[rows[j]]


@gil_free_kernel
def scatter_joints(refs, lo, hi, rows, values, mask, column):
    """Worlds ``lo`` to ``hi``: ``values[i, j]`` into the template joint ``rows[j]``'s
    ``column`` (:data:`MOTOR_SPEED` or :data:`MAX_MOTOR`) where ``mask[j]``."""
    for i in range(lo, hi):
        joints = borrow(refs[i], "joints")
        out = joints.motor_speed if column == MOTOR_SPEED else joints.max_motor
        for j in range(rows.shape[0]):
            if mask[j]:
                out[rows[j]] = values[i, j]


_gather_state = DirectCall(gather_state, "the batch's views", 2.0)
_scatter_joints = DirectCall(scatter_joints, "the batch's joint writes", 1.0)
