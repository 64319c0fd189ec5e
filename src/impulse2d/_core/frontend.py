"""Five of Numba's front-end costs cut, what they give unchanged.

Numba's front end (bytecode to IR, the IR passes, type inference, lowering: all Python) is
about 60 % of ``warmup --all``'s CPU. Sampled (``benchmarks/frontend_sample.py``: a CPU timer,
not a tracer; ``step.collide``, ``custom_entry`` and ``pgs_ngs`` from an empty cache,
2026-12-01), five generic costs stood out that can go without changing one statement of the
IR or one type:

* **``Inst._rec_list_vars``** (7 % of the compile): every analysis that asks an IR statement
  which variables it names (use-def maps, liveness, the dels, SSA) walks the statement's
  attributes recursively, four ``isinstance`` tests per value (most of them a source location
  or a string). Here each value's kind is looked up by its class, once per class, and the
  recursion is entered only for lists, tuples, dicts and nested instructions. The list is the
  same, in the same order.
* **SSA reconstruction** (``ssa._run_ssa``, 6-14 % of a unit's compile): for each variable
  assigned more than once it rewrites *every* block of the function twice (its fresh names,
  then its uses), statement by statement, though only the blocks that name the variable can
  change. Here the blocks that name no such variable are kept as they are (the rewrite would
  have copied them statement for statement), so each variable costs the blocks that use it.
  Which blocks name a variable is read once per function, from the IR before the rewrite:
  rewriting one variable adds names of its own new versions only, and changes no block's
  references to another one, so that index holds for every variable in turn.
* **NumPy's typing of every scalar operator** (``NumpyRulesArrayOperator.generic``, 5-6 %):
  ``a + b`` is typed by trying each template of ``operator.add``, NumPy's among them, and that
  one finds the ufunc's loop for the operands' dtypes (``ufunc_find_matching_loop``: dtype
  casts, ``np.can_cast``) before it returns None because no operand is an array, which is
  every operator of the engine's scalar code, typed again in the lowering. Here it returns
  None first, as Numba's own in-place and unary variants do; an array operand is typed as
  before. (Type resolution passes over a template that returns None or raises a Numba error
  alike; for scalar operands Numba's template raises nothing else, so no typing changes.)
* **An LLVM type's ABI size** (``BaseContext.get_abi_sizeof``, 2 %): llvmlite answers it by
  writing a module that holds a global of the type and having LLVM parse it, and the lowering
  asks it for every user variable it allocates (for debug information it then drops) and
  every array's item size. Here each type's size is kept per target, keyed by the type's
  text, which is the whole type unless it names an identified struct (``%``: those are asked
  of LLVM each time, as before).
* **The error contexts** (``errors.new_error_context``, 1-2 %): type inference and the
  lowering enter one per statement, a ``contextlib.contextmanager`` generator each. Here it
  is a small class that does what the generator did (a user location noted on entry, a
  ``NumbaError`` given the context's message on its way out).

Each patch checks Numba's code is the 0.68 code it was written for (:mod:`.numba_patch`), and is
installed at the process's first compile (a :data:`.lazy.FIRST_COMPILE` hook: Numba's SSA module
is its compiler's). No kernel's machine code changes (checked: the units' object code and bitcode
compiled with and without, ``BENCHMARKS.md`` session 27, ``frontF52``). This module holds no
kernel, so it is left out of the cache's source stamp (:data:`.cache.UNCOMPILED_FILES`).
"""

from __future__ import annotations

import threading
from collections import defaultdict

from .numba_patch import Patch

_VAR, _INST, _ITEMS, _VALUES, _NONE = range(5)
"""A value's kind in ``_rec_list_vars``: a variable, an instruction, a list or tuple, a dict,
anything else (which names no variable)."""


def _kinds(ir):
    """The kind of a value's class, looked up once per class, in the order of Numba's
    ``isinstance`` tests (a class is what ``isinstance`` tests: IR values are plain objects)."""
    table = {}

    def kind(cls):
        if issubclass(cls, ir.Var):
            found = _VAR
        elif issubclass(cls, ir.Inst):
            found = _INST
        elif issubclass(cls, (list, tuple)):
            found = _ITEMS
        elif issubclass(cls, dict):
            found = _VALUES
        else:
            found = _NONE
        table[cls] = found
        return found

    return table, kind


@Patch
def install_list_vars() -> bool:
    """``ir.Inst._rec_list_vars`` by a class's kind (see the module); False, with nothing
    changed, where Numba's code is not the one this was written for."""
    from numba.core import ir
    original = ir.Inst._rec_list_vars
    # Numba's own: isinstance tests of Var, Inst, (list, tuple), dict, recursing into the last two
    if original.__code__.co_names != ("isinstance", "Var", "Inst", "list_vars", "list", "tuple",
                                      "extend", "_rec_list_vars", "dict", "values"):
        return False
    table, kind_of = _kinds(ir)

    def _rec_list_vars(self, val):
        cls = type(val)
        kind = table.get(cls)
        if kind is None:
            kind = kind_of(cls)
        if kind == _VAR:
            return [val]
        if kind == _INST:
            return val.list_vars()
        if kind == _NONE:
            return []
        found = []
        for item in (val.values() if kind == _VALUES else val):
            cls = type(item)
            kind = table.get(cls)
            if kind is None:
                kind = kind_of(cls)
            if kind == _VAR:
                found.append(item)
            elif kind != _NONE:
                found.extend(self._rec_list_vars(item))
        return found

    _rec_list_vars.__doc__ = original.__doc__
    _rec_list_vars.__wrapped__ = original
    ir.Inst._rec_list_vars = _rec_list_vars
    return True


_local = threading.local()  # .index: the _Index of the function whose SSA is being rebuilt


class _Index:
    """The labels of the blocks that name each variable (assign it or use it), read from a
    function's blocks on the first question (a function with no variable to rewrite reads
    none)."""

    def __init__(self, blocks):
        self.blocks = blocks
        self.names = None

    def labels(self, name):
        if self.names is None:
            self.names = defaultdict(set)
            for label, block in self.blocks.items():
                for stmt in block.body:
                    for var in stmt.list_vars():
                        self.names[var.name].add(label)
        return self.names.get(name, ())


@Patch
def install_ssa() -> bool:
    """Numba's SSA reconstruction rewriting only the blocks that name the variable it fixes
    (see the module); False, with nothing changed, where Numba's code is not the one this was
    written for."""
    from numba.core import ssa
    run_ssa, rewrite = ssa._run_ssa, ssa._run_block_rewrite
    # Numba's own: _run_ssa calls _fresh_vars and _fix_ssa_vars per violator, each of which
    # rewrites the blocks with _run_block_rewrite (a new block per block, each statement
    # passed to the handler); the handlers' only state is states' and the handler's own
    if (not {"_find_defs_violators", "_fresh_vars", "_fix_ssa_vars"}
            <= set(run_ssa.__code__.co_names)
            or ssa._fresh_vars.__code__.co_names.count("_run_block_rewrite") != 1
            or ssa._fix_ssa_vars.__code__.co_names.count("_run_block_rewrite") != 1
            or set(rewrite.__code__.co_names) != {"_logger", "debug", "items", "ir", "Block",
                                                  "scope", "loc", "_run_ssa_block_pass",
                                                  "append", "body"}):
        return False

    def _run_ssa(blocks):
        outer = getattr(_local, "index", None)
        _local.index = _Index(blocks)
        try:
            return run_ssa(blocks)
        finally:
            _local.index = outer

    def _run_block_rewrite(blocks, states, handler):
        index = getattr(_local, "index", None)
        if index is None:
            return rewrite(blocks, states, handler)
        labels = index.labels(states["varname"])
        rewritten = {}
        for label, block in blocks.items():
            if label in labels:
                rewritten.update(rewrite({label: block}, states, handler))
            else:
                rewritten[label] = block  # names no such variable: the rewrite would copy it
        return rewritten

    _run_ssa.__doc__, _run_ssa.__wrapped__ = run_ssa.__doc__, run_ssa
    _run_block_rewrite.__doc__, _run_block_rewrite.__wrapped__ = rewrite.__doc__, rewrite
    ssa._run_ssa = _run_ssa
    ssa._run_block_rewrite = _run_block_rewrite
    return True


@Patch
def install_operators() -> bool:
    """NumPy's ufunc typing of a binary operator tried only where an operand is an array (see
    the module); False, with nothing changed, where Numba's code is not the one this was
    written for."""
    from numba.core import types
    from numba.core.typing import npydecl
    template = npydecl.NumpyRulesArrayOperator
    original = template.generic
    # Numba's own: the ufunc's typing (super().generic), then None unless an argument of the
    # signature it made (the arguments, optionals stripped) is an array
    if original.__code__.co_names != ("super", "NumpyRulesArrayOperator", "generic",
                                      "TypingError", "args", "any"):
        return False

    def generic(self, args, kws):
        if not any(isinstance(arg.type if isinstance(arg, types.Optional) else arg,
                              types.ArrayCompatible) for arg in args):
            return None
        return original(self, args, kws)

    generic.__doc__, generic.__wrapped__ = original.__doc__, original
    template.generic = generic
    return True


@Patch
def install_abi_sizes() -> bool:
    """An LLVM type's ABI size computed once per type and target (see the module); False, with
    nothing changed, where Numba's code is not the one this was written for."""
    from llvmlite import ir
    from numba.core import base
    context = base.BaseContext
    original = context.get_abi_sizeof
    # Numba's own: the type's get_abi_size(self.target_data), which llvmlite answers by
    # parsing a module that holds a global of the type
    if original.__code__.co_names != ("isinstance", "llvmir", "Type", "get_abi_size",
                                      "target_data"):
        return False
    sizes = {}  # {id(target data): (target data, {the type's text: its size})}

    def get_abi_sizeof(self, ty):
        text = str(ty) if isinstance(ty, ir.Type) else "%"
        if "%" in text:  # not a type, or one that names an identified struct: Numba's way
            return original(self, ty)
        target = self.target_data
        known = sizes.get(id(target))
        if known is None or known[0] is not target:
            known = sizes[id(target)] = (target, {})
        size = known[1].get(text)
        if size is None:
            size = known[1][text] = original(self, ty)
        return size

    get_abi_sizeof.__doc__, get_abi_sizeof.__wrapped__ = original.__doc__, original
    context.get_abi_sizeof = get_abi_sizeof
    return True


class _ErrorContext:
    """Numba's ``errors.new_error_context(fmt_, *args, **kwargs)`` as a plain context manager:
    on entry a location outside Numba's own files is noted in ``errors.loc_info``; a
    ``NumbaError`` raised inside gets the formatted message as context and goes on (any other
    exception goes on untouched)."""

    __slots__ = ("errors", "fmt", "args", "kwargs")

    def __init__(self, errors, fmt_, args, kwargs):
        self.errors, self.fmt, self.args, self.kwargs = errors, fmt_, args, kwargs

    def __enter__(self):
        loc = self.kwargs.get("loc", None)
        if loc is not None and not loc.filename.startswith(self.errors._numba_path):
            self.errors.loc_info.update(self.kwargs)

    def __exit__(self, kind, value, traceback):
        if isinstance(value, self.errors.NumbaError):
            value.add_context(self.errors._format_msg(self.fmt, self.args, self.kwargs))
        return False


@Patch
def install_error_contexts() -> bool:
    """``new_error_context`` without a generator per use (see the module); False, with nothing
    changed, where Numba's code is not the one this was written for."""
    from numba.core import errors, lowering, typeinfer
    original = errors.new_error_context
    # Numba's own: a contextlib.contextmanager generator, imported by name by the lowering and
    # type inference (the pass manager reads it from errors)
    own = getattr(original, "__wrapped__", None)
    if (own is None or own.__code__.co_names != ("get", "filename", "startswith", "_numba_path",
                                                 "loc_info", "update", "NumbaError",
                                                 "add_context", "_format_msg")
            or lowering.new_error_context is not original
            or typeinfer.new_error_context is not original):
        return False

    def new_error_context(fmt_, *args, **kwargs):
        return _ErrorContext(errors, fmt_, args, kwargs)

    new_error_context.__doc__, new_error_context.__wrapped__ = own.__doc__, original
    errors.new_error_context = new_error_context
    lowering.new_error_context = new_error_context
    typeinfer.new_error_context = new_error_context
    return True


def install() -> bool:
    """The five patches (see the module); True where all are in."""
    return (install_list_vars() & install_ssa() & install_operators() & install_abi_sizes()
            & install_error_contexts())


__all__ = ["install", "install_list_vars", "install_ssa", "install_operators",
           "install_abi_sizes", "install_error_contexts"]
