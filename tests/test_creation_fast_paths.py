"""The creation fast paths give what the checked paths give, value for value.

Segments, capsules and circles built from pairs of Python floats skip NumPy's conversions
(geometry._float_pair); a body's extents are folded in shape by shape when its centre of mass
stays put (World._update_mass). Both must write exactly what the general paths write, and bad
input must still raise naming the parameter.
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
