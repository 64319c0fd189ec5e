"""The compile of the step's two store makers, in fresh processes, two trees taking turns: what
keeping the stores' room (session 26, ``rain51``: :mod:`impulse2d._core.slab`'s
``zeroed_store_in`` and ``empty_store_beside``) adds to a cold start.

    python benchmarks/rain_store_compile.py --a /work/base/src --b src [--rounds 3] [--json FILE]

Each run imports the tree with its kernel cache off (``IMPULSE2D_NUMBA_CACHE=0``), then calls
``contact_solver.allocate_constraints`` and ``contacts.allocate_contacts`` once each on a
Python store (a tree from before takes the lanes and no old store) and reports the process CPU
of each first call: its compile (the allocation itself is microseconds). The step kernel and the
pair stage inline these makers; their own compile grows by about what these do. A tree whose
makers have no Python wrapper (session 29, ``warmR54``) is called through a jitted call of them,
which compiles the boxing that their own wrapper did before.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import inspect, json, time
import numba
import numpy as np
from impulse2d._dynamics import contact_solver, contacts
old_cs = contact_solver.contact_constraints(0)
old_c = contacts.empty_contacts(0)
takes_old = "old" in inspect.signature(contacts.allocate_contacts.py_func
                                       if hasattr(contacts.allocate_contacts, "py_func")
                                       else contacts.allocate_contacts).parameters
make_cs = contact_solver.allocate_constraints
make_c = contacts.allocate_contacts
made = make_cs.dispatcher() if hasattr(make_cs, "dispatcher") else make_cs
if getattr(made, "targetoptions", {}).get("no_cpython_wrapper"):  # called from kernels only
    make_cs = numba.njit(lambda n, old, rows: made(n, old, rows))
    made_c = make_c.dispatcher()
    make_c = numba.njit(lambda n, old: made_c(n, old))
out = {}
t = time.process_time()
if takes_old:
    make_cs(5, old_cs, 64)
else:
    make_cs(5, old_cs.lanes, 64)
out["constraints_s"] = time.process_time() - t
t = time.process_time()
if takes_old:
    make_c(5, old_c)
else:
    make_c(5)
out["contacts_s"] = time.process_time() - t
print(json.dumps(out))
"""


def one_run(tree: str) -> dict:
    env = dict(os.environ, PYTHONPATH=tree, IMPULSE2D_NUMBA_CACHE="0")
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env,
                         check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    trees = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    rounds = []
    for r in range(args.rounds):
        row = {"load": round(os.getloadavg()[0], 1)}
        for name in (("a", "b") if r % 2 == 0 else ("b", "a")):
            row[name] = one_run(trees[name])
        rounds.append(row)
        print(json.dumps(row), flush=True)
    summary = {f"{name}_{key}": round(statistics.median(row[name][key] for row in rounds), 3)
               for name in ("a", "b") for key in ("constraints_s", "contacts_s")}
    print(json.dumps(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "summary": summary, "rounds": rounds}, f, indent=1)


if __name__ == "__main__":
    main()
