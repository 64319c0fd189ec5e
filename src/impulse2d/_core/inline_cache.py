"""Each ``inline="always"`` callee's untyped IR made once per process, and handed to every later
call site as Numba's untyped passes would have made it there.

Numba inlines such a callee (``InlineWorker.inline_function``) by running the untyped passes on
its bytecode afresh at every call site, the callee's own inlines nested inside: in ``warmup
--all`` (one process, session 28) 932 runs for 254 callees, 12.4 s of CPU, of which 8.1 s are
repeats (``benchmarks/inline_passes.py``). What a run gives depends on its callee and on three
counters of Numba's that the whole process shares:

* block labels (``ir_utils._the_max_label``): each inline offsets the callee's labels past the
  counter and moves the counter past them, so every label a run makes is ``a * c + b``, ``c``
  the counter when the run began (``a`` doubles with each level of nesting; a bytecode
  offset has ``a = 0``), and so is the counter when it ends;
* function identities (``FunctionIdentity._unique_ids``): one per run, in a fixed order, each
  naming the variables it inlines (``f$12``'s ``x`` becomes ``f_v12_x`` in its caller);
* ``mk_unique_var``'s count, which no run here advances (a run that does is not kept).

So a callee's first run (:func:`_make`) starts the label counter at ``PROBE`` (2**64) instead of
``c``: each label ``L`` it makes reads as ``divmod(L, PROBE) = (a, b)``, and is then written as
``a * c + b``, the label Numba makes at ``c``. Its IR is kept, copied before it is spliced, with
``PROBE``'s labels, the identities its inlines made, and the functions whose code it read. A
later site (:func:`untyped_ir`) gets a copy (one ``copy.deepcopy`` memo, as :mod:`.inliner`
copies), its labels written for the counter there and its inlined variables renamed for the
identities a run there would make; both counters are moved past what that run would have used.
The caller's IR is then the one a fresh run gives, label for label and name for name
(``benchmarks/inline_check.py`` compares the two at every site of a compile).

Labels are affine in ``c`` only while the counter, not a bytecode offset, wins the inliner's
``max(counter, caller's labels)``, and while ``c`` is above every constant part ``b`` (so that
two labels compare at ``c`` as at ``PROBE``): a run starts at ``PROBE`` only once the counter is
past :data:`LEAST_COUNTER`, its labels are written for the counter only if it is past the
run's own bound (:func:`_least`: twice the longest bytecode it read, and every ``b``; else the
passes run again at the counter, Numba's own run), and a copy is handed out only where the
counter is past that bound. Before that (the first inlines of a process) runs are Numba's own.

The IR is kept for the life of the process, keyed by the function and what the passes read of
the caller: Numba's typing and target contexts, its flags (e.g. ``auto_parallel``,
``no_rewrites``), locals and pipeline class (``with`` lifting compiles with them). A run reads the
code of the callee and of every function it inlines, their globals (resolved when the bytecode is
translated), closure cells and defaults: a kept IR is handed out only while each is the object
it was (``_Source``), a deferred kernel's stand-in and the dispatcher it has made counting as
one (:func:`_settled`); otherwise the callee runs afresh and is kept anew.

This module holds no kernel: it is left out of the cache's source stamp
(:data:`.cache.UNCOMPILED_FILES`). Numba compiles under one lock, so its state is plain.
"""

from __future__ import annotations

import builtins
import copy
import itertools
import re
from collections import defaultdict

from numba.core import bytecode, ir, ir_utils

from .deferred import DeferredKernel

PROBE = 1 << 64
"""The label counter a first run starts at: a label made there is ``a * PROBE + b``."""
LEAST_COUNTER = 1 << 16
"""Runs start at ``PROBE`` only from this counter on (twice the bytecode of a large function)."""

_MISSING = object()
_kept: dict = {}
"""``key -> _Kept``: each callee's IR as its first run made it, at ``PROBE``."""
_runs: list = []
"""The first runs in progress, innermost last: ``_Run``."""


def supported() -> bool:
    """Whether Numba's counters are the ones this module reads (checked with Numba 0.68)."""
    counter = bytecode.FunctionIdentity.__dict__.get("_unique_ids")
    text = repr(counter)
    return (text.startswith("count(") and text.endswith(")") and text[6:-1].isdigit()
            and isinstance(getattr(ir_utils._the_max_label, "_value", None), int)
            and isinstance(getattr(ir_utils, "_unique_var_count", None), int))


def _next_uid() -> int:
    # itertools.count has no peek; its repr names the next value
    return int(repr(bytecode.FunctionIdentity._unique_ids)[6:-1])


def _labelled(blocks: dict, at) -> dict:
    """``blocks`` with each label ``L`` (keys, jumps, branches, ``with`` bounds) as ``at(L)``:
    in place, except the dict."""
    for block in blocks.values():
        for stmt in block.body:
            if isinstance(stmt, ir.Jump):
                stmt.target = at(stmt.target)
            elif isinstance(stmt, ir.Branch):
                stmt.truebr, stmt.falsebr = at(stmt.truebr), at(stmt.falsebr)
            elif isinstance(stmt, ir.EnterWith):
                stmt.begin, stmt.end = at(stmt.begin), at(stmt.end)
            elif isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr) \
                    and stmt.value.op == "phi":
                stmt.value.incoming_blocks = [at(x) for x in stmt.value.incoming_blocks]
    return {at(label): block for label, block in blocks.items()}


def _writer(start: int):
    """The label a run at ``start`` makes for ``PROBE``'s ``L``."""
    def at(label):
        a, b = divmod(label, PROBE)
        return a * start + b
    return at


class _Source:
    """What a run read of one function: its code, defaults, closure cells, and the value of every
    name its code (and the code of closures inside it) may load as a global."""

    __slots__ = ("function", "read")

    def __init__(self, function):
        self.function = function
        self.read = self._read(function)

    @staticmethod
    def _read(function):
        names, codes = [], [function.__code__]
        while codes:
            code = codes.pop()
            names.extend(code.co_names)
            codes.extend(c for c in code.co_consts if isinstance(c, type(code)))
        found, builtin = function.__globals__, builtins.__dict__
        cells = []
        for cell in function.__closure__ or ():
            try:
                cells.append(cell.cell_contents)
            except ValueError:  # an empty cell
                cells.append(_MISSING)
        return (function.__code__, function.__defaults__, function.__kwdefaults__,
                *map(_settled, cells),
                *(_settled(found.get(name, builtin.get(name, _MISSING))) for name in names))

    def same(self) -> bool:
        now = self._read(self.function)
        return len(now) == len(self.read) and all(a is b for a, b in zip(now, self.read))


def _settled(value):
    """``value``, or the dispatcher a deferred kernel's stand-in has made: the stand-in is typed,
    compiled and cached as its dispatcher (:mod:`.deferred`), and is replaced by it in its
    module at first use, which is often the first run itself."""
    if type(value) is DeferredKernel and value._dispatcher is not None:
        return value._dispatcher
    return value


class _Run:
    """A first run in progress: the identities its inlines made, ``(uid, qualname)``, and the
    functions it read."""

    __slots__ = ("identities", "sources")

    def __init__(self, function):
        self.identities = []
        self.sources = [_Source(function)]


class _Kept:
    """A callee's IR from its first run, its labels at ``PROBE``: ``end``, the label counter the
    run left; ``uid``, the identity it made first (the callee's own); ``least``, the least
    counter its labels are written for (:func:`_least`); ``identities``, those its
    inlines made after, ``(uid, qualname)``; ``renamed``, the kept variables whose names carry
    one of them; ``sources``, what it read."""

    __slots__ = ("ir", "scope", "end", "uid", "least", "identities", "sources", "pattern",
                 "renamed")

    def __init__(self, callee_ir, end: int, uid: int, run: _Run, least: int):
        memo = {}
        self.ir = copy.copy(callee_ir)
        self.ir.blocks = {label: copy.deepcopy(block, memo)
                          for label, block in callee_ir.blocks.items()}
        self.ir.block_entry_vars = {memo[id(block)]: names for block, names
                                    in callee_ir.block_entry_vars.items() if id(block) in memo}
        self.scope = next(iter(self.ir.blocks.values())).scope
        self.end, self.uid, self.least = end, uid, least
        self.identities = run.identities
        self.sources = list({id(s.function): s for s in run.sources}.values())
        # a variable inlined from f$12 is named f_v12_... (_created_inlined_var_name): f's
        # qualname with '<', '>' and '.' as '_'
        tokens = [f"{_mangled(qualname)}_v{u}_" for u, qualname in self.identities]
        self.pattern = re.compile("|".join(map(re.escape, tokens))) if tokens else None
        self.renamed = [] if self.pattern is None else [
            v for v in memo.values() if type(v) is ir.Var and self.pattern.search(v.name)]

    def valid(self) -> bool:
        return all(source.same() for source in self.sources)

    def hand_out(self, function, start: int):
        """A copy of the kept IR of ``function`` as a run would make it with the label counter at
        ``start`` and the identity counter where it is (both moved on as the run would); the
        identities it names, as in :class:`_Run`."""
        func_id = bytecode.FunctionIdentity.from_function(function)  # as the run makes it
        shift = func_id.unique_id - self.uid
        memo = {}
        blocks = {label: copy.deepcopy(block, memo) for label, block in self.ir.blocks.items()}
        def moved(match):
            head, _, number = match.group()[:-1].rpartition("_v")
            return f"{head}_v{int(number) + shift}_"

        def rename(name):
            return self.pattern.sub(moved, name) if shift and self.pattern else name

        if shift and self.renamed:
            for var in self.renamed:
                twin = memo.get(id(var))
                if twin is not None:
                    twin.name = rename(var.name)
            scope = memo[id(self.scope)]
            scope.localvars._con = {v.name: v for v in scope.localvars._con.values()}
            scope.redefined = defaultdict(int, {rename(k): n
                                                for k, n in scope.redefined.items()})
            scope.var_redefinitions = defaultdict(set, {
                rename(k): {rename(n) for n in names}
                for k, names in scope.var_redefinitions.items()})
        callee_ir = copy.copy(self.ir)
        callee_ir.blocks = _labelled(blocks, _writer(start))
        # the live names at each block's entry (object mode's and generators' lowering)
        callee_ir.block_entry_vars = {memo[id(block)]: {rename(n) for n in names}
                                      for block, names in self.ir.block_entry_vars.items()}
        callee_ir.func_id = func_id
        counter = bytecode.FunctionIdentity._unique_ids
        for _ in self.identities:  # those the run's inlines would make
            next(counter)
        ir_utils._the_max_label._value = _writer(start)(self.end)
        identities = [(func_id.unique_id, func_id.func_qualname)]
        identities.extend((u + shift, qualname) for u, qualname in self.identities)
        return callee_ir, identities


def _mangled(qualname: str) -> str:
    return qualname.replace("<", "_").replace(">", "_").replace(".", "_")


def _key(worker, function):
    """What the untyped passes read besides the function (None: not hashable, not kept)."""
    try:
        key = (function, worker.typingctx, worker.targetctx, type(worker.pipeline),
               _frozen(worker.locals),
               tuple((k, _frozen(v)) for k, v in worker.flags.values().items()
                     if k != "enable_ssa"))
        hash(key)
    except TypeError:
        return None
    return key


def _frozen(value):
    """``value`` as a hashable equal (a flag's options object by its class and fields)."""
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if type(value).__hash__ is None and hasattr(value, "__dict__"):
        return type(value), _frozen(vars(value))
    return value


def untyped_ir(worker, function):
    """``worker.run_untyped_passes(function)``'s IR for this call site, made here for it alone:
    a copy of the kept one where that is valid (see the module), else a run (kept when it
    can be)."""
    key = _key(worker, function)
    kept = _kept.get(key) if key is not None else None
    start = ir_utils._the_max_label._value
    if kept is None or start < max(kept.least, LEAST_COUNTER) or not kept.valid():
        return _make(worker, function, key)
    callee_ir, identities = kept.hand_out(function, start)
    worker.flags.enable_ssa = False  # as the run leaves the caller's flags
    if _runs:
        _runs[-1].identities.extend(identities)
        _runs[-1].sources.extend(kept.sources)
    return callee_ir


def _run(worker, function, probe: bool):
    """The untyped passes on ``function``, the label counter at ``PROBE`` if ``probe``:
    ``(IR, its _Run, the label counter it left)``."""
    run = _Run(function)
    _runs.append(run)
    if probe:
        ir_utils._the_max_label._value = PROBE
    try:
        return worker.run_untyped_passes(function), run, ir_utils._the_max_label._value
    finally:
        _runs.pop()


def _least(callee_ir, run, end: int) -> int:
    """The least counter at which a run's labels, made at ``PROBE``, are those it makes there:
    one above every label that is not the counter's (a bytecode offset, below ``len(co_code)``,
    or one of the few blocks a pass adds past them) and every constant part ``b``."""
    code = max(len(source.function.__code__.co_code) for source in run.sources)
    return max(2 * code, *(label % PROBE for label in (*callee_ir.blocks, end))) + 1


def _make(worker, function, key):
    """The untyped passes run on ``function`` (at ``PROBE`` where the counter allows), their
    labels written for the counter, and their IR kept where a copy of it can stand for a later
    run."""
    start, uid, names = ir_utils._the_max_label._value, _next_uid(), ir_utils._unique_var_count
    probe = key is not None and start >= LEAST_COUNTER
    try:
        callee_ir, run, end = _run(worker, function, probe)
    finally:
        if probe:
            ir_utils._the_max_label._value = _writer(start)(ir_utils._the_max_label._value)
    least = _least(callee_ir, run, end) if probe else None
    if probe and least > start:
        # Numba's max(counter, labels) may choose otherwise at the counter: run there
        # (counters as they were), and keep nothing
        ir_utils._the_max_label._value = start
        bytecode.FunctionIdentity._unique_ids = itertools.count(uid)
        ir_utils._unique_var_count = names
        probe = False
        callee_ir, run, end = _run(worker, function, False)
    if _runs:
        _runs[-1].identities.append((uid, callee_ir.func_id.func_qualname))
        _runs[-1].identities.extend(run.identities)
        _runs[-1].sources.extend(run.sources)
    if not probe:
        return callee_ir
    if (callee_ir.func_id.unique_id == uid
            and _next_uid() == uid + 1 + len(run.identities)
            and ir_utils._unique_var_count == names):
        _kept[key] = _Kept(callee_ir, end, uid, run, least)
    callee_ir.blocks = _labelled(callee_ir.blocks, _writer(start))
    return callee_ir


__all__ = ["LEAST_COUNTER", "PROBE", "supported", "untyped_ir"]
