"""Single queries' call path (``queries.py``, ``_collision/query_results.py``): the results the
kernels box themselves are the engine's own objects, hold no stray references, and equal the
ones built in Python without the JIT; the fast paths for tuples of floats refuse every bad
number as the full validation does; the callback ray cast reports what ``ray_cast_all`` lists,
in order, also when the callback queries or changes the world."""

from __future__ import annotations

import gc
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import impulse2d as i2d
from impulse2d.constants import HUGE
from impulse2d.queries import QueryFilter, RayHit, _ray_hits
from impulse2d.shapes import ALL_BITS
from impulse2d.types import Vec2

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _world(seed: int = 5, count: int = 40):
    rng = np.random.default_rng(seed)
    world = i2d.World(gravity=(0, 0))
    for _ in range(count):
        body = world.create_body(type="static", position=tuple(rng.uniform(-8, 8, 2)),
                                 angle=float(rng.uniform(-3, 3)))
        if rng.integers(2):
            body.create_circle(float(rng.uniform(0.2, 1.2)))
        else:
            body.create_box(float(rng.uniform(0.2, 1.0)), float(rng.uniform(0.2, 1.0)),
                            radius=float(rng.choice([0.0, 0.1])))
    world.create_body(type="static").create_box(30.0, 0.5, center=(0.0, -10.0))  # a large one
    mover = world.create_body(position=(0.0, 12.0)).create_circle(0.5)
    return world, rng, mover


def _rays(rng, n):
    origins = rng.uniform(-10, 10, (n, 2))
    angles = rng.uniform(0, 2 * np.pi, n)
    lengths = rng.uniform(0.5, 25.0, n)
    return ([tuple(o) for o in origins.tolist()],
            [tuple(d) for d in (np.stack([np.cos(angles), np.sin(angles)], 1)
                                * lengths[:, None]).tolist()])


def test_results_are_the_engines_objects_whatever_the_form_of_the_numbers():
    world, rng, mover = _world()
    origins, translations = _rays(rng, 200)
    hits = 0
    for o, d in zip(origins, translations):
        hit = world.ray_cast(o, d)
        # the same ray given as Vec2, NumPy arrays and ints where exact: the same result
        assert world.ray_cast(Vec2(*o), Vec2(*d)) == hit
        assert world.ray_cast(np.array(o), np.array(d)) == hit
        every = world.ray_cast_all(o, d)
        if hit is None:
            assert every == []
            continue
        hits += 1
        assert type(hit) is RayHit and type(hit.point) is Vec2 and type(hit.normal) is Vec2
        assert type(hit.fraction) is float and type(hit.point.x) is float
        assert hit.shape in hit.shape.body.shapes  # the world's own handle
        assert every[0] == hit and all(type(h) is RayHit for h in every)
        assert hit == (hit.shape, hit.point, hit.normal, hit.fraction)
        assert math.isclose(math.hypot(*hit.normal), 1.0, rel_tol=1e-12)
        # the point is origin + fraction translation, exactly as Python computes it
        assert hit.point == (o[0] + hit.fraction * d[0], o[1] + hit.fraction * d[1])
        for h in every:
            assert h.point == (o[0] + h.fraction * d[0], o[1] + h.fraction * d[1])
    assert hits > 50
    shapes = world.query_aabb((-3.0, -3.0), (3.0, 3.0))
    assert shapes == world.query_aabb(Vec2(-3, -3), np.array([3.0, 3.0]))
    assert shapes and all(type(s) is i2d.Shape for s in shapes)
    inside = world.query_point(shapes[0].body.position)
    assert shapes[0] in inside and inside == world.query_point(tuple(shapes[0].body.position))
    cast = world.shape_cast(mover, (0.0, -30.0))
    assert type(cast) is RayHit and type(cast.point) is Vec2 and cast.shape is not mover
    assert cast == world.shape_cast(mover, Vec2(0, -30))
    assert world.shape_cast(mover, (0.0, 1.0)) is None
    assert world.query_shape(mover) == []


def test_results_hold_no_stray_references():
    world, rng, mover = _world()
    origins, translations = _rays(rng, 50)
    handles = [s for b in world.bodies for s in b.shapes]
    watched = [Vec2, RayHit, None, False, world._shape_handles] + handles

    def run():
        for o, d in zip(origins, translations):
            world.ray_cast(o, d)
            world.ray_cast_all(o, d)
            world.query_aabb(o, (o[0] + 3.0, o[1] + 3.0))
            world.query_point(o)
            world.ray_cast_callback(o, d, lambda *hit: 1.0)
            _ray_hits(world, *o, *d, -1, -1)
        world.shape_cast(mover, (0.0, -30.0))
        world.query_shape(mover)
        for bad in ((math.nan, 0.0), (HUGE * 2, 0.0)):  # refused by the kernels
            with pytest.raises(ValueError):
                world.ray_cast(bad, (1.0, 0.0))
            with pytest.raises(ValueError):
                world.query_point(bad)

    run()  # compile, build the grid
    gc.collect()  # the refused calls' tracebacks
    before = [sys.getrefcount(o) for o in watched]
    for _ in range(20):
        run()
    gc.collect()
    assert [sys.getrefcount(o) for o in watched] == before


@pytest.mark.parametrize("bad, error, name", [
    ((math.nan, 0.0), ValueError, "[0]"), ((0.0, math.inf), ValueError, "[1]"),
    ((-math.inf, 0.0), ValueError, "[0]"), ((2.0 * HUGE, 0.0), ValueError, "[0]"),
    ((0.0, -2.0 * HUGE), ValueError, "[1]"), ((True, 0.0), TypeError, ""),
    (("1.0", 0.0), TypeError, ""), ((0.0, 1.0, 2.0), TypeError, ""), ("up", TypeError, ""),
    ((0.0,), TypeError, ""), (None, TypeError, "")])
def test_the_fast_paths_refuse_what_the_validation_refuses(bad, error, name):
    world, _, mover = _world(count=5)
    world.ray_cast((0.0, 0.0), (1.0, 0.0))  # the grid built: the fast path is taken
    before = world.get_positions().copy()
    ok = (0.0, 0.0)
    calls = {
        "origin": [lambda: world.ray_cast(bad, (1.0, 0.0)),
                   lambda: world.ray_cast_all(bad, (1.0, 0.0)),
                   lambda: world.ray_cast_callback(bad, (1.0, 0.0), lambda *h: 1.0)],
        "translation": [lambda: world.ray_cast(ok, bad), lambda: world.ray_cast_all(ok, bad),
                        lambda: world.ray_cast_callback(ok, bad, lambda *h: 1.0),
                        lambda: world.shape_cast(mover, bad)],
        "lower": [lambda: world.query_aabb(bad, (1.0, 1.0))],
        "upper": [lambda: world.query_aabb((-1.0, -1.0), bad)],
        "point": [lambda: world.query_point(bad)],
    }
    for parameter, makes in calls.items():
        for make in makes:
            with pytest.raises(error, match=f"{parameter}{name}".replace("[", r"\[")):
                make()
    np.testing.assert_array_equal(world.get_positions(), before)


def _protocol(every, answer):
    """What the callback is shown, by the documented protocol, for the hits ``every`` (as
    ``ray_cast_all`` lists them) and its answers ``answer(k, hit)`` to the k-th call."""
    shown = []
    limit = 1.0
    for hit in every:
        if hit.fraction > limit:
            break
        shown.append(tuple(hit))
        a = answer(len(shown), hit)
        if a == 0.0:
            break
        if a > 0.0:
            limit = min(limit, a)
    return shown


ANSWERS = {
    "every hit": lambda k, hit: 1.0,
    "the nearest": lambda k, hit: hit[3],
    "the first": lambda k, hit: 0.0,
    "ignore, go on, clip": lambda k, hit: (-1.0, 1.0, hit[3])[(k - 1) % 3],
    "clip short of it": lambda k, hit: 0.5 * hit[3],
}


@pytest.mark.parametrize("kind", ANSWERS)
def test_the_callback_reports_what_ray_cast_all_lists(kind):
    world, rng, _ = _world(seed=9)
    for _ in range(2):  # twins: a tie at every fraction they are hit at
        world.create_body(type="static", position=(9.0, 9.0)).create_circle(0.7)
    origins, translations = _rays(rng, 200)
    origins.append((3.0, 9.1))
    translations.append((12.0, 0.0))
    answer = ANSWERS[kind]
    ties = 0
    for o, d in zip(origins, translations):
        every = world.ray_cast_all(o, d)
        expected = _protocol(every, answer)
        seen = []

        def callback(*hit):
            seen.append(hit)
            return answer(len(seen), hit)

        world.ray_cast_callback(o, d, callback)
        assert seen == expected
        ties += len(every) > 1 and every[0].fraction == every[1].fraction

        def nosy(*hit):  # queries the world (rewriting the grid's output) in between
            seen.append(hit)
            world.ray_cast(o, (-d[0], -d[1]))
            world.ray_cast_all((o[0] + 1.0, o[1]), d)
            world.query_point(hit[1])
            return answer(len(seen), hit)

        seen.clear()
        world.ray_cast_callback(o, d, nosy)
        assert seen == expected
    assert ties >= 1  # the twins were met


def test_a_callback_may_change_the_world():
    world = i2d.World(gravity=(0, 0))
    shapes = [world.create_body(type="static", position=(x, 0.0)).create_circle(0.4)
              for x in (2.0, 4.0, 6.0, 8.0)]
    seen = []

    def destroy_the_next(shape, point, normal, fraction):
        seen.append(shape)
        if shape == shapes[0]:
            world.destroy_body(shapes[1].body)  # the one the ray meets next
        return 1.0

    world.ray_cast_callback((0.0, 0.0), (10.0, 0.0), destroy_the_next)
    # the hits beyond the nearest are those of the world as the callback left it
    assert seen == [shapes[0], shapes[2], shapes[3]]
    assert [h.shape for h in world.ray_cast_all((0.0, 0.0), (10.0, 0.0))] == [
        shapes[0], shapes[2], shapes[3]]


_NO_JIT_SCRIPT = """
import json, numpy as np, impulse2d as i2d
from impulse2d.queries import _ray_hits
rng = np.random.default_rng(3)
world = i2d.World(gravity=(0, 0))
for _ in range(12):
    body = world.create_body(type="static", position=tuple(rng.uniform(-5, 5, 2)),
                             angle=float(rng.uniform(-3, 3)))
    if rng.integers(2):
        body.create_circle(float(rng.uniform(0.3, 1.0)))
    else:
        body.create_box(0.6, 0.3, radius=0.05)
mover = world.create_body(position=(0.0, 8.0)).create_circle(0.5)
def hit(h):
    return None if h is None else [h.shape.index, list(h.point), list(h.normal), h.fraction,
                                   type(h).__name__, type(h.point).__name__]
out = []
for _ in range(40):
    o = tuple(rng.uniform(-7, 7, 2).tolist())
    d = tuple((rng.uniform(-1, 1, 2) * 14).tolist())
    out.append(hit(world.ray_cast(o, d)))
    out.append([hit(h) for h in world.ray_cast_all(o, d)])
    out.append([s.index for s in world.query_aabb(o, (o[0] + 2.0, o[1] + 2.0))])
    out.append([s.index for s in world.query_point(o)])
    rows, fractions, normals = _ray_hits(world, *o, *d, -1, -1)
    out.append([rows, fractions, [list(n) for n in normals],
                [type(x).__name__ for x in rows + fractions + normals]])
out.append(hit(world.shape_cast(mover, (0.0, -20.0))))
out.append([s.index for s in world.query_shape(mover)])
print(json.dumps(out))
"""


def _run(**env):
    return subprocess.run([sys.executable, "-c", _NO_JIT_SCRIPT], capture_output=True,
                          text=True, check=True,
                          env={**os.environ, "PYTHONPATH": SRC, **env}).stdout


def test_without_the_jit_the_results_are_the_same():
    jit = json.loads(_run())
    plain = json.loads(_run(NUMBA_DISABLE_JIT="1"))
    assert plain == jit
    assert any(r is not None and r != [] for r in jit)  # a real comparison


def test_the_plain_hit_lists_are_ray_cast_alls():
    """``_ray_hits`` (what the pybox2d layer's ray cast walks) lists the rows, fractions and
    normals of ``ray_cast_all``'s hits, in its order, as ints, floats and tuples of floats."""
    world, rng, mover = _world(seed=9)
    origins, translations = _rays(rng, 300)
    seen = 0
    for o, d in zip(origins, translations):
        rows, fractions, normals = _ray_hits(world, *o, *d, -1, -1)
        hits = world.ray_cast_all(o, d, filter=QueryFilter(ALL_BITS, ALL_BITS))
        assert rows == [h.shape.index for h in hits]
        assert fractions == [h.fraction for h in hits]
        assert normals == [tuple(h.normal) for h in hits]
        assert all(type(r) is int for r in rows) and all(type(f) is float for f in fractions)
        assert all(type(n) is tuple and len(n) == 2 and type(n[0]) is float for n in normals)
        seen += len(rows)
    assert seen > 300  # a real comparison
    with pytest.raises(ValueError):
        _ray_hits(world, math.nan, 0.0, 1.0, 0.0, -1, -1)
