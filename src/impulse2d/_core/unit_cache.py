"""A unit's machine code loaded from the cache by its address, without its Numba dispatcher.

The step calls its units (:class:`.lazy.LazyKernel`: the pair search, the narrowphase, the
solver, ...) by address only: what a warm process needs of a unit is its object code in the
execution engine, the environments its code refers to, and the address of its C wrapper.
Numba's own load gives far more, and pays for it: the kernel's dispatcher is made (its
locator, its index's name, ``inspect.signature``), the kernel's index is unpickled to find its
code (each key a signature whose types, a world's stores, are rebuilt: a few hundred), then
its data, whose function descriptor and signature rebuild the same types again, then a
compile result, an entry point and the dispatcher's overload. For the 8 units of a warm
``pyramid_20`` that was 38 ms of CPU in the loads alone (load 5 on the 2-core machine,
2026-11-30 session 20), with the dispatchers and index reads besides.

So each unit, once it has an address the ordinary way (compiled, or loaded by Numba), is also
written here, beside Numba's files of the kernel, as a *unit file*
(``<Numba's file name base>.nbu``): a header that says for what it holds (the kernel's source
stamp, the signature, the machine as Numba keys its cache, the versions of Numba, llvmlite and
of this format), then, pickled apart, Numba's own serialised code library (object code and
bitcode, what its data file holds: ``serialize_using_object_code``), the names its object code
defines (:func:`.cache.elf_defined_symbols`, read once here instead of at each load: 4-6 ms of
the 8 units' loads), the environments (``referenced_envs``, the kernel's own among them) and
the C wrapper's name. The next process reads the header, and only where all of it matches
loads the library as the package's loads from Numba's cache do
(:func:`.cache._unserialize_lazily`, under :class:`.cache._quick_load`), sets each
environment's address in the engine as Numba's ``CompileResult._rebuild`` does, and takes the
wrapper's address: the same machine code, the same environments. Anything missing, stale or
unreadable is left to Numba's way, which then writes the file anew.

Not for a kernel whose dispatcher this process has made already (it may hold the overload, and
a second copy of the code would only cost memory); the dispatcher made later (a stage that
Python runs itself on the step that compiles it, :data:`.jit.python_stage_kernel`) loads its
own copy from Numba's cache as before. The library and environments are kept with the unit
(``LazyKernel._kept``): the engine frees a library's code when the library is collected.

Holds no kernel: left out of the cache's source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import os
import pickle
import uuid

import llvmlite
import numba
from numba.core import caching
from numba.core.compiler_lock import global_compiler_lock

from . import cache as _cache

SUFFIX = ".nbu"
FORMAT = 2
"""The unit file's layout; a file of another is read as stale."""


def _target_context():
    from numba.core.registry import cpu_target
    return cpu_target.target_context


def _caching() -> bool:
    from . import jit  # (imported by now: it imports the module that imports this one)
    return jit.CACHE


def _made(dispatcher) -> bool:
    """Whether the kernel's Numba dispatcher exists in this process (a
    :class:`.deferred.DeferredKernel` makes it on first use)."""
    return getattr(dispatcher, "_dispatcher", True) is not None


def _where(unit):
    """(path of ``unit``'s file, its kernel's source stamp), or None where the package's cache
    locator does not take the kernel (Numba's other locators decide there: not handled
    here)."""
    try:
        impl = caching.CompileResultCacheImpl(unit.dispatcher.py_func)
    except RuntimeError:  # (no locator takes it: not cached at all)
        return None
    locator = impl.locator
    if not isinstance(locator, _cache.PackageCacheLocator):
        return None
    path = os.path.join(locator.get_cache_path(), impl.filename_base + SUFFIX)
    return path, locator.get_source_stamp()


def _header(unit, stamp: str, codegen) -> tuple:
    return (FORMAT, stamp, str(unit.signature), codegen.magic_tuple(), numba.__version__,
            llvmlite.__version__)


def _read(unit):
    """The pickled (library, environments, wrapper name) of ``unit``'s file if its header
    matches this process, else None (no file, another source or machine, unreadable)."""
    where = _where(unit)
    if where is None:
        return None
    path, stamp = where
    try:
        with open(path, "rb") as f:
            header, payload = pickle.load(f)
    except Exception:
        return None
    if header != _header(unit, stamp, _target_context().codegen()):
        return None
    return payload


def readable(unit) -> bool:
    """Whether :func:`load` would load ``unit`` from its file (the file read now is kept for
    it: ``unit._pending``)."""
    if _made(unit.dispatcher) or not _caching():
        return False
    if unit._pending is None:
        unit._pending = _read(unit)
    return unit._pending is not None


def load(unit):
    """``unit``'s (address, what to keep alive) from its file, given to ``unit`` too, or None
    (see the module). Under Numba's compiler lock, as Numba's loads are: threads asking
    together load it once."""
    from numba.core.runtime import rtsys
    with global_compiler_lock:
        if unit._kept is not None:
            return unit._address, unit._kept  # (another thread loaded it meanwhile)
        if not readable(unit):
            return None
        payload, unit._pending = unit._pending, None
        context = _target_context()
        codegen = context.codegen()
        try:
            rtsys.initialize(context)
            with _cache._quick_load():
                libdata, symbols, environments, wrapper = pickle.loads(payload)
                library = _cache._unserialize_lazily(codegen, libdata, symbols)
            for env in environments:  # (as CompileResult._rebuild)
                codegen.set_env(env.env_name, env)
            address = library.get_pointer_to_function(wrapper)
        except Exception:
            return None  # Numba's way, then (which writes the file anew)
        if not address:
            return None
        unit._address, unit._kept = address, (library, environments)  # (for those waiting)
        return unit._address, unit._kept


def save(unit, result) -> None:
    """Write ``unit``'s file from ``result`` (its Numba compile result: compiled or loaded by
    Numba), atomically; nothing where the cache cannot be written or the result holds more than
    this file can (functions to run on reload)."""
    if not _caching() or result.reload_init:
        return
    where = _where(unit)
    if where is None:
        return
    path, stamp = where
    tmp = f"{path}.tmp.{uuid.uuid4().hex[:16]}"
    try:
        libdata = _library_data(unit, result)
        symbols = _cache.elf_defined_symbols(libdata[2][0]) if libdata[1] == "object" else None
        payload = pickle.dumps((libdata, symbols, _environments(result),
                                result.fndesc.llvm_cfunc_wrapper_name),
                               protocol=pickle.HIGHEST_PROTOCOL)
        header = _header(unit, stamp, result.library.codegen)
        with open(tmp, "wb") as f:
            pickle.dump((header, payload), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # (only a head start for the next process)
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _library_data(unit, result):
    """``result``'s code library serialised as Numba caches it: from the library where it was
    compiled in this process; one that Numba loaded has handed its object code to the engine
    (Numba keeps no copy), so from Numba's data file of the kernel then (once per unit and
    cache: the next process loads the unit file)."""
    try:
        return result.library.serialize_using_object_code()
    except RuntimeError:
        cache = unit.dispatcher._cache
        key = cache._index_key(tuple(unit.signature.args), result.library.codegen)
        with _cache._quick_load():  # (its environments' Numba modules not imported for this)
            return cache._cache_file.load(key)[0]  # (Numba's reduced compile result: its library)


def _environments(result) -> tuple:
    """The environments ``result``'s code refers to: Numba's list of a loaded kernel's, found
    in the module of one compiled here (as Numba's cache save finds them)."""
    found = result.referenced_envs
    if found is None:
        found = result._find_referenced_environments()
    return tuple(found)


__all__ = ["load", "readable", "save", "SUFFIX", "FORMAT"]
