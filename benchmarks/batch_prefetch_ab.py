"""The batch kernel's prefetch of the next worlds, by variant: compiled in this process, each
stepping its own copy of the same batch, paired step by step (for a loaded machine).

    PYTHONPATH=src python benchmarks/batch_prefetch_ab.py --worlds 64 1024 --steps 120 \\
        --variants main,none,copy,pipe --json benchmarks/results/batch_prefetch_ab_s16.json

The batch is ``batch_bench.py``'s: ``WorldBatch.replicate(ten_bodies(), n)``, a **world-step**
one 1/60 s soft step (4 substeps, 1 iteration, sleeping on) of one 10-body world; the first
``--steps`` steps after the drop. Each variant steps a batch of its own (built the same way,
so the same bits), and every step of the run each variant steps its batch once, in an order
rotated from step to step, timed by the thread's CPU clock (``time.thread_time_ns``; with
``--threads 2`` the process's, ``time.process_time_ns``, for ``main`` only: since session 17 a
batch on threads shares its worlds out inside the kernel, which the variants' loops do not):
a step of one variant and the same step of another are a few milliseconds apart, so the
machine's drift cancels out of the ratios.

The variants are :func:`impulse2d._dynamics.batch_step.step_batch`'s loop with another
prefetch before each world's step (``main``: the module's own kernel, from its cache; the
others compiled here, linking the same step kernel):

* ``none``: nothing prefetched;
* ``copy``: main's (the next world's bodies, shapes, contacts and constraint rows);
* ``pipe``: a pipeline: the reference's header line 3 worlds ahead, its payload (the stores'
  array descriptors, ~10 KB) 2 ahead, then 1 ahead main's stores, the reference's other
  arrays (awake sets, grids, settings row, clock, joint lists) and, for a write, each store
  array's NRT MemInfo and the scratch's (the reference counts a counting kernel writes: the
  batch kernel's lending of its scratch, the step kernel's stores);
* ``pipe_nomi``: ``pipe`` without the MemInfos;
* ``pipe2``, ``pipe2_nomi``: ``pipe`` and ``pipe_nomi`` one world further ahead (4, 3, 2);
* ``copy_mi``, ``copy_others``: main's with the MemInfos, or with the other arrays;
* ``cached``: ``pipe_nomi``'s lines of each world (its reference's header and payload, the
  arrays) kept as a list of addresses between steps, noted again after a world's step only
  where its status says it replaced its contact or constraint store (or none is kept yet;
  other arrays a step grows keep their old addresses: a prefetch of a line no longer used), so
  the prefetch before a world's step is a flat loop over the next world's list with no
  descriptor read (its ``prefetch`` column), the noting is in the rest of the turn.
* ``rows``: ``pipe_nomi`` over the body and shape rows in use only (1 + the last live row,
  noted after each world's step; every row before its first), not the stores' capacity;
* ``cols``: ``rows`` less the columns no stage reads (``batch_step.UNREAD``);
* ``nojd``: ``pipe_nomi`` with the reference's payload less the joint store's descriptors
  (asked for one world ahead only if the world lists joint rows);
* ``rcn``: ``cols`` and ``nojd``, the batch kernel's own prefetch since session 20 (compiled
  here: ``main`` is that kernel from the cache, ``pipe_nomi`` the one before);
* ``swap``: ``pipe_nomi`` with the world's own scratch swapped out for the lent one without
  counting its references (the world's own arrays' MemInfos, out of the cache, not touched);
  ``all``: ``rcn`` and ``swap``;
* ``rcn_view``, ``rcn_borrowed``: ``rcn`` with the batch kernel's own reads of a world's row
  of arguments and rows in use, before session 22 (a view of the row, the ``alive`` columns
  counted) and since (both read uncounted: :data:`VIEW`);
* ``rcn_item``, ``rcn_heads``, ``rcn_both``: ``rcn_borrowed`` with the worlds read from the
  batch's list uncounted (:data:`ITEM`), with the shapes' vertices and normals asked for only
  as far as the world's most vertices (:data:`HEADS`), and both (session 24's kernel);
* ``rcn_swap``: ``rcn_both`` with the scratch lent uncounted (``swap``'s; session 25).

The variants compiled here also read the cycle counter around each world's prefetch and the
rest of its turn (the scratch's lending, the step kernel, the writes and gathers: none here);
the median over the worlds of each step, then over the steps, is robust to the time slices
other processes take (a sum is not), and so is the median of the step kernel's own stages
(the world's clock, from its first stage to its last): ``turn - stages`` is the step kernel's
time outside its stages and the batch loop's own.
Every variant's batch must end with the same hash of every world's positions and velocities.
``--base V`` also gives every variant's ratios against variant ``V`` (``b_over_V_...``: the
median over the steps of V's CPU over the variant's, and of the totals).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

import numba
import numpy as np
from llvmlite import ir
from numba import literal_unroll
from numba.core import cgutils, imputils, types
from numba.core.runtime.nrtdynmod import _meminfo_struct_type
from numba.extending import intrinsic
from numba.typed.listobject import _container_get_data, ll_list_type, ll_voidptr_type

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _envs_timing import ticks_per_ns  # noqa: E402
from batch_bench import ten_bodies  # noqa: E402

from impulse2d._core.jit import cycles  # noqa: E402
from impulse2d._dynamics import batch_step as bs  # noqa: E402
from impulse2d._dynamics.batch_step import (  # noqa: E402
    DT, STATUS, UNWRITTEN, gather_world, write_world)
from impulse2d._dynamics.step import (  # noqa: E402
    NEW_CONSTRAINTS, NEW_CONTACTS, WHOLE, step_kernel)
from impulse2d._dynamics.world_ref import WorldStoresType, borrow  # noqa: E402

LINE = 64


def _prefetch_intrinsic(rw):
    @intrinsic
    def prefetch(typingctx, address):
        """Prefetch the line at ``address`` (int64) into the caches, for a read (rw 0) or a
        write (rw 1)."""
        def codegen(context, builder, signature, args):
            byte = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]),
                "llvm.prefetch.p0i8")
            builder.call(fn, [builder.inttoptr(args[0], byte), ir.Constant(i32, rw),
                              ir.Constant(i32, 2), ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return types.none(types.int64), codegen
    return prefetch


_prefetch_read = _prefetch_intrinsic(0)
_prefetch_write = _prefetch_intrinsic(1)


@intrinsic
def _head_at(typingctx, refs, j):
    """Address of the MemInfo of ``refs[j]`` (a typed list of references), read from the
    list's buffer: no reference counted (``refs[j]`` increments the count in that MemInfo, a
    locked write to a line out of the cache), nothing of the reference touched."""
    if not isinstance(refs, types.ListType) or not isinstance(refs.item_type, WorldStoresType):
        return None

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ll_voidptr_type, [ll_list_type]),
            "numba_list_base_ptr")
        lp = _container_get_data(context, builder, signature.args[0], args[0])
        base = builder.call(fn, [lp])
        item_type = context.get_data_type(signature.args[0].item_type)
        item_ptr = cgutils.gep(builder, builder.bitcast(base, item_type.as_pointer()), args[1])
        item = context.data_model_manager[signature.args[0].item_type].load_from_data_pointer(
            builder, item_ptr)
        meminfo = cgutils.create_struct_proxy(signature.args[0].item_type)(
            context, builder, value=item).meminfo
        return builder.ptrtoint(meminfo, ir.IntType(64))

    return types.int64(refs, types.int64), codegen


@intrinsic
def _payload_end(typingctx, head):
    """End of the payload of the reference whose MemInfo is at ``head`` (one allocation: the
    header, then the stores' descriptors; NRT's ``meminfo_alloc_dtor``)."""
    def codegen(context, builder, signature, args):
        header = builder.inttoptr(args[0], _meminfo_struct_type.as_pointer())
        i64 = ir.IntType(64)
        data = builder.ptrtoint(builder.load(cgutils.gep(builder, header, 0, 3)), i64)
        size = builder.load(cgutils.gep(builder, header, 0, 4))
        return builder.add(data, size)

    return types.int64(types.int64), codegen


@intrinsic
def _meminfo_of(typingctx, array):
    """Address of ``array``'s NRT MemInfo (0 for none)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        meminfo = context.make_array(signature.args[0])(context, builder, args[0]).meminfo
        return builder.ptrtoint(meminfo, ir.IntType(64))

    return types.int64(array), codegen


@intrinsic
def _data_of(typingctx, array):
    """Address of ``array``'s data."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.ptrtoint(data, ir.IntType(64))

    return types.int64(array), codegen


_jit = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                  error_model="numpy")


# The batch kernel's helpers of sessions 20-26, which its prefetch walked the stores with (one
# loop a column; since session 27 it reads a table of the payload's descriptors instead).
@intrinsic
def _read_columns(typingctx, store):
    """``store``'s columns but its type's ``batch_step.UNREAD`` and ``BY_VERTEX`` ones, as a
    tuple."""
    if not isinstance(store, types.BaseNamedTuple):
        return None
    unread = bs.UNREAD.get(store.instance_class, ()) + bs.BY_VERTEX.get(store.instance_class, ())
    kept = [k for k, name in enumerate(store.fields) if name not in unread]
    tuple_type = types.Tuple([store.types[k] for k in kept])

    def codegen(context, builder, signature, args):
        value = context.make_tuple(builder, tuple_type,
                                   [builder.extract_value(args[0], k) for k in kept])
        return imputils.impl_ret_borrowed(context, builder, tuple_type, value)

    return tuple_type(store), codegen


@intrinsic
def _row_span(typingctx, array, rows):
    """``(first, end)``: the address of the line that holds the first byte of ``array`` (C
    contiguous) and the end of its first ``rows`` rows (all of them if ``rows`` is 0 or past
    its length); ``first == end`` if it has none."""
    if not isinstance(array, types.Array) or not isinstance(rows, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        a = context.make_array(array)(context, builder, args[0])
        length = builder.extract_value(a.shape, 0)
        rows_ = context.cast(builder, args[1], rows, types.int64)
        n = builder.select(builder.or_(builder.icmp_signed("<=", rows_, i64(0)),
                                       builder.icmp_signed(">", rows_, length)), length, rows_)
        start = builder.ptrtoint(a.data, i64)
        first = builder.and_(start, i64(-LINE))
        end = builder.add(start, builder.mul(n, builder.extract_value(a.strides, 0)))
        end = builder.select(builder.icmp_signed(">", n, i64(0)), end, first)
        return context.make_tuple(builder, signature.return_type, (first, end))

    return types.UniTuple(types.int64, 2)(array, rows), codegen


@_jit
def _prefetch_row_heads(array, rows, head):
    """The lines of the first ``head`` bytes of each of ``array``'s first ``rows`` rows (C
    contiguous; every row if ``rows`` is 0 or past its length); every line of those rows if
    ``head`` is 0 or a row's size or more."""
    stride = array.strides[0]
    n = array.shape[0] if rows <= 0 or rows > array.shape[0] else rows
    if head <= 0 or head >= stride:
        head = stride
    row = _data_of(array)
    for _ in range(n):
        for address in range(row - row % LINE, row + head, LINE):
            _prefetch_read(address)
        row += stride


@_jit
def _lines(array):
    start = _data_of(array)
    for offset in range(0, array.nbytes, LINE):
        _prefetch_read(start + offset)


@_jit
def _lines_of(store):
    for column in literal_unroll(store):
        _lines(column)


@_jit
def _meminfos_of(store):
    for column in literal_unroll(store):
        m = _meminfo_of(column)
        if m != 0:
            _prefetch_write(m)


@_jit
def _payload(head):
    for address in range(head - head % LINE, _payload_end(head), LINE):
        _prefetch_read(address)


@_jit
def _stores(ref):
    _lines_of(borrow(ref, "bodies"))
    _lines_of(borrow(ref, "shapes"))
    _lines_of(borrow(ref, "contacts"))
    _lines_of(borrow(ref, "constraints"))


@_jit
def _others(ref):
    _lines_of(borrow(ref, "joint_ids"))
    _lines(borrow(ref, "no_collide"))
    _lines(borrow(ref, "clock"))
    _lines(borrow(ref, "verbs"))
    _lines(borrow(ref, "lengths"))
    _lines(borrow(ref, "settings"))
    _lines_of(borrow(ref, "static_grid"))
    _lines(borrow(ref, "awake_state"))
    _lines(borrow(ref, "awake_bodies"))
    _lines(borrow(ref, "awake_shapes"))
    _lines(borrow(ref, "awake_contacts"))
    _lines(borrow(ref, "contact_edges"))
    _lines_of(borrow(ref, "resting"))


@_jit
def _meminfos(ref):
    _meminfos_of(borrow(ref, "bodies"))
    _meminfos_of(borrow(ref, "shapes"))
    _meminfos_of(borrow(ref, "joints"))
    _meminfos_of(borrow(ref, "contacts"))
    _meminfos_of(borrow(ref, "constraints"))
    _meminfos_of((borrow(ref, "scratch"), borrow(ref, "scratch_f")))


@_jit
def _rows(array, rows):
    """The lines of ``array``'s first ``rows`` rows (all if 0), as the batch kernel's
    prefetch takes them (``batch_step._row_span``)."""
    first, end = _row_span(array, rows)
    for address in range(first, end, LINE):
        _prefetch_read(address)


@_jit
def _stores_rows(ref, nb, ns):
    """:func:`_stores` over the body and shape rows in use only."""
    for column in literal_unroll(borrow(ref, "bodies")):
        _rows(column, nb)
    for column in literal_unroll(borrow(ref, "shapes")):
        _rows(column, ns)
    _lines_of(borrow(ref, "contacts"))
    _lines_of(borrow(ref, "constraints"))


@_jit
def _stores_cols(ref, nb, ns):
    """:func:`_stores_rows` less the columns no stage reads (``batch_step.UNREAD``)."""
    for column in literal_unroll(_read_columns(borrow(ref, "bodies"))):
        _rows(column, nb)
    shapes = borrow(ref, "shapes")
    for column in literal_unroll(_read_columns(shapes)):
        _rows(column, ns)
    _rows(shapes.vertices, ns)  # (whole rows: session 20's kernel)
    _rows(shapes.normals, ns)


@_jit
def _stores_heads(ref, nb, ns, nv):
    """:func:`_stores_cols` with the shapes' vertices and normals asked for only as far as
    ``nv`` vertices a row (``batch_step._prefetch_row_heads``)."""
    for column in literal_unroll(_read_columns(borrow(ref, "bodies"))):
        _rows(column, nb)
    shapes = borrow(ref, "shapes")
    for column in literal_unroll(_read_columns(shapes)):
        _rows(column, ns)
    _prefetch_row_heads(shapes.vertices, ns, 16 * nv)
    _prefetch_row_heads(shapes.normals, ns, 16 * nv)
    _lines_of(borrow(ref, "contacts"))
    _lines_of(borrow(ref, "constraints"))
    _lines_of(borrow(ref, "contacts"))
    _lines_of(borrow(ref, "constraints"))


@_jit
def _payload_but_joints(head):
    """The reference's lines (:func:`_payload`) but those wholly inside the joint store's
    descriptors."""
    first, end = bs._descriptors_span(head, "joints")
    for address in range(head - head % LINE, _payload_end(head), LINE):
        if address < first or address + LINE > end:
            _prefetch_read(address)


@_jit
def _joint_descriptors(head, ref):
    """The joint store's descriptors, if ``ref`` lists any joint rows."""
    some = False
    for rows in literal_unroll(borrow(ref, "joint_ids")):
        some = some or rows.shape[0] > 0
    if some:
        first, end = bs._descriptors_span(head, "joints")
        for address in range(first - first % LINE, end, LINE):
            _prefetch_read(address)


@intrinsic
def _lend(typingctx, ref, name, array, stash, at):
    """``ref.<name> = array`` with the old value's descriptor moved, uncounted, into
    ``stash[at:]`` (int64 words): the field's reference passes to the stash, so the old
    array's MemInfo (out of the cache, a world's own scratch among 1,024) is not touched."""
    from impulse2d._dynamics.world_ref import WorldStoresType, _payload as payload_of
    if not isinstance(ref, WorldStoresType) or not isinstance(name, types.StringLiteral):
        return None

    def codegen(context, builder, signature, args):
        payload = payload_of(context, builder, ref, args[0])
        slot = payload._get_ptr_by_name(name.literal_value)
        words = context.make_array(stash)(context, builder, args[3]).data
        place = builder.bitcast(cgutils.gep(builder, words, args[4]), slot.type)
        builder.store(builder.load(slot), place)
        context.nrt.incref(builder, array, args[2])
        builder.store(args[2], slot)
        return context.get_dummy_value()

    return types.none(ref, name, array, stash, at), codegen


@intrinsic
def _take_back(typingctx, ref, name, stash, at):
    """The array in ``ref.<name>`` (its reference passed to the caller) with the descriptor
    :func:`_lend` stashed at ``stash[at:]`` put back, uncounted."""
    from impulse2d._dynamics.world_ref import WorldStoresType, _payload as payload_of
    if not isinstance(ref, WorldStoresType) or not isinstance(name, types.StringLiteral):
        return None
    field_type = ref.field_dict[name.literal_value]

    def codegen(context, builder, signature, args):
        payload = payload_of(context, builder, ref, args[0])
        slot = payload._get_ptr_by_name(name.literal_value)
        words = context.make_array(stash)(context, builder, args[2]).data
        place = builder.bitcast(cgutils.gep(builder, words, args[3]), slot.type)
        value = builder.load(slot)
        builder.store(builder.load(place), slot)
        return value  # (a new reference: the field's)

    return field_type(ref, name, stash, at), codegen


VARIANTS = {  # head, payload, stores ahead (0: not prefetched), others, meminfos
    "none": (0, 0, 0, False, False),
    "copy": (0, 0, 1, False, False),
    "pipe": (3, 2, 1, True, True),
    "pipe_nomi": (3, 2, 1, True, False),
    "pipe2": (4, 3, 2, True, True),
    "pipe2_nomi": (4, 3, 2, True, False),
    "copy_mi": (0, 0, 1, False, True),
    "copy_others": (0, 0, 1, True, False),
    "cached": (0, 0, 0, False, False),  # (its own prefetch: KEEP in make)
}
EXTRA = {  # pipe_nomi and: the body and shape rows in use only, the columns no stage reads
           # left out, the joints' descriptors only for a world with joints, the scratch lent
           # uncounted
    "rows": (True, False, False, False),
    "cols": (True, True, False, False),
    "nojd": (False, False, True, False),
    "swap": (False, False, False, True),
    "rcn": (True, True, True, False),
    "all": (True, True, True, True),
    "rcn_view": (True, True, True, False),
    "rcn_borrowed": (True, True, True, False),
    "rcn_item": (True, True, True, False),
    "rcn_heads": (True, True, True, False),
    "rcn_both": (True, True, True, False),
    "rcn_swap": (True, True, True, True),
}
for _name in EXTRA:
    VARIANTS[_name] = VARIANTS["pipe_nomi"]
VIEW = {"rcn_view"}
"""Variants that read the world's row of arguments through a view (``a = args[i]``, a
reference counted on ``args``) and its rows in use through counted ``alive`` columns
(``borrow_column`` in this counting kernel): the batch kernel's loop before session 22;
``rcn_borrowed`` reads both uncounted (``args[i, DT]``, ``batch_step._rows_after_step``), as
the kernel does since; the other variants count the whole store's ``alive`` (session 20's)."""
BORROWED = {"rcn_borrowed", "rcn_item", "rcn_heads", "rcn_both", "rcn_swap"}
ITEM = {"rcn_item", "rcn_both", "rcn_swap"}
"""Variants that read the worlds from the batch's list by ``batch_step._world_at`` (the step's
world counted once, the next world's prefetch by ``batch_step.prefetch_world`` counting none)
where the others use Numba's ``getitem`` (two counts on the list's own MemInfo and two back,
a count on the world's, for each of the two worlds a turn): session 24's."""
HEADS = {"rcn_heads", "rcn_both", "rcn_swap"}
"""Variants that ask for the shapes' vertices and normals only as far as the world's most
vertices of a shape after its last step (``batch_step.BY_VERTEX``): session 24's."""

CACHED = 640
"""Room for the addresses of a world's lines in the ``cached`` variant (536 here)."""


@_jit
def _note(row, m, array):
    """Every line of ``array`` noted from ``row[m]`` (as room allows); returns the next m."""
    start = _data_of(array)
    for offset in range(0, array.nbytes, LINE):
        if m < row.shape[0]:
            row[m] = start + offset
        m += 1
    return m


@_jit
def _note_store(row, m, store):
    for column in literal_unroll(store):
        m = _note(row, m, column)
    return m


@_jit
def _note_world(row, head, ref):
    """The lines of the reference at ``head`` and of the arrays ``pipe_nomi`` prefetches into
    ``row[1:]``; ``row[0]``, their count."""
    m = 1
    for address in range(head - head % LINE, _payload_end(head), LINE):
        if m < row.shape[0]:
            row[m] = address
        m += 1
    m = _note_store(row, m, borrow(ref, "bodies"))
    m = _note_store(row, m, borrow(ref, "shapes"))
    m = _note_store(row, m, borrow(ref, "contacts"))
    m = _note_store(row, m, borrow(ref, "constraints"))
    m = _note_store(row, m, borrow(ref, "joint_ids"))
    m = _note_store(row, m, borrow(ref, "static_grid"))
    m = _note_store(row, m, borrow(ref, "resting"))
    m = _note(row, m, borrow(ref, "no_collide"))
    m = _note(row, m, borrow(ref, "clock"))
    m = _note(row, m, borrow(ref, "verbs"))
    m = _note(row, m, borrow(ref, "lengths"))
    m = _note(row, m, borrow(ref, "settings"))
    m = _note(row, m, borrow(ref, "awake_state"))
    m = _note(row, m, borrow(ref, "awake_bodies"))
    m = _note(row, m, borrow(ref, "awake_shapes"))
    m = _note(row, m, borrow(ref, "awake_contacts"))
    m = _note(row, m, borrow(ref, "contact_edges"))
    row[0] = min(m, row.shape[0]) - 1


def make(variant: str):
    """The batch kernel with ``variant``'s prefetch (:data:`VARIANTS`), compiled here."""
    HEAD, PAYLOAD, STORES, OTHERS, MEMINFOS = VARIANTS[variant]
    KEEP = variant == "cached"
    ROWS, COLS, NOJD, SWAP = EXTRA.get(variant, (False,) * 4)
    AS_VIEW, AS_BORROWED = variant in VIEW, variant in BORROWED
    AS_ITEM, BY_HEADS = variant in ITEM, variant in HEADS

    @numba.njit(nogil=True, error_model="numpy")
    def kernel(refs, which, args, out, rows, positions, angles, velocities, awake, touching,
               ticks, kept):
        lent_i = np.zeros(0, dtype=np.int64)
        lent_f = np.zeros((0, 3))
        stash = np.zeros(32, dtype=np.int64)
        n = which.shape[0]
        for k in range(n):
            i = which[k]
            c0 = cycles()
            if KEEP:
                if k + 1 < n:
                    j = which[k + 1]
                    for q in range(kept[j, 0]):
                        _prefetch_read(kept[j, 1 + q])
            elif HEAD > 0 and k + HEAD < n:
                _prefetch_read(_head_at(refs, which[k + HEAD]))
            if PAYLOAD > 0 and k + PAYLOAD < n:
                if NOJD:
                    _payload_but_joints(_head_at(refs, which[k + PAYLOAD]))
                else:
                    _payload(_head_at(refs, which[k + PAYLOAD]))
            if AS_ITEM and STORES > 0 and k + STORES < n:
                j = which[k + STORES]
                bs.prefetch_world(refs, j, kept[j, 0], kept[j, 1], kept[j, 2] if BY_HEADS else 0)
            elif STORES > 0 and k + STORES < n:
                j = which[k + STORES]
                ahead = refs[j]
                if NOJD:
                    _joint_descriptors(_head_at(refs, j), ahead)
                if BY_HEADS:
                    _stores_heads(ahead, kept[j, 0], kept[j, 1], kept[j, 2])
                elif COLS:
                    _stores_cols(ahead, kept[j, 0], kept[j, 1])
                elif ROWS:
                    _stores_rows(ahead, kept[j, 0], kept[j, 1])
                else:
                    _stores(ahead)
                if OTHERS:
                    _others(ahead)
                if MEMINFOS:
                    _meminfos(ahead)
            c1 = cycles()
            if AS_ITEM:
                world = bs._world_at(refs, i)
            else:
                world = refs[i]
            if not write_world(world, i, rows, positions.shape[1], args):
                out[i, UNWRITTEN] = 1.0
                continue
            if SWAP:
                own_n = borrow(world, "scratch").shape[0]
                own_fs = borrow(world, "scratch_f").shape
                if lent_i.shape[0] < own_n:
                    lent_i = np.zeros(own_n, dtype=np.int64)
                if lent_f.shape[0] < own_fs[0]:
                    lent_f = np.zeros(own_fs)
                _lend(world, "scratch", lent_i, stash, 0)
                _lend(world, "scratch_f", lent_f, stash, 16)
                status = step_kernel(world, args[i, DT], np.int64(WHOLE))
                lent_i = _take_back(world, "scratch", stash, 0)
                lent_f = _take_back(world, "scratch_f", stash, 16)
            else:
                own_i = world.scratch
                own_f = world.scratch_f
                if lent_i.shape[0] < own_i.shape[0]:
                    lent_i = np.zeros(own_i.shape[0], dtype=np.int64)
                if lent_f.shape[0] < own_f.shape[0]:
                    lent_f = np.zeros(own_f.shape)
                world.scratch = lent_i
                world.scratch_f = lent_f
                if AS_VIEW:
                    a = args[i]
                    status = step_kernel(world, a[DT], np.int64(WHOLE))
                else:
                    status = step_kernel(world, args[i, DT], np.int64(WHOLE))
                lent_i = world.scratch
                lent_f = world.scratch_f
                world.scratch = own_i
                world.scratch_f = own_f
            if AS_VIEW:
                kept[i, 0] = bs.rows_in_use(bs.borrow_column(world, "bodies", "alive"))
                kept[i, 1] = bs.rows_in_use(bs.borrow_column(world, "shapes", "alive"))
            elif AS_BORROWED:
                kept[i, 0], kept[i, 1], kept[i, 2] = bs._rows_after_step(world)
            elif ROWS:
                kept[i, 0] = bs.rows_in_use(borrow(world, "bodies").alive)
                kept[i, 1] = bs.rows_in_use(borrow(world, "shapes").alive)
            out[i, STATUS] = status
            out[i, UNWRITTEN] = 0.0
            if positions.shape[1] > 0:
                gather_world(world, i, rows, positions, angles, velocities, awake, touching)
            if KEEP and (kept[i, 0] == 0 or status & (NEW_CONTACTS | NEW_CONSTRAINTS) != 0):
                _note_world(kept[i], _head_at(refs, i), world)
            c2 = cycles()
            ticks[i, 0] = c1 - c0
            ticks[i, 1] = c2 - c1

    return kernel


def _runner(kernel, ticks, kept):
    def run(refs, which, args, out, gather=bs._NO_GATHER, share=bs.ALONE):
        if share[0].shape[0]:  # (a batch on threads shares its worlds out in the kernel)
            raise SystemExit("the variants step on one thread: --threads 1")
        t0 = time.perf_counter()
        kernel(refs, which, args, out, *gather, ticks, kept)
        return time.perf_counter() - t0
    return run


def measure(n: int, steps: int, threads: int, variants: list, kernels: dict, rate: float,
            base: str = ""):
    import impulse2d as i2d
    batches = {v: i2d.WorldBatch.replicate(ten_bodies(), n, threads=threads) for v in variants}
    ticks = {v: np.zeros((n, 2), dtype=np.int64) for v in variants}
    medians = {v: [] for v in variants}
    runs = {v: (bs.run if v == "main" else _runner(
        kernels[v], ticks[v], np.zeros((n, 1 + CACHED) if v == "cached" else (n, 3),
                                       dtype=np.int64))) for v in variants}
    cpu = {v: np.zeros(steps) for v in variants}
    clock = time.thread_time_ns if threads == 1 else time.process_time_ns
    original = bs.run
    try:
        for s in range(steps):
            r = s % len(variants)
            for v in variants[r:] + variants[:r]:
                bs.run = runs[v]
                c0 = clock()
                batches[v].step(1 / 60)
                cpu[v][s] = clock() - c0
                if v != "main":
                    stages = np.array([w._clock[-1] - w._clock[0] for w in batches[v].worlds])
                    medians[v].append((np.median(ticks[v][:, 0]), np.median(ticks[v][:, 1]),
                                       np.median(stages)))
    finally:
        bs.run = original
    out = {}
    for v in variants:
        b = batches[v]
        digest = hashlib.sha256(b.get_positions().tobytes() + b.get_velocities().tobytes())
        total = cpu[v].sum()
        row = {"cpu_rate": n * steps / (total * 1e-9), "hash": digest.hexdigest()[:16],
               "ns_per_world_step": total / (n * steps)}
        if v != "main":
            prefetch, turn, stages = np.median(np.array(medians[v]), axis=0) / rate
            row["prefetch_ns"] = float(prefetch)
            row["turn_ns"] = float(turn)
            row["stages_ns"] = float(stages)
        if "main" in variants:
            row["b_over_main_per_step_median"] = float(np.median(cpu["main"] / cpu[v]))
            row["b_over_main_total"] = float(cpu["main"].sum() / total)
        if base:
            row[f"b_over_{base}_per_step_median"] = float(np.median(cpu[base] / cpu[v]))
            row[f"b_over_{base}_total"] = float(cpu[base].sum() / total)
        out[v] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=int, nargs="+", default=[64, 1024])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--variants", default="main,none,copy,pipe")
    parser.add_argument("--json", default="")
    parser.add_argument("--base", default="",
                        help="a variant to give every variant's ratios against too")
    args = parser.parse_args()
    import impulse2d as i2d
    variants = args.variants.split(",")
    warm = i2d.WorldBatch.replicate(ten_bodies(), 4, threads=1)
    for _ in range(3):
        warm.step(1 / 60)
    kernels = {}
    for v in variants:
        if v == "main":
            continue
        t0 = time.process_time()
        kernels[v] = make(v)
        original = bs.run
        bs.run = _runner(kernels[v], np.zeros((4, 2), dtype=np.int64),
                         np.zeros((4, 1 + CACHED), dtype=np.int64))
        try:
            warm.step(1 / 60)  # compile it
        finally:
            bs.run = original
        print(f"compiled {v} in {time.process_time() - t0:.1f} s CPU", flush=True)
    rate = ticks_per_ns()
    result = {"load_before": os.getloadavg()[0], "steps": args.steps, "threads": args.threads,
              "ticks_per_ns": rate, "worlds": {}}
    for n in args.worlds:
        res = measure(n, args.steps, args.threads, variants, kernels, rate, args.base)
        key = str(n)  # (a size given again: a round of its own, "1024_2", ...)
        while key in result["worlds"]:
            key = f"{n}_{len([k for k in result['worlds'] if k.split('_')[0] == str(n)]) + 1}"
        result["worlds"][key] = res
        for v, row in res.items():
            print(f"{n:5d} {v:>10}: " + " ".join(
                f"{k} {x:.3f}" if isinstance(x, float) else f"{k} {x}" for k, x in row.items()),
                flush=True)
    result["load_after"] = os.getloadavg()[0]
    print(f"load {result['load_before']:.1f} -> {result['load_after']:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
