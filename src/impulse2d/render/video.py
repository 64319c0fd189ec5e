"""Video of a simulation: ``.mp4`` (H.264 through PyAV), ``.gif`` and ``.webp`` (Pillow).

* :class:`VideoWriter` writes frames a program draws itself ((h, w, 3) uint8 RGB arrays);
* :func:`video` steps a world and records what :func:`impulse2d.draw.image` draws;
* :func:`clip` records a short run for a notebook: an inline player (``_repr_html_``).

**Why PyAV** (the ``video`` extra, ``pip install impulse2d[video]``), measured against
imageio-ffmpeg (numbers in BENCHMARKS.md, "Seeing it"): both ship FFmpeg with libx264 in their
wheels and both encode a 640 x 480 frame in a few milliseconds, but PyAV links FFmpeg's
libraries into the process, so it can encode into memory (:func:`clip` needs no temporary
file), reports errors as Python exceptions instead of a child process's stderr, decodes with the
same library (the tests read every frame back), and installs smaller (about 105 MB against
165 MB for imageio-ffmpeg's static ffmpeg executable on Linux x86-64); imageio-ffmpeg's own
README now points new users to PyAV. Its binary wheels bundle GPL x264, which is why it stays an
optional extra of this MIT library. GIF and WebP need only Pillow.

H.264 in 4:2:0 needs even sides: an odd width or height is padded by one copied edge pixel.
"""

from __future__ import annotations

import base64
import io
import os

import numpy as np

__all__ = ["VideoWriter", "video", "clip", "Clip", "FORMATS"]

FORMATS = (".mp4", ".gif", ".webp")


def _av():
    try:
        import av
    except ImportError as exc:
        raise ImportError("writing .mp4 needs PyAV; install it with "
                          "`pip install impulse2d[video]` (or write .gif / .webp)") from exc
    return av


def _pil():
    try:
        from PIL import Image
    except ImportError as exc:
        raise ImportError("writing .gif / .webp needs Pillow; install it with "
                          "`pip install impulse2d[render]`") from exc
    return Image


def _format(path, fmt) -> str:
    if fmt is None:
        if not isinstance(path, (str, os.PathLike)):
            raise ValueError("format must be given ('mp4', 'gif' or 'webp') when path is a file object")
        fmt = os.path.splitext(os.fspath(path))[1].lower()
    fmt = "." + str(fmt).lower().lstrip(".")
    if fmt not in FORMATS:
        raise ValueError(f"path must end in .mp4, .gif or .webp (the format), got {path!r}")
    return fmt


def _check_size(size) -> tuple[int, int]:
    try:
        w, h = size
    except (TypeError, ValueError):
        raise TypeError(f"size must be (width, height) in pixels, got {size!r}") from None
    if not (isinstance(w, (int, np.integer)) and isinstance(h, (int, np.integer))) or w < 2 or h < 2:
        raise ValueError(f"size must be two whole numbers of pixels >= 2, got {size!r}")
    return int(w), int(h)


def _check_fps(fps) -> float:
    try:
        fps = float(fps)
    except (TypeError, ValueError):
        raise TypeError(f"fps must be a number, got {fps!r}") from None
    if not (np.isfinite(fps) and 0 < fps <= 1000):
        raise ValueError(f"fps must be in (0, 1000], got {fps!r}")
    return fps


class VideoWriter:
    """Writes (h, w, 3) uint8 RGB frames to ``path`` (.mp4, .gif or .webp, by its suffix; or a
    binary file object with ``format=``). A context manager::

        with render.VideoWriter("run.mp4", fps=60, size=(640, 480)) as out:
            for frame in frames:
                out.write(frame)

    MP4 frames are encoded as they come; GIF and WebP frames are kept (as palette or RGB images)
    and written on :meth:`close` (Pillow merges a frame identical to the one before into it,
    adding up their durations).
    """

    def __init__(self, path, fps: float = 60, size=(640, 480), *, format: str | None = None,
                 crf: int = 20) -> None:
        self.format = _format(path, format)
        self.size = _check_size(size)
        self.fps = _check_fps(fps)
        self.path = path
        self.frames = 0
        self._closed = False
        self._images: list = []
        if self.format == ".mp4":
            av = _av()
            w, h = self.size
            self._pad = (w % 2, h % 2)
            if isinstance(path, (str, os.PathLike)):
                # moov atom first, for playback that starts before the download ends (a second
                # pass over the file: only for files FFmpeg can reopen by name).
                self._container = av.open(os.fspath(path), mode="w", format="mp4",
                                          options={"movflags": "+faststart"})
            else:
                self._container = av.open(path, mode="w", format="mp4")
            from fractions import Fraction

            rate = Fraction(self.fps).limit_denominator(1001)
            stream = self._container.add_stream("libx264", rate=rate)
            stream.width = w + self._pad[0]
            stream.height = h + self._pad[1]
            stream.pix_fmt = "yuv420p"
            stream.options = {"crf": str(int(crf)), "preset": "veryfast"}
            self._stream = stream
            self._av = av
        else:
            self._Image = _pil()

    def __enter__(self) -> "VideoWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None and self.format != ".mp4" and not self._images:
            self._closed = True          # nothing to write; let the error through
            return
        self.close()

    def write(self, frame) -> None:
        """Add one frame: an (h, w, 3) uint8 RGB array (or a ``PIL.Image`` of the size)."""
        if self._closed:
            raise ValueError("the VideoWriter is closed")
        if hasattr(frame, "convert") and hasattr(frame, "size") and not isinstance(frame, np.ndarray):
            frame = np.asarray(frame.convert("RGB"))
        frame = np.asarray(frame)
        w, h = self.size
        if frame.shape != (h, w, 3) or frame.dtype != np.uint8:
            raise ValueError(f"frame must be a ({h}, {w}, 3) uint8 RGB array (size={self.size}), "
                             f"got {frame.shape} {frame.dtype}")
        if self.format == ".mp4":
            if self._pad != (0, 0):
                frame = np.pad(frame, ((0, self._pad[1]), (0, self._pad[0]), (0, 0)), mode="edge")
            vf = self._av.VideoFrame.from_ndarray(np.ascontiguousarray(frame), format="rgb24")
            for packet in self._stream.encode(vf):
                self._container.mux(packet)
        else:
            img = self._Image.fromarray(frame, "RGB")
            if self.format == ".gif":
                # One adaptive palette per frame (GIF holds 256 colours a frame).
                img = img.quantize(colors=255, method=self._Image.Quantize.MEDIANCUT)
            self._images.append(img)
        self.frames += 1

    def close(self) -> None:
        """Finish the file (called by the context manager)."""
        if self._closed:
            return
        self._closed = True
        if self.format == ".mp4":
            for packet in self._stream.encode():
                self._container.mux(packet)
            self._container.close()
            return
        if not self._images:
            raise ValueError("no frames written")
        first, rest = self._images[0], self._images[1:]
        ms = 1000.0 / self.fps
        if self.format == ".gif":
            # GIF counts in 10 ms: durations whose running sum tracks the frame times exactly.
            cs = np.round(np.arange(len(self._images) + 1) * ms / 10.0).astype(np.int64)
            durations = [int(max(2, d)) * 10 for d in np.diff(cs)]
            first.save(self.path, format="GIF", save_all=True, append_images=rest,
                       duration=durations if len(durations) > 1 else durations[0], loop=0,
                       disposal=1)
        else:
            first.save(self.path, format="WEBP", save_all=True, append_images=rest,
                       duration=int(round(ms)), loop=0, lossless=True, quality=80, method=4)
        self._images = []


def _progress(total: int, enabled):
    """A tqdm bar for long recordings, or None (tqdm missing, or not asked for)."""
    if enabled is False or (enabled is None and total < 300):
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="step", desc="recording", leave=False)


def _record(world, steps, writer: VideoWriter, dt, every, camera, flags, progress) -> int:
    from ..draw import Camera, ContactMemory, image

    if camera is None:
        camera = Camera.fit(world, writer.size)
    memory = ContactMemory()
    bar = _progress(steps, progress)
    try:
        for i in range(1, steps + 1):
            world.step(dt)
            if i % every == 0:
                writer.write(np.asarray(image(world, writer.size, camera, flags, memory=memory)))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return writer.frames


def _check_steps(steps, dt):
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
        raise ValueError(f"steps must be a positive whole number, got {steps!r}")
    try:
        dt = float(dt)
    except (TypeError, ValueError):
        raise TypeError(f"dt must be a number, got {dt!r}") from None
    if not (np.isfinite(dt) and dt > 0):
        raise ValueError(f"dt must be positive and finite, got {dt!r}")
    return int(steps), dt


def video(world, steps: int, path, dt: float = 1.0 / 60.0, fps: float = 60, size=(640, 480),
          camera=None, flags=None, *, progress=None):
    """Step ``world`` ``steps`` times by ``dt`` and write what it looks like to ``path`` (.mp4,
    .gif or .webp); returns ``path``.

    A frame is drawn (:func:`impulse2d.draw.image`) every ``round(1 / (fps dt))`` steps (at
    least every step), after the step, so the video plays in real time: 120 steps at 1/60 s
    and 60 fps give 120 frames. ``camera`` None: fitted to the world before the first step and
    then held still. ``progress``: a tqdm bar (None: for 300 steps or more, when tqdm is
    installed).
    """
    steps, dt = _check_steps(steps, dt)
    fps = _check_fps(fps)
    every = max(1, int(round(1.0 / (fps * dt))))
    with VideoWriter(path, fps=fps, size=size) as writer:
        _record(world, steps, writer, dt, every, camera, flags, progress)
    return path


class Clip:
    """A recorded run for a notebook: ``data`` (the encoded bytes), ``mime`` ("video/mp4" or
    "image/webp"), ``frames``, ``size``; shows itself as an inline player (``_repr_html_``)."""

    def __init__(self, data: bytes, mime: str, frames: int, size, fps: float) -> None:
        self.data = data
        self.mime = mime
        self.frames = frames
        self.size = tuple(size)
        self.fps = fps

    def __repr__(self) -> str:
        return (f"<Clip {self.frames} frames {self.size[0]}x{self.size[1]} at {self.fps:g} fps, "
                f"{self.mime}, {len(self.data) / 1024:.0f} KiB>")

    def save(self, path) -> str:
        """Write the encoded media to ``path`` (its suffix should match :attr:`mime`)."""
        with open(path, "wb") as fh:
            fh.write(self.data)
        return os.fspath(path)

    def _repr_html_(self) -> str:
        b64 = base64.b64encode(self.data).decode("ascii")
        w, h = self.size
        if self.mime == "video/mp4":
            return (f'<video width="{w}" height="{h}" controls loop autoplay muted playsinline>'
                    f'<source src="data:video/mp4;base64,{b64}" type="video/mp4"></video>')
        return f'<img width="{w}" height="{h}" src="data:{self.mime};base64,{b64}"/>'


def clip(world, steps: int, dt: float = 1.0 / 60.0, *, fps: float = 30, size=(480, 360),
         camera=None, flags=None, format: str | None = None) -> Clip:
    """Step ``world`` ``steps`` times and keep the run as a :class:`Clip`, an inline player in
    a notebook: an H.264 MP4 ``<video>`` with controls when PyAV is installed (small: tens of
    KiB for seconds of a scene), otherwise an animated WebP (Pillow only). ``format``: "mp4" or
    "webp" to choose."""
    steps, dt = _check_steps(steps, dt)
    fps = _check_fps(fps)
    if format is None:
        try:
            _av()
            format = "mp4"
        except ImportError:
            format = "webp"
    fmt = _format(None, format)
    if fmt == ".gif":
        raise ValueError("clip format must be 'mp4' or 'webp'")
    every = max(1, int(round(1.0 / (fps * dt))))
    buf = io.BytesIO()
    writer = VideoWriter(buf, fps=1.0 / (every * dt), size=size, format=fmt)
    with writer:
        _record(world, steps, writer, dt, every, camera, flags, False)
    mime = "video/mp4" if fmt == ".mp4" else "image/webp"
    return Clip(buf.getvalue(), mime, writer.frames, writer.size, writer.fps)
