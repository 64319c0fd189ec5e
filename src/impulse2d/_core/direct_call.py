"""Python's calls of a kernel at a call site whose argument types never change.

Numba's dispatcher types every argument on every call: about 0.35 us per array inside a
NamedTuple store (measured on the 2-core CI machine), so 30-40 us for the ~120 arrays of a
world, more than a small scene's whole solve. A :class:`DirectCall` finds the kernel's
machine-code entry point for the call site's argument types once and calls it directly from
then on; the arguments are then only unboxed (about 0.1 us per array).

The entry point comes from the kernel's *entry file* where the cache has one for these
argument types (:func:`.unit_cache.load_entry`: its code and environments loaded without the
kernel's dispatcher, index or compile result, as a unit's are), else from Numba (compiled, or
loaded from its cache), and the entry file is then written for the next process.

Holds no kernel: left out of the cache's source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import numba
from numba.core.typing.typeof import Purpose, typeof

from . import unit_cache
from .lazy import compiling


def argument_types(args) -> tuple:
    """The Numba types of ``args`` as a dispatcher types them for a call
    (``Dispatcher.typeof_pyval``), without a dispatcher."""
    found = []
    for value in args:
        try:
            kind = typeof(value, Purpose.argument)
        except ValueError:
            kind = None
        found.append(numba.types.pyobject if kind is None else kind)
    return tuple(found)


class DirectCall:
    """Calls a kernel's compiled code without Numba's per-call typing of the arguments (see the
    module).

    Only for internal call sites whose argument types never change: stores of a fixed layout
    and scalars converted with ``float``/``int``/``bool`` at the call. (The entry point converts
    a Python object to the type it was compiled for, so an int passed where a float was compiled
    is fine, but a float where an int was compiled would be truncated.)

    A first call that must compile is announced as ``what`` (about ``seconds``: see
    :mod:`.lazy`).
    """

    def __init__(self, dispatcher, what: str, seconds: float):
        self._dispatcher = dispatcher
        self._entry = None
        self.entry = self
        """The compiled entry point once the kernel is prepared (or first called), else this
        object: a hot call site calls ``.entry(...)`` and saves the Python-level ``__call__``
        (about 0.2 us)."""
        self.native = 0
        """The address of the kernel's own code once prepared (Numba's calling convention: the
        return slot, the exception slot, then the arguments as their data models lay them
        out), for compiled code that calls it without the entry point's wrapper."""
        self._unit = (what, seconds)
        self.__doc__ = dispatcher.__doc__

    @property
    def prepared(self) -> bool:
        """Whether the kernel is compiled (or loaded) for the call site's arguments."""
        return self._entry is not None

    def prepare(self, *args) -> None:
        """Compile (or load) the kernel for these arguments without calling it."""
        if self._entry is not None or numba.config.DISABLE_JIT:
            return
        signature = argument_types(args)
        loaded = unit_cache.load_entry(self._dispatcher, signature)
        if loaded is None:
            with compiling(*self._unit):
                self._dispatcher.compile(signature)
            self._compiled(signature)
        else:
            self._entry = self.entry = loaded[0]
            self.native = loaded[1]

    def _compiled(self, signature) -> None:
        """Take the entry point Numba compiled (or loaded) for ``signature``, and write its
        entry file."""
        compiled = self._dispatcher.overloads[signature]
        unit_cache.save_entry(self._dispatcher, signature, compiled)
        self.native = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)
        self._entry = self.entry = compiled.entry_point

    def __call__(self, *args):
        entry = self._entry
        if entry is not None:
            return entry(*args)
        if not numba.config.DISABLE_JIT:
            loaded = unit_cache.load_entry(self._dispatcher, argument_types(args))
            if loaded is not None:
                self._entry = self.entry = loaded[0]
                self.native = loaded[1]
                return loaded[0](*args)
        with compiling(*self._unit):
            result = self._dispatcher(*args)
        overloads = getattr(self._dispatcher, "overloads", None)  # None without the JIT
        if overloads is not None:
            signature = tuple(self._dispatcher.typeof_pyval(a) for a in args)
            if signature in overloads:
                self._compiled(signature)
        return result


__all__ = ["DirectCall", "argument_types"]
