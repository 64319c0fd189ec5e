from ..framework import Framework, main
from ._ground import flat_ground

LINKS = 30
Y = 25.0   # m: the hinge at the top


class Chain(Framework):
    name = "Chain"
    description = "30 links hinged to each other, the first to the ground: a swinging chain"

    def __init__(self):
        super().__init__()
        self.links = build(self.world)


def build(world, B=None):
    """The chain in ``world``; returns its links."""
    previous = flat_ground(world, B=B)
    links = []
    for i in range(LINKS):
        link = world.CreateDynamicBody(position=(0.5 + i, Y))
        link.CreatePolygonFixture(box=(0.6, 0.125), density=20.0, friction=0.2)
        world.CreateRevoluteJoint(bodyA=previous, bodyB=link, anchor=(float(i), Y))
        links.append(link)
        previous = link
    return links


if __name__ == "__main__":
    main(Chain)
