"""Step time of every solver on the same scenes, measured in one process, interleaved.

    python benchmarks/solver_steps.py                        # pyramid_20, chain_100, pyramid_100
    python benchmarks/solver_steps.py --scenes chain_100 --rounds 10 --block 40

One world per solver variant and scene (the seven variants: every name of
``impulse2d.settings.SOLVERS`` and ``direct`` at ``direct_level="acceleration"``). After a
warm-up (which loads or compiles the kernels), the variants take turns: each round steps every
variant ``block`` times, in an order rotated from round to round, so that the load of a shared
machine falls on all of them alike. Blocks are long enough that switching worlds (each with its
own arrays, cold in the caches after the others ran) does not set the median: pyramid_100 in
blocks of 6 steps measured 38-48 ms a step, in blocks of 25 (the default) 25-31 ms, alone 26 ms. Each step is timed alone (``world.step``); the figure is the
median over all rounds, in ms. Sleeping is off, so that every timed step solves the whole
scene (a settled pyramid otherwise falls asleep and costs nearly nothing). All worlds have taken the same number of steps when timed, so
they are at the same stage of the scene. ``direct`` runs without a fallback: where an island
is above ``direct_max_rows`` (400) the step raises ``ValueError`` and the variant is reported
as not feasible, with the error's text (which names the island's rows).

Writes ``benchmarks/results/solver_steps.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import impulse2d
from impulse2d.scenes import build_scene
from impulse2d.settings import SOLVERS

HERE = Path(__file__).resolve().parent
DT = 1.0 / 60.0

# name -> (scene, params, warm-up steps, steps per block, rounds)
SCENES = {
    "pyramid_20": ("pyramid", {"base": 20}, 20, 40, 10),
    "chain_100": ("chain", {"links": 100}, 20, 40, 10),
    "pyramid_100": ("pyramid", {"base": 100}, 3, 25, 4),
}
VARIANTS = {name: {"solver": name} for name in SOLVERS}
VARIANTS["direct_accel"] = {"solver": "direct", "direct_level": "acceleration"}


def measure(scene: str, rounds: int | None = None, block: int | None = None) -> dict:
    kind, params, warm, blk, rnds = SCENES[scene]
    rounds = rounds or rnds
    block = block or blk
    worlds, out = {}, {}
    for name, settings in VARIANTS.items():
        w = impulse2d.World(enable_sleep=False, **settings)
        build_scene(w, kind, **params)
        try:
            for _ in range(warm):
                w.step(DT)
        except ValueError as exc:
            out[name] = {"feasible": False, "error": str(exc)}
            continue
        worlds[name] = w
        out[name] = {"feasible": True, "times_ms": []}
    names = list(worlds)
    perf = time.perf_counter
    for r in range(rounds):
        k = r % len(names) if names else 0
        for name in names[k:] + names[:k]:
            w, times = worlds[name], out[name]["times_ms"]
            for _ in range(block):
                t0 = perf()
                w.step(DT)
                times.append(1000.0 * (perf() - t0))
    for name in names:
        t = out[name].pop("times_ms")
        out[name].update(ms_median=statistics.median(t), ms_p10=sorted(t)[len(t) // 10],
                         ms_p90=sorted(t)[(9 * len(t)) // 10], steps_timed=len(t))
        if VARIANTS[name]["solver"] == "direct":
            out[name]["direct_stats"] = worlds[name].direct_stats
    return {"scene": kind, "params": params, "warmup_steps": warm, "block": block,
            "rounds": rounds, "variants": out}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default=",".join(SCENES))
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--block", type=int, default=None)
    ap.add_argument("--out", default=str(HERE / "results" / "solver_steps.json"))
    a = ap.parse_args(argv)
    report = {"meta": {"date": time.strftime("%Y-%m-%d %H:%M:%S"),
                       "python": platform.python_version(), "machine": platform.platform(),
                       "impulse2d": impulse2d.__version__, "dt": DT}, "scenes": {}}
    for scene in a.scenes.split(","):
        res = measure(scene, a.rounds, a.block)
        report["scenes"][scene] = res
        for name, v in res["variants"].items():
            if v["feasible"]:
                print(f"{scene:12s} {name:14s} {v['ms_median']:9.3f} ms/step "
                      f"(p10 {v['ms_p10']:.3f}, p90 {v['ms_p90']:.3f}, n {v['steps_timed']})",
                      flush=True)
            else:
                print(f"{scene:12s} {name:14s} not feasible: {v['error']}", flush=True)
    Path(a.out).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
