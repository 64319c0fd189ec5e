"""The guard around each of the package's patches of Numba's compiler.

Five modules change how Numba compiles the engine's kernels: :mod:`.overloads` (library
functions compiled once per signature), :mod:`.inliner` (a callee's blocks copied once),
:mod:`.link_only` (no machine code for kernels only kernels call), :mod:`.arguments` (the
stores kept as values in the lowering) and :mod:`.frontend` (front-end analyses made cheaper,
what they give unchanged). Each was written against one Numba (0.68) and checks
that the code it replaces is that code before it touches anything. What they share is this:
the patch is applied at most once per process; where a module or name it looks up is missing
(``ImportError``, ``AttributeError``: another Numba) or its own checks fail, it changes
nothing and says False, and Numba compiles as it would without it.

A patch does every look-up and check before its first change, so that a failed look-up leaves
Numba whole. This module imports nothing of Numba's.
"""

from __future__ import annotations

import functools


class Patch:
    """``apply`` as an idempotent ``install()``: ``apply()`` makes its change and returns
    True, or returns False (or raises ``ImportError`` / ``AttributeError``) having changed
    nothing. Called again after a True, it returns True without applying anything."""

    def __init__(self, apply):
        functools.update_wrapper(self, apply)
        self._apply = apply
        self.installed = False

    def __call__(self) -> bool:
        if not self.installed:
            try:
                self.installed = bool(self._apply())
            except (ImportError, AttributeError):
                return False
        return self.installed


__all__ = ["Patch"]
