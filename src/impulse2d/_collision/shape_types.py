"""Integer shape type codes used by kernels (also the values of the public ``ShapeType``)."""

CIRCLE = 0
CAPSULE = 1
SEGMENT = 2
POLYGON = 3
CHAIN_SEGMENT = 4  # a segment of a chain: one-sided, with ghost vertices (_collision.chain)
