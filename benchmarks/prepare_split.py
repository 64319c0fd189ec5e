"""What the contact prepare's time is made of (issue 31 items 2-3; BENCHMARKS.md, session 19,
``big44``): one tree's ``contact_solver.prepare_rows`` (``--a``) compiled here from its source
(as :mod:`big_prepare_ab` compiles it) as it is, without its writes to the lanes, without its
writes to the rows (the contact, bodies, count, flag, restitution and approach speed), with
every row's lanes written into the first chunk (the same instructions, the lines in L1), and
called with the contacts in key order instead of the solve order (not the engine's rows: the
order a block prepare would read them in); beside another tree's as it is (``--b``). Every
touching row of a loaded scene (:mod:`wide_solver`'s), fresh rows each time, the forms
interleaved, thread CPU, minimum and median over ``--reps``.

    PYTHONPATH=/path/to/main/src python benchmarks/prepare_split.py --a /path/to/main/src \\
        --b src [--scene many_pyramids] [--form f32] [--reps 16]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numba
import numpy as np

import big_prepare_ab
from contact_stages import loaded_world
from impulse2d._core.state import DYNAMIC
from impulse2d._dynamics import lane_layout
from impulse2d._dynamics.lane_layout import flat
from wide_solver import SCENES, _copy

_nothing = numba.njit(inline="always", _nrt=False)


@_nothing
def _no_row(lanes, r, m_a, i_a, m_b, i_b, nx, ny, friction, rate, mass_scale, impulse_scale,
            count):
    pass


@_nothing
def _no_impulses(lanes, r, j, normal_impulse, tangent_impulse):
    pass


@_nothing
def _no_point(lanes, r, j, rax, ray, rbx, rby, base, normal_mass, tangent_mass):
    pass


NO_LANES = {"write_lane_row": _no_row, "write_lane_impulses": _no_impulses,
            "write_lane_point": _no_point}
ROW_WRITES = ("        cs.contact[q] = k\n", "        cs.body_a[q] = a\n",
              "        cs.body_b[q] = b\n", "        cs.count[q] = count\n",
              "        cs.in_lanes[q] = wide\n",
              "        cs.restitution[q] = contacts.restitution[k]\n",
              "            cs.relative_velocity[q, j] = dvx * nx + dvy * ny\n")


def compiled(text, overrides=None):
    """``prepare_rows`` of a ``contact_solver.py`` text, its three forms (:mod:`big_prepare_ab`)."""
    start = text.index("@inline_kernel\ndef prepare_rows(")
    if "\nPREPARE_BLOCK = " in text[:start]:
        start = text.index("\nPREPARE_BLOCK = ")
    code = text[start:text.index("@borrowing_kernel\ndef warm_start_contacts(", start)]
    code = code.replace("@inline_kernel\n", big_prepare_ab._JIT + "\n")
    space = {"numba": numba, "np": np, "DYNAMIC": DYNAMIC, "flat": flat, **vars(lane_layout),
             **(overrides or {})}
    exec(compile(code, "prepare_rows", "exec"), space)
    return big_prepare_ab.forms(space["prepare_rows"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", default="src")
    ap.add_argument("--scene", default="many_pyramids")
    ap.add_argument("--form", choices=("f64", "f32", "rows"), default="f32")
    ap.add_argument("--reps", type=int, default=16)
    args = ap.parse_args()
    path = "impulse2d/_dynamics/contact_solver.py"
    a = (Path(args.a) / path).read_text()
    rowless = a
    for line in ROW_WRITES:
        assert line in rowless, line
        rowless = rowless.replace(line, "")
    one_chunk = a.replace("r = lane_index(first + q)", "r = lane_index((first + q) % CHUNK)")
    assert one_chunk != a
    runs = {"a": compiled(a), "b": compiled((Path(args.b) / path).read_text()),
            "a, no lane writes": compiled(a, NO_LANES),
            "a, every row's lanes in the first chunk": compiled(one_chunk),
            "a, no row writes": compiled(rowless)}
    runs["a, contacts in key order"] = runs["a"]
    form = ("f64", "f32", "rows").index(args.form)
    _, scene, params, steps = next(s for s in SCENES if s[0] == args.scene)
    world = loaded_world(scene, params, steps)
    cs0, bodies, contacts = world._constraints, world._bodies, world._contacts
    order = cs0.contact.copy()
    times: dict = {}
    for rep in range(args.reps + 1):
        for name, run in (list(runs.items()) if rep % 2 else list(runs.items())[::-1]):
            cs = _copy(cs0)
            c = time.thread_time()
            run(cs, np.sort(order) if "key order" in name else order, contacts, bodies, form)
            if rep:
                times.setdefault(name, []).append((time.thread_time() - c) * 1e6)
    print(f"{args.scene}, {order.shape[0]} rows, form {args.form}, load {os.getloadavg()[0]:.1f}"
          f", {args.reps} reps: thread CPU us, min (median)")
    for name, v in times.items():
        print(f"  {name}: {min(v):.0f} ({np.median(v):.0f})")


if __name__ == "__main__":
    main()
