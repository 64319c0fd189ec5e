"""The step of many worlds in one call: the compiled side of :mod:`impulse2d.batch`.

:func:`step_batch` runs :func:`.step.step_kernel`, the one-world step, over a list of worlds'
references (:mod:`.world_ref`), each with its own arguments: a row of :data:`ARGUMENTS` (the
rest of what a step reads is in the world's step row, :data:`.step.STEP_ROW`, as for a world
alone). It
releases Python's global lock, so :class:`~impulse2d.WorldBatch` calls it from several Python
threads at once, which share the worlds out among themselves as they go (one call per thread
and batch step; see :func:`step_batch`). A world's step inside is exactly the
one ``World.step`` makes (same kernel, same arguments, and each world's step serial), so its
bits do not depend on the batch, its neighbours or the threads.

The Python around it (:mod:`impulse2d._batch_ready`) is :func:`.._stepping.step_world`'s, less
what a batch step can leave for later: the new contact store of a world stays in its reference
until Python reads it (``World._contacts``; boxing one costs about 40 us). Worlds whose step
needs Python in the middle (callbacks, events, diagnostics, the ``direct`` solver's LAPACK)
are not given to the kernel: the batch steps them with ``World.step``.

The dense views and writes of a batch of copies are kernels over the same references: one
call for every world, where a loop in Python would pay a few microseconds a world.
"""

from __future__ import annotations

from time import perf_counter

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, imputils, types
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.extending import intrinsic
from numba.typed.listobject import _container_get_data, ll_list_type, ll_voidptr_type

from .._core.address import emit_prefetch
from .._core.jit import (DirectCall, borrowing_kernel, cycles, gil_free_kernel, inline_kernel,
                         inner_kernel)
from .._core.state import DYNAMIC, STATIC, Bodies, Shapes
from .._sleep import awake_changed, wake_touching
from . import batch_crew as _crew
from .atomics import fetch_add, fetch_max, fetch_or, load_acquire, spin_pause
from .._batch_worlds import NO_INDEX
from ..constants import MAX_VELOCITY  # (1e30, the public bound on a body velocity)
from .step import NEW_CONSTRAINTS, NEW_CONTACTS, WHOLE, WOKE, step_kernel
from .world_ref import WORLD_STORES, WorldStoresType, borrow, borrow_column

# One row of float64 per world: the step kernel's scalar argument, dt (see step_kernel). (The
# settings, gravity, the flags and the sleepers are not here: the step reads each world's own
# step row in its reference, step.STEP_ROW, which Python writes as for a world alone.)
DT = 0
ARGUMENTS = 1

WRITES = ARGUMENTS
"""First column of a world's writes in a row of arguments wider than :data:`ARGUMENTS`
(:func:`write_world`): 3 per template body (an impulse), then one per template joint (a motor
speed) and one more per template joint (a motor limit)."""

# One row per world of what the kernel returns: STATUS, the step's status bits (step_kernel's,
# exact in float64). UNWRITTEN: 1 when the world's writes (step_batch's impulses) would wake an
# island, so the kernel neither wrote nor stepped it (Python does both: impulse2d._batch_writes);
# its status is then not written. BODY_ROWS, SHAPE_ROWS: the body and shape rows in use after
# the world's last step in the kernel (1 + its last live row; 0 before its first), which the
# next batch step's prefetch of the world reads (prefetch_world); VERTICES: the most vertices
# of a live shape of the world after that step (0 before its first), which that prefetch
# reads too (only the lines of a shape row's vertices and normals in use).
STATUS, UNWRITTEN, BODY_ROWS, SHAPE_ROWS, VERTICES = range(5)
RESULTS = 5

# The batch's clocks (step_batch's ``clocks``: a tuple of these arrays, one entry a world but
# the tally's; empty arrays: no clocks), each world's advanced by the thread that stepped it,
# right after its step (clock_world): TIMES (float64, s), STEPS (int64), QUERY_KIND (int8,
# impulse2d._batch_worlds' kinds), STALE_SET (bool, (2, n)) and FLAGS_DIRTY (bool), the rows
# of impulse2d._batch_ready.ReadyState of those names; NEW (int64, (2, n)): the worlds whose
# step set a stale flag (row 0 the constraints', row 1 the contacts'), TALLY's counts of each
# row first; TALLY (int64, TALLIES words, zeroed by Python before a batch step): the union
# of the stepped worlds' status bits (BITS), the worlds left unwritten (UNWRITTEN_WORLDS),
# then NEW's two counts (NEW_WORLDS, NEW_WORLDS + 1).
TIMES, STEPS, QUERY_KIND, STALE_SET, FLAGS_DIRTY, NEW, TALLY = range(7)
BITS, UNWRITTEN_WORLDS, NEW_WORLDS = 0, 1, 2
TALLIES = 4

BATCH_SECONDS = 6.0
"""Compile time of :func:`step_batch` with an empty cache (it links the step kernel's code
again), on the 2-core CI machine, for the first-run notice."""


LINE = 64
"""Bytes of a cache line (x86-64 and most ARM cores)."""


@intrinsic
def _prefetch_line(typingctx, address):
    """Ask the CPU to bring the cache line at ``address`` (int64, bytes) into its L2: LLVM's
    ``prefetch``, a read, locality 2, a data line. A hint only: nothing is read, and an
    address past the data is never faulted on."""
    def codegen(context, builder, signature, args):
        emit_prefetch(builder, builder.inttoptr(args[0], cgutils.voidptr_t), 2)
        return context.get_dummy_value()

    return types.none(types.int64), codegen


def _item_pointer(context, builder, list_type, refs, j):
    """A pointer to ``refs[j]``'s slot in the typed list's buffer (Numba's
    ``numba_list_base_ptr``, as its own ``getitem``; no bounds check: the batch's ``which``)."""
    fn = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(ll_voidptr_type, [ll_list_type]), "numba_list_base_ptr")
    base = builder.call(fn, [_container_get_data(context, builder, list_type, refs)])
    return cgutils.gep(builder, builder.bitcast(
        base, context.get_data_type(list_type.item_type).as_pointer()), j)


def _is_refs(refs) -> bool:
    return isinstance(refs, types.ListType) and isinstance(refs.item_type, WorldStoresType)


@intrinsic
def _reference_head(typingctx, refs, j):
    """The address of ``refs[j]``'s MemInfo (``refs`` a typed list of references): the first
    byte of the reference's one allocation, its header (reference count, data pointer, size)
    and then its payload, the stores' array descriptors (NRT's ``meminfo_alloc_dtor``). Read
    from the list's buffer without taking the reference: ``refs[j]`` counts a reference in
    that header, a locked write that waits for the line when it is not in the cache."""
    if not _is_refs(refs):
        return None

    def codegen(context, builder, signature, args):
        list_type = signature.args[0]
        item = context.data_model_manager[list_type.item_type].load_from_data_pointer(
            builder, _item_pointer(context, builder, list_type, args[0], args[1]))
        meminfo = cgutils.create_struct_proxy(list_type.item_type)(
            context, builder, value=item).meminfo
        return builder.ptrtoint(meminfo, ir.IntType(64))

    return types.int64(refs, types.int64), codegen


@intrinsic
def _world_at(typingctx, refs, j):
    """``refs[j]`` (``refs`` a typed list of references), read from the list's buffer: one
    reference counted on the world's header where the kernel counts them (none in a borrowing
    kernel), where Numba's ``getitem`` also counts two on the list's own MemInfo and takes
    them back. That MemInfo is one line for the whole batch, which every thread of a batch
    step wrote eight times a world-step (two reads of the list, ``benchmarks/batch_refcounts.py``):
    at two threads a line passed between the cores."""
    if not _is_refs(refs):
        return None

    def codegen(context, builder, signature, args):
        list_type = signature.args[0]
        item = context.data_model_manager[list_type.item_type].load_from_data_pointer(
            builder, _item_pointer(context, builder, list_type, args[0], args[1]))
        return imputils.impl_ret_borrowed(context, builder, list_type.item_type, item)

    return refs.item_type(refs, types.int64), codegen


@intrinsic
def _reference_end(typingctx, head):
    """The end (address) of the payload of the reference whose MemInfo is at ``head``."""
    def codegen(context, builder, signature, args):
        header = builder.inttoptr(args[0], _meminfo_struct_type.as_pointer())
        data = builder.ptrtoint(builder.load(cgutils.gep(builder, header, 0, 3)),
                                ir.IntType(64))
        return builder.add(data, builder.load(cgutils.gep(builder, header, 0, 4)))

    return types.int64(types.int64), codegen


@intrinsic
def _descriptors_span(typingctx, head, name):
    """``(first, end)``: the addresses of the descriptors of the reference's field ``name`` (a
    store) in the payload of the reference whose MemInfo is at ``head``: where the field
    begins and the next one does."""
    if not isinstance(name, types.StringLiteral):
        return None
    fields = list(WORLD_STORES.field_dict)
    following = fields[fields.index(name.literal_value) + 1]

    def codegen(context, builder, signature, args):
        header = builder.inttoptr(args[0], _meminfo_struct_type.as_pointer())
        data = builder.load(cgutils.gep(builder, header, 0, 3))
        payload_type = WORLD_STORES.get_data_type()
        value_type = context.data_model_manager[payload_type].get_value_type()
        payload = cgutils.create_struct_proxy(payload_type)(
            context, builder, ref=builder.bitcast(data, value_type.as_pointer()))
        i64 = ir.IntType(64)
        return context.make_tuple(builder, signature.return_type, (
            builder.ptrtoint(payload._get_ptr_by_name(name.literal_value), i64),
            builder.ptrtoint(payload._get_ptr_by_name(following), i64)))

    return types.UniTuple(types.int64, 2)(types.int64, name), codegen


@borrowing_kernel
def prefetch_reference(head):
    """Prefetch the lines of the reference whose MemInfo is at ``head`` (its header, read to
    find the payload, then the payload: ~170 array descriptors, about 12 KB, which every
    kernel of the step reads to find its arrays), but those wholly inside the joint store's
    60 descriptors (56 lines), which a world without joints never reads
    (:func:`prefetch_world` asks for them for a world with joints)."""
    first, end = _descriptors_span(head, "joints")
    for address in range(head - head % LINE, _reference_end(head), LINE):
        if address < first or address + LINE > end:
            _prefetch_line(address)


UNREAD = {Bodies: ("generation", "mass", "inertia", "fixed_rotation"),
          Shapes: ("generation", "density", "sensor_events", "ghost")}
"""Columns of the body and shape stores that no stage of a world's step reads, left out of
its prefetch: their names appear nowhere in ``_dynamics/`` and ``_collision/`` (the step
reads a body's inverse mass and inertia, not these), but for the shapes' ``ghost``, which
only a chain segment's narrowphase reads (a world of chains finds it out of the cache)."""

BY_VERTEX = {Shapes: ("vertices", "normals")}
"""Columns of a store whose rows the step reads only as far as the shape's vertex count (8
vertices of 16 bytes a row, 128 bytes: two lines, of which a circle's or a box's step reads
the first), prefetched apart: 22 of a 10-body world's ~440 lines."""

NOT_PREFETCHED = ("joints", "diagnostics", "scratch", "scratch_f")
"""Fields of a reference whose arrays :func:`prefetch_world` leaves out: the joint store (60
arrays, of which a world of few joints barely reads a line each; their descriptors are asked
for where the joint lists hold rows), the solver's record (empty while the diagnostics are off,
and a world with them on is stepped by ``World.step``), the world's own scratch (it steps in
the batch kernel's: :func:`step_batch`)."""

# What prefetch_world asks for of an array (the KIND column of prefetch_table): every row; the
# first `body_rows` or `shape_rows` (all if 0); of those shape rows, the first `vertices`
# vertices (16 bytes each; the whole rows if 0); every row, and the world has joints if any.
EVERY_ROW, BODY_ROW, SHAPE_ROW, VERTEX_ROW, JOINT_LIST = range(5)

# Columns of prefetch_table: the byte offsets in a reference's payload of an array's data
# pointer, its first dimension's length and its first stride (each one word of its descriptor),
# and its KIND.
DATA, LENGTH, STRIDE, KIND = range(4)


def _arrays(t):
    """The array types in ``t`` (an array, or a tuple of them, nested), in their layout's
    order."""
    if isinstance(t, types.Array):
        return [t]
    if isinstance(t, types.BaseTuple):
        return [a for item in t.types for a in _arrays(item)]
    raise TypeError(f"a reference's field holds {t}, not arrays: prefetch_table knows arrays")


def _payload_layout():
    """Every array of a reference's payload, in its layout's order, as ``(field, column,
    offsets)``: its store's field, its column's name (None outside a named store) and the byte
    offsets in the payload of its descriptor's data pointer, first length and first stride
    (:data:`DATA`, :data:`LENGTH`, :data:`STRIDE`); and the payload's size in bytes. A Numba
    array's descriptor is ``5 + 2 ndim`` words (its MemInfo, parent, item count, item size,
    data, then its shape and strides), and a tuple's are its items' one after the other: every
    word 8 bytes, so no padding (the compiled side checks the size against the data model's).
    The one reading of the layout that :func:`prefetch_table` and :func:`joint_columns_table`
    share."""
    layout = []
    words = 0
    for field, t in WORLD_STORES.field_dict.items():
        names = t.fields if isinstance(t, types.BaseNamedTuple) else ()
        for k, array in enumerate(_arrays(t)):
            column = names[k] if k < len(names) else None
            layout.append((field, column,
                           (8 * (words + 4), 8 * (words + 5), 8 * (words + 5 + array.ndim))))
            words += 5 + 2 * array.ndim
    return layout, 8 * words


def prefetch_table():
    """The arrays of a reference that :func:`prefetch_world` asks for, one row each (int64:
    :data:`DATA`, :data:`LENGTH`, :data:`STRIDE`, :data:`KIND`), grouped by kind in the
    kinds' order (:data:`KIND_ENDS`), in the payload's order within a kind, and the payload's
    size in bytes (:func:`_payload_layout`)."""
    layout, size = _payload_layout()
    rows = []
    for field, column, offsets in layout:
        kind = EVERY_ROW
        if field == "bodies":
            kind = None if column in UNREAD[Bodies] else BODY_ROW
        elif field == "shapes":
            kind = (None if column in UNREAD[Shapes] else
                    VERTEX_ROW if column in BY_VERTEX[Shapes] else SHAPE_ROW)
        elif field == "joint_ids":
            kind = JOINT_LIST
        if field not in NOT_PREFETCHED and kind is not None:
            rows.append(offsets + (kind,))
    rows.sort(key=lambda row: row[KIND])  # (stable: the payload's order within a kind)
    return np.array(rows, dtype=np.int64).reshape(-1, 4), size


KIND_ENDS = tuple(int(end) for end in np.searchsorted(
    prefetch_table()[0][:, KIND], np.arange(JOINT_LIST + 1), side="right"))
"""The end of each kind's rows in :func:`prefetch_table` (:data:`EVERY_ROW` first): constants
of :func:`prefetch_world`'s loops, one a kind."""

ALL_ROWS = 1 << 62
"""A bound on an array's rows above any length (:func:`prefetch_world`: every row)."""

JOINT_COLUMNS = ("alive", "body_a", "body_b", "local_anchor_a", "local_anchor_b",
                 "reference_angle", "enable_limit", "lower", "upper", "enable_motor",
                 "motor_speed", "max_motor", "enable_spring", "hertz", "damping_ratio",
                 "linear_impulse", "spring_impulse", "motor_impulse", "lower_impulse",
                 "upper_impulse", "frame_a", "frame_b", "delta_center", "delta_angle",
                 "axial_mass", "spring_soft", "turn_kept")
"""The joint store's columns that a step of revolute joints reads (27 of its 60: the
revolute passes, ``joints/revolute.py``, ``rows.py``, ``jacobian_rows.py``; the islands'
``alive``, ``body_a``, ``body_b`` and the motors' wake test), each a line of its own in a
store of few joints (a column a line: 4 rows of 8 bytes, 2 joints for the native
LunarLander): the lines :func:`prefetch_joints` asks for, and the descriptors
:func:`prefetch_world` asks for of the joint store. Recorded, not guessed: every column a
native LunarLander's step reads is here (``benchmarks/lander_lines.py``, the step's arrays
recorded without the JIT; ``tests/test_batch_prefetch.py``). The prismatic and wheel joints'
own columns (axis, spring) and the other joint types' are not: a world of those finds them
out of the cache, as every world did before."""


JOINT_ROWS = 16
"""The most rows of each of :data:`JOINT_COLUMNS` that :func:`prefetch_joints` asks for: a
world of many joints reads its columns in order, which the core's stream prefetcher follows,
and some 27 columns of more rows than these (~80 lines at most) would evict what its step
reads first."""


def joint_columns_table():
    """The :data:`JOINT_COLUMNS`' rows (int64: :data:`DATA`, :data:`LENGTH`, :data:`STRIDE`,
    the byte offsets of those words of each column's descriptor in a reference's payload), in
    the store's order (:func:`_payload_layout`)."""
    rows = [offsets for field, column, offsets in _payload_layout()[0]
            if field == "joints" and column in JOINT_COLUMNS]
    if len(rows) != len(JOINT_COLUMNS):
        raise ValueError("JOINT_COLUMNS names a column the joint store does not have")
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


@intrinsic
def _prefetch_table(typingctx, refs):
    """:func:`prefetch_table`'s rows for ``refs``' references, a constant array in the
    compiled code (none of it is computed at run time)."""
    if not _is_refs(refs):
        return None
    table, size = prefetch_table()
    table_type = types.Array(types.int64, 2, "C", readonly=True)

    def codegen(context, builder, signature, args):
        payload = context.get_data_type(refs.item_type.get_data_type())
        if context.get_abi_sizeof(payload) != size:
            raise TypeError("prefetch_table: the reference's payload is not laid out as its "
                            "fields' descriptors one after the other")
        return context.make_constant_array(builder, table_type, table)

    return table_type(refs), codegen


@intrinsic
def _joint_columns_table(typingctx, refs):
    """:func:`joint_columns_table`'s rows, a constant array in the compiled code."""
    if not _is_refs(refs):
        return None
    table = joint_columns_table()
    table_type = types.Array(types.int64, 2, "C", readonly=True)

    def codegen(context, builder, signature, args):
        return context.make_constant_array(builder, table_type, table)

    return table_type(refs), codegen


@intrinsic
def _payload_address(typingctx, head):
    """The address of the payload of the reference whose MemInfo is at ``head``."""
    def codegen(context, builder, signature, args):
        header = builder.inttoptr(args[0], _meminfo_struct_type.as_pointer())
        return builder.ptrtoint(builder.load(cgutils.gep(builder, header, 0, 3)),
                                ir.IntType(64))

    return types.int64(types.int64), codegen


@intrinsic
def _word(typingctx, address):
    """The int64 at ``address``."""
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        return builder.load(builder.inttoptr(args[0], i64.as_pointer()))

    return types.int64(types.int64), codegen


@borrowing_kernel
def prefetch_world(refs, j, body_rows, shape_rows, vertices):
    """Prefetch the arrays the step of world ``refs[j]`` reads: the stores (bodies and shapes
    but their :data:`UNREAD` columns, over their first ``body_rows`` and ``shape_rows`` rows,
    all if 0, and of the shapes' :data:`BY_VERTEX` columns the first ``vertices`` vertices of
    a row, all if 0; contacts and constraint rows; not the joints' arrays, only the
    descriptors of their :data:`JOINT_COLUMNS` where the joint lists hold some, which
    :func:`prefetch_joints` reads a world later to ask for those columns), the joint lists,
    the awake sets, the kept grids, the step row, clock, verbs and lengths. (Of the world's
    entry in the list only its MemInfo's address is read: this kernel counts no
    reference.)

    A batch of many small worlds does not fit in the caches (1,024 10-body worlds: 23 KB of
    store rows each in 152 separate arrays, and some 30 small arrays), so each world's step
    starts by missing on some 400 lines, one or two per array, a handful at a time; a small
    array read once in a stage is a miss that nothing else overlaps. Asked for while the
    previous world is being stepped, they arrive in the background; but no faster than the
    memory's rate, so the lines no stage reads (rows past those in use: a store is made for 16
    rows where 11 are used; the unread columns) are left out. No value is read or written:
    the step's bits are the same.

    A loop a kind over :func:`prefetch_table`'s rows, each array's data, length and stride read
    from its descriptor in the reference's payload (which :func:`prefetch_reference` asked for
    a world earlier), its lines asked by :func:`_prefetch_span`. It was a loop a column,
    unrolled by Numba over the stores' ~150 arrays (``literal_unroll``): 7.3 s of compile (5.3
    of it Numba's typing of each copy) and some 29 KB of machine code, fetched again every
    world-step, for the same lines; the one loop made the native LunarLander's world-step some
    7 % less CPU at one thread (``benchmarks/lander_prefetch_ab.py``, BENCHMARKS.md session
    27). Then one loop over the rows in the payload's order, each row's kind tested, and its
    lines asked by ``range(first, end, LINE)`` (a trip count, a remainder loop and an
    eight-fold unrolled one: some 45 instructions a row before its first line, 126 rows):
    7,162 instructions a native LunarLander's world-step, where these loops take 3,171 for the
    same lines, ~14 a row and 3 a line (callgrind; BENCHMARKS.md session 32, ``stepW57``)."""
    table = _prefetch_table(refs)
    every, bodies, shapes, vertex_rows, joint_lists = KIND_ENDS
    head = _reference_head(refs, j)
    payload = _payload_address(head)
    for k in range(every):
        _prefetch_rows(payload, table, k, ALL_ROWS)
    body_limit = body_rows if body_rows > 0 else ALL_ROWS
    for k in range(every, bodies):
        _prefetch_rows(payload, table, k, body_limit)
    shape_limit = shape_rows if shape_rows > 0 else ALL_ROWS
    for k in range(bodies, shapes):
        _prefetch_rows(payload, table, k, shape_limit)
    width = 16 * vertices  # (bytes: 16 a vertex)
    for k in range(shapes, vertex_rows):
        data, n, stride = _described(payload, table, k, shape_limit)
        if 0 < width < stride:
            for _ in range(n):
                _prefetch_span(data, data + width)
                data += stride
        else:
            _prefetch_span(data, data + n * stride)
    joints = False
    for k in range(vertex_rows, joint_lists):
        data, n, stride = _described(payload, table, k, ALL_ROWS)
        joints = joints or n > 0
        _prefetch_span(data, data + n * stride)
    if joints:  # the lines of the words prefetch_joints reads, a world later
        columns = _joint_columns_table(refs)
        for k in range(columns.shape[0]):
            _prefetch_line(payload + columns[k, DATA])
            _prefetch_line(payload + columns[k, STRIDE])


@borrowing_kernel
def prefetch_joints(refs, i):
    """Prefetch the lines of world ``refs[i]``'s :data:`JOINT_COLUMNS` over the rows its joint
    lists hold (up to the largest listed row, at most :data:`JOINT_ROWS`; none without
    joints), right before its step: their descriptors are in the cache (:func:`prefetch_world`
    asked for them a world earlier), and so are the lists. The step reads these in its joint
    stage, after its bounds, pairs and velocities, a line a column: 27 lines a native
    LunarLander's world-step that no prefetch asked for before, each a miss in the revolute
    joints' prepare (session 33, ``linesD58``: ~4 % less CPU a lander environment step). No
    value is read but the lists' and the descriptors'; none is written."""
    table = _prefetch_table(refs)
    every, bodies, shapes, vertex_rows, joint_lists = KIND_ENDS
    payload = _payload_address(_reference_head(refs, i))
    rows = 0
    for k in range(vertex_rows, joint_lists):
        data, n, stride = _described(payload, table, k, ALL_ROWS)
        for m in range(n):
            rows = max(rows, _word(data + m * stride) + 1)
    rows = min(rows, JOINT_ROWS)
    if rows > 0:
        columns = _joint_columns_table(refs)
        for k in range(columns.shape[0]):
            data = _word(payload + columns[k, DATA])
            end = data + min(_word(payload + columns[k, LENGTH]), rows) * _word(
                payload + columns[k, STRIDE])
            _prefetch_span(data, end)


@inline_kernel
def _described(payload, table, k, limit):
    """``(data, rows, stride)`` of the array of ``table``'s row ``k`` in the payload at
    ``payload``: its data's address, its length but at most ``limit``, and its first stride
    (bytes)."""
    return (_word(payload + table[k, DATA]), min(_word(payload + table[k, LENGTH]), limit),
            _word(payload + table[k, STRIDE]))


@inline_kernel
def _prefetch_rows(payload, table, k, limit):
    """The lines of the first ``limit`` rows (all if fewer) of ``table``'s array ``k``."""
    data, n, stride = _described(payload, table, k, limit)
    _prefetch_span(data, data + n * stride)


@inline_kernel
def _prefetch_span(first, end):
    """The lines of the bytes from address ``first`` to ``end`` (none if ``end <= first``).
    A plain loop, 3 instructions a line: ``range`` with a step compiles to a trip count, a
    remainder loop and an unrolled one, ~25 instructions before the first line, where most
    arrays here are one or two lines."""
    if end > first:
        address = first & -LINE
        while address < end:
            _prefetch_line(address)
            address += LINE


@inline_kernel
def rows_in_use(alive):
    """1 + the last live row of a store (its ``alive`` column), or 0."""
    for r in range(alive.shape[0] - 1, -1, -1):
        if alive[r]:
            return r + 1
    return 0


@borrowing_kernel
def _rows_after_step(world):
    """:func:`rows_in_use` of ``world``'s bodies and shapes and the most vertices of a live
    shape, their columns borrowed: a counting kernel's :func:`.world_ref.borrow_column`
    counts a reference in the column's MemInfo (Numba's adapter makes one per Python array: a
    line of its own, out of the cache among 1,024 worlds) where no other code of the step
    touches it."""
    shapes = borrow(world, "shapes")
    shape_rows = rows_in_use(shapes.alive)
    vertices = 0
    for r in range(shape_rows):
        if shapes.alive[r]:
            vertices = max(vertices, shapes.count[r])
    return rows_in_use(borrow_column(world, "bodies", "alive")), shape_rows, vertices

if numba.config.DISABLE_JIT:
    def prefetch_world(refs, j, body_rows, shape_rows, vertices):  # noqa: F811 (plain Python: no lines to ask for)
        """:func:`prefetch_world` without the JIT: nothing (the intrinsics have no Python
        form)."""

    def prefetch_reference(head):  # noqa: F811
        """:func:`prefetch_reference` without the JIT: nothing."""

    def prefetch_joints(refs, i):  # noqa: F811
        """:func:`prefetch_joints` without the JIT: nothing."""

    def _reference_head(refs, j):  # noqa: F811
        """:func:`_reference_head` without the JIT: no address."""
        return 0

    def _world_at(refs, j):  # noqa: F811
        """:func:`_world_at` without the JIT."""
        return refs[j]

    def _prefetch_line(address):  # noqa: F811
        """:func:`_prefetch_line` without the JIT: nothing."""


@borrowing_kernel
def gather_world(ref, i, rows, positions, angles, velocities, awake, touching):
    """World ``i`` (reference ``ref``): the template bodies ``rows``' origins, angles,
    velocities (vx, vy, w), awake flags and whether each has a touching contact (a manifold
    point that overlaps or pushed), into row ``i`` of each array (a row of
    :meth:`WorldBatch.get_state <impulse2d.WorldBatch.get_state>`).

    Called, not inlined, as :func:`write_world`: inlined into :func:`_walk` (a counting
    kernel), the two kernels' borrows of the stores counted a reference in each column they
    read and gave it back, each MemInfo a line of its own out of the cache among 1,024 worlds:
    55 of ``_walk``'s 60 increments a world-step of the native LunarLander, and as many
    decrements (``benchmarks/lander_calls.py``; ``NRT_incref`` was 12 % of its CPU)."""
    b = borrow(ref, "bodies")
    nb = positions.shape[1]  # (rows may hold more: step_batch's joint rows after them)
    for j in range(nb):
        r = rows[j]
        positions[i, j, 0] = b.origin[r, 0]
        positions[i, j, 1] = b.origin[r, 1]
        angles[i, j] = b.angle[r]
        velocities[i, j, 0] = b.v[r, 0]
        velocities[i, j, 1] = b.v[r, 1]
        velocities[i, j, 2] = b.w[r]
        awake[i, j] = b.type[r] != STATIC and not b.asleep[r]
        touching[i, j] = False
    # (the template rows are few: each touching contact is matched against them, where a
    # flag per body row cost an allocation per world)
    c = borrow(ref, "contacts")
    for k in range(c.count.shape[0]):
        for p in range(min(c.count[k], 2)):
            if c.separation[k, p] < 0.0 or c.total_normal_impulse[k, p] > 0.0:
                for j in range(nb):
                    if c.body_a[k] == rows[j] or c.body_b[k] == rows[j]:
                        touching[i, j] = True
                break


@inline_kernel
def add_impulse(b, r, vx, vy, w, max_velocity):
    """Body row ``r`` of store ``b`` given a linear impulse (vx, vy) at its centre of mass (N s)
    and an angular impulse ``w`` (N m s), as ``Body.apply_linear_impulse`` and
    ``apply_angular_impulse`` change its velocity: no rotational response where the inertia
    is infinite, a velocity beyond ``max_velocity`` (m/s, rad/s) scaled into it. No wake: the
    caller's."""
    inv_i = b.inv_inertia[r]
    nvx = b.v[r, 0] + b.inv_mass[r] * vx
    nvy = b.v[r, 1] + b.inv_mass[r] * vy
    nw = b.w[r] + inv_i * w if inv_i != 0.0 else b.w[r]
    big = max(abs(nvx), abs(nvy))
    if big > max_velocity:
        scale = max_velocity / big
        nvx *= scale
        nvy *= scale
    if abs(nw) > max_velocity:
        nw = max_velocity if nw > 0.0 else -max_velocity
    b.v[r, 0] = nvx
    b.v[r, 1] = nvy
    b.w[r] = nw


@borrowing_kernel
def write_world(world, i, rows, nb, args):
    """World ``i``'s writes that ride on its step (:mod:`impulse2d._batch_writes`), made right
    before it, on the lines the step is about to read. ``args[i]``: its row of arguments, whose
    columns past :data:`ARGUMENTS` hold them (:data:`WRITES`: none when there are no such
    columns; read in place: a view of the row would count a reference on ``args``, whose
    MemInfo the batch's threads share); ``rows``: the ``nb`` template body rows, then, for
    each template joint, the joint row whose motor speed is written (-1: not written), then
    the same for the motor limits.

    The impulses (``args[i, WRITES + 3 j:]``, template body ``j``) as ``WorldBatch.apply_impulses``
    adds them: a dynamic body with a nonzero row only, its sleep timer reset; then the motor
    speeds and limits as ``set_motor_speeds`` and ``set_max_motor_torques`` write them. False,
    and nothing written, when an impulse would wake a sleeping body: waking an island changes
    the joint rows, which Python rebuilds before a step, so Python writes and steps it.

    Called, not inlined, so that it counts no references (:func:`gather_world`)."""
    if args.shape[1] <= WRITES:
        return True
    b = borrow(world, "bodies")
    for j in range(nb):
        r = rows[j]
        k = WRITES + 3 * j
        if b.type[r] == DYNAMIC and b.asleep[r] and (
                args[i, k] != 0.0 or args[i, k + 1] != 0.0 or args[i, k + 2] != 0.0):
            return False
    for j in range(nb):
        r = rows[j]
        k = WRITES + 3 * j
        vx, vy, w = args[i, k], args[i, k + 1], args[i, k + 2]
        if b.type[r] != DYNAMIC or (vx == 0.0 and vy == 0.0 and w == 0.0):
            continue
        b.sleep_time[r] = 0.0  # (_wake_body of an awake body)
        add_impulse(b, r, vx, vy, w, MAX_VELOCITY)
    nj = (rows.shape[0] - nb) // 2
    if nj > 0:
        jt = borrow(world, "joints")
        first = WRITES + 3 * nb
        for j in range(nj):
            if rows[nb + j] >= 0:
                jt.motor_speed[rows[nb + j]] = args[i, first + j]
            if rows[nb + nj + j] >= 0:
                jt.max_motor[rows[nb + nj + j]] = args[i, first + nj + j]
    return True


@borrowing_kernel
def clock_world(clocks, i, status, dt):
    """World ``i``'s clocks after a step that returned ``status`` (see :data:`TIMES`), as
    ``impulse2d._batch_ready.clock`` made them for every world after the kernel: its stale
    flags taken for unset if it was marked since (``FLAGS_DIRTY``, cleared here), then each
    stale flag its step set and this batch has not set already (``STALE_SET``) noted in
    ``NEW`` for Python (only Python writes a world's dict); and, unless a jointed island woke
    (Python steps it again), its query index dropped, its clock advanced by ``dt`` (the same
    float64 addition as ``World.step``'s) and its step counted. Made here, on the lines the
    step's thread holds, where a pass after the kernel found 1,024 worlds' rows of these and
    of the results evicted by the ~30 MB the kernel streams (42-55 us of a step of 1,024
    landers at 2 threads, BENCHMARKS.md session 31). Called, not inlined, so that it counts
    no references (:func:`gather_world`: the arrays' MemInfos are shared by the threads)."""
    times, steps, query_kind, stale_set, flags_dirty, new, tally = clocks
    if flags_dirty[i]:
        stale_set[0, i] = False
        stale_set[1, i] = False
        flags_dirty[i] = False
    if status & NEW_CONSTRAINTS and not stale_set[0, i]:
        stale_set[0, i] = True
        new[0, fetch_add(tally, NEW_WORLDS, 1)] = i
    if status & NEW_CONTACTS and not stale_set[1, i]:
        stale_set[1, i] = True
        new[1, fetch_add(tally, NEW_WORLDS + 1, 1)] = i
    if status & WOKE == 0:
        query_kind[i] = NO_INDEX
        times[i] += dt
        steps[i] += 1


@inner_kernel
def _walk(refs, which, args, out, rows, positions, angles, velocities, awake, touching,
          clocks, claimed, number, share, shares, lent_i, lent_f):
    """One thread's walks over the worlds of step ``number`` (:func:`step_batch`): returns
    the worlds it took (stepped, or left unwritten), the union of the status bits of those it
    stepped and how many it left unwritten, and its scratch, grown if it had to."""
    n = which.shape[0]
    shared = claimed.shape[0] > 0
    clocked = clocks[TIMES].shape[0] > 0
    taken = 0  # (worlds this thread claimed: stepped, or left unwritten)
    bits = 0
    unwritten = 0
    # walk 0: this thread's part, up; then (shared) each other thread's part, down
    for walk in range(shares if shared else 1):
        part = (share + walk) % shares
        lo = n * part // shares
        hi = n * (part + 1) // shares
        d = 1 if walk == 0 else -1
        first = lo if walk == 0 else hi - 1
        for m in range(hi - lo):
            k = first + d * m
            if shared and fetch_max(claimed, k, number) >= number:
                break  # (the walks over this part met: another thread took the rest)
            taken += 1
            # the worlds ahead in three stages, each finding in the cache what the one
            # before asked for: a reference's header 3 worlds ahead, its payload 2 ahead, the
            # arrays its descriptors point at 1 ahead (a stage that read a line out of the
            # cache would wait for it; a prefetch does not); and a fourth, this world's joint
            # columns, whose descriptors the third asked for (prefetch_joints)
            if lo <= k + 3 * d < hi:
                _prefetch_line(_reference_head(refs, which[k + 3 * d]))
            if lo <= k + 2 * d < hi:
                prefetch_reference(_reference_head(refs, which[k + 2 * d]))
            if lo <= k + d < hi:
                j = which[k + d]
                prefetch_world(refs, j, np.int64(out[j, BODY_ROWS]),
                               np.int64(out[j, SHAPE_ROWS]), np.int64(out[j, VERTICES]))
            i = which[k]
            prefetch_joints(refs, i)
            world = _world_at(refs, i)
            if not write_world(world, i, rows, positions.shape[1], args):
                out[i, UNWRITTEN] = 1.0
                unwritten += 1
                continue
            own_i = world.scratch
            own_f = world.scratch_f
            if lent_i.shape[0] < own_i.shape[0]:  # at least what the world itself holds
                lent_i = np.zeros(own_i.shape[0], dtype=np.int64)
            if lent_f.shape[0] < own_f.shape[0]:
                lent_f = np.zeros(own_f.shape)
            world.scratch = lent_i
            world.scratch_f = lent_f
            status = step_kernel(world, args[i, DT], np.int64(WHOLE))  # not Literal[int](0): WHOLE
            lent_i = world.scratch  # (grown, if the step needed more)
            lent_f = world.scratch_f
            world.scratch = own_i
            world.scratch_f = own_f
            out[i, STATUS] = status
            out[i, UNWRITTEN] = 0.0
            bits |= status
            if clocked:
                clock_world(clocks, i, status, args[i, DT])
            body_rows, shape_rows, vertices = _rows_after_step(world)
            out[i, BODY_ROWS] = body_rows
            out[i, SHAPE_ROWS] = shape_rows
            out[i, VERTICES] = vertices
            if positions.shape[1] > 0:
                gather_world(world, i, rows, positions, angles, velocities, awake, touching)
    return taken, bits, unwritten, lent_i, lent_f


@gil_free_kernel
def step_batch(refs, which, args, out, rows, positions, angles, velocities, awake, touching,
               clocks, claimed, share, shares):
    """Step the worlds ``refs[which[k]]`` one after the other, world ``i`` with the arguments
    ``args[i]`` (:data:`ARGUMENTS` columns, and its writes after them), writing what its step
    returned to ``out[i]`` (:data:`RESULTS` columns: its status bits, whether it was left
    unwritten, its rows in use); the sleeping counts and the joints' reaction scale are in the
    world's step row, as after ``World.step``. With ``clocks`` (:data:`TIMES`: the batch's
    clock columns; empty arrays: none), the world's clocks are advanced right after its step
    (:func:`clock_world`), and each thread adds the union of its worlds' status bits and its
    count of worlds left unwritten to the tally before it counts its worlds done (a crew's
    helper takes the ``clocks`` of its one call for every step: the batch's, fixed for its
    life). The next worlds are prefetched before each step:
    the arrays of the next (:func:`prefetch_world`, over the rows in use its last step left in
    ``out``), the reference of the one after it (:func:`prefetch_reference`), the header of the
    third; and the world's own joint columns (:func:`prefetch_joints`).

    **Threads.** With ``claimed`` empty, this call steps every world of ``which``. Else
    ``shares`` threads each make this call at once, thread ``share`` (0 to ``shares - 1``),
    with the same ``which`` and ``claimed`` (a board: int64, a claim per world of the batch,
    then :data:`.batch_crew.HEADER` words): each thread steps its own contiguous part of
    ``which`` (its ``share``-th of ``shares``) from the front, then the other threads' parts
    from the back, each world claimed first (``claimed[k]`` raised atomically to the step's
    number: the thread that found it below steps it). A claim that finds another thread's
    means that the two walks over that part met: the rest of it is taken. So every world is
    stepped exactly once, by its own part's thread but for the few near where the walks met,
    and a thread that finds its part done takes worlds from the others' until none is left:
    the threads end within about one world-step of each other, in one call each (no Python
    between chunks), each thread's prefetch running ahead of it through its whole part, and
    from one batch step to the next a world is stepped by the same thread (its new stores
    allocated and its old ones freed in that thread's allocator arena, its lines in that
    core's caches). Each thread then adds the worlds it took to the board's count of worlds
    done.

    On a board for one step (:func:`thread_arguments`, its number 1), thread 0 (the calling
    thread) then waits, spinning up to :data:`JOIN_SPINS` times, for the count to reach ``n``:
    if it does, every world's step and writes are done and seen, and it writes 1 into the
    board's ``JOINED``, so that Python may go on without waiting for the other threads' calls
    to return (:func:`joined`). On a crew's board (:mod:`.batch_crew`) the calling thread
    steps the step posted last (:func:`.batch_crew.post`) and waits for the count, spinning
    then asleep; each other thread makes one call for the crew's life, which takes each step
    posted (its arrays read from the board in place of its own arguments, empty), steps its
    share, and waits for the next, until the crew is called off.

    Each world steps in this call's scratch, not its own (:mod:`.scratch`): lent to the world
    for its step and taken back after it, grown there if the world needed more, so that the
    scratch a world-step writes is the lines the previous world-step of this thread left in
    the cache (a world's own, among 1,024 worlds, is in none). The step writes every entry
    of it before reading it, so the bits are the world's own scratch's; the world's own is
    back in its reference after the step (``World.step`` between batch steps uses it).

    With ``positions`` to ``touching`` of the template bodies ``rows[:nb]`` (``nb`` their
    second axis; none: nothing gathered), each world's state is gathered into their row
    ``i`` right after its step
    (:func:`gather_world`), from the lines the step just left in the cache: a pass over the
    worlds after the batch step finds each world's stores evicted by those stepped after
    it (1,024 landers: about a fifth of the environment's step, cProfile).

    The writes in the columns of ``args`` past :data:`ARGUMENTS` (:func:`write_world`; the
    joints' rows after the body rows in ``rows``) are made into each world right before its
    step, where a pass over the worlds before the batch step finds each world's stores out
    of the cache (1,024 landers: the impulses' pass 7 % of the environment's step,
    cProfile). A world whose writes would wake an island is neither written nor stepped:
    ``out[i, UNWRITTEN]`` says so, and Python does both."""
    lent_i = np.zeros(0, dtype=np.int64)
    lent_f = np.zeros((0, 3))
    top = claimed.shape[0] - _crew.HEADER  # (the board's header)
    crew = top >= 0 and claimed[top + _crew.CREW] != 0
    number = claimed[top + _crew.GO] if crew else 1  # (the calling thread posted it)
    if crew and share != 0:
        number, which, args, rows, positions, angles, velocities, awake, touching = \
            _crew.take_step(claimed, 0, which, args, rows, positions, angles, velocities,
                            awake, touching)
    while number != 0:
        if crew and share < _crew.SHARES_TIMED:
            claimed[top + _crew.BEGAN + share] = cycles()
        taken, bits, unwritten, lent_i, lent_f = _walk(
            refs, which, args, out, rows, positions, angles, velocities, awake, touching,
            clocks, claimed, number, share, shares, lent_i, lent_f)
        if clocks[TIMES].shape[0] > 0:  # (before the worlds are counted done: seen with them)
            tally = clocks[TALLY]
            if bits != 0:
                fetch_or(tally, BITS, bits)
            if unwritten != 0:
                fetch_add(tally, UNWRITTEN_WORLDS, unwritten)
        n = which.shape[0]
        if not crew:
            if top >= 0:  # (a board for one step)
                fetch_add(claimed, top + _crew.DONE, taken)  # (after every write of its worlds)
                for spins in range(JOIN_SPINS if share == 0 else 0):
                    if load_acquire(claimed, top + _crew.DONE) == n:
                        claimed[top + _crew.JOINED] = 1
                        break
                    spin_pause()
            return
        _crew.worlds_done(claimed, share, taken)
        if share == 0:
            _crew.wait_done(claimed, n, JOIN_SPINS)
            return
        number, which, args, rows, positions, angles, velocities, awake, touching = \
            _crew.take_step(claimed, number, which, args, rows, positions, angles,
                            velocities, awake, touching)


JOIN_SPINS = 2000
"""Spin-wait hints (x86 ``pause``: 10-140 cycles by CPU) the calling thread issues waiting for
the other threads' last worlds: some tens of microseconds at most, a few world-steps of a small
world (as :data:`.threaded.SPINS` for a stage's last piece). The other threads take their
last worlds when the calling thread finds none left, so they end within about a world-step of
it; one that does not (its core taken away on a busy machine) is waited for after, by Python
on its call's return (a board for one step) or asleep on the count (a crew's board)."""


_step_batch = DirectCall(step_batch, "the batch step", BATCH_SECONDS)

_NO_GATHER = (np.zeros(0, dtype=np.int64), np.zeros((0, 0, 2)), np.zeros((0, 0)),
              np.zeros((0, 0, 3)), np.zeros((0, 0), dtype=np.bool_),
              np.zeros((0, 0), dtype=np.bool_))
""":func:`step_batch`'s gather arguments when it gathers nothing."""

NO_CLOCKS = (np.zeros(0), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int8),
             np.zeros((2, 0), dtype=np.bool_), np.zeros(0, dtype=np.bool_),
             np.zeros((2, 0), dtype=np.int64), np.zeros(TALLIES, dtype=np.int64))
""":func:`step_batch`'s ``clocks`` when it advances none (:data:`TIMES`)."""

ALONE = (np.zeros(0, dtype=np.int64), 0, 1)
""":func:`step_batch`'s thread arguments for a call that steps every world of ``which``."""


def thread_arguments(n: int, threads: int) -> list:
    """The thread arguments of :func:`step_batch` for ``threads`` calls at once over ``n``
    worlds, one per call: a board for one step (its claims and header zeroed, shared), its
    share, the count."""
    claimed = np.zeros(n + _crew.HEADER, dtype=np.int64)
    return [(claimed, t, threads) for t in range(threads)]


def joined(share) -> bool:
    """Whether the :func:`step_batch` call of the calling thread's ``share`` (an entry of
    :func:`thread_arguments`, share 0) returned with every world done by every thread: its
    results may be read while the other threads' calls return."""
    claimed = share[0]
    return bool(claimed[claimed.shape[0] - _crew.HEADER + _crew.JOINED])


def run(refs, which: np.ndarray, args: np.ndarray, out: np.ndarray, gather=_NO_GATHER,
        share=ALONE, clocks=NO_CLOCKS) -> float:
    """:func:`step_batch` on ``which``; returns its wall time, s. ``gather``: the template
    rows (and any joint rows written, :func:`write_world`) and the five state arrays it gathers
    each world's state into after its step (:func:`gather_world`), or nothing. ``share``: this
    thread's arguments when several step ``which`` at once (an entry of
    :func:`thread_arguments`), or :data:`ALONE`. ``clocks``: the batch's clock columns it
    advances (:data:`TIMES`), or none."""
    t0 = perf_counter()
    _step_batch.entry(refs, which, args, out, *gather, clocks, *share)
    return perf_counter() - t0


# -- dense views and writes of a batch of copies ----------------------------------------------
@gil_free_kernel
def gather_bodies(refs, rows, positions, angles, velocities, awake):
    """The template bodies' state of every world: origins (worlds, bodies, 2), angles,
    velocities (vx, vy, w) and awake flags; arrays of zero worlds are skipped."""
    for i in range(len(refs)):
        b = borrow(refs[i], "bodies")
        for j in range(rows.shape[0]):
            r = rows[j]
            if positions.shape[0] > 0:
                positions[i, j, 0] = b.origin[r, 0]
                positions[i, j, 1] = b.origin[r, 1]
            if angles.shape[0] > 0:
                angles[i, j] = b.angle[r]
            if velocities.shape[0] > 0:
                velocities[i, j, 0] = b.v[r, 0]
                velocities[i, j, 1] = b.v[r, 1]
                velocities[i, j, 2] = b.w[r]
            if awake.shape[0] > 0:
                awake[i, j] = b.type[r] != STATIC and not b.asleep[r]


@gil_free_kernel
def gather_touching(refs, rows, out):
    """Whether each template body has a touching contact: a manifold point that overlaps or
    pushed (:func:`impulse2d.contacts.touching_mask`, the test ``World.contacts`` uses)."""
    for i in range(len(refs)):
        c = borrow(refs[i], "contacts")
        hit = np.zeros(borrow(refs[i], "bodies").alive.shape[0], dtype=np.bool_)
        for k in range(c.count.shape[0]):
            for p in range(min(c.count[k], 2)):
                if c.separation[k, p] < 0.0 or c.total_normal_impulse[k, p] > 0.0:
                    hit[c.body_a[k]] = True
                    hit[c.body_b[k]] = True
        for j in range(rows.shape[0]):
            out[i, j] = hit[rows[j]]


@inner_kernel
def _wake_body(b, r):
    """:func:`impulse2d._sleep.wake_body` on a store: True if an island woke."""
    woke = False
    if b.asleep[r]:
        island = b.island[r]
        for m in range(b.asleep.shape[0]):
            if b.asleep[m] and b.island[m] == island:
                b.asleep[m] = False
                b.sleep_time[m] = 0.0
        woke = True
    b.sleep_time[r] = 0.0
    return woke


# What the writes do (`mode` of impulse2d._batch_views.scatter_bodies).
SET_VELOCITY, ADD_FORCE, ADD_IMPULSE = 0, 1, 2
# Per-world result of impulse2d._batch_views.scatter_bodies.
DONE, ISLAND_WOKE, KINEMATIC_SET = 1, 2, 4


_gather_bodies = DirectCall(gather_bodies, "the batch's views", 2.0)
_gather_touching = DirectCall(gather_touching, "the batch's contact view", 1.0)


def after_writes(world, rows: np.ndarray, flags: int) -> None:
    """Python's share of a write into ``world`` (``flags`` from
    :func:`impulse2d._batch_views.scatter_bodies`): an island woke (the joint rows leave out
    sleeping islands' joints, so they are rebuilt), and kinematic bodies given a velocity wake
    what they touch, as ``Body.linear_velocity = ...`` does."""
    if flags & ISLAND_WOKE:
        awake_changed(world)  # the step's awake sets take the woken island
        if world._joint_handles:
            world._joint_index = None
    if flags & KINEMATIC_SET:
        kinds = world._bodies.type
        for r in rows:
            if kinds[r] != DYNAMIC and kinds[r] != STATIC:
                wake_touching(world, int(r))
