"""The narrowphase alone (``update_manifolds``) on a big scene's loaded stores, paired between two
source trees, by thread CPU time, with a hash of what it wrote.

    python benchmarks/narrow_kernel.py --dump /tmp/stores            # once, any tree
    python benchmarks/narrow_kernel.py --a /work/base/src --b src --stores /tmp/stores

``--dump`` steps each scene as ``benchmarks/contact_stages.py`` does (sleeping off, the same
step counts: pyramid_100 60, rain_2000 300, many_pyramids 60) and saves its contact, shape and
body stores. A paired run loads them in fresh processes, one per tree, alternating which goes
first, and in each runs one narrowphase (a step's: every contact visited once, speculative distance
0.02 m; a tree whose narrowphase mixes the coefficients, before session 25, by the world's
rules sqrt and max) on fresh copies ``--reps`` times; a
process reports the minimum thread CPU time, per visited contact row and per touching pair, and
a hash of the contact store it wrote (equal in both trees: the same bits). Only the narrowphase
compiles in each process (a few seconds), not the step: the stores come from the file.
Per round the ratio b / a; printed and written: the median ratio per scene, with the load.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SCENES = ("pyramid_100", "rain_2000", "many_pyramids")
FRICTION_SQRT = 0     # settings.MIXING_RULES.index("sqrt"): the world's default
RESTITUTION_MAX = 1   # MIXING_RULES.index("max")
SPECULATIVE = 0.02    # m: 4 linear slops, the world's default


def dump(folder: Path) -> None:
    """Step each scene as contact_stages.py does and save its three stores."""
    import impulse2d
    from impulse2d.scenes import build_scene, step_scene
    sys.path.insert(0, str(HERE))
    from wide_solver import SCENES as STEPPED

    folder.mkdir(parents=True, exist_ok=True)
    for key, scene, params, steps in STEPPED:
        if key not in SCENES:
            continue
        world = impulse2d.World(enable_sleep=False)
        info = build_scene(world, scene, **params)
        for i in range(steps):
            step_scene(world, info, i)
        columns = {}
        for prefix, store in (("c", world._contacts), ("s", world._shapes), ("b", world._bodies)):
            for name, column in zip(store._fields, store):
                columns[f"{prefix}.{name}"] = column
        np.savez(folder / f"{key}.npz", **columns)
        print(key, world._contacts.key.shape[0], "contacts", flush=True)


def _stores(path: Path):
    from impulse2d._core.state import Bodies, Shapes
    from impulse2d._dynamics.contacts import Contacts

    data = np.load(path)
    return tuple(kind(*(data[f"{prefix}.{name}"] for name in kind._fields))
                 for prefix, kind in (("c", Contacts), ("s", Shapes), ("b", Bodies)))


def takes_rules(manifolds) -> bool:
    """Whether a tree's ``update_manifolds`` takes the mixing rules: until session 25 it mixed
    every visited contact's friction and restitution (since, a contact's are mixed at its
    creation, :func:`impulse2d._dynamics.contacts.carry_contacts`)."""
    return "friction_rule" in inspect.signature(manifolds.py_func).parameters


def _narrow(contacts, shapes, bodies, out_normal, out_points, out_ids, rows):
    update_manifolds(contacts, shapes, bodies, SPECULATIVE, False, out_normal, out_points,
                     out_ids, rows, -1)


def _narrow_mixing(contacts, shapes, bodies, out_normal, out_points, out_ids, rows):
    update_manifolds(contacts, shapes, bodies, SPECULATIVE, FRICTION_SQRT, RESTITUTION_MAX,
                     False, out_normal, out_points, out_ids, rows, -1)


def one_run(stores: Path, scene: str, reps: int) -> dict:
    """In this process (the tree on sys.path): the narrowphase's best thread CPU time on copies
    of the scene's contact store, and the hash of the store it wrote. The narrowphase's kernel
    is cached only when ``NUMBA_CACHE_DIR`` is set (one folder per tree: the cache does not
    know which tree's narrowphase it inlined), for instruction counts under
    ``valgrind --tool=callgrind`` (``--reps 0`` and ``--reps N``: the difference is N
    narrowphases) that should not count its compile."""
    import numba
    global update_manifolds
    from impulse2d._dynamics.contacts import update_manifolds

    narrow = numba.njit(cache="NUMBA_CACHE_DIR" in os.environ, _nrt=False)(
        _narrow_mixing if takes_rules(update_manifolds) else _narrow)
    contacts0, shapes, bodies = _stores(stores / f"{scene}.npz")
    rows = np.empty(0, np.int64)
    best = np.inf
    digest = None
    for r in range(reps + 1):  # the first compiles (or loads)
        contacts = type(contacts0)(*(np.array(c, copy=True) for c in contacts0))
        scratch = np.zeros(2), np.zeros((2, 3)), np.zeros(2, np.int64)
        t = time.thread_time()
        narrow(contacts, shapes, bodies, *scratch, rows)
        if r > 0:
            best = min(best, time.thread_time() - t)
        else:
            digest = hashlib.sha256(b"".join(np.ascontiguousarray(c).tobytes()
                                             for c in contacts)).hexdigest()[:16]
    n = contacts0.key.shape[0]
    touching = int((contacts0.count > 0).sum())
    return {"us": best * 1e6, "rows": n, "touching": touching, "ns_row": best * 1e9 / n,
            "ns_touching": best * 1e9 / touching, "hash": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path, help="step the scenes and save their stores here")
    parser.add_argument("--a", help="source tree A (the directory holding impulse2d)")
    parser.add_argument("--b", help="source tree B")
    parser.add_argument("--stores", type=Path, default=Path("/tmp/narrow_stores"))
    parser.add_argument("--scenes", default=",".join(SCENES))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--out", type=Path, help="JSON results file")
    parser.add_argument("--one", nargs=2, metavar=("SCENE", "REPS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dump:
        dump(args.dump)
        return
    if args.one:
        print(json.dumps(one_run(args.stores, args.one[0], int(args.one[1]))))
        return
    sys.path.insert(0, str(HERE))
    from paired_cpu import alternate

    os.environ["NARROW_STORES"] = str(args.stores)
    trees = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    rows = []
    for scene in args.scenes.split(","):
        runs, loads = alternate(__file__, trees, scene, args.reps, args.rounds)
        ratios = [b["us"] / a["us"] for a, b in zip(runs["a"], runs["b"])]
        row = {"scene": scene, "rounds": args.rounds, "reps": args.reps,
               "load": round(statistics.mean(loads), 1),
               "rows": runs["a"][0]["rows"], "touching": runs["a"][0]["touching"],
               "same_hash": len({x["hash"] for x in runs["a"] + runs["b"]}) == 1,
               "b/a_median": round(statistics.median(ratios), 3),
               "b/a": [round(x, 3) for x in ratios]}
        for who in ("a", "b"):
            for key in ("us", "ns_row", "ns_touching"):
                row[f"{who}_{key}_median"] = round(statistics.median(x[key] for x in runs[who]), 1)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"what": "update_manifolds alone, one step's worth "
                                        "(every contact row), min thread CPU of reps, paired "
                                        "processes", "trees": trees, "scenes": rows}, indent=1))


if __name__ == "__main__":
    if "--one" in sys.argv and os.environ.get("NARROW_STORES"):
        sys.argv += ["--stores", os.environ["NARROW_STORES"]]
    main()
