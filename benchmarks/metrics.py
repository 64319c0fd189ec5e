"""Engine-independent metrics, computed from body states only.

A state array is ``(N, 6)``: x, y, angle, vx, vy, w per body in creation order (what
``Engine.states()`` returns).  ``idx`` is the scene's ``SceneInfo.bodies`` with creation indices
instead of handles and ``data`` its ``SceneInfo.data``.  Geometric overlap is measured on the
*nominal* shapes (1 m boxes, the ground box, r = 0.25 m circles) with a separating-axis test, so
it does not depend on what an engine reports about its contacts (Box2D 2.3's 1 cm polygon skin
shows up as a gap, not as overlap).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["pyramid_metrics", "many_pyramids_metrics", "rain_metrics", "BounceTracker",
           "restitution_metrics", "friction_ramp_metrics", "obb_overlap", "TILT_LIMIT_DEG",
           "JointGapTracker", "joint_gaps"]

TILT_LIMIT_DEG = 10.0
ROW_RISE_MIN = 0.5


def _wrap(a):
    """Angle wrapped to (-pi, pi]."""
    return np.arctan2(np.sin(a), np.cos(a))


# --------------------------------------------------------------------------------------------
# geometry: oriented boxes, separating axes
# --------------------------------------------------------------------------------------------

def obb_overlap(ca, aa, ha, cb, ab, hb):
    """Penetration depth of pairs of oriented boxes (0 where they are apart).

    ``ca``/``cb`` (K, 2) centres, ``aa``/``ab`` (K,) angles, ``ha``/``hb`` (K, 2) half extents.
    The depth is the smallest overlap of the projections over the four face normals (the
    separating-axis test's minimum translation distance).
    """
    ca, cb = np.atleast_2d(ca), np.atleast_2d(cb)
    ha, hb = np.broadcast_to(ha, ca.shape), np.broadcast_to(hb, cb.shape)
    ua = np.stack([np.cos(aa), np.sin(aa)], -1)
    va = np.stack([-np.sin(aa), np.cos(aa)], -1)
    ub = np.stack([np.cos(ab), np.sin(ab)], -1)
    vb = np.stack([-np.sin(ab), np.cos(ab)], -1)
    d = cb - ca
    depth = np.full(len(ca), np.inf)
    for axis in (ua, va, ub, vb):
        ra = ha[:, 0] * np.abs(np.sum(ua * axis, -1)) + ha[:, 1] * np.abs(np.sum(va * axis, -1))
        rb = hb[:, 0] * np.abs(np.sum(ub * axis, -1)) + hb[:, 1] * np.abs(np.sum(vb * axis, -1))
        depth = np.minimum(depth, ra + rb - np.abs(np.sum(d * axis, -1)))
    return np.maximum(depth, 0.0)


def _near_pairs(xy, cell):
    """Index pairs (i < j) of points in the same or neighbouring grid cells of size ``cell``."""
    if len(xy) < 2:
        return np.empty(0, int), np.empty(0, int)
    keys = np.floor(xy / cell).astype(np.int64)
    cells: dict[tuple[int, int], list[int]] = {}
    for i, (kx, ky) in enumerate(keys.tolist()):
        cells.setdefault((kx, ky), []).append(i)
    ii, jj = [], []
    for (kx, ky), members in cells.items():
        for dx, dy in ((0, 0), (1, 0), (1, 1), (0, 1), (-1, 1)):
            other = members if (dx, dy) == (0, 0) else cells.get((kx + dx, ky + dy))
            if not other:
                continue
            for a in members:
                for b in other:
                    if (dx, dy) == (0, 0) and b <= a:
                        continue
                    ii.append(a)
                    jj.append(b)
    return np.asarray(ii, int), np.asarray(jj, int)


def _box_overlaps(s, boxes, half, grounds):
    """Deepest overlap and count over 1 cm among unit boxes and with their ground boxes.

    ``grounds``: list of (centre, angle, half extents) of static boxes.
    """
    xy, ang = s[boxes, :2], s[boxes, 2]
    i, j = _near_pairs(xy, 2.0 * math.hypot(half, half) + 1e-9)
    h = np.array([half, half])
    depth = obb_overlap(xy[i], ang[i], h, xy[j], ang[j], h) if len(i) else np.zeros(0)
    parts = [depth]
    for c, a, hg in grounds:
        cg = np.broadcast_to(np.asarray(c, float), xy.shape)
        parts.append(obb_overlap(xy, ang, h, cg, np.full(len(xy), a), np.asarray(hg, float)))
    allv = np.concatenate(parts) if parts else np.zeros(0)
    return (float(allv.max()) if allv.size else 0.0), int(np.sum(allv > 0.01))


# --------------------------------------------------------------------------------------------
# pyramids
# --------------------------------------------------------------------------------------------

def _pyramid_shape(s0, s, rows):
    """Standing test and displacement numbers of one pyramid given as rows of body indices."""
    tilt_ok = True
    order_ok = True
    rise_ok = True
    prev_mean = None
    for row in rows:
        r = np.asarray(row)
        if np.any(np.abs(np.degrees(_wrap(s[r, 2]))) > TILT_LIMIT_DEG):
            tilt_ok = False
        if len(r) > 1 and np.any(np.diff(s[r, 0]) <= 0.0):
            order_ok = False
        mean_y = float(np.mean(s[r, 1]))
        if prev_mean is not None and not mean_y - prev_mean > ROW_RISE_MIN:
            rise_ok = False
        prev_mean = mean_y
    return tilt_ok and order_ok and rise_ok, {"tilt_ok": tilt_ok, "order_ok": order_ok,
                                              "rise_ok": rise_ok}


def pyramid_metrics(s0, s, idx, data, overlap=True):
    """Pyramid stability: ``standing`` (no box turned > 10 deg, every row kept its left-to-right
    order, every row's mean y > 0.5 m above the row below), top box displacement, largest
    drop / sideways move / tilt of any box, and the nominal-geometry overlap."""
    rows = idx["rows"]
    boxes = np.asarray(idx["boxes"])
    top = idx["top"]
    standing, parts = _pyramid_shape(s0, s, rows)
    d = s[boxes, :2] - s0[boxes, :2]
    out = {
        "standing": bool(standing), **parts,
        "top_dy": float(s[top, 1] - s0[top, 1]),
        "top_dx": float(s[top, 0] - s0[top, 0]),
        "max_abs_dx": float(np.max(np.abs(d[:, 0]))),
        "max_drop": float(max(0.0, -np.min(d[:, 1]))),
        "max_tilt_deg": float(np.max(np.abs(np.degrees(_wrap(s[boxes, 2] - s0[boxes, 2]))))),
        "moved_gt_0_5": int(np.sum(np.hypot(d[:, 0], d[:, 1]) > 0.5)),
        "finite": bool(np.all(np.isfinite(s))),
    }
    if overlap:
        g = idx["ground"]
        half = float(data.get("box_half", 0.5))
        ground = ((s[g, 0], s[g, 1]), s[g, 2], (0.5 * data["base"] + 20.0, 0.5))
        out["max_overlap"], out["overlaps_gt_1cm"] = _box_overlaps(s, boxes, half, [ground])
    return out


def many_pyramids_metrics(s0, s, idx, data, overlap=True):
    """Per-pyramid standing test; ``standing`` counts standing pyramids out of ``pyramids``."""
    standing = 0
    top_dy = []
    for rows in idx["pyramids"]:
        ok, _ = _pyramid_shape(s0, s, rows)
        standing += int(ok)
        t = rows[-1][0]
        top_dy.append(s[t, 1] - s0[t, 1])
    boxes = np.asarray(idx["boxes"])
    d = s[boxes, :2] - s0[boxes, :2]
    top_dy = np.asarray(top_dy)
    out = {
        "standing": int(standing), "pyramids": len(idx["pyramids"]),
        "top_dy_mean": float(np.mean(top_dy)), "top_dy_min": float(np.min(top_dy)),
        "top_dy_max": float(np.max(top_dy)),
        "max_abs_dx": float(np.max(np.abs(d[:, 0]))),
        "max_drop": float(max(0.0, -np.min(d[:, 1]))),
        "max_tilt_deg": float(np.max(np.abs(np.degrees(_wrap(s[boxes, 2] - s0[boxes, 2]))))),
        "moved_gt_0_5": int(np.sum(np.hypot(d[:, 0], d[:, 1]) > 0.5)),
        "finite": bool(np.all(np.isfinite(s))),
    }
    if overlap:
        half = float(data.get("box_half", 0.5))
        grid, base, spacing = data["grid"], data["base"], data["spacing"]
        hxg = 0.5 * ((grid - 1) * spacing + base + 4.0)
        grounds = [((s[g, 0], s[g, 1]), s[g, 2], (hxg, 0.5)) for g in idx["grounds"]]
        out["max_overlap"], out["overlaps_gt_1cm"] = _box_overlaps(s, boxes, half, grounds)
    return out


# --------------------------------------------------------------------------------------------
# rain
# --------------------------------------------------------------------------------------------

def rain_metrics(s0, s, idx, data):
    """``escaped``: circles whose centre left the container (|x| > 20 or y < 0); ``pile_top``:
    highest circle top; mean speed; deepest circle-circle / circle-container overlap."""
    c = np.asarray(idx["circles"])
    r = float(data["radius"])
    w = float(data["inner_half_width"])
    floor_top = float(data.get("floor_top", 0.0))
    xy = s[c, :2]
    inside = (np.abs(xy[:, 0]) <= w) & (xy[:, 1] >= floor_top)
    speed = np.hypot(s[c, 3], s[c, 4])
    i, j = _near_pairs(xy, 2.0 * r + 1e-9)
    cc = 2.0 * r - np.hypot(*(xy[i] - xy[j]).T) if len(i) else np.zeros(0)
    xin = xy[inside]                 # escaped circles are counted as such, not as overlap
    walls = np.concatenate([r - (xin[:, 1] - floor_top), r - (w - xin[:, 0]), r - (xin[:, 0] + w)])
    allv = np.maximum(np.concatenate([cc, walls]), 0.0)
    return {
        "escaped": int(np.sum(~inside)),
        "pile_top": float(np.max(xy[inside, 1]) + r) if np.any(inside) else float("nan"),
        "mean_speed": float(np.mean(speed)) if len(c) else 0.0,
        "max_speed": float(np.max(speed)) if len(c) else 0.0,
        "max_overlap": float(allv.max()) if allv.size else 0.0,
        "overlaps_gt_1cm": int(np.sum(allv > 0.01)),
        "finite": bool(np.all(np.isfinite(s))),
    }


# --------------------------------------------------------------------------------------------
# restitution
# --------------------------------------------------------------------------------------------

class BounceTracker:
    """Follows the balls of ``bouncing_balls`` step by step (call :meth:`update` after each step,
    outside any timed region).  A bounce starts when vy goes from below -0.05 to above +0.05 m/s;
    its apex is the highest sample of the ball's lowest point until vy <= 0."""

    V_EPS = 0.05

    def __init__(self, idx, data):
        self.balls = np.asarray(idx["balls"])
        self.r = float(data["radius"])
        self.ground = float(data.get("ground_top", 0.0))
        n = len(self.balls)
        self.apexes: list[list[float]] = [[] for _ in range(n)]
        self.rising = [False] * n
        self.was_falling = [False] * n
        self.lowest = np.full(n, np.inf)

    def update(self, s):
        b = s[self.balls]
        bottom = b[:, 1] - self.r - self.ground
        self.lowest = np.minimum(self.lowest, bottom)
        for k, (h, vy) in enumerate(zip(bottom.tolist(), b[:, 4].tolist())):
            if self.rising[k]:
                if vy <= 0.0:
                    self.rising[k] = False
                else:
                    self.apexes[k][-1] = max(self.apexes[k][-1], h)
            if vy < -self.V_EPS:
                self.was_falling[k] = True
            elif vy > self.V_EPS and self.was_falling[k]:
                self.was_falling[k] = False
                self.rising[k] = True
                self.apexes[k].append(h)


def restitution_metrics(tracker, data):
    out = {}
    for k, e in enumerate(data["restitutions"]):
        apex = tracker.apexes[k][:3]
        analytic = data["analytic_apex"][k]
        out[f"e{e:g}"] = {
            "apex": [float(a) for a in apex],
            "analytic": [float(a) for a in analytic],
            "rel_err": [float((a - b) / b) if b > 0 else None for a, b in zip(apex, analytic)],
            "bounces": len(tracker.apexes[k]),
            "lowest_bottom": float(tracker.lowest[k]),
        }
    return out


# --------------------------------------------------------------------------------------------
# friction ramp
# --------------------------------------------------------------------------------------------

def friction_ramp_metrics(s0, s, idx, data, t=None):
    """Displacement of each box down the slope against ``0.5 g (sin th - mu cos th) t^2``
    (0 when mu >= tan th); ``slid`` = more than 1 cm."""
    g = float(data.get("gravity", 10.0))
    th = math.radians(data["angle_deg"])
    down = np.asarray(data["down_slope"])
    t = data["time"] if t is None else t
    out = {}
    for k, mu in enumerate(data["mus"]):
        b = idx["boxes"][k]
        disp = float(np.dot(s[b, :2] - s0[b, :2], down))
        ana = max(0.0, 0.5 * g * (math.sin(th) - mu * math.cos(th)) * t * t)
        out[f"mu{mu:g}"] = {"displacement": disp, "analytic": ana, "slid": disp > 0.01,
                            "analytic_slides": ana > 0.0, "error": disp - ana}
    return out


# --------------------------------------------------------------------------------------------
# joints
# --------------------------------------------------------------------------------------------

class JointGapTracker:
    """Revolute joint error: the distance between a joint's anchor as carried by body A and by
    body B (world coordinates).  The joints come from ``data["joints"]``, ``(a, b, anchor)``
    with ``a``/``b`` indices into ``idx["all"]``; each anchor is fixed in its body's frame from
    the initial states ``s0``, so the gap is measured from body states alone, for any engine.
    """

    def __init__(self, s0, idx, data):
        allb = np.asarray(idx["all"], dtype=np.int64)
        defs = data["joints"]
        self.a = allb[np.array([d[0] for d in defs], dtype=np.int64)]
        self.b = allb[np.array([d[1] for d in defs], dtype=np.int64)]
        anchor = np.array([d[2] for d in defs], dtype=np.float64).reshape(-1, 2)
        self.la = self._to_local(s0[self.a], anchor)
        self.lb = self._to_local(s0[self.b], anchor)
        self.max_over_run = 0.0
        self.samples = 0

    @staticmethod
    def _to_local(st, p):
        c, s = np.cos(st[:, 2]), np.sin(st[:, 2])
        d = p - st[:, :2]
        return np.column_stack([c * d[:, 0] + s * d[:, 1], -s * d[:, 0] + c * d[:, 1]])

    @staticmethod
    def _to_world(st, q):
        c, s = np.cos(st[:, 2]), np.sin(st[:, 2])
        return st[:, :2] + np.column_stack([c * q[:, 0] - s * q[:, 1], s * q[:, 0] + c * q[:, 1]])

    def gaps(self, s):
        d = self._to_world(s[self.a], self.la) - self._to_world(s[self.b], self.lb)
        return np.hypot(d[:, 0], d[:, 1])

    def update(self, s):
        g = self.gaps(s)
        m = float(np.max(g)) if len(g) else 0.0
        self.max_over_run = math.inf if not math.isfinite(m) else max(self.max_over_run, m)
        self.samples += 1
        return g


def joint_gaps(tracker, s):
    """End-of-run joint metrics: max and mean gap now, the max over the sampled run, the
    count of joints over 1 cm and 10 cm, and whether any state is NaN/inf."""
    g = tracker.gaps(s)
    finite = bool(np.all(np.isfinite(s)))
    return {"joints": int(len(g)), "gap_max": float(np.max(g)) if len(g) else 0.0,
            "gap_mean": float(np.mean(g)) if len(g) else 0.0,
            "gap_max_run": max(tracker.max_over_run, float(np.max(g)) if len(g) else 0.0),
            "samples": tracker.samples,
            "gaps_gt_1cm": int(np.sum(g > 0.01)), "gaps_gt_10cm": int(np.sum(g > 0.1)),
            "finite": finite,
            "lowest_y": float(np.min(s[:, 1])) if len(s) else None}
