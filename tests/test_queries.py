"""World queries (``impulse2d.queries``): rays against every shape type equal the analytic
intersection, batched rays equal single ones bit for bit, box and point queries equal brute
force (Hypothesis), filters, sensors, the callback protocol, and clear errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import impulse2d as i2d
from impulse2d.queries import QueryFilter

ANGLES = [0.0, 0.3, -1.1, 2.5]


def _world_with(make, position=(0.0, 0.0), angle=0.0):
    world = i2d.World(gravity=(0, 0))
    body = world.create_body(type="static", position=position, angle=angle)
    shape = make(body)
    return world, shape


def _ray_towards(target, direction_angle, length=10.0):
    """A ray of ``length`` aimed at ``target`` from 5 m away along ``direction_angle``."""
    ux, uy = math.cos(direction_angle), math.sin(direction_angle)
    origin = (target[0] - 5.0 * ux, target[1] - 5.0 * uy)
    return origin, (length * ux, length * uy)


@pytest.mark.parametrize("direction", ANGLES)
def test_a_ray_enters_a_circle_where_the_quadratic_says(direction):
    world, shape = _world_with(lambda b: b.create_circle(0.7, center=(0.2, -0.1)),
                               position=(1.0, 2.0), angle=0.4)
    c, s = math.cos(0.4), math.sin(0.4)
    center = np.array([1.0 + c * 0.2 + s * 0.1, 2.0 + s * 0.2 - c * 0.1])  # body frame (0.2, -0.1)
    # aim 0.3 m off the centre line, so the hit is not at the nearest point
    ux, uy = math.cos(direction), math.sin(direction)
    target = center + 0.3 * np.array([-uy, ux])
    origin, translation = _ray_towards(target, direction)
    hit = world.ray_cast(origin, translation)
    # |o + t d - c|^2 = r^2, smaller root
    o, d = np.array(origin), np.array(translation)
    m = o - center
    a, b, c = d @ d, m @ d, m @ m - 0.49
    t = (-b - math.sqrt(b * b - a * c)) / a
    assert hit is not None and hit.shape == shape
    assert hit.fraction == pytest.approx(t, abs=1e-12)
    np.testing.assert_allclose(hit.point, o + t * d, atol=1e-9)
    np.testing.assert_allclose(hit.normal, (o + t * d - center) / 0.7, atol=1e-9)


@pytest.mark.parametrize("angle", ANGLES)
@pytest.mark.parametrize("radius", [0.0, 0.15])
def test_a_ray_enters_a_rotated_box_face_where_the_plane_says(angle, radius):
    """A ray along the box's own x axis enters the (rounded) face at half-width + radius."""
    world, shape = _world_with(lambda b: b.create_box(0.8, 0.4, radius=radius),
                               position=(-2.0, 1.0), angle=angle)
    ux, uy = math.cos(angle), math.sin(angle)
    # from 5 m out on the box's -x side, 0.1 m off its axis, towards +x
    offset = 0.1
    origin = (-2.0 - 5.0 * ux - offset * uy, 1.0 - 5.0 * uy + offset * ux)
    hit = world.ray_cast(origin, (10.0 * ux, 10.0 * uy))
    assert hit is not None
    assert hit.fraction == pytest.approx((5.0 - 0.8 - radius) / 10.0, abs=1e-12)
    np.testing.assert_allclose(hit.normal, (-ux, -uy), atol=1e-12)


@pytest.mark.parametrize("angle", ANGLES)
def test_a_ray_enters_a_rounded_corner_on_its_circle(angle):
    """Aimed at a rounded box's corner along the diagonal, the ray enters the corner arc at
    distance radius from the core corner."""
    r = 0.2
    world, _ = _world_with(lambda b: b.create_box(0.5, 0.5, radius=r), position=(0.5, 0.5),
                           angle=angle)
    c, s = math.cos(angle), math.sin(angle)
    corner = np.array([0.5 + c * 0.5 - s * 0.5, 0.5 + s * 0.5 + c * 0.5])
    diagonal = np.array([c - s, s + c]) / math.sqrt(2.0)
    origin = corner + 3.0 * diagonal
    hit = world.ray_cast(origin, -6.0 * diagonal)
    assert hit.fraction == pytest.approx((3.0 - r) / 6.0, abs=1e-12)
    np.testing.assert_allclose(hit.normal, diagonal, atol=1e-9)


@pytest.mark.parametrize("direction", ANGLES)
def test_capsules_and_segments(direction):
    world = i2d.World(gravity=(0, 0))
    body = world.create_body(type="static", angle=0.7)
    capsule = body.create_capsule((-1.0, 0.0), (1.0, 0.0), 0.25)
    segment_body = world.create_body(type="static", position=(0.0, 6.0), angle=-0.2)
    segment = segment_body.create_segment((-1.0, 0.0), (1.0, 0.0))
    # The capsule's side, hit perpendicularly at its middle: 0.25 m out of the axis.
    n = (-math.sin(0.7), math.cos(0.7))
    origin = (3.0 * n[0], 3.0 * n[1])
    hit = world.ray_cast(origin, (-6.0 * n[0], -6.0 * n[1]))
    assert hit.shape == capsule and hit.fraction == pytest.approx(2.75 / 6.0, abs=1e-12)
    np.testing.assert_allclose(hit.normal, n, atol=1e-12)
    # The segment: where the ray crosses its line, from either side, normal against the ray
    # (the directions are turned by 1.3 rad so that none runs along the segment).
    ux, uy = math.cos(direction + 1.3), math.sin(direction + 1.3)
    target = (0.3 * math.cos(-0.2), 6.0 + 0.3 * math.sin(-0.2))
    origin, translation = _ray_towards(target, direction + 1.3, 10.0)
    hits = [h for h in world.ray_cast_all(origin, translation) if h.shape == segment]
    assert len(hits) == 1
    assert hits[0].fraction == pytest.approx(0.5, abs=1e-12)
    assert hits[0].normal[0] * ux + hits[0].normal[1] * uy < 0.0


def test_a_ray_from_inside_a_shape_does_not_see_it():
    world, shape = _world_with(lambda b: b.create_box(1.0, 1.0, radius=0.1))
    other = world.create_body(type="static", position=(5.0, 0.0))
    far = other.create_circle(0.5)
    for origin in [(0.0, 0.0), (0.95, 0.2), (1.05, 0.0)]:  # in the core, the rounding, on it
        hit = world.ray_cast(origin, (10.0, 0.0))
        assert hit is not None and hit.shape == far


def test_ray_cast_all_lists_every_hit_nearest_first_and_ties_go_to_the_first_shape():
    world = i2d.World(gravity=(0, 0))
    shapes = [world.create_body(type="static", position=(x, 0.0)).create_circle(0.4)
              for x in (6.0, 2.0, 4.0)]
    twin = world.create_body(type="static", position=(2.0, 0.0)).create_circle(0.4)
    hits = world.ray_cast_all((0.0, 0.0), (10.0, 0.0))
    assert [h.shape for h in hits] == [shapes[1], twin, shapes[2], shapes[0]]
    assert [h.fraction for h in hits] == pytest.approx([0.16, 0.16, 0.36, 0.56], abs=1e-12)
    assert world.ray_cast((0.0, 0.0), (10.0, 0.0)).shape == shapes[1]


def test_more_hits_than_the_short_list_are_sorted_by_fraction_then_row():
    """70 hits (more than ``shape_queries.SHORT_LIST``: the merge sort, not the insertion sort),
    made in a shuffled order, with a twin at every fifth place (equal fractions, to the lower
    row first): every hit nearest first, as ``RayHit``s and as the pybox2d layer's rows."""
    from impulse2d import queries
    world = i2d.World(gravity=(0, 0))
    places = np.random.default_rng(3).permutation(60) + 1.0
    twins = [x for x in places if x % 5 == 0]
    shapes = [world.create_body(type="static", position=(float(x), 0.0)).create_circle(0.25)
              for x in list(places) + twins]
    expected = sorted(shapes, key=lambda s: (s.body.position[0], s.index))
    hits = world.ray_cast_all((0.0, 0.0), (100.0, 0.0))
    assert len(expected) == 72 and [h.shape for h in hits] == expected
    assert [h.fraction for h in hits] == pytest.approx(
        [(s.body.position[0] - 0.25) / 100.0 for s in expected], abs=1e-12)
    rows, fractions, normals = queries._ray_hits(world, 0.0, 0.0, 100.0, 0.0,
                                                 queries._CATEGORY, queries._MASK)
    assert list(rows) == [s.index for s in expected]
    assert list(fractions) == [h.fraction for h in hits]
    assert [tuple(n) for n in normals] == [tuple(h.normal) for h in hits]
    assert np.allclose(normals, [(-1.0, 0.0)], atol=1e-12)


def test_filters_and_sensors():
    world = i2d.World(gravity=(0, 0))
    a = world.create_body(type="static", position=(2.0, 0.0)).create_circle(0.5, category=0x2)
    b = world.create_body(type="static", position=(4.0, 0.0)).create_circle(0.5, mask=0x4)
    sensor = world.create_body(type="static", position=(1.0, 0.0)).create_circle(
        0.3, is_sensor=True)
    default = [h.shape for h in world.ray_cast_all((0.0, 0.0), (10.0, 0.0))]
    # Default filter (category 1, every mask bit): sees a (its mask has bit 1) but not b (its
    # mask lacks bit 1); rays never see the sensor.
    assert default == [a]
    category_2 = QueryFilter(category=0x4, mask=0x2)
    assert [h.shape for h in world.ray_cast_all((0.0, 0.0), (10.0, 0.0), filter=category_2)] == [a]
    nothing = QueryFilter(category=0x1, mask=0x8)
    assert world.ray_cast_all((0.0, 0.0), (10.0, 0.0), filter=nothing) == []
    sees_b = QueryFilter(category=0x4, mask=0x1)
    assert [h.shape for h in world.ray_cast_all((0.0, 0.0), (10.0, 0.0), filter=sees_b)] == [b]
    # Point and box queries see sensors.
    assert world.query_point((1.0, 0.0)) == [sensor]
    assert set(world.query_aabb((0.0, -1.0), (3.0, 1.0))) == {a, sensor}


def test_the_callback_can_ignore_clip_and_stop():
    world = i2d.World(gravity=(0, 0))
    shapes = [world.create_body(type="static", position=(x, 0.0)).create_circle(0.4)
              for x in (2.0, 4.0, 6.0)]
    seen = []

    def ignore_first_then_clip(shape, point, normal, fraction):
        seen.append(shape)
        return -1.0 if shape == shapes[0] else fraction

    world.ray_cast_callback((0.0, 0.0), (10.0, 0.0), ignore_first_then_clip)
    assert seen == [shapes[0], shapes[1]]   # clipped at the second: the third is beyond
    seen.clear()
    world.ray_cast_callback((0.0, 0.0), (10.0, 0.0),
                            lambda *hit: (seen.append(hit[0]), 1.0)[1])
    assert seen == shapes
    seen.clear()
    world.ray_cast_callback((0.0, 0.0), (10.0, 0.0), lambda *hit: (seen.append(hit[0]), 0.0)[1])
    assert seen == [shapes[0]]


def _mixed_world(seed: int, count: int = 60):
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0, 0))
    for _ in range(count):
        body = world.create_body(type="static", position=rng.uniform(-10, 10, 2),
                                 angle=rng.uniform(-3, 3))
        kind = rng.integers(4)
        size = rng.uniform(0.1, 1.5)
        if kind == 0:
            body.create_circle(size)
        elif kind == 1:
            body.create_box(size, rng.uniform(0.1, 1.0), radius=rng.choice([0.0, 0.1]))
        elif kind == 2:
            body.create_capsule((-size, 0.0), (size, 0.0), rng.uniform(0.05, 0.5))
        else:
            body.create_polygon(rng.uniform(-1, 1, (6, 2)) * size + 0.01 * np.arange(12).reshape(6, 2))
    # a large slab, which the grid keeps out of its cells
    world.create_body(type="static").create_box(40.0, 0.5, center=(0.0, -12.0))
    return world, rng


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_batched_rays_equal_single_rays_bit_for_bit(seed):
    world, rng = _mixed_world(seed)
    n = 400
    origins = rng.uniform(-14, 14, (n, 2))
    angles = rng.uniform(0, 2 * np.pi, n)
    lengths = rng.uniform(0.1, 30.0, n)
    translations = np.stack([np.cos(angles), np.sin(angles)], 1) * lengths[:, None]
    batch = world.ray_cast_many(origins, translations)
    hits = 0
    for k in range(n):
        hit = world.ray_cast(origins[k], translations[k])
        if hit is None:
            assert batch.shape[k] == -1 and batch.fraction[k] == 1.0
            continue
        hits += 1
        assert batch.shape[k] == hit.shape.index
        assert batch.fraction[k] == hit.fraction
        assert tuple(batch.point[k]) == tuple(hit.point)
        assert tuple(batch.normal[k]) == tuple(hit.normal)
    assert hits > n // 4  # a real comparison: many rays hit something


def _every_hit_alone(world, ox, oy, dx, dy):
    """Every shape the ray enters, each tested alone (``raycast.ray_shape`` in its body's
    frame, as the walk's test transforms it), by (fraction, row): no grid."""
    from impulse2d._collision.raycast import NO_HIT, ray_shape

    shapes, bodies = world._shapes, world._bodies
    found = []
    for s in np.flatnonzero(shapes.alive):
        b = shapes.body[s]
        px, py = bodies.origin[b]
        c, sn = bodies.rot[b]
        rx, ry = ox - px, oy - py
        fraction, _, _ = ray_shape(shapes.count[s], shapes.vertices[s], shapes.normals[s],
                                   shapes.radius[s], c * rx + sn * ry, -sn * rx + c * ry,
                                   c * dx + sn * dy, -sn * dx + c * dy, 1.0)
        if fraction != NO_HIT:
            found.append((fraction, int(s)))
    return sorted(found)


@pytest.mark.parametrize("seed", [4, 5])
def test_every_hit_equals_each_shape_tested_alone(seed):
    """The walk (the large shapes, then the cells the ray crosses) finds what testing every
    shape finds, bit for bit: random rays, rays along a grid line's direction (``dx`` or
    ``dy`` exactly 0), rays from far outside the grid's bounds, through a world with a slab too
    large for the cells; and the nearest hit is the first of them."""
    world, rng = _mixed_world(seed)
    world.create_body(type="static").create_box(0.5, 30.0, center=(-13.0, 0.0))  # a wall
    n = 300
    origins = rng.uniform(-14, 14, (n, 2))
    angles = rng.uniform(0, 2 * np.pi, n)
    translations = np.stack([np.cos(angles), np.sin(angles)], 1) * rng.uniform(0.1, 30.0, (n, 1))
    translations[:40, 1] = 0.0
    translations[40:80, 0] = 0.0
    origins[80:120] = rng.uniform(-60, 60, (40, 2)) + [0.0, 80.0]
    translations[80:120] = rng.uniform(-14, 14, (40, 2)) - origins[80:120]
    hits = 0
    for (ox, oy), (dx, dy) in zip(origins.tolist(), translations.tolist()):
        alone = _every_hit_alone(world, ox, oy, dx, dy)
        every = [(h.fraction, h.shape.index) for h in world.ray_cast_all((ox, oy), (dx, dy))]
        assert every == alone
        nearest = world.ray_cast((ox, oy), (dx, dy))
        if alone:
            assert (nearest.fraction, nearest.shape.index) == alone[0]
        else:
            assert nearest is None
        hits += len(alone)
    assert hits > n  # a real comparison: rays crossing several shapes


def _local(shape, point):
    body = shape.body
    c, s = math.cos(body.angle), math.sin(body.angle)
    dx, dy = point[0] - body.position[0], point[1] - body.position[1]
    return np.array([c * dx + s * dy, -s * dx + c * dy])


def _signed_distance(shape, point) -> float:
    """Brute force in Python: signed distance (m) from the point to the shape's surface,
    negative inside: distance to the core polygon minus the radius, the core's own (negative)
    depth inside a polygon core."""
    p = _local(shape, point)
    v = np.array(shape.vertices)
    k = len(v)
    edges = [(v[i], v[(i + 1) % k]) for i in range(k if k >= 3 else 1)] if k >= 2 else []
    if k == 1:
        return float(np.hypot(*(p - v[0])) - shape.radius)
    nearest = min(np.hypot(*(p - a - np.clip((p - a) @ (b - a) / ((b - a) @ (b - a)), 0, 1)
                             * (b - a))) for a, b in edges)
    if k >= 3 and all((b - a)[0] * (p - a)[1] - (b - a)[1] * (p - a)[0] >= 0 for a, b in edges):
        return float(-nearest - shape.radius)
    return float(nearest - shape.radius)


_WORLD, _ = _mixed_world(11)
_SHAPES = [s for b in _WORLD.bodies for s in b.shapes]


@settings(max_examples=150, deadline=None)
@given(st.floats(-12, 12), st.floats(-13, 12))
def test_point_queries_equal_brute_force(x, y):
    found = set(_WORLD.query_point((x, y)))
    for shape in _SHAPES:
        distance = _signed_distance(shape, (x, y))
        if abs(distance) > 1e-9:  # on the boundary within rounding either answer is right
            assert (shape in found) == (distance < 0.0), (shape, distance)


def _box(shape):
    """Brute force in Python: the world box of the shape's core vertices, grown by its radius."""
    body = shape.body
    c, s = math.cos(body.angle), math.sin(body.angle)
    v = np.array(shape.vertices)
    world = np.stack([c * v[:, 0] - s * v[:, 1] + body.position[0],
                      s * v[:, 0] + c * v[:, 1] + body.position[1]], 1)
    return world.min(0) - shape.radius, world.max(0) + shape.radius


@settings(max_examples=150, deadline=None)
@given(st.floats(-14, 14), st.floats(-14, 14), st.floats(0, 6), st.floats(0, 6))
def test_box_queries_equal_brute_force(x, y, w, h):
    found = set(_WORLD.query_aabb((x, y), (x + w, y + h)))
    expected = set()
    for shape in _SHAPES:
        lo, hi = _box(shape)
        if lo[0] <= x + w and hi[0] >= x and lo[1] <= y + h and hi[1] >= y:
            expected.add(shape)
    assert found == expected


def test_bad_input_is_refused_with_the_world_unchanged():
    world, _ = _world_with(lambda b: b.create_circle(1.0))
    before = world.get_positions().copy()
    with pytest.raises(ValueError, match="origin"):
        world.ray_cast((math.nan, 0.0), (1.0, 0.0))
    with pytest.raises(TypeError, match="translation"):
        world.ray_cast((0.0, 0.0), "up")
    with pytest.raises(ValueError, match="origins"):
        world.ray_cast_many(np.zeros((3, 3)), np.zeros((3, 2)))
    with pytest.raises(ValueError, match="translations"):
        world.ray_cast_many(np.zeros((3, 2)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="lower"):
        world.query_aabb((1.0, 1.0), (0.0, 0.0))
    with pytest.raises(TypeError, match="filter"):
        world.ray_cast((0.0, 0.0), (1.0, 0.0), filter=3)
    with pytest.raises(TypeError, match="callback"):
        world.ray_cast_callback((0.0, 0.0), (1.0, 0.0), None)
    np.testing.assert_array_equal(world.get_positions(), before)


# -- shape casts and overlaps ----------------------------------------------------------------

def _core_world(shape, shift=(0.0, 0.0)):
    body = shape.body
    c, s = math.cos(body.angle), math.sin(body.angle)
    v = np.array(shape.vertices)
    return np.stack([c * v[:, 0] - s * v[:, 1] + body.position[0] + shift[0],
                     s * v[:, 0] + c * v[:, 1] + body.position[1] + shift[1]], 1)


def _segment_distance(p, q, a, b):
    """Distance between segments p-q and a-b (brute force over the four end point projections
    and a crossing test)."""
    def point_segment(x, s0, s1):
        e = s1 - s0
        u = 0.0 if e @ e == 0.0 else np.clip((x - s0) @ e / (e @ e), 0.0, 1.0)
        return float(np.hypot(*(x - s0 - u * e)))

    def cross(o, a_, b_):
        return (a_[0] - o[0]) * (b_[1] - o[1]) - (a_[1] - o[1]) * (b_[0] - o[0])

    d1, d2, d3, d4 = cross(a, b, p), cross(a, b, q), cross(p, q, a), cross(p, q, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return 0.0
    return min(point_segment(p, a, b), point_segment(q, a, b), point_segment(a, p, q),
               point_segment(b, p, q))


def _inside_core(v, x):
    return len(v) >= 3 and all((v[(i + 1) % len(v)] - v[i])[0] * (x - v[i])[1]
                               - (v[(i + 1) % len(v)] - v[i])[1] * (x - v[i])[0] >= 0
                               for i in range(len(v)))


def _shape_distance(a, b, shift=(0.0, 0.0)):
    """Brute force in Python: the distance between two rounded shapes (A shifted), negative
    meaning overlap only as far as 'the cores touch' (0 minus the radii)."""
    va, vb = _core_world(a, shift), _core_world(b)
    edges_a = [(va[i], va[(i + 1) % len(va)]) for i in range(len(va))] if len(va) > 1 else [(va[0], va[0])]
    edges_b = [(vb[i], vb[(i + 1) % len(vb)]) for i in range(len(vb))] if len(vb) > 1 else [(vb[0], vb[0])]
    core = min(_segment_distance(p, q, r, s) for p, q in edges_a for r, s in edges_b)
    if any(_inside_core(vb, x) for x in va) or any(_inside_core(va, x) for x in vb):
        core = 0.0
    return core - a.radius - b.radius


def test_shape_casts_hit_where_the_faces_meet():
    world = i2d.World(gravity=(0, 0))
    wall = world.create_body(type="static", position=(5.0, 0.0)).create_box(0.5, 3.0)
    box = world.create_body(position=(0.0, 0.0)).create_box(0.5, 0.5)
    ball = world.create_body(position=(0.0, 2.0)).create_circle(0.5)
    hit = world.shape_cast(box, (10.0, 0.0))
    assert hit.shape == wall and hit.fraction == pytest.approx(0.4, abs=1e-12)
    np.testing.assert_allclose(hit.normal, (-1.0, 0.0), atol=1e-12)
    assert hit.point[0] == pytest.approx(4.5, abs=1e-12)
    hit = world.shape_cast(ball, (0.0, -10.0))
    assert hit.shape == box and hit.fraction == pytest.approx(0.1, abs=1e-12)
    np.testing.assert_allclose(hit.point, (0.0, 0.5), atol=1e-12)
    assert world.shape_cast(ball, (-10.0, 0.0)) is None
    # Overlapping at the start: fraction 0, zero normal.
    inside = world.create_body(position=(4.4, 0.0)).create_circle(0.3)
    hit = world.shape_cast(inside, (1.0, 0.0))
    assert hit.shape == wall and hit.fraction == 0.0 and tuple(hit.normal) == (0.0, 0.0)
    assert world.query_shape(inside) == [wall]
    assert world.query_shape(box) == []


@pytest.mark.parametrize("seed", range(6))
def test_shape_casts_and_overlaps_equal_brute_force(seed):
    world, rng = _mixed_world(100 + seed, count=25)
    shapes = [s for b in world.bodies for s in b.shapes]
    mover_body = world.create_body(position=rng.uniform(-8, 8, 2), angle=rng.uniform(-3, 3))
    kind = seed % 3
    if kind == 0:
        mover = mover_body.create_box(0.6, 0.3, radius=0.05)
    elif kind == 1:
        mover = mover_body.create_circle(0.4)
    else:
        mover = mover_body.create_capsule((-0.5, 0.0), (0.5, 0.0), 0.2)
    overlapping = set(world.query_shape(mover))
    for shape in shapes:
        distance = _shape_distance(mover, shape)
        if abs(distance) > 1e-9:
            assert (shape in overlapping) == (distance < 0.0)
    for _ in range(20):
        translation = rng.uniform(-15, 15, 2)
        hit = world.shape_cast(mover, translation)
        if hit is None or hit.fraction == 0.0:
            continue
        # At the time of impact the two touch; a hair earlier they are apart; no other shape
        # was touched before (sampled along the way).
        at = hit.fraction * translation
        assert abs(_shape_distance(mover, hit.shape, at)) < 1e-9
        assert _shape_distance(mover, hit.shape, at * (1 - 1e-6)) > 0.0
        for f in np.linspace(0.0, hit.fraction, 8)[:-1]:
            assert all(_shape_distance(mover, s, f * translation) > 0.0 for s in shapes)


# -- the grid kept between queries follows every change ---------------------------------------

def _circle_hits(world, origin, translation, filter=QueryFilter()):
    """Brute force in Python for a world of circles centred on their bodies: every circle the
    ray enters (not from inside), as (shape, fraction), nearest first."""
    o, d = np.array(origin), np.array(translation)
    hits = []
    for shape in world.shapes:
        if shape.is_sensor or not (shape.category & filter.mask and shape.mask & filter.category):
            continue
        m = o - np.array(shape.body.position)
        a, b, c = d @ d, m @ d, m @ m - shape.radius ** 2
        disc = b * b - a * c
        if c <= 0.0 or b >= 0.0 or disc < 0.0:
            continue
        t = (-b - math.sqrt(disc)) / a
        if t <= 1.0:
            hits.append((shape, t))
    return sorted(hits, key=lambda h: (h[1], h[0].index))


def _check_queries_against_brute_force(world, rng, filter=QueryFilter()):
    for _ in range(30):
        origin = tuple(rng.uniform(-6, 6, 2))
        translation = tuple(rng.uniform(-12, 12, 2))
        expected = _circle_hits(world, origin, translation, filter)
        found = world.ray_cast_all(origin, translation, filter=filter)
        assert [h.shape for h in found] == [h[0] for h in expected]
        assert [h.fraction for h in found] == pytest.approx([h[1] for h in expected], abs=1e-12)
        nearest = world.ray_cast(origin, translation, filter=filter)
        assert (nearest.shape if nearest else None) == (expected[0][0] if expected else None)
        batch = world.ray_cast_many(np.array([origin]), np.array([translation]), filter=filter)
        assert batch.shape[0] == (nearest.shape.index if nearest else -1)
        seen = [s for s in world.shapes
                if s.category & filter.mask and s.mask & filter.category]
        inside = {s for s in seen if _signed_distance(s, origin) < -1e-9}
        near_boundary = {s for s in seen if abs(_signed_distance(s, origin)) <= 1e-9}
        assert set(world.query_point(origin, filter=filter)) - near_boundary == inside
        lower = (min(origin[0], origin[0] + translation[0]), min(origin[1], origin[1] + translation[1]))
        upper = (max(origin[0], origin[0] + translation[0]), max(origin[1], origin[1] + translation[1]))
        boxed = {s for s in seen if np.all(_box(s)[0] <= upper) and np.all(_box(s)[1] >= lower)}
        assert set(world.query_aabb(lower, upper, filter=filter)) == boxed


def test_queries_follow_every_change_of_the_world():
    """The grid is kept from one query to the next; after a step, a body moved or turned by
    hand, shapes added and destroyed (stores growing), a body destroyed, a filter or sensor
    flag changed, every query still equals brute force."""
    rng = np.random.default_rng(7)
    world = i2d.World(gravity=(0.0, -10.0))
    world.create_body(type="static", position=(0.0, -5.0)).create_circle(1.0)
    bodies = [world.create_body(position=tuple(rng.uniform(-4, 4, 2)),
                                linear_velocity=tuple(rng.uniform(-3, 3, 2)))
              for _ in range(8)]
    for b in bodies:
        b.create_circle(float(rng.uniform(0.2, 0.8)))
    _check_queries_against_brute_force(world, rng)
    for _ in range(5):  # bodies moved by the step
        world.step(1.0 / 30.0)
    _check_queries_against_brute_force(world, rng)
    bodies[0].position = (3.0, 3.0)  # by hand
    _check_queries_against_brute_force(world, rng)
    bodies[1].angle = 1.0  # turning a circle centred on its body moves nothing...
    bodies[2].position = (-3.0, 2.5)
    _check_queries_against_brute_force(world, rng)
    for _ in range(20):  # new shapes: the shape and body stores grow (16 rows at first)
        world.create_body(type="static", position=tuple(rng.uniform(-5, 5, 2))).create_circle(
            float(rng.uniform(0.1, 0.5)))
        _check_queries_against_brute_force(world, rng)
    world.destroy_shape(bodies[3].shapes[0])
    world.destroy_body(bodies[4])
    _check_queries_against_brute_force(world, rng)
    bodies[5].shapes[0].category = 0x2
    bodies[6].shapes[0].mask = 0x4
    bodies[7].shapes[0].is_sensor = True
    _check_queries_against_brute_force(world, rng)
    _check_queries_against_brute_force(world, rng, QueryFilter(category=0x4, mask=0x2))
    world.step(1.0 / 30.0)
    _check_queries_against_brute_force(world, rng, QueryFilter(category=0x4, mask=0x3))


# -- the static layer kept across steps -------------------------------------------------------

def _static_and_moving_world(seed: int):
    """Static circles (terrain), dynamic and kinematic circles moving among them."""
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0.0, -10.0))
    statics = [world.create_body(type="static", position=tuple(rng.uniform(-5, 5, 2)))
               for _ in range(12)]
    for b in statics:
        b.create_circle(float(rng.uniform(0.2, 0.6)))
    movers = [world.create_body(position=tuple(rng.uniform(-4, 4, 2)),
                                linear_velocity=tuple(rng.uniform(-3, 3, 2)))
              for _ in range(6)]
    movers.append(world.create_body(type="kinematic", position=(-5.0, 0.0),
                                    linear_velocity=(4.0, 0.5)))
    for b in movers:
        b.create_circle(float(rng.uniform(0.2, 0.8)))
    return world, rng, statics, movers


def _answers(world, rng_seed=11, n=200):
    """Every query's answer to the same seeded inputs, as comparable values."""
    rng = np.random.default_rng(rng_seed)
    origins = rng.uniform(-7, 7, (n, 2))
    translations = rng.uniform(-12, 12, (n, 2))
    batch = world.ray_cast_many(origins, translations)
    single = [world.ray_cast(tuple(o), tuple(d)) for o, d in zip(origins.tolist(),
                                                              translations.tolist())]
    every = [[(h.shape.index, h.fraction, tuple(h.normal)) for h in world.ray_cast_all(
        tuple(o), tuple(d))] for o, d in zip(origins[:40].tolist(), translations[:40].tolist())]
    boxes = [[s.index for s in world.query_aabb(tuple(o), tuple(o + 1.5))]
             for o in origins[:40]]
    return (batch.fraction.tobytes(), batch.point.tobytes(), batch.normal.tobytes(),
            batch.shape.tobytes(),
            [None if h is None else (h.shape.index, h.fraction, tuple(h.point), tuple(h.normal))
             for h in single], every, boxes)


def _rebuilt_answers(world):
    """The answers of an index built anew (no spare to refresh), the world unchanged."""
    world._query_index = world._query_spare = None
    return _answers(world)


def test_the_static_layer_is_kept_across_steps_and_answers_as_one_built_anew():
    world, rng, statics, movers = _static_and_moving_world(3)
    _check_queries_against_brute_force(world, rng)
    spare = world._query_spare
    assert spare is not None
    for _ in range(4):
        world.step(1.0 / 30.0)
        assert world._query_index is None
        refreshed = _answers(world)
        assert world._query_index is spare  # refreshed, not built again
        assert refreshed == _rebuilt_answers(world)  # bit for bit
        spare = world._query_spare
        _check_queries_against_brute_force(world, rng)


def test_the_static_layer_follows_static_bodies_moved_or_retyped_and_new_shapes():
    world, rng, statics, movers = _static_and_moving_world(4)
    _check_queries_against_brute_force(world, rng)
    spare = world._query_spare
    statics[0].position = (0.5, 0.5)  # a static body moved by hand
    _check_queries_against_brute_force(world, rng)
    assert world._query_spare is not spare  # built again: its static layer no longer held
    spare = world._query_spare
    statics[1].angle = 0.7  # turning a static circle on its centre: the layer is built again
    _check_queries_against_brute_force(world, rng)
    assert world._query_spare is not spare
    statics[2].type = "dynamic"  # then falls with the step
    movers[0].type = "static"  # stops where it is
    for _ in range(10):
        world.step(1.0 / 30.0)
        _check_queries_against_brute_force(world, rng)
    assert world._query_spare is not None
    statics[3].create_circle(0.3)  # a shape more on a static body (a circle about its centre)
    _check_queries_against_brute_force(world, rng)
    world.destroy_body(statics[4])
    world.step(1.0 / 30.0)
    _check_queries_against_brute_force(world, rng)
    answers = _answers(world)
    assert answers == _rebuilt_answers(world)


def test_copies_and_restored_worlds_query_their_own_shapes():
    import copy
    import pickle

    world, rng, statics, movers = _static_and_moving_world(5)
    for _ in range(3):
        world.step(1.0 / 30.0)
    expected = _answers(world)
    snapshot = world.snapshot()
    clone = copy.deepcopy(world)
    unpickled = pickle.loads(pickle.dumps(world))
    assert _answers(clone) == expected
    assert _answers(unpickled) == expected
    for _ in range(5):
        world.step(1.0 / 30.0)
    _answers(world)  # the spare now holds the moved shapes
    world.restore(snapshot)
    assert _answers(world) == expected
    clone.step(1.0 / 30.0)
    unpickled.step(1.0 / 30.0)
    assert _answers(clone) == _answers(unpickled)
    _check_queries_against_brute_force(clone, rng)


def test_the_moving_layer_outgrows_its_buffers_and_answers_as_one_built_anew():
    """The moving layer is written into buffers the index keeps (no arrays handed back per
    refresh); a layer that needs more cells or items than they hold grows them, and the
    answers stay those of brute force and of an index built anew."""
    from impulse2d._collision.query_index import MOVING_ITEMS_CAPACITY, MOVING_STARTS_CAPACITY
    rng = np.random.default_rng(5)
    world = i2d.World(gravity=(0.0, 0.0))
    world.create_body(type="static", position=(0.0, -6.0)).create_circle(0.5)
    movers = [world.create_body(position=(0.01 * k, 0.0)) for k in range(40)]
    for b in movers:
        b.create_circle(0.3)
    _check_queries_against_brute_force(world, rng)  # 40 circles bunched up: a few cells
    spare = world._query_spare
    capacity = (spare.refs[MOVING_STARTS_CAPACITY], spare.refs[MOVING_ITEMS_CAPACITY])
    for b in movers:  # spread out over the plane: many more cells and items
        b.position = tuple(rng.uniform(-6, 6, 2))
    refreshed = _answers(world)
    assert world._query_index is spare  # refreshed, not built again
    assert (spare.refs[MOVING_STARTS_CAPACITY], spare.refs[MOVING_ITEMS_CAPACITY]) != capacity
    _check_queries_against_brute_force(world, rng)
    assert refreshed == _rebuilt_answers(world)  # bit for bit


@pytest.mark.parametrize("count", [9, 10])
def test_the_grid_cell_is_the_median_shape_size_as_numpy_gives_it(count):
    """The static layer's cell is ``cell_scale`` times NumPy's median of the shapes' sizes, bit
    for bit, for an odd and an even count (the grid's own quickselect, not ``np.median``), where
    the median term is the largest of the cell's bounds."""
    from impulse2d._collision.query_index import CELL_SCALE, build_static
    rng = np.random.default_rng(count)
    world = i2d.World(gravity=(0, 0))
    for _ in range(count):
        size = float(rng.uniform(0.1, 1.0))
        world.create_body(type="static", position=tuple(rng.uniform(-2.0, 2.0, 2))).create_box(
            size, float(rng.uniform(0.05, size)))
    s, b = world._shapes, world._bodies
    n = len(s.alive)
    boxes, in_static, pose = np.empty((n, 4)), np.zeros(n, bool), np.empty((n, 4))
    x0, y0, cell, nx, ny, _, _, _ = build_static(s.alive, s.body, s.count, s.vertices, s.radius,
                                                 b.type, b.origin, b.rot, CELL_SCALE, boxes,
                                                 in_static, pose)
    live = boxes[in_static]
    sizes = np.maximum(live[:, 2] - live[:, 0], live[:, 3] - live[:, 1])
    assert len(sizes) == count
    wx = live[:, 2].max() - live[:, 0].min()
    wy = live[:, 3].max() - live[:, 1].min()
    expected = CELL_SCALE * np.median(sizes)
    assert expected > max(math.sqrt(wx * wy / (4.0 * count + 1.0)), max(wx, wy) / (4 * count + 1))
    assert cell == max(expected, wx / nx, wy / ny)
    assert (x0, y0) == (live[:, 0].min(), live[:, 1].min())
