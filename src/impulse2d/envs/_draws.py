"""An environment's generator drawn from compiled code: NumPy's own ``next_double`` of each
environment's ``numpy.random.Generator``, called by address, so that a pass over many
environments draws each one's numbers without a Python call per environment.

A native vector environment gives each environment its own generator (:mod:`._vector`), as
Gymnasium's ``SyncVectorEnv`` does, and draws from it in Gymnasium's order: LunarLander's 12
heights and push at each reset, and 2 dispersion numbers every step. Drawn from Python that
is a call per environment (a 256-step block drawn ahead and stepped back over at the next
reset was the workaround: about 30 us a reset, with the machine's caches cold, measured
2026-11-30). Every NumPy bit generator publishes its C ``next_double`` and its state's
address (``bit_generator.ctypes``); ``Generator.uniform(low, high)`` is
``low + (high - low) * next_double(state)`` (NumPy's ``random_uniform``), so the same call
from a kernel gives the same numbers and leaves the generator in the same state, bit for bit
(``tests/test_envs_lander_step.py``). Generator's lock is not taken: an environment's
generators are its own, drawn from its calling thread only.

The addresses are valid while the generator lives: the environment holds it
(``BatchVectorEnv._rngs``) for as long as its addresses are in use.
"""

from __future__ import annotations

import ctypes

import numba
import numpy as np
from numba.core import types

from .._core.jit import inline_kernel
from .._core.lazy import address_call

_DOUBLE = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_size_t)
"""``double next_double(void *state)``: the bit generator's C function (the state pointer
passed as an integer of its width)."""


def addresses(rng: np.random.Generator) -> tuple[int, int]:
    """``(next_double, state)``: the addresses of ``rng``'s bit generator's C ``next_double``
    and of its state, for :func:`next_double`."""
    interface = rng.bit_generator.ctypes
    return (ctypes.cast(interface.next_double, ctypes.c_void_p).value,
            int(interface.state_address))


if numba.config.DISABLE_JIT:
    def next_double(function, state):
        """The next double in [0, 1) of the generator at ``state`` (without the JIT: through
        ctypes)."""
        return _DOUBLE(int(function))(int(state))
else:
    _call = address_call(types.float64(types.int64))

    @inline_kernel
    def next_double(function, state):
        """The next double in [0, 1) of the generator whose ``next_double`` and state are at
        addresses ``function`` and ``state`` (:func:`addresses`)."""
        return _call(function, (state,))


@inline_kernel
def uniform(function, state, low, high):
    """``Generator.uniform(low, high)``: NumPy's arithmetic (``random_uniform``), its draw."""
    return low + (high - low) * next_double(function, state)


__all__ = ["addresses", "next_double", "uniform"]
