"""The continuous stage's sweeps, this checkout against another: CPU a step, paired, and the
trajectories' hashes.

    python benchmarks/perf_sweeps.py --base /work/base/.venv/bin/python [--rounds 5]

Scenes (sleeping off, one thread, the default step: 4 substeps, soft_step):

- ``bullets_500``: ``continuous.py``'s 500 bullet circles at 50-200 m/s in a walled room with
  40 free planks, no gravity: every step sweeps every bullet (the general path,
  ``_sweep_pass``), with Box2D v3's rules and with Box2D 2.3's (``continuous_box2d23``);
- ``rain_2000``: 2,000 circles falling into a box, the fast ones swept against the kept grid
  of static shapes (``kept_pass``);
- ``chain_loop_kicks``: a circle kicked at 20 m/s inside a chain loop (chain segments as
  obstacles).

Each child process (``--child``, the interpreter given) builds a scene, steps it ``--warm``
times (kernels loaded or compiled), then ``--steps`` more timed with ``time.process_time``
(the CPU of the whole process: the machine is shared, so wall time is noise) and hashes the
bodies' motion (``World.state_hash(motion_only=True)``). Rounds alternate the two
interpreters; the ratio is this checkout's CPU over the other's, per round, and its median.
Writes ``benchmarks/results/perf_sweeps_<tag>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SCENES = {"bullets_500": {}, "bullets_500_box2d23": {"continuous_box2d23": True},
          "rain_2000": {}, "chain_loop_kicks": {}}
STEPS = {"bullets_500": 120, "bullets_500_box2d23": 120, "rain_2000": 120,
         "chain_loop_kicks": 240}
WARM = {"bullets_500": 20, "bullets_500_box2d23": 20, "rain_2000": 200, "chain_loop_kicks": 20}


def child(scene: str, warm: int, steps: int) -> dict:
    import impulse2d
    from impulse2d.scenes import build_scene, step_scene
    options = {"enable_sleep": False, **SCENES[scene]}
    info = None
    if scene.startswith("bullets_500"):
        sys.path.insert(0, str(HERE))
        from continuous import build_bullets_i2d
        world = impulse2d.World(gravity=(0, 0), **options)
        build_bullets_i2d(world)
    else:
        world = impulse2d.World(**options)
        params = {"count": 2000} if scene == "rain_2000" else {}
        info = build_scene(world, scene.split("_2000")[0], **params)
    k = 0
    for _ in range(warm):
        step_scene(world, info, k) if info is not None else world.step(1.0 / 60.0)
        k += 1
    begin = time.process_time()
    for _ in range(steps):
        step_scene(world, info, k) if info is not None else world.step(1.0 / 60.0)
        k += 1
    cpu = time.process_time() - begin
    return {"cpu_ms_per_step": 1e3 * cpu / steps,
            "hash": world.state_hash(motion_only=True)[:16]}


def run_child(python: str, scene: str, warm: int, steps: int) -> dict:
    out = subprocess.run([python, str(Path(__file__).resolve()), "--child", scene,
                          "--warm", str(warm), "--steps", str(steps)],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=False, help="the other checkout's interpreter")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scenes", default=",".join(SCENES))
    ap.add_argument("--tag", default="s13")
    ap.add_argument("--child", metavar="SCENE", help=argparse.SUPPRESS)
    ap.add_argument("--warm", type=int, default=None)
    ap.add_argument("--steps", type=int, default=None)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.warm, args.steps)))
        return
    engines = {"this": sys.executable}
    if args.base:
        engines["base"] = args.base
    report = {"engines": engines, "rounds": args.rounds, "load": os.getloadavg(),
              "step": "sleeping off, 1 thread, 4 substeps, soft_step", "scenes": {}}
    for scene in args.scenes.split(","):
        warm, steps = WARM[scene], STEPS[scene]
        for name, python in engines.items():  # kernels loaded or compiled once, untimed
            run_child(python, scene, 1, 1)
        rows = {name: [] for name in engines}
        for r in range(args.rounds):
            order = list(engines) if r % 2 == 0 else list(reversed(engines))
            for name in order:
                rows[name].append(run_child(engines[name], scene, warm, steps))
        entry = {name: {"cpu_ms_per_step": [round(x["cpu_ms_per_step"], 4) for x in got],
                        "hash": sorted({x["hash"] for x in got})}
                 for name, got in rows.items()}
        line = f"{scene:22s} this {statistics.median(entry['this']['cpu_ms_per_step']):8.3f} ms"
        if "base" in entry:
            ratios = [t["cpu_ms_per_step"] / b["cpu_ms_per_step"]
                      for t, b in zip(rows["this"], rows["base"])]
            entry["ratio_median"] = round(statistics.median(ratios), 3)
            entry["ratios"] = [round(x, 3) for x in ratios]
            entry["same_hash"] = entry["this"]["hash"] == entry["base"]["hash"]
            line += (f"  base {statistics.median(entry['base']['cpu_ms_per_step']):8.3f} ms"
                     f"  ratio {entry['ratio_median']:.3f} ({min(ratios):.3f}-{max(ratios):.3f})"
                     f"  hashes {'equal' if entry['same_hash'] else 'DIFFER'}")
        print(line, flush=True)
        report["scenes"][scene] = entry
    report["load_after"] = os.getloadavg()
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"perf_sweeps_{args.tag}.json"
    out.write_text(json.dumps(report, indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
