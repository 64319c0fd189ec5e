"""Where Numba caches the package's compiled kernels, and when a cached kernel is stale.

Every kernel is compiled with ``cache=True`` (:mod:`.jit`). Numba picks a *cache locator* per
function, the first class of ``numba.core.caching.CacheImpl._locator_classes`` whose
``from_function`` accepts it; :func:`install` puts :class:`PackageCacheLocator` first in that
list. It accepts only functions defined in files of this package (any other package's caching
is untouched) and decides two things for them:

**Staleness.** Numba's own locators stamp a kernel's cache with a hash of the kernel's own
source file only. Numba links a kernel's callees into its machine code, so a kernel whose
callee in *another* module changed kept loading its stale cached code (the old advice was to
delete the caches by hand after editing kernels). Here the source stamp is one hash of the
whole compiled part of the package: sha256 over the sorted relative paths and the contents of
every ``.py`` file under ``_core/``, ``_collision/`` and ``_dynamics/`` (recursively) and of
``constants.py`` (:data:`COMPILED_DIRS`, :data:`COMPILED_FILES`), except this module,
``deferred.py`` and ``parallel.py``, which hold no kernel (:data:`UNCOMPILED_FILES`). Any edit
to any of them makes every cached kernel stale, so the next call compiles it again, and a
cached kernel is never older than a callee. The hash is computed once per process (about 50
files: a millisecond or two). A kernel defined in some other file of the package gets that
file's hash as well.

**Place.** The cache path of a kernel is a root directory plus the kernel's source directory
relative to the package (the package layout is mirrored, so ``_dynamics/joints/__init__.py``
and ``_dynamics/__init__.py`` never share file names). The root is the first that applies:

1. ``NUMBA_CACHE_DIR`` (``numba.config.CACHE_DIR``) if set: ``<NUMBA_CACHE_DIR>/impulse2d``,
   seeded on first use, as in case 3, with the shipped kernels of a wheel (a ``_kernels/`` that
   holds :data:`SHIPPED_MARKER`, which ``scripts/build_wheel.py`` writes): a CI cache or a
   read-only home pointed elsewhere starts with the wheel's kernels instead of compiling them
   all (61.8 s measured on the 2-core CI machine). A source checkout's ``_kernels/`` is its own
   cache, not shipped kernels, and seeds nothing (an empty ``NUMBA_CACHE_DIR`` is how the
   start-up benchmarks measure a cold start);
2. the package's own ``_kernels/`` directory (:data:`SHIPPED_DIR`), if it is writable or can be
   created: a source checkout, an editable install, a wheel installed into a writable
   environment. A wheel built by ``scripts/build_wheel.py`` ships compiled kernels there;
3. otherwise (a read-only install) the user's cache directory
   (``~/.cache/impulse2d/<package version>-numba<numba version>`` on Linux, from Numba's
   ``appdirs``), which on first use is seeded with a copy of the shipped ``_kernels/`` tree, if
   the install has one, so that shipped kernels load from there.

Kernels compiled elsewhere are refused by Numba itself, which then compiles as usual: an index
entry's key holds the target triple, CPU name and CPU features (``codegen.magic_tuple()``), and
the index file's header the Numba version; the file names carry the Python version. The shipped
kernels therefore only help on the CPU, Python and Numba they were built with.

``NUMBA_CACHE_LOCATOR_CLASSES``, if set, replaces Numba's list of locators and so bypasses this
one. The writability checks and the seeding are memoised per directory, since the locator runs
once per kernel at import.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import uuid

import numba
import numpy as np
from llvmlite import binding as _llvm
from numba.core import caching, codegen as _codegen, environment as _environment
from numba.core.runtime import rtsys
from numba.misc.appdirs import AppDirs

from . import link_only

PACKAGE_NAME = "impulse2d"
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The package directory (``.../impulse2d``)."""
SHIPPED_DIR = os.path.join(PACKAGE_DIR, "_kernels")
"""The package's own cache directory: where a wheel ships compiled kernels."""
COMPILED_DIRS = ("_core", "_collision", "_dynamics")
"""Package subdirectories whose ``.py`` files (recursively) make up the source stamp."""
COMPILED_FILES = ("constants.py",)
"""Top-level package files that make up the source stamp as well."""
UNCOMPILED_FILES = ("_core/cache.py", "_core/deferred.py", "_core/parallel.py",
                    "_core/overloads.py", "_core/inliner.py", "_core/runtime_cache.py",
                    "_core/link_only.py", "_core/unit_cache.py", "_core/direct_call.py",
                    "_core/casting_rules.py", "_core/frontend.py",
                    "_core/ir_text.py")
"""Files under :data:`COMPILED_DIRS` left out of the stamp: they hold no kernel and nothing a
kernel reads (where kernels are cached and how they load, which process compiles them), so an
edit to them changes no machine code and must not make every cached kernel stale."""
CACHE_SUFFIXES = (".nbi", ".nbc", ".nbo", ".nbu", ".nbe", ".nbt")
"""The cache's files: the kernels' indexes and code, Numba's runtime module
(:mod:`.runtime_cache`), the units' files and Python's entry points' (:mod:`.unit_cache`),
Numba's casting rules (:mod:`.casting_rules`)."""
SEED_MARKER = ".seeded-from"
"""File in a seeded user cache root naming the source stamp of the kernels it was seeded with."""
SHIPPED_MARKER = "SHIPPED"
"""File in :data:`SHIPPED_DIR` of a wheel (``scripts/build_wheel.py``) naming the source stamp
its kernels were compiled from: those are shipped kernels, to seed a ``NUMBA_CACHE_DIR`` with."""

_stamps: dict[str, str] = {}
_file_hashes: dict[str, str] = {}
_writable_dirs: dict[str, bool] = {}
_seeded: set[str] = set()
_relative_dirs: dict[str, str | None] = {}
_version: list[str] = []
_indexes: dict[tuple, tuple] = {}
"""Each kernel's index as last read, by its path and source stamp, with the file's inode, size
and modification time then (:meth:`LockedCacheFile._load_index`)."""


def reset() -> None:
    """Forget every memoised stamp, writability check and seeding (for tests)."""
    _stamps.clear()
    _file_hashes.clear()
    _writable_dirs.clear()
    _seeded.clear()
    _relative_dirs.clear()
    _version.clear()
    _indexes.clear()


# -- the source stamp ------------------------------------------------------------------------

def compiled_sources(package_dir: str | None = None) -> list[str]:
    """The sorted relative paths (``/``-separated) of the files hashed into the stamp."""
    package_dir = PACKAGE_DIR if package_dir is None else package_dir
    found = []
    for sub in COMPILED_DIRS:
        top = os.path.join(package_dir, sub)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in filenames:
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(dirpath, name), package_dir)
                    rel = rel.replace(os.sep, "/")
                    if rel not in UNCOMPILED_FILES:
                        found.append(rel)
    for name in COMPILED_FILES:
        if os.path.isfile(os.path.join(package_dir, name)):
            found.append(name)
    return sorted(found)


def compute_stamp(package_dir: str | None = None) -> str:
    """sha256 (hex) over the relative paths and contents of :func:`compiled_sources`."""
    package_dir = PACKAGE_DIR if package_dir is None else package_dir
    h = hashlib.sha256()
    for rel in compiled_sources(package_dir):
        with open(os.path.join(package_dir, *rel.split("/")), "rb") as f:
            data = f.read()
        encoded = rel.encode()
        # Length-prefixed, so that no two different trees hash the same byte stream.
        h.update(len(encoded).to_bytes(8, "little"))
        h.update(encoded)
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def package_stamp(package_dir: str | None = None) -> str:
    """:func:`compute_stamp`, computed once per process (per package directory)."""
    package_dir = PACKAGE_DIR if package_dir is None else package_dir
    stamp = _stamps.get(package_dir)
    if stamp is None:
        stamp = _stamps[package_dir] = compute_stamp(package_dir)
    return stamp


def _file_hash(path: str) -> str:
    digest = _file_hashes.get(path)
    if digest is None:
        with open(path, "rb") as f:
            digest = _file_hashes[path] = hashlib.sha256(f.read()).hexdigest()
    return digest


def _is_compiled_source(rel_file: str) -> bool:
    parts = rel_file.split("/")
    return parts[0] in COMPILED_DIRS or rel_file in COMPILED_FILES


# -- the cache root --------------------------------------------------------------------------

def is_writable(path: str) -> bool:
    """Whether ``path`` is, or can be made, a directory this process can write files into
    (created if missing). Memoised per directory."""
    known = _writable_dirs.get(path)
    if known is not None:
        return known
    try:
        os.makedirs(path, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        ok = True
    except OSError:
        ok = False
    _writable_dirs[path] = ok
    return ok


def _package_version() -> str:
    if not _version:
        try:
            from importlib.metadata import version
            _version.append(version(PACKAGE_NAME))
        except Exception:  # not installed (e.g. on PYTHONPATH only)
            _version.append("unknown")
    return _version[0]


def user_cache_root() -> str:
    """The per-user root (case 3): the user cache directory, one folder per version of the
    package and of Numba."""
    base = AppDirs(appname=PACKAGE_NAME, appauthor=False).user_cache_dir
    return os.path.join(base, f"{_package_version()}-numba{numba.__version__}")


def copy_file(src: str, dst: str) -> None:
    """Copy ``src`` to ``dst`` atomically (a reader sees the old file or the new one)."""
    _replace(dst, lambda tmp: shutil.copyfile(src, tmp))


def _replace(dst: str, write) -> None:
    """Replace ``dst`` atomically by the file ``write(path)`` writes at a temporary path."""
    tmp = f"{dst}.tmp.{uuid.uuid4().hex[:16]}"
    try:
        write(tmp)
        os.replace(tmp, dst)  # atomic: a concurrent reader sees the old file or the new one
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def seed_user_cache(user_root: str, shipped_dir: str | None = None) -> bool:
    """Copy the shipped kernels (``*.nbi``, ``*.nbc`` under ``shipped_dir``, layout kept) into
    ``user_root``, unless it was already seeded from kernels of the same source stamp (the
    :data:`SEED_MARKER` file). Once per process and root. True if it copied."""
    shipped_dir = SHIPPED_DIR if shipped_dir is None else shipped_dir
    if user_root in _seeded:
        return False
    _seeded.add(user_root)
    if not os.path.isdir(shipped_dir):
        return False
    stamp = package_stamp()
    marker = os.path.join(user_root, SEED_MARKER)
    try:
        with open(marker, encoding="ascii") as f:
            if f.read().strip() == stamp:
                return False
    except OSError:
        pass
    try:
        for dirpath, dirnames, filenames in os.walk(shipped_dir):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            rel = os.path.relpath(dirpath, shipped_dir)
            target = user_root if rel == os.curdir else os.path.join(user_root, rel)
            names = [n for n in filenames if n.endswith(CACHE_SUFFIXES)]
            if not names:
                continue
            os.makedirs(target, exist_ok=True)
            for name in names:
                copy_file(os.path.join(dirpath, name), os.path.join(target, name))
        os.makedirs(user_root, exist_ok=True)
        tmp = f"{marker}.tmp.{uuid.uuid4().hex[:16]}"
        with open(tmp, "w", encoding="ascii") as f:
            f.write(stamp)
        os.replace(tmp, marker)
    except OSError:
        return False  # seeding is only a head start: Numba compiles what it cannot load
    return True


def cache_root() -> str:
    """The root of the package's kernel cache in this process (see the module docstring)."""
    cache_dir = numba.config.CACHE_DIR
    if cache_dir:
        root = os.path.join(cache_dir, PACKAGE_NAME)
        if os.path.isfile(os.path.join(SHIPPED_DIR, SHIPPED_MARKER)) and is_writable(root):
            seed_user_cache(root, SHIPPED_DIR)
        return root
    if is_writable(SHIPPED_DIR):
        return SHIPPED_DIR
    root = user_cache_root()
    seed_user_cache(root, SHIPPED_DIR)
    return root


def relative_dir(py_file: str) -> str | None:
    """``py_file``'s directory relative to the package (``""`` for the package itself, ``/``
    separated), or None if the file is not in the package."""
    try:
        return _relative_dirs[py_file]
    except KeyError:
        pass
    result = None
    if os.path.isfile(py_file):
        package = os.path.realpath(PACKAGE_DIR)
        directory = os.path.dirname(os.path.realpath(py_file))
        if directory == package or directory.startswith(package + os.sep):
            rel = os.path.relpath(directory, package)
            rel = "" if rel == os.curdir else rel.replace(os.sep, "/")
            if rel.split("/")[0] != os.path.basename(SHIPPED_DIR):
                result = rel
    _relative_dirs[py_file] = result
    return result


# -- the locator -----------------------------------------------------------------------------

class PackageCacheLocator(caching._CacheLocator):
    """Numba cache locator for the package's kernels: one source stamp for the whole compiled
    part of the package, cache files under :func:`cache_root` (see the module docstring)."""

    def __init__(self, py_func, py_file, cache_path: str, stamp: str):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = cache_path
        self._stamp = stamp

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return self._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    def ensure_cache_path(self) -> None:
        # Called by Numba before each save. The directory is re-created if it went away; the
        # write test is memoised (the base class makes a temporary file on every save).
        os.makedirs(self._cache_path, exist_ok=True)
        if not is_writable(self._cache_path):
            raise PermissionError(f"cannot write to {self._cache_path}")

    @classmethod
    def from_function(cls, py_func, py_file):
        rel = relative_dir(py_file)
        if rel is None:
            return None  # not ours: Numba's own locators decide
        root = cache_root()
        path = os.path.join(root, *rel.split("/")) if rel else root
        if not is_writable(path):
            return None
        stamp = package_stamp()
        rel_file = f"{rel}/{os.path.basename(py_file)}" if rel else os.path.basename(py_file)
        if not _is_compiled_source(rel_file):
            stamp = f"{stamp}:{_file_hash(py_file)}"
        locator = cls(py_func, py_file, path, stamp)
        locator.relative = rel  # (where a peer's cache keeps the kernel: adopt_from_peers)
        return locator


# -- loading without the compiler's registries ---------------------------------------------

class QuickLoadCache(caching.FunctionCache):
    """Numba's per-kernel cache, loading cached code without first loading the compiler.

    Before every load Numba refreshes the target context, which imports and registers the
    typing and lowering of all of Numba's library (``numba.np.*``, ``numba.cpython.*``,
    ``numba.typed``, cffi, ...): 0.13 s of a 0.7 s warm start (measured on the 2-core CI
    machine), needed to compile but not to load compiled code. Loading needs the codegen (made
    with the context), Numba's C helpers and Python's exception symbols (registered when the
    context is made) and the NRT, which is initialised here; a compile still refreshes the
    context itself first (``numba.core.compiler.CompilerBase``).

    The kernel's code library is rebuilt without parsing its bitcode (:class:`LazyLinkingLibrary`)
    and its environments without importing their modules (:func:`fill_deferred_environments`).

    Should a load without the refresh fail for any reason (another Numba version, a symbol a
    registry provides), the load is retried Numba's own way, refresh first.
    """

    def load_overload(self, sig, target_context):
        loaded = self._load_quickly(sig, target_context)
        if loaded is None and PEER_ROOTS and adopt_from_peers(self):
            loaded = self._load_quickly(sig, target_context)
        return loaded

    def _load_quickly(self, sig, target_context):
        try:
            rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors(), _quick_load():
                return self._load_overload(sig, target_context)
        except Exception:
            return super().load_overload(sig, target_context)


# -- kernels compiled by the other processes of a compile ------------------------------------

PEERS_VARIABLE = "IMPULSE2D_PEER_CACHES"
"""The environment variable that gives a compile helper (:mod:`.parallel`) its parent's cache
root (:data:`PEER_ROOTS`)."""

PEER_ROOTS: list = [root for root in os.environ.get(PEERS_VARIABLE, "").split(os.pathsep)
                    if root]
"""Cache roots of the other processes sharing this one's compiles (:mod:`.parallel`): each
helper's own cache in its parent while the helper runs, the parent's cache in a helper. A
kernel about to be compiled here because this cache lacks it is first looked for there
(:func:`adopt_from_peers`)."""


def adopt_from_peers(cache) -> bool:
    """Copy the index and data files of ``cache``'s kernel (a :class:`QuickLoadCache`) from the
    first of :data:`PEER_ROOTS` that has them into this process's cache, where this one holds
    no index of the kernel; True if copied (Numba then loads the signature it asked for from
    them, or compiles it and adds it to that index).

    Each unit of a cold start is compiled in one process (:mod:`.parallel`), but the callees
    that units share were compiled by each process whose unit reached them: the broadphase's
    sort routines, the polygon routine, 3.2-3.9 s of CPU twice in a cold ``pyramid_20``
    (BENCHMARKS.md, session 23, ``cold48``). A callee is saved to its process's cache as soon
    as it is compiled, before its caller is done, so a peer that reaches it later loads it
    from there (a kernel only kernels call is its callers' bitcode, :mod:`.link_only`) and
    links what the first process linked. The peer's files are only read, its index before
    its data (every save writes the data an index names before that index); this cache's are
    written under its save lock (:class:`LockedCacheFile`), the data before the index."""
    rel = getattr(cache._impl.locator, "relative", None)
    if rel is None:
        return False
    index_name = cache._cache_file._index_name
    prefix = index_name[:-len(".nbi")] + "."
    own = cache._cache_path
    for root in PEER_ROOTS:
        peer = os.path.join(root, *rel.split("/")) if rel else root
        try:
            with open(os.path.join(peer, index_name), "rb") as source:
                index = source.read()
            data = [name for name in os.listdir(peer) if name.startswith(prefix)
                    and name.endswith(".nbc") and name[len(prefix):-4].isdigit()]
            os.makedirs(own, exist_ok=True)
            lock = _save_lock(own)
            if lock is None:
                return False
            with lock:
                if os.path.exists(os.path.join(own, index_name)):
                    return False  # (this cache's own index: compiled here, as before)
                for name in data:
                    copy_file(os.path.join(peer, name), os.path.join(own, name))
                _replace(os.path.join(own, index_name), lambda tmp: _write_bytes(tmp, index))
        except OSError:
            continue  # (a peer that has ended, or lacks the kernel: the next one)
        return True
    return False


def _write_bytes(path: str, content: bytes) -> None:
    with open(path, "wb") as target:
        target.write(content)


# A cached kernel is its object code, loaded as it is, and the LLVM bitcode of its module, which
# Numba keeps to link the kernel into a later compile of a caller (where it may be inlined).
# Numba parses that bitcode on every load, and walks the parsed module's functions and globals
# for the names the kernel defines (what ``get_pointer_to_function`` may look up). A warm
# process compiles nothing, so it never links: parsing was 0.105 s and the walk 0.037 s of
# CPU (about 3,200 llvmlite calls) of a warm ``pyramid_20``'s 0.18 s first step (7 kernels,
# measured on the 2-core machine at load 7). A library loaded here keeps the bitcode as bytes,
# parsed on its first link, and takes the names it defines from the object code's symbol table.

class LazyLinkingLibrary(_codegen.JITCodeLibrary):
    """A cached kernel's code library whose linking bitcode is parsed only when a compile first
    links it (Numba's own library parses it on load)."""

    _shared_bitcode = None

    def _get_module_for_linking(self):
        if self._shared_module is None and self._shared_bitcode is not None:
            module = _llvm.parse_bitcode(self._shared_bitcode)
            self._shared_bitcode = None
            self._shared_module = module
            # What Numba's own load registers: the module's every defined name, internal ones
            # included (the object code's table gave the global ones).
            self._codegen._engine._load_defined_symbols(module)
        return super()._get_module_for_linking()


def _unserialize_lazily(codegen, state, symbols=None):
    """``codegen.unserialize_library(state)`` as a :class:`LazyLinkingLibrary`: Numba's own
    load (``CPUCodeLibrary._unserialize``, kind ``"object"``) but for when the bitcode is parsed
    and where the defined names come from (``symbols``, the object code's, where the caller
    knows them: :mod:`.unit_cache`); kind ``"bitcode"``, a kernel that only kernels call, as a
    :class:`.link_only.LinkOnlyLibrary`. Anything else is left to Numba."""
    name, kind, data = state
    if codegen._library_class is not _codegen.JITCodeLibrary:
        return codegen._library_class._unserialize(codegen, state)
    if kind == "bitcode" and link_only.install():
        return link_only.load(codegen, name, data)  # a kernel only kernels call (see there)
    if kind == "object" and symbols is None:
        symbols = elf_defined_symbols(data[0])
    if symbols is None:
        return codegen._library_class._unserialize(codegen, state)
    object_code, bitcode = data
    library = codegen.create_library(name)
    library.__class__ = LazyLinkingLibrary
    library.enable_object_caching()
    library._set_compiled_object(object_code)
    library._shared_bitcode = bitcode
    library._finalize_final_module()  # the object code goes to the execution engine
    codegen._engine._defined_symbols |= symbols
    return library


_ELF_SYMBOL = np.dtype([("name", "<u4"), ("info", "u1"), ("other", "u1"), ("shndx", "<u2"),
                        ("value", "<u8"), ("size", "<u8")])
"""An ELF64 symbol table entry (``Elf64_Sym``), little-endian."""
_SHT_SYMTAB = 2
_STB_GLOBAL, _STB_WEAK = 1, 2


def elf_defined_symbols(data: bytes) -> set[str] | None:
    """The names of the global and weak symbols that the relocatable ELF64 little-endian object
    ``data`` defines (the ones an execution engine that loaded it can look up), from its symbol
    table; None for anything else (another object format, no symbol table), which the caller
    leaves to Numba. Layout: the System V ABI's ELF-64 object file format."""
    try:
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:  # ELFCLASS64, ELFDATA2LSB
            return None
        shoff = int.from_bytes(data[0x28:0x30], "little")
        shentsize = int.from_bytes(data[0x3A:0x3C], "little")
        shnum = int.from_bytes(data[0x3C:0x3E], "little")
        if shentsize != 64 or shnum == 0:
            return None
        sections = np.frombuffer(data, dtype=np.dtype([
            ("name", "<u4"), ("type", "<u4"), ("flags", "<u8"), ("addr", "<u8"),
            ("offset", "<u8"), ("size", "<u8"), ("link", "<u4"), ("info", "<u4"),
            ("addralign", "<u8"), ("entsize", "<u8")]), count=shnum, offset=shoff)
        tables = np.flatnonzero(sections["type"] == _SHT_SYMTAB)
        if len(tables) != 1:
            return None
        table = sections[tables[0]]
        strings_header = sections[table["link"]]
        start = int(strings_header["offset"])
        strings = data[start:start + int(strings_header["size"])]
        symbols = np.frombuffer(data, dtype=_ELF_SYMBOL,
                                count=int(table["size"]) // _ELF_SYMBOL.itemsize,
                                offset=int(table["offset"]))
        binding = symbols["info"] >> 4
        defined = symbols[((binding == _STB_GLOBAL) | (binding == _STB_WEAK))
                          & (symbols["shndx"] != 0)]  # 0: SHN_UNDEF, a reference
        names = set()
        for offset in defined["name"].tolist():
            names.add(strings[offset:strings.index(b"\0", offset)].decode())
        return names
    except (ValueError, IndexError, UnicodeDecodeError):
        return None


# Every function linked into a cached kernel comes back with its *environment*: the globals of
# its module, for code in object mode, and its constants. Numba rebuilds it on load by importing
# that module, and the kernels of a contact world hold functions of ``numba.np.arraymath``
# (``np.sort``, ``np.argsort``), whose import checks for a BLAS by importing ``scipy.linalg``
# (with NumPy's testing, f2py and ``unittest``: about 160 modules): 0.2 s of CPU, 70% of a
# warm ``pyramid_20`` first step (measured on the loaded 2-core machine). Nopython code never
# reads the globals (only object mode does: ``numba.core.pylowering``), so a load gives the
# environment of a Numba module not imported yet a placeholder dict holding the module's name
# (what ``Environment.can_cache`` and its pickling read), and the placeholder is filled with the
# module's globals once something imports it (:func:`fill_deferred_environments`, called on
# every compile: compiling imports Numba's library).
_deferred: list = []
"""(module name, placeholder globals) of the environments whose module is not imported yet."""


class _quick_load:
    """Context: unpickled environments of Numba modules that are not imported yet get a
    placeholder instead of importing the module, and code libraries are rebuilt by
    :func:`_unserialize_lazily` (held by the global compiler lock, as every load is, so no
    other thread sees the swaps)."""

    def __enter__(self):
        self.rebuild = _environment._rebuild_env
        _environment._rebuild_env = _rebuild_env_deferred
        self.own = _codegen.JITCPUCodegen.__dict__.get("unserialize_library")
        _codegen.JITCPUCodegen.unserialize_library = _unserialize_lazily
        return self

    def __exit__(self, *exc):
        _environment._rebuild_env = self.rebuild
        if self.own is None:
            del _codegen.JITCPUCodegen.unserialize_library  # the inherited one again
        else:
            _codegen.JITCPUCodegen.unserialize_library = self.own
        return False


def _rebuild_env_deferred(modname, consts, env_name):
    if (modname is None or modname in sys.modules or not modname.startswith("numba.")
            or _environment.lookup_environment(env_name) is not None):
        return _REBUILD_ENV(modname, consts, env_name)
    placeholder = {"__name__": modname}
    _deferred.append((modname, placeholder))
    env = _environment.Environment(placeholder)
    env.consts[:] = consts
    env.env_name = env_name
    _environment.Environment._memo[env_name] = env
    return env


def fill_deferred_environments() -> None:
    """Give every placeholder environment whose module is imported by now its module's
    globals."""
    if not _deferred:
        return
    waiting = []
    for modname, placeholder in _deferred:
        module = sys.modules.get(modname)
        if module is None:
            waiting.append((modname, placeholder))
        else:
            placeholder.update(vars(module))
    _deferred[:] = waiting


def quick_loading(dispatcher) -> None:
    """Give ``dispatcher`` (a kernel decorated with ``cache=True``) a :class:`QuickLoadCache`,
    and a first call that leaves Numba's extensions to a compile
    (:func:`_extensions_at_compile`); a dispatcher without Numba's own cache class (caching
    off, no JIT) is left as it is. Its cache saves under a lock (:class:`LockedCacheFile`)."""
    cache = getattr(dispatcher, "_cache", None)
    if type(getattr(cache, "_cache_file", None)) is caching.IndexDataCacheFile:
        cache._cache_file.__class__ = LockedCacheFile
    if type(cache) is caching.FunctionCache and _QUICK_LOAD:
        cache.__class__ = QuickLoadCache
        if _EXTENSIONS_AT_COMPILE:
            dispatcher._compilation_chain_init_hook = _extensions_at_compile


LOCK_NAME = ".save-lock"
"""The lock file in each cache directory that :class:`LockedCacheFile` holds while it saves."""


class LockedCacheFile(caching.IndexDataCacheFile):
    """Numba's index and data files of one kernel, saved by one process at a time.

    Numba's own save reads the kernel's index, picks the first data file name it does not
    list, writes the index, then the data. Two processes saving new signatures of one kernel
    at once (two pytest-xdist workers, a sweep's Ray workers) can both read the same index:
    both pick ``.1.nbc``, one index entry is lost, and the entry left may name the *other*
    signature's code, which a later load runs as its own (numba/numba#10128: no lock in
    Numba). Here the read, the choice and both writes happen under an exclusive
    ``flock`` of the directory's :data:`LOCK_NAME`, and the data is written before the index
    that names it, so a reader (which takes no lock: each file is replaced atomically) never
    finds an entry whose data is not there yet. Where ``fcntl``, the lock file or the lock is
    missing (Windows, a file system without locks) the save is Numba's own, unlocked.

    An index read is kept while its file is unchanged (:meth:`_load_index`); the save reads it
    afresh under the lock."""

    def _load_index(self):
        """Numba's read of the index, kept in this process while the file's inode, size and
        modification time are those it was read at (a save replaces the file: a new inode).
        A warm first step read each unit's index twice, whether it is cached
        (:func:`is_cached`) and then to load it: unpickling an index makes the Numba types
        of its signatures (a world's stores: a few hundred), 0.6-0.7 ms a read, 8 of the 18
        reads of a warm ``pyramid_20`` repeats (load 5 on the 2-core machine, session 18).
        The caller gets a copy (a save adds to it). Should saves ever leave the file with the
        inode, size and time (the kernel's clock tick) it had when read, the read kept is the
        file as it was then: what Numba's own reader gets when a save comes between its read
        of the index and its load."""
        try:
            status = os.stat(self._index_path)
        except OSError:
            return super()._load_index()
        key = (self._index_path, self._source_stamp)
        stamp = (status.st_ino, status.st_size, status.st_mtime_ns)
        kept = _indexes.get(key)
        if kept is None or kept[0] != stamp:
            kept = _indexes[key] = (stamp, super()._load_index())
        return dict(kept[1])

    def save(self, key, data):
        lock = _save_lock(self._cache_path)
        if lock is None:
            return super().save(key, data)
        with lock:
            overloads = caching.IndexDataCacheFile._load_index(self)  # (afresh: not kept)
            name = overloads.get(key)
            if name is None:
                taken = set(overloads.values())
                number = 1
                while self._data_name(number) in taken:
                    number += 1
                name = overloads[key] = self._data_name(number)
            self._save_data(name, data)
            self._save_index(overloads)


def _save_lock(directory: str):
    """The :data:`LOCK_NAME` file of the cache directory ``directory``, open and locked
    exclusively (released when it is closed), or None where no lock can be had (no ``fcntl``,
    no lock file, a file system without locks)."""
    try:
        import fcntl
        lock = open(os.path.join(directory, LOCK_NAME), "a")
    except (ImportError, OSError):
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
    except OSError:
        lock.close()
        return None
    return lock


# A dispatcher's first call from Python (``_compile_for_args``) starts with
# ``_compilation_chain_init_hook``, which runs the ``init`` entry points of the group
# ``numba_extensions`` (``numba.core.entrypoints.init_all``, once per process): it reads
# ``importlib.metadata`` and scans every installed distribution's entry points (the import,
# with the ``email`` parser, 0.04-0.05 s of CPU of a warm ``pyramid_20``, the scan 5-8 ms;
# measured on the loaded 2-core machine; the import is left out of Numba's:
# :mod:`impulse2d._numba_import`), for extensions that a kernel loaded from the cache never
# uses. A compile runs them all the same: Numba's compiler refreshes the target context before
# typing a kernel's body, and the CPU context's refresh calls ``init_all``
# (``CPUContext.load_additional_registries``). What the hook's early call adds is extensions'
# types for the call's arguments, and the package's kernels take only arrays, the package's own
# structures and scalars. A user's own kernels keep Numba's hook.
def _extensions_at_compile() -> None:
    """The package's kernels' ``_compilation_chain_init_hook``: nothing before a cache load
    (Numba's compile initialises the extensions itself)."""


def _refresh_runs_init_all() -> bool:
    """Whether this Numba is the one :func:`_extensions_at_compile` was written for (0.68): the
    dispatcher's hook only runs ``init_all``, and the CPU context's refresh runs it too."""
    try:
        from numba.core import cpu, dispatcher, entrypoints
        hook = dispatcher._DispatcherBase._compilation_chain_init_hook
        return (callable(getattr(entrypoints, "init_all", None))
                and set(hook.__code__.co_names) == {"entrypoints", "init_all"}
                and "init_all" in cpu.CPUContext.load_additional_registries.__code__.co_names
                and "load_additional_registries" in cpu.CPUContext.refresh.__code__.co_names)
    except (ImportError, AttributeError):
        return False


def is_cached(dispatcher, argtypes: tuple) -> bool | None:
    """Whether the cache holds code of ``dispatcher`` compiled for ``argtypes`` (a tuple of Numba
    types) on this machine, read from the cache's index without loading the code; None where
    that cannot be told (no cache, a Numba without these internals)."""
    cache = getattr(dispatcher, "_cache", None)
    if not isinstance(cache, caching.FunctionCache):
        return None
    try:
        key = cache._index_key(argtypes, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:
        return None


def cached_signatures(dispatcher) -> int | None:
    """How many compiled signatures of ``dispatcher`` the cache holds for this source (None
    where that cannot be told); 1 where a kernel whose dispatcher is not made yet has an entry
    file (:func:`.unit_cache.entry_readable`: asked first, so as not to make the dispatcher
    that the entry file's load does without)."""
    from . import unit_cache  # (it imports this module)
    if unit_cache.entry_readable(dispatcher):
        return 1
    cache = getattr(dispatcher, "_cache", None)
    if not isinstance(cache, caching.FunctionCache):
        return None
    try:
        return len(cache._cache_file._load_index())
    except Exception:
        return None


_REBUILD_ENV = getattr(_environment, "_rebuild_env", None)
"""Numba's own rebuild of an environment (the one :func:`_rebuild_env_deferred` falls back to)."""

_QUICK_LOAD = (all(hasattr(caching.FunctionCache, name)
                   for name in ("_load_overload", "_guard_against_spurious_io_errors"))
               and all(hasattr(_environment, name)
                       for name in ("_rebuild_env", "lookup_environment", "Environment"))
               and all(hasattr(_codegen.JITCodeLibrary, name)
                       for name in ("_get_module_for_linking", "_unserialize",
                                    "enable_object_caching", "_set_compiled_object",
                                    "_finalize_final_module"))
               and hasattr(_codegen.JITCPUCodegen, "unserialize_library")
               and hasattr(_codegen.JitEngine, "_load_defined_symbols"))
"""Whether this Numba has the private methods :class:`QuickLoadCache` relies on."""

_EXTENSIONS_AT_COMPILE = _refresh_runs_init_all()
"""Whether the package's kernels' first calls leave Numba's extensions to the compile."""


def _same_class(cls) -> bool:
    return (getattr(cls, "__module__", None) == PackageCacheLocator.__module__
            and getattr(cls, "__qualname__", None) == PackageCacheLocator.__qualname__)


def install() -> None:
    """Put :class:`PackageCacheLocator` first in Numba's list of cache locators (idempotent;
    a copy left by an earlier import of this module is replaced), and keep Numba's runtime
    module in the same cache (:mod:`.runtime_cache`)."""
    from . import runtime_cache
    classes = caching.CacheImpl._locator_classes
    classes[:] = [PackageCacheLocator] + [c for c in classes if not _same_class(c)]
    runtime_cache.install()


def uninstall() -> None:
    """Remove :class:`PackageCacheLocator` from Numba's list (for tests)."""
    classes = caching.CacheImpl._locator_classes
    classes[:] = [c for c in classes if not _same_class(c)]


__all__ = ["PackageCacheLocator", "QuickLoadCache", "LockedCacheFile", "quick_loading",
           "fill_deferred_environments", "is_cached", "cached_signatures", "install",
           "uninstall", "cache_root", "package_stamp", "compute_stamp", "compiled_sources",
           "seed_user_cache", "user_cache_root", "is_writable", "relative_dir", "reset",
           "copy_file", "adopt_from_peers", "PEER_ROOTS", "PEERS_VARIABLE", "PACKAGE_DIR", "SHIPPED_DIR", "SHIPPED_MARKER", "SEED_MARKER",
           "LOCK_NAME"]
