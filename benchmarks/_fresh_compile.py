"""A compile from nothing, for the compile benchmarks: a fresh Python process on a tree's
``src/`` with an empty kernel cache of its own (a temporary ``NUMBA_CACHE_DIR``), compiling
everything itself (``IMPULSE2D_COMPILE_PROCESSES=1``: no helper process takes a unit, so its
CPU is the whole compile work), the compile notices off; its figures come back as the last
line it prints, a line of JSON.

    from _fresh_compile import run
    result = run(CHILD, src, what)       # CHILD: the child's source, run with ``python -c``
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def environment(cache, src, **extra) -> dict:
    """This process's environment for a child compiling the tree ``src`` into the empty cache
    directory ``cache`` alone and quietly; ``extra``: more variables."""
    return dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(Path(src).resolve()),
                IMPULSE2D_QUIET="1", IMPULSE2D_COMPILE_PROCESSES="1", **extra)


def start(child: str, src, cache, *args) -> subprocess.Popen:
    """The child ``python -c child *args`` started on ``src`` and the empty cache ``cache``
    (its working directory), its output piped: for compiles run side by side."""
    return subprocess.Popen([sys.executable, "-c", child, *map(str, args)],
                            env=environment(cache, src), cwd=str(cache),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def result(out: str):
    """The child's figures: the last line of its output, as JSON."""
    return json.loads(out.strip().splitlines()[-1])


def run(child: str, src, *args):
    """Run ``python -c child *args`` on the tree ``src`` in a fresh process with an empty kernel
    cache (removed after), compiling alone; its figures (:func:`result`). A child that fails
    raises RuntimeError with the end of its stderr."""
    with tempfile.TemporaryDirectory() as cache:
        process = start(child, src, cache, *args)
        out, err = process.communicate()
    if process.returncode != 0:
        raise RuntimeError(err[-3000:])
    return result(out)
