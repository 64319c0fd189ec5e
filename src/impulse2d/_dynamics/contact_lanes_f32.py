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

**Where the float32 lanes live.** In the store's lanes buffer itself (``cs.lanes``, float64),
viewed as float32 (:func:`float32_view`): the same layout and indices
(:mod:`.lane_layout`), a row's 41 fields in half the bytes, so a float32 world's buffer is half
as large (:func:`.contact_lanes.lane_rows_for`; 2.45 MB on ``pyramid_100`` where float64's is
4.9). Everything that writes or reads them is this module's, compiled only for such a world:
the prepare (:func:`prepare_f32_entry`, the slot :data:`~.verbs.LANE_PREPARE`:
:func:`.contact_solver.prepare_rows`, computed in float64, each value rounded as it is stored,
a missing second point's lanes written as zeros), the passes, and what reads the lanes after
the solve (the verbs :data:`.contact_lanes.LANE_RESTITUTION`, :data:`.contact_lanes.LANE_FINISH`,
:data:`.contact_lanes.LANE_ROWS` of :func:`lanes_f32_entry`: restitution, computed in float64
from the widened lanes, the copy back of the kept impulses, every column for the diagnostics);
Python reads them through :func:`.contact_lanes.sync_constraint_rows`. The solvers ask
(:func:`.contact_lanes.float32_lanes`, a slot of the table: no call) and call these by address,
so that a float64 world compiles none of it. (Session 13's build rounded the float64 lanes into
a second, float32 region after every prepare and widened what the passes wrote back before
restitution: 6 % of a float32 ``pyramid_100`` step, and 1.5x float64's lanes' bytes.)

**Bodies stay float64**: the gather rounds the velocities and in-step displacements, the scatter
widens them back; integration, restitution and the rest of the step are float64. A float32
world's results are bit-identical for any thread count (the same colour runs, the same code per
row) but not those of a float64 world. The float32 instance is compiled only when a world asks
for float32 and is large enough for lanes (:data:`.step.LANES_F32_KERNEL`; a smaller one solves
row by row in float64, :func:`.contact_lanes.lanes_pay`).
"""

from __future__ import annotations

import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

from .._core.address import emit_prefetch
from .._core.jit import borrowing_kernel, entry_kernel, inline_kernel
from .._core.lazy import JIT
from .contact_lanes import (LANE_FINISH, LANE_MODE, LANE_RESTITUTION, LANE_ROWS,
                            LANE_WARM_START, _rows, _solve, _warm_start, columns_from,
                            impulses_from, restitution_lanes)
from .contact_solver import prepare_row
from .lane_layout import flat_lanes
from .verbs import DIAGNOSTICS
from .world_ref import borrow


@inline_kernel
def float32_view(cs):
    """The store's lanes as the one flat float32 buffer every float32 verb indexes (the float64
    buffer's bytes: :func:`.contact_lanes.lane_rows_for` gives it half the rows)."""
    return flat_lanes(cs).view(np.float32)


@borrowing_kernel
def warm_start_contacts32(cs, bodies, lanes, first, last):
    """:func:`.contact_lanes.warm_start_contacts_wide` on the float32 lanes ``lanes`` (the same
    source: :func:`.contact_lanes._warm_start`)."""
    _warm_start(cs, bodies, lanes, first, last)


@borrowing_kernel
def solve_contacts32(cs, bodies, lanes, first, last, inv_h, use_bias, soft, baumgarte,
                     linear_slop, contact_speed, last_sweep, speed_cap):
    """:func:`.contact_lanes.solve_contacts_wide` on the float32 lanes ``lanes`` (the same
    source, :func:`.contact_lanes._solve`: its float64 arguments rounded once)."""
    _solve(cs, bodies, lanes, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
           contact_speed, last_sweep, speed_cap)


AHEAD = 16
"""Rows ahead of the one it prepares whose contact the float32 prepare asks the cache for
(:func:`prepare_f32_entry`): at 8, 16 and 32 (all ten columns) the prepare read 0.86-0.87,
0.88 and 0.92 of its time with the caches flushed, the medians 0.74-0.81, 0.69, 0.76."""


@intrinsic
def _prefetch_row(typingctx, column, k):
    """Ask the CPU for the cache line of row ``k`` of ``column`` (a store's C-contiguous
    column): LLVM's ``prefetch``, a read, locality 3, a data line. A hint: nothing is read,
    and a line past the data is never faulted on."""
    if not isinstance(column, types.Array) or column.layout != "C":
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(column)(context, builder, args[0])
        stride = cgutils.unpack_tuple(builder, array.strides)[0]
        row = context.cast(builder, args[1], k, types.intp)
        data = builder.bitcast(array.data, cgutils.voidptr_t)
        emit_prefetch(builder, builder.gep(data, [builder.mul(row, stride)]), 3)
        return context.get_dummy_value()

    return types.none(column, k), codegen


if not JIT:
    def _prefetch_row(column, k):  # noqa: F811  (plain Python: no line to ask for)
        return None


@inline_kernel
def _ask_for_contact(contacts, k):
    """Prefetch the lines of contact ``k`` in the ten columns that the prepare of its row reads
    (:func:`.contact_solver.prepare_row`)."""
    _prefetch_row(contacts.point, k)
    _prefetch_row(contacts.normal, k)
    _prefetch_row(contacts.normal_impulse, k)
    _prefetch_row(contacts.tangent_impulse, k)
    _prefetch_row(contacts.separation, k)
    _prefetch_row(contacts.count, k)
    _prefetch_row(contacts.body_a, k)
    _prefetch_row(contacts.body_b, k)
    _prefetch_row(contacts.friction, k)
    _prefetch_row(contacts.restitution, k)


@entry_kernel
def prepare_f32_entry(world, order, first, warm_starting, rate, mass_scale, impulse_scale,
                      s_rate, s_mass_scale, s_impulse_scale):
    """:func:`.contact_solver.prepare_contacts` of the contacts ``order`` into the rows from
    ``first`` and their float32 lanes (:data:`~.verbs.LANE_PREPARE_SIGNATURE`), each row as
    :func:`.contact_solver.prepare_rows` writes it, the contact :data:`AHEAD` rows on asked
    for first (:func:`_ask_for_contact`). The rows go in the colours' order, so the contacts
    they read are every 7th or so of the store (the pyramids' 7 colours), each colour a sweep
    over its lines, which the hardware's prefetchers do not follow: on pyramid_100's rows with
    the caches flushed, the prepare took 0.86-0.93x its time with the prefetch (the minima of
    21-25 repetitions; BENCHMARKS.md, session 30, ``pyrS55``). Visited in the contacts' order
    instead (the float64 prepare's replay, :func:`.contact_solver.prepare_wide`), the float32
    prepare did not pay: 1.09-1.25x alone (session 26), the step 1.38x and 1.02x on
    pyramid_100 and many_pyramids (medians of paired rounds, session 30)."""
    cs = borrow(world, "constraints")
    rows = _rows(cs, first, first + order.shape[0])
    lanes = float32_view(cs)
    contacts = borrow(world, "contacts")
    bodies = borrow(world, "bodies")
    soft = (rate, mass_scale, impulse_scale)
    static = (s_rate, s_mass_scale, s_impulse_scale)
    n = order.shape[0]
    for q in range(n):
        if q + AHEAD < n:
            _ask_for_contact(contacts, order[q + AHEAD])
        prepare_row(rows, lanes, order, q, contacts, bodies, warm_starting, soft, static, first,
                    True)
    return 0.0


@entry_kernel
def lanes_f32_entry(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                    contact_speed, last_sweep, speed_cap):
    """:func:`.contact_lanes.lanes_entry`'s verbs in float32, its :data:`.contact_lanes.
    LANE_MODE` 2.0, and the readers of the float32 lanes after the solve (this module's
    docstring): :data:`.contact_lanes.LANE_RESTITUTION` (``inv_h``, ``baumgarte``,
    ``linear_slop``, ``contact_speed`` carry the threshold, gravity's x and y and the half kick:
    :func:`.contact_lanes.restitution`), :data:`.contact_lanes.LANE_FINISH` and
    :data:`.contact_lanes.LANE_ROWS`."""
    if verb == LANE_MODE:
        return 2.0
    cs = borrow(world, "constraints")
    lanes = float32_view(cs)
    if verb == LANE_ROWS or (verb == LANE_FINISH and borrow(world, "verbs")[DIAGNOSTICS] != 0):
        columns_from(cs, lanes)
        return 0.0
    if verb == LANE_FINISH:
        impulses_from(cs, lanes, first, last)
        return 0.0
    bodies = borrow(world, "bodies")
    if verb == LANE_RESTITUTION:
        restitution_lanes(cs, bodies, lanes, first, last, inv_h, speed_cap, baumgarte,
                          linear_slop, contact_speed)
    elif verb == LANE_WARM_START:
        warm_start_contacts32(cs, bodies, lanes, first, last)
    else:
        solve_contacts32(cs, bodies, lanes, first, last, inv_h, use_bias, soft, baumgarte,
                         linear_slop, contact_speed, last_sweep, speed_cap)
    return 0.0
