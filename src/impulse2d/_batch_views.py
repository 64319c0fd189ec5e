"""Compiled reads and writes of a :class:`~impulse2d.WorldBatch`'s dense views, over a range
of its worlds, so that the batch spreads them over its threads as it spreads its step.

An environment reads the template bodies' state and writes its joints' motors in every world
on every step. Each is a pass over all the worlds' stores, which for a thousand walkers (about
half a megabyte of state each) miss the caches world after world: in the native
BipedalWalker the two motor writes, the two gathers and their checks took 12 % of the time,
on one thread while the step ran on two (cProfile, 1,024 environments, 2026-11-28 afternoon,
load 8). Here the state is gathered
in one pass (:func:`gather_state`: what ``gather_bodies`` and ``gather_touching`` of
:mod:`._dynamics.batch_step` give, the same operations), a joint column written in one
(:func:`scatter_joints`), and the bodies' velocities, forces or impulses checked and written
(:func:`scatter_bodies`), all over ``[lo, hi)`` with Python's lock released. Kept outside
the engine's folders, whose every edit makes the whole kernel cache stale, so that they
compile on their own.

The body writes keep the public boundary's rule (bad input: a clear error, nothing changed):
a first pass checks every world and writes nothing, a second writes; both on the threads. In
the native LunarLander the engines' impulses (``WorldBatch.apply_impulses``, a check pass and a
write pass over every world on one thread while the step ran on two) were 14 % of the
environment's time (cProfile, 1,024 environments, 2026-11-28 afternoon).
"""

from __future__ import annotations

import numpy as np

from ._core.jit import DirectCall, gil_free_kernel
from ._core.state import DYNAMIC, STATIC
from ._dynamics.batch_step import (ADD_FORCE, ISLAND_WOKE, KINEMATIC_SET, SET_VELOCITY,
                                   _wake_body, add_impulse, gather_world)
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
        gather_world(refs[i], i, rows, positions, angles, velocities, awake, touching)


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


@gil_free_kernel
def scatter_bodies(refs, lo, hi, rows, values, mode, max_force, max_velocity, check, flags):
    """Worlds ``lo`` to ``hi``: write ``values`` (worlds, bodies, 3) into the template bodies:
    set the velocities (``mode`` SET_VELOCITY of :mod:`._dynamics.batch_step`: every body,
    woken; a kinematic one flagged for Python, which wakes what it touches), add forces and
    torques (ADD_FORCE) or impulses (ADD_IMPULSE), these to dynamic bodies with a nonzero row
    only (woken).

    With ``check`` nothing is written: ``flags[i]`` gets 1 + the first bad body of world ``i``
    (a static body given a velocity; an accumulated force beyond ``max_force``; an impulse
    whose velocity overflows), 0 when there is none. Without, ``flags[i]`` gets the
    ISLAND_WOKE and KINEMATIC_SET bits for Python (0 when neither)."""
    for i in range(lo, hi):
        b = borrow(refs[i], "bodies")
        flags[i] = 0
        for j in range(rows.shape[0]):
            r = rows[j]
            vx, vy, w = values[i, j, 0], values[i, j, 1], values[i, j, 2]
            kind = b.type[r]
            if mode == SET_VELOCITY:
                if check:
                    if kind == STATIC and (vx != 0.0 or vy != 0.0 or w != 0.0):
                        flags[i] = j + 1
                        break
                    continue
                if kind == DYNAMIC:
                    if _wake_body(b, r):
                        flags[i] |= ISLAND_WOKE
                else:
                    flags[i] |= KINEMATIC_SET
                b.v[r, 0] = vx
                b.v[r, 1] = vy
                b.w[r] = w
                continue
            if kind != DYNAMIC or (vx == 0.0 and vy == 0.0 and w == 0.0):
                continue
            if mode == ADD_FORCE:
                fx = b.force[r, 0] + vx
                fy = b.force[r, 1] + vy
                t = b.torque[r] + w
                if check:
                    if abs(fx) > max_force or abs(fy) > max_force or abs(t) > max_force:
                        flags[i] = j + 1
                        break
                    continue
                if _wake_body(b, r):
                    flags[i] |= ISLAND_WOKE
                b.force[r, 0] = fx
                b.force[r, 1] = fy
                b.torque[r] = t
                continue
            # ADD_IMPULSE, as Body.apply_linear_impulse at the centre of mass and
            # apply_angular_impulse: no rotational response where the inertia is infinite
            if check:
                inv_m = b.inv_mass[r]
                inv_i = b.inv_inertia[r]
                nvx = b.v[r, 0] + inv_m * vx
                nvy = b.v[r, 1] + inv_m * vy
                nw = b.w[r] + inv_i * w if inv_i != 0.0 else b.w[r]
                if not (np.isfinite(nvx) and np.isfinite(nvy) and np.isfinite(nw)):
                    flags[i] = j + 1
                    break
                continue
            if _wake_body(b, r):
                flags[i] |= ISLAND_WOKE
            add_impulse(b, r, vx, vy, w, max_velocity)  # (the batch step's writes' too)


_gather_state = DirectCall(gather_state, "the batch's views", 2.0)
_scatter_joints = DirectCall(scatter_joints, "the batch's joint writes", 1.0)
_scatter_bodies = DirectCall(scatter_bodies, "the batch's writes", 2.0)
