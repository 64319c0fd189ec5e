"""Kernels whose Numba dispatcher is made on first use, not at import.

Making a dispatcher costs about 144 us (measured on the 2-core CI machine at load 8): two
``inspect.signature`` calls, the cache's locator and index names, Numba's C-level dispatcher
object. The package decorates about 490 kernels, 0.07 s of a warm start that needs a few dozen
of them: the ones Python calls while a world is built and stepped, and the step's stages,
which are loaded from the cache by address (:mod:`.lazy`); everything they call is linked into
their cached machine code and never needs a dispatcher of its own in a warm process.

A :class:`DeferredKernel` stands where the dispatcher would: it carries the function's name,
module, docstring and ``py_func``, and makes the dispatcher (with the decorator that
:mod:`.jit` chose) the first time anything else is asked of it: a call, an attribute
(``compile``, ``overloads``, ``targetoptions``, ...), or Numba's typing of a kernel that calls
it (``typeof`` below gives the dispatcher's own type, so the caller is typed, compiled and
cached exactly as with the dispatcher in its globals: the same machine code). Once made, the
dispatcher replaces the stand-in in its module's globals, and a call through the stand-in
replaces it in the calling module's globals too, so later calls go straight to the dispatcher.

This module holds no kernel and changes no machine code, so it is left out of the cache's
source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import sys
import threading
from types import MethodType

from numba.core.typing.typeof import typeof_impl


class DeferredKernel:
    """``decorate(function)`` (a Numba dispatcher), made on first use (see the module)."""

    def __init__(self, function, decorate):
        self.py_func = function
        self._decorate = decorate
        self._dispatcher = None
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__module__ = function.__module__
        self.__doc__ = function.__doc__
        self.__wrapped__ = function

    def dispatcher(self):
        """The Numba dispatcher, made now if it was not yet (once: a batch's threads may ask
        together)."""
        made = self._dispatcher
        if made is None:
            with _MAKING:
                made = self._dispatcher
                if made is None:
                    made = self._dispatcher = self._decorate(self.py_func)
                    module = sys.modules.get(self.__module__)
                    if module is not None and module.__dict__.get(self.__name__) is self:
                        module.__dict__[self.__name__] = made
        return made

    def __getattr__(self, name):
        # Only for names not set in __init__: the dispatcher's own attributes.
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)  # copy/pickle probes: not the dispatcher's business
        return getattr(self.dispatcher(), name)

    def __call__(self, *args, **kwargs):
        made = self._dispatcher or self.dispatcher()
        # The caller bound this stand-in under the kernel's name (``from m import k``): give it
        # the dispatcher, so that its next call does not come through here.
        caller = sys._getframe(1).f_globals
        if caller.get(self.__name__) is self:
            caller[self.__name__] = made
        return made(*args, **kwargs)

    def __get__(self, obj, objtype=None):
        # As a dispatcher (and a function) does: bound when read from an instance.
        return self if obj is None else MethodType(self, obj)

    def __reduce__(self):
        return self.dispatcher().__reduce__()

    def __repr__(self):
        state = "made" if self._dispatcher is not None else "deferred"
        return f"<kernel {self.__module__}.{self.__qualname__} ({state})>"


_MAKING = threading.RLock()


@typeof_impl.register(DeferredKernel)
def _typeof_deferred(value, context):
    # A kernel that calls (or is passed) a stand-in is typed with the dispatcher's own type.
    return typeof_impl(value.dispatcher(), context)


__all__ = ["DeferredKernel"]
