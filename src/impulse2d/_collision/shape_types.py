"""Integer shape type codes used by kernels (also the values of the public ``ShapeType``)."""

CIRCLE = 0
CAPSULE = 1
SEGMENT = 2
POLYGON = 3
