"""The cyclic collector while the package compiles (``_core/lazy.py``,
:data:`~impulse2d._core.lazy.COMPILE_COLLECTOR`): its thresholds set when a kernel of the
package starts compiling, kept through the compiles of what it calls, and put back when it
ends; a compile of anyone else's kernel leaves them alone."""

from __future__ import annotations

import gc
from types import SimpleNamespace

from impulse2d._core import lazy


def _event(module: str) -> SimpleNamespace:
    function = SimpleNamespace(__module__=module)
    return SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=function)})


def test_the_collectors_thresholds_are_the_compiles_while_a_kernel_of_the_package_compiles(
        monkeypatch):
    monkeypatch.setattr(lazy, "QUIET", True)
    monkeypatch.setattr(lazy, "FIRST_COMPILE", [])
    before = gc.get_threshold()
    assert before != lazy.COMPILE_COLLECTOR
    notice = lazy._Notice()
    try:
        notice.on_start(_event("impulse2d._dynamics.step"))
        assert gc.get_threshold() == lazy.COMPILE_COLLECTOR
        notice.on_start(_event("numba.np.arraymath"))  # a callee's compile inside it
        notice.on_end(None)
        assert gc.get_threshold() == lazy.COMPILE_COLLECTOR
        notice.on_end(None)
        assert gc.get_threshold() == before
        notice.on_start(_event("someone_else"))  # not the package's: left alone
        assert gc.get_threshold() == before
        notice.on_end(None)
        assert gc.get_threshold() == before and notice.depth == 0
    finally:
        gc.set_threshold(*before)
