"""Bounding boxes of shapes: the tight box of this step and the fat box the broadphase keeps.

A shape's fat box is its tight box grown by a margin, and is only re-grown once the tight box
leaves it. While no fat box changes, the set of overlapping pairs cannot change either, so a
resting scene skips the pair search entirely (Box2D's "enlarged AABB"), and when a few change,
only their pairs are searched again (:mod:`.pair_update`): the shapes whose fat box changed are
listed in the step's move buffer. The shapes of sleeping bodies (:mod:`.islands`) keep their
boxes: the bodies do not move; and so do static bodies' shapes, but on the step after Python
changed something (:mod:`.awake`: only the awake shapes are visited otherwise).
"""

from __future__ import annotations

from .._collision.geometry import shape_aabb, transform_point
from .._core.jit import borrowing_kernel


@borrowing_kernel
def update_aabbs(shapes, bodies, margin, moved, rows, every):
    """Recompute the tight box of every live shape of a body not asleep (``every``) or of the
    shapes ``rows`` (the awake shapes, ascending: :mod:`.awake`); grow fat boxes that no
    longer contain it.

    Writes the rows of the shapes whose fat box changed to ``moved`` (room for every row), in
    ascending order, and returns how many they are (if any, the pairs must be searched again).
    """
    count = 0
    for t in range(shapes.alive.shape[0] if every else rows.shape[0]):
        i = t if every else rows[t]
        if not shapes.alive[i]:
            continue
        b = shapes.body[i]
        if bodies.asleep[b]:
            continue
        box = shapes.aabb[i]
        if shapes.count[i] == 1:
            # a circle: its centre +- its radius, written here (what shape_aabb writes for one
            # vertex, the same operations) rather than through the call, which passes the
            # vertices and the box as arrays (rain's 2,000 circles: BENCHMARKS.md, session 24)
            r = shapes.radius[i]
            x, y = transform_point(bodies.origin[b, 0], bodies.origin[b, 1], bodies.rot[b, 0],
                                   bodies.rot[b, 1], shapes.vertices[i, 0, 0],
                                   shapes.vertices[i, 0, 1])
            box[0] = x - r
            box[1] = y - r
            box[2] = x + r
            box[3] = y + r
        else:
            shape_aabb(shapes.count[i], shapes.vertices[i], shapes.radius[i], bodies.origin[b, 0],
                       bodies.origin[b, 1], bodies.rot[b, 0], bodies.rot[b, 1], box)
        fat = shapes.fat_aabb[i]
        if box[0] < fat[0] or box[1] < fat[1] or box[2] > fat[2] or box[3] > fat[3]:
            fat[0] = box[0] - margin
            fat[1] = box[1] - margin
            fat[2] = box[2] + margin
            fat[3] = box[3] + margin
            moved[count] = i
            count += 1
    return count
