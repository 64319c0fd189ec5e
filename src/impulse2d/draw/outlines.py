"""Shapes as pixel outlines, for rasterisers that fill polygons (Pillow, pygame-ce).

Pillow and SDL fill polygons inclusive of their boundary, and Pillow truncates vertices to whole
pixels, which makes every filled shape about half a pixel fatter all round than the true shape.
Filled shapes are therefore drawn inset: sharp polygons by half a pixel (exact pixel rectangles
for boxes), rounded shapes with this much less radius (measured: circle pixel areas within ~2 %).
Circles are regular polygons with the circle's area; rounded polygons and capsules their exact
offset outline (the core polygon pushed out by the radius, a circular arc round every vertex).
"""

from __future__ import annotations

import math

import numpy as np

from .geometry import DrawList

__all__ = ["shape_outlines", "rounded_outlines", "inset_polygons", "arc_points"]

_FILL_BIAS = 0.4
_POLY_INSET = 0.5
_MAX_SAGITTA = 0.2   # px: largest gap between a drawn arc chord and the true arc
_MAX_ARC_POINTS = 96


def rounded_outlines(centres: np.ndarray, count: np.ndarray, radius_px: np.ndarray,
                     k: int) -> np.ndarray:
    """Outline points of rounded polygons with 2..8 vertices, in pixel space.

    ``centres`` (m, 8, 2) are the core vertices in pixels, in the store's order: counter-clockwise
    in the world, hence clockwise in pixel coordinates (y down). Returns (m, 8, k, 2): ``k`` arc
    samples of radius ``radius_px`` around every vertex, from the outward normal of the edge
    arriving at it to that of the edge leaving it, so that the rows ``[:count]`` flattened are
    the offset outline in order; rows past ``count`` repeat the last vertex.
    """
    m = centres.shape[0]
    i = np.arange(8)[None, :]
    cnt = np.maximum(count, 1)[:, None]
    nxt = (i + 1) % cnt
    prv = (i - 1) % cnt
    ar = np.arange(m)[:, None]
    edge = centres[ar, nxt] - centres                 # edge i: v[i] -> v[i+1]
    # Outward normal of a clockwise polygon is (-ey, ex); its angle in pixel coordinates.
    ang_out = np.arctan2(edge[..., 0], -edge[..., 1])
    ang_in = ang_out[ar, prv]
    # Going round a clockwise polygon the normal turns clockwise: the angle decreases.
    sweep = np.mod(ang_in - ang_out, 2.0 * np.pi)
    t = np.linspace(0.0, 1.0, k)[None, None, :]
    a = ang_in[..., None] - sweep[..., None] * t      # (m, 8, k)
    r = radius_px[:, None, None]
    pts = np.stack([centres[..., 0:1] + r * np.cos(a), centres[..., 1:2] + r * np.sin(a)], -1)
    last = np.minimum(i, cnt - 1)
    return pts[ar, last]


def inset_polygons(verts: np.ndarray, count: np.ndarray, inset: float) -> np.ndarray:
    """Move every edge of convex polygons (m, 8, 2) in pixel space (clockwise) inwards by
    ``inset`` pixels, or by a quarter of the polygon's thinnest width when that is less (so a
    sliver never turns inside out)."""
    m = verts.shape[0]
    i = np.arange(8)[None, :]
    cnt = np.maximum(count, 1)[:, None]
    ar = np.arange(m)[:, None]
    nxt = verts[ar, (i + 1) % cnt]
    edge = nxt - verts
    length = np.hypot(edge[..., 0], edge[..., 1])
    n = np.stack([-edge[..., 1], edge[..., 0]], -1) / np.maximum(length, 1e-12)[..., None]
    used = i < cnt
    # A convex polygon's thinnest width is at least its area over its diameter (area <= width
    # x diameter), and the diameter at most its box's diagonal: most polygons are plainly wide
    # enough, and only the others need the exact width below.
    cross = np.where(used, verts[..., 0] * nxt[..., 1] - verts[..., 1] * nxt[..., 0], 0.0)
    area = 0.5 * np.abs(cross.sum(axis=1))
    v = np.where(used[..., None], verts, verts[:, :1])
    span = v.max(axis=1) - v.min(axis=1)
    diag = np.hypot(span[:, 0], span[:, 1])
    d = np.full(m, float(inset))
    thin = np.flatnonzero(area < 4.0 * inset * diag)
    if thin.size:
        # width across edge k: largest distance of any vertex behind it
        vt, nt, ut = verts[thin], n[thin], used[thin]
        own = nt[..., 0] * vt[..., 0] + nt[..., 1] * vt[..., 1]              # (t, 8)
        depth = own[:, :, None] - np.matmul(nt, vt.transpose(0, 2, 1))       # (t, 8, 8)
        depth[~np.broadcast_to(ut[:, None, :], depth.shape)] = 0.0
        width = np.where(ut & (length[thin] > 1e-9), depth.max(axis=2), np.inf).min(axis=1)
        d[thin] = np.minimum(inset, 0.25 * width)
    d = d[:, None, None]
    n_prev = n[ar, (i - 1) % cnt]
    cos = n[..., 0] * n_prev[..., 0] + n[..., 1] * n_prev[..., 1]
    denom = np.maximum(1.0 + cos, 0.1)[..., None]
    return verts - d * (n + n_prev) / denom


def arc_points(radius_px: float, sweep: float) -> int:
    """Samples of an arc of ``sweep`` radians so that no chord strays more than 0.2 px."""
    r = max(radius_px, 0.5)
    step = 2.0 * math.acos(max(-1.0, 1.0 - _MAX_SAGITTA / r))
    return int(min(_MAX_ARC_POINTS, max(8, math.ceil(sweep / step))))


def shape_outlines(dl: DrawList, scale: float = 1.0, pairs: bool = False):
    """Pixel outlines of the draw list's shapes for a rasteriser that fills inclusively.

    Returns ``kind`` (m,) (0 filled polygon, 1 line, 2 dot), ``flats`` (per shape a flat list of
    pixel coordinates; ``pairs``: a list of [x, y] pairs) and ``spokes`` ({shape index: [x0, y0, x1, y1]}, circles' radius lines).
    ``scale`` multiplies pixel coordinates (supersampling).
    """
    m = dl.shape_count.shape[0]
    if m == 0:
        return np.zeros(0, np.int64), [], {}
    size = (dl.size[0], dl.size[1])
    px = dl.camera.to_screen(dl.shape_verts, size) * scale
    ppm = dl.camera.scale * scale
    count = dl.shape_count
    r_px = dl.shape_radius * ppm
    rounded = r_px > 0.0
    r_draw = np.maximum(r_px - _FILL_BIAS, 0.5)
    flats: list = [None] * m
    kind = np.full(m, 2, dtype=np.int64)

    def put(sel: np.ndarray, pts: np.ndarray) -> None:
        shape = (sel.size, -1, 2) if pairs else (sel.size, -1)
        for i, fl in zip(sel.tolist(), pts.reshape(shape).tolist()):
            flats[i] = fl

    # Circles: regular polygons with the circle's area (inscribed-polygon compensation), plus a
    # spoke along the body's x axis when the circle is big enough for it to show.
    spokes: dict[int, list] = {}
    circ = np.flatnonzero(rounded & (count == 1))
    if circ.size:
        n = max(arc_points(float(r_px[circ].max()), 2.0 * math.pi), 12)
        k_area = math.sqrt(2.0 * math.pi / (n * math.sin(2.0 * math.pi / n)))
        t = np.arange(n) * (2.0 * math.pi / n)
        ring = np.stack([np.cos(t), np.sin(t)], -1)
        centre = px[circ, 0]
        put(circ, centre[:, None, :] + (r_draw[circ] * k_area)[:, None, None] * ring[None])
        kind[circ] = 0
        big = r_px[circ] >= 3.0
        if big.any():
            cb = circ[big]
            rot = dl.shape_axis[cb]
            ends = px[cb, 0] + r_draw[cb, None] * np.stack([rot[:, 0], -rot[:, 1]], -1)
            spokes = dict(zip(cb.tolist(), np.concatenate([px[cb, 0], ends], axis=1).tolist()))

    rpoly = np.flatnonzero(rounded & (count >= 2))
    if rpoly.size:
        k = arc_points(float(r_px[rpoly].max()), math.pi)
        pts = rounded_outlines(px[rpoly], count[rpoly], r_draw[rpoly], k)
        for c in np.unique(count[rpoly]).tolist():
            sel = count[rpoly] == c
            put(rpoly[sel], pts[sel, :c])
        kind[rpoly] = 0

    spoly = np.flatnonzero(~rounded & (count >= 3))
    if spoly.size:
        inset = inset_polygons(px[spoly], count[spoly], _POLY_INSET)
        for c in np.unique(count[spoly]).tolist():
            sel = count[spoly] == c
            put(spoly[sel], inset[sel, :c])
        kind[spoly] = 0

    seg = np.flatnonzero(~rounded & (count == 2))
    if seg.size:
        put(seg, px[seg, :2])
        kind[seg] = 1

    dots = np.flatnonzero(kind == 2)
    if dots.size:
        put(dots, px[dots, 0])
    return kind, flats, spokes
