from ..framework import Framework, main
from ._ground import flat_ground

COUNT = 8        # planks per beam
HALF = 0.5       # m: a plank's half-length


class Cantilever(Framework):
    name = "Cantilever"
    description = ("Two beams of 8 planks welded end to end, fixed at the left: rigid welds "
                   "(top) and soft ones, 5 Hz (bottom)")

    def __init__(self):
        super().__init__()
        ground = flat_ground(self.world)
        self.rigid = self._beam(ground, 15.0, 0.0)
        self.soft = self._beam(ground, 8.0, 5.0)

    def _beam(self, ground, y, hz):
        planks = []
        previous = ground
        for i in range(COUNT):
            plank = self.world.CreateDynamicBody(position=(-14.5 + 2.0 * HALF * i, y))
            plank.CreatePolygonFixture(box=(HALF, 0.125), density=20.0)
            self.world.CreateWeldJoint(bodyA=previous, bodyB=plank,
                                       anchor=(-15.0 + 2.0 * HALF * i, y),
                                       frequencyHz=hz, dampingRatio=0.7)
            planks.append(plank)
            previous = plank
        return planks


if __name__ == "__main__":
    main(Cantilever)
