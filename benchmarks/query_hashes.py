"""A hash of every ray query's answers, to compare two trees' query kernels bit for bit.

    PYTHONPATH=src python benchmarks/query_hashes.py [--json FILE]

Two scenes: ``rain`` (2,000 circles in a container of three boxes) stepped 120 times, and a
field of long static boxes and walls (shapes too large for a grid cell: the layers' large
lists) with small bodies among them. Rays of each scene: 1,000 random rays of 20 m and 1,000
of 2 m (``queries.rays``), 200 axis-aligned ones (``dx`` or ``dy`` exactly 0), and 100 that
start outside the grids' bounds or miss them. Each ray is cast by ``World.ray_cast`` (nearest
hit), ``ray_cast_all`` (every hit), ``ray_cast_callback`` (the nearest hits), the pybox2d
layer's every-hit rows (``queries._ray_hits``), and all at once by ``World.ray_cast_many``
and the batch's lidar kernel (``_batch_lidar``); one line per scene and query, the SHA-256 of
its answers (rows, fractions, points, normals), each float by its bits.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import impulse2d as i2d  # noqa: E402
from impulse2d import queries  # noqa: E402
from impulse2d._batch_lidar import _cast_rays_many  # noqa: E402
from impulse2d._collision.query_index import CELL_SCALE  # noqa: E402
from impulse2d.scenes import build_scene  # noqa: E402
from queries import rays  # noqa: E402


def _rain():
    world = i2d.World()
    build_scene(world, "rain")
    for _ in range(120):
        world.step(1.0 / 60.0)
    return world


def _field():
    """Long static boxes and walls (large shapes) with small boxes and circles among them."""
    world = i2d.World()
    ground = world.create_body(type="static")
    ground.create_box(60.0, 0.5)
    for x in (-30.0, 30.0):
        world.create_body(type="static", position=(x, 20.0)).create_box(0.5, 20.0)
    world.create_body(type="static", position=(0.0, 12.0), angle=0.3).create_box(25.0, 0.25)
    rng = np.random.default_rng(5)
    for k in range(300):
        body = world.create_body(position=(float(rng.uniform(-28, 28)),
                                           float(rng.uniform(1, 30))))
        if k % 2:
            body.create_circle(float(rng.uniform(0.1, 0.6)))
        else:
            body.create_box(float(rng.uniform(0.1, 0.6)), float(rng.uniform(0.1, 0.6)))
    world.step(1.0 / 60.0)
    return world


def _rays(world):
    origins, translations = [], []
    for count, length, seed in ((1000, 20.0, 1), (1000, 2.0, 2)):
        o, t = rays(world, count, length, seed=seed)
        origins.append(o)
        translations.append(t)
    rng = np.random.default_rng(3)
    pos = world.get_positions()
    lo, hi = pos.min(0) - 2.0, pos.max(0) + 2.0
    o = rng.uniform(lo, hi, size=(200, 2))
    t = np.zeros((200, 2))
    t[:100, 0] = rng.choice([-1.0, 1.0], 100) * rng.uniform(1.0, 60.0, 100)
    t[100:, 1] = rng.choice([-1.0, 1.0], 100) * rng.uniform(1.0, 60.0, 100)
    origins.append(o)
    translations.append(t)
    far = np.stack([rng.uniform(-200.0, 200.0, 100), np.full(100, hi[1] + 50.0)], 1)
    toward = rng.uniform(lo, hi, size=(100, 2)) - far
    origins.append(far)
    translations.append(toward * rng.uniform(0.5, 1.5, (100, 1)))
    return np.concatenate(origins), np.concatenate(translations)


def _floats(digest, *values):
    digest.update(np.asarray(values, dtype=np.float64).tobytes())


def hashes(world) -> dict:
    origins, translations = _rays(world)
    out = {}
    nearest, every, callback, rows = (hashlib.sha256() for _ in range(4))
    for (ox, oy), (dx, dy) in zip(origins.tolist(), translations.tolist()):
        hit = world.ray_cast((ox, oy), (dx, dy))
        if hit is None:
            nearest.update(b"-")
        else:
            _floats(nearest, hit.shape.index, hit.fraction, *hit.point, *hit.normal)
        for h in world.ray_cast_all((ox, oy), (dx, dy)):
            _floats(every, h.shape.index, h.fraction, *h.point, *h.normal)
        every.update(b"|")

        def report(shape, point, normal, fraction):
            _floats(callback, shape.index, fraction, *point, *normal)
            return fraction  # clip to this hit: the nearest ones

        world.ray_cast_callback((ox, oy), (dx, dy), report)
        callback.update(b"|")
        r, f, n = queries._ray_hits(world, ox, oy, dx, dy, queries._CATEGORY, queries._MASK)
        _floats(rows, *r, *f, *np.ravel(n))
        rows.update(b"|")
    out.update(nearest=nearest, every=every, callback=callback, rows=rows)
    many = hashlib.sha256()
    for column in world.ray_cast_many(origins, translations):
        many.update(np.ascontiguousarray(column).tobytes())
    out["many"] = many
    index = queries._index(world)
    n = origins.shape[0]
    fraction, point, normal = np.empty((1, n)), np.empty((1, n, 2)), np.empty((1, n, 2))
    row, done = np.empty((1, n), np.int64), np.zeros(1, dtype=bool)
    _cast_rays_many(np.array([index.address], dtype=np.float64), np.ones(1, dtype=bool),
                    CELL_SCALE, origins[None], translations[None], 1.0, queries._CATEGORY,
                    queries._MASK, fraction, point, normal, row, done)
    assert done[0]
    lidar = hashlib.sha256()
    for column in (fraction, point, normal, row):
        lidar.update(np.ascontiguousarray(column).tobytes())
    out["lidar"] = lidar
    return {name: digest.hexdigest()[:16] for name, digest in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the hashes here")
    args = parser.parse_args()
    result = {}
    for name, make in (("rain", _rain), ("field", _field)):
        result[name] = hashes(make())
        for query, digest in result[name].items():
            print(f"{name:6s} {query:9s} {digest}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
