"""A small world's narrowphase loop in two forms (or more), one process, alternating: two
trees' ``update_manifolds`` with each tree's own ``manifold.py`` routines, on one world's stores.

    PYTHONPATH=/work/base/src python benchmarks/floor_narrow.py \\
        --old /work/base/src --new src[,/tmp/variant/src] [--worlds ten_bodies,restitution]

The world is built and stepped by the ``impulse2d`` on ``sys.path`` (a tree whose kernel
cache is warm), to the step (of 60 after ``small_fixed.py``'s 60) with the most touching rows;
each form is then the tree's ``_collision/manifold.py`` and its ``update_manifolds`` compiled
here from source, uncached, with the engine's decorators' options (so neither form depends on a
cache, and a change to the routines is measured without recompiling a tree's kernels). Each
form is timed as the step's narrowphase stage runs it (every contact the step visits, the
world's scratch), in cycles of the kernels' counter: least of 5 runs of ``--reps`` calls, the
forms alternating ``--rounds`` times. It also checks that both forms write the same bits into
the contact store (every column) and the scratch. Cycles, not wall time: for a machine
loaded by others the least of many short runs ranks two forms of a few hundred cycles.
"""

from __future__ import annotations

import argparse
import json
import sys
import types
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from narrow_kernel import takes_rules  # noqa: E402

DT = 1.0 / 60.0

_JIT = dict(error_model="numpy", fastmath=False)
DECORATORS = {
    "kernel": numba.njit(no_cfunc_wrapper=True, **_JIT),
    "inner_kernel": numba.njit(no_cpython_wrapper=True, no_cfunc_wrapper=True, **_JIT),
    "inline_kernel": numba.njit(_nrt=False, inline="always", no_cpython_wrapper=True,
                                no_cfunc_wrapper=True, **_JIT),
}
JIT_IMPORT = "from impulse2d._core.jit import inline_kernel, inner_kernel, kernel\n"


def form(tree: Path, tag: str):
    """``tree``'s ``update_manifolds`` over its own ``manifold.py`` routines, uncached."""
    import impulse2d._dynamics.contacts as contacts

    source = (tree / "impulse2d" / "_collision" / "manifold.py").read_text()
    if JIT_IMPORT not in source:
        raise SystemExit(f"{tree}: manifold.py's decorators are not imported as expected")
    manifold = types.ModuleType(f"manifold_{tag}")
    manifold.__dict__.update(DECORATORS)
    exec(compile(source.replace(JIT_IMPORT, ""), f"{tree}/manifold.py", "exec"),
         manifold.__dict__)
    source = (tree / "impulse2d" / "_dynamics" / "contacts.py").read_text()
    start = source.index("@inline_kernel\ndef update_manifolds(")
    # with the loop it calls (collide_rows, after it): the tree's own, whose arguments differ
    # across session 25's (the mixing rules)
    end = source.index("\n@", source.index("def collide_rows(", start))
    module = types.ModuleType(f"contacts_{tag}")
    module.__dict__.update({k: v for k, v in vars(contacts).items() if not k.startswith("__")})
    module.__dict__.update(DECORATORS)
    for name in ("collide", "collide_pair"):  # whichever the loop calls, from this tree
        if name in manifold.__dict__:
            module.__dict__[name] = manifold.__dict__[name]
    exec(compile(source[start:end], f"{tree}/contacts.py", "exec"), module.__dict__)
    manifolds = module.update_manifolds
    if takes_rules(manifolds):
        loop = manifolds
    else:  # (since session 25 the narrowphase mixes no coefficients: no rules)
        @numba.njit(_nrt=False, inline="always")
        def loop(contacts, shapes, bodies, spec, fr, rr, chains, normal, points, ids, rows,
                 n_rows):
            manifolds(contacts, shapes, bodies, spec, chains, normal, points, ids, rows, n_rows)
    from impulse2d._core.jit import cycles
    from impulse2d._dynamics.awake import CONTACT_COUNT
    from impulse2d._dynamics.lengths import SPECULATIVE
    from impulse2d._dynamics.scratch import narrow_views
    from impulse2d._dynamics.verbs import CHAINS
    from impulse2d._dynamics.world_ref import borrow

    @numba.njit(_nrt=False)
    def timed(world, fr, rr, reps):
        # the arguments as the step's stage (step._manifolds) takes them
        normal, points, ids = narrow_views(borrow(world, "scratch"), borrow(world, "scratch_f"))
        contacts = borrow(world, "contacts")
        shapes = borrow(world, "shapes")
        bodies = borrow(world, "bodies")
        spec = borrow(world, "lengths")[SPECULATIVE]
        chains = borrow(world, "verbs")[CHAINS] != 0
        rows = borrow(world, "awake_contacts")
        n_rows = borrow(world, "awake_state")[CONTACT_COUNT]
        best = 1 << 62
        for _ in range(5 if reps > 1 else 1):
            t0 = cycles()
            for _ in range(reps):
                loop(contacts, shapes, bodies, spec, fr, rr, chains, normal, points, ids, rows,
                     n_rows)
            best = min(best, cycles() - t0)
        return best / reps

    return timed


def _fresh(name: str):
    """The world after the step (of 60 after the first 60) with the most touching rows, a
    function that puts it back there, and that count of rows."""
    from small_fixed import WORLDS
    world = WORLDS[name]()
    for _ in range(60):
        world.step(DT)
    snap = world.snapshot()
    touching = []
    for _ in range(60):
        world.step(DT)
        touching.append(int((world._contacts.count > 0).sum()))
    k = int(np.argmax(touching))

    def fresh():
        world.restore(snap)
        for _ in range(k + 1):
            world.step(DT)
        return world

    return fresh, touching[k]


def measure(name: str, forms: dict, rounds: int, reps: int) -> dict:
    from impulse2d.settings import MIXING_CODES

    fresh, touching = _fresh(name)
    world = fresh()
    fr = np.int64(MIXING_CODES[world.settings.friction_mixing])
    rr = np.int64(MIXING_CODES[world.settings.restitution_mixing])
    written = {}
    for tag, timed in forms.items():  # one call each from the same state: the bits
        world = fresh()
        timed(world._stores, fr, rr, 1)
        written[tag] = [a.tobytes() for a in world._contacts]
    tags = list(forms)
    same = all(written[t] == written[tags[0]] for t in tags)
    world = fresh()
    best = {t: [] for t in tags}
    for r in range(rounds):
        for tag in (tags if r % 2 == 0 else tags[::-1]):
            best[tag].append(forms[tag](world._stores, fr, rr, reps))
    out = {"contacts": int(world._contacts.key.shape[0]), "touching": touching,
           "same_bits": same}
    for tag in tags:
        out[tag] = {"least": round(min(best[tag]), 1),
                    "median": round(float(np.median(best[tag])), 1)}
    a = tags[0]
    for b in tags[1:]:
        suffix = "" if len(tags) == 2 else f"_{b}"
        out["ratio_least" + suffix] = round(out[b]["least"] / out[a]["least"], 3)
        out["ratio_median" + suffix] = round(out[b]["median"] / out[a]["median"], 3)
    print(name, json.dumps(out), flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="a tree's src (holding impulse2d)")
    ap.add_argument("--new", required=True,
                    help="a tree's src, or several comma separated (tags new, new2, ...)")
    ap.add_argument("--worlds", default="ten_bodies,restitution,friction_ramp")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    forms = {"old": form(args.old.resolve(), "old")}
    for i, tree in enumerate(args.new.split(",")):
        tag = "new" if i == 0 else f"new{i + 1}"
        forms[tag] = form(Path(tree).resolve(), tag)
    results = {"cycles_of": "the narrowphase loop a call (every contact the step visits)",
               "old": str(args.old), "new": args.new.split(","), "worlds": {}}
    for name in args.worlds.split(","):
        results["worlds"][name] = measure(name, forms, args.rounds, args.reps)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
