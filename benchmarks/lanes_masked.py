"""Conditional stores in a vectorised lane loop, isolated: what each way of writing "keep the old
value of a lane unless ..." compiles to, and what it costs on this machine.

    PYTHONPATH=src python benchmarks/lanes_masked.py [--reps 20000] [--rounds 5] [--out FILE]

The contact passes (:mod:`impulse2d._dynamics.contact_lanes`) wrote a missing second point's
lanes back as they were (``lanes[p] = new if keep else lanes[p]``) and a point's peak impulse as
``total if total > peak else peak``. In both, one arm stores the value just loaded from the same
address: LLVM drops that store as a no-op, and what is left is a store made only under a
condition, which the loop vectoriser turns into a masked store (``vmaskmovpd ymm -> m256``).
Intel's cores run a masked store about as fast as a plain one; AMD's Zen 2 and Zen 3 microcode
it (Agner Fog's instruction tables: about 18-19 uops, one every ~6-12 cycles for ``m256``).

Each kernel below runs the same loop over one 64-row chunk of 8 fields laid out as the lanes
are (a field's 64 rows consecutive, the literal ``CHUNK`` apart), four fields updated per row:

* ``keep_branch``: ``lanes[f] = new if two else old`` (the passes' form before this change;
  alone in this small loop LLVM leaves it scalar, where in the passes it vectorised it with
  masked stores: both are slower than the plain store);
* ``store_all``: ``lanes[f] = new`` for every row (the form after it: what a missing point's
  lanes hold is never read back);
* ``peak_branch``: ``lanes[f] = new if new > old else old``;
* ``peak_max``: ``lanes[f] = max(new, old)`` (Numba's ``max``: a compare and a ``select``);
* ``peak_opaque``: ``lanes[f] = max(new, old + 0.0)`` (the form after this change);
* ``peak_numpy``: ``lanes[f] = np.maximum(new, old)`` (NaN-propagating: not the same bits);
* ``load_branch``: four fields read into a row's sum only ``if two`` (the loads sunk into the
  condition: masked loads), against ``load_all``, which reads them for every row.

Printed: CPU ns per row (``time.process_time``, the minimum of each kernel over the rounds, the
kernels interleaved in every round) and the machine code's count of masked stores
(``vmaskmovpd``/``vpmaskmov`` with a memory destination) and masked loads.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import time

import numba
import numpy as np

CHUNK = 64
FIELDS = 8
TWO, X, F0 = (np.uint64(k * CHUNK) for k in (0, 1, 2))
_JIT = dict(cache=False, fastmath=False, error_model="numpy")


def _new(old, x):
    return 0.5 * old + x  # bounded (a contraction towards 2x): no overflow, no denormals


new_value = numba.njit(inline="always", **_JIT)(_new)


@numba.njit(**_JIT)
def keep_branch(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            two = lanes[TWO + i] != 0.0
            x = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                old = lanes[k]
                lanes[k] = new_value(old, x) if two else old


@numba.njit(**_JIT)
def store_all(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            x = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                lanes[k] = new_value(lanes[k], x)


@numba.njit(**_JIT)
def peak_branch(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            x = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                old = lanes[k]
                new = new_value(old, x) - 1.0
                lanes[k] = new if new > old else old


@numba.njit(**_JIT)
def peak_max(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            x = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                old = lanes[k]
                new = new_value(old, x) - 1.0
                lanes[k] = max(new, old)


@numba.njit(**_JIT)
def peak_opaque(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            x = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                old = lanes[k]
                new = new_value(old, x) - 1.0
                lanes[k] = max(new, old + 0.0)


@numba.njit(**_JIT)
def peak_numpy(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            x = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                old = lanes[k]
                new = new_value(old, x) - 1.0
                lanes[k] = np.maximum(new, old)


@numba.njit(**_JIT)
def load_branch(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            two = lanes[TWO + i] != 0.0
            acc = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                acc = 0.5 * acc + lanes[k] if two else acc
            lanes[X + i] = acc


@numba.njit(**_JIT)
def load_all(lanes, reps):
    for _ in range(reps):
        for i in range(np.uint64(0), np.uint64(CHUNK)):
            acc = lanes[X + i]
            for f in range(4):
                k = F0 + np.uint64(f) * np.uint64(CHUNK) + i
                acc = 0.5 * acc + lanes[k]
            lanes[X + i] = acc


KERNELS = {"keep_branch": keep_branch, "store_all": store_all, "peak_branch": peak_branch,
           "peak_max": peak_max, "peak_opaque": peak_opaque, "peak_numpy": peak_numpy,
           "load_branch": load_branch, "load_all": load_all}


def masked_counts(dispatcher) -> tuple[int, int]:
    """Masked stores and masked loads in the kernel's machine code (AT&T syntax: a store's
    memory operand is the last one)."""
    asm = "\n".join(dispatcher.inspect_asm().values())
    stores = loads = 0
    for line in asm.splitlines():
        if re.match(r"\s*v(p)?maskmov", line):
            if line.rstrip().endswith(")"):
                stores += 1
            else:
                loads += 1
    return stores, loads


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    lanes = rng.uniform(0.5, 1.5, FIELDS * CHUNK)
    lanes[:CHUNK] = rng.integers(0, 2, CHUNK)  # half the rows keep their second point
    for kernel in KERNELS.values():
        kernel(lanes.copy(), 1)
    best = dict.fromkeys(KERNELS, np.inf)
    for _ in range(args.rounds):
        for name, kernel in KERNELS.items():
            work = lanes.copy()
            t = time.process_time()
            kernel(work, args.reps)
            best[name] = min(best[name], time.process_time() - t)
    rows = args.reps * CHUNK
    result = {"machine": platform.processor() or platform.machine(),
              "cpu_name": numba.config.CPU_NAME or "host", "reps": args.reps,
              "rounds": args.rounds, "kernels": {}}
    print("| kernel | ns/row (4 stores) | masked stores | masked loads |")
    print("|---|---|---|---|")
    for name, kernel in KERNELS.items():
        stores, loads = masked_counts(kernel)
        ns = best[name] / rows * 1e9
        result["kernels"][name] = {"ns_per_row": ns, "masked_stores": stores,
                                   "masked_loads": loads}
        print(f"| {name} | {ns:.2f} | {stores} | {loads} |")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
