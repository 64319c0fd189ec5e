import math

from ..framework import Framework, main

SPEED = 0.05 * math.pi   # rad/s: the drum's motor speed (Box2D's tumbler)
COUNT = 200              # small boxes dropped in, one a step


class Tumbler(Framework):
    name = "Tumbler"
    description = "A motor turns a closed box; small boxes fall in one a step and tumble"

    def __init__(self):
        super().__init__()
        self.viewCenter = (0.0, 10.0)   # the whole drum in view while it turns
        self.drum, self.motor = build(self.world)
        self.boxes = []

    def Step(self, settings):
        if len(self.boxes) < COUNT and not settings.pause:
            self.boxes.append(add_box(self.world))
        super().Step(settings)
        self.Print(f"boxes: {len(self.boxes)}")


def build(world, B=None):
    """The drum on its motor in ``world``: (drum, motor joint)."""
    ground = world.CreateBody()
    drum = world.CreateDynamicBody(position=(0.0, 10.0), allowSleep=False)
    for box in ((0.5, 10.0, (10.0, 0.0), 0.0), (0.5, 10.0, (-10.0, 0.0), 0.0),
                (10.0, 0.5, (0.0, 10.0), 0.0), (10.0, 0.5, (0.0, -10.0), 0.0)):
        drum.CreatePolygonFixture(box=box, density=5.0)
    motor = world.CreateRevoluteJoint(
        bodyA=ground, bodyB=drum, localAnchorA=(0.0, 10.0), localAnchorB=(0.0, 0.0),
        referenceAngle=0.0, motorSpeed=SPEED, enableMotor=True, maxMotorTorque=1.0e8)
    return drum, motor


def add_box(world):
    """One small box dropped in at the drum's centre (one a step, up to COUNT)."""
    body = world.CreateDynamicBody(position=(0.0, 10.0))
    body.CreatePolygonFixture(box=(0.125, 0.125), density=1.0)
    return body


if __name__ == "__main__":
    main(Tumbler)
