"""The pygame-ce back end: :class:`PygameDraw` draws a world onto a ``pygame.Surface``.

A game draws its world with three lines::

    from impulse2d import draw
    debug = draw.PygameDraw(screen, camera=draw.Camera(center=(0, 5), scale=30))
    debug.draw(world)          # every frame, after the game clears the screen

The geometry comes from :func:`impulse2d.draw.geometry.build` in bulk NumPy; what runs per item
in Python is only the pygame call itself (a filled polygon and its outline per shape). The
overlays (joints, boxes, contacts, arrows: about 45 segments a body with every layer on) are
painted into the surface's pixels by one compiled loop (:func:`impulse2d.draw.pixels.paint`).
Needs pygame-ce (``pip install impulse2d[testbed]``); never the old ``pygame`` package, which
installs the same ``pygame`` module.
"""

from __future__ import annotations

import math

import numpy as np

from .camera import Camera
from .flags import Flags
from .geometry import ContactMemory, build
from .outlines import shape_outlines
from .pixels import paint

__all__ = ["PygameDraw"]


def _pygame():
    try:
        import pygame
    except ImportError as exc:
        raise ImportError("impulse2d.draw.PygameDraw needs pygame-ce; install it with "
                          "`pip install impulse2d[testbed]`") from exc
    return pygame


def _colour(color) -> tuple[int, int, int]:
    try:
        rgb = tuple(int(c) for c in color)
    except (TypeError, ValueError):
        raise TypeError(f"color must be an (r, g, b) triple of 0..255, got {color!r}") from None
    if len(rgb) not in (3, 4) or not all(0 <= c <= 255 for c in rgb):
        raise ValueError(f"color must be an (r, g, b) triple of 0..255, got {color!r}")
    return rgb[:3]


def _map_rgb(surf, rgb: np.ndarray) -> np.ndarray:
    """RGB rows (k, 3) uint8 as the surface's pixel values (what ``Surface.map_rgb`` gives),
    from its channel masks, shifts and losses, opaque."""
    masks = surf.get_masks()
    shifts = surf.get_shifts()
    losses = surf.get_losses()
    c = rgb.astype(np.int64)
    out = np.zeros(c.shape[0], np.int64)
    for k in range(3):
        out |= ((c[:, k] >> losses[k]) << shifts[k]) & masks[k]
    out |= masks[3]                                   # alpha, where the format has one
    return out.astype(np.uint32)


class PygameDraw:
    """Debug draw of a world onto ``surface`` (a ``pygame.Surface``), through ``camera``.

    ``camera`` None: the first :meth:`draw` fits one to the world (:meth:`Camera.fit`) and keeps
    it in :attr:`camera`, so the view stays still while the world moves. :attr:`flags` (a
    :class:`Flags`) picks the layers. The drawer remembers the last frame's contact points to
    colour new ones apart from persisting ones.
    """

    def __init__(self, surface, camera: Camera | None = None, flags: Flags | None = None) -> None:
        self._pg = _pygame()
        if not isinstance(surface, self._pg.Surface):
            raise TypeError(f"surface must be a pygame.Surface, got {type(surface).__name__}")
        if camera is not None and not isinstance(camera, Camera):
            raise TypeError(f"camera must be an impulse2d.draw.Camera, got {type(camera).__name__}")
        if flags is not None and not isinstance(flags, Flags):
            raise TypeError(f"flags must be an impulse2d.draw.Flags, got {type(flags).__name__}")
        self.surface = surface
        self.camera = camera
        self.flags = flags if flags is not None else Flags()
        self._memory = ContactMemory()
        self._font = None

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def _camera(self, world) -> Camera:
        if self.camera is None:
            self.camera = Camera.fit(world, self.size)
        return self.camera

    def draw(self, world) -> None:
        """Draw ``world`` (the layers of :attr:`flags`) onto the surface; the background is left
        as it is (the game clears it)."""
        pg = self._pg
        size = self.size
        dl = build(world, self._camera(world), size, self.flags, self._memory)
        surf = self.surface
        polygon, line = pg.draw.polygon, pg.draw.line
        kind, outlines, spokes = shape_outlines(dl, pairs=True)
        if kind.size:
            fills = dl.shape_fill.tolist()
            edges = dl.shape_edge.tolist()
            for i, k in enumerate(kind.tolist()):
                pts = outlines[i]
                if k == 0:
                    polygon(surf, fills[i], pts)
                    polygon(surf, edges[i], pts, 1)
                    sp = spokes.get(i) if spokes else None
                    if sp is not None:
                        line(surf, edges[i], sp[:2], sp[2:])
                elif k == 1:
                    line(surf, edges[i], pts[0], pts[1], 2)
                else:
                    surf.set_at((int(pts[0][0]), int(pts[0][1])), edges[i])
        for x, y, string, colour in dl.texts:
            self.text((x, y), string, colour)
        if dl.lines.shape[0] == 0 and dl.points.shape[0] == 0:
            return
        seg = dl.camera.to_screen(dl.lines, size).reshape(-1, 4)
        pts = dl.camera.to_screen(dl.points, size)
        if surf.get_bytesize() == 4:
            # Overlays in bulk, straight into the pixels (pixels.py: one call per segment costs
            # more than the whole pass).
            mapped = _map_rgb(surf, np.concatenate([dl.line_color, dl.point_color]))
            arr = self._pg.surfarray.pixels2d(surf)
            mapped = mapped.view(arr.dtype)[:, None]      # pygame's int32 pixels: same bits
            nl = dl.line_color.shape[0]
            try:
                paint(arr[:, :, None], seg, mapped[:nl], pts, dl.point_px, mapped[nl:])
            finally:
                del arr                                   # unlocks the surface
            return
        for s, c in zip(seg.tolist(), dl.line_color.tolist()):
            line(surf, c, s[:2], s[2:])
        rect = pg.draw.rect
        for (x, y), hh, c in zip(pts.tolist(), dl.point_px.tolist(), dl.point_color.tolist()):
            rect(surf, c, (round(x - hh), round(y - hh), round(2 * hh) + 1, round(2 * hh) + 1))

    # -- primitives in world coordinates, for overlays ------------------------------------------
    def _screen(self, p) -> tuple[float, float]:
        if self.camera is None:
            raise ValueError("no camera yet: pass camera= or call draw(world) first")
        x, y = self.camera.to_screen(np.asarray(p, dtype=np.float64), self.size)
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"point must be finite, got {p!r}")
        return float(x), float(y)

    def segment(self, p1, p2, color, width: int = 1) -> None:
        """A line between world points ``p1`` and ``p2``."""
        self._pg.draw.line(self.surface, _colour(color), self._screen(p1), self._screen(p2),
                           int(width))

    def point(self, p, radius_px: float, color) -> None:
        """A dot at world point ``p``, ``radius_px`` pixels across its half."""
        self._pg.draw.circle(self.surface, _colour(color), self._screen(p), float(radius_px))

    def circle(self, center, radius: float, color, width: int = 1) -> None:
        """A circle outline of ``radius`` metres round world point ``center``."""
        r = float(radius) * self.camera.scale if self.camera is not None else 0.0
        self._pg.draw.circle(self.surface, _colour(color), self._screen(center), r, int(width))

    def text(self, p, string: str, color, size_px: int = 16) -> None:
        """``string`` with its top-left corner at world point ``p``."""
        pg = self._pg
        if self._font is None or self._font[0] != size_px:
            if not pg.font.get_init():
                pg.font.init()
            self._font = (size_px, pg.font.Font(None, size_px))
        self.surface.blit(self._font[1].render(str(string), True, _colour(color)), self._screen(p))
