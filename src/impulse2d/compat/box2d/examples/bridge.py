from ..framework import Framework, main
from ._ground import flat_ground

PLANKS = 30
Y = 5.0   # m: the bridge's height


class Bridge(Framework):
    name = "Bridge"
    description = "30 planks hinged end to end between two posts, a load on them"

    def __init__(self):
        super().__init__()
        ground = flat_ground(self.world)
        self.planks = []
        previous = ground
        for i in range(PLANKS):
            plank = self.world.CreateDynamicBody(position=(-14.5 + i, Y))
            plank.CreatePolygonFixture(box=(0.5, 0.125), density=20.0, friction=0.2)
            self.world.CreateRevoluteJoint(bodyA=previous, bodyB=plank, anchor=(-15.0 + i, Y))
            self.planks.append(plank)
            previous = plank
        self.world.CreateRevoluteJoint(bodyA=previous, bodyB=ground, anchor=(-15.0 + PLANKS, Y))
        self.load = []
        for i in range(2):
            body = self.world.CreateDynamicBody(position=(-8.0 + 8.0 * i, 12.0))
            body.CreatePolygonFixture(vertices=[(-0.5, 0.0), (0.5, 0.0), (0.0, 1.5)],
                                      density=1.0)
            self.load.append(body)
        for i in range(3):
            body = self.world.CreateDynamicBody(position=(-6.0 + 6.0 * i, 10.0))
            body.CreateCircleFixture(radius=0.5, density=1.0)
            self.load.append(body)


if __name__ == "__main__":
    main(Bridge)
