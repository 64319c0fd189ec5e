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
of this format), then, in a second pickle after it, Numba's own serialised code library (its
object code, as its data file holds it: ``serialize_using_object_code``, less the bitcode),
the names its object code defines (:func:`.cache.elf_defined_symbols`, read once here instead
of at each load: 4-6 ms of the 8 units' loads), the environments (``referenced_envs``, the
kernel's own among them) and the names of its wrappers (C and C-Python), its environment and
module. The next process reads the header, and only where all of it matches unpickles the rest
straight from the same file (a changed file is not read: :func:`_payload`) and
loads the library as the package's loads from Numba's cache do
(:func:`.cache._unserialize_lazily`, under :class:`.cache._quick_load`), sets each
environment's address in the engine as Numba's ``CompileResult._rebuild`` does, and takes the
C wrapper's address: the same machine code, the same environments. Anything missing, stale or
unreadable is left to Numba's way, which then writes the file anew.

**No bitcode.** Numba keeps a library's bitcode beside its object code so that a later
compile can link the kernel into a caller; a unit's or entry's library is only ever called by
address, never linked (a caller's compile links the library its own dispatcher loads), so its
file leaves the bitcode out: about half of each file (the step kernel's 1.1 of 2.3 MB), which a
warm ``pyramid_20`` read and copied twice (the file into a payload, the payload into its
objects). Its 10 files, unpickled as they were against this layout in one process: 9.2-11.6
against 5.0-7.1 ms of CPU and 1,931 against 665 page faults (load 14 on the 2-core machine,
2026-12-01 session 23).

Not for a kernel whose dispatcher this process has made already (it may hold the overload, and
a second copy of the code would only cost memory); the dispatcher made later (a stage that
Python runs itself on the step that compiles it, :data:`.jit.python_stage_kernel`) loads its
own copy from Numba's cache as before. The library and environments are kept with the unit
(``LazyKernel._kept``): the engine frees a library's code when the library is collected.

**Python's entry points.** The kernels Python calls through :class:`.direct_call.DirectCall`
(a warm ``pyramid_20``'s step kernel and stores' constructor; the queries', the snapshots',
the batch's: one argument-type signature each) are loaded the
same way from an *entry file* (``<Numba's file name base>.nbe``, the same layout, the header's
signature the call's argument types): the library and environments as a unit's, then the
entry point Numba's ``CPUContext.get_executable`` makes of them (``_dynfunc.make_function``
over the kernel's C-Python wrapper, its environment, the library kept alive with it). A warm
``pyramid_20`` loaded them Numba's way in 23-24 ms of CPU with their dispatchers and index reads,
13 ms from their entry files (load 15-21, session 21). One file a kernel, as a
:class:`~.direct_call.DirectCall` keeps one entry point: a process that calls the kernel with
other argument types goes Numba's way and writes the file for its own.

Holds no kernel: left out of the cache's source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import importlib
import os
import pickle
import uuid

import llvmlite
import numba
from numba import _dynfunc
from numba.core import caching
from numba.core.compiler_lock import global_compiler_lock

from . import cache as _cache

SUFFIX = ".nbu"
ENTRY_SUFFIX = ".nbe"
"""A Python entry point's file (:func:`load_entry`): a unit file's layout, its wrapper the
one Python calls."""
FORMAT = 4
"""The unit file's layout (4: the header and the payload pickled one after the other, no
bitcode); a file of another is read as stale."""

_entries: dict[str, tuple] = {}
"""Each entry file read but not loaded yet (:func:`entry_readable`), by its path: (the header
read, where its payload is: :func:`_read_file`)."""


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


def _where(dispatcher, suffix: str = SUFFIX):
    """(path of the file of ``dispatcher``'s kernel, the kernel's source stamp), or None where
    the package's cache locator does not take the kernel (Numba's other locators decide there:
    not handled here)."""
    try:
        impl = caching.CompileResultCacheImpl(dispatcher.py_func)
    except RuntimeError:  # (no locator takes it: not cached at all)
        return None
    locator = impl.locator
    if not isinstance(locator, _cache.PackageCacheLocator):
        return None
    path = os.path.join(locator.get_cache_path(), impl.filename_base + suffix)
    return path, locator.get_source_stamp()


def _header(stamp: str, signature: str, codegen) -> tuple:
    return (FORMAT, stamp, signature, codegen.magic_tuple(), numba.__version__,
            llvmlite.__version__)


def _read_file(path: str):
    """(header, where its payload is: :func:`_payload`) of the file at ``path``, or None (no
    file, unreadable). Only the header is read."""
    try:
        with open(path, "rb") as f:
            header = pickle.load(f)
            return header, (path, f.tell(), _identity(f))
    except Exception:
        return None


def _identity(f) -> tuple:
    """What tells the open file ``f`` from another at its path (a file replaced since)."""
    stat = os.fstat(f.fileno())
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


def _payload(where):
    """The (library, symbols, environments, wrapper names) after a header that
    :func:`_read_file` read, unpickled from the file (each large bytes object read into place
    once), or None where the file at that path is not the one read then (replaced since by
    another process: its header was not checked). Environments are rebuilt as they are
    unpickled: under :class:`.cache._quick_load`."""
    path, offset, identity = where
    with open(path, "rb") as f:
        if _identity(f) != identity:
            return None
        f.seek(offset)
        return pickle.load(f)


def _read(unit):
    """Where the payload of ``unit``'s file is (:func:`_read_file`) if its header matches this
    process, else None (no file, another source or machine, unreadable)."""
    where = _where(unit.dispatcher)
    if where is None:
        return None
    path, stamp = where
    found = _read_file(path)
    if found is None or found[0] != _header(stamp, str(unit.signature),
                                            _target_context().codegen()):
        return None
    return found[1]


def readable(unit) -> bool:
    """Whether :func:`load` would load ``unit`` from its file (the file read now is kept for
    it: ``unit._pending``)."""
    if _made(unit.dispatcher) or not _caching():
        return False
    if unit._pending is None:
        unit._pending = _read(unit)
    return unit._pending is not None


def _load_code(payload):
    """(library, environments, wrapper names) of a file's ``payload`` (where it is: see
    :func:`_read_file`): the code library loaded into the engine and each environment's
    address set there (as ``CompileResult._rebuild`` does), or None where any of it fails (see
    the module). The caller holds Numba's compiler lock."""
    from numba.core.runtime import rtsys
    context = _target_context()
    codegen = context.codegen()
    try:
        rtsys.initialize(context)
        with _cache._quick_load():
            loaded = _payload(payload)
            if loaded is None:
                return None
            libdata, symbols, environments, names = loaded
            library = _cache._unserialize_lazily(codegen, libdata, symbols)
        for env in environments:  # (as CompileResult._rebuild)
            codegen.set_env(env.env_name, env)
    except Exception:
        return None
    return library, environments, names


def load(unit):
    """``unit``'s (address, what to keep alive) from its file, given to ``unit`` too, or None
    (see the module). Under Numba's compiler lock, as Numba's loads are: threads asking
    together load it once."""
    with global_compiler_lock:
        if unit._kept is not None:
            return unit._address, unit._kept  # (another thread loaded it meanwhile)
        if not readable(unit):
            return None
        payload, unit._pending = unit._pending, None
        loaded = _load_code(payload)
        if loaded is None:
            return None  # Numba's way, then (which writes the file anew)
        library, environments, names = loaded
        try:
            address = library.get_pointer_to_function(names["cfunc"])
        except Exception:
            return None
        if not address:
            return None
        unit._address, unit._kept = address, (library, environments)  # (for those waiting)
        return unit._address, unit._kept


def entry_readable(dispatcher) -> bool:
    """Whether ``dispatcher``'s kernel has an entry file of this source, machine and Numba
    (for argument types of any call site) that :func:`load_entry` may load, its dispatcher not
    made (the file read now is kept for that load)."""
    if _made(dispatcher) or not _caching():
        return False
    where = _where(dispatcher, ENTRY_SUFFIX)
    if where is None:
        return False
    path, stamp = where
    found = _entries.get(path) or _read_file(path)
    if found is None:
        return False
    header = found[0]
    expected = _header(stamp, "", _target_context().codegen())
    if not (isinstance(header, tuple) and len(header) == len(expected)
            and header[:2] == expected[:2] and header[3:] == expected[3:]):
        return False
    _entries[path] = found
    return True


def load_entry(dispatcher, argtypes: tuple):
    """``(entry, native)``: the Python entry point of ``dispatcher``'s kernel for the argument
    types ``argtypes`` from its entry file, without the dispatcher (what Numba's
    ``CPUContext.get_executable`` makes of the same code and environment), and the address of
    the kernel's own code that it wraps (:func:`native_name`); or None: the dispatcher made
    already, caching off, no file for these types, anything stale or unreadable (Numba's way
    then, which writes the file anew: :func:`save_entry`)."""
    with global_compiler_lock:
        if not entry_readable(dispatcher):
            return None
        path, stamp = _where(dispatcher, ENTRY_SUFFIX)
        header, payload = _entries.pop(path)
        if header[2] != str(argtypes):
            return None
        loaded = _load_code(payload)
        if loaded is None:
            return None
        library, environments, names = loaded
        own = [env for env in environments if env.env_name == names["env"]]
        try:
            module = importlib.import_module(names["module"])
            address = library.get_pointer_to_function(names["cpython"])
            native = library.get_pointer_to_function(native_name(names["cpython"]))
        except Exception:
            return None
        if not (address and native) or len(own) != 1:
            return None
        # (as get_executable: the library kept alive with the function)
        return _dynfunc.make_function(module, names["qualname"].split(".")[-1],
                                      f"compiled wrapper for {names['qualname']!r}", address,
                                      own[0], (library, environments)), native


def native_name(cpython: str) -> str:
    """The symbol of a kernel's own code (Numba's ``fndesc.llvm_func_name``) from its C-Python
    wrapper's (``llvm_cpython_wrapper_name``: the same Itanium name in a ``cpython``
    namespace)."""
    return "_ZN" + cpython[len("_ZN7cpython"):]


def save(unit, result) -> None:
    """Write ``unit``'s file from ``result`` (its Numba compile result: compiled or loaded by
    Numba), atomically; nothing where the cache cannot be written or the result holds more than
    this file can (functions to run on reload)."""
    _save(unit.dispatcher, tuple(unit.signature.args), str(unit.signature), result, SUFFIX)


def save_entry(dispatcher, argtypes: tuple, result) -> None:
    """Write the entry file of ``dispatcher``'s kernel for ``argtypes`` from ``result`` (as
    :func:`save`), unless the file holds these types already (a process whose dispatcher was
    made for other reasons)."""
    where = _where(dispatcher, ENTRY_SUFFIX)
    if where is None:
        return
    found = _read_file(where[0])
    if found is not None and found[0] == _header(where[1], str(argtypes),
                                                 result.library.codegen):
        return
    _save(dispatcher, argtypes, str(argtypes), result, ENTRY_SUFFIX)


def _save(dispatcher, argtypes: tuple, signature: str, result, suffix: str) -> None:
    if not _caching() or result.reload_init:
        return
    where = _where(dispatcher, suffix)
    if where is None:
        return
    path, stamp = where
    tmp = f"{path}.tmp.{uuid.uuid4().hex[:16]}"
    try:
        libdata = _library_data(dispatcher, argtypes, result)
        symbols = _cache.elf_defined_symbols(libdata[2][0]) if libdata[1] == "object" else None
        fndesc = result.fndesc
        names = {"cfunc": fndesc.llvm_cfunc_wrapper_name,
                 "cpython": fndesc.llvm_cpython_wrapper_name, "env": fndesc.env_name,
                 "module": fndesc.modname, "qualname": fndesc.qualname}
        if libdata[1] == "object":  # (object code, bitcode): never linked (see the module)
            libdata = (libdata[0], libdata[1], (libdata[2][0], None))
        header = _header(stamp, signature, result.library.codegen)
        with open(tmp, "wb") as f:
            pickle.dump(header, f, protocol=pickle.HIGHEST_PROTOCOL)
            pickle.dump((libdata, symbols, _environments(result), names), f,
                        protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # (only a head start for the next process)
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _library_data(dispatcher, argtypes: tuple, result):
    """``result``'s code library serialised as Numba caches it: from the library where it was
    compiled in this process; one that Numba loaded has handed its object code to the engine
    (Numba keeps no copy), so from Numba's data file of the kernel then (once per kernel and
    cache: the next process loads the kernel's file)."""
    try:
        return result.library.serialize_using_object_code()
    except RuntimeError:
        cache = dispatcher._cache
        key = cache._index_key(argtypes, result.library.codegen)
        with _cache._quick_load():  # (its environments' Numba modules not imported for this)
            return cache._cache_file.load(key)[0]  # (Numba's reduced compile result: its library)


def _environments(result) -> tuple:
    """The environments ``result``'s code refers to: Numba's list of a loaded kernel's, found
    in the module of one compiled here (as Numba's cache save finds them)."""
    found = result.referenced_envs
    if found is None:
        found = result._find_referenced_environments()
    return tuple(found)


__all__ = ["load", "readable", "save", "load_entry", "native_name", "entry_readable",
           "save_entry", "SUFFIX", "ENTRY_SUFFIX", "FORMAT"]
