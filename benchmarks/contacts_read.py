"""What reading the contacts costs against the step: ``world.contacts`` (the records),
``body.contacts`` (one body's), ``world.contact_data()`` (the bulk arrays) and
``world.constraint_rows()``, on a scene of about 1,000 contacts.

    python benchmarks/contacts_read.py [--scene pyramid --base 30] [--repeats 30]
    PYTHONPATH=../main/src python benchmarks/contacts_read.py --out /tmp/main.json   # a baseline

The scene is stepped (sleep off, so that every step solves it) until settled; then the step is
timed ``--repeats`` times, and each reader as many times, once after each of its own steps;
medians in ms, with each reader's cost as a fraction of the step. "The list as main built it" rebuilds every
contact's record the way ``world.contacts`` did before (a constructor call per object), on the
same world, for a paired comparison with ``get_contacts(touching_only=False)``. ``body.contacts`` is timed for one body (a game
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

import numpy as np

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


def _main_list(world) -> list:
    """``world.contacts`` as main (before issue 29 item 8) built it: a record per contact with
    a constructor call per object and a float() per number; the same contacts as
    ``get_contacts(touching_only=False)``, for a paired comparison in one process."""
    from impulse2d import ContactInfo, ContactPoint, Vec2

    c = world._contacts
    out = []
    for k in np.flatnonzero(c.count > 0):
        k = int(k)
        points = tuple(
            ContactPoint(Vec2(float(c.point[k, j, 0]), float(c.point[k, j, 1])),
                         float(c.separation[k, j]), float(c.total_normal_impulse[k, j]),
                         float(c.total_tangent_impulse[k, j]), int(c.ids[k, j]))
            for j in range(int(c.count[k])))
        out.append(ContactInfo(world._shape_handles[int(c.shape_a[k])],
                               world._shape_handles[int(c.shape_b[k])],
                               Vec2(float(c.normal[k, 0]), float(c.normal[k, 1])), points))
    return out


def measure(scene: str, repeats: int, settle: int, **params) -> dict:
    world = impulse2d.World(enable_sleep=False)
    build_scene(world, scene, **params)
    for _ in range(settle):
        world.step(DT)
    bodies = world.bodies
    player = bodies[len(bodies) // 2]
    readers = {"world.contacts": lambda: world.contacts}
    if hasattr(world, "contact_data"):
        readers.update({
            "the list as main built it (every contact)": lambda: _main_list(world),
            "world.get_contacts(touching_only=False)": lambda: world.get_contacts(False),
            "body.contacts (one body)": lambda: player.contacts,
            "body.contacts (every body)": lambda: [b.contacts for b in bodies],
            "world.contact_data()": lambda: world.contact_data(),
            "world.constraint_rows()": lambda: world.constraint_rows(),
        })
    for fn in readers.values():  # compile what a first call compiles
        fn()
    # the step alone, then each reader once after each of its own steps (so that the garbage
    # of one reader does not land in the step's timing)
    step = []
    for _ in range(repeats):
        t = time.perf_counter()
        world.step(DT)
        step.append(time.perf_counter() - t)
    read = {name: [] for name in readers}
    for name, fn in readers.items():
        for _ in range(repeats):
            world.step(DT)
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
    ap.add_argument("--scene", default="pyramid")
    ap.add_argument("--base", type=int, default=30, help="the pyramid's base (pyramid only)")
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--settle", type=int, default=120)
    ap.add_argument("--out", default=str(HERE / "results" / "contacts_read.json"))
    args = ap.parse_args(argv)
    params = {"base": args.base} if args.scene == "pyramid" else {}
    result = measure(args.scene, args.repeats, args.settle, **params)
    result["params"] = params
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
