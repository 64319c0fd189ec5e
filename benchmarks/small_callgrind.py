"""Instruction counts of a small world's step under callgrind, by layer: counts that do not
move with the machine's load or its speed (a shared 2-core machine's CPU times drift by up to
1.9x between processes).

    source <(python benchmarks/small_callgrind.py --env)   # once per shell: see below
    NUMBA_CACHE_DIR=/tmp/cg_cache PYTHONPATH=src python benchmarks/small_callgrind.py \\
        restitution 5                                         # fills the cache, outside valgrind
    NUMBA_CACHE_DIR=/tmp/cg_cache PYTHONPATH=src valgrind --tool=callgrind \\
        --collect-atstart=no --toggle-collect=starmap_next --toggle-collect=filterfalse_next \\
        --toggle-collect=functools_reduce python benchmarks/small_callgrind.py restitution 200
    callgrind_annotate --inclusive=yes callgrind.out.PID | grep -E \\
        'starmap_next|filterfalse_next|functools_reduce'

**The cache.** Numba keys a cached kernel by the CPU's name and features, and valgrind's
emulated CPU reports others: under valgrind every kernel was compiled again, under
instrumentation (sessions 10 and 11 stopped such runs after 3-15 minutes). ``--env`` prints
``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` set to the host's own, so that the kernels are
compiled for the host (the same machine code as without them) and the key is the same inside
valgrind and out; a separate ``NUMBA_CACHE_DIR`` keeps them apart from the tree's own cache.

**The layers.** The scene is built as ``run.py`` builds it and stepped 60 steps, then ``N``
steps of each layer from the same snapshot, each run by an iterator whose C function callgrind
collects inside (and nowhere else: ``exec``, the obvious choice, is also how every import runs
a module):

* ``starmap_next``: ``World.step(1/60)``;
* ``filterfalse_next``: :func:`impulse2d._stepping.step_world` (through a lambda);
* ``functools_reduce``: the step kernel's compiled entry called with ``step_world``'s
  arguments (through a two-line function), the rare new store adopted.

Each layer's inclusive count over ``N`` is its instructions a step; the compiled wrapper's
own (Numba's entry point, an address without a symbol) is the callee of ``cfunction_call``
with the largest inclusive count. ``--engine pymunk`` steps the peer's ``run.py`` world under
``starmap_next`` alone. A step is ``soft_step``, 4 substeps, 1 thread, sleeping off (``run.py``'s
settings); pymunk ``Space(iterations=10)``. The three layers' state hashes are printed: they
must agree (the same steps).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from small_split import DT, _built  # noqa: E402  (the same scenes, warmed up the same way)


def host_env() -> str:
    """Shell lines that make Numba compile for the host's CPU by name (see the docstring)."""
    import llvmlite.binding as llvm
    return (f"export NUMBA_CPU_NAME={llvm.get_host_cpu_name()}\n"
            f"export NUMBA_CPU_FEATURES='{llvm.get_host_cpu_features().flatten()}'")


def impulse2d_layers(scene_key: str, n: int) -> tuple:
    from impulse2d import _stepping
    from impulse2d._dynamics import step as S

    world = _built(scene_key, "impulse2d").world
    snap = world.snapshot()
    hashes = []

    def reset():
        world.restore(snap)
        world.step(DT)  # (the first step after a restore is not a step like the others)

    reset()
    list(itertools.starmap(world.step, itertools.repeat((DT,), n)))
    hashes.append(world.state_hash(motion_only=True)[:12])
    reset()
    step_world = _stepping.step_world
    list(itertools.filterfalse(lambda _: step_world(world, DT), range(n)))
    hashes.append(world.state_hash(motion_only=True)[:12])
    reset()
    d = world.__dict__
    stores = d["_stores"]
    gx, gy = d["_gravity"]
    sleepers = d["_sleepers"] != 0
    filtered = d["_joint_index"]["filtered"]
    entry, whole, adopt = S._step.entry, S.WHOLE, _stepping.adopt_step_stores

    def once(_, __):
        made = entry(stores, False, DT, gx, gy, sleepers, filtered, whole)
        if made[0] or made[1]:
            adopt(world, made[0], made[1])

    functools.reduce(once, range(n), None)
    hashes.append(world.state_hash(motion_only=True)[:12])
    return tuple(hashes)


def peer_steps(scene_key: str, engine_name: str, n: int) -> None:
    eng = _built(scene_key, engine_name)
    list(itertools.starmap(eng.step, itertools.repeat((), n)))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scene", nargs="?", default="restitution")
    parser.add_argument("steps", nargs="?", type=int, default=200)
    parser.add_argument("--engine", default="impulse2d")
    parser.add_argument("--env", action="store_true", help="print the NUMBA_CPU_* lines")
    args = parser.parse_args(argv)
    if args.env:
        print(host_env())
    elif args.engine == "impulse2d":
        print(args.scene, "hashes (World.step, step_world, entry):",
              *impulse2d_layers(args.scene, args.steps))
    else:
        peer_steps(args.scene, args.engine, args.steps)
        print(args.scene, args.engine, args.steps, "steps")


if __name__ == "__main__":
    main()
