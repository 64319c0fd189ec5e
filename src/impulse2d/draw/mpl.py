"""The matplotlib back end: :class:`MatplotlibDraw` draws a world onto ``Axes`` in world metres.

Shapes become collections whose coordinates are the shapes' own world geometry: sharp polygons
a ``PolyCollection`` of their vertices, circles ``Circle`` patches, capsules and rounded polygons
their offset outline, segments a ``LineCollection``; overlays are line collections and a
scatter of points. Needs matplotlib (``pip install impulse2d[plot]``).
"""

from __future__ import annotations

import numpy as np

from .camera import Camera
from .flags import Flags
from .geometry import ContactMemory, build
from .outlines import arc_points, rounded_outlines

__all__ = ["MatplotlibDraw"]


def _mpl():
    try:
        import matplotlib.collections as mc
        import matplotlib.patches as mp
    except ImportError as exc:
        raise ImportError("impulse2d.draw.MatplotlibDraw needs matplotlib; install it with "
                          "`pip install impulse2d[plot]`") from exc
    return mc, mp


def _rgb(colours: np.ndarray) -> np.ndarray:
    return np.asarray(colours, dtype=np.float64) / 255.0


class MatplotlibDraw:
    """Debug draw of a world onto matplotlib ``ax``.

    ``camera`` None: fit the world into the axes (their size in display pixels sets the scale of
    the pixel-sized marks). The axes get equal aspect and the camera's view as limits.
    After :meth:`draw`, :attr:`collections` holds the artists by name (``"polygons"``,
    ``"circles"``, ``"rounded"``, ``"segments"``, ``"lines"``, ``"points"``) and
    :attr:`polygon_rows` the shape store rows of the polygons, in order.
    """

    def __init__(self, ax, camera: Camera | None = None, flags: Flags | None = None) -> None:
        self._mc, self._mp = _mpl()
        if camera is not None and not isinstance(camera, Camera):
            raise TypeError(f"camera must be an impulse2d.draw.Camera, got {type(camera).__name__}")
        if flags is not None and not isinstance(flags, Flags):
            raise TypeError(f"flags must be an impulse2d.draw.Flags, got {type(flags).__name__}")
        self.ax = ax
        self.camera = camera
        self.flags = flags if flags is not None else Flags()
        self.collections: dict = {}
        self.polygon_rows = np.zeros(0, np.int64)
        self._memory = ContactMemory()

    def _size(self) -> tuple[int, int]:
        box = self.ax.get_window_extent()
        return max(int(round(box.width)), 1), max(int(round(box.height)), 1)

    def draw(self, world) -> None:
        """Add ``world``'s debug picture to the axes (call ``ax.clear()`` first to redraw)."""
        mc, mp = self._mc, self._mp
        ax = self.ax
        size = self._size()
        camera = self.camera if self.camera is not None else Camera.fit(world, size)
        dl = build(world, camera, size, self.flags, self._memory)
        self.collections = {}
        count, radius = dl.shape_count, dl.shape_radius
        fill, edge = _rgb(dl.shape_fill), _rgb(dl.shape_edge)

        sharp = np.flatnonzero((radius == 0.0) & (count >= 3))
        self.polygon_rows = dl.shape_rows[sharp]
        if sharp.size:
            polys = [dl.shape_verts[i, :count[i]] for i in sharp.tolist()]
            self.collections["polygons"] = ax.add_collection(mc.PolyCollection(
                polys, facecolors=fill[sharp], edgecolors=edge[sharp], linewidths=1.0, zorder=2))
        circ = np.flatnonzero((radius > 0.0) & (count == 1))
        if circ.size:
            patches = [mp.Circle(tuple(dl.shape_verts[i, 0]), radius[i]) for i in circ.tolist()]
            self.collections["circles"] = ax.add_collection(mc.PatchCollection(
                patches, facecolors=fill[circ], edgecolors=edge[circ], linewidths=1.0, zorder=2))
            spokes = np.stack([dl.shape_verts[circ, 0],
                               dl.shape_verts[circ, 0] + radius[circ, None] * dl.shape_axis[circ]], 1)
            ax.add_collection(mc.LineCollection(spokes, colors=edge[circ], linewidths=1.0, zorder=3))
        rnd = np.flatnonzero((radius > 0.0) & (count >= 2))
        if rnd.size:
            # The offset outline, built in a y-down frame (the routine's clockwise convention).
            flip = dl.shape_verts[rnd] * np.array([1.0, -1.0])
            r_px = float(radius[rnd].max()) * camera.scale
            pts = rounded_outlines(flip, count[rnd], radius[rnd], arc_points(r_px, np.pi))
            polys = [pts[q, :count[i]].reshape(-1, 2) * np.array([1.0, -1.0])
                     for q, i in enumerate(rnd.tolist())]
            self.collections["rounded"] = ax.add_collection(mc.PolyCollection(
                polys, facecolors=fill[rnd], edgecolors=edge[rnd], linewidths=1.0, zorder=2))
        seg = np.flatnonzero((radius == 0.0) & (count == 2))
        if seg.size:
            self.collections["segments"] = ax.add_collection(mc.LineCollection(
                dl.shape_verts[seg, :2], colors=edge[seg], linewidths=2.0, zorder=2))
        if dl.lines.shape[0]:
            self.collections["lines"] = ax.add_collection(mc.LineCollection(
                dl.lines, colors=_rgb(dl.line_color), linewidths=1.0, zorder=4))
        if dl.points.shape[0]:
            # scatter sizes are in points^2; a pixel is 72 / dpi points.
            side = 2.0 * dl.point_px * 72.0 / ax.figure.dpi
            self.collections["points"] = ax.scatter(
                dl.points[:, 0], dl.points[:, 1], s=side ** 2, c=_rgb(dl.point_color),
                marker="s", linewidths=0, zorder=5)
        for x, y, string, colour in dl.texts:
            ax.text(x, y, string, color=_rgb(np.asarray(colour)), fontsize=8, va="top", zorder=6)
        x0, y0, x1, y1 = camera.view(size)
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)
        ax.set_aspect("equal", adjustable="datalim")
