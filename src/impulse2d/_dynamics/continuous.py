"""Continuous collision: a fast body is moved back to where its sweep first meets a surface.

Speculative contacts (shapes up to ``SPECULATIVE_DISTANCE`` apart) stop a body that arrives
within a step at a surface it was already paired with. A body that crosses more than its own
thickness in one step can still pass a thin wall it was never paired with. Box2D v3's answer,
followed here:

1. **The fast test**, in the finalize stage (:func:`~.integrate.finalize_bodies`), for every
   awake dynamic body when ``WorldSettings.enable_continuous``: the body is *fast* when its
   motion of this step, ``|dp| + |turn| * extent``, exceeds ``FAST_FRACTION`` (0.5,
   :mod:`impulse2d.constants`) of its ``min_extent`` (its thinnest half-width: a circle's
   radius, a box's smaller half side, 0 for a segment). Box2D v3 tests
   ``(|v| + |w| maxExtent) dt > 0.5 minExtent``; the motion itself is the same for the soft
   step and also counts the position passes of ``pgs_ngs``. The test keeps the body's pose at
   the start of the step (``Bodies.sweep``) and flags it (``Bodies.fast``). Slow bodies cost
   this comparison and nothing else.
2. **The sweep** (:func:`solve_continuous`, this module, compiled the first time a world has a
   fast body): each fast body's shapes are swept from the start pose to the end pose against
   every shape that may stop them (below), held at its end-of-step pose, by the time of impact
   of :mod:`.._collision.toi`. Non-bullets sweep against static and kinematic bodies;
   ``bullet`` bodies also against dynamic ones, after every non-bullet has been placed, so
   that they meet the bodies where those end the step (bullets never stop bullets). The
   candidates come from a uniform grid of their boxes (:func:`.._collision.query_index.
   build_grid`, the queries' own) queried with each shape's swept box. When the obstacles are
   static shapes only (the non-bullets' pass in a world without kinematic shapes), the grid is
   the one kept in the world's stores between steps (:mod:`.static_grid`), built again only
   when a static shape changed. That usual case (no fast bullet, no kinematic shape) runs in
   :func:`kept_pass`: it visits the awake bodies only, skips in O(1) each fast body whose
   sweep stays outside the static shapes' bounds, allocates nothing (its lists and scratch
   are kept with the grid) and counts no references, so its cost is that of the fast bodies
   near the static shapes and of their sweeps. The general path (bullets, kinematic
   obstacles) lists its bodies and obstacles anew each step.
3. **The move back**: a body whose sweep hits at fraction ``t`` < 1 is put at the pose of ``t``
   (centre and angle interpolated) with its velocity kept; the next step's speculative contact
   stops it, and it keeps the rest of its motion for the steps after. (It loses ``1 - t`` of
   this step's travel: Box2D v3 does the same.)

A shape already within the target gap at the start (a ball rolling fast along the ground)
would stop at fraction 0 and never move: as Box2D v3, such a pair is swept again with a small
circle at the fast shape's centroid instead, of :data:`CORE_FRACTION` of the body's
``min_extent``, which stops it only from passing *through*. That lets a body touching a thin
wall pivot through it: a capsule that hits a 0.1 m wall end first at 400 m/s turns about that
end, and its other end, which had no speculative contact, ended the next step 9 cm inside
the wall and then crossed it. So, beyond Box2D, when the shape would end the step (or its core
circle's stop) more than :data:`DEEP` inside the other one, the pair is swept once more, to an
overlap of one slop. Only a pair that would end deep in overlap pays this, so
bodies that slide or tumble fast along a surface are not slowed. The depth of sharp shapes
whose cores cross is their overlap over the separating axes (:func:`.._collision.toi.depth_at`),
and when they touch at the start (where the time of impact, which aims at a core distance, has
no overlap to aim at) the overlap of a slop is found by bisection (:func:`_overlap_fraction`):
a box spinning at 40 rad/s with one corner on a chain loop's wall swung its other corner
0.17 m into the wall in one step before (issue 29).

Chain segments are one-sided, and a body moving fast *along* one must not be paused by it, so
each is swept or left out by Box2D v3's rule (:func:`_chain_may_stop`): left out when the
centroid starts behind it, or comes less than the core radius nearer to it and ends more than
that in front. A body that approaches it fast is swept, even when its centroid stays in front.

Kinematic bodies are met at their end pose (their own motion within the step is not swept:
Box2D v3.1 does the same for bullets). Sensors neither stop nor are swept; the collision filter
and joints that forbid collision are honoured as for contacts.

The stage runs last, after the sleep stage (it skips a body that fell asleep in the step), so
that the step that compiles it, which Python finishes, runs the same stages in the same order
as every later step, which calls it by address.
"""

from __future__ import annotations

import math

import numpy as np

from .._collision.query_index import CELL_SCALE, build_grid
from .._collision.geometry import shape_aabb
from .._collision.shape_types import CHAIN_SEGMENT
from .._collision.toi import TARGET_GAP, depth_at, gap_at, time_of_impact
from .._core.jit import borrowing_kernel, inline_kernel, inner_kernel, python_stage_kernel
from .._core.state import DYNAMIC, STATIC
from ..constants import LINEAR_SLOP
from .awake import BODY_COUNT, SHAPE_COUNT, STALE, STATIC_GRID_VALID
from .contacts import may_collide
from .lengths import SLOP
from .static_grid import (BODY_SCRATCH, CANDIDATES, COUNTS, FAST, FILL, FIRST, KINEMATIC,
                          PARAMS, POINTS, SHAPE_ITEMS, SHAPE_SCRATCH, SLOT, STAMP, TAG,
                          checked_grid, kept_bounds, kept_obstacles, scratch_fits)
from .world_ref import borrow, borrow_column

CORE_FRACTION = 0.25
"""Radius of the circle swept instead of a shape that starts within the target gap, as a
fraction of the body's ``min_extent`` (Box2D v3.2's ``B2_CORE_FRACTION``)."""

DEEP = 2.0 * LINEAR_SLOP
"""m (two slops; the sweep takes it in the world's unit, ``length_units_per_meter``). A pair
that starts within the target gap and whose swept shape would end the step overlapping deeper
than this is swept again to an overlap of one slop (see the module)."""

BISECTIONS = 20
"""Halvings of the step by which :func:`_overlap_fraction` finds the overlap of a slop (to a
millionth of the step: 0.3 um at 20 m/s, 60 Hz)."""

MAX_QUERY_CELLS = 4096
"""A swept box over more grid cells tests every candidate instead (a sweep across the world)."""


@inner_kernel
def _segment_in_world(vertices, origin, rot, o, s):
    """Chain segment ``s`` (of body ``o``) in world coordinates: its first point and the
    vector to its second, ``(p1x, p1y, ex, ey)``, m."""
    c = rot[o, 0]
    sn = rot[o, 1]
    p1x = c * vertices[s, 0, 0] - sn * vertices[s, 0, 1] + origin[o, 0]
    p1y = sn * vertices[s, 0, 0] + c * vertices[s, 0, 1] + origin[o, 1]
    ex = c * vertices[s, 1, 0] - sn * vertices[s, 1, 1] + origin[o, 0] - p1x
    ey = sn * vertices[s, 1, 0] + c * vertices[s, 1, 1] + origin[o, 1] - p1y
    return p1x, p1y, ex, ey


@inner_kernel
def _crosses_front(vertices, origin, rot, o, s, ax, ay, bx, by):
    """Whether a centroid going from ``(ax, ay)`` to ``(bx, by)`` crosses chain segment ``s``
    (of body ``o``) from its front to its back. :mod:`.continuous_box2d23`'s rule for
    one-sided segments (this module's own is :func:`_chain_may_stop`). The front is the right
    of the segment's direction (:mod:`.._collision.chain`)."""
    p1x, p1y, ex, ey = _segment_in_world(vertices, origin, rot, o, s)
    start = (ax - p1x) * ey - (ay - p1y) * ex  # > 0: in front
    end = (bx - p1x) * ey - (by - p1y) * ex
    return start >= 0.0 and end <= 0.0 and start != end


@inner_kernel
def _chain_may_stop(vertices, origin, rot, o, s, ax, ay, bx, by, core):
    """Whether chain segment ``s`` (of body ``o``) is swept against a shape whose centroid goes
    from ``(ax, ay)`` to ``(bx, by)``, ``core`` (m) the body's core radius
    (:data:`CORE_FRACTION` of its ``min_extent``). Box2D v3's rule (``b2SolveContinuous``'s
    query): a segment is left out when the centroid starts behind it (the back is not a
    surface: a body leaves a loop through it), or when the centroid comes less than ``core``
    nearer to the segment's line and ends more than ``core`` in front of it (a body rolling or
    sliding fast along the surface is never paused by the segments it runs over). Every other
    segment is swept: a shape that *approaches* the surface fast is stopped at it even when its
    centroid stays in front. (Sweeping only the segments the centroid crosses, the rule here
    before, let a 0.25 m circle at 20 m/s end a step with 0.246 m of its radius inside a loop's
    wall: its centroid stopped 4 mm short of the line; issue 29, item 2.) A segment shorter
    than a slop has no reliable direction and is always swept. The front is the right of the
    segment's direction (:mod:`.._collision.chain`); distances are in metres."""
    p1x, p1y, ex, ey = _segment_in_world(vertices, origin, rot, o, s)
    length = math.hypot(ex, ey)
    if length <= LINEAR_SLOP:
        return True
    ex /= length
    ey /= length
    start = (ax - p1x) * ey - (ay - p1y) * ex  # the centroid's distance in front of the line
    end = (bx - p1x) * ey - (by - p1y) * ex
    if start < 0.0:
        return False
    return not (start - end < core and end > core)


@inner_kernel
def _obstacles(world, with_dynamic):
    """Rows of the shapes that may stop a sweep (static and kinematic bodies; dynamic bodies
    that are not bullets too when ``with_dynamic``) and every shape's box at its body's pose
    now (only those rows filled). The world, not its stores, as for every callee of
    :func:`_sweep_pass` (see there)."""
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    n = shapes.alive.shape[0]
    rows = np.empty(n, np.int64)
    boxes = np.empty((n, 4))
    m = 0
    for s in range(n):
        if not shapes.alive[s] or shapes.is_sensor[s]:
            continue
        b = shapes.body[s]
        if bodies.type[b] == DYNAMIC and (not with_dynamic or bodies.bullet[b]):
            continue
        if bodies.type[b] == STATIC:
            # the step's own box (update_aabbs, this step; a static body has not moved since)
            for k in range(4):
                boxes[s, k] = shapes.aabb[s, k]
        else:
            shape_aabb(shapes.count[s], shapes.vertices[s], shapes.radius[s],
                       bodies.origin[b, 0], bodies.origin[b, 1], bodies.rot[b, 0],
                       bodies.rot[b, 1], boxes[s])
        rows[m] = s
        m += 1
    return rows[:m], boxes


@borrowing_kernel
def _obstacle_bounds(world, with_dynamic, box):
    """The box around every shape :func:`_obstacles` would list (empty: inf, inf, -inf, -inf),
    without listing them; ``box``: scratch for one shape's box (4)."""
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    lo_x = math.inf
    lo_y = math.inf
    hi_x = -math.inf
    hi_y = -math.inf
    for s in range(shapes.alive.shape[0]):
        if not shapes.alive[s] or shapes.is_sensor[s]:
            continue
        b = shapes.body[s]
        if bodies.type[b] == DYNAMIC and (not with_dynamic or bodies.bullet[b]):
            continue
        if bodies.type[b] == STATIC:
            for k in range(4):
                box[k] = shapes.aabb[s, k]
        else:
            shape_aabb(shapes.count[s], shapes.vertices[s], shapes.radius[s],
                       bodies.origin[b, 0], bodies.origin[b, 1], bodies.rot[b, 0],
                       bodies.rot[b, 1], box)
        lo_x = min(lo_x, box[0])
        lo_y = min(lo_y, box[1])
        hi_x = max(hi_x, box[2])
        hi_y = max(hi_y, box[3])
    return lo_x, lo_y, hi_x, hi_y


@inner_kernel
def _outside(sweep, center, extent, b, lo_x, lo_y, hi_x, hi_y):
    """Whether body ``b``'s sweep (its centre's path grown by its extent) misses the box (the
    body columns, not the store: a call passing a store costs about 0.3 us)."""
    reach = extent[b]
    return (min(sweep[b, 0], center[b, 0]) - reach > hi_x
            or max(sweep[b, 0], center[b, 0]) + reach < lo_x
            or min(sweep[b, 1], center[b, 1]) - reach > hi_y
            or max(sweep[b, 1], center[b, 1]) + reach < lo_y)


@inner_kernel
def _place(count, vertices, px, py, c, s, out):
    for i in range(count):
        out[i, 0] = c * vertices[i, 0] - s * vertices[i, 1] + px
        out[i, 1] = s * vertices[i, 0] + c * vertices[i, 1] + py


@inner_kernel
def _may_stop(kind, owner, sensor, group, category, mask, no_collide, body, f, s):
    """Whether shape ``s`` may stop the sweep of shape ``f`` of ``body`` (filters as for
    contacts; the body types were sorted out by :func:`_obstacles`). The helpers called per
    candidate take columns, not stores: a call passing the body and shape stores costs about
    0.3 us (:mod:`.._core.jit`), about what a time of impact costs."""
    other = owner[s]
    if other == body:
        return False
    if not may_collide(DYNAMIC, kind[other], sensor[f], sensor[s], group[f], group[s],
                       category[f], mask[f], category[s], mask[s]):
        return False
    if no_collide.shape[0] > 0:
        key = (min(body, other) << 32) | max(body, other)
        at = np.searchsorted(no_collide, key)
        if at < no_collide.shape[0] and no_collide[at] == key:
            return False
    return True


@inner_kernel
def _overlap_fraction(count_s, points, radius_s, count_f, local_f, radius_f, lcx, lcy, sweep,
                      cx, cy, angle, end, scratch, slop):
    """A fraction in (0, ``end``) at which shape ``f``'s sweep overlaps shape ``s`` (at
    ``points``) by about a slop (``slop``, in the world's length unit), found by bisecting :func:`.._collision.toi.depth_at` to
    :data:`BISECTIONS` halvings; 0.0 when it overlaps by more than that at the start. For
    the pairs that end the step deeper than :data:`DEEP` (:func:`_shape_fraction`)."""
    lo = 0.0
    hi = end
    if depth_at(count_s, points, radius_s, count_f, local_f, radius_f, lcx, lcy, sweep[0],
                sweep[1], sweep[2], cx, cy, angle, lo, scratch) < -slop:
        return 0.0
    for _ in range(BISECTIONS):
        mid = 0.5 * (lo + hi)
        if depth_at(count_s, points, radius_s, count_f, local_f, radius_f, lcx, lcy, sweep[0],
                    sweep[1], sweep[2], cx, cy, angle, mid, scratch) < -slop:
            hi = mid
        else:
            lo = mid
    return lo


@inner_kernel
def _shape_fraction(count, vertices, radius, centroid, owner, origin, rot, f, s, sweep, lcx,
                    lcy, cx, cy, angle, core_radius, fraction, points, scratch, core, slop,
                    sharp):
    """The sweep of shape ``f`` (of a body whose centre of mass ``lcx, lcy`` goes from
    ``sweep`` to (cx, cy, angle)) against shape ``s``: the new earliest fraction. ``slop``: the
    linear slop in the world's length unit (:data:`TARGET_GAP` and :data:`DEEP` are in slops).
    ``sharp``: whether the depth of overlapping cores is measured
    (:func:`.._collision.toi.depth_at`, this stage) or read as 0 (:mod:`.continuous_box2d23`,
    whose Box2D 2.3 gaits were measured so: the re-sweep stopped the BipedalWalker's legs and
    its scripted gait walked 24.5 m where Box2D 2.3's walks 17.4)."""
    o = owner[s]
    _place(count[s], vertices[s], origin[o, 0], origin[o, 1], rot[o, 0], rot[o, 1], points)
    count_s = count[s]
    radius_s = radius[s]
    count_f = count[f]
    local_f = vertices[f]
    radius_f = radius[f]
    t = time_of_impact(count_s, points, radius_s, count_f, local_f, radius_f, lcx, lcy,
                       sweep[0], sweep[1], sweep[2], cx, cy, angle, fraction,
                       TARGET_GAP / LINEAR_SLOP * slop, scratch)
    if t == 0.0:
        # Within the gap already: sweep the core circle, which stops only a pass through.
        core[0, 0] = centroid[f, 0]
        core[0, 1] = centroid[f, 1]
        # one point as np.int64: a literal 1 compiled time_of_impact and its callees again
        t = time_of_impact(count_s, points, radius_s, np.int64(1), core, core_radius, lcx, lcy,
                           sweep[0], sweep[1], sweep[2], cx, cy, angle, fraction,
                           TARGET_GAP / LINEAR_SLOP * slop, scratch)
        end = t if t > 0.0 and t < fraction else fraction
        if sharp:
            gap = depth_at(count_s, points, radius_s, count_f, local_f, radius_f, lcx, lcy,
                           sweep[0], sweep[1], sweep[2], cx, cy, angle, end, scratch)
        else:
            gap = gap_at(count_s, points, radius_s, count_f, local_f, radius_f, lcx, lcy,
                         sweep[0], sweep[1], sweep[2], cx, cy, angle, end, scratch)
        if gap < -DEEP / LINEAR_SLOP * slop:
            # ... and would end deep inside: stop it where it overlaps by a slop.
            deep = time_of_impact(count_s, points, radius_s, count_f, local_f, radius_f, lcx,
                                  lcy, sweep[0], sweep[1], sweep[2], cx, cy, angle, end,
                                  -slop, scratch)
            if deep == 0.0 and sharp:
                # Sharp cores already touching: the time of impact cannot aim at an overlap
                # (its target is a core distance, 0 here), so the overlap is bisected.
                deep = _overlap_fraction(count_s, points, radius_s, count_f, local_f, radius_f,
                                         lcx, lcy, sweep, cx, cy, angle, end, scratch, slop)
            if deep > 0.0 and deep < end:
                t = deep
    if t > 0.0 and t < fraction:
        return t
    return fraction


@borrowing_kernel
def _sweep_body(world, b, fast_shapes, rows, boxes, grid, stamp, tag, candidates, points,
                scratch, core, slop):
    """The earliest fraction of body ``b``'s sweep (1.0: no hit) over its shapes
    ``fast_shapes``; ``tag``: the last stamp used (returned advanced). ``candidates``: room
    for a row per shape; ``points``, ``scratch`` (8 x 2) and ``core`` (1 x 2): for shape
    points."""
    # The stores are taken here, not passed in: as arguments they were some 400 words a call
    # (every array of the body and shape stores), re-stored by the pass's loop for each body
    # from its own incoming arguments: 6-14 % of a step of 500 bullets (perf, session 13), and
    # the loop had 413 loads 1 KiB above a store before them (the Zen 3 replay of
    # benchmarks/stack_alias.py; tests/test_stack_alias.py reads the loop's machine code).
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    no_collide = borrow(world, "no_collide")
    x0, y0, cell, nx, ny, starts, items, large = grid
    sweep = bodies.sweep[b]
    c1x = bodies.center[b, 0]
    c1y = bodies.center[b, 1]
    angle = bodies.angle[b]
    lcx = bodies.local_center[b, 0]
    lcy = bodies.local_center[b, 1]
    core_radius = CORE_FRACTION * bodies.min_extent[b]
    fraction = 1.0
    c0 = math.cos(sweep[2])
    s0 = math.sin(sweep[2])
    c1 = math.cos(angle)
    s1 = math.sin(angle)
    for f in fast_shapes:
        # the shape's centroid at the start and the end of the sweep (for chain segments)
        gx = shapes.centroid[f, 0] - lcx
        gy = shapes.centroid[f, 1] - lcy
        ax = sweep[0] + c0 * gx - s0 * gy
        ay = sweep[1] + s0 * gx + c0 * gy
        bx = c1x + c1 * gx - s1 * gy
        by = c1y + s1 * gx + c1 * gy
        # Every pose of the sweep lies within the shape's reach of the centre's path.
        reach = 0.0
        for i in range(shapes.count[f]):
            reach = max(reach, math.hypot(shapes.vertices[f, i, 0] - lcx,
                                          shapes.vertices[f, i, 1] - lcy))
        reach += shapes.radius[f]
        lo_x = min(sweep[0], c1x) - reach
        lo_y = min(sweep[1], c1y) - reach
        hi_x = max(sweep[0], c1x) + reach
        hi_y = max(sweep[1], c1y) + reach
        # The candidates: shapes whose box meets the swept box, each once.
        tag += 1
        i0 = max(int(math.floor((lo_x - x0) / cell)), 0)
        j0 = max(int(math.floor((lo_y - y0) / cell)), 0)
        i1 = min(int(math.floor((hi_x - x0) / cell)), nx - 1)
        j1 = min(int(math.floor((hi_y - y0) / cell)), ny - 1)
        everything = (i1 - i0 + 1) * (j1 - j0 + 1) > MAX_QUERY_CELLS
        m = 0
        for k in range(rows.shape[0] if everything else large.shape[0]):
            candidates[m] = rows[k] if everything else large[k]
            m += 1
        if not everything:
            for j in range(j0, j1 + 1):
                for i in range(i0, i1 + 1):
                    c = j * nx + i
                    for k in range(starts[c], starts[c + 1]):
                        s = items[k]
                        if stamp[s] != tag:
                            stamp[s] = tag
                            candidates[m] = s
                            m += 1
        for k in range(m):
            s = candidates[k]
            box = boxes[s]
            if box[0] > hi_x or box[2] < lo_x or box[1] > hi_y or box[3] < lo_y:
                continue
            if shapes.type[s] == CHAIN_SEGMENT and not _chain_may_stop(
                    shapes.vertices, bodies.origin, bodies.rot, shapes.body[s], s, ax, ay, bx,
                    by, core_radius):
                continue
            if _may_stop(bodies.type, shapes.body, shapes.is_sensor, shapes.group,
                         shapes.category, shapes.mask, no_collide, b, f, s):
                fraction = _shape_fraction(shapes.count, shapes.vertices, shapes.radius,
                                           shapes.centroid, shapes.body, bodies.origin,
                                           bodies.rot, f, s, sweep, lcx, lcy, c1x, c1y, angle,
                                           core_radius, fraction, points, scratch, core,
                                           slop, True)
    return fraction, tag


@borrowing_kernel
def _move_back(world, b, t):
    """Put body ``b`` at fraction ``t`` of its sweep (velocity kept)."""
    bodies = borrow(world, "bodies")
    sweep = bodies.sweep[b]
    cx = sweep[0] + t * (bodies.center[b, 0] - sweep[0])
    cy = sweep[1] + t * (bodies.center[b, 1] - sweep[1])
    angle = sweep[2] + t * (bodies.angle[b] - sweep[2])
    c = math.cos(angle)
    s = math.sin(angle)
    lx = bodies.local_center[b, 0]
    ly = bodies.local_center[b, 1]
    bodies.center[b, 0] = cx
    bodies.center[b, 1] = cy
    bodies.angle[b] = angle
    bodies.rot[b, 0] = c
    bodies.rot[b, 1] = s
    bodies.origin[b, 0] = cx - (c * lx - s * ly)
    bodies.origin[b, 1] = cy - (s * lx + c * ly)


@inner_kernel
def _sweep_pass(world, fast, starts, items, with_dynamic, slop, use_kept):
    """Sweep the bodies ``fast`` (their shapes: ``items[starts[k]:starts[k + 1]]``) against
    the obstacles of their kind; returns how many were moved back. ``slop``: the linear slop in
    the world's length unit. ``use_kept``: the obstacles are the static shapes of the world's
    kept grid (:mod:`.static_grid`), which is used instead of building one.

    A kernel that counts references: it reads the three body columns it needs, and its
    callees take the world, not the body and shape stores (a store borrowed here had every
    array counted, and one passed to a call was every array in the call's IR: 4,000 of this
    pass's 9,600 instructions in Box2D 2.3's stage, ``benchmarks/ir_lines.py``, 2026-12-01)."""
    sweep = borrow_column(world, "bodies", "sweep")
    center = borrow_column(world, "bodies", "center")
    extent = borrow_column(world, "bodies", "extent")
    kept = borrow(world, "static_grid")
    # The obstacles' bounds first: a body whose sweep (its centre's path grown by its extent)
    # stays outside them meets nothing, and a pass whose bodies all do builds nothing (a
    # swinging 100-link chain has 100 fast links a step and one obstacle, its anchor; the grid
    # and its arrays cost about 4 us a step, a call sweeping a body's shapes about 0.5 us).
    if use_kept:
        lo_x, lo_y, hi_x, hi_y = kept_bounds(kept)
    else:
        lo_x, lo_y, hi_x, hi_y = _obstacle_bounds(world, with_dynamic, np.empty(4))
    near = 0
    for k in range(fast.shape[0]):
        if not _outside(sweep, center, extent, fast[k], lo_x, lo_y, hi_x, hi_y):
            near += 1
    if near == 0:
        return 0
    if use_kept:
        rows, boxes, grid = kept_obstacles(kept)
    else:
        rows, boxes = _obstacles(world, with_dynamic)
        grid = build_grid(boxes, rows, CELL_SCALE)
    shape_rows = borrow_column(world, "shapes", "alive").shape[0]
    stamp = np.full(shape_rows, -1, np.int64)
    candidates = np.empty(shape_rows, np.int64)
    points = np.empty((8, 2))
    scratch = np.empty((8, 2))
    core = np.empty((1, 2))
    # np.int64, not the literal -1: _sweep_body was compiled for Literal[int](-1) here and for
    # int64 in kept_pass (1.2 s of CPU)
    tag = np.int64(-1)
    hits = 0
    for k in range(fast.shape[0]):
        b = fast[k]
        if _outside(sweep, center, extent, b, lo_x, lo_y, hi_x, hi_y):
            continue
        t, tag = _sweep_body(world, b, items[starts[k]:starts[k + 1]], rows, boxes, grid,
                             stamp, tag, candidates, points, scratch, core, slop)
        if t < 1.0:
            _move_back(world, b, t)
            hits += 1
    return hits


@borrowing_kernel
def _far_from_obstacles(world):
    """The continuous stage when no sweep can hit anything: every body flagged fast (alive,
    dynamic, awake) is a non-bullet whose sweep stays outside the box around the static shapes
    (:func:`_outside`, :func:`_obstacle_bounds`), and there is no kinematic obstacle. Then the
    stage only clears the flags (done here; returns 0, no body moved back); else -1 (nothing
    changed: the full stage runs).

    The usual step of a fast body in the air (a falling lander, a swinging chain away from the
    ground) ends here. It borrows the stores: the full stage, a kernel that counts references,
    counts every array of the body and shape stores on each call that passes them (54 arrays,
    three calls when nothing is near: about 3 us of LunarLander's step, measured
    2026-11-24), and allocates its lists."""
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    n = bodies.alive.shape[0]
    swept = 0
    for i in range(n):
        if bodies.fast[i] and bodies.alive[i] and bodies.type[i] == DYNAMIC \
                and not bodies.asleep[i]:
            if bodies.bullet[i]:
                return -1
            swept += 1
    if swept > 0:
        # _obstacle_bounds(with_dynamic=False), the same minima and maxima in the same order,
        # for static shapes only (their box of this step, no scratch needed)
        lo_x = math.inf
        lo_y = math.inf
        hi_x = -math.inf
        hi_y = -math.inf
        for s in range(shapes.alive.shape[0]):
            if not shapes.alive[s] or shapes.is_sensor[s]:
                continue
            kind = bodies.type[shapes.body[s]]
            if kind == DYNAMIC:
                continue
            if kind != STATIC:
                return -1  # a kinematic obstacle: met at its pose now, by the full stage
            lo_x = min(lo_x, shapes.aabb[s, 0])
            lo_y = min(lo_y, shapes.aabb[s, 1])
            hi_x = max(hi_x, shapes.aabb[s, 2])
            hi_y = max(hi_y, shapes.aabb[s, 3])
        for i in range(n):
            if bodies.fast[i] and bodies.alive[i] and bodies.type[i] == DYNAMIC \
                    and not bodies.asleep[i] and not _outside(
                        bodies.sweep, bodies.center, bodies.extent, i, lo_x, lo_y, hi_x, hi_y):
                return -1
    for i in range(n):
        bodies.fast[i] = False
    return 0


@inner_kernel
def fast_bodies(world):
    """The bodies the finalize stage flagged fast (the flags cleared) that are alive, dynamic
    and awake, non-bullets first: ``(fast, count, bullets, starts, items)``, the first
    ``count`` of ``fast`` those bodies (the last ``bullets`` of them bullets), their shapes
    (sensors left out) grouped by body in that order, body ``k``'s
    ``items[starts[k]:starts[k + 1]]`` (a counting sort). Takes the world, not its stores: a
    store passed to a call is every one of its arrays in the caller's IR (see
    :func:`static_grid`)."""
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    n = bodies.alive.shape[0]
    fast = np.empty(n, np.int64)
    count = 0
    bullets = 0
    for bullet_pass in range(2):
        for i in range(n):
            if bodies.fast[i] and bodies.bullet[i] == (bullet_pass == 1):
                bodies.fast[i] = False
                if bodies.alive[i] and bodies.type[i] == DYNAMIC and not bodies.asleep[i]:
                    fast[count] = i
                    count += 1
                    bullets += bullet_pass
    slot = np.full(n, -1, np.int64)
    for k in range(count):
        slot[fast[k]] = k
    starts = np.zeros(count + 1, np.int64)
    for s in range(shapes.alive.shape[0]):
        if shapes.alive[s] and not shapes.is_sensor[s] and slot[shapes.body[s]] >= 0:
            starts[slot[shapes.body[s]] + 1] += 1
    for k in range(count):
        starts[k + 1] += starts[k]
    fill = starts[:-1].copy()
    items = np.empty(starts[count], np.int64)
    for s in range(shapes.alive.shape[0]):
        if shapes.alive[s] and not shapes.is_sensor[s] and slot[shapes.body[s]] >= 0:
            items[fill[slot[shapes.body[s]]]] = s
            fill[slot[shapes.body[s]]] += 1
    return fast, count, bullets, starts, items


NOT_READY, GENERAL = -1, -2
"""What :func:`kept_pass` returns when it did nothing: the kept grid must be checked first
(:func:`static_grid`), or the stage is not the static pass (a fast bullet, a kinematic
obstacle, awake sets not current: :func:`solve_continuous`'s general path)."""


@inner_kernel
def static_grid(world):
    """Whether the world's kept grid (:mod:`.static_grid`) holds: the grid built again first
    if it no longer lists the static shapes where they are, its scratch sized to the stores,
    kept in the stores and marked checked (``awake_state[STATIC_GRID_VALID]``) until Python
    next changes the world; False (the grid not to be used) when a kinematic shape is an
    obstacle too.

    Takes the world alone: with the body and shape stores as arguments, each of a continuous
    stage's two calls was every array of both stores in the stage's IR, about 2,400 of its
    8,900 instructions a call (``benchmarks/ir_lines.py``, 2026-12-01)."""
    state, kept = checked_grid(world.static_grid, borrow(world, "bodies"),
                               borrow(world, "shapes"))
    world.static_grid = kept
    world.awake_state[STATIC_GRID_VALID] = 1
    return state >= 0


@inline_kernel
def grid_ready(world):
    """1: the kept grid was checked since Python last changed the world (:func:`static_grid`)
    and its scratch fits the stores, so the non-bullets' pass may use it as it is; 0: it must
    be checked first; -1: a kinematic shape is an obstacle too. O(1)."""
    state = borrow(world, "awake_state")
    if state[STATIC_GRID_VALID] == 0 or state[STALE] != 0:
        return 0
    kept = borrow(world, "static_grid")
    if not scratch_fits(kept, borrow_column(world, "bodies", "alive").shape[0],
                        borrow_column(world, "shapes", "alive").shape[0]):
        return 0
    return -1 if kept[COUNTS][KINEMATIC] != 0 else 1


@inline_kernel
def near_fast_bodies(world, kept):
    """The fast bodies whose sweep may meet the kept grid's shapes, with their shapes, into the
    kept scratch: ``BODY_SCRATCH[FAST][:count]`` (ascending) and, for the ``k``-th,
    ``SHAPE_SCRATCH[SHAPE_ITEMS][FIRST[k]:FIRST[k + 1]]`` (its live non-sensor shapes,
    ascending). Every fast flag is cleared. Returns ``count``, or -1 with nothing changed when
    a fast body is a bullet (the general path's).

    The awake rows only: the finalize stage flags awake bodies only, and a body that fell
    asleep since left the awake rows with its flag cleared (:func:`.awake.drop_sleepers`). The
    same bodies and shapes in the same order as :func:`fast_bodies` lists them, less the
    bodies outside the grid's bounds (:func:`_outside`), which the pass skips, so the sweeps
    are the same; a step allocates nothing and passes over no sleeping or static row."""
    bodies = borrow(world, "bodies")
    state = borrow(world, "awake_state")
    awake = borrow(world, "awake_bodies")
    n = state[BODY_COUNT]
    flagged = bodies.fast
    for t in range(n):
        i = awake[t]
        if flagged[i] and bodies.bullet[i]:
            return -1
    params = kept[PARAMS]
    scratch = kept[BODY_SCRATCH]
    slot = scratch[SLOT]
    fast = scratch[FAST]
    first = scratch[FIRST]
    fill = scratch[FILL]
    count = 0
    for t in range(n):
        i = awake[t]
        if flagged[i]:
            flagged[i] = False
            if not _outside(bodies.sweep, bodies.center, bodies.extent, i, params[3],
                            params[4], params[5], params[6]):
                slot[i] = count
                fast[count] = i
                count += 1
    if count == 0:
        return 0
    # the shapes grouped by body: a counting sort of the awake shapes (ascending)
    shapes = borrow(world, "shapes")
    awake_shapes = borrow(world, "awake_shapes")
    m = state[SHAPE_COUNT]
    items = kept[SHAPE_SCRATCH][SHAPE_ITEMS]
    for k in range(count + 1):
        first[k] = 0
    for t in range(m):
        s = awake_shapes[t]
        if not shapes.is_sensor[s] and slot[shapes.body[s]] >= 0:
            first[slot[shapes.body[s]] + 1] += 1
    for k in range(count):
        first[k + 1] += first[k]
        fill[k] = first[k]
    for t in range(m):
        s = awake_shapes[t]
        if not shapes.is_sensor[s] and slot[shapes.body[s]] >= 0:
            k = slot[shapes.body[s]]
            items[fill[k]] = s
            fill[k] += 1
    for k in range(count):
        slot[fast[k]] = -1
    return count


@borrowing_kernel
def kept_pass(world):
    """The continuous stage's usual step, with nothing allocated and no reference counted: the
    fast non-bullets swept against the kept grid of static shapes, those that hit moved back;
    returns how many, or :data:`NOT_READY` / :data:`GENERAL` with nothing changed. The same
    sweeps as the general path (:func:`_sweep_pass` over the kept grid): the same bodies,
    shapes and candidates in the same order, so the same bits.

    The general path counted the references of the body and shape stores' arrays on each of
    its calls that passed them and allocated its lists and scratch (about 5-9 us of CPU of
    LunarLander's 12 us stage when a lander came near the moon, measured 2026-11-28 evening
    under load; the sweeps themselves 1-3 us), and passed over every body and static shape."""
    ready = grid_ready(world)
    if ready <= 0:
        return NOT_READY if ready == 0 else GENERAL
    kept = borrow(world, "static_grid")
    count = near_fast_bodies(world, kept)
    if count <= 0:
        return GENERAL if count < 0 else 0
    slop = borrow(world, "lengths")[SLOP]
    rows, boxes, grid = kept_obstacles(kept)
    fast = kept[BODY_SCRATCH][FAST]
    first = kept[BODY_SCRATCH][FIRST]
    scratch = kept[SHAPE_SCRATCH]
    items = scratch[SHAPE_ITEMS]
    points = kept[POINTS]
    counts = kept[COUNTS]
    tag = counts[TAG]
    hits = 0
    for k in range(count):
        b = fast[k]
        t, tag = _sweep_body(world, b, items[first[k]:first[k + 1]], rows, boxes, grid,
                             scratch[STAMP], tag, scratch[CANDIDATES], points[0], points[1],
                             points[3, :1], slop)
        if t < 1.0:
            _move_back(world, b, t)
            hits += 1
    counts[TAG] = tag
    return hits


@python_stage_kernel
def solve_continuous(world):
    """The continuous stage: sweep every body flagged fast by the finalize stage, non-bullets
    first, and move back those that hit something; clears the flags. Returns the number of
    bodies moved back. Usually :func:`kept_pass` alone; the grid checked first when Python
    changed the world; the general path (below) with a fast bullet or a kinematic obstacle."""
    hits = kept_pass(world)
    if hits == NOT_READY:
        static_grid(world)
        hits = kept_pass(world)
    if hits >= 0:
        return hits
    quick = _far_from_obstacles(world)
    if quick >= 0:
        return quick
    fast, count, bullets, starts, items = fast_bodies(world)
    slop = borrow(world, "lengths")[SLOP]
    plain = count - bullets
    hits = 0
    # the flags as np.bool_, not literals: Numba compiles a callee once for each literal value,
    # and the two passes compiled _sweep_pass and everything under it twice (about 2 s of CPU
    # each in both continuous stages, benchmarks/compile_table.py) for two tests per body
    if plain > 0:
        use_kept = static_grid(world)
        hits += _sweep_pass(world, fast[:plain], starts[:plain + 1], items, np.bool_(False),
                            slop, use_kept)
    if bullets > 0:
        hits += _sweep_pass(world, fast[plain:count], starts[plain:], items, np.bool_(True),
                            slop, np.bool_(False))
    return hits


__all__ = ["CORE_FRACTION", "MAX_QUERY_CELLS", "solve_continuous", "static_grid", "grid_ready",
           "near_fast_bodies"]
