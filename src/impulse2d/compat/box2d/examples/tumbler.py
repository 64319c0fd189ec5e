import math

from ..framework import Framework, main

SPEED = 0.05 * math.pi   # rad/s: the drum's motor speed (Box2D's tumbler)
COUNT = 200              # small boxes dropped in, one a step


class Tumbler(Framework):
    name = "Tumbler"
    description = "A motor turns a closed box; small boxes fall in one a step and tumble"

    def __init__(self):
        super().__init__()
        ground = self.world.CreateBody()
        self.drum = self.world.CreateDynamicBody(position=(0.0, 10.0), allowSleep=False)
        for box in ((0.5, 10.0, (10.0, 0.0), 0.0), (0.5, 10.0, (-10.0, 0.0), 0.0),
                    (10.0, 0.5, (0.0, 10.0), 0.0), (10.0, 0.5, (0.0, -10.0), 0.0)):
            self.drum.CreatePolygonFixture(box=box, density=5.0)
        self.motor = self.world.CreateRevoluteJoint(
            bodyA=ground, bodyB=self.drum, localAnchorA=(0.0, 10.0), localAnchorB=(0.0, 0.0),
            referenceAngle=0.0, motorSpeed=SPEED, enableMotor=True, maxMotorTorque=1.0e8)
        self.boxes = []

    def Step(self, settings):
        if len(self.boxes) < COUNT and not settings.pause:
            body = self.world.CreateDynamicBody(position=(0.0, 10.0))
            body.CreatePolygonFixture(box=(0.125, 0.125), density=1.0)
            self.boxes.append(body)
        super().Step(settings)
        self.Print(f"boxes: {len(self.boxes)}")


if __name__ == "__main__":
    main(Tumbler)
