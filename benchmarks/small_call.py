"""What calling a compiled step costs from Python, by the piece, for issue 31 item 5 (the
kernel call's wrapper of a five-ball step): no-op kernels called as ``step_world`` calls the
step kernel, and the alternatives a cheaper call could take.

    PYTHONPATH=src python benchmarks/small_call.py [--rounds 15] [--json out.json]

Each variant is a no-op (or one store) kernel, so what is timed is the call alone: CPU ns per
call (``time.process_time`` over ``--calls`` calls), least and median of ``--rounds`` rounds,
the variants interleaved within each round:

* ``python``: a Python function of 8 arguments (the loop and the call's floor);
* ``step_like``: Numba's compiled entry (``DirectCall.entry``, the dispatcher's typing
  skipped) of a ``nogil`` kernel taking the world's stores' reference (``WorldStores``) and
  the step's 7 scalars, returning the step's 6-tuple: the step's call less its work;
* ``step_like_gil``: the same without releasing the GIL;
* ``array_8``: the same with a NumPy array in place of the reference (the reference's unboxing
  is the difference);
* ``ref_1``: the reference alone, an int returned (the scalars and the tuple are the
  difference);
* ``ctypes_1``: a ``cfunc`` of one pointer argument called through ``ctypes`` (a C function
  pointer, the GIL released as ``ctypes.CFUNCTYPE`` does): the call by address the issue asks
  about;
* ``around_6``: ``step_like`` with the Python around it in ``step_world``'s usual path (after
  its ready check): the arguments read from a world's ``__dict__`` (gravity unpacked, the dirty
  flag, the sleepers' test, the joint rows' flag), the 6-tuple unpacked, the tests and writes
  after it (the clock reads left out: ``perf_counter`` costs the same either way);
* ``around_1``: what issue 31 item 5's first step would leave of it: the reference, ``dt`` and
  the phase in (the kernel reading gravity, the dirty flag, the sleepers and the joint rows'
  flag itself), one value out, one test.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import os
import statistics
import sys
import time

import numba
import numpy as np
from numba import carray, types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
DT = 1.0 / 60.0


@numba.njit(nogil=True)
def _step_like(world, pairs_dirty, dt, gx, gy, has_sleepers, filtered, phase):
    return False, False, 0.0, 0, 0, 0


@numba.njit
def _step_like_gil(world, pairs_dirty, dt, gx, gy, has_sleepers, filtered, phase):
    return False, False, 0.0, 0, 0, 0


@numba.njit(nogil=True)
def _array_8(world, pairs_dirty, dt, gx, gy, has_sleepers, filtered, phase):
    world[0] += 1.0
    return False, False, 0.0, 0, 0, 0


@numba.njit(nogil=True)
def _ref_1(world):
    return 0


@numba.njit(nogil=True)
def _ref_3(world, dt, phase):
    return 0


@functools.cache
def _by_pointer():
    """A C callback (compiled on first use, not at import; kept for the process's life, its
    address called through ctypes)."""
    @numba.cfunc(types.int64(types.CPointer(types.float64)), nopython=True)
    def by_pointer(p):
        a = carray(p, (1,))
        a[0] += 1.0
        return 0
    return by_pointer


def _python(world, pairs_dirty, dt, gx, gy, has_sleepers, filtered, phase):
    return None


def _around_6(entry, d, stores, dt):
    """``step_world``'s usual path around the call (``d``: a world's ``__dict__``)."""
    rows = d["_joint_index"]
    gx, gy = d["_gravity"]
    contacts, constraints, joint_h, sleeping, fell, unswept = entry(
        stores, d["_pairs_dirty"], dt, gx, gy, d["_sleepers"] != 0, rows["filtered"], 0)
    if unswept > 0:
        raise AssertionError
    if contacts or constraints:
        raise AssertionError
    d["_pairs_dirty"] = False
    if sleeping >= 0:
        d["_step_seconds"] = 0.0
        if joint_h > 0.0:
            d["_joint_inv_h"] = 1.0 / joint_h
        d["_sleepers"] = sleeping
        d["_fell_asleep"] = fell
        if fell > 0 and d["_joint_handles"]:
            d["_joint_index"] = None


def _around_1(entry, d, stores, dt):
    """What :func:`_around_6` would be with the kernel reading its inputs and returning one
    value (0: nothing for Python to do)."""
    if entry(stores, dt, 0):
        raise AssertionError
    d["_step_seconds"] = 0.0


def _entry(dispatcher, *args):
    """The compiled entry point for ``args`` (as :class:`impulse2d._core.jit.DirectCall`)."""
    dispatcher(*args)
    return dispatcher.overloads[dispatcher.signatures[0]].entry_point


def variants() -> dict:
    from small_fixed import WORLDS
    world = WORLDS["restitution"]()
    for _ in range(5):
        world.step(DT)
    ref = world._stores
    array = np.zeros(1)
    scalars = (False, DT, 0.0, -10.0, False, False, 0)
    by_pointer = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)(_by_pointer().address)
    d = {"_joint_index": {"filtered": False}, "_gravity": (0.0, -10.0), "_pairs_dirty": False,
         "_sleepers": 0, "_fell_asleep": 0, "_step_seconds": 0.0, "_joint_inv_h": 240.0,
         "_joint_handles": {}}
    step_like = _entry(_step_like, ref, *scalars)
    return {
        "python": (_python, (ref, *scalars)),
        "step_like": (_entry(_step_like, ref, *scalars), (ref, *scalars)),
        "step_like_gil": (_entry(_step_like_gil, ref, *scalars), (ref, *scalars)),
        "array_8": (_entry(_array_8, array, *scalars), (array, *scalars)),
        "ref_1": (_entry(_ref_1, ref), (ref,)),
        "ctypes_1": (by_pointer, (array.ctypes.data,)),
        "around_6": (_around_6, (step_like, d, ref, DT)),
        "around_1": (_around_1, (_entry(_ref_3, ref, DT, 0), d, ref, DT)),
    }, world


def _time(fn, args, calls: int) -> float:
    t = time.process_time()
    for _ in range(calls):
        fn(*args)
    return (time.process_time() - t) / calls * 1e9


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    calls, world = variants()  # (the world keeps the reference alive)
    ns = {name: [] for name in calls}
    for _ in range(args.rounds):
        for name, (fn, fn_args) in calls.items():
            ns[name].append(_time(fn, fn_args, args.calls))
    out = {"load": os.getloadavg()[0], "rounds": args.rounds, "calls": args.calls,
           "ns": {name: {"least": round(min(v)), "median": round(statistics.median(v))}
                  for name, v in ns.items()}}
    for name, v in out["ns"].items():
        print(f"{name:14s} least {v['least']:5d} ns  median {v['median']:5d} ns")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
