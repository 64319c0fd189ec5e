"""The contact constraint: non-penetration with Coulomb friction, solved by sequential impulses.

Maths, per manifold point with unit normal n (A to B), tangent t = (n_y, -n_x), and anchors
r_a, r_b from each centre of mass::

    C      = separation (m; negative = overlap)            must stay >= 0
    Cdot   = n . (v_b + w_b x r_b - v_a - w_a x r_a)       = J v
    J      = [-n, -(r_a x n), n, (r_b x n)]
    K      = 1/m_a + 1/m_b + (r_a x n)^2 / I_a + (r_b x n)^2 / I_b   (effective mass 1/K)

One iteration computes ``d_lambda = -(1/K) (Cdot + bias)`` and clamps the *accumulated* impulse
``lambda_n >= 0`` (contacts push, never pull), then applies ``P = d_lambda n`` to both bodies;
friction does the same along t with ``|lambda_t| <= mu lambda_n`` (Catto, GDC 2005/2006).

The bias says how fast the solver may close or must open the gap:

* speculative point (C > 0): ``bias = C / h`` — approach is allowed exactly up to contact;
* ``pgs``: Baumgarte, ``bias = max(beta/h * min(0, C + slop), -contact_speed)``;
* ``soft_step``: a soft spring, ``bias = max(bias_rate C, -contact_speed)`` with the mass and
  impulse scales of :mod:`softness`, and a rigid "relax" pass without bias afterwards;
* ``pgs_ngs``, ``pgs_block``: no bias but the speculative one (the relax rows); the overlap is
  removed from the positions afterwards (:mod:`contact_position`; ``pgs_block`` solves the
  normals of two-point manifolds in :mod:`contact_block`).

Within a step the separation is updated from the bodies' accumulated deltas without re-running
the narrowphase (Box2D v3 / Solver2D)::

    C = base_separation + n . (dp_b - dp_a + R(dq_b) r_b - R(dq_a) r_a),
    base_separation = separation - n . (r_b - r_a)

``prepare_contacts`` gathers the touching contacts into constraint rows in the colour order of
:mod:`constraint_graph`; every other verb streams through those rows, and ``store_impulses``
writes the accumulated impulses back to the contacts for next step's warm start. Static bodies
have zero inverse mass and velocity, so kernels never branch on body type.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._core.jit import borrowing_kernel, inline_kernel
from .._core.lazy import JIT
from .._core.state import DYNAMIC
from .._core.slab import register as register_slab
from .._core.slab import zeroed_store_in
from .._core.storage import allocate_store
from .lane_layout import (CHUNK, FIELDS, flat, flat_lanes, lane_index, lane_rows, point_kept,
                          row_range, write_lane_impulses, write_lane_point, write_lane_row)
from .velocities import load_flat_pair, store_flat_pair


class ContactConstraints(NamedTuple):
    """One row per touching contact, in solve order; rebuilt every step."""

    contact: np.ndarray          # int64 row in the contact store
    body_a: np.ndarray
    body_b: np.ndarray
    count: np.ndarray            # int64 points, 1 or 2
    inv_mass: np.ndarray         # (c, 4) 1/m_a, 1/I_a, 1/m_b, 1/I_b (copied: saves four gathers)
    normal: np.ndarray           # (c, 2)
    friction: np.ndarray
    restitution: np.ndarray
    softness: np.ndarray         # (c, 3) bias_rate, mass_scale, impulse_scale
    r_a: np.ndarray              # (c, 2, 2) anchors from the centres of mass, world frame, m
    r_b: np.ndarray
    base_separation: np.ndarray  # (c, 2) m
    normal_mass: np.ndarray      # (c, 2) kg
    tangent_mass: np.ndarray
    relative_velocity: np.ndarray  # (c, 2) m/s, before the solve
    normal_impulse: np.ndarray     # (c, 2) accumulated per (sub)step, N s
    tangent_impulse: np.ndarray
    max_normal_impulse: np.ndarray
    total_normal_impulse: np.ndarray   # (c, 2) over the whole step, N s
    total_tangent_impulse: np.ndarray
    bias: np.ndarray               # (c, 2) m/s, the normal row's bias in its last biased pass
    unclamped: np.ndarray          # (c, 2, 2) N s, (normal, tangent) before the last clamp
    # The wide solver's (:mod:`.contact_lanes`): its lanes, FIELDS doubles a row, read as one
    # flat buffer in chunks, field by field, padded to whole chunks (lane_rows(c) rows, not c:
    # .lane_layout); the end of the row's colour run; and whether the row's columns from
    # inv_mass to unclamped, but for restitution and relative_velocity, are in the lanes only
    # (prepared for a wide solve, not yet read back: contact_lanes.sync_constraint_rows).
    lanes: np.ndarray
    lane_end: np.ndarray           # int64
    in_lanes: np.ndarray           # bool


CONSTRAINT_LAYOUT = {
    "contact": (np.int64, ()),
    "body_a": (np.int64, ()),
    "body_b": (np.int64, ()),
    "count": (np.int64, ()),
    "inv_mass": (np.float64, (4,)),
    "normal": (np.float64, (2,)),
    "friction": (np.float64, ()),
    "restitution": (np.float64, ()),
    "softness": (np.float64, (3,)),
    "r_a": (np.float64, (2, 2)),
    "r_b": (np.float64, (2, 2)),
    "base_separation": (np.float64, (2,)),
    "normal_mass": (np.float64, (2,)),
    "tangent_mass": (np.float64, (2,)),
    "relative_velocity": (np.float64, (2,)),
    "normal_impulse": (np.float64, (2,)),
    "tangent_impulse": (np.float64, (2,)),
    "max_normal_impulse": (np.float64, (2,)),
    "total_normal_impulse": (np.float64, (2,)),
    "total_tangent_impulse": (np.float64, (2,)),
    "bias": (np.float64, (2,)),
    "unclamped": (np.float64, (2, 2)),
    "lanes": (np.float64, (FIELDS,)),  # lane_rows(c) rows
    "lane_end": (np.int64, ()),
    "in_lanes": (np.bool_, ()),
}


def contact_constraints(count: int) -> ContactConstraints:
    store = allocate_store(ContactConstraints, CONSTRAINT_LAYOUT, count)
    return store._replace(lanes=np.zeros((lane_rows(count), FIELDS)))


register_slab(ContactConstraints, CONSTRAINT_LAYOUT, given=("lanes",))


@inline_kernel
def rows_of(cs, lo, hi):
    """The constraint rows ``lo:hi`` of ``cs`` (``0 <= lo <= hi <=`` its rows) as a store of
    their own (views, no copy: :func:`.lane_layout.row_range`); the wide solver's lanes and
    runs are the whole store's (a verb given this store and ``lo`` indexes them from there:
    :func:`prepare_contacts`)."""
    r = row_range
    return ContactConstraints(
        r(cs.contact, lo, hi), r(cs.body_a, lo, hi), r(cs.body_b, lo, hi),
        r(cs.count, lo, hi), r(cs.inv_mass, lo, hi), r(cs.normal, lo, hi),
        r(cs.friction, lo, hi), r(cs.restitution, lo, hi), r(cs.softness, lo, hi),
        r(cs.r_a, lo, hi), r(cs.r_b, lo, hi), r(cs.base_separation, lo, hi),
        r(cs.normal_mass, lo, hi), r(cs.tangent_mass, lo, hi),
        r(cs.relative_velocity, lo, hi), r(cs.normal_impulse, lo, hi),
        r(cs.tangent_impulse, lo, hi), r(cs.max_normal_impulse, lo, hi),
        r(cs.total_normal_impulse, lo, hi), r(cs.total_tangent_impulse, lo, hi),
        r(cs.bias, lo, hi), r(cs.unclamped, lo, hi), cs.lanes, cs.lane_end,
        r(cs.in_lanes, lo, hi))


@inline_kernel
def allocate_constraints(count, old, rows):
    """:func:`contact_constraints` for kernels, the store that replaces ``old`` (which must not
    be read after). Field for field :data:`CONSTRAINT_LAYOUT`; ``tests/test_storage.py`` holds
    the two together. The lanes get ``rows`` rows: whole chunks (:func:`.lane_layout.lane_rows`)
    for a world solved in lanes, none for one solved row by row, which never reads them
    (:func:`.contact_lanes.lane_rows_for`: a 64-row chunk is 21 KB, a small world's every other
    store together about 23 KB, and a snapshot and the batch's prefetch copied or fetched them
    all). ``old``'s lanes are kept if they hold ``rows`` and no more than twice as many (the
    step makes a new store whenever the row count changes, and the lanes are as large as the
    rest of it: a pile of falling circles changes its count most steps); lanes made anew for
    more rows than ``old``'s held get room for half again as many as those (in whole chunks,
    at most twice ``rows``), as the other columns do. Kept lanes are not zeroed: a prepare, or
    the first pass after it, writes every lane a verb keeps anything of (:mod:`.lane_layout`).
    The other columns are one zeroed allocation, each a view of it, ``old``'s while it has the
    room (:func:`.._core.slab.zeroed_store_in`: 24 ``malloc`` and ``free`` a store before,
    session 21, ``batch46``; a new allocation a step on rain's landing, session 26,
    ``rain51``). Only the step calls it (:func:`.step._new_constraints`, into which it is
    compiled): without a Python wrapper (which unboxed and boxed a store, 0.69 of its 0.97 s of
    compile, session 29, ``warmR54``)."""
    lanes = old.lanes
    held = lanes.shape[0]
    if not rows <= held <= 2 * rows:
        grown = (held + held // 2 + CHUNK - 1) // CHUNK * CHUNK
        lanes = np.zeros((rows if held > rows else max(rows, min(grown, 2 * rows)), FIELDS),
                         np.float64)
    return zeroed_store_in(ContactConstraints, count, (lanes,), old)


@borrowing_kernel
def prepare_contacts(cs, order, contacts, bodies, warm_starting, soft_bias_rate, soft_mass_scale,
                     soft_impulse_scale, static_bias_rate, static_mass_scale, static_impulse_scale,
                     wide=False, first=0):
    """Gather contacts ``order`` into constraint rows: anchors, effective masses, softness, the
    pre-solve approach speed, and the warm-start impulses.

    ``wide``: for the wide solver (:mod:`.contact_lanes`), what its passes read goes straight
    into the lanes (:mod:`.lane_layout`; :func:`prepare_wide`), not into the rows, at the lane
    rows from ``first`` (``cs`` may be the slice of the rows from ``first``, its lanes the whole
    store's, as :func:`.threaded.rows_of` makes it); the rows get the contact, bodies, point count,
    restitution and approach speeds, and the flag ``in_lanes``. Else into the rows from
    ``first`` (:func:`prepare_serial`). (The prepare of stores a caller holds, the tests' and
    benchmarks'; the solvers prepare by the world: :func:`.contact_rows.prepare_serial_rows`,
    :func:`.contact_lanes.prepare_lanes`.)

    Contacts touching a body that contact cannot move (static or kinematic) use the stiffer
    ``static_*`` softness: the other side cannot give way, so the contact may be stiffer without
    oscillating (Box2D v3 doubles the hertz).
    """
    if wide:
        none = order[:0]  # no colouring: the rows' order
        # (np.int64: a literal first would compile prepare_wide a second time beside
        # .contact_lanes.prepare_lanes' call; Numba types this branch even for a literal False)
        prepare_wide(cs, order, contacts, bodies, warm_starting, soft_bias_rate, soft_mass_scale,
                     soft_impulse_scale, static_bias_rate, static_mass_scale,
                     static_impulse_scale, np.int64(first), none, none, none)
    else:
        prepare_serial(cs, order, contacts, bodies, first, warm_starting,
                       (soft_bias_rate, soft_mass_scale, soft_impulse_scale),
                       (static_bias_rate, static_mass_scale, static_impulse_scale))


@inline_kernel
def row_softness(bodies, a, b, soft, static):
    """The ``(bias_rate, mass_scale, impulse_scale)`` of a contact between bodies ``a`` and
    ``b``: ``static`` where either is not dynamic (:func:`prepare_contacts`), else ``soft``."""
    if bodies.type[a] != DYNAMIC or bodies.type[b] != DYNAMIC:
        return static
    return soft


@inline_kernel
def row_head(cs, q, contact, contacts, bodies, wide, soft, static):
    """Row ``q`` of ``cs`` made for contact ``contact`` (a row of ``contacts``): its contact,
    bodies, point count, restitution and flag ``in_lanes`` (``wide``) written. Returns ``(k,
    count, a, b, masses, softness)``: the contact's row and its bodies' (unsigned), its point
    count, the bodies' inverse masses ``(m_a, i_a, m_b, i_b)`` and the row's
    :func:`row_softness`."""
    k = np.uint64(contact)
    count = contacts.count[k]
    body_a = contacts.body_a[k]
    body_b = contacts.body_b[k]
    a = np.uint64(body_a)
    b = np.uint64(body_b)
    cs.contact[q] = contact
    cs.body_a[q] = body_a
    cs.body_b[q] = body_b
    cs.count[q] = count
    cs.in_lanes[q] = wide
    cs.restitution[q] = contacts.restitution[k]
    masses = (bodies.inv_mass[a], bodies.inv_inertia[a], bodies.inv_mass[b],
              bodies.inv_inertia[b])
    return k, count, a, b, masses, row_softness(bodies, a, b, soft, static)


@inline_kernel
def point_values(point, separation, centers, velocities, masses, nx, ny):
    """A contact point's row: ``(anchors, base_separation, normal_mass, tangent_mass,
    approach)``. ``point`` ``(x, y)`` (m, world frame) and its ``separation`` (m) at the
    bodies' ``centers`` ``(ax, ay, bx, by)`` (centres of mass, m), moving at ``velocities``
    (:func:`.velocities.load_pair`'s six), with the inverse ``masses`` ``(m_a, i_a, m_b,
    i_b)``, along the normal ``(nx, ny)``: the anchors ``(rax, ray, rbx, rby)`` from the
    centres (m), the separation less the anchors' (m: the module's ``base_separation``), the
    normal and tangent effective masses (kg; 0 where nothing can move) and the normal speed of
    B relative to A before the solve (m/s)."""
    px, py = point
    ax, ay, bx, by = centers
    vax, vay, wa, vbx, vby, wb = velocities
    m_a, i_a, m_b, i_b = masses
    tx = ny
    ty = -nx
    rax = px - ax
    ray = py - ay
    rbx = px - bx
    rby = py - by
    base = separation - ((rbx - rax) * nx + (rby - ray) * ny)
    rn_a = rax * ny - ray * nx
    rn_b = rbx * ny - rby * nx
    k_normal = m_a + m_b + i_a * rn_a * rn_a + i_b * rn_b * rn_b
    normal_mass = 1.0 / k_normal if k_normal > 0.0 else 0.0
    rt_a = rax * ty - ray * tx
    rt_b = rbx * ty - rby * tx
    k_tangent = m_a + m_b + i_a * rt_a * rt_a + i_b * rt_b * rt_b
    tangent_mass = 1.0 / k_tangent if k_tangent > 0.0 else 0.0
    dvx = vbx - wb * rby - vax + wa * ray
    dvy = vby + wb * rbx - vay - wa * rax
    return (rax, ray, rbx, rby), base, normal_mass, tangent_mass, dvx * nx + dvy * ny


@inline_kernel
def prepare_row(cs, lanes, order, q, contacts, bodies, warm_starting, soft, static, first,
                clear_missing):
    """Row ``q`` of :func:`prepare_rows` (its arguments)."""
    center = bodies.center
    v = bodies.v
    w = bodies.w
    k, count, a, b, masses, scales = row_head(cs, q, order[q], contacts, bodies, True, soft,
                                              static)
    m_a, i_a, m_b, i_b = masses
    rate, mass_scale, impulse_scale = scales
    nx = contacts.normal[k, 0]
    ny = contacts.normal[k, 1]
    r = lane_index(first + q)
    write_lane_row(lanes, r, m_a, i_a, m_b, i_b, nx, ny, contacts.friction[k], rate,
                   mass_scale, impulse_scale, count)
    for j in range(2):
        warm = warm_starting and j < count
        normal_impulse = contacts.normal_impulse[k, j] if warm else 0.0
        tangent_impulse = contacts.tangent_impulse[k, j] if warm else 0.0
        if clear_missing or point_kept(j, count):
            write_lane_impulses(lanes, r, j, normal_impulse, tangent_impulse)
    centers = (center[a, 0], center[a, 1], center[b, 0], center[b, 1])
    velocities = (v[a, 0], v[a, 1], w[a], v[b, 0], v[b, 1], w[b])
    for j in range(count):
        anchors, base, normal_mass, tangent_mass, approach = point_values(
            (contacts.point[k, j, 0], contacts.point[k, j, 1]), contacts.separation[k, j],
            centers, velocities, masses, nx, ny)
        rax, ray, rbx, rby = anchors
        write_lane_point(lanes, r, j, rax, ray, rbx, rby, base, normal_mass, tangent_mass)
        cs.relative_velocity[q, j] = approach
    if clear_missing and count < 2:
        write_lane_point(lanes, r, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@inline_kernel
def prepare_rows(cs, lanes, order, contacts, bodies, warm_starting, soft, static, first,
                 clear_missing):
    """:func:`prepare_contacts` into the lanes ``lanes``: the store's own (float64), or their
    float32 view (:mod:`.contact_lanes_f32`), each value rounded as it is stored, computed in
    float64 as for the float64 lanes. ``soft``, ``static``: :func:`row_softness`'s.
    ``clear_missing``: a missing second point's lanes are written as zeros (a float32 view of
    lanes that held float64 values may read NaNs or denormals there, which the passes would
    compute on and drop, the denormals slowly)."""
    for q in range(order.shape[0]):
        prepare_row(cs, lanes, order, q, contacts, bodies, warm_starting, soft, static, first,
                    clear_missing)


@borrowing_kernel
def prepare_wide(cs, order, contacts, bodies, warm_starting, soft_bias_rate, soft_mass_scale,
                 soft_impulse_scale, static_bias_rate, static_mass_scale, static_impulse_scale,
                 first, color, starts, cursors):
    """:func:`prepare_contacts` into the float64 lanes (``wide``; :func:`prepare_rows`' rows,
    each computed and written as there), the rows visited in their order or, given the
    colouring's ``color`` (:func:`.constraint_graph.color_into`: each contact it looked at, its
    colour or -1) and ``starts`` (each colour's first row) for every row (``first`` 0), in the
    order of those contacts, replayed: contact ``t`` of colour ``c`` is colour ``c``'s next row
    (``cursors``: one a colour, overwritten). Colour by colour, the contacts of a colour ascend
    every 7th or so (the pyramids' 7 colours), so each colour read every cache line of the
    contact store's columns for a part of it, the whole store (2 MB on pyramid_100, twice the
    L2 cache) once a colour; replayed, it is read once, front to back. Measured on pyramid_100's
    rows (``benchmarks/lanes_prepare_order.py``, BENCHMARKS.md, session 26, ``wide51``): 0.86x
    the prepare's thread CPU with the caches flushed, 0.81x warm. Float32 lanes stay in the
    rows' order (:func:`prepare_rows`): visited so, their prepare measured 1.09-1.25x. An empty
    ``color``: the rows' order (one kernel for both, one copy of a row's code to compile)."""
    soft = (soft_bias_rate, soft_mass_scale, soft_impulse_scale)
    static = (static_bias_rate, static_mass_scale, static_impulse_scale)
    lanes = flat_lanes(cs)
    replay = color.shape[0] > 0
    if replay:
        for c in range(cursors.shape[0]):
            cursors[c] = starts[c]
    n = order.shape[0]
    visited = 0
    t = 0
    while visited < n:
        q = t
        if replay:
            if t == color.shape[0]:
                break
            c = color[t]
            if c < 0:
                t += 1
                continue
            q = cursors[c]
            cursors[c] = q + 1
        t += 1
        visited += 1
        prepare_row(cs, lanes, order, q, contacts, bodies, warm_starting, soft, static, first,
                    False)


@inline_kernel
def start_point(cs, p, normal_impulse, tangent_impulse):
    """Point ``p`` of the rows (flat: row ``q``'s point ``j`` is ``2 q + j``) starts the step
    with the warm-start impulses ``normal_impulse``, ``tangent_impulse`` (N s), its peak, step
    totals, bias and unclamped impulses zero."""
    two = np.uint64(2)
    flat(cs.normal_impulse)[p] = normal_impulse
    flat(cs.tangent_impulse)[p] = tangent_impulse
    flat(cs.max_normal_impulse)[p] = 0.0
    flat(cs.total_normal_impulse)[p] = 0.0
    flat(cs.total_tangent_impulse)[p] = 0.0
    flat(cs.bias)[p] = 0.0
    unclamped = flat(cs.unclamped)
    unclamped[two * p] = 0.0
    unclamped[two * p + np.uint64(1)] = 0.0


@inline_kernel
def prepare_point(cs, p, contacts, c, centers, velocities, masses, nx, ny):
    """Point ``p`` of the rows (flat, as :func:`start_point`'s) from point ``c`` of the contacts
    (flat alike: contact ``k``'s point ``j`` is ``2 k + j``): :func:`point_values` into its
    columns."""
    one = np.uint64(1)
    two = np.uint64(2)
    point = flat(contacts.point)
    anchors, base, normal_mass, tangent_mass, approach = point_values(
        (point[two * c], point[two * c + one]), flat(contacts.separation)[c], centers,
        velocities, masses, nx, ny)
    rax, ray, rbx, rby = anchors
    r_a = flat(cs.r_a)
    r_b = flat(cs.r_b)
    r_a[two * p] = rax
    r_a[two * p + one] = ray
    r_b[two * p] = rbx
    r_b[two * p + one] = rby
    flat(cs.base_separation)[p] = base
    flat(cs.normal_mass)[p] = normal_mass
    flat(cs.tangent_mass)[p] = tangent_mass
    flat(cs.relative_velocity)[p] = approach


@inline_kernel
def prepare_serial(cs, order, contacts, bodies, first, warm_starting, soft, static):
    """:func:`prepare_contacts` into the rows from ``first``, which the row passes read (a
    world solved row by row: :func:`.contact_lanes.rows_entry`; the rigid and direct solvers;
    compiled into :func:`.contact_rows.prepare_serial_rows`). A row's one or two
    points written out (:func:`start_point`, :func:`prepare_point`; a missing second point's
    anchors, masses and approach are left as they were: nothing reads them) and every column
    read flat with unsigned indices, as the passes read them (:func:`.lane_layout.flat`): with
    the loops over the points and 2-D indexing (the lanes' form, :func:`prepare_rows`) a
    one-point row took ~130 cycles (BENCHMARKS.md, session 21, ``small46``)."""
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    four = np.uint64(4)
    center = flat(bodies.center)
    v = flat(bodies.v)
    normal_in = flat(contacts.normal)
    normal_impulse = flat(contacts.normal_impulse)
    tangent_impulse = flat(contacts.tangent_impulse)
    inv_mass = flat(cs.inv_mass)
    softness = flat(cs.softness)
    normal = flat(cs.normal)
    start = np.uint64(first)
    t = np.uint64(0)
    n = np.uint64(order.shape[0])
    while t < n:
        q = start + t  # the row of order[t]
        k, count, a, b, masses, scales = row_head(cs, q, order[t], contacts, bodies, False,
                                                  soft, static)
        m_a, i_a, m_b, i_b = masses
        rate, mass_scale, impulse_scale = scales
        inv_mass[four * q] = m_a
        inv_mass[four * q + one] = i_a
        inv_mass[four * q + two] = m_b
        inv_mass[four * q + three] = i_b
        softness[three * q] = rate
        softness[three * q + one] = mass_scale
        softness[three * q + two] = impulse_scale
        cs.friction[q] = contacts.friction[k]
        nx = normal_in[two * k]
        ny = normal_in[two * k + one]
        normal[two * q] = nx
        normal[two * q + one] = ny
        p = two * q
        c = two * k
        warm = warm_starting and count > 0
        start_point(cs, p, normal_impulse[c] if warm else 0.0,
                    tangent_impulse[c] if warm else 0.0)
        warm = warm_starting and count > 1
        start_point(cs, p + one, normal_impulse[c + one] if warm else 0.0,
                    tangent_impulse[c + one] if warm else 0.0)
        centers = (center[two * a], center[two * a + one], center[two * b],
                   center[two * b + one])
        velocities = load_flat_pair(v, bodies.w, a, b)
        if count > 0:
            prepare_point(cs, p, contacts, c, centers, velocities, masses, nx, ny)
        if count > 1:
            prepare_point(cs, p + one, contacts, c + one, centers, velocities, masses, nx, ny)
        t += one


@inline_kernel
def apply_impulse(anchors, masses, velocities, px, py):
    """The pair's ``velocities`` ``(vax, vay, wa, vbx, vby, wb)`` (m/s, rad/s) after the impulse
    ``(px, py)`` (N s) on B at its anchor and its opposite on A (``anchors``: ``(rax, ray, rbx,
    rby)``, m, from the centres of mass; ``masses``: ``(m_a, i_a, m_b, i_b)``, inverse)."""
    rax, ray, rbx, rby = anchors
    m_a, i_a, m_b, i_b = masses
    vax, vay, wa, vbx, vby, wb = velocities
    return (vax - m_a * px, vay - m_a * py, wa - i_a * (rax * py - ray * px),
            vbx + m_b * px, vby + m_b * py, wb + i_b * (rbx * py - rby * px))


@inline_kernel
def warm_point(cs, p, anchors, masses, velocities, nx, ny):
    """Point ``p``'s (flat, as :func:`friction_point`'s) accumulated impulses of last step
    applied to the pair's ``velocities``; returns them."""
    ln = flat(cs.normal_impulse)[p]
    lt = flat(cs.tangent_impulse)[p]
    px = ln * nx + lt * ny
    py = ln * ny - lt * nx
    return apply_impulse(anchors, masses, velocities, px, py)


@inline_kernel
def warm_start_contacts(cs, bodies, first, last):
    """Apply last step's accumulated impulses to the rows ``first:last``, so the iterations
    start near the answer. (Compiled into :func:`.contact_rows.warm_start_rows`, which takes
    the world: the one kernel of it.)"""
    v = flat(bodies.v)
    w = bodies.w
    inv_mass = flat(cs.inv_mass)
    normal = flat(cs.normal)
    r_a = flat(cs.r_a)
    r_b = flat(cs.r_b)
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    four = np.uint64(4)
    q = np.uint64(first)
    n = np.uint64(last)
    while q < n:
        a = np.uint64(cs.body_a[q])
        b = np.uint64(cs.body_b[q])
        masses = (inv_mass[four * q], inv_mass[four * q + one], inv_mass[four * q + two],
                  inv_mass[four * q + three])
        velocities = load_flat_pair(v, w, a, b)
        nx = normal[two * q]
        ny = normal[two * q + one]
        p = two * q
        velocities = warm_point(cs, p, (r_a[two * p], r_a[two * p + one], r_b[two * p],
                                        r_b[two * p + one]), masses, velocities, nx, ny)
        if cs.count[q] > 1:
            velocities = warm_point(cs, p + one, (r_a[two * p + two], r_a[two * p + three],
                                                  r_b[two * p + two], r_b[two * p + three]),
                                    masses, velocities, nx, ny)
        store_flat_pair(v, w, a, b, velocities)
        q += one


@inline_kernel
def friction_point(cs, p, anchors, masses, velocities, tx, ty, friction):
    """The friction row of point ``p`` of ``cs`` (flat: row ``q``'s point ``j`` is ``2 q +
    j``), its ``anchors`` ``(rax, ray, rbx, rby)`` (m) read by the caller: the accumulated
    impulse clamped to ``|lambda_t| <= mu lambda_n`` with the point's current normal impulse,
    applied to the pair's ``velocities`` ``(vax, vay, wa, vbx, vby, wb)`` (``masses``: ``(m_a,
    i_a, m_b, i_b)``, inverse); returns them."""
    tangent_impulse = flat(cs.tangent_impulse)
    rax, ray, rbx, rby = anchors
    vax, vay, wa, vbx, vby, wb = velocities
    dvx = vbx - wb * rby - vax + wa * ray
    dvy = vby + wb * rbx - vay - wa * rax
    vt = dvx * tx + dvy * ty
    impulse = -flat(cs.tangent_mass)[p] * vt
    limit = friction * flat(cs.normal_impulse)[p]
    old = tangent_impulse[p]
    total = min(max(old + impulse, -limit), limit)
    # for world.constraint_rows()
    flat(cs.unclamped)[np.uint64(2) * p + np.uint64(1)] = old + impulse
    tangent_impulse[p] = total
    impulse = total - old
    px = impulse * tx
    py = impulse * ty
    return apply_impulse(anchors, masses, velocities, px, py)


@inline_kernel
def friction_rows(cs, q, count, m_a, i_a, m_b, i_b, vax, vay, wa, vbx, vby, wb, tx, ty,
                  friction):
    """The friction rows of constraint ``q`` (one Gauss-Seidel pass over its points:
    :func:`friction_point`), applied to the pair's velocities; returns them. The block
    solver's sweep (``contact_block``); :func:`solve_contacts` writes its points out."""
    r_a = flat(cs.r_a)
    r_b = flat(cs.r_b)
    one = np.uint64(1)
    two = np.uint64(2)
    velocities = (vax, vay, wa, vbx, vby, wb)
    row = two * np.uint64(q)
    j = np.uint64(0)
    while j < np.uint64(count):
        p = row + j
        anchors = (r_a[two * p], r_a[two * p + one], r_b[two * p], r_b[two * p + one])
        velocities = friction_point(cs, p, anchors, (m_a, i_a, m_b, i_b), velocities, tx, ty,
                                    friction)
        j += one
    return velocities


@inline_kernel
def normal_point(cs, q, p, anchors, masses, velocities, nx, ny, turns, settings):
    """The normal row of point ``p`` of constraint ``q`` of ``cs`` (``anchors``, ``masses``,
    ``velocities`` as :func:`friction_point`'s; ``turns``: ``(ca, sa, cb, sb, ddx, ddy)``, the
    bodies' in-step rotations and B's in-step displacement less A's; ``settings``: ``(inv_h,
    use_bias, soft, baumgarte, linear_slop, contact_speed, last_sweep, speed_cap)``, as
    :func:`solve_contacts` takes them), applied to the pair's velocities; returns them. The
    ``last_sweep`` adds the point's impulses to the step totals (its friction row is solved by
    then)."""
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    normal_impulse = flat(cs.normal_impulse)
    max_normal_impulse = flat(cs.max_normal_impulse)
    rax, ray, rbx, rby = anchors
    vax, vay, wa, vbx, vby, wb = velocities
    ca, sa, cb, sb, ddx, ddy = turns
    inv_h, use_bias, soft, baumgarte, linear_slop, contact_speed, last_sweep, speed_cap = settings
    # the fixed anchors rotated by the bodies' in-step rotation, for the current gap
    gx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
    gy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
    s = flat(cs.base_separation)[p] + gx * nx + gy * ny

    mass_scale = 1.0
    impulse_scale = 0.0
    if s > 0.0:
        bias = s * inv_h
    elif not use_bias:
        bias = 0.0
    elif soft:
        softness = flat(cs.softness)
        bias = max(softness[three * q] * s, -contact_speed)
        mass_scale = softness[three * q + one]
        impulse_scale = softness[three * q + two]
    else:
        bias = max(baumgarte * inv_h * min(0.0, s + linear_slop), -contact_speed)

    dvx = vbx - wb * rby - vax + wa * ray
    dvy = vby + wb * rbx - vay - wa * rax
    vn = dvx * nx + dvy * ny
    old = normal_impulse[p]
    normal_mass = flat(cs.normal_mass)[p]
    impulse = -normal_mass * mass_scale * (vn + bias) - impulse_scale * old
    total = min(max(old + impulse, 0.0), normal_mass * speed_cap)
    # What world.constraint_rows() reports: the value before the clamp, and the bias of the
    # pass that holds the contact (the soft step's soft pass, not its relax).
    flat(cs.unclamped)[two * p] = old + impulse
    if use_bias or not soft:
        flat(cs.bias)[p] = bias
    normal_impulse[p] = total
    if total > max_normal_impulse[p]:
        max_normal_impulse[p] = total
    if last_sweep:
        flat(cs.total_normal_impulse)[p] += total
        flat(cs.total_tangent_impulse)[p] += flat(cs.tangent_impulse)[p]
    impulse = total - old
    px = impulse * nx
    py = impulse * ny
    return apply_impulse(anchors, masses, velocities, px, py)


@inline_kernel
def solve_contacts(cs, bodies, first, last, inv_h, use_bias, soft, baumgarte, linear_slop,
                   contact_speed, last_sweep, speed_cap):
    """One Gauss-Seidel sweep over the constraint rows ``first:last``: friction rows, then
    normal rows. (Compiled into :func:`.contact_rows.solve_rows`, which takes the world.)

    ``soft`` selects the soft-step bias (per-constraint softness) over Baumgarte's. With
    ``use_bias`` false this is the relax pass: rigid, and only speculative gaps are honoured.
    The ``last_sweep`` of a (sub)step adds its impulses to the step totals. A normal impulse
    stays within the speed budget ``speed_cap`` (m/s, :func:`~.solvers.impulse_caps`; friction
    follows it). Friction goes first so that
    non-penetration, the more important row, is solved last (Box2D v2.x). (Box2D v3.2 solves
    friction only in the relax pass, which is cheaper; measured here on the 5050-box pyramid it
    lets the boxes spread five times further sideways in 5 s, so both passes keep it.)

    A row's one or two points are written out (:func:`friction_point`, :func:`normal_point`),
    not looped over, their anchors read once for both rows: with a loop each for the friction,
    the normals and the totals, a one-point row took ~270 instructions a pass (BENCHMARKS.md,
    session 20, ``small45``).
    """
    v = flat(bodies.v)
    w = bodies.w
    dp = flat(bodies.dp)
    dq = flat(bodies.dq)
    inv_mass = flat(cs.inv_mass)
    normal = flat(cs.normal)
    r_a = flat(cs.r_a)
    r_b = flat(cs.r_b)
    settings = (inv_h, use_bias, soft, baumgarte, linear_slop, contact_speed, last_sweep,
                speed_cap)
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    four = np.uint64(4)
    q = np.uint64(first)
    n = np.uint64(last)
    while q < n:
        two_points = cs.count[q] > 1
        a = np.uint64(cs.body_a[q])
        b = np.uint64(cs.body_b[q])
        masses = (inv_mass[four * q], inv_mass[four * q + one], inv_mass[four * q + two],
                  inv_mass[four * q + three])
        velocities = load_flat_pair(v, w, a, b)
        nx = normal[two * q]
        ny = normal[two * q + one]
        friction = cs.friction[q]
        p = two * q  # the row's first point; its second, p + 1, read only where it has one
        first = (r_a[two * p], r_a[two * p + one], r_b[two * p], r_b[two * p + one])
        second = first
        if two_points:
            second = (r_a[two * p + two], r_a[two * p + three], r_b[two * p + two],
                      r_b[two * p + three])

        velocities = friction_point(cs, p, first, masses, velocities, ny, -nx, friction)
        if two_points:
            velocities = friction_point(cs, p + one, second, masses, velocities, ny, -nx,
                                        friction)
        turns = (dq[two * a], dq[two * a + one], dq[two * b], dq[two * b + one],
                 dp[two * b] - dp[two * a], dp[two * b + one] - dp[two * a + one])
        velocities = normal_point(cs, q, p, first, masses, velocities, nx, ny, turns, settings)
        if two_points:
            velocities = normal_point(cs, q, p + one, second, masses, velocities, nx, ny, turns,
                                      settings)
        store_flat_pair(v, w, a, b, velocities)
        q += one


@borrowing_kernel
def _acceleration(bodies, i, gx, gy):
    """Body ``i``'s acceleration from gravity and its applied force, m/s^2: what
    :func:`~.integrate.integrate_velocities` adds each (sub)step (damping left out); zero for a
    body that does not integrate (static, kinematic, asleep). (``i`` unsigned, ``force`` read
    flat, as the passes read the bodies: no wrap-around select, no run-time inner shape.)"""
    i = np.uint64(i)
    if bodies.type[i] != DYNAMIC or bodies.asleep[i]:
        return 0.0, 0.0
    force = flat(bodies.force)
    x = np.uint64(2) * i
    inv_m = bodies.inv_mass[i]
    scale = bodies.gravity_scale[i]
    return inv_m * force[x] + scale * gx, inv_m * force[x + np.uint64(1)] + scale * gy


@borrowing_kernel
def normal_acceleration(bodies, a, b, nx, ny, gx, gy):
    """The constant acceleration of body ``b`` relative to body ``a`` along the normal ``n``
    (m/s^2) from gravity ``gx, gy`` and the bodies' applied forces: negative when they pull
    the pair together."""
    acc_ax, acc_ay = _acceleration(bodies, a, gx, gy)
    acc_bx, acc_by = _acceleration(bodies, b, gx, gy)
    return (acc_bx - acc_ax) * nx + (acc_by - acc_ay) * ny


@borrowing_kernel
def bounce_speed(e, approach, accel, half_kick, s_start, s_now):
    """Normal speed (m/s, separating) that restitution gives a point: ``-e approach`` when no
    acceleration acts along the normal, else the speed that puts the point, from its current
    separation ``s_now``, on the path of a point leaving the surface with ``e`` times the speed
    it met it with.

    The integrator's positions lie on the parabola of the constant acceleration ``accel`` (m/s^2
    along the normal, B relative to A), whose velocity at a (sub)step's start differs from the
    stored one by half a (sub)step's kick: ``u = v + accel half_kick``, with ``half_kick = h/2``
    where the approach is measured before the velocities are integrated (the soft step) and
    ``-h/2`` where after (pgs). From the separation ``s_start`` at which the approach was
    measured, the point meets the surface (s = 0) with the speed ``sqrt(u^2 - 2 accel s_start)``
    (energy of the parabola); it should leave with ``e`` times that, and be at ``s_now`` with
    ``sqrt(e^2 (u^2 - 2 accel s_start) + 2 accel s_now)``; the stored velocity is that minus
    the half kick. So a bounce met a step late (the point already ``s_start`` into the surface)
    or an approach measured a step early loses no height: the apex is ``e^2`` times the drop.
    With ``-e approach`` instead (Box2D v3's rule), a ball dropped from 10 m onto the ground at
    dt = 1/60 s rose to 0.560 m for e = 0.5's second bounce (0.625 m exact) and ``pgs``'s
    e = 1 ball gained 2.4 % of its height a bounce."""
    if accel == 0.0:
        return -e * approach
    u = approach + accel * half_kick
    met = max(u * u - 2.0 * accel * s_start, 0.0)
    return math.sqrt(max(e * e * met + 2.0 * accel * s_now, 0.0)) - accel * half_kick


@inline_kernel
def push_point(bodies, a, b, nx, ny, rax, ray, rbx, rby, normal_mass, m_a, i_a, m_b, i_b,
               target, old, speed_cap):
    """Drive the normal speed of a point (B relative to A, m/s; anchors ``r_a``, ``r_b``, m) to
    ``target`` by one normal impulse, the accumulated impulse ``old`` (N s) clamped to
    ``[0, normal_mass speed_cap]`` as :func:`solve_contacts` clamps it; applies the change to
    the bodies' velocities and returns ``(total, unclamped)``: the new accumulated impulse, and
    before the clamp. (The pair's velocities read and written flat, ``a`` and ``b`` taken
    unsigned: :func:`.velocities.load_flat_pair`.)"""
    ua = np.uint64(a)
    ub = np.uint64(b)
    v = flat(bodies.v)
    velocities = load_flat_pair(v, bodies.w, ua, ub)
    vax, vay, wa, vbx, vby, wb = velocities
    dvx = vbx - wb * rby - vax + wa * ray
    dvy = vby + wb * rbx - vay - wa * rax
    vn = dvx * nx + dvy * ny
    impulse = -normal_mass * (vn - target)
    total = min(max(old + impulse, 0.0), normal_mass * speed_cap)
    unclamped = old + impulse
    impulse = total - old
    px = impulse * nx
    py = impulse * ny
    store_flat_pair(v, bodies.w, ua, ub, apply_impulse((rax, ray, rbx, rby),
                                                       (m_a, i_a, m_b, i_b), velocities, px,
                                                       py))
    return total, unclamped


@inline_kernel
def push_to_speed(cs, bodies, q, j, target, old, speed_cap):
    """:func:`push_point` on point ``j`` of constraint ``q`` at its step-start anchors; returns
    the new accumulated impulse: the acceleration level's bounce (:mod:`.direct_accel`), which
    keeps its impulses elsewhere (:func:`apply_restitution` makes the same push from the rows'
    flat columns). Compiled into its one caller, whose loop holds the stores: called, each
    call passed the constraint and body stores by value (~700 instructions of IR)."""
    total, unclamped = push_point(bodies, cs.body_a[q], cs.body_b[q], cs.normal[q, 0],
                                  cs.normal[q, 1], cs.r_a[q, j, 0], cs.r_a[q, j, 1],
                                  cs.r_b[q, j, 0], cs.r_b[q, j, 1], cs.normal_mass[q, j],
                                  cs.inv_mass[q, 0], cs.inv_mass[q, 1], cs.inv_mass[q, 2],
                                  cs.inv_mass[q, 3], target, old, speed_cap)
    cs.unclamped[q, j, 0] = unclamped  # the row as world.constraint_rows() reports it
    cs.bias[q, j] = -target
    return total


@inline_kernel
def restitution_gap(base, rax, ray, rbx, rby, nx, ny, ca, sa, cb, sb, ddx, ddy):
    """``(s_start, s_now)``: a point's separation (m) where its approach was measured (the
    step's start) and now, as :func:`solve_contacts` computes the current gap (``ca, sa, cb,
    sb``: the bodies' in-step rotations, ``ddx, ddy``: B's in-step displacement less A's)."""
    s_start = base + (rbx - rax) * nx + (rby - ray) * ny
    gapx = ddx + (cb * rbx - sb * rby) - (ca * rax - sa * ray)
    gapy = ddy + (sb * rbx + cb * rby) - (sa * rax + ca * ray)
    return s_start, base + gapx * nx + gapy * ny


@inline_kernel
def apply_restitution(cs, bodies, first, last, threshold, speed_cap, gx, gy, half_kick):
    """Bounce: drive the normal speed of each point of the rows ``first:last`` that approached
    faster than ``threshold``
    (the approach measured before solving) and pushed this step to :func:`bounce_speed`: ``e``
    times the speed with which the point met the surface, counted from where the approach was
    measured to where the point is now, under the bodies' constant acceleration (gravity
    ``gx, gy`` and applied forces). ``half_kick``: see :func:`bounce_speed` (``h/2`` for the
    soft step, ``-dt/2`` for the solvers that measure after integrating velocities).

    Run once per step after the velocity solve (Box2D v3). Only points that approached faster
    than ``threshold`` and actually pushed this step are affected, so resting contacts do not
    jitter and speculative points that never touched do not bounce. The impulse keeps to the
    speed budget of :func:`solve_contacts`. (Compiled into
    :func:`.contact_rows.restitution_rows`.)
    """
    dp = flat(bodies.dp)
    dq = flat(bodies.dq)
    inv_mass = flat(cs.inv_mass)
    normal = flat(cs.normal)
    r_a = flat(cs.r_a)
    r_b = flat(cs.r_b)
    base_separation = flat(cs.base_separation)
    normal_mass = flat(cs.normal_mass)
    relative_velocity = flat(cs.relative_velocity)
    normal_impulse = flat(cs.normal_impulse)
    max_normal_impulse = flat(cs.max_normal_impulse)
    total_normal_impulse = flat(cs.total_normal_impulse)
    bias_ = flat(cs.bias)
    unclamped = flat(cs.unclamped)
    one = np.uint64(1)
    two = np.uint64(2)
    four = np.uint64(4)
    q = np.uint64(first)
    n = np.uint64(last)
    while q < n:
        e = cs.restitution[q]
        if e == 0.0:
            q += one
            continue
        ua = np.uint64(cs.body_a[q])
        ub = np.uint64(cs.body_b[q])
        nx = normal[two * q]
        ny = normal[two * q + one]
        accel = normal_acceleration(bodies, ua, ub, nx, ny, gx, gy)
        # the current gap, as solve_contacts computes it
        ca = dq[two * ua]
        sa = dq[two * ua + one]
        cb = dq[two * ub]
        sb = dq[two * ub + one]
        ddx = dp[two * ub] - dp[two * ua]
        ddy = dp[two * ub + one] - dp[two * ua + one]
        j = np.uint64(0)
        count = np.uint64(cs.count[q])
        while j < count:
            p = two * q + j
            j += one
            approach = relative_velocity[p]
            if approach > -threshold or max_normal_impulse[p] == 0.0:
                continue
            rax = r_a[two * p]
            ray = r_a[two * p + one]
            rbx = r_b[two * p]
            rby = r_b[two * p + one]
            s_start, s_now = restitution_gap(base_separation[p], rax, ray, rbx, rby, nx, ny, ca,
                                             sa, cb, sb, ddx, ddy)
            target = bounce_speed(e, approach, accel, half_kick, s_start, s_now)
            old = normal_impulse[p]
            total, pushed = push_point(bodies, ua, ub, nx, ny, rax, ray, rbx, rby,
                                       normal_mass[p], inv_mass[four * q],
                                       inv_mass[four * q + one], inv_mass[four * q + two],
                                       inv_mass[four * q + np.uint64(3)], target, old,
                                       speed_cap)
            unclamped[two * p] = pushed  # the row as world.constraint_rows() reports it
            bias_[p] = -target
            normal_impulse[p] = total
            if total > max_normal_impulse[p]:
                max_normal_impulse[p] = total
            total_normal_impulse[p] += total - old
        q += one


@inline_kernel
def store_impulses(cs, contacts, first, last):
    """Write the accumulated impulses of the rows ``first:last`` back to their contacts: next
    step's warm start. (Compiled into :func:`.contact_rows.store_row_impulses`.)"""
    normal_impulse = flat(contacts.normal_impulse)
    tangent_impulse = flat(contacts.tangent_impulse)
    total_normal_impulse = flat(contacts.total_normal_impulse)
    total_tangent_impulse = flat(contacts.total_tangent_impulse)
    row_normal_impulse = flat(cs.normal_impulse)
    row_tangent_impulse = flat(cs.tangent_impulse)
    row_total_normal_impulse = flat(cs.total_normal_impulse)
    row_total_tangent_impulse = flat(cs.total_tangent_impulse)
    two = np.uint64(2)
    q = np.uint64(first)
    n = np.uint64(last)
    while q < n:
        k = np.uint64(cs.contact[q])
        for j in range(2):
            p = two * k + np.uint64(j)
            r = two * q + np.uint64(j)
            normal_impulse[p] = row_normal_impulse[r]
            tangent_impulse[p] = row_tangent_impulse[r]
            total_normal_impulse[p] = row_total_normal_impulse[r]
            total_tangent_impulse[p] = row_total_tangent_impulse[r]
        q += np.uint64(1)
