"""The layer's LunarLander with resets, this checkout against another, in alternated processes
(issue 31 item 8: LunarLander on the pybox2d layer at >= 0.7x Box2D 2.3, resets included).

    python benchmarks/layer_paired.py --base /work/base [--base-python P] [--pairs 8] [--json F]

Each run is ``gym_envs.py --mode interleaved --envs LunarLander-v3`` of one checkout, with its
own copy of the script, its own ``src`` and its own Python: Gymnasium's random-action episodes
(20,000 environment steps, every ``reset()`` timed) on the layer and on Box2D 2.3 in one
process, alternating in chunks of 200 steps, each engine's CPU time summed. The ratio (the
layer's steps per CPU second over Box2D's, with and without the resets) is paired inside each
process, so it is the figure to read on a loaded machine; the two checkouts' runs alternate,
the order reversed every other pair, so that both see the same stretch of load. Reported per
run: the ratios, each engine's mean reset (CPU ms) and the load average; then the medians.
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
FIELDS = ("ratio with resets", "ratio without", "layer reset ms", "Box2D reset ms",
          "layer reset over Box2D's", "load 1 min")


def _run(root: str, python: str) -> list:
    """One interleaved LunarLander run of the checkout at ``root``: a row of :data:`FIELDS`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        env = {**os.environ, "PYTHONPATH": os.path.join(root, "src"),
               "SDL_VIDEODRIVER": "dummy"}
        subprocess.run([python, os.path.join(root, "benchmarks", "gym_envs.py"), "--mode",
                        "interleaved", "--envs", "LunarLander-v3", "--json", out],
                       cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            report = json.load(f)
    lander = report["environments"]["LunarLander-v3"]
    layer, box2d = lander["impulse2d"]["reset_cpu_ms"], lander["box2d"]["reset_cpu_ms"]
    return [lander["ratio"], lander["ratio_without_resets"], layer, box2d,
            round(layer / box2d, 2), round(os.getloadavg()[0], 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the other checkout (its src, benchmarks)")
    parser.add_argument("--base-python", help="its Python (default: its .venv's)")
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    trees = {"base": (os.path.abspath(args.base),
                      args.base_python or os.path.join(args.base, ".venv", "bin", "python")),
             "this": (os.path.dirname(HERE), sys.executable)}
    rows: dict = {name: [] for name in trees}
    for k in range(args.pairs):
        for name in (list(trees) if k % 2 == 0 else list(trees)[::-1]):
            rows[name].append(_run(*trees[name]))
            print(name, k, rows[name][-1], flush=True)
    medians = {name: [round(statistics.median(r[i] for r in runs), 3)
                      for i in range(len(FIELDS))] for name, runs in rows.items()}
    report = {"what": "gym_envs.py --mode interleaved --envs LunarLander-v3, alternated",
              "fields": list(FIELDS), "base_root": trees["base"][0],
              "this_root": trees["this"][0], **rows, "medians": medians,
              "runs_with_resets_at_least_0.7": {name: sum(r[0] >= 0.7 for r in runs)
                                                for name, runs in rows.items()}}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
