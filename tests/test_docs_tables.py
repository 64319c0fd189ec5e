"""The documentation's generated tables (docs/_ext/benchmarks.py) carry every number of the
results JSON they are made from: every scene x solver verdict of compare.json, and the step
times of latest.json as benchmarks/run.py prints them."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ext():
    spec = importlib.util.spec_from_file_location("_docs_benchmarks",
                                                  ROOT / "docs" / "_ext" / "benchmarks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_verdict_table_has_every_scene_and_solver():
    data = json.loads((ROOT / "benchmarks" / "results" / "compare.json").read_text())
    table = _ext().solver_verdicts()
    header = next(line for line in table.splitlines() if line.startswith("| scene |"))
    assert header.count("|") == len(data["meta"]["solvers"]) + 2
    for name, scene in data["scenes"].items():
        row = next(line for line in table.splitlines() if line.startswith(f"| `{name}` |"))
        cells = [c.strip() for c in row.strip("|").split("|")][1:]
        expected = ["raised" if scene["results"][s].get("error") else scene["results"][s]["verdict"]
                    for s in data["meta"]["solvers"]]
        assert cells == expected, name


def test_benchmark_tables_show_each_engines_step_time():
    report = json.loads((ROOT / "benchmarks" / "results" / "latest.json").read_text())
    text = _ext().benchmark_tables()
    assert "## Step time" in text and "\n### " not in text
    for scene in report["config"]["scenes"]:
        assert f"| {scene} |" in text, scene
