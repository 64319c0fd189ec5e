"""Numba's front end made cheaper with what it gives unchanged (``_core/frontend.py``): the
variables a statement names, the IR after SSA reconstruction, the operators' typing, the ABI
sizes, the error contexts' messages, the live variables, the uses and definitions, the typing
templates' order and a kernel's LLVM IR, each compared with Numba's own code (the patched
functions' ``__wrapped__``)."""

from __future__ import annotations

import copy
import os
import re

import pytest

from impulse2d._core import frontend

JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("0", "")
pytestmark = pytest.mark.skipif(not JIT, reason="patches Numba's compiler")


def _loops(a, n, flag):
    # variables assigned in several blocks (SSA's work), scalar and array operators
    total = 0.0
    best = -1
    for i in range(n):
        x = a[i] * 2.0 + 1.0
        if x > total:
            total = x
            best = i
        elif flag:
            total -= 0.5 * x
        else:
            total = total + x / (i + 1)
    b = a + 1.0
    b *= 2.0
    return total + b.sum() - best, -b


def _frontend_ir(function):
    from numba.core.compiler import run_frontend
    return run_frontend(function)


@pytest.fixture
def numbas_own(monkeypatch):
    """Undo the patches for the test (Numba's own code, as ``__wrapped__`` keeps it)."""
    assert frontend.install()
    import sys
    from numba.core import analysis, base, errors, ir, ir_utils, lowering, ssa, typeinfer, utils
    from numba.core.typing import context as typing_context, npydecl

    def undo():
        monkeypatch.setattr(ir.Inst, "_rec_list_vars", ir.Inst._rec_list_vars.__wrapped__)
        monkeypatch.setattr(ssa, "_run_ssa", ssa._run_ssa.__wrapped__)
        monkeypatch.setattr(ssa, "_run_block_rewrite", ssa._run_block_rewrite.__wrapped__)
        template = npydecl.NumpyRulesArrayOperator
        monkeypatch.setattr(template, "generic", template.generic.__wrapped__)
        context = base.BaseContext
        monkeypatch.setattr(context, "get_abi_sizeof", context.get_abi_sizeof.__wrapped__)
        own_context = errors.new_error_context.__wrapped__
        for module in (errors, lowering, typeinfer):
            monkeypatch.setattr(module, "new_error_context", own_context)
        own_live_map = analysis.compute_live_map.__wrapped__
        for module in (analysis, ir_utils):
            monkeypatch.setattr(module, "compute_live_map", own_live_map)
        own_order = utils.order_by_target_specificity.__wrapped__
        for module in (utils, typing_context):
            monkeypatch.setattr(module, "order_by_target_specificity", own_order)
        from numba.core.types import abstract
        meta = abstract._TypeMetaclass
        monkeypatch.setattr(meta, "__init__", meta.__init__.__wrapped__)
        monkeypatch.delattr(meta, "register")
        monkeypatch.delattr(meta, "__instancecheck__")
        patched_use_defs = analysis.compute_use_defs
        for module in [analysis] + [sys.modules[name] for name in frontend._USE_DEFS_USERS
                                    if name in sys.modules]:
            if getattr(module, "compute_use_defs", None) is patched_use_defs:
                monkeypatch.setattr(module, "compute_use_defs", patched_use_defs.__wrapped__)

    return undo


def test_the_patches_are_installed_once_and_say_so():
    assert frontend.install() and frontend.install()
    for patch in (frontend.install_list_vars, frontend.install_ssa, frontend.install_operators,
                  frontend.install_abi_sizes, frontend.install_error_contexts,
                  frontend.install_live_map, frontend.install_template_order,
                  frontend.install_use_defs, frontend.install_type_checks):
        assert patch.installed


def test_a_statement_names_the_same_variables_in_the_same_order():
    assert frontend.install_list_vars()
    from numba.core import ir
    original = ir.Inst._rec_list_vars.__wrapped__
    func_ir = _frontend_ir(_loops)
    statements = [stmt for block in func_ir.blocks.values() for stmt in block.body]
    assert len(statements) > 50
    for stmt in statements:
        # a statement's own variables (Stmt.list_vars), and an assigned expression's
        if type(stmt).list_vars is ir.Stmt.list_vars:
            assert ([id(v) for v in stmt.list_vars()]
                    == [id(v) for v in original(stmt, stmt.__dict__)])
        if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr):
            value = stmt.value
            assert ([id(v) for v in value.list_vars()]
                    == [id(v) for v in original(value, value._kws)])


def test_ssa_gives_the_same_ir_and_keeps_the_blocks_that_name_no_violator():
    assert frontend.install_ssa()
    from numba.core import ssa
    func_ir = _frontend_ir(_loops)
    ours, theirs = copy.deepcopy(func_ir), copy.deepcopy(func_ir)
    before = dict(ours.blocks)
    ours.blocks = ssa._run_ssa(ours.blocks)
    theirs.blocks = ssa._run_ssa.__wrapped__(theirs.blocks)  # (no index: every block rewritten)
    assert ours.dump_to_string() == theirs.dump_to_string()
    assert "phi" in ours.dump_to_string()  # (the function has violators to fix)
    kept = [label for label, block in ours.blocks.items() if block is before[label]]
    assert 0 < len(kept) < len(before)  # the blocks naming no violator, and only those


def test_numpys_operator_typing_passes_over_scalars_and_types_arrays_as_before():
    assert frontend.install_operators()
    import operator
    from numba.core import types
    from numba.core.registry import cpu_target
    from numba.core.typing import npydecl
    context = cpu_target.typing_context
    context.refresh()
    template = type("add", (npydecl.NumpyRulesArrayOperator,), dict(key=operator.add))(context)
    own = npydecl.NumpyRulesArrayOperator.generic.__wrapped__
    array = types.Array(types.float64, 1, "C")
    cases = [(types.float64, types.float64), (types.int64, types.float32),
             (types.Optional(types.float64), types.int32), (array, types.float64),
             (types.float64, array), (types.Optional(array), array)]
    for args in cases:
        assert template.generic(args, {}) == own(template, args, {})
    assert template.generic((types.float64, types.float64), {}) is None
    assert template.generic((array, types.float64), {}) is not None
    # without an array operand Numba's own gives None or a Numba error (which type resolution
    # passes over alike), for every operator and a spread of scalar types
    scalars = (types.float64, types.int8, types.uint64, types.boolean, types.complex128,
               types.unicode_type, types.none, types.UniTuple(types.float64, 3),
               types.NPTimedelta("s"), types.literal(3), types.Omitted(None))
    from numba.core.errors import NumbaError
    for op in npydecl.NumpyRulesArrayOperator._op_map:
        template = type("op", (npydecl.NumpyRulesArrayOperator,), dict(key=op))(context)
        for a in scalars:
            for b in scalars:
                assert template.generic((a, b), {}) is None
                try:
                    assert own(template, (a, b), {}) is None
                except NumbaError:
                    pass


def test_an_llvm_types_abi_size_is_llvms_and_identified_structs_are_asked_each_time():
    assert frontend.install_abi_sizes()
    from llvmlite import ir
    from numba.core.registry import cpu_target
    context = cpu_target.target_context
    own = type(context).get_abi_sizeof.__wrapped__
    named = ir.global_context.get_identified_type("frontF52_test_struct")
    named.set_body(ir.IntType(8), ir.DoubleType())
    for ty in (ir.IntType(1), ir.IntType(64), ir.DoubleType(), ir.PointerType(),
               ir.ArrayType(ir.FloatType(), 7),
               ir.LiteralStructType([ir.IntType(8), ir.DoubleType()]),
               ir.LiteralStructType([ir.IntType(8), ir.IntType(16)], packed=True), named,
               ir.LiteralStructType([named, ir.IntType(8)])):
        assert context.get_abi_sizeof(ty) == context.get_abi_sizeof(ty) == own(context, ty)
    with pytest.raises(AssertionError):
        context.get_abi_sizeof("i64")  # (not a type: Numba's own check)


def _typing_error(function):
    import numba
    with pytest.raises(numba.core.errors.TypingError) as raised:
        numba.njit(cache=False)(function)(1.0)
    return re.sub(r"0x[0-9a-f]+", "0x", str(raised.value))


def _untypable(x):
    return x.no_such_attribute + 1


def test_an_error_gets_the_same_context_with_and_without(numbas_own):
    from numba.core import errors
    assert frontend.install_error_contexts()
    with pytest.raises(errors.TypingError) as raised:
        with errors.new_error_context("typing of {what} at {loc}", what="x", loc=None):
            raise errors.TypingError("wrong")
    assert "typing of x at None" in str(raised.value)
    with pytest.raises(KeyError):
        with errors.new_error_context("ignored {x}", x=1):
            raise KeyError("other kinds pass untouched")
    ours = _typing_error(_untypable)
    numbas_own()
    assert "no_such_attribute" in ours and ours == _typing_error(_untypable)


def _nested(a, n):
    # nested loops with a break and a continue, a variable used before its definition on a
    # path (a loop's carried value) and one defined in one branch only
    total = 0.0
    carried = 1.0
    for i in range(n):
        if a[i] < 0.0:
            continue
        j = 0
        while j < i:
            carried = carried * 0.5 + a[j]
            if carried > 10.0:
                break
            j += 1
        else:
            only_here = a[i] * 3.0
            total += only_here
        total += carried
    return total


def _straight(x, flag):
    # no loop: an acyclic CFG
    y = x + 1.0
    if flag:
        z = y * 2.0
    else:
        z = y - 2.0
    return z + y


def test_the_live_variables_and_the_uses_and_definitions_are_numbas():
    assert frontend.install_live_map() and frontend.install_use_defs()
    from numba.core import analysis, ir, ir_utils
    assert ir_utils.compute_live_map is analysis.compute_live_map
    own_live_map = analysis.compute_live_map.__wrapped__
    own_use_defs = analysis.compute_use_defs.__wrapped__
    cyclic = acyclic = spread = 0
    for func_ir in [_frontend_ir(function) for function in (_loops, _nested, _straight)]:
        blocks = func_ir.blocks
        cfg = analysis.compute_cfg_from_blocks(blocks)
        ours, theirs = analysis.compute_use_defs(blocks), own_use_defs(blocks)
        assert ours.usemap == theirs.usemap and ours.defmap == theirs.defmap
        assert list(ours.usemap) == list(theirs.usemap) == list(blocks)
        live = analysis.compute_live_map(cfg, blocks, ours.usemap, ours.defmap)
        assert live == own_live_map(cfg, blocks, theirs.usemap, theirs.defmap)
        assert list(live) == list(blocks)
        spread += any(live[label] != ours.usemap[label] for label in blocks)
        cyclic += bool(cfg.loops())
        acyclic += not cfg.loops()
        # an assignment with a field of its own: named as Numba's list_vars names it
        stmt = next(stmt for block in blocks.values() for stmt in block.body
                    if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr))
        stmt.extra = ir.Var(stmt.target.scope, "frontG53_extra", stmt.loc)
        ours, theirs = analysis.compute_use_defs(blocks), own_use_defs(blocks)
        assert ours.usemap == theirs.usemap and ours.defmap == theirs.defmap
        assert any("frontG53_extra" in uses for uses in ours.usemap.values())
        del stmt.extra
    assert cyclic and acyclic and spread  # (loops, none, and variables live beyond their uses)


def test_the_typing_templates_order_is_numbas_and_a_fresh_list():
    assert frontend.install_template_order()
    import operator
    from numba.core import errors, utils
    from numba.core.registry import cpu_target
    from numba.core.target_extension import get_local_target
    context = cpu_target.typing_context
    context.refresh()
    own = utils.order_by_target_specificity.__wrapped__
    target = get_local_target(context)
    # Numba's templates of +, and two of a target each (the CPU's the more specific)
    generic, cpu = (type(name, (), {"metadata": {"target": name}}) for name in ("generic", "cpu"))
    templates = [generic] + list(context._functions[operator.add]) + [cpu]
    first = utils.order_by_target_specificity(target, templates, fnkey="add")
    again = utils.order_by_target_specificity(target, list(templates), fnkey="add")
    assert first == again == own(target, templates, fnkey="add") and first is not again
    assert first[0] is cpu and len(first) == len(templates)
    first.clear()
    assert utils.order_by_target_specificity(target, templates) == own(target, templates)
    assert utils.order_by_target_specificity(target, []) == own(target, []) == []
    unusable = type("cuda_only", (), {"metadata": {"target": "cuda"}})
    for order in (utils.order_by_target_specificity, own):
        with pytest.raises(errors.UnsupportedError):
            order(target, [unusable], fnkey="f")


def test_a_types_isinstance_is_the_abcs_until_a_class_has_a_virtual_subclass():
    assert frontend.install_type_checks()
    import abc
    from numba.core import types
    from numba.core.types import abstract
    meta = abstract._TypeMetaclass
    assert meta.__instancecheck__ is type.__instancecheck__
    values = [types.float64, types.int8, types.float64[:], types.UniTuple(types.int64, 2),
              types.Optional(types.float64), types.literal(3), types.none, types.unicode_type,
              3, "x", None, object()]
    classes = [types.Type, types.Number, types.Integer, types.Float, types.Array,
               types.ArrayCompatible, types.BaseTuple, types.Optional, types.Literal,
               types.Hashable, types.NoneType]
    for value in values:
        for cls in classes:
            assert isinstance(value, cls) == abc.ABCMeta.__instancecheck__(cls, value)

    class Probe(types.Type):
        pass

    class Virtual:
        pass

    try:
        assert not isinstance(Virtual(), Probe)
        Probe.register(Virtual)
        assert "__instancecheck__" not in meta.__dict__ and isinstance(Virtual(), Probe)
        meta.__instancecheck__ = type.__instancecheck__

        class Hooked(types.Type):
            @classmethod
            def __subclasshook__(cls, subclass):
                return subclass is Virtual

        assert "__instancecheck__" not in meta.__dict__ and isinstance(Virtual(), Hooked)
    finally:
        meta.__instancecheck__ = type.__instancecheck__  # (the patch, for the other tests)


def _llvm_ir(function):
    """``function`` compiled afresh (no cache) for float64[:], int64, bool: its LLVM IR and
    types, with what differs between two compiles of one function taken out: the dispatcher's
    number in the mangled names (``B<len>v<number>B``), the array expressions' addresses in
    theirs, and so the lengths of the strings that hold them."""
    import numba
    from numba.core import types
    dispatcher = numba.njit(cache=False, error_model="numpy")(function)
    signature = (types.Array(types.float64, 1, "C"), types.int64, types.boolean)
    dispatcher.compile(signature)
    result = dispatcher.overloads[signature]
    text = result.library.get_llvm_str()
    for pattern, common in ((r"B\d+v\d+B", "BvB"), (r"0x[0-9a-f]+", "0x"),
                            (r"\[\d+ x i8\]", "[N x i8]")):
        text = re.sub(pattern, common, text)
    return text, str(result.type_annotation.typemap)


def test_a_kernels_llvm_ir_is_the_same_with_and_without(numbas_own):
    ours = _llvm_ir(_loops)
    numbas_own()
    theirs = _llvm_ir(_loops)
    assert ours[1] == theirs[1]
    assert ours[0] == theirs[0]
    assert "fadd" in ours[0] and len(ours[0]) > 10000
