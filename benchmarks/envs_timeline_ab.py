"""Two checkouts' native-environment step timelines, fresh processes alternating: the wall of a
2-thread environment step and its serial parts, paired round by round.

    PYTHONPATH=src python benchmarks/envs_timeline_ab.py --a /work/base [--b .] [--rounds 4] \
        [--steps 300] [--env lander] [--chrt 10] [--json FILE]

Each round runs each checkout's own ``benchmarks/envs_timeline.py`` (with its own ``src`` and
kernel cache) once, a then b, the order swapped every other round, and reads the CPU-to-CPU
line latency (``vcpu_siblings.py``) before each run: the two vCPUs' mode (24-30 ns or
158-178 ns) is noted beside every run. ``--chrt N`` runs the timelines at real-time priority
``N`` (root: on a loaded machine each thread then has a core whenever it is runnable, so the
wall means something). Printed per run: the medians (ns of wall an environment step) of the
step, the serial Python before and after the kernel, the helper's idle time and the restarts
(``envs_timeline.py``'s medians over the steps), the load and the env-steps/s of wall; then per
round the ratio b / a of the step's median, and the median of those ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from statistics import median

HERE = os.path.dirname(os.path.abspath(__file__))
PIECES = ("step", "before kernel", "after kernel", "helper idle", "_restart")


def latency(python: str) -> float:
    """The vCPUs' one-way line latency now, ns (``vcpu_siblings.py``'s ping-pong)."""
    out = subprocess.run([python, os.path.join(HERE, "vcpu_siblings.py")], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out[out.index("{"):])["ping_pong_one_way_ns"]


def run_tree(python: str, tree: str, args) -> dict:
    """One timeline of ``tree``'s checkout: its JSON's medians of :data:`PIECES`."""
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        cmd = [python, os.path.join(tree, "benchmarks", "envs_timeline.py"), "--env", args.env,
               "--steps", str(args.steps), "--json", f.name]
        if args.chrt:
            cmd = ["chrt", "-f", str(args.chrt)] + cmd
        env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src"))
        subprocess.run(cmd, env=env, cwd=tree, check=True, capture_output=True)
        data = json.load(open(f.name))
    pieces = data["pieces"]
    return {k: pieces[k]["median_ns_per_env_step"] for k in PIECES if k in pieces} | {
        "load": data["load"], "rate": data["env_steps_per_s_wall"]}


def main() -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="checkout a (e.g. main's clone)")
    parser.add_argument("--b", default=os.path.dirname(HERE), help="checkout b (this one)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--env", default="lander")
    parser.add_argument("--chrt", type=int, default=0)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    python = sys.executable
    runs, ratios = [], []
    for r in range(args.rounds):
        order = ("a", "b") if r % 2 == 0 else ("b", "a")
        got = {}
        for side in order:
            ns = latency(python)
            got[side] = run_tree(python, getattr(args, side), args) | {"latency_ns": ns}
            print(f"round {r + 1} {side}: " + ", ".join(
                f"{k} {v:.0f}" if isinstance(v, (int, float)) else f"{k} {v}"
                for k, v in got[side].items()), flush=True)
        ratios.append(got["b"]["step"] / got["a"]["step"])
        runs.append(got)
        print(f"round {r + 1}: step b / a {ratios[-1]:.3f}", flush=True)
    out = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b), "env": args.env,
           "steps": args.steps, "chrt": args.chrt, "rounds": runs,
           "step_ratio_b_over_a": ratios, "median_ratio": median(ratios)}
    print(f"median step b / a: {out['median_ratio']:.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
