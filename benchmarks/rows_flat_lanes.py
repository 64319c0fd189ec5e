"""What ``flat_lanes`` costs a call: the lanes flattened by ``ndarray.reshape`` (main until
session 16) against the intrinsic ``lane_layout.flat`` (a header built from the array's), in
the kernels' cycles (the TSC).

    PYTHONPATH=src python benchmarks/rows_flat_lanes.py [--rows 128] [--reps 100000] \\
        [--rounds 6] [--json out.json]

Each form is a loop of ``--reps`` iterations that flattens a constraint store's lanes
(``contact_constraints(--rows)``: whole chunks of :data:`.lane_layout.FIELDS` doubles) and
reads one value of them (the iteration's, so that the loop cannot be folded); the forms
alternate ``--rounds`` times, each timed as the least of 5 runs. A pass calls ``flat_lanes``
once (each wide pass, the prepare, restitution and the store of a world solved in lanes: 15
calls a soft step of 4 substeps; the prepare of a world solved row by row: 1), so a form's
cycles an iteration less the other's is what the change saves a call.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numba
import numpy as np

from impulse2d._core.jit import cycles
from impulse2d._dynamics.contact_solver import contact_constraints
from impulse2d._dynamics.lane_layout import flat


@numba.njit(_nrt=False, cache=False)
def by_reshape(cs, reps):
    acc = 0.0
    t0 = cycles()
    for i in range(reps):
        lanes = cs.lanes.reshape(cs.lanes.size)
        acc += lanes[i % lanes.shape[0]]
    return cycles() - t0, acc


@numba.njit(_nrt=False, cache=False)
def by_flat(cs, reps):
    acc = 0.0
    t0 = cycles()
    for i in range(reps):
        lanes = flat(cs.lanes)
        acc += lanes[i % lanes.shape[0]]
    return cycles() - t0, acc


FORMS = {"reshape": by_reshape, "flat": by_flat}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=128)
    p.add_argument("--reps", type=int, default=100_000)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--json")
    args = p.parse_args(argv)
    cs = contact_constraints(args.rows)
    cs.lanes[...] = np.random.default_rng(0).random(cs.lanes.shape)
    sums = {tag: f(cs, 10)[1] for tag, f in FORMS.items()}  # compile
    assert sums["reshape"] == sums["flat"]
    got = {tag: [] for tag in FORMS}
    for r in range(args.rounds):
        for tag in (list(FORMS) if r % 2 == 0 else list(FORMS)[::-1]):
            best = min(FORMS[tag](cs, args.reps)[0] for _ in range(5))
            got[tag].append(best / args.reps)
    out = {"rows": args.rows, "reps": args.reps, "rounds": args.rounds,
           "load": os.getloadavg()[0],
           "cycles_an_iteration": {tag: {"least": round(min(xs), 2),
                                         "median": round(float(np.median(xs)), 2),
                                         "rounds": [round(x, 2) for x in xs]}
                                   for tag, xs in got.items()}}
    out["saved_a_call_median"] = round(out["cycles_an_iteration"]["reshape"]["median"]
                                       - out["cycles_an_iteration"]["flat"]["median"], 2)
    print(json.dumps(out, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
