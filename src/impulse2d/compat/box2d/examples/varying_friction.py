import math

from ..framework import Framework, main
from ._ground import flat_ground

FRICTIONS = (0.75, 0.5, 0.35, 0.1, 0.0)
SLOPE = 0.25   # rad: the ramp falls this much to the right


class VaryingFriction(Framework):
    name = "Varying friction"
    description = "Five boxes slide down the same ramp; the less friction, the farther they go"

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        ramp = self.world.CreateStaticBody(position=(-4.0, 22.0), angle=-SLOPE)
        ramp.CreatePolygonFixture(box=(13.0, 0.25))
        self.boxes = []
        for k, friction in enumerate(FRICTIONS):
            # resting on the ramp: 3 m apart along it, 0.75 m out from its middle plane
            s = -11.0 + 3.0 * k
            x = -4.0 + s * math.cos(SLOPE) + 0.75 * math.sin(SLOPE)
            y = 22.0 - s * math.sin(SLOPE) + 0.75 * math.cos(SLOPE)
            body = self.world.CreateDynamicBody(position=(x, y), angle=-SLOPE)
            body.CreatePolygonFixture(box=(0.5, 0.5), density=25.0, friction=friction)
            self.boxes.append(body)


if __name__ == "__main__":
    main(VaryingFriction)
