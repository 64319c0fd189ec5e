"""The step's narrowphase loop reloads no stack slot 1 KiB away from a store before it.

AMD's Zen 2 and 3 take a load from ``d(%rsp)`` right after a store to ``s(%rsp)`` with
``d - s`` a multiple of 0x400 for a read of that store, and replay it: about 37 ns a pair of
moves against 0.3 ns (``benchmarks/stack_alias.py``, session 12). The narrowphase loop had 21
such pairs a contact (its callee's arguments re-stored from its own incoming arguments) in
the code the cache held, which ran the step's collide stage at a quarter of its speed on that
machine (rain_2000: 1.86 against 0.42 ms). Whether a loop has the pattern depends on its
frame's size, so a change anywhere in the narrowphase can bring it back: this reads the
machine code.

The continuous stage's passes had the same pattern at a larger scale: each body's sweep was a
call taking the body and shape stores, some 400 words re-stored from the pass's own incoming
arguments (413 such pairs a body in each pass; session 13 gave the sweep the world instead).
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path

import numba
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from stack_alias import _short, alias_pairs  # noqa: E402

from impulse2d._dynamics import continuous, continuous_box2d23, step  # noqa: E402
from impulse2d._dynamics.verbs import COLLIDE_SIGNATURE, CONTINUOUS_SIGNATURE  # noqa: E402

X86 = platform.machine().lower() in ("x86_64", "amd64")


def test_the_scan_finds_a_load_1_kib_above_a_store():
    asm = "\n".join(["f:", "\tmovq\t%rcx, 464(%rsp)", "\tmovq\t1488(%rsp), %rcx",  # 0x400 up
                     "\tmovq\t%rdx, 440(%rsp)", "\tmovq\t1456(%rsp), %rdx",  # 0x3f8: fine
                     "\tleaq\t1464(%rsp), %rsi",  # 0x400 above 440, but reads no memory
                     "\tmovq\t%rdx, 8(%rsp)", "\tcallq\t*%rax", "\tmovq\t1032(%rsp), %rdx"])
    assert alias_pairs(asm) == {"f": 1}


@pytest.mark.skipif(numba.config.DISABLE_JIT or not X86, reason="x86-64 machine code only")
@pytest.mark.parametrize("entry, loop", [("collide", "10_manifolds"),
                                         ("collide_polygons", "18_polygon_manifolds")])
def test_the_narrowphase_loop_has_no_stack_alias(entry, loop):
    # the collide stage compiled afresh as the step compiles it (the cache keeps no assembly):
    # its module holds the copy of the loop (_manifolds, or for a world without circles
    # _polygon_manifolds) that a warm process runs
    fresh = numba.njit(cache=False, error_model="numpy", _nrt=False,
                       no_cpython_wrapper=True)(getattr(step, entry).py_func)
    signature = tuple(COLLIDE_SIGNATURE.args)
    fresh.compile(signature)
    asm = fresh.inspect_asm(signature)
    # the loop is the stage's callee (collide_rows inlined); the stage itself calls it once
    stage_name = f"4step{len(entry)}{entry}"
    assert f"4step{loop}" in asm and stage_name in asm
    pairs = alias_pairs(asm)
    stage = {name: n for name, n in pairs.items()
             if f"4step{loop}" in name or stage_name in name}
    assert stage == {}


# The pairs of each function of a continuous stage's module in the stage's machine code. Main's
# passes had 413 each (the stores re-passed); what is left is the few words a pass still
# forwards from its own arguments for each body (the view of the body's shapes, its reference
# counted around the call) and the stage's calls. Which function LLVM inlines into which, and so
# where those few pairs land, depends on the CPU the code is compiled for: on Zen 3 (AVX2)
# solve_continuous read _sweep_pass [2, 5], _sweep_body [1], the stage 2, and Box2D 2.3's
# stage _sweep_pass [3, 4], _first_hit [6], the stage 2; on Zen 4 (AVX-512) _sweep_pass is
# inlined and solve_continuous's _shape_fraction reads 7. So the test bounds every function
# of the module by those few words, far from the 413 of the stores re-passed, rather than
# pinning one target's counts.
FEW_WORDS = 8


@pytest.mark.skipif(numba.config.DISABLE_JIT or not X86, reason="x86-64 machine code only")
@pytest.mark.parametrize("module, stage", [(continuous, "solve_continuous"),
                                           (continuous_box2d23, "solve_continuous_box2d23")])
def test_the_continuous_sweeps_forward_no_store(module, stage):
    # the stage compiled afresh as the step compiles it (a python stage kernel): its module
    # holds the copies of the passes that a warm process runs
    fresh = numba.njit(cache=False, error_model="numpy")(getattr(module, stage).py_func)
    signature = tuple(CONTINUOUS_SIGNATURE.args)
    fresh.compile(signature)
    asm = fresh.inspect_asm(signature)
    name = module.__name__.rsplit(".", 1)[1]
    assert f"{len(name)}{name}11_sweep_pass" in asm
    # every copy of every function (the general pass has two: non-bullets and bullets)
    found = [(_short(symbol), n) for symbol, n in alias_pairs(asm).items()
             if _short(symbol).startswith(module.__name__ + ".")]
    assert all(n <= FEW_WORDS for _, n in found), found
