"""The local backend: the points one after another in this process (the default), or on a pool
of spawned processes (``workers=n``).

**Serial by default**, because in this process ``fn`` needs no pickling (a lambda or a notebook
function works), its exceptions arrive with their full traceback, a debugger stops where they are
raised, and the compiled kernels are already loaded: a new process pays for importing impulse2d
and loading its kernels (about a second on a 2-core machine, tens of seconds if they were never
compiled) before its first point.

**The pool** (``concurrent.futures.ProcessPoolExecutor``) is for sweeps whose points take long
enough to pay that back, on one machine without Ray. It *spawns* its processes rather than
forking this one: a fork copies a process that may already run threads (Numba's threading layer,
a progress bar's monitor, a Ray client), and a child forked while another thread holds a lock can
hang on it forever; spawn starts clean, which is why it is the default everywhere but Linux and
why Python 3.14 stopped forking there too. Spawned processes see this process's ``sys.path``; ``fn``
travels as :mod:`.ship` says.
"""

from __future__ import annotations

import math
import multiprocessing
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from . import tasks
from .ship import dumps_fn

__all__ = ["run_serial", "run_pool"]


def run_serial(fn, points: list, bar) -> list:
    table = []
    for index, point in enumerate(points):
        try:
            results = tasks.call(fn, point)
        except Exception as exc:   # noqa: BLE001 - reraised as SweepError with its point
            raise tasks.failure(exc, point, index) from exc
        table.append(tasks.check_results(results, point, index))
        bar.update(1)
    return table


def _cloudpickle():
    try:
        import cloudpickle
    except ImportError:
        return None
    return cloudpickle


def run_pool(fn, points: list, bar, workers: int, chunk_size: int | None) -> list:
    blob = dumps_fn(fn, _cloudpickle())
    chunks = _chunks(points, chunk_size or math.ceil(len(points) / (4 * workers)))
    table = [None] * len(points)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending = {pool.submit(tasks.run_chunk, blob, chunk): chunk for chunk in chunks}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk = pending.pop(future)
                    for index, row in tasks.load_chunk(future.result(), points):
                        table[index] = row
                    bar.update(len(chunk))
        except BaseException:
            for future in pending:
                future.cancel()
            raise
    return table


def _chunks(points: list, size: int) -> list:
    """Consecutive ``(index, point)`` runs of ``size`` points (grid order within and across)."""
    indexed = list(enumerate(points))
    return [indexed[i:i + size] for i in range(0, len(indexed), size)]
