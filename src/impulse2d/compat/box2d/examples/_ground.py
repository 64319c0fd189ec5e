"""Pieces several examples share."""

from __future__ import annotations

from .. import b2EdgeShape


def flat_ground(world, half_width=40.0, B=None):
    """A static edge along y = 0 from -half_width to half_width (Box2D's testbed ground).
    ``B``: the module whose shapes to use (None: this layer; the benchmark passes the real
    pybox2d to build the same scene there)."""
    edge = b2EdgeShape if B is None else B.b2EdgeShape
    return world.CreateStaticBody(shapes=edge(vertices=[(-half_width, 0.0),
                                                        (half_width, 0.0)]))
