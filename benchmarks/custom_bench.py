"""Custom joints (impulse2d.custom): what a law costs. Writes ``benchmarks/results/custom.json``.

    python benchmarks/custom_bench.py [--rounds 5] [--steps 200]

1. Step time, paired: ``chain_100`` (100 boxes hung from a static anchor, soft step, sleeping
   off) rebuilt from custom laws against the same chain of built-in joints, in one process,
   the worlds stepped in alternating blocks of 20 steps (so that the machine's load falls on
   both alike), median ms per step over ``--rounds`` rounds of ``--steps`` steps after 60
   untimed ones:

   * ``pin``: the chain itself, its revolute joints against a custom law of two rows (the two
     anchors' world points coincide): the revolute joint's point block;
   * ``distance``: the chain's links 0.1 m apart, joined end to end by built-in distance
     joints against a custom distance law.

   Target (the issue): the custom chain at most 1.5 times the built-in one.
2. Compile time of a new law: SymPy's derivation and the kernel's source (``derive``), the
   kernel's compile in this process (``cold``: a law whose source no process has compiled,
   made new by a random constant), and its load in a second process (``warm``: Numba's disk
   cache; timed after ``import impulse2d``, as a program that builds a world), seconds.
"""

from __future__ import annotations

import argparse
import json
import pickle
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

import sympy as sp  # noqa: E402

import impulse2d as i2d  # noqa: E402
from impulse2d.custom import ConstraintLaw, Pose, norm  # noqa: E402
from impulse2d.scenes import build_scene  # noqa: E402

DT = 1.0 / 60.0
BLOCK = 20
SETTLE = 60

a, b = Pose("a"), Pose("b")
ax, ay, bx, by, L = sp.symbols("ax ay bx by L", real=True)
PIN = ConstraintLaw(list(b.world_point((bx, by)) - a.world_point((ax, ay))),
                    params=["ax", "ay", "bx", "by"])
DISTANCE = ConstraintLaw([norm(b.world_point((bx, by)) - a.world_point((ax, ay))) - L],
                         params=["ax", "ay", "bx", "by", "L"])


def pin_chain(custom: bool, links: int = 100):
    world = i2d.World(enable_sleep=False)
    if not custom:
        build_scene(world, "chain", links=links)
        return world
    anchor = world.create_body(type="static")
    anchor.create_box(0.25, 0.25, group=-1)
    prev = anchor
    for i in range(links):
        body = world.create_body(position=(i + 0.5, 0.0))
        body.create_box(0.5, 0.125, group=-1)
        pa = prev.local_point((float(i), 0.0))
        pb = body.local_point((float(i), 0.0))
        world.create_custom_joint(prev, body, PIN,
                                  params={"ax": pa[0], "ay": pa[1], "bx": pb[0], "by": pb[1]},
                                  anchor_a=(float(i), 0.0), anchor_b=(float(i), 0.0))
        prev = body
    return world


def distance_chain(custom: bool, links: int = 100):
    """Links 0.9 m long, 0.1 m apart, each end joined to the next by a 0.1 m distance joint."""
    world = i2d.World(enable_sleep=False)
    anchor = world.create_body(type="static")
    anchor.create_box(0.25, 0.25, group=-1)
    prev, end = anchor, (0.0, 0.0)
    for i in range(links):
        start = (end[0] + 0.1, 0.0)
        body = world.create_body(position=(start[0] + 0.45, 0.0))
        body.create_box(0.45, 0.125, group=-1)
        if custom:
            pa, pb = prev.local_point(end), body.local_point(start)
            world.create_custom_joint(prev, body, DISTANCE,
                                      params={"ax": pa[0], "ay": pa[1], "bx": pb[0],
                                              "by": pb[1], "L": 0.1},
                                      anchor_a=end, anchor_b=start)
        else:
            world.create_distance_joint(prev, body, end, start)
        prev, end = body, (start[0] + 0.9, 0.0)
    return world


def paired(make, rounds: int, steps: int) -> dict:
    """Median ms per step of the built-in and the custom world, stepped in alternating blocks."""
    medians = {"built_in": [], "custom": []}
    for _ in range(rounds):
        worlds = {"built_in": make(False), "custom": make(True)}
        for world in worlds.values():
            for _ in range(SETTLE):
                world.step(DT)
        times = {name: [] for name in worlds}
        for _ in range(steps // BLOCK):
            for name, world in worlds.items():
                for _ in range(BLOCK):
                    t = time.perf_counter()
                    world.step(DT)
                    times[name].append(time.perf_counter() - t)
        for name in worlds:
            medians[name].append(1e3 * statistics.median(times[name]))
    built_in = statistics.median(medians["built_in"])
    custom = statistics.median(medians["custom"])
    return {"built_in_ms": built_in, "custom_ms": custom, "ratio": custom / built_in,
            "rounds_ms": medians}


_WARM = ("import pickle, sys; import impulse2d; k = pickle.loads(sys.stdin.buffer.read()); "
         "print(k.compile_seconds())")


def compile_times() -> dict:
    t0 = time.perf_counter()
    constant = random.random()
    law = ConstraintLaw([norm(b.world_point((bx, by)) - a.world_point((ax, ay))) - L
                         + sp.Float(1e-300 * constant)],
                        params=["ax", "ay", "bx", "by", "L"])
    kernel = law.kernel
    derive = time.perf_counter() - t0
    cold = kernel.compile_seconds()
    done = subprocess.run([sys.executable, "-c", _WARM], input=pickle.dumps(kernel),
                          capture_output=True, check=True, cwd=HERE.parent)
    warm = float(done.stdout)
    return {"derive_s": derive, "cold_s": cold, "warm_s": warm}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--out", default=str(HERE / "results" / "custom.json"))
    args = parser.parse_args(argv)
    for make in (pin_chain, distance_chain):  # compile or load everything first
        make(True).step(DT)
        make(False).step(DT)
    result = {
        "machine": platform.machine(),
        "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%d"),
        "rounds": args.rounds,
        "steps": args.steps,
        "chain_100_pin": paired(pin_chain, args.rounds, args.steps),
        "chain_100_distance": paired(distance_chain, args.rounds, args.steps),
        "compile": compile_times(),
    }
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    for name in ("chain_100_pin", "chain_100_distance"):
        r = result[name]
        print(f"{name}: built-in {r['built_in_ms']:.3f} ms, custom {r['custom_ms']:.3f} ms, "
              f"ratio {r['ratio']:.2f}")
    c = result["compile"]
    print(f"new law: derive {c['derive_s']:.2f} s, compile cold {c['cold_s']:.2f} s, "
          f"warm (second process) {c['warm_s']:.3f} s")
    return result


if __name__ == "__main__":
    main()
