"""Thin lines and square dots rasterised in bulk with NumPy, for the back ends that own a pixel
array (pygame-ce through ``surfarray``, Pillow through an array copy).

A debug frame with every layer on has thousands of overlay segments (a box's AABB is four, an
arrow three); one library call per segment costs microseconds each in Python, so the segments
are clipped to the canvas (Liang-Barsky) and sampled at one pixel steps in one pass instead.
Pixel ``(i, j)`` covers ``[i, i + 1) x [j, j + 1)``: a sample at ``(x, y)`` lights
``(floor(x), floor(y))``.

:func:`paint` does the same in one compiled loop straight into the canvas: at a testbed frame's
scale (``many_pyramids`` with every layer on, ~250,000 segments of a few pixels each) the NumPy
pass spends its time on per-sample temporaries and gathers, the loop on the writes alone. It
lights exactly the pixels of :func:`segment_pixels` and :func:`square_pixels`, in their order
(the same IEEE operations, no fastmath: :mod:`impulse2d._core.jit`).
"""

from __future__ import annotations

import math

import numpy as np

from .._core.jit import kernel
from .._core.lazy import compiling

__all__ = ["segment_pixels", "square_pixels", "paint"]


def _clip(seg: np.ndarray, w: int, h: int):
    """Liang-Barsky: the part of each segment (k, 4: x0, y0, x1, y1) inside [0, w) x [0, h)."""
    x0, y0, x1, y1 = seg.T
    dx, dy = x1 - x0, y1 - y0
    t0 = np.zeros(seg.shape[0])
    t1 = np.ones(seg.shape[0])
    keep = np.ones(seg.shape[0], bool)
    hi_x, hi_y = w - 1e-6, h - 1e-6
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-dx, x0), (dx, hi_x - x0), (-dy, y0), (dy, hi_y - y0)):
            r = q / p
            keep &= ~((p == 0) & (q < 0))
            neg = p < 0
            pos = p > 0
            t0 = np.where(neg, np.maximum(t0, r), t0)
            t1 = np.where(pos, np.minimum(t1, r), t1)
    keep &= t0 <= t1
    a = np.stack([x0 + t0 * dx, y0 + t0 * dy], -1)[keep]
    b = np.stack([x0 + t1 * dx, y0 + t1 * dy], -1)[keep]
    return a, b, np.flatnonzero(keep)


def segment_pixels(seg: np.ndarray, w: int, h: int):
    """Pixels of 1-pixel lines ``seg`` (k, 4) on a ``w`` x ``h`` canvas: ``xs``, ``ys`` and
    ``which`` (the segment each pixel belongs to), later segments after earlier ones."""
    seg = np.asarray(seg, dtype=np.float64).reshape(-1, 4)
    if seg.shape[0] == 0:
        z = np.zeros(0, np.int64)
        return z, z, z
    a, b, rows = _clip(seg, w, h)
    d = b - a
    n = np.ceil(np.abs(d).max(axis=1)).astype(np.int64) + 1          # samples per segment
    which = np.repeat(np.arange(n.size), n)
    first = np.cumsum(n) - n
    k = np.arange(which.size) - first[which]
    t = k / np.maximum(n - 1, 1)[which]
    xs = np.floor(a[which, 0] + t * d[which, 0]).astype(np.int64)
    ys = np.floor(a[which, 1] + t * d[which, 1]).astype(np.int64)
    np.clip(xs, 0, w - 1, out=xs)
    np.clip(ys, 0, h - 1, out=ys)
    return xs, ys, rows[which]


def square_pixels(centres: np.ndarray, half: np.ndarray, w: int, h: int):
    """Pixels of filled squares (centre (p, 2), half side ``half`` (p,) pixels), clipped to the
    canvas: ``xs``, ``ys``, ``which``. Squares of one size share one offset grid."""
    centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    r = np.maximum(np.round(np.asarray(half, dtype=np.float64)), 0).astype(np.int64)
    cx = np.floor(centres[:, 0]).astype(np.int64)
    cy = np.floor(centres[:, 1]).astype(np.int64)
    out_x, out_y, out_w = [], [], []
    # Sizes in order of first appearance: the layers add points in blocks, and a later block
    # paints over an earlier one.
    sizes, first = np.unique(r, return_index=True)
    for size in sizes[np.argsort(first)].tolist():
        sel = np.flatnonzero(r == size)
        span = np.arange(-size, size + 1)
        ox = np.tile(span, span.size)
        oy = np.repeat(span, span.size)
        xs = (cx[sel, None] + ox[None]).ravel()
        ys = (cy[sel, None] + oy[None]).ravel()
        which = np.repeat(sel, ox.size)
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        out_x.append(xs[inside])
        out_y.append(ys[inside])
        out_w.append(which[inside])
    if not out_x:
        z = np.zeros(0, np.int64)
        return z, z, z
    return np.concatenate(out_x), np.concatenate(out_y), np.concatenate(out_w)


def _square_order(half: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whole-pixel half sides of squares and the order :func:`square_pixels` paints them in
    (sizes in order of first appearance, each size's squares in their order)."""
    r = np.maximum(np.round(np.asarray(half, dtype=np.float64)), 0).astype(np.int64)
    if r.size == 0:
        return r, np.zeros(0, np.int64)
    sizes, first = np.unique(r, return_index=True)
    rank = np.empty(sizes.size, np.int64)
    rank[np.argsort(first)] = np.arange(sizes.size)
    return r, np.argsort(rank[np.searchsorted(sizes, r)], kind="stable")


@kernel
def _paint(canvas, seg, seg_value, centres, half, order, point_value):  # pragma: no cover (jit)
    """Segments (k, 4) then squares into ``canvas`` (w, h, c): ``canvas[x, y] = value row``."""
    w = canvas.shape[0]
    h = canvas.shape[1]
    nc = canvas.shape[2]
    hi_x = w - 1e-6
    hi_y = h - 1e-6
    for i in range(seg.shape[0]):
        x0 = seg[i, 0]
        y0 = seg[i, 1]
        dx = seg[i, 2] - x0
        dy = seg[i, 3] - y0
        # Liang-Barsky, as pixels._clip (the same comparisons and divisions).
        t0 = 0.0
        t1 = 1.0
        keep = True
        for side in range(4):
            if side == 0:
                p, q = -dx, x0
            elif side == 1:
                p, q = dx, hi_x - x0
            elif side == 2:
                p, q = -dy, y0
            else:
                p, q = dy, hi_y - y0
            if p == 0.0:
                if q < 0.0:
                    keep = False
            else:
                r = q / p
                if p < 0.0:
                    if not r <= t0:          # np.maximum: a NaN wins
                        t0 = r
                elif not r >= t1:
                    t1 = r
        if not (keep and t0 <= t1):
            continue
        ax = x0 + t0 * dx
        ay = y0 + t0 * dy
        ddx = (x0 + t1 * dx) - ax
        ddy = (y0 + t1 * dy) - ay
        n = np.int64(math.ceil(max(abs(ddx), abs(ddy)))) + 1
        m = max(n - 1, 1)
        for k in range(n):
            t = k / m
            x = min(max(np.int64(math.floor(ax + t * ddx)), 0), w - 1)
            y = min(max(np.int64(math.floor(ay + t * ddy)), 0), h - 1)
            for c in range(nc):
                canvas[x, y, c] = seg_value[i, c]
    for j in range(order.shape[0]):
        i = order[j]
        r = half[i]
        cx = np.int64(math.floor(centres[i, 0]))
        cy = np.int64(math.floor(centres[i, 1]))
        for y in range(max(cy - r, 0), min(cy + r, h - 1) + 1):
            for x in range(max(cx - r, 0), min(cx + r, w - 1) + 1):
                for c in range(nc):
                    canvas[x, y, c] = point_value[i, c]


def paint(canvas: np.ndarray, seg: np.ndarray, seg_value: np.ndarray, centres: np.ndarray,
          half: np.ndarray, point_value: np.ndarray) -> None:
    """Draw 1-pixel lines ``seg`` (k, 4) in pixel coordinates, then filled squares (centres
    (p, 2), half sides ``half`` (p,) pixels) into ``canvas`` (w, h, c), indexed ``[x, y]``; a
    line's or a square's pixels get its row of ``seg_value`` (k, c) or ``point_value`` (p, c),
    of the canvas's dtype. The pixels and their order are those of :func:`segment_pixels` and
    :func:`square_pixels`."""
    seg = np.ascontiguousarray(seg, dtype=np.float64).reshape(-1, 4)
    centres = np.ascontiguousarray(centres, dtype=np.float64).reshape(-1, 2)
    r, order = _square_order(half)
    # A first draw compiles (or loads from the cache) the loop for the canvas's dtype and layout:
    # announced like the engine's kernels.
    with compiling("the debug draw's overlays", 2.0):
        _paint(canvas, seg, np.ascontiguousarray(seg_value, dtype=canvas.dtype), centres, r,
               order, np.ascontiguousarray(point_value, dtype=canvas.dtype))
