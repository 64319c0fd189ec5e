"""Numba's library functions (``np.zeros``, ``np.empty``, ``min``, ...) compiled once per
signature, not once per kind of kernel that calls them.

Numba implements such a function with an ``@overload``: for each call's argument types it
makes a small dispatcher of the implementation and compiles it, and keeps that dispatcher under
a key of the argument types and the *whole* set of the calling kernel's compile flags. The
engine's kernels come in seven kinds (:mod:`.jit`: with or without a Python wrapper, a C
wrapper, the GIL, reference counting), so the same ``np.zeros(n, np.int64)`` was compiled once
for each kind of caller: a cold ``pyramid_20`` compiled ``np.empty`` 20 times and ``np.zeros``
17 times for 12 and 10 signatures (3.0 s of CPU of their own; 14 and 12 times, 1.95 s, keyed
as below: measured 2026-11-28 with ``benchmarks/compile_table.py``).

Of the caller's flags, an implementation's machine code depends only on those Numba passes on
to it when it compiles it (``CPUTargetOptions.finalize``'s ``inherit_if_not_set``: reference
counting, fast-math, the error model, forced inlining); the others (the wrappers, the GIL)
shape the caller's own entry points. So the key here is the argument types and those four
flags: callers that would compile the same implementation share one compile. Each caller links
the implementation's code into its own module as before, so every kernel's machine code is what
it was; only the duplicate compiles go.

Installed when the package imports (:func:`install`), for Numba versions whose
``_OverloadFunctionTemplate._get_impl`` keys as described (checked with Numba 0.68); any
other is left as it is. This module holds no kernel and changes no machine code, so it is left out of the
cache's source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

from .numba_patch import Patch

INHERITED = ("nrt", "fastmath", "error_model", "forceinline")
"""The caller's flags an overload's implementation inherits (Numba's ``CPUTargetOptions``)."""


def _inherited(flags):
    """The part of the caller's ``flags`` that an implementation compiled under them inherits:
    their values, set or default alike (Numba's ``inherit_if_not_set`` reads the value)."""
    if flags is None:
        return None
    return tuple(_hashable(getattr(flags, name)) for name in INHERITED)


def _hashable(value):
    """A flag's value as a key: itself, or its encoding (fast-math's options are a set)."""
    try:
        hash(value)
        return value
    except TypeError:
        encode = getattr(value, "encode", None)
        # (an object of unknown kind is its own key: never shared, as in Numba)
        return (type(value).__name__, encode()) if callable(encode) else (id(value),)


@Patch
def install() -> bool:
    """Key Numba's overload implementations by the inherited flags only (see the module);
    False, with nothing changed, where Numba's code is not the one this was written for."""
    from numba.core import targetconfig
    from numba.core.compiler import Flags
    from numba.core.typing import templates
    template = templates._OverloadFunctionTemplate
    original = template._get_impl
    names = original.__code__.co_names
    flags = targetconfig.ConfigStack.top_or_none
    if not all(hasattr(Flags, name) for name in INHERITED):
        return False
    # Numba's own: key = (context, args, kws, flags), then _build_impl(key, args, kws)
    if not {"ConfigStack", "top_or_none", "_impl_cache", "_build_impl"} <= set(names):
        return False

    def _get_impl(self, args, kws):
        cache_key = self.context, tuple(args), tuple(kws.items()), _inherited(flags())
        try:
            impl, args = self._impl_cache[cache_key]
            return impl, args
        except KeyError:
            pass  # (built outside the handler, as Numba does)
        return self._build_impl(cache_key, args, kws)

    _get_impl.__doc__ = original.__doc__
    template._get_impl = _get_impl
    return True


__all__ = ["install", "INHERITED"]
