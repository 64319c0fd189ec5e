"""Cold compile CPU of the contact passes' entries, float64 (``LANES_KERNEL``) and float32
(``LANES_F32_KERNEL``), uncached, in one process, in the order given (the first compile of a
process also pays Numba's first use: run both orders). Any unit of :mod:`impulse2d._dynamics.
step` by name; an entry of one of its tables as ``TABLE:key`` (``SOLVER_KERNELS:soft_step``:
the soft step's solver, which compiles the float64 prepare).

    IMPULSE2D_NUMBA_CACHE=0 PYTHONPATH=src python benchmarks/lanes_f32_compile.py \
        LANES_KERNEL LANES_F32_KERNEL
"""

from __future__ import annotations

import sys
import time

import impulse2d  # noqa: F401  (the package's import outside the figure)
from impulse2d._dynamics import step


def main() -> None:
    for name in sys.argv[1:] or ("LANES_KERNEL", "LANES_F32_KERNEL"):
        table, _, key = name.partition(":")
        kernel = getattr(step, table)[key] if key else getattr(step, name)
        t = time.process_time()
        kernel.address()
        print(name, round(time.process_time() - t, 2), flush=True)


if __name__ == "__main__":
    main()
