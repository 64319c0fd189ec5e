"""Kernels whose dispatcher is made on first use (``_core/deferred.py``): importing the package
makes none it does not need, and a deferred kernel is called, typed, inlined, passed and compiled
into its callers exactly as its dispatcher would be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import numba
import numpy as np
import pytest

import impulse2d as i2d
from impulse2d._core.deferred import DeferredKernel

SRC = str(Path(i2d.__file__).resolve().parents[1])
JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("0", "")
needs_jit = pytest.mark.skipif(not JIT, reason="no dispatchers without the JIT")


def _fresh(code: str) -> dict:
    env = {**os.environ, "PYTHONPATH": SRC}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# The package's kernels, stand-ins or dispatchers, found in its modules' globals (gc cannot
# list them: the package's import freezes its objects out of the collector's sight).
KERNELS = """
import sys
def kernels():
    from numba.core.registry import CPUDispatcher
    from impulse2d._core.deferred import DeferredKernel
    found = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] == "impulse2d":
            for value in vars(module).values():
                if isinstance(value, (DeferredKernel, CPUDispatcher)):
                    key = (value.py_func.__module__, value.py_func.__qualname__)
                    made = type(value) is not DeferredKernel or value._dispatcher is not None
                    found[key] = found.get(key, False) or made
    return found
"""

IMPORT_ONLY = KERNELS + """
import json
import impulse2d
found = kernels()
print(json.dumps({"deferred": len(found), "made": sum(found.values()),
                  "modules": sorted(m for m in sys.modules if m.split(".")[0] == "impulse2d"),
                  "scipy": "scipy" in sys.modules}))
"""


@needs_jit
def test_importing_the_package_makes_no_dispatcher():
    out = _fresh(IMPORT_ONLY)
    assert out["deferred"] > 300  # every kernel of the package is decorated this way
    assert out["made"] == 0
    # nor imports what a world does not need
    for module in ("impulse2d.compat", "impulse2d.envs", "impulse2d.draw", "impulse2d.testbed",
                   "impulse2d.render", "impulse2d.sweep"):
        assert module not in out["modules"]
    assert not out["scipy"]  # Numba's import checked SciPy's version without it (_numba_import)


SCIPY_AFTER = """
import json, sys
import impulse2d
import scipy, scipy.linalg
from importlib.metadata import version
print(json.dumps({"version": scipy.__version__, "installed": version("scipy"),
                  "file": scipy.__file__, "cho": scipy.linalg.cho_solve.__name__}))
"""


def test_scipy_imported_after_the_package_is_scipy_itself():
    out = _fresh(SCIPY_AFTER)
    assert out["version"] == out["installed"]
    assert out["file"].endswith("__init__.py") and out["cho"] == "cho_solve"


FIRST_STEP = KERNELS + """
import json
import impulse2d as i2d
from impulse2d.scenes import build_scene
world = i2d.World()
build_scene(world, "pyramid", base=8)
for _ in range(30):
    world.step(1 / 60)
found = kernels()
print(json.dumps({"made": sum(found.values()), "deferred": len(found),
                  "hash": world.state_hash()}))
"""


@needs_jit
def test_a_warm_world_makes_only_the_dispatchers_it_uses_and_steps_as_in_this_process():
    """A pyramid built and stepped in a fresh process (its kernels in the cache) makes a few
    dozen dispatchers of the package's hundreds, and ends with the bits it ends with here."""
    out = _fresh(FIRST_STEP)
    assert out["made"] < 60 < out["deferred"] - out["made"]
    from impulse2d.scenes import build_scene
    world = i2d.World()
    build_scene(world, "pyramid", base=8)
    for _ in range(30):
        world.step(1 / 60)
    assert out["hash"] == world.state_hash()


# -- the stand-in against its dispatcher ----------------------------------------------------

def _scale(x, k):
    return x * k + 1.0


def _inlined(x):
    return x - 0.25


@needs_jit
def test_a_deferred_kernel_is_made_on_first_use_and_replaces_itself_in_its_module():
    module = types.ModuleType("impulse2d_test_deferred_module")
    stand_in = DeferredKernel(_scale, numba.njit)
    stand_in.__module__ = module.__name__
    module.__dict__["_scale"] = stand_in
    sys.modules[module.__name__] = module
    try:
        assert stand_in._dispatcher is None
        assert stand_in.__name__ == "_scale" and stand_in.__doc__ == _scale.__doc__
        assert stand_in.py_func is _scale  # read without making the dispatcher
        assert stand_in._dispatcher is None
        assert stand_in(np.float64(2.0), 3.0) == _scale(2.0, 3.0) == 7.0
        made = stand_in._dispatcher
        assert isinstance(made, numba.core.registry.CPUDispatcher)
        assert module.__dict__["_scale"] is made
        assert stand_in.overloads is made.overloads  # attributes are the dispatcher's
    finally:
        del sys.modules[module.__name__]


@needs_jit
def test_a_call_through_a_stand_in_gives_the_caller_the_dispatcher():
    stand_in = DeferredKernel(_scale, numba.njit)
    caller = {"_scale": stand_in, "__builtins__": __builtins__}
    exec("result = _scale(1.5, 2.0)", caller)
    assert caller["result"] == 4.0
    assert caller["_scale"] is stand_in._dispatcher


@needs_jit
def test_kernels_that_call_inline_or_take_a_stand_in_compile_as_with_the_dispatcher():
    """A stand-in as a global of a caller, inlined into it (``inline="always"``), held in a
    closure and passed as an argument: each compiles to the results of the dispatcher."""
    deferred_scale = DeferredKernel(_scale, numba.njit)
    deferred_inline = DeferredKernel(_inlined, numba.njit(inline="always"))
    eager_scale = numba.njit(_scale)
    eager_inline = numba.njit(inline="always")(_inlined)

    def caller_of(scale, inline):
        def caller(x):
            return inline(scale(x, 2.0))
        return numba.njit(caller)

    def taker(f, x):
        return f(x, 0.5)

    x = np.float64(1.75)
    deferred = caller_of(deferred_scale, deferred_inline)(x)
    eager = caller_of(eager_scale, eager_inline)(x)
    assert deferred == eager == _inlined(_scale(1.75, 2.0))
    assert numba.njit(taker)(deferred_scale, x) == numba.njit(taker)(eager_scale, x) == 1.875
    assert numba.typeof(deferred_scale) == numba.typeof(deferred_scale.dispatcher())


@needs_jit
def test_a_package_kernel_gives_the_results_of_its_python_function(monkeypatch):
    """A kernel Python calls while a world is built (deferred until then): the mass properties
    of a box equal its Python function's, bit for bit, and the analytic ones."""
    from impulse2d._collision import geometry

    vertices = np.array([[-0.5, -0.25], [0.5, -0.25], [0.5, 0.25], [-0.5, 0.25]])
    mass, center, inertia = geometry.mass_properties(4, vertices, 0.0, 2.0)
    # the Python function calls its callee's Python function too: the callee is an inner
    # kernel (no wrapper for Python to call it by), patched only after the kernel compiled
    monkeypatch.setattr(geometry, "_rounded_polygon_moments",
                        geometry._rounded_polygon_moments.py_func)
    plain = geometry.mass_properties.py_func(4, vertices, 0.0, 2.0)
    assert (mass, center.tolist(), inertia) == (plain[0], plain[1].tolist(), plain[2])
    assert mass == pytest.approx(1.0, rel=1e-15)  # 2 kg/m^2 * 0.5 m^2
    assert inertia == pytest.approx(1.0 * (1.0 + 0.25) / 12.0, rel=1e-14)  # m (w^2 + h^2) / 12
    assert center.tolist() == pytest.approx([0.0, 0.0], abs=1e-15)
