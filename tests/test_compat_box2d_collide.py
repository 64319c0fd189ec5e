"""pybox2d's collision functions on the layer (issue 33): b2Distance, b2TestOverlap, the
collide functions' manifolds, b2TimeOfImpact and the shapes' RayCast/ComputeAABB/ComputeMass,
against analytic results."""

import math

import pytest

from impulse2d.compat.box2d import (b2AABB, b2CircleShape, b2CollideCircles,
                                    b2CollideEdgeAndCircle, b2CollidePolygonAndCircle,
                                    b2CollidePolygons, b2Distance, b2EdgeShape, b2GetPointStates,
                                    b2LoopShape, b2Manifold, b2MassData, b2PolygonShape,
                                    b2RayCastInput, b2RayCastOutput, b2Sweep, b2TestOverlap,
                                    b2TimeOfImpact, b2TOIOutput, b2Transform, b2_NAMES,
                                    b2_persistState, b2_linearSlop)

XF0 = b2Transform((0.0, 0.0), 0.0)


def xf(x, y, angle=0.0):
    return b2Transform((x, y), angle)


def test_names_exported():
    for name in ("b2Distance", "b2TestOverlap", "b2CollidePolygons", "b2CollideCircles",
                 "b2CollidePolygonAndCircle", "b2CollideEdgeAndCircle",
                 "b2CollideEdgeAndPolygon", "b2TimeOfImpact", "b2Sweep", "b2TOIOutput",
                 "b2RayCastInput", "b2RayCastOutput", "b2MassData", "b2DistanceOutput"):
        assert name in b2_NAMES


def test_distance_two_circles_is_centre_distance_less_radii():
    a, b = b2CircleShape(radius=0.5), b2CircleShape(radius=0.25, pos=(0.1, 0.0))
    out = b2Distance(shapeA=a, shapeB=b, transformA=xf(1.0, 2.0), transformB=xf(4.0, 6.0))
    # B's centre is at (4.1, 6): 5.0 m along (3.1, 4) -> |(3.1, 4)| - 0.75
    centre = math.hypot(3.1, 4.0)
    assert out.distance == pytest.approx(centre - 0.75, abs=1e-12)
    ux, uy = 3.1 / centre, 4.0 / centre
    assert tuple(out.pointA) == pytest.approx((1.0 + 0.5 * ux, 2.0 + 0.5 * uy), abs=1e-12)
    assert tuple(out.pointB) == pytest.approx((4.1 - 0.25 * ux, 6.0 - 0.25 * uy), abs=1e-12)
    raw = b2Distance(shapeA=a, shapeB=b, transformA=xf(1.0, 2.0), transformB=xf(4.0, 6.0),
                     useRadii=False)
    assert raw.distance == pytest.approx(centre, abs=1e-12)
    assert raw.iterations >= 1


def test_distance_two_boxes_is_the_gap_also_rotated():
    box = b2PolygonShape(box=(1.0, 0.5))
    out = b2Distance(shapeA=box, shapeB=box, transformA=XF0, transformB=xf(0.3, 1.3))
    assert out.distance == pytest.approx(0.3, abs=1e-12)
    assert out.pointA.y == pytest.approx(0.5, abs=1e-12)
    assert out.pointB.y == pytest.approx(0.8, abs=1e-12)
    # B turned 45 degrees: its lowest corner is hx... (0.5 + 0.5) / sqrt(2) below its centre
    out = b2Distance(shapeA=box, shapeB=b2PolygonShape(box=(0.5, 0.5)), transformA=XF0,
                     transformB=xf(0.0, 2.0, math.pi / 4))
    assert out.distance == pytest.approx(2.0 - 0.5 - math.sqrt(0.5), abs=1e-12)


def test_overlap_true_and_false():
    box = b2PolygonShape(box=(1.0, 0.5))
    circle = b2CircleShape(radius=0.5)
    assert b2TestOverlap(box, 0, box, 0, XF0, xf(0.5, 0.9))
    assert not b2TestOverlap(box, 0, box, 0, XF0, xf(0.5, 1.1))
    assert b2TestOverlap(shapeA=box, shapeB=circle, xfA=XF0, xfB=xf(0.0, 0.99))
    assert not b2TestOverlap(shapeA=box, shapeB=circle, xfA=XF0, xfB=xf(0.0, 1.01))
    # a small box deep inside a large one
    assert b2TestOverlap(b2PolygonShape(box=(5, 5)), b2PolygonShape(box=(0.1, 0.1)), XF0, XF0)
    assert b2TestOverlap(b2AABB((0, 0), (1, 1)), b2AABB((1, 0.5), (2, 2)))  # touching
    assert not b2TestOverlap(b2AABB((0, 0), (1, 1)), b2AABB((1.01, 0.5), (2, 2)))


def test_box_resting_on_box_two_point_manifold():
    ground, box = b2PolygonShape(box=(2.0, 0.5)), b2PolygonShape(box=(0.5, 0.5))
    m = b2CollidePolygons(ground, XF0, box, xf(0.3, 1.0))
    assert isinstance(m, b2Manifold)
    assert m.type == m.e_faceA and m.pointCount == 2
    assert tuple(m.localNormal) == pytest.approx((0.0, 1.0), abs=1e-12)
    assert m.localPoint.y == pytest.approx(0.5, abs=1e-12)
    # the box's two lower corners, in its own frame
    corners = sorted(tuple(p.localPoint) for p in m.points)
    assert corners == [pytest.approx((-0.5, -0.5), abs=1e-12), pytest.approx((0.5, -0.5),
                                                                             abs=1e-12)]
    assert m.points[0].id.key != m.points[1].id.key
    # the same faces a little lower: the same ids, so the points persist
    m2 = b2CollidePolygons(ground, XF0, box, xf(0.31, 0.999))
    assert b2GetPointStates(m, m2)[1] == (b2_persistState, b2_persistState)
    # Box2D's form fills the manifold it is given
    assert b2CollidePolygons(m2, ground, XF0, box, xf(0.3, 1.05)) is m2
    assert m2.pointCount == 0 and m2.points == []
    # apart by more than Box2D's skins: no points
    assert b2CollidePolygons(ground, XF0, box, xf(0.3, 1.05)).pointCount == 0


def test_box_on_upside_down_box_reference_is_b():
    # a box hanging under the ground with B's face the flat side of the contact
    small, large = b2PolygonShape(box=(0.5, 0.5)), b2PolygonShape(box=(2.0, 0.5))
    m = b2CollidePolygons(small, xf(0.0, 1.0, 0.3), large, XF0)
    assert m.pointCount == 1 and m.type == m.e_faceB
    assert tuple(m.localNormal) == pytest.approx((0.0, 1.0), abs=1e-9)


def test_circles_manifold():
    a, b = b2CircleShape(radius=0.5), b2CircleShape(radius=0.25)
    m = b2CollideCircles(a, xf(1.0, 1.0), b, xf(1.0 + 0.7, 1.0))
    assert m.type == m.e_circles and m.pointCount == 1
    assert tuple(m.localPoint) == (0.0, 0.0) and tuple(m.points[0].localPoint) == (0.0, 0.0)
    assert tuple(m.normal) == pytest.approx((1.0, 0.0), abs=1e-12)
    assert b2CollideCircles(a, XF0, b, xf(0.76, 0.0)).pointCount == 0


def test_polygon_and_circle_and_edge_and_circle():
    box, ball = b2PolygonShape(box=(1.0, 0.5)), b2CircleShape(radius=0.25)
    m = b2CollidePolygonAndCircle(box, XF0, ball, xf(0.3, 0.74))
    assert m.type == m.e_faceA and m.pointCount == 1
    assert tuple(m.localNormal) == pytest.approx((0.0, 1.0), abs=1e-12)
    assert tuple(m.points[0].localPoint) == (0.0, 0.0)  # the circle's centre
    edge = b2EdgeShape(vertices=[(-2.0, 0.0), (2.0, 0.0)])
    m = b2CollideEdgeAndCircle(edge, XF0, ball, xf(0.5, 0.2))
    assert m.pointCount == 1 and tuple(m.normal) == pytest.approx((0.0, 1.0), abs=1e-12)
    with pytest.raises(TypeError, match="b2CollidePolygons"):
        b2CollidePolygons(box, XF0, ball, XF0)


def test_time_of_impact_circle_toward_wall():
    wall, ball = b2PolygonShape(box=(0.5, 5.0)), b2CircleShape(radius=0.5)
    speed = 3.0  # m per sweep, from x = 3 to x = 0
    state, t = b2TimeOfImpact(shapeA=wall, shapeB=ball, sweepA=b2Sweep(),
                              sweepB=b2Sweep(c0=(3.0, 0.0), c=(0.0, 0.0)), tMax=1.0)
    # Box2D's target: cores max(slop, r - 3 slop) apart; the core gap is 3 - 0.5 at t = 0
    target = 0.5 - 3.0 * b2_linearSlop
    assert state == b2TOIOutput.e_touching
    assert t == pytest.approx((2.5 - target) / speed, abs=0.25 * b2_linearSlop / speed)
    # moving away: separated; starting inside: overlapped
    state, t = b2TimeOfImpact(shapeA=wall, shapeB=ball, sweepA=b2Sweep(),
                              sweepB=b2Sweep(c0=(3.0, 0.0), c=(4.0, 0.0)))
    assert state == b2TOIOutput.e_separated and t == 1.0
    state, t = b2TimeOfImpact(shapeA=wall, shapeB=ball, sweepA=b2Sweep(),
                              sweepB=b2Sweep(c0=(0.6, 0.0), c=(4.0, 0.0)))
    assert state == b2TOIOutput.e_overlapped and t == 0.0


def test_time_of_impact_both_moving():
    box = b2PolygonShape(box=(0.5, 0.5))
    state, t = b2TimeOfImpact(shapeA=box, shapeB=box, sweepA=b2Sweep(c0=(0, 0), c=(2, 0)),
                              sweepB=b2Sweep(c0=(5, 0), c=(3, 0)))
    # the gap 4 closes at 4 per sweep, to a slop
    assert state == b2TOIOutput.e_touching
    assert t == pytest.approx((4.0 - b2_linearSlop) / 4.0, abs=0.25 * b2_linearSlop / 4.0)


def test_ray_cast_box_and_circle():
    box = b2PolygonShape(box=(1.0, 0.5))
    out = b2RayCastOutput()
    ray = b2RayCastInput(p1=(-3.0, 2.2), p2=(3.0, 2.2), maxFraction=1.0)
    # the box turned 90 degrees at (0, 2): its left face at x = -0.5
    assert box.RayCast(out, ray, xf(0.0, 2.0, math.pi / 2), 0)
    assert out.fraction == pytest.approx(2.5 / 6.0, abs=1e-12)
    assert tuple(out.normal) == pytest.approx((-1.0, 0.0), abs=1e-12)
    assert not box.RayCast(out, b2RayCastInput(p1=(-3, 5), p2=(3, 5)), XF0, 0)
    ball = b2CircleShape(radius=1.0)
    ray = b2RayCastInput(p1=(0.0, 5.0), p2=(0.0, 0.0), maxFraction=1.0)
    assert ball.RayCast(out, ray, xf(0.5, 0.0), 0)
    # enters where x = 0 meets the circle about (0.5, 0): y = sqrt(1 - 0.25)
    assert out.fraction == pytest.approx((5.0 - math.sqrt(0.75)) / 5.0, abs=1e-12)
    assert tuple(out.normal) == pytest.approx((-0.5, math.sqrt(0.75)), abs=1e-12)


def test_compute_mass_box_and_circle():
    box = b2PolygonShape(box=(1.0, 0.5))
    md = box.ComputeMass(3.0)
    assert isinstance(md, b2MassData)
    assert md.mass == pytest.approx(3.0 * 2.0 * 1.0, rel=1e-12)
    assert md.I == pytest.approx(md.mass * (2.0 ** 2 + 1.0 ** 2) / 12.0, rel=1e-12)
    # off-centre box: Box2D's inertia is about the shape's origin (parallel axes)
    off = b2PolygonShape(box=(1.0, 0.5, (2.0, 1.0), 0.0)).ComputeMass(3.0)
    assert tuple(off.center) == pytest.approx((2.0, 1.0), abs=1e-12)
    assert off.I == pytest.approx(md.I + md.mass * 5.0, rel=1e-12)
    md = b2CircleShape(radius=0.5, pos=(1.0, 0.0)).ComputeMass(2.0)
    m = 2.0 * math.pi * 0.25
    assert md.mass == pytest.approx(m, rel=1e-12)
    assert md.I == pytest.approx(m * (0.5 * 0.25 + 1.0), rel=1e-12)
    edge = b2EdgeShape(vertices=[(0, 0), (2, 0)]).ComputeMass(1.0)
    assert edge.mass == 0.0 and tuple(edge.center) == (1.0, 0.0)
    with pytest.raises(ValueError, match="density"):
        box.ComputeMass(float("nan"))


def test_compute_aabb_rotated_box_and_chain_child():
    box = b2PolygonShape(box=(1.0, 0.5))
    angle = 0.3
    aabb = box.ComputeAABB(xf(1.0, -1.0, angle), 0)
    ex = 1.0 * math.cos(angle) + 0.5 * math.sin(angle)
    ey = 1.0 * math.sin(angle) + 0.5 * math.cos(angle)
    assert tuple(aabb.lowerBound) == pytest.approx((1.0 - ex, -1.0 - ey), abs=1e-12)
    assert tuple(aabb.upperBound) == pytest.approx((1.0 + ex, -1.0 + ey), abs=1e-12)
    loop = b2LoopShape(vertices=[(0, 0), (4, 0), (4, 3)])
    aabb = loop.ComputeAABB(XF0, 2)  # the closing edge (4, 3) -> (0, 0)
    assert tuple(aabb.lowerBound) == (0.0, 0.0) and tuple(aabb.upperBound) == (4.0, 3.0)
    with pytest.raises(ValueError, match="childIndex"):
        loop.ComputeAABB(XF0, 3)


def test_test_point_and_bad_input():
    box = b2PolygonShape(box=(1.0, 0.5))
    assert box.TestPoint(xf(5.0, 0.0), (5.9, 0.4))
    assert not box.TestPoint(xf(5.0, 0.0), (6.1, 0.0))
    with pytest.raises(TypeError, match="transform"):
        b2Distance(shapeA=box, shapeB=box, transformA=(0, 0), transformB=XF0)
    with pytest.raises(TypeError, match="sweepA"):
        b2TimeOfImpact(shapeA=box, shapeB=box, sweepA=(0, 0), sweepB=b2Sweep())
    with pytest.raises(ValueError, match="tMax"):
        b2TimeOfImpact(shapeA=box, shapeB=box, sweepA=b2Sweep(), sweepB=b2Sweep(), tMax=2.0)
