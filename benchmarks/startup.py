"""Start-up of impulse2d: how long a new process takes to its first step, and how long compiling
everything takes. Writes ``benchmarks/results/startup.json`` (``--out``).

    python benchmarks/startup.py                    # source checkout: cold, warm, warmup --all
    python benchmarks/startup.py --wheel dist/impulse2d-*.whl   # also from a built wheel
    python benchmarks/startup.py --compare /work/main --rounds 3   # paired: this tree, another
    python benchmarks/startup.py --no-source --compare TREE --warm-only --rounds 7   # warm only
    python benchmarks/startup.py --no-source --compare TREE --imports --rounds 5   # by module
    python benchmarks/startup.py --no-source --compare TREE --warmup-all --rounds 1

Every figure is one new process, timed from outside (process wall, and the CPU time of the
process with every helper process it started: the machine is shared, and wall time under load
says little alone) and inside (import, build, first step):

* *cold, source*: this checkout with an empty kernel cache (a fresh ``NUMBA_CACHE_DIR``), for
  ``pyramid_20`` and ``chain_100``;
* *warm, source*: the same cache once populated (median of 3);
* *warmup --all*: ``impulse2d warmup --all`` with an empty cache (every solver and joint type);
* *cold, wheel*: the wheel of ``scripts/build_wheel.py`` installed into a fresh virtual
  environment, with an empty user cache directory and no ``NUMBA_CACHE_DIR``: the kernels it
  ships are all there is (median of 3);
* *imports* (``--compare TREE --imports``): a warm ``pyramid_20`` of each tree, alternately,
  with the CPU time (``time.process_time``, not the wall: the machine is shared) of every
  module's import, inclusive and its own (less the modules it imported), medians over the
  rounds, and the modules one tree imports that the other does not; and the cache's part of
  the build and first step (Numba's reads of kernel indexes, the cache loads and the units and
  Python's entry points loaded from their own files, counted and timed);
* *paired warmup --all* (``--compare TREE --warmup-all``): ``impulse2d warmup --all`` of
  each tree from an empty cache, alternately (process wall and CPU, the helpers' included);
* *paired* (``--compare TREE``): this checkout and another source tree (its ``src/`` first on
  ``PYTHONPATH``), alternately, each round in the opposite order: ``pyramid_20`` cold, then warm
  (median of 3), each tree with its own empty cache; both trees' bytecode in one shared
  ``PYTHONPYCACHEPREFIX``, so that neither pays for compiling its modules; then each round's
  ratio this / other of the cold CPU and wall, and their medians (:func:`paired_summary`).

Peers' import times are in ``run.py``'s report (pymunk and pybox2d import in about 20 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

FIRST_STEP = r"""
import json, sys, time
t0 = time.perf_counter()
import impulse2d as i2d
from impulse2d.scenes import build_scene
t1 = time.perf_counter()
world = i2d.World()
build_scene(world, sys.argv[1], **json.loads(sys.argv[2]))
t2 = time.perf_counter()
world.step(1.0 / 60.0)
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "first_step_s": t3 - t2,
                  "file": i2d.__file__}))
"""

# FIRST_STEP with each module's import timed in CPU time: every loader's ``exec_module`` wrapped
# by a finder in front of the others, the import's own time less its nested imports'; and the
# cache's part of the build and first step: Numba's reads of kernel indexes (each unpickles its
# signatures' types) and the cache loads, counted and timed.
IMPORT_CPU = r"""
import importlib.abc, json, sys, time
rows, nested = {}, []


class Timed(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is None:
                continue
            run = getattr(spec.loader, "exec_module", None)
            if run is not None:
                def exec_module(module, run=run, name=name):
                    t0 = time.process_time()
                    nested.append(0.0)
                    try:
                        run(module)
                    finally:
                        inner, spent = nested.pop(), time.process_time() - t0
                        rows[name] = (spent, spent - inner)
                        if nested:
                            nested[-1] += spent
                try:
                    spec.loader.exec_module = exec_module
                except (AttributeError, TypeError):
                    pass
            return spec
        return None


sys.meta_path.insert(0, Timed())
c0 = time.process_time()
import impulse2d as i2d
from impulse2d.scenes import build_scene
c1 = time.process_time()
from numba.core import caching
from impulse2d._core import cache
cached = {"index_reads": [0, 0.0], "loads": [0, 0.0]}


def counted(owner, name, label):
    function = getattr(owner, name)

    def wrapper(*args, **kwargs):
        t0 = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            cached[label][0] += 1
            cached[label][1] += time.process_time() - t0

    setattr(owner, name, wrapper)


counted(caching.IndexDataCacheFile, "_load_index", "index_reads")  # Numba's own read
counted(cache.QuickLoadCache, "load_overload", "loads")
try:  # a unit loaded from its unit file, without its dispatcher (a tree that has them)
    from impulse2d._core import unit_cache
    cached["unit_loads"] = [0, 0.0]
    counted(unit_cache, "load", "unit_loads")
    if hasattr(unit_cache, "load_entry"):  # Python's entry points from their entry files
        cached["entry_loads"] = [0, 0.0]
        counted(unit_cache, "load_entry", "entry_loads")
except ImportError:
    pass
world = i2d.World()
build_scene(world, "pyramid", base=20)
c2 = time.process_time()
world.step(1.0 / 60.0)
c3 = time.process_time()
units = cached.get("unit_loads", [0, 0.0])
entries = cached.get("entry_loads", [0, 0.0])
print(json.dumps({"import_cpu_s": c1 - c0, "build_cpu_s": c2 - c1, "first_step_cpu_s": c3 - c2,
                  "index_reads": cached["index_reads"][0],
                  "index_reads_cpu_s": cached["index_reads"][1], "loads": cached["loads"][0],
                  "loads_cpu_s": cached["loads"][1], "unit_loads": units[0],
                  "unit_loads_cpu_s": units[1], "entry_loads": entries[0],
                  "entry_loads_cpu_s": entries[1], "modules": rows, "file": i2d.__file__}))
"""

SCENES = {"pyramid_20": ("pyramid", {"base": 20}), "chain_100": ("chain", {"links": 100})}


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _process(python, args, env):
    """Run ``python args``: its wall time, the CPU time of it and of every process it waited
    for (the compile helpers), and the finished process."""
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    p = subprocess.run([str(python), *args], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-2000:])
    return wall, cpu, p


def _load():
    """The 1-minute load average at the end of a measurement: the machine is shared, and a
    compile timing means little without it."""
    return round(os.getloadavg()[0], 2)


def first_step(python, scene, env):
    name, params = SCENES[scene]
    wall, cpu, p = _process(python, ["-c", FIRST_STEP, name, json.dumps(params)], env)
    row = json.loads(p.stdout.strip().splitlines()[-1])
    row["process_wall_s"] = wall
    row["process_cpu_s"] = cpu
    row["load_1min"] = _load()
    row["compile_notices"] = [line for line in p.stderr.splitlines()
                              if line.startswith("impulse2d:")]
    return row


def _settle(cache: str, limit: float = 300.0) -> float:
    """Wait until no compile helper left by a cold run is still writing into ``cache`` (a
    later unit's helper finishes on its own after its process exits, and names itself in a
    ``*.later`` file beside the unit's cache files: ``impulse2d._core.parallel``), so that the
    next measurement does not share the cores with it. The seconds waited."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < limit:
        live = False
        for root, _, names in os.walk(cache):
            for name in names:
                if name.endswith(".later"):
                    try:
                        with open(os.path.join(root, name)) as marker:
                            os.kill(int(marker.read()), 0)
                        live = True
                    except (OSError, ValueError):
                        pass  # (its helper has ended)
        if not live:
            break
        time.sleep(0.2)
    return time.perf_counter() - t0


def _env(**extra):
    # PYTHONDONTWRITEBYTECODE (set on the CI machine) would make every process compile the
    # package's 50 modules from source, 0.09 s that a user's installs and checkouts never pay.
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "IMPULSE2D_QUIET", "PYTHONDONTWRITEBYTECODE")}
    env.update(extra)
    return env


def source(report, log):
    python = sys.executable
    for scene in SCENES:
        cache = tempfile.mkdtemp(prefix="i2d-cold-")
        try:
            env = _env(NUMBA_CACHE_DIR=cache)
            cold = first_step(python, scene, env)
            cold["helper_after_exit_s"] = _settle(cache)
            warm = [first_step(python, scene, env) for _ in range(3)]
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        report[f"source cold {scene}"] = cold
        report[f"source warm {scene}"] = {k: statistics.median(r[k] for r in warm)
                                          for k in ("import_s", "build_s", "first_step_s",
                                                    "process_wall_s", "process_cpu_s")}
        log(f"source {scene}: cold {cold['process_wall_s']:.1f} s (CPU "
            f"{cold['process_cpu_s']:.1f} s, first step {cold['first_step_s']:.1f} s, load "
            f"{cold['load_1min']}; its helper on for {cold['helper_after_exit_s']:.1f} s after "
            f"it), warm "
            f"{report[f'source warm {scene}']['process_wall_s']:.2f} s (CPU "
            f"{report[f'source warm {scene}']['process_cpu_s']:.2f} s)")
    cache = tempfile.mkdtemp(prefix="i2d-all-")
    try:
        wall, cpu, _ = _process(python, ["-m", "impulse2d.cli", "warmup", "--all"],
                                _env(NUMBA_CACHE_DIR=cache))
        report["source warmup --all cold"] = {"process_wall_s": wall, "process_cpu_s": cpu,
                                              "load_1min": _load()}
        log(f"warmup --all, empty cache: {wall:.1f} s (CPU {cpu:.1f} s, load {_load()})")
        wall, cpu, _ = _process(python, ["-m", "impulse2d.cli", "warmup", "--all"],
                                _env(NUMBA_CACHE_DIR=cache))
        report["source warmup --all warm"] = {"process_wall_s": wall, "process_cpu_s": cpu,
                                              "load_1min": _load()}
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def wheel(report, wheel_path, log):
    venv = Path(tempfile.mkdtemp(prefix="i2d-wheel-venv-"))
    home = Path(tempfile.mkdtemp(prefix="i2d-wheel-home-"))
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel_path)], check=True)
        # an empty user cache: the shipped kernels, or compiling, are all there is
        env = _env(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), PYTHONPATH="")
        for scene in SCENES:
            rows = [first_step(python, scene, env) for _ in range(3)]
            assert str(venv) in rows[0]["file"], rows[0]["file"]  # the wheel, not this checkout
            report[f"wheel cold {scene}"] = {
                **{k: statistics.median(r[k] for r in rows)
                   for k in ("import_s", "build_s", "first_step_s", "process_wall_s",
                             "process_cpu_s")},
                "compile_notices": rows[0]["compile_notices"]}
            log(f"wheel {scene}: {report[f'wheel cold {scene}']['process_wall_s']:.2f} s, "
                f"notices {rows[0]['compile_notices']}")
    finally:
        shutil.rmtree(venv, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


def paired_warm(report, other: Path, rounds: int, log):
    """``pyramid_20`` warm only, this checkout and ``other`` alternately, each from its own
    populated cache (its ``_kernels/``: no ``NUMBA_CACHE_DIR``), one process per tree a round:
    the warm figure without a cold run's 60-70 s of CPU per round on a shared machine. A run
    that compiles anything is refused (populate the caches first)."""
    trees = {"this": ROOT / "src", "other": other.resolve() / "src"}
    prefix = tempfile.mkdtemp(prefix="i2d-pyc-")
    rows = {name: [] for name in trees}
    keys = ("import_s", "build_s", "first_step_s", "process_wall_s", "process_cpu_s")
    try:
        for r in range(rounds + 1):  # round 0 writes both trees' bytecode: not counted
            for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                env = _env(PYTHONPATH=str(trees[name]), PYTHONPYCACHEPREFIX=prefix)
                row = first_step(sys.executable, "pyramid_20", env)
                assert row["file"].startswith(str(trees[name])), row["file"]
                if row["compile_notices"]:
                    raise RuntimeError(f"{name} compiled: {row['compile_notices']}")
                if r:
                    rows[name].append(row)
                    log(f"warm round {r}, {name}: {row['process_wall_s']:.3f} s (CPU "
                        f"{row['process_cpu_s']:.3f} s; import {row['import_s']:.3f}, build "
                        f"{row['build_s']:.3f}, first step {row['first_step_s']:.3f}; load "
                        f"{row['load_1min']})")
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    report["paired warm"] = {name: {"tree": str(trees[name]), "rounds": rows[name],
                                    "median": {k: statistics.median(x[k] for x in rows[name])
                                               for k in keys}} for name in trees}
    for name in trees:
        m = report["paired warm"][name]["median"]
        log(f"warm median, {name}: {m['process_wall_s']:.3f} s (CPU {m['process_cpu_s']:.3f} s; "
            f"import {m['import_s']:.3f}, build {m['build_s']:.3f}, first step "
            f"{m['first_step_s']:.3f})")


def paired_imports(report, other: Path, rounds: int, log):
    """Warm ``pyramid_20`` of this checkout and ``other`` alternately, each module's import
    timed in CPU time (:data:`IMPORT_CPU`), each tree from its own populated cache."""
    trees = {"this": ROOT / "src", "other": other.resolve() / "src"}
    prefix = tempfile.mkdtemp(prefix="i2d-pyc-")
    rows = {name: [] for name in trees}
    try:
        for r in range(rounds + 1):  # round 0 writes both trees' bytecode: not counted
            for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                env = _env(PYTHONPATH=str(trees[name]), PYTHONPYCACHEPREFIX=prefix)
                _, _, p = _process(sys.executable, ["-c", IMPORT_CPU], env)
                row = json.loads(p.stdout.strip().splitlines()[-1])
                assert row["file"].startswith(str(trees[name])), row["file"]
                if p.stderr.strip():
                    raise RuntimeError(f"{name}: {p.stderr.strip()[-500:]}")
                if r:
                    rows[name].append(row)
                    log(f"imports round {r}, {name}: import {row['import_cpu_s']:.3f} s CPU, "
                        f"build {row['build_cpu_s']:.3f}, first step "
                        f"{row['first_step_cpu_s']:.3f} (load {_load()})")
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    out = {}
    for name, runs in rows.items():
        modules = sorted(set().union(*(run["modules"] for run in runs)))
        out[name] = {
            "tree": str(trees[name]),
            "median": {k: statistics.median(run[k] for run in runs)
                       for k in ("import_cpu_s", "build_cpu_s", "first_step_cpu_s",
                                 "index_reads", "index_reads_cpu_s", "loads", "loads_cpu_s",
                                 "unit_loads", "unit_loads_cpu_s", "entry_loads",
                                 "entry_loads_cpu_s")},
            "modules": {m: [statistics.median(run["modules"].get(m, (0.0, 0.0))[i]
                                              for run in runs) for i in (0, 1)]
                        for m in modules}}
    this, that = set(out["this"]["modules"]), set(out["other"]["modules"])
    out["only this"], out["only other"] = sorted(this - that), sorted(that - this)
    report["paired imports"] = out
    for name in trees:
        m = out[name]["median"]
        log(f"imports median, {name}: import {m['import_cpu_s']:.3f} s CPU, build "
            f"{m['build_cpu_s']:.3f}, first step {m['first_step_cpu_s']:.3f}; "
            f"{m['index_reads']:.0f} index reads {m['index_reads_cpu_s'] * 1000:.1f} ms, "
            f"{m['loads']:.0f} loads {m['loads_cpu_s'] * 1000:.1f} ms, "
            f"{m['unit_loads']:.0f} unit files {m['unit_loads_cpu_s'] * 1000:.1f} ms, "
            f"{m['entry_loads']:.0f} entry files {m['entry_loads_cpu_s'] * 1000:.1f} ms")
    log(f"modules only this tree imports: {out['only this']}")
    log(f"modules only the other imports: {out['only other']}")


def paired_warmup(report, other: Path, rounds: int, log):
    """``warmup --all`` from an empty cache, this checkout and ``other`` (a source tree)
    alternately, each round in the opposite order: what a change to the warm-up's cover adds
    to it, in CPU time beside the wall (the machine is shared)."""
    trees = {"this": ROOT / "src", "other": other.resolve() / "src"}
    prefix = tempfile.mkdtemp(prefix="i2d-pyc-")
    rows = {name: [] for name in trees}
    try:
        for r in range(rounds):
            for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                cache = tempfile.mkdtemp(prefix="i2d-all-")
                try:
                    env = _env(NUMBA_CACHE_DIR=cache, PYTHONPATH=str(trees[name]),
                               PYTHONPYCACHEPREFIX=prefix)
                    wall, cpu, _ = _process(sys.executable, ["-m", "impulse2d.cli", "warmup",
                                                             "--all"], env)
                finally:
                    shutil.rmtree(cache, ignore_errors=True)
                rows[name].append({"round": r, "process_wall_s": wall, "process_cpu_s": cpu,
                                   "load_1min": _load()})
                log(f"warmup --all round {r}, {name} ({trees[name]}): {wall:.1f} s (CPU "
                    f"{cpu:.1f} s, load {_load()})")
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    report["paired warmup --all"] = {name: {"tree": str(trees[name]), "rounds": rows[name]}
                                     for name in trees}


def paired(report, other: Path, rounds: int, log):
    """``pyramid_20`` cold and warm, this checkout and ``other`` (a source tree) alternately."""
    trees = {"this": ROOT / "src", "other": other.resolve() / "src"}
    prefix = tempfile.mkdtemp(prefix="i2d-pyc-")
    rows = {name: [] for name in trees}
    try:
        for r in range(rounds):
            for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                cache = tempfile.mkdtemp(prefix="i2d-paired-")
                try:
                    env = _env(NUMBA_CACHE_DIR=cache, PYTHONPATH=str(trees[name]),
                               PYTHONPYCACHEPREFIX=prefix)
                    cold = first_step(sys.executable, "pyramid_20", env)
                    assert cold["file"].startswith(str(trees[name])), cold["file"]
                    cold["helper_after_exit_s"] = _settle(cache)
                    warm = [first_step(sys.executable, "pyramid_20", env) for _ in range(3)]
                finally:
                    shutil.rmtree(cache, ignore_errors=True)
                row = {"round": r, "cold": cold, "warm": {
                    k: statistics.median(w[k] for w in warm)
                    for k in ("import_s", "build_s", "first_step_s", "process_wall_s",
                              "process_cpu_s")}}
                rows[name].append(row)
                log(f"paired round {r}, {name} ({trees[name]}): cold "
                    f"{cold['process_wall_s']:.1f} s (CPU {cold['process_cpu_s']:.1f} s, load "
                    f"{cold['load_1min']}), warm {row['warm']['process_wall_s']:.2f} s (CPU "
                    f"{row['warm']['process_cpu_s']:.2f} s; import "
                    f"{row['warm']['import_s']:.2f}, build {row['warm']['build_s']:.2f}, first step "
                    f"{row['warm']['first_step_s']:.2f})")
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    report["paired"] = {name: {"tree": str(trees[name]), "rounds": rows[name]} for name in trees}
    report["paired summary"] = paired_summary(rows)
    for key, value in report["paired summary"].items():
        log(f"{key}: {value}")


def paired_summary(rows: dict) -> dict:
    """The paired cold start read as rounds of two: each tree's median cold wall and CPU, and
    the rounds' own ratios this / other with their median. A round's two runs share its load,
    so its ratio is the figure to read, with the spread over the rounds beside it (a cold
    start's wall moves 8-10x with the load, its CPU by several per cent: BENCHMARKS.md, session
    32, ``coldB57``)."""
    out = {}
    for key in ("process_cpu_s", "process_wall_s"):
        for name, runs in rows.items():
            out[f"{name} cold {key} median"] = round(statistics.median(
                run["cold"][key] for run in runs), 3)
        ratios = [a["cold"][key] / b["cold"][key] for a, b in zip(rows["this"], rows["other"])]
        out[f"this / other cold {key} by round"] = [round(x, 3) for x in ratios]
        out[f"this / other cold {key} median"] = round(statistics.median(ratios), 3)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", type=Path, help="also measure this wheel in a fresh venv")
    ap.add_argument("--no-source", action="store_true", help="skip the source checkout runs")
    ap.add_argument("--compare", type=Path, metavar="TREE",
                    help="paired cold and warm runs of this checkout and another source tree")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of --compare (default 3)")
    ap.add_argument("--warm-only", action="store_true",
                    help="--compare: warm runs only, each tree from its own populated cache")
    ap.add_argument("--imports", action="store_true",
                    help="--compare: warm runs only, each module's import timed in CPU time")
    ap.add_argument("--warmup-all", action="store_true",
                    help="--compare: warmup --all from an empty cache only")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "startup.json")
    a = ap.parse_args(argv)
    report = {"machine": os.uname().machine, "cores": os.cpu_count(), "python": sys.version,
              "date": time.strftime("%Y-%m-%d")}
    if not a.no_source:
        source(report, print)
    if a.wheel:
        wheel(report, a.wheel.resolve(), print)
    if a.compare and a.warmup_all:
        paired_warmup(report, a.compare, a.rounds, print)
    elif a.compare and a.imports:
        paired_imports(report, a.compare, a.rounds, print)
    elif a.compare and a.warm_only:
        paired_warm(report, a.compare, a.rounds, print)
    elif a.compare:
        paired(report, a.compare, a.rounds, print)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
