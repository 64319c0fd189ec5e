from ..framework import Framework, main
from ._ground import flat_ground

R1, R2 = 1.0, 2.0   # m: the two wheels


class Gears(Framework):
    name = "Gears"
    description = "A falling rack turns a big wheel that turns a small one (two gear joints)"

    def __init__(self):
        super().__init__()
        ground = flat_ground(self.world)
        self.small = self.world.CreateDynamicBody(position=(10.0, 9.0))
        self.small.CreateCircleFixture(radius=R1, density=5.0)
        self.big = self.world.CreateDynamicBody(position=(10.0, 12.0))
        self.big.CreateCircleFixture(radius=R2, density=5.0)
        self.rack = self.world.CreateDynamicBody(position=(10.0 + R2, 12.0))
        self.rack.CreatePolygonFixture(box=(0.5, 5.0), density=5.0)
        self.hinge1 = self.world.CreateRevoluteJoint(bodyA=ground, bodyB=self.small,
                                                     anchor=(10.0, 9.0))
        self.hinge2 = self.world.CreateRevoluteJoint(bodyA=ground, bodyB=self.big,
                                                     anchor=(10.0, 12.0))
        self.slide = self.world.CreatePrismaticJoint(
            bodyA=ground, bodyB=self.rack, anchor=(10.0 + R2, 12.0), axis=(0.0, 1.0),
            lowerTranslation=-5.0, upperTranslation=5.0, enableLimit=True)
        self.gear1 = self.world.CreateGearJoint(bodyA=self.small, bodyB=self.big,
                                                joint1=self.hinge1, joint2=self.hinge2,
                                                ratio=R2 / R1)
        self.gear2 = self.world.CreateGearJoint(bodyA=self.big, bodyB=self.rack,
                                                joint1=self.hinge2, joint2=self.slide,
                                                ratio=-1.0 / R2)

    def Step(self, settings):
        super().Step(settings)
        self.Print(f"small {self.hinge1.angle:.3f} rad, big {self.hinge2.angle:.3f} rad, "
                   f"rack {self.slide.translation:.3f} m")


if __name__ == "__main__":
    main(Gears)
