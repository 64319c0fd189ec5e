import math

from .. import b2EdgeShape, b2Filter
from ..framework import Framework, Keys, main

OFFSET = (0.0, 8.0)   # m: where the walker is built
PIVOT = (0.0, 0.8)    # m: the crank's centre, from OFFSET
SPEED = 2.0           # rad/s: the crank motor (A / S / D: left, off, right; M: motor on/off)
NO_SELF = b2Filter(groupIndex=-1)   # the walker's parts never collide with each other


def _at(p):
    return (p[0] + OFFSET[0], p[1] + OFFSET[1])


class TheoJansen(Framework):
    name = "Theo Jansen's walker"
    description = "Six legs of Jansen's linkage on a motor-driven crank (A, S, D, M)"

    def __init__(self):
        super().__init__()
        ground = self.world.CreateStaticBody()
        ground.CreateFixture(shape=b2EdgeShape(vertices=[(-50.0, 0.0), (50.0, 0.0)]))
        ground.CreateFixture(shape=b2EdgeShape(vertices=[(-50.0, 0.0), (-50.0, 10.0)]))
        ground.CreateFixture(shape=b2EdgeShape(vertices=[(50.0, 0.0), (50.0, 10.0)]))
        for i in range(40):   # pebbles to walk over
            pebble = self.world.CreateDynamicBody(position=(-40.0 + 2.0 * i, 0.5))
            pebble.CreateCircleFixture(radius=0.25, density=1.0)
        self.chassis = self.world.CreateDynamicBody(position=_at(PIVOT))
        self.chassis.CreatePolygonFixture(box=(2.5, 1.0), density=1.0).filterData = NO_SELF
        self.wheel = self.world.CreateDynamicBody(position=_at(PIVOT))
        self.wheel.CreateCircleFixture(radius=1.6, density=1.0).filterData = NO_SELF
        self.motor = self.world.CreateRevoluteJoint(
            bodyA=self.wheel, bodyB=self.chassis, anchor=_at(PIVOT), collideConnected=False,
            motorSpeed=SPEED, maxMotorTorque=400.0, enableMotor=True)
        crank = (PIVOT[0], PIVOT[1] - 0.8)   # where the legs take hold of the crank
        for turn in (0.0, 2.0 * math.pi / 3.0, 4.0 * math.pi / 3.0):
            # the crank turned by a third: the same world point is another point of it
            self.wheel.angle = turn
            self._leg(-1.0, crank)
            self._leg(1.0, crank)
        self.wheel.angle = 0.0

    def _leg(self, s, crank):
        p1, p2, p3 = (5.4 * s, -6.1), (7.2 * s, -1.2), (4.3 * s, -1.9)
        p4, p5, p6 = (3.1 * s, 0.8), (6.0 * s, 1.5), (2.5 * s, 3.7)
        foot = self.world.CreateDynamicBody(position=OFFSET, angularDamping=10.0)
        foot.CreatePolygonFixture(vertices=[p1, p2, p3], density=1.0).filterData = NO_SELF
        knee = self.world.CreateDynamicBody(position=_at(p4), angularDamping=10.0)
        knee.CreatePolygonFixture(vertices=[(0.0, 0.0), (p5[0] - p4[0], p5[1] - p4[1]),
                                            (p6[0] - p4[0], p6[1] - p4[1])],
                                  density=1.0).filterData = NO_SELF
        spring = dict(frequencyHz=10.0, dampingRatio=0.5)
        make = self.world.CreateDistanceJoint
        make(bodyA=foot, bodyB=knee, anchorA=_at(p2), anchorB=_at(p5), **spring)
        make(bodyA=foot, bodyB=knee, anchorA=_at(p3), anchorB=_at(p4), **spring)
        make(bodyA=foot, bodyB=self.wheel, anchorA=_at(p3), anchorB=_at(crank), **spring)
        make(bodyA=knee, bodyB=self.wheel, anchorA=_at(p6), anchorB=_at(crank), **spring)
        self.world.CreateRevoluteJoint(bodyA=knee, bodyB=self.chassis, anchor=_at(p4))

    def Keyboard(self, key):
        if key == Keys.K_a:
            self.motor.motorSpeed = -SPEED
        elif key == Keys.K_s:
            self.motor.motorSpeed = 0.0
        elif key == Keys.K_d:
            self.motor.motorSpeed = SPEED
        elif key == Keys.K_m:
            self.motor.motorEnabled = not self.motor.motorEnabled

    def Step(self, settings):
        super().Step(settings)
        self.Print(f"chassis at x = {self.chassis.position[0]:.1f} m (A, S, D, M)")


if __name__ == "__main__":
    main(TheoJansen)
