"""Static bodies made or destroyed in one batch: what doing it one by one would write.

pybox2d programs build and tear down terrain a static body at a time: a Gymnasium
BipedalWalker reset destroys and makes about 200 (one edge each), so each body's Python cost
(``World.create_body`` then ``_attach_shape``: some 70 element writes through several layers of
checks, tens of microseconds; ``destroy_body``'s pass over the contacts) was most of a reset.
:func:`create_static_bodies` takes bodies whose every input was validated already and writes
each store column of the whole batch in one NumPy assignment; :func:`destroy_bodies` frees a
run of bodies with one pass over the contacts.

The result is the same, bit for bit, as ``create_body("static", position, angle)`` followed by
attaching each shape (or ``destroy_body`` on each): the same rows from the same pools
(allocated and freed in the same order), the same values in every column those calls write, the
same store growth (capacity doubling), the same handles, lists, flags, wakes and contacts
(``tests/test_batch_static.py`` compares the stores column by column). Only massless shapes
(segments, or density 0) are taken: on a static body they leave its mass at 0 and its centre of
mass at its origin, so no mass is computed or checked. Small runs go one by one (:data:`FEW_ROWS`,
:data:`FEW`): a NumPy write costs about a microsecond whatever its length.
"""

from __future__ import annotations

import math

import numpy as np

from . import _sleep
from ._collision.geometry import SegmentEnds, make_segment, segment_arrays
from ._core.state import BODY_LAYOUT, SHAPE_LAYOUT, STATIC
from ._core.storage import grow_store
from ._segment_rows import write_static_segments
from ._stores_epoch import bump as stores_replaced
from .body import Body
from .constants import HUGE, SLEEP_THRESHOLD
from .shapes import Shape
from .world import _SHAPE_CODES, _min_extent, _reach

FEW_ROWS = 10
"""A batch of fewer body and shape rows than this is made one by one: a NumPy write per column
costs about a microsecond whatever its length, so a batch costs ~200 us however small (one
body of one shape by its checked creation: ~30 us; LunarLander's moon of 11 edges: ~270)."""

FEW = 4
"""A batch of fewer bodies than this is destroyed one by one."""

FEW_BODIES = 4
"""Fewer bodies than this are written row by row, element by element (about 5 us a body:
an element write costs a tenth of a column write, and a batch writes some 35 columns per body
store; LunarLander's moon is one body of 11 edges)."""


def create_static_bodies(world, bodies: list) -> list:
    """Create static bodies: ``bodies`` a list of ``(x, y, angle, parts)`` (m, m, rad; checked
    as ``create_body`` checks them), ``parts`` a list of ``(kind, geometry, material)`` as
    ``World._attach_shape`` takes them (validated geometry, or a segment's checked
    ``geometry.SegmentEnds``, built here with the others; a parsed material), every one
    massless (a segment, or density 0). Returns a ``(Body, [Shape, ...])`` per body."""
    if len(bodies) + sum(len(parts) for *_, parts in bodies) < FEW_ROWS:
        return [_one_by_one(world, *body) for body in bodies]
    allocate = world._body_pool.allocate
    rows = [allocate() for _ in bodies]
    world._bodies = _room(world, world._bodies, BODY_LAYOUT, max(rows))
    allocate = world._shape_pool.allocate
    groups = [[allocate() for _ in parts] for *_, parts in bodies]
    flat = [s for group in groups for s in group]
    if flat:
        world._shapes = _room(world, world._shapes, SHAPE_LAYOUT, max(flat))
    parts = [part for *_, group in bodies for part in group]
    owners = [i for i, group in zip(rows, groups) for _ in group]
    # a few bodies of segments alone, on a world whose stores' reference is current (a
    # recycled world's: LunarLander's moon), in one compiled call: every column below
    compiled = bool(flat) and len(rows) < FEW_BODIES and write_static_segments(
        world, rows, bodies, flat, owners, parts)
    if not compiled:
        if len(rows) < FEW_BODIES:
            for i, (x, y, angle, _) in zip(rows, bodies):
                _write_body(world._bodies, i, x, y, angle,
                            world._settings.length_units_per_meter)
        else:
            _write_bodies(world, _index(rows), bodies)
    generation = world._bodies.generation[rows].tolist()
    made = [Body(world, i, g) for i, g in zip(rows, generation)]
    world._body_handles.update(zip(rows, made))
    world._body_joints.update((i, []) for i in rows)
    world._body_shapes.update(zip(rows, groups))  # (lists of their own: appended to later)
    out = []
    if flat:
        _write_shapes(world, flat, owners, parts, compiled)
        generation = world._shapes.generation[flat].tolist()
        shapes = [Shape(world, s, g) for s, g in zip(flat, generation)]
        world._shape_handles.update(zip(flat, shapes))
        if not compiled:
            ends = [geom for _, geom, _ in parts]
            if len(rows) < FEW_BODIES and all(type(geom) is SegmentEnds for geom in ends):
                _ends_extents(world._bodies, rows, groups, ends)
            else:
                _write_extents(world, rows, groups, flat)
        k = 0
        for body, group in zip(made, groups):
            out.append((body, shapes[k:k + len(group)]))
            k += len(group)
        world._pairs_dirty = True
    else:
        out = [(body, []) for body in made]
    world._live_rows = None
    _sleep.awake_changed(world)
    world._query_index = world._query_spare = None
    return out


def _one_by_one(world, x, y, angle, parts):
    """One body made as ``create_body`` and ``_attach_shape`` make it (what the batch equals)."""
    body = world.create_body("static", position=(x, y), angle=angle)
    row = body._index
    shapes = [world._attach_shape(row, kind, _built(geom), material, "size")
              for kind, geom, material in parts]
    return body, shapes


def _built(geom):
    """A geometry, built if it is a segment's checked ends (``make_segment``'s own arrays)."""
    if type(geom) is SegmentEnds:
        return make_segment((geom.ax, geom.ay), (geom.bx, geom.by))
    return geom


def _write_extents(world, rows: list, groups: list, flat: list) -> None:
    """``_update_mass``'s extents of static bodies (centre of mass at the origin): the farthest
    shape point (``world._reach``) and the thinnest shape (``_min_extent``). Circles and
    segments, as ``_reach`` computes them, with the same operations on arrays (NumPy's hypot
    is the one ``_reach`` calls); max and min are exact, so taking them over a body's shapes at
    once equals folding its shapes in one by one."""
    sh = world._shapes
    r = _index(flat)
    count = sh.count[r]
    radius = sh.radius[r]
    if len(groups) < FEW_BODIES and bool((count == 2).all()) and not radius.any():
        _segment_extents(world, rows, groups, sh.vertices[r, :2])
        return
    x0, y0 = sh.vertices[r, 0, 0] - 0.0, sh.vertices[r, 0, 1] - 0.0
    x1, y1 = sh.vertices[r, 1, 0] - 0.0, sh.vertices[r, 1, 1] - 0.0
    h0, h1 = np.hypot(x0, y0), np.hypot(x1, y1)
    q0, q1 = x0 * x0 + y0 * y0, x1 * x1 + y1 * y1
    cut = np.maximum(np.maximum(q0, q1), 0.0) * (1.0 - 1e-9)
    far = np.where((q0 >= cut) & (q1 >= cut), np.maximum(h0, h1), np.where(q0 >= cut, h0, h1))
    reach = np.where(count == 1, h0, far) + radius
    thin = 0.0 + radius
    for k in np.flatnonzero(count >= 3).tolist():  # polygons: the scalar functions
        reach[k] = _reach(sh, flat[k], (0.0, 0.0))
        thin[k] = _min_extent(sh, flat[k])
    b = world._bodies
    if all(len(group) == 1 for group in groups):
        r = _index(rows)
        b.extent[r] = reach
        b.min_extent[r] = thin
        return
    k = 0
    for i, group in zip(rows, groups):
        if group:
            b.extent[i] = reach[k:k + len(group)].max()
            b.min_extent[i] = thin[k:k + len(group)].min()
        k += len(group)


def _segment_extents(world, rows: list, groups: list, ends: np.ndarray) -> None:
    """:func:`_write_extents` for bodies of segments alone (radius 0; ``ends`` their two
    vertices, (n, 2, 2)), few of them: ``_reach`` of a segment is the larger ``np.hypot`` of
    its two ends (it takes the hypot of every end within 1e-9 of the farthest in d^2, and no
    end left out can have the larger hypot), plus the radius 0.0, so a body's extent is the
    largest hypot of its shapes' ends, plus 0.0; a segment's thinnest half-width is 0.0
    (``_min_extent``: max(0.0, 0.0) + 0.0). One hypot over all the ends, a max per body."""
    reach = np.hypot(ends[..., 0], ends[..., 1])
    b = world._bodies
    k = 0
    for i, group in zip(rows, groups):
        if group:
            b.extent[i] = reach[k:k + len(group)].max() + 0.0
            b.min_extent[i] = 0.0
        k += len(group)


def _ends_extents(b, rows: list, groups: list, ends: list) -> None:
    """:func:`_segment_extents` from the segments' checked ends (``SegmentEnds``, radius 0:
    the doubles the store's vertices hold) rather than from the store: one ``np.hypot`` over
    both ends of every segment, each body's largest in Python (``max`` is exact, as NumPy's),
    plus 0.0. LunarLander's moon, one body of 11 edges, each reset: the store reads and
    slices of the array path were about 60 us of its batch inside a run of episodes."""
    n = len(ends)
    reach = np.hypot([g.ax for g in ends] + [g.bx for g in ends],
                     [g.ay for g in ends] + [g.by for g in ends]).tolist()
    k = 0
    for i, group in zip(rows, groups):
        if group:
            m = len(group)
            b.extent[i] = max(reach[k:k + m] + reach[n + k:n + k + m]) + 0.0
            b.min_extent[i] = 0.0
        k += len(group)


_ZERO_PAIRS = ("v", "force", "dp")
"""The two-column body columns a new static body starts at zero (:func:`_write_body`,
:func:`_write_bodies`)."""
_CONSTANTS = tuple((name, 0.0) for name in (
    "w", "torque", "linear_damping", "angular_damping", "sleep_time", "island_sleep", "extent",
    "step_motion", "sweep", "mass", "inv_mass", "inertia", "inv_inertia")) + (
    ("gravity_scale", 1.0), ("fixed_rotation", False), ("asleep", False),
    ("allow_sleep", True), ("island", -1), ("min_extent", HUGE), ("bullet", False),
    ("fast", False))
"""The one-column body columns and the values a new static body starts with (the same two
functions; the sleep threshold, in the world's units, and the rotation ``dq`` besides)."""


def _write_body(b, i: int, x: float, y: float, angle: float, units: float) -> None:
    """:func:`_write_bodies` for the one row ``i`` (checked floats), element by element: the
    same values, from the same operations."""
    c, s = math.cos(angle), math.sin(angle)
    b.alive[i] = True
    b.type[i] = STATIC
    b.origin[i, 0] = x
    b.origin[i, 1] = y
    b.local_center[i, 0] = 0.0
    b.local_center[i, 1] = 0.0
    b.center[i, 0] = x + c * 0.0 - s * 0.0
    b.center[i, 1] = y + s * 0.0 + c * 0.0
    b.angle[i] = angle
    b.rot[i, 0] = c
    b.rot[i, 1] = s
    for name in _ZERO_PAIRS:
        column = getattr(b, name)
        column[i, 0] = 0.0
        column[i, 1] = 0.0
    for name, value in _CONSTANTS:
        getattr(b, name)[i] = value
    b.dq[i, 0] = 1.0
    b.dq[i, 1] = 0.0
    b.sleep_threshold[i] = SLEEP_THRESHOLD * units


def _index(rows: list):
    """``rows`` as an index into a column: a slice when they are consecutive (rows come from
    the pools' high water mark or, after a batch of frees, lowest first: usually so), which
    NumPy writes several times faster than an index array (most of a small batch's cost)."""
    first = rows[0]
    if rows[-1] - first == len(rows) - 1 and rows == list(range(first, first + len(rows))):
        return slice(first, first + len(rows))
    return np.array(rows, np.int64)


def _room(world, store, layout, top: int):
    """``store`` with the capacity one-by-one creation grows it to (doubling) until row
    ``top`` fits, grown once to it (the same rows and zeros as doubling step by step: a
    BipedalWalker terrain of 199 edges doubled the shape store four times)."""
    capacity = len(store.alive)
    if top < capacity:
        return store
    while top >= capacity:
        capacity *= 2
    world._query_index = world._query_spare = None  # it reads the store it was built on
    stores_replaced()
    return grow_store(store, layout, capacity)


def _write_bodies(world, r, bodies: list) -> None:
    """The columns ``create_body`` and ``_update_mass`` write for a static body at rows ``r``
    (an :func:`_index`)."""
    b = world._bodies
    x = np.array([body[0] for body in bodies], np.float64)
    y = np.array([body[1] for body in bodies], np.float64)
    angle = np.array([body[2] for body in bodies], np.float64)
    # math.cos and math.sin, as create_body (NumPy's vectorized ones may differ in the last bit)
    c = np.array([math.cos(a) for a in angle.tolist()], np.float64)
    s = np.array([math.sin(a) for a in angle.tolist()], np.float64)
    b.alive[r] = True
    b.type[r] = STATIC
    b.origin[r, 0] = x
    b.origin[r, 1] = y
    b.local_center[r] = 0.0
    # _sync_center's origin + R local_center, with the local centre (0, 0) and the same
    # operations (x + c 0 - s 0 is not always x: -0.0 becomes 0.0)
    b.center[r, 0] = x + c * 0.0 - s * 0.0
    b.center[r, 1] = y + s * 0.0 + c * 0.0
    b.angle[r] = angle
    b.rot[r, 0] = c
    b.rot[r, 1] = s
    for name in _ZERO_PAIRS:
        getattr(b, name)[r] = 0.0
    for name, value in _CONSTANTS:
        getattr(b, name)[r] = value
    b.dq[r, 0] = 1.0
    b.dq[r, 1] = 0.0
    b.sleep_threshold[r] = SLEEP_THRESHOLD * world._settings.length_units_per_meter


def _write_shapes(world, rows: list, owners: list, parts: list, written: bool) -> None:
    """The columns ``_write_shape`` writes, for shapes ``rows`` on bodies ``owners``
    (``written``: by :func:`._segment_rows.write_static_segments` already; the rest only)."""
    materials = [m for _, _, m in parts]
    first = materials[0]
    shared = all(m is first for m in materials)
    if written:
        sensors = sum(bool(m["is_sensor"]) for m in materials)
    else:
        sensors = _write_shape_columns(world, rows, owners, parts, materials, shared)
    if sensors:
        world._events.sensor_count += sensors
        world._events.on = True
    if shared:
        if first["user_data"] is not None:
            world._shape_user_data.update(dict.fromkeys(rows, first["user_data"]))
        return
    for s, m in zip(rows, materials):
        if m["user_data"] is not None:
            world._shape_user_data[s] = m["user_data"]


def _write_shape_columns(world, rows, owners, parts, materials, shared) -> int:
    """:func:`_write_shapes`' column writes, a NumPy assignment each; the count of sensors."""
    sh = world._shapes
    r = _index(rows)
    geoms = [geom for _, geom, _ in parts]
    sh.alive[r] = True
    sh.body[r] = owners
    kinds = {kind for kind, _, _ in parts}
    if len(kinds) == 1:  # (terrain: segments alone; one scalar write)
        sh.type[r] = _SHAPE_CODES[kinds.pop()]
    else:
        sh.type[r] = [_SHAPE_CODES[kind] for kind, _, _ in parts]
    sh.count[r] = [g.count for g in geoms]
    sh.radius[r] = [g.radius for g in geoms]
    ends = [k for k, g in enumerate(geoms) if type(g) is SegmentEnds]
    if len(ends) == len(geoms):
        sh.vertices[r], sh.normals[r], sh.centroid[r] = segment_arrays(geoms)
    else:
        r = np.array(rows, np.int64)
        built = [k for k, g in enumerate(geoms) if type(g) is not SegmentEnds]
        sh.vertices[r[built]] = np.stack([geoms[k].vertices for k in built])
        sh.normals[r[built]] = np.stack([geoms[k].normals for k in built])
        sh.centroid[r[built]] = np.stack([geoms[k].centroid for k in built])
        if ends:
            sh.vertices[r[ends]], sh.normals[r[ends]], sh.centroid[r[ends]] = segment_arrays(
                [geoms[k] for k in ends])
    first = materials[0]
    if shared:
        # one material (a parsed dict is shared by the fixtures of one definition: the
        # layer's _parsed, the native walker's terrain), broadcast: a scalar write costs a
        # third of a list's
        for name in _MATERIAL_COLUMNS:
            getattr(sh, name)[r] = first[name]
        sh.sensor_events[r] = first["enable_sensor_events"]
        sensors = len(materials) if first["is_sensor"] else 0
    else:
        for name in _MATERIAL_COLUMNS:
            getattr(sh, name)[r] = [m[name] for m in materials]
        sh.sensor_events[r] = [m["enable_sensor_events"] for m in materials]
        sensors = sum(bool(m["is_sensor"]) for m in materials)
    sh.aabb[r] = 0.0
    # an inverted fat box: the broadphase picks the new shapes up next step
    sh.fat_aabb[r, 0] = sh.fat_aabb[r, 1] = np.inf
    sh.fat_aabb[r, 2] = sh.fat_aabb[r, 3] = -np.inf
    sh.ghost[r] = 0.0
    return sensors


_MATERIAL_COLUMNS = ("density", "friction", "restitution", "is_sensor", "category", "mask",
                     "group")


def destroy_bodies(world, bodies: list) -> None:
    """Destroy ``bodies`` (Body handles of ``world``), as ``destroy_body`` on each in turn
    does: the same wakes, freed rows (in the same order) and contacts left. In one pass when
    none has a joint and no touching contact or sensor overlap is being tracked for events
    (whose end events ``destroy_body`` reports body by body) and there are at least ``FEW``;
    else one by one."""
    rows = [world._body_row(body, "body") for body in bodies]
    events = world._events
    if len(rows) < FEW or events.sensing.size or events.touching.size or \
            any(world._body_joints[i] for i in rows):
        for body in bodies:
            world.destroy_body(body)
        return
    # _sleep.wake_touching of each: itself, then the bodies touching it (any order gives the
    # same wakes: waking is idempotent, and no doomed body's contacts go before the others')
    for i in rows:
        _sleep.wake_body(world, i)
    if world._sleepers:
        c = world._contacts
        doomed = np.zeros(len(world._bodies.alive), np.bool_)
        doomed[rows] = True
        touching = c.count > 0
        others = np.concatenate((c.body_b[touching & doomed[c.body_a]],
                                 c.body_a[touching & doomed[c.body_b]]))
        for other in np.unique(others).tolist():
            _sleep.wake_body(world, other)
    # _free_shape of each shape, body by body, then the body's own rows
    shapes = [s for i in rows for s in world._body_shapes[i]]
    sh = world._shapes
    if shapes:
        events.sensor_count -= int(sh.is_sensor[shapes].sum())
        sh.alive[shapes] = False
        sh.generation[shapes] += 1
        for s in shapes:
            del world._shape_handles[s]
            world._shape_user_data.pop(s, None)
            world._shape_pool.free(s)
        world._pairs_dirty = True
        world._query_index = world._query_spare = None
    b = world._bodies
    for i in rows:
        del world._body_joints[i], world._body_shapes[i], world._body_handles[i]
        world._body_user_data.pop(i, None)
        world._body_pool.free(i)
    b.alive[rows] = False
    b.generation[rows] += 1
    world._live_rows = None
    _sleep.awake_changed(world)
    world._drop_dead_contacts()
