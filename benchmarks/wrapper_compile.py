"""What a kernel's Python wrapper adds to its compile: the kernel compiled with and without it,
each in a fresh process, the two taking turns.

    python benchmarks/wrapper_compile.py impulse2d._dynamics.contact_solver:allocate_constraints \\
        "5, contact_solver.contact_constraints(4), 0" --rounds 2 [--json FILE]
    python benchmarks/wrapper_compile.py impulse2d._collision.broadphase:_sort_order \\
        "np.arange(5.0)"

``ARGS`` is a Python expression for the arguments (``np``, and the module
``impulse2d._dynamics.X`` as ``X``): the signature the kernel is compiled for, and the values
the warm-up call runs it with.
Each run (``src`` of this checkout, an empty ``NUMBA_CACHE_DIR``) first compiles a kernel that
calls the kernel's Python function without a wrapper, so that Numba's typing machinery and the
kernel's callees are warm, then compiles the kernel itself once more, either as
``inner_kernel`` (no Python wrapper) or with the wrapper, and reports that compile's process CPU
(``time.process_time``). A kernel that only kernels call gains nothing from the wrapper; Numba
makes it whatever calls it, and for a kernel taking or returning a store (a NamedTuple of
20-30 arrays) it unboxes and boxes every array (BENCHMARKS.md, session 29, ``warmR54``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import importlib, json, sys, time
import numba
module_name, name = sys.argv[1].split(":")
module = importlib.import_module(module_name)
from impulse2d import _dynamics
for sub in ("contact_solver", "contacts", "threaded", "pair_update"):
    importlib.import_module("impulse2d._dynamics." + sub)
import numpy as np
namespace = {sub: getattr(_dynamics, sub) for sub in dir(_dynamics) if not sub.startswith("_")}
namespace["np"] = np
args = tuple(eval("(" + sys.argv[2] + ",)", namespace))
function = getattr(module, name).py_func
options = dict(error_model="numpy", no_cfunc_wrapper=True)
inner = numba.njit(no_cpython_wrapper=True, **options)(function)


def call(*a):
    inner(*a)


numba.njit(**options)(call)(*args)
if sys.argv[3] == "inner":
    options["no_cpython_wrapper"] = True
kernel = numba.njit(**options)(function)
t = time.process_time()
kernel.compile(tuple(numba.typeof(a) for a in args))
print(json.dumps({"compile_s": time.process_time() - t}))
"""


def one_run(target: str, args: str, variant: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), NUMBA_CACHE_DIR=tempfile.mkdtemp())
    out = subprocess.run([sys.executable, "-c", CHILD, target, args, variant],
                         capture_output=True, text=True, env=env, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])["compile_s"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", help="module:kernel")
    ap.add_argument("args", help="the arguments, as Python")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json")
    a = ap.parse_args()
    rounds = []
    for r in range(a.rounds):
        order = ("wrapped", "inner") if r % 2 == 0 else ("inner", "wrapped")
        row = {"load": round(os.getloadavg()[0], 1)}
        for variant in order:
            row[variant] = round(one_run(a.target, a.args, variant), 3)
        rounds.append(row)
        print(json.dumps(row), flush=True)
    summary = {"target": a.target, "rounds": rounds,
               "wrapped_s": statistics.median(r["wrapped"] for r in rounds),
               "inner_s": statistics.median(r["inner"] for r in rounds)}
    print(json.dumps({k: v for k, v in summary.items() if k != "rounds"}))
    if a.json:
        Path(a.json).write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
