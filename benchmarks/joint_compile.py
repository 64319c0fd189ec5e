"""What a joint type's kernels cost to compile: its entry (prepare, warm start, solve), its
position correction (``pgs_ngs``, ``pgs_block``) and its rows of the ``direct`` solver, cold
(an empty kernel cache) and warm (loaded from that cache in a second process), CPU seconds.

    python benchmarks/joint_compile.py custom distance [--tree SRC]

Each run makes a new empty cache directory (``NUMBA_CACHE_DIR``), compiles the three units of
each named type in one process, in that order (a unit pays for the kernels it is the first to
need, such as the row machinery's), then loads them in a second process. ``--tree`` names the
source tree to import (default: this checkout's ``src``), for a paired run against another
checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _units(names: list[str]) -> dict:
    """Compile (or load) each named type's units here; CPU seconds of each, and the kernels
    that took longest to compile, their own wall seconds without the kernels they compiled
    in turn, and how many times a kernel of that name compiled (Numba's compile events)."""
    from numba.core import event

    from impulse2d._dynamics import step
    seconds = {}
    with event.install_recorder("numba:compile") as recorder:
        for name in names:
            for label, table in (("entry", step.JOINT_KERNELS),
                                 ("position", step.JOINT_POSITION_KERNELS),
                                 ("rows", step.DIRECT_ROWS_KERNELS)):
                if name not in table:
                    continue
                start = time.process_time()
                table[name].address()
                seconds[f"{name}.{label}"] = round(time.process_time() - start, 2)
    own: dict = {}
    count: dict = {}
    stack = []  # [name, start, time of the compiles nested in it]
    for stamp, ev in recorder.buffer:
        if ev.is_start:
            stack.append([ev.data["dispatcher"].py_func.__qualname__, stamp, 0.0])
        else:
            fn, begin, inner = stack.pop()
            own[fn] = own.get(fn, 0.0) + (stamp - begin) - inner
            count[fn] = count.get(fn, 0) + 1
            if stack:
                stack[-1][2] += stamp - begin
    seconds["own"] = {f"{k} x{count[k]}": round(v, 2)
                      for k, v in sorted(own.items(), key=lambda kv: -kv[1])[:16]}
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+")
    parser.add_argument("--tree", default=str(HERE.parent / "src"))
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, args.tree)
        import impulse2d  # noqa: F401  (the package's import is not the compile)
        print(json.dumps(_units(args.names)))
        return
    with tempfile.TemporaryDirectory(prefix="joint_compile_") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, IMPULSE2D_QUIET="1",
                   PYTHONPATH=args.tree)
        result = {}
        for run in ("cold", "warm"):
            out = subprocess.run([sys.executable, __file__, *args.names, "--tree", args.tree,
                                  "--child"], env=env, capture_output=True, text=True,
                                 check=True)
            result[run] = json.loads(out.stdout.strip().splitlines()[-1])
    result["tree"] = args.tree
    result["load"] = os.getloadavg()[0]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
