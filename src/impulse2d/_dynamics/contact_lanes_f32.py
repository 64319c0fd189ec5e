"""The contact passes in single precision (``WorldSettings.solver_precision="float32"``).

Box2D v3 solves its contact rows in float32, 8 rows to an AVX2 register; :mod:`.contact_lanes`
solves them in float64, 4 to a register. This module is :mod:`.contact_lanes`' warm start and
solve, the same operations in the same order per row, with every value the arithmetic touches a
float32: twice the rows an instruction and half the bytes a row. Measured on the EPYC machine
(``benchmarks/lanes_f32.py``, BENCHMARKS.md, session 13, ``lanes38``): a soft step's 12 passes
at 0.43-0.64 of the float64 passes' CPU at the pyramids' sizes (4.9 MB of float64 lanes), 0.66-0.70
on ``rain_2000``, 0.67-0.81 in L1; the pyramids stand, their bodies as far from the float64 run's
as a float64 run's with gravity one float32 ulp larger.

**Where the float32 lanes live.** The prepare (:func:`.contact_solver.prepare_contacts`) and
everything that reads the lanes after the solve (restitution, the impulses' copy back, the
diagnostics, :func:`.contact_lanes.sync_constraint_rows`) stay float64 and unchanged: the float32
lanes are a second region of the same buffer, after the float64 lanes of a store of ``n`` rows
(:func:`float32_offset`; :func:`.contact_lanes.lane_rows_for` gives such a world half as many
rows again), in the same layout, indexed as the float64 lanes plus that offset. The solvers call
two verbs of the world's contact passes around the solve: :data:`.contact_lanes.LANE_LOAD` after
the prepare rounds the prepared rows into the float32 lanes (:func:`load_rows`), and
:data:`.contact_lanes.LANE_STORE` before restitution widens what the passes wrote (the points'
impulses, peaks, totals, biases and unclamped impulses) back into the float64 lanes
(:func:`store_rows`). Both go row range by row range, so that the threaded solver runs them in
its pieces; the float64 passes do nothing for them. With the diagnostics on, every pass stores
its rows after it (the diagnostics read the float64 lanes between passes).

**Bodies stay float64**: the gather rounds the velocities and in-step displacements, the scatter
widens them back; integration, restitution and the rest of the step are float64. A float32
world's results are bit-identical for any thread count (the same colour runs, the same code per
row) but not those of a float64 world. The float64 passes' code is not touched by this module:
it is compiled only when a world asks for float32 (:data:`.step.LANES_F32_KERNEL`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .._core.jit import borrowing_kernel, entry_kernel, inline_kernel
from .._core.lazy import JIT
from .contact_lanes import LANE_LOAD, LANE_MODE, LANE_STORE, LANE_WARM_START, _piece
from .lane_layout import (BASE, BIAS, FIELDS, FRICTION, GAP, GAP_STEP, I_A, I_B,
                          IMPULSE_SCALE, M_A, M_B, MASS_SCALE, MAXN, NIMP, NMASS, NX, NY,
                          POINT_STEP, RATE, RAX, RAY, RBX, RBY, SCRATCH_DOUBLES, TIMP, TMASS,
                          TOTN, TOTT, TWO, U_CHUNK, UNN, UNT, VAX, VAY, VBX, VBY, WA, WB,
                          flat_lanes)
from .verbs import DIAGNOSTICS
from .world_ref import borrow

F = np.float32
ZERO = F(0.0)
ONE = F(1.0)

WRITTEN = NIMP
"""The first of the point fields the passes write (:func:`store_rows`): the accumulated, peak
and total impulses, the bias and the unclamped impulses, :data:`WRITTEN_FIELDS` consecutive
fields from here (:mod:`.lane_layout`)."""
WRITTEN_FIELDS = 8


@intrinsic
def _scratch_chunk32(typingctx):
    """:func:`.lane_layout.scratch_chunk` of float32: :data:`.lane_layout.SCRATCH_DOUBLES`
    floats on the calling kernel's stack, aligned to a cache line."""
    array_type = types.Array(types.float32, 1, "C")

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import populate_array  # (as scratch_chunk)

        block = cgutils.alloca_once(builder, ir.ArrayType(ir.FloatType(), SCRATCH_DOUBLES))
        block.align = 64
        data = builder.bitcast(block, ir.PointerType(ir.FloatType()))
        array = context.make_array(array_type)(context, builder)
        intp = context.get_value_type(types.intp)
        itemsize = ir.Constant(intp, 4)
        populate_array(array, data=data, shape=[ir.Constant(intp, SCRATCH_DOUBLES)],
                       strides=[itemsize], itemsize=itemsize, meminfo=None)
        return array._getvalue()

    return array_type(), codegen


@intrinsic
def _select32(typingctx, keep, kept, other):
    """:func:`.contact_lanes._select` of two float32 values (one LLVM ``select``)."""
    def codegen(context, builder, signature, args):
        return builder.select(*args)

    return types.float32(types.boolean, types.float32, types.float32), codegen


if not JIT:
    def _scratch_chunk32():  # noqa: F811  (plain Python)
        return np.empty(SCRATCH_DOUBLES, F)

    def _select32(keep, kept, other):  # noqa: F811  (plain Python)
        return kept if keep else other


@inline_kernel
def float32_offset(cs):
    """Index of the float32 lanes' first float in the buffer viewed as float32: after the float64
    lanes of the store's rows (whole chunks), so half as many rows again hold them."""
    n = np.uint64(cs.count.shape[0])
    return (n + U_CHUNK - np.uint64(1)) // U_CHUNK * U_CHUNK * np.uint64(2 * FIELDS)


@inline_kernel
def _gather32(cs, lanes, scratch, bodies, base, start, i0, i1, gaps):
    """:func:`.contact_lanes._gather` in float32 (the bodies' float64 values rounded)."""
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    for i in range(i0, i1):
        q = start + i
        r = base + i
        a = np.uint64(cs.body_a[q])
        b = np.uint64(cs.body_b[q])
        scratch[i + VAX] = F(v[a, 0])
        scratch[i + VAY] = F(v[a, 1])
        scratch[i + WA] = F(w[a])
        scratch[i + VBX] = F(v[b, 0])
        scratch[i + VBY] = F(v[b, 1])
        scratch[i + WB] = F(w[b])
        if gaps:
            nx = lanes[r + NX]
            ny = lanes[r + NY]
            ca = F(dq[a, 0])
            sa = F(dq[a, 1])
            cb = F(dq[b, 0])
            sb = F(dq[b, 1])
            ddx = F(dp[b, 0]) - F(dp[a, 0])
            ddy = F(dp[b, 1]) - F(dp[a, 1])
            count = cs.count[q]
            for j in range(2):
                p = r + np.uint64(j) * POINT_STEP
                rax = lanes[p + RAX]
                ray = lanes[p + RAY]
                rbx = lanes[p + RBX]
                rby = lanes[p + RBY]
                gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
                gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
                gap = lanes[p + BASE] + gx * nx + gy * ny
                scratch[i + GAP + np.uint64(j) * GAP_STEP] = gap if j < count else ZERO


@inline_kernel
def _scatter32(cs, scratch, bodies, start, i0, i1):
    """:func:`.contact_lanes._scatter` from the float32 scratch chunk (widened)."""
    v = bodies.v
    w = bodies.w
    for i in range(i0, i1):
        q = start + i
        a = np.uint64(cs.body_a[q])
        b = np.uint64(cs.body_b[q])
        v[a, 0] = scratch[i + VAX]
        v[a, 1] = scratch[i + VAY]
        w[a] = scratch[i + WA]
        v[b, 0] = scratch[i + VBX]
        v[b, 1] = scratch[i + VBY]
        w[b] = scratch[i + WB]


@inline_kernel
def _warm_lanes32(lanes, scratch, base, i0, i1):
    """:func:`.contact_lanes._warm_lanes` in float32."""
    for i in range(i0, i1):
        r = base + i
        two = lanes[r + TWO] != ZERO
        m_a = lanes[r + M_A]
        i_a = lanes[r + I_A]
        m_b = lanes[r + M_B]
        i_b = lanes[r + I_B]
        nx = lanes[r + NX]
        ny = lanes[r + NY]
        vax = scratch[i + VAX]
        vay = scratch[i + VAY]
        wa = scratch[i + WA]
        vbx = scratch[i + VBX]
        vby = scratch[i + VBY]
        wb = scratch[i + WB]
        for j in range(2):
            keep = j == 0 or two
            p = r + np.uint64(j) * POINT_STEP
            ln = lanes[p + NIMP]
            lt = lanes[p + TIMP]
            px = ln * nx + lt * ny
            py = ln * ny - lt * nx
            rax = lanes[p + RAX]
            ray = lanes[p + RAY]
            rbx = lanes[p + RBX]
            rby = lanes[p + RBY]
            vax = _select32(keep, vax - m_a * px, vax)
            vay = _select32(keep, vay - m_a * py, vay)
            wa = _select32(keep, wa - i_a * (rax * py - ray * px), wa)
            vbx = _select32(keep, vbx + m_b * px, vbx)
            vby = _select32(keep, vby + m_b * py, vby)
            wb = _select32(keep, wb + i_b * (rbx * py - rby * px), wb)
        scratch[i + VAX] = vax
        scratch[i + VAY] = vay
        scratch[i + WA] = wa
        scratch[i + VBX] = vbx
        scratch[i + VBY] = vby
        scratch[i + WB] = wb


@inline_kernel
def _solve_lanes32(lanes, scratch, base, i0, i1, inv_h, use_bias, soft, baumgarte_rate,
                   linear_slop, contact_speed, last_sweep, speed_cap):
    """:func:`.contact_lanes._solve_lanes` in float32 (its comments say why each select and
    unconditional store)."""
    write_bias = use_bias or not soft
    for i in range(i0, i1):
        r = base + i
        two = lanes[r + TWO] != ZERO
        m_a = lanes[r + M_A]
        i_a = lanes[r + I_A]
        m_b = lanes[r + M_B]
        i_b = lanes[r + I_B]
        vax = scratch[i + VAX]
        vay = scratch[i + VAY]
        wa = scratch[i + WA]
        vbx = scratch[i + VBX]
        vby = scratch[i + VBY]
        wb = scratch[i + WB]
        nx = lanes[r + NX]
        ny = lanes[r + NY]
        tx = ny
        ty = -nx
        friction = lanes[r + FRICTION]
        for j in range(2):
            keep = j == 0 or two
            p = r + np.uint64(j) * POINT_STEP
            rax = lanes[p + RAX]
            ray = lanes[p + RAY]
            rbx = lanes[p + RBX]
            rby = lanes[p + RBY]
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vt = dvx * tx + dvy * ty
            impulse = -lanes[p + TMASS] * vt
            limit = friction * lanes[p + NIMP]
            old = lanes[p + TIMP]
            total = min(max(old + impulse, -limit), limit)
            lanes[p + UNT] = old + impulse
            lanes[p + TIMP] = total
            impulse = total - old
            px = impulse * tx
            py = impulse * ty
            vax = vax - m_a * px if keep else vax
            vay = vay - m_a * py if keep else vay
            wa = wa - i_a * (rax * py - ray * px) if keep else wa
            vbx = vbx + m_b * px if keep else vbx
            vby = vby + m_b * py if keep else vby
            wb = wb + i_b * (rbx * py - rby * px) if keep else wb
        soft_rate = lanes[r + RATE]
        soft_mass = lanes[r + MASS_SCALE]
        soft_impulse = lanes[r + IMPULSE_SCALE]
        for j in range(2):
            keep = j == 0 or two
            p = r + np.uint64(j) * POINT_STEP
            rax = lanes[p + RAX]
            ray = lanes[p + RAY]
            rbx = lanes[p + RBX]
            rby = lanes[p + RBY]
            s = scratch[i + GAP + np.uint64(j) * GAP_STEP]
            pushing = not s > ZERO
            soft_now = pushing and use_bias and soft
            hard = max(baumgarte_rate * min(ZERO, s + linear_slop), -contact_speed)
            bias = max(soft_rate * s, -contact_speed) if soft else hard
            bias = bias if use_bias else ZERO
            bias = bias if pushing else s * inv_h
            mass_scale = soft_mass if soft_now else ONE
            impulse_scale = soft_impulse if soft_now else ZERO
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = lanes[p + NIMP]
            normal_mass = lanes[p + NMASS]
            impulse = -normal_mass * mass_scale * (vn + bias) - impulse_scale * old
            total = min(max(old + impulse, ZERO), normal_mass * speed_cap)
            lanes[p + UNN] = old + impulse
            lanes[p + BIAS] = _select32(write_bias, bias, lanes[p + BIAS])
            lanes[p + NIMP] = total
            peak = lanes[p + MAXN] + ZERO
            lanes[p + MAXN] = total if total > peak else peak
            impulse = total - old
            px = impulse * nx
            py = impulse * ny
            vax = vax - m_a * px if keep else vax
            vay = vay - m_a * py if keep else vay
            wa = wa - i_a * (rax * py - ray * px) if keep else wa
            vbx = vbx + m_b * px if keep else vbx
            vby = vby + m_b * py if keep else vby
            wb = wb + i_b * (rbx * py - rby * px) if keep else wb
        scratch[i + VAX] = vax
        scratch[i + VAY] = vay
        scratch[i + WA] = wa
        scratch[i + VBX] = vbx
        scratch[i + VBY] = vby
        scratch[i + WB] = wb
    if last_sweep:
        for i in range(i0, i1):
            for j in range(2):
                p = base + i + np.uint64(j) * POINT_STEP
                lanes[p + TOTN] = lanes[p + TOTN] + lanes[p + NIMP]
                lanes[p + TOTT] = lanes[p + TOTT] + lanes[p + TIMP]


@borrowing_kernel
def warm_start_contacts32(cs, bodies, lanes, offset, first, last):
    """:func:`.contact_lanes.warm_start_contacts_wide` on the float32 lanes ``lanes[offset:]``."""
    hi = np.uint64(last)
    scratch = _scratch_chunk32()
    lo = np.uint64(first)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather32(cs, lanes, scratch, bodies, base + offset, start, i0, i1, False)
        _warm_lanes32(lanes, scratch, base + offset, i0, i1)
        _scatter32(cs, scratch, bodies, start, i0, i1)
        lo = end


@borrowing_kernel
def solve_contacts32(cs, bodies, lanes, offset, first, last, inv_h, use_bias, soft, baumgarte,
                     linear_slop, contact_speed, last_sweep, speed_cap):
    """:func:`.contact_lanes.solve_contacts_wide` on the float32 lanes ``lanes[offset:]`` (its
    float64 arguments rounded once)."""
    hi = np.uint64(last)
    scratch = _scratch_chunk32()
    baumgarte_rate = F(baumgarte * inv_h)
    lo = np.uint64(first)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather32(cs, lanes, scratch, bodies, base + offset, start, i0, i1, True)
        _solve_lanes32(lanes, scratch, base + offset, i0, i1, F(inv_h), use_bias, soft,
                       baumgarte_rate, F(linear_slop), F(contact_speed), last_sweep,
                       F(speed_cap))
        _scatter32(cs, scratch, bodies, start, i0, i1)
        lo = end


@inline_kernel
def _chunk_part(lo, hi):
    """``(end, base, i0, i1)``: the rows ``lo:end`` of ``lo:hi`` within ``lo``'s chunk, as rows
    ``i0:i1`` of the chunk whose first double is ``base``."""
    start = (lo // U_CHUNK) * U_CHUNK
    end = min(start + U_CHUNK, hi)
    return end, start * np.uint64(FIELDS), lo - start, end - start


@borrowing_kernel
def load_rows(lanes64, lanes32, offset, first, last):
    """Every field of the rows ``first:last`` rounded from the float64 lanes into the float32
    ones, chunk by chunk and field by field (consecutive rows: a vectorised conversion)."""
    hi = np.uint64(last)
    lo = np.uint64(first)
    while lo < hi:
        end, base, i0, i1 = _chunk_part(lo, hi)
        for k in range(FIELDS):
            f = base + np.uint64(k) * U_CHUNK
            for i in range(i0, i1):
                lanes32[offset + f + i] = F(lanes64[f + i])
        lo = end


@borrowing_kernel
def store_rows(lanes64, lanes32, offset, first, last):
    """What the passes write of the rows ``first:last`` (each point's :data:`WRITTEN_FIELDS`
    fields from :data:`WRITTEN`) widened from the float32 lanes into the float64 ones."""
    hi = np.uint64(last)
    lo = np.uint64(first)
    while lo < hi:
        end, base, i0, i1 = _chunk_part(lo, hi)
        for j in range(2):
            for k in range(WRITTEN_FIELDS):
                f = base + WRITTEN + np.uint64(j) * POINT_STEP + np.uint64(k) * U_CHUNK
                for i in range(i0, i1):
                    lanes64[f + i] = lanes32[offset + f + i]
        lo = end


@entry_kernel
def lanes_f32_entry(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                    contact_speed, last_sweep, speed_cap):
    """:func:`.contact_lanes.lanes_entry`'s verbs in float32, and :data:`.contact_lanes.
    LANE_LOAD` / :data:`.contact_lanes.LANE_STORE` (this module's docstring); its
    :data:`.contact_lanes.LANE_MODE` is 2.0 (lanes, and the float32 region after them)."""
    if verb == LANE_MODE:
        return 2.0
    cs = borrow(world, "constraints")
    lanes64 = flat_lanes(cs)
    lanes32 = lanes64.view(np.float32)
    offset = float32_offset(cs)
    if verb == LANE_LOAD:
        load_rows(lanes64, lanes32, offset, first, last)
        return 0.0
    if verb == LANE_STORE:
        store_rows(lanes64, lanes32, offset, first, last)
        return 0.0
    bodies = borrow(world, "bodies")
    if verb == LANE_WARM_START:
        warm_start_contacts32(cs, bodies, lanes32, offset, first, last)
    else:
        solve_contacts32(cs, bodies, lanes32, offset, first, last, inv_h, use_bias, soft,
                         baumgarte, linear_slop, contact_speed, last_sweep, speed_cap)
    if borrow(world, "verbs")[DIAGNOSTICS] != 0:
        store_rows(lanes64, lanes32, offset, first, last)  # (they read between the passes)
    return 0.0
