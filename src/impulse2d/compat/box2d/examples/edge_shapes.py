import math

from .. import b2EdgeShape
from ..framework import Framework, main


def terrain(x):
    """The ground's height at x, m: a sine of 2 m amplitude and 20 m wavelength."""
    return 2.0 * math.cos(2.0 * math.pi * x / 20.0)


class EdgeShapes(Framework):
    name = "Edge shapes"
    description = "A hilly ground of 80 edges; boxes, triangles and balls dropped on it"

    def __init__(self):
        super().__init__()
        ground = self.world.CreateStaticBody()
        xs = [-20.0 + 0.5 * k for k in range(81)]
        for x0, x1 in zip(xs, xs[1:]):
            ground.CreateFixture(shape=b2EdgeShape(vertices=[(x0, terrain(x0)),
                                                             (x1, terrain(x1))]))
        self.drops = []
        for k in range(12):
            body = self.world.CreateDynamicBody(position=(-16.0 + 3.0 * k, 10.0 + (k % 3)))
            if k % 3 == 0:
                body.CreatePolygonFixture(box=(0.5, 0.5), density=1.0, friction=0.6)
            elif k % 3 == 1:
                body.CreatePolygonFixture(vertices=[(-0.5, 0.0), (0.5, 0.0), (0.0, 1.0)],
                                          density=1.0, friction=0.6)
            else:
                body.CreateCircleFixture(radius=0.5, density=1.0, friction=0.6)
            self.drops.append(body)


if __name__ == "__main__":
    main(EdgeShapes)
