"""The lanes' biased pass on Zen 3: what the lanes' streaming costs, and whether a software
prefetch of the next chunk pays. Isolated on synthetic rows, without the gather and scatter.

    PYTHONPATH=src python benchmarks/lanes_stream.py [--rounds 5] [--out FILE]

A pass (with its gather) reads 33 of a row's 41 doubles and writes 12, each field a 512-byte
run of its chunk (:mod:`impulse2d._dynamics.lane_layout`): 41 short streams a chunk, 4.9 MB of
lanes a pass on pyramid_100's 14,950 rows (session 12's ``lanes37`` measured 32 doubles a row,
not merged; this file followed that branch's signature until session 13). The kernels run
:func:`impulse2d._dynamics.contact_lanes._solve_lanes` (the engine's biased pass on a chunk's
rows) over chunks of plausible two-point rows, one pass a call:

* ``one``: chunk after chunk, as the engine's pass;
* ``ahead``: the same, each chunk's solve preceded by a ``prefetch`` (LLVM's ``llvm.prefetch``,
  read, all cache levels) of every cache line of the next chunk (16 KB, 256 lines): the
  experiment ``lanes35`` left (BENCHMARKS.md, session 10); the same bits (checked);

on 1 chunk (the lanes in L1) up to 700 chunks (14.7 MB), each pass repeated so that every size
solves about 256,000 rows. Printed: CPU ns a row (``time.process_time``, the minimum over the
rounds, the kernels and sizes interleaved in each round).
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from impulse2d._dynamics.contact_lanes import _solve_lanes
from impulse2d._dynamics.lane_layout import (BASE, CHUNK, FIELDS, FRICTION, GAP, GAP_STEP, I_A,
                                             I_B, IMPULSE_SCALE, M_A, M_B, MASS_SCALE, NMASS, NX,
                                             NY, POINT_STEP, RATE, RAX, RAY, RBX, RBY,
                                             SCRATCH_DOUBLES, TMASS, TWO, VAX, VAY, VBX, VBY, WA,
                                             WB)

H = 1.0 / 240.0
_JIT = dict(cache=False, fastmath=False, error_model="numpy", _nrt=False)


@numba.njit(**_JIT)
def one(lanes, scratch, chunks, reps):
    for _ in range(reps):
        for c in range(chunks):
            base = np.uint64(c * CHUNK * FIELDS)
            _solve_lanes(lanes, scratch[c], base, np.uint64(0), np.uint64(CHUNK), 1.0 / H, True,
                         True, 0.0, 0.0, 3.0, False, 1600.0)


@intrinsic
def prefetch(typingctx, array, index):
    """LLVM's ``llvm.prefetch`` of ``array[index]``'s cache line (read, keep in every level)."""
    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = builder.gep(ary.data, [args[1]])
        fnty = ir.FunctionType(ir.VoidType(), [ir.PointerType(), ir.IntType(32), ir.IntType(32),
                                               ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        i32 = ir.IntType(32)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


LINE = np.uint64(8)  # doubles a cache line
CHUNK_DOUBLES = np.uint64(CHUNK * FIELDS)


@numba.njit(**_JIT)
def ahead(lanes, scratch, chunks, reps):
    for _ in range(reps):
        for c in range(chunks):
            base = np.uint64(c * CHUNK * FIELDS)
            if c + 1 < chunks:
                for k in range(base + CHUNK_DOUBLES, base + 2 * CHUNK_DOUBLES, LINE):
                    prefetch(lanes, k)
            _solve_lanes(lanes, scratch[c], base, np.uint64(0), np.uint64(CHUNK), 1.0 / H, True,
                         True, 0.0, 0.0, 3.0, False, 1600.0)


def rows(chunks, seed=1):
    """Lanes of ``chunks`` chunks of plausible two-point rows (a box on a box), and their
    scratch chunks (velocities, gaps)."""
    rng = np.random.default_rng(seed)
    lanes = np.zeros(chunks * CHUNK * FIELDS)
    scratch = np.zeros((chunks, SCRATCH_DOUBLES))
    n = CHUNK
    for c in range(chunks):
        b = c * CHUNK * FIELDS

        def put(field, values, b=b):
            lanes[b + int(field):b + int(field) + n] = values

        put(M_A, 1.0)
        put(I_A, 6.0)
        put(M_B, 1.0)
        put(I_B, 6.0)
        put(NX, 0.0)
        put(NY, 1.0)
        put(FRICTION, 0.6)
        put(RATE, 60.0)  # a soft step's contact softness (1/s, and its two scales)
        put(MASS_SCALE, 0.8)
        put(IMPULSE_SCALE, 0.2)
        put(TWO, 1.0)  # two points
        for j in range(2):
            p = b + j * int(POINT_STEP)
            side = -0.5 if j == 0 else 0.5
            lanes[p + int(RAX):p + int(RAX) + n] = side + rng.uniform(-0.01, 0.01, n)
            lanes[p + int(RAY):p + int(RAY) + n] = -0.5
            lanes[p + int(RBX):p + int(RBX) + n] = side
            lanes[p + int(RBY):p + int(RBY) + n] = 0.5
            lanes[p + int(BASE):p + int(BASE) + n] = -0.005
            lanes[p + int(NMASS):p + int(NMASS) + n] = 0.4
            lanes[p + int(TMASS):p + int(TMASS) + n] = 0.4
        for f in (VAX, VAY, WA, VBX, VBY, WB):
            scratch[c, int(f):int(f) + n] = rng.uniform(-0.1, 0.1, n)
        for j in range(2):
            g = int(GAP) + j * int(GAP_STEP)
            scratch[c, g:g + n] = rng.uniform(-0.01, 0.002, n)
    return lanes, scratch


SIZES = (1, 8, 24, 64, 234, 700)
ROWS = 256_000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    kernels = {"one": one, "ahead": ahead}
    out = {}
    for name, fn in kernels.items():
        lanes, scratch = rows(4)
        fn(lanes, scratch, 4, 3)
        out[name] = (lanes, scratch)
    same = all(np.array_equal(out["one"][k], out["ahead"][k]) for k in (0, 1))
    print(f"ahead's lanes and velocities equal to one's: {same}")
    best = {}
    for _ in range(args.rounds):
        for chunks in SIZES:
            lanes, scratch = rows(chunks)
            reps = max(1, ROWS // (chunks * CHUNK))
            for name, fn in kernels.items():
                t = time.process_time()
                fn(lanes, scratch, chunks, reps)
                ns = (time.process_time() - t) * 1e9 / (chunks * CHUNK * reps)
                best[(chunks, name)] = min(best.get((chunks, name), np.inf), ns)
    print("| chunks | lanes, MB | one, ns/row | ahead, ns/row | ahead / one |")
    print("|---|---|---|---|---|")
    for chunks in SIZES:
        a, b = best[(chunks, "one")], best[(chunks, "ahead")]
        mb = chunks * CHUNK * FIELDS * 8 / 1e6
        print(f"| {chunks} | {mb:.2f} | {a:.1f} | {b:.1f} | {b / a:.2f} |")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"machine": platform.processor() or platform.machine(),
                       "rounds": args.rounds, "same_bits": bool(same),
                       "ns_per_row": {f"{c}/{k}": v for (c, k), v in best.items()}}, fh,
                      indent=1)


if __name__ == "__main__":
    main()
