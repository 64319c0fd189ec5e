"""The usual step's call into the step kernel: three numbers, Python's lock kept when alone.

Numba's entry point of the step kernel (:func:`._dynamics.step.step_kernel`, a
:data:`._core.jit.gil_free_kernel`) costs a five-ball step about 840 instructions besides the
kernel (callgrind, BENCHMARKS.md session 23, ``small48``). Two pieces are the largest: it lets
go of Python's global lock around the kernel and takes it back (``PyEval_SaveThread``,
``PyEval_RestoreThread``: two mutexes and a condition signal, ~385 instructions, 45-49 ns a
call), so that Python threads step separate worlds at once; and it unboxes the world reference
by its ``_meminfo`` attribute (~172 instructions, and a reference count taken and given back).

The usual step (:func:`._stepping.world_step`, and :func:`._stepping.step_world` through the
ready flag) calls :data:`ALONE` instead, with three numbers made once, with the step's ready
flag (:func:`usual_arguments`): the address of the step kernel's own code
(:attr:`._core.direct_call.DirectCall.native`), the address of the world reference (its meminfo
pointer; the flag keeps the reference alive) and ``dt``. Its kernel calls the step kernel's code
with the phase :data:`~._dynamics.step.WHOLE` (:func:`_step_at`): the same machine code on the
same stores, the same bits; about 540 instructions less a five-ball step (callgrind), 0.05-0.08
us of its ~1.6 on the AMD EPYC machine (``benchmarks/small_alone.py``; BENCHMARKS.md, session
25, ``small50``). The lock is let go around the call only where another thread state exists:
another thread of this interpreter, or another interpreter (Python 3.11's interpreters share the
one lock). With none, nobody can be waiting for it. (A thread that C code starts during the
step, ``PyGILState_Ensure``, waits for the step's end, as it waits for any Python code; the list
is read without its lock, which can only miss such a thread.)

Its kernel lives outside ``_dynamics/`` so that an edit here recompiles it alone (the kernel
cache's stamp, :mod:`._core.cache`, covers ``_core/``, ``_collision/`` and ``_dynamics/``).
"""

from __future__ import annotations

import ctypes

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.callconv import excinfo_ptr_t
from numba.core.runtime import _nrt_python
from numba.extending import intrinsic

from ._core.jit import DirectCall, kernel
from ._dynamics.step import WHOLE, _step, step_kernel
from ._dynamics.world_ref import WORLD_STORES

_STEP_TYPES = (WORLD_STORES, types.float64, types.int64)
"""The step kernel's arguments: the reference, ``dt``, the phase."""

_MEMINFO_FROM_PYOBJECT = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.py_object)(
    _nrt_python.c_helpers["meminfo_from_pyobject"])
_MEMINFO_RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(
    _nrt_python.c_helpers["MemInfo_release"])


def _c_function(builder, name: str, arguments: int):
    """Python's C function ``name``, of ``arguments`` pointers, returning a pointer."""
    pointer = cgutils.voidptr_t
    return cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(pointer, [pointer] * arguments), name)


def _alone(builder):
    """Whether this interpreter is the only one and the calling thread its only thread state
    (nobody else can want Python's lock)."""
    interpreter = builder.call(_c_function(builder, "PyInterpreterState_Head", 0), [])
    other = builder.call(_c_function(builder, "PyInterpreterState_Next", 1), [interpreter])
    head = builder.call(_c_function(builder, "PyInterpreterState_ThreadHead", 1), [interpreter])
    second = builder.call(_c_function(builder, "PyThreadState_Next", 1), [head])
    return builder.and_(cgutils.is_null(builder, other), cgutils.is_null(builder, second))


@intrinsic
def _step_at(typingctx, code, reference, dt):
    """The step kernel's code at ``code`` called with the reference at ``reference`` (its
    meminfo pointer, borrowed: no reference count), ``dt`` and :data:`WHOLE`, as Numba's own
    calls of a kernel are made (:meth:`numba.core.callconv.CPUCallConv.call_function`), the
    lock let go around it unless :func:`_alone`. Returns the kernel's status."""
    if not (isinstance(code, types.Integer) and isinstance(reference, types.Integer)
            and isinstance(dt, types.Float)):
        return None

    def codegen(context, builder, signature, args):
        call_conv = context.call_conv
        ref = cgutils.create_struct_proxy(WORLD_STORES)(context, builder)
        ref.meminfo = builder.inttoptr(args[1], cgutils.voidptr_t)
        phase = context.get_constant(types.int64, WHOLE)
        function = builder.inttoptr(
            args[0], call_conv.get_function_type(types.int64, _STEP_TYPES).as_pointer())
        result = cgutils.alloca_once_value(builder, context.get_constant(types.int64, 0))
        excinfo = cgutils.alloca_once(builder, excinfo_ptr_t, name="excinfo")
        arguments = [result, excinfo] + list(call_conv._get_arg_packer(_STEP_TYPES).as_arguments(
            builder, [ref._getvalue(), args[2], phase]))
        code = cgutils.alloca_once(builder, ir.IntType(32))
        with builder.if_else(_alone(builder), likely=True) as (held, released):
            with held:
                builder.store(builder.call(function, arguments), code)
            with released:
                pyapi = context.get_python_api(builder)
                state = pyapi.save_thread()
                builder.store(builder.call(function, arguments), code)
                pyapi.restore_thread(state)
        status = call_conv._get_return_status(builder, builder.load(code),
                                              builder.load(excinfo))
        with cgutils.if_unlikely(builder, status.is_error):
            call_conv.return_status_propagate(builder, status)
        return builder.load(result)

    return types.int64(code, reference, dt), codegen


def _reference_address(stores) -> int:
    """The address of the world reference ``stores`` (its meminfo pointer), by the NRT's own
    helper of Numba's unboxing (which takes a reference: given back at once; ``stores`` keeps
    its own)."""
    address = _MEMINFO_FROM_PYOBJECT(stores._meminfo)
    _MEMINFO_RELEASE(address)
    return address


if numba.config.DISABLE_JIT:
    def _step_alone(code, reference, dt):
        """The step kernel (``code``: the function itself without the JIT) on ``reference``."""
        return code(reference, dt, WHOLE)

    def usual_arguments(stores, dt: float) -> tuple:
        """:data:`ALONE`'s arguments for the reference ``stores`` and ``dt``."""
        return step_kernel, stores, dt
else:
    @kernel
    def _step_alone(code, reference, dt):
        """The step kernel's status for the reference at ``reference`` (an address) stepped
        by ``dt`` (a float checked in range), its code at ``code`` (:func:`_step_at`)."""
        return _step_at(code, reference, dt)

    def usual_arguments(stores, dt: float) -> tuple:
        """:data:`ALONE`'s arguments for the reference ``stores`` (which the caller keeps alive
        while they are used) and ``dt``: the step kernel made ready first."""
        if not _step.native:
            _step.prepare(stores, dt, WHOLE)
        return _step.native, _reference_address(stores), dt

ALONE = DirectCall(_step_alone, "the usual step's call", 1.0)
"""The usual step: ``ALONE.entry(*usual_arguments(stores, dt))`` is the step kernel's status."""
