"""Every script in ``benchmarks/`` imports against the engine as it is, and compiles nothing
when imported.

BENCHMARKS.md cites about 200 scripts, many of which import the engine's internals
(``impulse2d._dynamics``, ``_collision``, ``_core``): a rename there that breaks a script's
imports fails here, not months later when someone reruns the measurement. An import cannot
show a call inside a function body whose signature has drifted, nor source text a script cuts
out of the engine's files by a marker that is gone: ``benchmarks/script_calls.py`` reads the
scripts for those (without running them), and finds nothing but what :data:`EXPECTED` lists.
Still out of reach: a call through a name the script made itself (an alias, a store's
attribute, a form compiled from text, as ``rows_passes.py``'s), which shows only when the
script runs (BENCHMARKS.md, session 31, ``hygieneB56``).

The imports run in one child process (the scripts put ``benchmarks/`` on ``sys.path`` and
share module names such as ``run``), each script imported as a module (its ``__main__`` guard
keeps its run out), with every Numba compile counted: importing a script must compile no
kernel (a compile at import is minutes of CI for nothing; build such kernels on first use).
A script that needs a package the engine does not (the peers of ``.[bench]``) is passed over
where that package is missing. ``rows_record.py`` and ``rows_record_gs.py`` are fragments
appended to ``contact_solver.py``, not modules: they are imported as ``rows_passes.py``
builds them, into a form of the running tree's ``contact_solver.py``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
FRAGMENTS = ("rows_record", "rows_record_gs")
EXPECTED = {("narrow_kernel.py", "update_manifolds")}
"""Findings of ``script_calls.py`` that are meant: ``narrow_kernel.py`` calls an older tree's
``update_manifolds`` (with the mixing rules) where the tree's signature has them."""

CHILD = r"""
import importlib, json, sys, traceback
from pathlib import Path
import numba.core.compiler as compiler

compiled = []
_compile_extra = compiler.compile_extra


def counting(typingctx, targetctx, func, *args, **kwargs):
    compiled.append(getattr(func, "__qualname__", repr(func)))
    return _compile_extra(typingctx, targetctx, func, *args, **kwargs)


compiler.compile_extra = counting
benchmarks, forms_dir = Path(sys.argv[1]), Path(sys.argv[2])
fragments = set(sys.argv[3].split(","))
sys.path.insert(0, str(benchmarks))
local = {p.stem for p in benchmarks.glob("*.py")}
out = {"failed": {}, "compiled": {}, "missing_package": {}, "imported": 0}


def attempt(name, load):
    before = len(compiled)
    try:
        load()
    except ModuleNotFoundError as error:
        top = (error.name or "").split(".")[0]
        if top and top not in local and top != "impulse2d":
            out["missing_package"][name] = error.name
            return
        out["failed"][name] = traceback.format_exc(limit=-3)
    except BaseException:  # a script's SystemExit at import is a failure too
        out["failed"][name] = traceback.format_exc(limit=-3)
    else:
        out["imported"] += 1
    if len(compiled) > before:
        out["compiled"][name] = compiled[before:]


for path in sorted(benchmarks.glob("*.py")):
    if path.stem not in fragments:
        attempt(path.stem, lambda: importlib.import_module(path.stem))


def forms():
    import rows_passes
    solver = Path(importlib.import_module("impulse2d._dynamics.contact_solver").__file__)
    chain = [solver]
    for stem in sorted(fragments):  # rows_record, then rows_record_gs appended after it
        chain.append(benchmarks / f"{stem}.py")
        rows_passes.load_forms({stem: list(chain)}, forms_dir)


attempt("rows_passes forms of " + "+".join(sorted(fragments)), forms)
print(json.dumps(out))
"""


def test_every_benchmark_script_imports_and_compiles_nothing(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src")] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(BENCHMARKS), str(tmp_path), ",".join(FRAGMENTS)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    scripts = len(list(BENCHMARKS.glob("*.py"))) - len(FRAGMENTS)
    assert result["failed"] == {}, "\n".join(f"{k}:\n{v}" for k, v in result["failed"].items())
    assert result["compiled"] == {}
    # every script accounted for: imported, or passed over for a peer package not installed;
    # and the fragments' forms (one more import)
    assert result["imported"] + len(result["missing_package"]) == scripts + 1


def test_the_scripts_calls_fit_the_engine():
    spec = importlib.util.spec_from_file_location("script_calls", BENCHMARKS / "script_calls.py")
    script_calls = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script_calls)
    package = ROOT / "src" / "impulse2d"
    engine_source = "".join(p.read_text() for p in sorted(package.rglob("*.py")))
    findings = [line for path in sorted(BENCHMARKS.glob("*.py"))
                for line in script_calls.check(path, engine_source)]
    unexpected = [line for line in findings
                  if not any(line.startswith(f"{script} | call | {name} ")
                             for script, name in EXPECTED)]
    assert unexpected == []
    # (and the check still finds what it is meant to: drop an entry whose script changed)
    assert len(findings) - len(unexpected) == len(EXPECTED)
