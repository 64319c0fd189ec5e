"""The compile of the two kernels that write new rows in one call, two trees paired:
``_batch_dynamic.dynamic_body`` (the pybox2d layer's new dynamic body) and
``_segment_rows.static_segments`` (a batch's static segments), each alone.

    python benchmarks/batch_writes_compile.py --a /work/base/src --b src --rounds 3 --json out.json

Neither is a unit of the step (``compile_objects.py --what unit:...`` cannot name them), and a
script that makes a world from an empty cache compiles the whole step first. So each tree's
``src`` (with its warm kernel cache: run the tree once first) is copied into a temporary
folder; before each run the two kernels' cache entries are deleted there, and a fresh process
makes a world (its other kernels load from the cache) and calls each writer once: process CPU
(``time.process_time``) of the call that compiles it. The trees alternate, round by round.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from impulse2d import _batch, _batch_dynamic
from impulse2d._collision import geometry
from impulse2d.shapes import parse_material
from conftest import world_with_room
out = {}
world = world_with_room(40, 20, -7.0)
geom = geometry.make_polygon([(-0.47, 0.33), (-0.57, 0.07), (-0.57, -0.33), (0.57, -0.33),
                              (0.57, 0.07), (0.47, 0.33)])
m = parse_material(dict(density=5.0, friction=0.1))
body = world.create_body("dynamic", position=(10.0, 13.3))  # (what the geometry gives: kept)
world._attach_shape(body._row(), "polygon", geom, m, "size")
t = time.process_time()
made = _batch_dynamic.create_dynamic_body(world, 10.0, 13.3, 0.0, (0.0, 0.0), 0.0, 0.0, 0.0,
                                          1.0, False, True, "polygon", geom, m)
out["dynamic_body"] = time.process_time() - t
assert made is not None
world = world_with_room(90, 30, -10.0)
m = parse_material(dict(friction=0.2, density=0.0))
moon = [(1.0, 2.0, 0.3, [("segment", geometry.segment_ends((float(k), 0.0), (k + 1.0, 0.5)), m)
                         for k in range(11)])]
t = time.process_time()
_batch.create_static_bodies(world, moon)
out["static_segments"] = time.process_time() - t
print(json.dumps(out))
"""

KERNELS = ("_batch_dynamic.dynamic_body-", "_segment_rows.static_segments-")


def _run(src: Path) -> dict:
    kernels = src / "impulse2d" / "_kernels"
    for entry in kernels.iterdir():
        if entry.name.startswith(KERNELS):
            entry.unlink()
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "tests")], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the first tree's src/ folder")
    parser.add_argument("--b", default=str(ROOT / "src"), help="the second's (this checkout)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="write the rounds here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        trees = {}
        for name in ("a", "b"):
            trees[name] = Path(scratch) / name
            shutil.copytree(getattr(args, name), trees[name])
        rounds = []
        for r in range(args.rounds):
            for name, src in trees.items():
                load = os.getloadavg()[0]
                row = {"round": r, "tree": name, "load": load, **_run(src)}
                rounds.append(row)
                print(json.dumps(row))
    if args.json:
        Path(args.json).write_text(json.dumps({"a": args.a, "b": args.b, "rounds": rounds},
                                              indent=1) + "\n")


if __name__ == "__main__":
    main()
