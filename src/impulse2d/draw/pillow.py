"""The Pillow back end: :func:`image` draws a world into a ``PIL.Image`` (shapes as the pixel
outlines of :mod:`impulse2d.draw.outlines`)."""

from __future__ import annotations

import functools
import io

import numpy as np

from . import colors as C
from .camera import Camera
from .flags import Flags
from .geometry import ContactMemory, DrawList, build, memory_for
from .outlines import shape_outlines
from .pixels import paint

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError:  # pragma: no cover - exercised only without Pillow
    Image = ImageDraw = ImageFont = None

__all__ = ["image", "rasterise"]

def _need_pillow():
    if Image is None:
        raise ImportError("impulse2d.draw.image needs Pillow; install it with "
                          "`pip install impulse2d[render]`")


@functools.lru_cache(maxsize=8)
def font(px: int):
    _need_pillow()
    try:
        return ImageFont.load_default(size=px)   # Pillow >= 10.1 with FreeType
    except (TypeError, OSError, ImportError, AttributeError):
        return ImageFont.load_default()          # the small built-in bitmap font


def _as_tuples(colours: np.ndarray) -> list:
    return [tuple(c) for c in colours.tolist()]


def rasterise(dl: DrawList, draw, ss: int = 1, outline: bool = True, ink=None,
              overlays: bool = True) -> None:
    """Draw ``dl`` with a ``PIL.ImageDraw`` whose canvas is ``ss`` times the list's size.

    ``ink`` maps an RGB tuple to what the image takes (a palette index for "P" images).
    ``overlays`` False: the shapes only (the caller draws lines and points).
    """
    ink = ink or (lambda rgb: rgb)
    kind, flats, spokes = shape_outlines(dl, ss)
    fills = [ink(c) for c in _as_tuples(dl.shape_fill)]
    edges = [ink(c) for c in _as_tuples(dl.shape_edge)] if outline else fills
    lw = max(1, ss)
    polygon, line, point = draw.polygon, draw.line, draw.point
    for i, k in enumerate(kind.tolist()):
        if k == 0:
            if lw == 1:
                polygon(flats[i], fill=fills[i], outline=edges[i])
            else:
                polygon(flats[i], fill=fills[i])
                line(flats[i] + flats[i][:2], fill=edges[i], width=lw, joint="curve")
            if spokes:
                sp = spokes.get(i)
                if sp is not None:
                    line(sp, fill=edges[i], width=lw)
        elif k == 1:
            line(flats[i], fill=edges[i], width=2 * ss)   # segments: a 2 px line
        else:
            point(flats[i], fill=edges[i])
    size = dl.size
    if not overlays:
        return
    if dl.lines.shape[0]:
        seg = (dl.camera.to_screen(dl.lines, size) * ss).reshape(-1, 4).tolist()
        for s, c in zip(seg, _as_tuples(dl.line_color)):
            line(s, fill=ink(c), width=lw)
    if dl.points.shape[0]:
        p = (dl.camera.to_screen(dl.points, size) * ss).tolist()
        half = (dl.point_px * ss).tolist()
        for (x, y), h, c in zip(p, half, _as_tuples(dl.point_color)):
            draw.rectangle((x - h, y - h, x + h, y + h), fill=ink(c))
    for x, y, text, c in dl.texts:
        sx, sy = dl.camera.to_screen((x, y), size) * ss
        draw.text((sx, sy), text, fill=ink(tuple(c)), font=font(12 * ss))


def image(world, size=(640, 480), camera: Camera | None = None, flags: Flags | None = None, *,
          supersample: int = 1, background=C.BACKGROUND, memory: ContactMemory | None = None):
    """The debug picture of ``world`` as an RGB ``PIL.Image`` of ``size`` (width, height).

    ``camera`` None: :meth:`Camera.fit` to the world. ``supersample`` draws at that many times
    the size and downsamples (anti-aliased stills). ``memory`` (a :class:`ContactMemory` kept
    between frames) tells new contact points from persisting ones; None: the world's own
    (:func:`impulse2d.draw.geometry.memory_for`), so pictures of successive steps tell them too.
    """
    _need_pillow()
    from .camera import _size

    size = _size(size)
    if camera is None:
        camera = Camera.fit(world, size)
    ss = int(supersample)
    if ss < 1:
        raise ValueError(f"supersample must be a positive whole number, got {supersample!r}")
    dl = build(world, camera, size, flags, memory if memory is not None else memory_for(world))
    img = Image.new("RGB", (size[0] * ss, size[1] * ss), tuple(background))
    if ss > 1:
        rasterise(dl, ImageDraw.Draw(img), ss)
        return img.resize(size, Image.Resampling.BOX)
    rasterise(dl, ImageDraw.Draw(img), 1, overlays=False)
    if dl.lines.shape[0] == 0 and dl.points.shape[0] == 0 and not dl.texts:
        return img
    # Overlays in bulk on the pixel array (pixels.py), as PygameDraw does.
    arr = np.array(img)
    paint(arr.transpose(1, 0, 2), camera.to_screen(dl.lines, size).reshape(-1, 4), dl.line_color,
          camera.to_screen(dl.points, size), dl.point_px, dl.point_color)
    return Image.fromarray(arr, "RGB")


def png_bytes(world, size=(640, 480)) -> bytes | None:
    """``world``'s picture (default flags, fitted camera) as PNG bytes; None without Pillow
    (a notebook then shows the world's text repr)."""
    if Image is None:
        return None
    buf = io.BytesIO()
    image(world, size).save(buf, format="PNG")
    return buf.getvalue()
