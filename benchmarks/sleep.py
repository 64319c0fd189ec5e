"""What sleeping costs and saves: impulse2d's step with sleeping off and on.

    PYTHONPATH=src python benchmarks/sleep.py --json benchmarks/results/sleep.json

Three measurements, each a median of per-step wall times (``World.profile``):

* ``settled``: ``many_pyramids`` (10 x 10 pyramids of base 10, 5500 boxes) stepped with sleeping
  off until it has settled (``--settle`` steps), timed awake; then sleeping is turned on in the
  same world, and once every box sleeps the step is timed again. The target of issue 14: the
  sleeping step at most 5 % of the awake one. Then with one ball falling beside the sleeping
  boxes (median and worst step). Also ``pyramid`` base 100 (5050 boxes).
* ``stage``: the cost of the sleep stage (timers, union-find islands) while everything is awake:
  ``rain`` (2000 circles) and ``pyramid`` base 20 stepped side by side with sleeping on and off
  (interleaved, so both see the same machine load), the difference of their ``finalize`` shares
  (the stage is counted there) and of their whole steps, over steps where nothing sleeps yet.

The peer comparison (``benchmarks/run.py``) runs impulse2d with sleeping off, as the peers are
run (``engines.Impulse2dEngine``); ``benchmarks/sleep_peers.py`` runs all four with sleeping on.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys

import impulse2d as i2
from impulse2d.scenes import build_scene

DT = 1.0 / 60.0


def _median_ms(values) -> float:
    return round(1e3 * statistics.median(values), 4)


def settled(scene: str, params: dict, settle: int, timed: int) -> dict:
    world = i2.World(enable_sleep=False)
    build_scene(world, scene, **params)
    for _ in range(settle):
        world.step(DT)
    awake = []
    for _ in range(timed):
        world.step(DT)
        awake.append(world.profile.step)
    world.settings.enable_sleep = True
    dynamic = [b for b in world.bodies if b.type == i2.BodyType.DYNAMIC]
    steps_to_sleep = 0
    while any(b.is_awake for b in dynamic):
        world.step(DT)
        steps_to_sleep += 1
        if steps_to_sleep > 600:
            raise RuntimeError(f"{scene} did not fall asleep in 10 s")
    asleep = []
    for _ in range(timed):
        world.step(DT)
        asleep.append(world.profile.step)
    # One awake body in the sleeping world: a ball falling beside it, touching nothing (when
    # its fat box moves, only its pairs are searched again: _dynamics/pair_update.py).
    x_lo = min(b.position.x for b in dynamic) - 10.0
    ball = world.create_body("dynamic", position=(x_lo, 50.0))
    ball.create_circle(0.3)
    one_awake = []
    for _ in range(timed):
        world.step(DT)
        one_awake.append(world.profile.step)
    awake_ms, asleep_ms = _median_ms(awake), _median_ms(asleep)
    return {"scene": scene, "params": params, "bodies": len(dynamic),
            "settle_steps": settle, "steps_to_sleep_after_enabling": steps_to_sleep,
            "awake_step_ms": awake_ms, "asleep_step_ms": asleep_ms,
            "asleep_fraction": round(asleep_ms / awake_ms, 4),
            "one_falling_ball_step_ms": _median_ms(one_awake),
            "one_falling_ball_max_step_ms": round(1e3 * max(one_awake), 4)}


def stage(scene: str, params: dict, skip: int, timed: int) -> dict:
    worlds = {flag: i2.World(enable_sleep=flag) for flag in (False, True)}
    for world in worlds.values():
        build_scene(world, scene, **params)
    step = {False: [], True: []}
    final = {False: [], True: []}
    for n in range(skip + timed):
        for flag, world in worlds.items():
            world.step(DT)
            if n >= skip:
                step[flag].append(world.profile.step)
                final[flag].append(world.profile.finalize)
    asleep = sum(not b.is_awake for b in worlds[True].bodies
                 if b.type == i2.BodyType.DYNAMIC)
    off, on = _median_ms(step[False]), _median_ms(step[True])
    return {"scene": scene, "params": params, "steps": [skip, skip + timed],
            "bodies_asleep_at_end": asleep,
            "step_ms_sleep_off": off, "step_ms_sleep_on": on,
            "finalize_ms_sleep_off": _median_ms(final[False]),
            "finalize_ms_sleep_on": _median_ms(final[True]),
            "stage_ms": round(_median_ms(final[True]) - _median_ms(final[False]), 4),
            "stage_fraction_of_step": round((_median_ms(final[True])
                                             - _median_ms(final[False])) / off, 4)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--settle", type=int, default=400)
    parser.add_argument("--timed", type=int, default=60)
    args = parser.parse_args(argv)
    results = {"machine": platform.processor() or platform.machine(),
               "python": sys.version.split()[0], "impulse2d": i2.__version__,
               "settled": [settled("many_pyramids", {}, args.settle, args.timed),
                           settled("pyramid", {"base": 100}, args.settle, args.timed)],
               "stage": [stage("rain", {"count": 2000}, 30, 120),
                         stage("pyramid", {"base": 20}, 5, 20)]}
    text = json.dumps(results, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
