"""The inliner's kept callee IR (``_core/inline_cache.py``) against Numba's own run, at every
call site of a compile: the same IR, labels, names and counters.

    python benchmarks/inline_check.py --what unit:impulse2d._dynamics.solvers_ngs.pgs_block
    python benchmarks/inline_check.py --what pyramid --json out.json

``what`` compiles in one fresh process from an empty kernel cache, as in ``inline_passes.py``
(``unit:KEY,...``, ``pyramid`` or ``all``). At each site the callee's untyped passes first run
as Numba's own (``InlineWorker.run_untyped_passes``, every inline inside them Numba's too); the
counters are then set back (block labels, function identities, ``mk_unique_var``'s count) and
the site gets its IR from the cache (a kept copy, or a first run at the probe counter). The two
must agree: the IR's text (``FunctionIR.dump``: labels, statements, variable names; a deferred
kernel's stand-in and its dispatcher read as one, as Numba types them), the order
of its blocks and of its scope's variables, the scope's version maps, the callee's identity, and
the counters after. ``sites``: the sites checked, ``copies``: those given a kept copy,
``differ``: those that did not agree (the first few shown).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import difflib, io, itertools, json, re, sys
from numba.core import bytecode, ir_utils
from impulse2d._core import inline_cache

made = inline_cache.untyped_ir
kept_copy = inline_cache._Kept.hand_out
state = {"numba": False, "sites": 0, "copies": 0, "differ": []}


def hand_out(self, function, start):
    state["copies"] += 1
    return kept_copy(self, function, start)


def counters():
    return (ir_utils._the_max_label._value, inline_cache._next_uid(),
            ir_utils._unique_var_count)


def set_counters(labels, uid, names):
    ir_utils._the_max_label._value = labels
    bytecode.FunctionIdentity._unique_ids = itertools.count(uid)
    ir_utils._unique_var_count = names


# a deferred kernel's stand-in and its dispatcher, one name (_core/deferred.py: the stand-in is
# typed as the dispatcher, and is replaced by it in its module at first use, which the
# reference run may be)
KERNEL = re.compile(r"<kernel [\w.]*?(\w+) \((?:made|deferred)\)>"
                    r"|\w*Dispatcher\(<function (\w+) at 0x[0-9a-f]+>\)")


def summary(callee_ir):
    text = io.StringIO()
    callee_ir.dump(file=text)
    text = io.StringIO(KERNEL.sub(lambda m: f"kernel {m.group(1) or m.group(2)}",
                                  text.getvalue()))
    scope = next(iter(callee_ir.blocks.values())).scope
    return {"dump": text.getvalue(), "blocks": list(callee_ir.blocks),
            "vars": list(scope.localvars._con),
            "redefined": sorted(scope.redefined.items()),
            "versions": sorted((k, sorted(v)) for k, v in scope.var_redefinitions.items()),
            "identity": callee_ir.func_id.unique_name, "counters": counters()}


def checked(worker, function):
    if state["numba"]:
        return worker.run_untyped_passes(function)
    before = counters()
    state["numba"] = True
    try:
        reference = summary(worker.run_untyped_passes(function))
    finally:
        state["numba"] = False
    set_counters(*before)
    got = made(worker, function)
    state["sites"] += 1
    mine = summary(got)
    if mine != reference and len(state["differ"]) < 5:
        state["differ"].append({"function": function.__qualname__, "fields": [
            k for k in reference if reference[k] != mine[k]],
            "counters": [reference["counters"], mine["counters"], before],
            "diff": list(difflib.unified_diff(reference["dump"].splitlines(),
                                              mine["dump"].splitlines(), lineterm=""))[:40]})
    elif mine != reference:
        state["differ"].append({"function": function.__qualname__})
    return got


inline_cache.untyped_ir = checked
inline_cache._Kept.hand_out = hand_out
import impulse2d as i2d
what = sys.argv[1]
if what == "pyramid":
    from impulse2d.scenes import build_scene
    world = i2d.World()
    build_scene(world, "pyramid", base=20)
    world.step(1.0 / 60.0)
elif what == "all":
    i2d.warmup(all_kernels=True, progress=False)
else:
    from impulse2d._dynamics import step  # registers the units
    from impulse2d._core import lazy
    for name in what.split(":", 1)[1].split(","):
        if name in lazy.REGISTRY:
            lazy.REGISTRY[name].address()
print(json.dumps({"what": what, "sites": state["sites"], "copies": state["copies"],
                  "kept": len(inline_cache._kept), "differ": state["differ"]}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(ROOT / "src"), help="the tree's src/ folder")
    parser.add_argument("--what", required=True, help="unit:KEY[,KEY...], pyramid or all")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(Path(args.src).resolve()),
                   IMPULSE2D_QUIET="1", IMPULSE2D_COMPILE_PROCESSES="1")
        done = subprocess.run([sys.executable, "-c", CHILD, args.what], env=env, cwd=cache,
                              capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["load_at_start"] = load
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    print(f"{result['what']} (load {load:.1f}): {result['sites']} sites checked, "
          f"{result['copies']} given a kept copy, {result['kept']} callees kept, "
          f"{len(result['differ'])} differ")
    for row in result["differ"][:5]:
        print(f"  {row['function']}: {row.get('fields')} {row.get('counters')}")
        print("\n".join(f"    {line}" for line in row.get("diff", [])[:20]))


if __name__ == "__main__":
    main()
