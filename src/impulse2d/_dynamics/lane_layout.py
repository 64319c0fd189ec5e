"""The layout of the wide contact solver's lanes (:mod:`.contact_lanes`), and the writes with
which :func:`.contact_solver.prepare_contacts` fills them.

The lanes (``cs.lanes``) are one flat buffer of :data:`FIELDS` doubles a row, cut into chunks of
:data:`CHUNK` rows, each chunk field by field: consecutive rows of one field are consecutive
doubles, and two fields of a row lie a multiple of the literal ``CHUNK`` apart, a distance the
compiler proves safe without a run-time overlap test (with a run-time stride, the row store's
``(c, 2)`` fields, it would need one per pair of fields: too many, it gives up). The buffer is
padded to whole chunks (:func:`lane_rows`), so that every chunk has that stride and each loop
exists in one variant only. Field offsets are module constants, so that an index is one
addition (index helpers inlined at every access cost 3.8 s of compile CPU, branch ``wide31``);
indices are unsigned, so that the compiler needs no negative-index test, another thing that
stops the vectoriser.

This module imports nothing of the engine: :mod:`.contact_solver` writes the lanes as it
prepares the rows, and :mod:`.contact_lanes`, which solves them, imports
:mod:`.contact_solver`.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from .._core.jit import inline_kernel
from .._core.lazy import JIT

CHUNK = 64
"""Rows a chunk of the lanes holds. 64: the rows of a small colour rarely cross a chunk
boundary, and a chunk (21 KB, 41 doubles a row) stays within the L1 cache."""


def _offsets(first, count):
    return tuple(np.uint64((first + k) * CHUNK) for k in range(count))


# Field offsets in a chunk (a field's rows are CHUNK doubles). Per row: the inverse masses
# (1/kg, 1/(kg m^2)), the normal, the friction coefficient, the soft coefficients (bias rate
# 1/s, mass and impulse scales), and whether the row has a second point (1.0) or not (0.0).
# Per point (point 1's fields POINT_STEP after point 0's): the anchors (m), the base separation
# (m), the effective masses (kg), the accumulated, peak and step-total impulses (N s), the normal
# row's bias (m/s) and the unclamped impulses (N s). What a pass only works with (the bodies'
# velocities, the points' current gaps) is not here: it lives in the pass's scratch chunk.
ROW_FIELDS = 11
POINT_FIELDS = 15
FIELDS = ROW_FIELDS + 2 * POINT_FIELDS
"""Doubles a row holds in the lanes."""
(M_A, I_A, M_B, I_B, NX, NY, FRICTION, RATE, MASS_SCALE, IMPULSE_SCALE,
 TWO) = _offsets(0, ROW_FIELDS)
(RAX, RAY, RBX, RBY, BASE, NMASS, TMASS, NIMP, TIMP, MAXN, TOTN, TOTT, BIAS, UNN,
 UNT) = _offsets(ROW_FIELDS, POINT_FIELDS)
POINT_STEP = np.uint64(POINT_FIELDS * CHUNK)
U_CHUNK = np.uint64(CHUNK)

# The scratch chunk of a pass (:func:`scratch_chunk`), laid out as a chunk of the lanes, a
# field's CHUNK rows consecutive, indexed by the row's place in its chunk: the two bodies'
# velocities (m/s, rad/s), gathered from the bodies before a piece of a colour is solved and
# scattered back after it, and the points' current gaps (m; point 1's GAP_STEP after point
# 0's), computed in the gather. Eight doubles a row that every pass writes and no pass keeps:
# in the rows' chunks they were written back to memory every pass (5.9 MB of lanes streamed
# from L3 on pyramid_100, BENCHMARKS.md 2026-11-28 late night); a scratch chunk of 4 KB on
# the pass's stack stays in L1.
SCRATCH_FIELDS = 8
(VAX, VAY, WA, VBX, VBY, WB, GAP) = _offsets(0, SCRATCH_FIELDS - 1)
GAP_STEP = U_CHUNK
SCRATCH_DOUBLES = SCRATCH_FIELDS * CHUNK


@intrinsic
def scratch_chunk(typingctx, lanes):
    """A pass's scratch chunk (:data:`SCRATCH_FIELDS` fields of :data:`CHUNK` rows) in the float
    type of ``lanes`` (float64 or float32: :func:`lane_float`): an array of
    :data:`SCRATCH_DOUBLES` values on the calling kernel's stack, an ``alloca`` in its entry
    block (once, whatever loop the call is in, and not zero-filled), aligned to a cache line, live until that kernel
    returns (so it must not outlive it). Stack memory needs no reference counting (the passes
    have none), each thread of a parallel pass has its own, and LLVM knows that it overlaps no
    other array (the vectorised loops need no run-time overlap test). Its contents start
    undefined."""
    array_type = types.Array(lanes.dtype, 1, "C")

    def codegen(context, builder, signature, args):
        # imported here, where a compile has imported it already: at the module's import it
        # brought Numba's array, string and hashing lowering (about 0.03 s of CPU) into every
        # warm process, which compiles nothing
        from numba.np.arrayobj import populate_array

        value = context.get_value_type(lanes.dtype)
        # a plain alloca in the entry block: ``cgutils.alloca_once`` also zero-fills what it
        # allocates there, a 4 KB memset on every call of a pass (BENCHMARKS.md, session 16,
        # ``rows41``), and every scratch value is written before a pass reads it
        with builder.goto_entry_block():
            block = builder.alloca(ir.ArrayType(value, SCRATCH_DOUBLES))
        block.align = 64
        data = builder.bitcast(block, ir.PointerType(value))
        array = context.make_array(array_type)(context, builder)
        intp = context.get_value_type(types.intp)
        itemsize = ir.Constant(intp, lanes.dtype.bitwidth // 8)
        populate_array(array, data=data, shape=[ir.Constant(intp, SCRATCH_DOUBLES)],
                       strides=[itemsize], itemsize=itemsize, meminfo=None)
        return array._getvalue()

    return array_type(lanes), codegen


@intrinsic
def flat(typingctx, column):
    """A C-contiguous array (the lanes; a column of the rows, the bodies or the contacts) as one
    flat run of its values, the same memory: a row's ``k`` values of a column at ``k q``. The
    row passes (:mod:`.contact_solver`) index these with literal strides and unsigned indices:
    a (c, 2, 2) column's inner shape is a run-time value to the compiler (one more live value,
    and a multiply, for each column a row loop reads) and a signed index gets a wrap-around
    select; so the passes read a row in fewer instructions, with the same arithmetic
    (``benchmarks/rows_passes.py``: the 10-body world's solve pass 0.85x, the warm start 0.72x
    of the 2-D indexing's cycles). Only the array's header is built, from the array's:
    ``ndarray.reshape`` calls Numba's reshape helper, ~150 cycles a call (BENCHMARKS.md,
    session 15, ``solve40``; :func:`flat_lanes`: ``benchmarks/rows_flat_lanes.py``)."""
    if not isinstance(column, types.Array) or column.layout != "C":
        return None
    flat_type = types.Array(column.dtype, 1, "C")

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import populate_array  # (here: see scratch_chunk)

        source = context.make_array(column)(context, builder, args[0])
        array = context.make_array(flat_type)(context, builder)
        populate_array(array, data=source.data, shape=[source.nitems],
                       strides=[source.itemsize], itemsize=source.itemsize,
                       meminfo=source.meminfo, parent=source.parent)
        return impl_ret_borrowed(context, builder, flat_type, array._getvalue())

    return flat_type(column), codegen


@intrinsic
def row_range(typingctx, column, lo, hi):
    """The rows ``lo:hi`` of a C-contiguous array (a store's column), the same memory, for
    ``0 <= lo <= hi <=`` its rows: ``column[lo:hi]`` without the slice's run-time checks. Only
    the array's header is built, as :func:`flat` builds it: Numba's slice of an array handles
    negative, reversed and stepped bounds in some 170 instructions of IR, and a store's 25
    slices (:func:`.contact_solver.rows_of`) were 4,200 instructions at each of its sites,
    1,300 with this (BENCHMARKS.md, session 27, ``warmC52``)."""
    if (not isinstance(column, types.Array) or column.layout != "C"
            or not isinstance(lo, types.Integer) or not isinstance(hi, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        from numba.core import cgutils
        from numba.np.arrayobj import populate_array  # (here: see scratch_chunk)

        source = context.make_array(column)(context, builder, args[0])
        start = context.cast(builder, args[1], lo, types.intp)
        stop = context.cast(builder, args[2], hi, types.intp)
        shape = cgutils.unpack_tuple(builder, source.shape)
        strides = cgutils.unpack_tuple(builder, source.strides)
        array = context.make_array(column)(context, builder)
        populate_array(array, data=cgutils.pointer_add(builder, source.data,
                                                       builder.mul(start, strides[0])),
                       shape=[builder.sub(stop, start)] + shape[1:], strides=strides,
                       itemsize=source.itemsize, meminfo=source.meminfo,
                       parent=source.parent)
        return impl_ret_borrowed(context, builder, column, array._getvalue())

    return column(column, lo, hi), codegen


@intrinsic
def lane_float(typingctx, lanes, value):
    """``value`` in the float type of ``lanes``: itself for float64 lanes, rounded to the nearest
    float32 for float32 ones (``WorldSettings.solver_precision``). The passes
    (:mod:`.contact_lanes`) are one source for both: every constant and argument of their
    arithmetic goes through this, so that a float32 row is computed in float32 throughout (a
    float64 literal would widen it), and a float64 row exactly as it was written for float64."""
    def codegen(context, builder, signature, args):
        return context.cast(builder, args[1], value, lanes.dtype)

    return lanes.dtype(lanes, value), codegen


@intrinsic
def scalar_index(typingctx, index):
    """``index`` itself, through an empty inline assembly block that the compiler cannot look
    into: a loop that loads by it is not vectorised. For the passes' loads of bodies by index
    (:func:`.contact_lanes._gather`), which LLVM otherwise vectorises as AVX-512 gathers
    (``vgatherqpd``, 8 indices a ``zmm``) on a Zen 4 machine, where those gathers made the
    passes of pyramid_100's float32 rows 1.04-1.15x slower than scalar loads
    (``benchmarks/lanes_gather.py``, BENCHMARKS.md, session 25, ``pyr50``). No instruction is
    emitted: the value stays in its register."""
    def codegen(context, builder, signature, args):
        opaque = ir.FunctionType(args[0].type, [args[0].type])
        return builder.asm(opaque, "", "=r,0", [args[0]], side_effect=False)

    return index(index), codegen


if not JIT:
    def scalar_index(index):  # noqa: F811  (plain Python)
        return index

    def scratch_chunk(lanes):  # noqa: F811  (plain Python: an array of its own)
        return np.empty(SCRATCH_DOUBLES, lanes.dtype)

    def lane_float(lanes, value):  # noqa: F811  (plain Python)
        return lanes.dtype.type(value)

    def flat(column):  # noqa: F811  (plain Python: a view)
        return column.reshape(-1)

    def row_range(column, lo, hi):  # noqa: F811  (plain Python: a view)
        return column[lo:hi]


def lane_rows(count):
    """Rows the lanes of ``count`` constraint rows take: whole chunks."""
    return (count + CHUNK - 1) // CHUNK * CHUNK


@inline_kernel
def lane_index(q):
    """The index of row ``q``'s first field in the flat lanes (the field at offset ``F`` is
    ``lanes[lane_index(q) + F]``)."""
    q = np.uint64(q)
    start = (q // U_CHUNK) * U_CHUNK
    return start * np.uint64(FIELDS) + (q - start)


@inline_kernel
def flat_lanes(cs):
    """The lanes as the one flat buffer every verb indexes (:func:`flat`: a header, not
    ``reshape``'s helper call)."""
    return flat(cs.lanes)


@inline_kernel
def write_lane_row(lanes, r, m_a, i_a, m_b, i_b, nx, ny, friction, rate, mass_scale,
                   impulse_scale, count):
    """A prepared row's own fields into the lanes at ``r`` (:func:`lane_index`)."""
    lanes[r + M_A] = m_a
    lanes[r + I_A] = i_a
    lanes[r + M_B] = m_b
    lanes[r + I_B] = i_b
    lanes[r + NX] = nx
    lanes[r + NY] = ny
    lanes[r + FRICTION] = friction
    lanes[r + RATE] = rate
    lanes[r + MASS_SCALE] = mass_scale
    lanes[r + IMPULSE_SCALE] = impulse_scale
    lanes[r + TWO] = 1.0 if count == 2 else 0.0


@inline_kernel
def write_lane_impulses(lanes, r, j, normal_impulse, tangent_impulse):
    """Point ``j``'s warm-start impulses (N s), and its peak and step-total impulses zeroed:
    what the passes read before they write it. Its bias and unclamped impulses are not written:
    every solver's first pass over the rows writes them for every kept point before anything
    reads them (a soft step's first pass is a biased one, which writes the bias; ``pgs`` writes
    it in every sweep; each solver runs at least one pass, the settings' bounds). Only for a
    kept point (:func:`point_kept`): a missing second point's are not written here; the passes
    write them with what they compute for it from its anchors (:func:`write_lane_point`), so
    they stay finite, and what reads a point back masks it
    (:func:`.contact_lanes.rows_from_lanes`). Measured: BENCHMARKS.md, 2026-11-29."""
    p = r + np.uint64(j) * POINT_STEP
    lanes[p + NIMP] = normal_impulse
    lanes[p + TIMP] = tangent_impulse
    lanes[p + MAXN] = 0.0
    lanes[p + TOTN] = 0.0
    lanes[p + TOTT] = 0.0


@inline_kernel
def point_kept(j, count):
    """Whether the passes keep what they compute for point ``j`` of a row of ``count`` points:
    the first point always, the second where the row has two (the passes' ``keep``)."""
    return j == 0 or count == 2


@inline_kernel
def write_lane_point(lanes, r, j, rax, ray, rbx, rby, base, normal_mass, tangent_mass):
    """Point ``j``'s anchors (m), base separation (m) and effective masses (kg). A missing
    second point's are left as they were: the solve computes that point from them (finite
    values of an earlier row, zeros in new lanes) and keeps nothing of it but its own lanes'
    impulses, which nothing reads back."""
    p = r + np.uint64(j) * POINT_STEP
    lanes[p + RAX] = rax
    lanes[p + RAY] = ray
    lanes[p + RBX] = rbx
    lanes[p + RBY] = rby
    lanes[p + BASE] = base
    lanes[p + NMASS] = normal_mass
    lanes[p + TMASS] = tangent_mass
