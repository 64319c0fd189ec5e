"""The lanes' contact passes of two source trees in one process, timed interleaved on the same
loaded world's rows: each tree's prepare and passes compiled here from its source text, with
its own lane layout (robust to this machine's drift between processes, which paired processes
are not at a load of 10-20).

    PYTHONPATH=src python benchmarks/lanes_bytes_ab.py --a /work/base/src --b src
        [--scenes pyramid_100,rain_2000] [--reps 21] [--out FILE]

Each tree's ``_dynamics/lane_layout.py`` is executed as a module of its own, and its
``prepare_contacts`` (``contact_solver.py``) and passes (``contact_lanes.py``, from ``_gather``
to ``solve_contacts_wide``) are compiled from their text with that layout, without the cache
(the decorators made plain ``numba.njit``: the same route for both trees). The world is this
tree's engine's (:mod:`contact_stages`' ``loaded_world``, sleeping off); both trees' rows are
prepared from it into lanes of their own layout's width.

A repetition, per tree (the trees' order alternating), on the tree's lanes (made once, as a
world keeps them): the prepare (untimed: it leaves the lanes in the cache as a step's prepare
does), then a soft step's passes, timed one by one: 4 substeps (1/240 s) of a warm-start, a
biased and a relax pass, the last substep's two keeping their biases and unclamped impulses
in the rows (a tree whose passes always store them runs the same code for both). No
integration between them (the bodies do not move: the same rows' work each substep). Printed
per kind of pass, summed over the step (``warm``: 4, ``biased`` and ``relax``: 3 each, the
``+keep`` ones 1 each; ``step``: all 12): the minimum thread CPU over ``--reps`` repetitions,
us and ns a row, the ratio b / a of the minima and the median of the repetitions' ratios, and
whether both trees left the same bits in the bodies and in the rows' biases and unclamped
impulses.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import statistics
import time
import types as pytypes
from pathlib import Path

import numba
import numpy as np
from numba.core import types
from numba.extending import intrinsic

from contact_stages import loaded_world
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics.velocities import load_flat_pair, store_flat_pair
from wide_solver import SCENES, _copy

H = 1.0 / 240.0
_INLINE = '@numba.njit(cache=False, _nrt=False, error_model="numpy", inline="always")'
_KERNEL = '@numba.njit(cache=False, _nrt=False, error_model="numpy")'
PASSES = ("warm", "biased", "relax", "biased+keep", "relax+keep")
SUBSTEPS = 4
COUNT = {"warm": 4, "biased": 3, "relax": 3, "biased+keep": 1, "relax+keep": 1, "step": 12}
"""Passes of each kind a step runs (the ns a row printed are a pass's)."""


WARM_START = re.compile(r"^@\w+\ndef warm_start_contacts\(", re.M)
"""Where the warm start's kernel begins, whatever its decorator (``@borrowing_kernel`` until
session 30, ``@inline_kernel`` since: ``contactX55``)."""


def _between(text, start, end):
    """``text`` from ``start`` up to ``end`` (a string, or a compiled pattern)."""
    stop = end.search(text).start() if isinstance(end, re.Pattern) else text.index(end)
    return text[text.index(start):stop]


def _plain(code):
    """The engine's decorators as plain ``numba.njit``, without the cache."""
    return code.replace("@inline_kernel", _INLINE).replace("@borrowing_kernel", _KERNEL)


def load_tree(src, name):
    """Tree ``src``'s layout, prepare and passes compiled in this process: a namespace with
    ``FIELDS``, ``prepare(cs, order, contacts, bodies)``, ``run(cs, bodies, verb, keep)`` (verb
    0 warm, 1 biased, 2 relax; ``keep``: for a tree whose passes take it) and
    ``read_back(cs)`` (``rows_from_lanes``)."""
    dyn = Path(src) / "impulse2d" / "_dynamics"
    layout = pytypes.ModuleType(f"lanes_{name}_layout")
    text = (dyn / "lane_layout.py").read_text()
    text = text.replace("from .._core.jit import inline_kernel\n", "import numba\n")
    text = text.replace("from .._core.lazy import JIT", "JIT = True")
    exec(compile(_plain(text), str(dyn / "lane_layout.py"), "exec"), layout.__dict__)
    lanes_text = (dyn / "contact_lanes.py").read_text()
    solver_text = (dyn / "contact_solver.py").read_text()
    code = (_plain(_between(lanes_text, "@inline_kernel\ndef _gather",
                            "@entry_kernel\ndef lanes_entry"))
            + _plain(_between(lanes_text, "@inline_kernel\ndef _kept_impulses",
                              "@inline_kernel\ndef rows_for_diagnostics"))
            + _plain(_between(solver_text, "@borrowing_kernel\ndef prepare_contacts",
                              WARM_START)))
    space = dict(vars(layout))
    space.update(numba=numba, np=np, DYNAMIC=DYNAMIC, JIT=True, types=types,
                 intrinsic=intrinsic, load_flat_pair=load_flat_pair,
                 store_flat_pair=store_flat_pair)  # (this tree's: no layout of their own)
    exec(compile(code, f"{src} passes", "exec"), space)
    params = len(inspect.signature(space["solve_contacts_wide"].py_func).parameters)
    extra = ", keep, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3" if params > 12 else ""
    driver = f"""
@numba.njit(cache=False, _nrt=False)
def prepare(cs, order, contacts, bodies):
    prepare_contacts(cs, order, contacts, bodies, True, 60.0, 0.8, 0.2, 90.0, 0.7, 0.3, True, 0)


@numba.njit(cache=False, _nrt=False)
def run(cs, bodies, verb, keep):
    n = cs.count.shape[0]
    if verb == 0:
        warm_start_contacts_wide(cs, bodies, 0, n)
    elif verb == 1:
        solve_contacts_wide(cs, bodies, 0, n, {1.0 / H!r}, True, True, 0.0, 0.0, 3.0, False,
                            1600.0{extra})
    else:
        solve_contacts_wide(cs, bodies, 0, n, {1.0 / H!r}, False, True, 0.0, 0.0, 3.0, True,
                            1600.0{extra})


@numba.njit(cache=False, _nrt=False)
def read_back(cs):
    rows_from_lanes(cs)
"""
    exec(compile(driver, f"{src} driver", "exec"), space)
    return space


def _rows_out(tree, cs):
    """The rows' biases and unclamped impulses of the points that exist, as
    ``world.constraint_rows()`` reads them (the rows read back from the lanes first)."""
    tree["read_back"](cs)
    here = np.arange(2)[None, :] < cs.count[:, None]
    return cs.bias[here], cs.unclamped[here]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True, help="tree A's src directory")
    ap.add_argument("--b", required=True, help="tree B's src directory")
    ap.add_argument("--scenes", default="pyramid_100,rain_2000")
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--out")
    args = ap.parse_args()
    trees = (load_tree(args.a, "a"), load_tree(args.b, "b"))
    out = {"trees": [str(Path(args.a).resolve()), str(Path(args.b).resolve())],
           "fields": [t["FIELDS"] for t in trees], "reps": args.reps, "scenes": {}}
    for key, scene, params, steps in SCENES:
        if key not in args.scenes.split(","):
            continue
        world = loaded_world(scene, params, steps)
        cs0, bodies0, contacts0 = world._constraints, world._bodies, world._contacts
        order = cs0.contact.copy()
        n = order.shape[0]
        times = {(p, t): [] for p in PASSES + ("step",) for t in (0, 1)}
        left = {}
        loads = []
        # each tree's lanes made once and kept, as a world keeps them from step to step (fresh
        # ones fault their pages in during the passes: the prepare leaves a one-point row's
        # second point unwritten), their pages written before the first repetition
        lanes = []
        for tree in trees:
            rows = (n + tree["CHUNK"] - 1) // tree["CHUNK"] * tree["CHUNK"]
            lanes.append(np.empty((rows, tree["FIELDS"])))
            lanes[-1].fill(0.0)
        for rep in range(args.reps + 1):  # the first compiles
            for t in ((0, 1) if rep % 2 else (1, 0)):
                tree = trees[t]
                cs = _copy(cs0)._replace(lanes=lanes[t])
                bodies = _copy(bodies0)
                tree["prepare"](cs, order, contacts0, bodies)
                spent = dict.fromkeys(PASSES, 0.0)
                for substep in range(SUBSTEPS):
                    last = substep == SUBSTEPS - 1
                    for p, verb in (("warm", 0), ("biased+keep" if last else "biased", 1),
                                    ("relax+keep" if last else "relax", 2)):
                        start = time.thread_time()
                        tree["run"](cs, bodies, verb, last)
                        spent[p] += time.thread_time() - start
                spent["step"] = sum(spent.values())
                if rep:
                    for p, x in spent.items():
                        times[(p, t)].append(x)
                left[t] = (bodies.v.copy(), bodies.w.copy(), *_rows_out(tree, cs))
            loads.append(os.getloadavg()[0])
        same = all(np.array_equal(x, y) for x, y in zip(left[0], left[1]))
        print(f"{key}: {n} rows, lanes {trees[0]['FIELDS']} -> {trees[1]['FIELDS']} doubles a "
              f"row, the same bits: {same}, load {min(loads):.1f}-{max(loads):.1f}")
        print("| passes (a step's) | a us | b us | a ns/row a pass | b ns/row a pass | b / a "
              "(minima) | b / a (median of repetitions) |")
        print("|---|---|---|---|---|---|---|")
        result = {"rows": int(n), "same_bits": bool(same), "load": [min(loads), max(loads)],
                  "passes": {}}
        for p in PASSES + ("step",):
            a, b = min(times[(p, 0)]) * 1e6, min(times[(p, 1)]) * 1e6
            med = statistics.median(y / x for x, y in zip(times[(p, 0)], times[(p, 1)]))
            k = COUNT[p] * n / 1e3
            print(f"| {p} | {a:.0f} | {b:.0f} | {a / k:.1f} | {b / k:.1f} | "
                  f"{b / a:.3f} | {med:.3f} |", flush=True)
            result["passes"][p] = {"a_us": a, "b_us": b, "ratio_min": b / a, "ratio_median": med,
                                   "a_all_us": [x * 1e6 for x in times[(p, 0)]],
                                   "b_all_us": [x * 1e6 for x in times[(p, 1)]]}
        out["scenes"][key] = result
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
