"""Nine of Numba's front-end costs cut, what they give unchanged.

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

Sampled again (session 28: ``direct.solve_islands``, ``continuous_box2d23``, ``custom_entry``,
``pgs_block``), four more:

* **Liveness** (``analysis.compute_live_map``, 3-4.5 %: ``PostProcessor.run`` recomputes it after
  most passes, and the dead-code removal once per run): the variables used or defined on some
  path to each block (``def_reach``) and those live at each block's entry are least fixed
  points of unions over the CFG, found by Numba with Python sets of names, pass after pass.
  Here the same equations are solved on bit sets (a Python integer per block, a bit per name),
  where a union or an intersection is one operation on machine words, and only the live sets
  are turned back into sets of names. A least fixed point does not depend on the order it is
  reached in, so the sets are Numba's; their iteration order may differ, as it already does
  between any two processes (a string's hash is salted per process), which is why no
  consumer may depend on it (the dels are sorted).
* **The typing templates' order** (``utils.order_by_target_specificity``, 1-1.5 %): type
  inference orders a function's templates by target for every call it types (the templates
  whose target the current one inherits from, by its MRO), though the order depends only on
  the target and the templates, which are classes. Here it is kept per target and templates;
  a copy is handed out, as Numba's is a new list each time.
* **An assignment's uses and definitions** (``analysis.compute_use_defs``, 2 %): Numba lists the
  value's variables, then lists the whole statement's, which lists the value's again. Here an
  assignment with only its own three fields (value, target, location) is named once: its
  value's variables then its target, which is what the statement's ``list_vars`` gives.
* **``isinstance`` of a Numba type** (``ABCMeta.__instancecheck__``, 2-3 %): the types' classes
  are ABCs, so each ``isinstance(x, types.Array)`` of type inference and the lowering goes
  through a Python frame and the ABC caches. No type class has a virtual subclass or a
  subclass hook (checked at the patch), and then an ABC answers what the class's MRO does, so
  the types' metaclass gets Python's own check for classes; it gives the ABC's back, for good,
  the moment a type class is registered a virtual subclass or defines a hook.

Each patch checks Numba's code is the 0.68 code it was written for (:mod:`.numba_patch`), and is
installed at the process's first compile (a :data:`.lazy.FIRST_COMPILE` hook: Numba's SSA module
is its compiler's). No kernel's machine code changes (checked: the units' object code and bitcode
compiled with and without, ``BENCHMARKS.md`` session 27, ``frontF52``, and session 28,
``frontG53``). This module holds no kernel, so it is left out of the cache's source stamp
(:data:`.cache.UNCOMPILED_FILES`).
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


def _code_names(function) -> tuple:
    """The names a function's code and the functions it defines look up: a fingerprint of
    the code a patch replaces."""
    names = [function.__code__.co_names]
    names += [const.co_names for const in function.__code__.co_consts
              if isinstance(const, type(function.__code__))]
    return tuple(names)


class _Bits:
    """Sets of variable names as Python integers, a bit per name (numbered as first seen):
    a union or intersection of two sets is one operation on machine words."""

    __slots__ = ("bit", "names")

    def __init__(self):
        self.bit = {}    # {name: 1 << its number}
        self.names = []  # the names by number

    def of(self, names) -> int:
        mask = 0
        for name in names:
            bit = self.bit.get(name)
            if bit is None:
                bit = self.bit[name] = 1 << len(self.names)
                self.names.append(name)
            mask |= bit
        return mask

    def names_of(self, mask: int) -> list:
        found = []
        while mask:
            low = mask & -mask
            found.append(self.names[low.bit_length() - 1])
            mask ^= low
        return found


def _live_map(cfg, blocks, var_use_map, var_def_map):
    """Numba's ``compute_live_map`` (the variables that must be alive at each block's entry)
    on bit sets, or None where a block of the CFG's order is not in the maps (Numba's own
    then raises as it would)."""
    order = cfg.topo_order()
    for label in order:
        if label not in blocks or label not in var_use_map or label not in var_def_map:
            return None
    bits = _Bits()
    uses = {label: bits.of(var_use_map[label]) for label in order}
    defs = {label: bits.of(var_def_map[label]) for label in order}
    succs = {label: [succ for succ, _ in cfg.successors(label)] for label in order}
    preds = {label: [pred for pred, _ in cfg.predecessors(label)] for label in order}
    # the variables used or defined on some path to a block's end (Numba's def_reach)
    reach = dict.fromkeys(order, 0)
    changed = True
    while changed:
        changed = False
        for label in order:
            here = reach[label] | uses[label] | defs[label]
            if here != reach[label]:
                reach[label], changed = here, True
            for succ in succs[label]:
                there = reach[succ] | here
                if there != reach[succ]:
                    reach[succ], changed = there, True
    # pushed back to the predecessors that reach them and do not define them (Numba's liveness)
    live = dict(uses)
    kept = {label: reach[label] & ~defs[label] for label in order}
    changed = True
    while changed:
        changed = False
        for label in reversed(order):
            here = live[label]
            for pred in preds[label]:
                there = live[pred] | (here & kept[pred])
                if there != live[pred]:
                    live[pred], changed = there, True
    live_map = {}
    for label in blocks.keys():
        live_map[label] = found = set(var_use_map[label])
        if label in live:
            found.update(bits.names_of(live[label] & ~uses[label]))
    return live_map


@Patch
def install_live_map() -> bool:
    """Numba's ``compute_live_map`` on bit sets (see the module); False, with nothing changed,
    where Numba's code is not the one this was written for."""
    from numba.core import analysis, ir_utils
    original = analysis.compute_live_map
    # Numba's own: def_reach's fix point over the CFG's topological order (each block's uses
    # and definitions pushed to its successors), then liveness's over the reversed order (a
    # block's live variables pushed to each predecessor, kept where they reach its end and it
    # defines none), each until no set grows; the live sets start as copies of the uses
    if (_code_names(original) != (("topo_order", "keys", "set", "defaultdict"),
                                  ("tuple", "values"), (), ("successors",),
                                  ("reversed", "predecessors"))
            or ir_utils.compute_live_map is not original):
        return False

    def compute_live_map(cfg, blocks, var_use_map, var_def_map):
        live_map = _live_map(cfg, blocks, var_use_map, var_def_map)
        if live_map is None:
            return original(cfg, blocks, var_use_map, var_def_map)
        return live_map

    compute_live_map.__doc__, compute_live_map.__wrapped__ = original.__doc__, original
    analysis.compute_live_map = compute_live_map
    ir_utils.compute_live_map = compute_live_map
    return True


@Patch
def install_template_order() -> bool:
    """The order of a function's typing templates for a target kept per target and templates
    (see the module); False, with nothing changed, where Numba's code is not the one this was
    written for."""
    from numba.core import utils
    from numba.core.typing import context
    original = utils.order_by_target_specificity
    # Numba's own: the templates whose metadata's target (a name in the target registry) the
    # target inherits from, sorted by that target's place in the target's MRO; an error where
    # none is left
    if (_code_names(original) != (("numba.core.target_extension", "target_registry",
                                   "enumerate", "getattr", "get", "inherits_from", "append",
                                   "sorted", "numba.core.errors", "UnsupportedError"),
                                  ("__mro__", "index"), ())
            or context.order_by_target_specificity is not original):
        return False
    orders = {}  # {(target, templates): their order}

    def order_by_target_specificity(target, templates, fnkey=""):
        key = (target, tuple(templates))
        order = orders.get(key)
        if order is None:
            order = original(target, templates, fnkey=fnkey)  # (raises where none is usable)
            orders[key] = order
        return list(order)

    order_by_target_specificity.__doc__ = original.__doc__
    order_by_target_specificity.__wrapped__ = original
    utils.order_by_target_specificity = order_by_target_specificity
    context.order_by_target_specificity = order_by_target_specificity
    return True


_USE_DEFS_USERS = ("numba.core.ir_utils", "numba.core.lowering", "numba.core.transforms",
                   "numba.core.untyped_passes", "numba.core.inline_closurecall",
                   "numba.parfors.parfor")
"""Numba's modules that import ``compute_use_defs`` by name (given the patched one where
they are imported already; a later import takes it from ``analysis``)."""


@Patch
def install_use_defs() -> bool:
    """Numba's ``compute_use_defs`` naming an assignment's variables once (see the module);
    False, with nothing changed, where Numba's code is not the one this was written for."""
    import sys
    from numba.core import analysis, ir
    original = analysis.compute_use_defs
    # Numba's own: per block, a statement of an extension's type handed to its function; an
    # assignment's target defined unless its value names it (the value's variables: an
    # instruction's list_vars, a variable, or none for an argument, constant, global or free
    # variable); then each variable the statement names (its list_vars) used unless defined
    if _code_names(original) != (("items", "set", "body", "type", "ir_extension_usedefs",
                                  "isinstance", "ir", "Assign", "value", "Inst", "list_vars",
                                  "Var", "name", "Arg", "Const", "Global", "FreeVar",
                                  "AssertionError", "target", "add", "_use_defs_result"),
                                 ("name",)):
        return False
    extensions, result = analysis.ir_extension_usedefs, analysis._use_defs_result
    Assign, Inst, Var = ir.Assign, ir.Inst, ir.Var
    nameless = (ir.Arg, ir.Const, ir.Global, ir.FreeVar)
    fields = {"value", "target", "loc"}  # an assignment's own: it names its value's and target

    def compute_use_defs(blocks):
        var_use_map, var_def_map = {}, {}
        for offset, ir_block in blocks.items():
            var_use_map[offset] = use_set = set()
            var_def_map[offset] = def_set = set()
            for stmt in ir_block.body:
                kind = type(stmt)
                if kind in extensions:
                    extensions[kind](stmt, use_set, def_set)
                    continue
                if isinstance(stmt, Assign):
                    value = stmt.value
                    if isinstance(value, Inst):
                        names = [var.name for var in value.list_vars()]
                    elif isinstance(value, Var):
                        names = [value.name]
                    elif isinstance(value, nameless):
                        names = []
                    else:
                        raise AssertionError("unreachable", type(value))
                    target = stmt.target.name
                    if target not in names:
                        def_set.add(target)
                    if stmt.__dict__.keys() == fields:
                        # its list_vars: the value's variables, then the target
                        for name in names:
                            if name not in def_set:
                                use_set.add(name)
                        if target not in def_set:
                            use_set.add(target)
                        continue
                for var in stmt.list_vars():
                    if var.name not in def_set:
                        use_set.add(var.name)
        return result(usemap=var_use_map, defmap=var_def_map)

    compute_use_defs.__doc__, compute_use_defs.__wrapped__ = original.__doc__, original
    users = [sys.modules[name] for name in _USE_DEFS_USERS if name in sys.modules]
    analysis.compute_use_defs = compute_use_defs
    for module in users:
        if getattr(module, "compute_use_defs", None) is original:
            module.compute_use_defs = compute_use_defs
    return True


@Patch
def install_type_checks() -> bool:
    """``isinstance`` of a Numba type's class as Python's own for classes (see the module);
    False, with nothing changed, where Numba's code is not the one this was written for or a
    type's class has a virtual subclass or a subclass hook."""
    import abc
    from numba.core.types import abstract
    meta = abstract._TypeMetaclass
    # Numba's own: the types' metaclass is an ABCMeta that adds only interning and a flag
    if (meta.__bases__ != (abc.ABCMeta,)
            or set(meta.__dict__) != {"__module__", "__doc__", "__init__", "_intern",
                                      "__call__"}
            or abc.ABCMeta.__instancecheck__.__code__.co_names != ("_abc_instancecheck",)):
        return False
    classes, seen = [abstract.Type], set()
    while classes:
        cls = classes.pop()
        if cls not in seen:
            seen.add(cls)
            if "__subclasshook__" in cls.__dict__ or abc._get_dump(cls)[0]:
                return False  # (an ABC's own answer may differ from the class's MRO)
            classes.extend(type.__subclasses__(cls))
    init = meta.__init__

    def as_abcs():
        # ABCMeta's isinstance again, for good: a class may now have a virtual subclass
        if "__instancecheck__" in meta.__dict__:
            del meta.__instancecheck__

    def __init__(cls, name, bases, orig_vars):
        init(cls, name, bases, orig_vars)
        if "__subclasshook__" in orig_vars:
            as_abcs()

    def register(cls, subclass):
        as_abcs()
        return abc.ABCMeta.register(cls, subclass)

    __init__.__doc__, __init__.__wrapped__ = init.__doc__, init
    register.__doc__, register.__wrapped__ = abc.ABCMeta.register.__doc__, abc.ABCMeta.register
    meta.__init__, meta.register = __init__, register
    meta.__instancecheck__ = type.__instancecheck__
    return True


def install() -> bool:
    """The nine patches (see the module) and llvmlite's IR text (:mod:`.ir_text`); True where
    all are in."""
    from . import ir_text
    return (install_list_vars() & install_ssa() & install_operators() & install_abi_sizes()
            & install_error_contexts() & install_live_map() & install_template_order()
            & install_use_defs() & install_type_checks() & ir_text.install())


__all__ = ["install", "install_list_vars", "install_ssa", "install_operators",
           "install_abi_sizes", "install_error_contexts", "install_live_map",
           "install_template_order", "install_use_defs", "install_type_checks"]
