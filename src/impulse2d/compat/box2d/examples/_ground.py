"""Pieces several examples share."""

from __future__ import annotations

from .. import b2EdgeShape


def flat_ground(world, half_width=40.0):
    """A static edge along y = 0 from -half_width to half_width (Box2D's testbed ground)."""
    return world.CreateStaticBody(shapes=b2EdgeShape(vertices=[(-half_width, 0.0),
                                                               (half_width, 0.0)]))
