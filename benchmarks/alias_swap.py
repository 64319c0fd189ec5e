"""Two trees' machine code of the same solver units, A/B in one process, one step each in turn.

    PYTHONPATH=/work/base/src python benchmarks/alias_swap.py --other /work/ci-g/src \
        --units soft_step,lanes_entry --scene pyramid_100 --pairs 150 --tag g_base_s14

Measuring a few per cent between two source trees in fresh processes fails on a loaded 2-core
VM whose speed drifts by up to 1.9x between processes (``alias_bisect.py``: rounds at load
15-20 read 0.5-1.75). Where the trees differ only in the machine code of units that the step
calls *by address* (the world's table of verbs: the solver, the contact passes), both codes
can run in one process on one world: the process runs this tree's package (``PYTHONPATH``)
and also loads the other tree's cached object code of each unit in ``--units`` (its cache
file for the other tree's package stamp, rebuilt by Numba's own cache code), then steps the
scene, writing one tree's addresses into the world's table before each step and the other's
before the next, in ABBA order. Per pair of consecutive steps, the ratio of their thread CPU
(other / this); the median over ``--pairs`` pairs is robust to the load (a pair's two steps
are milliseconds apart on the same world). The two codes must compute the same bits: the
world's state hash after the run is checked against a run on this tree's code alone.

A step is the scene as ``run.py`` builds it, sleeping off, one thread, default settings (the
soft step, 4 substeps). Units (``--units``): ``soft_step`` (the solver: prepare, integration,
restitution, the contact passes called by address) and ``lanes_entry`` (the float64 contact
passes), keys of :data:`impulse2d._core.lazy.REGISTRY` by their last name, swapped in the
table; ``step_kernel`` (the step itself: pairs, collide's call, colouring, finalize), which
Python calls, swapped at its hot call site (the entry point of :data:`impulse2d._dynamics.step.
_step`). Writes JSON to
``benchmarks/results/alias_swap_<tag>.json``.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import pickle
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SLOTS = {"soft_step": "SOLVER", "lanes_entry": "LANES"}
"""The table-of-verbs slot (:mod:`impulse2d._dynamics.verbs`) each swappable unit fills."""


def other_result(key: str, dispatcher, other_package: str):
    """The kernel ``key`` (module and name) rebuilt from the other tree's cache entry (the one
    made for that tree's sources) by ``dispatcher``'s cache code: Numba's compile result, its
    library loaded into this process."""
    from impulse2d._core import cache
    module, name = key.rsplit(".", 1)
    parts = module.split(".")[1:]  # under the package: _dynamics, solvers
    folder = os.path.join(other_package, "_kernels", *parts[:-1])
    stamp = cache.compute_stamp(other_package)
    for index in glob.glob(os.path.join(folder, f"{parts[-1]}.{name}-*.nbi")):
        with open(index, "rb") as f:
            pickle.load(f)  # Numba's cache format version
            found_stamp, overloads = pickle.loads(f.read())
        if found_stamp == stamp:
            break
    else:
        sys.exit(f"{key}: no cache entry for {other_package}'s sources")
    (data_name,) = overloads.values()
    with open(os.path.join(folder, data_name), "rb") as f:
        payload = pickle.loads(f.read())
    return dispatcher._cache._impl.rebuild(dispatcher.targetctx, payload)


def other_address(unit, other_package: str) -> int:
    """The address of ``unit``'s (a :class:`~impulse2d._core.lazy.LazyKernel`) C wrapper in
    the other tree's cached object code."""
    result = other_result(unit.key, unit.dispatcher, other_package)
    return result.library.get_pointer_to_function(result.fndesc.llvm_cfunc_wrapper_name)


def build(scene: str):
    import impulse2d
    import run
    from engines import build_scene
    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10))
    world.settings.enable_sleep = False
    build_scene(world, builder, **params)
    return world


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--other", required=True, help="the other tree's src directory")
    ap.add_argument("--units", default="soft_step,lanes_entry")
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--warm", type=int, default=10)
    ap.add_argument("--pairs", type=int, default=150)
    ap.add_argument("--tag", default="s14")
    args = ap.parse_args()
    from impulse2d._core.lazy import REGISTRY
    from impulse2d._dynamics import step, verbs

    world = build(args.scene)
    for _ in range(args.warm):
        world.step(1 / 60)
    table = world._verbs
    names = args.units.split(",")
    units = {name: next(u for k, u in REGISTRY.items() if k.endswith("." + name))
             for name in names if name != "step_kernel"}
    slots = {name: getattr(verbs, SLOTS[name]) for name in units}
    this = {name: int(table[slots[name]]) for name in units}
    assert all(this[name] == units[name].address() for name in units), "not this tree's units"
    package = os.path.join(os.path.abspath(args.other), "impulse2d")
    other = {name: other_address(unit, package) for name, unit in units.items()}
    assert all(other[name] != this[name] for name in units), "the other code is this code"
    codes = {"this": this, "other": other}
    entries = {}
    if "step_kernel" in names:  # called from Python: its entry point at the hot call site
        dispatcher = getattr(step.step_kernel, "dispatcher", lambda: step.step_kernel)()
        entries = {"this": step._step.entry,
                   "other": other_result("impulse2d._dynamics.step.step_kernel", dispatcher,
                                         package).entry_point}
        assert entries["this"] is not step._step and entries["other"] is not entries["this"]
    cpu = {"this": [], "other": []}
    for k in range(2 * args.pairs):
        who = ("this", "other", "other", "this")[k % 4]  # ABBA: neither always goes first
        for name, slot in slots.items():
            table[slot] = codes[who][name]
        if entries:
            step._step.entry = step._step._entry = entries[who]
        c = time.thread_time()
        world.step(1 / 60)
        cpu[who].append(time.thread_time() - c)
        assert all(int(table[slot]) == codes[who][name] for name, slot in slots.items())
    if entries:
        step._step.entry = step._step._entry = entries["this"]
    mixed_hash = world.state_hash()[:16]
    ratios = [o / t for t, o in zip(cpu["this"], cpu["other"])]
    # the same steps on this tree's code alone: the other code must give the same bits
    alone = build(args.scene)
    for _ in range(args.warm + 2 * args.pairs):
        alone.step(1 / 60)
    q = statistics.quantiles(ratios, n=4)
    report = {"scene": args.scene, "units": names, "other": os.path.abspath(args.other),
              "this": os.path.dirname(os.path.dirname(os.path.abspath(
                  sys.modules["impulse2d"].__file__))),
              "step": "run.py's scene, sleeping off, one thread, default settings (soft step, "
                      "4 substeps); thread CPU a step",
              "pairs": args.pairs, "load": os.getloadavg()[0],
              "ratio_other_to_this": [round(min(ratios), 3), round(q[0], 3), round(q[1], 3),
                                      round(q[2], 3), round(max(ratios), 3)],
              "this_median_us": statistics.median(cpu["this"]) * 1e6,
              "other_median_us": statistics.median(cpu["other"]) * 1e6,
              "addresses_mod_4096": {who: {name: address % 4096 for name, address in
                                           codes[who].items()} for who in codes},
              "hash_mixed": mixed_hash, "hash_this_alone": alone.state_hash()[:16]}
    report["same_bits"] = report["hash_mixed"] == report["hash_this_alone"]
    print(json.dumps(report, indent=1))
    out = HERE / "results" / f"alias_swap_{args.tag}.json"
    out.write_text(json.dumps(dict(report, cpu=cpu), indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
