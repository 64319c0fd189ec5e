"""The body integrations (``integrate.integrate_clamp_velocities``, ``integrate_positions``,
``finalize_bodies``) against their arithmetic written out in plain Python with 2-D indexing:
every column they write, bit for bit.

The kernels read the two- and three-wide columns flat (body ``i``'s pair at ``2 i``,
:func:`impulse2d._dynamics.lane_layout.flat`) with unsigned rows; the reference indexes the
columns as the engine did before (``v[i, 0]``). The bodies come from a stepped scene with their
velocities, forces, damping and in-step motion scrambled, so that every branch runs: damped and
undamped bodies, speeds and spins over the limits, turned and unturned bodies, fast bodies for
continuous collision. The kernels borrow the bodies from the world's reference: one made over
each copy (:func:`_over`).
"""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics.integrate import (finalize_bodies, integrate_clamp_velocities,
                                           integrate_positions)
from impulse2d._dynamics.world_ref import stores_for_step
from impulse2d.constants import FAST_FRACTION
from impulse2d.scenes import build_scene


@numba.njit(cache=False)
def _velocities(world, rows, gx, gy, h, speed, spin):
    integrate_clamp_velocities(world, rows, gx, gy, h, speed, spin)  # (no Python wrapper)


@numba.njit(cache=False)
def _positions(world, rows, h, speed, spin):
    integrate_positions(world, rows, h, speed, spin)


@numba.njit(cache=False)
def _finalize(world, rows, speed, spin, continuous):
    return finalize_bodies(world, rows, speed, spin, continuous)


def clamp(b, i, speed, spin):
    vx, vy = b.v[i]
    if vx * vx + vy * vy > speed * speed:
        k = speed / math.hypot(vx, vy)
        vx *= k
        vy *= k
        b.v[i, 0], b.v[i, 1] = vx, vy
    wi = b.w[i]
    if wi > spin:
        wi = b.w[i] = spin
    elif wi < -spin:
        wi = b.w[i] = -spin
    return vx, vy, wi


def reference_velocities(b, rows, gx, gy, h, speed, spin):
    for i in rows:
        if b.type[i] == DYNAMIC:
            inv_m, scale = b.inv_mass[i], b.gravity_scale[i]
            vx = b.v[i, 0] + h * (inv_m * b.force[i, 0] + scale * gx)
            vy = b.v[i, 1] + h * (inv_m * b.force[i, 1] + scale * gy)
            wi = b.w[i] + h * b.inv_inertia[i] * b.torque[i]
            if b.linear_damping[i] != 0.0:
                lin = 1.0 / (1.0 + h * b.linear_damping[i])
                vx *= lin
                vy *= lin
            b.v[i, 0], b.v[i, 1] = vx, vy
            if b.angular_damping[i] != 0.0:
                wi /= 1.0 + h * b.angular_damping[i]
            b.w[i] = wi
        clamp(b, i, speed, spin)


def reference_positions(b, rows, h, speed, spin):
    for i in rows:
        vx, vy, wi = clamp(b, i, speed, spin)
        b.dp[i, 0] += h * vx
        b.dp[i, 1] += h * vy
        c, s = b.dq[i]
        c2 = c - h * wi * s
        s2 = s + h * wi * c
        inv_len = 1.0 / math.sqrt(c2 * c2 + s2 * s2)
        b.dq[i, 0], b.dq[i, 1] = c2 * inv_len, s2 * inv_len


def reference_finalize(b, rows, speed, spin, continuous):
    fast = 0
    for i in rows:
        b.force[i] = 0.0
        b.torque[i] = 0.0
        clamp(b, i, speed, spin)
        cx, cy = b.center[i, 0] + b.dp[i, 0], b.center[i, 1] + b.dp[i, 1]
        dc, ds = b.dq[i]
        if dc > 0.0:
            turn = ds if ds == 0.0 else math.atan(ds / dc)
        else:
            turn = math.atan2(ds, dc)
        angle = b.angle[i] + turn
        c = b.rot[i, 0] * dc - b.rot[i, 1] * ds
        s = b.rot[i, 1] * dc + b.rot[i, 0] * ds
        inv_len = 1.0 / math.sqrt(c * c + s * s)
        c *= inv_len
        s *= inv_len
        lx, ly = b.local_center[i]
        slack = FAST_FRACTION * b.min_extent[i] - abs(turn) * b.extent[i]
        if continuous and b.type[i] == DYNAMIC and (
                slack < 0.0 or b.dp[i, 0] * b.dp[i, 0] + b.dp[i, 1] * b.dp[i, 1] > slack * slack):
            b.fast[i] = True
            b.sweep[i] = b.center[i, 0], b.center[i, 1], b.angle[i]
            fast += 1
        b.center[i] = cx, cy
        b.angle[i] = angle
        b.rot[i] = c, s
        b.origin[i] = cx - (c * lx - s * ly), cy - (s * lx + c * ly)
        reach = turn * b.extent[i]
        b.step_motion[i] = max(b.dp[i, 0] * b.dp[i, 0] + b.dp[i, 1] * b.dp[i, 1], reach * reach)
        b.dp[i] = 0.0
        b.dq[i] = 1.0, 0.0
    return fast


def _copy(store):
    return type(store)(*(np.array(column, copy=True) for column in store))


def _over(world, bodies):
    """``world``'s reference over the body store ``bodies`` (the world's from now on)."""
    world._bodies = bodies
    return stores_for_step(world)


def _scrambled(seed):
    """A pile of boxes and circles after 30 steps and a copy of its bodies (the ground static,
    so not in the rows), their state scrambled: a third damped, forces and torques applied, a
    few over the speed limits, a few turned by ``dq`` far enough to be fast."""
    world = i2d.World(enable_sleep=False)
    build_scene(world, "rain", count=24)
    for _ in range(30):
        world.step(1.0 / 60.0)
    bodies = _copy(world._bodies)
    rng = np.random.default_rng(seed)
    rows = np.flatnonzero((bodies.type == DYNAMIC) & bodies.alive).astype(np.int64)
    k = rows.shape[0]
    assert k >= 20
    bodies.v[rows] = rng.normal(0.0, 3.0, (k, 2))
    bodies.v[rows[:3]] *= 400.0  # over max_linear_speed
    bodies.w[rows] = rng.normal(0.0, 5.0, k)
    bodies.w[rows[3:6]] *= 100.0  # over the spin limit
    bodies.force[rows] = rng.normal(0.0, 20.0, (k, 2))
    bodies.torque[rows] = rng.normal(0.0, 5.0, k)
    damped = rows[::3]
    bodies.linear_damping[damped] = rng.uniform(0.1, 2.0, damped.shape[0])
    bodies.angular_damping[damped] = rng.uniform(0.1, 2.0, damped.shape[0])
    bodies.dp[rows] = rng.normal(0.0, 0.05, (k, 2))
    bodies.dp[rows[9:12]] = 1.0  # fast (continuous collision's test)
    turn = rng.normal(0.0, 0.3, k)
    turn[6:9] = 0.0  # (ds = 0: no atan)
    bodies.dq[rows] = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    bodies.fast[:] = False
    return world, bodies, rows


def _assert_same(kernel, reference):
    for name, a, b in zip(kernel._fields, kernel, reference):
        assert np.array_equal(a.view(np.uint8), b.view(np.uint8)), name


@pytest.mark.parametrize("seed", [0, 1])
def test_the_integrations_give_the_written_out_arithmetic_bit_for_bit(seed):
    world, bodies, rows = _scrambled(seed)
    h, speed, spin = 1.0 / 240.0, 400.0, 0.25 * math.pi * 60.0
    kernel, reference = _copy(bodies), _copy(bodies)
    ref = _over(world, kernel)
    _velocities(ref, rows, 0.5, -10.0, h, speed, spin)
    reference_velocities(reference, rows, 0.5, -10.0, h, speed, spin)
    _assert_same(kernel, reference)
    # the clamps held: every body within the limits
    assert np.all(np.hypot(kernel.v[rows, 0], kernel.v[rows, 1]) <= speed * (1 + 1e-15))
    assert np.all(np.abs(kernel.w[rows]) <= spin)
    _positions(ref, rows, h, 2.0 * speed, 2.0 * spin)
    reference_positions(reference, rows, h, 2.0 * speed, 2.0 * spin)
    _assert_same(kernel, reference)
    for continuous in (False, True):
        k, r = _copy(kernel), _copy(reference)
        fast = _finalize(_over(world, k), rows, speed, spin, continuous)
        assert fast == reference_finalize(r, rows, speed, spin, continuous)
        _assert_same(k, r)
        assert (fast > 0) == continuous
        np.testing.assert_allclose(np.hypot(k.rot[rows, 0], k.rot[rows, 1]), 1.0, rtol=1e-15)
        assert np.all(k.dp[rows] == 0.0) and np.all(k.force[rows] == 0.0)
