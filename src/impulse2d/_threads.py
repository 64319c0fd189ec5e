"""Threads inside one world (``WorldSettings.threads``): which solver and narrowphase entries
such a world gets, whether Numba's threading layer may run them, and the batch's guard against
nesting.

The threaded entries (:mod:`._dynamics.threaded`) are compiled only when a world first asks
for more than one thread, so a program that keeps the default compiles and runs exactly the
serial solvers. They launch Numba ``prange`` loops, which Numba runs on its threading layer:
TBB or OpenMP may be launched from several Python threads at once, but the fallback layer,
``workqueue``, aborts the process when two threads launch at once. Where only ``workqueue``
loads, the setting is ignored (the world runs serially) and a RuntimeWarning says so once.
``pip install impulse2d[threads]`` installs TBB, which :func:`prefer_tbb` makes Numba take:
on a busy machine its launches cost a twentieth of OpenMP's.

A :class:`~impulse2d.WorldBatch` spreads its worlds over its own threads; it runs its kernels
with Numba's thread count at 1 on each of them (:func:`serial`), so a threaded world stepped
in a batch runs serially there, with the same bits (the threads are over the worlds, not
nested inside them).
"""

from __future__ import annotations

import ctypes
import os
import sys
import warnings

import numba

from ._core.lazy import JIT, LazyKernel
from ._dynamics import threaded
from ._dynamics.verbs import COLLIDE_SIGNATURE, SOLVER_SIGNATURE

THREADED_SECONDS = {"soft_step": 50.0}
"""Compile time (CPU s) of each threaded entry, for the compile notice and the sharing of
compiles between processes: 72.7 s of CPU measured on the 2-core machine at load 10
(2026-11-28), where the serial step, stores and solver took 1.57 times their listed
seconds (:data:`._dynamics.step.STEP_SECONDS` and the others); the solve in one parallel
launch (2026-11-29) compiles in 1.10 times that (82.5 s against 74.9 alone, load 7)."""


class ThreadedKernel(LazyKernel):
    """A :class:`~._core.lazy.LazyKernel` whose code calls Numba's threading layer: the layer is
    launched before the kernel is compiled or loaded (its symbols are resolved when the
    kernel's code is linked), whoever asks (a world, a compile helper, ``warmup --all``)."""

    def address(self):
        if self._address is None and JIT:
            prefer_tbb()
            from numba.np.ufunc.parallel import _launch_threads
            _launch_threads()
        return super().address()


THREADED_KERNELS = {name: ThreadedKernel(entry, SOLVER_SIGNATURE,
                                         f"the {name} solver on threads",
                                         THREADED_SECONDS[name])
                    for name, entry in threaded.ENTRIES.items()}
"""The threaded entry of each solver that has one, compiled when a world first asks for it."""

COLLIDE_SECONDS = 10.0  # (compiled in a helper process meanwhile: not measured alone)
COLLIDE_KERNEL = ThreadedKernel(threaded.collide_threaded, COLLIDE_SIGNATURE,
                                "the narrowphase on threads", COLLIDE_SECONDS)
"""The threaded narrowphase (every solver's)."""

MIN_ROWS = 256
"""Contact rows (or bodies) below which a pass of a threaded world runs serially, written into
each world's table of verbs when it is filled (:data:`._dynamics.verbs.THREAD_ROWS`): a
``prange`` launch of two chunks costs 2.9 us with TBB on the 2-core machine at load 2, 13.6 us
at load 12 (``benchmarks/threads_overhead.py``), a contact row's pass some tens of
nanoseconds (pyramid_100: 14.3 ms a step for 15,000 rows visited 12 times and the rest), so a
launch pays from a few hundred rows; 64 and 1,024 measured no different on the big scenes
(BENCHMARKS.md). The tests set it to 1, so that small worlds take the parallel paths too."""

MIN_BODIES = 256
"""Awake bodies from which a threaded world takes its threaded solver although its contact
rows are fewer than :data:`MIN_ROWS` (its body passes alone then run in chunks), written into
the world's table of verbs (:data:`._dynamics.verbs.THREAD_BODIES`). Below both, and for a
narrowphase visiting fewer than :data:`MIN_ROWS` contacts, the step calls the serial entry
instead of the threaded one: every pass of the threaded entry would run serially anyway, so the
bits are the same, without its fixed cost (a 5-ball world's step at 2 threads: 39 us of CPU
against 9, measured 2026-11-28). The tests set it to 1 with :data:`MIN_ROWS`."""

SAFE_LAYERS = ("tbb", "omp")
_layer: list = []  # Numba's threading layer once launched (None: none loads)
_used = [False]    # a threaded entry has been given to a world in this process


TBB_LIBRARIES = {"linux": "libtbb.so.12", "darwin": "libtbb.12.dylib"}


def prefer_tbb() -> None:
    """Make Numba's TBB layer loadable where pip installed TBB (``impulse2d[threads]``): its
    library goes to ``<prefix>/lib``, off the dynamic loader's path, and Numba's TBB layer,
    which links it, then fails to load and Numba falls back to OpenMP. Loaded here by its
    path first (global symbols), Numba picks TBB (its first choice). Measured on the 2-core
    machine at load 11.7: a ``prange`` launch of 2 chunks 13.6 us with TBB against 312 us
    with OpenMP, whose join waits for a descheduled worker's next time slice."""
    if _tbb or not JIT:
        return
    _tbb.append(True)
    name = TBB_LIBRARIES.get(sys.platform)
    path = os.path.join(sys.prefix, "lib", name) if name else ""
    if path and os.path.exists(path):
        try:
            ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError:
            pass  # Numba then takes OpenMP, as it would have


_tbb: list = []


def _safe_layer() -> bool:
    """Whether Numba's threading layer (launched here, once) may be launched from several
    threads at once."""
    if not _layer:
        prefer_tbb()
        try:
            from numba.np.ufunc import parallel
            parallel._launch_threads()
            _layer.append(numba.threading_layer())
        except (ValueError, ImportError, AttributeError):
            _layer.append(None)
        if _layer[0] not in SAFE_LAYERS:
            warnings.warn(
                f"impulse2d: WorldSettings.threads > 1 is ignored (worlds step on one thread): "
                f"Numba's threading layer is {_layer[0]!r}, which is not safe for launches from "
                f"several threads; pip install impulse2d[threads] (TBB)",
                RuntimeWarning, stacklevel=3)
    return _layer[0] in SAFE_LAYERS


def threaded(settings) -> bool:
    """Whether a world of ``settings`` runs on threads: it asks for more than one, and Numba's
    threading layer allows it (launched here, on first asking)."""
    if settings.threads <= 1 or not _safe_layer():
        return False
    _used[0] = True
    return True


def solver_unit(settings):
    """The threaded :class:`~._core.lazy.LazyKernel` of ``settings.solver`` for a world that
    runs on threads (:func:`threaded`), if that solver has one; else None (the serial one)."""
    if settings.solver not in THREADED_KERNELS or not threaded(settings):
        return None
    return THREADED_KERNELS[settings.solver]


def collide_unit(settings):
    """The threaded narrowphase for a world that runs on threads, else None."""
    return COLLIDE_KERNEL if threaded(settings) else None


def slot(settings) -> int:
    """The value of the world's :data:`~._dynamics.verbs.THREADS` slot: the chunks each parallel
    pass is cut into (1: serial)."""
    return int(settings.threads) if threaded(settings) else 1


def serial(work):
    """``work`` run with Numba's thread count at 1 on the calling thread (restored after), so
    that the threaded entries it reaches run serially: the batch's kernels. ``work`` itself
    when no world of the process has been given a threaded entry (nothing to guard, and
    Numba's threads are not started)."""
    if not _used[0]:
        return work

    def run(*args):
        before = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            return work(*args)
        finally:
            numba.set_num_threads(before)

    return run


__all__ = ["THREADED_KERNELS", "THREADED_SECONDS", "COLLIDE_KERNEL", "COLLIDE_SECONDS",
           "MIN_ROWS", "MIN_BODIES",
           "threaded", "solver_unit", "collide_unit", "slot", "serial"]
