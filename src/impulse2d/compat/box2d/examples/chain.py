from ..framework import Framework, main
from ._ground import flat_ground

LINKS = 30
Y = 25.0   # m: the hinge at the top


class Chain(Framework):
    name = "Chain"
    description = "30 links hinged to each other, the first to the ground: a swinging chain"

    def __init__(self):
        super().__init__()
        ground = flat_ground(self.world)
        self.links = []
        previous = ground
        for i in range(LINKS):
            link = self.world.CreateDynamicBody(position=(0.5 + i, Y))
            link.CreatePolygonFixture(box=(0.6, 0.125), density=20.0, friction=0.2)
            self.world.CreateRevoluteJoint(bodyA=previous, bodyB=link, anchor=(float(i), Y))
            self.links.append(link)
            previous = link


if __name__ == "__main__":
    main(Chain)
