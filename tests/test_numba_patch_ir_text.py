"""llvmlite's IR text written faster (``_core/ir_text.py``): the same text, character for
character, as llvmlite's own functions (the replacements' ``__wrapped__``) write, for every
instruction the patch writes and the ones around it, and for every module of a kernel's
compile; a kept text cleared by llvmlite is written again; another llvmlite is left alone."""

from __future__ import annotations

import os

import pytest

from impulse2d._core import ir_text
from impulse2d._core.numba_patch import Patch

JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("0", "")
pytestmark = pytest.mark.skipif(not JIT, reason="patches llvmlite's IR text")


@pytest.fixture
def llvmlites_own(monkeypatch):
    """Swap llvmlite's own functions back in for the test (as ``REPLACED`` keeps them)."""
    assert ir_text.install()

    def swap():
        for cls, name, original in ir_text.REPLACED:
            monkeypatch.setattr(cls, name, original)

    return swap


def _module():
    """A module with every instruction the patch writes, in its variants (flags, metadata,
    alignment, inbounds or not, nested indices, void and named results, names that need
    escaping), and others around them (calls, phis, selects, allocas, switches)."""
    from llvmlite import ir
    module = ir.Module(name="text")
    i1, i32, i64, f64 = ir.IntType(1), ir.IntType(32), ir.IntType(64), ir.DoubleType()
    pair = ir.LiteralStructType([i64, ir.ArrayType(f64, 3)])
    callee = ir.Function(module, ir.FunctionType(f64, [f64, i64]), name="callee")
    function = ir.Function(module, ir.FunctionType(i64, [pair.as_pointer(), f64, i64, i1]),
                           name="f")
    function.args[0].add_attribute("noalias")
    function.args[0].name = 'p"q\\r'
    entry, left, right, end = (function.append_basic_block(name)
                               for name in ("entry", "le ft", "right", "end"))
    b = ir.IRBuilder(entry)
    ptr, x, n, flag = function.args
    slot = b.alloca(f64, name="slot")
    slot.align = 8
    node = module.add_metadata([ir.Constant(i32, 7)])
    s = b.add(n, ir.Constant(i64, 3), name="s", flags=("nsw",))
    s.set_metadata("note", node)
    d = b.fmul(x, x, name="", flags=("fast",))
    c = b.sitofp(s, f64, name="c")
    t = b.trunc(s, i32)
    q = b.icmp_signed("<", n, s, name="q")
    r = b.fcmp_ordered(">=", d, c, name="r", flags=("nnan",))
    u = b.fcmp_unordered("!=", d, x)
    g = b.gep(ptr, [ir.Constant(i32, 0), ir.Constant(i32, 1), t], inbounds=True, name="g")
    g2 = b.gep(ptr, [n], name="g2")
    v = b.load(g, name="v")
    v.align = 8
    w = b.load(slot)
    w.set_metadata("note", node)
    b.store(v, slot)
    st = b.store(w, g)
    st.align = 4
    whole = b.load(g2, name="whole")
    e = b.extract_value(whole, [1, 2], name="e")
    e0 = b.extract_value(whole, 0)
    ins = b.insert_value(whole, e, [1, 0], name="ins")
    ins.set_metadata("note", node)
    b.store(ins, g2)
    call = b.call(callee, [e, e0], name="call")
    sel = b.select(q, e0, n, name="sel")
    b.cbranch(b.and_(r, u), left, right)
    b.position_at_end(left)
    b.store(call, slot)
    b.branch(end)
    b.position_at_end(right)
    switch = b.switch(sel, end)
    switch.add_case(ir.Constant(i64, 1), left)
    b.position_at_end(end)
    phi = b.phi(i64, name="phi")
    phi.add_incoming(sel, right)
    phi.add_incoming(e0, left)
    b.ret(b.mul(phi, ir.Constant(i64, -1)))
    void = ir.Function(module, ir.FunctionType(ir.VoidType(), [flag.type]), name="g")
    ir.IRBuilder(void.append_basic_block()).ret_void()
    return module


def test_the_patch_is_installed_once_and_shares_the_guard():
    assert isinstance(ir_text.install, Patch)
    assert ir_text.install() and ir_text.install() and ir_text.install.installed
    assert len(ir_text.REPLACED) == 14
    for cls, name, original in ir_text.REPLACED:
        assert cls.__dict__[name].__wrapped__ is original


def test_a_modules_text_is_llvmlites(llvmlites_own):
    ours = str(_module())
    llvmlites_own()
    theirs = str(_module())
    assert ours == theirs
    for text in ('%"p\\22q\\5cr"', '"le ft":', 'add nsw i64 %".3", 3, !note !0',
                 "fmul fast double", '%".7" = trunc i64 %"s" to i32',
                 "getelementptr inbounds {i64, [3 x double]}, {i64, [3 x double]}* %",
                 'load double, double* %"slot", !note !0', 'double* %"g", align 8',
                 'store double %".9", double* %"g", align 4',
                 'extractvalue {i64, [3 x double]} %"whole", 1, 2',
                 'double %"e", 1, 0 , !note !0', "fcmp nnan oge", "icmp slt",
                 'br i1 %".14", label %"le ft", label %"right"', "switch i64", "ret void"):
        assert text in ours


def test_a_text_cleared_by_llvmlite_is_written_again():
    from llvmlite import ir
    assert ir_text.install()
    module = _module()
    function = module.get_global("f")
    add = next(inst for inst in function.blocks[0].instructions if inst.name == "s")
    before = str(add)
    assert before.startswith('%"s" = add nsw i64 %"')
    add.replace_usage(add.operands[1], ir.Constant(ir.IntType(64), 5))
    assert str(add) == before.replace(", 3,", ", 5,") and str(add) != before


def _kept_texts_cleared(module):
    """Every kept text of a module's values dropped (types' texts, shared, kept)."""
    from llvmlite.ir import types
    seen, todo = set(), [module]
    while todo:
        value = todo.pop()
        if id(value) in seen or isinstance(value, types.Type):
            continue
        seen.add(id(value))
        fields = getattr(value, "__dict__", None)
        if fields is not None and type(value).__module__.startswith("llvmlite.ir"):
            for key in (ir_text._STR, ir_text._REF):
                fields.pop(key, None)
            todo.extend(fields.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            todo.extend(value)
        elif isinstance(value, dict):
            todo.extend(value.values())


def _kernel(a, n):
    total = 0.0
    for i in range(n):
        x = a[i] * 2.0 + 1.0
        total = total + x if x > total else total - 0.5 * x
    b = a + 1.0
    return total + b.sum(), b[: n // 2].copy()


def test_every_module_of_a_kernels_compile_is_written_as_llvmlite_writes_it(monkeypatch):
    import numba
    import numpy as np
    from numba.core import codegen
    assert ir_text.install()
    own = [(cls, name, original, cls.__dict__[name]) for cls, name, original in ir_text.REPLACED]
    add = codegen.CPUCodeLibrary.add_ir_module
    texts = []

    def add_both_ways(self, ir_module):
        pair = []
        for use_own in (True, False):
            for cls, name, original, patched in own:
                setattr(cls, name, original if use_own else patched)
            _kept_texts_cleared(ir_module)
            pair.append(str(ir_module))
        texts.append(pair)
        return add(self, ir_module)

    monkeypatch.setattr(codegen.CPUCodeLibrary, "add_ir_module", add_both_ways)
    kernel = numba.njit(_kernel)
    total, half = kernel(np.arange(6.0), 6)
    assert half.shape == (3,) and total > 0
    assert len(texts) >= 3 and sum(len(theirs) for theirs, _ in texts) > 10000
    for theirs, ours in texts:
        assert ours == theirs


def test_another_llvmlites_code_is_left_alone(monkeypatch):
    real = ir_text._replacements()
    changed = [(cls, name, "another", replacement) if name == "get_reference"
               else (cls, name, expected, replacement)
               for cls, name, expected, replacement in real]
    before = {(cls, name): cls.__dict__[name] for cls, name, _, _ in real}
    monkeypatch.setattr(ir_text, "_replacements", lambda: changed)
    assert ir_text.install.__wrapped__() is False
    assert {(cls, name): cls.__dict__[name] for cls, name, _, _ in real} == before
