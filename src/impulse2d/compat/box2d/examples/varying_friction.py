from ..framework import Framework, main
from ._ground import flat_ground

FRICTIONS = (0.75, 0.5, 0.35, 0.1, 0.0)


class VaryingFriction(Framework):
    name = "Varying friction"
    description = "Five boxes slide down the same ramp; the less friction, the farther they go"

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        ramp = self.world.CreateStaticBody(position=(-4.0, 22.0), angle=-0.25)
        ramp.CreatePolygonFixture(box=(13.0, 0.25))
        self.boxes = []
        for k, friction in enumerate(FRICTIONS):
            body = self.world.CreateDynamicBody(position=(-15.0 + 3.0 * k, 26.0 - 0.77 * 3 * k),
                                                angle=-0.25)
            body.CreatePolygonFixture(box=(0.5, 0.5), density=25.0, friction=friction)
            self.boxes.append(body)


if __name__ == "__main__":
    main(VaryingFriction)
