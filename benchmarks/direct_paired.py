"""Paired A/B of two source trees on the ``direct`` solver's and the continuous stages' scenes,
by per-step thread CPU time (``paired_cpu.py``'s method: fresh processes alternating, the
order swapped every round).

    python benchmarks/direct_paired.py --a /work/base/src --b src --rounds 5 [--out FILE]
    python benchmarks/direct_paired.py --a A --b B --cases hub/direct/velocity,bullets/box2d23

Cases: ``direct_hashes.py``'s scenes under a direct level (``NAME/direct/velocity``,
``NAME/direct/acceleration``), and ``bullets/v3`` / ``bullets/box2d23``: ``continuous.py``'s
500 bullets in a room of planks, under the continuous stage with Box2D v3's rules or 2.3's
(their sweeps against dynamic bodies: the bullets' pass); ``NAME/pgs_ngs``, ``NAME/pgs_block``:
``step_hashes.py``'s scenes under Box2D v2.4's solvers (``lander`` is its small lander: revolute
joints, ``pgs_block``'s own sweeps). Prints per case the median of each
tree's rounds (each round the median per-step CPU, first step left out), the median of the
rounds' ratios b / a, and each tree's state hashes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = ("ragdolls/direct/velocity", "ragdolls/direct/acceleration", "hub/direct/velocity",
         "hub/direct/acceleration", "pyramid/direct/velocity", "car/direct/acceleration",
         "bullets/v3", "bullets/box2d23")
STEPS = 120


def build(case: str):
    """A world of ``case`` (the impulse2d on sys.path) and its scene's SceneInfo (or None)."""
    sys.path.insert(0, str(HERE))
    import impulse2d
    name, *rest = case.split("/")
    if name == "bullets":
        import continuous
        world = impulse2d.World(gravity=(0, 0), continuous_box2d23=rest[0] == "box2d23")
        continuous.build_bullets_i2d(world)
        info = None
    elif rest[0] in ("pgs_ngs", "pgs_block"):
        from impulse2d.scenes import build_scene
        world = impulse2d.World(solver=rest[0])
        if name == "lander":
            from small_worlds import build_lander
            info = build_lander(world)
        else:
            info = build_scene(world, name)
    else:
        import direct_hashes
        from impulse2d.scenes import build_scene
        world = impulse2d.World(solver="direct", direct_fallback="pgs",
                                direct_level=rest[1])
        if name == "hub":
            info = direct_hashes._hub(world)
        else:
            info = build_scene(world, name, **direct_hashes.SCENES[name])
    return world, info


def one_run(case: str, steps: int) -> dict:
    """Build ``case`` in this process (the impulse2d on sys.path) and time ``steps`` steps."""
    world, info = build(case)
    cpu = []
    for k in range(steps):
        if info is not None and info.update is not None:
            info.update(world, k)
        c = time.thread_time()
        world.step(1 / 60)
        cpu.append(time.thread_time() - c)
    cpu = cpu[1:]
    return {"cpu_median_us": statistics.median(cpu) * 1e6,
            "cpu_mean_us": statistics.mean(cpu) * 1e6, "hash": world.state_hash()[:16]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="source tree A (the folder holding impulse2d)")
    parser.add_argument("--b", required=True, help="source tree B")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--out", help="also write the JSON lines to this file")
    parser.add_argument("--one", nargs=2, metavar=("CASE", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one[0], int(args.one[1]))))
        return
    sys.path.insert(0, str(HERE))
    from paired_cpu import alternate
    trees = {"a": os.path.abspath(args.a), "b": os.path.abspath(args.b)}
    lines = []
    for case in args.cases.split(","):
        runs, loads = alternate(__file__, trees, case, args.steps, args.rounds)
        a = [r["cpu_median_us"] for r in runs["a"]]
        b = [r["cpu_median_us"] for r in runs["b"]]
        ratios = [y / x for x, y in zip(a, b)]
        line = {"case": case, "a_us": a, "b_us": b, "ratio_median": statistics.median(ratios),
                "ratios": ratios, "hash_a": sorted({r["hash"] for r in runs["a"]}),
                "hash_b": sorted({r["hash"] for r in runs["b"]}),
                "load": [min(loads), max(loads)]}
        lines.append(line)
        print(f"{case:30s} a {statistics.median(a):9.1f} us  b {statistics.median(b):9.1f} us  "
              f"b/a {line['ratio_median']:.3f} [{min(ratios):.3f}-{max(ratios):.3f}]  "
              f"hashes {line['hash_a']} {line['hash_b']}  load {min(loads):.1f}-{max(loads):.1f}",
              flush=True)
    if args.out:
        with open(args.out, "w") as f:
            for line in lines:
                f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
