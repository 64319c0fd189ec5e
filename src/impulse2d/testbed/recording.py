"""Recording: a video of the scene view and a replay file that re-renders it headless.

The testbed logs every input since a scene was opened (``Testbed`` applies each through one
method, which appends it to the log of the frame it happens in). A recording writes the frames
it covers to a video (:class:`impulse2d.render.VideoWriter`) and, beside it, a replay file:

    {"version": 1, "start": {scene, params, size, dt, settings, flags, camera, ...},
     "inputs": {"frame": [action, ...], ...}, "first": F, "frames": N}

:func:`replay` opens the scene as it was, applies the inputs frame by frame up to ``first``
without drawing, then draws and writes ``frames`` frames: the same pictures, since the world,
the inputs and the drawing are all deterministic. The video holds the scene view (the panes
and their overlays), not the panels, whose timings differ run to run.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["REPLAY_VERSION", "replay_path_for", "Recorder", "write_replay", "read_replay",
           "replay"]

REPLAY_VERSION = 1


def replay_path_for(video_path) -> Path:
    """``x.mp4`` -> ``x.replay.json`` (beside the video)."""
    path = Path(video_path)
    return path.with_name(path.stem + ".replay.json")


class Recorder:
    """Frames to a video file, through :class:`impulse2d.render.VideoWriter`."""

    def __init__(self, path, fps: float, size: tuple[int, int], first: int):
        from ..render import VideoWriter

        self.path = Path(path)
        self.first = first
        self.frames = 0
        self._writer = VideoWriter(str(self.path), fps=fps, size=size)
        self._writer.__enter__()

    def write(self, frame) -> None:
        self._writer.write(frame)
        self.frames += 1

    def close(self) -> None:
        self._writer.__exit__(None, None, None)


def write_replay(path, start: dict, inputs: dict, first: int, frames: int) -> Path:
    path = Path(path)
    kept = {str(k): v for k, v in sorted(inputs.items()) if k < first + frames and v}
    path.write_text(json.dumps({"version": REPLAY_VERSION, "start": start, "inputs": kept,
                                "first": first, "frames": frames}, indent=1),
                    encoding="utf-8")
    return path


def read_replay(path) -> dict:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"replay_path {str(path)!r} is not a replay file: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != REPLAY_VERSION:
        raise ValueError(f"replay_path {str(path)!r} is not a version {REPLAY_VERSION} "
                         "testbed replay file")
    data["inputs"] = {int(k): v for k, v in data["inputs"].items()}
    return data


def replay(replay_path, out_path, fps: float = 60.0):
    """Re-render the recording ``replay_path`` headless into ``out_path`` (.mp4, .gif or .webp,
    by its suffix); returns ``out_path``."""
    from .app import Testbed

    data = read_replay(replay_path)
    start = data["start"]
    tb = Testbed.from_start(start, window=False)
    try:
        tb._replay(data["inputs"], data["first"], data["frames"], out_path, fps)
    finally:
        tb.close()
    return out_path
