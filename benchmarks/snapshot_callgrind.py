"""Instructions of a small world's ``snapshot()``, ``restore()`` and reset (``restore`` then one
``step``) under callgrind: counts that do not move with the machine's load.

    source <(python benchmarks/small_callgrind.py --env)   # the host's CPU for Numba's key
    NUMBA_CACHE_DIR=/tmp/cg_cache PYTHONPATH=src python benchmarks/snapshot_callgrind.py ten 5
    NUMBA_CACHE_DIR=/tmp/cg_cache PYTHONPATH=src valgrind --tool=callgrind \\
        --collect-atstart=no --toggle-collect=starmap_next --toggle-collect=filterfalse_next \\
        --toggle-collect=functools_reduce --toggle-collect=dropwhile_next \\
        --toggle-collect=takewhile_next python benchmarks/snapshot_callgrind.py ten 200
    callgrind_annotate --inclusive=yes callgrind.out.PID | grep -E \\
        'starmap_next|filterfalse_next|functools_reduce|dropwhile_next|takewhile_next'

(The cache and the environment as :mod:`small_callgrind` explains: the first, plain run fills
the cache outside valgrind.) The world (:mod:`snapshot_small`'s ``two``, ``ten`` or
``lander``, every body awake) is stepped 60 steps and its snapshot taken; then ``N`` calls of
each, each run by an iterator whose C function callgrind collects inside: ``starmap_next``
``world.snapshot()``, ``filterfalse_next`` ``world.restore(snap)``, ``functools_reduce``
``world.restore(snap)`` then ``world.step(1/60)``; ``dropwhile_next`` ``world.step(1/60)``
and ``takewhile_next`` a step then a snapshot (a snapshot after every step: the difference of
the two). Each inclusive count over ``N`` is the instructions a call. The state hash after a
reset and 30 steps is printed: two trees must agree.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import snapshot_small  # noqa: E402  (the same worlds)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("world", nargs="?", default="ten", choices=("two", "ten", "lander"))
    parser.add_argument("calls", nargs="?", type=int, default=200)
    args = parser.parse_args(argv)
    import impulse2d as i2d

    dt = snapshot_small.DT
    world = i2d.World(gravity=(0.0, -10.0))
    getattr(snapshot_small, args.world)(world)
    for _ in range(60):
        world.step(dt)
    snap = world.snapshot()
    world.restore(snap)
    world.step(dt)
    n = args.calls
    list(itertools.starmap(world.snapshot, itertools.repeat((), n)))
    world.step(dt)
    list(itertools.filterfalse(lambda _: world.restore(snap), range(n)))

    def reset(_, __):
        world.restore(snap)
        world.step(dt)

    functools.reduce(reset, range(n), None)
    # A snapshot after each step (a rewind buffer): the step row, the clock and the stores
    # changed since the last snapshot, unlike the calls above; less the steps alone.
    world.restore(snap)
    list(itertools.dropwhile(lambda _: world.step(dt) is None, range(n)))
    world.restore(snap)
    list(itertools.takewhile(lambda _: (world.step(dt), world.snapshot()), range(n)))
    world.restore(snap)
    for _ in range(30):
        world.step(dt)
    print(args.world, n, "calls; hash after a reset and 30 steps:", world.state_hash()[:12])


if __name__ == "__main__":
    main()
