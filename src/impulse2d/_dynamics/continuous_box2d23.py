"""Continuous collision with Box2D 2.3's rules for what a hit is and what it does.

``WorldSettings.continuous_box2d23`` (off by default) puts this stage in the place of
:mod:`.continuous` (Box2D v3's). Both take the fast bodies the same way (the finalize stage's
test, which counts the position passes' motion too), sweep them from their start to their end
pose against the shapes that may stop them (static and kinematic ones; bullets also against
dynamic ones) with :mod:`.._collision.toi`, and put a body that hits back at its time of impact
(the rest of the step's motion dropped). Two things differ:

* **What counts as a hit: Box2D 2.3's skin.** Box2D 2.3's polygons and edges carry a 1 cm skin
  (``b2_polygonRadius``, two slops), its contacts rest with the skins overlapping by up to a
  slop, and its time of impact aims at cores ``max(slop, rA + rB - 3 slop)`` apart, where the
  skins overlap by three slops. So a body that the step moves fast but that ends resting on the
  surface it meets (a leg that a joint's position correction folds into place while its foot
  stands on the ground) never reaches that target and is not stopped. impulse2d's polygons are
  sharp (the pybox2d layer makes them without the skin) and rest a slop *inside* each other, so
  every such move crosses the time of impact's gap (one slop) and Box2D v3's rule puts it back.
  Here a hit (a time of impact after the start of the sweep) counts only if the shape would
  end the step overlapping the obstacle by more than :data:`SKIN_DEPTH` (three slops), or on
  its far side (the axis of least overlap at the end points against the normal at the time of
  impact: passing through a thin wall), or apart from it (taken as passed through, as v3 does;
  taking a body that ends apart on its own side as no hit was measured too: the gait below then
  walked 0.3 m).
* **What a hit does: Box2D 2.3's contact solve at the time of impact.** Box2D 2.3
  (``b2World::SolveTOI``) solves the touching contacts' velocities at the time of impact, so
  the body goes on without its speed into the surface; v3 keeps the velocity (the next step's
  speculative contact stops it). Here the body's velocity loses its component into the obstacle
  along the normal at the time of impact (from the obstacle's closest point to the body's); its
  angular velocity is kept.

Pairs within the time of impact's gap at the start are swept as in :mod:`.continuous` (a core
circle that stops only a pass through), their hits with the velocity kept. Like v3's, this
stage does not see contacts that a pre-solve hook switched off (Box2D 2.3's time of impact
skips them): the pybox2d layer turns the setting off for a world whose listener has
``PreSolve``, whose one-way platforms would otherwise stop what they let through.

Not Box2D 2.3's: its sub-step, which integrates the rest of the step from the time of impact
with the solved velocity (this stage has no time step; the sweep's own remainder, position
corrections included, slid along the surface, was tried: Gymnasium's scripted walker then fell
on every seed), its position pass at the time of impact, and its friction there.

Why (measured 2026-11-24, docs/compat-box2d.md "Continuous collision"): Gymnasium's
BipedalWalker makes its legs with their hip anchors 0.53 m apart; the reset's step pulls the
lower legs 0.45 m down, through the ground. Box2D 2.3 puts them on the ground with no speed
into it. v3's stop kept their falling speed, and in the next step, whose position pass folds
the knees shut (a 0.2 m joint gap) while the feet stand on the ground, put the lower legs back
where that step began, leaving the knees open: the scripted gait walked 6.5 m in 500 steps
(seeds 0-15; Box2D 2.3 17.4) and with this stage walks 17.1 (seeds 16-31: 5.9, Box2D 19.1,
this stage 17.9).
"""

from __future__ import annotations

import math

import numpy as np

from .._collision.query_index import CELL_SCALE, build_grid
from .._collision.shape_types import CHAIN_SEGMENT
from .._collision.toi import (TARGET_GAP, _place as _place_at, core_distance, core_separation,
                              time_of_impact)
from .._core.jit import borrowing_kernel, inner_kernel, python_stage_kernel
from ..constants import LINEAR_SLOP
from .continuous import (CORE_FRACTION, GENERAL, MAX_QUERY_CELLS, NOT_READY, _crosses_front,
                         _far_from_obstacles, _may_stop, _move_back, _obstacle_bounds,
                         _obstacles, _outside, _place, _shape_fraction, fast_bodies, grid_ready,
                         near_fast_bodies, static_grid)
from .lengths import SLOP
from .static_grid import (BODY_SCRATCH, CANDIDATES, COUNTS, FAST, FIRST, POINTS, SHAPE_ITEMS,
                          SHAPE_SCRATCH, STAMP, TAG, kept_bounds, kept_obstacles)
from .world_ref import borrow, borrow_column

SKIN_DEPTH = 3.0 * LINEAR_SLOP
"""m (three slops; the sweep takes it in the world's unit, ``length_units_per_meter``). A body
that would end the step overlapping an obstacle by at most this (on the side it came from) is
not stopped by it: Box2D 2.3's skins (two slops each) overlap by three slops at its time of
impact's target, so a move that ends resting on a surface never reaches it (see the module)."""
"""Hits a body may take in one step before it stays at its last time of impact (Box2D 2.3's
``b2_maxSubSteps``)."""


@inner_kernel
def _end_overlap(count_s, ps, radius_s, count_f, pf, radius_f):
    """Overlap (m, <= 0: apart) of the rounded shapes at the given world points, and the axis
    of least overlap as the unit normal from the obstacle ``s`` towards ``f``. Cores inside one
    another (a circle's centre): an infinite overlap."""
    if count_s >= 2 and count_f >= 2:
        sep, nx, ny = core_separation(count_s, ps, count_f, pf)
        return radius_s + radius_f - sep, nx, ny
    d, nx, ny = core_distance(count_s, ps, count_f, pf)
    if d <= 0.0:
        return math.inf, 0.0, 0.0
    return radius_s + radius_f - d, nx, ny


@borrowing_kernel
def _first_hit(world, b, fast_shapes, rows, boxes, grid, stamp, tag, candidates, points,
               scratch, end_points, core, slop):
    """The earliest time of impact of body ``b``'s sweep (``bodies.sweep[b]`` to its pose now)
    over its shapes ``fast_shapes``, among the hits that count (module docstring): ``(t, nx,
    ny, tag)``; ``t`` = 2.0 when none does; ``n``: the normal at the hit (0, 0 for a pair within
    the gap at the start); ``tag``: the last stamp used. ``end_points``, ``core``: scratch.
    ``slop``: the linear slop in the world's length unit (the gap and the skins are in slops)."""
    # the stores taken here, not passed in: see .continuous._sweep_body
    bodies = borrow(world, "bodies")
    shapes = borrow(world, "shapes")
    no_collide = borrow(world, "no_collide")
    x0, y0, cell, nx_cells, ny_cells, starts, items, large = grid
    c0x = bodies.sweep[b, 0]
    c0y = bodies.sweep[b, 1]
    a0 = bodies.sweep[b, 2]
    c1x = bodies.center[b, 0]
    c1y = bodies.center[b, 1]
    a1 = bodies.angle[b]
    lcx = bodies.local_center[b, 0]
    lcy = bodies.local_center[b, 1]
    best = 2.0
    best_nx = 0.0
    best_ny = 0.0
    c0 = math.cos(a0)
    s0 = math.sin(a0)
    c1 = math.cos(a1)
    s1 = math.sin(a1)
    for f in fast_shapes:
        count_f = shapes.count[f]
        local_f = shapes.vertices[f]
        radius_f = shapes.radius[f]
        gx = shapes.centroid[f, 0] - lcx
        gy = shapes.centroid[f, 1] - lcy
        ax = c0x + c0 * gx - s0 * gy
        ay = c0y + s0 * gx + c0 * gy
        bx = c1x + c1 * gx - s1 * gy
        by = c1y + s1 * gx + c1 * gy
        reach = 0.0
        for i in range(count_f):
            reach = max(reach, math.hypot(local_f[i, 0] - lcx, local_f[i, 1] - lcy))
        reach += radius_f
        lo_x = min(c0x, c1x) - reach
        lo_y = min(c0y, c1y) - reach
        hi_x = max(c0x, c1x) + reach
        hi_y = max(c0y, c1y) + reach
        tag += 1
        i0 = max(int(math.floor((lo_x - x0) / cell)), 0)
        j0 = max(int(math.floor((lo_y - y0) / cell)), 0)
        i1 = min(int(math.floor((hi_x - x0) / cell)), nx_cells - 1)
        j1 = min(int(math.floor((hi_y - y0) / cell)), ny_cells - 1)
        everything = (i1 - i0 + 1) * (j1 - j0 + 1) > MAX_QUERY_CELLS
        m = 0
        for k in range(rows.shape[0] if everything else large.shape[0]):
            candidates[m] = rows[k] if everything else large[k]
            m += 1
        if not everything:
            for j in range(j0, j1 + 1):
                for i in range(i0, i1 + 1):
                    c = j * nx_cells + i
                    for k in range(starts[c], starts[c + 1]):
                        s = items[k]
                        if stamp[s] != tag:
                            stamp[s] = tag
                            candidates[m] = s
                            m += 1
        # the shape at its end pose (for the end overlap)
        _place_at(count_f, local_f, lcx, lcy, c1x, c1y, a1, end_points)
        for k in range(m):
            s = candidates[k]
            box = boxes[s]
            if box[0] > hi_x or box[2] < lo_x or box[1] > hi_y or box[3] < lo_y:
                continue
            if shapes.type[s] == CHAIN_SEGMENT and not _crosses_front(
                    shapes.vertices, bodies.origin, bodies.rot, shapes.body[s], s, ax, ay, bx, by):
                continue
            if not _may_stop(bodies.type, shapes.body, shapes.is_sensor, shapes.group,
                             shapes.category, shapes.mask, no_collide, b, f, s):
                continue
            o = shapes.body[s]
            count_s = shapes.count[s]
            radius_s = shapes.radius[s]
            _place(count_s, shapes.vertices[s], bodies.origin[o, 0], bodies.origin[o, 1],
                   bodies.rot[o, 0], bodies.rot[o, 1], points)
            t = time_of_impact(count_s, points, radius_s, count_f, local_f, radius_f, lcx, lcy,
                               c0x, c0y, a0, c1x, c1y, a1, min(best, 1.0),
                               TARGET_GAP / LINEAR_SLOP * slop, scratch)
            if t < 0.0 or t >= best or t >= 1.0:
                continue  # no hit before the best so far
            # the normal at the hit, from the obstacle's closest point to the shape's
            _place_at(count_f, local_f, lcx, lcy, c0x + t * (c1x - c0x), c0y + t * (c1y - c0y),
                      a0 + t * (a1 - a0), scratch)
            d, hx, hy = core_distance(count_s, points, count_f, scratch)
            if d <= 0.0 or t == 0.0:
                # within the gap at the start: v3's sweep of a core circle (velocity kept)
                t = _shape_fraction(shapes.count, shapes.vertices, shapes.radius,
                                    shapes.centroid, shapes.body, bodies.origin, bodies.rot, f,
                                    s, bodies.sweep[b], lcx, lcy, c1x, c1y, a1,
                                    CORE_FRACTION * bodies.min_extent[b], min(best, 1.0),
                                    points, scratch, core, slop, False)
                if t < min(best, 1.0):
                    best = t
                    best_nx = 0.0
                    best_ny = 0.0
                continue
            overlap, ex, ey = _end_overlap(count_s, points, radius_s, count_f, end_points,
                                           radius_f)
            if 0.0 < overlap <= SKIN_DEPTH / LINEAR_SLOP * slop and ex * hx + ey * hy > 0.0:
                continue  # ends resting on the surface it met, within Box2D 2.3's skins
            best = t
            best_nx = hx
            best_ny = hy
    return best, best_nx, best_ny, tag


@inner_kernel
def _sweep_pass(world, fast, starts, items, with_dynamic, slop, use_kept):
    """Sweep the bodies ``fast`` (their shapes: ``items[starts[k]:starts[k + 1]]``) against the
    obstacles of their kind; returns how many were moved back. ``use_kept``: the obstacles are
    the static shapes of the world's kept grid (:mod:`.static_grid`), used instead of building
    one. Its callees take the world, not the body and shape stores (see
    :func:`.continuous._sweep_pass`)."""
    sweep = borrow_column(world, "bodies", "sweep")
    center = borrow_column(world, "bodies", "center")
    extent = borrow_column(world, "bodies", "extent")
    kept = borrow(world, "static_grid")
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
    end_points = np.empty((8, 2))
    core = np.empty((1, 2))
    tag = np.int64(-1)  # not the literal (see .continuous._sweep_pass)
    hits = 0
    for k in range(fast.shape[0]):
        b = fast[k]
        if _outside(sweep, center, extent, b, lo_x, lo_y, hi_x, hi_y):
            continue
        t, nx, ny, tag = _first_hit(world, b, items[starts[k]:starts[k + 1]], rows, boxes,
                                    grid, stamp, tag, candidates, points, scratch, end_points,
                                    core, slop)
        if t >= 1.0:
            continue
        _hit(world, b, t, nx, ny)
        hits += 1
    return hits


@borrowing_kernel
def _hit(world, b, t, nx, ny):
    """Put body ``b`` back at its time of impact ``t`` without its speed into the obstacle
    (normal ``n``), Box2D 2.3's contact solve at the TOI."""
    bodies = borrow(world, "bodies")
    _move_back(world, b, t)
    vn = bodies.v[b, 0] * nx + bodies.v[b, 1] * ny
    if vn < 0.0:  # the speed into the obstacle goes (Box2D 2.3's contact solve at the TOI)
        bodies.v[b, 0] -= vn * nx
        bodies.v[b, 1] -= vn * ny


@borrowing_kernel
def _kept_pass(world):
    """:func:`.continuous.kept_pass` with this module's hits: the fast non-bullets swept
    against the kept grid of static shapes, nothing allocated and no reference counted; the
    same sweeps as :func:`_sweep_pass` over that grid. Returns the hits, or
    :data:`.continuous.NOT_READY` / :data:`.continuous.GENERAL` with nothing changed."""
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
        t, nx, ny, tag = _first_hit(world, b, items[first[k]:first[k + 1]], rows, boxes, grid,
                                    scratch[STAMP], tag, scratch[CANDIDATES], points[0],
                                    points[1], points[2], points[3, :1], slop)
        if t < 1.0:
            _hit(world, b, t, nx, ny)
            hits += 1
    counts[TAG] = tag
    return hits


@python_stage_kernel
def solve_continuous_box2d23(world):
    """The continuous stage with Box2D 2.3's rules (module docstring): sweep every body flagged
    fast by the finalize stage, non-bullets first, and move back those that hit; clears the
    flags. Returns the number of bodies moved back. Usually :func:`_kept_pass` alone, as in
    :func:`.continuous.solve_continuous`."""
    hits = _kept_pass(world)
    if hits == NOT_READY:
        static_grid(world)
        hits = _kept_pass(world)
    if hits >= 0:
        return hits
    quick = _far_from_obstacles(world)
    if quick >= 0:
        return quick
    fast, count, bullets, starts, items = fast_bodies(world)
    slop = borrow(world, "lengths")[SLOP]
    plain = count - bullets
    hits = 0
    # the flags as np.bool_, not literals (see continuous.solve_continuous)
    if plain > 0:
        use_kept = static_grid(world)
        hits += _sweep_pass(world, fast[:plain], starts[:plain + 1], items, np.bool_(False),
                            slop, use_kept)
    if bullets > 0:
        hits += _sweep_pass(world, fast[plain:count], starts[plain:], items, np.bool_(True),
                            slop, np.bool_(False))
    return hits


__all__ = ["SKIN_DEPTH", "solve_continuous_box2d23"]
