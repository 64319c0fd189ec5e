"""The wide contact solver: the constraints of one graph colour solved together, in SIMD lanes.

:func:`.contact_solver.solve_contacts` visits one constraint at a time and reads and writes its
two bodies' velocities by index. The compiler cannot vectorise that loop: as far as it can
tell, the next constraint may read the body the last one wrote. Within one colour of
:mod:`.constraint_graph` no two constraints share a dynamic body, so the constraints of a colour
are independent, and Box2D v3 solves them 4 or 8 at a time (its "wide" constraints, gathered
from and scattered to a compact body-state array). Here each colour is solved in three loops:

* **gather** (by body index, one body at a time): the two bodies' velocities into the pass's
  scratch chunk (:func:`.lane_layout.scratch_chunk`: on the pass's stack, in L1), and, in a
  vectorised loop of its own, the points' current gaps (which depend only on the bodies'
  in-step displacements, which no velocity pass changes);
* **solve** (no index): the rows' arithmetic on the lanes and the scratch chunk alone, which
  LLVM turns into AVX2 code, four rows to a ``ymm`` register (checked with ``inspect_asm``:
  ``tests/test_contact_lanes.py``); branches are written as selects, and a constraint's second
  point is computed for every row, its lanes written for every row (a missing point's are
  never read back) and its velocity change kept only where it exists;
* **scatter**: the scratch chunk's velocities back to the bodies.

**The lanes are the rows' storage for the solve** (their layout: :mod:`.lane_layout`).
:func:`.contact_solver.prepare_contacts` writes what the solve reads straight into them, and
into the row store only what the rest of the step reads there (the contact, bodies, point
count, restitution and approach speed); the impulses accumulate in the lanes through the
substeps, restitution bounces from them (:func:`apply_restitution_wide`), and only what the
step keeps reads back: the points' accumulated, peak and total impulses
(:func:`store_lane_impulses`, 10 doubles a row), which the step writes to the manifolds for the
next step's warm start and the contact events read. The other columns of the rows (anchors,
masses, biases, unclamped impulses) are filled from the lanes only when something reads them:
the diagnostics in the step (their unit does it, :func:`rows_for_diagnostics`), and in Python
:func:`sync_constraint_rows` (the constraint rows, the state hash; a snapshot copies the
lanes), told what to do by the row flag ``in_lanes``.

**Compiled once.** The passes are one entry, :func:`lanes_entry`, compiled on its own
(:class:`~.._core.lazy.LazyKernel`, the table of verbs' slot :data:`~.verbs.LANES`) and called
by address from each solver that uses it (``soft_step``, ``soft_step_v31``, ``pgs``, and the
threaded ``soft_step``, once per thread's range of rows): Numba links a callee's code into its
caller and optimises the whole again, so a vectorised loop called directly is vectorised again
in every caller.

Compile time is what the layout is shaped by: the first version (branch ``wide31``) had three
variants of the solve loop (one and two points, the last chunk's run-time stride) and its index
helpers inlined at every access, and took a cold start of ``pyramid_20`` from 26.5 to 55.2 s; a
one-point variant alone (circles: half the lanes' arithmetic) adds 4 s of compile CPU,
measured in isolation (7.4-8.0 -> 11.5-11.8 s), and gave rain's passes no gain (branch
``wide31b``), so one-point rows compute a second point and drop it. The solve loop reads
nothing but the lanes (a row's point count is a lane too) and the pass's scratch chunk, an
array on the stack that LLVM knows overlaps nothing else, so it needs no overlap test against
another array either.

Per constraint the operations and their order are those of ``solve_contacts`` (friction rows,
then normal rows, point by point), and the engine compiles without FMA contraction
(:mod:`.._core.jit`), so the results are bit-identical: only the order *between* independent
constraints changes. Static and kinematic bodies are shared within a colour but never changed
by a contact (zero inverse mass), so reading them before the colour's writes changes nothing.
The overflow colour's constraints may share bodies: each is its own run of one, solved in turn.

**One source, two precisions.** The passes (:func:`_warm_start`, :func:`_solve` and the loops
they inline) are generic over the lanes' float type: every constant and float argument of their
arithmetic goes through :func:`.lane_layout.lane_float`, and the scratch chunk takes the lanes'
type, so that Numba compiles them once on the float64 lanes (:func:`warm_start_contacts_wide`,
:func:`solve_contacts_wide`: the bits and the vector loops they had when written for float64
alone; the casts are no-ops there) and once
on float32 lanes for a world of ``WorldSettings(solver_precision="float32")``
(:mod:`.contact_lanes_f32`), computed in float32 throughout. So are what writes and reads the
lanes around them (the prepare, :func:`restitution_lanes`, :func:`impulses_from`,
:func:`columns_from`: computed in float64, the float32 lanes' values widened as they are read
and rounded as they are stored), which such a world calls through its float32 entry, so that a
float64 world compiles none of it.

``cs.lane_end[q]`` (:func:`.constraint_graph.mark_colour_runs`) is the end of the colour run
that holds row ``q``; the step marks it after colouring. The ``pgs_ngs``, ``pgs_block`` and
``direct`` solvers keep the row store's verbs.

**Small worlds** solve row by row: a colour of a few rows runs the lanes' scalar remainder
loop, computing both points of every row, with a gather and a scatter around it, and the
10-body world of issue 30 stepped 1.11-1.14x slower so. The slot :data:`~.verbs.LANES` of a
world of fewer than :data:`MIN_BODIES` dynamic bodies holds :func:`rows_entry` instead: the same
verbs on the rows, by address too (the solver asks it, :func:`in_lanes`, whether to prepare
the lanes or the rows). The choice is made when the table of verbs is filled, so that a world
compiles one of the two; the bits are the same either way. A small world of
``WorldSettings(solver_precision="float32")`` goes row by row too, in float64: its float32
lanes stepped the 10-body batch at 1.37-1.43x its float64 rows' CPU (BENCHMARKS.md, session 14,
``prec39``), so that its bits are a float64 world's.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import intrinsic

from .._core.jit import borrowing_kernel, entry_kernel, inline_kernel, kernel
from .._core.lazy import JIT
from .._core.state import DYNAMIC
from .awake import CONTACT_COUNT
from .contact_rows import prepare_serial_rows, restitution_rows, solve_rows, warm_start_rows
from .contact_solver import (bounce_speed, normal_acceleration, prepare_wide, push_point,
                             restitution_gap, rows_of)
from .lane_layout import (BASE, BIAS, CHUNK, FIELDS, FRICTION, GAP, GAP_STEP, I_A, I_B,
                          IMPULSE_SCALE, M_A, M_B, MASS_SCALE, MAXN, NIMP, NMASS, NX, NY,
                          POINT_STEP, RATE, RAX, RAY, RBX, RBY, TIMP, TMASS, TOTN, TOTT, TWO,
                          U_CHUNK, UNN, UNT, VAX, VAY, VBX, VBY, WA, WB, flat_lanes, lane_float,
                          lane_index, point_kept, scalar_index, scratch_chunk)
from .scratch import colour_views
from .verbs import (DIAGNOSTICS, LANE_COLUMNS, LANE_PREPARE, LANES, call_diagnose,
                    call_lane_prepare, call_lanes)
from .world_ref import borrow, borrow_column, sync_constraints

LANE_WARM_START, LANE_SOLVE, LANE_MODE, LANE_RESTITUTION, LANE_FINISH, LANE_ROWS = range(6)
"""What the contact passes' entry is asked to do (its ``verb``): warm start, solve, say
whether it solves in float64 lanes (1.0), float32 lanes (2.0, :mod:`.contact_lanes_f32`) or row
by row (0.0), restitution (:func:`restitution`), or, asked of the float32 entry only, what
reads its lanes after the solve: the copy back of the kept impulses or every column
(:func:`finish_lanes`), every column between the passes (:func:`lane_columns`)."""

SOLVERS = ("soft_step", "soft_step_v31", "pgs")
"""The solvers (``WorldSettings.solver``) whose contacts are solved by the entry in the world's
slot :data:`~.verbs.LANES`: :func:`lanes_entry` or, for a small world, :func:`rows_entry`."""

F32_SOLVERS = ("soft_step", "soft_step_v31")
"""The solvers that solve a ``WorldSettings(solver_precision="float32")`` world's contacts in
float32 lanes (:mod:`.contact_lanes_f32`; ``pgs`` stays float64: its early stop adds the
totals in the lanes mid-solve, :func:`add_lane_totals`)."""

MIN_BODIES = 32
"""Dynamic bodies from which a world's contacts are solved in lanes (:func:`lanes_pay`).
Measured (BENCHMARKS.md, 2026-11-28 night): the 10-body world of issue 30 (11 rows, in 3-4
colours of a few rows each) stepped 1.11-1.14x slower in lanes, ``pyramid_20`` (210 bodies)
0.60-0.73x: a colour of a few rows runs the lanes' scalar remainder, both points of every row
and the gather and scatter, where the serial pass runs one point of a circle in registers."""


@inline_kernel
def _gather(cs, lanes, scratch, bodies, base, start, i0, i1, gaps):
    """Velocities of the bodies of a chunk's rows ``i0:i1`` into the pass's scratch chunk (the
    chunk's first row: ``start``, its first value in the lanes: ``base``), and, with ``gaps``,
    each point's current separation (:func:`_gaps`). The bodies are float64: float32 lanes get
    their values rounded (:func:`.lane_layout.lane_float`; the scratch chunk's stores round as
    they store). The velocities are loaded one body at a time (:func:`.lane_layout.
    scalar_index`): vectorised, as AVX-512 gathers, they made the warm start 1.12-1.15x and the
    biased and relax passes 1.04-1.07x slower on Zen 4 (``benchmarks/lanes_gather.py``)."""
    v = bodies.v
    w = bodies.w
    for i in range(i0, i1):
        q = start + i
        # unsigned: an index the compiler knows is not negative needs no wrap-around select
        a = scalar_index(np.uint64(cs.body_a[q]))
        b = scalar_index(np.uint64(cs.body_b[q]))
        scratch[i + VAX] = v[a, 0]
        scratch[i + VAY] = v[a, 1]
        scratch[i + WA] = w[a]
        scratch[i + VBX] = v[b, 0]
        scratch[i + VBY] = v[b, 1]
        scratch[i + WB] = w[b]
    if gaps:
        _gaps(cs, lanes, scratch, bodies, base, start, i0, i1)


@inline_kernel
def _gaps(cs, lanes, scratch, bodies, base, start, i0, i1):
    """Each point's current separation (m) of a chunk's rows ``i0:i1`` into the scratch chunk,
    as ``solve_contacts`` computes it (a missing second point's: 0.0, computed on and dropped,
    so that no stale stack value enters the arithmetic): a loop of its own, vectorised, its
    arithmetic on 8 or 16 rows an instruction paying for the gathers of the bodies' in-step
    motions (loaded one body at a time, with the gaps' arithmetic scalar or vectorised from a
    second stack chunk, they made the biased and relax passes 1.08-1.27x slower)."""
    dp = bodies.dp
    dq = bodies.dq
    zero = lane_float(lanes, 0.0)
    for i in range(i0, i1):
        q = start + i
        r = base + i
        a = np.uint64(cs.body_a[q])  # (unsigned: as in _gather)
        b = np.uint64(cs.body_b[q])
        nx = lanes[r + NX]
        ny = lanes[r + NY]
        ca = lane_float(lanes, dq[a, 0])
        sa = lane_float(lanes, dq[a, 1])
        cb = lane_float(lanes, dq[b, 0])
        sb = lane_float(lanes, dq[b, 1])
        ddx = lane_float(lanes, dp[b, 0]) - lane_float(lanes, dp[a, 0])
        ddy = lane_float(lanes, dp[b, 1]) - lane_float(lanes, dp[a, 1])
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
            # a select, not a branch around the arithmetic: a point's stores made under a
            # condition are vectorised as masked stores, which Zen 3 microcodes
            scratch[i + GAP + np.uint64(j) * GAP_STEP] = gap if j < count else zero


@inline_kernel
def _scatter(cs, scratch, bodies, start, i0, i1):
    """The scratch chunk's velocities of a chunk's rows ``i0:i1`` back to their bodies (A, then
    B, as ``store_pair``; float32 ones widened as they are stored)."""
    v = bodies.v
    w = bodies.w
    for i in range(i0, i1):
        q = start + i
        a = np.uint64(cs.body_a[q])  # (unsigned: as in _gather)
        b = np.uint64(cs.body_b[q])
        v[a, 0] = scratch[i + VAX]
        v[a, 1] = scratch[i + VAY]
        w[a] = scratch[i + WA]
        v[b, 0] = scratch[i + VBX]
        v[b, 1] = scratch[i + VBY]
        w[b] = scratch[i + WB]


@intrinsic
def _select(typingctx, keep, kept, other):
    """``kept if keep else other`` as one LLVM ``select`` of two floats of one type (float64 or
    float32). Python's conditional expression is a branch: LLVM sinks the loads only the kept
    arm uses into it, and the vectoriser makes them masked loads (``vmaskmovpd``), which cost
    about twice a plain load and blend on Zen 3 (``benchmarks/lanes_masked.py``). A select
    keeps them plain; its value is one of its operands, so the bits are the conditional
    expression's."""
    if kept != other:
        return None

    def codegen(context, builder, signature, args):
        return builder.select(*args)

    return kept(types.boolean, kept, other), codegen


if not JIT:
    def _select(keep, kept, other):  # noqa: F811  (plain Python)
        return kept if keep else other


@inline_kernel
def _warm_lanes(lanes, scratch, base, i0, i1):
    """:func:`.contact_solver.warm_start_contacts` on a chunk's rows ``i0:i1``: both points
    computed for every row, the second kept where it exists."""
    zero = lane_float(lanes, 0.0)
    for i in range(i0, i1):
        r = base + i
        two = lanes[r + TWO] != zero
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
            vax = _select(keep, vax - m_a * px, vax)
            vay = _select(keep, vay - m_a * py, vay)
            wa = _select(keep, wa - i_a * (rax * py - ray * px), wa)
            vbx = _select(keep, vbx + m_b * px, vbx)
            vby = _select(keep, vby + m_b * py, vby)
            wb = _select(keep, wb + i_b * (rbx * py - rby * px), wb)
        scratch[i + VAX] = vax
        scratch[i + VAY] = vay
        scratch[i + WA] = wa
        scratch[i + VBX] = vbx
        scratch[i + VBY] = vby
        scratch[i + WB] = wb


@inline_kernel
def _solve_lanes(lanes, scratch, base, i0, i1, inv_h, use_bias, soft, baumgarte_rate, linear_slop,
                 contact_speed, last_sweep, speed_cap):
    """:func:`.contact_solver.solve_contacts`'s rows on a chunk's rows ``i0:i1``, the same
    operations in the same order per row (``baumgarte_rate``: its ``baumgarte * inv_h``).
    Every store is unconditional and every branch a select, so that the loop has nothing left
    to stop the vectoriser, and no store that it would make a masked one: a missing second
    point's lanes are written with what was computed for it (from the finite values an earlier
    row left there: no reader keeps them, :func:`_kept_impulses`), where a store of the old
    value, which LLVM drops as a no-op, would leave a store under a condition, vectorised as
    ``vmaskmovpd`` to memory. Zen 3 microcodes that (the passes had 19, seven or eight an
    iteration of this loop, and ran at about half the Intel machine's speed; BENCHMARKS.md,
    session 10, ``lanes35``). The float arguments are in the lanes' type (:func:`_solve`)."""
    write_bias = use_bias or not soft
    zero = lane_float(lanes, 0.0)
    one = lane_float(lanes, 1.0)
    for i in range(i0, i1):
        r = base + i
        two = lanes[r + TWO] != zero
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
            s = scratch[i + GAP + np.uint64(j) * GAP_STEP]
            # the bias of solve_contacts' if-chain, as selects: speculative, relax, soft, hard
            pushing = not s > zero
            soft_now = pushing and use_bias and soft
            hard = max(baumgarte_rate * min(zero, s + linear_slop), -contact_speed)
            bias = max(soft_rate * s, -contact_speed) if soft else hard
            bias = bias if use_bias else zero
            bias = bias if pushing else s * inv_h
            mass_scale = soft_mass if soft_now else one
            impulse_scale = soft_impulse if soft_now else zero
            dvx = vbx - wb * rby - vax + wa * ray
            dvy = vby + wb * rbx - vay - wa * rax
            vn = dvx * nx + dvy * ny
            old = lanes[p + NIMP]
            normal_mass = lanes[p + NMASS]
            impulse = -normal_mass * mass_scale * (vn + bias) - impulse_scale * old
            total = min(max(old + impulse, zero), normal_mass * speed_cap)
            lanes[p + UNN] = old + impulse
            # a select, not a branch: the flags are run-time values in the compiled entry
            # (lanes_entry), where a store under one becomes a masked store
            lanes[p + BIAS] = _select(write_bias, bias, lanes[p + BIAS])
            lanes[p + NIMP] = total
            # + zero (0.0): the same bits for every peak a kept point holds (a total is clamped to
            # +0.0 or above, a peak starts at 0.0), but LLVM can no longer prove that the
            # store's other arm writes back the value just loaded, which it drops, leaving a
            # conditional store that it vectorises as a masked one (lanes_masked.py)
            peak = lanes[p + MAXN] + zero
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
        # the step's totals in a loop of their own, under a branch taken once: inside the
        # rows' loop a run-time flag's stores were masked ones (lanes_entry)
        for i in range(i0, i1):
            for j in range(2):
                p = base + i + np.uint64(j) * POINT_STEP
                lanes[p + TOTN] = lanes[p + TOTN] + lanes[p + NIMP]
                lanes[p + TOTT] = lanes[p + TOTT] + lanes[p + TIMP]


@inline_kernel
def _piece(cs, lo, hi):
    """The run of rows from ``lo`` (its colour's, :func:`.constraint_graph.mark_colour_runs`)
    cut where it crosses into the next chunk or reaches ``hi``: ``(end, start, base, i0, i1)``,
    the piece ``lo:end`` as rows ``i0:i1`` of the chunk whose first row is ``start`` and first
    double ``base``."""
    start = (lo // U_CHUNK) * U_CHUNK
    end = min(np.uint64(cs.lane_end[lo]), start + U_CHUNK, hi)
    return end, start, start * np.uint64(FIELDS), lo - start, end - start


@inline_kernel
def _warm_start(cs, bodies, lanes, first, last):
    """The warm start of the rows ``first:last``, colour by colour, on the lanes ``lanes``
    (float64 or float32: the one source of both precisions' passes)."""
    hi = np.uint64(last)
    scratch = scratch_chunk(lanes)
    lo = np.uint64(first)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, scratch, bodies, base, start, i0, i1, False)
        _warm_lanes(lanes, scratch, base, i0, i1)
        _scatter(cs, scratch, bodies, start, i0, i1)
        lo = end


@inline_kernel
def _solve(cs, bodies, lanes, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
           contact_speed, last_sweep, speed_cap):
    """A velocity pass of the rows ``first:last``, colour by colour, on the lanes ``lanes`` (as
    :func:`_warm_start`); the float arguments rounded once to the
    lanes' type (:func:`.lane_layout.lane_float`), ``baumgarte * inv_h`` before it is."""
    hi = np.uint64(last)
    scratch = scratch_chunk(lanes)
    baumgarte_rate = lane_float(lanes, baumgarte * inv_h)
    inv_h = lane_float(lanes, inv_h)
    linear_slop = lane_float(lanes, linear_slop)
    contact_speed = lane_float(lanes, contact_speed)
    speed_cap = lane_float(lanes, speed_cap)
    lo = np.uint64(first)
    while lo < hi:
        end, start, base, i0, i1 = _piece(cs, lo, hi)
        _gather(cs, lanes, scratch, bodies, base, start, i0, i1, True)
        _solve_lanes(lanes, scratch, base, i0, i1, inv_h, use_bias, soft,
                     baumgarte_rate, linear_slop, contact_speed, last_sweep, speed_cap)
        _scatter(cs, scratch, bodies, start, i0, i1)
        lo = end


@borrowing_kernel
def warm_start_contacts_wide(cs, bodies, first, last):
    """:func:`.contact_solver.warm_start_contacts` (same bits) on the rows ``first:last``,
    colour by colour in lanes."""
    _warm_start(cs, bodies, flat_lanes(cs), first, last)


@borrowing_kernel
def solve_contacts_wide(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                        contact_speed, last_sweep, speed_cap):
    """:func:`.contact_solver.solve_contacts` (same arguments, same bits) on the rows
    ``first:last``, colour by colour in lanes. Rows of one colour share no dynamic body, so
    any cut of a colour's rows into ranges solved in any order, or at once on several threads
    (:mod:`.threaded`), gives the same bits."""
    _solve(cs, bodies, flat_lanes(cs), first, last, inv_h, use_bias, soft, baumgarte,
           linear_slop, contact_speed, last_sweep, speed_cap)


@entry_kernel
def lanes_entry(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                contact_speed, last_sweep, speed_cap):
    """The passes, compiled once and called by address (:data:`~.verbs.LANES_SIGNATURE`):
    :data:`LANE_WARM_START`, :data:`LANE_SOLVE` (:func:`solve_contacts_wide`'s arguments) or
    :data:`LANE_RESTITUTION` (:func:`apply_restitution_wide`; the arguments that carry its
    values: :func:`restitution`) the rows ``first:last`` of the world's constraint store."""
    if verb == LANE_MODE:
        return 1.0
    cs = borrow(world, "constraints")
    bodies = borrow(world, "bodies")
    if verb == LANE_RESTITUTION:
        apply_restitution_wide(cs, bodies, first, last, inv_h, speed_cap, baumgarte, linear_slop,
                               contact_speed)
    elif verb == LANE_WARM_START:
        warm_start_contacts_wide(cs, bodies, first, last)
    else:
        solve_contacts_wide(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte,
                            linear_slop, contact_speed, last_sweep, speed_cap)
    return 0.0


@inline_kernel
def _rows(cs, first, last):
    """The rows ``first:last`` of ``cs``: the store itself when that is all of them (a
    :func:`.contact_solver.rows_of` store is 25 slices, about 1 us a step of a small world's
    12 passes), else its slice (the same type)."""
    return cs if first == 0 and last == cs.count.shape[0] else rows_of(cs, first, last)


@entry_kernel
def rows_entry(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
               contact_speed, last_sweep, speed_cap):
    """:func:`lanes_entry`'s verbs on the rows, one at a time (:func:`.contact_rows.
    solve_rows`, :func:`.contact_rows.restitution_rows`): the contact passes of a small world
    (:func:`lanes_pay`), compiled on their own and called by address as :func:`lanes_entry`
    is, so that a world compiles the one it uses."""
    if verb == LANE_MODE:
        return 0.0
    if verb == LANE_RESTITUTION:
        restitution_rows(world, first, last, inv_h, speed_cap, baumgarte, linear_slop,
                         contact_speed)
    elif verb == LANE_WARM_START:
        warm_start_rows(world, first, last)
    else:
        solve_rows(world, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                   contact_speed, last_sweep, speed_cap)
    return 0.0


def lanes_pay(world) -> bool:
    """Whether ``world``'s contacts are solved in lanes (:func:`lanes_entry`, or a float32
    world's :func:`.contact_lanes_f32.lanes_f32_entry`) rather than row by row
    (:func:`rows_entry`, in float64 whatever the world's precision): from :data:`MIN_BODIES`
    dynamic bodies. Decided when the step
    fills the world's table of verbs (its first step, and after a change of settings or joint
    rows), so that a world compiles one of the two; both give the same bits."""
    bodies = world._bodies
    return int(np.count_nonzero((bodies.type == DYNAMIC) & bodies.alive)) >= MIN_BODIES


@inline_kernel
def lanes_pass(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
               contact_speed, last_sweep, speed_cap):
    """Call the world's contact passes by address (its slot :data:`~.verbs.LANES`, which the
    step fills for every world whose solver is one of :data:`SOLVERS`); returns what they
    return."""
    return call_lanes(borrow(world, "verbs")[LANES], (world, verb, first, last, inv_h,
                                                     use_bias, soft, baumgarte, linear_slop,
                                                     contact_speed, last_sweep, speed_cap))


@inline_kernel
def in_lanes(world):
    """Whether the world's contact passes solve in lanes (so the prepare writes them)."""
    return lanes_pass(world, LANE_MODE, 0, 0, 0.0, False, False, 0.0, 0.0, 0.0, False,
                      0.0) != 0.0


@inline_kernel
def float32_lanes(world):
    """Whether the world's lanes are float32 (:mod:`.contact_lanes_f32`): its slot
    :data:`~.verbs.LANE_PREPARE` is filled exactly then (a load and a compare, no call)."""
    return borrow(world, "verbs")[LANE_PREPARE] != 0


@borrowing_kernel
def prepare_lanes(world, order, first, warm_starting, rate, mass_scale, impulse_scale, s_rate,
                  s_mass_scale, s_impulse_scale, wide):
    """:func:`.contact_solver.prepare_contacts` of the contacts ``order`` into the world's
    constraint rows from ``first``, or for a world of float32 lanes its float32 prepare, called
    by address (:data:`~.verbs.LANE_PREPARE`), so that no solver compiles a second prepare.
    Into float64 lanes (:func:`.contact_solver.prepare_wide`), every row of the step's own
    solve order (the colouring's, in the world's scratch: :func:`_colouring`) goes in the order
    of the contacts. The stores are borrowed here, the rows from ``first`` cut here
    (:func:`_rows`): a call passes every array of a store as its own handful of values, and
    the threaded solve's cut of the rows, 25 slices, was a third of its region's IR
    (BENCHMARKS.md, session 27, ``warmC52``); into the rows, the world is passed
    (:func:`.contact_rows.prepare_serial_rows`)."""
    table = borrow(world, "verbs")
    if table[LANE_PREPARE] != 0:
        call_lane_prepare(table[LANE_PREPARE], (world, order, first, warm_starting, rate,
                                                mass_scale, impulse_scale, s_rate,
                                                s_mass_scale, s_impulse_scale))
        return
    if wide:
        cs = _rows(borrow(world, "constraints"), first, first + order.shape[0])
        color, starts, cursors = _colouring(world, order, first)
        prepare_wide(cs, order, borrow(world, "contacts"), borrow(world, "bodies"),
                     warm_starting, rate, mass_scale, impulse_scale, s_rate, s_mass_scale,
                     s_impulse_scale, first, color, starts, cursors)
    else:
        prepare_serial_rows(world, order, first, warm_starting, rate, mass_scale,
                            impulse_scale, s_rate, s_mass_scale, s_impulse_scale)


@inline_kernel
def colour_rows(world):
    """The shape rows, body rows and contact rows the colouring's scratch is laid out for
    (:func:`.scratch.colour_views`): the contacts looked at are the awake ones, or every row.
    (The step sizes and fills the scratch by it; :func:`_colouring` reads it back.)"""
    n_rows = borrow(world, "awake_state")[CONTACT_COUNT]
    contacts = borrow_column(world, "contacts", "count").shape[0] if n_rows < 0 else n_rows
    return (borrow_column(world, "shapes", "alive").shape[0],
            borrow_column(world, "bodies", "type").shape[0], contacts)


@inline_kernel
def _colouring(world, order, first):
    """What the step's colouring (:func:`.constraint_graph.color_into`) left in the world's
    scratch (:func:`.scratch.colour_views`) beside the solve order: each contact's colour, each
    colour's first row, and its fill positions, dead after it (the replay's cursors); or an
    empty colour array where ``order`` from row ``first`` is not that whole order (a thread's
    piece of it, or another caller's)."""
    scratch = borrow(world, "scratch")
    shape_rows, body_rows, contacts = colour_rows(world)
    _, color, _, _, fill, starts, at = colour_views(scratch, shape_rows, body_rows, contacts)
    whole = first == 0 and order.shape[0] == starts[-1]
    if (whole and at + order.shape[0] <= scratch.shape[0]
            and order.ctypes.data == scratch.ctypes.data + at * scratch.itemsize):
        return color, starts, fill
    return color[:0], starts, fill


@inline_kernel
def lane_rows_for(world, count):
    """Rows of lanes (of :data:`.lane_layout.FIELDS` doubles) the step's store of ``count``
    constraint rows needs in ``world``: whole chunks (:func:`.lane_layout.lane_rows`) when its
    contact passes solve in lanes, half as many in float32 (the float32 lanes of those rows, in
    the same bytes: :mod:`.contact_lanes_f32`), none when they go row by row (a small world:
    :func:`rows_entry`) or its solver has no such passes (the slot :data:`~.verbs.LANES` empty).
    The step gives a world its lanes when it first needs them
    (:func:`.contact_solver.allocate_constraints`)."""
    if borrow(world, "verbs")[LANES] == 0:
        return 0
    mode = lanes_pass(world, LANE_MODE, 0, 0, 0.0, False, False, 0.0, 0.0, 0.0, False, 0.0)
    if mode == 0.0:
        return 0
    rows = (count + CHUNK - 1) // CHUNK * CHUNK
    return rows // 2 if mode == 2.0 else rows


@borrowing_kernel
def add_lane_totals(cs, first, last):
    """:func:`.solvers.add_sweep_totals` on the lanes of the rows ``first:last``: add the
    accumulated impulses to the step totals (a ``pgs`` step whose sweeps stopped early)."""
    lanes = flat_lanes(cs)
    for q in range(first, last):
        r = lane_index(q)
        for j in range(cs.count[q]):
            p = r + np.uint64(j) * POINT_STEP
            lanes[p + TOTN] += lanes[p + NIMP]
            lanes[p + TOTT] += lanes[p + TIMP]


@borrowing_kernel
def apply_restitution_wide(cs, bodies, first, last, threshold, speed_cap, gx, gy, half_kick):
    """:func:`.contact_solver.apply_restitution` (same bits) on the rows ``first:last``, the
    impulses and anchors read from and written to the lanes."""
    restitution_lanes(cs, bodies, flat_lanes(cs), first, last, threshold, speed_cap, gx, gy,
                      half_kick)


@inline_kernel
def restitution_lanes(cs, bodies, lanes, first, last, threshold, speed_cap, gx, gy, half_kick):
    """:func:`apply_restitution_wide` on the lanes ``lanes``, float64 or float32: computed in
    float64 either way (every value read widened), the float32 lanes' values rounded as they
    are stored."""
    f8 = np.float64
    dp = bodies.dp
    dq = bodies.dq
    for q in range(first, last):
        e = cs.restitution[q]
        if e == 0.0:
            continue
        r = lane_index(q)
        a = cs.body_a[q]
        b = cs.body_b[q]
        nx = f8(lanes[r + NX])
        ny = f8(lanes[r + NY])
        # (unsigned, as apply_restitution passes them: one signature of it in a process)
        accel = normal_acceleration(bodies, np.uint64(a), np.uint64(b), nx, ny, gx, gy)
        ca = dq[a, 0]
        sa = dq[a, 1]
        cb = dq[b, 0]
        sb = dq[b, 1]
        ddx = dp[b, 0] - dp[a, 0]
        ddy = dp[b, 1] - dp[a, 1]
        for j in range(cs.count[q]):
            p = r + np.uint64(j) * POINT_STEP
            approach = cs.relative_velocity[q, j]
            if approach > -threshold or lanes[p + MAXN] == 0.0:
                continue
            rax = f8(lanes[p + RAX])
            ray = f8(lanes[p + RAY])
            rbx = f8(lanes[p + RBX])
            rby = f8(lanes[p + RBY])
            s_start, s_now = restitution_gap(f8(lanes[p + BASE]), rax, ray, rbx, rby, nx, ny, ca,
                                             sa, cb, sb, ddx, ddy)
            target = bounce_speed(e, approach, accel, half_kick, s_start, s_now)
            old = f8(lanes[p + NIMP])
            total, unclamped = push_point(bodies, a, b, nx, ny, rax, ray, rbx, rby,
                                          f8(lanes[p + NMASS]), f8(lanes[r + M_A]),
                                          f8(lanes[r + I_A]), f8(lanes[r + M_B]),
                                          f8(lanes[r + I_B]), target, old, speed_cap)
            lanes[p + UNN] = unclamped
            lanes[p + BIAS] = -target
            lanes[p + NIMP] = total
            if total > lanes[p + MAXN]:
                lanes[p + MAXN] = total
            lanes[p + TOTN] = f8(lanes[p + TOTN]) + (total - old)


@inline_kernel
def _kept_impulses(cs, lanes, q, r):
    """Row ``q``'s kept impulses from its lanes at ``r`` (:func:`store_lane_impulses`); a
    missing second point's are zeros (its lanes hold what the passes computed for it from an
    earlier row's values: :func:`.lane_layout.write_lane_impulses`)."""
    count = cs.count[q]
    for j in range(2):
        p = r + np.uint64(j) * POINT_STEP
        kept = point_kept(j, count)
        cs.normal_impulse[q, j] = lanes[p + NIMP] if kept else 0.0
        cs.tangent_impulse[q, j] = lanes[p + TIMP] if kept else 0.0
        cs.max_normal_impulse[q, j] = lanes[p + MAXN] if kept else 0.0
        cs.total_normal_impulse[q, j] = lanes[p + TOTN] if kept else 0.0
        cs.total_tangent_impulse[q, j] = lanes[p + TOTT] if kept else 0.0


@borrowing_kernel
def store_lane_impulses(cs, first, last):
    """Copy what the step keeps of the rows ``first:last`` from the lanes to the rows: each
    point's accumulated, peak and total impulses (N s), which
    :func:`.contact_solver.store_impulses` writes to the manifolds (the next step's warm start)
    and the contact events read. A missing second point's are zeros."""
    impulses_from(cs, flat_lanes(cs), first, last)


@inline_kernel
def impulses_from(cs, lanes, first, last):
    """:func:`store_lane_impulses` from the lanes ``lanes`` (float64, or float32 widened)."""
    for q in range(first, last):
        _kept_impulses(cs, lanes, q, lane_index(q))


@borrowing_kernel
def rows_from_lanes(cs):
    """Fill every column of the rows that lives in the lanes during a wide solve (the rows'
    ``in_lanes`` flag) from them: what :func:`store_lane_impulses` copies, and the masses,
    normal, friction, softness, anchors, base separations, effective masses, biases and
    unclamped impulses. A missing second point's columns are zeros."""
    columns_from(cs, flat_lanes(cs))


@inline_kernel
def columns_from(cs, lanes):
    """:func:`rows_from_lanes` from the lanes ``lanes`` (float64, or float32 widened)."""
    for q in range(cs.count.shape[0]):
        if not cs.in_lanes[q]:
            continue
        r = lane_index(q)
        cs.inv_mass[q, 0] = lanes[r + M_A]
        cs.inv_mass[q, 1] = lanes[r + I_A]
        cs.inv_mass[q, 2] = lanes[r + M_B]
        cs.inv_mass[q, 3] = lanes[r + I_B]
        cs.normal[q, 0] = lanes[r + NX]
        cs.normal[q, 1] = lanes[r + NY]
        cs.friction[q] = lanes[r + FRICTION]
        cs.softness[q, 0] = lanes[r + RATE]
        cs.softness[q, 1] = lanes[r + MASS_SCALE]
        cs.softness[q, 2] = lanes[r + IMPULSE_SCALE]
        count = cs.count[q]
        for j in range(2):
            p = r + np.uint64(j) * POINT_STEP
            here = j < count
            cs.r_a[q, j, 0] = lanes[p + RAX] if here else 0.0
            cs.r_a[q, j, 1] = lanes[p + RAY] if here else 0.0
            cs.r_b[q, j, 0] = lanes[p + RBX] if here else 0.0
            cs.r_b[q, j, 1] = lanes[p + RBY] if here else 0.0
            cs.base_separation[q, j] = lanes[p + BASE] if here else 0.0
            cs.normal_mass[q, j] = lanes[p + NMASS] if here else 0.0
            cs.tangent_mass[q, j] = lanes[p + TMASS] if here else 0.0
            kept = point_kept(j, count)
            cs.bias[q, j] = lanes[p + BIAS] if kept else 0.0
            cs.unclamped[q, j, 0] = lanes[p + UNN] if kept else 0.0
            cs.unclamped[q, j, 1] = lanes[p + UNT] if kept else 0.0
        _kept_impulses(cs, lanes, q, r)


@inline_kernel
def rows_for_diagnostics(world, cs):
    """Every column of the rows filled from the lanes (:func:`lane_columns`), if the world has
    its diagnostics on (they read the rows): by the diagnostics' unit, called by address
    (point :data:`~.verbs.LANE_COLUMNS`), so that no solver compiles the copy for a world
    that measures nothing (:func:`rows_from_lanes`, 1.3-1.4 s of a cold soft step's CPU,
    BENCHMARKS.md, session 21, ``cold46``). ``cs.count`` stands for the point's ``order``,
    which it does not read."""
    table = borrow(world, "verbs")
    if table[DIAGNOSTICS] != 0:
        call_diagnose(table[DIAGNOSTICS], (world, cs.count, LANE_COLUMNS, 0, 0.0, 0.0, 0.0, 0.0,
                                           0.0))


@inline_kernel
def lane_columns(world, cs):
    """:func:`rows_from_lanes`, or from float32 lanes by the float32 entry
    (:data:`LANE_ROWS`): what the diagnostics do at :data:`~.verbs.LANE_COLUMNS`."""
    if float32_lanes(world):
        lanes_pass(world, LANE_ROWS, 0, 0, 0.0, False, False, 0.0, 0.0, 0.0, False, 0.0)
    else:
        rows_from_lanes(cs)


@inline_kernel
def restitution(world, first, last, threshold, speed_cap, gx, gy, half_kick):
    """Restitution on the rows ``first:last`` by the world's contact passes' entry
    (:data:`LANE_RESTITUTION`: :func:`apply_restitution_wide` in :func:`lanes_entry`,
    :func:`.contact_solver.apply_restitution` in :func:`rows_entry`, the float32 lanes' in
    theirs), whose ``inv_h``, ``baumgarte``, ``linear_slop``, ``contact_speed`` and
    ``speed_cap`` carry ``threshold``, ``gx``, ``gy``, ``half_kick`` and ``speed_cap``. Called
    inline, the two routines were compiled into every solver, where a world runs one of them
    (1.5 and 1.4 s of a cold soft step's CPU: BENCHMARKS.md, session 21, ``cold46``); the same
    operations in the same order either way."""
    lanes_pass(world, LANE_RESTITUTION, first, last, threshold, False, False, gx, gy, half_kick,
               False, speed_cap)


@inline_kernel
def finish_lanes(world, cs, wide, first, last):
    """The end of a wide solve of the rows ``first:last``: :func:`store_lane_impulses`, or every
    column with the diagnostics on (the step measures the solve after it:
    :func:`rows_for_diagnostics`); nothing for rows solved one at a time; from float32 lanes
    by the float32 entry (:data:`LANE_FINISH`)."""
    if not wide:
        return
    if float32_lanes(world):
        lanes_pass(world, LANE_FINISH, first, last, 0.0, False, False, 0.0, 0.0, 0.0, False, 0.0)
    elif borrow(world, "verbs")[DIAGNOSTICS] != 0:
        rows_for_diagnostics(world, cs)
    else:
        store_lane_impulses(cs, first, last)


@kernel
def _unpack(cs):
    rows_from_lanes(cs)
    cs.in_lanes[:] = False


@kernel
def _unpack32(cs):
    columns_from(cs, flat_lanes(cs).view(np.float32))
    cs.in_lanes[:] = False


def lanes_in_float32(world) -> bool:
    """Whether the lanes of ``world``'s rows hold float32 values, for Python: as its table of
    verbs says (the slot :data:`~.verbs.LANE_PREPARE`, filled at its last step), or, in a table
    not filled since a snapshot with other settings was restored (the slot :data:`~.verbs.LANES`
    empty), as the restored settings and bodies choose (:func:`lanes_pay`), those of the
    snapshot's last step."""
    table = world._verbs
    if table[LANES]:
        return bool(table[LANE_PREPARE])
    settings = world.settings
    return (settings.solver_precision == "float32" and settings.solver in F32_SOLVERS
            and lanes_pay(world))


def sync_constraint_rows(world) -> None:
    """:func:`~.world_ref.sync_constraints`, and every column of the rows filled where the last
    wide solve left it in the lanes only: for whatever reads the rows in Python beyond the
    impulses (the constraint rows, snapshots, the state hash)."""
    sync_constraints(world)
    cs = world._constraints
    if cs.in_lanes.any():
        (_unpack32 if lanes_in_float32(world) else _unpack)(cs)
