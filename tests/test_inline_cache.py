"""A callee's untyped IR kept and copied to later call sites (``_core/inline_cache.py``): each
copy is the IR Numba's own run makes at that site (labels, statements, names, counters), a
changed global makes the callee run afresh, and a kernel inlining the callees computes the
same numbers."""

from __future__ import annotations

import io
import itertools
import os

import numba
import pytest

JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("0", "")
pytestmark = pytest.mark.skipif(not JIT, reason="patches Numba's compiler")

SCALE = 2.0


@numba.njit(inline="always")
def _leaf(x):
    return x * SCALE + 1.0


@numba.njit(inline="always")
def _middle(x, n):
    total = 0.0
    for i in range(n):  # a loop with a branch and a continue: blocks the passes add
        if i % 3 == 0:
            continue
        total += _leaf(x + i)
    return total - _leaf(x)


@numba.njit(inline="always")
def _top(x, n):
    return _middle(x, n) + _middle(-x, n + 1) * _leaf(x)


@numba.njit
def _kernel(x, n):
    return _top(x, n) + _top(x + 0.5, n)


def _reference(x, n):
    def leaf(v):
        return v * SCALE + 1.0

    def middle(v, m):
        return sum(leaf(v + i) for i in range(m) if i % 3) - leaf(v)

    def top(v, m):
        return middle(v, m) + middle(-v, m + 1) * leaf(v)

    return top(x, n) + top(x + 0.5, n)


@pytest.fixture
def worker():
    from numba.core.compiler import Flags
    from numba.core.inline_closurecall import InlineWorker, callee_ir_validator
    from numba.core.registry import cpu_target

    from impulse2d._core import inline_cache, inliner
    assert inliner.install() and inline_cache.supported()
    return InlineWorker(cpu_target.typing_context, cpu_target.target_context, {}, object(),
                        Flags(), validator=callee_ir_validator)


def _counters():
    from numba.core import ir_utils

    from impulse2d._core import inline_cache
    return ir_utils._the_max_label._value, inline_cache._next_uid(), ir_utils._unique_var_count


def _set_counters(labels, uid, names):
    from numba.core import bytecode, ir_utils
    ir_utils._the_max_label._value = labels
    bytecode.FunctionIdentity._unique_ids = itertools.count(uid)
    ir_utils._unique_var_count = names


def _text(callee_ir):
    out = io.StringIO()
    callee_ir.dump(file=out)
    scope = next(iter(callee_ir.blocks.values())).scope
    return (out.getvalue(), list(callee_ir.blocks), list(scope.localvars._con),
            callee_ir.func_id.unique_name, _counters())


def _numbas_run(worker, function, monkeypatch):
    """Numba's own run at the counters as they are, every inline inside it Numba's too; the
    counters set back after."""
    from impulse2d._core import inline_cache
    before = _counters()
    with monkeypatch.context() as m:
        m.setattr(inline_cache, "untyped_ir", lambda w, f: w.run_untyped_passes(f))
        text = _text(worker.run_untyped_passes(function.py_func))
    _set_counters(*before)
    return text


@pytest.fixture
def handed(monkeypatch):
    """The functions whose kept IR was handed out in the test (an empty cache at its start)."""
    from numba.core import ir_utils

    from impulse2d._core import inline_cache
    out = []
    hand_out = inline_cache._Kept.hand_out
    monkeypatch.setattr(inline_cache._Kept, "hand_out",
                        lambda self, function, start: out.append(function)
                        or hand_out(self, function, start))
    monkeypatch.setattr(inline_cache, "_kept", {})
    ir_utils._the_max_label.update(inline_cache.LEAST_COUNTER * 3)  # past the first inlines
    return out


def test_a_kept_copy_is_numbas_run(worker, handed, monkeypatch):
    from numba.core import bytecode, ir_utils

    from impulse2d._core import inline_cache
    for step in range(3):  # the first run (at the probe), then two copies at other counters
        expected = _numbas_run(worker, _top, monkeypatch)
        got = _text(inline_cache.untyped_ir(worker, _top.py_func))
        assert got == expected
        # the inlined callees' variables carry the identities of the run they stand for
        assert f"_middle_v{expected[4][1] - 7}_x" in got[2]  # 8 identities: 1 + 3 + 3 + 1
        ir_utils._the_max_label.update(ir_utils._the_max_label._value * (step + 2) + 17)
        for _ in range(step + 1):
            next(bytecode.FunctionIdentity._unique_ids)
    assert handed.count(_top.py_func) == 2 and handed.count(_middle.py_func) == 1


def test_a_changed_global_runs_afresh(worker, handed, monkeypatch):
    from impulse2d._core import inline_cache
    inline_cache.untyped_ir(worker, _middle.py_func)
    inline_cache.untyped_ir(worker, _middle.py_func)
    assert handed.count(_middle.py_func) == 1
    monkeypatch.setitem(globals(), "SCALE", 3.0)  # read by _leaf, inlined in _middle
    expected = _numbas_run(worker, _middle, monkeypatch)
    got = _text(inline_cache.untyped_ir(worker, _middle.py_func))
    assert handed.count(_middle.py_func) == 1
    assert got == expected and "global(SCALE: 3.0)" in got[0]
    inline_cache.untyped_ir(worker, _middle.py_func)  # kept anew
    assert handed.count(_middle.py_func) == 2


def test_a_kernel_inlining_kept_callees_computes_the_same(worker, handed):
    for x, n in ((0.25, 5), (-1.5, 7), (3.0, 1)):
        assert _kernel(x, n) == pytest.approx(_reference(x, n), rel=1e-15, abs=0.0)
    assert _top.py_func in handed  # _kernel's second _top was a copy
