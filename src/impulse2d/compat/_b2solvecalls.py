"""pybox2d's contact filter (``b2ContactFilter``, ``world.contactFilter``) and the contact
listener's ``PostSolve(contact, impulse)`` with the step's impulses (``b2ContactImpulse``).

Contact filter. Box2D 2.3 asks ``contactFilter.ShouldCollide(fixtureA, fixtureB)`` when two
fixtures' broadphase boxes begin to overlap (after its own rules: not two non-dynamic bodies,
no joint without ``collideConnected``); False keeps the pair from colliding while the boxes
overlap. Here it is the engine's pair filter (``World.pair_filter``, :mod:`impulse2d.callbacks`),
asked at the same moment. One difference: Box2D's default filter (the category, mask and group
test) is what a program's filter replaces, and a program's ``ShouldCollide`` may let through
pairs the bits reject; here the engine applies the bits first, so the program's filter can only
reject more. The base class's ``ShouldCollide`` is Box2D's default test on the fixtures'
``filterData``. Sensor overlaps are asked too (the layer's sensor pairing).

PostSolve. Box2D 2.3 calls ``PostSolve(contact, impulse)`` from its island solver, after the
velocity and position iterations, for every touching, enabled contact of the islands it
solved (awake ones), with each manifold point's accumulated normal and tangent impulse of the
step (N s). Here it is called after the engine's step, after that step's ``BeginContact``
calls (the order Box2D calls them in: Begin before the solve), for every contact with manifold
points of which a dynamic body was solved in the step (awake before it, or awake after it:
woken by it), with the engine's impulses of the step (``total_normal_impulse``,
``total_tangent_impulse``). A contact PreSolve switched off has no manifold points and is not
reported, as in Box2D. With ``b2World.substeps > 1`` it is called once per ``Step`` with the
last engine step's impulses. The contacts are in the engine's order (shape pairs ascending).
A listener that does not override ``PostSolve`` costs nothing: the layer reads the impulses
only when it does.
"""

from __future__ import annotations

import numpy as np

from .._core.state import DYNAMIC


class b2ContactFilter:  # noqa: N801
    """Subclass and override ``ShouldCollide(fixtureA, fixtureB) -> bool``; set it as
    ``world.contactFilter``. The base's is Box2D 2.3's default test (equal non-zero groups:
    collide when positive; else each category in the other's mask)."""

    def __init__(self):
        pass

    def ShouldCollide(self, fixtureA, fixtureB):  # noqa: N802, N803
        fa, fb = fixtureA.filterData, fixtureB.filterData
        if fa.groupIndex == fb.groupIndex and fa.groupIndex != 0:
            return fa.groupIndex > 0
        return bool(fa.maskBits & fb.categoryBits) and bool(fa.categoryBits & fb.maskBits)


class b2ContactImpulse:  # noqa: N801
    """The impulses of one contact over the step: ``normalImpulses``, ``tangentImpulses``
    (N s, one per manifold point) and ``count`` (the manifold's point count)."""

    __slots__ = ("normalImpulses", "tangentImpulses", "count")

    def __init__(self, normalImpulses=(), tangentImpulses=()):  # noqa: N803
        self.normalImpulses = tuple(float(x) for x in normalImpulses)
        self.tangentImpulses = tuple(float(x) for x in tangentImpulses)
        self.count = len(self.normalImpulses)

    def __repr__(self):
        return (f"b2ContactImpulse(normalImpulses={self.normalImpulses}, "
                f"tangentImpulses={self.tangentImpulses})")


def check_filter(value):
    """``world.contactFilter``: None or an object with a callable ``ShouldCollide``."""
    if value is not None and not callable(getattr(value, "ShouldCollide", None)):
        raise TypeError("contactFilter must be None or have a ShouldCollide(fixtureA, fixtureB) "
                        f"method (a b2ContactFilter), got {type(value).__name__}")
    return value


def overrides_post_solve(listener, base) -> bool:
    """Whether ``listener``'s class has its own ``PostSolve`` (not ``base``'s do-nothing)."""
    return (listener is not None and hasattr(listener, "PostSolve")
            and getattr(type(listener), "PostSolve", None) is not base.PostSolve)


def awake_rows(b2world) -> np.ndarray:
    """The body store's awake flags now (kept before the step when PostSolve is on)."""
    return ~b2world._world._bodies.asleep


def post_solve(b2world, awake_before: np.ndarray, contact_class) -> None:
    """Call the listener's ``PostSolve`` for the contacts the step solved (module docstring)."""
    w = b2world._world
    c = w._contacts
    b = w._bodies
    rows = np.flatnonzero(c.count > 0)
    if rows.shape[0] == 0:
        return
    n = awake_before.shape[0]
    solved = ~b.asleep  # awake after the step: solved in it (woken, or never asleep)
    solved[:n] |= awake_before  # awake before it: solved, perhaps asleep since
    solved &= b.type == DYNAMIC
    ba, bb = c.body_a[rows], c.body_b[rows]
    rows = rows[solved[ba] | solved[bb]]
    listener = b2world._listener
    f = b2world._fixtures
    for k, shape_a, shape_b, count, normal, points, ni, ti in zip(
            rows.tolist(), c.shape_a[rows].tolist(), c.shape_b[rows].tolist(),
            c.count[rows].tolist(), c.normal[rows].tolist(), c.point[rows].tolist(),
            c.total_normal_impulse[rows].tolist(), c.total_tangent_impulse[rows].tolist()):
        fa, fb = f.get(shape_a), f.get(shape_b)
        if fa is None or fb is None:   # a shape made on world.engine directly: not reported
            continue
        contact = contact_class(fa, fb, True, normal, points[:count])
        listener.PostSolve(contact, b2ContactImpulse(ni[:count], ti[:count]))
