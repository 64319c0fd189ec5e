"""A new dynamic body of one shape written in one compiled call (Gymnasium's LunarLander: the
lander and its two legs, made again every reset).

``World.create_body`` and then ``World._attach_shape`` write such a body element by element:
some 45 writes of the body row, 20 of the shape row, then the mass, the centre and the
extents (``World._update_mass``); each write a fraction of a microsecond warm, but inside a
run of episodes, where a reset's code and data are out of the caches, the three bodies cost
some 450 us a reset (2026-11-29, load 15). When the world's stores' reference
(:mod:`._dynamics.world_ref`) was built from its present body and shape stores (a recycled
world's, :mod:`._recycle`), the rows have room (no store grows) and what the shape gives the
body is known (:mod:`._first_shape`: the second body of a geometry on), one kernel writes
every one of those columns through the reference instead: the same values from the same
operations (in double precision without contraction: :mod:`._core.jit` compiles without
``fastmath``), so the rows are bit for bit those of the two calls
(``tests/test_batch_dynamic.py``). Otherwise the caller makes the body the usual way.
"""

from __future__ import annotations

import math

import numpy as np

from . import _first_shape, _lock, _sleep
from ._core.jit import DirectCall, kernel
from ._core.state import DYNAMIC
from ._dynamics.world_ref import borrow_column
from .body import Body
from .constants import SLEEP_THRESHOLD
from .shapes import Shape
from .world import _SHAPE_CODES


@kernel
def dynamic_body(ref, i, s, f, flags, vertices, normals, centroid, bits):
    """Write body row ``i`` of the stores in ``ref`` (the world's stores' reference) as
    ``World.create_body`` writes a new dynamic body, shape row ``s`` as ``World._write_shape``
    writes its first shape, then the body's mass, centre, extents and velocity as
    ``World._update_mass`` writes them from what the shape gives the body. ``f`` (float64):
    x, y, angle, cos, sin, vx, vy, w, linear and angular damping, gravity scale, sleep
    threshold (m, rad, m/s, rad/s, 1/s, m/s), then the shape's radius, density, friction,
    restitution, then the body's mass, local centre x, y, inertia, extent, min_extent (kg, m,
    kg m^2). ``flags`` (int64): fixed rotation, allow sleep, shape type, vertex count, is
    sensor, sensor events, group. ``bits`` (uint64): category, mask."""
    x, y, angle, c, sn = f[0], f[1], f[2], f[3], f[4]
    w = f[7]
    # create_body: _sync_center's origin + R (0, 0), the velocity kept at the old centre
    cx = x + c * 0.0 - sn * 0.0
    cy = y + sn * 0.0 + c * 0.0
    vx = f[5] - w * (cy - y)
    vy = f[6] + w * (cx - x)
    borrow_column(ref, "bodies", "alive")[i] = True
    borrow_column(ref, "bodies", "type")[i] = DYNAMIC
    origin = borrow_column(ref, "bodies", "origin")
    origin[i, 0] = x
    origin[i, 1] = y
    borrow_column(ref, "bodies", "angle")[i] = angle
    rot = borrow_column(ref, "bodies", "rot")
    rot[i, 0] = c
    rot[i, 1] = sn
    borrow_column(ref, "bodies", "w")[i] = w
    force = borrow_column(ref, "bodies", "force")
    force[i, 0] = 0.0
    force[i, 1] = 0.0
    borrow_column(ref, "bodies", "torque")[i] = 0.0
    borrow_column(ref, "bodies", "linear_damping")[i] = f[8]
    borrow_column(ref, "bodies", "angular_damping")[i] = f[9]
    borrow_column(ref, "bodies", "gravity_scale")[i] = f[10]
    borrow_column(ref, "bodies", "fixed_rotation")[i] = flags[0] != 0
    dp = borrow_column(ref, "bodies", "dp")
    dp[i, 0] = 0.0
    dp[i, 1] = 0.0
    dq = borrow_column(ref, "bodies", "dq")
    dq[i, 0] = 1.0
    dq[i, 1] = 0.0
    borrow_column(ref, "bodies", "asleep")[i] = False
    borrow_column(ref, "bodies", "allow_sleep")[i] = flags[1] != 0
    borrow_column(ref, "bodies", "sleep_threshold")[i] = f[11]
    borrow_column(ref, "bodies", "sleep_time")[i] = 0.0
    borrow_column(ref, "bodies", "island")[i] = -1
    borrow_column(ref, "bodies", "island_sleep")[i] = 0.0
    borrow_column(ref, "bodies", "step_motion")[i] = 0.0
    borrow_column(ref, "bodies", "bullet")[i] = False
    borrow_column(ref, "bodies", "fast")[i] = False
    sweep = borrow_column(ref, "bodies", "sweep")
    for d in range(3):  # (element by element, as the shape's rows below)
        sweep[i, d] = 0.0
    # _write_shape
    borrow_column(ref, "shapes", "alive")[s] = True
    borrow_column(ref, "shapes", "body")[s] = i
    borrow_column(ref, "shapes", "type")[s] = flags[2]
    borrow_column(ref, "shapes", "count")[s] = flags[3]
    # Element by element, not as slices: an array assigned to a slice compiles Numba's shape
    # check and its formatted message (ol_raise_with_shape_context, str, repr, join: ~4 s of
    # this kernel's 5.6 s of compile), and a slice filled is some 390 instructions of IR. The
    # geometry's arrays are the rows' shapes, (8, 2) and (2,) (_collision.geometry.Geometry),
    # as World._write_shape's NumPy assignments require.
    shape_vertices = borrow_column(ref, "shapes", "vertices")
    shape_normals = borrow_column(ref, "shapes", "normals")
    for k in range(vertices.shape[0]):
        for d in range(2):
            shape_vertices[s, k, d] = vertices[k, d]
            shape_normals[s, k, d] = normals[k, d]
    borrow_column(ref, "shapes", "radius")[s] = f[12]
    shape_centroid = borrow_column(ref, "shapes", "centroid")
    shape_centroid[s, 0] = centroid[0]
    shape_centroid[s, 1] = centroid[1]
    borrow_column(ref, "shapes", "density")[s] = f[13]
    borrow_column(ref, "shapes", "friction")[s] = f[14]
    borrow_column(ref, "shapes", "restitution")[s] = f[15]
    borrow_column(ref, "shapes", "is_sensor")[s] = flags[4] != 0
    borrow_column(ref, "shapes", "sensor_events")[s] = flags[5] != 0
    borrow_column(ref, "shapes", "category")[s] = bits[0]
    borrow_column(ref, "shapes", "mask")[s] = bits[1]
    borrow_column(ref, "shapes", "group")[s] = flags[6]
    aabb = borrow_column(ref, "shapes", "aabb")
    for k in range(aabb.shape[1]):
        aabb[s, k] = 0.0
    # an inverted fat box: the broadphase picks the new shape up next step
    fat = borrow_column(ref, "shapes", "fat_aabb")
    fat[s, 0] = np.inf
    fat[s, 1] = np.inf
    fat[s, 2] = -np.inf
    fat[s, 3] = -np.inf
    ghost = borrow_column(ref, "shapes", "ghost")
    for k in range(ghost.shape[1]):
        for d in range(2):
            ghost[s, k, d] = 0.0
    # _update_mass with the shape's (mass, local centre, inertia) and extents
    mass, lx, ly, inertia = f[16], f[17], f[18], f[19]
    borrow_column(ref, "bodies", "mass")[i] = mass
    borrow_column(ref, "bodies", "inv_mass")[i] = 1.0 / mass if mass > 0.0 else 0.0
    local = borrow_column(ref, "bodies", "local_center")
    local[i, 0] = lx
    local[i, 1] = ly
    borrow_column(ref, "bodies", "inertia")[i] = inertia
    borrow_column(ref, "bodies", "inv_inertia")[i] = 1.0 / inertia if inertia > 0.0 else 0.0
    center = borrow_column(ref, "bodies", "center")
    center[i, 0] = x + c * lx - sn * ly
    center[i, 1] = y + sn * lx + c * ly
    borrow_column(ref, "bodies", "extent")[i] = f[20]
    borrow_column(ref, "bodies", "min_extent")[i] = f[21]
    v = borrow_column(ref, "bodies", "v")
    v[i, 0] = vx - w * (center[i, 1] - cy)
    v[i, 1] = vy + w * (center[i, 0] - cx)


_dynamic_body = DirectCall(dynamic_body, "a new dynamic body of one shape", 1.5)


def create_dynamic_body(world, x, y, angle, v, w, linear_damping, angular_damping,
                        gravity_scale, fixed_rotation, allow_sleep, kind, geom, m):
    """``(Body, Shape)`` of a dynamic body made as ``World.create_body`` (its arguments
    checked, not a bullet, no user data) then ``World._attach_shape(row, kind, geom, m, ...)``
    make it, in one compiled call; None, with nothing done, unless the world's stores'
    reference was built from its present body and shape stores, both have a free row and
    :mod:`._first_shape` keeps what ``geom`` gives such a body (then the caller makes it)."""
    d = world.__dict__
    built = d["_stores_built_from"]
    bodies, shapes = d["_bodies"], d["_shapes"]
    if (built is None or d["_stores"] is None or built[0] is not bodies
            or built[1] is not shapes):
        return None
    # a free row in each store: no store grows (a pool's live rows below its capacity)
    if (d["_body_pool"].live_count >= len(bodies.alive)
            or d["_shape_pool"].live_count >= len(shapes.alive)):
        return None
    density = m["density"]
    kept = _first_shape.lookup(geom, density, fixed_rotation)
    if kept is None:
        return None
    _lock.check(world, "World.create_body")
    (mass, (lx, ly), inertia), (extent, min_extent) = kept
    i = d["_body_pool"].allocate()
    s = d["_shape_pool"].allocate()
    # math.cos and math.sin, as create_body (NumPy's may differ in the last bit)
    f = np.array((x, y, angle, math.cos(angle), math.sin(angle), v[0], v[1], w,
                  linear_damping, angular_damping, gravity_scale,
                  SLEEP_THRESHOLD * d["_settings"].length_units_per_meter,
                  geom.radius, density, m["friction"], m["restitution"],
                  mass, lx, ly, inertia, extent, min_extent), np.float64)
    flags = np.array((fixed_rotation, allow_sleep, _SHAPE_CODES[kind], geom.count,
                      m["is_sensor"], m["enable_sensor_events"], m["group"]), np.int64)
    _dynamic_body.entry(d["_stores"], i, s, f, flags, geom.vertices, geom.normals,
                        geom.centroid, np.array((m["category"], m["mask"]), np.uint64))
    body = Body(world, i, bodies.generation.item(i))
    d["_body_handles"][i] = body
    d["_body_shapes"][i] = [s]
    d["_body_joints"][i] = []
    shape = Shape(world, s, shapes.generation.item(s))
    d["_shape_handles"][s] = shape
    if m["is_sensor"]:
        world._events.sensor_count += 1
        world._events.on = True
    if m["user_data"] is not None:
        d["_shape_user_data"][s] = m["user_data"]
    world._query_index = world._query_spare = None
    world._live_rows = None
    world._pairs_dirty = True
    _sleep.wake_touching(world, i)  # (_attach_shape's: the new body's island)
    return body, shape
