"""The compile CPU of a caller making N calls of a borrowing kernel, passing the joint and body
stores (``store``) or only the two arrays the callee reads (``arrays``): what a store costs at
a call site (each of its arrays is flattened into the call).

    NUMBA_CACHE_DIR=$(mktemp -d) IMPULSE2D_NUMBA_CACHE=0 PYTHONPATH=src \
        python benchmarks/store_call_compile.py store|arrays N

Prints the mode, N and the CPU seconds (``time.process_time``) of the caller's first call: its
compile and its callee's. Run N = 1 and N = 21 of each mode in fresh processes: the difference
over 20 is one call site's cost (BENCHMARKS.md, session 27, ``warmJ52``).
"""
import sys
import time

import numpy as np

from impulse2d._core.jit import borrowing_kernel, kernel
from impulse2d._core.state import BODY_LAYOUT, JOINT_LAYOUT, Bodies, Joints
from impulse2d._core.storage import allocate_store

def main() -> None:
    """The caller for the command line's mode and N, compiled and called once, timed."""
    mode, N = sys.argv[1], int(sys.argv[2])
    call = ("callee_store(joints, bodies, j + %d)" if mode == "store" else
            "callee_arrays(joints.body_a, bodies.inv_mass, j + %d)")
    src = "\n".join([
        "@borrowing_kernel",
        "def callee_store(joints, bodies, j):",
        "    return joints.body_a[j] + bodies.inv_mass[j]",
        "@borrowing_kernel",
        "def callee_arrays(body_a, inv_mass, j):",
        "    return body_a[j] + inv_mass[j]",
        "@kernel",
        "def caller(joints, bodies, ids):",
        "    t = 0.0",
        "    for n in range(ids.shape[0]):",
        "        j = ids[n]",
    ] + ["        t += " + call % k for k in range(N)] + ["    return t"])
    ns = {"borrowing_kernel": borrowing_kernel, "kernel": kernel}
    exec(src, ns)
    joints = allocate_store(Joints, JOINT_LAYOUT, 64)
    bodies = allocate_store(Bodies, BODY_LAYOUT, 64)
    ids = np.zeros(1, np.int64)
    t0 = time.process_time()
    ns["caller"](joints, bodies, ids)
    print(mode, N, round(time.process_time() - t0, 3))


if __name__ == "__main__":
    main()
