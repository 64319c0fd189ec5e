"""Numba's lowering keeps a kernel's once-assigned arguments, and the tuples (stores) its entry
block assigns once, as values, not in stack slots (``_core/arguments.py``): the same machine
code and results, less work for LLVM's SROA."""

from __future__ import annotations

import os
import re
import sys
import types

import numpy as np
import pytest

import impulse2d  # noqa: F401  (the package's kernels: what the patch is for)

JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("0", "")
needs_jit = pytest.mark.skipif(not JIT, reason="compiles kernels")

SOURCE = '''
def weighted(pair, n):
    total = 0.0
    for i in range(n):
        if pair[0][i] > 0.0:
            total += pair[0][i] * pair[1][i]
        else:
            total -= pair[1][i]
    return total


def taken(both, n):
    pair = both[1]
    first = pair[0]
    total = 0.0
    for i in range(n):
        total += first[i] * pair[1][i]
    return total
'''


def _functions(module: str) -> dict:
    """The functions of :data:`SOURCE`, defined afresh in a module named ``module`` (whose
    package decides whether the patch applies: Numba finds it in ``sys.modules``)."""
    namespace = types.ModuleType(module)
    exec(compile(SOURCE, f"<{module}>", "exec"), namespace.__dict__)
    sys.modules[module] = namespace
    return namespace.__dict__


@needs_jit
def test_the_arguments_and_the_tuples_the_entry_block_takes_once_are_kept_as_values(
        monkeypatch):
    import numba
    from numba.core import lowering

    from impulse2d._core import arguments

    assert arguments.install()  # (installed by the package's first compile: idempotent)
    patched = lowering.Lower._find_singly_assigned_variable
    kept = {}

    def recording(self):
        patched(self)
        kept[self.fndesc.qualname] = set(self._singly_assigned_vars)

    monkeypatch.setattr(lowering.Lower, "_find_singly_assigned_variable", recording)
    functions = _functions("impulse2d._argument_probe")
    pair = (np.array([1.0]), np.array([2.0]))
    assert numba.njit(_nrt=False)(functions["weighted"])(pair, 1) == 2.0
    assert numba.njit(_nrt=False)(functions["taken"])((pair, pair), 1) == 2.0
    assert {"pair", "n"} <= kept["weighted"]
    # ``pair``, a tuple taken from an argument at the start, is kept; ``first``, an array used
    # in the loop, keeps Numba's slot
    assert {"both", "n", "pair"} <= kept["taken"] and "first" not in kept["taken"]


def _machine_code(dispatcher) -> str:
    """The kernel's assembly with its (per-dispatcher) symbol names left out."""
    asm = dispatcher.inspect_asm(dispatcher.signatures[0])
    return re.sub(r"_ZN[\w$.]+|cfunc\.\S+|\.file.*", "F", asm)


@needs_jit
def test_a_kernels_machine_code_and_result_are_those_of_numbas_own_lowering(monkeypatch):
    import numba
    from numba.core import lowering

    from impulse2d._core import arguments

    assert arguments.install()  # (installed by the package's first compile: idempotent)
    patched = lowering.Lower._find_singly_assigned_variable
    pair = (np.array([1.0, -2.0, 3.0, 0.5]), np.array([4.0, 5.0, 6.0, 7.0]))
    expected = {"weighted": 1.0 * 4.0 - 5.0 + 3.0 * 6.0 + 0.5 * 7.0,
                "taken": 1.0 * 4.0 - 2.0 * 5.0 + 3.0 * 6.0 + 0.5 * 7.0}

    given = {"weighted": pair, "taken": (pair, pair)}
    kept = {name: numba.njit(_nrt=False)(_functions("impulse2d._argument_probe")[name])
            for name in expected}
    for name, value in expected.items():
        assert kept[name](given[name], 4) == value
    monkeypatch.setattr(lowering.Lower, "_find_singly_assigned_variable", patched.__wrapped__)
    for name, value in expected.items():
        slots = numba.njit(_nrt=False)(_functions("impulse2d._argument_probe")[name])
        assert slots(given[name], 4) == value
        assert _machine_code(kept[name]) == _machine_code(slots)


@needs_jit
def test_a_users_kernel_and_a_reference_counting_one_are_lowered_as_numba_lowers_them(monkeypatch):
    import numba
    from numba.core import lowering

    from impulse2d._core import arguments

    assert arguments.install()
    patched = lowering.Lower._find_singly_assigned_variable
    kept = {}

    def recording(self):
        patched(self)
        kept[self.func_ir.func_id.modname] = set(self._singly_assigned_vars)

    monkeypatch.setattr(lowering.Lower, "_find_singly_assigned_variable", recording)
    pair = (np.array([1.0]), np.array([2.0]))
    for module, nrt in (("user_module", False), ("impulse2d._argument_counted", True),
                        ("impulse2d._argument_probe", False)):
        assert numba.njit(_nrt=nrt)(_functions(module)["weighted"])(pair, 1) == 2.0
    assert "pair" not in kept["user_module"]
    assert "pair" not in kept["impulse2d._argument_counted"]  # (reference counted: slots)
    assert {"pair", "n"} <= kept["impulse2d._argument_probe"]


# An argument deleted twice on one path: after its last use in the ``if`` and again at the
# start of the join, where it was alive at the end of the branch's other predecessor (Numba's
# escaping deletes). Numba's slot is nulled after the first decref; an argument kept as a value
# in a reference-counting kernel with no such guard (warmall46's first version) had the
# second decref free the call's meminfo of the array while in use: glibc then stops the
# process at a later allocation ("malloc(): unaligned tcache chunk detected", reproduced
# 2026-11-30 session 22), as that version's ``warmup --all`` stopped in the batch step.
TWICE = '''
import sys, types
import numpy as np
from numba import njit
from impulse2d._core import arguments
assert arguments.install()
module = types.ModuleType("impulse2d._argument_twice")
sys.modules[module.__name__] = module
exec(compile("""
def twice_deleted(a, k):
    t = 0.0
    if k > 0:
        t = a[0]
    for i in range(3):
        t += i
    return t
""", module.__name__, "exec"), module.__dict__)
twice_deleted = njit(module.twice_deleted)
a = np.ones(4)  # (NumPy's: a meminfo made for each call, freed by the second decref)
total = sum(twice_deleted(a, k % 2) for k in range(200))
made = njit(lambda n: np.ones(n))(4)  # (a compile and Numba's runtime: many allocations)
for k in range(200):
    total += twice_deleted(made, k % 2)
print(total, made.base.refcount, sys.getrefcount(a))
'''


@needs_jit
def test_a_counted_argument_deleted_twice_on_one_path_is_decremented_once():
    import subprocess

    done = subprocess.run([sys.executable, "-c", TWICE], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    total, count, references = done.stdout.split()
    assert float(total) == 2 * (100 * 1.0 + 200 * 3.0)
    assert int(count) == 1 and int(references) == 2  # (the name ``a``, getrefcount's argument)
