"""Importing Numba without importing SciPy.

Numba's ``__init__`` imports SciPy, when it is installed, only to refuse a SciPy older than 1.0
(``numba._ensure_critical_deps``): SciPy's own import (its testing helpers, ``subprocess``,
``locale``, its version parser) is about 0.03 s of CPU of a warm start of 0.6-0.8 s, and a warm
world of contacts never uses SciPy (the direct solver's dense Cholesky finds LAPACK in
``scipy.linalg.cython_lapack`` on its first call, through Numba's helper library, which imports
it then; the modules that call SciPy import it themselves). The check reads only
``scipy.__version__``, so while Numba imports, ``sys.modules`` holds a module that has just
that, the installed SciPy's version from its distribution's metadata (``importlib.metadata``,
which Numba imports anyway); it is removed as soon as Numba is imported, so the next
``import scipy`` imports SciPy itself. Numba's check is kept as it was: the version it reads
is the installed one.
"""

from __future__ import annotations

import sys
import types


def import_numba() -> None:
    """Import Numba, with SciPy's version in place of SciPy (see the module)."""
    if "numba" in sys.modules or "scipy" in sys.modules:
        return
    from importlib import metadata
    try:
        version = metadata.version("scipy")
    except metadata.PackageNotFoundError:
        version = None  # not installed: Numba checks nothing
    if version is None:
        import numba  # noqa: F401
        return
    stand_in = types.ModuleType("scipy", "SciPy's version only, while Numba imports")
    stand_in.__version__ = version
    sys.modules["scipy"] = stand_in
    try:
        import numba  # noqa: F401
    finally:
        if sys.modules.get("scipy") is stand_in:
            del sys.modules["scipy"]


__all__ = ["import_numba"]
