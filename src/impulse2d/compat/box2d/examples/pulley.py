from ..framework import Framework, main
from ._ground import flat_ground

Y, L, A, B = 16.0, 12.0, 1.0, 2.0   # m: the boxes' start height, rope reach, box half-sizes
RATIO = 1.5


class Pulley(Framework):
    name = "Pulley"
    description = "Two boxes on a rope over two pulleys, ratio 1.5"

    def __init__(self):
        super().__init__()
        ground = flat_ground(self.world)
        top = Y + B + L
        ground.CreateCircleFixture(radius=2.0, pos=(-10.0, top))
        ground.CreateCircleFixture(radius=2.0, pos=(10.0, top))
        self.left = self.world.CreateDynamicBody(position=(-10.0, Y), fixedRotation=True)
        self.left.CreatePolygonFixture(box=(A, B), density=5.0)
        self.right = self.world.CreateDynamicBody(position=(10.0, Y), fixedRotation=True)
        self.right.CreatePolygonFixture(box=(A, B), density=5.0)
        self.groundAnchors = ((-10.0, top), (10.0, top))
        self.pulley = self.world.CreatePulleyJoint(
            bodyA=self.left, bodyB=self.right, groundAnchorA=self.groundAnchors[0],
            groundAnchorB=self.groundAnchors[1], anchorA=(-10.0, Y + B),
            anchorB=(10.0, Y + B), ratio=RATIO)

    def lengths(self):
        """The rope's two lengths now, m (each anchor to its pulley)."""
        ga, gb = self.groundAnchors
        a = self.left.GetWorldPoint((0.0, B))
        b = self.right.GetWorldPoint((0.0, B))
        return ((a[0] - ga[0]) ** 2 + (a[1] - ga[1]) ** 2) ** 0.5, \
            ((b[0] - gb[0]) ** 2 + (b[1] - gb[1]) ** 2) ** 0.5

    def Step(self, settings):
        super().Step(settings)
        la, lb = self.lengths()
        self.Print(f"lengthA + ratio lengthB = {la + RATIO * lb:.3f} m")


if __name__ == "__main__":
    main(Pulley)
