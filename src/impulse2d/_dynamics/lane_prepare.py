"""The contact prepare into the wide solver's lanes (:mod:`.lane_layout`), a chunk's piece at a
time, its arithmetic packed: :func:`.contact_solver.prepare_contacts` of a wide solve, and the
one-row helpers the row-by-row prepare shares with it.

A piece of a chunk (the rows of one chunk of the lanes that a call prepares) goes in two loops.
The gather reads each row's contact and bodies (indirect, scalar: the contact store in the
solve order, the bodies by index), writes the row's own columns (the contact, bodies, point
count, flag, restitution), and puts what the arithmetic reads into a float64 scratch chunk on
the stack (:func:`.lane_layout.prepare_chunk`), laid out as a chunk: a field's rows
consecutive. The second loop computes the rows' anchors, base separations, effective masses
and approach speeds from the scratch chunk and stores them and the rows' own fields into the
lanes: both loops' memory is a field's consecutive rows, and nothing in the second is a branch
or a store under a condition, so LLVM packs it, four rows to a ``ymm`` register (float64; a
float32 view's values are computed in float64 and rounded four at a time as they are stored).
Why: the prepare was one scalar loop that did both, each row's ~40 stores going to 40
different lines of the lanes, and on ``many_pyramids`` (14,500 rows) it was about 1.1 ms of
instructions, 200-250 cycles a row, ~19 % of the step (BENCHMARKS.md, session 19, ``big44``).

**Bits.** Each value is computed by the operations of the row-by-row prepare, in the same
order (:func:`point_rows`, :func:`approach_speed`: one source for both), so the lanes hold the
bits the row-by-row prepare gives the rows (``tests/test_contact_lanes.py``). A missing second
point's lanes are written as zeros, its anchors and masses and its impulses, in float64 lanes
as in float32 ones (a float32 view of lanes that held float64 values could read NaNs or
denormals there, which the passes would compute on and drop, the denormals slowly): the passes
compute that point from them and keep nothing of it but its own lanes' impulses, which nothing
reads back (:func:`.contact_lanes.rows_from_lanes` masks it). A kept point's bias and
unclamped impulses are not written: every solver's first pass over the rows writes them for
every kept point before anything reads them (a soft step's first pass is a biased one, which
writes the bias; ``pgs`` writes it in every sweep; each solver runs at least one pass, the
settings' bounds).
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel
from .._core.state import DYNAMIC
from .lane_layout import (APPROACH, BASE, CAX, CAY, CBX, CBY, FIELDS, FRICTION, I_A, I_B,
                          IMPULSE_SCALE, M_A, M_B, MASS_SCALE, MAXN, NIMP, NMASS, NX, NY,
                          PNIMP, POINT_STEP, PREPARE_STEP, PTIMP, PVAX, PVAY, PVBX, PVBY, PWA,
                          PWB, PX, PY, RATE, RAX, RAY, RBX, RBY, SEPARATION, TIMP, TMASS, TOTN,
                          TOTT, TWO, U_CHUNK, lane_float, prepare_chunk, select)


@inline_kernel
def row_softness(bodies, a, b, soft_bias_rate, soft_mass_scale, soft_impulse_scale,
                 static_bias_rate, static_mass_scale, static_impulse_scale):
    """The soft coefficients ``(bias rate 1/s, mass scale, impulse scale)`` of a row of bodies
    ``a`` and ``b``: the stiffer ``static_*`` ones when one of them is not dynamic
    (:func:`.contact_solver.prepare_contacts`)."""
    if bodies.type[a] != DYNAMIC or bodies.type[b] != DYNAMIC:
        return static_bias_rate, static_mass_scale, static_impulse_scale
    return soft_bias_rate, soft_mass_scale, soft_impulse_scale


@inline_kernel
def point_rows(m_a, i_a, m_b, i_b, nx, ny, px, py, separation, cax, cay, cbx, cby):
    """A manifold point's rows: ``(rax, ray, rbx, rby, base, normal_mass, tangent_mass)``, its
    anchors from the centres of mass (m), its base separation (m: :mod:`.contact_solver`) and
    the effective masses (kg) of its normal and tangent rows, for the point ``(px, py)`` of
    ``separation`` on the normal ``(nx, ny)`` between bodies of inverse masses ``m_a``, ``m_b``
    and inverse inertias ``i_a``, ``i_b`` centred at ``(cax, cay)`` and ``(cbx, cby)``."""
    tx = ny
    ty = -nx
    rax = px - cax
    ray = py - cay
    rbx = px - cbx
    rby = py - cby
    base = separation - ((rbx - rax) * nx + (rby - ray) * ny)
    rn_a = rax * ny - ray * nx
    rn_b = rbx * ny - rby * nx
    k_normal = m_a + m_b + i_a * rn_a * rn_a + i_b * rn_b * rn_b
    normal_mass = 1.0 / k_normal if k_normal > 0.0 else 0.0
    rt_a = rax * ty - ray * tx
    rt_b = rbx * ty - rby * tx
    k_tangent = m_a + m_b + i_a * rt_a * rt_a + i_b * rt_b * rt_b
    tangent_mass = 1.0 / k_tangent if k_tangent > 0.0 else 0.0
    return rax, ray, rbx, rby, base, normal_mass, tangent_mass


@inline_kernel
def approach_speed(vax, vay, wa, vbx, vby, wb, rax, ray, rbx, rby, nx, ny):
    """The relative velocity of a point's anchors along the normal before the solve (m/s;
    negative: approaching), what restitution compares."""
    dvx = vbx - wb * rby - vax + wa * ray
    dvy = vby + wb * rbx - vay - wa * rax
    return dvx * nx + dvy * ny


@inline_kernel
def _gather(cs, scratch, order, contacts, bodies, warm_starting, softness, lo, start, i0, i1):
    """The rows ``i0:i1`` of the chunk whose first row is ``start`` (the rows of ``cs`` from
    its row ``lo``): their own columns, and what their arithmetic reads into ``scratch``
    (:data:`.lane_layout.CAX` and after; a missing point's as zeros, so that no stale stack
    value enters the arithmetic)."""
    center = bodies.center
    v = bodies.v
    w = bodies.w
    for i in range(i0, i1):
        q = start + i - lo
        k = order[q]
        count = contacts.count[k]
        a = contacts.body_a[k]
        b = contacts.body_b[k]
        cs.contact[q] = k
        cs.body_a[q] = a
        cs.body_b[q] = b
        cs.count[q] = count
        cs.in_lanes[q] = True
        cs.restitution[q] = contacts.restitution[k]
        rate, mass_scale, impulse_scale = row_softness(bodies, a, b, softness[0], softness[1],
                                                       softness[2], softness[3], softness[4],
                                                       softness[5])
        scratch[i + M_A] = bodies.inv_mass[a]
        scratch[i + I_A] = bodies.inv_inertia[a]
        scratch[i + M_B] = bodies.inv_mass[b]
        scratch[i + I_B] = bodies.inv_inertia[b]
        scratch[i + NX] = contacts.normal[k, 0]
        scratch[i + NY] = contacts.normal[k, 1]
        scratch[i + FRICTION] = contacts.friction[k]
        scratch[i + RATE] = rate
        scratch[i + MASS_SCALE] = mass_scale
        scratch[i + IMPULSE_SCALE] = impulse_scale
        scratch[i + TWO] = 1.0 if count == 2 else 0.0
        scratch[i + CAX] = center[a, 0]
        scratch[i + CAY] = center[a, 1]
        scratch[i + CBX] = center[b, 0]
        scratch[i + CBY] = center[b, 1]
        scratch[i + PVAX] = v[a, 0]
        scratch[i + PVAY] = v[a, 1]
        scratch[i + PWA] = w[a]
        scratch[i + PVBX] = v[b, 0]
        scratch[i + PVBY] = v[b, 1]
        scratch[i + PWB] = w[b]
        for j in range(2):
            o = i + np.uint64(j) * PREPARE_STEP
            kept = j < count
            warm = warm_starting and kept
            scratch[o + PX] = contacts.point[k, j, 0] if kept else 0.0
            scratch[o + PY] = contacts.point[k, j, 1] if kept else 0.0
            scratch[o + SEPARATION] = contacts.separation[k, j] if kept else 0.0
            scratch[o + PNIMP] = contacts.normal_impulse[k, j] if warm else 0.0
            scratch[o + PTIMP] = contacts.tangent_impulse[k, j] if warm else 0.0


@inline_kernel
def _packed(lanes, scratch, base, i0, i1):
    """The rows ``i0:i1`` of the chunk whose first value in the lanes is ``base``, from
    ``scratch``: every store unconditional (a missing point's a :func:`.lane_layout.select`
    of zeros: a conditional expression let LLVM sink the point's loads into its arm, where
    the vectoriser made them masked loads), so that the
    loop is packed (the module's docstring)."""
    zero = lane_float(lanes, 0.0)
    for i in range(i0, i1):
        r = base + i
        m_a = scratch[i + M_A]
        i_a = scratch[i + I_A]
        m_b = scratch[i + M_B]
        i_b = scratch[i + I_B]
        nx = scratch[i + NX]
        ny = scratch[i + NY]
        two = scratch[i + TWO]
        lanes[r + M_A] = lane_float(lanes, m_a)
        lanes[r + I_A] = lane_float(lanes, i_a)
        lanes[r + M_B] = lane_float(lanes, m_b)
        lanes[r + I_B] = lane_float(lanes, i_b)
        lanes[r + NX] = lane_float(lanes, nx)
        lanes[r + NY] = lane_float(lanes, ny)
        lanes[r + FRICTION] = lane_float(lanes, scratch[i + FRICTION])
        lanes[r + RATE] = lane_float(lanes, scratch[i + RATE])
        lanes[r + MASS_SCALE] = lane_float(lanes, scratch[i + MASS_SCALE])
        lanes[r + IMPULSE_SCALE] = lane_float(lanes, scratch[i + IMPULSE_SCALE])
        lanes[r + TWO] = lane_float(lanes, two)
        cax = scratch[i + CAX]
        cay = scratch[i + CAY]
        cbx = scratch[i + CBX]
        cby = scratch[i + CBY]
        for j in range(2):
            keep = j == 0 or two != 0.0
            o = i + np.uint64(j) * PREPARE_STEP
            p = r + np.uint64(j) * POINT_STEP
            rax, ray, rbx, rby, base_separation, normal_mass, tangent_mass = point_rows(
                m_a, i_a, m_b, i_b, nx, ny, scratch[o + PX], scratch[o + PY],
                scratch[o + SEPARATION], cax, cay, cbx, cby)
            lanes[p + RAX] = select(keep, lane_float(lanes, rax), zero)
            lanes[p + RAY] = select(keep, lane_float(lanes, ray), zero)
            lanes[p + RBX] = select(keep, lane_float(lanes, rbx), zero)
            lanes[p + RBY] = select(keep, lane_float(lanes, rby), zero)
            lanes[p + BASE] = select(keep, lane_float(lanes, base_separation), zero)
            lanes[p + NMASS] = select(keep, lane_float(lanes, normal_mass), zero)
            lanes[p + TMASS] = select(keep, lane_float(lanes, tangent_mass), zero)
            lanes[p + NIMP] = lane_float(lanes, scratch[o + PNIMP])
            lanes[p + TIMP] = lane_float(lanes, scratch[o + PTIMP])
            lanes[p + MAXN] = zero
            lanes[p + TOTN] = zero
            lanes[p + TOTT] = zero
            scratch[o + APPROACH] = approach_speed(
                scratch[i + PVAX], scratch[i + PVAY], scratch[i + PWA], scratch[i + PVBX],
                scratch[i + PVBY], scratch[i + PWB], rax, ray, rbx, rby, nx, ny)


@borrowing_kernel
def prepare_in_lanes(cs, lanes, order, contacts, bodies, warm_starting, softness, first):
    """:func:`.contact_solver.prepare_contacts` of the contacts ``order`` into the rows ``cs``
    (the rows from ``first``) and the lanes ``lanes`` (the store's own, float64, or their
    float32 view) from the lane row ``first``, a chunk's piece at a time (the module's
    docstring). ``softness``: the six soft coefficients of :func:`row_softness`.

    A call, not inlined: inlined into :func:`.contact_solver.prepare_rows`, its scratch chunk
    (17 KB on the stack) and its loops made the row-by-row prepare beside it 1.3-1.6x slower
    (``benchmarks/big_prepare_ab.py``, session 20); the call costs once per prepare, or per
    piece of the threads' prepare."""
    scratch = prepare_chunk()
    lo = np.uint64(first)
    hi = lo + np.uint64(order.shape[0])
    g = lo
    while g < hi:
        start = (g // U_CHUNK) * U_CHUNK
        end = min(start + U_CHUNK, hi)
        i0 = g - start
        i1 = end - start
        _gather(cs, scratch, order, contacts, bodies, warm_starting, softness, lo, start, i0,
                i1)
        _packed(lanes, scratch, start * np.uint64(FIELDS), i0, i1)
        for i in range(i0, i1):
            q = start + i - lo
            for j in range(cs.count[q]):
                cs.relative_velocity[q, j] = scratch[i + np.uint64(j) * PREPARE_STEP + APPROACH]
        g = end
