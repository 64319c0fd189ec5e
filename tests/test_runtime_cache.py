"""Numba's runtime module (NRT) kept in the package's cache (``_core/runtime_cache.py``): the
first process compiles and saves it, the next loads it instead of compiling, code that
allocates and counts references runs the same, and a damaged file is compiled over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import impulse2d as i2d
from impulse2d._core import runtime_cache

SRC = str(Path(i2d.__file__).resolve().parents[1])

RUN = """
import json
import impulse2d
import numba, numpy as np
from numba.core import codegen
finalized = []
own = codegen.JITCodeLibrary.finalize
def finalize(self):
    finalized.append(self.name)
    return own(self)
codegen.JITCodeLibrary.finalize = finalize

@numba.njit
def allocate(n):  # arrays made and freed through the runtime's reference counts
    total = 0.0
    for k in range(n):
        a = np.arange(k + 1) * 0.5
        b = a[::-1].copy()
        total += (a * b).sum()
    return total

print(json.dumps({"value": allocate(50), "runtime_compiled": "nrt" in finalized}))
"""


def _run(cache_dir) -> dict:
    env = {**os.environ, "PYTHONPATH": SRC, "NUMBA_CACHE_DIR": str(cache_dir)}
    result = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True,
                            env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _runtime_files(cache_dir):
    return sorted((Path(cache_dir) / "impulse2d").glob(f"nrt-*{runtime_cache.SUFFIX}"))


def test_the_runtime_is_compiled_once_then_loaded_and_runs_the_same(tmp_path):
    first = _run(tmp_path)
    assert first["runtime_compiled"]
    (saved,) = _runtime_files(tmp_path)
    second = _run(tmp_path)
    assert not second["runtime_compiled"]
    assert second["value"] == first["value"] == sum(
        sum(0.5 * i * 0.5 * (k - i) for i in range(k + 1)) for k in range(50))
    assert _runtime_files(tmp_path) == [saved]


def test_a_damaged_runtime_file_is_compiled_over(tmp_path):
    first = _run(tmp_path)
    (saved,) = _runtime_files(tmp_path)
    saved.write_bytes(b"not a pickle")
    again = _run(tmp_path)
    assert again["runtime_compiled"] and again["value"] == first["value"]
    assert _runtime_files(tmp_path) == [saved] and saved.read_bytes() != b"not a pickle"
    assert not _run(tmp_path)["runtime_compiled"]


def test_the_key_follows_the_module_and_the_machine():
    from numba.core.registry import cpu_target
    from numba.core.runtime import nrtdynmod
    ctx = cpu_target.target_context
    module, _ = nrtdynmod.create_nrt_module(ctx)
    key = runtime_cache.runtime_key(module, ctx.codegen())
    assert key == runtime_cache.runtime_key(nrtdynmod.create_nrt_module(ctx)[0], ctx.codegen())

    class OtherMachine:
        def magic_tuple(self):
            return ("x86_64-unknown-linux-gnu", "another-cpu", "")

    assert runtime_cache.runtime_key(module, OtherMachine()) != key
