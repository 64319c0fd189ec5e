"""Kernels that only other kernels call: their LLVM IR for the callers, no machine code of their own.

A kernel without a Python or C wrapper (:data:`.jit.inner_kernel`, ``borrowing_kernel``,
``inline_kernel``, the threaded stages' ``parallel_kernel``, and Numba's internal subroutines),
and Numba's own ``@overload`` implementations (``np.empty``, ``np.zeros``, ``max``, ``min``,
...: no Python wrapper, and a C wrapper that nothing asks for), is only ever run as the copy of
its IR that each caller links into its own module and compiles with its own code: nothing asks
for an address in the kernel's own library. Numba still gives that library to its execution
engine (MCJIT) at the end of its compile, which makes its machine code (instruction selection,
register allocation, scheduling, the object file), and caches that object code beside the
bitcode the callers link. In the pair search's unit that machine code was 3.7 s of 38.8 s of
CPU, for 41 such libraries (``benchmarks/compile_llvm.py``, ``BENCHMARKS.md``, 2026-11-29
session 12).

Nor does such a library run LLVM's module passes. Numba runs them on every library at its
``finalize``: a cheap pass that inlines for the reference-count pruning, the pruning, then the
full ``-O3`` module pipeline, over the library's module with its callees linked in. A
link-only library's module is only ever linked into callers, whose own ``finalize`` runs the
same passes again over the whole (LLVM's inliner simplifies each callee before it inlines it):
the module passes ran once per level of a chain of link-only kernels, and over each small
NumPy implementation once per caller besides its own run. So a link-only library hands its
callers its module as its function passes left it (the same pipeline Numba gives every
library's own functions before linking), and its callers' module passes optimise it, once.
Measured (2026-12-01 session 28, branch ``llvmL53``, ``BENCHMARKS.md``): ``warmup --all``'s
module passes about halved (36 -> ~18 s of CPU), LLVM ~20 s less in all; the callers' machine
code is another (LLVM optimised the callees once, not two or three times; no fast-math flags,
so the same IEEE results): the step hash scripts give the same bits, and the steps pair
unchanged within the noise of a loaded machine. Numba's own implementations joined them in
session 29 (branch ``llvmQ54``): five units' compile 3-4 % less CPU, paired; 74 of 101 units'
machine code the same instructions, the others' inlining of an implementation changed
(``benchmarks/compile_disasm.py``).

Until then (sessions 13-27) a link-only library also ran the code generator's IR passes on its
module (``-stop-before=x86-isel``), because MCJIT's code generator changes the module it makes
code from, and that mutated module is what Numba's libraries hand their callers: the callers'
machine code then stayed Numba's own. With the module passes gone it differs anyway, and those
IR passes (loop strength reduction, ``CodeGenPrepare``) are for the code generator, not for a
module that is optimised again: they are not run.

What changes for such a library (:class:`LinkOnlyLibrary`):

* ``finalize``: linked as before, no module passes; its module does not go to the engine;
* the environment pointer (``codegen.set_env``): Numba writes it into the engine's copy of the
  library's ``NumbaEnv`` global, which now first exists in the object of the first caller that
  reaches the engine (each caller links the global, with ``common`` linkage, and the engine
  keeps the first definition); until then it waits (:func:`set_env`), and is written as soon as
  a module defining it is loaded (every library's ``_finalize_final_module``, as
  :func:`_wrap_finalize_final_module` wraps it);
* the cache entry is its callers' bitcode alone, Numba's ``"bitcode"`` kind (the bitcode that
  an entry of kind ``"object"`` holds beside the object code), which a later process's new
  caller links (:func:`load`); a Numba without this module loads it too, compiling it;
* an address asked of it (nothing of the package does) gives it to the engine after all,
  optimised then (a copy: its callers keep linking the module as it was).

A parallel kernel's ``prange`` loop is compiled by Numba's parfor lowering, inside the
kernel's own lowering, as three more libraries: the loop's body (a function of its own, with
a C-Python wrapper) and two wrappers around it (``_GufuncWrapper``'s and
``build_gufunc_kernel``'s), which the kernel links and calls by name. Each was given machine
code that nothing runs: for the threaded soft step 1.5 s of its ~20 s of compile, the whole
solver linked into each (2026-12-01 session 26, ``BENCHMARKS.md``). In a link-only parallel
kernel of :data:`OWNERS` they are link-only too (:data:`GUFUNC_PREFIX`,
:data:`GUFUNC_WRAPPERS`).

Only on x86-64 with the LLVM whose results were checked bit for bit (llvmlite 0.50's LLVM 22)
and Numba 0.68's code library; anything else is left as it is. Installed at the process's first
compile (a :data:`.lazy.FIRST_COMPILE` hook). This module holds no kernel and changes no result
(a kernel cached before it links into a caller compiled after it, and the other way round), so
it is left out of the cache's source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import ctypes
import threading

from llvmlite import binding as _llvm
from numba.core import codegen as _codegen

from .numba_patch import Patch

LLVM_VERSION = 22
"""The LLVM major version whose callers' results were checked bit for bit (see the module)."""

OWNERS = ("impulse2d", "numba")
"""Top-level packages whose link-only kernels are compiled so: the package's own and Numba's
library (its implementations and subroutines, compiled for the package's kernels); a user's own
kernels are compiled as Numba compiles them."""

GUFUNC_PREFIX = "__numba_parfor_gufunc_"
"""The name Numba's parfor lowering gives the function of a ``prange`` loop's body."""
GUFUNC_WRAPPERS = ("parallelgufuncwrapper", "<numba.np.ufunc.wrappers._GufuncWrapper object")
"""The names (or their beginnings) of the two libraries Numba's parfor lowering wraps that
function in (``build_gufunc_kernel``'s, ``_GufuncWrapper``'s): like the body's, linked into
the kernel that holds the loop and called there by name, never by an address of their own."""
_local = threading.local()  # .parallel: in the lowering of a link-only parallel kernel of OWNERS


class LinkOnlyLibrary(_codegen.JITCodeLibrary):
    """A code library of a kernel that only compiled code calls (see the module): linked as
    Numba's own, its module neither optimised by the module passes nor given to the execution
    engine."""

    _in_engine = False
    _shared_bitcode = None  # a loaded library's callers' bitcode, parsed at its first link

    def _optimize_final_module(self):
        """Nothing: each caller's module passes optimise this module inside its own."""

    def _finalize_final_module(self):
        # Numba's own, less the engine: what it checks
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True

    def _get_module_for_linking(self):
        if self._shared_module is None and self._shared_bitcode is not None:
            self._shared_module = _llvm.parse_bitcode(self._shared_bitcode)
            self._shared_bitcode = None
        return super()._get_module_for_linking()

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        if not self._in_engine:
            module = self._get_module_for_linking() if self._final_module is None \
                else self._final_module
            try:
                if module.get_function(name).is_declaration:
                    return 0
            except NameError:
                return 0  # (what Numba's get_executable asks: a wrapper there is not)
            self._to_engine(module)
        return super().get_pointer_to_function(name)

    def _to_engine(self, module):
        """Give the module to the engine after all: the library compiled in this process, a
        copy of its module optimised as Numba optimises a library's; a loaded one, the module its
        callers link (its own functions ``linkonce_odr`` there, which the module passes would
        drop), as it is."""
        self._in_engine = True
        if module is self._final_module:
            self._get_module_for_linking()  # (taken first: the callers' module stays as it is)
            self._final_module = module = module.clone()
            _codegen.CPUCodeLibrary._optimize_final_module(self)
        self._codegen._add_module(module)
        self._finalize_specific()
        _set_waiting_environments(self._codegen)

    def serialize_using_object_code(self):
        self._ensure_finalized()
        return self.name, "bitcode", self._get_module_for_linking().as_bitcode()


def load(codegen, name: str, bitcode: bytes) -> LinkOnlyLibrary:
    """A :class:`LinkOnlyLibrary` from its cache entry (kind ``"bitcode"``), finalised, its
    bitcode parsed when a caller first links it."""
    library = codegen.create_library(name)
    library.__class__ = LinkOnlyLibrary
    library.enable_object_caching()
    library._final_module = None  # (its callers' module is all there is)
    library._shared_bitcode = bitcode
    library._finalized = True
    return library


# -- the environments ----------------------------------------------------------------------------

def set_env(self, env_name, env):
    """``JITCPUCodegen.set_env``: the address of ``env`` written into the engine's global
    ``env_name``, now or, if no module the engine holds defines it yet, once one does."""
    address = self._engine.get_global_value_address(env_name)
    if address == 0:
        self.__dict__.setdefault("_waiting_environments", {})[env_name] = env
        return
    (ctypes.c_void_p * 1).from_address(address)[0] = ctypes.c_void_p(id(env))


def _set_waiting_environments(codegen) -> None:
    waiting = codegen.__dict__.get("_waiting_environments")
    if not waiting:
        return
    for env_name in [n for n in waiting if codegen._engine.is_symbol_defined(n)]:
        set_env(codegen, env_name, waiting.pop(env_name))


def _wrap_finalize_final_module(original):
    def _finalize_final_module(self):
        original(self)
        _set_waiting_environments(self._codegen)

    _finalize_final_module.__doc__ = original.__doc__
    _finalize_final_module.__wrapped__ = original
    return _finalize_final_module


# -- which libraries ------------------------------------------------------------------------------

def _wrap_run_pass(original):
    def run_pass(self, state):
        flags = state.flags
        func_id = state.func_id
        gufunc = (getattr(_local, "parallel", False) and func_id.modname == "<dynamic>"
                  and func_id.func_name.startswith(GUFUNC_PREFIX))
        owner = func_id.modname.split(".")[0]
        # (Numba's ``@overload`` implementations keep a C wrapper that nothing asks for; each
        # is optimised in every caller anyway: in ``warmup --all`` ``np.empty``'s in 117,
        # ``max``'s in 96)
        if not (state.library is None and flags.no_cpython_wrapper
                and (flags.no_cfunc_wrapper or owner == "numba")
                and (gufunc or owner in OWNERS)
                and type(state.targetctx.codegen()) is _codegen.JITCPUCodegen):
            return original(self, state)
        # Numba's own creation of the library (BaseNativeLowering.run_pass), as a link-only one
        library = state.targetctx.codegen().create_library(func_id.func_qualname)
        library.__class__ = LinkOnlyLibrary
        library.enable_object_caching()
        state.library = library
        # a parallel kernel's loop bodies and their wrappers, which its parfor lowering makes
        # (and compiles) inside this pass, are link-only too (:func:`_wrap_create_library`)
        outer = getattr(_local, "parallel", False)
        _local.parallel = bool(flags.auto_parallel.enabled)
        try:
            return original(self, state)
        finally:
            _local.parallel = outer

    run_pass.__doc__ = original.__doc__
    run_pass.__wrapped__ = original
    return run_pass


def _wrap_create_library(original):
    def create_library(self, name, **kwargs):
        library = original(self, name, **kwargs)
        if (getattr(_local, "parallel", False) and name.startswith(GUFUNC_WRAPPERS)
                and type(library) is _codegen.JITCodeLibrary):
            library.__class__ = LinkOnlyLibrary
        return library

    create_library.__doc__ = original.__doc__
    create_library.__wrapped__ = original
    return create_library


def supported() -> bool:
    """Whether this process's LLVM, target and Numba are the ones this module was written for."""
    if install.installed:
        return True  # (the methods checked below are this module's own by now)
    try:
        from numba.core import typed_passes
        lowering = typed_passes.BaseNativeLowering.run_pass
        names = set(lowering.__code__.co_names)
        library = _codegen.CPUCodeLibrary
        final = set(library._finalize_final_module.__code__.co_names)
        return (_llvm.llvm_version_info[0] == LLVM_VERSION
                and _llvm.get_process_triple().startswith("x86_64")
                and {"create_library", "enable_object_caching", "get_executable"} <= names
                and {"_finalize_dynamic_globals", "_verify_declare_only_symbols", "_add_module",
                     "_finalize_specific"} <= final
                and "_get_compiled_object" in
                library.serialize_using_object_code.__code__.co_names
                and set(_codegen.JITCPUCodegen.set_env.__code__.co_names)
                >= {"get_global_value_address", "from_address"})
    except (ImportError, AttributeError):
        return False


@Patch
def install() -> bool:
    """Compile link-only kernels' libraries as :class:`LinkOnlyLibrary` (see the module); False,
    with nothing changed, where this Numba or LLVM is not the one it was written for."""
    if not supported():
        return False
    from numba.core import typed_passes
    lowering = typed_passes.BaseNativeLowering
    lowering.run_pass = _wrap_run_pass(lowering.run_pass)
    library = _codegen.CPUCodeLibrary
    library._finalize_final_module = _wrap_finalize_final_module(library._finalize_final_module)
    set_env.__wrapped__ = _codegen.JITCPUCodegen.set_env
    _codegen.JITCPUCodegen.set_env = set_env
    _codegen.JITCPUCodegen.create_library = _wrap_create_library(
        _codegen.JITCPUCodegen.create_library)
    return True


__all__ = ["LinkOnlyLibrary", "install", "load", "set_env", "supported"]
