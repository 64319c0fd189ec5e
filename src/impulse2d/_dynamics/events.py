"""What changed in a step: touching pairs that began or ended, hard hits, sensor overlaps.

Kernels for :mod:`impulse2d.events`, run after each step (each is linear in what it reads):

* :func:`touch_changes` merges the sorted keys of the pairs that touched after the last step
  with the contact store now (its keys ascending too), in one pass;
* :func:`hits` reads the solver's constraint rows, which keep each point's approach speed before
  the solve and the largest normal impulse it took;
* :func:`moved_bodies` compares the bodies with their copy from before the step;
* :func:`sensor_overlaps` lists, for each sensor shape, the shapes it overlaps now (boxes first,
  then exactly: :func:`.._collision.shape_cast.overlaps`).

A pair *touches* when its manifold has points (touching or within the speculative margin), as in
Box2D v3.
"""

from __future__ import annotations

import numpy as np

from .._collision.geometry import shape_aabb
from .._collision.shape_cast import _world_vertices, overlaps
from .._core.jit import kernel


@kernel
def touch_changes(previous, keys, count):
    """``previous``: ascending keys of the pairs touching after the last step; ``keys`` and
    ``count``: the contact store now. Returns ``(begin, ended, touching)``: rows of the store
    that touch now and did not, keys that touched and do not, and the keys touching now."""
    n = keys.shape[0]
    m = previous.shape[0]
    touching = np.empty(n, np.int64)
    begin = np.empty(n, np.int64)
    ended = np.empty(m, np.int64)
    t = 0
    b = 0
    e = 0
    i = 0
    for k in range(n):
        if count[k] == 0:
            continue
        key = keys[k]
        touching[t] = key
        t += 1
        while i < m and previous[i] < key:
            ended[e] = previous[i]
            e += 1
            i += 1
        if i < m and previous[i] == key:
            i += 1
        else:
            begin[b] = k
            b += 1
    while i < m:
        ended[e] = previous[i]
        e += 1
        i += 1
    return begin[:b], ended[:e], touching[:t]


@kernel
def hits(contact, count, relative_velocity, max_normal_impulse, threshold):
    """Constraint rows (``contact``: their contact rows) where a point that pushed (a positive
    normal impulse) approached faster than ``threshold`` (m/s): for each, the contact row, the
    fastest such point and its approach speed."""
    n = contact.shape[0]
    rows = np.empty(n, np.int64)
    points = np.empty(n, np.int64)
    speeds = np.empty(n)
    h = 0
    for q in range(n):
        best = threshold
        point = -1
        for j in range(count[q]):
            speed = -relative_velocity[q, j]
            if max_normal_impulse[q, j] > 0.0 and speed > best:
                best = speed
                point = j
        if point >= 0:
            rows[h] = contact[q]
            points[h] = point
            speeds[h] = best
            h += 1
    return rows[:h], points[:h], speeds[:h]


@kernel
def sensor_overlaps(body, count, vertices, radius, origin, rot, sensors, visible):
    """For each sensor row in ``sensors``, the rows of the shapes of other bodies it overlaps
    (touching is not overlapping) among those ``visible`` (enable_sensor_events, not a sensor),
    as the pairs ``(sensor, visitor)`` in sensor then visitor order. The shapes' columns
    ``body``, ``count``, ``vertices``, ``radius`` and the bodies' ``origin``, ``rot``, not the
    stores: Python's call unboxes each array it is given, and the kernel's Python wrapper holds
    the code to (the two stores' 54 arrays were most of this kernel's compile: BENCHMARKS.md,
    session 27, ``warmD52``)."""
    n = visible.shape[0]
    pairs = np.empty((max(16, 4 * sensors.shape[0]), 2), np.int64)
    found = 0
    world_a = np.empty((8, 2))
    world_b = np.empty((8, 2))
    difference = np.empty((16, 2))
    normals = np.empty((16, 2))
    box_a = np.empty(4)
    box_b = np.empty(4)
    for k in range(sensors.shape[0]):
        s = sensors[k]
        a = body[s]
        shape_aabb(count[s], vertices[s], radius[s], origin[a, 0], origin[a, 1], rot[a, 0],
                   rot[a, 1], box_a)
        _world_vertices(count[s], vertices[s], origin[a, 0], origin[a, 1], rot[a, 0],
                        rot[a, 1], world_a)
        for v in range(n):
            if not visible[v] or body[v] == a:
                continue
            b = body[v]
            shape_aabb(count[v], vertices[v], radius[v], origin[b, 0], origin[b, 1], rot[b, 0],
                       rot[b, 1], box_b)
            if (box_b[0] > box_a[2] or box_b[2] < box_a[0] or box_b[1] > box_a[3]
                    or box_b[3] < box_a[1]):
                continue
            _world_vertices(count[v], vertices[v], origin[b, 0], origin[b, 1], rot[b, 0],
                            rot[b, 1], world_b)
            if overlaps(count[s], world_a, radius[s], count[v], world_b, radius[v], difference,
                        normals):
                if found == pairs.shape[0]:
                    grown = np.empty((2 * found, 2), np.int64)
                    for q in range(found):  # (not a slice assignment: see query_index.refresh)
                        grown[q, 0] = pairs[q, 0]
                        grown[q, 1] = pairs[q, 1]
                    pairs = grown
                pairs[found, 0] = s
                pairs[found, 1] = v
                found += 1
    return pairs[:found]


@kernel
def moved_bodies(alive, origin, angle, before_origin, before_angle):
    """Rows of the live bodies whose origin or angle differs from before the step."""
    n = before_angle.shape[0]
    rows = np.empty(n, np.int64)
    count = 0
    for i in range(n):
        if alive[i] and (origin[i, 0] != before_origin[i, 0] or origin[i, 1] != before_origin[i, 1]
                         or angle[i] != before_angle[i]):
            rows[count] = i
            count += 1
    return rows[:count]


__all__ = ["touch_changes", "hits", "sensor_overlaps", "moved_bodies"]
