"""The pybox2d-style example programs (``impulse2d.compat.box2d.examples``) on the layer and the
same scenes on Box2D 2.3 (pybox2d 2.3.10), in one run: step rates, and how far the two engines'
worlds agree after the run.

    PYTHONPATH=src python benchmarks/box2d_examples.py --json benchmarks/results/box2d_examples.json

Each scene is built by the example's own ``build(world, B)`` (the code its ``Framework``
subclass runs), given the layer's ``b2World`` or pybox2d's: the same program on both. Each
engine runs in its own subprocess, one after the other (the layer first, then pybox2d, then the
layer again: the two layer runs bracket pybox2d's, so a machine whose load changed shows as a
difference between them; a short layer run before them fills the kernel cache). Per scene:
``steps`` world steps of 1/60 s with Box2D's testbed iterations (8 velocity, 3 position) after
``warm`` steps not timed; steps per second of wall and of CPU time; body and touching-contact
counts; the tracked bodies' positions at the end (the agreement: largest distance between the
same body on the two engines, for the settled scenes, pyramid and vertical stack, where it
means something; the moving ones, chain, bridge and tumbler, are chaotic or keep moving).
pygame is imported (the examples' package needs it) but nothing is drawn.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
SCENES = ("pyramid", "vertical_stack", "tumbler", "bridge", "chain")
SETTLED = ("pyramid", "vertical_stack")


def _engine(name):
    if name == "pybox2d":
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import Box2D
        assert not Box2D.__name__.startswith("impulse2d")
        return Box2D
    import impulse2d.compat.box2d as layer
    return layer


def _scene(B, name):
    """(world, tracked bodies, per-step hook) of scene ``name`` built with module ``B``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import importlib
    module = importlib.import_module(f"impulse2d.compat.box2d.examples.{name}")
    world = B.b2World(gravity=(0, -10), doSleep=True)
    hook = None
    if name == "pyramid":
        tracked = [b for _, b in module.build(world, B)]
    elif name == "vertical_stack":
        tracked = [b for column in module.build(world, B) for b in column]
    elif name == "tumbler":
        drum, _ = module.build(world, B)
        tracked = [drum]

        def hook(world=world, tracked=tracked):
            if len(tracked) < 1 + module.COUNT:
                tracked.append(module.add_box(world))
    elif name == "bridge":
        planks, load = module.build(world, B)
        tracked = planks + load
    else:
        tracked = module.build(world, B)
    return world, tracked, hook


def run_engine(name, steps, warm) -> dict:
    B = _engine(name)
    out = {}
    for scene in SCENES:
        world, tracked, hook = _scene(B, scene)
        for _ in range(warm):
            if hook:
                hook()
            world.Step(1.0 / 60.0, 8, 3)
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(steps):
            if hook:
                hook()
            world.Step(1.0 / 60.0, 8, 3)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        out[scene] = {
            "steps_per_s": steps / wall, "steps_per_cpu_s": steps / cpu,
            "bodies": len(world.bodies),
            "touching_contacts": sum(1 for c in world.contacts if c.touching),
            "positions": [[float(b.position[0]), float(b.position[1])] for b in tracked],
        }
    return out


def _child(name, steps, warm) -> dict:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = (f"import json, sys; sys.path.insert(0, {HERE!r}); import box2d_examples as m; "
            f"print(json.dumps(m.run_engine({name!r}, {steps}, {warm})))")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--warm", type=int, default=60)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    _child("layer", 2, 1)   # fills the kernel cache (a first process may compile a kernel)
    layer1 = _child("layer", args.steps, args.warm)
    real = _child("pybox2d", args.steps, args.warm)
    layer2 = _child("layer", args.steps, args.warm)
    rows = {}
    for scene in SCENES:
        a1, a2, r = layer1[scene], layer2[scene], real[scene]
        rate = 0.5 * (a1["steps_per_s"] + a2["steps_per_s"])
        cpu = 0.5 * (a1["steps_per_cpu_s"] + a2["steps_per_cpu_s"])
        row = {"layer_steps_per_s": rate, "pybox2d_steps_per_s": r["steps_per_s"],
               "ratio_wall": rate / r["steps_per_s"],
               "ratio_cpu": cpu / r["steps_per_cpu_s"],
               "layer_runs_steps_per_s": [a1["steps_per_s"], a2["steps_per_s"]],
               "bodies": [a1["bodies"], r["bodies"]],
               "touching_contacts": [a1["touching_contacts"], r["touching_contacts"]]}
        if scene in SETTLED:
            row["max_position_difference_m"] = max(
                math.dist(p, q) for p, q in zip(a1["positions"], r["positions"]))
        rows[scene] = row
        print(f"{scene:15s} layer {rate:8.1f} steps/s  pybox2d {r['steps_per_s']:8.1f}  "
              f"ratio {row['ratio_wall']:.2f} (cpu {row['ratio_cpu']:.2f})  bodies "
              f"{row['bodies']}  contacts {row['touching_contacts']}"
              + (f"  max diff {row['max_position_difference_m'] * 100:.2f} cm"
                 if scene in SETTLED else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": platform.platform(), "python": platform.python_version(),
                       "steps": args.steps, "warm": args.warm, "scenes": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
