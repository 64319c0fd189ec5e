"""Contacts as a game reads them: records, the touching test, per-body lists and a bulk form.

A contact exists for every pair of shapes whose fat boxes overlap; it has manifold points once
the shapes are within the speculative distance (``4 * LINEAR_SLOP``, 2 cm). Such a point lets
the solver stop an approach exactly at the surface, so a ball 1 cm above the ground already has
one; Box2D v3 calls every contact with a point "touching" (``manifold.pointCount > 0``), which
makes "grounded = any contact" wrong there too.

**Touching, here**: some point of the manifold overlaps at the start of the step
(``separation < 0``) *or* pushed during it (a normal impulse above 0). The second half matters
for the step in which a falling body lands: its points were still apart when the manifold was
computed, but the solver stopped it against the surface, so the shapes touch when the step
returns. A speculative point that never pushed does not make a contact touching.

Every reader here works on the contact store in a few vectorised NumPy passes; the records are
built from plain Python lists (``tolist``) with ``tuple.__new__`` mapped over them, in place of
each record's keyword constructor and a Python loop per contact.
"""

from __future__ import annotations

import weakref
from itertools import repeat
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .types import Vec2

if TYPE_CHECKING:
    from .body import Body
    from .shapes import Shape
    from .world import World


class ContactPoint(NamedTuple):
    point: Vec2             # world point, halfway between the two surfaces, m
    separation: float       # m, negative = overlap
    normal_impulse: float   # N s pushed along the normal over the last step (/ dt = force)
    tangent_impulse: float  # N s of friction over the last step
    id: int                 # feature id (stable while the same features touch)


class ContactInfo(NamedTuple):
    shape_a: Shape
    shape_b: Shape
    normal: Vec2            # unit, from shape_a to shape_b
    points: tuple[ContactPoint, ...]
    touching: bool = True   # False: speculative only (within the margin, never pushed)


class ContactData(NamedTuple):
    """The contact points of a world as arrays, one row per manifold point
    (:meth:`World.contact_data <impulse2d.World.contact_data>`). Body indices are positions
    in ``world.bodies`` (the rows of ``world.get_positions()``); shape indices are
    :attr:`Shape.index <impulse2d.Shape.index>` (``world.shape_from_index``)."""

    contact: np.ndarray          # (P,) int64: the point's contact, its index in get_contacts()
    shape_a: np.ndarray          # (P,) int64
    shape_b: np.ndarray          # (P,) int64
    body_a: np.ndarray           # (P,) int64
    body_b: np.ndarray           # (P,) int64
    normal: np.ndarray           # (P, 2) unit, from shape A to shape B
    point: np.ndarray            # (P, 2) world point, m
    separation: np.ndarray       # (P,) m, negative = overlap
    normal_impulse: np.ndarray   # (P,) N s over the last step
    tangent_impulse: np.ndarray  # (P,) N s over the last step
    touching: np.ndarray         # (P,) bool, the point's contact's flag


_new = tuple.__new__


def touching_mask(contacts, rows=None) -> np.ndarray:
    """Whether each contact of the store (or of its rows ``rows``) touches (the module doc)."""
    if rows is None:
        count, separation, pushed = (contacts.count, contacts.separation,
                                     contacts.total_normal_impulse)
    else:
        count, separation, pushed = (contacts.count[rows], contacts.separation[rows],
                                     contacts.total_normal_impulse[rows])
    # point 0 exists where count > 0, point 1 where count > 1 (elementwise: a reduction over
    # the points' axis costs more than the whole test on a few rows)
    first = (count > 0) & ((separation[:, 0] < 0.0) | (pushed[:, 0] > 0.0))
    return first | ((count > 1) & ((separation[:, 1] < 0.0) | (pushed[:, 1] > 0.0)))


def check_touching_only(value) -> bool:
    """``touching_only`` as a bool; anything but True or False is refused (a string such as
    ``"no"`` would read as true)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"touching_only must be True or False, got {value!r}")
    return bool(value)


def contact_rows(world: World, touching_only: bool = True) -> np.ndarray:
    """The rows of the contact store that :func:`get_contacts` lists, ascending."""
    c = world._contacts
    keep = c.count > 0
    if touching_only:
        keep &= touching_mask(c)
    return np.flatnonzero(keep)


def records(world: World, rows: np.ndarray) -> list[ContactInfo]:
    """The contacts of store rows ``rows`` (each with manifold points) as :class:`ContactInfo`
    records. Built column by column with ``map`` over C-level constructors rather than a
    Python loop per contact: a third of the time of the loop (measured, 1,262 contacts)."""
    c = world._contacts
    n = rows.shape[0]
    if n == 0:
        return []
    if n <= _FEW:
        return _few_records(world, c, rows.tolist())
    count = c.count[rows]
    # the points, flattened in contact order: (row, j) for j < count
    k = np.repeat(rows, count)
    second = np.zeros(k.shape[0], dtype=np.int64)
    second[np.cumsum(count)[count == 2] - 1] = 1
    points = list(map(_new, repeat(ContactPoint), zip(
        map(_new, repeat(Vec2), c.point[k, second].tolist()), c.separation[k, second].tolist(),
        c.total_normal_impulse[k, second].tolist(), c.total_tangent_impulse[k, second].tolist(),
        c.ids[k, second].tolist())))
    # group them by contact: slices at the running sums of the counts
    ends = np.cumsum(count).tolist()
    starts = [0, *ends[:-1]]
    grouped = list(map(tuple, map(points.__getitem__, map(slice, starts, ends))))
    handles = world._shape_handles.__getitem__
    return list(map(_new, repeat(ContactInfo), zip(
        map(handles, c.shape_a[rows].tolist()), map(handles, c.shape_b[rows].tolist()),
        map(_new, repeat(Vec2), c.normal[rows].tolist()), grouped,
        touching_mask(c, rows).tolist())))


_FEW = 8
"""Below this many contacts (a body's, the pre-solve hook's one) a loop over the rows, a few
``tolist`` per contact, costs less than the column passes' fixed NumPy calls."""


def _few_records(world: World, c, rows: list) -> list[ContactInfo]:
    handles = world._shape_handles
    out = []
    for k in rows:
        n = int(c.count[k])
        p = c.point[k].tolist()
        s = c.separation[k].tolist()
        ni = c.total_normal_impulse[k].tolist()
        ti = c.total_tangent_impulse[k].tolist()
        fid = c.ids[k].tolist()
        points = tuple(_new(ContactPoint, (_new(Vec2, p[j]), s[j], ni[j], ti[j], fid[j]))
                       for j in range(n))
        touching = any(s[j] < 0.0 or ni[j] > 0.0 for j in range(n))
        out.append(_new(ContactInfo, (handles[int(c.shape_a[k])], handles[int(c.shape_b[k])],
                                      _new(Vec2, c.normal[k].tolist()), points, touching)))
    return out


def get_contacts(world: World, touching_only: bool = True) -> list[ContactInfo]:
    """The contacts with manifold points as of the last step, in the store's order (by shape
    pair); only the touching ones unless ``touching_only`` is False (then the speculative
    ones too, ``touching`` False)."""
    return records(world, contact_rows(world, touching_only))


_BY_BODY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
"""Per world: its touching contacts grouped by body, for :func:`body_contacts`, with the
contact store and step they were grouped for (a step or a destroyed shape makes them stale)."""


def _touching_by_body(world: World):
    """``(starts, rows)``: the touching contacts' store rows of body row ``b`` are
    ``rows[starts[b]:starts[b + 1]]``, ascending; made once per step, on the first ask."""
    c = world._contacts
    key = (c, c.count.shape[0], world.step_count)
    cached = _BY_BODY.get(world)
    if cached is not None and cached[0][0] is key[0] and cached[0][1:] == key[1:]:
        return cached[1]
    touching = contact_rows(world, touching_only=True)
    # each contact once under each of its two bodies, sorted by body then row
    body = np.concatenate((c.body_a[touching], c.body_b[touching]))
    row = np.concatenate((touching, touching))
    order = np.lexsort((row, body))
    starts = np.searchsorted(body[order], np.arange(world._bodies.type.shape[0] + 1))
    grouped = (starts, row[order])
    _BY_BODY[world] = (key, grouped)
    return grouped


def body_contacts(body: Body) -> list[ContactInfo]:
    """``body``'s touching contacts (Box2D's ``b2Body_GetContactData``), in the order of
    :func:`get_contacts`: after the first ask of a step (one grouping of the step's touching
    contacts by body, a few NumPy passes), each body costs only its own records."""
    world = body._world
    b = body._row()
    starts, rows = _touching_by_body(world)
    return records(world, rows[starts[b]:starts[b + 1]])


def contact_data(world: World, touching_only: bool = True) -> ContactData:
    """Every manifold point of :func:`get_contacts` (same ``touching_only``) as NumPy arrays:
    one vectorised pass, no Python object per contact."""
    c = world._contacts
    touching = touching_mask(c)
    keep = c.count > 0
    if touching_only:
        keep &= touching
    rows = np.flatnonzero(keep)
    count = c.count[rows]
    # the points (row, j) of the kept contacts, in contact order then point order
    second = count == 2
    contact = np.repeat(np.arange(rows.shape[0], dtype=np.int64), count)
    slot = np.zeros(contact.shape[0], dtype=np.int64)
    ends = np.cumsum(count)
    slot[ends[second] - 1] = 1
    k = rows[contact]
    order = world._rows()  # body rows in world.bodies order
    return ContactData(
        contact=contact,
        shape_a=c.shape_a[k],
        shape_b=c.shape_b[k],
        body_a=np.searchsorted(order, c.body_a[k]),
        body_b=np.searchsorted(order, c.body_b[k]),
        normal=c.normal[k],
        point=c.point[k, slot],
        separation=c.separation[k, slot],
        normal_impulse=c.total_normal_impulse[k, slot],
        tangent_impulse=c.total_tangent_impulse[k, slot],
        touching=touching[k],
    )


__all__ = ["ContactPoint", "ContactInfo", "ContactData", "check_touching_only", "touching_mask",
           "contact_rows", "records", "get_contacts", "body_contacts", "contact_data"]
