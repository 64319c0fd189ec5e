"""Box2D 2.3's graph edges: ``b2ContactEdge`` (``body.contacts``) and ``b2JointEdge``.

``body.contacts`` lists a ``b2ContactEdge`` (``contact``, ``other``: the other body) for each
contact of the body whose broadphase boxes overlap, touching or not (``contact.touching``), as
Box2D's contact list. ``body.joints`` here lists the joints themselves (pybox2d: joint edges);
``b2JointEdge(joint, other)`` exists for programs that make them.
"""

from __future__ import annotations


class b2ContactEdge:  # noqa: N801
    """``contact`` (a ``b2Contact``) and ``other`` (the other body). Box2D's ``prev``/``next``
    links are not kept (the list is a Python list)."""

    __slots__ = ("contact", "other")

    def __init__(self, contact=None, other=None):
        self.contact = contact
        self.other = other

    def __repr__(self):
        return f"b2ContactEdge(contact={self.contact!r}, other={self.other!r})"


class b2JointEdge:  # noqa: N801
    """``joint`` and ``other`` (the other body)."""

    __slots__ = ("joint", "other")

    def __init__(self, joint=None, other=None):
        self.joint = joint
        self.other = other

    def __repr__(self):
        return f"b2JointEdge(joint={self.joint!r}, other={self.other!r})"


def contact_edges(body) -> list:
    """The body's contact edges now (the module docstring)."""
    from ._b2world import b2Contact
    world = body._b2world
    world._flush_queue()
    f = world._fixtures
    handle = body._handle
    out = []
    for c in world._world.get_contacts(touching_only=False):
        a, b = c.shape_a.body, c.shape_b.body
        if handle != a and handle != b:
            continue
        if c.shape_a._index not in f or c.shape_b._index not in f:
            continue   # a shape made on world.engine directly
        touching = bool(c.points) and min(p.separation for p in c.points) <= 0.0
        contact = b2Contact(f[c.shape_a._index], f[c.shape_b._index], touching, c.normal,
                            [p.point for p in c.points], [p.id for p in c.points])
        other = contact.fixtureB.body if handle == a else contact.fixtureA.body
        out.append(b2ContactEdge(contact, other))
    return out
