"""Two trees' compiles side by side: the CPU each takes, and whether they made the same machine
code, kernel by kernel.

    python benchmarks/compile_objects.py --a /work/base/src --b src              # cold pyramid_20
    python benchmarks/compile_objects.py --a /work/base/src --b src \\
        --what unit:impulse2d._dynamics.solvers_ngs.pgs_block --rounds 2 --json out.json

Each round compiles ``what`` in each tree at the same time (two fresh processes started
together, so that they share the machine's load: on a loaded machine the CPU time of one
compile grows with the load, by 10-15 % between load 5 and 9), each into an empty kernel cache
of its own (``NUMBA_CACHE_DIR``), in one process (``IMPULSE2D_COMPILE_PROCESSES=1``: the
whole compile work, which the compile plan would split over the CPUs). ``what``: ``pyramid``
(import, build ``pyramid_20``, first step: a cold start's compile), ``all`` (``impulse2d
warmup --all``) or ``unit:KEY`` (one :class:`~impulse2d._core.lazy.LazyKernel` by its key;
``unit:KEY,KEY,...`` several, each in turn, a key the tree does not have left out).

Then every kernel both caches hold is compared: the object code and the LLVM bitcode Numba
saved for it (the byte strings in its cache entry's code library; the entry's other fields hold
the tree's path, so whole files always differ). Identical object code is identical machine code,
so identical results; a kernel whose code differs is named, with its sizes. A kernel that only
kernels call and that one tree caches as bitcode alone (``_core/link_only.py``) is compared by
the bitcode its callers link. CPU is the child's
``time.process_time`` from before the import to the end (the compile, and the one step).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import tempfile
import time
from pathlib import Path

from _fresh_compile import result as fresh_result, start as fresh_start

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, runpy, sys, time
t0 = time.process_time()
import impulse2d as i2d
what = sys.argv[1]
if what == "pyramid":
    from impulse2d.scenes import build_scene
    world = i2d.World()
    build_scene(world, "pyramid", base=20)
    world.step(1.0 / 60.0)
    digest = world.state_hash()
elif what == "all":
    i2d.warmup(all_kernels=True, progress=False)
    digest = None
elif what.startswith("script:"):  # a script's calls (e.g. benchmarks/query_kernels.py)
    runpy.run_path(what.split(":", 1)[1], run_name="__main__")
    digest = None
else:
    from impulse2d._dynamics import step  # registers the units
    from impulse2d._core import lazy
    for key in what.split(":", 1)[1].split(","):  # units by key; one the tree lacks: none
        if key in lazy.REGISTRY:
            lazy.REGISTRY[key].address()
    digest = None
print(json.dumps({"cpu_s": time.process_time() - t0, "hash": digest}))
"""


def _libraries(value, out, depth=0):
    """The code libraries inside a cache entry, in order: ``(kind, [code blobs])``, ``kind``
    ``"object"`` (object code, then the bitcode callers link) or ``"bitcode"`` (the callers'
    bitcode alone: a kernel that only kernels call, ``_core/link_only.py``)."""
    if (isinstance(value, tuple) and len(value) == 3 and value[1] in ("object", "bitcode")
            and isinstance(value[0], str)):
        data = value[2]
        out.append((value[1], [bytes(b) for b in (data if value[1] == "object" else (data,))]))
    elif depth < 8 and isinstance(value, (tuple, list)):
        for item in value:
            _libraries(item, out, depth + 1)
    elif depth < 8 and isinstance(value, dict):
        for item in value.values():
            _libraries(item, out, depth + 1)
    return out


def code_of(cache: Path) -> dict:
    """{kernel entry (its path in the cache): [(kind, [sha1 and size of each code blob])]}"""
    code = {}
    for path in sorted(cache.rglob("*.nbc")):
        with open(path, "rb") as f:
            entry = pickle.load(f)
        code[str(path.relative_to(cache))] = [
            (kind, [(hashlib.sha1(b).hexdigest(), len(b)) for b in blobs])
            for kind, blobs in _libraries(entry, [])]
    return code


def _linked(code: list) -> list:
    """An entry's bitcode that callers link (the last blob of each library)."""
    return [blobs[-1] for _, blobs in code]


def one_round(trees: dict, what: str) -> dict:
    """Compile ``what`` in every tree at once, each in a fresh process and an empty cache."""
    result, running = {}, {}
    with tempfile.TemporaryDirectory() as top:
        for name, src in trees.items():
            cache = Path(top) / name
            cache.mkdir()
            running[name] = (cache, time.perf_counter(), fresh_start(CHILD, src, cache, what))
        for name, (cache, start, process) in running.items():
            out, err = process.communicate()
            if process.returncode != 0:
                raise RuntimeError(f"{name}: {err[-3000:]}")
            row = fresh_result(out)
            row["wall_s"] = time.perf_counter() - start
            row["code"] = code_of(cache)
            result[name] = row
    return result


def compare(a: dict, b: dict) -> dict:
    """Kernels whose code is the same in both caches, different, or in one only. An entry whose
    libraries are of the same kinds in both is the same if every blob is (object code and
    bitcode); one that is link-only in one cache (kind ``"bitcode"``) and not in the other is
    the same if the bitcode its callers link is (``linked_only``: it has no object code to
    compare, and its callers' object code is compared as theirs)."""
    same, linked_only, different = [], [], {}
    for k in a:
        if k not in b:
            continue
        if a[k] == b[k]:
            same.append(k)
        elif [kind for kind, _ in a[k]] != [kind for kind, _ in b[k]] \
                and _linked(a[k]) == _linked(b[k]):
            linked_only.append(k)
        else:
            different[k] = (a[k], b[k])
    only = sorted(set(a) ^ set(b))
    return {"same": len(same), "linked_only": len(linked_only), "different": different,
            "only_one": only}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="the first tree's src/ folder")
    parser.add_argument("--b", default=str(ROOT / "src"), help="the second's (this checkout)")
    parser.add_argument("--what", default="pyramid", help="pyramid, all, unit:KEY or script:PATH")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", help="write the rounds here")
    args = parser.parse_args()
    trees = {"a": Path(args.a).resolve(), "b": Path(args.b).resolve()}
    rounds = []
    for k in range(args.rounds):
        load = os.getloadavg()[0]
        result = one_round(trees, args.what)
        verdict = compare(result["a"]["code"], result["b"]["code"])
        print(f"round {k + 1} ({args.what}, load {load:.1f} at the start): CPU a "
              f"{result['a']['cpu_s']:.1f} s, b {result['b']['cpu_s']:.1f} s "
              f"(b/a {result['b']['cpu_s'] / result['a']['cpu_s']:.3f}); walls "
              f"{result['a']['wall_s']:.0f} / {result['b']['wall_s']:.0f} s; hashes "
              f"{'the same' if result['a']['hash'] == result['b']['hash'] else 'DIFFERENT'}; "
              f"kernels with identical code {verdict['same']}, link-only in one tree with identical "
              f"bitcode {verdict['linked_only']}, different "
              f"{len(verdict['different'])}, in one cache only {len(verdict['only_one'])}",
              flush=True)
        for name, (code_a, code_b) in verdict["different"].items():
            print(f"  differs: {name}: sizes {[[s for _, s in blobs] for _, blobs in code_a]} / "
                  f"{[[s for _, s in blobs] for _, blobs in code_b]}")
        for name in verdict["only_one"]:
            print(f"  in one cache only: {name}")
        rounds.append({"load": load, "what": args.what,
                       **{t: {k: v for k, v in r.items() if k != "code"}
                          for t, r in result.items()},
                       "same": verdict["same"], "linked_only": verdict["linked_only"],
                       "different": sorted(verdict["different"]),
                       "only_one": verdict["only_one"]})
    if args.json:
        Path(args.json).write_text(json.dumps({"a": str(trees["a"]), "b": str(trees["b"]),
                                               "rounds": rounds}, indent=1))


if __name__ == "__main__":
    main()
