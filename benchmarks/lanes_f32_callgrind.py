"""Instructions a step of a big contact scene in float32 (``WorldSettings(solver_precision=
"float32")``) executes, in two source trees: a count the machine's load does not move (the 2-core
machine's CPU time drifts 1.5x between processes under load), read by ``valgrind --tool=callgrind``.

    python benchmarks/lanes_f32_callgrind.py --a /path/to/main/src --b src \
        [--scenes pyramid_100,rain_2000] [--steps 3] [--warmup 20] [--out FILE]

A run (a fresh process under callgrind, the tree first on ``PYTHONPATH``): the scene built as
``run.py`` builds it (sleeping off) in float32, stepped ``--warmup`` steps uncounted (the kernels
loaded, the pile formed), then ``--steps`` steps of 1/60 s (4 substeps, one thread) counted:
collection is on only inside ``itertools.starmap``, which calls the steps (callgrind's
``--toggle-collect``). Printed per scene (a JSON line): each tree's instructions a step (Ir) and
b / a. Instructions are not time (the float32 lanes' gain is in bytes moved as much as in
instructions), but they rank changes of work within a percent.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(scene: str, steps: int, warmup: int) -> None:
    """The measured process: build, warm up, then the counted steps inside ``starmap``."""
    sys.path.insert(0, str(HERE))
    import impulse2d
    import run
    from engines import build_scene

    builder, params = run.SCENES[scene][:2]
    world = impulse2d.World(gravity=(0, -10), solver_precision="float32", enable_sleep=False)
    build_scene(world, builder, **params)
    for _ in range(warmup):
        world.step(1 / 60)
    list(itertools.starmap(world.step, [(1 / 60,)] * steps))
    print(json.dumps({"hash": world.state_hash(motion_only=True)[:16]}))


def counted(tree: str, scene: str, steps: int, warmup: int) -> dict:
    """Instructions of the counted steps of ``scene`` in ``tree`` (callgrind's total Ir)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        env = dict(os.environ, PYTHONPATH=tree)
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no",
             f"--callgrind-out-file={out}", "--toggle-collect=starmap_next", sys.executable,
             __file__, "--child", scene, str(steps), str(warmup)],
            env=env, capture_output=True, text=True)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if not lines:
            sys.exit(f"{scene} in {tree} failed:\n{done.stderr[-2000:]}")
        text = Path(out).read_text()
    total = int(re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M).group(1))
    return {"ir_per_step": total / steps, **json.loads(lines[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", help="source tree A (the directory of impulse2d)")
    parser.add_argument("--b", help="source tree B")
    parser.add_argument("--scenes", default="pyramid_100,rain_2000")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--out")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return
    rows = []
    for scene in args.scenes.split(","):
        got = {who: counted(os.path.abspath(tree), scene, args.steps, args.warmup)
               for who, tree in (("a", args.a), ("b", args.b))}
        row = {"scene": scene, "steps": args.steps, "warmup": args.warmup,
               **{f"{who}_ir_per_step": round(g["ir_per_step"]) for who, g in got.items()},
               "b/a": round(got["b"]["ir_per_step"] / got["a"]["ir_per_step"], 4),
               "same_motion": got["a"]["hash"] == got["b"]["hash"]}
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(row) + "\n" for row in rows))


if __name__ == "__main__":
    main()
