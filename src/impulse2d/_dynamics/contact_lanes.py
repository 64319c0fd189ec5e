"""The wide contact solver: the constraints of one graph colour solved together, in SIMD lanes.

:func:`.contact_solver.solve_contacts` visits one constraint at a time and reads and writes its
two bodies' velocities by index. The compiler cannot vectorise that loop: as far as it can
tell, the next constraint may read the body the last one wrote. Within one colour of
:mod:`.constraint_graph` no two constraints share a dynamic body, so the constraints of a colour
are independent, and Box2D v3 solves them 4 or 8 at a time (its "wide" constraints, gathered
from and scattered to a compact body-state array). Here each colour is solved in three loops:

* **gather** (by body index): the two bodies' velocities into the rows' lanes, and the points'
  current gaps (which depend only on the bodies' in-step displacements, which no velocity pass
  changes);
* **solve** (no index): the rows' arithmetic on the lanes alone, which LLVM turns into AVX2
  code, four rows to a ``ymm`` register (checked with ``inspect_asm``:
  ``tests/test_contact_lanes.py``); branches are written as selects, and a constraint's second
  point is computed for every row and kept only where it exists;
* **scatter**: the velocity lanes back to the bodies.

The lanes (``cs.lanes``) are one flat buffer of :data:`FIELDS` doubles a row, cut into chunks of
:data:`CHUNK` rows, each chunk field by field: consecutive rows of one field are consecutive
doubles, and two fields of a row lie a multiple of the literal ``CHUNK`` apart, a distance the
compiler proves safe without a run-time overlap test (with a run-time stride, the row store's
``(c, 2)`` fields, it would need one per pair of fields: too many, it gives up). The buffer is
padded to whole chunks (:func:`lane_rows`), so that every chunk has that stride and each loop
exists in one variant only. Compile time is this module's price: the first version (branch
``wide31``) had three variants of the solve loop (one and two points, the last chunk's run-time
stride) and its index helpers inlined at every access, and took a cold start of ``pyramid_20``
from 26.5 to 55.2 s; a one-point variant alone (circles: half the lanes' arithmetic) adds 4 s
of compile CPU, measured in isolation (7.4-8.0 -> 11.5-11.8 s), so one-point rows compute a
second point and drop it. Field offsets are module constants, so that an index is one
addition (the inlined helpers cost 3.8 s of compile CPU). The solve loop reads nothing but the
lanes (a row's point count is a lane too), so it needs no overlap test against another array
either. Indices are unsigned so that the compiler needs no negative-index test, another thing
that stops it.

:func:`.contact_solver.prepare_contacts` writes each row's lanes as it prepares the row
(:func:`pack_row`); :func:`unpack_lanes` copies the impulses back to the rows for whatever
reads them next (restitution, the diagnostics, the warm start of the next step).

Per constraint the operations and their order are those of ``solve_contacts`` (friction rows,
then normal rows, point by point), and the engine compiles without FMA contraction
(:mod:`.._core.jit`), so the results are bit-identical: only the order *between* independent
constraints changes. Static and kinematic bodies are shared within a colour but never changed
by a contact (zero inverse mass), so reading them before the colour's writes changes nothing.
The overflow colour's constraints may share bodies: each is its own run of one, solved in turn.

``cs.lane_end[q]`` (:func:`.constraint_graph.mark_colour_runs`) is the end of the colour run
that holds row ``q``; the step marks it after colouring. The ``soft_step`` and ``pgs`` solvers
use this module; ``pgs_ngs``, ``pgs_block`` and ``direct`` keep the row store's verbs.
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel

# Field offsets in a chunk (a field's rows are CHUNK doubles): per row, the inverse masses,
# normal, friction, soft coefficients, the bodies' velocities, and whether the row has a second
# point (1.0) or not (0.0); per point (point 1's fields POINT_STEP after point 0's), the
# anchors (m), base separation and current gap (m), effective masses (kg), the accumulated,
# peak and step-total impulses (N s), the bias (m/s), the unclamped impulses (N s). Unsigned,
# as every lane index (see above), and offsets rather than field numbers, so that an index is
# one addition.
CHUNK = 64
"""Rows a chunk of the lanes holds (see the module's docstring). 64: the rows of a small
colour rarely cross a chunk boundary, and a chunk (25 KB) stays within the L1 cache."""


def _offsets(first, count):
    return tuple(np.uint64((first + k) * CHUNK) for k in range(count))


ROW_FIELDS = 17
POINT_FIELDS = 16
FIELDS = ROW_FIELDS + 2 * POINT_FIELDS
"""Doubles a row holds in the lanes."""
(M_A, I_A, M_B, I_B, NX, NY, FRICTION, RATE, MASS_SCALE, IMPULSE_SCALE, VAX, VAY, WA, VBX, VBY,
 WB, TWO) = _offsets(0, ROW_FIELDS)
(RAX, RAY, RBX, RBY, BASE, GAP, NMASS, TMASS, NIMP, TIMP, MAXN, TOTN, TOTT, BIAS, UNN,
 UNT) = _offsets(ROW_FIELDS, POINT_FIELDS)
POINT_STEP = np.uint64(POINT_FIELDS * CHUNK)
_CHUNK = np.uint64(CHUNK)


def lane_rows(count):
    """Rows the lanes of ``count`` constraint rows take: whole chunks."""
    return (count + CHUNK - 1) // CHUNK * CHUNK


@inline_kernel
def _row(q):
    """``(r, start)``: the index of row ``q``'s first field in the lanes (the field at offset
    ``F`` is ``lanes[r + F]``) and the first row of its chunk."""
    start = (q // _CHUNK) * _CHUNK
    return start * np.uint64(FIELDS) + (q - start), start


@inline_kernel
def flat_lanes(cs):
    """The lanes as the one flat buffer every verb here indexes."""
    return cs.lanes.reshape(cs.lanes.size)


@inline_kernel
def pack_row(cs, lanes, q, lane_q):
    """Copy row ``q`` of the prepared rows (:func:`.contact_solver.prepare_contacts`, which
    calls this as it finishes the row, its values still in the cache) into row ``lane_q`` of
    the lanes (:func:`flat_lanes`; ``lane_q`` differs where ``cs`` is a slice of the rows)."""
    r, _ = _row(np.uint64(lane_q))
    lanes[r + M_A] = cs.inv_mass[q, 0]
    lanes[r + I_A] = cs.inv_mass[q, 1]
    lanes[r + M_B] = cs.inv_mass[q, 2]
    lanes[r + I_B] = cs.inv_mass[q, 3]
    lanes[r + NX] = cs.normal[q, 0]
    lanes[r + NY] = cs.normal[q, 1]
    lanes[r + FRICTION] = cs.friction[q]
    lanes[r + RATE] = cs.softness[q, 0]
    lanes[r + MASS_SCALE] = cs.softness[q, 1]
    lanes[r + IMPULSE_SCALE] = cs.softness[q, 2]
    lanes[r + TWO] = 1.0 if cs.count[q] == 2 else 0.0
    for j in range(2):
        p = r + np.uint64(j) * POINT_STEP
        lanes[p + RAX] = cs.r_a[q, j, 0]
        lanes[p + RAY] = cs.r_a[q, j, 1]
        lanes[p + RBX] = cs.r_b[q, j, 0]
        lanes[p + RBY] = cs.r_b[q, j, 1]
        lanes[p + BASE] = cs.base_separation[q, j]
        lanes[p + GAP] = 0.0  # the gather writes the gaps of the points that exist
        lanes[p + NMASS] = cs.normal_mass[q, j]
        lanes[p + TMASS] = cs.tangent_mass[q, j]
        lanes[p + NIMP] = cs.normal_impulse[q, j]
        lanes[p + TIMP] = cs.tangent_impulse[q, j]
        lanes[p + MAXN] = cs.max_normal_impulse[q, j]
        lanes[p + TOTN] = cs.total_normal_impulse[q, j]
        lanes[p + TOTT] = cs.total_tangent_impulse[q, j]
        lanes[p + BIAS] = cs.bias[q, j]
        lanes[p + UNN] = cs.unclamped[q, j, 0]
        lanes[p + UNT] = cs.unclamped[q, j, 1]


@borrowing_kernel
def unpack_lanes(cs):
    """Copy the lanes' impulses, biases and unclamped values back into the rows."""
    lanes = flat_lanes(cs)
    for q in range(np.uint64(cs.count.shape[0])):
        r, _ = _row(q)
        for j in range(2):
            p = r + np.uint64(j) * POINT_STEP
            cs.normal_impulse[q, j] = lanes[p + NIMP]
            cs.tangent_impulse[q, j] = lanes[p + TIMP]
            cs.max_normal_impulse[q, j] = lanes[p + MAXN]
            cs.total_normal_impulse[q, j] = lanes[p + TOTN]
            cs.total_tangent_impulse[q, j] = lanes[p + TOTT]
            cs.bias[q, j] = lanes[p + BIAS]
            cs.unclamped[q, j, 0] = lanes[p + UNN]
            cs.unclamped[q, j, 1] = lanes[p + UNT]


@borrowing_kernel
def add_lane_totals(cs):
    """:func:`.solvers.add_sweep_totals` on the lanes: add the accumulated impulses to the
    step totals (a ``pgs`` step whose sweeps stopped early)."""
    lanes = flat_lanes(cs)
    for q in range(np.uint64(cs.count.shape[0])):
        r, _ = _row(q)
        for j in range(cs.count[q]):
            p = r + np.uint64(j) * POINT_STEP
            lanes[p + TOTN] += lanes[p + NIMP]
            lanes[p + TOTT] += lanes[p + TIMP]


@inline_kernel
def _gather(cs, lanes, bodies, base, start, i0, i1, gaps):
    """Velocities of the bodies of a chunk's rows ``i0:i1`` into the lanes (the chunk's first
    row: ``start``, its first double: ``base``), and, with ``gaps``, each point's current
    separation (m), as ``solve_contacts`` computes it."""
    v = bodies.v
    w = bodies.w
    dp = bodies.dp
    dq = bodies.dq
    for i in range(i0, i1):
        q = start + i
        r = base + i
        a = cs.body_a[q]
        b = cs.body_b[q]
        lanes[r + VAX] = v[a, 0]
        lanes[r + VAY] = v[a, 1]
        lanes[r + WA] = w[a]
        lanes[r + VBX] = v[b, 0]
        lanes[r + VBY] = v[b, 1]
        lanes[r + WB] = w[b]
        if gaps:
            nx = lanes[r + NX]
            ny = lanes[r + NY]
            ca = dq[a, 0]
            sa = dq[a, 1]
            cb = dq[b, 0]
            sb = dq[b, 1]
            ddx = dp[b, 0] - dp[a, 0]
            ddy = dp[b, 1] - dp[a, 1]
            for j in range(cs.count[q]):
                p = r + np.uint64(j) * POINT_STEP
                rax = lanes[p + RAX]
                ray = lanes[p + RAY]
                rbx = lanes[p + RBX]
                rby = lanes[p + RBY]
                gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
                gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
                lanes[p + GAP] = lanes[p + BASE] + gx * nx + gy * ny


@inline_kernel
def _scatter(cs, lanes, bodies, base, start, i0, i1):
    """The velocity lanes of a chunk's rows ``i0:i1`` back to their bodies (A, then B, as
    ``store_pair``)."""
    v = bodies.v
    w = bodies.w
    for i in range(i0, i1):
        q = start + i
        r = base + i
        a = cs.body_a[q]
        b = cs.body_b[q]
        v[a, 0] = lanes[r + VAX]
        v[a, 1] = lanes[r + VAY]
        w[a] = lanes[r + WA]
        v[b, 0] = lanes[r + VBX]
        v[b, 1] = lanes[r + VBY]
        w[b] = lanes[r + WB]


@inline_kernel
def _warm_lanes(lanes, base, i0, i1):
    """:func:`.contact_solver.warm_start_contacts` on a chunk's rows ``i0:i1``: both points
    computed for every row, the second kept where it exists."""
    for i in range(i0, i1):
        r = base + i
        two = lanes[r + TWO] != 0.0
        m_a = lanes[r + M_A]
        i_a = lanes[r + I_A]
        m_b = lanes[r + M_B]
        i_b = lanes[r + I_B]
        nx = lanes[r + NX]
        ny = lanes[r + NY]
        vax = lanes[r + VAX]
        vay = lanes[r + VAY]
        wa = lanes[r + WA]
        vbx = lanes[r + VBX]
        vby = lanes[r + VBY]
        wb = lanes[r + WB]
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
            vax = vax - m_a * px if keep else vax
            vay = vay - m_a * py if keep else vay
            wa = wa - i_a * (rax * py - ray * px) if keep else wa
            vbx = vbx + m_b * px if keep else vbx
            vby = vby + m_b * py if keep else vby
            wb = wb + i_b * (rbx * py - rby * px) if keep else wb
        lanes[r + VAX] = vax
        lanes[r + VAY] = vay
        lanes[r + WA] = wa
        lanes[r + VBX] = vbx
        lanes[r + VBY] = vby
        lanes[r + WB] = wb


@inline_kernel
def _solve_lanes(lanes, base, i0, i1, inv_h, use_bias, soft, baumgarte_rate, linear_slop,
                 contact_speed, last_sweep, speed_cap):
    """:func:`.contact_solver.solve_contacts`'s rows on a chunk's rows ``i0:i1``, the same
    operations in the same order per row (``baumgarte_rate``: its ``baumgarte * inv_h``).
    Every store is unconditional (a row that keeps a value writes it back) and every branch a
    select, so that the loop has nothing left to stop the vectoriser."""
    write_bias = use_bias or not soft
    for i in range(i0, i1):
        r = base + i
        two = lanes[r + TWO] != 0.0
        m_a = lanes[r + M_A]
        i_a = lanes[r + I_A]
        m_b = lanes[r + M_B]
        i_b = lanes[r + I_B]
        vax = lanes[r + VAX]
        vay = lanes[r + VAY]
        wa = lanes[r + WA]
        vbx = lanes[r + VBX]
        vby = lanes[r + VBY]
        wb = lanes[r + WB]
        nx = lanes[r + NX]
        ny = lanes[r + NY]
        tx = ny
        ty = -nx
        friction = lanes[r + FRICTION]
        # friction rows (contact_solver.friction_rows)
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
            unclamped = lanes[p + UNT]
            lanes[p + UNT] = old + impulse if keep else unclamped
            lanes[p + TIMP] = total if keep else old
            impulse = total - old
            px = impulse * tx
            py = impulse * ty
            vax = vax - m_a * px if keep else vax
            vay = vay - m_a * py if keep else vay
            wa = wa - i_a * (rax * py - ray * px) if keep else wa
            vbx = vbx + m_b * px if keep else vbx
            vby = vby + m_b * py if keep else vby
            wb = wb + i_b * (rbx * py - rby * px) if keep else wb
        # normal rows
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
            s = lanes[p + GAP]
            # the bias of solve_contacts' if-chain, as selects: speculative, relax, soft, hard
            pushing = not s > 0.0
            soft_now = pushing and use_bias and soft
            hard = max(baumgarte_rate * min(0.0, s + linear_slop), -contact_speed)
            bias = max(soft_rate * s, -contact_speed) if soft else hard
            bias = bias if use_bias else 0.0
            bias = bias if pushing else s * inv_h
            mass_scale = soft_mass if soft_now else 1.0
            impulse_scale = soft_impulse if soft_now else 0.0
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = lanes[p + NIMP]
            normal_mass = lanes[p + NMASS]
            impulse = -normal_mass * mass_scale * (vn + bias) - impulse_scale * old
            total = min(max(old + impulse, 0.0), normal_mass * speed_cap)
            unclamped = lanes[p + UNN]
            lanes[p + UNN] = old + impulse if keep else unclamped
            kept_bias = lanes[p + BIAS]
            lanes[p + BIAS] = bias if keep and write_bias else kept_bias
            total = total if keep else old
            lanes[p + NIMP] = total
            peak = lanes[p + MAXN]
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
        if last_sweep:
            for j in range(2):
                keep = j == 0 or two
                p = r + np.uint64(j) * POINT_STEP
                n_total = lanes[p + TOTN]
                t_total = lanes[p + TOTT]
                n_sum = n_total + lanes[p + NIMP]
                t_sum = t_total + lanes[p + TIMP]
                lanes[p + TOTN] = n_sum if keep else n_total
                lanes[p + TOTT] = t_sum if keep else t_total
        lanes[r + VAX] = vax
        lanes[r + VAY] = vay
        lanes[r + WA] = wa
        lanes[r + VBX] = vbx
        lanes[r + VBY] = vby
        lanes[r + WB] = wb


@inline_kernel
def _piece(cs, lo, hi):
    """The run of rows from ``lo`` (its colour's, :func:`.constraint_graph.mark_colour_runs`)
    cut where it crosses into the next chunk or reaches ``hi``: ``(end, start, base, i0, i1)``,
    the piece ``lo:end`` as rows ``i0:i1`` of the chunk whose first row is ``start`` and first
    double ``base``."""
    start = (lo // _CHUNK) * _CHUNK
    end = min(np.uint64(cs.lane_end[lo]), start + _CHUNK, hi)
    return end, start, start * np.uint64(FIELDS), lo - start, end - start


@borrowing_kernel
def warm_start_contacts_wide(cs, bodies, first, last):
    """:func:`.contact_solver.warm_start_contacts` (same bits) on the rows ``first:last``,
    colour by colour in lanes."""
    hi = np.uint64(last)
    lanes = flat_lanes(cs)
    lo = np.uint64(first)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, bodies, base, start, i0, i1, False)
        _warm_lanes(lanes, base, i0, i1)
        _scatter(cs, lanes, bodies, base, start, i0, i1)
        lo = end


@borrowing_kernel
def solve_contacts_wide(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                        contact_speed, last_sweep, speed_cap):
    """:func:`.contact_solver.solve_contacts` (same arguments, same bits) on the rows
    ``first:last``, colour by colour in lanes. Rows of one colour share no dynamic body, so
    any cut of a colour's rows into ranges solved in any order, or at once on several threads
    (:mod:`.threaded`), gives the same bits."""
    hi = np.uint64(last)
    lanes = flat_lanes(cs)
    baumgarte_rate = baumgarte * inv_h
    lo = np.uint64(first)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, bodies, base, start, i0, i1, True)
        _solve_lanes(lanes, base, i0, i1, inv_h, use_bias, soft, baumgarte_rate, linear_slop,
                     contact_speed, last_sweep, speed_cap)
        _scatter(cs, lanes, bodies, base, start, i0, i1)
        lo = end
