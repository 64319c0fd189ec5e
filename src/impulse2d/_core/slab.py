"""A store made in a kernel as one allocation: every column a view into it.

The step makes a new contact store when a world's pairs change and a new constraint store
when its row count does (a quarter of the world-steps of a 10-body world while it settles).
Made column by column, a store is 16 (contacts) or 24 (constraints) allocations, each freed
again with the store it replaces: in a batch of 1,024 such worlds the old store's chunks are
out of the cache, and glibc's ``free`` reads each chunk's header and its neighbours' to merge
them (``unlink_chunk``, ``_int_free``): malloc and free were 13 % of a 1,024-world
world-step's samples (``perf_jit.py --scene batch``; BENCHMARKS.md, session 21, ``batch46``).
Carved from one allocation, a store is one ``malloc`` and one ``free``, its columns' reference
counts one line, and its bytes contiguous (fewer partial lines).

The columns are C-contiguous arrays of the store's layout, each holding a reference to the
allocation (NRT's MemInfo), as views of one NumPy buffer hold its base: a snapshot's stores
are such views already (:mod:`impulse2d._snapshot_copy`). Each column starts at a multiple of
8 bytes (a bool column's length may be any); the allocation at 64 (a cache line).

The step's stores keep their allocation while it has the room (:func:`zeroed_store_in`, the
constraint store, in place; :func:`empty_store_beside`, the contact store, which is merged
from the one it replaces, in the other half of an allocation of two): a landing pile changes
both counts on most steps, and a new allocation each time cost rain_2000's landing its pages,
each new one's faulted in and each freed one's given back (glibc serves these sizes, 0.3-1.8
MB, by ``mmap`` and ``munmap``, or trims its heap: 344 minor faults a step over steps 91-120
at one thread, and at two each unmapping a TLB shootdown to the other CPU; BENCHMARKS.md,
sessions 25 and 26, ``big50``, ``rain51``). Only stores of :data:`KEEP_BYTES` or more:
smaller ones are made anew, as malloc recycles them well. The room a store has is read off the
store itself (where its second column starts), so a world's reference gets no new field.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .storage import allocate_store

LAYOUTS: dict = {}
"""Store type -> (its layout, the columns passed in rather than made: their own rows)."""


def register(store_type, layout: dict, given: tuple = ()) -> None:
    """Let kernels make ``store_type`` stores by :func:`zeroed_store_in` and
    :func:`empty_store_beside`: ``layout`` maps each field to its (dtype, shape of a row), as
    for :func:`.storage.allocate_store`; the ``given`` fields are passed in (a tuple, in layout
    order), not carved."""
    LAYOUTS[store_type] = (layout, tuple(given))


I64 = ir.IntType(64)
_MEMINFO = ir.LiteralStructType([I64, ir.IntType(8).as_pointer(), ir.IntType(8).as_pointer(),
                                 ir.IntType(8).as_pointer(), I64])
"""The head of NRT's ``MemInfo`` (``numba/core/runtime/nrt.cpp``): the reference count, the
destructor and its argument, the data, and the size (of an NRT allocation; 0 for an array
unboxed from Python)."""
KEEP_BYTES = 1 << 17
"""The smallest store that keeps its room (bytes of its rows): glibc's default ``mmap``
threshold (``M_MMAP_THRESHOLD``). A smaller block comes from malloc's bins, most often the one
the last ``free`` gave back, still in the cache, where a store kept in its place has been left
since the world's last step (a batch's 10-body worlds: 1,024 of them step one after another);
a larger one, as the stores of a landing pile grow, from new pages."""


def _typed(cls, count, given):
    """The store type of a ``(store class, count, given arrays)`` call, and its layout's carved
    columns (field index, array type, row shape, item size, bytes a row), or None."""
    if (not isinstance(cls, types.NamedTupleClass) or cls.instance_class not in LAYOUTS
            or not isinstance(count, types.Integer) or not isinstance(given, types.BaseTuple)):
        return None
    layout, given_names = LAYOUTS[cls.instance_class]
    store_type = numba.typeof(allocate_store(cls.instance_class, layout, 0))
    if len(given) != len(given_names):
        return None
    for name, t in zip(given_names, given):
        if t != store_type.types[store_type.fields.index(name)]:
            return None
    carved = [(k, store_type.types[k], row, np.dtype(dtype).itemsize,
               np.dtype(dtype).itemsize * math.prod(row))
              for k, (name, (dtype, row)) in enumerate(layout.items()) if name not in given_names]
    return store_type, carved


def _offsets(builder, carved, rows):
    """Each carved column's byte offset in a store of ``rows`` rows (each at a multiple of 8),
    and the store's bytes rounded up to a cache line (where a second store starts)."""
    total = I64(0)
    offsets = []
    for *_, row_bytes in carved:
        total = builder.and_(builder.add(total, I64(7)), I64(-8))
        offsets.append(total)
        total = builder.add(total, builder.mul(rows, I64(row_bytes)))
    return offsets, builder.and_(builder.add(total, I64(63)), I64(-64))


def _make_store(context, builder, store_type, carved, given, given_values, meminfo, base,
                offsets, n):
    """The store of ``n`` rows: each carved column at ``base`` (an address) plus its offset, a
    view holding one reference to ``meminfo`` (the caller holds the first column's), each given
    column one more."""
    # (imported here: a warm process, which never compiles, leaves numba.np.arrayobj
    # unimported: tests/test_numba_import.py)
    from numba.np.arrayobj import populate_array

    values = [None] * len(store_type.types)
    for (k, array_type, row, itemsize, _), offset in zip(carved, offsets):
        array = context.make_array(array_type)(context, builder)
        data = builder.inttoptr(builder.add(base, offset), array.data.type)
        shape = [n] + [I64(d) for d in row]
        strides = [I64(itemsize)]
        for d in reversed(shape[1:]):
            strides.insert(0, builder.mul(strides[0], d))
        populate_array(array, data=data, shape=shape, strides=strides, itemsize=I64(itemsize),
                       meminfo=meminfo)
        values[k] = array._getvalue()
    for k, array_type, *_ in carved[1:]:
        context.nrt.incref(builder, array_type, values[k])
    given_fields = [k for k, value in enumerate(values) if value is None]  # (in layout order)
    for k, t, value in zip(given_fields, given, given_values):
        context.nrt.incref(builder, t, value)
        values[k] = value
    return context.make_tuple(builder, store_type, values)


def _store_in_intrinsic(zeroed: bool, parts: int):
    """The intrinsic ``(store class, count, given arrays, old store) -> store``: ``parts``
    stores to an allocation kept, 1 (:func:`zeroed_store_in`: the new store in the old one's
    place) or 2 (:func:`empty_store_beside`: in the part the old one does not take)."""

    def typer(typingctx, cls, count, given, old):
        typed = _typed(cls, count, given)
        if typed is None:
            return None
        store_type, carved = typed
        # (the room is read off the first two carved columns' distance: whole 8-byte rows)
        if old != store_type or len(carved) < 2 or carved[0][4] % 8:
            return None

        def codegen(context, builder, signature, args):
            n = context.cast(builder, args[1], count, types.int64)
            old_values = cgutils.unpack_tuple(builder, args[3], len(store_type.types))
            olds = [context.make_array(t)(context, builder, old_values[k])
                    for k, t, *_ in carved]
            meminfo_type = olds[0].meminfo.type
            old_meminfo = olds[0].meminfo
            first = builder.ptrtoint(olds[0].data, I64)
            second = builder.ptrtoint(olds[1].data, I64)
            room = builder.udiv(builder.sub(second, first), I64(carved[0][4]))
            # Whether the old store is one this intrinsic made to keep: every carved column a
            # view of one NRT allocation, at its offset for `room` rows in a part of at least
            # KEEP_BYTES, `parts` of which the allocation's size holds. A store from Python never
            # is (each array unboxed gets a MemInfo of its own, of size 0).
            made_here = cgutils.alloca_once_value(builder, cgutils.false_bit)
            old_part = cgutils.alloca_once_value(builder, I64(0))
            with builder.if_then(builder.and_(
                    cgutils.is_not_null(builder, old_meminfo),
                    builder.icmp_unsigned(">=", second, first))):
                header = builder.bitcast(old_meminfo, _MEMINFO.as_pointer())
                data = builder.ptrtoint(builder.load(cgutils.gep(builder, header, 0, 3)), I64)
                size = builder.load(cgutils.gep(builder, header, 0, 4))
                offsets, part_bytes = _offsets(builder, carved, room)
                part = I64(0)
                if parts == 2:
                    part = builder.zext(builder.icmp_unsigned("!=", first, data), I64)
                base = builder.add(data, builder.mul(part, part_bytes))
                ok = builder.and_(
                    builder.icmp_unsigned("<=", builder.mul(I64(parts), part_bytes), size),
                    builder.icmp_unsigned(">=", part_bytes, I64(KEEP_BYTES)))
                for array, offset in zip(olds, offsets):
                    ok = builder.and_(ok, builder.and_(
                        builder.icmp_unsigned("==", array.meminfo, old_meminfo),
                        builder.icmp_unsigned("==", builder.ptrtoint(array.data, I64),
                                              builder.add(base, offset))))
                builder.store(ok, made_here)
                builder.store(part, old_part)
            made_here = builder.load(made_here)
            fits = builder.and_(made_here, builder.icmp_unsigned("<=", n, room))
            keeps = builder.icmp_unsigned(">=", _offsets(builder, carved, n)[1], I64(KEEP_BYTES))
            grown = builder.add(room, builder.lshr(room, I64(1)))  # half again
            grown = builder.select(builder.and_(made_here, builder.icmp_unsigned(">", grown, n)),
                                   grown, n)
            rows = builder.select(fits, room, builder.select(keeps, grown, n))
            offsets, part_bytes = _offsets(builder, carved, rows)
            meminfo = cgutils.alloca_once(builder, meminfo_type)
            base = cgutils.alloca_once(builder, I64)
            with builder.if_else(fits) as (kept, made):
                with kept:
                    context.nrt.incref(builder, carved[0][1], old_values[carved[0][0]])
                    builder.store(old_meminfo, meminfo)
                    data = builder.ptrtoint(context.nrt.meminfo_data(builder, old_meminfo), I64)
                    if parts == 2:  # the other part
                        other = builder.sub(I64(1), builder.load(old_part))
                        data = builder.add(data, builder.mul(other, part_bytes))
                    builder.store(data, base)
                with made:  # (a store too small to keep gets one part)
                    fresh = context.nrt.meminfo_alloc_aligned(builder, builder.mul(
                        builder.select(keeps, I64(parts), I64(1)), part_bytes), 64)
                    builder.store(fresh, meminfo)
                    builder.store(builder.ptrtoint(context.nrt.meminfo_data(builder, fresh), I64),
                                  base)
            base = builder.load(base)
            if zeroed:
                # a store with room: each column's rows (the room between them is no row of
                # it); a store of its own rows: all of them in one go
                with builder.if_else(builder.or_(fits, keeps)) as (by_column, whole):
                    with by_column:
                        for offset, (*_, row_bytes) in zip(offsets, carved):
                            cgutils.memset(builder, builder.inttoptr(
                                builder.add(base, offset), cgutils.voidptr_t),
                                builder.mul(n, I64(row_bytes)), 0)
                    with whole:
                        cgutils.memset(builder, builder.inttoptr(base, cgutils.voidptr_t),
                                       part_bytes, 0)
            return _make_store(context, builder, store_type, carved, given,
                               cgutils.unpack_tuple(builder, args[2], len(given)),
                               builder.load(meminfo), base, offsets, n)

        return store_type(cls, count, given, old), codegen

    typer.__name__ = "zeroed_store_in" if zeroed else "empty_store_beside"
    return intrinsic(typer)


zeroed_store_in = _store_in_intrinsic(True, 1)
"""``zeroed_store_in(StoreClass, count, given, old)``: a zeroed store of ``count`` rows that
replaces ``old``: in ``old``'s own allocation where ``old`` was made so to keep (of
:data:`KEEP_BYTES` or more) and has the room (its rows are overwritten: ``old`` must not be
read after), else in a new one: of ``count`` rows if ``old`` was not made so or the store is
smaller than :data:`KEEP_BYTES`, else with room for half again as many as ``old``'s allocation
held (at least ``count``). The room is never given back while the store is replaced this
way."""

empty_store_beside = _store_in_intrinsic(False, 2)
"""``empty_store_beside(StoreClass, count, given, old)``: an unwritten store of ``count`` rows
to be filled from ``old``: an allocation of a store to keep holds two, and where ``old`` was
made so and the allocation has the room, the new store takes the part ``old`` does not (``old``
stays as it is; the store ``old`` replaced must not be read after), else a new allocation, its
room as :func:`zeroed_store_in` gives it (one store's, if smaller than :data:`KEEP_BYTES`)."""

if numba.config.DISABLE_JIT:
    def zeroed_store_in(cls, count, given, old):  # noqa: F811 (plain Python: a new store)
        """:func:`zeroed_store_in` without the JIT: a new store of its own arrays."""
        layout, given_names = LAYOUTS[cls]
        return allocate_store(cls, layout, count)._replace(**dict(zip(given_names, given)))

    empty_store_beside = zeroed_store_in  # noqa: F811
