"""The layer's Gymnasium environments with resets, this checkout against another, in alternated
processes (issue 31 item 8: LunarLander, BipedalWalker and CarRacing on the pybox2d layer at
>= 0.7x Box2D 2.3, resets included).

    python benchmarks/layer_paired.py --base /work/base [--base-python P] [--pairs 8] [--json F]
        [--envs LunarLander-v3 BipedalWalker-v3 CarRacing-v3] [--scale 0.5]

Each run is ``gym_envs.py --mode interleaved --envs ENVS --scale S`` of one checkout, with its
own copy of the script, its own ``src`` and its own Python: Gymnasium's random-action episodes
(LunarLander 20,000 environment steps, BipedalWalker 6,000, CarRacing 2,000, times ``--scale``;
every ``reset()`` timed) on the layer and on Box2D 2.3 in one process, alternating in chunks of
200 steps, each engine's CPU time summed. The ratio (the layer's steps per CPU second over
Box2D's, with and without the resets) is paired inside each process, so it is the figure to
read on a loaded machine; the two checkouts' runs alternate, the order reversed every other
pair, so that both see the same stretch of load. Reported per run and environment: the ratios,
each engine's mean reset (CPU ms) and the load average; then the medians (default:
LunarLander alone, at scale 1, as the runs before session 15).
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


def _run(root: str, python: str, envs: list, scale: float) -> dict:
    """One interleaved run of ``envs`` in the checkout at ``root``: a row of :data:`FIELDS`
    per environment."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        env = {**os.environ, "PYTHONPATH": os.path.join(root, "src"),
               "SDL_VIDEODRIVER": "dummy"}
        subprocess.run([python, os.path.join(root, "benchmarks", "gym_envs.py"), "--mode",
                        "interleaved", "--envs", *envs, "--scale", str(scale), "--json", out],
                       cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            report = json.load(f)
    rows = {}
    for name in envs:
        measured = report["environments"][name]
        layer, box2d = measured["impulse2d"]["reset_cpu_ms"], measured["box2d"]["reset_cpu_ms"]
        rows[name] = [measured["ratio"], measured["ratio_without_resets"], layer, box2d,
                      round(layer / box2d, 2), round(os.getloadavg()[0], 2)]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the other checkout (its src, benchmarks)")
    parser.add_argument("--base-python", help="its Python (default: its .venv's)")
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--envs", nargs="+", default=["LunarLander-v3"])
    parser.add_argument("--scale", type=float, default=1.0, help="gym_envs.py's --scale")
    args = parser.parse_args()
    trees = {"base": (os.path.abspath(args.base),
                      args.base_python or os.path.join(args.base, ".venv", "bin", "python")),
             "this": (os.path.dirname(HERE), sys.executable)}
    rows: dict = {(name, env): [] for name in trees for env in args.envs}
    for k in range(args.pairs):
        for name in (list(trees) if k % 2 == 0 else list(trees)[::-1]):
            for env, row in _run(*trees[name], args.envs, args.scale).items():
                rows[(name, env)].append(row)
                print(name, env, k, row, flush=True)
    # (LunarLander alone: the report keyed by tree, as before session 15)
    key = (lambda name, env: name) if args.envs == ["LunarLander-v3"] else \
        (lambda name, env: f"{name} {env}")
    runs_of = {key(*k): runs for k, runs in rows.items()}
    medians = {name: [round(statistics.median(r[i] for r in runs), 3)
                      for i in range(len(FIELDS))] for name, runs in runs_of.items()}
    report = {"what": f"gym_envs.py --mode interleaved --envs {' '.join(args.envs)} "
                      f"--scale {args.scale}, alternated",
              "fields": list(FIELDS), "base_root": trees["base"][0],
              "this_root": trees["this"][0], **runs_of, "medians": medians,
              "runs_with_resets_at_least_0.7": {name: sum(r[0] >= 0.7 for r in runs)
                                                for name, runs in runs_of.items()}}
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
