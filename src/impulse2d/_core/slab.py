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
    """Let kernels make ``store_type`` stores by :func:`empty_store` and :func:`zeroed_store`:
    ``layout`` maps each field to its (dtype, shape of a row), as for
    :func:`.storage.allocate_store`; the ``given`` fields are passed in (a tuple, in layout
    order), not carved."""
    LAYOUTS[store_type] = (layout, tuple(given))


def _store_intrinsic(zeroed: bool):
    """The intrinsic ``(store class, count, given arrays) -> store`` (zeroed or not)."""

    def typer(typingctx, cls, count, given):
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

        def codegen(context, builder, signature, args):
            # (imported here: a warm process, which never compiles, leaves numba.np.arrayobj
            # unimported: tests/test_numba_import.py)
            from numba.np.arrayobj import populate_array

            i64 = ir.IntType(64)
            n = context.cast(builder, args[1], count, types.int64)
            given_values = cgutils.unpack_tuple(builder, args[2], len(given))
            carved = []  # (field index, array type, row shape, item size, byte offset)
            total = i64(0)
            for k, (name, (dtype, row)) in enumerate(layout.items()):
                if name in given_names:
                    continue
                itemsize = np.dtype(dtype).itemsize
                total = builder.and_(builder.add(total, i64(7)), i64(-8))
                carved.append((k, store_type.types[k], row, itemsize, total))
                total = builder.add(total, builder.mul(n, i64(itemsize * math.prod(row))))
            meminfo = context.nrt.meminfo_alloc_aligned(builder, total, 64)
            data = context.nrt.meminfo_data(builder, meminfo)
            if zeroed:
                cgutils.memset(builder, data, total, 0)
            values = [None] * len(layout)
            for k, array_type, row, itemsize, offset in carved:
                array = context.make_array(array_type)(context, builder)
                shape = [n] + [i64(d) for d in row]
                strides = [i64(itemsize)]
                for d in reversed(shape[1:]):
                    strides.insert(0, builder.mul(strides[0], d))
                populate_array(array, data=builder.bitcast(builder.gep(data, [offset]),
                                                           array.data.type),
                               shape=shape, strides=strides, itemsize=i64(itemsize),
                               meminfo=meminfo)
                values[k] = array._getvalue()
            # one reference per column: the allocation came with one
            for _ in carved[1:]:
                context.nrt.incref(builder, carved[0][1], values[carved[0][0]])
            for name, t, value in zip(given_names, given, given_values):
                context.nrt.incref(builder, t, value)
                values[store_type.fields.index(name)] = value
            return context.make_tuple(builder, store_type, values)

        return store_type(cls, count, given), codegen

    typer.__name__ = "zeroed_store" if zeroed else "empty_store"
    return intrinsic(typer)


empty_store = _store_intrinsic(False)
"""``empty_store(StoreClass, count, given)``: a store of ``count`` rows, its carved columns not
written (``np.empty``'s), for a caller that writes every entry of every row."""

zeroed_store = _store_intrinsic(True)
"""``zeroed_store(StoreClass, count, given)``: the same with every carved column zeroed."""

if numba.config.DISABLE_JIT:
    def zeroed_store(cls, count, given):  # noqa: F811 (plain Python: a store of its own arrays)
        """:func:`zeroed_store` without the JIT."""
        layout, given_names = LAYOUTS[cls]
        return allocate_store(cls, layout, count)._replace(**dict(zip(given_names, given)))

    empty_store = zeroed_store  # noqa: F811
