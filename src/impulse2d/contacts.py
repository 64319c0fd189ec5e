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
built from plain Python lists (``tolist``), with ``tuple.__new__`` in place of each record's
keyword constructor (a Python frame per object, about a third of the cost, measured).
"""

from __future__ import annotations

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
    (:func:`contact_data`). Body indices are positions in ``world.bodies`` (the rows of
    ``world.get_positions()``); shape indices are :attr:`Shape.index`
    (``world.shape_from_index``)."""

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


def touching_mask(contacts) -> np.ndarray:
    """Per row of the contact store: whether the contact touches (see the module doc)."""
    valid = np.arange(2) < contacts.count[:, None]
    pressed = (contacts.separation < 0.0) | (contacts.total_normal_impulse > 0.0)
    return np.any(valid & pressed, axis=1)


def contact_rows(world: World, touching_only: bool = True) -> np.ndarray:
    """The rows of the contact store that :func:`get_contacts` lists, ascending."""
    c = world._contacts
    keep = c.count > 0
    if touching_only:
        keep &= touching_mask(c)
    return np.flatnonzero(keep)


def records(world: World, rows: np.ndarray) -> list[ContactInfo]:
    """The contacts of store rows ``rows`` as :class:`ContactInfo` records."""
    c = world._contacts
    if rows.shape[0] == 0:
        return []
    handles = world._shape_handles
    shape_a = c.shape_a[rows].tolist()
    shape_b = c.shape_b[rows].tolist()
    normal = c.normal[rows].tolist()
    count = c.count[rows].tolist()
    point = c.point[rows].tolist()
    separation = c.separation[rows].tolist()
    normal_impulse = c.total_normal_impulse[rows].tolist()
    tangent_impulse = c.total_tangent_impulse[rows].tolist()
    ids = c.ids[rows].tolist()
    touching = touching_mask(c)[rows].tolist()
    out = []
    for i, n in enumerate(count):
        p = point[i]
        s = separation[i]
        ni = normal_impulse[i]
        ti = tangent_impulse[i]
        fid = ids[i]
        if n == 2:
            points = (_new(ContactPoint, (_new(Vec2, p[0]), s[0], ni[0], ti[0], fid[0])),
                      _new(ContactPoint, (_new(Vec2, p[1]), s[1], ni[1], ti[1], fid[1])))
        elif n == 1:
            points = (_new(ContactPoint, (_new(Vec2, p[0]), s[0], ni[0], ti[0], fid[0])),)
        else:
            points = ()
        out.append(_new(ContactInfo, (handles[shape_a[i]], handles[shape_b[i]],
                                      _new(Vec2, normal[i]), points, touching[i])))
    return out


def get_contacts(world: World, touching_only: bool = True) -> list[ContactInfo]:
    """The contacts with manifold points as of the last step, in the store's order (by shape
    pair); only the touching ones unless ``touching_only`` is False (then the speculative
    ones too, ``touching`` False)."""
    return records(world, contact_rows(world, touching_only))


def body_contacts(body: Body) -> list[ContactInfo]:
    """``body``'s touching contacts (Box2D's ``b2Body_GetContactData``)."""
    world = body._world
    b = body._row()
    c = world._contacts
    keep = (c.count > 0) & ((c.body_a == b) | (c.body_b == b))
    rows = np.flatnonzero(keep)
    if rows.shape[0]:
        rows = rows[touching_mask(c)[rows]]
    return records(world, rows)


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


__all__ = ["ContactPoint", "ContactInfo", "ContactData", "touching_mask", "contact_rows",
           "records", "get_contacts", "body_contacts", "contact_data"]
