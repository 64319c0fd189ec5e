"""The contact rows' passes (``contact_solver.warm_start_contacts``, ``solve_contacts``) against
the sequential-impulse sweep written out point by point in plain Python: every velocity and
every column they write, bit for bit, for the soft step's biased and relax passes and ``pgs``'s
Baumgarte pass, with and without the step totals; on a range of the rows, those rows alone.

The passes write a row's one or two points out (no loop over them) and add the step totals as
each normal row is solved; the reference keeps the textbook order (Catto, GDC 2006; the module
doc of :mod:`impulse2d._dynamics.contact_solver`): the friction rows of every point, then the
normal rows, then the totals. The rows come from stepped scenes (boxes: two-point manifolds on a
static ground; circles: one point; both under the 32 dynamic bodies from which a world solves
in lanes) with their impulses, velocities and in-step motion scrambled,
so that every branch runs: speculative gaps, clamps at zero, at the friction cone and at the
speed budget.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics.contact_solver import (CONSTRAINT_LAYOUT, prepare_contacts,
                                                solve_contacts, warm_start_contacts)
from impulse2d._dynamics.world_ref import sync_constraints
from impulse2d.scenes import build_scene

COLUMNS = ("normal_impulse", "tangent_impulse", "max_normal_impulse", "total_normal_impulse",
           "total_tangent_impulse", "bias", "unclamped")
"""What a pass writes in the rows besides the bodies' velocities."""


@numba.njit(cache=False)
def _warm(cs, bodies, first, last):
    warm_start_contacts(cs, bodies, first, last)  # (a kernel without a Python wrapper)


@numba.njit(cache=False)
def _solve(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, slop, contact_speed,
           last_sweep, speed_cap):
    solve_contacts(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, slop,
                   contact_speed, last_sweep, speed_cap)


def reference_warm(cs, v, w):
    for q in range(cs.count.shape[0]):
        a, b = cs.body_a[q], cs.body_b[q]
        m_a, i_a, m_b, i_b = cs.inv_mass[q]
        nx, ny = cs.normal[q]
        for j in range(cs.count[q]):
            ln, lt = cs.normal_impulse[q, j], cs.tangent_impulse[q, j]
            px = ln * nx + lt * ny
            py = ln * ny - lt * nx
            (rax, ray), (rbx, rby) = cs.r_a[q, j], cs.r_b[q, j]
            v[a, 0] -= m_a * px
            v[a, 1] -= m_a * py
            w[a] -= i_a * (rax * py - ray * px)
            v[b, 0] += m_b * px
            v[b, 1] += m_b * py
            w[b] += i_b * (rbx * py - rby * px)


def reference_sweep(cs, v, w, dp, dq, inv_h, use_bias, soft, baumgarte, slop, contact_speed,
                    last_sweep, speed_cap):
    """One Gauss-Seidel sweep: per row, the friction rows of its points, then their normal
    rows, then (``last_sweep``) the totals."""
    for q in range(cs.count.shape[0]):
        count = cs.count[q]
        a, b = cs.body_a[q], cs.body_b[q]
        m_a, i_a, m_b, i_b = cs.inv_mass[q]
        vax, vay, wa = v[a, 0], v[a, 1], w[a]
        vbx, vby, wb = v[b, 0], v[b, 1], w[b]
        nx, ny = cs.normal[q]
        tx, ty = ny, -nx
        for j in range(count):
            (rax, ray), (rbx, rby) = cs.r_a[q, j], cs.r_b[q, j]
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            impulse = -cs.tangent_mass[q, j] * (dvx * tx + dvy * ty)
            limit = cs.friction[q] * cs.normal_impulse[q, j]
            old = cs.tangent_impulse[q, j]
            total = min(max(old + impulse, -limit), limit)
            cs.unclamped[q, j, 1] = old + impulse
            cs.tangent_impulse[q, j] = total
            px, py = (total - old) * tx, (total - old) * ty
            vax, vay, wa = vax - m_a * px, vay - m_a * py, wa - i_a * (rax * py - ray * px)
            vbx, vby, wb = vbx + m_b * px, vby + m_b * py, wb + i_b * (rbx * py - rby * px)
        ca, sa = dq[a]
        cb, sb = dq[b]
        ddx, ddy = dp[b, 0] - dp[a, 0], dp[b, 1] - dp[a, 1]
        for j in range(count):
            (rax, ray), (rbx, rby) = cs.r_a[q, j], cs.r_b[q, j]
            gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
            gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
            s = cs.base_separation[q, j] + gx * nx + gy * ny
            mass_scale, impulse_scale = 1.0, 0.0
            if s > 0.0:
                bias = s * inv_h
            elif not use_bias:
                bias = 0.0
            elif soft:
                bias = max(cs.softness[q, 0] * s, -contact_speed)
                mass_scale, impulse_scale = cs.softness[q, 1], cs.softness[q, 2]
            else:
                bias = max(baumgarte * inv_h * min(0.0, s + slop), -contact_speed)
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = cs.normal_impulse[q, j]
            mass = cs.normal_mass[q, j]
            impulse = -mass * mass_scale * (vn + bias) - impulse_scale * old
            total = min(max(old + impulse, 0.0), mass * speed_cap)
            cs.unclamped[q, j, 0] = old + impulse
            if use_bias or not soft:
                cs.bias[q, j] = bias
            cs.normal_impulse[q, j] = total
            if total > cs.max_normal_impulse[q, j]:
                cs.max_normal_impulse[q, j] = total
            px, py = (total - old) * nx, (total - old) * ny
            vax, vay, wa = vax - m_a * px, vay - m_a * py, wa - i_a * (rax * py - ray * px)
            vbx, vby, wb = vbx + m_b * px, vby + m_b * py, wb + i_b * (rbx * py - rby * px)
        if last_sweep:
            for j in range(count):
                cs.total_normal_impulse[q, j] += cs.normal_impulse[q, j]
                cs.total_tangent_impulse[q, j] += cs.tangent_impulse[q, j]
        v[a, 0], v[a, 1], w[a] = vax, vay, wa
        v[b, 0], v[b, 1], w[b] = vbx, vby, wb


def _copy(store):
    return type(store)(*(np.array(column, copy=True) for column in store))


def _rows(cs, first, last):
    """The rows ``first:last`` of ``cs`` as a store of their own (views)."""
    return type(cs)(*(column[first:last] for column in cs))


def _scrambled(scene, steps, seed, **params):
    """The rows and bodies of ``scene`` after ``steps`` steps, the rows' impulses, the bodies'
    velocities and in-step motion scrambled (the rows' geometry is the scene's)."""
    world = i2d.World(enable_sleep=False)  # (asleep, a settled scene solves no row)
    build_scene(world, scene, **params)
    for _ in range(steps):
        world.step(1.0 / 60.0)
    sync_constraints(world)
    cs, bodies = _copy(world._constraints), _copy(world._bodies)
    rng = np.random.default_rng(seed)
    n = cs.count.shape[0]
    assert n > 0
    cs.normal_impulse[:] = np.abs(rng.normal(0.0, 0.05, (n, 2)))
    cs.tangent_impulse[:] = rng.normal(0.0, 0.02, (n, 2))
    cs.max_normal_impulse[:] = np.abs(rng.normal(0.0, 0.05, (n, 2)))
    cs.total_normal_impulse[:] = rng.normal(0.0, 0.1, (n, 2))
    cs.total_tangent_impulse[:] = rng.normal(0.0, 0.1, (n, 2))
    cs.base_separation[:] += rng.normal(0.0, 0.01, (n, 2))  # open and closed gaps alike
    dynamic = bodies.type == DYNAMIC
    k = int(dynamic.sum())
    bodies.v[dynamic] += rng.normal(0.0, 0.5, (k, 2))
    bodies.w[dynamic] += rng.normal(0.0, 1.0, k)
    bodies.dp[dynamic] += rng.normal(0.0, 0.003, (k, 2))
    turn = rng.normal(0.0, 0.01, k)
    bodies.dq[dynamic] = np.stack([np.cos(turn), np.sin(turn)], axis=1)
    return cs, bodies


PASSES = {
    "soft": (240.0, True, True, 0.0, 0.0, 3.0, False, 1600.0),
    "relax": (240.0, False, True, 0.0, 0.0, 3.0, True, 1600.0),
    "pgs": (60.0, True, False, 0.2, 0.005, 3.0, True, 1600.0),
    "capped": (240.0, True, True, 0.0, 0.0, 3.0, True, 0.5),  # the speed budget clamps
}


@pytest.mark.parametrize("scene, steps, params", [
    ("pyramid", 30, {"base": 6}),     # boxes: two-point manifolds, a static ground
    ("rain", 90, {"count": 24}),      # circles: one-point manifolds
])
@pytest.mark.parametrize("name", PASSES)
def test_the_row_passes_give_the_written_out_sweep_bit_for_bit(scene, steps, params, name):
    cs, bodies = _scrambled(scene, steps, 11, **params)
    assert set(np.unique(cs.count)) <= {1, 2}
    args = PASSES[name]
    mine, ref = (_copy(cs), _copy(bodies)), (_copy(cs), _copy(bodies))
    n = cs.count.shape[0]
    _warm(*mine, 0, n)
    reference_warm(ref[0], ref[1].v, ref[1].w)
    for (rows, b) in (mine, ref):
        assert np.abs(b.v - bodies.v).max() > 1e-4  # the warm start moved the bodies
    assert np.array_equal(mine[1].v, ref[1].v) and np.array_equal(mine[1].w, ref[1].w)
    for _ in range(3):  # a few sweeps: the clamps of the second see the first's impulses
        _solve(*mine, 0, n, *args)
        reference_sweep(ref[0], ref[1].v, ref[1].w, ref[1].dp, ref[1].dq, *args)
    for name_ in ("v", "w"):
        assert np.array_equal(getattr(mine[1], name_), getattr(ref[1], name_)), name_
    for column in COLUMNS:
        assert np.array_equal(getattr(mine[0], column), getattr(ref[0], column)), column
    # the sweeps did work: impulses changed, the last sweep clamped some normal rows (at zero,
    # or at the speed budget) and some friction rows (at the cone)
    rows = mine[0]
    touching = np.arange(2)[None, :] < cs.count[:, None]
    assert not np.array_equal(rows.normal_impulse, cs.normal_impulse)
    assert (touching & (rows.unclamped[:, :, 0] != rows.normal_impulse)).any()
    assert (touching & (rows.unclamped[:, :, 1] != rows.tangent_impulse)).any()


@pytest.mark.parametrize("name", ("soft", "pgs"))
def test_the_row_passes_on_a_range_solve_those_rows_alone(name):
    """The rows ``first:last`` (a threaded or a restricted caller's): the written-out sweep of
    those rows alone, the other rows' columns as they were."""
    cs, bodies = _scrambled("pyramid", 30, 12, base=6)
    n = cs.count.shape[0]
    first, last = n // 3, 2 * n // 3
    assert 0 < first < last < n
    args = PASSES[name]
    mine, ref = (_copy(cs), _copy(bodies)), (_copy(cs), _copy(bodies))
    _warm(*mine, first, last)
    reference_warm(_rows(ref[0], first, last), ref[1].v, ref[1].w)
    for _ in range(2):
        _solve(*mine, first, last, *args)
        reference_sweep(_rows(ref[0], first, last), ref[1].v, ref[1].w, ref[1].dp, ref[1].dq,
                        *args)
    for name_ in ("v", "w"):
        assert np.array_equal(getattr(mine[1], name_), getattr(ref[1], name_)), name_
        assert not np.array_equal(getattr(mine[1], name_), getattr(bodies, name_)), name_
    for column in COLUMNS:
        assert np.array_equal(getattr(mine[0], column), getattr(ref[0], column)), column
        outside = np.r_[0:first, last:n]
        assert np.array_equal(getattr(mine[0], column)[outside],
                              getattr(cs, column)[outside]), column


@numba.njit(cache=False)
def _prepare(cs, order, contacts, bodies, first):
    prepare_contacts(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, False,
                     first)


def test_the_rows_prepare_from_a_row_writes_those_rows_as_the_whole_prepare_does():
    """The rows' prepare of a piece of the order from row ``first`` (a thread's, or
    :func:`impulse2d._dynamics.contact_lanes.prepare_lanes`' from ``first``): the rows the
    whole order's prepare writes there, bit for bit, and no other row."""
    world = i2d.World(enable_sleep=False)
    build_scene(world, "pyramid", base=6)
    for _ in range(30):
        world.step(1.0 / 60.0)
    sync_constraints(world)
    contacts, bodies = world._contacts, world._bodies
    older = _copy(world._constraints)  # columns an older step left: scrambled
    rng = np.random.default_rng(5)
    for name in ("inv_mass", "normal", "friction", "softness", "r_a", "r_b", "base_separation",
                 "normal_mass", "tangent_mass", "relative_velocity", "normal_impulse",
                 "tangent_impulse", "max_normal_impulse", "total_normal_impulse"):
        column = getattr(older, name)
        column[:] = rng.normal(0.0, 1.0, column.shape)
    order = world._constraints.contact.copy()
    n = order.shape[0]
    first = n // 3
    whole, part = _copy(older), _copy(older)
    _prepare(whole, order, contacts, bodies, 0)
    _prepare(part, order[first:], contacts, bodies, first)
    assert not np.array_equal(whole.normal_mass[first:], older.normal_mass[first:])
    for name in CONSTRAINT_LAYOUT:
        assert np.array_equal(getattr(part, name)[first:], getattr(whole, name)[first:]), name
        assert np.array_equal(getattr(part, name)[:first], getattr(older, name)[:first]), name
