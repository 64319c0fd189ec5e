"""Benchmark impulse2d against pymunk (Chipmunk2D), pybox2d (Box2D 2.3) and pyb2d3 (Box2D v3.1).

    python benchmarks/run.py                       # all standard scenes, 3 rounds, all engines
    python benchmarks/run.py --quick               # 1 round, smaller step counts (~1-2 min)
    python benchmarks/run.py --scenes pyramid_20,rain_2000 --engines impulse2d,pymunk
    python benchmarks/run.py --i2d-opt solver=pgs  # a WorldSettings variant for impulse2d
    python benchmarks/run.py --threads 2           # pyb2d3 and impulse2d on 2 threads
    python benchmarks/run.py --report benchmarks/results/latest.json   # tables from a JSON

Every measurement (one scene on one engine) runs in a fresh subprocess, so memory and JIT state
are independent; engines alternate within each round (order reversed on odd rounds).  Only the
engine's step call is timed, per step; statistics leave out step 1 for every engine (for
impulse2d it holds the JIT load/compile, reported separately as ``first step``).  Ratios are
paired: A/B of the mean ms/step of the two runs of the same round, median over rounds.

Threads: every engine steps on one thread unless ``--threads N``, which gives pyb2d3 a pool of
N workers (Box2D v3's task system) and impulse2d ``WorldSettings.threads = N`` (unless
``--i2d-opt threads=...`` says otherwise); pymunk and pybox2d have no threads inside a world,
so they stay at one. Each measurement also records its CPU time per step (every thread).

``many_pyramids_one_awake`` runs with sleeping on for every engine: many_pyramids plus a ball
rolling on a floor of its own; the world is stepped (untimed) until every box sleeps and only
the ball is awake, then the steps are timed: what a mostly-asleep world costs.

Start-up of impulse2d: *cold* = a fresh empty NUMBA_CACHE_DIR, *warm* = the same directory once
populated; each times ``import impulse2d`` + building pyramid_20 + its first step in a new
process.  Import times of the peers are measured the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_OUT = HERE / "results" / "latest.json"
ENGINE_NAMES = ("impulse2d", "pyb2d3", "pymunk", "box2d")
# paired ratios reported (A/B), where both engines ran
PAIRS = ("impulse2d/pyb2d3", "impulse2d/pymunk", "impulse2d/box2d", "pyb2d3/pymunk")


def many_pyramids_one_awake(world, grid=10, base=10, ball_speed=2.0):
    """many_pyramids, and on a static floor of its own 10 m below and right of the grid, a ball
    (r = 0.5 m) rolling at ``ball_speed`` m/s (without slipping: w = -v / r): once the boxes
    sleep it is the one awake body, touching only its floor (200 m long: it rolls 2 m/s x
    (settle + timed steps) / 60, well under that)."""
    from engines import build_scene

    info = build_scene(world, "many_pyramids", grid=grid, base=base)
    spacing = base + 2.0
    x_hi = (grid - 1) * spacing + 0.5 * base + 2.0          # right end of the grid's slabs
    floor = world.create_body(type="static", position=(x_hi + 105.0, -10.5))
    floor.create_box(100.0, 0.5)
    ball = world.create_body(type="dynamic", position=(x_hi + 10.0, -9.5),
                             linear_velocity=(ball_speed, 0.0),
                             angular_velocity=-ball_speed / 0.5)
    ball.create_circle(0.5)
    info.bodies["ball"] = ball
    return info



# name -> (scene builder, params, steps, metric kind, quick steps)
SCENES = {
    "pyramid_20": ("pyramid", {"base": 20}, 500, "pyramid", 300),
    "pyramid_100": ("pyramid", {"base": 100}, 300, "pyramid", 100),
    "rain_2000": ("rain", {"count": 2000}, 600, "rain", 300),
    "many_pyramids": ("many_pyramids", {"grid": 10, "base": 10}, 300, "many_pyramids", 60),
    "restitution": ("bouncing_balls", {}, 600, "restitution", 600),
    "friction_ramp": ("friction_ramp", {}, 120, "friction_ramp", 120),
    "chain_100": ("chain", {"links": 100}, 600, "joints", 300),
    "joint_grid": ("joint_grid", {"n": 100}, 300, "joints", 60),
    "many_pyramids_one_awake": (many_pyramids_one_awake, {"grid": 10, "base": 10}, 300,
                                "many_pyramids", 100),
}
# scenes run with sleeping on in every engine, stepped untimed until at most this many dynamic
# bodies are awake (or SETTLE_MAX_STEPS), then timed
SLEEPING_SCENES = {"many_pyramids_one_awake": 1}
SETTLE_MAX_STEPS = 900
SETTLE_CHECK_EVERY = 10
DEFAULT_SCENES = ("pyramid_20,pyramid_100,rain_2000,many_pyramids,restitution,friction_ramp,"
                  "chain_100,joint_grid,many_pyramids_one_awake")
TIMED_SCENES = ("pyramid_20", "pyramid_100", "rain_2000", "many_pyramids", "chain_100",
                "joint_grid", "many_pyramids_one_awake")
JOINT_SAMPLE_EVERY = 10         # steps between samples of the joint gaps (not timed)
# small versions of each scene used to load/compile impulse2d's kernels before timing
WARMUP_PARAMS = {"pyramid": {"base": 4}, "many_pyramids": {"grid": 2, "base": 3},
                 "rain": {"count": 100}, "bouncing_balls": {}, "friction_ramp": {},
                 "chain": {"links": 5}, "joint_grid": {"n": 5},
                 many_pyramids_one_awake: {"grid": 2, "base": 3}}


# --------------------------------------------------------------------------------------------
# worker: one scene on one engine, in this process
# --------------------------------------------------------------------------------------------

def _peak_rss_mb():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def _parse_opts(pairs):
    out = {}
    for p in pairs or []:
        k, _, v = p.partition("=")
        for conv in (int, float):
            try:
                v2 = conv(v)
                break
            except ValueError:
                continue
        else:
            v2 = {"true": True, "false": False, "none": None}.get(v.lower(), v)
        out[k] = v2
    return out


def worker(scene_key, engine_name, steps=None, opts=None, warmup=False):
    import numpy as np  # noqa: F401  (loaded before the engine import is timed)

    sys.path.insert(0, str(HERE))
    from engines import make_engine, timed_import
    import metrics as M

    scene, params, default_steps, kind, _ = SCENES[scene_key]
    steps = default_steps if steps is None else steps
    if warmup:
        params = WARMUP_PARAMS.get(scene, params)
    opts = dict(opts or {})
    if scene_key in SLEEPING_SCENES:
        opts["enable_sleep" if engine_name == "impulse2d" else "sleep"] = True
    res = {"scene": scene_key, "engine": engine_name, "steps": steps, "options": opts}
    res["import_s"] = timed_import(engine_name)
    eng = make_engine(engine_name, opts)
    res["version"] = eng.version()
    t0 = time.perf_counter()
    eng.build(scene, **params)
    res["build_s"] = time.perf_counter() - t0
    res["bodies"] = eng.n_bodies
    res["config"] = eng.config()
    idx, data = eng.index, eng.info.data
    if scene_key in SLEEPING_SCENES and not warmup:     # untimed: until the boxes sleep
        awake_max, n = SLEEPING_SCENES[scene_key], 0
        while n < SETTLE_MAX_STEPS:
            for _ in range(SETTLE_CHECK_EVERY):
                eng.step()
            n += SETTLE_CHECK_EVERY
            if eng.awake_count() <= awake_max:
                break
        res["settle_steps"] = n
        res["awake_timed"] = eng.awake_count()
    s0 = eng.states()
    tracker = M.BounceTracker(idx, data) if kind == "restitution" else None
    gaps = M.JointGapTracker(s0, idx, data) if kind == "joints" else None
    times = np.empty(steps)
    clock = time.perf_counter
    step = eng.step
    cpu_from = None  # CPU time of the process (every thread) after step 1
    for i in range(steps):
        t = clock()
        step()
        times[i] = clock() - t
        if i == 0:
            cpu_from = time.process_time()
        if tracker is not None:
            tracker.update(eng.states())
        if gaps is not None and (i + 1) % JOINT_SAMPLE_EVERY == 0:
            gaps.update(eng.states())
        if i + 1 == 300 and kind == "pyramid":      # the 5 s stability number
            top = idx["top"]
            res["top_dy_5s"] = float(eng.states()[top, 1] - s0[top, 1])
    cpu_ms = (time.process_time() - cpu_from) * 1e3 if cpu_from is not None else 0.0
    res["peak_rss_mb"] = _peak_rss_mb()
    s = eng.states()
    res["awake_end"] = eng.awake_count()
    ms = times * 1e3
    rest = ms[1:] if steps > 1 else ms
    res["timing"] = {
        "first_step_ms": float(ms[0]) if steps else None,
        "ms_step_mean": float(rest.mean()),          # step 1 excluded
        "ms_step_mean_all": float(ms.mean()),
        "ms_step_median": float(np.median(rest)),
        "ms_step_p95": float(np.percentile(rest, 95)),
        "ms_step_min": float(rest.min()),
        "ms_step_max": float(rest.max()),
        "total_s": float(times.sum()),
        # each tenth of the steps' mean, step 1 excluded as in the mean: its kernels' load
        # (~90 ms for impulse2d) would make the first tenth read slow (BENCHMARKS.md, big41)
        "tenths_ms": [float(c.mean()) for c in np.array_split(rest, 10) if len(c)],
        # CPU of every thread per step, step 1 excluded (the metrics' trackers included: a
        # threaded engine's CPU over its wall time is the cores it kept busy)
        "cpu_ms_step_mean": float(cpu_ms / (steps - 1)) if steps > 1 else None,
    }
    if kind == "pyramid":
        res["metrics"] = M.pyramid_metrics(s0, s, idx, data)
        res["metrics"]["top_dy_5s"] = res.get("top_dy_5s")
    elif kind == "many_pyramids":
        res["metrics"] = M.many_pyramids_metrics(s0, s, idx, data)
    elif kind == "rain":
        res["metrics"] = M.rain_metrics(s0, s, idx, data)
    elif kind == "restitution":
        res["metrics"] = M.restitution_metrics(tracker, data)
    elif kind == "friction_ramp":
        res["metrics"] = M.friction_ramp_metrics(s0, s, idx, data, t=steps / 60.0)
    elif kind == "joints":
        res["metrics"] = M.joint_gaps(gaps, s)
    return res


# --------------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------------

def _python():
    return sys.executable


def _spawn(args, env=None, timeout=1800):
    t0 = time.perf_counter()
    p = subprocess.run([_python(), *args], capture_output=True, text=True, env=env,
                       timeout=timeout, cwd=str(ROOT))
    wall = time.perf_counter() - t0
    return p, wall


def warmup_worker(scene_keys, steps, opts):
    """Build a small version of each scene and step it (untimed): populates the JIT cache."""
    import json as _json

    for sk in scene_keys:
        _json.dumps(worker(sk, "impulse2d", steps, opts, warmup=True)["timing"])


WORKER_TIMEOUT = 1800.0         # s per measurement; --timeout changes it


def run_worker(scene_key, engine, steps, opts, warmup=False):
    args = [str(HERE / "run.py"), "--worker", scene_key, engine, "--steps", str(steps)]
    for k, v in (opts or {}).items():
        args += ["--opt", f"{k}={v}"]
    if warmup:
        args.append("--warmup")             # scene_key: a comma list, all in one process
    try:
        p, wall = _spawn(args, timeout=WORKER_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"scene": scene_key, "engine": engine,
                "error": f"timeout (over {WORKER_TIMEOUT:g} s for the whole run)"}
    if p.returncode != 0:
        tail = (p.stderr or p.stdout).strip().splitlines()[-8:]
        return {"scene": scene_key, "engine": engine, "error": " | ".join(tail)}
    res = json.loads(p.stdout.strip().splitlines()[-1])
    res["process_wall_s"] = wall
    return res


_STARTUP_SNIPPET = r"""
import json, time, sys
t0 = time.perf_counter()
import impulse2d as i2d
from impulse2d.scenes import build_scene
t1 = time.perf_counter()
w = i2d.World(gravity=(0.0, -10.0))
build_scene(w, "pyramid", base=20)
t2 = time.perf_counter()
w.step(1.0 / 60.0)
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "first_step_s": t3 - t2,
                  "total_s": t3 - t0}))
"""

_IMPORT_SNIPPET = r"""
import json, time
{pre}
t0 = time.perf_counter()
import {mod}
print(json.dumps({{"import_s": time.perf_counter() - t0}}))
"""


def _env(**extra):
    env = dict(os.environ)
    env.update(extra)
    env.setdefault("PYTHONPATH", "")
    return env


def measure_startup(engines, reps=3, cold=True, log=print):
    out = {}
    if "impulse2d" in engines:
        cache = tempfile.mkdtemp(prefix="i2d-numba-cache-")
        try:
            env = _env(NUMBA_CACHE_DIR=cache, IMPULSE2D_NUMBA_CACHE="1")
            rows = {}
            if not cold:       # populate the cache untimed, so that only warm runs are timed
                _spawn(["-c", _STARTUP_SNIPPET], env=env)
            for label in ["cold"] * cold + ["warm"] * reps:
                p, wall = _spawn(["-c", _STARTUP_SNIPPET], env=env)
                if p.returncode != 0:
                    tail = (p.stderr or p.stdout).strip().splitlines()[-4:]
                    out["impulse2d"] = {"error": " | ".join(tail)}
                    break
                r = json.loads(p.stdout.strip().splitlines()[-1])
                r["process_wall_s"] = wall
                rows.setdefault(label, []).append(r)
                log(f"  start-up {label}: import {r['import_s']:.2f}s build {r['build_s']:.2f}s "
                    f"first step {r['first_step_s']:.2f}s, process {wall:.2f}s")
            else:
                out["impulse2d"] = {
                    "cold": rows["cold"][0] if cold else None,
                    "warm": {k: statistics.median(r[k] for r in rows["warm"])
                             for k in rows["warm"][0]},
                    "warm_runs": len(rows["warm"]),
                    "cache_files": sum(len(f) for _, _, f in os.walk(cache)),
                }
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    mods = {"python": None, "numpy": "numpy", "pymunk": "pymunk", "box2d": "Box2D",
            "pyb2d3": "pyb2d3"}
    for name, mod in mods.items():
        if name in ("pymunk", "box2d", "pyb2d3") and name not in engines:
            continue
        walls, ins = [], []
        for _ in range(max(reps, 3)):
            pre = "" if mod == "numpy" else "import numpy"
            code = "pass" if mod is None else _IMPORT_SNIPPET.format(mod=mod, pre=pre)
            p, wall = _spawn(["-c", code])
            if p.returncode != 0:
                break
            walls.append(wall)
            if mod is not None:
                ins.append(json.loads(p.stdout.strip().splitlines()[-1])["import_s"])
        if walls:
            out[f"import_{name}"] = {"process_wall_s": statistics.median(walls),
                                     "import_s": statistics.median(ins) if ins else None}
    return out


SIMD_FLAGS = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512vl")
"""The CPU flags recorded with a run (``/proc/cpuinfo``; Linux only)."""


def machine_info():
    info = {"python": sys.version.split()[0], "platform": platform.platform(),
            "cpus": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                elif line.startswith("flags"):
                    # the SIMD a machine offers decides how wide the kernels' packed passes run
                    # (and the vendor how fast: BENCHMARKS.md, the session-9 AMD machine)
                    flags = line.split(":", 1)[1].split()
                    info["simd"] = [f for f in flags if f in SIMD_FLAGS]
                    break
        with open("/proc/meminfo") as f:
            info["mem_gib"] = round(int(f.readline().split()[1]) / 2 ** 20, 1)
    except OSError:
        pass
    try:
        info["loadavg_start"] = os.getloadavg()
    except OSError:
        pass
    code = ("import json, importlib\nout = {}\n"
            "for name, mod in (('numpy', 'numpy'), ('numba', 'numba'), ('pymunk', 'pymunk'), "
            "('box2d', 'Box2D'), ('impulse2d', 'impulse2d')):\n"
            "    try:\n        m = importlib.import_module(mod)\n"
            "        out[name] = str(getattr(m, '__version__', None) or m.version)\n"
            "    except Exception:\n        out[name] = None\n"
            "try:\n    from importlib.metadata import version\n"
            "    out['pyb2d3'] = version('pyb2d3')\n"
            "except Exception:\n    out['pyb2d3'] = None\n"
            "print(json.dumps(out))")
    p, _ = _spawn(["-c", code])
    info["versions"] = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {}
    return info


def _med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def summarize(runs, scenes, engines):
    summary = {}
    for sk in scenes:
        entry = {"engines": {}, "ratios": {}}
        by_eng = {}
        for e in engines:
            rs = [r for r in runs if r["scene"] == sk and r["engine"] == e and "error" not in r]
            errs = [r["error"] for r in runs if r["scene"] == sk and r["engine"] == e
                    and "error" in r]
            by_eng[e] = {r["round"]: r for r in rs}
            if not rs:
                entry["engines"][e] = {"error": errs[0] if errs else "not run"}
                continue
            means = [r["timing"]["ms_step_mean"] for r in rs]
            entry["engines"][e] = {
                "runs": len(rs), "bodies": rs[0]["bodies"], "steps": rs[0]["steps"],
                "ms_step_mean_median": _med(means), "ms_step_mean_min": min(means),
                "ms_step_mean_max": max(means),
                "ms_step_median": _med(r["timing"]["ms_step_median"] for r in rs),
                "ms_step_p95": _med(r["timing"]["ms_step_p95"] for r in rs),
                "first_step_ms": _med(r["timing"]["first_step_ms"] for r in rs),
                "build_s": _med(r["build_s"] for r in rs),
                "peak_rss_mb": _med(r.get("peak_rss_mb") for r in rs),
                "metrics": rs[-1].get("metrics"),
                "metrics_identical_across_runs": all(r.get("metrics") == rs[0].get("metrics")
                                                     for r in rs),
                "version": rs[0].get("version"), "config": rs[0].get("config"),
                "settle_steps": _med(r.get("settle_steps") for r in rs),
                "awake_timed": max((r["awake_timed"] for r in rs if "awake_timed" in r),
                                   default=None),
            }
        for a, b in (p.split("/") for p in PAIRS):
            if a not in by_eng or b not in by_eng:
                continue
            rounds = sorted(set(by_eng[a]) & set(by_eng[b]))
            rat = [by_eng[a][k]["timing"]["ms_step_mean"] / by_eng[b][k]["timing"]["ms_step_mean"]
                   for k in rounds]
            if rat:
                entry["ratios"][f"{a}/{b}"] = {"median": _med(rat), "min": min(rat),
                                               "max": max(rat), "rounds": len(rat)}
        summary[sk] = entry
    return summary


# --------------------------------------------------------------------------------------------
# markdown
# --------------------------------------------------------------------------------------------

NA = "n/a"


def _f(x, nd=3):
    if x is None:
        return NA
    if isinstance(x, bool):
        return "yes" if x else "NO"
    if isinstance(x, int):
        return str(x)
    ax = abs(x)
    if ax != 0 and (ax < 10 ** -nd or ax >= 1e5):
        return f"{x:.2e}"
    if ax >= 100:
        return f"{x:.1f}"
    if ax >= 10:
        return f"{x:.2f}"
    return f"{x:.{nd}f}"


def _eng_cell(e, key, nd=3):
    if "error" in e:
        return "**not run**"
    return _f(e.get(key), nd)


def markdown(report):
    lines = []
    summ = report["summary"]
    engines = report["config"]["engines"]
    m = report.get("machine", {})
    simd = f" ({' '.join(m['simd'])})" if m.get("simd") else ""
    lines.append(f"Machine: {m.get('cpu', '?')}{simd}, {m.get('cpus', '?')} CPUs, "
                 f"{m.get('mem_gib', '?')} GiB; Python {m.get('python', '?')}; "
                 + ", ".join(f"{k} {v}" for k, v in m.get("versions", {}).items()))
    lines.append(f"Rounds: {report['config']['rounds']}"
                 + (" (quick mode: shorter runs)" if report["config"].get("quick") else "")
                 + (f"; impulse2d options {report['config']['i2d_opts']}"
                    if report["config"].get("i2d_opts") else "")
                 + (f"; threads {report['config']['threads']}"
                    if report["config"].get("threads") else ""))
    lines.append("")
    lines.append("### Step time (ms/step, mean over steps 2..N; median over rounds [min - max])")
    lines.append("")
    hdr = "| scene | bodies | steps |"
    sep = "|---|---|---|"
    for e in engines:
        hdr += f" {e} ms/step |"
        sep += "---|"
    pairs = [p for p in PAIRS if all(x in engines for x in p.split("/"))]
    for p in pairs:
        hdr += f" {p} (paired) |"
        sep += "---|"
    if "impulse2d" in engines:
        hdr += " impulse2d first step ms |"
        sep += "---|"
    lines += [hdr, sep]
    for sk, entry in summ.items():
        es = entry["engines"]
        ok = [e for e in es.values() if "error" not in e]
        row = f"| {sk} | {ok[0]['bodies'] if ok else NA} | {ok[0]['steps'] if ok else NA} |"
        for e in engines:
            d = es.get(e, {"error": "?"})
            if "error" in d:
                row += " **not run** |"
            else:
                row += (f" {_f(d['ms_step_mean_median'])} [{_f(d['ms_step_mean_min'])} - "
                        f"{_f(d['ms_step_mean_max'])}] |")
        for p in pairs:
            r = entry["ratios"].get(p)
            row += (f" {r['median']:.2f} [{r['min']:.2f} - {r['max']:.2f}] |" if r
                    else " **n/a** |")
        if "impulse2d" in engines:
            row += f" {_eng_cell(es.get('impulse2d', {'error': 1}), 'first_step_ms', 1)} |"
        lines.append(row)
    lines.append("")
    lines.append("Per-step median / p95 ms: " + "; ".join(
        f"{sk}: " + ", ".join(
            f"{e} {_f(d.get('ms_step_median'))}/{_f(d.get('ms_step_p95'))}"
            for e, d in entry["engines"].items() if "error" not in d)
        for sk, entry in summ.items() if sk in TIMED_SCENES))
    lines.append("")

    for sk in SLEEPING_SCENES:
        if sk in summ:
            lines.append(f"{sk} (sleeping on): " + "; ".join(
                f"{e} {d['awake_timed']} awake when timed, after {d['settle_steps']} "
                "settling steps" for e, d in summ[sk]["engines"].items() if "error" not in d))
            lines.append("")

    pyr = [sk for sk in summ if sk.startswith("pyramid") or sk.startswith("many_pyramids")]
    if pyr:
        lines.append("### Pyramid stability (end of run; `standing` = no box turned > 10 deg, "
                     "rows keep their order, each row > 0.5 m above the one below)")
        lines.append("")
        lines.append("| scene | engine | standing | top dy m | top dx m | max abs dx m | "
                     "max drop m | max tilt deg | moved > 0.5 m | max overlap m | "
                     "overlaps > 1 cm |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for sk in pyr:
            for e in engines:
                d = summ[sk]["engines"].get(e, {"error": 1})
                if "error" in d or not d.get("metrics"):
                    lines.append(f"| {sk} | {e} | **not run** |" + " |" * 8)
                    continue
                mm = d["metrics"]
                if sk.startswith("many_pyramids"):
                    st = f"{mm['standing']}/{mm['pyramids']}"
                    tdy = (f"{_f(mm['top_dy_mean'], 4)} (min {_f(mm['top_dy_min'], 4)})")
                    tdx = NA
                else:
                    st = f"{int(mm['standing'])}/1"
                    tdy, tdx = _f(mm["top_dy"], 4), _f(mm["top_dx"], 4)
                lines.append(f"| {sk} | {e} | {st} | {tdy} | {tdx} | {_f(mm['max_abs_dx'], 4)} |"
                             f" {_f(mm['max_drop'], 4)} | {_f(mm['max_tilt_deg'], 2)} |"
                             f" {mm['moved_gt_0_5']} | {_f(mm.get('max_overlap'), 4)} |"
                             f" {mm.get('overlaps_gt_1cm', NA)} |")
        lines.append("")
        if "pyramid_100" in summ:
            def drop5(e, d):
                if "error" in d or not d.get("metrics"):
                    return f"{e} **not run**"
                v = d["metrics"].get("top_dy_5s")
                return f"{e} {_f(-v, 3)} m" if v is not None else f"{e} n/a (run < 300 steps)"
            lines.append("5 s stability (pyramid_100, top box drop after 300 steps): " + ", ".join(
                drop5(e, d) for e, d in summ["pyramid_100"]["engines"].items()))
            lines.append("")

    if "rain_2000" in summ:
        lines.append("### Rain (2000 circles)")
        lines.append("")
        lines.append("| engine | escaped | pile top y m | mean speed end m/s | max overlap m | "
                     "overlaps > 1 cm |")
        lines.append("|---|---|---|---|---|---|")
        for e in engines:
            d = summ["rain_2000"]["engines"].get(e, {"error": 1})
            if "error" in d:
                lines.append(f"| {e} | **not run** | | | | |")
                continue
            mm = d["metrics"]
            lines.append(f"| {e} | {mm['escaped']} | {_f(mm['pile_top'], 2)} | "
                         f"{_f(mm['mean_speed'], 4)} | {_f(mm['max_overlap'], 4)} | "
                         f"{mm['overlaps_gt_1cm']} |")
        lines.append("")

    if "restitution" in summ:
        lines.append("### Restitution (apex height of the ball's lowest point, bounces 1-3, m)")
        lines.append("")
        hdr = "| e | analytic |" + "".join(f" {e} |" for e in engines)
        lines += [hdr, "|---|---|" + "---|" * len(engines)]
        first = next((d for d in summ["restitution"]["engines"].values() if "error" not in d),
                     None)
        if first:
            for key, v in first["metrics"].items():
                row = f"| {key[1:]} | {', '.join(_f(a, 3) for a in v['analytic'])} |"
                for e in engines:
                    d = summ["restitution"]["engines"].get(e, {"error": 1})
                    if "error" in d:
                        row += " **not run** |"
                        continue
                    mv = d["metrics"][key]
                    ap = ", ".join(_f(a, 3) for a in mv["apex"]) or "no bounce"
                    row += f" {ap} (lowest {_f(mv['lowest_bottom'], 3)}) |"
                lines.append(row)
        lines.append("")

    if "friction_ramp" in summ:
        lines.append("### Friction ramp (30 deg, 2 s; displacement down the slope, m)")
        lines.append("")
        hdr = "| mu | analytic |" + "".join(f" {e} |" for e in engines)
        lines += [hdr, "|---|---|" + "---|" * len(engines)]
        first = next((d for d in summ["friction_ramp"]["engines"].values() if "error" not in d),
                     None)
        if first:
            for key, v in first["metrics"].items():
                row = f"| {key[2:]} | {_f(v['analytic'], 4)} |"
                for e in engines:
                    d = summ["friction_ramp"]["engines"].get(e, {"error": 1})
                    if "error" in d:
                        row += " **not run** |"
                        continue
                    mv = d["metrics"][key]
                    row += f" {_f(mv['displacement'], 4)} ({'slid' if mv['slid'] else 'stuck'}) |"
                lines.append(row)
        lines.append("")

    joint_scenes = [sk for sk in summ if SCENES.get(sk, ("", {}, 0, ""))[3] == "joints"]
    if joint_scenes:
        lines.append("### Joints (revolute anchor gap |p_a - p_b|, m: at the end, max and mean "
                     f"over the joints; max over the run, sampled every {JOINT_SAMPLE_EVERY} "
                     "steps)")
        lines.append("")
        lines.append("| scene | engine | joints | gap max end | gap mean end | gap max run | "
                     "gaps > 1 cm end | lowest body y m | finite |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for sk in joint_scenes:
            for e in engines:
                d = summ[sk]["engines"].get(e, {"error": 1})
                if "error" in d or not d.get("metrics"):
                    lines.append(f"| {sk} | {e} | **not run** |" + " |" * 6)
                    continue
                mm = d["metrics"]
                lines.append(f"| {sk} | {e} | {mm['joints']} | {_f(mm['gap_max'], 4)} | "
                             f"{_f(mm['gap_mean'], 4)} | {_f(mm['gap_max_run'], 4)} | "
                             f"{mm['gaps_gt_1cm']} | {_f(mm['lowest_y'], 2)} | "
                             f"{_f(mm['finite'])} |")
        lines.append("")

    st = report.get("startup")
    if st:
        lines.append("### Start-up (separate processes)")
        lines.append("")
        i2d = st.get("impulse2d")
        if i2d and "error" not in i2d:
            lines.append("| impulse2d | import s | build pyramid_20 s | first step s | "
                         "total s | process wall s |")
            lines.append("|---|---|---|---|---|---|")
            for label in ("cold", "warm"):
                r = i2d[label]
                if r is None:
                    lines.append(f"| {label} | not measured (quick mode) | | | | |")
                    continue
                lines.append(f"| {label} | {_f(r['import_s'])} | {_f(r['build_s'])} | "
                             f"{_f(r['first_step_s'])} | {_f(r['total_s'])} | "
                             f"{_f(r['process_wall_s'])} |")
            lines.append("")
        elif "impulse2d" in engines:
            err = i2d.get("error", "not run") if i2d else "not run"
            lines.append(f"impulse2d start-up: **not measured** ({err[:200]})")
            lines.append("")
        lines.append("| module | import s (in process; peers after numpy) | "
                     "`python -c import` wall s |")
        lines.append("|---|---|---|")
        for k, v in st.items():
            if k.startswith("import_"):
                lines.append(f"| {k[7:]} | {_f(v['import_s'])} | {_f(v['process_wall_s'])} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None):
    global WORKER_TIMEOUT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", default=DEFAULT_SCENES,
                    help=f"comma list of {', '.join(SCENES)} (default: all)")
    ap.add_argument("--engines", default=",".join(ENGINE_NAMES))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--quick", action="store_true",
                    help="1 round, shorter runs of the big scenes, 1 warm start-up run")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up measurement")
    ap.add_argument("--cold", action=argparse.BooleanOptionalAction, default=None,
                    help="measure impulse2d's cold start-up (empty Numba cache, about a minute "
                         "of compiling); default: on, off with --quick")
    ap.add_argument("--threads", type=int, default=1, metavar="N",
                    help="threads of one world: pyb2d3's ThreadPool of N when N > 1 and "
                         "impulse2d's WorldSettings.threads; pymunk and pybox2d have none")
    ap.add_argument("--i2d-opt", action="append", default=[], metavar="KEY=VALUE",
                    help="WorldSettings field for impulse2d (repeatable)")
    ap.add_argument("--timeout", type=float, default=WORKER_TIMEOUT, metavar="S",
                    help="give up one measurement (scene x engine x round) after S seconds "
                         "(default %(default)g); it is reported as not run")
    ap.add_argument("--report", metavar="JSON", help="print the tables of an existing report")
    # internal: one measurement in this process
    ap.add_argument("--worker", nargs=2, metavar=("SCENE", "ENGINE"), help=argparse.SUPPRESS)
    ap.add_argument("--steps", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--opt", action="append", default=[], help=argparse.SUPPRESS)
    ap.add_argument("--warmup", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a.worker:
        if a.warmup:
            warmup_worker(a.worker[0].split(","), a.steps or 60, _parse_opts(a.opt))
            print(json.dumps({"warmup": a.worker[0]}))
            return 0
        res = worker(a.worker[0], a.worker[1], a.steps, _parse_opts(a.opt), a.warmup)
        print(json.dumps(res))
        return 0
    if a.report:
        print(markdown(json.loads(Path(a.report).read_text())))
        return 0

    scenes = [s.strip() for s in a.scenes.split(",") if s.strip()]
    engines = [e.strip() for e in a.engines.split(",") if e.strip()]
    for s in scenes:
        if s not in SCENES:
            ap.error(f"unknown scene {s!r}; known: {', '.join(SCENES)}")
    for e in engines:
        if e not in ENGINE_NAMES:
            ap.error(f"unknown engine {e!r}; known: {', '.join(ENGINE_NAMES)}")
    WORKER_TIMEOUT = a.timeout
    rounds = 1 if a.quick else a.rounds
    i2d_opts = _parse_opts(a.i2d_opt)
    if a.threads < 1:
        ap.error("--threads must be >= 1")
    engine_opts = {e: {} for e in engines}
    if a.threads > 1:
        engine_opts["pyb2d3"] = {"threads": a.threads}
        i2d_opts = {"threads": a.threads, **i2d_opts}
    engine_opts["impulse2d"] = i2d_opts
    t_start = time.perf_counter()
    log = lambda *x: print(*x, file=sys.stderr, flush=True)  # noqa: E731

    report = {"config": {"scenes": scenes, "engines": engines, "rounds": rounds,
                         "timeout_s": WORKER_TIMEOUT,
                         "quick": a.quick, "i2d_opts": i2d_opts, "dt": 1 / 60,
                         "threads": {e: (int(i2d_opts.get("threads", 1)) if e == "impulse2d"
                                         else a.threads if e == "pyb2d3" else 1)
                                     for e in engines},
                         "gravity": [0.0, -10.0],
                         "steps": {s: (SCENES[s][4] if a.quick else SCENES[s][2])
                                   for s in scenes}},
              "machine": machine_info()}
    log(f"machine: {report['machine'].get('cpu')}  versions: {report['machine']['versions']}")

    if not a.no_startup:
        log("start-up ...")
        cold = (not a.quick) if a.cold is None else a.cold
        report["startup"] = measure_startup(engines, reps=1 if a.quick else 3, cold=cold,
                                            log=log)

    if "impulse2d" in engines:
        log("impulse2d warm-up (loads / compiles kernels, untimed) ...")
        first = {}
        for sk in scenes:
            first.setdefault(SCENES[sk][0], sk)
        r = run_worker(",".join(first.values()), "impulse2d", 60, i2d_opts, warmup=True)
        if "error" in r:
            log(f"  impulse2d warm-up failed: {r['error'][:300]}")

    runs = []
    for rnd in range(rounds):
        order = engines if rnd % 2 == 0 else engines[::-1]
        for sk in scenes:
            steps = report["config"]["steps"][sk]
            for e in order:
                r = run_worker(sk, e, steps, engine_opts.get(e, {}))
                r["round"] = rnd
                runs.append(r)
                if "error" in r:
                    log(f"round {rnd} {sk:14s} {e:9s} ERROR {r['error'][:300]}")
                else:
                    t = r["timing"]
                    log(f"round {rnd} {sk:14s} {e:9s} {t['ms_step_mean']:9.3f} ms/step "
                        f"(median {t['ms_step_median']:.3f}, first {t['first_step_ms']:.1f} ms)"
                        + (f", {r['awake_timed']} awake after {r['settle_steps']} settling steps"
                           if "settle_steps" in r else ""))
    report["runs"] = runs
    report["summary"] = summarize(runs, scenes, engines)
    try:
        report["machine"]["loadavg_end"] = os.getloadavg()
    except OSError:
        pass
    report["wall_s"] = time.perf_counter() - t_start
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(markdown(report))
    log(f"wrote {out} in {report['wall_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
