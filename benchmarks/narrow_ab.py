"""Two forms of the narrowphase loop in one process, alternating rep by rep: this tree's
``update_manifolds`` against another tree's (its source taken from that tree's
``_dynamics/contacts.py``, compiled against this tree's routines), on the stores that
``benchmarks/narrow_kernel.py --dump`` saved.

    PYTHONPATH=src python benchmarks/narrow_ab.py --old /work/base/src --stores /tmp/stores

For a loaded machine whose speed drifts between processes by more than the change (paired
processes gave 0.45-1.38 for the same pair of trees, 2026-11-29, load 20): here both forms run
in the same process, each rep on fresh copies of the same contact store, the order swapped
every rep. Only valid while the routines the loop calls (``collide`` and its kinds, ``mix``) are
the same in both trees. Prints per scene the best and the median of each form, thread CPU, and
the ratios new / old of the best and the median of the reps' ratios, and whether both wrote the
same bits.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
import types
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from narrow_kernel import (FRICTION_SQRT, RESTITUTION_MAX, SCENES, SPECULATIVE,  # noqa: E402
                           _stores, takes_rules)


def old_form(tree: Path):
    """The other tree's ``update_manifolds``, made from its source in a module of this tree's
    names."""
    import impulse2d._dynamics.contacts as contacts

    source = (tree / "impulse2d" / "_dynamics" / "contacts.py").read_text()
    start = source.index("@inline_kernel\ndef update_manifolds(")
    # with the loop it calls (collide_rows, after it): the tree's own, whose arguments differ
    # across session 25's (the mixing rules)
    end = source.index("\n@", source.index("def collide_rows(", start))
    module = types.ModuleType("old_contacts")
    module.__dict__.update({k: v for k, v in vars(contacts).items() if not k.startswith("__")})
    # the engine's inlined kernel, uncached (the cache has no place for source from a string)
    module.inline_kernel = numba.njit(_nrt=False, inline="always", no_cpython_wrapper=True,
                                      no_cfunc_wrapper=True, error_model="numpy")
    exec(compile(source[start:end], str(tree / "contacts.py"), "exec"), module.__dict__)
    return module.update_manifolds


def _narrowphase(manifolds):
    """A tree's ``update_manifolds`` (``manifolds``) over every contact row, compiled here; with
    the world's rules sqrt and max where it takes them (:func:`narrow_kernel.takes_rules`)."""
    if takes_rules(manifolds):
        def run(c, s, b, n, p, i, rows):
            manifolds(c, s, b, SPECULATIVE, FRICTION_SQRT, RESTITUTION_MAX, False, n, p, i, rows,
                      -1)
    else:
        def run(c, s, b, n, p, i, rows):
            manifolds(c, s, b, SPECULATIVE, False, n, p, i, rows, -1)
    return numba.njit(cache=False, _nrt=False)(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, required=True, help="the other tree's src")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/narrow_stores"))
    parser.add_argument("--scenes", default=",".join(SCENES))
    parser.add_argument("--reps", type=int, default=40)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from impulse2d._dynamics.contacts import update_manifolds

    old_manifolds = old_form(args.old)

    new = _narrowphase(update_manifolds)
    old = _narrowphase(old_manifolds)

    results = []
    for scene in args.scenes.split(","):
        contacts0, shapes, bodies = _stores(args.stores / f"{scene}.npz")
        rows = np.empty(0, np.int64)
        times = {"old": [], "new": []}
        digest = {}
        for r in range(args.reps + 1):  # the first compiles
            for name, fn in (("old", old), ("new", new)) if r % 2 else (("new", new), ("old", old)):
                contacts = type(contacts0)(*(np.array(x, copy=True) for x in contacts0))
                scratch = np.zeros(2), np.zeros((2, 3)), np.zeros(2, np.int64)
                t = time.thread_time()
                fn(contacts, shapes, bodies, *scratch, rows)
                dt = time.thread_time() - t
                if r:
                    times[name].append(dt)
                else:
                    digest[name] = hashlib.sha256(b"".join(
                        np.ascontiguousarray(x).tobytes() for x in contacts)).hexdigest()[:16]
        touching = int((contacts0.count > 0).sum())
        row = {"scene": scene, "reps": args.reps, "rows": contacts0.key.shape[0],
               "touching": touching, "same_bits": digest["old"] == digest["new"],
               "load": round(os.getloadavg()[0], 1)}
        for name in ("old", "new"):
            row[f"{name}_best_us"] = round(min(times[name]) * 1e6, 1)
            row[f"{name}_median_us"] = round(statistics.median(times[name]) * 1e6, 1)
            row[f"{name}_best_ns_touching"] = round(min(times[name]) * 1e9 / touching, 1)
        row["new/old_best"] = round(min(times["new"]) / min(times["old"]), 3)
        row["new/old_median_of_reps"] = round(statistics.median(
            n / o for n, o in zip(times["new"], times["old"])), 3)
        results.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"what": "update_manifolds, this tree's against --old's, "
                                        "alternating rep by rep in one process, thread CPU",
                                        "old": str(args.old), "scenes": results}, indent=1))


if __name__ == "__main__":
    main()
