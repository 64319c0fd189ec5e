"""A small world's step split into Python's layers, the compiled call and the kernel's stages,
beside a peer's step (pymunk by default), all in one process, interleaved.

    PYTHONPATH=src /path/to/bench-venv/bin/python benchmarks/small_split.py \\
        [--scenes restitution,friction_ramp] [--rounds 101] [--calls 500] [--json out.json]

A step is ``World.step(1/60)`` with ``run.py``'s settings (``soft_step``, 4 substeps, 1 thread,
sleeping off); the peer steps its own ``run.py`` world (pymunk: ``Space(iterations=10)``). Each
round builds the peer's scene afresh and restores impulse2d's snapshot, both 60 steps in, then
times ``--calls`` steps of each layer, the layers in a rotating order:

* ``world_step``: ``World.step`` (the facade: the lock, the ``dt`` check, events, the writes
  after the step);
* ``step_world``: :func:`impulse2d._stepping.step_world` (the kept checks, the clock reads
  for ``World.profile``, the writes after the kernel);
* ``entry``: the step kernel's compiled entry called with ``step_world``'s arguments, the rare
  new store adopted as ``step_world`` adopts it (the call, Numba's unboxing, the kernel);
* ``clocks``: two ``time.perf_counter()`` calls (what ``step_world`` reads for the profile);
* ``peer``: the peer's step.

Times are CPU seconds of this process (``time.process_time``) per call, least and median over
the rounds: the machine is shared (the least is the round the fewest other processes
disturbed; the median ranks steadier). The kernel's stages are cycles of its own clock
(``World._clock``), median over a pass of ``--calls`` steps, least over 5 passes. Each layer's
share is its time less the next layer's: ``facade = world_step - step_world``, ``checks and
writes = step_world - entry``; ``entry`` less the stages' cycles is the call and the kernel's
code outside its clock.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
STAGES = ("pairs", "collide", "prepare", "solve", "finalize", "continuous")
DT = 1.0 / 60.0
WARM = 60


def _built(scene_key: str, engine_name: str):
    from engines import make_engine
    from run import SCENES
    scene, params, _, _, _ = SCENES[scene_key]
    eng = make_engine(engine_name, {})
    eng.build(scene, **params)
    for _ in range(WARM):
        eng.step()
    return eng


def _layers(world, peer_name: str, scene_key: str):
    """The layers of one scene: for each, ``(reset, run)``, ``run(n)`` taking ``n`` steps (the
    timed part) from the start ``reset()`` makes (untimed)."""
    from time import perf_counter

    from impulse2d import _stepping
    from impulse2d._dynamics import step as S

    snap = world.snapshot()
    entry, whole, adopt = S._step.entry, S.WHOLE, _stepping.adopt_step_stores
    step_world = _stepping.step_world
    state = {}

    def reset_world():
        world.restore(snap)
        world.step(DT)  # (the first step after a restore is not a step like the others)

    def world_step(n):
        step = world.step
        for _ in range(n):
            step(DT)

    def layer_step_world(n):
        for _ in range(n):
            step_world(world, DT)

    def bare(n):
        d = world.__dict__
        stores = d["_stores"]
        gx, gy = d["_gravity"]
        sleepers = d["_sleepers"] != 0
        filtered = d["_joint_index"]["filtered"]
        for _ in range(n):
            contacts, constraints, _, _, _, _ = entry(stores, False, DT, gx, gy, sleepers,
                                                     filtered, whole)
            if contacts or constraints:
                adopt(world, contacts, constraints)

    def clocks(n):
        for _ in range(n):
            perf_counter()
            perf_counter()

    def reset_peer():
        state["peer"] = _built(scene_key, peer_name)

    def peer(n):
        step = state["peer"].step
        for _ in range(n):
            step()

    return {"world_step": (reset_world, world_step),
            "step_world": (reset_world, layer_step_world),
            "entry": (reset_world, bare),
            "clocks": (lambda: None, clocks),
            "peer": (reset_peer, peer)}


def _stage_cycles(world, calls: int) -> dict:
    snap = world.snapshot()
    passes = []
    for _ in range(5):
        world.restore(snap)
        world.step(DT)
        cs = np.empty((calls, len(STAGES)), dtype=np.int64)
        clock = world._clock
        for i in range(calls):
            world.step(DT)
            cs[i] = np.diff(clock)
        passes.append(np.median(cs, axis=0))
    world.restore(snap)
    least = np.min(passes, axis=0)
    return {"stages": dict(zip(STAGES, (int(c) for c in least))), "total": int(least.sum())}


def measure(scene_key: str, peer_name: str, rounds: int, calls: int) -> dict:
    world = _built(scene_key, "impulse2d").world
    layers = _layers(world, peer_name, scene_key)
    names = list(layers)
    took = {name: [] for name in names}
    for r in range(rounds):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            reset, run = layers[name]
            reset()
            t = time.process_time()
            run(calls)
            took[name].append(1e6 * (time.process_time() - t) / calls)
    out = {name: {"least": min(v), "median": statistics.median(v)} for name, v in took.items()}
    for stat in ("least", "median"):
        out.setdefault("split", {})[stat] = {
            "facade": out["world_step"][stat] - out["step_world"][stat],
            "checks_and_writes": out["step_world"][stat] - out["entry"][stat],
            "ratio_to_peer": out["world_step"][stat] / out["peer"][stat]}
    out["cycles"] = _stage_cycles(world, calls)
    reset, run = layers["world_step"]
    reset()
    run(calls)
    out["hash"] = world.state_hash(motion_only=True)[:12]  # the same in both trees
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", default="restitution,friction_ramp")
    parser.add_argument("--peer", default="pymunk")
    parser.add_argument("--rounds", type=int, default=101)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    result = {"step": "World.step(1/60): soft_step, 4 substeps, 1 thread, sleeping off",
              "peer": args.peer, "rounds": args.rounds, "calls": args.calls,
              "load": os.getloadavg()[0], "scenes": {}}
    for name in args.scenes.split(","):
        r = measure(name, args.peer, args.rounds, args.calls)
        result["scenes"][name] = r
        least, median = r["split"]["least"], r["split"]["median"]
        print(f"{name}: " + ", ".join(
            f"{k} {r[k]['least']:.2f} / {r[k]['median']:.2f}"
            for k in ("world_step", "step_world", "entry", "clocks", "peer"))
            + f" us (least / median); facade {least['facade']:.2f}, checks and writes "
            f"{least['checks_and_writes']:.2f}; impulse2d / peer {least['ratio_to_peer']:.2f} / "
            f"{median['ratio_to_peer']:.2f}; stages {r['cycles']['total']} cycles "
            f"{r['cycles']['stages']}; hash {r['hash']}")
    result["load_after"] = os.getloadavg()[0]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
