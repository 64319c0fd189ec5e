"""Headless Pillow rasteriser for a :class:`impulse2d.World`.

The renderer reads the world's structure-of-arrays stores (``world._bodies``, ``world._shapes``)
directly: every live shape's vertices are moved to world space and then to pixels in one NumPy
pass, and only the final per-shape ``ImageDraw`` call runs in a Python loop.

Every shape is a rounded convex polygon (see :mod:`impulse2d._collision`), so the drawing rule is

* radius > 0 (circle, capsule, rounded polygon): the exact offset outline, i.e. the core polygon
  pushed out by the radius with a circular arc around every vertex, filled as one polygon;
* radius == 0, two vertices (segment): a line;
* radius == 0, three or more vertices: the polygon itself.

Circles also get a line from their centre along the body's x axis so that rotation is visible.

Frames are drawn on a palette (``"P"``) image with a fixed palette, which keeps animated GIFs
small and fast to write; :func:`render_frame` converts to RGB unless asked for ``mode="P"``, and
can supersample for anti-aliased stills.
"""

from __future__ import annotations

import colorsys
import functools
import math
from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

__all__ = [
    "render_frame",
    "fit_view",
    "world_to_pixels",
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

BACKGROUND = (247, 246, 242)
STATIC_FILL = (148, 150, 156)
STATIC_OUTLINE = (78, 80, 88)
KINEMATIC_FILL = (132, 178, 232)
KINEMATIC_OUTLINE = (36, 84, 150)
CONTACT_POINT = (214, 32, 40)
CONTACT_NORMAL = (232, 130, 0)
TEXT = (24, 24, 28)

_I_BACKGROUND, _I_STATIC, _I_STATIC_OUT, _I_KIN, _I_KIN_OUT, _I_CPOINT, _I_CNORMAL, _I_TEXT = range(8)
_I_DYNAMIC0 = 8
N_DYNAMIC_COLOURS = 32
"""Distinct dynamic-body colours; a body's colour is picked by a hash of its row index."""


def _dynamic_colours(n: int) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    out = []
    for k in range(n):
        h = (k * 0.618033988749895) % 1.0           # golden-ratio hue walk
        s = (0.45, 0.6, 0.75)[k % 3]
        v = (0.93, 0.84)[(k // 3) % 2]
        fill = colorsys.hsv_to_rgb(h, s, v)
        edge = colorsys.hsv_to_rgb(h, min(1.0, s + 0.2), v * 0.5)
        out.append((tuple(int(round(255 * c)) for c in fill),
                    tuple(int(round(255 * c)) for c in edge)))
    return out


_DYN = _dynamic_colours(N_DYNAMIC_COLOURS)

PALETTE: list[tuple[int, int, int]] = [
    BACKGROUND, STATIC_FILL, STATIC_OUTLINE, KINEMATIC_FILL, KINEMATIC_OUTLINE,
    CONTACT_POINT, CONTACT_NORMAL, TEXT,
]
for _fill, _edge in _DYN:
    PALETTE.extend([_fill, _edge])
"""Palette of every frame: index -> RGB."""

_PALETTE_BYTES = bytes(c for rgb in PALETTE for c in rgb) + bytes(3 * (256 - len(PALETTE)))


def _dynamic_index(body_rows: np.ndarray) -> np.ndarray:
    """Colour slot of dynamic bodies: Knuth multiplicative hash of the row, so neighbours differ."""
    h = (body_rows.astype(np.uint64) * np.uint64(2654435761)) & np.uint64(0xFFFFFFFF)
    return (h >> np.uint64(11)).astype(np.int64) % N_DYNAMIC_COLOURS


def dynamic_fill(body_row: int) -> tuple[int, int, int]:
    """RGB fill colour used for the dynamic body in store row ``body_row``."""
    return _DYN[int(_dynamic_index(np.array([body_row]))[0])][0]


# --------------------------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------------------------

# Pillow truncates polygon vertices to whole pixels and fills inclusive of the boundary, which
# makes every filled shape about half a pixel fatter all round than the true shape. Filled shapes
# are therefore drawn inset: sharp polygons by half a pixel (exact pixel rectangles for boxes),
# rounded shapes with this much less radius (measured: circle pixel areas within ~2 %).
_FILL_BIAS = 0.4
_POLY_INSET = 0.5
_MAX_SAGITTA = 0.2   # px: largest gap between a drawn arc chord and the true arc
_MAX_ARC_POINTS = 96


def _live_geometry(world) -> dict[str, np.ndarray] | None:
    """World-space geometry of every live shape, or None when there is none."""
    shapes = world._shapes
    bodies = world._bodies
    rows = np.flatnonzero(shapes.alive)
    if rows.size == 0:
        return None
    body = shapes.body[rows]
    count = shapes.count[rows].astype(np.int64)
    local = shapes.vertices[rows]                     # (m, 8, 2)
    origin = bodies.origin[body]                      # (m, 2)
    rot = bodies.rot[body]                            # (m, 2) cos, sin
    c = rot[:, 0:1]
    s = rot[:, 1:2]
    lx = local[..., 0]
    ly = local[..., 1]
    world_v = np.stack([origin[:, 0:1] + c * lx - s * ly,
                        origin[:, 1:2] + s * lx + c * ly], axis=-1)
    return {
        "rows": rows,
        "body": body,
        "btype": bodies.type[body].astype(np.int64),
        "count": count,
        "radius": shapes.radius[rows].astype(np.float64),
        "verts": world_v,                             # (m, 8, 2) world coordinates
        "rot": rot,
    }


def fit_view(world, margin: float = 0.05,
             default: tuple[float, float, float, float] = (-10.0, -1.0, 10.0, 14.0)
             ) -> tuple[float, float, float, float]:
    """A view box (x0, y0, x1, y1) enclosing every live shape, with ``margin`` of padding."""
    g = _live_geometry(world)
    if g is None:
        return default
    idx = np.arange(8)[None, :]
    used = idx < g["count"][:, None]
    r = g["radius"][:, None]
    xs = g["verts"][..., 0]
    ys = g["verts"][..., 1]
    x0 = float(np.min(np.where(used, xs - r, np.inf)))
    x1 = float(np.max(np.where(used, xs + r, -np.inf)))
    y0 = float(np.min(np.where(used, ys - r, np.inf)))
    y1 = float(np.max(np.where(used, ys + r, -np.inf)))
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


class _Transform:
    """World metres -> pixel coordinates, y up on screen.

    Pixel ``(i, j)`` covers ``[i, i + 1) x [j, j + 1)``, so the view's corners are the outer
    corners of the image (Pillow truncates coordinates, which maps a point to its pixel).

    The view is scaled uniformly (circles stay round) and centred in the image.
    """

    def __init__(self, view, size):
        x0, y0, x1, y1 = (float(v) for v in view)
        if not (x1 > x0 and y1 > y0):
            raise ValueError(f"view must be (x0, y0, x1, y1) with x1 > x0 and y1 > y0, got {view!r}")
        w, h = size
        self.scale = min(w / (x1 - x0), h / (y1 - y0))       # px per metre
        self.ox = 0.5 * (w - (x1 - x0) * self.scale) - x0 * self.scale
        self.oy = 0.5 * (h - (y1 - y0) * self.scale) + y1 * self.scale

    def __call__(self, p: np.ndarray) -> np.ndarray:
        p = np.asarray(p, dtype=np.float64)
        out = np.empty_like(p)
        out[..., 0] = self.ox + p[..., 0] * self.scale
        out[..., 1] = self.oy - p[..., 1] * self.scale
        return out


def world_to_pixels(points, view, size) -> np.ndarray:
    """Pixel coordinates (column, row; pixel ``(i, j)`` covers ``[i, i+1) x [j, j+1)``) of
    world ``points`` (..., 2)
    in an image of ``size`` (w, h or width) showing ``view``; the mapping used by
    :func:`render_frame`."""
    return _Transform(view, _resolve_size(view, size))(points)


def _rounded_outlines(centres: np.ndarray, count: np.ndarray, radius_px: np.ndarray,
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


def _inset_polygons(verts: np.ndarray, count: np.ndarray, inset: float) -> np.ndarray:
    """Move every edge of convex polygons (m, 8, 2) in pixel space (clockwise) inwards by
    ``inset`` pixels, or by a quarter of the polygon's thinnest width when that is less (so a
    sliver never turns inside out)."""
    m = verts.shape[0]
    i = np.arange(8)[None, :]
    cnt = np.maximum(count, 1)[:, None]
    ar = np.arange(m)[:, None]
    edge = verts[ar, (i + 1) % cnt] - verts
    length = np.hypot(edge[..., 0], edge[..., 1])
    n = np.stack([-edge[..., 1], edge[..., 0]], -1) / np.maximum(length, 1e-12)[..., None]
    used = i < cnt
    # width across edge k: largest distance of any vertex behind it
    own = n[..., 0] * verts[..., 0] + n[..., 1] * verts[..., 1]              # (m, 8)
    depth = own[:, :, None] - np.matmul(n, verts.transpose(0, 2, 1))         # (m, 8, 8)
    depth[~np.broadcast_to(used[:, None, :], depth.shape)] = 0.0
    width = np.where(used & (length > 1e-9), depth.max(axis=2), np.inf).min(axis=1)
    d = np.minimum(inset, 0.25 * width)[:, None, None]
    n_prev = n[ar, (i - 1) % cnt]
    cos = n[..., 0] * n_prev[..., 0] + n[..., 1] * n_prev[..., 1]
    denom = np.maximum(1.0 + cos, 0.1)[..., None]
    return verts - d * (n + n_prev) / denom


def _arc_points(radius_px: float, sweep: float) -> int:
    r = max(radius_px, 0.5)
    step = 2.0 * math.acos(max(-1.0, 1.0 - _MAX_SAGITTA / r))
    return int(min(_MAX_ARC_POINTS, max(8, math.ceil(sweep / step))))


# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _font(px: int):
    try:
        return ImageFont.load_default(size=px)   # Pillow >= 10.1 with FreeType
    except (TypeError, OSError, ImportError, AttributeError):
        return ImageFont.load_default()          # the small built-in bitmap font


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
    ss = max(1, int(supersample))
    if mode == "P":
        ss = 1
    draw_size = (out_size[0] * ss, out_size[1] * ss)

    img = Image.new("P", draw_size, _I_BACKGROUND)
    img.putpalette(_PALETTE_BYTES)
    draw = ImageDraw.Draw(img)
    tf = _Transform(view, draw_size)
    _draw_shapes(draw, world, tf, ss, outline, draw_size)
    if joints:
        _draw_joints(draw, world, tf, ss)
    if contacts:
        _draw_contacts(draw, world, tf, ss)

    if ss > 1:
        img = img.convert("RGB").resize(out_size, Image.Resampling.BOX
                                         if hasattr(Image, "Resampling") else Image.BOX)
    elif mode == "RGB":
        img = img.convert("RGB")
    if text:
        ImageDraw.Draw(img).text((4, 3), text, fill=_I_TEXT if img.mode == "P" else TEXT,
                                 font=_font(max(10, min(18, out_size[0] // 36))))
    return img


def _draw_shapes(draw: ImageDraw.ImageDraw, world, tf: _Transform, ss: int, outline: bool,
                 size: tuple[int, int]) -> None:
    g = _live_geometry(world)
    if g is None:
        return
    # Cull shapes entirely outside the image.
    px = tf(g["verts"])                                   # (m, 8, 2) pixel vertices
    used = np.arange(8)[None, :] < np.maximum(g["count"], 1)[:, None]
    pad = g["radius"] * tf.scale + 2.0 * ss
    lo = np.where(used[..., None], px, np.inf).min(axis=1) - pad[:, None]
    hi = np.where(used[..., None], px, -np.inf).max(axis=1) + pad[:, None]
    w, h = size
    vis = (hi[:, 0] >= 0) & (hi[:, 1] >= 0) & (lo[:, 0] <= w) & (lo[:, 1] <= h)
    if not vis.all():
        g = {key: val[vis] for key, val in g.items()}
        px = px[vis]
    m = g["rows"].size
    if m == 0:
        return
    # Colour slots per shape.
    btype = g["btype"]
    fill = np.where(btype == 0, _I_STATIC, np.where(btype == 1, _I_KIN, 0))
    edge = np.where(btype == 0, _I_STATIC_OUT, np.where(btype == 1, _I_KIN_OUT, 0))
    dyn = btype == 2
    slot = _dynamic_index(g["body"][dyn])
    fill[dyn] = _I_DYNAMIC0 + 2 * slot
    edge[dyn] = _I_DYNAMIC0 + 2 * slot + 1
    if not outline:
        edge = fill

    count = g["count"]
    r_px = g["radius"] * tf.scale
    rounded = r_px > 0.0
    r_draw = np.maximum(r_px - _FILL_BIAS, 0.5)
    lw = max(1, ss)
    seg_w = 2 * ss                                        # segments: a 2 px line

    # One flat coordinate list per shape, built group by group in bulk.
    flats: list = [None] * m
    kind = np.full(m, 2, dtype=np.int64)                  # 0 polygon, 1 line, 2 point

    def put(sel: np.ndarray, pts: np.ndarray) -> None:
        for i, fl in zip(sel.tolist(), pts.reshape(sel.size, -1).tolist()):
            flats[i] = fl

    # Circles: regular polygons with the circle's area (inscribed-polygon compensation), plus a
    # spoke along the body's x axis when the circle is big enough for it to show.
    spokes: dict[int, list] = {}
    circ = np.flatnonzero(rounded & (count == 1))
    if circ.size:
        n = max(_arc_points(float(r_px[circ].max()), 2.0 * math.pi), 12)
        k_area = math.sqrt(2.0 * math.pi / (n * math.sin(2.0 * math.pi / n)))
        t = np.arange(n) * (2.0 * math.pi / n)
        ring = np.stack([np.cos(t), np.sin(t)], -1)       # (n, 2)
        centre = px[circ, 0]
        put(circ, centre[:, None, :] + (r_draw[circ] * k_area)[:, None, None] * ring[None])
        kind[circ] = 0
        big = r_px[circ] >= 3.0
        if big.any():
            cb = circ[big]
            rot = g["rot"][cb]
            ends = px[cb, 0] + r_draw[cb, None] * np.stack([rot[:, 0], -rot[:, 1]], -1)
            lines = np.concatenate([px[cb, 0], ends], axis=1).tolist()
            spokes = dict(zip(cb.tolist(), lines))

    # Capsules and rounded polygons: offset outlines.
    rpoly = np.flatnonzero(rounded & (count >= 2))
    if rpoly.size:
        k = _arc_points(float(r_px[rpoly].max()), math.pi)
        pts = _rounded_outlines(px[rpoly], count[rpoly], r_draw[rpoly], k)  # (q, 8, k, 2)
        for c in np.unique(count[rpoly]).tolist():
            sel = count[rpoly] == c
            put(rpoly[sel], pts[sel, :c])
        kind[rpoly] = 0

    # Sharp polygons, inset against Pillow's inclusive fill.
    spoly = np.flatnonzero(~rounded & (count >= 3))
    if spoly.size:
        inset = _inset_polygons(px[spoly], count[spoly], _POLY_INSET)
        for c in np.unique(count[spoly]).tolist():
            sel = count[spoly] == c
            put(spoly[sel], inset[sel, :c])
        kind[spoly] = 0

    # Segments: lines.
    seg = np.flatnonzero(~rounded & (count == 2))
    if seg.size:
        put(seg, px[seg, :2])
        kind[seg] = 1

    # Anything else (a zero-radius single point): a dot.
    dots = np.flatnonzero(kind == 2)
    if dots.size:
        put(dots, px[dots, 0])

    fills = fill.tolist()
    edges = edge.tolist()
    polygon, line, point = draw.polygon, draw.line, draw.point
    for i, k in enumerate(kind.tolist()):
        if k == 0:
            if lw == 1:
                polygon(flats[i], fill=fills[i], outline=edges[i])
            else:
                _polygon(draw, flats[i], fills[i], edges[i], lw)
            if spokes:
                sp = spokes.get(i)
                if sp is not None:
                    line(sp, fill=edges[i], width=lw)
        elif k == 1:
            line(flats[i], fill=edges[i], width=seg_w)
        else:
            point(flats[i], fill=edges[i])


def _polygon(draw: ImageDraw.ImageDraw, flat: list, fill: int, edge: int, width: int) -> None:
    if width == 1:
        draw.polygon(flat, fill=fill, outline=edge)
    else:
        draw.polygon(flat, fill=fill)
        draw.line(flat + flat[:2], fill=edge, width=width, joint="curve")


def _joint_polylines(world) -> list[list[tuple[float, float]]]:
    """World-space polylines of the joints drawn as lines (see ``render_frame(joints=...)``)."""
    from ..joints import DistanceJoint, MouseJoint, PulleyJoint

    lines = []
    for joint in getattr(world, "joints", ()):
        if isinstance(joint, PulleyJoint):
            lines.append([joint.world_anchor_a, joint.ground_anchor_a, joint.ground_anchor_b,
                          joint.world_anchor_b])
        elif isinstance(joint, DistanceJoint):
            lines.append([joint.world_anchor_a, joint.world_anchor_b])
        elif isinstance(joint, MouseJoint):
            lines.append([joint.world_anchor_b, joint.target])
    return lines


def _draw_joints(draw: ImageDraw.ImageDraw, world, tf: _Transform, ss: int) -> None:
    for line in _joint_polylines(world):
        pts = tf(np.asarray(line, dtype=np.float64))
        draw.line([tuple(p) for p in pts.tolist()], fill=_I_TEXT, width=max(1, ss))


def _draw_contacts(draw: ImageDraw.ImageDraw, world, tf: _Transform, ss: int) -> None:
    try:
        infos = world.contacts
    except AttributeError:
        return
    pts, nrm = [], []
    for info in infos:
        n = info.normal
        for cp in info.points:
            pts.append(cp.point)
            nrm.append(n)
    if not pts:
        return
    p = tf(np.asarray(pts, dtype=np.float64).reshape(-1, 2))
    n = np.asarray(nrm, dtype=np.float64).reshape(-1, 2)
    tip = p + 10.0 * ss * np.stack([n[:, 0], -n[:, 1]], -1)
    half = 1.5 * ss
    for (x, y), (tx, ty) in zip(p.tolist(), tip.tolist()):
        draw.line((x, y, tx, ty), fill=_I_CNORMAL, width=max(1, ss))
        draw.rectangle((x - half, y - half, x + half, y + half), fill=_I_CPOINT)


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
        """Write the animated GIF (looping forever) and return its path."""
        if not self.frames:
            raise ValueError("no frames captured")
        path = str(path)
        first, rest = self.frames[0], self.frames[1:]
        durations = self.durations_ms()
        first.save(path, format="GIF", save_all=True, append_images=rest,
                   duration=durations if len(durations) > 1 else durations[0], loop=0,
                   optimize=False, disposal=1)
        return path
