"""Engine-wide tolerances, in SI units (metres, kilograms, seconds, radians).

These are geometric constants of the collision and contact model, not tunables of a solver (those
live in :class:`impulse2d.WorldSettings`). Values follow Box2D v3, which chose them for objects of
roughly 0.1 m to 10 m. A world built in other units (pixels, centimetres) sets
``WorldSettings.length_units_per_meter`` rather than changing these: the step uses each length
below times that many units (:mod:`impulse2d._dynamics.lengths`); angles and fractions are
unchanged.
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

FAST_FRACTION = 0.5
"""A dynamic body whose motion in one step (its centre's travel plus its turn times its extent)
exceeds this fraction of its thinnest half-width is swept by continuous collision
(``WorldSettings.enable_continuous``; Box2D v3's safety factor, 0.5)."""

ANGULAR_SLOP = 2.0 / 180.0 * 3.141592653589793
"""rad. Joint angle error the position correction of ``pgs_ngs``/``pgs_block`` leaves alone,
and its tolerance for stopping early (Box2D v2.4 ``b2_angularSlop``: 2 degrees)."""

MAX_LINEAR_CORRECTION = 0.2
"""m. Largest position error one nonlinear Gauss-Seidel correction removes at once
(``pgs_ngs``/``pgs_block``): a deep overlap or a stretched joint is removed over several
iterations and steps instead of in one jump (Box2D v2.4 ``b2_maxLinearCorrection``)."""

MAX_ANGULAR_CORRECTION = 8.0 / 180.0 * 3.141592653589793
"""rad. :data:`MAX_LINEAR_CORRECTION` for angles (Box2D v2.4 ``b2_maxAngularCorrection``:
8 degrees)."""

POSITION_BAUMGARTE = 0.2
"""Fraction of a contact's overlap (beyond the slop) one position iteration of ``pgs_ngs``/
``pgs_block`` removes (Box2D v2.4 ``b2_baumgarte``, Solver2D's NGS: 0.2). Joints are corrected
in full, within the correction limits above, as in Box2D v2.4."""

SLEEP_THRESHOLD = 0.05
"""m/s: a body's default ``sleep_threshold``, the speed below which its sleep timer runs
(Box2D v3's ``b2BodyDef.sleepThreshold``: 0.05 m/s)."""

MAX_VELOCITY = 1.0e30
"""m/s for linear, rad/s for angular: the largest body velocity a setter, ``create_body`` or an
impulse may leave. Not a speed limit: the step clamps every body to ``max_linear_speed`` (at
most MAX_SPEED) and a quarter turn per step before it moves it, as it clamps what its solver
produces, so a tiny body hit hard simply leaves the step at the limit. The bound only keeps
finite what the step forms from a velocity before that clamp: its square (1e60), its products
with the largest mass and rotational inertia (1e60, 1e75) and a constraint row's effective
mass. Here, not in ``_validate``, because the batch step compiles it in
(``_dynamics/batch_step.write_world``): this file is part of the kernel cache's source stamp."""
