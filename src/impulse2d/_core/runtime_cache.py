"""Numba's runtime module loaded from the package's cache instead of compiled in every process.

Before a process calls or loads its first kernel, Numba initialises its runtime (NRT,
``rtsys.initialize``): it builds a small LLVM module (reference counting and its atomics, seven
functions, ``numba.core.runtime.nrtdynmod``) and runs LLVM's optimiser and code generator on
it: 0.044-0.056 s of CPU of a warm ``pyramid_20``'s 0.19-0.22 s of build and first step
(measured at load 14 on the 2-core machine), the largest part of its seven kernel loads. That
module is the same in every process of one Numba on one machine, so its object code is kept in
the package's cache (:func:`.cache.cache_root`, ``nrt-<key>.nbo``) and loaded as the package
loads a cached kernel (:func:`.cache._unserialize_lazily`: the object code to the execution
engine, the module's bitcode kept to link into later compiles, as Numba links the runtime into
every kernel, and parsed only when a compile first links it: Numba's own load parses it at once
and walks the parsed module for its names: 6.1-7.0 ms against 3.3-4.7 ms, measured at load 6 on
the 2-core machine, session 21, for a warm process that never links).

The key is a hash of the module's LLVM IR (as Numba builds it in this process: its debug
options included), the machine (``codegen.magic_tuple()``: target, CPU and its features, what
Numba's own cache keys a kernel by), LLVM's optimisation level and the versions of Numba and
llvmlite: anything that could change the machine code changes the file. A file that cannot be
read or loaded is compiled over as Numba would; one that cannot be written costs only this
time. Installed for Numba versions whose runtime compiles through
``nrtdynmod.compile_nrt_functions`` (Numba 0.68); any other is left alone. Holds no kernel:
left out of the cache's source stamp.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import uuid

import llvmlite
import numba
from numba.core import config
from numba.core.runtime import nrtdynmod

from . import cache as _cache

SUFFIX = ".nbo"
_NUMBA_OWN = nrtdynmod.compile_nrt_functions


def runtime_key(ir_module, codegen) -> str:
    """The cache key of the runtime module ``ir_module`` compiled by ``codegen`` (see the
    module)."""
    digest = hashlib.sha256()
    for part in (str(ir_module), repr(codegen.magic_tuple()), str(config.OPT),
                 numba.__version__, llvmlite.__version__):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def compile_nrt_functions(ctx):
    """Numba's ``nrtdynmod.compile_nrt_functions(ctx)``: the runtime's code library, loaded from
    the cache where it holds this module's object code, else compiled (and then saved)."""
    ir_module, library = nrtdynmod.create_nrt_module(ctx)
    codegen = ctx.codegen()
    path = None
    try:
        path = os.path.join(_cache.cache_root(), f"nrt-{runtime_key(ir_module, codegen)}{SUFFIX}")
        with open(path, "rb") as f:
            state = pickle.load(f)
        return _cache._unserialize_lazily(codegen, state)
    except Exception:  # not cached yet, or unreadable: compiled as Numba does
        pass
    library.enable_object_caching()
    library.add_ir_module(ir_module)
    library.finalize()
    if path is not None:
        _save(path, library.serialize_using_object_code())
    return library


def _save(path: str, state) -> None:
    """Write ``state`` to ``path`` atomically (a concurrent reader sees no file or the whole
    one); nothing if the cache cannot be written."""
    tmp = f"{path}.tmp.{uuid.uuid4().hex[:16]}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            pickle.dump(state, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def install() -> bool:
    """Make Numba's runtime compile through :func:`compile_nrt_functions` (idempotent); False,
    with nothing changed, where Numba's runtime is not the one this was written for."""
    if nrtdynmod.compile_nrt_functions is compile_nrt_functions:
        return True
    if not (_NUMBA_OWN.__module__ == nrtdynmod.__name__
            and hasattr(nrtdynmod, "create_nrt_module")):
        return False
    nrtdynmod.compile_nrt_functions = compile_nrt_functions
    return True


__all__ = ["compile_nrt_functions", "install", "runtime_key", "SUFFIX"]
