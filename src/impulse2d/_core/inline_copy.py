"""Numba's IR inlining (``inline="always"``, :data:`.jit.inline_kernel`) without copying the
callee's whole scope once per block.

Before it inlines a callee's IR into a caller, Numba copies it (``InlineWorker.inline_ir``), one
``copy.deepcopy`` per block. Every variable of a block refers to the function's scope, which
holds every variable of the function, so each block's copy copies the whole scope again: blocks
times variables. A cold ``pyramid_20`` inlines 58 call sites (two copies each): 2.7 million
``deepcopy`` calls, 12 % of its compile under a profiler; copying each scope once took 2.0 s of
CPU from it in one process (70.7 -> 68.6 s, run side by side at load 9.5, the same state hash;
2026-11-29, BENCHMARKS.md "Start-up, issue 31 item 6, sixth round").

Installed when the package imports (:func:`install`), the blocks of one function copied within
one ``inline_ir`` call share one copy memo, so the scope and its variables are copied once, as a
single ``deepcopy`` of the whole block map would. What Numba keeps of the copies is the same:
after the inline every inlined block's scope is the caller's and each of the callee's variables
was replaced by a new one of the caller's scope, by name; the copies of the callee's scope, one
per block before and one now, are dropped with the unmutated copy ``inline_ir`` returns (which
Numba's callers discard). So the IR, and every kernel's machine code, is what it was.

Installed only for Numba versions whose ``inline_closurecall`` copies blocks with the module
``copy`` inside ``InlineWorker.inline_ir`` (checked with Numba 0.68); any other is left as it
is. This module holds no kernel and changes no machine code, so it is left out of the cache's
source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import copy as _copy

_installed = False


class _SharedMemoCopy:
    """Stands in for the module ``copy`` inside Numba's ``inline_closurecall``: a ``deepcopy``
    of an IR block, while :attr:`memos` is set (inside ``inline_ir``), shares one memo with
    the other blocks of its scope; everything else is the module's own."""

    def __init__(self, block_class):
        self.block_class = block_class
        self.memos = None  # id(source scope) -> the copy memo of its blocks

    def deepcopy(self, value, memo=None):
        if memo is None and self.memos is not None and isinstance(value, self.block_class):
            memo = self.memos.setdefault(id(value.scope), {})
        return _copy.deepcopy(value, memo)

    def __getattr__(self, name):
        return getattr(_copy, name)


def install() -> bool:
    """Copy each inlined function's scope once per inline (see the module); False, with
    nothing changed, where Numba's inliner is not the one this was written for."""
    global _installed
    if _installed:
        return True
    try:
        from numba.core import inline_closurecall, ir
        worker = inline_closurecall.InlineWorker
        inline_ir = worker.inline_ir
        names = inline_ir.__code__.co_consts
    except (ImportError, AttributeError):
        return False
    # Numba's own: a nested copy_ir doing copy.deepcopy(block) for each block
    nested = [c for c in names if getattr(c, "co_name", None) == "copy_ir"]
    if (inline_closurecall.copy is not _copy or len(nested) != 1
            or not {"copy", "deepcopy"} <= set(nested[0].co_names)):
        return False
    shared = _SharedMemoCopy(ir.Block)

    def inline_ir_copying_scopes_once(self, *args, **kwargs):
        outer, shared.memos = shared.memos, {}
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            shared.memos = outer

    inline_ir_copying_scopes_once.__doc__ = inline_ir.__doc__
    inline_closurecall.copy = shared
    worker.inline_ir = inline_ir_copying_scopes_once
    _installed = True
    return True


__all__ = ["install"]
