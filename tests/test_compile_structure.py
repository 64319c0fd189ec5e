"""How kernels are compiled and bound, where that was changed to compile less: a world's
reference built over Python's own arrays (``world_ref._adopting_ref``), Numba's library
functions compiled once per signature for every kind of caller (``_core/overloads.py``), a
callee's blocks copied as one copy by Numba's inliner, or not at all where its IR was made for
the call site (``_core/inliner.py``), kernels that only kernels call compiled to the IR their
callers link without machine code of their own (``_core/link_only.py``), and the compile
helper started at a process's first compile (``_core/parallel.start_early``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import impulse2d as i2d

JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("0", "")
needs_jit = pytest.mark.skipif(not JIT, reason="compiles kernels")


def _pyramid(rows=4):
    world = i2d.World()
    world.create_body(type="static").create_box(10.0, 0.5, center=(0.0, -0.5))
    for row in range(rows):
        for k in range(rows - row):
            body = world.create_body(position=(-0.5 * (rows - row) + k + 0.5, 0.5 + row))
            body.create_box(0.5, 0.5)
    return world


# -- the reference over Python's arrays -----------------------------------------------------------

@needs_jit
def test_a_reference_shares_pythons_arrays_and_holds_one_reference_to_each():
    from impulse2d._dynamics import world_ref

    world = _pyramid()
    world.step(1 / 60)
    ref = world_ref.stores_for_step(world)
    world_ref.sync_constraints(world)  # (the step's new constraint store, into Python's view)
    # the stores read back from the reference are Python's: the same memory, array by array
    def data(array):
        return array.__array_interface__["data"][0]

    for boxed, mine in ((world_ref._contacts_of(ref), world._contacts),
                        (world_ref._constraints_of(ref), world._constraints)):
        assert len(boxed) == len(mine) > 10
        assert [data(a) for a in boxed] == [data(a) for a in mine]
        assert all(np.array_equal(a, b) for a, b in zip(boxed, mine))
    # a second reference over the same stores holds one more reference to every array, and
    # gives it back when it goes
    alive = world._bodies.alive
    before = sys.getrefcount(alive)
    rows = world._joint_rows()
    second = world_ref._new_world_stores(
        world._bodies, world._shapes, world._joints, world._contacts, world._constraints,
        rows["by_type"], rows["no_collide"], world._clock, world._verbs, world._diagnostics,
        world._lengths, world._step_settings, world._awake_state)
    assert sys.getrefcount(alive) == before + 1
    del second
    assert sys.getrefcount(alive) == before


@needs_jit
def test_a_world_stepped_through_an_adopted_reference_falls_as_gravity_says():
    # one free box, no contacts: after n steps of the soft step (semi-implicit Euler,
    # 4 substeps), v = g t exactly and y = y0 + g h^2 (1 + 2 + ... + 4n)
    world = i2d.World(gravity=(0.0, -10.0))
    box = world.create_body(position=(0.0, 5.0))
    box.create_box(0.5, 0.5)
    dt, n = 1 / 60, 30
    for _ in range(n):
        world.step(dt)
    h = dt / world.settings.substeps
    steps = n * world.settings.substeps
    assert box.linear_velocity.y == pytest.approx(-10.0 * n * dt, rel=1e-12)
    assert box.position.y == pytest.approx(5.0 - 10.0 * h * h * steps * (steps + 1) / 2,
                                           rel=1e-12)


@needs_jit
def test_a_store_holding_something_other_than_an_array_is_refused():
    from impulse2d._dynamics import world_ref

    world = _pyramid(2)
    world.step(1 / 60)
    rows = world._joint_rows()
    broken = world._bodies._replace(angle=list(world._bodies.angle))
    alive = world._shapes.alive
    before = sys.getrefcount(alive)
    with pytest.raises(TypeError, match="other than an array"):
        world_ref._new_world_stores(
            broken, world._shapes, world._joints, world._contacts, world._constraints,
            rows["by_type"], rows["no_collide"], world._clock, world._verbs,
            world._diagnostics, world._lengths, world._step_settings, world._awake_state)
    assert sys.getrefcount(alive) == before  # what was adopted before the refusal is let go
    with pytest.raises(TypeError, match="takes"):
        world_ref._new_world_stores(world._bodies, world._shapes)


# -- Numba's library functions, once per signature --------------------------------------------

@needs_jit
def test_a_library_function_compiles_once_for_callers_of_every_wrapper_kind():
    import numba
    from numba.core import event

    from impulse2d._core import overloads

    assert overloads.install()  # (installed by the package already: idempotent)
    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            pass

        def on_end(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    # fresh functions (not cached), of three kinds of kernel the package has; int16 arrays,
    # which no other kernel makes, so that no test run before this one in the same process
    # has compiled the implementation already
    def with_wrapper(n):
        return np.zeros(n, np.int16)

    def kernel_only(n):
        return np.zeros(n, np.int16)

    def gil_free(n):
        return inner(n).sum() + np.zeros(n, np.int16).shape[0]

    inner = numba.njit(no_cpython_wrapper=True)(kernel_only)
    first = numba.njit(with_wrapper)
    third = numba.njit(nogil=True)(gil_free)

    def counted(n):
        return min(n, 3)

    borrowing = numba.njit(_nrt=False, no_cpython_wrapper=True)(counted)

    def counting(n):
        return min(n, 3) + borrowing(n)

    with event.install_listener("numba:compile", Listener()):
        assert first(4).tolist() == [0, 0, 0, 0]
        assert third(5) == 5
        # (an int16: a type no other kernel takes min of, so that no test run before this one
        # in the same process has compiled the implementation already)
        assert numba.njit(counting)(np.int16(7)) == 6
    assert compiled.count("ol_np_zeros.<locals>.impl") == 1
    # reference counting is inherited by the implementation: with and without, two compiles
    assert compiled.count("ol_min.<locals>.impl") == 2


# -- Numba's inliner, one copy of a callee's blocks -------------------------------------------

def _branchy(x):
    """A callee of several blocks (each refers to the function's one scope)."""
    if x > 1.0:
        y = x * 2.0
    else:
        y = x - 3.0
    for k in range(3):
        y += k
    return y


@needs_jit
def test_an_inlined_callees_blocks_are_copied_with_one_scope_per_copy():
    from numba.core import inline_closurecall
    from numba.core.compiler import run_frontend

    from impulse2d._core import inliner

    assert inliner.install()  # (installed by the package already: idempotent)
    assert isinstance(inline_closurecall.copy, inliner._BlockCopier)
    blocks = list(run_frontend(_branchy).blocks.values())
    assert len(blocks) > 3 and all(b.scope is blocks[0].scope for b in blocks)
    copier = inline_closurecall.copy
    # outside an inline: Numba's own copy, each block with a scope of its own
    loose = [copier.deepcopy(b) for b in blocks]
    assert loose[0].scope is not loose[1].scope
    # inside an inline: one copy of the scope for all the blocks, not the callee's own
    inliner._local.copies = {}
    try:
        shared = [copier.deepcopy(b) for b in blocks]
    finally:
        inliner._local.copies = None
    assert all(b.scope is shared[0].scope for b in shared)
    assert shared[0].scope is not blocks[0].scope
    assert shared[0].scope == blocks[0].scope  # the same variables
    for old, new in zip(blocks, shared):
        assert len(new.body) == len(old.body) and new.body[0] is not old.body[0]


@needs_jit
def test_an_inline_always_callee_is_spliced_in_as_its_untyped_passes_made_it(monkeypatch):
    import numba
    from numba.core import inline_closurecall
    from numba.core.compiler import run_frontend

    from impulse2d._core import inliner

    assert inliner.install()
    worker = inline_closurecall.InlineWorker
    made, spliced = [], []
    untyped, inline_function = worker.run_untyped_passes, worker.inline_function

    def spy_untyped(self, func, *args, **kwargs):
        callee_ir = untyped(self, func, *args, **kwargs)
        made.append({id(b) for b in callee_ir.blocks.values()})
        return callee_ir

    def spy_inline(self, *args, **kwargs):
        result = inline_function(self, *args, **kwargs)
        spliced.append({id(b) for _, b in result[3]})  # the blocks put into the caller
        return result

    monkeypatch.setattr(worker, "run_untyped_passes", spy_untyped)
    monkeypatch.setattr(worker, "inline_function", spy_inline)
    callee = numba.njit(inline="always")(_branchy)

    def caller(x):
        return callee(x) * callee(x - 2.5)

    assert numba.njit(caller)(2.0) == _branchy(2.0) * _branchy(-0.5)
    assert len(made) == len(spliced) == 2
    for fresh, blocks in zip(made, spliced):
        # the callee's blocks themselves (as the CFG's simplification left them), not copies;
        # the one other block is the caller's, split at the call
        assert len(blocks & fresh) >= 2 and len(blocks - fresh) == 1
    # a block outside such an inline is still copied
    block = next(iter(run_frontend(_branchy).blocks.values()))
    assert inline_closurecall.copy.deepcopy(block) is not block
    inliner._local.fresh = {id(block)}
    try:
        assert inline_closurecall.copy.deepcopy(block) is block
    finally:
        inliner._local.fresh = None


def test_the_package_imports_no_part_of_numbas_inliner_until_it_compiles():
    import subprocess

    code = ("import sys, impulse2d; "
            "print('numba.core.inline_closurecall' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


@needs_jit
def test_a_kernel_with_inlined_callees_computes_what_python_does():
    import numba

    callee = numba.njit(inline="always")(_branchy)

    def caller(x):
        return callee(x) + callee(x + 1.5) * callee(-x)

    compiled = numba.njit(caller)
    for x in (-2.0, 0.25, 0.75, 3.0):  # both branches of each inlined copy
        python = _branchy(x) + _branchy(x + 1.5) * _branchy(-x)
        assert compiled(x) == python


# -- kernels only kernels call: no machine code of their own -----------------------------------

_LINK_ONLY_KERNELS = '''
import numba
import numpy as np


@numba.njit(no_cpython_wrapper=True, no_cfunc_wrapper=True, cache=True, error_model="numpy")
def scaled(a, k):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = a[i] * k
    return out


@numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True, cache=True)
def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@numba.njit(cache=True)
def first(a):
    return dot(scaled(a, 3.0), a)


@numba.njit(cache=True)
def second(a):
    return dot(scaled(a, 0.5), scaled(a, 2.0)) + a.shape[0]
'''

_LINK_ONLY_CHILD = '''
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from impulse2d._core import cache, link_only
if sys.argv[2] == "on":
    link_only.OWNERS += ("link_only_kernels",)
    assert link_only.install()
import numpy as np
import link_only_kernels as k
for f in (k.scaled, k.dot, k.first, k.second):
    cache.quick_loading(f)  # loaded as the package's kernels are
a = np.arange(1.0, 9.0)
out = {}
for name in sys.argv[3].split(","):
    f = getattr(k, name)
    out[name] = f(a)
    name, kind, data = f.overloads[f.signatures[0]].library.serialize_using_object_code()
    out[name + " object"] = hashlib.sha1(data[0]).hexdigest()
for name in ("scaled", "dot"):
    library = getattr(k, name).overloads[getattr(k, name).signatures[0]].library
    try:
        kind = library.serialize_using_object_code()[1]
    except RuntimeError:
        kind = "loaded"  # (Numba's own library loaded from object code keeps none)
    linked = library._get_module_for_linking().as_bitcode()
    out[name] = [type(library).__name__, kind, hashlib.sha1(linked).hexdigest()]
codegen = k.first.targetctx.codegen()
out["waiting"] = len(codegen.__dict__.get("_waiting_environments", {}))
print(json.dumps(out))
'''


def _link_only_run(tmp_path, cache: str, mode: str, callers: str) -> dict:
    import json
    import subprocess

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / cache), IMPULSE2D_QUIET="1",
               PYTHONPATH=str(Path(i2d.__file__).resolve().parents[1]))  # this tree's
    out = subprocess.run([sys.executable, "-c", _LINK_ONLY_CHILD, str(tmp_path), mode, callers],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@needs_jit
@pytest.mark.skipif(not __import__("impulse2d._core.link_only").\
                    _core.link_only.supported(), reason="LLVM 22 on x86-64 only")
def test_a_kernel_only_kernels_call_makes_no_machine_code_and_its_callers_compute_numbas_results(
        tmp_path):
    """The callees are cached as the bitcode their callers link, without machine code and
    without module passes (their callers' module passes optimise them); the callers compute
    what Numba's own compile computes, and a caller's machine code is the same whether its
    callees were compiled in its process or loaded from the cache by a later one."""
    (tmp_path / "link_only_kernels.py").write_text(_LINK_ONLY_KERNELS)
    # Numba's own: the callees get machine code; a second caller compiled by a later process
    numba_own = _link_only_run(tmp_path, "own", "off", "first")
    assert numba_own["scaled"][:2] == ["JITCodeLibrary", "object"]
    later = _link_only_run(tmp_path, "own", "off", "second")
    numba_own.update({key: later[key] for key in ("second", "second object")})
    # link-only: the callees are cached as the bitcode their callers link, nothing else
    linked = _link_only_run(tmp_path, "linked", "on", "first")
    assert linked["scaled"][:2] == linked["dot"][:2] == ["LinkOnlyLibrary", "bitcode"]
    # ... not the module Numba's module passes made of them
    assert linked["scaled"][2] != numba_own["scaled"][2]
    assert linked["first"] == numba_own["first"] == 3.0 * sum(x * x for x in range(1, 9))
    assert linked["waiting"] == 0  # the callees' environments set once the caller was loaded
    # a later process loads the cached callees and links them into a new caller ...
    later = _link_only_run(tmp_path, "linked", "on", "second")
    assert later["scaled"][:2] == later["dot"][:2] == ["LinkOnlyLibrary", "bitcode"]
    assert later["second"] == numba_own["second"] == sum(x * x for x in range(1, 9)) + 8
    assert later["waiting"] == 0
    # ... and makes the machine code a process that compiled the callees itself makes
    fresh = _link_only_run(tmp_path, "fresh", "on", "second")
    assert fresh["scaled"] == linked["scaled"] and fresh["dot"] == linked["dot"]
    assert later["second object"] == fresh["second object"]


_PARALLEL_KERNELS = '''
import numba
import numpy as np


@numba.njit(no_cpython_wrapper=True, no_cfunc_wrapper=True, parallel={"prange": True},
            error_model="numpy")
def squares(a, out):
    for i in numba.prange(a.shape[0]):
        out[i] = a[i] * a[i] + 1.0


@numba.njit(error_model="numpy")
def total(a):
    out = np.empty(a.shape[0])
    squares(a, out)
    return out.sum()
'''

_PARALLEL_CHILD = '''
import json, sys
sys.path.insert(0, sys.argv[1])
from impulse2d._core import link_only
from numba.core import codegen
if sys.argv[2] == "on":
    link_only.OWNERS += ("parallel_kernels",)
    assert link_only.install()
made = []  # the libraries given machine code, by name
original = codegen.JITCodeLibrary._finalize_specific
def _finalize_specific(self):
    made.append(self.name)
    return original(self)
codegen.JITCodeLibrary._finalize_specific = _finalize_specific
import numpy as np
import parallel_kernels as k
a = np.arange(1.0, 101.0)
out = {"total": k.total(a), "made": made}
print(json.dumps(out))
'''


@needs_jit
@pytest.mark.skipif(not __import__("impulse2d._core.link_only").\
                    _core.link_only.supported(), reason="LLVM 22 on x86-64 only")
def test_a_parallel_kernels_loop_and_wrappers_make_no_machine_code_and_its_callers_result_is_same(
        tmp_path):
    """A ``prange`` loop's body and the two libraries Numba's parfor lowering wraps it in are
    linked into the kernel that holds the loop; in a link-only parallel kernel they are
    link-only too (:data:`~impulse2d._core.link_only.GUFUNC_WRAPPERS`): no machine code of
    their own, and the caller computes what Numba's own compile computes."""
    import json
    import subprocess

    (tmp_path / "parallel_kernels.py").write_text(_PARALLEL_KERNELS)
    runs = {}
    for mode in ("off", "on"):
        env = dict(os.environ, IMPULSE2D_QUIET="1",
                   PYTHONPATH=str(Path(i2d.__file__).resolve().parents[1]))  # this tree's
        done = subprocess.run([sys.executable, "-c", _PARALLEL_CHILD, str(tmp_path), mode],
                              capture_output=True, text=True, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        runs[mode] = json.loads(done.stdout.strip().splitlines()[-1])
    wrappers = ("__numba_parfor_gufunc_", "parallelgufuncwrapper", "<numba.np.ufunc.wrappers")
    numba_own = [n for n in runs["off"]["made"] if n.startswith(wrappers)]
    assert len(numba_own) == 3  # the loop's body and its two wrappers, in Numba's own way
    assert [n for n in runs["on"]["made"] if n.startswith(wrappers)] == []
    assert "squares" not in runs["on"]["made"]
    assert runs["on"]["total"] == runs["off"]["total"] == sum(x * x + 1.0 for x in range(1, 101))


# -- the helper started at the first compile ----------------------------------------------------

def test_the_plan_gives_a_running_helper_what_balances_the_processes():
    from impulse2d._core.parallel import plan

    class Unit:
        def __init__(self, what, seconds):
            self.what, self.seconds = what, seconds

        def __repr__(self):
            return self.what

    narrow, solver, joint = Unit("narrow", 6.0), Unit("solver", 9.0), Unit("joint", 1.0)
    # the helper has 20 s left (the pair search), this process the step (21 s): the solver
    # to the helper (29), the narrowphase here (27), the joint here (28 against 29)
    mine, helpers = plan([narrow, solver, joint], 21.0, 2, busy=[20.0])
    assert helpers == [[solver]] and mine == [narrow, joint]
    # a running helper keeps a share below a new helper's minimum (it is started already)
    mine, helpers = plan([joint], 21.0, 2, busy=[1.0])
    assert helpers == [[joint]] and mine == []
    # one process: nothing for the running helper (it delivers what it had)
    assert plan([narrow], 21.0, 1, busy=[20.0]) == ([narrow], [])
