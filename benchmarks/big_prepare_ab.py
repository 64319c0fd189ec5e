"""The contact prepare (``contact_solver.prepare_rows``) of two source trees in one process, on
the same loaded world, interleaved, both compiled here from their source text (robust to the
drift between processes, which paired processes are not at a load of 5-20).

    PYTHONPATH=/work/ci-m/src python benchmarks/big_prepare_ab.py --a /work/ci-m/src [--b src]
        [--scenes pyramid_100,rain_2000,many_pyramids] [--reps 31] [--out FILE]

Each tree's ``prepare_rows`` and the helpers after it (up to ``flat``) are read from its
``_dynamics/contact_solver.py`` and compiled here with the imported package's lane layout and
``flat`` (the trees' layouts must be the same); the package (``PYTHONPATH``, e.g. the baseline's,
whose kernels are cached) steps the world. Each
runs in three forms, as the engine calls it: into the float64 lanes (``prepare_contacts``,
the soft step's prepare in a float64 world), into their float32 view (``prepare_f32_entry``, a
``solver_precision="float32"`` world's) and into the rows (a world solved row by row), every
touching contact of the world (``wide_solver.SCENES``: loaded, sleeping off) in its solve
order, on a fresh copy of the rows each time (made outside the clock), the trees in
alternating order, ``--reps`` times after one untimed round. Printed: the minimum and median
thread CPU of each, us, the ratios B / A of the minima and the median of the
repetitions' own ratios, and whether both left the same bits in the rows and lanes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numba
import numpy as np

from contact_stages import loaded_world
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics import lane_layout
from impulse2d._dynamics.contact_lanes_f32 import float32_view
from impulse2d._dynamics.contact_solver import flat
from impulse2d._dynamics.lane_layout import flat_lanes
from wide_solver import SCENES, _copy

# (no reference counting, as the engine's inline kernels: a helper inlined into a row loop of a
# counting caller would take and drop a reference to every array of the stores each row)
_JIT = '@numba.njit(cache=False, error_model="numpy", inline="always", _nrt=False)'
FORMS = ("lanes f64", "lanes f32", "rows")


def from_source(src):
    """Tree ``src``'s ``prepare_rows`` (and its helpers) compiled in this process."""
    path = Path(src) / "impulse2d" / "_dynamics" / "contact_solver.py"
    text = path.read_text()
    start = text.index("@inline_kernel\ndef prepare_rows(")
    if "\nPREPARE_BLOCK = " in text[:start]:  # (its block size, where it has one)
        start = text.index("\nPREPARE_BLOCK = ")
    code = text[start:text.index("@borrowing_kernel\ndef warm_start_contacts(", start)]
    code = code.replace("@inline_kernel\n", _JIT + "\n")
    space = {"numba": numba, "np": np, "DYNAMIC": DYNAMIC, "flat": flat, **vars(lane_layout)}
    exec(compile(code, str(path), "exec"), space)
    return space["prepare_rows"]


def forms(prepare):
    """The three calls of ``prepare`` (the soft step's softness of a 60 Hz step)."""
    @numba.njit(cache=False, error_model="numpy", _nrt=False)
    def run(cs, order, contacts, bodies, form):
        if form == 0:
            prepare(cs, flat_lanes(cs), order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0,
                    0.7, 0.3, True, 0, False)
        elif form == 1:
            prepare(cs, float32_view(cs), order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0,
                    0.7, 0.3, True, 0, True)
        else:
            prepare(cs, flat_lanes(cs), order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0,
                    0.7, 0.3, False, 0, False)

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="tree A's src directory")
    ap.add_argument("--b", default=str(Path(__file__).resolve().parent.parent / "src"),
                    help="tree B's src directory (this tree's)")
    ap.add_argument("--scenes", default="pyramid_100,rain_2000,many_pyramids")
    ap.add_argument("--reps", type=int, default=31)
    ap.add_argument("--out")
    args = ap.parse_args()
    trees = (forms(from_source(args.a)), forms(from_source(args.b)))
    out = {"what": "prepare_rows alone, every touching row of the loaded scene, thread CPU us",
           "a": args.a, "b": args.b, "load_before": os.getloadavg(),
           "scenes": {}}
    for key, scene, params, steps in SCENES:
        if key not in args.scenes.split(","):
            continue
        world = loaded_world(scene, params, steps)
        cs0, bodies, contacts = world._constraints, world._bodies, world._contacts
        order = cs0.contact.copy()
        times = {(f, t): [] for f in range(len(FORMS)) for t in (0, 1)}
        left = {}
        for rep in range(args.reps + 1):
            for f in range(len(FORMS)):
                for t in ((0, 1) if rep % 2 else (1, 0)):
                    cs = _copy(cs0)
                    c = time.thread_time()
                    trees[t](cs, order, contacts, bodies, f)
                    dt = time.thread_time() - c
                    left[(f, t)] = cs
                    if rep:
                        times[(f, t)].append(dt * 1e6)
        print(f"\n{key}: {order.shape[0]} rows (load {os.getloadavg()[0]:.1f})")
        print("| form | A min us | B min us | A median | B median | min ratio | "
              "median of ratios | same bits |")
        print("|---|---|---|---|---|---|---|---|")
        entry = {"rows": int(order.shape[0])}
        for f, name in enumerate(FORMS):
            a, b = times[(f, 0)], times[(f, 1)]
            same = all(np.array_equal(x, y) for x, y in zip(left[(f, 0)], left[(f, 1)]))
            ratios = [y / x for x, y in zip(a, b)]
            row = {"a_min": min(a), "b_min": min(b), "a_median": statistics.median(a),
                   "b_median": statistics.median(b), "min_ratio": min(b) / min(a),
                   "median_ratio": statistics.median(ratios), "same_bits": bool(same)}
            entry[name] = row
            print(f"| {name} | {row['a_min']:.0f} | {row['b_min']:.0f} | {row['a_median']:.0f} "
                  f"| {row['b_median']:.0f} | {row['min_ratio']:.3f} | {row['median_ratio']:.3f} "
                  f"| {same} |", flush=True)
        out["scenes"][key] = entry
    out["load_after"] = os.getloadavg()
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
