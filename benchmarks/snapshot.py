"""What a snapshot costs: ``world.snapshot()``, ``world.restore()``, pickling and
``copy.deepcopy`` against the number of bodies, and pymunk's copy and pickle of the same scene.

    PYTHONPATH=src python benchmarks/snapshot.py --json benchmarks/results/snapshot.json

Scene: ``pyramid`` of base 14, 45 and 100 (105, 1035 and 5050 boxes on a ground), stepped
``--settle`` steps with sleeping off so that every box is awake and touching (about 2 contacts
a box, each with its warm-start impulses). Each figure is the median and the least of
``--rounds`` timings (``time.perf_counter``) in this process (the load average is recorded:
the least is what a quiet machine gives):

* ``snapshot_ms``, ``restore_ms``: ``world.snapshot()`` and ``world.restore(snap)``;
* ``first_step_ms`` vs ``same_step_relinked_ms``: the step right after a restore (it rebuilds
  the stores' reference and the table of kernel addresses the restore dropped) against the same
  step with those rebuilt before the clock starts: their difference is the re-linking;
* ``dumps_ms``, ``loads_ms``, ``pickle_bytes``: ``pickle.dumps(world)`` (protocol 5) and
  ``pickle.loads`` of those bytes;
* ``deepcopy_ms``: ``copy.deepcopy(world)``;
* pymunk (Chipmunk2D 7) with the same boxes, stepped as long: ``copy.deepcopy(space)``,
  ``pickle.dumps(space)`` / ``loads`` and the bytes. pymunk copies and pickles a space through
  Python objects (a body, its shapes and their attributes each), so its cost grows with the
  bodies at Python speed.
* pybox2d (Box2D 2.3, SWIG): a ``b2World`` cannot be pickled or copied (``TypeError``: SWIG
  objects have no pickle support); recorded as such.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import pickle
import platform
import statistics
import sys
import time

import impulse2d as i2d
from impulse2d._dynamics.step import _fill_verbs, _settings_arguments
from impulse2d._dynamics.world_ref import stores_for_step
from impulse2d.scenes import build_scene

try:
    from engines import Box2DEngine, PymunkEngine
except ImportError:  # run as a module
    from .engines import Box2DEngine, PymunkEngine

DT = 1.0 / 60.0
BASES = {105: 14, 1035: 45, 5050: 100}


def _ms(f, rounds: int, budget_s: float = 10.0) -> dict:
    """Median and least of up to ``rounds`` timings of ``f()``, ms; fewer once ``budget_s`` is
    spent (pymunk's 5,000 bodies take a minute a copy). The least is the figure on a quiet
    machine (the CI machine's 2 cores are shared), the median what a loaded one gives."""
    times = []
    start = time.perf_counter()
    for _ in range(rounds):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > budget_s:
            break
    return {"median": round(1e3 * statistics.median(times), 4),
            "min": round(1e3 * min(times), 4), "rounds": len(times)}


def impulse2d_costs(base: int, settle: int, rounds: int) -> dict:
    world = i2d.World(enable_sleep=False)
    build_scene(world, "pyramid", base=base)
    for _ in range(settle):
        world.step(DT)
    snap = world.snapshot()
    out = {"bodies": world.body_count, "contacts": len(world._contacts.key),
           "touching": int((world._contacts.count > 0).sum()),
           "snapshot_ms": _ms(world.snapshot, rounds),
           "restore_ms": _ms(lambda: world.restore(snap), rounds),
           "snapshot_array_bytes": snap.nbytes}
    first, relinked = [], []
    for _ in range(rounds):
        world.restore(snap)
        t0 = time.perf_counter()
        world.step(DT)
        first.append(time.perf_counter() - t0)
        # The same step, with the re-linking done before the clock starts.
        world.restore(snap)
        settings = _settings_arguments(world.settings)
        rows = world._joint_rows()
        _fill_verbs(world, rows["by_type"], lambda: None)
        world._verbs_for = (settings, rows)
        stores_for_step(world)
        t0 = time.perf_counter()
        world.step(DT)
        relinked.append(time.perf_counter() - t0)
    out["first_step_ms"] = {"median": round(1e3 * statistics.median(first), 4),
                            "min": round(1e3 * min(first), 4)}
    out["same_step_relinked_ms"] = {"median": round(1e3 * statistics.median(relinked), 4),
                                    "min": round(1e3 * min(relinked), 4)}
    data = pickle.dumps(world, protocol=5)
    out["pickle_bytes"] = len(data)
    out["dumps_ms"] = _ms(lambda: pickle.dumps(world, protocol=5), rounds)
    out["loads_ms"] = _ms(lambda: pickle.loads(data), rounds)
    out["deepcopy_ms"] = _ms(lambda: copy.deepcopy(world), rounds)
    return out


def pymunk_costs(base: int, settle: int, rounds: int) -> dict:
    engine = PymunkEngine()
    engine.build("pyramid", base=base)
    for _ in range(settle):
        engine.step()
    space = engine.space
    data = pickle.dumps(space, protocol=5)
    return {"bodies": len(space.bodies), "version": PymunkEngine.version(),
            "deepcopy_ms": _ms(lambda: copy.deepcopy(space), rounds, budget_s=1.0),
            "dumps_ms": _ms(lambda: pickle.dumps(space, protocol=5), rounds, budget_s=1.0),
            "loads_ms": _ms(lambda: pickle.loads(data), rounds, budget_s=1.0),
            "pickle_bytes": len(data)}


def pybox2d_pickles() -> str:
    engine = Box2DEngine()
    engine.build("pyramid", base=4)
    try:
        pickle.dumps(engine.world)
    except Exception as error:  # what pybox2d says
        return f"cannot pickle: {type(error).__name__}: {error}"
    return "pickles"


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--settle", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--bodies", type=int, nargs="*", default=list(BASES))
    parser.add_argument("--no-peers", action="store_true")
    args = parser.parse_args(argv)
    result = {"machine": platform.machine(), "python": platform.python_version(),
              "load_average_before": list(os.getloadavg()),
              "impulse2d": i2d.__version__, "settle": args.settle, "rounds": args.rounds,
              "scene": "pyramid", "sizes": []}
    for n in args.bodies:
        row = {"impulse2d": impulse2d_costs(BASES[n], args.settle, args.rounds)}
        if not args.no_peers:
            row["pymunk"] = pymunk_costs(BASES[n], args.settle, min(args.rounds, 5))
        result["sizes"].append(row)
        print(json.dumps(row), file=sys.stderr)
    if not args.no_peers:
        result["pybox2d"] = pybox2d_pickles()
    result["load_average_after"] = list(os.getloadavg())
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
