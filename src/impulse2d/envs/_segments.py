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

:func:`move_segments` moves the same segments of many worlds at once (a masked reset's
worlds): the arrays are computed for all of them in one pass, then each world gets a few
row assignments. What it writes is what ``Body.create_segment`` / ``Body.create_chain``
write for those end points (``make_segment``'s vertices, normals and centroid, the
arithmetic of ``_collision.geometry.segment_arrays``, and for a chain its ghost vertices
and its back normal cleared), the shapes' boxes as a new shape's (the broadphase picks them
up in the next step), the static body's extent (what ``World._update_mass`` computes, with
the arithmetic of ``impulse2d._batch._write_extents``), and the world's flags for changed shapes (its pairs and its
query index are found again). So a world reset this way equals, bit for bit, one whose
terrain was made anew after the restore, when the rows are the same
(``tests/test_envs_segments.py``).

It is only for a terrain that has not been stepped since the snapshot the reset restored:
no contact, pair or query index holds those shapes yet.
"""

from __future__ import annotations

import math

import numpy as np

from .._batch import _index
from ..constants import LINEAR_SLOP
from ..world import _reach


def move_segments(worlds, body: int, rows: list, a: np.ndarray, b: np.ndarray,
                  ghosts: np.ndarray | None = None) -> None:
    """Give the segments ``rows`` (shape rows of the static body ``body``, at the world's
    origin, unrotated: the same rows in each of ``worlds``) new end points: in world ``k``
    ``a[k]`` to ``b[k]`` ((worlds, len(rows), 2) arrays, m, each pair more than
    ``LINEAR_SLOP`` apart). ``ghosts`` ((worlds, len(rows), 2, 2)): a chain's ghost vertices
    (:func:`open_chain_ghosts`), None for two-sided segments. Raises ValueError before any
    world changes if a segment is too short."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    ax, ay, bx, by = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    ex, ey = bx - ax, by - ay
    # math.hypot, as make_segment and segment_ends take it (NumPy's may differ in the last bit)
    length = np.array([math.hypot(x, y) for x, y in zip(ex.ravel().tolist(),
                                                       ey.ravel().tolist())]).reshape(ex.shape)
    if not np.all(length > LINEAR_SLOP):
        raise ValueError(f"segment end points must be more than {LINEAR_SLOP} m apart")
    n, m = ax.shape
    vertices = np.zeros((n, m) + worlds[0]._shapes.vertices.shape[1:])
    vertices[:, :, 0] = a
    vertices[:, :, 1] = b
    normals = np.zeros_like(vertices)
    normals[:, :, 0, 0] = ey / length
    normals[:, :, 0, 1] = -ex / length
    if ghosts is None:
        normals[:, :, 1, 0] = (ay - by) / length
        normals[:, :, 1, 1] = -(ax - bx) / length
        ghosts = np.zeros((n, m, 2, 2))
    # (a chain's back side is not a face: its normal stays 0, and rays pass it)
    centroid = np.empty((n, m, 2))
    centroid[..., 0] = 0.5 * (ax + bx)
    centroid[..., 1] = 0.5 * (ay + by)
    extent = _extent(worlds[0], body, rows, vertices)
    r = _index(rows)
    for k, world in enumerate(worlds):
        sh = world._shapes
        sh.vertices[r] = vertices[k]
        sh.normals[r] = normals[k]
        sh.centroid[r] = centroid[k]
        sh.ghost[r] = ghosts[k]
        # a new shape's boxes: the broadphase picks the shapes up in the next step
        sh.aabb[r] = 0.0
        sh.fat_aabb[r, 0:2] = np.inf
        sh.fat_aabb[r, 2:4] = -np.inf
        # (its thinnest half-width, min_extent, is the segments' radius: moving them keeps it)
        world._bodies.extent[body] = extent[k]
        world._pairs_dirty = True
        world._query_index = world._query_spare = None


def _extent(world, body: int, rows: list, vertices: np.ndarray) -> np.ndarray:
    """The static body's extent in each world once its segments ``rows`` have ``vertices``
    ((worlds, segments, 8, 2)): the farthest shape point from its origin, as
    ``World._update_mass`` takes it (``_batch._write_extents``' arithmetic for segments; the
    body's other shapes, the same in every world, by ``world._reach``): a max, exact in any
    order."""
    x0, y0 = vertices[:, :, 0, 0] - 0.0, vertices[:, :, 0, 1] - 0.0
    x1, y1 = vertices[:, :, 1, 0] - 0.0, vertices[:, :, 1, 1] - 0.0
    h0, h1 = np.hypot(x0, y0), np.hypot(x1, y1)
    q0, q1 = x0 * x0 + y0 * y0, x1 * x1 + y1 * y1
    cut = np.maximum(np.maximum(q0, q1), 0.0) * (1.0 - 1e-9)
    far = np.where((q0 >= cut) & (q1 >= cut), np.maximum(h0, h1), np.where(q0 >= cut, h0, h1))
    extent = (far + world._shapes.radius[rows]).max(axis=1)
    moved = set(rows)
    for s in world._body_shapes[body]:
        if s not in moved:
            extent = np.maximum(extent, _reach(world._shapes, s, (0.0, 0.0)))
    return extent


def open_chain_ghosts(points: np.ndarray) -> np.ndarray:
    """The ghost vertices (worlds, segments, 2, 2) of an open chain through ``points`` in each
    world ((worlds, points, 2)): ``_collision.chain.chain_ghosts``, with the same arithmetic,
    for many chains at once (a segment's neighbours' far vertices; at the two free ends a ghost
    straight behind the surface, ``end - normal``)."""
    n, p = points.shape[:2]
    ghosts = np.empty((n, p - 1, 2, 2))
    ghosts[:, 1:, 0] = points[:, :-2]
    ghosts[:, :-1, 1] = points[:, 2:]
    for end, (i, j), at in ((0, (0, 1), 0), (1, (p - 2, p - 1), p - 2)):
        a, b = points[:, i], points[:, j]
        d = b - a
        length = np.array([math.hypot(x, y) for x, y in d.tolist()])
        normal = np.stack((d[:, 1], -d[:, 0]), axis=1) / length[:, None]
        ghosts[:, at, end] = (a if end == 0 else b) - normal
    return ghosts


__all__ = ["move_segments", "open_chain_ghosts"]
