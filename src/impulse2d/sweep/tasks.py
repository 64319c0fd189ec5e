"""What happens at one point of a sweep, the same in this process, a spawned process or a Ray
worker, so that every backend computes the same table.

**Seeds.** A point that carries ``seed`` gets it as a keyword argument like any other key, and
before ``fn`` is called the process's global generators, Python's ``random`` and NumPy's legacy
``numpy.random``, are seeded from it. A function that draws from them (directly or through a
library) then gets the same numbers at the same point whichever process runs it and whatever
ran there before. A function that makes its own generator, ``np.random.default_rng(seed)``, needs
none of this. NumPy's legacy generator takes 32-bit seeds, so it is seeded with four words of
``SeedSequence(seed)`` (any non-negative int works, and seeds that differ give unrelated
streams). In this process the generators' states are put back afterwards, so a local sweep
leaves the caller's random streams where they were.

**Results** must be a dict with string keys that are not keys of the point (the table row is
point and results merged, and a result must not silently overwrite a setting).

**Chunks.** Other processes get a chunk of ``(index, point)`` pairs and ``fn`` pickled once, and
send back one pickle (``run_chunk``): the results, or the first exception with its traceback
as text. Pickling the results here, rather than letting Ray store them, hands the caller ordinary
writable arrays instead of read-only views of Ray's object store; pickle keeps floats and arrays
bit for bit.
"""

from __future__ import annotations

import contextlib
import pickle
import random
import traceback

import numpy as np

__all__ = ["SweepError", "call", "check_results", "run_chunk", "load_chunk"]


class SweepError(RuntimeError):
    """``fn`` raised (or returned something that is not a table row) at a point of a sweep.

    ``point``: the point's dict; ``index``: its place in the sweep's order; the exception ``fn``
    raised is ``__cause__``; ``remote_traceback``: its traceback as text when it was raised in
    another process (None here).
    """

    def __init__(self, message: str, point=None, index=None, remote_traceback=None):
        super().__init__(message)
        self.point = point
        self.index = index
        self.remote_traceback = remote_traceback


def _numpy_state(seed: int) -> np.ndarray:
    return np.random.SeedSequence(seed).generate_state(4)   # 4 uint32 words: RandomState's key


@contextlib.contextmanager
def _seeded(point: dict, restore: bool):
    if "seed" not in point:
        yield
        return
    saved = (random.getstate(), np.random.get_state()) if restore else None
    random.seed(int(point["seed"]))
    np.random.seed(_numpy_state(int(point["seed"])))
    try:
        yield
    finally:
        if saved is not None:
            random.setstate(saved[0])
            np.random.set_state(saved[1])


def call(fn, point: dict, restore_random: bool = True):
    """``fn(**point)`` with the global generators seeded from the point's seed, if it has one."""
    with _seeded(point, restore_random):
        return fn(**point)


def check_results(results, point: dict, index: int) -> dict:
    """The table row of ``point``: the point and ``fn``'s results merged, after the checks."""
    if not isinstance(results, dict):
        raise SweepError(f"fn returned {type(results).__name__} at point #{index} {point!r}; it "
                         "must return a dict of results (name -> value)", point, index)
    for key in results:
        if not isinstance(key, str):
            raise SweepError(f"fn's results at point #{index} {point!r} have the key {key!r}: "
                             "result names must be strings", point, index)
        if key in point:
            raise SweepError(f"fn's results at point #{index} {point!r} have the key {key!r}, "
                             "which is also a key of the point: rename the result (a row holds "
                             "the point and the results side by side)", point, index)
    return {**point, **results}


def failure(exc: BaseException, point: dict, index: int, remote_tb: str | None = None):
    """The SweepError that reports ``exc``, raised by ``fn`` at ``point``."""
    message = f"fn raised {type(exc).__name__}: {exc} at point #{index} {point!r}"
    if remote_tb:
        message += "\n\nTraceback in the process that ran it:\n" + remote_tb
    error = SweepError(message, point, index, remote_tb)
    error.__cause__ = exc
    return error


def run_chunk(fn_blob: bytes, chunk: list) -> bytes:
    """Run ``fn`` (pickled in ``fn_blob``) at each ``(index, point)`` of ``chunk``, in order, in a
    process other than the sweep's; see :func:`load_chunk` for what the returned pickle holds."""
    fn = pickle.loads(fn_blob)
    rows = []
    for index, point in chunk:
        try:
            results = call(fn, point, restore_random=False)
        except Exception as exc:   # noqa: BLE001 - sent back, raised by the sweep with its point
            return _dumps(("error", rows, index, _portable(exc), traceback.format_exc()))
        rows.append((index, results))
    try:
        return _dumps(("ok", rows, None, None, None))
    except Exception as exc:       # noqa: BLE001 - a result that cannot travel: say which point
        for index, results in rows:
            try:
                _dumps(results)
            except Exception:       # noqa: BLE001
                return _dumps(("error", [], index, _portable(exc), traceback.format_exc()))
        raise


def load_chunk(payload: bytes, points: list) -> list:
    """``(index, row)`` pairs from :func:`run_chunk`'s pickle, rows checked; raises the
    SweepError of a failed point."""
    status, rows, index, exc, tb = pickle.loads(payload)
    out = [(i, check_results(results, points[i], i)) for i, results in rows]
    if status == "error":
        raise failure(exc, points[index], index, tb)
    return out


def _dumps(obj) -> bytes:
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives a pickle round trip, else a RuntimeError naming its type."""
    try:
        pickle.loads(_dumps(exc))
        return exc
    except Exception:               # noqa: BLE001 - any failure to travel gets the stand-in
        return RuntimeError(f"{type(exc).__module__}.{type(exc).__name__}: {exc}")
