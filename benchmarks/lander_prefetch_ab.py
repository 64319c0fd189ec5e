"""The batch kernel's prefetch of the next world, by variant, on the native LunarLander: paired
CPU per vector step at one thread, in one process, and the bits of every step.

    PYTHONPATH=src python benchmarks/lander_prefetch_ab.py [--num-envs 1024] [--steps 300] \
        [--variants main,none] [--threads 1] [--json FILE]

Each variant is :func:`impulse2d._dynamics.batch_step.step_batch` with another
``prefetch_world`` before each world's step (``main``: the module's own kernel, from its
cache; the others compiled here without a cache, from the module's own ``_walk`` and
``step_batch`` with that global replaced, linking the same step kernel), each stepping a
``LunarLanderVectorEnv`` of its own (``--num-envs`` landers, reset with seed 0, the same seeded
random actions, resets as they come). Every vector step each variant steps its environment
once, in an order rotated from step to step, timed by the calling thread's CPU clock
(``time.thread_time_ns``; one thread, so that clock holds the whole batch kernel): the
variants' steps are milliseconds apart, so the machine's drift cancels out of the ratios.
Printed: each variant's ns per environment step (the mean over the steps and the median), the
median over the steps of the first variant's CPU over each other's, and whether every
observation, reward and flag was equal bit for bit to the first variant's (a prefetch reads and
writes nothing: they must be).

``--threads 2``: each environment on two threads, handed each step through the batch's pool
(no crew: a crew's helper stays inside one call of one kernel for the batch's life), so that
both threads call the variant's kernel; each step is timed by the wall clock too (the
calling thread's CPU holds its share of the worlds only), and the ratios are the wall's: run
it at real-time priority on a loaded machine: ``--rt N`` sets every thread of the process to
``SCHED_FIFO`` priority ``N`` after the untimed steps (the variants compiled, the pool's
threads made), where ``chrt`` would hold a core through the compiles too.

Variants:

* ``main``: the module's ``prefetch_world``;
* ``none``: nothing prefetched but what ``_walk`` asks for itself (the references' headers and
  payloads);
* ``unrolled``: session 26's form (the same lines, one loop a column, unrolled by Numba over
  the stores' ~150 arrays: ``literal_unroll``);
* any other name: ``make_prefetch(name)`` of the file :data:`PROTOTYPE` (the environment's
  ``LANDER_PREFETCH_PROTOTYPE``; session 27's: ``lander_prefetch_variants.py``), a variant's
  ``prefetch_world``, and its ``WALK[name]``, if any, an edit of ``_walk``'s source (a function
  of the source), compiled with the file's ``GLOBALS``, if any, among the module's.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import os
import sys
import textwrap
import time
import types as pytypes

import numba
import numpy as np
from numba import literal_unroll

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

PROTOTYPE = os.environ.get("LANDER_PREFETCH_PROTOTYPE", "")


def _variant_step_batch(bs, prefetch, edit=None, extra=None):
    """``bs.step_batch`` compiled here (no cache) with ``prefetch`` as its ``prefetch_world``
    (and its ``_walk``'s source edited by ``edit``, if given, with the globals ``extra``)."""
    g = dict(bs.__dict__)
    g["prefetch_world"] = prefetch
    g.update(extra or {})
    if edit is None:
        walk = bs._walk.py_func
    else:
        source = textwrap.dedent(inspect.getsource(bs._walk.py_func))
        source = edit(source[source.index("def _walk"):])
        exec(compile(source, bs.__file__, "exec"), g)
        walk = g["_walk"]
    walk = numba.njit(pytypes.FunctionType(walk.__code__, g, "_walk"),
                      no_cpython_wrapper=True, no_cfunc_wrapper=True, error_model="numpy",
                      cache=False)
    g["_walk"] = walk
    step = numba.njit(pytypes.FunctionType(bs.step_batch.py_func.__code__, g, "step_batch"),
                      no_cfunc_wrapper=True, nogil=True, error_model="numpy", cache=False)
    return bs.DirectCall(step, "a variant of the batch step", bs.BATCH_SECONDS)


def unrolled_prefetch(bs):
    """Session 26's ``prefetch_world``: a loop a column, unrolled over the stores' arrays."""
    jit = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                     error_model="numpy", cache=False)
    inline = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                        error_model="numpy", cache=False, inline="always")
    from batch_prefetch_ab import _read_columns, _row_span

    @inline
    def rows_of(array, rows):
        first, end = _row_span(array, rows)
        for address in range(first, end, bs.LINE):
            bs._prefetch_line(address)

    @inline
    def heads_of(array, rows, head):
        stride = array.strides[0]
        if head <= 0 or head >= stride:
            rows_of(array, rows)
        else:
            n = array.shape[0] if rows <= 0 or rows > array.shape[0] else rows
            row = array.ctypes.data
            for _ in range(n):
                for address in range(row - row % bs.LINE, row + head, bs.LINE):
                    bs._prefetch_line(address)
                row += stride

    @jit
    def unrolled(refs, j, body_rows, shape_rows, vertices):
        world = bs._world_at(refs, j)
        head = bs._reference_head(refs, j)
        for column in literal_unroll(_read_columns(bs.borrow(world, "bodies"))):
            rows_of(column, body_rows)
        shapes = bs.borrow(world, "shapes")
        for column in literal_unroll(_read_columns(shapes)):
            rows_of(column, shape_rows)
        heads_of(shapes.vertices, shape_rows, 16 * vertices)
        heads_of(shapes.normals, shape_rows, 16 * vertices)
        for column in literal_unroll(bs.borrow(world, "contacts")):
            rows_of(column, 0)
        for column in literal_unroll(bs.borrow(world, "constraints")):
            rows_of(column, 0)
        joints = False
        for column in literal_unroll(bs.borrow(world, "joint_ids")):
            rows_of(column, 0)
            joints = joints or column.shape[0] > 0
        if joints:
            first, end = bs._descriptors_span(head, "joints")
            for address in range(first - first % bs.LINE, end, bs.LINE):
                bs._prefetch_line(address)
        for column in literal_unroll(bs.borrow(world, "static_grid")):
            rows_of(column, 0)
        for column in literal_unroll(bs.borrow(world, "resting")):
            rows_of(column, 0)
        rows_of(bs.borrow(world, "no_collide"), 0)
        rows_of(bs.borrow(world, "clock"), 0)
        rows_of(bs.borrow(world, "verbs"), 0)
        rows_of(bs.borrow(world, "lengths"), 0)
        rows_of(bs.borrow(world, "settings"), 0)
        rows_of(bs.borrow(world, "awake_state"), 0)
        rows_of(bs.borrow(world, "awake_bodies"), 0)
        rows_of(bs.borrow(world, "awake_shapes"), 0)
        rows_of(bs.borrow(world, "awake_contacts"), 0)
        rows_of(bs.borrow(world, "contact_edges"), 0)
    return unrolled


def variants(bs, names):
    """Each variant's batch step (a ``DirectCall``), by name."""
    jit = numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                     error_model="numpy", cache=False)

    @jit
    def nothing(refs, j, body_rows, shape_rows, vertices):
        return

    made = {}
    for name in names:
        if name == "main":
            made[name] = bs._step_batch
        elif name == "none":
            made[name] = _variant_step_batch(bs, nothing)
        elif name == "unrolled":
            made[name] = _variant_step_batch(bs, unrolled_prefetch(bs))
        else:
            spec = importlib.util.spec_from_file_location("lander_prefetch_proto", PROTOTYPE)
            proto = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(proto)
            made[name] = _variant_step_batch(bs, proto.make_prefetch(name),
                                             getattr(proto, "WALK", {}).get(name),
                                             getattr(proto, "GLOBALS", {}))
    return made


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--variants", default="main,none")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rt", type=int, default=0,
                        help="SCHED_FIFO priority for the timed steps (0: none)")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    from impulse2d._dynamics import batch_step as bs
    from impulse2d.envs.lunar_lander import LunarLanderVectorEnv
    names = args.variants.split(",")
    calls = variants(bs, names)
    if args.threads > 1:
        from impulse2d import _crew
        _crew.ENABLED = False  # (the pool: each step's calls take the variant's kernel)
    envs = {}
    for name in names:
        env = LunarLanderVectorEnv(args.num_envs, max_episode_steps=1000,
                                   threads=args.threads)
        env.reset(seed=0)
        envs[name] = env
    space = envs[names[0]].action_space
    space.seed(0)
    actions = [space.sample() for _ in range(args.warm + args.steps)]
    cpu = {name: [] for name in names}
    wall = {name: [] for name in names}
    equal = {name: True for name in names}
    for k, action in enumerate(actions):
        if k == args.warm and args.rt:
            for tid in os.listdir("/proc/self/task"):
                os.sched_setscheduler(int(tid), os.SCHED_FIFO, os.sched_param(args.rt))
        order = names[k % len(names):] + names[:k % len(names)]
        out = {}
        for name in order:
            bs._step_batch = calls[name]
            t, w = time.thread_time_ns(), time.perf_counter_ns()
            out[name] = envs[name].step(action)
            t, w = time.thread_time_ns() - t, time.perf_counter_ns() - w
            if k >= args.warm:
                cpu[name].append(t)
                wall[name].append(w)
        first = out[names[0]]
        for name in names[1:]:
            for x, y in zip(first[:4], out[name][:4]):
                equal[name] = equal[name] and x.dtype == y.dtype and x.tobytes() == y.tobytes()
    bs._step_batch = calls["main"] if "main" in calls else bs._step_batch
    n = args.num_envs
    result = {"num_envs": n, "steps": args.steps, "threads": args.threads, "variants": names,
              "prototype": PROTOTYPE, "load": round(os.getloadavg()[0], 1),
              "bits_equal": equal}
    clock = cpu if args.threads == 1 else wall
    a = np.array(clock[names[0]]) / n
    for name in names:
        b = np.array(clock[name]) / n
        result[name] = {"ns_mean": round(float(b.mean()), 1),
                        "ns_median": round(float(np.median(b)), 1),
                        f"median_ratio_{names[0]}_over_this": round(float(np.median(a / b)), 4)}
    result["clock"] = "thread CPU" if args.threads == 1 else "wall"
    print(json.dumps(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
