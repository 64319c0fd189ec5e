"""``impulse2d compare``: its measurements against the public API, its verdict rules against
Solver2D's table, and the report it writes."""

from __future__ import annotations

import json
import math

import pytest

import impulse2d as i2d
from impulse2d import cli
from impulse2d.compare import (VERDICTS, JointGaps, compare, run_scene, solver_residuals,
                               worst_separation)
from impulse2d.scenes import SCENES, Scene, SceneInfo, _load, build_scene
from impulse2d.settings import SOLVERS

_load()


# ---------------------------------------------------------------------------------------------
# measurements
# ---------------------------------------------------------------------------------------------

def test_worst_separation_is_the_minimum_over_world_contacts():
    world = i2d.World()
    build_scene(world, "overlap_recovery")          # boxes 25 % into each other
    assert worst_separation(world) is None           # no step yet: no contacts
    for _ in range(3):
        world.step(1.0 / 60.0)
    seps = [p.separation for c in world.contacts for p in c.points]
    assert len(seps) > 10
    assert worst_separation(world) == min(seps)
    assert min(seps) < -0.1                           # still deeply overlapping after 3 steps


def test_joint_gaps_match_the_joint_handles():
    world = i2d.World()
    build_scene(world, "stretched_chain", links=8)
    tracker = JointGaps(world)
    for _ in range(2):
        world.step(1.0 / 60.0)
    expected = [math.dist(j.world_anchor_a, j.world_anchor_b) for j in world.joints]
    assert tracker.gaps(world) == pytest.approx(expected, abs=1e-12)
    assert max(expected) > 0.01                       # not trivially closed yet


def test_solver_residuals_come_from_the_solver_diagnostics():
    world = i2d.World()
    world.step(1.0 / 60.0)
    assert solver_residuals(world) is None            # diagnostics off: nothing recorded
    world.settings.diagnostics = True
    world.settings.solver = "pgs"
    world.step(1.0 / 60.0)
    assert solver_residuals(world) == list(world.solver_stats.residuals)
    assert len(solver_residuals(world)) == world.settings.velocity_iterations


def test_energy_and_drop_of_a_falling_box():
    # high_mass_ratio_2 for 30 steps: the 400 kg box is in free fall (it starts 15 m above
    # the small boxes), so after t = 0.5 s its speed is g t = 5 m/s and its kinetic energy
    # m v^2 / 2 = 5000 J; the rest are at rest on the ground
    r = run_scene("high_mass_ratio_2", "soft_step", 30)
    m = r.metrics
    assert r.error is None
    assert m["v_end"] == pytest.approx(5.0, rel=1e-6)
    assert m["kinetic_energy_end"] == pytest.approx(0.5 * 400.0 * 25.0, rel=1e-3)
    # fell 1/2 g t^2, exactly as symplectic Euler over 4 substeps of h = 1/240 s has it:
    # g h^2 (1 + 2 + ... + 120) = 1/2 g t (t + h)
    assert m["top_y_start"] - m["top_y_end"] == pytest.approx(0.5 * 10 * 0.5 * (0.5 + 1 / 240),
                                                              rel=1e-9)
    assert m["steps_done"] == 30 and m["ms_median"] > 0.0
    assert r.verdict == "fails"                       # still falling: not resting at 10.91


# ---------------------------------------------------------------------------------------------
# verdict rules read Solver2D's own numbers as its table does (reference section 1.5)
# ---------------------------------------------------------------------------------------------

def _verdict(name, **metrics):
    return VERDICTS[name]({"finite": True, **metrics})


def test_verdicts_on_solver2d_numbers():
    stack = dict(top_reference=14.5)
    assert _verdict("vertical_stack", top_y_end=14.43, v_end=0.05, **stack)     # SoftStep
    assert _verdict("vertical_stack", top_y_end=14.47, v_end=0.17, **stack)     # TGS_Sticky
    assert not _verdict("vertical_stack", top_y_end=14.14, v_end=2.0, **stack)  # NGS block
    assert not _verdict("vertical_stack", top_y_end=1.5, v_end=0.0, **stack)    # PGS fell
    assert _verdict("large_pyramid", max_drop=0.72, v_end=0.09)                 # SoftStep
    assert not _verdict("large_pyramid", max_drop=0.94, v_end=4.3)              # NGS block
    assert not _verdict("large_pyramid", max_drop=1.7, v_end=0.56)              # PGS_Soft
    for y, holds in ((10.91, True), (10.88, True), (10.80, True), (10.46, False),
                     (10.26, False), (10.00, False), (11.59, False)):
        assert _verdict("high_mass_ratio_3", top_y_end=y, v_end=0.0) is holds, y
    assert _verdict("overlap_recovery", top_y_end=3.48, top_reference=3.5, v_end=0.0)
    assert not _verdict("overlap_recovery", top_y_end=2.21, top_reference=3.5, v_end=0.0)
    assert _verdict("bridge", joint_gap_last_s=0.04)                            # SoftStep
    assert not _verdict("bridge", joint_gap_last_s=0.60)                        # PGS
    assert _verdict("ball_and_chain", joint_gap_last_s=0.07)                    # SoftStep
    assert not _verdict("ball_and_chain", joint_gap_last_s=2.36)                # PGS
    assert not _verdict("double_domino", fallen=1, count=15)                    # TGS_Sticky
    # a blown-up world fails whatever its numbers, and so does a missing metric
    assert not VERDICTS["bridge"]({"finite": False, "joint_gap_last_s": 0.0})
    assert not _verdict("bridge")


# ---------------------------------------------------------------------------------------------
# the report
# ---------------------------------------------------------------------------------------------

def test_compare_writes_a_report_for_two_scenes_and_two_solvers(tmp_path):
    solvers = list(SOLVERS[:2])
    assert len(solvers) == 2
    report = compare(["stack", "high_mass_ratio_2"], solvers, steps=30, out=tmp_path,
                     params={"stack": {"count": 3}}, progress=False, frames=8)
    data = json.loads((tmp_path / "metrics.json").read_text())
    assert set(data["scenes"]) == {"stack", "high_mass_ratio_2"}
    for solver in solvers:
        stack = data["scenes"]["stack"]["results"][solver]
        assert stack["error"] is None
        m = stack["metrics"]
        # a 3-box stack placed at rest stays put: the top moves less than a centimetre
        assert abs(m["top_dy"]) < 0.01
        assert m["kinetic_energy_end"] < 0.01
        assert -0.02 < m["worst_penetration"] <= 0.0
        assert m["ms_median"] > 0.0 and m["steps_done"] == 30
        fall = data["scenes"]["high_mass_ratio_2"]["results"][solver]["metrics"]
        assert fall["kinetic_energy_end"] == pytest.approx(5000.0, rel=0.01)   # free fall
    assert data["scenes"]["high_mass_ratio_2"]["rule"] == VERDICTS["high_mass_ratio_2"].rule
    assert data["scenes"]["stack"]["rule"] is None       # no verdict rule for the demo stack

    md = (tmp_path / "report.md").read_text()
    assert "| scene | " + " | ".join(solvers) + " |" in md
    assert "## high_mass_ratio_2" in md and VERDICTS["high_mass_ratio_2"].rule in md
    assert "--residuals" in md                            # the residuals' note: not recorded

    from PIL import Image
    for name in ("stack", "high_mass_ratio_2"):
        with Image.open(tmp_path / f"{name}.gif") as im:
            assert im.size == (2 * 320, 240)              # one 320 px column per solver
            assert im.n_frames == 1 + 30 // math.ceil(30 / 8)
        assert (tmp_path / f"{name}.png").is_file()
    try:
        import matplotlib  # noqa: F401
        assert (tmp_path / "plots" / "stack.png").is_file()
    except ImportError:
        assert "matplotlib is not installed" in md
    assert set(report.results) == {"stack", "high_mass_ratio_2"}


def test_a_failing_solver_is_recorded_and_the_rest_go_on(tmp_path, monkeypatch):
    def breaks_at_step_5(world):
        body = world.create_body(position=(0.0, 1.0))
        body.create_box(0.5, 0.5)

        def update(world, i):
            if i == 5:
                raise RuntimeError("solver diverged")
        return SceneInfo(bodies={"top": body}, update=update)

    monkeypatch.setitem(SCENES, "_breaks", Scene("_breaks", "test scene", breaks_at_step_5, 20))
    report = compare(["_breaks", "stack"], ["soft_step", "no_such_solver"], out=tmp_path,
                     steps=10, progress=False, animate=False, plots=False)
    broken = report.results["_breaks"]["soft_step"]
    assert broken.error == "RuntimeError: solver diverged"
    assert broken.metrics["steps_done"] == 5              # measured up to the failure
    assert broken.metrics["top_y_end"] < 1.0              # it did fall for those 5 steps
    unknown = report.results["stack"]["no_such_solver"]
    assert unknown.error.startswith("ValueError: solver must be one of")
    assert report.results["stack"]["soft_step"].error is None
    md = (tmp_path / "report.md").read_text()
    assert "RuntimeError: solver diverged" in md and "error" in md


def test_cli_compare(tmp_path, capsys):
    out = tmp_path / "rep"
    code = cli.main(["compare", "--scenes", "stack", "--solvers", "soft_step", "--steps", "5",
                     "--out", str(out), "--no-gif", "--no-plots", "-q",
                     "--param", "stack:count=2", "--set", "substeps=8"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "stack" in captured.out and "report.md" in captured.out
    data = json.loads((out / "metrics.json").read_text())
    assert data["scenes"]["stack"]["results"]["soft_step"]["metrics"]["steps_done"] == 5
    assert not list(out.glob("*.gif"))
    assert cli.main(["compare", "--solvers", "nope", "--out", str(out)]) == 2
    assert "unknown solver 'nope'" in capsys.readouterr().err
    assert cli.main(["compare", "--scenes", "nope", "--out", str(out)]) == 2
    assert cli.main(["compare", "--set", "substeps=0", "--out", str(out)]) == 2


def test_residuals_reach_the_report_and_its_plot(tmp_path):
    # pgs on the stack of boxes, 3 steps with diagnostics: the last step's residual per
    # iteration (velocity_iterations of them) in metrics.json, as solver_stats had it, and
    # its plot.
    r = run_scene("stack", "pgs", 3, residuals=True)
    residuals = r.metrics["residuals_last_step"]
    assert len(residuals) == r.settings["velocity_iterations"]
    assert all(math.isfinite(x) and x >= 0.0 for x in residuals)
    compare(["stack"], ["pgs"], steps=3, out=tmp_path, progress=False, animate=False,
            residuals=True)
    data = json.loads((tmp_path / "metrics.json").read_text())
    m = data["scenes"]["stack"]["results"]["pgs"]["metrics"]
    assert m["residuals_last_step"] == residuals        # the same run, deterministic
    assert "in metrics.json" in (tmp_path / "report.md").read_text()
    pytest.importorskip("matplotlib")
    assert (tmp_path / "plots" / "stack_residuals.png").is_file()


def test_progress_without_tqdm_prints_a_line_per_run(tmp_path, monkeypatch, capsys):
    import sys
    monkeypatch.setitem(sys.modules, "tqdm", None)         # import tqdm -> ImportError
    compare(["stack"], ["soft_step"], steps=2, out=None, progress=True)
    err = capsys.readouterr().err
    assert "[1/1] stack / soft_step: 2 steps" in err and "ms/step" in err
