"""Arrays handed to a kernel by address.

A kernel called from Python unboxes each array argument on every call: about 0.1-0.3 us per
array on the 2-core CI machine, so a query reading twenty arrays of the shape and body stores
and of its index would spend several microseconds before doing anything. The queries instead
pass one int64 array of addresses (:func:`address` of each array, kept alive by its owner on
the Python side) and the kernel views each array again with :func:`numba.carray` over
:func:`void_pointer` of its address: one unboxing per call.

The views borrow the memory: the Python object that wrote the addresses must hold a reference
to every array for as long as a kernel may read them, and an array must not be replaced (a
store that grows is a new array) while its address is in use.
"""

from __future__ import annotations

import ctypes

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic


def address(array: np.ndarray) -> int:
    """The address of a C-contiguous array's first element."""
    if not array.flags.c_contiguous:
        raise ValueError("only a C-contiguous array can be passed by address")
    return int(array.__array_interface__["data"][0])


if numba.config.DISABLE_JIT:
    def void_pointer(value):
        """The address as a ``void *``, for :func:`numba.carray` (here a ctypes pointer)."""
        return ctypes.c_void_p(int(value))
else:
    @intrinsic
    def void_pointer(typingctx, value):
        """The integer ``value`` as a ``void *``, for :func:`numba.carray`."""
        if not isinstance(value, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return builder.inttoptr(args[0], cgutils.voidptr_t)

        return types.voidptr(value), codegen


def emit_prefetch(builder, pointer, locality: int) -> None:
    """Code for an intrinsic: ask the CPU for the cache line at ``pointer`` (an ``i8*``) with
    LLVM's ``prefetch`` (a read, of data), kept in the caches by ``locality`` (0: none, ..., 3:
    every level). A hint only: nothing is read, and an address past the data is never faulted
    on."""
    i32 = ir.IntType(32)
    fn = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t, i32, i32, i32]),
        "llvm.prefetch.p0i8")
    builder.call(fn, [pointer, ir.Constant(i32, 0), ir.Constant(i32, locality),
                      ir.Constant(i32, 1)])


__all__ = ["address", "void_pointer", "emit_prefetch"]
