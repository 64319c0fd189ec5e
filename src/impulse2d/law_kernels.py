"""The compiled kernel of a custom joint's law (:mod:`impulse2d.custom`), without SymPy.

:class:`~impulse2d.custom.ConstraintLaw` differentiates a law with SymPy and prints its kernel
as Python source (:data:`~impulse2d._dynamics.verbs.LAW_SIGNATURE`). What the engine needs
from then on is only that source: a :class:`LawKernel` holds it, writes it to a file in the
kernel cache directory named by its hash (``<cache root>/laws/law_<hash>.py``), imports it and
compiles it with ``cache=True``, so that Numba's disk cache (``__pycache__`` beside the file)
serves every later process: a second process loads the law rather than compiling it. The same
law (the same source) is the same file in every process, and a world pickled in one process
unpickles in another without SymPy (the kernel travels as its source).

The generated function is also plain Python (``py_func``), which :meth:`LawKernel.evaluate`
runs to read ``C`` and ``J`` from Python (``joint.value``, the checks at creation).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import time

import numpy as np

from ._core.cache import cache_root, quick_loading
from ._core.lazy import JIT, compiling
from ._core.state import LAW_OUT, LAW_PARAMS, LAW_ROWS, LAW_STATE

LAW_DIR = "laws"
"""Directory of the generated sources under the kernel cache root."""

COMPILE_SECONDS = 2.0
"""About how long a new law compiles (for the compile notice)."""

_LOADED: dict[str, object] = {}
"""The dispatcher of each law loaded in this process, by key."""


def law_key(source: str) -> str:
    """The name of a law's kernel: a hash of its generated source (24 hex digits)."""
    return hashlib.sha256(source.encode()).hexdigest()[:24]


class LawKernel:
    """One law's generated kernel: its source and what the engine must know of the law
    (rows, which rows are inequalities, parameter names and defaults, whether it reads a bare
    angle). Immutable; copied by reference (snapshots), pickled as its source."""

    __slots__ = ("key", "source", "rows", "inequality", "params", "defaults", "uses_angle",
                 "_address")

    def __init__(self, source: str, rows: int, inequality: tuple, params: tuple,
                 defaults: tuple, uses_angle: bool) -> None:
        if not 1 <= rows <= LAW_ROWS or len(params) > LAW_PARAMS:
            raise ValueError("a law has 1 to 3 rows and at most 8 parameters")
        self.source = source
        self.key = law_key(source)
        self.rows = int(rows)
        self.inequality = tuple(bool(x) for x in inequality)
        self.params = tuple(params)
        self.defaults = tuple(defaults)
        self.uses_angle = bool(uses_angle)
        self._address = None

    def __reduce__(self):
        return (LawKernel, (self.source, self.rows, self.inequality, self.params,
                            self.defaults, self.uses_angle))

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self

    def __repr__(self) -> str:
        return f"<LawKernel {self.key}: {self.rows} rows, params {list(self.params)}>"

    # -- the kernel -------------------------------------------------------------------------
    def path(self) -> str:
        """The generated source's file (written on first use)."""
        return os.path.join(cache_root(), LAW_DIR, f"law_{self.key}.py")

    def dispatcher(self):
        """The law's Numba dispatcher (its module imported from :meth:`path`)."""
        found = _LOADED.get(self.key)
        if found is not None:
            return found
        path = self.path()
        if not os.path.exists(path) or open(path, encoding="utf-8").read() != self.source:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            # written whole under another name, then renamed: a process that reads it at the
            # same time sees the old file or the new, never half of one
            handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as f:
                f.write(self.source)
            os.replace(temporary, path)
        name = f"impulse2d_law_{self.key}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        quick_loading(module.law)  # loaded from the cache without the compiler's registries
        _LOADED[self.key] = module.law
        return module.law

    def address(self) -> int:
        """The machine-code address of the compiled kernel (its C wrapper, what the step calls
        by address: :data:`~impulse2d._dynamics.verbs.LAW_SIGNATURE`); the Python function
        without the JIT. Compiled, or loaded from the cache, on first call."""
        if self._address is None:
            dispatcher = self.dispatcher()
            if not JIT:
                self._address = dispatcher
            else:
                from ._dynamics.verbs import LAW_SIGNATURE
                args = tuple(LAW_SIGNATURE.args)
                with compiling("a custom joint's law", COMPILE_SECONDS):
                    dispatcher.compile(args)
                result = dispatcher.overloads[args]
                self._address = result.library.get_pointer_to_function(
                    result.fndesc.llvm_cfunc_wrapper_name)
        return self._address

    def compile_seconds(self) -> float:
        """Compile (or load) the kernel now; the seconds it took (0 when it was at hand)."""
        t0 = time.perf_counter()
        self.address()
        return time.perf_counter() - t0

    def evaluate(self, state, params, mode: int = 1) -> np.ndarray:
        """``(rows, LAW_OUT)``: ``C``, ``dC/dq_a``, ``dC/dq_b`` (and with ``mode`` 2 ``Jdot
        qdot``) per row at ``state`` (:data:`~impulse2d._dynamics.verbs.LAW_SIGNATURE`), in
        plain Python."""
        dispatcher = self.dispatcher()
        function = getattr(dispatcher, "py_func", dispatcher)
        out = np.zeros((LAW_ROWS, LAW_OUT))
        full = np.zeros(LAW_STATE)
        full[:len(state)] = state
        p = np.zeros(LAW_PARAMS)
        p[:len(params)] = params
        try:
            function(full, p, out, mode)
        except (ZeroDivisionError, ValueError, OverflowError):
            # Python raises where the compiled kernel gives inf or NaN (error_model="numpy"):
            # a law that is not finite here, as the engine would see it
            out[:] = np.nan
        return out[:self.rows]


__all__ = ["LawKernel", "law_key", "LAW_DIR"]
