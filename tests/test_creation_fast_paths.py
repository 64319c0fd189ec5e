"""The creation fast paths give what the checked paths give, value for value.

Segments, capsules and circles built from pairs of Python floats skip NumPy's conversions
(geometry._float_pair); a body's extents are folded in shape by shape when its centre of mass
stays put (World._update_mass); a static body's shapeless mass, a segment's mass part, a
tuple of floats in _validate.vec2 and the pybox2d layer's parsed materials skip their general
paths too. All must write exactly what the general paths write, and bad input must still raise
naming the parameter.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import impulse2d
from impulse2d._collision import geometry
from impulse2d.world import _min_extent, _reach


def _identical(a, b):
    """Whether two geometry tuples hold the same fields, dtype, shape and bits."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        x, y = np.asarray(x), np.asarray(y)
        if not (x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y)):
            return False
    return True


def test_float_pairs_build_the_same_geometry_as_arrays():
    rng = random.Random(7)
    for _ in range(2000):
        a = (rng.uniform(-50, 50), rng.uniform(-50, 50))
        b = (a[0] + rng.uniform(-3, 3), a[1] + rng.uniform(-3, 3))
        r = rng.uniform(0.01, 2.0)
        pa, pb = np.array(a), np.array(b)
        assert _identical(geometry.make_segment(a, b), geometry.make_segment(pa, pb))
        assert _identical(geometry.make_capsule(a, b, r), geometry.make_capsule(pa, pb, r))
        assert _identical(geometry.make_circle(a, r), geometry.make_circle(pa, r))


def test_fast_path_rejects_what_the_checked_path_rejects():
    with pytest.raises(ValueError, match="segment end points"):
        geometry.make_segment((0.0, 0.0), (0.001, 0.0))
    with pytest.raises(ValueError, match="capsule end points"):
        geometry.make_capsule((0.0, 0.0), (0.0, 0.0), 0.5)
    with pytest.raises(ValueError, match="radius"):
        geometry.make_circle((0.0, 0.0), -1.0)
    world = impulse2d.World()
    body = world.create_body("static")
    with pytest.raises(ValueError, match="p2"):
        body.create_segment((0.0, 0.0), (float("nan"), 1.0))
    assert body.shapes == [] and world._shapes.alive.sum() == 0  # nothing written


@pytest.mark.parametrize("kind", ["static", "dynamic"])
def test_extents_folded_in_equal_the_full_pass(kind):
    rng = random.Random(3)
    world = impulse2d.World()
    body = world.create_body(kind, position=(1.0, 2.0))
    for k in range(12):
        x = rng.uniform(-5, 5)
        if k % 3 == 0:
            body.create_circle(rng.uniform(0.1, 1.0), (x, rng.uniform(-1, 1)))
        elif k % 3 == 1:
            body.create_segment((x, 0.0), (x + 1.0, rng.uniform(-1, 1)))
        else:
            body.create_box(rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0), center=(x, 0.5))
        i = body._index
        b, sh = world._bodies, world._shapes
        center = (b.local_center.item(i, 0), b.local_center.item(i, 1))
        shapes = world._body_shapes[i]
        full = max(np.hypot(*(sh.vertices[s, :sh.count[s]] - center).T).max() + sh.radius[s]
                   for s in shapes)
        assert b.extent[i] == full
        assert b.extent[i] == max(_reach(sh, s, center) for s in shapes)
        assert b.min_extent[i] == min(_min_extent(sh, s) for s in shapes)


def _row_bytes(store, i):
    """Every column's row ``i`` as bytes (bit-level: -0.0 and NaN payloads count)."""
    return {name: np.ascontiguousarray(getattr(store, name)[i]).tobytes()
            for name in store._fields}


@pytest.mark.parametrize("kind", ["static", "kinematic"])
def test_massless_body_shortcut_writes_what_update_mass_writes(kind):
    # create_body writes a static or kinematic body's mass fields inline; the general
    # _update_mass on the same row must change no bit of it
    rng = random.Random(5)
    world = impulse2d.World()
    for _ in range(50):
        x = rng.choice([0.0, -0.0, rng.uniform(-1e5, 1e5)])
        y = rng.choice([0.0, -0.0, rng.uniform(-50, 50)])
        body = world.create_body(kind, position=(x, y), angle=rng.uniform(-7, 7))
        i = body._index
        before = _row_bytes(world._bodies, i)
        world._update_mass(i)
        assert _row_bytes(world._bodies, i) == before


def test_segment_mass_part_is_the_kernels():
    # _create_shape takes a segment's mass part (0 kg, its midpoint, 0 kg m^2) without the
    # kernel: the same values, bit for bit
    rng = random.Random(11)
    for _ in range(500):
        a = (rng.uniform(-1e4, 1e4), rng.uniform(-1e4, 1e4))
        b = (a[0] + rng.uniform(-9, 9), a[1] + rng.uniform(-9, 9))
        geom = geometry.make_segment(a, b)
        mass, center, inertia = geometry.mass_properties(geom.count, geom.vertices, geom.radius,
                                                         rng.uniform(0.0, 5.0))
        assert (mass, inertia) == (0.0, 0.0)
        assert center.tobytes() == geom.centroid.tobytes()
    world = impulse2d.World()
    body = world.create_body("dynamic")
    body.create_box(0.5, 0.25, center=(0.3, -0.1))
    body.create_segment((-1.0, 0.2), (2.0, 0.7))
    other = world.create_body("dynamic")
    other.create_box(0.5, 0.25, center=(0.3, -0.1))
    b = world._bodies
    for column in (b.mass, b.inv_mass, b.local_center, b.center, b.inertia, b.inv_inertia):
        # a massless part moves nothing
        assert column[body._index].tobytes() == column[other._index].tobytes()


def test_vec2_fast_path_agrees_with_the_checked_path():
    from impulse2d import _validate
    huge = _validate.HUGE
    values = [0.0, -0.0, 1.5, -huge, huge, np.nextafter(huge, np.inf), 1e300, -1e308,
              float("inf"), float("-inf"), float("nan"), 1e5 + 1.0, 99999.99]
    for x in values:
        for y in values:
            for kwargs in ({}, {"limit": False}, {"bound": 1e5, "unit": "m/s"},
                           {"bound": 1e6, "unit": "m/s^2"}, {"bound": float("inf")}):
                outcomes = []
                for value in ((x, y), [x, y]):  # the tuple fast path, the general path
                    try:
                        got = _validate.vec2(value, "p", **kwargs)
                        outcomes.append(("ok", np.array(got).tobytes(), type(got[0])))
                    except (TypeError, ValueError) as exc:
                        outcomes.append((type(exc), str(exc)))
                assert outcomes[0] == outcomes[1], (x, y, kwargs)


def test_layer_material_cache_gives_what_parsing_gives():
    # the pybox2d layer parses a fixture definition's material once per distinct value; the
    # shapes it makes hold what the engine's own parse gives, signed zeros included
    from impulse2d.compat.box2d import b2EdgeShape, b2FixtureDef, b2World
    world = b2World()
    rows = []
    for density, friction in ((0.0, 2.5), (-0.0, 2.5), (0.0, -0.0), (0.0, 2.5), (0.0, 0.0)):
        fd = b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (1, 0.5)]), density=density,
                          friction=friction, categoryBits=0x0001)
        body = world.CreateStaticBody(fixtures=fd)
        rows.append((body.fixtures[0]._shape._index, density, friction))
    sh = world.engine._shapes
    for s, density, friction in rows:
        assert np.float64(sh.density[s]).tobytes() == np.float64(density).tobytes()
        assert np.float64(sh.friction[s]).tobytes() == np.float64(friction).tobytes()
    with pytest.raises(ValueError, match="friction"):
        world.CreateStaticBody(fixtures=b2FixtureDef(shape=b2EdgeShape(vertices=[(0, 0), (1, 0)]),
                                                     friction=-1.0))
    assert len(world.bodies) == len(rows)  # the bad fixture left no body behind
    # ints are parsed as the floats they equal; a bool is still refused after an equal value
    # (1 == 1.0 == True) is cached, and an int beyond float's range still raises
    edge = b2EdgeShape(vertices=[(0, 0), (1, 0)])
    body = world.CreateStaticBody(fixtures=b2FixtureDef(shape=edge, density=1, friction=2))
    body.CreateFixture(b2FixtureDef(shape=edge, density=1.0, friction=2.0))
    for fixture in body.fixtures:
        assert (fixture._shape.density, fixture._shape.friction) == (1.0, 2.0)
        assert type(world.engine._shapes.density[fixture._shape._index].item()) is float
    with pytest.raises(TypeError, match="density"):
        body.CreateFixture(b2FixtureDef(shape=edge, density=True, friction=2.0))
    with pytest.raises(ValueError, match="friction"):
        body.CreateFixture(b2FixtureDef(shape=edge, friction=10 ** 400))
    assert len(body.fixtures) == 2


def test_hull_of_float_tuples_is_the_hull_of_the_array():
    # compute_hull takes lists of (float, float) without NumPy (geometry._float_points); it
    # must give the array path's hull bit for bit, and raise the same errors
    rng = random.Random(11)
    for trial in range(1500):
        n = rng.randint(3, 8)
        pts = [(rng.uniform(-3, 3), rng.uniform(-3, 3)) for _ in range(n)]
        if trial % 5 == 0:  # welded and (nearly) collinear points
            pts[1] = (pts[0][0] + 1e-4, pts[0][1])
            pts[-1] = (0.5 * (pts[0][0] + pts[2][0]), 0.5 * (pts[0][1] + pts[2][1]) + 1e-9)
        results = []
        for given in (pts, np.array(pts)):
            try:
                results.append(geometry.compute_hull(given))
            except ValueError as exc:
                results.append(str(exc))
        a, b = results
        if isinstance(a, str):
            assert a == b
        else:
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_segment_arrays_are_make_segment_arrays():
    rng = random.Random(5)
    ends, built = [], []
    for _ in range(500):
        a = (rng.uniform(-50, 50), rng.uniform(-50, 50))
        b = (a[0] + rng.uniform(-3, 3), a[1] + rng.uniform(-3, 3))
        ends.append(geometry.segment_ends(a, b))
        built.append(geometry.make_segment(a, b))
    vertices, normals, centroids = geometry.segment_arrays(ends)
    assert vertices.tobytes() == np.stack([g.vertices for g in built]).tobytes()
    assert normals.tobytes() == np.stack([g.normals for g in built]).tobytes()
    assert centroids.tobytes() == np.stack([g.centroid for g in built]).tobytes()
    with pytest.raises(ValueError, match="segment end points"):
        geometry.segment_ends((0.0, 0.0), (0.001, 0.0))
    assert geometry.segment_ends((0, 0), (1.0, 0.0)) is None  # ints: the checked path
