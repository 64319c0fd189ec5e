"""Numba imported without SciPy, PyYAML, ``importlib.metadata``, ``html``, ``locale``,
``numpy.ma``, ``numpy.random`` and ``numpy.polynomial`` (``_numba_import.py``), the package without ``subprocess`` and ``batch`` (its names imported
on first use): a warm process of one world never uses them,
Numba's answers are the same (the type of every kind of array, a masked array refused, SciPy's
version), a Numba configuration file is read as before, and Numba's extensions are initialised
by any compile (``_core/cache.py``)."""

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


def _fresh(code: str, cwd=None, path=(), **environ) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_PERFORMANCE_WARNINGS"}
    env["PYTHONPATH"] = os.pathsep.join([*map(str, path), SRC])
    env.update(environ)
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
world.step(1 / 60)  # the step's kernels loaded from the cache, each called once
from numba.core import entrypoints
print(json.dumps({**{m: m in sys.modules for m in ("scipy", "yaml", "numpy.ma",
                                                     "numba.np.arrayobj", "importlib.metadata",
                                                     "email", "subprocess",
                                                     "impulse2d.batch",
                                                     "numba.experimental.jitclass.overloads",
                                                     "numpy.random", "numpy.polynomial",
                                                     "impulse2d.constraint_rows",
                                                     "impulse2d.custom_joints",
                                                     "impulse2d.scenes.fuzz",
                                                     "impulse2d.scenes.stress", "html",
                                                     "locale")},
                  "extensions initialised": entrypoints._already_initialized}))
"""


def test_a_warm_process_imports_none_of_them():
    _fresh(IMPORTED)  # (fills the kernel cache where it is empty)
    out = _fresh(IMPORTED)
    assert out == {"scipy": False, "yaml": False, "numpy.ma": False, "numba.np.arrayobj": False,
                   "importlib.metadata": False, "email": False, "subprocess": False,
                   "impulse2d.batch": False, "numba.experimental.jitclass.overloads": False,
                   "numpy.random": False, "numpy.polynomial": False,
                   "impulse2d.constraint_rows": False, "impulse2d.custom_joints": False,
                   "impulse2d.scenes.fuzz": False, "impulse2d.scenes.stress": False,
                   "html": False, "locale": False, "extensions initialised": False}


CODEGEN = """
import json, sys
import impulse2d
from numba.core import codegen
before = [name in sys.modules for name in ("html", "locale")]
escaped = codegen.html.escape("<a & b>")  # (what Numba's graph does with a block's text)
named = codegen.locale.getlocale()  # (what Numba's check for LLVM's locale bug names)
import html, locale
print(json.dumps({"before": before, "escaped": escaped, "named": list(named) == list(locale.getlocale()),
                  "real": [type(html).__name__, type(locale).__name__,
                           html.escape is codegen.html.escape,
                           locale.getlocale is codegen.locale.getlocale]}))
"""


def test_numbas_code_generator_reads_html_and_locale_on_use():
    out = _fresh(CODEGEN)
    assert out == {"before": [False, False], "escaped": "&lt;a &amp; b&gt;", "named": True,
                   "real": ["module", "module", True, True]}


JITCLASS = """
import json, sys
import impulse2d
import numba
from numba.experimental import jitclass
name = "numba.experimental.jitclass.overloads"
before = name in sys.modules


@jitclass([("v", numba.int64)])
class Counter:
    def __init__(self, v):
        self.v = v

    def __len__(self):
        return self.v

    def __eq__(self, other):
        return self.v == other.v


@numba.njit
def use(a, b):
    return len(a), a == b, bool(a), a != b


calls = use(Counter(3), Counter(3))
print(json.dumps({"before": before, "after": name in sys.modules,
                  "same module": (sys.modules[name]
                                  is sys.modules["numba.experimental.jitclass"].overloads),
                  "calls": calls}))
"""


def test_jitclass_overloads_are_registered_by_the_first_compile():
    """Numba's jitclass overloads (``bool``, ``len``, ``==``, ``!=`` on an instance) are not
    imported with the package and are there for anyone's first compile."""
    out = _fresh(JITCLASS)
    assert out == {"before": False, "after": True, "same module": True,
                   "calls": [3, True, True, False]}


RANDOM = """
import json, sys
if sys.argv[1] == "numpy first":
    import numpy.random, numpy.polynomial  # Numba registers its types on the real classes
import impulse2d
import numba
import numpy as np
stand_ins = sorted(name for name in ("numpy.random", "numpy.polynomial") if name in sys.modules)


@numba.njit
def draw(generator, n):
    return generator.random(n)


generator = np.random.default_rng(7)
print(json.dumps({
    "imported with the package": stand_ins,
    "real": [np.random.Generator.__module__, np.polynomial.Polynomial.__module__],
    "types": [str(numba.typeof(value)) for value in (
        generator, generator.bit_generator, np.random.MT19937(1), np.random.PCG64DXSM(2),
        np.random.SFC64(3), np.polynomial.Polynomial([1.0, 2.0]), np.zeros(3), 1.5)],
    "draws": [draw(np.random.default_rng(11), 4).tolist(),
              np.random.default_rng(11).random(4).tolist()]}))
"""


def test_a_generator_and_a_polynomial_get_numbas_own_types():
    """``numpy.random`` and ``numpy.polynomial`` are not imported with the package; imported
    afterwards, their generators, bit generators and polynomials get the Numba types they get
    where NumPy imported them first, and a kernel draws the numbers NumPy draws."""
    first = _fresh(RANDOM.replace("sys.argv[1]", '"numpy first"'))
    after = _fresh(RANDOM.replace("sys.argv[1]", '"package first"'))
    assert after["imported with the package"] == []
    assert first["imported with the package"] == ["numpy.polynomial", "numpy.random"]
    assert after["real"] == first["real"] == ["numpy.random._generator",
                                              "numpy.polynomial.polynomial"]
    assert after["types"] == first["types"]
    assert after["types"][:5] == ["NumPyRandomGeneratorType"] + ["NumPyRandomBitGeneratorType"] * 4
    assert after["types"][5].startswith("PolynomialType(array(float64, 1d, C)")
    assert after["draws"][0] == after["draws"][1] == first["draws"][0]


STAND_IN_READ = """
import json, sys
import numpy
from impulse2d._numba_import import _numpy_random_when_used
with _numpy_random_when_used():
    stand_in = sys.modules["numpy.random"]
    superclass = stand_in.bit_generator.BitGenerator
    default_rng = stand_in.default_rng  # not the stand-in's: every stand-in gives way
    names = [name for name in ("numpy.random", "numpy.random.bit_generator", "numpy.polynomial")
             if type(sys.modules.get(name)) is type(stand_in)]
print(json.dumps({"stand-ins left": names, "real": default_rng is numpy.random.default_rng,
                  "superclass": [issubclass(c, superclass) for c in (
                      numpy.random.PCG64, numpy.random.bit_generator.BitGenerator,
                      numpy.random.Generator, object)]}))
"""


def test_a_stand_in_gives_way_to_the_real_module():
    """An attribute of a ``numpy.random`` stand-in other than its classes, read while Numba
    imports, imports the real modules in place of every stand-in; the stand-in's class is a
    superclass of the real class's subclasses only."""
    assert _fresh(STAND_IN_READ) == {"stand-ins left": [], "real": True,
                                     "superclass": [True, True, False, False]}


CASTS = """
import json, sys
if sys.argv[1] == "numba first":
    import numba  # Numba's own rules, propagated at its import
import impulse2d
from numba.core import types
from numba.core.typeconv import rules
read = "default_casting_rules" in vars(rules)  # set (propagated) or made on first read
kinds = [*sorted(types.number_domain, key=str), types.boolean, types.float16, types.voidptr,
         types.uintp]
tm = rules.default_type_manager
table = [[str(tm.check_compatible(a, b)) for b in kinds] for a in kinds]
print(json.dumps({"set": read, "table": table,
                  "rules": [c.__name__ for c in type(rules.default_casting_rules).__mro__]}))
"""


def test_numbas_casting_rules_set_from_the_cache_are_numbas_own(tmp_path):
    """Numba's casting relations between every two number types (and ``bool``, ``float16``,
    ``void *``, ``uintp``) are the same where Numba propagated its rules itself, where the
    package propagated the rules it recorded (an empty cache: the file written), and where it
    set them from that file; its ``default_casting_rules`` is a ``TypeCastingRules`` in all
    three, made on first read in the last."""
    own = _fresh(CASTS.replace("sys.argv[1]", '"numba first"'))
    script = CASTS.replace("sys.argv[1]", '"package first"')
    propagated = _fresh(script, NUMBA_CACHE_DIR=str(tmp_path))
    assert len(list(tmp_path.rglob("casting-*.nbt"))) == 1
    cached = _fresh(script, NUMBA_CACHE_DIR=str(tmp_path))
    assert [own["set"], propagated["set"], cached["set"]] == [True, True, False]
    assert own["table"] == propagated["table"] == cached["table"]
    assert sum(row.count("None") for row in own["table"]) < len(own["table"]) ** 2 // 2
    for out in (own, propagated, cached):
        assert "TypeCastingRules" in out["rules"]


ON_USE = """
import json, impulse2d
listed = all(name in dir(impulse2d) for name in impulse2d.__all__)
namespace = {}
exec("from impulse2d import *", namespace)
from impulse2d import batch, _warmup, constraint_rows, custom_joints
print(json.dumps({"listed": listed, "star": sorted(set(impulse2d.__all__) - set(namespace)),
                  "same": [impulse2d.WorldBatch is batch.WorldBatch,
                           impulse2d.BatchState is batch.BatchState,
                           impulse2d.BatchSnapshot is batch.BatchSnapshot,
                           impulse2d.warmup is _warmup.warmup,
                           impulse2d.ConstraintRow is constraint_rows.ConstraintRow,
                           impulse2d.CustomJoint is custom_joints.CustomJoint],
                  "missing": not hasattr(impulse2d, "NoSuchName")}))
"""


def test_the_names_imported_on_first_use_are_the_packages_own():
    assert _fresh(ON_USE) == {"listed": True, "star": [], "same": [True] * 6, "missing": True}


def test_numbas_check_reads_the_installed_scipys_version():
    from importlib import metadata

    from impulse2d._numba_import import _installed_scipy_version
    assert _installed_scipy_version() == metadata.version("scipy")


KERNEL = """
from impulse2d._core.jit import kernel


@kernel
def scaled(x, k):
    return x * k
"""

EXTENSIONS = """
import json, sys
from numba.core import entrypoints
import numba
import impulse2d
import importlib.metadata  # (anyone's own import of it is the module itself)
from numba_init_probe import scaled
own = importlib.metadata.version("numba") == numba.__version__
value = scaled(1.5, 3.0)
after_package_kernel = entrypoints._already_initialized
users = numba.njit(lambda x: x + 1)(2)
print(json.dumps({"value": value, "own": own, "package kernel": after_package_kernel,
                  "user kernel": entrypoints._already_initialized, "users": users}))
"""


def test_numbas_extensions_are_initialised_by_a_compile_not_by_a_cache_load(tmp_path):
    (tmp_path / "numba_init_probe.py").write_text(KERNEL)
    cache = str(tmp_path / "cache")
    compiled = _fresh(EXTENSIONS, path=[tmp_path], NUMBA_CACHE_DIR=cache)
    loaded = _fresh(EXTENSIONS, path=[tmp_path], NUMBA_CACHE_DIR=cache)
    # compiled: Numba's compiler ran the entry points before typing the kernel
    assert compiled == {"value": 4.5, "own": True, "package kernel": True, "user kernel": True,
                        "users": 3}
    # loaded from the cache: no scan until a kernel outside the package is first called
    assert loaded == {"value": 4.5, "own": True, "package kernel": False, "user kernel": True,
                      "users": 3}


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
