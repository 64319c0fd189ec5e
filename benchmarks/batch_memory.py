"""Memory per world of a WorldBatch of 1,024 copies of ``batch_bench.py``'s 10-body world, for
any tree on ``PYTHONPATH``.

    PYTHONPATH=src python benchmarks/batch_memory.py traced   # or: rss

``traced``: what ``tracemalloc`` sees allocated by ``WorldBatch.replicate`` and the first batch
step (Python's allocations and Numba's, which go through Python's allocator), with every kernel
loaded first by a small batch. ``rss``: the growth of the process's resident memory over
``replicate`` and 90 steps (the stores the steps make, once the worlds touch, are counted too).
"""

from __future__ import annotations

import os
import sys
import tracemalloc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from batch_bench import ten_bodies  # noqa: E402


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> None:
    import impulse2d as i2d
    mode = sys.argv[1] if len(sys.argv) > 1 else "traced"
    n = 1024
    template = ten_bodies()
    template.step(1 / 60)
    warm = i2d.WorldBatch.replicate(template, 4)
    for _ in range(3):  # compile or load every kernel outside the measurement
        warm.step(1 / 60)
    if mode == "traced":
        tracemalloc.start()
        batch = i2d.WorldBatch.replicate(template, n)
        batch.step(1 / 60)
        current, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"traced after replicate and 1 step: {current / n / 1024:.1f} KiB a world")
    else:
        before = _rss()
        batch = i2d.WorldBatch.replicate(template, n)
        for _ in range(90):
            batch.step(1 / 60)
        print(f"RSS growth after replicate and 90 steps: {(_rss() - before) / n / 1024:.1f} "
              f"KiB a world")


if __name__ == "__main__":
    main()
