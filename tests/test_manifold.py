"""Narrowphase manifolds: known configurations, speculative range, rigid-motion invariance,
A/B symmetry and agreement with a brute-force distance."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from impulse2d._collision.geometry import (
    make_box,
    make_capsule,
    make_circle,
    make_polygon,
    make_segment,
    segment_distance,
)
from impulse2d._collision.manifold import (
    REFERENCE_TOLERANCE,
    SEPARATED_TOLERANCE,
    collide,
    collide_pair,
    collide_shapes,
    reference_separations,
)
from impulse2d.constants import LINEAR_SLOP, SPECULATIVE_DISTANCE

SPEC = SPECULATIVE_DISTANCE
TOL = 1e-9


def unit(angle):
    return np.array([math.cos(angle), math.sin(angle)])


def rot(angle, v):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def check_manifold(m, spec=SPEC):
    """Structural invariants every manifold must satisfy."""
    k = len(m.ids)
    assert k <= 2 and m.points.shape == (k, 2) and m.separations.shape == (k,)
    if k:
        assert abs(np.linalg.norm(m.normal) - 1.0) < 1e-12
        assert np.all(m.separations < spec)
    if k == 2:
        assert m.ids[0] != m.ids[1]
        assert np.linalg.norm(m.points[0] - m.points[1]) > 1e-6


def collide_checked(a, xa, b, xb, spec=SPEC):
    m = collide_shapes(a, xa, b, xb, spec)
    check_manifold(m, spec)
    return m


# ---------------------------------------------------------------------------------------------
# Known configurations
# ---------------------------------------------------------------------------------------------

GROUND = make_box(5.0, 0.5)
CRATE = make_box(0.5, 0.5)


@pytest.mark.parametrize("d", [0.0, 1e-4, 0.003, 0.01, 0.1])
def test_box_resting_on_box(d):
    m = collide_checked(GROUND, (0, 0, 0), CRATE, (0.3, 1.0 - d, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    np.testing.assert_allclose(m.separations, (-d, -d), atol=TOL)
    np.testing.assert_allclose(sorted(m.points[:, 0]), (-0.2, 0.8), atol=TOL)
    np.testing.assert_allclose(m.points[:, 1], 0.5 - d / 2, atol=TOL)


def test_box_on_box_reversed_order_points_down():
    m = collide_checked(CRATE, (0.3, 0.99, 0), GROUND, (0, 0, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, (0, -1), atol=1e-15)
    np.testing.assert_allclose(m.separations, (-0.01, -0.01), atol=TOL)


def test_box_overhanging_edge_clips_to_reference_face():
    # The crate hangs over the ground's right end (x = 5): the clipped point sits at x = 5.
    m = collide_checked(GROUND, (0, 0, 0), CRATE, (4.8, 0.99, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(sorted(m.points[:, 0]), (4.3, 5.0), atol=TOL)
    np.testing.assert_allclose(m.separations, -0.01, atol=TOL)


def test_tilted_box_on_box_single_deep_corner():
    # Crate rotated by 0.3 rad: only its lowest corner is within reach.
    corners = [rot(0.3, v) for v in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]]
    lowest = min(corners, key=lambda v: v[1])
    py = 0.5 - lowest[1] - 0.02  # lowest corner 0.02 below the ground top
    m = collide_checked(GROUND, (0, 0, 0), CRATE, (0.0, py, 0.3))
    assert len(m.ids) == 1
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    assert m.separations[0] == pytest.approx(-0.02, abs=TOL)
    np.testing.assert_allclose(m.points[0], (lowest[0], 0.49), atol=TOL)


def test_circle_on_box():
    ball = make_circle((0, 0), 0.5)
    m = collide_checked(GROUND, (0, 0, 0), ball, (0.2, 0.99, 0))
    assert len(m.ids) == 1
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    assert m.separations[0] == pytest.approx(-0.01, abs=TOL)
    np.testing.assert_allclose(m.points[0], (0.2, 0.495), atol=TOL)
    # Reversed order: same point, normal flipped.
    m2 = collide_checked(ball, (0.2, 0.99, 0), GROUND, (0, 0, 0))
    np.testing.assert_allclose(m2.normal, (0, -1), atol=1e-15)
    np.testing.assert_allclose(m2.points, m.points, atol=TOL)


def test_circle_near_box_corner_uses_vertex_normal():
    ball = make_circle((0, 0), 0.1)
    corner = np.array([0.5, 0.5])
    direction = unit(0.6)
    centre = corner + (0.1 + 0.005) * direction
    m = collide_checked(CRATE, (0, 0, 0), ball, (*centre, 0))
    assert len(m.ids) == 1
    np.testing.assert_allclose(m.normal, direction, atol=1e-12)
    assert m.separations[0] == pytest.approx(0.005, abs=TOL)
    np.testing.assert_allclose(m.points[0], corner + 0.0025 * direction, atol=TOL)


def test_circle_centre_inside_polygon_uses_face_normal():
    ball = make_circle((0, 0), 0.1)
    m = collide_checked(CRATE, (0, 0, 0), ball, (0.1, 0.4, 0))
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    assert m.separations[0] == pytest.approx(-0.2, abs=TOL)


def test_circle_rounded_polygon():
    rounded = make_box(0.5, 0.5, radius=0.1)
    ball = make_circle((0, 0), 0.2)
    # Face region: surfaces at y = 0.6 and y = 0.7 - 0.2 = 0.5 -> overlap 0.1.
    m = collide_checked(rounded, (0, 0, 0), ball, (0.0, 0.7, 0))
    assert m.separations[0] == pytest.approx(-0.1, abs=TOL)
    # Corner region: distance from the core corner minus both radii.
    centre = np.array([0.5, 0.5]) + 0.31 * unit(0.7)
    m = collide_checked(rounded, (0, 0, 0), ball, (*centre, 0))
    assert m.separations[0] == pytest.approx(0.01, abs=TOL)
    np.testing.assert_allclose(m.normal, unit(0.7), atol=1e-12)


def test_circles():
    a = make_circle((0.1, 0), 0.5)
    b = make_circle((0, 0), 0.3)
    m = collide_checked(a, (1, 1, 0.0), b, (1.1 + 0.6 * 0.8, 1 + 0.6 * 0.6, 0.0))
    np.testing.assert_allclose(m.normal, (0.8, 0.6), atol=1e-12)
    assert m.separations[0] == pytest.approx(-0.2, abs=TOL)
    np.testing.assert_allclose(m.points[0], (1.1 + 0.4 * 0.8, 1 + 0.4 * 0.6), atol=TOL)
    # Concentric: a finite, unit normal and full overlap.
    m = collide_checked(b, (0, 0, 0), b, (0, 0, 0))
    assert m.separations[0] == pytest.approx(-0.6)


def test_capsule_circle_side_and_cap():
    cap = make_capsule((-1, 0), (1, 0), 0.2)
    ball = make_circle((0, 0), 0.3)
    m = collide_checked(cap, (0, 0, 0), ball, (0.4, -0.49, 0))
    np.testing.assert_allclose(m.normal, (0, -1), atol=1e-15)
    assert m.separations[0] == pytest.approx(-0.01, abs=TOL)
    m = collide_checked(ball, (1.0 + 0.51 * 0.6, 0.51 * 0.8, 0), cap, (0, 0, 0))
    np.testing.assert_allclose(m.normal, (-0.6, -0.8), atol=1e-12)
    assert m.separations[0] == pytest.approx(0.01, abs=TOL)
    # Circle centre on the core segment: the segment normal, full overlap.
    m = collide_checked(cap, (0, 0, 0), ball, (0.3, 0.0, 0))
    assert abs(m.normal[0]) < 1e-15 and m.separations[0] == pytest.approx(-0.5)


@pytest.mark.parametrize("d", [0.0, 0.004, 0.05])
def test_capsule_lying_on_box(d):
    cap = make_capsule((-1, 0), (1, 0), 0.25)
    m = collide_checked(GROUND, (0, 0, 0), cap, (0.5, 0.75 - d, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    np.testing.assert_allclose(m.separations, -d, atol=TOL)
    np.testing.assert_allclose(sorted(m.points[:, 0]), (-0.5, 1.5), atol=TOL)
    np.testing.assert_allclose(m.points[:, 1], 0.5 - d / 2, atol=TOL)


def test_capsule_leaning_on_box_touches_with_one_end():
    cap = make_capsule((-1, 0), (1, 0), 0.25)
    angle = 1.0  # steep: the lower end cap rests on the ground
    low_end = rot(angle, (-1, 0))
    py = 0.5 + 0.25 - low_end[1] - 0.01
    m = collide_checked(GROUND, (0, 0, 0), cap, (0.0, py, angle))
    assert len(m.ids) == 1
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-12)
    assert m.separations[0] == pytest.approx(-0.01, abs=TOL)
    assert m.points[0][0] == pytest.approx(low_end[0], abs=TOL)


@pytest.mark.parametrize("offset", [0.0, 0.7])
def test_parallel_capsules_two_points(offset):
    a = make_capsule((-1, 0), (1, 0), 0.2)
    b = make_capsule((-0.5, 0), (0.5, 0), 0.3)
    m = collide_checked(a, (0, 0, 0), b, (offset, 0.49, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    np.testing.assert_allclose(m.separations, -0.01, atol=TOL)
    lo, hi = max(-1, offset - 0.5), min(1, offset + 0.5)
    np.testing.assert_allclose(sorted(m.points[:, 0]), (lo, hi), atol=TOL)


def test_crossing_capsules_one_point():
    a = make_capsule((-1, 0), (1, 0), 0.1)
    b = make_capsule((0, 0), (0, 2), 0.1)  # standing on a, 0.15 above its core
    m = collide_checked(a, (0, 0, 0), b, (0.2, 0.15, 0.3))
    # b's lower end is at (0.2, 0.15) whatever its tilt.
    assert len(m.ids) == 1
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-12)
    assert m.separations[0] == pytest.approx(-0.05, abs=TOL)
    np.testing.assert_allclose(m.points[0], (0.2, 0.075), atol=TOL)


@pytest.mark.parametrize("gap", [-0.1, -0.01, 0.01])
def test_collinear_capsules_end_to_end(gap):
    """Only the end caps touch: needs the segment's end directions as separating axes."""
    a = make_capsule((0, 0), (1, 0), 0.3)
    b = make_capsule((0, 0), (1, 0), 0.3)
    for angle in (0.0, 0.8):
        xb = rot(angle, (1.6 + gap, 0))
        m = collide_checked(a, (0, 0, angle), b, (*xb, angle))
        assert len(m.ids) == 1
        np.testing.assert_allclose(m.normal, unit(angle), atol=1e-12)
        assert m.separations[0] == pytest.approx(gap, abs=TOL)
        np.testing.assert_allclose(m.points[0], rot(angle, (1.3 + gap / 2, 0)), atol=TOL)


def test_segment_ground_and_box():
    ground = make_segment((-5, 0), (5, 0))
    m = collide_checked(ground, (0, 0, 0), CRATE, (1.0, 0.49, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    np.testing.assert_allclose(m.separations, -0.01, atol=TOL)
    np.testing.assert_allclose(sorted(m.points[:, 0]), (0.5, 1.5), atol=TOL)
    np.testing.assert_allclose(m.points[:, 1], -0.005, atol=TOL)
    m = collide_checked(CRATE, (1.0, 0.49, 0), ground, (0, 0, 0))
    np.testing.assert_allclose(m.normal, (0, -1), atol=1e-15)
    np.testing.assert_allclose(m.separations, -0.01, atol=TOL)


def test_segment_poking_into_box_side():
    seg = make_segment((0, 0), (2, 0))
    m = collide_checked(CRATE, (0, 0, 0), seg, (0.4, 0.1, 0))
    assert len(m.ids) == 1
    np.testing.assert_allclose(m.normal, (1, 0), atol=1e-15)
    assert m.separations[0] == pytest.approx(-0.1, abs=TOL)
    np.testing.assert_allclose(m.points[0], (0.45, 0.1), atol=TOL)


def test_segment_and_capsule():
    ground = make_segment((-5, 0), (5, 0))
    cap = make_capsule((-1, 0), (1, 0), 0.25)
    m = collide_checked(ground, (0, 0, 0), cap, (0, 0.24, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, (0, 1), atol=1e-15)
    np.testing.assert_allclose(m.separations, -0.01, atol=TOL)
    m = collide_checked(cap, (0, 0.24, 0), ground, (0, 0, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, (0, -1), atol=1e-15)
    # Off the end of the ground segment: the capsule end cap against the segment's end point.
    m = collide_checked(ground, (0, 0, 0), cap, (6.0 + 0.25 * 0.6, 0.25 * 0.8 - 0.02, 0))
    assert len(m.ids) == 1
    assert m.separations[0] == pytest.approx(
        math.hypot(0.15, 0.18) - 0.25, abs=TOL)


def test_rounded_boxes_corner_to_corner():
    a = make_box(0.5, 0.5, radius=0.1)
    direction = unit(0.9)
    gap = 0.01
    corner_b = np.array([0.5, 0.5]) + (0.2 + gap) * direction
    centre_b = corner_b + (0.5, 0.5)  # b's lower-left core corner at corner_b
    m = collide_checked(a, (0, 0, 0), a, (*centre_b, 0))
    assert len(m.ids) == 1
    np.testing.assert_allclose(m.normal, direction, atol=1e-12)
    assert m.separations[0] == pytest.approx(gap, abs=TOL)
    np.testing.assert_allclose(m.points[0], (0.5, 0.5) + (0.1 + gap / 2) * direction, atol=TOL)
    assert m.ids[0] == (2 << 8) | 0  # a's upper-right vertex, b's lower-left vertex


@pytest.mark.parametrize("position, normal, depth", [
    ((0.3, 0.9), (0, 1), 0.1), ((0.9, 0.3), (1, 0), 0.1), ((-0.2, -0.6), (0, -1), 0.4),
])
def test_deep_overlap_picks_least_penetration_axis(position, normal, depth):
    m = collide_checked(CRATE, (0, 0, 0), CRATE, (*position, 0))
    assert len(m.ids) == 2
    np.testing.assert_allclose(m.normal, normal, atol=1e-15)
    np.testing.assert_allclose(m.separations, -depth, atol=TOL)


@pytest.mark.parametrize("theta, flipped", [(1e-4, False), (2e-3, True)])
def test_reference_face_prefers_a_within_tolerance(theta, flipped):
    """A tilted crate (A) on the ground (B): the ground's face is better by about 4.5 theta;
    it only becomes the reference when that beats REFERENCE_TOLERANCE."""
    xa = (0.0, 0.99, theta)
    sep_a, _, sep_b, _ = reference_separations(CRATE.count, CRATE.vertices, CRATE.normals,
                                               *_xf4(xa), GROUND.count, GROUND.vertices,
                                               GROUND.normals, 0.0, 0.0, 1.0, 0.0)
    assert sep_b > sep_a
    assert (sep_b > sep_a + REFERENCE_TOLERANCE) == flipped
    m = collide_checked(CRATE, xa, GROUND, (0, 0, 0))
    expected = (0.0, -1.0) if flipped else rot(theta, (0.0, -1.0))
    np.testing.assert_allclose(m.normal, expected, atol=1e-15)


def test_ids_stable_under_small_motion_and_distinct():
    base = collide_checked(GROUND, (0, 0, 0), CRATE, (0.3, 0.99, 0.0))
    for dx, dy, da in [(1e-3, 0, 0), (0, 2e-3, 0), (0, 0, 1e-5), (-0.05, 0.003, -1e-5)]:
        m = collide_checked(GROUND, (0, 0, 0), CRATE, (0.3 + dx, 0.99 + dy, da))
        assert len(m.ids) == 2
        # Same ids for the points at the same place.
        for i in range(2):
            j = int(np.argmin(np.linalg.norm(base.points - m.points[i], axis=1)))
            assert m.ids[i] == base.ids[j]
    assert base.ids[0] != base.ids[1]


def test_kernel_signature_and_outputs():
    a, b = GROUND, CRATE
    normal = np.zeros(2)
    points = np.zeros((2, 3))
    ids = np.zeros(2, dtype=np.int64)
    n = collide(a.count, a.vertices, a.normals, a.radius, 0.0, 0.0, 1.0, 0.0,
                b.count, b.vertices, b.normals, b.radius, 0.3, 0.99, 1.0, 0.0,
                SPEC, normal, points, ids)
    assert n == 2
    np.testing.assert_allclose(points[:, 2], -0.01, atol=TOL)
    n = collide(a.count, a.vertices, a.normals, a.radius, 0.0, 0.0, 1.0, 0.0,
                b.count, b.vertices, b.normals, b.radius, 0.3, 1.5, 1.0, 0.0,
                SPEC, normal, points, ids)
    assert n == 0


# ---------------------------------------------------------------------------------------------
# Speculative range: gap 0.01 gives points with separation +0.01, gap 0.05 gives none
# ---------------------------------------------------------------------------------------------


def configurations(gap):
    """(shape a, xf a, shape b, xf b, expected point count) with surfaces ``gap`` apart."""
    cap = make_capsule((-1, 0), (1, 0), 0.25)
    ball = make_circle((0, 0), 0.3)
    rounded = make_box(0.4, 0.4, radius=0.1)
    tri = make_polygon([(0, 0), (1, 0), (0.4, 0.8)])
    d = unit(0.8)
    return [
        (GROUND, (0, 0, 0), CRATE, (0.3, 1.0 + gap, 0), 2),
        (GROUND, (0, 0, 0), ball, (-1.0, 0.8 + gap, 0), 1),
        (ball, (0, 0, 0), ball, (0.6 + gap, 0.0, 0), 1),
        (GROUND, (0, 0, 0), cap, (1.0, 0.75 + gap, 0), 2),
        (cap, (0, 0, 0), cap, (0.5, 0.5 + gap, 0), 2),
        (make_segment((-2, 0), (2, 0)), (0, 0, 0), ball, (0.5, 0.3 + gap, 0), 1),
        (rounded, (0, 0, 0), rounded, (*((0.8, 0.8) + (0.2 + gap) * d), 0), 1),
        (tri, (0, 0, 0), CRATE, (0.5, 1.3 + gap, 0), 1),  # triangle apex under a box face
        (cap, (0, 0, 0), ball, (1.0 + (0.55 + gap) * d[0], (0.55 + gap) * d[1], 0), 1),
    ]


@pytest.mark.parametrize("index", range(9))
def test_speculative_gap(index):
    a, xa, b, xb, count = configurations(0.01)[index]
    m = collide_checked(a, xa, b, xb)
    assert len(m.ids) == count
    np.testing.assert_allclose(m.separations, 0.01, atol=TOL)
    a, xa, b, xb, _ = configurations(0.05)[index]
    assert len(collide_checked(a, xa, b, xb).ids) == 0
    # A larger speculative distance brings them back.
    assert len(collide_checked(a, xa, b, xb, spec=0.06).ids) == count


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8), st.floats(-math.pi, math.pi), st.floats(-50, 50), st.floats(-50, 50),
       st.sampled_from([-0.03, 0.0, 0.01]))
def test_rigid_motion_of_the_pair(index, angle, tx, ty, gap):
    """Moving the whole pair rotates/translates the manifold and keeps the separations."""
    a, xa, b, xb, count = configurations(gap)[index]
    m0 = collide_checked(a, xa, b, xb)
    assert len(m0.ids) == count

    def move(xf):
        p = rot(angle, xf[:2]) + (tx, ty)
        return (p[0], p[1], xf[2] + angle)

    m1 = collide_checked(a, move(xa), b, move(xb))
    assert len(m1.ids) == count
    np.testing.assert_allclose(m1.normal, rot(angle, m0.normal), atol=1e-9)
    np.testing.assert_allclose(m1.separations, m0.separations, atol=1e-9)
    np.testing.assert_array_equal(m1.ids, m0.ids)
    for p0, p1 in zip(m0.points, m1.points):
        np.testing.assert_allclose(p1, rot(angle, p0) + (tx, ty), atol=1e-9)


# ---------------------------------------------------------------------------------------------
# Random shapes: symmetry and brute-force agreement
# ---------------------------------------------------------------------------------------------

size = st.floats(0.1, 1.0)
small_radius = st.floats(0.02, 0.4)


KINDS = ["circle", "capsule", "segment", "polygon", "box", "rounded"]


@st.composite
def shapes(draw, kinds=tuple(KINDS)):
    kind = draw(st.sampled_from(kinds))
    if kind == "circle":
        return make_circle((draw(st.floats(-0.3, 0.3)), 0.0), draw(size))
    if kind in ("capsule", "segment"):
        p1 = (-draw(size), draw(st.floats(-0.3, 0.3)))
        p2 = (draw(size), draw(st.floats(-0.3, 0.3)))
        return make_capsule(p1, p2, draw(small_radius)) if kind == "capsule" else make_segment(p1, p2)
    if kind == "box":
        return make_box(draw(size), draw(size), angle=draw(st.floats(-1, 1)))
    if kind == "rounded":
        return make_box(draw(size), draw(size), radius=draw(small_radius))
    pts = draw(st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=3, max_size=8))
    try:
        return make_polygon(pts, radius=draw(st.sampled_from([0.0, 0.05, 0.2])))
    except ValueError:
        assume(False)


transform_near = st.tuples(st.floats(-2.0, 2.0), st.floats(-2.0, 2.0), st.floats(-math.pi, math.pi))


def _xf4(xf):
    return xf[0], xf[1], math.cos(xf[2]), math.sin(xf[2])


def _away_from_thresholds(a, xa, b, xb, manifolds):
    """False for configurations on a decision boundary, where the two argument orders may
    legitimately take different branches because their round-off differs:

    * near-tie of the reference face: ``collide(a, b)`` keeps a's face unless b's is better by
      REFERENCE_TOLERANCE and ``collide(b, a)`` keeps b's unless a's is, so for
      ``|sep_a - sep_b| <= REFERENCE_TOLERANCE`` each order picks its own first shape (by design:
      that bias is what keeps the choice stable over time);
    * core separation at SEPARATED_TOLERANCE (closest-feature path vs clipping);
    * a separation at the speculative distance (point kept or not);
    * concentric circles, whose normal is a fixed direction of the first circle's frame.
    """
    for m in manifolds:
        if np.any(np.abs(m.separations - SPEC) < 1e-7):
            return False
    if a.count == 1 and b.count == 1:
        ca, cb = _world_core(a, xa)[0], _world_core(b, xb)[0]
        return bool(np.linalg.norm(ca - cb) > 1e-6)
    if a.count == 1 or b.count == 1:
        return True
    sep_a, _, sep_b, _ = reference_separations(a.count, a.vertices, a.normals, *_xf4(xa),
                                               b.count, b.vertices, b.normals, *_xf4(xb))
    if abs(sep_a - sep_b) <= REFERENCE_TOLERANCE + 1e-7:
        return False
    return abs(max(sep_a, sep_b) - SEPARATED_TOLERANCE) > 1e-7


@settings(max_examples=300, deadline=None)
@given(shapes(), shapes(), transform_near, transform_near)
def test_symmetry(a, b, xa, xb):
    m_ab = collide_checked(a, xa, b, xb)
    m_ba = collide_checked(b, xb, a, xa)
    assume(_away_from_thresholds(a, xa, b, xb, (m_ab, m_ba)))
    assert len(m_ab.ids) == len(m_ba.ids)
    if not len(m_ab.ids):
        return
    np.testing.assert_allclose(m_ab.normal, -m_ba.normal, atol=1e-9)
    order = [0, 1] if len(m_ab.ids) == 1 else None
    if order is None:
        direct = np.linalg.norm(m_ab.points - m_ba.points)
        swapped = np.linalg.norm(m_ab.points - m_ba.points[::-1])
        order = [0, 1] if direct <= swapped else [1, 0]
    for i, j in enumerate(order[: len(m_ab.ids)]):
        np.testing.assert_allclose(m_ab.points[i], m_ba.points[j], atol=1e-9)
        assert m_ab.separations[i] == pytest.approx(m_ba.separations[j], abs=1e-9)
        # Feature ids name A's feature first: swapping the pair swaps the halves.
        id_ab, id_ba = int(m_ab.ids[i]), int(m_ba.ids[j])
        assert (id_ab >> 8, id_ab & 0xFF) == (id_ba & 0xFF, id_ba >> 8)


def _world_core(g, xf):
    px, py, c, s = _xf4(xf)
    v = g.vertices[: g.count]
    return np.stack([c * v[:, 0] - s * v[:, 1] + px, s * v[:, 0] + c * v[:, 1] + py], axis=1)


def _core_distance(wa, wb):
    """Brute force: None when the cores overlap, else their distance."""
    def inside(w, p):
        if len(w) < 3:
            return False
        e = np.roll(w, -1, axis=0) - w
        return bool(np.all(e[:, 0] * (p[1] - w[:, 1]) - e[:, 1] * (p[0] - w[:, 0]) >= 0))

    def edges(w):
        return [(w[i], w[(i + 1) % len(w)]) for i in range(len(w))] if len(w) > 1 else [(w[0], w[0])]

    if any(inside(wa, p) for p in wb) or any(inside(wb, p) for p in wa):
        return None
    best = min(segment_distance(*p1, *q1, *p2, *q2)[6] for p1, q1 in edges(wa) for p2, q2 in edges(wb))
    return math.sqrt(best) if best > 1e-18 else None


@settings(max_examples=200, deadline=None)
@given(shapes(), shapes(), transform_near, transform_near)
def test_against_brute_force_distance(a, b, xa, xb):
    """Separated cores: no missed contact within the speculative distance, and the reported
    separation does not exceed the true surface distance (the manifold is conservative) but for
    a sliver: when the reference face is kept within REFERENCE_TOLERANCE of a slightly better
    one, clipping at its side plane may cut the closest vertex off and report a point a little
    inside it (seen: 7e-5 m for nearly parallel capsules). Any pair with a circle is exact."""
    core = _core_distance(_world_core(a, xa), _world_core(b, xb))
    assume(core is not None and core > 1e-6)
    true = core - a.radius - b.radius
    m = collide_checked(a, xa, b, xb)
    if true < SPEC - 1e-9:
        assert len(m.ids) >= 1
    if len(m.ids):
        assert m.separations.min() <= true + 0.1 * LINEAR_SLOP
        if a.count == 1 or b.count == 1:
            assert m.separations[0] == pytest.approx(true, abs=1e-9)


transform_close = st.tuples(st.floats(-0.7, 0.7), st.floats(-0.7, 0.7), st.floats(-math.pi, math.pi))


@settings(max_examples=150, deadline=None)
@given(shapes(KINDS[1:]), shapes(KINDS[1:]), transform_close, transform_close)
def test_overlap_depth_is_separating_axis_depth(a, b, xa, xb):
    """Overlapping cores: the deepest point is the separating-axis depth (the minimum
    translation distance of the cores) plus the radii, unless the reference face was kept
    within tolerance."""
    sep_a, _, sep_b, _ = reference_separations(a.count, a.vertices, a.normals, *_xf4(xa),
                                               b.count, b.vertices, b.normals, *_xf4(xb))
    assume(max(sep_a, sep_b) < -1e-6 and not (sep_a < sep_b <= sep_a + REFERENCE_TOLERANCE))
    m = collide_checked(a, xa, b, xb)
    assert len(m.ids) >= 1
    assert m.separations.min() == pytest.approx(max(sep_a, sep_b) - a.radius - b.radius,
                                                abs=1e-9)


@numba.njit
def _pair_in_loop(a_count, a_vertices, a_normals, a_radius, pxa, pya, ca, sa,
                  b_count, b_vertices, b_normals, b_radius, pxb, pyb, cb, sb,
                  spec, normal, points, ids):
    return collide_pair(a_count, a_vertices, a_normals, a_radius, pxa, pya, ca, sa,
                        b_count, b_vertices, b_normals, b_radius, pxb, pyb, cb, sb,
                        spec, normal, points, ids, True)


def _written(fn, a, b, xa, xb):
    """What ``fn`` (:func:`collide` or a loop form of it) returns and writes into a scratch
    left holding a previous pair's values, as bytes."""
    normal = np.array([0.6, -0.8])  # a previous pair's normal, left in the scratch
    points = np.full((2, 3), 0.25)
    ids = np.full(2, 7, dtype=np.int64)
    n = fn(a.count, a.vertices, a.normals, a.radius, *_xf4(xa),
           b.count, b.vertices, b.normals, b.radius, *_xf4(xb),
           SPEC, normal, points, ids)
    return n, normal.tobytes(), points[:n].tobytes(), ids[:n].tobytes()


@numba.njit
def _polygon_pair_in_loop(a_count, a_vertices, a_normals, a_radius, pxa, pya, ca, sa,
                          b_count, b_vertices, b_normals, b_radius, pxb, pyb, cb, sb,
                          spec, normal, points, ids):
    return collide_pair(a_count, a_vertices, a_normals, a_radius, pxa, pya, ca, sa,
                        b_count, b_vertices, b_normals, b_radius, pxb, pyb, cb, sb,
                        spec, normal, points, ids, False)


NOT_CIRCLES = tuple(kind for kind in KINDS if kind != "circle")


@settings(max_examples=300, deadline=None)
@given(shapes(kinds=NOT_CIRCLES), shapes(kinds=NOT_CIRCLES), transform_near, transform_near)
def test_the_polygon_loop_form_is_collide_to_the_bit_without_circles(a, b, xa, xb):
    """A world without circles' loop form (``circles`` off: the polygon routine alone, the
    circle routines pruned) writes what :func:`collide` writes for every pair of shapes of
    two or more vertices, bit for bit, scratch included."""
    assert a.count >= 2 and b.count >= 2
    assert _written(collide, a, b, xa, xb) == _written(_polygon_pair_in_loop, a, b, xa, xb)


@settings(max_examples=300, deadline=None)
@given(shapes(), shapes(), transform_near, transform_near)
def test_collide_pair_is_collide_to_the_bit(a, b, xa, xb):
    """The step's loop form (circle pairs compiled into the loop) writes what :func:`collide`
    writes, bit for bit, scratch included: the normal of a pair found apart is the scratch's
    (negated when the circle was A), which the state hash reads."""
    assert _written(collide, a, b, xa, xb) == _written(_pair_in_loop, a, b, xa, xb)


QUADRILATERALS = ("box", "rounded", "polygon")


@settings(max_examples=400, deadline=None)
@given(shapes(kinds=QUADRILATERALS), shapes(kinds=QUADRILATERALS), transform_near,
       transform_near)
def test_two_quadrilaterals_take_the_box_copy_with_collide_s_bits(a, b, xa, xb):
    """Two shapes of four vertices each (boxes, rounded boxes, any convex quadrilateral) take
    the polygon routine's copy compiled for four (``polygons_call``): it writes what
    :func:`collide`'s general copy writes, bit for bit, scratch included, touching or apart."""
    assume(a.count == 4 and b.count == 4)
    expected = _written(collide, a, b, xa, xb)
    assert _written(_polygon_pair_in_loop, a, b, xa, xb) == expected
    assert _written(_pair_in_loop, a, b, xa, xb) == expected


def test_the_box_copy_runs_on_touching_and_apart_boxes():
    """Both outcomes of the box copy for certain: a box resting on a box (two points) and one
    beyond the speculative distance (none), each written as :func:`collide` writes it."""
    crate = make_box(0.5, 0.5)
    ground = (0.0, 0.0, 0.0)
    for where, points in (((0.3, 1.0 - 0.004, 0.0), 2), ((0.3, 1.5, 0.0), 0)):
        written = _written(_pair_in_loop, GROUND, crate, ground, where)
        assert written[0] == points
        assert written == _written(collide, GROUND, crate, ground, where)
