"""Paired stage times of several source trees on one ``run.py`` scene, robust to a loaded
machine: each stage's *fastest* steps, not its mean.

    python benchmarks/alias_stages.py --trees g=/work/ci-g/src,j=/work/base/src \
        --scene pyramid_100 --rounds 8 --tag pyramid100_s14

A round runs the scene once per tree, each in a fresh process (the order rotated every
round): the scene built as ``run.py`` builds it (sleeping off, one thread, default settings:
the soft step, 4 substeps), ``--warm`` steps untimed, then ``--steps`` steps, each stage's
share read from the step's own clock (``World._clock``: the cycle counter between stages, so
wall ticks, not CPU). A step preempted by one of the other processes reads long; the 10th
percentile of a stage over the steps leaves those out, where a mean or median at load 10-20
does not. The figure is ticks of the constant-rate counter (its rate is the same in every
process, so ratios need no conversion), and the whole step's thread CPU (its 10th
percentile and median) beside it. Ratios of each tree to the first tree are taken within a
round, and reported as the median and quartiles over rounds, with every tree's state hash.
Writes JSON to ``benchmarks/results/alias_stages_<tag>.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from alias_bisect import child_json, tree_rounds  # noqa: E402

HERE = Path(__file__).resolve().parent
PART = 0.1
"""The quantile of a stage's ticks over the steps that stands for it (see the module)."""


def quantile(values: list, part: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(part * len(ordered)))]


def one_run(scene: str, warm: int, steps: int) -> dict:
    """Build ``scene`` (the impulse2d on ``sys.path``), step it, each stage's ticks."""
    sys.path.insert(0, str(HERE))
    import time

    import impulse2d
    import run
    from engines import build_scene
    from impulse2d._dynamics.step import STAGES

    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10))
    world.settings.enable_sleep = False
    build_scene(world, builder, **params)
    for _ in range(warm):
        world.step(1 / 60)
    ticks = {stage: [] for stage in STAGES + ("step",)}
    cpu = []
    for _ in range(steps):
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
        clock = world._clock
        for k, stage in enumerate(STAGES):
            ticks[stage].append(int(clock[k + 1] - clock[k]))
        ticks["step"].append(int(clock[-1] - clock[0]))
    out = {stage: quantile(values, PART) for stage, values in ticks.items()}
    out["cpu_p10_us"] = quantile(cpu, PART) * 1e6
    out["cpu_median_us"] = statistics.median(cpu) * 1e6
    out["hash"] = world.state_hash()[:16]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trees", required=True, help="name=src_path,... (the first is the reference)")
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--warm", type=int, default=10)
    ap.add_argument("--steps", type=int, default=80)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--tag", default="s14")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one_run(args.scene, args.warm, args.steps)))
        return
    trees = dict(item.split("=", 1) for item in args.trees.split(","))
    names = list(trees)
    runs, loads = tree_rounds(
        trees, args.rounds,
        lambda tree: child_json([args.python, __file__, "--trees", "-", "--one", "--scene",
                                  args.scene, "--warm", str(args.warm), "--steps",
                                  str(args.steps)], tree, args.scene),
        lambda x: f"{x['step'] / 1e6:.1f}Mt {x['cpu_p10_us']:.0f}us")
    ref = names[0]
    keys = [k for k in runs[ref][0] if k != "hash"]
    report = {"scene": args.scene, "warm": args.warm, "steps": args.steps,
              "rounds": args.rounds, "quantile": PART,
              "step": "run.py's scene, sleeping off, one thread, default settings (soft step, "
                      "4 substeps)",
              "load": [min(loads), statistics.median(loads), max(loads)], "trees": trees,
              "hashes": {n: sorted({x["hash"] for x in runs[n]}) for n in names},
              "ratios_to_" + ref: {}}
    for name in names[1:]:
        report["ratios_to_" + ref][name] = {
            key: [round(x, 3) for x in statistics.quantiles(
                [b[key] / a[key] for a, b in zip(runs[ref], runs[name]) if a[key] > 0],
                n=4, method="inclusive")]
            for key in keys}
    report["runs"] = runs
    print(json.dumps({k: v for k, v in report.items() if k != "runs"}, indent=1))
    out = HERE / "results" / f"alias_stages_{args.tag}.json"
    out.write_text(json.dumps(report, indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
