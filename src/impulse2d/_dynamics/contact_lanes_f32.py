"""The contact passes in single precision (``WorldSettings.solver_precision="float32"``).

Box2D v3 solves its contact rows in float32, 8 rows to an AVX2 register; :mod:`.contact_lanes`
solves them in float64, 4 to a register. Its warm start and solve are one source for both
(:func:`.contact_lanes._warm_start`, :func:`.contact_lanes._solve`, generic over the lanes' float
type: every constant and argument of the arithmetic in that type, :func:`.lane_layout.
lane_float`); this module instantiates them on float32 lanes, the same operations in the same
order per row, with every value the arithmetic touches a float32: twice the rows an instruction
and half the bytes a row. Measured on the EPYC machine (``benchmarks/lanes_f32.py``,
BENCHMARKS.md, session 13, ``lanes38``): a soft step's 12 passes at 0.43-0.64 of the float64
passes' CPU at the pyramids' sizes (4.9 MB of float64 lanes), 0.66-0.70 on ``rain_2000``,
0.67-0.81 in L1; the pyramids stand, their bodies as far from the float64 run's as a float64
run's with gravity one float32 ulp larger.

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
row) but not those of a float64 world. The float32 instance is compiled only when a world asks
for float32 (:data:`.step.LANES_F32_KERNEL`).
"""

from __future__ import annotations

import numpy as np

from .._core.jit import borrowing_kernel, entry_kernel, inline_kernel
from .contact_lanes import (LANE_LOAD, LANE_MODE, LANE_STORE, LANE_WARM_START, _solve,
                            _warm_start)
from .lane_layout import FIELDS, NIMP, POINT_STEP, U_CHUNK, flat_lanes
from .verbs import DIAGNOSTICS
from .world_ref import borrow

F = np.float32

WRITTEN = NIMP
"""The first of the point fields the passes write (:func:`store_rows`): the accumulated, peak
and total impulses, the bias and the unclamped impulses, :data:`WRITTEN_FIELDS` consecutive
fields from here (:mod:`.lane_layout`)."""
WRITTEN_FIELDS = 8


@inline_kernel
def float32_offset(cs):
    """Index of the float32 lanes' first float in the buffer viewed as float32: after the float64
    lanes of the store's rows (whole chunks), so half as many rows again hold them."""
    n = np.uint64(cs.count.shape[0])
    return (n + U_CHUNK - np.uint64(1)) // U_CHUNK * U_CHUNK * np.uint64(2 * FIELDS)


@borrowing_kernel
def warm_start_contacts32(cs, bodies, lanes, offset, first, last):
    """:func:`.contact_lanes.warm_start_contacts_wide` on the float32 lanes ``lanes[offset:]``
    (the same source: :func:`.contact_lanes._warm_start`)."""
    _warm_start(cs, bodies, lanes, offset, first, last)


@borrowing_kernel
def solve_contacts32(cs, bodies, lanes, offset, first, last, inv_h, use_bias, soft, baumgarte,
                     linear_slop, contact_speed, last_sweep, speed_cap):
    """:func:`.contact_lanes.solve_contacts_wide` on the float32 lanes ``lanes[offset:]`` (the
    same source, :func:`.contact_lanes._solve`: its float64 arguments rounded once)."""
    _solve(cs, bodies, lanes, offset, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
           contact_speed, last_sweep, speed_cap)


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
