"""What the reference's unread words cost a world-step, estimated before any layout is built:
``lander_prefetch_ab.py``'s prototype file (session 29, ``lander54``), whose variants stream
extra cold lines through each world-step, as the words of the reference's payload that the step
never reads do (each array descriptor's MemInfo, parent, item count and item size: ~40 % of
its ~134 prefetched lines, interleaved with the read words, so a layout without them would
stream ~54 lines a world-step fewer).

    LANDER_PREFETCH_PROTOTYPE=benchmarks/lander_payload_probe.py PYTHONPATH=src \\
        python benchmarks/lander_prefetch_ab.py --variants table,t_cold27,t_cold54,t_cold108,t_cold216

``table``: ``prefetch_world``'s table form compiled here (``lander_prefetch_variants.py``: the
same lines as the built kernel), the reference of the others; ``t_coldN``: the same, and
after each world's prefetch ``N`` lines more asked for from a 256 MiB buffer no code reads
(its own lines each world-step, in order, so each comes from memory: the buffer is eight
times the L3), the cost of ``N`` lines the memory streams that the step does not need. The
bits are the same (a prefetch reads nothing).
"""
import numba
import numpy as np

from impulse2d._dynamics import batch_step as bs

import lander_prefetch_variants as variants  # (lander_prefetch_ab.py's folder on the path)

_BUFFER = np.zeros(256 << 20, dtype=np.uint8)
_BUFFER[::4096] = 1  # (its pages made: a prefetch of an unmapped page is dropped)
ADDRESS = _BUFFER.ctypes.data - _BUFFER.ctypes.data % 64 + 64
SIZE = _BUFFER.nbytes - 128


@numba.njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True, cache=False)
def _cold_lines(position, lines):
    """``lines`` lines of the buffer from the ``position``-th block of ``lines``."""
    start = (position * lines * 64) % (SIZE - lines * 64)
    for line in range(lines):
        bs._prefetch_line(ADDRESS + start + 64 * line)


def make_prefetch(name):
    return variants.make_prefetch("table")


def _with_cold(lines):
    def edit(source):
        call = "                               np.int64(out[j, SHAPE_ROWS]), np.int64(out[j, VERTICES]))\n"
        assert call in source
        return source.replace(call, call + f"                _cold_lines(number * n + k, {lines})\n")
    return edit


WALK = {f"t_cold{lines}": _with_cold(lines) for lines in (27, 54, 108, 216)}
GLOBALS = {"_cold_lines": _cold_lines, **variants.GLOBALS}
