"""impulse2d: a 2D rigid-body physics engine with an open impulse-based constraint solver."""

__version__ = "0.1.0"
