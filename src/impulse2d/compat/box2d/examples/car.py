import math

from .. import b2EdgeShape
from ..framework import Framework, Keys, main

SPEED = 30.0     # rad/s: the rear wheel's motor
TORQUE = 20.0    # N m


class Car(Framework):
    name = "Car"
    description = "A car on wheel joints over hills (A: left, S: brake, D: right, Q/E: springs)"

    def __init__(self):
        super().__init__()
        ground = self.world.CreateStaticBody()
        x = -20.0
        ground.CreateFixture(shape=b2EdgeShape(vertices=[(x, 0.0), (20.0, 0.0)]),
                             friction=0.6)
        x, y = 20.0, 0.0
        for dy in (0.25, 1.0, 4.0, 0.0, 0.0, -1.0, -2.0, -2.0, -1.25, 0.0):   # hills
            ground.CreateFixture(shape=b2EdgeShape(vertices=[(x, y), (x + 5.0, dy)]),
                                 friction=0.6)
            x, y = x + 5.0, dy
        ground.CreateFixture(shape=b2EdgeShape(vertices=[(x, 0.0), (x + 40.0, 0.0)]),
                             friction=0.6)
        self.car = self.world.CreateDynamicBody(position=(0.0, 1.0))
        self.car.CreatePolygonFixture(vertices=[(-1.5, -0.5), (1.5, -0.5), (1.5, 0.0),
                                                (0.0, 0.9), (-1.15, 0.9), (-1.5, 0.2)],
                                      density=2.0)   # (1.0 stands it on its tail)
        self.wheels, self.springs = [], []
        self.hz = 4.0
        for wx, motor in ((-1.0, True), (1.0, False)):
            wheel = self.world.CreateDynamicBody(position=(wx, 0.35))
            wheel.CreateCircleFixture(radius=0.4, density=1.0, friction=0.9)
            spring = self.world.CreateWheelJoint(
                bodyA=self.car, bodyB=wheel, anchor=wheel.position, axis=(0.0, 1.0),
                motorSpeed=0.0, maxMotorTorque=TORQUE if motor else 10.0, enableMotor=motor,
                frequencyHz=self.hz, dampingRatio=0.7)
            self.wheels.append(wheel)
            self.springs.append(spring)

    def Keyboard(self, key):
        motor = self.springs[0]
        if key == Keys.K_a:
            motor.motorSpeed = SPEED
        elif key == Keys.K_s:
            motor.motorSpeed = 0.0
        elif key == Keys.K_d:
            motor.motorSpeed = -SPEED
        elif key in (Keys.K_q, Keys.K_e):
            self.hz = max(0.0, self.hz + (-1.0 if key == Keys.K_q else 1.0))
            for s in self.springs:
                s.springFrequencyHz = self.hz

    def Step(self, settings):
        self.viewCenter = (self.car.position[0], 20.0)
        super().Step(settings)
        self.Print(f"speed {self.car.linearVelocity[0]:.1f} m/s, tilt "
                   f"{math.degrees(self.car.angle):.0f} deg, springs {self.hz:.0f} Hz")


if __name__ == "__main__":
    main(Car)
