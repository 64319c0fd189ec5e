"""impulse2d.render.video / VideoWriter / clip and ``impulse2d demo --out x.mp4``: files that
decode back to the frames and sizes asked for."""

from __future__ import annotations

import base64
import io
import re

import numpy as np
import pytest

PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

import impulse2d  # noqa: E402
from impulse2d import draw, render  # noqa: E402


def _moving_world():
    """A box sliding at 6 m/s without gravity: every frame at 60 fps differs by ~3 px."""
    world = impulse2d.World(gravity=(0.0, 0.0))
    ground = world.create_body(type="static", position=(0.0, -1.0))
    ground.create_box(8.0, 0.3)
    box = world.create_body(position=(-6.0, 1.0), linear_velocity=(6.0, 0.0), angular_velocity=2.0)
    box.create_box(0.8, 0.8)
    return world, box


def _decode_mp4(path_or_file):
    av = pytest.importorskip("av")
    with av.open(path_or_file) as container:
        return [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]


def test_mp4_of_120_frames_decodes_to_120_frames_of_the_size(tmp_path):
    world, box = _moving_world()
    path = tmp_path / "run.mp4"
    cam = draw.Camera(center=(0.0, 0.0), scale=30.0)
    out = render.video(world, 120, path, dt=1 / 60, fps=60, size=(320, 240), camera=cam)
    assert out == path
    frames = _decode_mp4(str(path))
    assert len(frames) == 120
    assert all(f.shape == (240, 320, 3) for f in frames)
    assert world.step_count == 120
    # the last frame shows the box where it is now (lossy: compare with a tolerance)
    last = np.asarray(draw.image(world, (320, 240), cam), dtype=np.int64)
    assert np.abs(frames[-1].astype(np.int64) - last).mean() < 6.0


def test_mp4_fps_sets_the_frame_interval(tmp_path):
    world, _ = _moving_world()
    path = tmp_path / "half.mp4"
    render.video(world, 60, path, dt=1 / 60, fps=30, size=(160, 120))
    frames = _decode_mp4(str(path))
    assert len(frames) == 30                       # a frame every second step
    av = pytest.importorskip("av")
    with av.open(str(path)) as c:
        assert float(c.streams.video[0].average_rate) == pytest.approx(30.0)


def test_odd_sizes_are_padded_for_h264(tmp_path):
    world, _ = _moving_world()
    path = tmp_path / "odd.mp4"
    render.video(world, 10, path, size=(161, 121))
    frames = _decode_mp4(str(path))
    assert len(frames) == 10 and frames[0].shape == (122, 162, 3)


@pytest.mark.parametrize("suffix", [".gif", ".webp"])
def test_gif_and_webp_frame_counts(tmp_path, suffix):
    world, _ = _moving_world()
    path = tmp_path / f"run{suffix}"
    render.video(world, 40, path, fps=30, size=(200, 150), camera=draw.Camera(scale=15.0))
    with Image.open(path) as im:
        assert im.size == (200, 150)
        assert im.n_frames == 20
        durations = []
        for k in range(im.n_frames):
            im.seek(k)
            im.load()                               # WebP sets a frame's duration on load
            durations.append(im.info["duration"])
    assert sum(durations) == pytest.approx(20 * 1000 / 30, abs=10)


def test_video_writer_frames_you_draw(tmp_path):
    path = tmp_path / "own.mp4"
    with render.VideoWriter(path, fps=24, size=(64, 48)) as out:
        for k in range(24):
            frame = np.zeros((48, 64, 3), np.uint8)
            frame[:, : 2 * k + 2] = (250, 30, 30)
            out.write(frame)
    frames = _decode_mp4(str(path))
    assert len(frames) == 24
    # the red band grows two columns a frame
    red = [(f[:, :, 0] > 128).mean(axis=0) > 0.5 for f in frames]
    assert [int(r.sum()) for r in red] == pytest.approx([2 * k + 2 for k in range(24)], abs=2)


def test_video_writer_rejects_bad_input(tmp_path):
    with pytest.raises(ValueError, match=r"\.mp4, \.gif or \.webp"):
        render.VideoWriter(tmp_path / "x.avi", size=(64, 48))
    with pytest.raises(ValueError, match="size"):
        render.VideoWriter(tmp_path / "x.gif", size=(0, 48))
    with pytest.raises(ValueError, match="fps"):
        render.VideoWriter(tmp_path / "x.gif", fps=0, size=(64, 48))
    with render.VideoWriter(tmp_path / "x.gif", size=(64, 48)) as out:
        with pytest.raises(ValueError, match=r"\(48, 64, 3\) uint8"):
            out.write(np.zeros((64, 48, 3), np.uint8))
        out.write(np.zeros((48, 64, 3), np.uint8))
    world, _ = _moving_world()
    with pytest.raises(ValueError, match="steps"):
        render.video(world, 0, tmp_path / "y.gif")
    assert world.step_count == 0


def test_clip_embeds_the_encoded_media():
    world, _ = _moving_world()
    clip = render.clip(world, 60, size=(160, 120))
    html = clip._repr_html_()
    assert clip.frames == 30 and clip.size == (160, 120)
    assert base64.b64encode(clip.data).decode() in html
    assert "controls" in html and clip.mime == "video/mp4"
    assert len(_decode_mp4(io.BytesIO(clip.data))) == 30
    assert len(clip.data) < 200_000                    # light enough to keep in a notebook
    webp = render.clip(world, 20, size=(160, 120), format="webp")
    assert webp.mime == "image/webp"
    assert base64.b64encode(webp.data).decode() in webp._repr_html_()
    with Image.open(io.BytesIO(webp.data)) as im:
        assert im.n_frames == 10


def test_demo_out_mp4(capsys, tmp_path):
    pytest.importorskip("av")
    from impulse2d import cli

    path = tmp_path / "stack.mp4"
    code = cli.main(["demo", "stack", "--steps", "30", "--fps", "30", "--width", "120", "--out",
                     str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert re.search(r"wrote .*stack\.mp4 \(16 frames", out)
    frames = _decode_mp4(str(path))
    assert len(frames) == 16                        # the first state and one every 2 steps
    assert frames[0].shape[1] == 120


def test_demo_out_rejects_unknown_suffix(capsys, tmp_path):
    from impulse2d import cli

    code = cli.main(["demo", "stack", "--steps", "3", "--out", str(tmp_path / "x.avi")])
    out, err = capsys.readouterr()
    assert code != 0 and ".gif, .mp4 or .webp" in err
