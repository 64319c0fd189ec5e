"""New segment shapes written in one compiled call (``impulse2d._segment_rows``): the rows of a
batch of static segment bodies (``impulse2d._batch``) are bit for bit those the NumPy column
writes, and one-by-one creation, give."""

from __future__ import annotations

import random

import numpy as np
import pytest

from impulse2d import _batch
from impulse2d._collision import geometry
from impulse2d.shapes import parse_material

from conftest import world_with_room


def _moons(seed: int, bodies: int):
    """``bodies`` static bodies of 11 segments each, materials of every kind: two per body (the
    layer's moon: its first edge on the default definition, ten on another), a sensor, the high
    bits of the category and mask, a negative group, user data."""
    rng = random.Random(seed)
    specs = []
    for k in range(bodies):
        first = dict(friction=0.2, density=0.0, user_data=("first", k))
        rest = dict(friction=rng.uniform(0, 3), density=0.0, mask=0xFFFF_FFFF_FFFF_FFF0,
                    group=-3, category=1 << 63, restitution=0.25, is_sensor=k == 1,
                    enable_sensor_events=k != 2)
        parts = []
        for j in range(11):
            a = (rng.uniform(-20, 20), rng.uniform(-2, 2))
            if j == 4:
                a = (-0.0, -0.0)
            b = (a[0] + rng.uniform(0.1, 3), a[1] - rng.uniform(-1, 1))
            parts.append((a, b, first if j == 0 else rest))
        specs.append((rng.uniform(-40, 40), rng.uniform(-5, 5), 0.0 if k == 0 else 0.3, parts))
    return specs


def _made(world, specs, batch: bool):
    if not batch:
        out = []
        for x, y, angle, parts in specs:
            body = world.create_body("static", position=(x, y), angle=angle)
            out.append(body)
            for a, b, material in parts:
                world._attach_shape(body._row(), "segment", geometry.make_segment(a, b),
                                    parse_material(dict(material)), "size")
        return out
    parsed = {}
    bodies = []
    for x, y, angle, parts in specs:
        made = []
        for a, b, material in parts:
            if id(material) not in parsed:
                parsed[id(material)] = parse_material(dict(material))
            made.append(("segment", geometry.segment_ends(a, b), parsed[id(material)]))
        bodies.append((x, y, angle, made))
    return [body for body, _ in _batch.create_static_bodies(world, bodies)]


@pytest.mark.parametrize("bodies", [1, 2, 3])
def test_compiled_segment_rows_are_the_numpy_writes_bit_for_bit(bodies, monkeypatch):
    assert bodies < _batch.FEW_BODIES  # (more: written by NumPy, one column at a time)
    specs = _moons(bodies, bodies)
    taken = []
    write = _batch.write_static_segments

    def recorded(*args):
        taken.append(write(*args))
        return taken[-1]
    monkeypatch.setattr(_batch, "write_static_segments", recorded)
    a, b, c = world_with_room(90, 30, -10.0), world_with_room(90, 30, -10.0), world_with_room(90, 30, -10.0)
    _made(a, specs, batch=False)
    _made(b, specs, batch=True)
    assert taken == [True]  # the compiled writes
    c._stores_built_from = None  # (no current reference: the NumPy writes)
    _made(c, specs, batch=True)
    assert taken == [True, False]
    for other in (b, c):
        for name in ("_bodies", "_shapes"):
            for field, x, y in zip(getattr(a, name)._fields, getattr(a, name),
                                   getattr(other, name)):
                assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), f"{name}.{field}"
        assert other._shape_user_data == a._shape_user_data
        assert other._events.sensor_count == a._events.sensor_count
    assert b._events.sensor_count == (11 - 1 if bodies > 1 else 0)
    for world in (a, b):
        for k in range(8):
            box = world.create_body("dynamic", position=(4.0 * k - 16.0, 10.0))
            box.create_box(0.4, 0.3, density=2.0)
        for _ in range(60):
            world.step(1 / 60)
    assert a.state_hash() == b.state_hash()
    assert np.isfinite(a._bodies.origin).all()
