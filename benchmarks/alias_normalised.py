"""Fresh processes of several trees, each step timed against work that is the same in every tree:
whether a tree's *process* (not its code) steps slower, with the machine's drift divided out.

    python benchmarks/alias_normalised.py --trees g=/work/ci-g/src,j=/work/base/src \
        --scene pyramid_100 --rounds 6 --tag pyramid100_s14

The machine's speed drifts between processes (up to 1.9x on the session-14 VM), which drowns a
difference of a few per cent between two trees' fresh processes. Inside each process this
times each step against a reference that no tree changes (NumPy sorting a fixed array of
``--sort`` float64, about a step's time), in turn, ABBA; the process's figure is the median
over ``--pairs`` of step / reference, so a process on a slow minute or a slow core reads as
any other. A round runs one process per tree, the order rotated; the ratio of each tree's
figure to the first tree's is taken within the round, its median and quartiles reported.
What the figure keeps is what differs between the trees' processes: the code and where the
process put its arrays and its machine code. A step is the scene as ``run.py`` builds it,
sleeping off, one thread, default settings (the soft step, 4 substeps); thread CPU. Writes JSON
to ``benchmarks/results/alias_normalised_<tag>.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from alias_bisect import child_json, tree_rounds  # noqa: E402

import numpy as np

HERE = Path(__file__).resolve().parent


def one_run(scene: str, warm: int, pairs: int, sort: int) -> dict:
    sys.path.insert(0, str(HERE))
    from alias_swap import build
    world = build(scene)
    for _ in range(warm):
        world.step(1 / 60)
    data = np.random.default_rng(1).random(sort)
    cpu = {"step": [], "reference": []}
    for k in range(2 * pairs):
        who = ("step", "reference", "reference", "step")[k % 4]
        c = time.thread_time()
        if who == "step":
            world.step(1 / 60)
        else:
            np.sort(data)
        cpu[who].append(time.thread_time() - c)
    ratios = [s / r for s, r in zip(cpu["step"], cpu["reference"])]
    return {"normalised": statistics.median(ratios),
            "step_us": statistics.median(cpu["step"]) * 1e6,
            "reference_us": statistics.median(cpu["reference"]) * 1e6,
            "hash": world.state_hash()[:16]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trees", required=True, help="name=src_path,... (the first is the reference)")
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--warm", type=int, default=10)
    ap.add_argument("--pairs", type=int, default=80)
    ap.add_argument("--sort", type=int, default=400_000, help="float64 sorted as the reference")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--tag", default="s14")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one_run(args.scene, args.warm, args.pairs, args.sort)))
        return
    trees = dict(item.split("=", 1) for item in args.trees.split(","))
    names = list(trees)
    runs, loads = tree_rounds(
        trees, args.rounds,
        lambda tree: child_json([args.python, __file__, "--trees", "-", "--one", "--scene",
                                  args.scene, "--warm", str(args.warm), "--pairs",
                                  str(args.pairs), "--sort", str(args.sort)], tree, args.scene),
        lambda x: f"{x['normalised']:.3f} ({x['step_us']:.0f} us)")
    ref = names[0]
    report = {"scene": args.scene, "warm": args.warm, "pairs": args.pairs, "sort": args.sort,
              "rounds": args.rounds,
              "step": "run.py's scene, sleeping off, one thread, default settings (soft step, "
                      "4 substeps); thread CPU over a NumPy sort's in the same process",
              "load": [min(loads), statistics.median(loads), max(loads)], "trees": trees,
              "hashes": {n: sorted({x["hash"] for x in runs[n]}) for n in names},
              "ratio_to_" + ref: {}}
    for name in names[1:]:
        for key in ("normalised", "step_us"):
            ratios = [b[key] / a[key] for a, b in zip(runs[ref], runs[name])]
            report["ratio_to_" + ref][f"{name} {key}"] = [
                round(x, 3) for x in statistics.quantiles(ratios, n=4, method="inclusive")]
    report["runs"] = runs
    print(json.dumps({k: v for k, v in report.items() if k != "runs"}, indent=1))
    out = HERE / "results" / f"alias_normalised_{args.tag}.json"
    out.write_text(json.dumps(report, indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
