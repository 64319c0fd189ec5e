"""The prepare and the passes' gather and scatter of two source trees in one process: the
baseline's copies compiled from its source text beside this tree's, timed interleaved on the
same loaded world (robust to this machine's drift between processes, which paired processes
are not at a load of 10-20).

    PYTHONPATH=src python benchmarks/lanes_prepare_ab.py --a /work/base/src
        [--scenes pyramid_100,rain_2000] [--reps 31] [--out FILE]

Tree A's ``prepare_contacts`` (``_dynamics/contact_solver.py``) and ``_gather`` / ``_scatter``
(``_dynamics/contact_lanes.py``) are read from its files and compiled here, calling this tree's
helpers (its row velocities' loads and stores, :mod:`impulse2d._dynamics.velocities`, and the
lanes' layout and writes, which must be the same in both trees: across session 12's
change of the layout, ``lanes37``, :mod:`lanes_bytes_ab` compiles each tree with its own);
this tree's are :mod:`contact_stages`' kernels. Each stage runs on fresh copies of the stores,
the trees in alternating order, ``--reps`` times after one untimed round; printed: the minimum
thread CPU of each, us, the ratio this tree / A, and whether both left the same bits in the
rows, lanes and bodies.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

import numba
import numpy as np

from contact_stages import _copy, _moves, _prepare, loaded_world
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics import lane_layout
from impulse2d._dynamics.contact_lanes import _piece
from impulse2d._dynamics.lane_layout import flat_lanes, scratch_chunk
from impulse2d._dynamics.velocities import load_flat_pair, store_flat_pair
from wide_solver import SCENES

_JIT = '@numba.njit(cache=False, _nrt=False, error_model="numpy", inline="always")'


WARM_START = re.compile(r"^@\w+\ndef warm_start_contacts\(", re.M)
"""Where the warm start's kernel begins, whatever its decorator (``@borrowing_kernel`` until
session 30, ``@inline_kernel`` since: ``contactX55``)."""


def _between(text, start, end):
    """``text`` from ``start`` up to ``end`` (a string, or a compiled pattern)."""
    stop = end.search(text).start() if isinstance(end, re.Pattern) else text.index(end)
    return text[text.index(start):stop]


def baseline(src):
    """Tree ``src``'s prepare and gather/scatter compiled in this process: (prepare, moves),
    called as :mod:`contact_stages`' ``_prepare`` and ``_moves``."""
    dyn = Path(src) / "impulse2d" / "_dynamics"
    solver = (dyn / "contact_solver.py").read_text()
    lanes = (dyn / "contact_lanes.py").read_text()
    code = (_between(solver, "@borrowing_kernel\ndef prepare_contacts", WARM_START)
            .replace("@borrowing_kernel\ndef prepare_contacts", _JIT + "\ndef prepare_a")
            + _between(lanes, "@inline_kernel\ndef _gather", "@intrinsic\ndef _select")
            .replace("@inline_kernel\ndef _gather(", _JIT + "\ndef gather_a(")
            .replace("@inline_kernel\ndef _scatter(", _JIT + "\ndef scatter_a("))
    # every other kernel of the copy plain too (the engine's decorators cache by source file)
    code = code.replace("@inline_kernel\n", _JIT + "\n").replace("@borrowing_kernel\n",
                                                                 _JIT + "\n")
    space = {"numba": numba, "np": np, "DYNAMIC": DYNAMIC, **vars(lane_layout),
             "load_flat_pair": load_flat_pair, "store_flat_pair": store_flat_pair}
    exec(compile(code, str(dyn), "exec"), space)
    prepare_a, gather_a, scatter_a = space["prepare_a"], space["gather_a"], space["scatter_a"]

    @numba.njit(cache=False, _nrt=False)
    def prepare(cs, order, contacts, bodies):
        prepare_a(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, True, 0)

    @numba.njit(cache=False, _nrt=False)
    def moves(cs, bodies, gaps):
        hi = np.uint64(cs.count.shape[0])
        lanes = flat_lanes(cs)
        scratch = scratch_chunk(lanes)
        lo = np.uint64(0)
        while lo < hi:
            end, start, base, i0, i1 = _piece(cs, lo, hi)
            gather_a(cs, lanes, scratch, bodies, base, start, i0, i1, gaps)
            scatter_a(cs, scratch, bodies, start, i0, i1)
            lo = end

    return prepare, moves


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True, help="tree A's src directory")
    ap.add_argument("--scenes", default="pyramid_100,rain_2000")
    ap.add_argument("--reps", type=int, default=31)
    ap.add_argument("--out")
    args = ap.parse_args()
    prepare_a, moves_a = baseline(args.a)
    out = {}
    for key, scene, params, steps in SCENES:
        if key not in args.scenes.split(","):
            continue
        world = loaded_world(scene, params, steps)
        cs0, bodies0, contacts0 = world._constraints, world._bodies, world._contacts
        order = cs0.contact.copy()
        calls = {
            "prepare": (lambda cs, b: prepare_a(cs, order, contacts0, b),
                        lambda cs, b: _prepare(cs, order, contacts0, b)),
            "gather+scatter": (lambda cs, b: moves_a(cs, b, False),
                               lambda cs, b: _moves(cs, b, False)),
            "gather(gaps)+scatter": (lambda cs, b: moves_a(cs, b, True),
                                     lambda cs, b: _moves(cs, b, True))}
        best, left = {}, {}
        for rep in range(args.reps + 1):
            for stage, pair in calls.items():
                for tree in ((0, 1) if rep % 2 else (1, 0)):
                    cs, bodies = _copy(cs0), _copy(bodies0)
                    t = time.thread_time()
                    pair[tree](cs, bodies)
                    dt = time.thread_time() - t
                    left[(stage, tree)] = (cs, bodies)
                    if rep:
                        best[(stage, tree)] = min(best.get((stage, tree), np.inf), dt)
        same = all(np.array_equal(x, y) for stage in calls for k in (0, 1)
                   for x, y in zip(left[(stage, 0)][k], left[(stage, 1)][k]))
        print(f"{key}: {order.shape[0]} rows, the same bits: {same}")
        print("| stage | A us | this tree us | this / A |")
        print("|---|---|---|---|")
        for stage in calls:
            a, b = best[(stage, 0)] * 1e6, best[(stage, 1)] * 1e6
            print(f"| {stage} | {a:.0f} | {b:.0f} | {b / a:.3f} |", flush=True)
        out[key] = {"rows": int(order.shape[0]), "same_bits": bool(same),
                    "us": {f"{s}/{'a' if t == 0 else 'this'}": v * 1e6
                           for (s, t), v in best.items()}}
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
