"""No machine code for kernels that are only ever linked into their callers.

A kernel without Python and C wrappers (:data:`.jit.inner_kernel`, :data:`.jit.borrowing_kernel`)
cannot be called from outside compiled code: every caller links the kernel's LLVM module into its own (Numba's
``CPUCodeLibrary.finalize``) and runs its own copy. Numba still hands each such module to its
execution engine when the kernel's compile ends, which makes its machine code (``finalize_object``),
and the cache stores that machine code beside the module's bitcode. Nothing ever runs that
machine code: a cold ``pyramid_20`` made it for 128 such modules (its CPU in one process, 69.0
s, is 61.5 s without it: measured 2026-11-29 on the loaded 2-core machine; BENCHMARKS.md,
"Start-up, issue 31 item 6, sixth round").

Installed when the package imports (:func:`install`), a code library whose module defines no
wrapper is finalised as before (linked, optimised, verified) but handed to the engine only when
something asks it for an address or for its object code (never, for these kernels), and its
cache entry is its bitcode (Numba's ``"bitcode"`` kind, which Numba loads as it loads its own)
instead of object code plus bitcode. The modules its callers link are the same ones, so every
caller's machine code is what it was. Such a kernel's environment (Numba's ``Environment``, whose
address its code reads from a global variable) is set once a module defining that global
reaches the engine: the first caller's.

A library that defines a wrapper, or whose address is asked for, gets its machine code exactly as
in Numba. Installed only for Numba versions whose ``JITCodeLibrary`` has the methods replaced
here (checked with Numba 0.68); any other is left as it is. This module holds no kernel and
changes no kernel's machine code, so it is left out of the cache's source stamp
(:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

WRAPPER_PREFIXES = ("_ZN7cpython", "cfunc.")
"""How Numba's names for a kernel's wrappers begin (``FunctionDescriptor.llvm_cpython_wrapper_name``,
the kernel's name in the namespace ``cpython``, and ``llvm_cfunc_wrapper_name``): a module
defining one of these has code called from outside."""

_installed = False
_unset_environments: dict = {}
"""Environment name -> the environment (Numba's ``Environment``) whose global variable is in no
module the engine holds yet: a link-only kernel's, set once a module that defines the global
reaches the engine (a caller's copy of the kernel, or its own module if its code is made)."""


def link_only(module) -> bool:
    """Whether the LLVM ``module`` defines functions but no wrapper: its code can only be
    reached by linking the module into a caller's."""
    defines = False
    for function in module.functions:
        if function.is_declaration:
            continue
        if function.name.startswith(WRAPPER_PREFIXES):
            return False
        defines = True
    return defines


def install() -> bool:
    """Defer a link-only library's machine code until it is asked for (see the module); False,
    with nothing changed, where Numba's code library is not the one this was written for."""
    global _installed
    if _installed:
        return True
    try:
        from numba.core import codegen
        library_class = codegen.JITCodeLibrary
        codegen_class = codegen.JITCPUCodegen
        set_env = codegen_class.set_env
        finalize_final = library_class._finalize_final_module
        get_pointer = library_class.get_pointer_to_function
        get_object = library_class._get_compiled_object
        serialize = library_class.serialize_using_object_code
        for name in ("_finalize_dynamic_globals", "_verify_declare_only_symbols",
                     "serialize_using_bitcode", "_ensure_finalized"):
            getattr(library_class, name)  # (the methods used below, Numba's own)
    except (ImportError, AttributeError):
        return False

    def _set_waiting_environments(self):
        # Numba sets a kernel's environment when its compile ends; a link-only kernel's global
        # is not in the engine then (see set_environment), so it is set here, as soon as a
        # module that defines it is.
        if _unset_environments:
            for variable in self._final_module.global_variables:
                env = _unset_environments.pop(variable.name, None)
                if env is not None and not variable.is_declaration:
                    set_env(self._codegen, variable.name, env)

    def _finalize_final_module(self):
        if not link_only(self._final_module):
            finalize_final(self)
            _set_waiting_environments(self)
            return
        # What Numba's own does before the engine takes the module (the checks); the rest when
        # the machine code is first asked for (_make_machine_code).
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._machine_code_deferred = True
        self._finalized = True

    def _make_machine_code(self):
        if self.__dict__.pop("_machine_code_deferred", False):
            self._dynamic_globals = []  # (found again by Numba's own finalisation)
            finalize_final(self)
            _set_waiting_environments(self)

    def set_environment(self, env_name, env):
        # The engine has no such global while only link-only modules define it: the address
        # would be 0 (Numba would write through it).
        if self._engine.get_global_value_address(env_name) == 0:
            _unset_environments[env_name] = env
            return
        set_env(self, env_name, env)

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        if self.__dict__.get("_machine_code_deferred"):
            try:
                function = self._final_module.get_function(name)
            except NameError:
                return 0  # not defined here: what Numba answers for a name it does not know
            if function.is_declaration:
                return 0
            _make_machine_code(self)
        return get_pointer(self, name)

    def _get_compiled_object(self):
        self._ensure_finalized()
        _make_machine_code(self)
        return get_object(self)

    def serialize_using_object_code(self):
        self._ensure_finalized()
        if self.__dict__.get("_machine_code_deferred"):
            return self.serialize_using_bitcode()
        return serialize(self)

    library_class._finalize_final_module = _finalize_final_module
    library_class.get_pointer_to_function = get_pointer_to_function
    library_class._get_compiled_object = _get_compiled_object
    library_class.serialize_using_object_code = serialize_using_object_code
    codegen_class.set_env = set_environment
    _installed = True
    return True


__all__ = ["install", "link_only", "WRAPPER_PREFIXES"]
