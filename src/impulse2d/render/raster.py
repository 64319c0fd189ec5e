"""Headless Pillow rendering of a :class:`impulse2d.World` with a fixed view and palette.

A thin layer over :mod:`impulse2d.draw`: :func:`render_frame` builds the draw list of
:func:`impulse2d.draw.geometry.build` in the classic colours (static grey, kinematic blue,
dynamic bodies in colours hashed from their row; ropes for joints; red contact points and orange
normals) and rasterises it with :func:`impulse2d.draw.pillow.rasterise`. Frames are drawn on a
palette (``"P"``) image with a fixed palette, which keeps animated GIFs small and fast to write;
:func:`render_frame` converts to RGB unless asked for ``mode="P"``, and can supersample for
anti-aliased stills.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

from ..draw import colors as _C
from ..draw.camera import Camera
from ..draw.flags import Flags
from ..draw.geometry import build, world_bounds
from ..draw.pillow import font as _font
from ..draw.pillow import rasterise

__all__ = [
    "render_frame",
    "fit_view",
    "world_to_pixels",
    "view_camera",
    "GifRecorder",
    "PALETTE",
    "BACKGROUND",
    "STATIC_FILL",
    "KINEMATIC_FILL",
    "dynamic_fill",
]

# --------------------------------------------------------------------------------------------
# Palette
# --------------------------------------------------------------------------------------------

BACKGROUND = _C.BACKGROUND
STATIC_FILL = _C.STATIC_FILL
KINEMATIC_FILL = _C.KINEMATIC_FILL
TEXT = _C.TEXT
N_DYNAMIC_COLOURS = _C.N_DYNAMIC_COLOURS
dynamic_fill = _C.dynamic_fill

_I_BACKGROUND, _I_TEXT = 0, 7
PALETTE: list[tuple[int, int, int]] = [
    _C.BACKGROUND, _C.STATIC_FILL, _C.STATIC_OUTLINE, _C.KINEMATIC_FILL, _C.KINEMATIC_OUTLINE,
    _C.CONTACT_POINT, _C.CONTACT_NORMAL, _C.TEXT,
]
for _fill, _edge in _C.DYNAMIC_COLOURS:
    PALETTE.extend([_fill, _edge])
"""Palette of every frame: index -> RGB."""

_PALETTE_BYTES = bytes(c for rgb in PALETTE for c in rgb) + bytes(3 * (256 - len(PALETTE)))
_INDEX = {rgb: i for i, rgb in reversed(list(enumerate(PALETTE)))}


def fit_view(world, margin: float = 0.05,
             default: tuple[float, float, float, float] = (-10.0, -1.0, 10.0, 14.0)
             ) -> tuple[float, float, float, float]:
    """A view box (x0, y0, x1, y1) enclosing every live shape, with ``margin`` of padding."""
    box = world_bounds(world)
    if box is None:
        return default
    x0, y0, x1, y1 = box
    w = max(x1 - x0, 1e-3)
    h = max(y1 - y0, 1e-3)
    return (x0 - margin * w, y0 - margin * h, x1 + margin * w, y1 + margin * h)


def _resolve_size(view, size) -> tuple[int, int]:
    x0, y0, x1, y1 = view
    if size is None:
        size = 480
    if isinstance(size, (int, np.integer)):
        w = int(size)
        h = int(round(w * (y1 - y0) / (x1 - x0)))
        return max(w, 1), max(h, 1)
    w, h = size
    return max(int(w), 1), max(int(h), 1)


def view_camera(view, size) -> Camera:
    """The camera showing the world box ``view`` (x0, y0, x1, y1) on a canvas of ``size`` (w, h):
    scaled uniformly (circles stay round) and centred.

    Pixel ``(i, j)`` covers ``[i, i + 1) x [j, j + 1)``, so the view's corners are the outer
    corners of the image (Pillow truncates coordinates, which maps a point to its pixel).
    """
    x0, y0, x1, y1 = (float(v) for v in view)
    if not (x1 > x0 and y1 > y0):
        raise ValueError(f"view must be (x0, y0, x1, y1) with x1 > x0 and y1 > y0, got {view!r}")
    w, h = size
    return Camera(center=(0.5 * (x0 + x1), 0.5 * (y0 + y1)), scale=min(w / (x1 - x0), h / (y1 - y0)))


def world_to_pixels(points, view, size) -> np.ndarray:
    """Pixel coordinates (column, row; pixel ``(i, j)`` covers ``[i, i+1) x [j, j+1)``) of
    world ``points`` (..., 2)
    in an image of ``size`` (w, h or width) showing ``view``; the mapping used by
    :func:`render_frame`."""
    size = _resolve_size(view, size)
    return view_camera(view, size).to_screen(points, size)


# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------


def render_frame(world, view: Sequence[float] | None = None, size: int | tuple[int, int] | None = 480,
                 *, contacts: bool = False, joints: bool = True, text: str | None = None,
                 supersample: int = 1,
                 outline: bool = True, mode: str = "RGB") -> Image.Image:
    """Draw ``world`` and return a Pillow image.

    Parameters
    ----------
    view:
        ``(x0, y0, x1, y1)`` world box to show, metres; default: fit every live shape.
    size:
        image width in pixels (height follows the view's aspect ratio) or ``(width, height)``
        (the view is then scaled uniformly and centred).
    contacts:
        overlay the world's contact points (red) and normals (orange, from shape A to shape B).
    joints:
        draw the joints that are lines in the world: ropes of pulleys, distance joints (anchor to
        anchor) and mouse joints (grab point to target). Hinges and welds are seen in the bodies.
        (:func:`impulse2d.draw.image` draws every joint with its anchors and limits.)
    text:
        a caption drawn in the top-left corner (scene name, time...).
    supersample:
        draw at this many times the size and downsample, for anti-aliased stills (RGB only).
    outline:
        draw a darker outline around filled shapes.
    mode:
        ``"RGB"`` (default) or ``"P"`` (palette image with :data:`PALETTE`, as used for GIFs).
    """
    if mode not in ("RGB", "P"):
        raise ValueError(f"mode must be 'RGB' or 'P', got {mode!r}")
    if view is None:
        view = fit_view(world)
    view = tuple(float(v) for v in view)
    out_size = _resolve_size(view, size)
    camera = view_camera(view, out_size)
    ss = max(1, int(supersample))
    if mode == "P":
        ss = 1
    draw_size = (out_size[0] * ss, out_size[1] * ss)

    img = Image.new("P", draw_size, _I_BACKGROUND)
    img.putpalette(_PALETTE_BYTES)
    flags = Flags(shapes=True, joints=joints, contacts=contacts, normals=contacts, sleep=False)
    dl = build(world, camera, out_size, flags, classic=True)
    rasterise(dl, ImageDraw.Draw(img), ss, outline=outline, ink=_INDEX.__getitem__)

    if ss > 1:
        img = img.convert("RGB").resize(out_size, Image.Resampling.BOX
                                         if hasattr(Image, "Resampling") else Image.BOX)
    elif mode == "RGB":
        img = img.convert("RGB")
    if text:
        ImageDraw.Draw(img).text((4, 3), text, fill=_I_TEXT if img.mode == "P" else TEXT,
                                 font=_font(max(10, min(18, out_size[0] // 36))))
    return img


# --------------------------------------------------------------------------------------------
# Animated GIF
# --------------------------------------------------------------------------------------------


class GifRecorder:
    """Collects frames of a running simulation and writes an animated GIF.

    One frame is kept every ``every`` steps, where ``every`` is chosen so that playback runs at
    about ``fps`` frames per second of simulated time (``dt`` is the step). With ``total_steps``
    known, ``every`` is raised so that no more than ``max_frames`` frames are kept (memory and file
    size stay bounded; the GIF still plays in real time). Frames are palette images, about
    width x height bytes each.

    Typical use::

        rec = GifRecorder(view=scene.view, width=480, fps=30, dt=1/60, total_steps=n)
        rec.capture(world, step=0)
        for i in range(1, n + 1):
            world.step(1/60)
            rec.maybe_capture(world, i)
        rec.save("scene.gif")
    """

    def __init__(self, view: Sequence[float] | None = None, width: int = 480,
                 size: tuple[int, int] | None = None, *, fps: float = 30.0, dt: float = 1.0 / 60.0,
                 total_steps: int | None = None, max_frames: int = 600, contacts: bool = False,
                 caption: str | None = None):
        if fps <= 0 or dt <= 0:
            raise ValueError("fps and dt must be positive")
        self.view = None if view is None else tuple(float(v) for v in view)
        self.size = size if size is not None else int(width)
        self.dt = float(dt)
        every = max(1, int(round(1.0 / (fps * dt))))
        if total_steps is not None and max_frames > 0:
            every = max(every, math.ceil(total_steps / max_frames))
        self.every = every
        self.contacts = contacts
        self.caption = caption
        self.frames: list[Image.Image] = []

    @property
    def frame_interval(self) -> float:
        """Simulated seconds between kept frames (= playback seconds per frame)."""
        return self.every * self.dt

    def capture(self, world, step: int | None = None, text: str | None = None) -> Image.Image:
        """Render ``world`` now and keep the frame."""
        if text is None and self.caption is not None:
            text = self.caption if step is None else f"{self.caption}  t = {step * self.dt:.2f} s"
        if self.view is None:                # fix the view on the first frame
            self.view = fit_view(world)
        frame = render_frame(world, self.view, self.size, contacts=self.contacts, text=text, mode="P")
        self.frames.append(frame)
        return frame

    def maybe_capture(self, world, step: int) -> bool:
        """Capture when ``step`` falls on the frame grid (``step % every == 0``)."""
        if step % self.every:
            return False
        self.capture(world, step)
        return True

    def durations_ms(self) -> list[int]:
        """Per-frame display times: multiples of 10 ms (GIF's unit) whose running sum tracks
        ``frame_interval`` exactly (e.g. 30, 40, 30 ms for 30 fps)."""
        n = len(self.frames)
        cs = np.round(np.arange(n + 1) * self.frame_interval * 100.0).astype(np.int64)
        return [int(max(2, d)) * 10 for d in np.diff(cs)]

    def save(self, path) -> str:
        """Write the animation (looping forever) and return its path: an animated GIF, or by
        the path's suffix an .mp4 (PyAV, ``pip install impulse2d[video]``) or .webp, through
        :class:`impulse2d.render.VideoWriter`."""
        if not self.frames:
            raise ValueError("no frames captured")
        path = str(path)
        if path.lower().endswith((".mp4", ".webp")):
            from .video import VideoWriter

            with VideoWriter(path, fps=1.0 / self.frame_interval, size=self.frames[0].size) as out:
                for frame in self.frames:
                    out.write(np.asarray(frame.convert("RGB")))
            return path
        first, rest = self.frames[0], self.frames[1:]
        durations = self.durations_ms()
        first.save(path, format="GIF", save_all=True, append_images=rest,
                   duration=durations if len(durations) > 1 else durations[0], loop=0,
                   optimize=False, disposal=1)
        return path
