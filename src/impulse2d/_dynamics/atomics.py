"""Atomic counters for the threads of one parallel region (:mod:`.threaded`).

Numba has no atomics; these intrinsics emit LLVM's: ``atomicrmw add`` (sequentially
consistent) on an element of an int64 array, an acquire load of one, and the CPU's spin-wait
hint. With them the threads of one ``prange`` launch hand out the pieces of a stage to
whichever thread is free and wait for the stage's last piece before the next stage, as Box2D
v3's workers do (``solver.c``: a stage's blocks are claimed with an atomic compare-exchange,
a stage's end is an atomic count), instead of one launch of Numba's threads per stage. A
thread that has waited long sleeps on the count (Linux's ``futex``: :func:`sleep_on`) until
the thread that completes it wakes it (:func:`wake_on`).
"""

from __future__ import annotations

import platform

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .._core.lazy import JIT

_PAUSE = platform.machine().lower() in ("x86_64", "amd64", "i686", "i386")
_YIELD = platform.system() != "Windows"  # (sched_yield is POSIX: Windows spins on the hint)
_FUTEX = {"x86_64": 202, "amd64": 202, "aarch64": 98, "arm64": 98}.get(
    platform.machine().lower()) if platform.system() == "Linux" else None
"""Linux's ``SYS_futex`` on this machine (``asm/unistd_64.h``), or None (no futex: a sleep is
a yield)."""
FUTEX_WAIT_PRIVATE, FUTEX_WAKE_PRIVATE = 128, 129  # FUTEX_WAIT / FUTEX_WAKE | FUTEX_PRIVATE_FLAG


def _element(context, builder, array_type, array, index):
    """A pointer to ``array[index]`` (a C-contiguous int64 array, in bounds)."""
    arr = context.make_array(array_type)(context, builder, array)
    return builder.gep(arr.data, [index])


def _read_modify_write(op, name, doc):
    """The intrinsic ``name(array, index, value)``: LLVM's ``atomicrmw op`` on ``array[index]``
    (a C-contiguous int64 array, in bounds), sequentially consistent; it returns the value
    before. ``doc``: what it does."""
    def rmw(typingctx, array, index, value):
        if not (isinstance(array, types.Array) and array.dtype == types.int64):
            return None
        sig = types.int64(array, types.intp, types.int64)

        def codegen(context, builder, signature, args):
            ptr = _element(context, builder, signature.args[0], args[0], args[1])
            return builder.atomic_rmw(op, ptr, args[2], "seq_cst")

        return sig, codegen

    rmw.__name__ = rmw.__qualname__ = name
    rmw.__doc__ = doc
    return intrinsic(rmw)


fetch_add = _read_modify_write("add", "fetch_add", """``array[index] += value`` as one atomic
    operation; returns the value before.""")
fetch_max = _read_modify_write("max", "fetch_max", """``array[index] = max(array[index],
    value)`` as one atomic operation (signed); returns the value before: a claim stamped with a
    number that only grows (a thread that finds a value below its own took the entry; one that
    finds its own or more did not, and changed nothing).""")
fetch_or = _read_modify_write("or", "fetch_or", """``array[index] |= value`` as one atomic
    operation; returns the value before: a union of bits that several threads add to.""")
exchange = _read_modify_write("xchg", "exchange", """``array[index] = value`` as one atomic
    operation (sequentially consistent: no write before it moves after it, none after it
    before); returns the value before.""")


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


def _yield(builder):
    """Give the core to another thread (``sched_yield``; on Windows, only the spin-wait hint):
    a sleep where there is no futex, so that on a busy machine the thread waited for may run."""
    if _YIELD:
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(32), []),
                                            "sched_yield")
        builder.call(fn, [])
    elif _PAUSE:
        _pause(builder)


def _syscall_futex(builder, ptr, op, value, timeout):
    """``syscall(SYS_futex, ptr, op, value, timeout, NULL, 0)`` (every argument widened to 64
    bits, as the kernel reads them from registers)."""
    i64 = ir.IntType(64)
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64], var_arg=True),
                                        "syscall")
    return builder.call(fn, [i64(_FUTEX), builder.ptrtoint(ptr, i64), i64(op), value,
                             builder.ptrtoint(timeout, i64) if timeout is not None else i64(0),
                             i64(0), i64(0)])


@intrinsic
def sleep_on(typingctx, array, index, seen, ns):
    """Sleep while ``array[index]`` still holds ``seen`` (its low 32 bits: the futex word, on a
    little-endian machine), at most ``ns`` nanoseconds, or until :func:`wake_on` wakes it; a
    return says nothing about the value (read it again). Where there is no futex, a
    ``sched_yield``."""
    if not (isinstance(array, types.Array) and array.dtype == types.int64):
        return None
    sig = types.void(array, types.intp, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        if _FUTEX is None:
            _yield(builder)
            return context.get_dummy_value()
        i64 = ir.IntType(64)
        ptr = _element(context, builder, signature.args[0], args[0], args[1])
        timeout = cgutils.alloca_once(builder, ir.LiteralStructType([i64, i64]))  # timespec
        second = i64(1_000_000_000)
        builder.store(builder.udiv(args[3], second), cgutils.gep_inbounds(builder, timeout, 0, 0))
        builder.store(builder.urem(args[3], second), cgutils.gep_inbounds(builder, timeout, 0, 1))
        word = builder.and_(args[2], i64(0xFFFFFFFF))
        _syscall_futex(builder, ptr, FUTEX_WAIT_PRIVATE, word, timeout)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def wake_on(typingctx, array, index):
    """Wake every thread asleep on ``array[index]`` (:func:`sleep_on`); nothing where there is
    no futex."""
    if not (isinstance(array, types.Array) and array.dtype == types.int64):
        return None
    sig = types.void(array, types.intp)

    def codegen(context, builder, signature, args):
        if _FUTEX is not None:
            ptr = _element(context, builder, signature.args[0], args[0], args[1])
            _syscall_futex(builder, ptr, FUTEX_WAKE_PRIVATE, ir.IntType(64)(2 ** 31 - 1), None)
        return context.get_dummy_value()

    return sig, codegen


if not JIT:
    def fetch_add(array, index, value):  # noqa: F811  (plain Python: one thread)
        before = array[index]
        array[index] += value
        return before

    def fetch_max(array, index, value):  # noqa: F811
        before = array[index]
        array[index] = max(before, value)
        return before

    def fetch_or(array, index, value):  # noqa: F811
        before = array[index]
        array[index] |= value
        return before

    def exchange(array, index, value):  # noqa: F811
        before = array[index]
        array[index] = value
        return before

    def load_acquire(array, index):  # noqa: F811
        return array[index]

    def spin_pause():  # noqa: F811
        pass

    def sleep_on(array, index, seen, ns):  # noqa: F811
        pass

    def wake_on(array, index):  # noqa: F811
        pass
