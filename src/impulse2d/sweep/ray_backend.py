"""The Ray backend: chunks of points as Ray tasks, on an existing cluster or a local one.

**Which cluster.** If this process has already called ``ray.init``, the sweep uses that
connection and leaves it open. Otherwise it calls ``ray.init`` itself, with ``address`` (a
running cluster: ``"auto"``, ``"ray://host:10001"``, or None, which also joins the cluster named
by the ``RAY_ADDRESS`` environment variable and otherwise starts a local one on this machine
with ``num_cpus`` CPUs and no dashboard; ``init_args`` adds to these), and shuts it down again
when the sweep ends, whether it succeeded or not.

**Tasks.** ``fn`` is pickled once (:mod:`.ship`) and put in the object store; each task runs a
chunk of consecutive points (``tasks.run_chunk``) and asks for ``task_cpus`` CPUs (more than
one for a function that runs threads of its own, or the tasks oversubscribe the cores). A chunk
amortises Ray's per-task cost (Ray's guide: tasks under about 10 ms do not gain), and by
default a sweep makes about four chunks per CPU slot of the cluster, enough to balance points of
uneven cost. Results are collected in the order tasks finish (for the progress bar) and put in
grid order; the first failure is raised with its point.

**Stopping without ``ray.cancel``.** At most two chunks per CPU slot are in flight; the next is
submitted when one finishes. So a failure (or Ctrl-C) simply submits nothing more, and the few
chunks still running finish on their own and are dropped. ``ray.cancel`` is not used: cancelling
a task while its reply arrives trips a fatal check inside Ray's core worker that kills the
calling process ("Tried to complete task that was not pending", seen with Ray 2.60; Ray's PR
54798 fixed another path of the same race), and a sweep must not take its caller down.

Each worker process imports impulse2d and loads its compiled kernels once, at its first task;
on a cluster every node needs impulse2d installed (``runtime_env`` in ``ray_remote_args``, or the
cluster's image).
"""

from __future__ import annotations

import itertools
import math

from . import tasks
from .ship import dumps_fn

__all__ = ["run_ray", "import_ray"]


def import_ray():
    try:
        import ray
    except ImportError as exc:
        raise ImportError("backend='ray' needs Ray: pip install 'impulse2d[sweep]'") from exc
    return ray


def run_ray(fn, points: list, bar, *, address=None, num_cpus=None, task_cpus=1.0,
            chunk_size=None, remote_args=None, init_args=None) -> list:
    ray = import_ray()
    started = False
    if ray.is_initialized():
        if address is not None or num_cpus is not None or init_args is not None:
            raise ValueError("Ray is already initialized in this process, so the sweep uses that "
                             "cluster: ray_address, num_cpus and ray_init_args apply only when "
                             "sweep.run starts or joins one itself")
    else:
        if address is not None and num_cpus is not None:
            raise ValueError("num_cpus sizes a local cluster that sweep.run starts; it cannot "
                             f"resize the existing cluster at ray_address={address!r}")
        kwargs = {"address": address, "include_dashboard": False, **(init_args or {})}
        if num_cpus is not None:
            kwargs["num_cpus"] = num_cpus
        ray.init(**kwargs)
        started = True
    try:
        return _gather(ray, fn, points, bar, task_cpus, chunk_size, remote_args or {})
    finally:
        if started:
            ray.shutdown()


def _gather(ray, fn, points, bar, task_cpus, chunk_size, remote_args) -> list:
    slots = max(1, int(ray.cluster_resources().get("CPU", 1) // task_cpus))
    if chunk_size is None:
        chunk_size = math.ceil(len(points) / (4 * slots))
    indexed = list(enumerate(points))
    chunks = [indexed[i:i + chunk_size] for i in range(0, len(indexed), chunk_size)]
    remote = ray.remote(tasks.run_chunk).options(num_cpus=task_cpus, **remote_args)
    fn_ref = ray.put(dumps_fn(fn, ray.cloudpickle))
    window = 2 * slots              # chunks in flight: every slot busy, one more queued behind it
    waiting = iter(chunks)
    pending = {}
    table = [None] * len(points)

    def submit(count):
        for chunk in itertools.islice(waiting, count):
            pending[remote.remote(fn_ref, chunk)] = chunk

    submit(window)
    while pending:
        # whatever finished within 0.2 s (at least one): the bar moves, and the loop does not
        # rescan the pending references once per finished task
        done, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0.2)
        if not done:
            done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            chunk = pending.pop(ref)
            try:
                payload = ray.get(ref)
            except ray.exceptions.RayError as exc:   # the worker died, the node was lost...
                first, last = chunk[0][0], chunk[-1][0]
                raise tasks.SweepError(
                    f"the Ray task running points #{first}-#{last} failed: {exc}",
                    chunk[0][1], first) from exc
            for index, row in tasks.load_chunk(payload, points):
                table[index] = row
            bar.update(len(chunk))
        submit(len(done))
    return table
