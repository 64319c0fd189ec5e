"""A terrain's segments moved in place: a new episode's ground written into the rows of the
ground the environment's snapshot restored, instead of a ground made anew.

A native environment's snapshot (what a reset restores) holds the world with its terrain
already made, of the right shape (the same number of segments on the same static body,
made in the same order), so a reset restores it with the rest of the world, one copy of the
world's arrays, and then gives the segments the episode's end points here. Making the
terrain anew after restoring a world without it cost a reset most of its time (measured
2026-11-28, one LunarLander world: ``World.restore`` of the world as built and the moon's
chain made anew 1.5 ms; the restore of a snapshot that has the moon, its arrays of the same
size, 0.08 ms).

What :func:`move_segments` writes is what ``Body.create_segment`` / ``Body.create_chain``
write for those end points (``make_segment``'s vertices, normals and centroid, the
arithmetic of ``_collision.geometry.segment_arrays``, and for a chain its ghost vertices
and its back normal cleared), the shapes' boxes as a new shape's (the broadphase picks them
up in the next step), the static body's extents (``impulse2d._batch._write_extents``, what
``World._update_mass`` computes), and the world's flags for changed shapes (its pairs and its
query index are found again). So a world reset this way equals, bit for bit, one whose
terrain was made anew after the restore, when the rows are the same
(``tests/test_envs_segments.py``).

It is only for a terrain that has not been stepped since the snapshot the reset restored:
no contact, pair or query index holds those shapes yet.
"""

from __future__ import annotations

import math

import numpy as np

from .._batch import _index, _write_extents
from ..constants import LINEAR_SLOP


def move_segments(world, body: int, rows: list, a: np.ndarray, b: np.ndarray,
                  ghosts: np.ndarray | None = None) -> None:
    """Give the segments ``rows`` (shape rows of the static body ``body``, whose origin is
    the world's origin, unrotated) the end points ``a`` and ``b`` ((len(rows), 2) arrays, m, body
    frame, each pair more than ``LINEAR_SLOP`` apart); ``ghosts`` ((len(rows), 2, 2)): a
    chain's ghost vertices (``_collision.chain.chain_ghosts``), None for plain segments."""
    ax, ay, bx, by = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    ex, ey = bx - ax, by - ay
    # math.hypot, as make_segment and segment_ends take it (NumPy's may differ in the last bit)
    length = np.array([math.hypot(x, y) for x, y in zip(ex.tolist(), ey.tolist())])
    if not np.all(length > LINEAR_SLOP):
        raise ValueError(f"segment end points must be more than {LINEAR_SLOP} m apart")
    sh = world._shapes
    r = _index(rows)
    vertices = np.zeros((len(rows),) + sh.vertices.shape[1:])
    vertices[:, 0] = a
    vertices[:, 1] = b
    sh.vertices[r] = vertices
    normals = np.zeros_like(vertices)
    normals[:, 0, 0] = ey / length
    normals[:, 0, 1] = -ex / length
    if ghosts is None:
        normals[:, 1, 0] = (ay - by) / length
        normals[:, 1, 1] = -(ax - bx) / length
        sh.ghost[r] = 0.0
    else:
        sh.ghost[r] = ghosts   # a chain's back side is not a face (normal 0: rays pass it)
    sh.normals[r] = normals
    sh.centroid[r, 0] = 0.5 * (ax + bx)
    sh.centroid[r, 1] = 0.5 * (ay + by)
    # a new shape's boxes: the broadphase picks the shapes up in the next step
    sh.aabb[r] = 0.0
    sh.fat_aabb[r, 0:2] = np.inf
    sh.fat_aabb[r, 2:4] = -np.inf
    every = world._body_shapes[body]   # the body's extents are over all its shapes
    _write_extents(world, [body], [every], every)
    world._pairs_dirty = True
    world._query_index = world._query_spare = None


__all__ = ["move_segments"]
