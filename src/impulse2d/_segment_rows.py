"""A few new static bodies of segments written in one compiled call (``impulse2d._batch``'s
static bodies: Gymnasium's LunarLander moon, one body of 11 edges, every reset).

``_batch.create_static_bodies`` writes such a batch element by element (the body row,
``_batch._write_body``), a NumPy assignment per shape column (some 25, and
``geometry.segment_arrays``' array building: ``_batch._write_shapes``) and the bodies' extents
(``_batch._ends_extents``): each a microsecond or less warm, but several inside a run of
episodes, where a reset's code and data are out of the caches (230-260 us of shape writes, 60
of the body row and 50 of the extents a reset at load 15, measured 2026-11-29). When the
world's stores' reference (:mod:`._dynamics.world_ref`) was built from its present body and
shape stores (a recycled world's, :mod:`._recycle`: LunarLander's from its third reset on),
one kernel writes every one of those columns through the reference instead: the same values
from the same operations (``segment_arrays``' divisions and sums and ``_ends_extents``'
``np.hypot``, the C library's ``hypot`` as NumPy's, in double precision without contraction:
:mod:`._core.jit` compiles without ``fastmath``), so the rows are bit for bit those of the
Python writes (``tests/test_segment_rows.py``).
"""

from __future__ import annotations

import math

import numpy as np

from ._collision.geometry import SegmentEnds
from ._collision.shape_types import SEGMENT
from ._core.jit import DirectCall, kernel
from ._core.state import STATIC
from ._dynamics.world_ref import borrow_column
from .constants import HUGE, SLEEP_THRESHOLD


@kernel
def static_segments(ref, bodies, poses, threshold, huge, code, ints, floats, bits):
    """Write the body rows ``bodies`` (int64) of the stores in ``ref`` (the world's stores'
    reference) as new static bodies at ``poses`` ((n, 5) float64: x, y, angle, cos, sin; m,
    rad), with the sleep threshold ``threshold`` and ``min_extent`` ``huge`` until a shape
    comes, and new segments of type ``code``, one a row of ``ints`` ((m, 5) int64: shape row,
    body row, is_sensor, sensor_events, group), ``floats`` ((m, 10) float64: a
    ``SegmentEnds``' ax, ay, bx, by, length, count, radius (m), then density, friction,
    restitution) and ``bits`` ((m, 2) uint64: category, mask). Then the bodies' extents from
    their segments' ends. What ``_batch._write_body``, ``_batch._write_shapes`` and
    ``_batch._ends_extents`` write."""
    b_alive = borrow_column(ref, "bodies", "alive")
    b_type = borrow_column(ref, "bodies", "type")
    origin = borrow_column(ref, "bodies", "origin")
    local_center = borrow_column(ref, "bodies", "local_center")
    center = borrow_column(ref, "bodies", "center")
    angle = borrow_column(ref, "bodies", "angle")
    rot = borrow_column(ref, "bodies", "rot")
    extent = borrow_column(ref, "bodies", "extent")
    min_extent = borrow_column(ref, "bodies", "min_extent")
    v = borrow_column(ref, "bodies", "v")
    force = borrow_column(ref, "bodies", "force")
    dp = borrow_column(ref, "bodies", "dp")
    sweep = borrow_column(ref, "bodies", "sweep")
    for k in range(bodies.shape[0]):
        i = bodies[k]
        x, y, c, s = poses[k, 0], poses[k, 1], poses[k, 3], poses[k, 4]
        b_alive[i] = True
        b_type[i] = STATIC
        origin[i, 0] = x
        origin[i, 1] = y
        local_center[i, 0] = 0.0
        local_center[i, 1] = 0.0
        # _sync_center's origin + R local_center with the local centre (0, 0): not always x
        # (-0.0 becomes 0.0)
        center[i, 0] = x + c * 0.0 - s * 0.0
        center[i, 1] = y + s * 0.0 + c * 0.0
        angle[i] = poses[k, 2]
        rot[i, 0] = c
        rot[i, 1] = s
        # (rows zeroed element by element: a slice filled is some 390 instructions of IR
        # apiece, for the bounds of a general slice; the kernel's were 11,400 with them)
        for d in range(2):
            v[i, d] = 0.0
            force[i, d] = 0.0
            dp[i, d] = 0.0
        borrow_column(ref, "bodies", "w")[i] = 0.0
        borrow_column(ref, "bodies", "torque")[i] = 0.0
        borrow_column(ref, "bodies", "linear_damping")[i] = 0.0
        borrow_column(ref, "bodies", "angular_damping")[i] = 0.0
        borrow_column(ref, "bodies", "sleep_time")[i] = 0.0
        borrow_column(ref, "bodies", "island_sleep")[i] = 0.0
        extent[i] = 0.0
        borrow_column(ref, "bodies", "step_motion")[i] = 0.0
        for d in range(3):
            sweep[i, d] = 0.0
        borrow_column(ref, "bodies", "mass")[i] = 0.0
        borrow_column(ref, "bodies", "inv_mass")[i] = 0.0
        borrow_column(ref, "bodies", "inertia")[i] = 0.0
        borrow_column(ref, "bodies", "inv_inertia")[i] = 0.0
        borrow_column(ref, "bodies", "gravity_scale")[i] = 1.0
        borrow_column(ref, "bodies", "fixed_rotation")[i] = False
        borrow_column(ref, "bodies", "asleep")[i] = False
        borrow_column(ref, "bodies", "allow_sleep")[i] = True
        borrow_column(ref, "bodies", "island")[i] = -1
        min_extent[i] = huge
        borrow_column(ref, "bodies", "bullet")[i] = False
        borrow_column(ref, "bodies", "fast")[i] = False
        dq = borrow_column(ref, "bodies", "dq")
        dq[i, 0] = 1.0
        dq[i, 1] = 0.0
        borrow_column(ref, "bodies", "sleep_threshold")[i] = threshold
    alive = borrow_column(ref, "shapes", "alive")
    body = borrow_column(ref, "shapes", "body")
    kind = borrow_column(ref, "shapes", "type")
    count = borrow_column(ref, "shapes", "count")
    radius = borrow_column(ref, "shapes", "radius")
    vertices = borrow_column(ref, "shapes", "vertices")
    normals = borrow_column(ref, "shapes", "normals")
    centroid = borrow_column(ref, "shapes", "centroid")
    density = borrow_column(ref, "shapes", "density")
    friction = borrow_column(ref, "shapes", "friction")
    restitution = borrow_column(ref, "shapes", "restitution")
    is_sensor = borrow_column(ref, "shapes", "is_sensor")
    sensor_events = borrow_column(ref, "shapes", "sensor_events")
    category = borrow_column(ref, "shapes", "category")
    mask = borrow_column(ref, "shapes", "mask")
    group = borrow_column(ref, "shapes", "group")
    aabb = borrow_column(ref, "shapes", "aabb")
    fat = borrow_column(ref, "shapes", "fat_aabb")
    ghost = borrow_column(ref, "shapes", "ghost")
    for k in range(ints.shape[0]):
        s = ints[k, 0]
        alive[s] = True
        body[s] = ints[k, 1]
        kind[s] = code
        count[s] = np.int64(floats[k, 5])
        radius[s] = floats[k, 6]
        ax, ay, bx, by = floats[k, 0], floats[k, 1], floats[k, 2], floats[k, 3]
        length = floats[k, 4]
        # geometry.segment_arrays' operations, element by element
        for j in range(vertices.shape[1]):
            for d in range(2):
                vertices[s, j, d] = 0.0
                normals[s, j, d] = 0.0
        vertices[s, 0, 0] = ax
        vertices[s, 0, 1] = ay
        vertices[s, 1, 0] = bx
        vertices[s, 1, 1] = by
        ex, ey = bx - ax, by - ay
        normals[s, 0, 0] = ey / length
        normals[s, 0, 1] = -ex / length
        normals[s, 1, 0] = (ay - by) / length
        normals[s, 1, 1] = -(ax - bx) / length
        centroid[s, 0] = 0.5 * (ax + bx)
        centroid[s, 1] = 0.5 * (ay + by)
        density[s] = floats[k, 7]
        friction[s] = floats[k, 8]
        restitution[s] = floats[k, 9]
        is_sensor[s] = ints[k, 2] != 0
        sensor_events[s] = ints[k, 3] != 0
        group[s] = ints[k, 4]
        category[s] = bits[k, 0]
        mask[s] = bits[k, 1]
        for j in range(aabb.shape[1]):
            aabb[s, j] = 0.0
        # an inverted fat box: the broadphase picks the new shapes up next step
        fat[s, 0] = np.inf
        fat[s, 1] = np.inf
        fat[s, 2] = -np.inf
        fat[s, 3] = -np.inf
        for j in range(ghost.shape[1]):
            for d in range(2):
                ghost[s, j, d] = 0.0
    # _ends_extents: a body's extent the largest hypot of its segments' ends (max is exact:
    # the running max keeps the first of equals, as Python's), plus 0.0; the thinnest 0.0
    for k in range(bodies.shape[0]):
        i = bodies[k]
        far = -1.0
        for j in range(ints.shape[0]):
            if ints[j, 1] == i:
                far = max(far, np.hypot(floats[j, 0], floats[j, 1]),
                          np.hypot(floats[j, 2], floats[j, 3]))
        if far >= 0.0:
            extent[i] = far + 0.0
            min_extent[i] = 0.0


_static_segments = DirectCall(static_segments, "new static bodies of segments", 2.0)


def write_static_segments(world, rows: list, bodies: list, shapes: list, owners: list,
                          parts: list) -> bool:
    """The columns ``_batch.create_static_bodies`` writes for the bodies ``bodies`` (``(x, y,
    angle, parts)``, checked) at body ``rows`` and their shapes ``parts`` (``(kind, geometry,
    material)``) at shape rows ``shapes`` on body rows ``owners``, in one compiled call; False,
    with nothing written, unless every shape is a segment given as its ``SegmentEnds`` and the
    world's stores' reference was built from its present body and shape stores (then the
    caller writes them)."""
    d = world.__dict__
    built = d["_stores_built_from"]
    if (built is None or d["_stores"] is None or built[0] is not d["_bodies"]
            or built[1] is not d["_shapes"]):
        return False
    if not all(kind == "segment" and type(geom) is SegmentEnds for kind, geom, _ in parts):
        return False
    # three flat lists, three arrays: NumPy converts a list of numbers several times faster
    # than a list of tuples (the moon's 11 edges: 19 against 34 us, least of 15 in a loop)
    ints: list = []
    floats: list = []
    bits: list = []
    for (_, geom, m), s, i in zip(parts, shapes, owners):
        ints += (s, i, m["is_sensor"], m["enable_sensor_events"], m["group"])
        floats += geom
        floats += (m["density"], m["friction"], m["restitution"])
        bits += (m["category"], m["mask"])
    # math.cos and math.sin, as create_body (NumPy's may differ in the last bit)
    poses = np.array([(x, y, angle, math.cos(angle), math.sin(angle))
                      for x, y, angle, _ in bodies], np.float64)
    _static_segments.entry(
        d["_stores"], np.array(rows, np.int64), poses,
        SLEEP_THRESHOLD * d["_settings"].length_units_per_meter, HUGE, SEGMENT,
        np.array(ints, np.int64).reshape(-1, 5), np.array(floats, np.float64).reshape(-1, 10),
        np.array(bits, np.uint64).reshape(-1, 2))
    return True
