"""What cutting a contact pass into a threaded world's pieces costs, on one thread: the world's
own contact passes (its slot ``LANES``: float64 or float32 lanes, called by address as the
threaded region calls them) over the same rows cut four ways, and the cache lines of the lanes
that two pieces of one stage both write.

    PYTHONPATH=src python benchmarks/threads_cut.py [--scene rain_2000] [--precision float32]
        [--threads 2] [--rounds 30] [--json out.json]

The scene is built as ``run.py`` builds it (sleeping off, a world of ``--threads`` threads),
stepped past its settling steps (rain's pile formed), and its last step's rows and lanes are
passed again, each cut:

* ``one``: every row in one call (the serial solver's pass);
* ``segments``: one call a segment (:func:`impulse2d._dynamics.threaded.segments`: the blocks
  of at least ``MIN_ROWS`` rows and the serial runs between them);
* ``pieces``: each block cut into the region's pieces for ``--threads`` threads (``_pieces``,
  ``_chunk``: what the threads claim), a serial run one call: the threaded region's calls;
* ``aligned``: the same pieces with their inner cuts moved to the nearest multiple of the
  lanes' chunk (:data:`~impulse2d._dynamics.lane_layout.CHUNK` rows).

Each is timed on the calling thread (the cycle counter around the calls, the minimum of
``--rounds`` rounds, the four cuts interleaved in each round) for the warm start, the biased and
the relax pass, so the figure is the cut's own cost (the passes' remainder loops, the calls and
their set-up), free of the second thread and of the machine's load. What runs on two threads
at once costs more where two pieces write one cache line (the lines move between the cores):
counted per pass from the rows' lane indices and the buffer's address (the fields a pass
writes: the points' impulses, biases and unclamped impulses), and the bodies' velocity lines
that two pieces of one stage both write (and of those, the lines both threads write when the
pieces go to the threads in turn); and the lines both threads would write were a body's ``v``
and ``w`` one 32-byte row (Box2D v3's solver body: two bodies a line, where ``v`` holds four
and ``w`` eight).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engines  # noqa: E402
import run  # noqa: E402
from big_stages import cycles_per_us  # noqa: E402
from impulse2d import _threads  # noqa: E402
from impulse2d._core.jit import cycles  # noqa: E402
from impulse2d._dynamics import lane_layout as L  # noqa: E402
from impulse2d._dynamics.constraint_graph import COLOR_COUNT, color_contacts  # noqa: E402
from impulse2d._dynamics.contact_lanes import LANE_SOLVE, LANE_WARM_START  # noqa: E402
from impulse2d._dynamics.threaded import PIECE_ROWS, PIECES, segments  # noqa: E402
from impulse2d._dynamics.verbs import LANES, call_lanes  # noqa: E402
from impulse2d._dynamics.world_ref import borrow, sync_constraints  # noqa: E402

SETTLE = {"rain_2000": 300, "pyramid_100": 60, "many_pyramids": 60}
WRITTEN = ("UNT", "TIMP", "UNN", "BIAS", "NIMP", "MAXN")
"""The point fields a velocity pass writes (both points of every row; the last relax pass
adds the totals)."""


@numba.njit(cache=False)
def _segments(body_a, body_b, order, body_type, min_rows, starts):
    """:func:`~impulse2d._dynamics.threaded.segments` from Python (an inner kernel)."""
    return segments(body_a, body_b, order, body_type, min_rows, starts)


def solve_segments(world):
    """The segments (lo, hi, parallel) the threaded solve cuts the world's last step's rows
    into: from the colours' starts of its solve order (the colouring of every row, as the step
    of an awake world makes it; checked to be the rows' order)."""
    cs, bodies, contacts = world._constraints, world._bodies, world._contacts
    order, starts = color_contacts(contacts.count, contacts.body_a, contacts.body_b, bodies.type,
                                   bodies.asleep, bodies.type.shape[0], COLOR_COUNT,
                                   np.empty(0, dtype=np.int64), -1)
    if not np.array_equal(order, cs.contact):
        raise SystemExit("the colouring here is not the step's solve order")
    return _segments(contacts.body_a, contacts.body_b, cs.contact, bodies.type,
                     _threads.MIN_ROWS, starts)


@numba.njit(_nrt=False)
def _timed(world, ranges, verb, use_bias, last_sweep, inv_h, contact_speed, speed_cap):
    """Cycles of one pass of ``verb`` over the rows ``ranges`` (an (n, 2) array), in order."""
    t0 = cycles()
    for k in range(ranges.shape[0]):
        call_lanes(borrow(world, "verbs")[LANES],
                   (world, verb, ranges[k, 0], ranges[k, 1], inv_h, use_bias, True, 0.0, 0.0,
                    contact_speed, last_sweep, speed_cap))
    return cycles() - t0


def pieces(n: int, chunks: int) -> int:
    """``threaded._pieces``: the pieces a block of ``n`` rows is cut into."""
    return max(chunks, min(chunks * PIECES, n // PIECE_ROWS))


def cuts(parts, m: int, chunks: int) -> dict:
    """The four cuts (module docstring), each an (n, 2) int64 array of row ranges."""
    one = [(0, m)]
    segs = [(int(lo), int(hi)) for lo, hi, _ in parts]
    cut, aligned = [], []
    for lo, hi, par in parts:
        lo, hi = int(lo), int(hi)
        if not par or chunks <= 1:
            cut.append((lo, hi))
            aligned.append((lo, hi))
            continue
        p = pieces(hi - lo, chunks)
        bounds = [lo + ((hi - lo) * c) // p for c in range(p + 1)]
        cut += list(zip(bounds[:-1], bounds[1:]))
        inner = [min(max((b + L.CHUNK // 2) // L.CHUNK * L.CHUNK, lo), hi) for b in bounds[1:-1]]
        snapped = [lo] + inner + [hi]
        aligned += [(a, b) for a, b in zip(snapped[:-1], snapped[1:]) if b > a]
    return {name: np.array(r, dtype=np.int64) for name, r in
            (("one", one), ("segments", segs), ("pieces", cut), ("aligned", aligned))}


def lane_lines(q: np.ndarray, itemsize: int, address: int, fields) -> np.ndarray:
    """The cache lines (64 bytes) of the lanes that rows ``q`` write in ``fields`` (offsets in
    values), both points."""
    start = (q // L.CHUNK) * L.CHUNK
    base = start * L.FIELDS + (q - start)
    out = []
    for f in fields:
        for j in range(2):
            index = base + int(f) + j * int(L.POINT_STEP)
            out.append((address + index * itemsize) // 64)
    return np.concatenate(out)


def shared_lines(ranges, cs, itemsize: int, address: int, body_lines, threads: int) -> tuple:
    """Lines of the lanes, and of the bodies' velocities, written by more than one of
    ``ranges`` (a stage's pieces, which may run at once on different threads); and the body
    lines written by more than one thread when the pieces go to the threads in turn (piece
    ``k`` to thread ``k % threads``, as two threads that claim at the same pace take them)."""
    fields = [getattr(L, name) for name in WRITTEN]
    lane_owner: dict = {}
    body_owner: dict = {}
    thread_owner: dict = {}
    lanes_shared, bodies_shared, threads_shared = set(), set(), set()
    for k, (a, b) in enumerate(ranges):
        q = np.arange(a, b, dtype=np.int64)
        for line in set(lane_lines(q, itemsize, address, fields).tolist()):
            if lane_owner.setdefault(line, k) != k:
                lanes_shared.add(line)
        touched = set(body_lines(cs.body_a[a:b]).tolist()) | set(body_lines(cs.body_b[a:b]).tolist())
        for line in touched:
            if body_owner.setdefault(line, k) != k:
                bodies_shared.add(line)
            if thread_owner.setdefault(line, k % threads) != k % threads:
                threads_shared.add(line)
    return len(lanes_shared), len(bodies_shared), len(threads_shared), len(body_owner)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scene", default="rain_2000")
    ap.add_argument("--precision", choices=("float64", "float32"), default="float32")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    name, params = run.SCENES[a.scene][:2]
    eng = engines.make_engine("impulse2d", {"solver_precision": a.precision,
                                            "threads": a.threads})
    eng.build(name, **params)
    world = eng.world
    for _ in range(SETTLE.get(a.scene, 60)):
        world.step(engines.DT)
    sync_constraints(world)
    cs, bodies = world._constraints, world._bodies
    m = int(cs.count.shape[0])
    parts = solve_segments(world)
    sets = cuts(parts, m, a.threads)
    ref = world._stores
    s = world.settings
    h = engines.DT / s.substeps
    speed_cap = 4.0 * float(s.max_linear_speed)
    verbs = {"warm": (LANE_WARM_START, False, False), "biased": (LANE_SOLVE, True, False),
             "relax": (LANE_SOLVE, False, True)}
    best = {(c, v): float("inf") for c in sets for v in verbs}
    for _ in range(a.rounds):
        for v, (verb, use_bias, last) in verbs.items():
            for c, ranges in sets.items():
                t = _timed(ref, ranges, verb, use_bias, last, 1.0 / h, float(s.contact_speed),
                           speed_cap)
                best[c, v] = min(best[c, v], t)
    rate = cycles_per_us()
    itemsize = 4 if a.precision == "float32" else 8
    address = cs.lanes.ctypes.data
    v_address, w_address = bodies.v.ctypes.data, bodies.w.ctypes.data

    def body_lines(b):
        b = np.asarray(b, dtype=np.int64)
        return np.concatenate([(v_address + 16 * b) // 64, (w_address + 8 * b) // 64 + (1 << 60)])

    def row_lines(b):  # a body's v and w in one 32-byte row (Box2D v3's solver body), 2 a line
        return (32 * np.asarray(b, dtype=np.int64)) // 64

    report = {"scene": a.scene, "precision": a.precision, "threads": a.threads, "rows": m,
              "load": os.getloadavg()[0], "lanes_address_mod_64": int(address % 64),
              "segments": [[int(x) for x in p] for p in parts], "cuts": {}}
    print(f"{a.scene} {a.precision}, {m} rows, segments {[int(hi - lo) for lo, hi, _ in parts]}"
          f" (parallel: {[int(p) for _, _, p in parts]}), lanes at {address % 64} mod 64, "
          f"load {os.getloadavg()[0]:.1f}")
    print("| cut | calls | runs under 16 rows | rows past a whole 8 | warm us | biased us | "
          "relax us | lane lines shared a pass | body lines shared a pass |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c, ranges in sets.items():
        runs = short = tails = 0
        for lo, hi in ranges:  # the pass's runs: cut at colour ends and lane chunks
            q = lo
            while q < hi:
                end = min(int(cs.lane_end[q]), (q // L.CHUNK + 1) * L.CHUNK, hi)
                runs += 1
                short += (end - q) < 16
                tails += (end - q) % 8  # rows past the last whole 8 (a float32 vector)
                q = end
        lanes_sh = bodies_sh = threads_sh = touched = rows_sh = rows_touched = 0
        for lo, hi, par in parts:  # pieces of one stage may run at once
            inside = [(x, y) for x, y in ranges if lo <= x and y <= hi]
            if len(inside) > 1:
                ls, bs, ts, n = shared_lines(inside, cs, itemsize, address, body_lines,
                                             a.threads)
                lanes_sh += ls
                bodies_sh += bs
                threads_sh += ts
                touched += n
                _, _, ts, n = shared_lines(inside, cs, itemsize, address, row_lines, a.threads)
                rows_sh += ts
                rows_touched += n
        us = {v: best[c, v] / rate for v in verbs}
        report["cuts"][c] = {"calls": len(ranges), "runs": int(runs), "short_runs": int(short),
                             "tail_rows_mod_8": int(tails),
                             "us": us, "lane_lines_shared": lanes_sh,
                             "body_lines_shared": bodies_sh,
                             "body_lines_both_threads": threads_sh,
                             "body_lines_written": touched,
                             "row_layout_lines_both_threads": rows_sh,
                             "row_layout_lines_written": rows_touched}
        print(f"| {c} | {len(ranges)} | {short} of {runs} | {tails} | {us['warm']:.1f} | "
              f"{us['biased']:.1f} | {us['relax']:.1f} | {lanes_sh} | {bodies_sh} "
              f"({threads_sh} of {touched} by both threads; in 32-byte rows {rows_sh} of "
              f"{rows_touched}) |")
    report["load_after"] = os.getloadavg()[0]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
