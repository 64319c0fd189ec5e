"""The camera: world metres (x right, y up) to canvas pixels (origin top-left, y down) and back.

One object serves drawing and picking, so what is drawn under the mouse and the world point a
click maps to never disagree. Pixel ``(i, j)`` covers ``[i, i + 1) x [j, j + 1)``: the canvas
edges are the view's edges, and ``center`` sits at pixel coordinate ``(w / 2, h / 2)``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Camera"]


def _size(size) -> tuple[int, int]:
    try:
        w, h = size
    except (TypeError, ValueError):
        raise TypeError(f"size must be (width, height) in pixels, got {size!r}") from None
    if not (isinstance(w, (int, np.integer)) and isinstance(h, (int, np.integer))) or w < 1 or h < 1:
        raise ValueError(f"size must be two positive whole numbers of pixels, got {size!r}")
    return int(w), int(h)


def _finite_pair(value, name: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair of numbers, got {value!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return x, y


def _positive(value, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, got {value!r}") from None
    if not (math.isfinite(v) and v > 0.0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return v


class Camera:
    """``center`` (world point drawn at the canvas middle, m) and ``scale`` (pixels per metre).

    ``size`` arguments are always ``(width, height)`` in pixels.
    """

    __slots__ = ("_center", "_scale")

    def __init__(self, center=(0.0, 0.0), scale: float = 30.0) -> None:
        self._center = _finite_pair(center, "center")
        self._scale = _positive(scale, "scale")

    # -- state ----------------------------------------------------------------------------------
    @property
    def center(self) -> tuple[float, float]:
        """World point at the middle of the canvas, m (settable)."""
        return self._center

    @center.setter
    def center(self, value) -> None:
        self._center = _finite_pair(value, "center")

    @property
    def scale(self) -> float:
        """Pixels per metre (settable, > 0)."""
        return self._scale

    @scale.setter
    def scale(self, value) -> None:
        self._scale = _positive(value, "scale")

    def __repr__(self) -> str:
        return f"Camera(center=({self._center[0]:g}, {self._center[1]:g}), scale={self._scale:g})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Camera) and (self._center, self._scale) == (other._center, other._scale)

    def copy(self) -> "Camera":
        return Camera(self._center, self._scale)

    # -- mapping --------------------------------------------------------------------------------
    def to_screen(self, points, size) -> np.ndarray:
        """Pixel coordinates (float, origin top-left, y down) of world ``points`` (2,) or (..., 2)."""
        w, h = _size(size)
        p = np.asarray(points, dtype=np.float64)
        if p.shape[-1:] != (2,):
            raise ValueError(f"points must have shape (2,) or (N, 2), got {p.shape}")
        out = np.empty_like(p)
        out[..., 0] = 0.5 * w + (p[..., 0] - self._center[0]) * self._scale
        out[..., 1] = 0.5 * h - (p[..., 1] - self._center[1]) * self._scale
        return out

    def to_world(self, pixels, size) -> np.ndarray:
        """World points, m, of pixel coordinates (2,) or (..., 2): the inverse of :meth:`to_screen`
        (a mouse position to the world point under it)."""
        w, h = _size(size)
        p = np.asarray(pixels, dtype=np.float64)
        if p.shape[-1:] != (2,):
            raise ValueError(f"pixels must have shape (2,) or (N, 2), got {p.shape}")
        out = np.empty_like(p)
        out[..., 0] = self._center[0] + (p[..., 0] - 0.5 * w) / self._scale
        out[..., 1] = self._center[1] - (p[..., 1] - 0.5 * h) / self._scale
        return out

    def view(self, size) -> tuple[float, float, float, float]:
        """The world rectangle ``(x0, y0, x1, y1)`` the canvas shows, m."""
        w, h = _size(size)
        hx = 0.5 * w / self._scale
        hy = 0.5 * h / self._scale
        cx, cy = self._center
        return (cx - hx, cy - hy, cx + hx, cy + hy)

    # -- moving ---------------------------------------------------------------------------------
    def zoom_at(self, pixel, factor: float, size) -> None:
        """Multiply the scale by ``factor`` keeping the world point under ``pixel`` under it
        (zoom about the mouse cursor)."""
        factor = _positive(factor, "factor")
        px, py = _finite_pair(pixel, "pixel")
        w, h = _size(size)
        wx, wy = self.to_world((px, py), (w, h))
        self.scale = self._scale * factor
        self._center = (wx - (px - 0.5 * w) / self._scale, wy + (py - 0.5 * h) / self._scale)

    def pan(self, dx_pixels: float, dy_pixels: float) -> None:
        """Move the picture by ``(dx, dy)`` pixels (as a mouse drag would: the world follows)."""
        dx, dy = _finite_pair((dx_pixels, dy_pixels), "pan")
        cx, cy = self._center
        self._center = (cx - dx / self._scale, cy + dy / self._scale)

    def follow(self, body) -> None:
        """Centre on ``body``'s position."""
        try:
            position = body.position
        except AttributeError:
            raise TypeError(f"follow needs a Body, got {type(body).__name__}") from None
        self.center = position

    def fit_box(self, box, size, margin: float = 0.05) -> None:
        """Centre and scale so that the world box ``(x0, y0, x1, y1)`` fills the canvas, with
        ``margin`` (a fraction of the box) of space around it."""
        x0, y0, x1, y1 = (float(v) for v in box)
        if not all(math.isfinite(v) for v in (x0, y0, x1, y1)) or x1 < x0 or y1 < y0:
            raise ValueError(f"box must be finite (x0, y0, x1, y1) with x1 >= x0, y1 >= y0, got {box!r}")
        margin = float(margin)
        if not (math.isfinite(margin) and margin >= 0.0):
            raise ValueError(f"margin must be a non-negative fraction, got {margin!r}")
        w, h = _size(size)
        bw = max(x1 - x0, 1e-3) * (1.0 + 2.0 * margin)
        bh = max(y1 - y0, 1e-3) * (1.0 + 2.0 * margin)
        self._scale = min(w / bw, h / bh)
        self._center = (0.5 * (x0 + x1), 0.5 * (y0 + y1))

    @classmethod
    def fit(cls, world, size, margin: float = 0.05) -> "Camera":
        """A camera showing every live shape of ``world`` (the origin's 20 m x 15 m when there
        is none), with ``margin`` (a fraction of the world's extent) of space around it."""
        from .geometry import world_bounds

        box = world_bounds(world)
        cam = cls()
        cam.fit_box(box if box is not None else (-10.0, -1.0, 10.0, 14.0), size, margin)
        return cam
