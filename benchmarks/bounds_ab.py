"""The bounds stage (:func:`impulse2d._dynamics.proxies.update_aabbs`) of two source trees in one
process, alternating rep by rep, on a big scene's stores.

    IMPULSE2D_NUMBA_CACHE=0 PYTHONPATH=src python benchmarks/bounds_ab.py \
        --old /work/base/src --stores /tmp/stores [--scenes rain_2000,many_pyramids] [--reps 60]

The stores are those ``benchmarks/narrow_kernel.py --dump`` saves. Each rep runs each tree's
``update_aabbs`` over every shape (as a step after Python changed the world does; an awake
step visits the awake shapes, here all of them) on fresh copies of the shape store, its fat
boxes shrunk by ``--shrink`` m a side (0: a settled pile's step, no fat box moves; 0.15, more
than the margin: every one moves, and its fat box is written); the two trees' boxes, fat boxes
and move buffers must be equal bit for bit (``same_bits``). Thread CPU time; the order swapped
every rep. The other tree's ``proxies.py`` is loaded as a module of its own (its imports this
tree's).

The kernel cache must be off (``IMPULSE2D_NUMBA_CACHE=0``, as above): the two trees' kernels
have the same cache file names (module, function, line), so with it on one tree's saved code can
be loaded for the other's in the same process.
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

from narrow_kernel import _stores  # noqa: E402
from narrow_routines_ab import other_module  # noqa: E402

MARGIN = 0.1  # m: the fat boxes' margin in a world in metres (constants.AABB_MARGIN)


def _runner(update_aabbs):
    @numba.njit(_nrt=False)
    def run(shapes, bodies, moved, rows):
        return update_aabbs(shapes, bodies, MARGIN, moved, rows, True)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the other tree's src")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/narrow_stores"))
    parser.add_argument("--scenes", default="rain_2000,many_pyramids")
    parser.add_argument("--reps", type=int, default=60)
    parser.add_argument("--shrink", type=float, default=0.0, help="m off each fat box's sides")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    from impulse2d._dynamics import proxies as new

    old = other_module(args.old, "_dynamics/proxies.py")
    forms = {"old": _runner(old.update_aabbs), "new": _runner(new.update_aabbs)}
    results = {"load_before": os.getloadavg()[0], "shrink": args.shrink, "scenes": {}}
    for scene in args.scenes.split(","):
        _, shapes0, bodies = _stores(args.stores / f"{scene}.npz")
        n = shapes0.alive.shape[0]
        rows = np.arange(n, dtype=np.int64)

        def fresh():
            shapes = type(shapes0)(*(np.array(c, copy=True) for c in shapes0))
            shapes.fat_aabb[:, :2] += args.shrink
            shapes.fat_aabb[:, 2:] -= args.shrink
            return shapes

        outputs = {}
        for name, run in forms.items():  # compile, and the outputs compared
            shapes = fresh()
            moved = np.zeros(n, dtype=np.int64)
            count = run(shapes, bodies, moved, rows)
            outputs[name] = (shapes.aabb.copy(), shapes.fat_aabb.copy(), moved[:count].copy())
        same = all(np.array_equal(a.view(np.uint8), b.view(np.uint8))
                   for a, b in zip(outputs["old"], outputs["new"]))
        times = {name: [] for name in forms}
        moved = np.zeros(n, dtype=np.int64)
        for r in range(args.reps):
            order = list(forms.items()) if r % 2 == 0 else list(reversed(forms.items()))
            for name, run in order:
                shapes = fresh()
                t = time.thread_time()
                run(shapes, bodies, moved, rows)
                times[name].append(time.thread_time() - t)
        best = {name: min(times[name]) * 1e6 for name in forms}
        ratios = [b / a for a, b in zip(times["old"], times["new"])]
        row = {"shapes": n, "moved": int(outputs["new"][2].shape[0]),
               "old_best_us": best["old"], "new_best_us": best["new"],
               "best_ratio": best["new"] / best["old"],
               "median_rep_ratio": statistics.median(ratios), "same_bits": same}
        results["scenes"][scene] = row
        print(f"{scene}: {n} shapes, {row['moved']} moved; old {best['old']:.1f} us, new "
              f"{best['new']:.1f} us; best ratio {row['best_ratio']:.3f}, median of reps' "
              f"ratios {row['median_rep_ratio']:.3f}; same bits: {same}", flush=True)
    results["load_after"] = os.getloadavg()[0]
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
