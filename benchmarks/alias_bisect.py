"""Paired CPU of several source trees on one ``run.py`` scene, by the ratio within each round:
for bisecting a slowdown of a few per cent on a loaded machine whose speed drifts between
minutes (up to 1.9x on the session-14 AMD EPYC VM).

    python benchmarks/alias_bisect.py --trees g=/work/ci-g/src,j=/work/base/src \
        --scene pyramid_100 --rounds 12 --tag bisect_s14

A round runs the scene once per tree, each in a fresh process (``paired_cpu.py --one``: the
scene as ``run.py`` builds it, sleeping off, one thread, the world's default settings, so 4
substeps of the soft step; per-step thread CPU, steps 2..N), the order rotated every round so
that no tree always goes first. Each tree's figure in a round is the median step's CPU; the
ratio of a tree to the first tree is taken **within** the round (the processes ran seconds
apart) and the report gives the median and the quartiles of those ratios over the rounds,
with each tree's state hash (the trees must agree: same physics, different machine code).
Writes JSON to ``benchmarks/results/alias_bisect_<tag>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from paired_cpu import STEPS  # noqa: E402


def child_json(command: list, tree: str, what: str) -> dict:
    """The last JSON line that ``command`` prints, run in a fresh process with ``tree`` first on
    ``PYTHONPATH`` (exits with its stderr if it printed none)."""
    out = subprocess.run(command, env=dict(os.environ, PYTHONPATH=tree), capture_output=True,
                         text=True)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        sys.exit(f"{what} ({tree}) failed:\n{out.stderr[-2000:]}")
    return json.loads(lines[-1])


def run_once(tree: str, scene: str, steps: int, python: str) -> dict:
    """One fresh process of ``paired_cpu.py --one`` with ``tree`` first on ``PYTHONPATH``."""
    return child_json([python, str(HERE / "paired_cpu.py"), "--a", "-", "--b", "-", "--one",
                       scene, str(steps)], tree, scene)


def tree_rounds(trees: dict, rounds: int, run, show) -> tuple[dict, list]:
    """``rounds`` rounds of ``run(tree_path)`` once per tree of ``trees`` (name -> path), the
    order rotated each round and reversed every other cycle so that no tree always goes first;
    prints each round with ``show(result)``. Returns (name -> results, load per round)."""
    names = list(trees)
    runs = {name: [] for name in names}
    loads = []
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        if r // len(names) % 2:
            order.reverse()
        for name in order:
            runs[name].append(run(os.path.abspath(trees[name])))
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}: " + "  ".join(f"{n} {show(runs[n][-1])}" for n in names)
              + f"  load {loads[-1]:.1f}", flush=True)
    return runs, loads


def quartiles(values: list) -> list:
    """Min, lower quartile, median, upper quartile, max."""
    if len(values) < 2:
        return values * 5
    q = statistics.quantiles(values, n=4)
    return [min(values), q[0], statistics.median(values), q[2], max(values)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trees", required=True, help="name=src_path,... (the first is the reference)")
    ap.add_argument("--scene", default="pyramid_100")
    ap.add_argument("--steps", type=int, default=0, help="steps a run (default: paired_cpu's)")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--tag", default="s14")
    args = ap.parse_args()
    trees = dict(item.split("=", 1) for item in args.trees.split(","))
    names = list(trees)
    steps = args.steps or STEPS[args.scene]
    runs, loads = tree_rounds(trees, args.rounds,
                              lambda tree: run_once(tree, args.scene, steps, args.python),
                              lambda x: f"{x['cpu_median_us']:.0f}")
    ref = names[0]
    report = {"scene": args.scene, "steps": steps, "rounds": args.rounds,
              "step": "run.py's scene, sleeping off, one thread, default settings (soft step, "
                      "4 substeps); per-step thread CPU, median step of steps 2..N",
              "load": [min(loads), statistics.median(loads), max(loads)],
              "trees": trees, "hashes": {n: sorted({x["hash"] for x in runs[n]}) for n in names},
              "median_step_us": {n: quartiles([x["cpu_median_us"] for x in runs[n]])
                                 for n in names},
              "ratio_to_" + ref: {}}
    for name in names[1:]:
        ratios = [b["cpu_median_us"] / a["cpu_median_us"] for a, b in zip(runs[ref], runs[name])]
        report["ratio_to_" + ref][name] = [round(x, 3) for x in quartiles(ratios)]
    for a, b in zip(names, names[1:]):
        if a != ref:
            ratios = [y["cpu_median_us"] / x["cpu_median_us"] for x, y in zip(runs[a], runs[b])]
            report.setdefault("neighbours", {})[f"{b}/{a}"] = [round(x, 3)
                                                              for x in quartiles(ratios)]
    report["runs"] = runs
    print(json.dumps({k: v for k, v in report.items() if k != "runs"}, indent=1))
    out = HERE / "results" / f"alias_bisect_{args.tag}.json"
    out.write_text(json.dumps(report, indent=1))
    print("wrote", out)


if __name__ == "__main__":
    main()
