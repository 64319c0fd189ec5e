"""The pair stage's two searches of two source trees in one process, on rain_2000's own landing
steps, interleaved, both compiled here from their source text (robust to the drift between
processes, which paired processes are not at a load of 5-15; issue 31 items 2-3).

    PYTHONPATH=src python benchmarks/pair_search_ab.py --a /path/to/main/src [--b src]
        [--steps 61,81,101,121,141,161,201,241] [--precision float32] [--reps 21] [--out FILE]

Each tree's broadphase (``_collision/broadphase.py`` from ``CELL_SCALE`` to ``find_pairs``) and
pair search (``_dynamics/pair_update.py`` from ``_live`` to the step's stage) are read from its
source and compiled here with plain ``numba.njit`` (the package's ``pair_kept``,
``filter_pairs``, ``clamped_cell`` and resting index, unchanged between the trees, are shared).
The imported package (``PYTHONPATH``) builds rain_2000 as ``run.py`` does and steps it; on each
listed step, from the state before it, both trees compute the pairs after it by both paths:
``global`` (the grid search and the filter, as the pair stage's global path) and ``moved``
(the moved boxes' search with its filter, sort, comparison and merge: ``pairs_after_moves``,
the old keys passed as the moved shapes' keys unknown, as ``incremental_pairs`` does). Every
result is checked equal to the first tree's global one. Printed and written: the minimum and
median process CPU of each of the four, us, the trees in alternating order, ``--reps`` rounds
after one untimed one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engines  # noqa: E402
import run  # noqa: E402
from impulse2d._dynamics import contacts, resting  # noqa: E402
from impulse2d._dynamics.world_ref import sync_contacts  # noqa: E402

_JIT = "@numba.njit(cache=False)"
_DECORATORS = ("@inner_kernel", "@borrowing_kernel", "@stage_kernel", "@kernel")
_INLINE = '@numba.njit(cache=False, inline="always")'  # (``@inline_kernel``'s, plain)


def _section(path: Path, start: str, end: str) -> str:
    text = path.read_text()
    code = text[text.index(start):text.index(end)]
    for name in _DECORATORS:
        code = code.replace(name + "\n", _JIT + "\n")
    return code.replace("@inline_kernel\n", _INLINE + "\n")


def from_source(src: str) -> dict:
    """Tree ``src``'s global search and moved boxes' search, compiled in this process."""
    root = Path(src) / "impulse2d"
    space = {"numba": numba, "np": np}
    code = _section(root / "_collision" / "broadphase.py", "CELL_SCALE = ", "def find_pairs(")
    exec(compile(code, str(root / "_collision" / "broadphase.py"), "exec"), space)
    space.update(pair_kept=contacts.pair_kept, filter_pairs=contacts.filter_pairs,
                 clamped_cell=resting.clamped_cell, resting_overlaps=resting.resting_overlaps)
    path = root / "_dynamics" / "pair_update.py"
    text = path.read_text()
    constants = text[text.index("WIDE_FACTOR = "):text.index("@inner_kernel\ndef _live")]
    code = constants + _section(path, "@inner_kernel\ndef _live", "# ------")
    exec(compile(code, str(path), "exec"), space)
    search, filt, after = space["search_pairs"], contacts.filter_pairs, space["pairs_after_moves"]
    few = space["FEW_TESTS"]
    cell_scale, large_cells, sweep_below = (space["CELL_SCALE"], space["LARGE_CELLS"],
                                            space["SWEEP_BELOW"])
    empty = resting.empty_resting

    @numba.njit(cache=False)
    def global_pairs(fat, alive, body, body_type, sensor, group, category, mask, no_collide):
        return filt(search(fat, alive, body, group, cell_scale, large_cells, sweep_below), body,
                    body_type, sensor, group, category, mask, no_collide)

    @numba.njit(cache=False)
    def moved_pairs(old_keys, moved, fat, alive, body, body_type, sensor, group, category, mask,
                    no_collide):
        changed, pairs = after(old_keys, moved, moved.shape[0], fat, alive, body, body_type,
                               sensor, group, category, mask, no_collide, few, old_keys, -1,
                               empty(), False)
        return pairs

    return {"global": global_pairs, "moved": moved_pairs}


def _cpu(call) -> float:
    t = time.process_time()
    call()
    return (time.process_time() - t) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="tree A's src (the baseline)")
    ap.add_argument("--b", default="src", help="tree B's src")
    ap.add_argument("--steps", default="61,81,101,121,141,161,201,241")
    ap.add_argument("--precision", choices=("float64", "float32"), default="float32")
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--out")
    args = ap.parse_args()
    trees = {"a": from_source(args.a), "b": from_source(args.b)}
    steps = sorted(int(s) for s in args.steps.split(","))
    name, params = run.SCENES["rain_2000"][:2]
    eng = engines.make_engine("impulse2d", {"solver_precision": args.precision})
    eng.build(name, **params)
    world = eng.world
    load = [os.getloadavg()[0]]
    rows = []
    for k in range(1, steps[-1] + 1):
        sync_contacts(world)
        old_keys = world._contacts.key.copy()
        fat = world._shapes.fat_aabb.copy()
        world.step(engines.DT)
        if k not in steps:
            continue
        s, b = world._shapes, world._bodies
        moved = np.flatnonzero((s.fat_aabb != fat).any(axis=1)).astype(np.int64)
        cols = (s.fat_aabb, s.alive, s.body, b.type, s.is_sensor, s.group, s.category, s.mask,
                np.empty(0, dtype=np.int64))
        calls = {}
        for t, fns in trees.items():
            calls[f"{t}_global"] = (lambda f=fns["global"]: f(*cols))
            calls[f"{t}_moved"] = (lambda f=fns["moved"]: f(old_keys, moved, *cols))
        truth = calls["a_global"]()
        for key, call in calls.items():
            if not np.array_equal(call(), truth):
                raise AssertionError(f"step {k}: {key} differs from a_global")
        times = {key: [] for key in calls}
        order = list(calls)
        for r in range(args.reps):
            for key in (order if r % 2 == 0 else order[::-1]):
                times[key].append(_cpu(calls[key]))
        row = {"step": k, "moved": int(moved.shape[0]), "pairs": int(truth.shape[0])}
        for key, ts in times.items():
            row[key + "_min_us"] = round(min(ts), 1)
            row[key + "_median_us"] = round(statistics.median(ts), 1)
        rows.append(row)
        print(f"step {k}: moved {row['moved']}, pairs {row['pairs']}; min (median) us: "
              + ", ".join(f"{key} {row[key + '_min_us']:.0f} ({row[key + '_median_us']:.0f})"
                          for key in calls), flush=True)
    load.append(os.getloadavg()[0])
    if args.out:
        Path(args.out).write_text(json.dumps({"a": args.a, "b": args.b,
                                              "precision": args.precision, "reps": args.reps,
                                              "load": load, "steps": rows}, indent=1))


if __name__ == "__main__":
    main()
