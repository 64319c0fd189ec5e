"""Every ``>>>`` example in the docstrings of impulse2d's public modules runs and prints what it
says (doctest). Public: the package and its modules and subpackages whose names do not start
with an underscore; ``compat`` runs too (its examples use the pybox2d layer)."""

import doctest
import importlib
import pkgutil

import pytest

import impulse2d

# importing these needs an optional extra that this test does not need to exercise
_OPTIONAL = {"impulse2d.render": "PIL", "impulse2d.render.raster": "PIL"}
_OPTIONAL_PACKAGES = {"impulse2d.envs": "gymnasium"}   # the package and all its modules


def _public_modules():
    names = ["impulse2d"]
    for info in pkgutil.walk_packages(impulse2d.__path__, "impulse2d."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _public_modules())
def test_docstring_examples(name):
    if name in _OPTIONAL:
        pytest.importorskip(_OPTIONAL[name])
    for package, extra in _OPTIONAL_PACKAGES.items():
        if name == package or name.startswith(package + "."):
            pytest.importorskip(extra)
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                             verbose=False, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_there_are_examples():
    attempted = sum(doctest.testmod(importlib.import_module(name), report=False).attempted
                    for name in ("impulse2d", "impulse2d.settings"))
    assert attempted >= 2
