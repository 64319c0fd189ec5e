"""``impulse2d warmup --all`` of two trees from empty caches, started together: CPU and wall.

    python benchmarks/warmup_paired.py --a /work/main/src --b src --rounds 1 --json out.json

``--b-in-tree``: tree b compiles into its own ``_kernels/`` (emptied first) rather than a
temporary cache, so that its kernels stay warm for the tests and hashes that follow.

On a shared machine the CPU time of a compile grows with the load, so the two trees run at the
same time (each a fresh process with its own empty ``NUMBA_CACHE_DIR`` and its own compile
helpers), sharing whatever load there is; each round swaps which starts first. CPU is the
process's with every helper it waited for (``os.wait4``'s resource usage); wall is only a note
under load. ``benchmarks/startup.py`` measures one tree's ``warmup --all`` on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_round(trees: dict, in_tree=()) -> dict:
    """Start every tree's ``warmup --all`` at once; each one's CPU, wall and last line.
    ``in_tree``: the names of the trees that compile into their own ``_kernels/``."""
    result, running = {}, {}
    with tempfile.TemporaryDirectory() as top:
        for name, src in trees.items():
            cache = Path(top) / name
            cache.mkdir()
            env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(src),
                       PYTHONPYCACHEPREFIX=str(cache / "pyc"))
            if name in in_tree:
                shutil.rmtree(Path(src) / "impulse2d" / "_kernels", ignore_errors=True)
                del env["NUMBA_CACHE_DIR"]
            err = open(Path(top) / f"{name}.err", "w+")
            process = subprocess.Popen([sys.executable, "-m", "impulse2d.cli", "warmup", "--all"],
                                       env=env, cwd=top, stdout=subprocess.DEVNULL, stderr=err)
            running[process.pid] = (name, time.perf_counter(), err)
        while running:
            pid, status, usage = os.wait4(-1, 0)
            if pid not in running:
                continue
            name, start, err = running.pop(pid)
            err.seek(0)
            lines = err.read().splitlines()
            result[name] = {"wall_s": time.perf_counter() - start,
                            "cpu_s": usage.ru_utime + usage.ru_stime,
                            "rc": os.waitstatus_to_exitcode(status),
                            "last_line": lines[-1] if lines else "",
                            "stderr": lines,
                            "load_1min_at_end": os.getloadavg()[0]}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the first tree's src/ folder")
    parser.add_argument("--b", default=str(ROOT / "src"), help="the second's (this checkout)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", help="write the rounds here")
    parser.add_argument("--b-in-tree", action="store_true",
                        help="tree b compiles into its own _kernels/ (kept warm afterwards)")
    args = parser.parse_args()
    rounds = []
    for k in range(args.rounds):
        order = ("a", "b") if k % 2 == 0 else ("b", "a")
        trees = {name: Path(getattr(args, name)).resolve() for name in order}
        load = os.getloadavg()[0]
        result = one_round(trees, ("b",) if args.b_in_tree else ())
        rounds.append({"load_1min_at_start": load, **result})
        a, b = result["a"], result["b"]
        print(f"round {k + 1} (load {load:.1f} at the start): CPU a {a['cpu_s']:.1f} s, "
              f"b {b['cpu_s']:.1f} s (b/a {b['cpu_s'] / a['cpu_s']:.3f}); wall a "
              f"{a['wall_s']:.0f} s, b {b['wall_s']:.0f} s; rc {a['rc']} / {b['rc']}",
              flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"a": args.a, "b": args.b, "rounds": rounds},
                                              indent=1))


if __name__ == "__main__":
    main()
