from .. import b2_dynamicBody, b2_kinematicBody, b2_staticBody
from ..framework import Framework, Keys, main
from ._ground import flat_ground

SPEED = 3.0    # m/s: the platform's speed when kinematic
RANGE = 10.0   # m: it turns back at x = +-RANGE


class BodyTypes(Framework):
    name = "Body types"
    description = ("A platform on a slider and a hinge, a box on it: D dynamic, S static, "
                   "K kinematic (it drives to and fro)")

    def __init__(self):
        super().__init__()
        ground = flat_ground(self.world)
        self.attachment = self.world.CreateDynamicBody(position=(0.0, 3.0))
        self.attachment.CreatePolygonFixture(box=(0.5, 2.0), density=2.0)
        self.platform = self.world.CreateDynamicBody(position=(-4.0, 5.0))
        self.platform.CreatePolygonFixture(box=(0.5, 4.0, (4.0, 0.0), 0.5 * 3.14159265359),
                                           friction=0.6, density=2.0)
        self.world.CreateRevoluteJoint(bodyA=self.attachment, bodyB=self.platform,
                                       anchor=(0.0, 5.0), maxMotorTorque=50.0, enableMotor=True)
        self.world.CreatePrismaticJoint(bodyA=ground, bodyB=self.attachment, anchor=(0.0, 5.0),
                                        axis=(1.0, 0.0), maxMotorForce=1000.0, enableMotor=True,
                                        lowerTranslation=-RANGE, upperTranslation=RANGE,
                                        enableLimit=True)
        self.payload = self.world.CreateDynamicBody(position=(0.0, 8.0))
        self.payload.CreatePolygonFixture(box=(0.75, 0.75), friction=0.6, density=2.0)

    def Keyboard(self, key):
        if key == Keys.K_d:
            self.platform.type = b2_dynamicBody
        elif key == Keys.K_s:
            self.platform.type = b2_staticBody
        elif key == Keys.K_k:
            self.platform.type = b2_kinematicBody
            self.platform.linearVelocity = (-SPEED, 0.0)
            self.platform.angularVelocity = 0.0

    def Step(self, settings):
        if self.platform.type == b2_kinematicBody:   # turn back at the ends
            x, vx = self.platform.position[0], self.platform.linearVelocity[0]
            if (x < -RANGE and vx < 0.0) or (x > RANGE and vx > 0.0):
                self.platform.linearVelocity = (-vx, 0.0)
        super().Step(settings)
        kind = {0: "static", 1: "kinematic", 2: "dynamic"}[self.platform.type]
        self.Print(f"platform: {kind} (D, S, K)")


if __name__ == "__main__":
    main(BodyTypes)
