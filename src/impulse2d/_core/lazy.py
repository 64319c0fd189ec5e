"""Kernels compiled the first time a world needs them, and called by address from the step.

Numba compiles a kernel together with everything it calls: each callee's code is linked into the
caller's module, which is then optimised again as a whole. A step that calls every joint type
and every solver therefore compiled all of them on the first step of any world (179 s for a
pyramid on the 2-core CI machine, see BENCHMARKS.md), and re-optimised the joint code at every
level of the call tree.

A :class:`LazyKernel` is a kernel compiled on its own, for one signature, the first time a
world asks for it (or loaded from the cache: :mod:`.cache`). Its machine-code address goes into
the world's table of verbs (``WorldStores.verbs``), and compiled code calls it through
:func:`address_call`: an indirect call with the arguments by value, about 10 ns (measured),
and no code of the callee in the caller's module. So a pyramid compiles neither a pulley nor the
``pgs`` solver, and a joint type costs its compile time once, not once per caller.

Without the JIT (``NUMBA_DISABLE_JIT=1``) the "address" is the Python function itself.
"""

from __future__ import annotations

import gc
import os
import sys

import numba
from llvmlite import ir
from numba.core import event, types
from numba.extending import intrinsic

from . import arguments, unit_cache
from .cache import fill_deferred_environments, is_cached

JIT = not numba.config.DISABLE_JIT


def address_call(signature):
    """An intrinsic ``call(address, args)`` that calls the kernel compiled for ``signature``
    (a Numba signature) at ``address`` (an int64), with the tuple ``args`` cast to the
    signature's argument types, and returns what it returns.

    The callee is entered through its C wrapper (Numba's ``cfunc`` wrapper of every kernel),
    which takes every argument by value, arrays and the world reference included. The caller
    must hold a reference to every array it passes: the callee only borrows them.
    """
    if not JIT:
        def call(address, args):
            return address(*args)
        return call

    arg_types = tuple(signature.args)

    @intrinsic
    def call(typingctx, address, args):
        if not isinstance(address, types.Integer) or not isinstance(args, types.BaseTuple):
            return None
        if len(args) != len(arg_types):
            return None

        def codegen(context, builder, sig, llargs):
            values = [context.cast(builder, builder.extract_value(llargs[1], k), args[k], t)
                      for k, t in enumerate(arg_types)]
            fnty = ir.FunctionType(context.get_value_type(signature.return_type),
                                   [context.get_value_type(t) for t in arg_types])
            function = builder.inttoptr(llargs[0], fnty.as_pointer())
            return builder.call(function, values)

        return signature.return_type(address, args), codegen

    return call


class LazyKernel:
    """``dispatcher`` compiled for ``signature`` on the first call of :meth:`address`.

    ``what`` names it in the compile notice ("the soft_step solver"); ``seconds`` is its measured
    compile time on the 2-core CI machine, for the notice's estimate and for sharing compiles
    between processes (:mod:`.parallel`), which find it in :data:`REGISTRY` by :attr:`key`.
    """

    def __init__(self, dispatcher, signature, what: str, seconds: float):
        self.dispatcher = dispatcher
        self.signature = signature
        self.what = what
        self.seconds = seconds
        self._address = None
        self._missing = False  # not in the cache when cached_address last looked
        self._pending = None   # its unit file, read but not loaded yet (.unit_cache)
        self._kept = None      # the code library and environments of a unit file's load
        function = getattr(dispatcher, "py_func", dispatcher)
        self.key = f"{function.__module__}.{function.__qualname__}"
        REGISTRY[self.key] = self

    def address(self):
        """The machine-code address of the compiled kernel (the function without the JIT):
        from its unit file without a dispatcher where the cache has one (:mod:`.unit_cache`),
        else compiled or loaded by its dispatcher (and the unit file written)."""
        if self._address is None:
            if not JIT:
                self._address = self.dispatcher
                return self._address
            loaded = unit_cache.load(self)
            if loaded is not None:
                self._address, self._kept = loaded
                return self._address
            with compiling(self.what, self.seconds):
                self.dispatcher.compile(self.signature.args)
            result = self.dispatcher.overloads[tuple(self.signature.args)]
            self._address = result.library.get_pointer_to_function(
                result.fndesc.llvm_cfunc_wrapper_name)
            unit_cache.save(self, result)
        return self._address

    def compiled_address(self):
        """:meth:`address` if this process has compiled or loaded the kernel already, else 0
        (compiles nothing)."""
        return self._address if self._address is not None else 0

    def cached_address(self):
        """:meth:`address` if the kernel is compiled in this process or can be loaded from the
        cache (loading it), else 0: a kernel a world may need later in its run, loaded before
        its first step where that is cheap (tens of milliseconds) instead of on the step that
        first needs it; compiling is never cheap and is left to that step. A kernel found
        missing is not looked up again in this process (a world made per reset would read the
        cache's index each time)."""
        if self._address is None and not self._missing:
            if self.must_compile() is False:
                return self.address()
            self._missing = True
        return self.compiled_address()

    def must_compile(self) -> bool | None:
        """Whether :meth:`address` would compile (not in this process yet, not in the cache);
        None where that cannot be told (caching off, a Numba without the cache's internals)."""
        if self._address is not None or not JIT or unit_cache.readable(self):
            return False
        if tuple(self.signature.args) in self.dispatcher.overloads:
            return False
        cached = is_cached(self.dispatcher, tuple(self.signature.args))
        return None if cached is None else not cached


REGISTRY: dict[str, LazyKernel] = {}
"""Every :class:`LazyKernel` by its :attr:`~LazyKernel.key` (the kernel's module and name)."""


# -- the notice -------------------------------------------------------------------------------
QUIET = os.environ.get("IMPULSE2D_QUIET", "0") not in ("0", "false", "False", "")
"""``IMPULSE2D_QUIET=1`` silences the compile notice."""

_PACKAGE = __name__.split(".")[0]


COMPILE_COLLECTOR = (700, 10, 100)
"""Python's cyclic collector's thresholds while the package compiles a kernel (and what it
calls), put back when the compile ends: Python's own (700, 10, 10) but for the oldest
generation, collected a tenth as often. A compile keeps its IR, types and LLVM IR alive
until it ends, so each full collection (every ten of the middle one's, while the survivors
have grown by a quarter) scanned a heap that kept growing: 17 of them were 3.1 of the 3.7 s
the collector took of 29.5 s of CPU compiling ``pgs_block`` and ``direct.solve_islands``
(12.7 %); with these, 1 full collection and 1.0 s (load 8-10 on the 2-core machine,
2026-12-01 session 28, ``frontG53``: 9 % of the compile saved), the peak memory 388 MB
against 313. Larger young generations saved less (their collections cost more each). What
a compile gives does not depend on when garbage is collected (checked: every kernel's object
code the same, ``BENCHMARKS.md``)."""


class _Notice(event.Listener):
    """Says on stderr when the package compiles kernels, so that a first run is not a silent
    wait: one line at the first compile of the process, naming what is compiled and about how
    long it takes, and a line for each further unit as it starts (the progress). While a
    kernel of the package compiles, the cyclic collector runs by :data:`COMPILE_COLLECTOR`."""

    def __init__(self):
        self.unit = None          # (what, seconds) of the LazyKernel or stage being compiled
        self.said = False
        self.depth = 0
        self.announced_unit = None
        self.collector = None     # the collector's thresholds to put back when the compile ends

    def on_start(self, ev):
        self.depth += 1
        if self.depth != 1:
            return
        module = getattr(ev.data["dispatcher"].py_func, "__module__", "") or ""
        if module.split(".")[0] != _PACKAGE:
            return
        if FIRST_COMPILE:
            _first_compile()
        self.collector = gc.get_threshold()
        gc.set_threshold(*COMPILE_COLLECTOR)
        if QUIET:
            return
        unit = self.unit or DEFAULT_UNIT
        if unit is self.announced_unit:
            return
        self.announced_unit = unit
        self.say(*unit)

    def say(self, what: str, seconds: float, where: str = "") -> None:
        """Print the line for a unit compiled ``where`` (e.g. " in a second process")."""
        if QUIET:
            return
        first = "first run only; " if not self.said else ""
        self.said = True
        print(f"{_PACKAGE}: compiling kernels for {what}{where} ({first}about "
              f"{_rounded(seconds)} s)", file=sys.stderr, flush=True)

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0 and self.collector is not None:
            gc.set_threshold(*self.collector)
            self.collector = None
        fill_deferred_environments()  # a compile imports Numba's library (see .cache)


FIRST_COMPILE: list = [arguments.install]
"""Callables run once, when the process first compiles a kernel of the package: the step
starts the compile helper of the units every world needs (:func:`.parallel.start_early`);
Numba's lowering is patched to keep arguments as values (:mod:`.arguments`)."""


def _first_compile() -> None:
    hooks = FIRST_COMPILE[:]
    FIRST_COMPILE.clear()
    for hook in hooks:
        try:
            hook()
        except Exception as exc:  # (a hook only saves time: the step compiles what it must)
            print(f"{_PACKAGE}: a first-compile hook failed ({type(exc).__name__}: {exc})",
                  file=sys.stderr, flush=True)


def _rounded(seconds: float) -> int:
    return max(1, int(round(seconds)))


DEFAULT_UNIT = ("setting up bodies and shapes", 2.0)
"""What a compile outside every named unit is announced as: the kernels Python calls while a
world is built (mass properties, hulls), about 2 s in all."""

NOTICE = _Notice()
if JIT:
    event.register("numba:compile", NOTICE)


class compiling:
    """Context: kernels compiled inside it are announced as ``what`` (about ``seconds``)."""

    def __init__(self, what: str, seconds: float):
        self.unit = (what, seconds)

    def __enter__(self):
        self.outer = NOTICE.unit
        NOTICE.unit = self.unit
        return self

    def __exit__(self, *exc):
        NOTICE.unit = self.outer
        return False


__all__ = ["JIT", "LazyKernel", "REGISTRY", "address_call", "compiling", "NOTICE", "QUIET",
           "FIRST_COMPILE", "COMPILE_COLLECTOR"]
