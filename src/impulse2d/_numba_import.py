"""Importing Numba without imports that a warm process never uses: SciPy, PyYAML,
``importlib.metadata``, ``html``, ``locale``, ``numpy.ma``, Numba's jitclass overloads,
``numpy.random`` and ``numpy.polynomial``; and Numba's casting rules set from the cache instead
of propagated.

* **SciPy.** Numba's ``__init__`` imports SciPy, when it is installed, only to refuse a SciPy
  older than 1.0 (``numba._ensure_critical_deps``): SciPy's own import (its testing helpers,
  ``subprocess``, ``locale``, its version parser) is about 0.03 s of CPU of a warm start of
  0.6-0.8 s, and a warm world of contacts never uses SciPy (the direct solver's dense Cholesky
  finds LAPACK in ``scipy.linalg.cython_lapack`` on its first call, through Numba's helper
  library, which imports it then; the modules that call SciPy import it themselves). The check
  reads only ``scipy.__version__``, so while Numba imports, ``sys.modules`` holds a module that
  has just that, the installed SciPy's version read from the package's own ``scipy/version.py``
  (a file of constants, run alone; SciPy's ``__init__`` takes its version from there): not from
  its distribution's metadata, as ``importlib.metadata`` and the ``email`` parser it imports
  are 0.049 s of CPU of a warm start (load 16-21 on the 2-core machine) that nothing else
  needs there (below). The stand-in
  is removed as soon as Numba is imported, so the next ``import scipy`` imports SciPy itself.
  Numba's check is kept as it was: the version it reads is the installed one.
* **importlib.metadata.** Numba's ``numba.core.entrypoints`` imports it at Numba's import, to
  run the ``init`` entry points of the group ``numba_extensions`` before a dispatcher's first
  compile; the package's kernels leave that to the compile itself
  (:func:`impulse2d._core.cache.quick_loading`), so a warm process never reads it. While Numba
  imports, ``sys.modules`` holds a stand-in that imports it on first use (where no one has
  imported it yet); the stand-in is removed once Numba is imported, so anyone else's
  ``import importlib.metadata`` imports it itself, and Numba's first scan of the entry points
  (a user's own kernel called) imports it through the stand-in Numba kept.
* **html and locale.** ``numba.core.codegen`` imports both at Numba's import, ``html`` to
  escape the text of a control-flow graph it draws (``html.escape``), ``locale`` to name the
  locale in the error of its check for LLVM's locale bug (``locale.getlocale``): neither is
  read unless a user draws a graph or that check fails, and nothing else a warm process runs
  imports them (``html`` and ``html.entities``, ``locale``: 5.8 ms of CPU at load 12 on the
  2-core machine, 2026-12-01 session 23). They are stand-ins as ``importlib.metadata`` is:
  Numba's module keeps the stand-in, which imports the real module at its first attribute
  read; anyone else's import after Numba's imports the real one.
* **PyYAML.** Numba's configuration imports ``yaml`` at its import to read a
  ``.numba_config.yaml`` in the working directory, should there be one (0.026-0.032 s of CPU
  after Numba's other imports at load 15 on the 2-core machine, for a file that is almost never
  there). Where there is no such file when Numba imports, its ``import yaml`` is refused
  (``sys.modules["yaml"] = None`` while it imports, so it takes PyYAML for not installed), and
  its configuration is then given PyYAML back as a stand-in that imports it on first use: a
  file made later is read as before (Numba reads the file again at each compile). Anyone
  else's ``import yaml`` imports PyYAML itself.
* **numpy.ma.** Numba's type of a NumPy array (``typeof``, for every array argument the first
  time its kind is met, and for the world's stores at the package's import) starts by refusing
  a masked array, ``isinstance(val, np.ma.MaskedArray)``, and that attribute imports
  ``numpy.ma`` (0.05-0.07 s of CPU at load 15). An array whose type is exactly ``np.ndarray``
  is no masked array, so its Numba type is made here without asking (the same type: dtype,
  dimensions, layout and read-only flag, as Numba makes it); any other array (a subclass,
  masked or not, or a dtype Numba refuses) goes to Numba's own, unchanged.

* **numba.experimental.jitclass.overloads.** Numba's ``__init__`` imports ``jitclass``, whose
  ``overloads`` module registers the typing of Python's built-in functions and operators on
  jitclass instances (``bool``, ``len``, ``==``, ... calling the class's dunder methods): 6-9 ms
  of CPU (its ``@overload`` templates made; load 5-7 on the 2-core machine, session 21) for
  templates that only a compile reads, and a warm process compiles nothing. While Numba
  imports, ``sys.modules`` holds an empty stand-in for it; the real module is imported (its
  templates registered) at the first refresh of a typing context, which every compile does
  before it types anything (``BaseContext.refresh``: the registries' new templates loaded),
  so a compile, the package's or anyone's, sees every template it saw before.

The last three are made only where Numba's code is the one they were written for (Numba 0.68:
a configuration that records a failed ``import yaml`` in ``_HAVE_YAML``, a ``_typeof_ndarray``
registered for ``np.ndarray`` in ``numba.core.typing.typeof``, a typing context whose
``refresh`` loads the registries); elsewhere that part is left out (the jitclass overloads
imported as soon as Numba is), and Numba does as it always did.

* **numpy.random and numpy.polynomial.** Numba's ``typeof`` module imports both at Numba's
  import, only to register the Numba types of a bit generator, a ``Generator`` and a
  ``Polynomial`` (``typeof_impl.register(BitGenerator)``, ...): 17-27 ms of CPU of a warm start
  (``numpy.random``'s seven extension modules and ``secrets``; ``numpy.polynomial``'s six
  classes: load 11 on the 2-core machine, session 22) for values a warm world never types.
  NumPy imports both on first use (its ``__getattr__``), so nothing else has them yet. While
  Numba imports, ``sys.modules`` (and ``numpy``'s attributes) hold stand-ins whose three
  classes are abstract base classes that count as a superclass of exactly the subclasses of
  the real class, once the real module is imported (:func:`_superclass_of`): Numba registers
  its ``typeof`` of each on them, and a real ``Generator``, ``PCG64`` or ``Polynomial`` typed
  later (imported after the stand-ins are gone) is dispatched to it as before. Any other
  attribute of a stand-in read while Numba imports imports the real modules in their place.

* **Numba's casting rules.** ``numba.core.typeconv.rules`` propagates 23 rules between number
  types in Python at Numba's import (12-15 ms of CPU at load 10, session 22), for a table that
  is the same in every process: while Numba imports they are recorded, and then set from the
  package's cache (1-1.4 ms), or propagated as Numba does and saved (:mod:`._core.casting_rules`).
"""

from __future__ import annotations

import abc
import importlib
import importlib.util
import os
import sys
import types

from ._core import casting_rules


def import_numba() -> None:
    """Import Numba, with SciPy's version in place of SciPy, PyYAML,
    ``importlib.metadata``, ``html``, ``locale``, ``numpy.random`` and ``numpy.polynomial``
    imported when they are used, and type plain arrays without ``numpy.ma`` (see the module)."""
    if "numba" not in sys.modules:
        with (_scipy_version_only(), _yaml_when_read(), _imported_when_read(*_WHEN_READ),
              _jitclass_overloads_at_typing(), _numpy_random_when_used(),
              _casting_rules_from_cache()):
            import numba  # noqa: F401
    _typeof_plain_arrays()


class _scipy_version_only:
    """Context: ``sys.modules["scipy"]`` is a module holding the installed SciPy's version only
    (nothing where SciPy is not installed, or is imported already)."""

    def __enter__(self):
        self.stand_in = None
        if "scipy" in sys.modules:
            return self
        version = _installed_scipy_version()
        if version is None:
            return self  # not installed: Numba checks nothing
        self.stand_in = types.ModuleType("scipy", "SciPy's version only, while Numba imports")
        self.stand_in.__version__ = version
        sys.modules["scipy"] = self.stand_in
        return self

    def __exit__(self, *exc):
        if self.stand_in is not None and sys.modules.get("scipy") is self.stand_in:
            del sys.modules["scipy"]
        return False


def _installed_scipy_version() -> str | None:
    """The installed SciPy's version (None where SciPy is not installed): ``version`` in its
    ``scipy/version.py``, that module run on its own (it imports nothing; not put in
    ``sys.modules``), else from its distribution's metadata."""
    spec = importlib.util.find_spec("scipy")
    if spec is None:
        return None
    for folder in spec.submodule_search_locations or ():
        path = os.path.join(folder, "version.py")
        if os.path.isfile(path):
            try:
                module_spec = importlib.util.spec_from_file_location("scipy.version", path)
                module = importlib.util.module_from_spec(module_spec)
                module_spec.loader.exec_module(module)
            except Exception:
                break
            if isinstance(getattr(module, "version", None), str):
                return module.version
            break
    from importlib import metadata
    try:
        return metadata.version("scipy")
    except metadata.PackageNotFoundError:
        return None


class _yaml_when_read:
    """Context: Numba's import without PyYAML where there is no configuration file for it to
    read, and Numba's configuration given :class:`_ImportedOnUse` in its place afterwards."""

    def __enter__(self):
        # (Numba's file name, read from the working directory: numba.core.config._config_fname)
        self.refused = ("yaml" not in sys.modules
                        and not os.path.isfile(".numba_config.yaml")
                        and importlib.util.find_spec("yaml") is not None)
        if self.refused:
            sys.modules["yaml"] = None  # an import of it raises ImportError
        return self

    def __exit__(self, *exc):
        if not self.refused:
            return False
        if "yaml" in sys.modules and sys.modules["yaml"] is None:
            del sys.modules["yaml"]
        config = sys.modules.get("numba.core.config")
        if config is not None and getattr(config, "_HAVE_YAML", None) is False:
            config.yaml = _ImportedOnUse("yaml")
            config._HAVE_YAML = True
        return False


_WHEN_READ = ("importlib.metadata", "html", "locale")
"""The modules Numba's import is given :class:`_ImportedOnUse` stand-ins of (see the module)."""


class _imported_when_read:
    """Context: ``sys.modules[name]`` is an :class:`_ImportedOnUse` stand-in for each of
    ``names`` not imported already."""

    def __init__(self, *names: str):
        self.names = names

    def __enter__(self):
        self.stand_ins = {name: _ImportedOnUse(name) for name in self.names
                          if name not in sys.modules}
        sys.modules.update(self.stand_ins)
        return self

    def __exit__(self, *exc):
        for name, stand_in in self.stand_ins.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]
        return False


class _jitclass_overloads_at_typing:
    """Context: ``sys.modules`` holds an empty stand-in for Numba's jitclass overloads while
    Numba imports, and the real module is imported at the first refresh of a typing context
    (see the module)."""

    NAME = "numba.experimental.jitclass.overloads"

    def __enter__(self):
        self.stand_in = None
        if self.NAME not in sys.modules:
            self.stand_in = types.ModuleType(self.NAME, "imported at Numba's first typing")
            sys.modules[self.NAME] = self.stand_in
        return self

    def __exit__(self, *exc):
        if self.stand_in is None or sys.modules.get(self.NAME) is not self.stand_in:
            return False
        del sys.modules[self.NAME]
        try:
            from numba.core.typing.context import BaseContext
            own = BaseContext.__dict__["refresh"]
            written_for = "load_additional_registries" in own.__code__.co_names
        except (ImportError, KeyError, AttributeError):
            written_for = False
        if not written_for:
            importlib.import_module(self.NAME)  # (Numba's own order, a little later)
            return False
        name = self.NAME

        def refresh(context):
            if BaseContext.__dict__.get("refresh") is refresh:
                BaseContext.refresh = own  # (once: every later refresh is Numba's own)
            importlib.import_module(name)
            return own(context)

        refresh.__doc__ = own.__doc__
        BaseContext.refresh = refresh
        return False


class _numpy_random_when_used:
    """Context: ``sys.modules`` and ``numpy``'s attributes hold stand-ins for ``numpy.random``
    and ``numpy.polynomial`` (and the submodules Numba's ``typeof`` reads) while Numba imports,
    each of the classes Numba registers a stand-in of :func:`_superclass_of` (see the module);
    nothing where NumPy has imported either already or does not import them on first use."""

    CLASSES = {"numpy.random": "Generator", "numpy.random.bit_generator": "BitGenerator",
               "numpy.polynomial": None, "numpy.polynomial.polynomial": "Polynomial"}
    """Each stand-in module (parents first) and the class Numba's ``typeof`` takes from it."""

    def __enter__(self):
        import numpy
        self.numpy, self.stand_ins = numpy, {}
        lazy = getattr(numpy, "__getattr__", None) is not None
        if not lazy or any(name in sys.modules or name.split(".")[1] in vars(numpy)
                           for name in self.CLASSES):
            return self
        for name, cls in self.CLASSES.items():
            module = _StandIn(name, self)
            if cls is not None:
                setattr(module, cls, _superclass_of(name, cls))
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, module)
            sys.modules[name] = self.stand_ins[name] = module
        return self

    def __exit__(self, *exc):
        self.remove()
        return False

    def remove(self) -> None:
        """Take the stand-ins out of ``sys.modules`` and ``numpy``: the next use imports the
        real modules."""
        for name, module in self.stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
            child = name.split(".")[1]
            if vars(self.numpy).get(child) is module:
                delattr(self.numpy, child)
        self.stand_ins = {}


class _StandIn(types.ModuleType):
    """A stand-in module of :class:`_numpy_random_when_used`: an attribute it does not hold
    removes every stand-in and is read from the real module."""

    def __init__(self, name, context):
        super().__init__(name, "a stand-in while Numba imports (impulse2d._numba_import)")
        self._context = context

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        self.__dict__["_context"].remove()
        return getattr(importlib.import_module(self.__name__), name)


def _superclass_of(module: str, name: str) -> type:
    """An abstract base class that counts as a superclass of exactly the subclasses of
    ``module.name`` (the class itself included) once ``module`` is imported, of none before
    (no class can subclass it then)."""

    def __subclasshook__(cls, subclass):
        real = getattr(sys.modules.get(module), name, None)
        if not isinstance(real, type) or isinstance(real, _Superclass):
            return NotImplemented  # not imported (or a stand-in's): no subclass exists yet
        return issubclass(subclass, real)

    return _Superclass(name, (), {"__subclasshook__": classmethod(__subclasshook__),
                                  "__module__": __name__,
                                  "__doc__": f"Any subclass of {module}.{name} (once imported)."})


class _Superclass(abc.ABCMeta):
    """The metaclass of :func:`_superclass_of`'s classes."""


class _casting_rules_from_cache:
    """Context: Numba's casting rules recorded while Numba imports (its ``TypeCastingRules``
    a :class:`.casting_rules.Recorded` while ``numba.core.typeconv.rules`` runs) and their
    relations set from the cache once it has (:func:`.casting_rules.complete`); nothing where
    the rules module is imported already or Numba's is not the one this was written for."""

    NAME = "numba.core.typeconv.rules"

    def __enter__(self):
        self.recorded = self.rules = None
        if self.NAME not in sys.modules:
            sys.meta_path.insert(0, self)
        return self

    def find_spec(self, name, path, target=None):
        """The rules module's own spec, its run wrapped (a finder of ``sys.meta_path``)."""
        if name != self.NAME:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        typeconv = importlib.import_module("numba.core.typeconv.typeconv")
        own = getattr(typeconv, "TypeCastingRules", None)
        run = getattr(spec.loader, "exec_module", None) if spec is not None else None
        if run is None or set(casting_rules.Recorded.METHODS) - set(vars(own or object)):
            return spec  # not the Numba this was written for

        def exec_module(module):
            typeconv.TypeCastingRules = casting_rules.Recorded
            try:
                run(module)
            finally:
                typeconv.TypeCastingRules = own
            recorded = vars(module).get("default_casting_rules")
            if isinstance(recorded, casting_rules.Recorded):
                self.recorded, self.rules = recorded, module

        spec.loader.exec_module = exec_module
        return spec

    def __exit__(self, *exc):
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        if self.recorded is not None and exc[0] is None:
            casting_rules.complete(self.recorded, self.rules)
        return False


class _ImportedOnUse(types.ModuleType):
    """The module of this name, imported when an attribute of it is first read (PyYAML for
    Numba's configuration, ``importlib.metadata`` for its entry points, ``html`` and ``locale``
    for its code generator)."""

    def __getattr__(self, name):
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]  # (read while Numba imports: import the real one)
        return getattr(importlib.import_module(self.__name__), name)


def _typeof_plain_arrays() -> None:
    """Register :func:`_typeof_array` as Numba's ``typeof`` of ``np.ndarray``, in front of
    Numba's own, which it calls for anything but a plain array."""
    import numpy as np
    from numba.core.typing.typeof import typeof_impl
    numba_own = typeof_impl.dispatch(np.ndarray)
    if getattr(numba_own, "numba_own", None) is not None:
        return  # installed already
    if (numba_own.__module__, numba_own.__name__) != ("numba.core.typing.typeof",
                                                       "_typeof_ndarray"):
        return  # not the Numba this was written for
    from numba.core import errors
    from numba.core import types as nb_types
    from numba.np import numpy_support

    def _typeof_array(val, c):
        """Numba's type of ``val``; for a plain ``np.ndarray`` (no masked array) made without
        Numba's masked-array test, which imports ``numpy.ma``."""
        if type(val) is not np.ndarray:
            return numba_own(val, c)
        try:
            dtype = numpy_support.from_dtype(val.dtype)
        except errors.NumbaNotImplementedError:
            return numba_own(val, c)  # a dtype Numba refuses: its own error names it
        return nb_types.Array(dtype, val.ndim, numpy_support.map_layout(val),
                              readonly=not val.flags.writeable)

    _typeof_array.numba_own = numba_own
    typeof_impl.register(np.ndarray)(_typeof_array)


__all__ = ["import_numba"]
