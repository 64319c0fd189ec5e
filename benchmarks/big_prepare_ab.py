"""The contact prepares (``contact_solver.prepare_rows``, ``prepare_serial``) of two source
trees in one process, on the same loaded world, interleaved, both compiled here from their
source text (robust to the drift between processes, which paired processes are not at a load
of 5-20).

    PYTHONPATH=/work/ci-m/src python benchmarks/big_prepare_ab.py --a /work/ci-m/src [--b src]
        [--scenes pyramid_100,rain_2000,many_pyramids] [--reps 31] [--out FILE]

Each tree's prepares (``prepare_rows``, ``prepare_serial``) and their helpers (from
``row_softness`` to the warm start) are read from its ``_dynamics/contact_solver.py`` and
compiled here with its own ``lane_layout.py`` and ``velocities.py``, loaded as modules of their
own; the lanes' field offsets must be the same in both trees (trees of session 30 on: the
prepares as :func:`forms` calls them). The package (``PYTHONPATH``, e.g. the baseline's, whose
kernels are cached) steps the world. They run in three forms, as the engine calls them: into
the float64 lanes (``prepare_rows``, the soft step's prepare in a float64 world), into their
float32 view (``prepare_f32_entry``, a ``solver_precision="float32"`` world's) and into the rows
(``prepare_serial``, a world solved row by row), every
touching contact of the world (``wide_solver.SCENES``: loaded, sleeping off) in its solve
order, on a fresh copy of the rows each time (made outside the clock), the trees in
alternating order, ``--reps`` times after one untimed round. Printed: the minimum and median
thread CPU of each, us, the ratios B / A of the minima and the median of the
repetitions' own ratios, and whether both left the same bits in the rows and lanes (the
lanes of a missing second point zeroed before the prepare, as the packed prepare writes them
and the earlier ones left them).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

import numba
import numpy as np

from contact_stages import loaded_world
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics import lane_layout
from impulse2d._dynamics.contact_lanes_f32 import float32_view
from impulse2d._dynamics.lane_layout import flat_lanes
from wide_solver import SCENES, _copy

# (no reference counting, as the engine's inline kernels: a helper inlined into a row loop of a
# counting caller would take and drop a reference to every array of the stores each row)
_JIT = '@numba.njit(cache=False, error_model="numpy", inline="always", _nrt=False)'
FORMS = ("lanes f64", "lanes f32", "rows")


def _tree_module(src, name, renames=()):
    """Tree ``src``'s ``_dynamics/NAME.py`` loaded as a module of this package's ``_dynamics``
    of its own name (its relative imports are this package's; ``renames``: pairs of module
    names its imports take from the same tree instead)."""
    path = Path(src) / "impulse2d" / "_dynamics" / f"{name}.py"
    alias = f"impulse2d._dynamics._ab_{name}_{abs(hash(str(Path(src).resolve())))}"
    text = path.read_text()
    for old, new in renames:
        text = text.replace(f"from .{old} import", f"from .{new.rsplit('.', 1)[1]} import")
    # compiled from a copy outside the package: its kernels' cache entries (Numba's, beside the
    # copy) must not join the tree's own, whose loads would then import this module
    copy = Path(tempfile.mkdtemp(prefix="big_prepare_ab_")) / path.name
    copy.write_text(text)
    module = types.ModuleType(alias)
    module.__file__ = str(copy)
    module.__package__ = "impulse2d._dynamics"
    sys.modules[alias] = module
    exec(compile(text, str(copy), "exec"), module.__dict__)
    return module


def from_source(src):
    """Tree ``src``'s prepares (``prepare_rows``, ``prepare_serial`` and their helpers, from
    ``row_softness`` to the warm start) compiled in this process with its own lane layout:
    (prepare_rows, prepare_serial)."""
    path = Path(src) / "impulse2d" / "_dynamics" / "contact_solver.py"
    text = path.read_text()
    start = text.index("@inline_kernel\ndef row_softness(")
    code = text[start:re.search(r"^@\w+\ndef warm_start_contacts\(", text, re.M).start()]
    code = code.replace("@inline_kernel\n", _JIT + "\n").replace("@borrowing_kernel\n",
                                                                 _JIT + "\n")
    layout = _tree_module(src, "lane_layout")
    velocities = _tree_module(src, "velocities")
    space = {"numba": numba, "np": np, "DYNAMIC": DYNAMIC, **vars(layout), **vars(velocities)}
    exec(compile(code, str(path), "exec"), space)
    return space["prepare_rows"], space["prepare_serial"]


SOFT = (60.0, 0.8, 0.2)
STATIC = (90.0, 0.7, 0.3)
"""The soft step's softness of a 60 Hz step: (bias rate, mass scale, impulse scale) of a
contact between dynamic bodies, and of one with a static body."""


def forms(prepares):
    """The three calls of a tree's prepares (``clear_missing`` as the engine passes it: the
    float32 lanes only)."""
    prepare_rows, prepare_serial = prepares

    @numba.njit(cache=False, error_model="numpy", _nrt=False)
    def run(cs, order, contacts, bodies, form):
        if form == 0:
            prepare_rows(cs, flat_lanes(cs), order, contacts, bodies, True, SOFT, STATIC, 0,
                         False)
        elif form == 1:
            prepare_rows(cs, float32_view(cs), order, contacts, bodies, True, SOFT, STATIC, 0,
                         True)
        else:
            prepare_serial(cs, order, contacts, bodies, 0, True, SOFT, STATIC)

    return run


def _missing_cleared(cs, contacts, order):
    """``cs`` with the lanes of every missing second point zeroed: what the packed prepare
    (session 20) writes there, and the earlier prepares leave as they were in float64 lanes,
    so that the trees' bits can be compared."""
    lanes = cs.lanes.reshape(-1)
    for q in np.flatnonzero(contacts.count[order] < 2):
        start = q // lane_layout.CHUNK * lane_layout.CHUNK
        r = (start * lane_layout.FIELDS + (q - start)
             + int(lane_layout.RAX + lane_layout.POINT_STEP))
        for f in range(lane_layout.POINT_FIELDS):
            lanes[r + f * lane_layout.CHUNK] = 0.0
    return cs


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
        cs0 = _missing_cleared(_copy(cs0), contacts, order)
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
