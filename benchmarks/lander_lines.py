"""The cache lines a native LunarLander world-step touches, by array: read, written, asked for
by the batch's prefetch, and which of those the step never reads.

    NUMBA_DISABLE_JIT=1 PYTHONPATH=src python benchmarks/lander_lines.py [--num-envs 4] \
        [--warm 20] [--steps 200] [--json FILE]

Runs without the JIT (the step's kernels as Python, :mod:`.world_ref`'s plain references), so
that every store's array can be swapped for a view of the same bytes that records what is
indexed (:class:`Recorded`): ``--num-envs`` landers (seed 0, seeded random actions, restarts as
they come), ``--warm`` environment steps, then ``--steps`` more with every world-step's
``step_kernel`` call recorded (the step alone: not the batch's writes and views around it),
each array of the world's reference by the elements each index reads or writes (a view's
later reads count as the whole view read; a ufunc or ``np`` function over an array counts the
whole array read, or written as its ``out``). An element's lines are its bytes' addresses over
64: the same arrays as the compiled step's (the stores are Python's arrays, adopted by the
reference). Against each world-step's, the lines the compiled prefetch asks for
(:func:`prefetched_lines`). Printed and written: the means a world-step, by field and by array
(``steps_touched``: the share of world-steps that touched the array at all).

What this cannot see: the descriptors (the reference's payload: a Python object here), the
kernels' own stack and scratch (the batch kernel's, not the world's), and reads the Python
forms make that the compiled code does not (or the other way): a map of the lines, not a
count of misses (``lander_callgrind.py`` with ``--cache-sim=yes`` counts those)."""

from __future__ import annotations

import argparse
import json

import numpy as np

LINE = 64


class Recorded(np.ndarray):
    """A view of an array that records the lines each index reads or writes into ``LOG``."""

    LOG: dict = {}
    ON = [False]

    def __array_finalize__(self, obj):
        self._name = getattr(obj, "_name", "?")  # (a view of a recorded array: its name)

    def _mark(self, idx, what):
        if not Recorded.ON[0]:
            return
        base = np.asarray(self)
        flat = np.arange(base.size, dtype=np.int64).reshape(base.shape)
        chosen = np.atleast_1d(np.asarray(flat[idx] if idx is not None else flat)).ravel()
        first = base.ctypes.data + chosen * base.itemsize
        lines = set((first // LINE).tolist()) | set(((first + base.itemsize - 1) // LINE).tolist())
        Recorded.LOG.setdefault(self._name, {"r": set(), "w": set()})[what] |= lines

    def __getitem__(self, idx):
        self._mark(idx, "r")
        return np.asarray(self)[idx]

    def __setitem__(self, idx, value):
        self._mark(idx, "w")
        np.asarray(self)[idx] = value

    def __iter__(self):
        self._mark(None, "r")
        return iter(np.asarray(self))

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = []
        for x in inputs:
            if isinstance(x, Recorded):
                x._mark(None, "r")
                x = np.asarray(x)
            plain.append(x)
        out = kwargs.get("out")
        if out:
            kwargs["out"] = tuple(np.asarray(o) for o in out)
            for o in out:
                if isinstance(o, Recorded):
                    o._mark(None, "w")
        return getattr(ufunc, method)(*plain, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        def plain(x):
            if isinstance(x, Recorded):
                x._mark(None, "r")
                return np.asarray(x)
            if isinstance(x, (list, tuple)):
                return type(x)(plain(y) for y in x)
            return x
        return func(*plain(args), **{k: plain(v) for k, v in kwargs.items()})

    def copy(self, *a, **k):
        self._mark(None, "r")
        return np.asarray(self).copy(*a, **k)


def _recorded(value, name):
    """``value`` (an array, a tuple or a named tuple of them) with every array a recorded view
    named ``name`` (and its column's)."""
    if isinstance(value, np.ndarray):
        view = value.view(Recorded)
        view._name = name
        return view
    if isinstance(value, tuple):
        names = getattr(value, "_fields", None)
        items = [_recorded(v, f"{name}.{names[k] if names else k}") for k, v in enumerate(value)]
        return type(value)(*items) if names else tuple(items)
    return value


def arrays_of(stores):
    """``{name: array}`` of every array of a plain reference (``world._stores``), named by
    field and column."""
    out = {}

    def walk(value, name):
        if isinstance(value, np.ndarray):
            out[name] = value
        elif isinstance(value, tuple):
            names = getattr(value, "_fields", None)
            for k, v in enumerate(value):
                walk(v, f"{name}.{names[k] if names else k}")

    for field, value in vars(stores).items():
        walk(value, field)
    return out


def array_lines(a, rows=None, head=None):
    """The lines of array ``a`` over its first ``rows`` rows (all if None), and of each row
    only the first ``head`` bytes (all if None)."""
    n = a.shape[0] if a.ndim else 1
    if rows is not None:
        n = min(n, rows)
    if a.size == 0 or n == 0:
        return set()
    stride = a.strides[0] if a.ndim else a.itemsize
    data = a.ctypes.data
    if head is not None and 0 < head < stride:
        return {line for r in range(n)
                for line in range((data + r * stride) // LINE,
                                  (data + r * stride + head - 1) // LINE + 1)}
    return set(range(data // LINE, (data + n * stride - 1) // LINE + 1))


class _Fields:
    """A plain reference of the given fields alone (for :func:`arrays_of`)."""

    def __init__(self, fields):
        self.__dict__.update(fields)


def prefetched_lines(stores, body_rows, shape_rows, vertices):
    """``{name: lines}`` the compiled ``prefetch_world`` and ``prefetch_joints`` ask for of
    each array (the table's kinds and limits, the joint columns; no descriptors: they are the
    payload's), and whether the world has joints."""
    from impulse2d._dynamics import batch_step as bs
    from impulse2d._core.state import Bodies, Shapes
    asked = {}
    joints = any(len(a) for a in stores.joint_ids)
    for field in vars(stores):
        if field in bs.NOT_PREFETCHED:
            continue
        for name, a in arrays_of(_Fields({field: getattr(stores, field)})).items():
            column = name.split(".")[1] if "." in name else None
            if field == "bodies":
                if column in bs.UNREAD[Bodies]:
                    continue
                asked[name] = array_lines(a, body_rows or None)
            elif field == "shapes":
                if column in bs.UNREAD[Shapes]:
                    continue
                head = 16 * vertices if column in bs.BY_VERTEX[Shapes] else None
                asked[name] = array_lines(a, shape_rows or None, head or None)
            else:
                asked[name] = array_lines(a)
    if joints:  # prefetch_joints: the joint columns the step reads, up to the last listed row
        rows = 1 + max(int(a.max()) for a in stores.joint_ids if len(a))
        for column in bs.JOINT_COLUMNS:
            asked[f"joints.{column}"] = array_lines(getattr(stores.joints, column), rows)
    return asked, joints


def _record_step(world, dt, phase, step_kernel, tally):
    """``step_kernel(world, dt, phase)`` with each array of the reference recorded; the lines it
    touched, by array, added to ``tally`` against those the prefetch would have asked for."""
    from impulse2d._dynamics import batch_step as bs
    body_rows, shape_rows, vertices = bs._rows_after_step(world)
    asked, _ = prefetched_lines(world, body_rows, shape_rows, vertices)
    arrays = arrays_of(world)
    kept = dict(vars(world))
    wrapped = {field: _recorded(value, field) for field, value in kept.items()}
    for field, value in wrapped.items():
        setattr(world, field, value)
    Recorded.LOG = {}
    Recorded.ON[0] = True
    try:
        status = step_kernel(world, dt, phase)
    finally:
        Recorded.ON[0] = False
        for field, value in kept.items():  # (a field the step replaced keeps the new value)
            if getattr(world, field) is wrapped[field]:
                setattr(world, field, value)
    tally["steps"] += 1
    for name, a in arrays.items():
        r = Recorded.LOG.get(name, {}).get("r", set())
        w = Recorded.LOG.get(name, {}).get("w", set())
        p = asked.get(name, set())
        row = tally["arrays"].setdefault(name, dict.fromkeys(COUNTS, 0))
        for key, value in (("lines", len(array_lines(a))), ("read", len(r)),
                           ("written", len(w)), ("touched", len(r | w)), ("asked", len(p)),
                           ("asked_untouched", len(p - r - w)),
                           ("touched_unasked", len((r | w) - p)),
                           ("steps_touched", int(bool(r | w)))):
            row[key] += value
    return status


COUNTS = ("lines", "read", "written", "touched", "asked", "asked_untouched", "touched_unasked",
          "steps_touched")


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    import numba
    if not numba.config.DISABLE_JIT:
        raise SystemExit("run with NUMBA_DISABLE_JIT=1 (the stores' arrays recorded in Python)")
    from impulse2d._dynamics import batch_step as bs
    from impulse2d.envs.lunar_lander import LunarLanderVectorEnv
    env = LunarLanderVectorEnv(args.num_envs, max_episode_steps=1000, threads=1)
    env.reset(seed=0)
    space = env.action_space
    space.seed(0)
    from impulse2d import _step_entry
    step_kernel = bs.step_kernel
    tally = {"steps": 0, "arrays": {}}
    touching = 0
    for k in range(args.warm + args.steps):
        if k >= args.warm:  # (the batch's kernel, and World.step's for a world stepped alone)
            bs.step_kernel = _step_entry.step_kernel = (
                lambda world, dt, phase: _record_step(world, dt, phase, step_kernel, tally))
        try:
            out = env.step(space.sample())
        finally:
            bs.step_kernel = _step_entry.step_kernel = step_kernel
        if k >= args.warm:
            touching += int(np.count_nonzero(out[0][:, 6:8]))
    n = tally["steps"]
    rows = [{"array": name, **{key: round(v / n, 2) for key, v in row.items()}}
            for name, row in tally["arrays"].items()]
    total = {k: round(sum(row[k] for row in rows), 1) for k in COUNTS[:-1]}
    by_field = {}
    for row in rows:
        f = by_field.setdefault(row["array"].split(".")[0], dict.fromkeys(total, 0.0))
        for k in total:
            f[k] = round(f[k] + row[k], 2)
    result = {"num_envs": args.num_envs, "warm": args.warm, "steps": args.steps,
              "world_steps": n, "legs_touching_per_world_step": round(touching / n, 3),
              "per": "world-step (means)", "total": total, "by_field": by_field,
              "arrays": rows}
    print(f"{n} world-steps; legs touching a world-step {touching / n:.3f}; means a world-step")
    print(f"{'field':<16}" + "".join(f"{k:>17}" for k in total))
    for field, f in by_field.items():
        print(f"{field:<16}" + "".join(f"{f[k]:>17}" for k in total))
    print(f"{'total':<16}" + "".join(f"{total[k]:>17}" for k in total))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
