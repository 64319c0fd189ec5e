"""Sphinx extension: the benchmark and solver-verdict tables, generated from the results JSON.

At ``builder-inited`` it writes two Markdown fragments under ``docs/_generated/`` that pages
include (``{include}``), so the numbers on the site are those of the JSON in the tree:

* ``benchmarks_latest.md``: the tables of ``benchmarks/results/latest.json`` as
  ``benchmarks/run.py --report`` prints them (its own ``markdown`` function, so the page and the
  script can never disagree), with the machine;
* ``solver_verdicts.md``: ``benchmarks/results/compare.json`` (``impulse2d compare``) as a table of
  verdicts, scene by solver, with the rule each scene is judged by.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
OUT = Path(__file__).resolve().parents[1] / "_generated"


def _load_run_module():
    spec = importlib.util.spec_from_file_location("_impulse2d_bench_run",
                                                  ROOT / "benchmarks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def benchmark_tables() -> str:
    path = RESULTS / "latest.json"
    report = json.loads(path.read_text())
    # the script's tables open at "###"; on this page they are sections of the page: "##"
    text = _load_run_module().markdown(report).replace("\n### ", "\n## ")
    return (f"Source: `benchmarks/results/{path.name}`, a run of `python benchmarks/run.py` "
            f"(wall time {report.get('wall_s', 0) / 60:.0f} min).\n\n{text}\n")


def _cell(result: dict) -> str:
    if result.get("error"):
        return "raised"
    return result.get("verdict") or "?"


def solver_verdicts() -> str:
    path = RESULTS / "compare.json"
    data = json.loads(path.read_text())
    meta = data["meta"]
    solvers = meta["solvers"]
    lines = [f"Source: `benchmarks/results/{path.name}` (`impulse2d compare`, {meta['date']}, "
             f"{meta['cpus']} CPUs, Python {meta['python']}, impulse2d {meta['impulse2d']}). "
             "Each cell: the verdict after the scene's run at 60 Hz.", "",
             "| scene | " + " | ".join(f"`{s}`" for s in solvers) + " |",
             "|---|" + "---|" * len(solvers)]
    for name, scene in data["scenes"].items():
        results = scene["results"]
        lines.append(f"| `{name}` | " + " | ".join(_cell(results[s]) if s in results else "-"
                                                  for s in solvers) + " |")
    lines += ["", "The rule each scene is judged by:", ""]
    for name, scene in data["scenes"].items():
        lines.append(f"- `{name}`: {scene['description']} *Holds if* {scene['rule']}.")
    lines += ["", "Notes of the run:", ""] + [f"- {note}" for note in data.get("notes", [])]
    return "\n".join(lines) + "\n"


def _write(_app) -> None:
    OUT.mkdir(exist_ok=True)
    for name, make in (("benchmarks_latest.md", benchmark_tables),
                       ("solver_verdicts.md", solver_verdicts)):
        target = OUT / name
        text = make()
        # rewrite only on change, so Sphinx does not see every page that includes it as stale
        if not target.exists() or target.read_text() != text:
            target.write_text(text)


def setup(app):
    app.connect("builder-inited", _write)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
