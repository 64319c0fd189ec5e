"""``envs_paired.py``'s paired ratio against ``envs_bench.py``'s single-shot ratio, the two run
alternately: how wide each one's spread is on the same machine in the same half hour.

    PYTHONPATH=/work/base/src python benchmarks/envs_paired_vs_single.py --runs 4 \
        --json benchmarks/results/NAME.json [--env lander] [--rounds 20] [--keep DIR] [--rt 10]

``--runs`` pairs, each one ``envs_bench.py --threads 2`` (its defaults: Box2D 20,000 steps,
then 100 native vector steps of 1,024) and one ``envs_paired.py`` (``--rounds`` rounds of
~0.5 s blocks), in fresh processes, the order swapped every pair. Each run's JSON is kept
under ``--keep`` (default: a temporary directory). Printed and written: each single shot's
ratio, Box2D and native rates; each paired run's median, quartiles, min and max of its
per-round ratios and its vCPU probes; the load before each run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _run(args: list, out: str, prefix=()) -> dict:
    subprocess.run([*prefix, sys.executable, *args, "--json", out], check=True,
                   stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def single(env: str, out: str, rt: int = 0) -> dict:
    """One ``envs_bench.py`` run at 2 threads (at real-time priority ``rt``, every thread:
    ``chrt -f``): its ratio and its two rates."""
    load = os.getloadavg()[0]
    r = _run([os.path.join(HERE, "envs_bench.py"), "--env", env, "--threads", "2"], out,
             ["chrt", "-f", str(rt)] if rt else ())
    return {"load": round(load, 2), "ratio": r["speedup_over_box2d_single"],
            "box2d": r["results"]["box2d_single"]["steps_per_s"],
            "native": r["results"]["impulse2d_native_vector_env"]["steps_per_s"]}


def paired(env: str, rounds: int, out: str, rt: int = 0) -> dict:
    """One ``envs_paired.py`` run (``--rt rt``): its per-round ratios' summary, its rates and
    probes."""
    load = os.getloadavg()[0]
    r = _run([os.path.join(HERE, "envs_paired.py"), "--env", env, "--rounds", str(rounds),
              "--rt", str(rt)], out)
    ratio = r["ratios"]["native/box2d"]
    return {"load": round(load, 2),
            **{k: ratio[k] for k in ("median", "q1", "q3", "min", "max",
                                     "share_at_or_above_target",
                                     "total_steps_over_total_wall")},
            "box2d_median": r["rates"]["box2d"]["median"],
            "native_median": r["rates"]["native"]["median"],
            "one_way_ns": [row["one_way_ns"] for row in r["rounds_data"]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--env", default="lander")
    parser.add_argument("--rt", type=int, default=0, metavar="PRIORITY",
                        help="both at this real-time priority (envs_bench under chrt -f, "
                             "envs_paired --rt)")
    parser.add_argument("--keep", help="keep each run's JSON here")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    keep = args.keep or tempfile.mkdtemp(prefix="envs_paired_vs_single_")
    os.makedirs(keep, exist_ok=True)
    singles, pairs = [], []
    for k in range(args.runs):
        for kind in (("single", "paired") if k % 2 == 0 else ("paired", "single")):
            out = os.path.join(keep, f"{kind}_{k}.json")
            if kind == "single":
                singles.append(single(args.env, out, args.rt))
                s = singles[-1]
                print(f"run {k} single: {s['ratio']:.2f}x (Box2D {s['box2d']:,.0f}, native "
                      f"{s['native']:,.0f}; load {s['load']})", flush=True)
            else:
                pairs.append(paired(args.env, args.rounds, out, args.rt))
                p = pairs[-1]
                print(f"run {k} paired: median {p['median']:.2f}x [{p['q1']:.2f} - "
                      f"{p['q3']:.2f}] min {p['min']:.2f} max {p['max']:.2f}, at or above "
                      f"the target {p['share_at_or_above_target']:.0%} (Box2D "
                      f"{p['box2d_median']:,.0f}, native {p['native_median']:,.0f}; one way "
                      f"{min(x for x in p['one_way_ns'] if x)}-"
                      f"{max(x for x in p['one_way_ns'] if x)} ns; load {p['load']})",
                      flush=True)
    ratios = [s["ratio"] for s in singles]
    medians = [p["median"] for p in pairs]
    report = {"env": args.env, "rounds": args.rounds, "rt_priority": args.rt,
              "singles": singles, "paired": pairs,
              "single_ratios": {"median": statistics.median(ratios), "min": min(ratios),
                                "max": max(ratios)},
              "paired_medians": {"median": statistics.median(medians), "min": min(medians),
                                 "max": max(medians)},
              "runs_kept_in": keep}
    print(f"single shots {min(ratios):.2f}-{max(ratios):.2f}x (median "
          f"{statistics.median(ratios):.2f}); paired medians {min(medians):.2f}-"
          f"{max(medians):.2f}x (median {statistics.median(medians):.2f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
