"""Sweeps: a function run over a grid of settings, scenes and seeds, here or on a Ray cluster,
returning a table of the settings and the results.

>>> from impulse2d import sweep
>>> def square(x, offset):
...     return {"y": x * x + offset}
>>> table = sweep.run(square, {"x": [1, 2], "offset": [0, 10]}, progress=False)
>>> [row["y"] for row in table]
[1, 11, 4, 14]

``fn(**point)`` returns a dict of results; a row of the table is the point and its results
side by side. The grid is a dict of lists (their product; the first key varies slowest) or a
list of dicts (:mod:`.grid`); rows come back in grid order whatever the backend, and each
backend computes the same values, bit for bit (``fn`` is called the same way everywhere, with the
global random generators seeded from the point's ``seed``: :mod:`.tasks`). A function whose
result depends only on its arguments (an impulse2d world built and stepped from them is one:
its step is deterministic) therefore gives one table whether it ran here or on a cluster.

Backends: ``"local"``, serially in this process, or on ``workers`` spawned processes
(:mod:`.local` says why each); ``"ray"``, as Ray tasks on a cluster that this process already
joined, one at ``ray_address``, or a local one that the sweep starts and stops
(:mod:`.ray_backend`; ``pip install 'impulse2d[sweep]'``).

The table as columns, or as a CSV file: :func:`columns`, :func:`write_csv`.
"""

from __future__ import annotations

import inspect
import numbers

from .grid import points
from .table import columns, write_csv
from .tasks import SweepError

__all__ = ["run", "points", "columns", "write_csv", "SweepError"]

BACKENDS = ("local", "ray")


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(progress, total: int, desc: str | None):
    if not progress:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError as exc:
        raise ImportError("progress=True draws a progress bar with tqdm: pip install "
                          "'impulse2d[sweep]' (or pass progress=False)") from exc
    return tqdm(total=total, desc=desc, unit="point")


def _check_signature(fn, pts: list) -> None:
    """Every point binds to ``fn``'s parameters, checked before anything runs (a misspelt key
    fails now, not after an hour on a cluster)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return                     # a builtin or C function without a signature: fn will say
    for i, point in enumerate(pts):
        try:
            signature.bind(**point)
        except TypeError as exc:
            raise TypeError(f"point #{i} {point!r} does not fit fn{signature}: {exc}") from None


def _check_count(value, name: str, minimum: float, integer: bool = True):
    if value is None:
        return None
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        raise TypeError(f"{name} must be {'an int' if integer else 'a number'}, not "
                        f"{type(value).__name__} {value!r}")
    if not value >= minimum:
        raise ValueError(f"{name} must be >= {minimum}, not {value}")
    return value


def run(fn, grid, backend: str = "local", *, seeds=None, progress: bool = True,
        desc: str | None = None, workers: int | None = None, ray_address: str | None = None,
        num_cpus: int | None = None, task_cpus: float = 1, chunk_size: int | None = None,
        ray_remote_args: dict | None = None, ray_init_args: dict | None = None) -> list[dict]:
    """Run ``fn(**point)`` at every point of ``grid``; return the rows (point + results) in grid
    order.

    Parameters
    ----------
    fn
        A callable taking the grid's keys as keyword arguments and returning a dict of results
        whose keys are strings that are not keys of the point.
    grid
        A dict of lists (every combination; the first key varies slowest, the last fastest) or a
        list of dicts (one point each, in order). See :func:`points`.
    backend
        ``"local"`` (this machine) or ``"ray"`` (Ray tasks).
    seeds
        None, a count ``n`` or a list of ints: repeats each point once per seed with a ``seed``
        key (the innermost loop). A point's ``seed`` also seeds Python's and NumPy's global
        random generators before ``fn`` is called there.
    progress, desc
        Show a tqdm progress bar (to stderr), labelled ``desc``.
    workers
        ``backend="local"`` only: None or 1 runs the points one after another in this process;
        ``n > 1`` on a pool of ``n`` spawned processes.
    ray_address, num_cpus
        ``backend="ray"`` only, when this process has not called ``ray.init`` itself: the
        cluster to join (None: ``RAY_ADDRESS`` if set, else a new local cluster), and the CPUs of
        a local cluster the sweep starts (None: all of this machine's).
    task_cpus
        ``backend="ray"``: CPUs each task reserves (the threads ``fn`` runs).
    chunk_size
        Points per task (Ray) or per job (the pool); None: about four chunks per CPU slot.
    ray_remote_args
        More options for the Ray tasks (``ray.remote(...).options(**ray_remote_args)``), e.g.
        ``{"runtime_env": {...}, "max_retries": 0}``.
    ray_init_args
        More arguments for ``ray.init`` when the sweep calls it, e.g.
        ``{"runtime_env": {"working_dir": "."}, "logging_level": "ERROR"}``.

    Raises
    ------
    TypeError, ValueError
        For a bad argument or grid, or a point that does not fit ``fn``'s signature, before any
        point runs.
    SweepError
        When ``fn`` raises at a point (the exception is its ``__cause__``; ``.point`` and
        ``.index`` say where) or returns something that is not a dict of new result names.
    """
    if not callable(fn):
        raise TypeError(f"fn must be callable (a function of the grid's keys), not "
                        f"{type(fn).__name__} {fn!r}")
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, not {backend!r}")
    _check_count(workers, "workers", 1)
    _check_count(num_cpus, "num_cpus", 1)
    _check_count(chunk_size, "chunk_size", 1)
    _check_count(task_cpus, "task_cpus", 0, integer=False)
    if task_cpus == 0:
        raise ValueError("task_cpus must be > 0 (a task that reserves no CPU is not limited by "
                         "the cluster's size, and the tasks oversubscribe the cores)")
    ray_only = {"ray_address": ray_address, "num_cpus": num_cpus,
                "ray_remote_args": ray_remote_args, "ray_init_args": ray_init_args}
    given = [name for name, value in ray_only.items() if value is not None]
    if backend == "local" and given:
        raise ValueError(f"{', '.join(given)} apply to backend='ray'; the local backend's "
                         "parallelism is workers=")
    if backend == "ray" and workers is not None:
        raise ValueError("workers applies to backend='local'; a Ray sweep runs on the "
                         "cluster's CPUs (num_cpus= for a local cluster it starts)")
    for name in ("ray_remote_args", "ray_init_args"):
        if ray_only[name] is not None and not isinstance(ray_only[name], dict):
            raise TypeError(f"{name} must be a dict, not {type(ray_only[name]).__name__}")
    pts = points(grid, seeds)
    _check_signature(fn, pts)
    if backend == "ray":
        from .ray_backend import import_ray
        import_ray()               # a missing Ray is reported before the bar is drawn
    bar = _bar(progress, len(pts), desc)
    try:
        if backend == "ray":
            from .ray_backend import run_ray
            return run_ray(fn, pts, bar, address=ray_address, num_cpus=num_cpus,
                           task_cpus=task_cpus, chunk_size=chunk_size,
                           remote_args=ray_remote_args, init_args=ray_init_args)
        from .local import run_pool, run_serial
        if workers is None or workers == 1:
            return run_serial(fn, pts, bar)
        return run_pool(fn, pts, bar, workers, chunk_size)
    finally:
        bar.close()
