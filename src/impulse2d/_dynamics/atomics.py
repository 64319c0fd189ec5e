"""Atomic counters for the threads of one parallel region (:mod:`.threaded`).

Numba has no atomics; these intrinsics emit LLVM's: ``atomicrmw add`` (sequentially
consistent) on an element of an int64 array, an acquire load of one, and the CPU's spin-wait
hint. With them the threads of one ``prange`` launch hand out the pieces of a stage to
whichever thread is free and wait for the stage's last piece before the next stage, as Box2D
v3's workers do (``solver.c``: a stage's blocks are claimed with an atomic compare-exchange,
a stage's end is an atomic count), instead of one launch of Numba's threads per stage.
"""

from __future__ import annotations

import platform

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .._core.lazy import JIT

_PAUSE = platform.machine().lower() in ("x86_64", "amd64", "i686", "i386")
_YIELD = platform.system() != "Windows"  # (sched_yield is POSIX: Windows spins on the hint)


def _element(context, builder, array_type, array, index):
    """A pointer to ``array[index]`` (a C-contiguous int64 array, in bounds)."""
    arr = context.make_array(array_type)(context, builder, array)
    return builder.gep(arr.data, [index])


@intrinsic
def fetch_add(typingctx, array, index, value):
    """``array[index] += value`` as one atomic operation; returns the value before."""
    if not (isinstance(array, types.Array) and array.dtype == types.int64):
        return None
    sig = types.int64(array, types.intp, types.int64)

    def codegen(context, builder, signature, args):
        ptr = _element(context, builder, signature.args[0], args[0], args[1])
        return builder.atomic_rmw("add", ptr, args[2], "seq_cst")

    return sig, codegen


@intrinsic
def load_acquire(typingctx, array, index):
    """``array[index]``, read with acquire ordering: what its writer wrote before its atomic
    increment (:func:`fetch_add`) is seen after this read sees the increment."""
    if not (isinstance(array, types.Array) and array.dtype == types.int64):
        return None
    sig = types.int64(array, types.intp)

    def codegen(context, builder, signature, args):
        ptr = _element(context, builder, signature.args[0], args[0], args[1])
        return builder.load_atomic(ptr, "acquire", 8)

    return sig, codegen


def _pause(builder):
    """x86's ``pause`` at the builder's position (LLVM's intrinsic: Numba's JIT has no
    assembler for inline asm)."""
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), []),
                                        "llvm.x86.sse2.pause")
    builder.call(fn, [])


@intrinsic
def spin_pause(typingctx):
    """The CPU's spin-wait hint (x86 ``pause``; nothing elsewhere): a waiting thread leaves
    the core's resources to its sibling and does not flood the memory bus with reads."""
    def codegen(context, builder, signature, args):
        if _PAUSE:
            _pause(builder)
        return context.get_dummy_value()

    return types.void(), codegen


@intrinsic
def yield_core(typingctx):
    """Give the core to another thread (``sched_yield``; on Windows, only the spin-wait hint):
    what a thread waiting for a stage's last piece does after spinning a while, so that on a
    busy machine the thread it waits for may run."""
    def codegen(context, builder, signature, args):
        if _YIELD:
            fn = cgutils.get_or_insert_function(builder.module,
                                                ir.FunctionType(ir.IntType(32), []),
                                                "sched_yield")
            builder.call(fn, [])
        elif _PAUSE:
            _pause(builder)
        return context.get_dummy_value()

    return types.void(), codegen


if not JIT:
    def fetch_add(array, index, value):  # noqa: F811  (plain Python: one thread)
        before = array[index]
        array[index] += value
        return before

    def load_acquire(array, index):  # noqa: F811
        return array[index]

    def spin_pause():  # noqa: F811
        pass

    def yield_core():  # noqa: F811
        pass
