"""What reading the contacts costs against the step: ``world.contacts`` (the records),
``body.contacts`` (one body's), ``world.contact_data()`` (the bulk arrays) and
``world.constraint_rows()``, on a scene of about 1,000 contacts.

    python benchmarks/contacts_read.py [--scene many_pyramids] [--repeats 30]
    PYTHONPATH=../main/src python benchmarks/contacts_read.py --out /tmp/main.json   # a baseline

The scene is stepped (sleep off, so that every step solves it) until settled; then the step and
each reader are timed in turns, ``--repeats`` times each, and the medians reported in ms, with
each reader's cost as a fraction of the step. ``body.contacts`` is timed for one body (a game
asking whether its player touches the ground) and for every body in turn. A checkout without
the readers (main before issue 29 item 8) reports only ``world.contacts``.

Writes ``benchmarks/results/contacts_read.json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import impulse2d
from impulse2d.scenes import build_scene

HERE = Path(__file__).resolve().parent
DT = 1.0 / 60.0


def _median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def measure(scene: str, repeats: int, settle: int) -> dict:
    world = impulse2d.World(enable_sleep=False)
    build_scene(world, scene)
    for _ in range(settle):
        world.step(DT)
    bodies = world.bodies
    player = bodies[len(bodies) // 2]
    readers = {"world.contacts": lambda: world.contacts}
    if hasattr(world, "contact_data"):
        readers.update({
            "world.get_contacts(touching_only=False)": lambda: world.get_contacts(False),
            "body.contacts (one body)": lambda: player.contacts,
            "body.contacts (every body)": lambda: [b.contacts for b in bodies],
            "world.contact_data()": lambda: world.contact_data(),
            "world.constraint_rows()": lambda: world.constraint_rows(),
        })
    for fn in readers.values():  # compile what a first call compiles
        fn()
    step = []
    read = {name: [] for name in readers}
    for _ in range(repeats):
        t = time.perf_counter()
        world.step(DT)
        step.append(time.perf_counter() - t)
        for name, fn in readers.items():
            read[name].append(_median_ms(fn, 1))
    step_ms = statistics.median(step) * 1e3
    out = {"scene": scene, "bodies": len(bodies), "contacts": len(world.contacts),
           "step_ms": step_ms, "readers": {}}
    if hasattr(world, "get_contacts"):
        out["contacts_with_points"] = len(world.get_contacts(False))
        out["contact_points"] = int(world.contact_data().point.shape[0])
        out["constraint_rows"] = len(world.constraint_rows())
    for name, values in read.items():
        ms = statistics.median(values)
        out["readers"][name] = {"ms": ms, "of_step": ms / step_ms}
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="many_pyramids")
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--settle", type=int, default=120)
    ap.add_argument("--out", default=str(HERE / "results" / "contacts_read.json"))
    args = ap.parse_args(argv)
    result = measure(args.scene, args.repeats, args.settle)
    result["source"] = impulse2d.__file__
    result["machine"] = (f"{platform.machine()} {platform.processor()} "
                         f"python {platform.python_version()}")
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"{result['scene']}: {result['bodies']} bodies, {result['contacts']} touching contacts, "
          f"step {result['step_ms']:.3f} ms")
    for name, r in result["readers"].items():
        print(f"  {name:42s} {r['ms']:8.3f} ms  {r['of_step']:6.2f} of a step")


if __name__ == "__main__":
    main()
