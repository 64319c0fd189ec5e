"""Hulls, shape constructors, mass properties, bounding boxes and segment distance."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from impulse2d._collision.geometry import (
    COLLINEAR_TOLERANCE,
    WELD_DISTANCE,
    _rounded_polygon_moments,
    compute_hull,
    make_box,
    make_capsule,
    make_circle,
    make_polygon,
    make_segment,
    mass_properties,
    segment_distance,
    shape_aabb,
    transform_point,
)
from impulse2d.constants import LINEAR_SLOP

FAST = settings(max_examples=100, deadline=None)

coord = st.floats(-5.0, 5.0, allow_nan=False, allow_infinity=False)
point = st.tuples(coord, coord)


# ---------------------------------------------------------------------------------------------
# Independent reference formulas (test-local, not shared with the library)
# ---------------------------------------------------------------------------------------------


def shoelace(poly: np.ndarray):
    """Area, centroid and polar inertia about the centroid of a simple CCW polygon (unit
    density), by summing triangles about the origin."""
    area = 0.0
    cx = cy = 0.0
    j0 = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        cr = x1 * y2 - x2 * y1
        area += cr / 2
        cx += (x1 + x2) * cr / 6
        cy += (y1 + y2) * cr / 6
        j0 += cr * (x1 * x1 + x1 * x2 + x2 * x2 + y1 * y1 + y1 * y2 + y2 * y2) / 12
    cx /= area
    cy /= area
    return area, np.array([cx, cy]), j0 - area * (cx * cx + cy * cy)


def rounded_outline(core: np.ndarray, radius: float, per_corner: int = 800) -> np.ndarray:
    """Dense CCW outline of a rounded convex polygon (core CCW, at least 2 vertices)."""
    n = len(core)
    out = []
    for i in range(n):
        prev_v, v, next_v = core[i - 1], core[i], core[(i + 1) % n]
        e0 = v - prev_v
        e1 = next_v - v
        a0 = math.atan2(-e0[0], e0[1])  # outward normal of the incoming edge
        a1 = math.atan2(-e1[0], e1[1])
        if n == 2:
            a1 = a0 + math.pi
        while a1 < a0:
            a1 += 2 * math.pi
        for t in np.linspace(a0, a1, per_corner):
            out.append(v + radius * np.array([math.cos(t), math.sin(t)]))
    return np.array(out)


def padded(core) -> np.ndarray:
    out = np.zeros((8, 2))
    out[: len(core)] = core
    return out


def min_width(points: np.ndarray) -> float:
    """Smallest width of a point set over all directions (attained on a pair-defined direction)."""
    best = np.inf
    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            d = points[j] - points[i]
            length = math.hypot(*d)
            if length == 0.0:
                continue
            n = np.array([-d[1], d[0]]) / length
            proj = points @ n
            best = min(best, proj.max() - proj.min())
    return best


# ---------------------------------------------------------------------------------------------
# Hull
# ---------------------------------------------------------------------------------------------


def check_hull(pts: np.ndarray, hull: np.ndarray) -> None:
    m = len(hull)
    assert 3 <= m <= 8
    for i in range(m):
        a, b, c = hull[i], hull[(i + 1) % m], hull[(i + 2) % m]
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        assert cross > 0.0, "hull must be strictly convex and counter-clockwise"
        assert math.hypot(*(b - a)) >= WELD_DISTANCE
    # Hull vertices are input points.
    for h in hull:
        assert np.min(np.hypot(*(pts - h).T)) == 0.0
    # Every input point is inside, or outside by less than the collinear tolerance (plus the
    # weld distance for a point welded to a neighbour).
    for p in pts:
        for i in range(m):
            a, b = hull[i], hull[(i + 1) % m]
            e = b - a
            outside = ((p[0] - a[0]) * e[1] - (p[1] - a[1]) * e[0]) / math.hypot(*e)
            assert outside < COLLINEAR_TOLERANCE + WELD_DISTANCE + 1e-12


@FAST
@given(st.lists(point, min_size=3, max_size=8))
def test_hull_properties_random(points):
    pts = np.array(points)
    try:
        hull = compute_hull(pts)
    except ValueError:
        # Only justified when the welded set is (nearly) degenerate.
        distinct = []
        for p in pts:
            if all(math.hypot(*(p - q)) >= WELD_DISTANCE for q in distinct):
                distinct.append(p)
        assert len(distinct) < 3 or min_width(np.array(distinct)) < 2 * COLLINEAR_TOLERANCE + 1e-12
        return
    check_hull(pts, hull)


@FAST
@given(st.lists(point, min_size=3, max_size=8), st.floats(-math.pi, math.pi),
       st.lists(st.floats(-3 * LINEAR_SLOP, 3 * LINEAR_SLOP), min_size=8, max_size=8))
def test_hull_near_collinear_and_duplicate(points, angle, noise):
    """Points close to a line, and duplicated points: the hull is valid or a ValueError."""
    pts = np.array(points)
    line = np.array([math.cos(angle), math.sin(angle)])
    normal = np.array([-line[1], line[0]])
    pts = np.outer(pts[:, 0], line) + np.outer(np.array(noise[: len(pts)]), normal)
    pts = np.concatenate([pts, pts[:1] + 0.1 * WELD_DISTANCE])[:8]
    try:
        hull = compute_hull(pts)
    except ValueError:
        return
    check_hull(pts, hull)


def test_hull_square_with_extras():
    pts = [(0, 0), (1, 0), (1, 1), (0, 1), (0.5, 0.5), (0.5, 0.001), (1.0, 1.0 + 1e-4)]
    hull = compute_hull(pts)
    np.testing.assert_allclose(hull, [(0, 0), (1, 0), (1, 1), (0, 1)], atol=1e-3)
    assert len(hull) == 4
    # Welded duplicate: the first of the two is kept.
    assert tuple(hull[2]) == (1.0, 1.0)


def test_hull_is_ccw_for_cw_input_and_starts_lowest():
    hull = compute_hull([(0, 1), (1, 1), (1, 0), (0, 0)])
    np.testing.assert_array_equal(hull, [(0, 0), (1, 0), (1, 1), (0, 1)])


@pytest.mark.parametrize("pts, message", [
    ([(0, 0), (1, 0), (2, 0)], "collinear"),
    ([(0, 0), (1, 0.001), (2, 0), (3, -0.001)], "collinear"),
    ([(0, 0), (1, 1), (0, 0), (1, 1 + 1e-4)], "distinct"),
    ([(0, 0), (1, 0)], "distinct"),
    ([(0, 0), (1, 0), (float("nan"), 1)], "finite"),
    ([(0, 0), (1, 0), (float("inf"), 1)], "finite"),
    ([(math.cos(t), math.sin(t)) for t in np.linspace(0, 6, 9)], "at most 8"),
    # Exactly collinear after a rotation: round-off must not fake a corner.
    ([(r * math.cos(-2.0), r * math.sin(-2.0)) for r in (0.0, 3.5, 0.9375)], "collinear"),
    ([(0, 0, 0), (1, 0, 0), (0, 1, 0)], "shape"),
    ([0, 1, 2], "shape"),
])
def test_hull_rejects(pts, message):
    with pytest.raises(ValueError, match=message):
        compute_hull(pts)


def test_hull_rejects_non_numeric():
    with pytest.raises(TypeError):
        compute_hull([("a", 0), (1, 0), (0, 1)])


# ---------------------------------------------------------------------------------------------
# Constructors
# ---------------------------------------------------------------------------------------------


def test_make_box_layout():
    g = make_box(2.0, 1.0, center=(1.0, -1.0), angle=math.pi / 2, radius=0.1)
    assert g.count == 4 and g.radius == 0.1
    np.testing.assert_allclose(g.vertices[:4], [(2, -3), (2, 1), (0, 1), (0, -3)], atol=1e-12)
    np.testing.assert_allclose(g.normals[:4], [(1, 0), (0, 1), (-1, 0), (0, -1)], atol=1e-12)
    np.testing.assert_array_equal(g.vertices[4:], 0.0)
    np.testing.assert_allclose(g.centroid, (1.0, -1.0))


def test_polygon_normals_and_centroid():
    g = make_polygon([(0, 0), (3, 0), (0, 3)])
    assert g.count == 3
    np.testing.assert_allclose(g.centroid, (1.0, 1.0), atol=1e-12)
    s = 1 / math.sqrt(2)
    np.testing.assert_allclose(g.normals[:3], [(0, -1), (s, s), (-1, 0)], atol=1e-12)
    for i in range(3):
        e = g.vertices[(i + 1) % 3] - g.vertices[i]
        assert abs(g.normals[i] @ e) < 1e-12
        assert abs(np.linalg.norm(g.normals[i]) - 1) < 1e-12


def test_capsule_segment_circle_layout():
    cap = make_capsule((0, 0), (2, 0), 0.5)
    assert cap.count == 2 and cap.radius == 0.5
    np.testing.assert_allclose(cap.normals[0], (0, -1))
    np.testing.assert_allclose(cap.normals[1], (0, 1))
    np.testing.assert_allclose(cap.centroid, (1, 0))
    seg = make_segment((0, 0), (0, 2))
    assert seg.count == 2 and seg.radius == 0.0
    np.testing.assert_allclose(seg.centroid, (0, 1))
    circ = make_circle((1, 2), 0.3)
    assert circ.count == 1
    np.testing.assert_allclose(circ.vertices[0], (1, 2))
    np.testing.assert_allclose(circ.centroid, (1, 2))


@pytest.mark.parametrize("make, message", [
    (lambda: make_box(0.0, 1.0), "hx"),
    (lambda: make_box(1.0, -1.0), "hy"),
    (lambda: make_box(1e-3, 1.0), "half-widths"),
    (lambda: make_box(1.0, 1.0, radius=-0.1), "radius"),
    (lambda: make_box(1.0, float("inf")), "finite"),
    (lambda: make_box(1.0, 1.0, center=(0, float("nan"))), "finite"),
    (lambda: make_box(1.0, 1.0, angle=float("nan")), "finite"),
    (lambda: make_circle((0, 0), 0.0), "radius"),
    (lambda: make_circle((0, 0, 0), 1.0), "pair"),
    (lambda: make_capsule((0, 0), (0, 0.001), 0.5), "apart"),
    (lambda: make_capsule((0, 0), (1, 0), 0.0), "radius"),
    (lambda: make_capsule((0, 0), (1, 0), float("nan")), "finite"),
    (lambda: make_segment((1, 1), (1, 1)), "apart"),
    (lambda: make_polygon([(0, 0), (1, 0), (0, 1)], radius=-1.0), "radius"),
])
def test_constructors_reject(make, message):
    with pytest.raises(ValueError, match=message):
        make()


# ---------------------------------------------------------------------------------------------
# Mass properties
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hx, hy, rho", [(1.0, 1.0, 1.0), (2.0, 0.5, 3.0), (0.05, 4.0, 0.25)])
def test_box_mass(hx, hy, rho):
    g = make_box(hx, hy, center=(0.3, -0.7), angle=0.4)
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, rho)
    expected_m = rho * 4 * hx * hy
    assert m == pytest.approx(expected_m, rel=1e-12)
    np.testing.assert_allclose(c, (0.3, -0.7), atol=1e-12)
    assert inertia == pytest.approx(expected_m * ((2 * hx) ** 2 + (2 * hy) ** 2) / 12, rel=1e-12)


def test_circle_mass():
    g = make_circle((1.0, 2.0), 0.5)
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, 2.0)
    assert m == pytest.approx(2.0 * math.pi * 0.25, rel=1e-14)
    np.testing.assert_allclose(c, (1.0, 2.0))
    assert inertia == pytest.approx(0.5 * m * 0.25, rel=1e-14)


@numba.njit(cache=False)
def rounded_polygon_moments(count, vertices, radius):
    """:func:`_rounded_polygon_moments` from Python (an inner kernel: only
    ``mass_properties`` calls it)."""
    return _rounded_polygon_moments(count, vertices, radius)


@pytest.mark.parametrize("p1, p2, r", [((0, 0), (2, 0), 0.5), ((-1, 0.5), (1, -0.3), 0.1),
                                       ((0, 0), (0.01, 0), 1.0)])
def test_capsule_mass_vs_dense_outline(p1, p2, r):
    g = make_capsule(p1, p2, r)
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, 1.7)
    area, centre, j = shoelace(rounded_outline(g.vertices[:2], r))
    # A 1600-gon inscribed in the caps: relative error about (pi/1600)^2 / 3 ~ 1e-6.
    assert m == pytest.approx(1.7 * area, rel=1e-5)
    np.testing.assert_allclose(c, centre, atol=1e-9)
    np.testing.assert_allclose(c, 0.5 * (np.array(p1) + np.array(p2)), atol=1e-12)
    assert inertia == pytest.approx(1.7 * j, rel=1e-5)
    # Closed form and the general rounded-polygon decomposition agree.
    a2, cx2, cy2, j2 = rounded_polygon_moments(2, g.vertices, r)
    assert m == pytest.approx(1.7 * a2, rel=1e-12)
    assert inertia == pytest.approx(1.7 * j2, rel=1e-12)
    np.testing.assert_allclose((cx2, cy2), c, atol=1e-12)


def test_capsule_mass_vs_grid_integration():
    g = make_capsule((-0.6, 0.1), (0.4, -0.2), 0.3)
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, 1.0)
    h = 0.002
    xs = np.arange(-1.0, 1.0, h) + h / 2
    x, y = np.meshgrid(xs, xs)
    p1, p2 = g.vertices[0], g.vertices[1]
    e = p2 - p1
    t = np.clip(((x - p1[0]) * e[0] + (y - p1[1]) * e[1]) / (e @ e), 0, 1)
    inside = np.hypot(x - (p1[0] + t * e[0]), y - (p1[1] + t * e[1])) <= 0.3
    area = inside.sum() * h * h
    cx, cy = x[inside].mean(), y[inside].mean()
    j = (((x - cx) ** 2 + (y - cy) ** 2)[inside]).sum() * h * h
    assert m == pytest.approx(area, rel=2e-3)
    np.testing.assert_allclose(c, (cx, cy), atol=1e-3)
    assert inertia == pytest.approx(j, rel=3e-3)


def test_segment_and_zero_density():
    g = make_segment((0, 0), (2, 2))
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, 5.0)
    assert m == 0.0 and inertia == 0.0
    np.testing.assert_allclose(c, (1, 1))
    b = make_box(1.0, 2.0, radius=0.1)
    m, c, inertia = mass_properties(b.count, b.vertices, b.radius, 0.0)
    assert m == 0.0 and inertia == 0.0


@pytest.mark.parametrize("pts", [
    [(0, 0), (3, 0), (0, 3)],
    [(0, 0), (2, -1), (4, 1), (3, 3), (1, 4), (-1, 2)],
    [(5, 5), (5.2, 5), (5.1, 7)],
])
def test_polygon_mass_vs_triangulation(pts):
    g = make_polygon(pts)
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, 2.0)
    area, centre, j = shoelace(g.vertices[: g.count])
    assert m == pytest.approx(2.0 * area, rel=1e-12)
    np.testing.assert_allclose(c, centre, atol=1e-12)
    np.testing.assert_allclose(g.centroid, centre, atol=1e-12)
    assert inertia == pytest.approx(2.0 * j, rel=1e-10)


@pytest.mark.parametrize("pts, r", [
    ([(0, 0), (1, 0), (1, 1), (0, 1)], 0.2),
    ([(0, 0), (3, 0), (0, 1)], 0.5),
    ([(0, 0), (2, -1), (4, 1), (3, 3), (1, 4), (-1, 2)], 0.05),
])
def test_rounded_polygon_mass_exact(pts, r):
    g = make_polygon(pts, radius=r)
    core = g.vertices[: g.count]
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, 1.0)
    perimeter = sum(np.linalg.norm(core[(i + 1) % len(core)] - core[i]) for i in range(len(core)))
    a0, _, _ = shoelace(core)
    assert m == pytest.approx(a0 + perimeter * r + math.pi * r * r, rel=1e-12)
    area, centre, j = shoelace(rounded_outline(core, r))
    assert m == pytest.approx(area, rel=1e-5)
    np.testing.assert_allclose(c, centre, atol=1e-6)
    np.testing.assert_allclose(g.centroid, c, atol=1e-12)
    assert inertia == pytest.approx(j, rel=1e-5)


def test_rounded_box_mass_closed_form():
    # Rounded square of core side a, radius r: pieces add up by hand.
    a, r = 2.0, 0.5
    g = make_box(a / 2, a / 2, radius=r)
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, 1.0)
    area = a * a + 4 * a * r + math.pi * r * r
    assert m == pytest.approx(area, rel=1e-14)
    np.testing.assert_allclose(c, 0.0, atol=1e-14)
    core = a ** 4 / 6
    # Four side rectangles a x r centred at a/2 + r/2.
    rect = 4 * (a * r * (a * a + r * r) / 12 + a * r * (a / 2 + r / 2) ** 2)
    # Four quarter discs about their corner: pi r^4 / 8 each ... moved to the centre.
    d = 4 * r / (3 * math.pi)
    quarter_area = math.pi * r * r / 4
    own = math.pi * r ** 4 / 8 - quarter_area * 2 * d * d
    corner = 4 * (own + quarter_area * 2 * (a / 2 + d) ** 2)
    assert inertia == pytest.approx(core + rect + corner, rel=1e-12)


@FAST
@given(st.lists(point, min_size=3, max_size=8), st.sampled_from([0.0, 0.05, 0.7]),
       st.floats(-math.pi, math.pi), coord, coord, st.floats(0.1, 10.0))
def test_mass_invariant_under_rigid_motion(points, radius, angle, tx, ty, rho):
    try:
        g = make_polygon(points, radius=radius)
    except ValueError:
        assume(False)
    m, c, inertia = mass_properties(g.count, g.vertices, g.radius, rho)
    cs, sn = math.cos(angle), math.sin(angle)
    moved = g.vertices.copy()
    moved[: g.count, 0] = cs * g.vertices[: g.count, 0] - sn * g.vertices[: g.count, 1] + tx
    moved[: g.count, 1] = sn * g.vertices[: g.count, 0] + cs * g.vertices[: g.count, 1] + ty
    m2, c2, inertia2 = mass_properties(g.count, moved, g.radius, rho)
    assert m2 == pytest.approx(m, rel=1e-10)
    assert inertia2 == pytest.approx(inertia, rel=1e-8, abs=1e-12)
    np.testing.assert_allclose(c2, (cs * c[0] - sn * c[1] + tx, sn * c[0] + cs * c[1] + ty),
                               atol=1e-9)


# ---------------------------------------------------------------------------------------------
# Bounding boxes, transforms, segment distance
# ---------------------------------------------------------------------------------------------


def test_shape_aabb():
    out = np.zeros(4)
    box = make_box(1.0, 0.5, radius=0.1)
    shape_aabb(box.count, box.vertices, box.radius, 2.0, 3.0, 0.0, 1.0, out)  # rotated 90 deg
    np.testing.assert_allclose(out, (1.4, 1.9, 2.6, 4.1), atol=1e-12)
    circ = make_circle((1.0, 0.0), 0.5)
    c, s = math.cos(0.3), math.sin(0.3)
    shape_aabb(circ.count, circ.vertices, circ.radius, -1.0, 0.0, c, s, out)
    np.testing.assert_allclose(out, (-1 + c - 0.5, s - 0.5, -1 + c + 0.5, s + 0.5), atol=1e-12)


@FAST
@given(st.sampled_from(["box", "capsule", "segment", "poly"]), st.floats(-math.pi, math.pi),
       coord, coord)
def test_shape_aabb_bounds_outline_tightly(kind, angle, px, py):
    g = {
        "box": make_box(0.7, 0.2, radius=0.05),
        "capsule": make_capsule((-0.5, 0.1), (0.4, -0.3), 0.2),
        "segment": make_segment((-0.5, 0.1), (0.4, -0.3)),
        "poly": make_polygon([(0, 0), (1, 0.2), (0.5, 1)], radius=0.1),
    }[kind]
    c, s = math.cos(angle), math.sin(angle)
    out = np.zeros(4)
    shape_aabb(g.count, g.vertices, g.radius, px, py, c, s, out)
    core = g.vertices[: g.count]
    outline = rounded_outline(core, g.radius, 400) if g.radius > 0 else core
    world = np.stack([c * outline[:, 0] - s * outline[:, 1] + px,
                      s * outline[:, 0] + c * outline[:, 1] + py], axis=1)
    expected = (*world.min(axis=0), *world.max(axis=0))
    np.testing.assert_allclose(out, expected, atol=1e-4)
    assert out[0] <= world[:, 0].min() + 1e-12 and out[2] >= world[:, 0].max() - 1e-12


def test_transform_point_round_trip():
    from impulse2d._collision.geometry import inv_transform_point

    c, s = math.cos(1.1), math.sin(1.1)
    x, y = transform_point(1.0, -2.0, c, s, 0.3, 0.4)
    assert math.hypot(x - 1.0, y + 2.0) == pytest.approx(0.5)
    u, v = inv_transform_point(1.0, -2.0, c, s, x, y)
    assert (u, v) == pytest.approx((0.3, 0.4), abs=1e-14)


seg_coord = st.floats(-2.0, 2.0, allow_nan=False)


@FAST
@given(st.tuples(*[seg_coord] * 8), st.booleans())
def test_segment_distance_is_minimal(coords, degenerate):
    p1x, p1y, q1x, q1y, p2x, p2y, q2x, q2y = coords
    if degenerate:
        q2x, q2y = p2x, p2y
    f1, f2, c1x, c1y, c2x, c2y, dsq = segment_distance(p1x, p1y, q1x, q1y, p2x, p2y, q2x, q2y)
    assert 0.0 <= f1 <= 1.0 and 0.0 <= f2 <= 1.0
    assert (c1x, c1y) == pytest.approx((p1x + f1 * (q1x - p1x), p1y + f1 * (q1y - p1y)), abs=1e-12)
    assert (c2x, c2y) == pytest.approx((p2x + f2 * (q2x - p2x), p2y + f2 * (q2y - p2y)), abs=1e-12)
    t = np.linspace(0.0, 1.0, 201)
    a = np.stack([p1x + t * (q1x - p1x), p1y + t * (q1y - p1y)], axis=1)
    b = np.stack([p2x + t * (q2x - p2x), p2y + t * (q2y - p2y)], axis=1)
    brute = np.min(np.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=2))
    assert math.sqrt(dsq) <= math.sqrt(brute) + 1e-9


def test_segment_distance_cases():
    # Crossing: distance 0 at the crossing point.
    f1, f2, *_, dsq = segment_distance(-1, 0, 1, 0, 0, -1, 0, 1)
    assert (f1, f2, dsq) == pytest.approx((0.5, 0.5, 0.0))
    # End to end, collinear: vertex-vertex with exact fractions.
    f1, f2, *_, dsq = segment_distance(0, 0, 1, 0, 1.5, 0, 3, 0)
    assert (f1, f2) == (1.0, 0.0) and dsq == pytest.approx(0.25)
    # Parallel, overlapping: distance is the offset.
    *_, dsq = segment_distance(0, 0, 2, 0, 1, 0.5, 3, 0.5)
    assert dsq == pytest.approx(0.25)
