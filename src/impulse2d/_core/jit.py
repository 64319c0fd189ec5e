"""The one JIT policy of the engine.

Every kernel in the package is decorated with one of the decorators below, so that caching
and floating-point flags are decided in a single place:

* ``cache=True`` by default: compiled machine code is cached (where: :mod:`.cache`) and re-used
  by the next process (warm start-up). Set ``IMPULSE2D_NUMBA_CACHE=0`` to opt out.
* Kernels are compiled when first needed; the solver, each joint type and the step's largest
  stages are compiled on their own, when a world needs them (:mod:`.lazy`).
* A kernel's Numba dispatcher is itself made on first use (:mod:`.deferred`): a warm process
  makes the few it calls and loads, not one for each of the package's ~490 kernels.
* No ``fastmath``: the solver must be bit-reproducible (the same scene run twice gives the same
  bits), and re-association or FMA contraction would make results depend on the compiler's mood.
* ``error_model="numpy"``: a division by zero gives inf/NaN instead of raising inside a kernel;
  the public boundary is where bad input is rejected.
* ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python (debugging, coverage).

Numba freezes module-level globals into cached code, so tunables are passed to kernels as
arguments rather than read from globals (see Numba's "Notes on Caching").
"""

from __future__ import annotations

import os
import platform
import time

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .lazy import FIRST_COMPILE
from . import cache as _cache  # the package's Numba cache locator (see .cache)
from . import link_only as _link_only  # no machine code for kernels only kernels call (see there)
from . import overloads as _overloads  # Numba's library functions compiled once (see there)
from .deferred import DeferredKernel
from .direct_call import DirectCall  # (Python's calls of a kernel: see there)
_cache.install()
_overloads.install()


def _install_inliner() -> bool:
    """Numba's IR inliner copying a callee once (:mod:`.inliner`)."""
    from . import inliner
    return inliner.install()


def _install_frontend() -> bool:
    """Numba's front end made cheaper, the same output (:mod:`.frontend`)."""
    from . import frontend
    return frontend.install()


# (at the first compile, not at import: Numba's inliner module imports list and range
# lowering that a warm process, which loads every kernel, never needs, and a warm process
# imports neither patch's module)
FIRST_COMPILE.append(_install_inliner)
FIRST_COMPILE.append(_link_only.install)
FIRST_COMPILE.append(_install_frontend)

CACHE = os.environ.get("IMPULSE2D_NUMBA_CACHE", "1") not in ("0", "false", "False", "")


def _jit(**options):
    """``numba.njit`` with the engine's policy and ``options``; the kernel's cache loads
    without first loading Numba's compiler (:class:`.cache.QuickLoadCache`). The dispatcher is
    made on the kernel's first use (:class:`.deferred.DeferredKernel`): a warm process uses a
    few dozen of the package's ~490 kernels."""
    decorate = numba.njit(cache=CACHE, fastmath=False, error_model="numpy", **options)

    def make(function):
        dispatcher = decorate(function)
        _cache.quick_loading(dispatcher)
        return dispatcher

    if numba.config.DISABLE_JIT:
        return make  # the plain function: nothing to defer

    def decorator(function):
        return DeferredKernel(function, make)

    return decorator


kernel = _jit(no_cfunc_wrapper=True)
"""Decorator for every jitted function of the engine (``@kernel``).

Numba gives every kernel two wrappers: one to be called from Python, which unboxes each
argument (for a store, each of its 20-80 arrays), and a C one, to be called by address. Each
costs compile time, so a kernel gets only those it is called through: ``@kernel`` may be called
from Python, the kernels below only from kernels, and :data:`entry_kernel` by address.
"""

gil_free_kernel = _jit(no_cfunc_wrapper=True, nogil=True)
"""``@kernel`` that releases Python's global lock while it runs: the step (one world, or a
batch's share of worlds, :mod:`impulse2d.batch`), so that Python threads step separate worlds
at once. Only for kernels that neither call back into Python nor raise: the lock is taken
again to box what they return."""

inner_kernel = _jit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
"""``@kernel`` called only from other kernels: it may allocate, and has no Python wrapper."""

borrowing_kernel = _jit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
"""``@kernel`` without Numba's reference counting, for the solver's hot loops; called only from
kernels (no Python wrapper: for a joint type's kernels that cut a quarter of the compile time,
8.5 -> 6.2 s for the revolute joint, measured on the 2-core CI machine).

A kernel that takes the world's stores increments and decrements the reference count of every
array in them on each call: three stores hold about 80 arrays, so about 240 atomic operations,
0.35-0.45 us a call (measured on the 2-core CI machine), paid by every verb in every substep,
and per joint by a helper the compiler does not inline. A borrowing kernel only borrows the
arrays its caller holds, so it must neither allocate an array nor return one (Numba refuses to
compile an allocation without reference counting, so the first rule is checked; the second is
ours to keep). Scalars and tuples of scalars are fine.
"""

inline_kernel = _jit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                     inline="always")
"""``@borrowing_kernel`` compiled into each caller (Numba IR inlining) instead of called.

A call between kernels passes every array of a store as about eight machine words on the
stack: the joint and body stores are 500-600 words, about 0.3 us a call (measured on the 2-core
CI machine). That is paid per verb per substep, and twice where a dispatcher forwards the stores
to a joint type's verb. The dispatchers are small, so they are inlined and pass the stores on
only once. A change to an inlined kernel reaches its callers' cached code only once the callers'
cache is cleared.
"""


entry_kernel = _jit(_nrt=False, no_cpython_wrapper=True)
"""``@borrowing_kernel`` called by address from the step (:mod:`.lazy`): it keeps Numba's C
wrapper, which is what the address points at."""

stage_kernel = _jit(no_cpython_wrapper=True)
"""``@inner_kernel`` (it may allocate) called by address from the step, like
:data:`entry_kernel`."""

python_stage_kernel = _jit()
"""``@stage_kernel`` that Python may call too: for a stage compiled in the middle of a step,
which Python runs itself on that step and the step calls by address from then on."""


# The x86 time-stamp counter runs at a constant rate and user code may read it. On other CPUs
# LLVM's ``readcyclecounter`` may read a counter the OS forbids (SIGILL on ARM), so kernels there
# read no clock at all and the step's stages go unmeasured (see ``Profile``).
CYCLE_COUNTER = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686", "x86")

if numba.config.DISABLE_JIT:
    def cycles() -> int:
        """A monotonic tick count (here nanoseconds: the JIT is off)."""
        return time.perf_counter_ns()
else:
    @intrinsic
    def cycles(typingctx):
        """The CPU's cycle counter (LLVM ``readcyclecounter``), the cheapest clock a kernel can
        read, for the relative cost of its stages: ticks, not seconds; always 0 where there is
        no usable counter (:data:`CYCLE_COUNTER`)."""
        def codegen(context, builder, signature, args):
            if not CYCLE_COUNTER:
                return ir.Constant(ir.IntType(64), 0)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                                "llvm.readcyclecounter")
            return builder.call(fn, [])

        return types.int64(), codegen


__all__ = ["kernel", "gil_free_kernel", "inner_kernel", "borrowing_kernel", "inline_kernel", "entry_kernel",
           "stage_kernel", "python_stage_kernel", "CACHE", "CYCLE_COUNTER", "DirectCall",
           "cycles"]
