"""The query kernels ``impulse2d warmup --all`` compiles, compiled without stepping a world,
for the compile tools' ``--what script:benchmarks/query_kernels.py`` (``compile_table.py``,
``compile_split.py``, ``compile_objects.py``): the pybox2d layer's ray cast (every hit, as rows:
``shape_queries.every_hit_rows``), the batch's lidar (``_batch_lidar.cast_rays_many``, with
the query index's ``refresh``) and the sensor events (``events.sensor_overlaps``), and the
index's static layer they need (``query_index.build_static``). Each call also checks its answer
against a hand-made scene, so that a tree whose kernels compile but answer wrongly fails here.
"""

import numpy as np

import impulse2d as i2d
from impulse2d import queries
from impulse2d._batch_lidar import _cast_rays_many
from impulse2d._collision.query_index import CELL_SCALE

def main() -> None:
    """The calls and their checks (the module docstring)."""
    world = i2d.World()
    world.create_body(type="static").create_box(10.0, 0.5)  # top at y = 0.5
    box = world.create_body(position=(0.0, 2.0))
    box.create_box(0.5, 0.5)                                # from y = 1.5 to 2.5
    world.create_body(position=(3.0, 1.0)).create_circle(0.5, is_sensor=True)
    world.create_body(position=(3.0, 1.2)).create_circle(0.25)

    # every hit of a ray straight down through the box and the ground, as rows
    rows, fractions, _ = queries._ray_hits(world, 0.0, 5.0, 0.0, -10.0, queries._CATEGORY,
                                           queries._MASK)
    assert np.allclose(fractions, [0.25, 0.45]) and len(rows) == 2, (rows, fractions)

    # the batch's lidar: one world, its index refreshed first, two rays
    index = queries._index(world)
    ats = np.array([index.address], dtype=np.float64)
    origins = np.array([[[0.0, 5.0], [-8.0, 5.0]]])
    translations = np.array([[[0.0, -10.0], [0.0, -10.0]]])
    fraction, point, normal = np.empty((1, 2)), np.empty((1, 2, 2)), np.empty((1, 2, 2))
    row, done = np.empty((1, 2), np.int64), np.zeros(1, dtype=bool)
    _cast_rays_many(ats, np.ones(1, dtype=bool), CELL_SCALE, origins, translations, 1.0,
                    queries._CATEGORY, queries._MASK, fraction, point, normal, row, done)
    assert done[0] and np.allclose(fraction, [[0.25, 0.45]]), (done, fraction)

    # the sensor's overlaps: the small circle, not the box
    tracker = world._events
    tracker._sense(world)
    assert tracker.sensor_begin[:, :2].tolist() == [[2, 3]], tracker.sensor_begin


if __name__ == "__main__":
    main()
