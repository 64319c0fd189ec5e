"""Run scenes under every solver side by side and report how each one holds up.

This is impulse2d's version of Catto's Solver2D comparison (reference section 1.5): the same
scene is built once per solver (``impulse2d.settings.SOLVERS``, whatever it holds), stepped for
the same number of 1/60 s steps, and measured from outside the solver:

* **top y / drop**: height of the scene's watched body (``SceneInfo.bodies["top"]``) at the end,
  against where it should rest (``data["top_rest_y"]``, else its start), and its largest drop;
* **worst penetration**: most negative contact separation over the run (``world.contacts``);
* **joint gap**: largest distance between a joint's two world anchors, over the run and over the
  last simulated second (Solver2D's "gap");
* **kinetic energy** and the **largest body speed** after the last step (Solver2D's "v_end");
* **ms/step**: median wall time of ``world.step`` (the first step, which may compile, excluded).

Each stress scene has a verdict rule (:data:`VERDICTS`) on those numbers, stated in the report,
chosen so that Solver2D's own runs of the same scene would be judged as its table reads.

Use it from Python::

    from impulse2d.compare import compare
    report = compare(["vertical_stack", "bridge"], out="compare-report")
    report.results["vertical_stack"]["soft_step"].metrics["top_y_end"]

or from the shell: ``impulse2d compare --scenes vertical_stack,bridge --out report/``.

The report folder gets ``metrics.json``, ``report.md``, one animated GIF and one PNG per scene
(a column per solver, needs Pillow), and plots of penetration, joint gap and top height against
time (needs matplotlib; skipped with a note otherwise).

Per-iteration residuals (``residuals=True``, ``--residuals``) come from the solvers' own
diagnostics (``WorldSettings.diagnostics``, ``world.solver_stats``): the residual after each
iteration of the last step, plotted against the iteration per solver.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

__all__ = [
    "compare", "run_scene", "write_report", "Report", "RunResult", "Verdict", "VERDICTS",
    "SOLVER2D", "worst_separation", "JointGaps", "solver_residuals", "DT",
]

DT = 1.0 / 60.0
"""s, the step of every comparison run (Solver2D's 60 Hz)."""

CELL = (320, 240)
"""px, size of one solver's picture in the animation grid."""

GIF_FRAMES = 60
"""Frames kept per run for the animated grid (the GIF still plays in simulated time)."""

STEPS = {"pyramid": 600}
"""Steps where the comparison differs from a scene's demo default: Solver2D ran the base-20
pyramid for 600 steps (the benchmark's ``pyramid`` default is 500)."""


# ---------------------------------------------------------------------------------------------
# measurements
# ---------------------------------------------------------------------------------------------

def worst_separation(world) -> float | None:
    """Most negative separation of any contact point of the last step, m (negative: overlap),
    or None without contact points.

    Equal to ``min(p.separation for c in world.get_contacts(touching_only=False) for p in
    c.points)``, but read from the contact store that it reads, without building a Python
    object per point (a 5050-box pyramid has about 10 000 contacts, and this runs after every step).
    """
    store = getattr(world, "_contacts", None)
    if store is None or not hasattr(store, "separation"):
        seps = [p.separation for c in world.contacts for p in c.points]
        return min(seps) if seps else None
    count = np.asarray(store.count)
    live = np.flatnonzero(count > 0)
    if live.size == 0:
        return None
    sep = np.asarray(store.separation)[live]
    used = np.arange(sep.shape[1])[None, :] < count[live][:, None]
    return float(sep[used].min())


class JointGaps:
    """Distance between each joint's two world anchors (``joint.world_anchor_a`` and ``_b``),
    for every joint of a world, from the bulk body state.

    The anchors are fixed in each body's frame (read once from the joint handles at creation),
    so one NumPy pass per step replaces two handle lookups per joint.
    """

    def __init__(self, world):
        bodies = world.bodies
        index = {id(b): k for k, b in enumerate(bodies)}
        joints = world.joints
        self.count = len(joints)
        self.a = np.array([index[id(j.body_a)] for j in joints], dtype=np.int64)
        self.b = np.array([index[id(j.body_b)] for j in joints], dtype=np.int64)
        pos, ang = world.get_positions(), world.get_angles()
        wa = np.array([tuple(j.world_anchor_a) for j in joints], dtype=float).reshape(-1, 2)
        wb = np.array([tuple(j.world_anchor_b) for j in joints], dtype=float).reshape(-1, 2)
        self.la = self._to_local(pos[self.a], ang[self.a], wa)
        self.lb = self._to_local(pos[self.b], ang[self.b], wb)

    @staticmethod
    def _to_local(p, a, w):
        c, s = np.cos(a), np.sin(a)
        d = w - p
        return np.stack([c * d[:, 0] + s * d[:, 1], -s * d[:, 0] + c * d[:, 1]], axis=1)

    @staticmethod
    def _to_world(p, a, q):
        c, s = np.cos(a), np.sin(a)
        return np.stack([p[:, 0] + c * q[:, 0] - s * q[:, 1],
                         p[:, 1] + s * q[:, 0] + c * q[:, 1]], axis=1)

    def gaps(self, world) -> np.ndarray:
        """(J,) gaps now, m."""
        if self.count == 0:
            return np.zeros(0)
        pos, ang = world.get_positions(), world.get_angles()
        wa = self._to_world(pos[self.a], ang[self.a], self.la)
        wb = self._to_world(pos[self.b], ang[self.b], self.lb)
        return np.hypot(*(wa - wb).T)


def solver_residuals(world) -> list[float] | None:
    """The largest residual after each iteration of the world's last step (m/s), from
    ``world.solver_stats``; None when its diagnostics were off."""
    stats = world.solver_stats
    return None if stats is None else [float(r) for r in stats.residuals]


class _Probe:
    """Everything measured of one run, sampled after every step."""

    def __init__(self, world, info, steps):
        self.info = info
        self.top = info.bodies.get("top") if info is not None else None
        bodies = world.bodies
        self.mass = np.array([b.mass for b in bodies])
        self.inertia = np.array([b.inertia for b in bodies])
        self.dynamic = self.mass > 0.0
        self.joints = JointGaps(world)
        self.last_s = max(1, int(round(1.0 / DT)))          # steps in the last second
        self.steps = steps
        self.top_y0 = self.top.position.y if self.top is not None else None
        self.series: dict[str, list[float]] = {"t": [], "penetration": [], "joint_gap": [],
                                               "top_y": []}
        self.worst_pen = math.inf
        self.pen_end = None
        self.gap_max = 0.0
        self.gap_last = 0.0
        self.top_min = math.inf
        self.residuals: list[float] | None = None

    def sample(self, world, step):
        """After step number ``step`` (1-based)."""
        s = self.series
        s["t"].append(step * DT)
        sep = worst_separation(world)
        self.pen_end = sep
        if sep is not None:
            self.worst_pen = min(self.worst_pen, sep)
        s["penetration"].append(math.nan if sep is None else sep)
        if self.joints.count:
            g = float(self.joints.gaps(world).max())
            self.gap_max = max(self.gap_max, g) if math.isfinite(g) else math.inf
            if step > self.steps - self.last_s:
                self.gap_last = max(self.gap_last, g) if math.isfinite(g) else math.inf
            s["joint_gap"].append(g)
        if self.top is not None:
            y = self.top.position.y
            self.top_min = min(self.top_min, y) if math.isfinite(y) else -math.inf
            s["top_y"].append(y)
        r = solver_residuals(world)
        if r is not None:
            self.residuals = r

    def metrics(self, world) -> dict[str, Any]:
        v = world.get_velocities()
        pos = world.get_positions()
        ke = 0.5 * float(np.sum(self.mass * (v[:, 0] ** 2 + v[:, 1] ** 2)
                                + self.inertia * v[:, 2] ** 2))
        dyn = self.dynamic
        speed = np.hypot(v[dyn, 0], v[dyn, 1])
        m: dict[str, Any] = {
            "kinetic_energy_end": ke,
            "v_end": float(speed.max()) if speed.size else 0.0,
            "lowest_y_end": float(pos[dyn, 1].min()) if dyn.any() else None,
            "finite": bool(np.isfinite(pos).all() and np.isfinite(v).all()),
            "worst_penetration": None if self.worst_pen == math.inf else self.worst_pen,
            "penetration_end": self.pen_end,
        }
        if self.joints.count:
            m.update(joint_gap_max=self.gap_max, joint_gap_last_s=self.gap_last,
                     joints=self.joints.count)
        if self.top is not None:
            data = self.info.data
            ref = data.get("top_rest_y", self.top_y0)
            y = self.top.position.y
            m.update(top_y_start=self.top_y0, top_y_end=y, top_y_min=self.top_min,
                     top_reference=ref, top_dy=y - ref, max_drop=ref - self.top_min)
        dominoes = self.info.bodies.get("dominoes") if self.info is not None else None
        if dominoes and "fallen_angle" in self.info.data:
            lim = self.info.data["fallen_angle"]
            m["fallen"] = sum(abs(d.angle) > lim for d in dominoes)
            m["count"] = len(dominoes)
        return m


# ---------------------------------------------------------------------------------------------
# verdicts
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """A pass rule on a run's metrics: ``rule`` says it in words, ``check`` decides."""

    rule: str
    check: Callable[[dict], bool]

    def __call__(self, metrics: dict) -> bool:
        if not metrics.get("finite", False):
            return False
        try:
            return bool(self.check(metrics))
        except (KeyError, TypeError):        # a metric the rule needs is missing
            return False


def _near(m, key, target, tol):
    return abs(m[key] - target) <= tol


VERDICTS: dict[str, Verdict] = {
    "vertical_stack": Verdict(
        "top box within 0.15 m of its resting height (14.5 m for 15 boxes) and no body faster "
        "than 0.25 m/s at the end (Solver2D: top y, v)",
        lambda m: _near(m, "top_y_end", m["top_reference"], 0.15) and m["v_end"] < 0.25),
    "pyramid": Verdict(
        "top box within 0.1 m of its start and no body faster than 0.1 m/s at the end "
        "(Solver2D: top dy / v_end)",
        lambda m: abs(m["top_dy"]) <= 0.1 and m["v_end"] < 0.1),
    "large_pyramid": Verdict(
        "the top box never drops 1 m (one box) below its start and no body is faster than "
        "0.5 m/s at the end (Solver2D: top dy / max drop / v_end)",
        lambda m: m["max_drop"] < 1.0 and m["v_end"] < 0.5),
    "high_mass_ratio_1": Verdict(
        "no box centre below the ground (Solver2D: bodies lost below ground) and no body "
        "faster than 0.1 m/s at the end",
        lambda m: m["lowest_y_end"] >= 0.0 and m["v_end"] < 0.1),
    "high_mass_ratio_2": Verdict(
        "the big box rests on the small ones: centre between 10.75 and 11.05 m (11 = rigid "
        "contact, 10 = small boxes crushed through the ground), no body faster than 0.1 m/s "
        "(Solver2D: big box y)",
        lambda m: 10.75 <= m["top_y_end"] <= 11.05 and m["v_end"] < 0.1),
    "high_mass_ratio_3": Verdict(
        "as high_mass_ratio_2: big box centre between 10.75 and 11.05 m, no body faster than "
        "0.1 m/s (Solver2D: big box y)",
        lambda m: 10.75 <= m["top_y_end"] <= 11.05 and m["v_end"] < 0.1),
    "overlap_recovery": Verdict(
        "top box within 0.05 m of 3.5 m (the separated pyramid) and no body faster than "
        "0.1 m/s at the end (Solver2D: top y)",
        lambda m: _near(m, "top_y_end", m["top_reference"], 0.05) and m["v_end"] < 0.1),
    "double_domino": Verdict(
        "every domino has fallen (tilted past 0.5 rad) (Solver2D: dominoes fallen / 15)",
        lambda m: m["fallen"] == m["count"]),
    "bridge": Verdict(
        "largest joint gap over the last second below 0.1 m (Solver2D: gap)",
        lambda m: m["joint_gap_last_s"] < 0.1),
    "ball_and_chain": Verdict(
        "largest joint gap over the last second below 0.1 m (Solver2D: gap)",
        lambda m: m["joint_gap_last_s"] < 0.1),
    "stretched_chain": Verdict(
        "largest joint gap over the last second below 0.1 m: the 1 m starting gaps are closed "
        "(not in Solver2D's table)",
        lambda m: m["joint_gap_last_s"] < 0.1),
}
"""Pass rules of the stress scenes (scenes without one get no verdict column entry)."""

SOLVER2D: dict[str, dict[str, str]] = {
    "vertical_stack": {"SoftStep": "14.43 / v 0.05", "PGS": "fell (1.5)",
                       "PGS_NGS_Block": "14.14 (v 2.0, toppling)"},
    "pyramid": {"SoftStep": "-0.03 / 0.0000", "PGS": "-0.02 / 1.1",
                "PGS_NGS_Block": "-0.07 / 0.01"},
    "large_pyramid": {"SoftStep": "-0.72 / 0.72 / 0.09", "PGS": "blown up (+24) / 31.8 / 27.8",
                      "PGS_NGS_Block": "-0.43 / 0.94 / 4.3"},
    "high_mass_ratio_1": {"SoftStep": "no (v 0.001)", "PGS": "yes (316 m drop)",
                          "PGS_NGS_Block": "yes"},
    "high_mass_ratio_2": {"SoftStep": "holds (10.91)", "PGS": "small boxes pushed through",
                          "PGS_NGS_Block": "small boxes pushed through"},
    "high_mass_ratio_3": {"SoftStep": "10.91", "PGS": "10.26", "PGS_NGS_Block": "10.88"},
    "overlap_recovery": {"SoftStep": "3.50", "PGS": "2.21 (not recovered)",
                         "PGS_NGS_Block": "3.48"},
    "double_domino": {"SoftStep": "15", "PGS": "15", "PGS_NGS_Block": "15"},
    "bridge": {"SoftStep": "0.04", "PGS": "0.60", "PGS_NGS_Block": "17.2 (broken)"},
    "ball_and_chain": {"SoftStep": "0.07", "PGS": "2.36", "PGS_NGS_Block": "3.47"},
}
"""Solver2D's measured values for the same scenes and metrics (reference section 1.5, 600
steps at 60 Hz, 4 sub-steps / iterations; large pyramid 300 steps), for the report."""


# ---------------------------------------------------------------------------------------------
# runs
# ---------------------------------------------------------------------------------------------

def _settings_dict(world) -> dict[str, Any]:
    from dataclasses import fields
    s = world.settings
    return {f.name: getattr(s, f.name) for f in fields(s)}


@dataclass
class RunResult:
    """One scene under one solver."""

    scene: str
    solver: str
    steps: int
    metrics: dict[str, Any] = field(default_factory=dict)
    verdict: str | None = None             # "holds", "fails" or None (no rule for the scene)
    error: str | None = None               # "ValueError: ..." when the run raised
    series: dict[str, list[float]] = field(default_factory=dict)
    frames: list = field(default_factory=list)   # PIL palette images, when rendering
    frame_s: float = DT                    # simulated seconds between two frames
    settings: dict[str, Any] = field(default_factory=dict)   # the world's WorldSettings


def _steps_for(sc, steps: int | None) -> int:
    if steps is not None:
        return int(steps)
    return STEPS.get(sc.name, sc.steps)


def run_scene(name: str, solver: str, steps: int | None = None, *,
              params: dict | None = None, settings: dict | None = None,
              frames: int = 0, cell: tuple[int, int] = CELL,
              residuals: bool = False) -> RunResult:
    """Build scene ``name`` in a fresh world with ``solver``, step it and measure it.

    ``frames`` > 0 renders about that many pictures over the run (needs Pillow).
    ``residuals`` switches the solver's diagnostics on (``WorldSettings.diagnostics``), so that
    :func:`solver_residuals` has something to read;
    they cost time, so ms/step is then not comparable with a run without. An exception
    from the world or the solver is caught: the result then has ``error`` set, the metrics
    measured up to that step, and verdict "fails".
    """
    import impulse2d
    from .scenes import build_scene, get_scene

    sc = get_scene(name)
    n = _steps_for(sc, steps)
    if n < 1:
        raise ValueError(f"steps must be at least 1, got {n}")
    result = RunResult(name, solver, n)
    recorder = None
    world = probe = None
    times: list[float] = []
    try:
        settings = dict(settings or {})
        if residuals:
            settings["diagnostics"] = True
        world = impulse2d.World(solver=solver, **settings)
        result.settings = _settings_dict(world)
        info = build_scene(world, name, **(params or {}))
        probe = _Probe(world, info, n)
        if frames > 0:
            from .render import GifRecorder
            recorder = GifRecorder(view=sc.view, size=cell, fps=1.0 / DT, dt=DT,
                                   total_steps=n, max_frames=frames, caption=solver)
            recorder.capture(world, step=0)
        update = info.update
        perf = time.perf_counter
        for i in range(n):
            if update is not None:
                update(world, i)
            t0 = perf()
            world.step(DT)
            times.append(perf() - t0)
            probe.sample(world, i + 1)
            if recorder is not None and (i + 1) % recorder.every == 0:
                recorder.capture(world, step=i + 1)
    except Exception as exc:  # noqa: BLE001 - recorded in the report, the comparison goes on
        result.error = f"{type(exc).__name__}: {exc}"
        result.metrics["traceback"] = traceback.format_exc(limit=4)
    if probe is not None and world is not None:
        try:
            result.metrics.update(probe.metrics(world))
        except Exception as exc:  # noqa: BLE001 - a broken world may not be measurable
            result.error = result.error or f"{type(exc).__name__}: {exc}"
        result.series = probe.series
        if probe.residuals is not None:
            result.metrics["residuals_last_step"] = probe.residuals
    result.metrics["steps_done"] = len(times)
    if times:
        ms = 1000.0 * np.asarray(times)
        result.metrics["ms_first"] = float(ms[0])
        result.metrics["ms_median"] = float(np.median(ms[1:] if ms.size > 1 else ms))
        result.metrics["sim_s"] = float(ms.sum() / 1000.0)
    if recorder is not None:
        result.frames = recorder.frames
        result.frame_s = recorder.frame_interval
    rule = VERDICTS.get(name)
    if result.error is not None:
        result.verdict = "fails" if rule is not None else None
    elif rule is not None:
        result.verdict = "holds" if rule(result.metrics) else "fails"
    return result


@dataclass
class Report:
    """What :func:`compare` ran and wrote."""

    scenes: list[str]
    solvers: list[str]
    results: dict[str, dict[str, RunResult]]
    out: str | None = None
    files: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class _Progress:
    """tqdm when installed, else one stderr line per run."""

    def __init__(self, total: int, enabled: bool):
        self.enabled = enabled
        self.bar = None
        self.done = 0
        self.total = total
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit="run", file=sys.stderr, leave=True)
            except ImportError:
                self.bar = None

    def start(self, scene: str, solver: str) -> None:
        if self.enabled and self.bar is not None:
            self.bar.set_description(f"{scene} / {solver}")

    def finish(self, r: RunResult) -> None:
        self.done += 1
        if not self.enabled:
            return
        tail = r.error or r.verdict or "done"
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str(f"{r.solver}: {tail}"[:60])
        else:
            ms = r.metrics.get("ms_median")
            print(f"[{self.done}/{self.total}] {r.scene} / {r.solver}: {r.steps} steps, "
                  f"{'?' if ms is None else f'{ms:.3f}'} ms/step, {tail}",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def compare(scenes: Iterable[str] | None = None, solvers: Iterable[str] | None = None, *,
            steps: int | None = None, out: str | os.PathLike | None = "compare-report",
            settings: dict | None = None, params: dict[str, dict] | None = None,
            animate: bool = True, plots: bool = True, progress: bool = True,
            frames: int = GIF_FRAMES, residuals: bool = False) -> Report:
    """Run every scene under every solver and (with ``out``) write the report folder.

    scenes: names (default :data:`impulse2d.scenes.stress.STRESS_SCENES`); solvers: default
    every name in :data:`impulse2d.settings.SOLVERS`; steps: overrides every scene's default;
    settings: extra :class:`WorldSettings` fields for every world; params: per-scene builder
    parameters, e.g. ``{"large_pyramid": {"base": 40}}``. ``animate`` needs Pillow and
    ``plots`` matplotlib; either is skipped, with a note in the report, when missing.
    ``residuals``: switch the solvers' diagnostics on and report per-iteration residuals
    (see :func:`run_scene`).
    """
    from .scenes import get_scene
    from .scenes.stress import STRESS_SCENES
    from .settings import SOLVERS

    scenes = list(STRESS_SCENES if scenes is None else scenes)
    solvers = list(SOLVERS if solvers is None else solvers)
    for name in scenes:
        get_scene(name)                     # unknown names fail now, not after an hour
    notes: list[str] = []
    if animate and out is not None:
        try:
            import PIL  # noqa: F401
        except ImportError:
            animate = False
            notes.append("No animations: Pillow is not installed (pip install impulse2d[render]).")
    render_frames = frames if (animate and out is not None) else 0

    results: dict[str, dict[str, RunResult]] = {}
    bar = _Progress(len(scenes) * len(solvers), progress)
    try:
        for name in scenes:
            results[name] = {}
            for solver in solvers:
                bar.start(name, solver)
                r = run_scene(name, solver, steps, params=(params or {}).get(name),
                              settings=settings, frames=render_frames, residuals=residuals)
                results[name][solver] = r
                bar.finish(r)
            if out is not None and render_frames:
                os.makedirs(out, exist_ok=True)
                _write_animation(results[name], solvers, out, name)
                for r in results[name].values():
                    r.frames = []           # written; do not keep every frame of every scene
    finally:
        bar.close()
    report = Report(scenes, solvers, results, None if out is None else os.fspath(out),
                    notes=notes)
    if out is not None:
        write_report(report, plots=plots)
    return report


# ---------------------------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------------------------

def _grid_frames(runs: Sequence[RunResult]):
    """Tile the runs' frames side by side: one column per solver, the same frame index."""
    from PIL import Image

    n = max((len(r.frames) for r in runs), default=0)
    if n == 0:
        return []
    w, h = runs[0].frames[0].size if runs[0].frames else CELL
    palette = next(r.frames[0] for r in runs if r.frames).getpalette()
    tiles = []
    for k in range(n):
        img = Image.new("P", (w * len(runs), h), 0)
        img.putpalette(palette)
        for col, r in enumerate(runs):
            if r.frames:                    # a run that stopped early keeps its last picture
                img.paste(r.frames[min(k, len(r.frames) - 1)], (col * w, 0))
        tiles.append(img)
    return tiles


def _write_animation(runs_by_solver: dict[str, RunResult], solvers, out, name) -> None:
    runs = [runs_by_solver[s] for s in solvers if s in runs_by_solver]
    tiles = _grid_frames(runs)
    if not tiles:
        return
    # plays in simulated time; GIF durations count in 10 ms, and browsers slow anything
    # under 20 ms down
    frame_ms = max(20, int(round(runs[0].frame_s * 100.0)) * 10)
    tiles[0].save(os.path.join(out, f"{name}.gif"), format="GIF", save_all=True,
                  append_images=tiles[1:], duration=frame_ms, loop=0, disposal=1)
    tiles[-1].convert("RGB").save(os.path.join(out, f"{name}.png"), optimize=True)


def _fmt(v, digits=3) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v != 0.0 and (abs(v) >= 1e5 or abs(v) < 10.0 ** -digits):
            return f"{v:.2e}"
        return f"{v:.{digits}f}"
    return str(v)


# (metric key, column title, digits); a column is shown for a scene when any run has the key
_COLUMNS = (
    ("top_y_end", "top y (m)", 3),
    ("top_dy", "top dy (m)", 3),
    ("max_drop", "max drop (m)", 3),
    ("fallen", "fallen", 0),
    ("worst_penetration", "worst sep. (m)", 4),
    ("penetration_end", "sep. at end (m)", 4),
    ("joint_gap_max", "gap max (m)", 4),
    ("joint_gap_last_s", "gap last 1 s (m)", 4),
    ("kinetic_energy_end", "KE end (J)", 3),
    ("v_end", "v end (m/s)", 3),
    ("lowest_y_end", "lowest y (m)", 2),
    ("ms_median", "ms/step", 3),
)


def _jsonable(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, (np.floating, np.integer)):
        return _jsonable(v.item())
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


def _meta(report: Report) -> dict:
    from . import __version__
    return {
        "impulse2d": __version__, "python": platform.python_version(),
        "machine": platform.platform(), "processor": platform.machine(),
        "cpus": os.cpu_count(), "dt": DT, "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "solvers": report.solvers, "scenes": report.scenes,
        # each solver's WorldSettings as run (the first scene's world; all share them)
        "settings": {s: next((runs[s].settings for runs in report.results.values()
                              if s in runs and runs[s].settings), None)
                     for s in report.solvers},
    }


def write_report(report: Report, plots: bool = True) -> list[str]:
    """Write ``metrics.json``, ``report.md`` and (optionally) the plots into ``report.out``."""
    out = report.out
    if out is None:
        raise ValueError("the report has no output folder")
    os.makedirs(out, exist_ok=True)
    from .scenes import get_scene

    if plots:
        _plot(report)
    else:
        report.notes.append("Plots skipped (plots=False / --no-plots).")
    residual_note = ("Per-iteration residuals: not recorded (run with residuals=True, "
                     "`--residuals`).")
    if any("residuals_last_step" in r.metrics for runs in report.results.values()
           for r in runs.values()):
        residual_note = "Per-iteration residuals of the last step: in metrics.json."
    report.notes.append(residual_note)

    data = {"meta": _meta(report), "notes": report.notes, "scenes": {}}
    for name, runs in report.results.items():
        sc = get_scene(name)
        rule = VERDICTS.get(name)
        data["scenes"][name] = {
            "description": sc.description,
            "rule": rule.rule if rule else None,
            "solver2d": SOLVER2D.get(name),
            "results": {s: {"steps": r.steps, "verdict": r.verdict, "error": r.error,
                            "metrics": {k: v for k, v in r.metrics.items() if k != "traceback"}}
                        for s, r in runs.items()},
        }
    path = os.path.join(out, "metrics.json")
    with open(path, "w") as f:
        json.dump(_jsonable(data), f, indent=1)
    files = [path]

    path = os.path.join(out, "report.md")
    with open(path, "w") as f:
        f.write(_markdown(report, data))
    files.append(path)
    for name in report.results:
        for ext in ("gif", "png"):
            p = os.path.join(out, f"{name}.{ext}")
            if os.path.exists(p):
                files.append(p)
        p = os.path.join(out, "plots", f"{name}.png")
        if os.path.exists(p):
            files.append(p)
    report.files = files
    return files


_KEY_SETTINGS = ("substeps", "velocity_iterations", "position_iterations", "warm_starting")


def _settings_text(by_solver: dict[str, dict | None]) -> str:
    """Per solver: its iteration counts, and every other setting that is not the default."""
    from dataclasses import fields

    from .settings import WorldSettings
    default = WorldSettings()
    names = {f.name for f in fields(WorldSettings)}
    parts = []
    for solver, st in by_solver.items():
        if not st:
            parts.append(f"{solver}: not built")
            continue
        shown = [f"{k} {st[k]}" for k in _KEY_SETTINGS if k in st]
        shown += [f"{k} {v}" for k, v in st.items()
                  if k in names and k not in _KEY_SETTINGS and k != "solver"
                  and v != getattr(default, k)]
        parts.append(f"{solver}: " + ", ".join(shown))
    return "; ".join(parts)


def _markdown(report: Report, data: dict) -> str:
    meta = data["meta"]
    lines = [
        "# impulse2d solver comparison", "",
        f"impulse2d {meta['impulse2d']}, Python {meta['python']}, {meta['machine']}, "
        f"{meta['cpus']} CPUs; {meta['date']}. Steps of 1/60 s.", "",
        "Settings: " + _settings_text(meta["settings"]) + ". Solver2D ran every solver with 4 "
        "sub-steps or 4 velocity iterations (plus 2 position or relax iterations).", "",
        "Metrics: *top y* = height of the scene's watched body at the end (*top dy*: against "
        "its resting height, or its start; *max drop*: lowest point over the run below that); "
        "*worst sep.* = most negative contact separation over the run (negative = overlap); "
        "*gap* = largest distance between a joint's two anchors (over the run, and over the "
        "last simulated second as Solver2D measures it); *KE end* = kinetic energy after the "
        "last step; *v end* = largest body speed then; *ms/step* = median wall time of "
        "`world.step` (first step excluded).", "",
        "## Summary", "",
        "| scene | " + " | ".join(report.solvers) + " |",
        "|---|" + "---|" * len(report.solvers),
    ]
    for name, runs in report.results.items():
        cells = []
        for s in report.solvers:
            r = runs.get(s)
            if r is None:
                cells.append("-")
            elif r.error:
                cells.append("error")
            else:
                ms = r.metrics.get("ms_median")
                cells.append(f"{r.verdict or '-'} ({_fmt(ms)} ms)")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("")
    for name, runs in report.results.items():
        entry = data["scenes"][name]
        lines += [f"## {name}", "", entry["description"], ""]
        if entry["rule"]:
            lines += [f"Holds when: {entry['rule']}.", ""]
        if entry["solver2d"]:
            ref = "; ".join(f"{k} {v}" for k, v in entry["solver2d"].items())
            lines += [f"Solver2D (reference 1.5): {ref}.", ""]
        shown = [c for c in _COLUMNS if any(r.metrics.get(c[0]) is not None
                                            for r in runs.values())]
        lines.append("| solver | verdict | steps | " + " | ".join(c[1] for c in shown) + " |")
        lines.append("|---|---|---|" + "---|" * len(shown))
        for s in report.solvers:
            r = runs.get(s)
            if r is None:
                continue
            verdict = r.verdict or "-"
            if r.error:
                verdict = f"{verdict}: {r.error}".replace("|", "/")
            done = r.metrics.get("steps_done", 0)
            steps = f"{done}" if done == r.steps else f"{done}/{r.steps}"
            lines.append(f"| {s} | {verdict} | {steps} | "
                         + " | ".join(_fmt(r.metrics.get(k), d) for k, _, d in shown) + " |")
        lines.append("")
        for ext, what in (("png", "Last frame"), ("gif", "Animation")):
            if os.path.exists(os.path.join(report.out, f"{name}.{ext}")):
                lines.append(f"{what}: [{name}.{ext}]({name}.{ext})" + ("  " if ext == "png" else ""))
        if os.path.exists(os.path.join(report.out, "plots", f"{name}.png")):
            lines.append(f"Plots: [plots/{name}.png](plots/{name}.png)")
        lines.append("")
    if report.notes:
        lines += ["## Notes", ""] + [f"* {n}" for n in report.notes] + [""]
    return "\n".join(lines)


def _plot(report: Report) -> None:
    """Penetration, joint gap and top height against time, one figure per scene."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        report.notes.append("Plots skipped: matplotlib is not installed "
                            "(pip install impulse2d[compare]).")
        return
    folder = os.path.join(report.out, "plots")
    os.makedirs(folder, exist_ok=True)
    panels = (("penetration", "worst contact separation (m)"),
              ("joint_gap", "largest joint gap (m)"),
              ("top_y", "top body y (m)"))
    for name, runs in report.results.items():
        used = [(k, label) for k, label in panels
                if any(r.series.get(k) and np.isfinite(r.series[k]).any() for r in runs.values())]
        if not used:
            continue
        fig, axes = plt.subplots(len(used), 1, figsize=(7.0, 2.4 * len(used)), sharex=True,
                                 squeeze=False)
        for ax, (key, label) in zip(axes[:, 0], used):
            for s in report.solvers:
                r = runs.get(s)
                if r is None or not r.series.get(key):
                    continue
                ax.plot(r.series["t"][:len(r.series[key])], r.series[key], label=s, lw=1.2)
            ax.set_ylabel(label, fontsize=8)
            ax.grid(alpha=0.3)
            if key == "joint_gap":
                ax.set_yscale("symlog", linthresh=1e-3)
        axes[0, 0].set_title(name)
        axes[0, 0].legend(fontsize=8, loc="best")
        axes[-1, 0].set_xlabel("time (s)")
        fig.tight_layout()
        fig.savefig(os.path.join(folder, f"{name}.png"), dpi=90)
        plt.close(fig)
        _plot_residuals(plt, report, name, runs, folder)


def _plot_residuals(plt, report, name, runs, folder) -> None:
    """Residual against iteration in the last step, per solver: only from the solver's own
    diagnostics (``world.solver_stats``, via :func:`solver_residuals`), never estimated."""
    have = {s: r.metrics["residuals_last_step"] for s, r in runs.items()
            if r.metrics.get("residuals_last_step")}
    if not have:
        return
    fig, ax = plt.subplots(figsize=(7.0, 3.0))
    for s in report.solvers:
        if s in have:
            res = np.abs(np.asarray(have[s], dtype=float))
            ax.plot(np.arange(1, res.size + 1), res, marker=".", label=s)
    ax.set_yscale("log")
    ax.set_xlabel("iteration (last step)")
    ax.set_ylabel("residual (world.solver_stats)", fontsize=8)
    ax.set_title(f"{name}: solver residuals")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, f"{name}_residuals.png"), dpi=90)
    plt.close(fig)
