from ..framework import Framework, main
from ._ground import flat_ground

PLANKS = 30
Y = 5.0   # m: the bridge's height


class Bridge(Framework):
    name = "Bridge"
    description = "30 planks hinged end to end between two posts, a load on them"

    def __init__(self):
        super().__init__()
        self.planks, self.load = build(self.world)


def build(world, B=None):
    """The bridge and its load in ``world``: (planks, load)."""
    ground = flat_ground(world, B=B)
    planks = []
    previous = ground
    for i in range(PLANKS):
        plank = world.CreateDynamicBody(position=(-14.5 + i, Y))
        plank.CreatePolygonFixture(box=(0.5, 0.125), density=20.0, friction=0.2)
        world.CreateRevoluteJoint(bodyA=previous, bodyB=plank, anchor=(-15.0 + i, Y))
        planks.append(plank)
        previous = plank
    world.CreateRevoluteJoint(bodyA=previous, bodyB=ground, anchor=(-15.0 + PLANKS, Y))
    load = []
    for i in range(2):
        body = world.CreateDynamicBody(position=(-8.0 + 8.0 * i, 12.0))
        body.CreatePolygonFixture(vertices=[(-0.5, 0.0), (0.5, 0.0), (0.0, 1.5)], density=1.0)
        load.append(body)
    for i in range(3):
        body = world.CreateDynamicBody(position=(-6.0 + 6.0 * i, 10.0))
        body.CreateCircleFixture(radius=0.5, density=1.0)
        load.append(body)
    return planks, load


if __name__ == "__main__":
    main(Bridge)
