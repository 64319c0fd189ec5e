"""The narrowphase's pair routines of two source trees in one process, alternating rep by rep:
this tree's :func:`impulse2d._collision.manifold.collide_pair` against another tree's (its
``_collision/manifold.py`` loaded as a module of its own, its imports this tree's), each called
for every contact row of a big scene's stores as the step's loop calls it.

    IMPULSE2D_NUMBA_CACHE=0 PYTHONPATH=src python benchmarks/narrow_routines_ab.py \
        --old /work/base/src --stores /tmp/stores [--scenes many_pyramids,pyramid_100,rain_2000]

The stores are those ``benchmarks/narrow_kernel.py --dump`` saves (each scene stepped until
loaded). Each form runs a loop over the contact rows that reads the pair's shapes and bodies
and calls ``collide_pair`` (what :func:`impulse2d._dynamics.contacts.collide_rows` does before
it writes the row), and writes every pair's count, normal, points and ids into a table of its
own; the two tables must be equal bit for bit (``same_bits``). For a loaded machine: both forms
in one process on the same inputs, the order swapped every rep; thread CPU time. Prints per
scene the best of each form, the ratio new / old of the bests and the median of the reps'
ratios; ``--out`` writes them as JSON.

The kernel cache must be off (``IMPULSE2D_NUMBA_CACHE=0``, as above): the two trees' kernels
have the same cache file names (module, function, line), so with it on one tree's saved code can
be loaded for the other's in the same process.
"""

from __future__ import annotations

import argparse
import importlib.util
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

from narrow_kernel import SPECULATIVE, _stores  # noqa: E402


def other_module(src: Path, path: str):
    """Another tree's module ``src/impulse2d/<path>``, loaded under a name of its own in this
    tree's package, so that its imports (relative ones too) are this tree's."""
    parent, _, name = ("impulse2d/" + path[:-3]).rpartition("/")
    spec = importlib.util.spec_from_file_location(f"{parent.replace('/', '.')}._other_{name}",
                                                  src / "impulse2d" / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _loop(collide_pair):
    """A kernel calling ``collide_pair`` for every row, its outputs into ``table`` (a row: the
    count, the normal, two points of three, two ids)."""

    @numba.njit(_nrt=False)
    def run(contacts, shapes, bodies, out_normal, out_points, out_ids, table):
        for k in range(contacts.key.shape[0]):
            sa = contacts.shape_a[k]
            sb = contacts.shape_b[k]
            ba = contacts.body_a[k]
            bb = contacts.body_b[k]
            n = collide_pair(
                shapes.count[sa], shapes.vertices[sa], shapes.normals[sa], shapes.radius[sa],
                bodies.origin[ba, 0], bodies.origin[ba, 1], bodies.rot[ba, 0], bodies.rot[ba, 1],
                shapes.count[sb], shapes.vertices[sb], shapes.normals[sb], shapes.radius[sb],
                bodies.origin[bb, 0], bodies.origin[bb, 1], bodies.rot[bb, 0], bodies.rot[bb, 1],
                SPECULATIVE, out_normal, out_points, out_ids, True)
            table[k, 0] = n
            table[k, 1] = out_normal[0]
            table[k, 2] = out_normal[1]
            for j in range(n):
                table[k, 3 + 4 * j] = out_points[j, 0]
                table[k, 4 + 4 * j] = out_points[j, 1]
                table[k, 5 + 4 * j] = out_points[j, 2]
                table[k, 6 + 4 * j] = out_ids[j]

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the other tree's src")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/narrow_stores"))
    parser.add_argument("--scenes", default="many_pyramids,pyramid_100,rain_2000")
    parser.add_argument("--reps", type=int, default=40)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    from impulse2d._collision import manifold as new

    old = other_module(args.old, "_collision/manifold.py")
    forms = {"old": _loop(old.collide_pair), "new": _loop(new.collide_pair)}
    results = {"load_before": os.getloadavg()[0], "scenes": {}}
    for scene in args.scenes.split(","):
        contacts, shapes, bodies = _stores(args.stores / f"{scene}.npz")
        n = contacts.key.shape[0]
        tables = {}
        best = {}
        times = {name: [] for name in forms}
        for name, run in forms.items():  # compile, and the tables compared
            tables[name] = np.zeros((n, 11))
            run(contacts, shapes, bodies, np.zeros(2), np.zeros((2, 3)),
                np.zeros(2, np.int64), tables[name])
        same = bool(np.array_equal(tables["old"].view(np.int64), tables["new"].view(np.int64)))
        scratch = np.zeros(2), np.zeros((2, 3)), np.zeros(2, np.int64)
        table = np.zeros((n, 11))
        for r in range(args.reps):
            order = list(forms.items()) if r % 2 == 0 else list(reversed(forms.items()))
            for name, run in order:
                t = time.thread_time()
                run(contacts, shapes, bodies, *scratch, table)
                times[name].append(time.thread_time() - t)
        for name in forms:
            best[name] = min(times[name]) * 1e6
        ratios = [b / a for a, b in zip(times["old"], times["new"])]
        row = {"rows": n, "touching": int((contacts.count > 0).sum()),
               "old_best_us": best["old"], "new_best_us": best["new"],
               "old_ns_row": best["old"] * 1e3 / n, "new_ns_row": best["new"] * 1e3 / n,
               "best_ratio": best["new"] / best["old"],
               "median_rep_ratio": statistics.median(ratios), "same_bits": same}
        results["scenes"][scene] = row
        print(f"{scene}: {n} rows; old {best['old']:.0f} us ({row['old_ns_row']:.1f} ns a row), "
              f"new {best['new']:.0f} us ({row['new_ns_row']:.1f}); best ratio "
              f"{row['best_ratio']:.3f}, median of reps' ratios {row['median_rep_ratio']:.3f}; "
              f"same bits: {same}", flush=True)
    results["load_after"] = os.getloadavg()[0]
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
