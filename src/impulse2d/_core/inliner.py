"""Numba's IR inliner with each copy of a callee's blocks made as one copy, not one per block.

The engine's dispatchers and hot helpers are ``inline="always"`` kernels (:mod:`.jit`): Numba
inlines them as Numba IR at each call site (``InlineWorker.inline_ir``), and copies the callee's
blocks twice there (one copy to splice in, one kept unmutated to return), each block with its
own ``copy.deepcopy``. A block refers to the function's scope, which holds every variable of the
function, so each block's copy copied the whole scope again: a function of B blocks and V
variables cost B x V copies, twice per call site. A cold compile of ``pgs_block`` spent 42 % of
its profile in those copies (cProfile on CPU time, 2026-11-29: 4.2 million ``deepcopy`` calls,
78.7 of 186.4 s profiled).

Here the blocks of one copy share one copy memo, as a single ``copy.deepcopy`` of all the
blocks would: the scope, and any variable two blocks refer to, is copied once per copy, and
the copy's blocks share that one copy, as the callee's blocks share theirs. Numba then sets
every inlined block's scope to the caller's and renames the callee's variables into it, so
the caller's IR, types and machine code are what they were (checked: trajectories and the
kernels' object code, ``BENCHMARKS.md``, 2026-11-29 session 9).

A callee inlined because it is declared ``inline="always"`` (``InlineWorker.inline_function``,
the only kind the engine declares) is not copied at all: its IR is made afresh for the call
site by Numba's untyped passes (``run_untyped_passes``) and nothing else holds it, so its
blocks are spliced into the caller as they are, and the unmutated copy ``inline_ir`` returns
is not made (``inline_function``'s one caller, ``InlineInlinables``, drops it). An IR that
others keep (an overload's, inlined by the typed pass) is copied as above.

Installed at the process's first compile of a kernel of the package (:func:`install`, a
:data:`.lazy.FIRST_COMPILE` hook: importing Numba's inliner at the package's import would load
lowering that a warm process never needs), for Numba versions whose
``inline_closurecall`` copies blocks as described (checked with Numba 0.68); any other is
left as it is. This module holds no kernel, so it is left out of the cache's source stamp
(:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import copy
import threading

from .numba_patch import Patch
# .copies: {id(source scope): (source scope, memo)} in one inline; .fresh: the ids of the
# blocks of a callee's IR made for the inline that runs (inline_function), not to be copied
_local = threading.local()


class _BlockCopier:
    """Stands in for the ``copy`` module inside Numba's inliner, whose only use of it is
    ``copy.deepcopy(block)`` for each block of a callee's IR: while an inline runs
    (``InlineWorker.inline_ir``, as :func:`install` wraps it), blocks of one scope are copied
    with one memo, and a block of a callee's IR made for that inline alone is not copied
    (:func:`install`'s ``inline_function``); anything else is Numba's own ``copy.deepcopy``."""

    @staticmethod
    def deepcopy(x, memo=None):
        fresh = getattr(_local, "fresh", None)
        if memo is None and fresh is not None and id(x) in fresh:
            return x
        copies = getattr(_local, "copies", None)
        scope = getattr(x, "scope", None)
        if memo is not None or copies is None or scope is None:
            return copy.deepcopy(x, memo)
        kept = copies.get(id(scope))
        if kept is None or kept[0] is not scope:
            kept = copies[id(scope)] = (scope, {})
        return copy.deepcopy(x, kept[1])


@Patch
def install() -> bool:
    """Copy a callee's blocks as one copy in Numba's inliner (see the module); False, with
    nothing changed, where Numba's code is not the one this was written for."""
    from numba.core import inline_closurecall as inliner
    worker = inliner.InlineWorker
    original = worker.inline_ir
    inline_function = worker.inline_function
    # Numba's own: a nested copy_ir that calls copy.deepcopy on each block, this module's
    # only use of ``copy``; inline_function: the callee's untyped passes, then inline_ir
    if (inliner.copy is not copy or "copy_ir" not in original.__code__.co_varnames
            or set(inline_function.__code__.co_names)
            != {"run_untyped_passes", "__code__", "co_freevars", "inline_ir"}):
        return False

    def inline_ir(self, *args, **kwargs):
        outer = getattr(_local, "copies", None)
        _local.copies = {}  # the two copies of an inline are of two scopes: never shared
        try:
            return original(self, *args, **kwargs)
        finally:
            _local.copies = outer

    def inline_fresh(self, caller_ir, block, i, function, arg_typs=None):
        # Numba's inline_function, with the callee's IR, made here for this call site alone,
        # spliced in uncopied (its untyped passes may inline its own callees: before the flag)
        callee_ir = self.run_untyped_passes(function)
        outer = getattr(_local, "fresh", None)
        _local.fresh = {id(b) for b in callee_ir.blocks.values()}
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir,
                                  function.__code__.co_freevars, arg_typs=arg_typs)
        finally:
            _local.fresh = outer

    inline_ir.__doc__ = original.__doc__
    inline_ir.__wrapped__ = original
    worker.inline_ir = inline_ir
    inline_fresh.__doc__ = inline_function.__doc__
    inline_fresh.__wrapped__ = inline_function
    worker.inline_function = inline_fresh
    inliner.copy = _BlockCopier()
    return True


__all__ = ["install"]
