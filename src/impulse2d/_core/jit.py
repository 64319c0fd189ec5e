"""The one JIT policy of the engine.

Every kernel in the package is decorated with :data:`kernel` and nothing else, so that caching
and floating-point flags are decided in a single place:

* ``cache=True`` by default: compiled machine code is written next to the sources and re-used
  by the next process (warm start-up). Set ``IMPULSE2D_NUMBA_CACHE=0`` to opt out, e.g. on a
  read-only install.
* No ``fastmath``: the solver must be bit-reproducible (the same scene run twice gives the same
  bits), and re-association or FMA contraction would make results depend on the compiler's mood.
* ``error_model="numpy"``: a division by zero gives inf/NaN instead of raising inside a kernel;
  the public boundary is where bad input is rejected.
* ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python (debugging, coverage).

Numba freezes module-level globals into cached code, so tunables are passed to kernels as
arguments rather than read from globals (see Numba's "Notes on Caching").
"""

from __future__ import annotations

import os

import numba

CACHE = os.environ.get("IMPULSE2D_NUMBA_CACHE", "1") not in ("0", "false", "False", "")

kernel = numba.njit(cache=CACHE, fastmath=False, error_model="numpy")
"""Decorator for every jitted function of the engine (``@kernel``)."""

__all__ = ["kernel", "CACHE"]
