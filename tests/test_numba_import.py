"""Numba imported without SciPy, PyYAML and ``numpy.ma`` (``_numba_import.py``): a warm process
never uses them, Numba's answers are the same (the type of every kind of array, a masked array
refused), and a Numba configuration file is read as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba.core import errors
from numba.core.typing.typeof import typeof, typeof_impl

import impulse2d as i2d

SRC = str(Path(i2d.__file__).resolve().parents[1])


def _fresh(code: str, cwd=None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_PERFORMANCE_WARNINGS"}
    env["PYTHONPATH"] = SRC
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, cwd=cwd, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


IMPORTED = """
import json, sys
import impulse2d
from impulse2d.scenes import build_scene
world = impulse2d.World()
build_scene(world, "pyramid", base=4)  # Numba types the stores' arrays: typeof
print(json.dumps({m: m in sys.modules for m in ("scipy", "yaml", "numpy.ma",
                                                  "numba.np.arrayobj")}))
"""


def test_importing_the_package_and_building_a_world_imports_none_of_them():
    out = _fresh(IMPORTED)
    assert out == {"scipy": False, "yaml": False, "numpy.ma": False, "numba.np.arrayobj": False}


def _arrays():
    readonly = np.arange(6.0)
    readonly.flags.writeable = False
    return [np.zeros(3), np.zeros((3, 4), order="F"), np.zeros((3, 4))[:, ::2],
            np.zeros(()), np.arange(5, dtype=np.int32), np.zeros(4, dtype=np.uint8)[1:],
            np.zeros(4, dtype=[("a", "f8"), ("b", "i4")]), np.zeros((2, 3), np.complex64).T,
            np.zeros(2, dtype=np.bool_), readonly, np.zeros(3, dtype="U3")]


@pytest.mark.parametrize("index", range(len(_arrays())))
def test_a_plain_array_has_numbas_own_type(index):
    numba_own = typeof_impl.dispatch(np.ndarray).numba_own
    array = _arrays()[index]
    assert typeof(array) == numba_own(array, None)


def test_a_masked_array_or_a_refused_dtype_gets_numbas_own_error():
    with pytest.raises(errors.NumbaTypeError, match="MaskedArray"):
        typeof(np.ma.zeros(3))
    with pytest.raises(errors.NumbaValueError, match="Unsupported array dtype"):
        typeof(np.zeros(2, dtype="V8"))
    assert typeof(np.matrix([[1.0]])) == typeof_impl.dispatch(np.ndarray).numba_own(
        np.matrix([[1.0]]), None)


CONFIG = """
import json, os
import impulse2d
from numba.core import config
before = config.DISABLE_PERFORMANCE_WARNINGS
with open(".numba_config.yaml", "w") as f:
    f.write("disable_performance_warnings: 1\\n")
config.reload_config()  # what Numba does before each compile
print(json.dumps({"before": before, "after": config.DISABLE_PERFORMANCE_WARNINGS}))
"""


def test_a_numba_configuration_file_is_read_as_before(tmp_path):
    (tmp_path / "first").mkdir()
    (tmp_path / "first" / ".numba_config.yaml").write_text("disable_performance_warnings: 1\n")
    code = ("import json, impulse2d\nfrom numba.core import config\n"
            "print(json.dumps({'value': config.DISABLE_PERFORMANCE_WARNINGS}))")
    assert _fresh(code, cwd=tmp_path / "first") == {"value": 1}  # there when Numba imports
    (tmp_path / "later").mkdir()
    assert _fresh(CONFIG, cwd=tmp_path / "later") == {"before": 0, "after": 1}  # made later
