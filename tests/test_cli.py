"""The ``impulse2d`` command line: ``demo --list``, running a scene, writing the GIF, errors."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from impulse2d.cli import main
from impulse2d.scenes import SCENES, _load

_load()


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_and_describes_every_scene(capsys):
    code, out, err = _run(capsys, "demo", "--list")
    assert code == 0
    assert len(SCENES) >= 8
    for name in ("pyramid", "many_pyramids", "rain", "mixed_rain", "bouncing_balls",
                 "friction_ramp", "dominoes", "stack"):
        assert name in SCENES
    for name, sc in SCENES.items():
        assert re.search(rf"^\s+{name}\s", out, re.M), name
        assert sc.description[:40] in out
    assert "base=20" in out                     # default parameters are shown


def test_demo_stack_writes_gif_and_prints_timings(capsys, tmp_path):
    from PIL import Image

    gif = tmp_path / "stack.gif"
    code, out, err = _run(capsys, "demo", "stack", "--steps", "30", "--out", str(gif))
    assert code == 0, err
    assert gif.is_file()
    with Image.open(gif) as im:
        assert im.format == "GIF"
        # the initial state and one frame every 2 steps (30 fps of 1/60 s steps)
        assert im.n_frames == 1 + 30 // 2
        # stack's view is 12 m x 10 m; default width 480
        assert im.size == (480, 400)
    assert re.search(r"first step \(incl\. JIT compile\): [0-9.]+ ms", out)
    assert re.search(r"mean [0-9.]+ ms/step, median [0-9.]+ ms/step, p95 [0-9.]+ ms/step", out)
    # a progress line at 30 steps (the end) with step index, time, ms/step, bodies and contacts
    assert re.search(r"step\s+30\s+t =\s+0\.50 s\s+[0-9.]+ ms/step\s+bodies\s+6\s+contacts\s+\d+", out)
    assert str(gif) in out


def test_demo_progress_about_once_per_simulated_second(capsys, tmp_path):
    code, out, err = _run(capsys, "demo", "stack", "--steps", "150", "--no-gif")
    assert code == 0, err
    steps = [int(m) for m in re.findall(r"^\s+step\s+(\d+)", out, re.M)]
    assert steps == [60, 120, 150]


def test_default_gif_path_is_scene_name_in_cwd(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "demo", "stack", "--steps", "4", "--width", "120", "--fps", "15")
    assert code == 0, err
    assert (tmp_path / "stack.gif").is_file()
    from PIL import Image
    with Image.open(tmp_path / "stack.gif") as im:
        assert im.size == (120, 100)
        assert im.n_frames == 2                   # steps 0 and 4 at 15 fps


def test_no_gif_writes_nothing(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "demo", "stack", "--steps", "5", "--no-gif")
    assert code == 0, err
    assert list(tmp_path.iterdir()) == []
    assert "ms/step" in out


def test_solver_and_params_are_passed_on(capsys, tmp_path):
    code, out, err = _run(capsys, "demo", "stack", "--steps", "3", "--no-gif", "--solver", "pgs",
                          "--iterations", "5", "--param", "count=3")
    assert code == 0, err
    assert "pgs, 5 iterations" in out
    assert re.search(r"scene stack: 4 bodies", out)     # ground + 3 boxes
    code, out, err = _run(capsys, "demo", "stack", "--steps", "3", "--no-gif", "--substeps", "2")
    assert code == 0, err
    assert "soft_step, 2 substeps" in out


def test_png_snapshot(capsys, tmp_path):
    from PIL import Image

    png = tmp_path / "last.png"
    code, out, err = _run(capsys, "demo", "stack", "--steps", "2", "--no-gif", "--png", str(png),
                          "--width", "240")
    assert code == 0, err
    with Image.open(png) as im:
        assert im.size == (240, 200)


def test_unknown_scene_exits_2_naming_known_scenes(capsys):
    code, out, err = _run(capsys, "demo", "no_such_scene")
    assert code == 2
    assert "no_such_scene" in err
    for name in ("pyramid", "stack", "rain"):
        assert name in err


def test_missing_scene_exits_2(capsys):
    code, out, err = _run(capsys, "demo")
    assert code == 2
    assert "pyramid" in err


@pytest.mark.parametrize("argv, words", [
    (["--param", "nope=1"], ["unknown parameter", "nope", "count"]),
    (["--param", "count=abc"], ["count", "integer", "abc"]),
    (["--param", "count"], ["KEY=VALUE"]),
    (["--param", "count=0"], ["count"]),            # rejected by the scene builder
    (["--steps", "0"], ["--steps"]),
    (["--substeps", "0"], ["substeps"]),            # rejected by the world settings
    (["--solver", "magic"], ["magic"]),             # argparse choices
])
def test_bad_arguments_exit_2(capsys, tmp_path, argv, words):
    code, out, err = _run(capsys, "demo", "stack", "--no-gif", *argv)
    assert code == 2
    for w in words:
        assert w in err


def test_no_command_prints_help(capsys):
    code, out, err = _run(capsys)
    assert code == 2
    assert "demo" in out


def test_without_pillow_the_simulation_still_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # make `import PIL` fail and forget the renderer, as on an install without Pillow
    import impulse2d

    monkeypatch.setitem(sys.modules, "PIL", None)
    for mod in list(sys.modules):
        if mod.startswith(("PIL.", "impulse2d.render")):
            monkeypatch.delitem(sys.modules, mod)
    monkeypatch.delattr(impulse2d, "render", raising=False)
    with pytest.raises(ImportError, match="pip install impulse2d\\[render\\]"):
        import impulse2d.render  # noqa: F401
    code, out, err = _run(capsys, "demo", "stack", "--steps", "5")
    assert code == 0
    assert "pip install impulse2d[render]" in err
    assert "mean" in out and "ms/step" in out
    assert not (tmp_path / "stack.gif").exists()


def test_python_dash_m(tmp_path):
    res = subprocess.run([sys.executable, "-m", "impulse2d", "demo", "--list"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "pyramid" in res.stdout
    res = subprocess.run([sys.executable, "-m", "impulse2d", "demo", "nope"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert res.returncode == 2
    assert "known scenes" in res.stderr


def test_contacts_overlay_and_solver_switches(capsys, tmp_path):
    from PIL import Image

    gif = tmp_path / "c.gif"
    code, out, err = _run(capsys, "demo", "stack", "--steps", "6", "--contacts",
                          "--no-warm-starting", "--out", str(gif), "--width", "120")
    assert code == 0, err
    with Image.open(gif) as im:
        im.seek(im.n_frames - 1)
        colours = {c for _, c in im.convert("RGB").getcolors(1 << 16)}
    assert (214, 32, 40) in colours              # contact points drawn in red


def test_ctrl_c_stops_but_still_reports_and_writes(capsys, tmp_path, monkeypatch):
    from PIL import Image

    import impulse2d

    real_step = impulse2d.World.step
    calls = {"n": 0}

    def step(self, dt):
        calls["n"] += 1
        if calls["n"] == 11:
            raise KeyboardInterrupt
        return real_step(self, dt)

    monkeypatch.setattr(impulse2d.World, "step", step)
    gif = tmp_path / "i.gif"
    code, out, err = _run(capsys, "demo", "stack", "--steps", "100", "--out", str(gif))
    assert code == 0
    assert "interrupted after 10 steps" in err
    assert "summary: 10 steps" in out
    with Image.open(gif) as im:
        assert im.n_frames == 1 + 10 // 2
