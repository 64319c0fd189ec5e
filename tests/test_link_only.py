"""A link-only kernel (``_core/link_only.py``) asked for an address after all: its library goes
to the execution engine optimised, computes what the kernel's Python does, and hands the callers
compiled after that the module it handed before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import impulse2d as i2d
from impulse2d._core import link_only

JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") in ("0", "")

_KERNELS = '''
import numba


@numba.njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def poly(x):
    s = 1.0
    for k in range(3):
        s = s * x + k
    return s


@numba.njit
def twice(x):
    return 2.0 * poly(x)


@numba.njit
def thrice(x):
    return 3.0 * poly(x)
'''

_CHILD = '''
import ctypes, hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from impulse2d._core import link_only
link_only.OWNERS += ("address_kernels",)
assert link_only.install()
import address_kernels as k
out = {"twice": k.twice(1.5)}
cres = k.poly.overloads[k.poly.signatures[0]]
library = cres.library
out["class"] = type(library).__name__
def linked():
    return hashlib.sha1(library._get_module_for_linking().as_bitcode()).hexdigest()
before = linked()
# Numba's native convention: status = f(double *result, void **exception, double x)
address = library.get_pointer_to_function(cres.fndesc.llvm_func_name)
native = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_double),
                          ctypes.POINTER(ctypes.c_void_p), ctypes.c_double)(address)
result, exception = ctypes.c_double(), ctypes.c_void_p()
out["status"] = native(ctypes.byref(result), ctypes.byref(exception), 1.5)
out["poly"] = result.value
out["same_linked"] = linked() == before
out["thrice"] = k.thrice(1.5)
print(json.dumps(out))
'''


@pytest.mark.skipif(not JIT, reason="compiles kernels")
@pytest.mark.skipif(not link_only.supported(), reason="LLVM 22 on x86-64 only")
def test_a_link_only_kernel_asked_for_its_address_runs_and_its_callers_link_what_they_did(
        tmp_path):
    (tmp_path / "address_kernels.py").write_text(_KERNELS)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), IMPULSE2D_QUIET="1",
               PYTHONPATH=str(Path(i2d.__file__).resolve().parents[1]))  # this tree's
    done = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path)], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    poly = ((1.5 + 0.0) * 1.5 + 1.0) * 1.5 + 2.0  # Horner's steps as the kernel takes them
    assert out["class"] == "LinkOnlyLibrary"
    assert out["status"] == 0 and out["poly"] == poly
    assert out["twice"] == 2.0 * poly and out["thrice"] == 3.0 * poly
    assert out["same_linked"]


_NUMBA_IMPLS_CHILD = '''
import gc, json
from impulse2d._core import link_only
assert link_only.install()
import numba
import numpy as np


@numba.njit
def spread(n, a, b):
    out = np.empty(n)
    zeros = np.zeros(n)
    for i in range(n):
        out[i] = max(a, i * b) - min(a, i * b) + zeros[i]
    return out


values = spread(5, 1.5, 0.75)
libraries = [o for o in gc.get_objects() if isinstance(o, link_only.LinkOnlyLibrary)]
print(json.dumps({"values": values.tolist(), "link_only": sorted({x.name for x in libraries})}))
'''


@pytest.mark.skipif(not JIT, reason="compiles kernels")
@pytest.mark.skipif(not link_only.supported(), reason="LLVM 22 on x86-64 only")
def test_numbas_own_implementations_are_link_only_and_their_caller_computes_what_python_does(
        tmp_path):
    """Numba's ``@overload`` implementations (``np.empty``, ``np.zeros``, ``max``, ``min``)
    keep a C wrapper that nothing asks for: they are compiled link-only (no module passes, no
    machine code of their own), and the kernel they are linked into computes Python's values."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), IMPULSE2D_QUIET="1",
               PYTHONPATH=str(Path(i2d.__file__).resolve().parents[1]))  # this tree's
    done = subprocess.run([sys.executable, "-c", _NUMBA_IMPLS_CHILD], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["values"] == [max(1.5, i * 0.75) - min(1.5, i * 0.75) for i in range(5)]
    for name in ("ol_np_empty", "ol_np_zeros", "ol_max", "ol_min"):
        assert f"{name}.<locals>.impl" in out["link_only"]
