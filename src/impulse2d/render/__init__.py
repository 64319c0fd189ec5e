"""Headless rendering of a :class:`impulse2d.World` with Pillow (``pip install impulse2d[render]``).

* :func:`render_frame` draws the world into a ``PIL.Image`` (static bodies grey, kinematic blue,
  dynamic bodies in colours hashed from their index; optional contact overlay).
* :class:`GifRecorder` keeps every n-th frame of a running simulation and writes an animated GIF
  (or an MP4 / WebP, by the path's suffix).
* :func:`video` steps a world and writes what :func:`impulse2d.draw.image` draws to .mp4 (PyAV,
  ``pip install impulse2d[video]``), .gif or .webp; :class:`VideoWriter` writes frames you draw
  yourself; :func:`clip` is an inline player for notebooks.

Example::

    from impulse2d.render import render_frame
    render_frame(world, view=(-10, -1, 10, 14), size=600, contacts=True).save("frame.png")
"""

from __future__ import annotations

try:
    import PIL  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without Pillow
    raise ImportError(
        "impulse2d.render needs Pillow; install it with `pip install impulse2d[render]`"
    ) from exc

from .video import Clip, VideoWriter, clip, video  # noqa: E402
from .raster import (  # noqa: E402
    BACKGROUND,
    KINEMATIC_FILL,
    PALETTE,
    STATIC_FILL,
    GifRecorder,
    dynamic_fill,
    fit_view,
    render_frame,
    world_to_pixels,
)

__all__ = [
    "video",
    "clip",
    "Clip",
    "VideoWriter",
    "render_frame",
    "GifRecorder",
    "fit_view",
    "world_to_pixels",
    "dynamic_fill",
    "PALETTE",
    "BACKGROUND",
    "STATIC_FILL",
    "KINEMATIC_FILL",
]
