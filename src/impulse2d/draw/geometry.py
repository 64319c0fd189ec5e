"""What to draw: a world's debug picture as arrays, in world metres, culled to the camera's view.

:func:`build` reads the world's structure-of-arrays stores in bulk (one NumPy pass per layer, no
per-body Python calls) and returns a :class:`DrawList`; the back ends (pygame-ce, matplotlib,
Pillow) only rasterise its arrays. Sizes meant to look the same at every zoom (anchor circles,
arrow heads, normal lengths) are given in pixels and turned into metres with the camera's scale.

Every shape is a rounded convex polygon (see :mod:`impulse2d._collision`): ``count`` core
vertices (1 circle, 2 capsule or segment, 3..8 polygon) pushed out by ``radius``. Chain segments
are segments.
"""

from __future__ import annotations

import dataclasses
import math
import weakref

import numpy as np

from .. import _sleep
from .._core.state import CUSTOM, DISTANCE, DYNAMIC, KINEMATIC, MOTOR, MOUSE, PRISMATIC, \
    PULLEY, REVOLUTE, STATIC, WELD, WHEEL
from . import colors as C
from .camera import Camera
from .flags import Flags

__all__ = ["DrawList", "ContactMemory", "build", "world_bounds", "live_geometry", "memory_for"]

# Pixel sizes of the overlays (constant on screen whatever the zoom).
ANCHOR_PX = 4.0        # joint anchor circles, radius
REVOLUTE_PX = 8.0      # revolute joint's angle marks, length
LIMIT_TICK_PX = 6.0    # half length of prismatic/wheel limit ticks
NORMAL_PX = 15.0       # contact normal length
ARROW_PX = 40.0        # the largest impulse arrow when impulse_scale is None
HEAD_PX = 5.0          # arrow head length
AXIS_PX = 12.0         # centre of mass axes
POINT_PX = 2.0         # contact points, half size
GRAPH_POINT_PX = 3.0   # contact points drawn in graph colours, half size


def live_geometry(world, rows: np.ndarray | None = None) -> dict[str, np.ndarray] | None:
    """World-space geometry of live shapes (all, or store ``rows``), or None when there is none:
    ``rows``, ``body``, ``count``, ``radius``, ``verts`` (m, 8, 2) world vertices and ``rot``
    (m, 2) the body's (cos, sin)."""
    shapes = world._shapes
    bodies = world._bodies
    if rows is None:
        rows = np.flatnonzero(shapes.alive)
    if rows.size == 0:
        return None
    body = shapes.body[rows]
    local = shapes.vertices[rows]
    origin = bodies.origin[body]
    rot = bodies.rot[body]
    c = rot[:, 0:1]
    s = rot[:, 1:2]
    lx = local[..., 0]
    ly = local[..., 1]
    verts = np.stack([origin[:, 0:1] + c * lx - s * ly, origin[:, 1:2] + s * lx + c * ly], axis=-1)
    return {"rows": rows, "body": body, "count": shapes.count[rows].astype(np.int64),
            "radius": shapes.radius[rows].astype(np.float64), "verts": verts, "rot": rot}


def _extent(g) -> tuple[np.ndarray, np.ndarray]:
    """Per-shape world box: lo (m, 2), hi (m, 2), radius included (cached in ``g``)."""
    if "lo" not in g:
        # Unused vertex slots repeat vertex 0, which leaves the box as it is.
        v = g["verts"]
        used = (np.arange(8)[None, :] < np.maximum(g["count"], 1)[:, None])[..., None]
        v = np.where(used, v, v[:, :1])
        r = g["radius"][:, None]
        lo, hi = v[:, 0].copy(), v[:, 0].copy()
        for k in range(1, 8):
            np.minimum(lo, v[:, k], out=lo)
            np.maximum(hi, v[:, k], out=hi)
        g["lo"], g["hi"] = lo - r, hi + r
    return g["lo"], g["hi"]


def world_bounds(world) -> tuple[float, float, float, float] | None:
    """The world box ``(x0, y0, x1, y1)`` around every live shape, or None without shapes."""
    g = live_geometry(world)
    if g is None:
        return None
    lo, hi = _extent(g)
    x0, y0 = lo.min(axis=0)
    x1, y1 = hi.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


UNKNOWN, NEW, PERSISTED = 0, 1, 2
"""Contact point states of :meth:`ContactMemory.classify`."""


class ContactMemory:
    """The contact points of the last frame drawn, to tell new points from persisting ones.

    Box2D flags a manifold point "persisted" when the narrowphase matched it to the previous
    step's; impulse2d's contact store keeps the match only as the carried impulse, so the drawer
    remembers the (contact key, feature id) pairs of the frame before. With one frame per step
    the two definitions agree; a frame redrawn without a step (paused) keeps its colours. The
    first frame a memory sees has no frame before it: its points are UNKNOWN.
    """

    __slots__ = ("_uid", "_step", "_previous", "_current")

    def __init__(self) -> None:
        self._uid = None
        self._step = None
        self._previous = None
        self._current = None

    def classify(self, world, pairs: np.ndarray) -> np.ndarray:
        """State of each (key, id) row of ``pairs`` (p, 2) int64: UNKNOWN, NEW or PERSISTED."""
        tag = np.ascontiguousarray(pairs, dtype=np.int64).view(np.dtype((np.void, 16))).ravel()
        if self._uid != world._uid:
            self._uid, self._step = world._uid, None
            self._previous = self._current = None
        if self._step != world.step_count:
            self._previous, self._current, self._step = self._current, tag, world.step_count
        if self._previous is None:
            return np.full(tag.size, UNKNOWN, dtype=np.int64)
        if self._previous.size == 0 or tag.size == 0:
            return np.full(tag.size, NEW, dtype=np.int64)
        return np.where(np.isin(tag, self._previous), PERSISTED, NEW)


_MEMORIES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def memory_for(world) -> ContactMemory:
    """The contact memory of one-off drawings of ``world`` (:func:`impulse2d.draw.image` without
    a ``memory``): successive pictures of a stepping world tell new points from persisting ones."""
    memory = _MEMORIES.get(world)
    if memory is None:
        memory = _MEMORIES[world] = ContactMemory()
    return memory


@dataclasses.dataclass
class DrawList:
    """One frame's primitives, in world metres; colours (k, 3) uint8 RGB.

    * shapes: ``shape_verts`` (m, 8, 2) core vertices, ``shape_count``, ``shape_radius``,
      ``shape_axis`` (m, 2) the body's x axis (a circle's radius line), ``shape_fill``,
      ``shape_edge``, ``shape_rows`` (shape store rows) and ``shape_body`` (body rows).
    * ``lines`` (k, 2, 2) with ``line_color``: joints, boxes, normals, arrows (heads included).
    * ``points`` (p, 2) with ``point_px`` (half size in pixels) and ``point_color``.
    * ``texts``: (x, y, string, colour).
    """

    camera: Camera
    size: tuple[int, int]
    shape_verts: np.ndarray
    shape_count: np.ndarray
    shape_radius: np.ndarray
    shape_axis: np.ndarray
    shape_fill: np.ndarray
    shape_edge: np.ndarray
    shape_rows: np.ndarray
    shape_body: np.ndarray
    lines: np.ndarray
    line_color: np.ndarray
    points: np.ndarray
    point_px: np.ndarray
    point_color: np.ndarray
    texts: list

    @property
    def view(self) -> tuple[float, float, float, float]:
        return self.camera.view(self.size)


class _Collector:
    """Line and point batches from several layers, concatenated once."""

    def __init__(self) -> None:
        self.lines: list[np.ndarray] = []
        self.line_colors: list[np.ndarray] = []
        self.points: list[np.ndarray] = []
        self.point_px: list[np.ndarray] = []
        self.point_colors: list[np.ndarray] = []

    def add_lines(self, a: np.ndarray, b: np.ndarray, color) -> None:
        a = np.asarray(a, dtype=np.float64).reshape(-1, 2)
        b = np.asarray(b, dtype=np.float64).reshape(-1, 2)
        if a.shape[0] == 0:
            return
        self.lines.append(np.stack([a, b], axis=1))
        col = np.asarray(color, dtype=np.uint8)
        self.line_colors.append(np.broadcast_to(col, (a.shape[0], 3)) if col.ndim == 1 else col)

    def add_polyline(self, pts: np.ndarray, color) -> None:
        """``pts`` (k, n, 2): k polylines of n points each."""
        pts = np.asarray(pts, dtype=np.float64)
        if pts.shape[0] == 0:
            return
        col = np.asarray(color, dtype=np.uint8)
        n = pts.shape[1]
        if col.ndim == 2:
            col = np.repeat(col, n - 1, axis=0)
        self.add_lines(pts[:, :-1].reshape(-1, 2), pts[:, 1:].reshape(-1, 2), col)

    def add_arrows(self, start: np.ndarray, vec: np.ndarray, color, head: float) -> None:
        """Arrows from ``start`` along ``vec`` (world), heads ``head`` metres long."""
        start = np.asarray(start, dtype=np.float64).reshape(-1, 2)
        vec = np.asarray(vec, dtype=np.float64).reshape(-1, 2)
        length = np.hypot(vec[:, 0], vec[:, 1])
        keep = length > 1e-12
        start, vec, length = start[keep], vec[keep], length[keep]
        if start.shape[0] == 0:
            return
        col = np.asarray(color, dtype=np.uint8)
        if col.ndim == 2:
            col = col[keep]
        tip = start + vec
        u = vec / length[:, None]
        h = np.minimum(head, 0.5 * length)[:, None]
        back = tip - h * u
        side = 0.5 * h * np.stack([-u[:, 1], u[:, 0]], axis=-1)
        self.add_lines(start, tip, col)
        self.add_lines(tip, back + side, col)
        self.add_lines(tip, back - side, col)

    def add_points(self, p: np.ndarray, px: float, color) -> None:
        p = np.asarray(p, dtype=np.float64).reshape(-1, 2)
        if p.shape[0] == 0:
            return
        self.points.append(p)
        self.point_px.append(np.full(p.shape[0], float(px)))
        col = np.asarray(color, dtype=np.uint8)
        self.point_colors.append(np.broadcast_to(col, (p.shape[0], 3)) if col.ndim == 1 else col)

    def add_box(self, lo: np.ndarray, hi: np.ndarray, color) -> None:
        lo = np.asarray(lo, dtype=np.float64).reshape(-1, 2)
        hi = np.asarray(hi, dtype=np.float64).reshape(-1, 2)
        c = np.stack([lo, np.stack([hi[:, 0], lo[:, 1]], -1), hi,
                      np.stack([lo[:, 0], hi[:, 1]], -1), lo], axis=1)
        col = np.asarray(color, dtype=np.uint8)
        self.add_polyline(c, col)

    def finish(self, view, pad: float):
        x0, y0, x1, y1 = view
        if self.lines:
            lines = np.concatenate(self.lines)
            lcol = np.ascontiguousarray(np.concatenate(self.line_colors))
            lo = np.minimum(lines[:, 0], lines[:, 1])
            hi = np.maximum(lines[:, 0], lines[:, 1])
            vis = (hi[:, 0] >= x0 - pad) & (lo[:, 0] <= x1 + pad) & (hi[:, 1] >= y0 - pad) & (
                lo[:, 1] <= y1 + pad)
            if not vis.all():       # a fitted view sees everything: no copy of 10^5 rows
                lines, lcol = lines[vis], lcol[vis]
        else:
            lines, lcol = np.zeros((0, 2, 2)), np.zeros((0, 3), np.uint8)
        if self.points:
            pts = np.concatenate(self.points)
            ppx = np.concatenate(self.point_px)
            pcol = np.ascontiguousarray(np.concatenate(self.point_colors))
            vis = (pts[:, 0] >= x0 - pad) & (pts[:, 0] <= x1 + pad) & (pts[:, 1] >= y0 - pad) & (
                pts[:, 1] <= y1 + pad)
            if not vis.all():
                pts, ppx, pcol = pts[vis], ppx[vis], pcol[vis]
        else:
            pts, ppx, pcol = np.zeros((0, 2)), np.zeros(0), np.zeros((0, 3), np.uint8)
        return lines, lcol, pts, ppx, pcol


def _rot(angle: np.ndarray) -> np.ndarray:
    return np.stack([np.cos(angle), np.sin(angle)], axis=-1)


def build(world, camera: Camera, size, flags: Flags | None = None,
          memory: ContactMemory | None = None, classic: bool = False) -> DrawList:
    """The debug picture of ``world`` as seen by ``camera`` on a canvas of ``size`` (w, h).

    ``memory`` tells new contact points from persisting ones across frames (without it, or on
    its first frame, the points are drawn in the neutral contact colour). ``classic`` draws
    joints as :mod:`impulse2d.render` always did (only the ropes: pulleys, distance and mouse
    joints) and contacts in its red and orange.
    """
    if flags is None:
        flags = Flags()
    if not isinstance(flags, Flags):
        raise TypeError(f"flags must be an impulse2d.draw.Flags, got {type(flags).__name__}")
    if not isinstance(camera, Camera):
        raise TypeError(f"camera must be an impulse2d.draw.Camera, got {type(camera).__name__}")
    size = (int(size[0]), int(size[1]))
    view = camera.view(size)
    px = 1.0 / camera.scale           # metres per pixel
    col = _Collector()

    g = live_geometry(world) if (flags.shapes or flags.aabbs or flags.islands) else None
    label = _sleep.labels(world) if flags.islands else None
    shapes = _shapes(world, g, view, px, flags, classic, label) if flags.shapes else None
    if flags.aabbs:
        _aabbs(g, col)
    if flags.islands:
        _island_boxes(g, label, col)
    if flags.joints:
        (_ropes if classic else _joints)(world, col, px)
    if flags.contacts or flags.normals or flags.impulses or flags.friction or flags.graph_colors:
        _contacts(world, col, px, flags, memory, classic)
    if flags.centers or flags.velocities:
        _bodies(world, col, px, flags)

    lines, lcol, pts, ppx, pcol = col.finish(view, pad=4.0 * px)
    if shapes is None:
        shapes = _no_shapes()
    return DrawList(camera, size, *shapes, lines, lcol, pts, ppx, pcol, [])


def _no_shapes():
    return (np.zeros((0, 8, 2)), np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 2)),
            np.zeros((0, 3), np.uint8), np.zeros((0, 3), np.uint8), np.zeros(0, np.int64),
            np.zeros(0, np.int64))


def _shapes(world, g, view, px, flags: Flags, classic: bool, label):
    if g is None:
        return None
    lo, hi = _extent(g)
    x0, y0, x1, y1 = view
    pad = 2.0 * px
    vis = (hi[:, 0] >= x0 - pad) & (lo[:, 0] <= x1 + pad) & (hi[:, 1] >= y0 - pad) & (
        lo[:, 1] <= y1 + pad)
    if not vis.all():
        g = {k: v[vis] for k, v in g.items() if k not in ("lo", "hi")}
    body = g["body"]
    m = body.shape[0]
    bodies = world._bodies
    btype = bodies.type[body]
    fill = np.empty((m, 3), np.uint8)
    edge = np.empty((m, 3), np.uint8)
    if flags.sleep and not classic:
        # Box2D's rule, the first match wins: assign from the last rule to the first.
        fill[:] = C.ASLEEP
        dyn = btype == DYNAMIC
        asleep = bodies.asleep[body]
        fill[dyn & ~asleep] = C.AWAKE
        fill[btype == KINEMATIC] = C.KINEMATIC
        fill[btype == STATIC] = C.STATIC
        fill[dyn & ~asleep & bodies.bullet[body]] = C.BULLET
        fill[world._shapes.is_sensor[g["rows"]]] = C.SENSOR
        fill[dyn & (bodies.mass[body] <= 0.0)] = C.BAD_BODY
        edge[:] = C.darker(fill)
    else:
        fill[:] = C.STATIC_FILL
        edge[:] = C.STATIC_OUTLINE
        fill[btype == KINEMATIC] = C.KINEMATIC_FILL
        edge[btype == KINEMATIC] = C.KINEMATIC_OUTLINE
        dyn = btype == DYNAMIC
        slot = C.hash_rows(body[dyn], C.N_DYNAMIC_COLOURS)
        fill[dyn] = C.DYNAMIC_FILLS[slot]
        edge[dyn] = C.DYNAMIC_EDGES[slot]
    if flags.islands:
        label = label[body]
        inl = label >= 0
        slot = C.hash_rows(label[inl], C.N_ISLAND_COLOURS)
        fill[inl] = C.ISLAND_FILLS[slot]
        edge[inl] = C.ISLAND_EDGES[slot]
    return (g["verts"], g["count"], g["radius"], g["rot"], fill, edge, g["rows"], body)


def _aabbs(g, col: _Collector) -> None:
    if g is None:
        return
    lo, hi = _extent(g)
    col.add_box(lo, hi, C.AABB)


def _island_boxes(g, label, col: _Collector) -> None:
    if g is None:
        return
    label = label[g["body"]]
    inl = label >= 0
    if not inl.any():
        return
    lo, hi = _extent(g)
    label, lo, hi = label[inl], lo[inl], hi[inl]
    ids, inv = np.unique(label, return_inverse=True)
    blo = np.full((ids.size, 2), np.inf)
    bhi = np.full((ids.size, 2), -np.inf)
    np.minimum.at(blo, inv, lo)
    np.maximum.at(bhi, inv, hi)
    col.add_box(blo, bhi, C.ISLAND_EDGES[C.hash_rows(ids, C.N_ISLAND_COLOURS)])


def _anchors(world, rows):
    jt = world._joints
    b = world._bodies
    out = []
    for side in ("a", "b"):
        body = getattr(jt, f"body_{side}")[rows]
        local = getattr(jt, f"local_anchor_{side}")[rows]
        rot = b.rot[body]
        out.append(b.origin[body] + np.stack([rot[:, 0] * local[:, 0] - rot[:, 1] * local[:, 1],
                                              rot[:, 1] * local[:, 0] + rot[:, 0] * local[:, 1]], -1))
    return out


def _ropes(world, col: _Collector, px: float) -> None:
    """render_frame's joints: the lines of pulleys, distance joints and mouse drags."""
    jt = world._joints
    rows = np.flatnonzero(jt.alive)
    if rows.size == 0:
        return
    pa, pb = _anchors(world, rows)
    kind = jt.type[rows]
    d = kind == DISTANCE
    col.add_lines(pa[d], pb[d], C.ROPE)
    m = kind == MOUSE
    col.add_lines(pb[m], jt.target[rows[m]], C.ROPE)
    p = kind == PULLEY
    col.add_polyline(np.stack([pa[p], jt.ground_a[rows[p]], jt.ground_b[rows[p]], pb[p]], 1), C.ROPE)


def _circle_polylines(centre: np.ndarray, radius: float, n: int = 16) -> np.ndarray:
    t = np.linspace(0.0, 2.0 * math.pi, n + 1)
    ring = np.stack([np.cos(t), np.sin(t)], -1) * radius
    return centre[:, None, :] + ring[None]


def _joints(world, col: _Collector, px: float) -> None:
    """Box2D's joint drawing: body origins to anchors, the anchors joined, and per type its
    extras (a revolute's anchor circle, angle and limits; a slider's axis and limit ticks; a
    pulley's rope; a mouse drag's target)."""
    jt = world._joints
    rows = np.flatnonzero(jt.alive)
    if rows.size == 0:
        return
    b = world._bodies
    pa, pb = _anchors(world, rows)
    kind = jt.type[rows]
    ba, bb = jt.body_a[rows], jt.body_b[rows]
    oa, ob = b.origin[ba], b.origin[bb]

    plain = np.isin(kind, (REVOLUTE, PRISMATIC, WELD, WHEEL, CUSTOM))
    col.add_lines(oa[plain], pa[plain], C.JOINT)
    col.add_lines(pa[plain], pb[plain], C.JOINT)
    col.add_lines(ob[plain], pb[plain], C.JOINT)
    anchored = np.isin(kind, (REVOLUTE, PRISMATIC, WELD, WHEEL, DISTANCE, PULLEY, CUSTOM))
    col.add_points(pa[anchored], 2.0, C.JOINT)
    col.add_points(pb[anchored], 2.0, C.JOINT)

    r = np.flatnonzero(kind == REVOLUTE)
    if r.size:
        col.add_polyline(_circle_polylines(pa[r], ANCHOR_PX * px), C.JOINT)
        j = rows[r]
        base = b.angle[ba[r]] + jt.reference_angle[j]       # where joint angle 0 points
        reach = REVOLUTE_PX * px
        # The joint angle is angle_b - angle_a - reference: its mark points along body B's angle.
        col.add_lines(pa[r], pa[r] + reach * _rot(b.angle[bb[r]]), C.JOINT)
        lim = jt.enable_limit[j]
        if lim.any():
            rl, jl = r[lim], j[lim]
            for bound in (jt.lower[jl], jt.upper[jl]):
                col.add_lines(pa[rl], pa[rl] + reach * _rot(base[lim] + bound), C.JOINT_LIMIT)

    s = np.flatnonzero((kind == PRISMATIC) | (kind == WHEEL))
    if s.size:
        j = rows[s]
        rot = b.rot[ba[s]]
        la = jt.local_axis_a[j]
        axis = np.stack([rot[:, 0] * la[:, 0] - rot[:, 1] * la[:, 1],
                         rot[:, 1] * la[:, 0] + rot[:, 0] * la[:, 1]], -1)
        lim = jt.enable_limit[j]
        lower = np.where(lim, jt.lower[j], -3.0 * ANCHOR_PX * px)
        upper = np.where(lim, jt.upper[j], 3.0 * ANCHOR_PX * px)
        col.add_lines(pa[s] + lower[:, None] * axis, pa[s] + upper[:, None] * axis, C.JOINT_AXIS)
        if lim.any():
            perp = np.stack([-axis[:, 1], axis[:, 0]], -1)[lim] * (LIMIT_TICK_PX * px)
            for bound in (lower[lim], upper[lim]):
                c = pa[s][lim] + bound[:, None] * axis[lim]
                col.add_lines(c - perp, c + perp, C.JOINT_LIMIT)

    d = kind == DISTANCE
    col.add_lines(pa[d], pb[d], C.ROPE)
    m = np.flatnonzero(kind == MOUSE)
    if m.size:
        target = jt.target[rows[m]]
        col.add_lines(pb[m], target, C.ROPE)
        col.add_points(target, 3.0, C.JOINT_LIMIT)
    p = kind == PULLEY
    col.add_polyline(np.stack([pa[p], jt.ground_a[rows[p]], jt.ground_b[rows[p]], pb[p]], 1), C.ROPE)
    mo = kind == MOTOR
    col.add_lines(b.center[ba[mo]], b.center[bb[mo]], C.JOINT)


def _graph_colors(world) -> np.ndarray:
    """The constraint-graph colour of every contact row (-1: not coloured), as the step's
    colouring (:mod:`impulse2d._dynamics.constraint_graph`) gives it for the world as it is now."""
    from .._dynamics.constraint_graph import COLOR_COUNT, color_contacts

    c = world._contacts
    b = world._bodies
    order, starts = color_contacts(c.count, c.body_a, c.body_b, b.type, b.asleep,
                                   b.type.shape[0], COLOR_COUNT, np.empty(0, np.int64), -1)
    colour = np.full(c.count.shape[0], -1, dtype=np.int64)
    colour[order] = np.repeat(np.arange(COLOR_COUNT + 1), np.diff(starts))
    return colour


def _contacts(world, col: _Collector, px: float, flags: Flags, memory, classic: bool) -> None:
    c = world._contacts
    rows = np.flatnonzero(c.count > 0)
    if rows.size == 0:
        if flags.contacts and memory is not None and not classic:
            memory.classify(world, np.zeros((0, 2), np.int64))   # a frame without points
        return
    cnt = c.count[rows]
    which = np.arange(2)[None, :] < cnt[:, None]                  # (k, 2) live points
    k_idx, j_idx = np.nonzero(which)
    crow = rows[k_idx]
    p = c.point[crow, j_idx]
    n = c.normal[crow]
    if flags.graph_colors:          # first: a contact point drawn over it leaves a coloured rim
        g = _graph_colors(world)[crow]
        keep = g >= 0
        col.add_points(p[keep], GRAPH_POINT_PX, C.GRAPH_COLOURS[g[keep]])
    if flags.contacts:
        if classic:
            col.add_points(p, 1.5, C.CONTACT_POINT)
        else:
            pairs = np.stack([c.key[crow], c.ids[crow, j_idx]], axis=-1)
            state = memory.classify(world, pairs) if memory is not None else np.full(
                p.shape[0], UNKNOWN)
            colour = np.array([C.CONTACT_POINT, C.CONTACT_NEW, C.CONTACT_PERSIST],
                              dtype=np.uint8)[state]
            col.add_points(p, POINT_PX, colour)
    if flags.normals:
        col.add_lines(p, p + (10.0 if classic else NORMAL_PX) * px * n,
                      C.CONTACT_NORMAL)
    if flags.impulses or flags.friction:
        ni = c.total_normal_impulse[crow, j_idx]
        ti = c.total_tangent_impulse[crow, j_idx]
        t = np.stack([n[:, 1], -n[:, 0]], -1)                     # the solver's tangent
        scale = flags.impulse_scale
        if scale is None:
            biggest = max(np.abs(ni).max() if flags.impulses else 0.0,
                          np.abs(ti).max() if flags.friction else 0.0)
            scale = ARROW_PX * px / biggest if biggest > 0.0 else 0.0
        head = HEAD_PX * px
        if flags.impulses:
            col.add_arrows(p, (scale * ni)[:, None] * n, C.NORMAL_IMPULSE, head)
        if flags.friction:
            col.add_arrows(p, (scale * ti)[:, None] * t, C.FRICTION_IMPULSE, head)


def _bodies(world, col: _Collector, px: float, flags: Flags) -> None:
    b = world._bodies
    rows = np.flatnonzero(b.alive & (b.type != STATIC))
    if rows.size == 0:
        return
    centre = b.center[rows]
    if flags.centers:
        rot = b.rot[rows]
        reach = AXIS_PX * px
        col.add_lines(centre, centre + reach * rot, C.CENTER_X)
        col.add_lines(centre, centre + reach * np.stack([-rot[:, 1], rot[:, 0]], -1), C.CENTER_Y)
    if flags.velocities:
        col.add_arrows(centre, flags.velocity_scale * b.v[rows], C.VELOCITY, HEAD_PX * px)
