import math

from .. import b2EdgeShape
from ..framework import Framework, Keys, main

THRUST = 200.0   # N
TURN = 50.0      # N m


class ApplyForce(Framework):
    name = "Apply force"
    description = ("Seen from above: W thrusts the ship, A/D turn it; friction joints slow "
                   "it and ten boxes on the floor")

    def __init__(self):
        super().__init__()
        self.world.gravity = (0.0, 0.0)
        ground = self.world.CreateStaticBody(position=(0.0, 20.0))
        corners = ((-20.0, -20.0), (20.0, -20.0), (20.0, 20.0), (-20.0, 20.0))
        for k in range(4):
            ground.CreateFixture(shape=b2EdgeShape(vertices=[corners[k], corners[(k + 1) % 4]]),
                                 restitution=0.4)
        self.ship = self.world.CreateDynamicBody(position=(0.0, 2.0), angle=math.pi,
                                                 angularDamping=5.0, linearDamping=0.1,
                                                 allowSleep=False)
        self.ship.CreatePolygonFixture(vertices=[(-1.0, 0.0), (1.0, 0.0), (0.0, 0.5)],
                                       density=4.0)
        self.ship.CreatePolygonFixture(vertices=[(-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)],
                                       density=2.0)
        self.boxes = []
        for k in range(10):
            box = self.world.CreateDynamicBody(position=(10.0, 5.0 + 1.54 * k))
            box.CreatePolygonFixture(box=(0.5, 0.5), density=1.0, friction=0.3)
            # floor friction seen from above: a friction joint to the ground (mu m g, and
            # the torque of a 1 m disc)
            mass_g = box.mass * 10.0
            self.world.CreateFrictionJoint(bodyA=ground, bodyB=box,
                                           localAnchorA=(0.0, 0.0), localAnchorB=(0.0, 0.0),
                                           maxForce=mass_g, maxTorque=mass_g * 0.5)
            self.boxes.append(box)
        self.held = set()

    def Keyboard(self, key):
        self.held.add(key)

    def KeyboardUp(self, key):
        self.held.discard(key)

    def Step(self, settings):
        ship = self.ship
        if Keys.K_w in self.held:
            ship.ApplyForce(ship.GetWorldVector((0.0, -THRUST)),
                            ship.GetWorldPoint((0.0, 2.0)), True)
        if Keys.K_a in self.held:
            ship.ApplyTorque(TURN, True)
        if Keys.K_d in self.held:
            ship.ApplyTorque(-TURN, True)
        super().Step(settings)
        self.Print("W: thrust, A / D: turn (hold)")


if __name__ == "__main__":
    main(ApplyForce)
