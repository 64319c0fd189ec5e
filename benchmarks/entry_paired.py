"""The contact passes' entry as main compiles it (calling the pass kernels, which take the
constraint and body stores by value) against the passes compiled into the entry, in one
process: both compiled afresh here (``cache=False``), called by address over the same cuts of
a settled rain's rows (:mod:`threads_cut`'s ``one`` and ``aligned``), interleaved round by round
(issue 31 item 4; BENCHMARKS.md, session 18, ``thr43``).

    PYTHONPATH=src python benchmarks/entry_paired.py [--precision float64] [--rounds 40]
        [--json out.json]

Cycle counter around each pass, minimum over the rounds, one thread: the cut's call cost is
``aligned`` minus ``one`` over the extra calls; the passes' own is ``one``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engines  # noqa: E402
import run  # noqa: E402
import threads_cut  # noqa: E402
from big_stages import cycles_per_us  # noqa: E402
from impulse2d._core.jit import cycles  # noqa: E402
from impulse2d._dynamics import contact_lanes, contact_lanes_f32  # noqa: E402
from impulse2d._dynamics.contact_lanes import (LANE_MODE, LANE_SOLVE, LANE_WARM_START,  # noqa: E402
                                               _solve, _warm_start)
from impulse2d._dynamics.contact_lanes_f32 import float32_view  # noqa: E402
from impulse2d._dynamics.lane_layout import flat_lanes  # noqa: E402
from impulse2d._dynamics.verbs import LANES_SIGNATURE, call_lanes  # noqa: E402
from impulse2d._dynamics.world_ref import borrow, sync_constraints  # noqa: E402


def inlined(view, mode):
    """The entry (``lanes_entry``, or ``lanes_f32_entry`` without its other verbs: not timed)
    with the passes compiled in, on the lanes ``view(cs)``, its ``LANE_MODE`` ``mode``."""
    def entry(world, verb, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
              contact_speed, last_sweep, speed_cap):
        if verb == LANE_MODE:
            return mode
        cs = borrow(world, "constraints")
        bodies = borrow(world, "bodies")
        if verb == LANE_WARM_START:
            _warm_start(cs, bodies, view(cs), first, last)
        else:
            _solve(cs, bodies, view(cs), first, last, inv_h, use_bias, soft, baumgarte,
                   linear_slop, contact_speed, last_sweep, speed_cap)
        return 0.0

    return entry


def address(function) -> int:
    """``function`` compiled afresh for the entries' signature; its C wrapper's address."""
    d = numba.njit(cache=False, error_model="numpy", _nrt=False,
                   no_cpython_wrapper=True)(function)
    d.compile(LANES_SIGNATURE.args)
    res = d.overloads[LANES_SIGNATURE.args]
    address.keep.append(d)
    return res.library.get_pointer_to_function(res.fndesc.llvm_cfunc_wrapper_name)


address.keep = []


@numba.njit(_nrt=False)
def _timed(world, entry, ranges, verb, use_bias, last_sweep, inv_h, contact_speed, speed_cap):
    t0 = cycles()
    for k in range(ranges.shape[0]):
        call_lanes(entry, (world, verb, ranges[k, 0], ranges[k, 1], inv_h, use_bias, True, 0.0,
                           0.0, contact_speed, last_sweep, speed_cap))
    return cycles() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--precision", choices=("float64", "float32"), default="float64")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    main_entry = (contact_lanes.lanes_entry if a.precision == "float64"
                  else contact_lanes_f32.lanes_f32_entry)
    entries = {"main": address(main_entry.py_func),
               "inlined": address(inlined(flat_lanes, 1.0) if a.precision == "float64"
                                  else inlined(float32_view, 2.0))}
    name, params = run.SCENES["rain_2000"][:2]
    eng = engines.make_engine("impulse2d", {"solver_precision": a.precision, "threads": 2})
    eng.build(name, **params)
    world = eng.world
    for _ in range(threads_cut.SETTLE["rain_2000"]):
        world.step(engines.DT)
    sync_constraints(world)
    cs = world._constraints
    m = int(cs.count.shape[0])
    cuts = {c: r for c, r in threads_cut.cuts(threads_cut.solve_segments(world), m, 2).items()
            if c in ("one", "aligned")}
    s = world.settings
    h = engines.DT / s.substeps
    verbs = {"warm": (LANE_WARM_START, False, False), "biased": (LANE_SOLVE, True, False),
             "relax": (LANE_SOLVE, False, True)}
    best: dict = {}
    for _ in range(a.rounds):
        for e, entry in entries.items():
            for v, (verb, use_bias, last) in verbs.items():
                for c, ranges in cuts.items():
                    t = _timed(world._stores, entry, ranges, verb, use_bias, last, 1.0 / h,
                               float(s.contact_speed), 4.0 * float(s.max_linear_speed))
                    best[e, v, c] = min(best.get((e, v, c), 1 << 62), t)
    rate = cycles_per_us()
    out = {"precision": a.precision, "rows": m, "load": os.getloadavg()[0],
           "calls": {c: len(r) for c, r in cuts.items()}, "us": {}}
    print(f"rain_2000 {a.precision}, {m} rows, calls {out['calls']}, load {out['load']:.1f}")
    print("| entry | warm one / aligned | biased one / aligned | relax one / aligned |")
    print("|---|---|---|---|")
    for e in entries:
        row = {f"{v}_{c}": best[e, v, c] / rate for v in verbs for c in cuts}
        out["us"][e] = row
        print(f"| {e} | " + " | ".join(f"{row[v + '_one']:.1f} / {row[v + '_aligned']:.1f}"
                                       for v in verbs) + " |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
