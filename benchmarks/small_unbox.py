"""What the step kernel's entry pays to unbox the world's reference, and what an interned name
would save (issue 31 item 5): two StructRef types alike but for their unboxing, one trivial
kernel each, called from Python alternately.

    PYTHONPATH=src python benchmarks/small_unbox.py [--rounds 15] [--calls 200000] [--json F]

Numba's structref unboxing (``numba.experimental.structref.define_boxing``) reads the proxy's
``_meminfo`` with ``PyObject_GetAttrString``: every call builds the name from a C string, hashes
it and misses CPython's type-attribute cache, which keys on the name's address (under
callgrind, 1,042 instructions of the step entry's 1,707 a call besides the kernel:
BENCHMARKS.md, ``small41``). ``interned`` unboxes the same proxy through one interned name
object kept in a global of the compiled module, so the lookup hits the cache: the engine's own
unboxing since session 17 (``world_ref.unbox_by_interned_name``; it loads from Numba's cache
as well: checked with ``cache=True`` in a scratch copy). The kernels take the reference, a float and an int and
return an int, as the step kernel's entry does (``step_kernel(world, dt, phase)``), and release
the GIL as it does; each reads one field, so the work besides the call is nil. CPU ns a call (``time.process_time``), least and median of the
rounds, the two types alternating round by round.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from numba import njit, types
from numba.experimental import structref
from numba.extending import unbox

from impulse2d._dynamics.world_ref import numba_boxed, unbox_by_interned_name


class Plain(structref.StructRefProxy):
    pass


class Interned(structref.StructRefProxy):
    pass


@structref.register
class PlainType(types.StructRef):
    """Unboxed by Numba's own code (the step's reference until session 17)."""


@structref.register
class InternedType(numba_boxed(Interned)):
    """Unboxed through an interned ``_meminfo``, as the engine's reference is since session 17
    (:func:`impulse2d._dynamics.world_ref.unbox_by_interned_name`), boxed by Numba's code."""


structref.define_boxing(PlainType, Plain)
unbox(InternedType)(unbox_by_interned_name)  # the engine's (world_ref.py)


FIELDS = [("rows", types.Array(types.int64, 1, "C"))]
PLAIN = PlainType(FIELDS)
INTERNED = InternedType(FIELDS)


@njit
def _new_plain(rows):
    r = structref.new(PLAIN)
    r.rows = rows
    return r


@njit
def _new_interned(rows):
    r = structref.new(INTERNED)
    r.rows = rows
    return r


@njit(nogil=True)
def _call(ref, dt, phase):
    return ref.rows[phase] + int(dt)


def _entry(ref, dt, phase):
    """The compiled entry point for these argument types (as ``DirectCall`` calls it)."""
    _call(ref, dt, phase)
    sig = tuple(_call.typeof_pyval(a) for a in (ref, dt, phase))
    return _call.overloads[sig].entry_point


def _time(entry, ref, calls: int) -> float:
    dt = 1.0 / 60.0
    t = time.process_time()
    for _ in range(calls):
        entry(ref, dt, 0)
    return 1e9 * (time.process_time() - t) / calls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--calls", type=int, default=200_000)
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = np.arange(4, dtype=np.int64)
    refs = {"plain": _new_plain(rows), "interned": _new_interned(rows)}
    entries = {k: _entry(r, 1.0 / 60.0, 0) for k, r in refs.items()}
    assert all(e(refs[k], 2.0, 1) == 3 for k, e in entries.items())
    ns = {k: [] for k in refs}
    for r in range(args.rounds):
        for k in (("plain", "interned") if r % 2 == 0 else ("interned", "plain")):
            ns[k].append(_time(entries[k], refs[k], args.calls))
    out = {"what": "CPU ns a call of a trivial nogil kernel taking (reference, float, int), "
                   "least / median of the rounds", "rounds": args.rounds, "calls": args.calls}
    for k, v in ns.items():
        out[k] = {"least": round(min(v), 1), "median": round(statistics.median(v), 1)}
    out["saved_least"] = round(out["plain"]["least"] - out["interned"]["least"], 1)
    out["saved_median"] = round(out["plain"]["median"] - out["interned"]["median"], 1)
    print(json.dumps(out))
    if args.json:
        with open(args.json, "w") as f:
            f.write(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
