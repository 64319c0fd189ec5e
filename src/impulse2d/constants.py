"""Engine-wide tolerances, in SI units (metres, kilograms, seconds, radians).

These are geometric constants of the collision and contact model, not tunables of a solver (those
live in :class:`impulse2d.WorldSettings`). Values follow Box2D v3, which chose them for objects of
roughly 0.1 m to 10 m; a scene built in other units should be rescaled to metres rather than
these values changed.
"""

LINEAR_SLOP = 0.005
"""m. Allowed penetration that the position correction leaves alone; keeps contacts from
toggling between touching and not touching every step. Box2D: 0.005 m."""

SPECULATIVE_DISTANCE = 4.0 * LINEAR_SLOP
"""m. Contact points are created for shapes up to this far apart, so that a body approaching a
surface is stopped on the step it would arrive instead of one step late (speculative contacts,
Box2D v3: 4 x linear slop = 0.02 m)."""

AABB_MARGIN = 0.1
"""m. The broadphase keeps a fat bounding box this much larger than the shape on every side, so
that a body moving less than this does not trigger a new pair search. Box2D v3.0: 0.1 m."""

MAX_POLYGON_VERTICES = 8
"""Largest vertex count of a convex polygon (Box2D: 8)."""

HUGE = 1.0e5
"""m. Coordinates beyond this are rejected at the public boundary: float64 keeps sub-millimetre
precision far past it, but such values nearly always signal a unit or sign mistake."""

MAX_ROTATION = 0.25 * 3.141592653589793
"""rad. Largest rotation a body may make in one step; stops a spinning body from skipping
through its own collision response (Box2D v3: 0.25 pi)."""
