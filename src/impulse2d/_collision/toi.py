"""Time of impact of a shape swept along a body's motion against a fixed shape.

Continuous collision (:mod:`impulse2d._dynamics.continuous`) asks when, within one step, a fast
body's shape first comes within a small gap of another shape held at its end-of-step pose. The
fast body's centre of mass moves on a straight line and its angle grows linearly (the step's
motion, interpolated by the fraction ``t`` in [0, 1]).

**Conservative advancement** (Mirtich, "Impulse-based Dynamic Simulation of Rigid Body
Systems", 1996, section 2.4; the same bound as Zhang et al., "Continuous Collision Detection
for Articulated Models using Taylor Models and Temporal Culling", 2007): at the current
fraction, take the distance ``d`` between the two core polygons and the unit normal ``n`` of
their closest points. Along that fixed ``n`` no point of the moving core approaches the fixed
shape faster than ``-(dc . n) + |da| r`` per unit fraction (``dc``, ``da``: the step's motion
of the centre and angle; ``r``: the farthest core vertex from the centre of mass), and the
distance cannot shrink faster than the gap along ``n``. So advancing ``t`` by
``(d - target) / rate`` never passes the target distance: the loop approaches the time of
impact from before, one exact distance per iteration, and stops once ``d`` is within
:data:`TOLERANCE` of the target. A translation onto a face takes one advance; turning bodies
take more. If :data:`MAX_ITERATIONS` do not get there, the fraction reached so far is
returned: it is safe (the shapes are still apart there), the body only stops early this step.

Shapes are rounded convex polygons (see :mod:`impulse2d._collision`): the distance of the
rounded shapes is the core distance less the two radii, and a rotation turns the core but not
its rounding, so only the core vertices enter the rate. The target leaves a gap of
:data:`TARGET_GAP` between the rounded surfaces: the next step's speculative contacts (up to
``SPECULATIVE_DISTANCE`` = 4 slops apart) then close it without overlap.

The distance of two cores is the smallest over pairs of their edges (a point counts as an edge
of length 0) unless they overlap (an edge crossing, or one core inside the other). At most 8 x
8 segment pairs: exact, and cheaper than it sounds for the circles and boxes that are most fast
bodies (1 x 4 and 4 x 4 pairs).
"""

from __future__ import annotations

import math

from .._core.jit import inner_kernel
from ..constants import LINEAR_SLOP
from .geometry import segment_distance
from .raycast import NO_HIT

TARGET_GAP = LINEAR_SLOP
"""m (one slop; the continuous stage passes it in the world's unit). Gap between the rounded
surfaces at the time of impact. Box2D v3 aims at a core distance of ``max(slop, r_a + r_b -
slop)``: a gap of a slop for polygons, an overlap of a slop for rounded shapes; a gap for every
shape type keeps the next step free of overlap."""

TOLERANCE = 0.25 * LINEAR_SLOP
"""m. How far above the target distance an advance may stop (Box2D's TOI: a quarter slop)."""

TOLERANCE_SHARE = TOLERANCE / TARGET_GAP
""":data:`TOLERANCE` over the gap (a quarter): :func:`time_of_impact` stops within this share of
the size of the ``gap`` it is given (a slop either way, in the world's length unit), so that the
tolerance follows ``WorldSettings.length_units_per_meter`` with the gap."""

MAX_ITERATIONS = 30
"""Advances before giving up with the (safe) fraction reached. A translation converges in one
or two; Box2D's own time of impact allows 20 root-finding iterations."""


@inner_kernel
def _edge(count, points, i):
    """End points (x1, y1, x2, y2) of core edge ``i`` of ``count`` points: a circle's point is
    an edge of length 0, a capsule's or segment's core its one edge."""
    k = i + 1 if i + 1 < count else 0
    if count == 1:
        k = 0
    return points[i, 0], points[i, 1], points[k, 0], points[k, 1]


@inner_kernel
def _edge_count(count):
    return count if count >= 3 else 1


@inner_kernel
def _inside(count, points, x, y):
    """Whether (x, y) lies in the counter-clockwise core polygon (``count`` >= 3; boundary in)."""
    for i in range(count):
        k = i + 1 if i + 1 < count else 0
        ex = points[k, 0] - points[i, 0]
        ey = points[k, 1] - points[i, 1]
        if ex * (y - points[i, 1]) - ey * (x - points[i, 0]) < 0.0:
            return False
    return True


@inner_kernel
def core_distance(count_a, points_a, count_b, points_b):
    """Distance between two core polygons (world points) and the unit normal from A's closest
    point to B's: ``(d, nx, ny)``; ``(0, 0, 0)`` when the cores overlap."""
    if count_b >= 3 and _inside(count_b, points_b, points_a[0, 0], points_a[0, 1]):
        return 0.0, 0.0, 0.0
    if count_a >= 3 and _inside(count_a, points_a, points_b[0, 0], points_b[0, 1]):
        return 0.0, 0.0, 0.0
    best = math.inf
    dx = 0.0
    dy = 0.0
    for i in range(_edge_count(count_a)):
        ax1, ay1, ax2, ay2 = _edge(count_a, points_a, i)
        for j in range(_edge_count(count_b)):
            bx1, by1, bx2, by2 = _edge(count_b, points_b, j)
            _, _, c1x, c1y, c2x, c2y, d2 = segment_distance(ax1, ay1, ax2, ay2,
                                                            bx1, by1, bx2, by2)
            if d2 < best:
                best = d2
                dx = c2x - c1x
                dy = c2y - c1y
    if best <= 0.0:
        return 0.0, 0.0, 0.0
    d = math.sqrt(best)
    return d, dx / d, dy / d


@inner_kernel
def core_separation(count_a, pa, count_b, pb):
    """Largest separation over the faces of both convex cores (world points, counter-clockwise;
    a 2-point core has its two sides) and its axis as the unit normal from A towards B:
    ``(sep, nx, ny)``. Overlapping cores: minus the overlap along that axis."""
    best = -math.inf
    bx = 0.0
    by = 0.0
    for which in range(2):
        cf = count_a if which == 0 else count_b
        pf = pa if which == 0 else pb
        co = count_b if which == 0 else count_a
        po = pb if which == 0 else pa
        for i in range(cf):
            k = i + 1 if i + 1 < cf else 0
            ex = pf[k, 0] - pf[i, 0]
            ey = pf[k, 1] - pf[i, 1]
            length = math.hypot(ex, ey)
            if length == 0.0:
                continue
            nx = ey / length  # outward for a counter-clockwise core
            ny = -ex / length
            smallest = math.inf
            for j in range(co):
                smallest = min(smallest, nx * (po[j, 0] - pf[i, 0]) + ny * (po[j, 1] - pf[i, 1]))
            if smallest > best:
                best = smallest
                bx = nx if which == 0 else -nx
                by = ny if which == 0 else -ny
    return best, bx, by


@inner_kernel
def _place(count, local, lcx, lcy, cx, cy, angle, out):
    """World points of body-frame points ``local`` for a body whose centre of mass (body-frame
    ``lcx, lcy``) is at (cx, cy) turned by ``angle``."""
    c = math.cos(angle)
    s = math.sin(angle)
    for i in range(count):
        x = local[i, 0] - lcx
        y = local[i, 1] - lcy
        out[i, 0] = c * x - s * y + cx
        out[i, 1] = s * x + c * y + cy


@inner_kernel
def gap_at(count_a, points_a, radius_a, count_b, local_b, radius_b, lcx, lcy, c0x, c0y, a0,
           c1x, c1y, a1, t, scratch):
    """The gap (m, negative: overlap) between the rounded shapes at fraction ``t`` of the
    sweep (arguments as :func:`time_of_impact`); at most 0 when the cores overlap."""
    _place(count_b, local_b, lcx, lcy, c0x + t * (c1x - c0x), c0y + t * (c1y - c0y),
           a0 + t * (a1 - a0), scratch)
    d, _, _ = core_distance(count_a, points_a, count_b, scratch)
    return d - radius_a - radius_b


@inner_kernel
def depth_at(count_a, points_a, radius_a, count_b, local_b, radius_b, lcx, lcy, c0x, c0y, a0,
             c1x, c1y, a1, t, scratch):
    """:func:`gap_at`, but cores that overlap are measured too: by their least overlap over
    the separating axes (:func:`core_separation`), so that a sharp polygon that ends the step
    deep in a segment reads as deep, not as touching (by the distance alone it read 0, or
    1e-16, at any depth: a spinning box at 20 m/s ended a step 0.17 m into a chain loop's
    wall, issue 29)."""
    _place(count_b, local_b, lcx, lcy, c0x + t * (c1x - c0x), c0y + t * (c1y - c0y),
           a0 + t * (a1 - a0), scratch)
    d, _, _ = core_distance(count_a, points_a, count_b, scratch)
    if d < TOLERANCE:
        # touching or overlapping (crossing edges can read a rounding-sized distance, 1e-16 m)
        separation, _, _ = core_separation(count_a, points_a, count_b, scratch)
        if separation < 0.0 and math.isfinite(separation):  # -inf: two points, no face
            d = separation
    return d - radius_a - radius_b


@inner_kernel
def time_of_impact(count_a, points_a, radius_a, count_b, local_b, radius_b, lcx, lcy,
                   c0x, c0y, a0, c1x, c1y, a1, t_max, gap, scratch):
    """First fraction ``t`` in [0, ``t_max``) of the sweep at which shape B (body-frame core
    ``local_b``, on a body whose centre of mass ``lcx, lcy`` goes from (c0x, c0y) at angle
    ``a0`` to (c1x, c1y) at ``a1``) comes within ``gap`` (m; :data:`TARGET_GAP`, or negative
    for an overlap) of the fixed shape A (world core ``points_a``). Returns 0.0 when they are
    that close already at the start, and :data:`NO_HIT` when they stay apart until ``t_max``.
    ``scratch``: 8 x 2 floats."""
    target = max(radius_a + radius_b + gap, 0.0)
    tolerance = TOLERANCE_SHARE * abs(gap)
    dcx = c1x - c0x
    dcy = c1y - c0y
    da = a1 - a0
    reach = 0.0  # farthest core vertex of B from the centre of mass
    for i in range(count_b):
        reach = max(reach, math.hypot(local_b[i, 0] - lcx, local_b[i, 1] - lcy))
    spin = abs(da) * reach
    t = 0.0
    for _ in range(MAX_ITERATIONS):
        _place(count_b, local_b, lcx, lcy, c0x + t * dcx, c0y + t * dcy, a0 + t * da, scratch)
        d, nx, ny = core_distance(count_a, points_a, count_b, scratch)
        if d <= target + tolerance:
            return t
        rate = spin - (dcx * nx + dcy * ny)  # fastest approach along n, per unit fraction
        if rate <= 0.0:
            return NO_HIT
        t += (d - target) / rate
        if t >= t_max:
            return NO_HIT
    return t


__all__ = ["TARGET_GAP", "TOLERANCE", "TOLERANCE_SHARE", "MAX_ITERATIONS", "core_distance",
           "core_separation", "depth_at", "gap_at", "time_of_impact", "NO_HIT"]
