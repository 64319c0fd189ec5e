from ..framework import Framework, main
from ._ground import flat_ground

TOP = 10.0      # m: the platform's top
RADIUS = 0.5


class OneSidedPlatform(Framework):
    name = "One-sided platform"
    description = "A ball thrown up passes through the platform and lands on it (PreSolve)"

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        self.platform_body = self.world.CreateStaticBody(position=(0.0, TOP - 0.5))
        self.platform = self.platform_body.CreatePolygonFixture(box=(3.0, 0.5))
        self.ball = self.world.CreateDynamicBody(position=(0.0, 2.0), linearVelocity=(0.0, 16.0))
        self.character = self.ball.CreateCircleFixture(radius=RADIUS, density=20.0)

    def PreSolve(self, contact, oldManifold):
        a, b = contact.fixtureA, contact.fixtureB
        if self.platform not in (a, b) or self.character not in (a, b):
            return
        # Box2D's rule is "centre below the top plus the radius, less three slops": there the
        # time of impact stops a falling ball at the surface before PreSolve sees it. Here
        # the contact begins with the ball already up to a step's fall inside (the layer's
        # PreSolve worlds have no such stop: docs/compat-box2d.md), so it allows a quarter
        # metre of overlap (a fall of 15 m/s at 60 Hz) and passes what moves up.
        if self.ball.linearVelocity[1] > 0.0 or self.ball.position[1] < TOP + RADIUS - 0.25:
            contact.enabled = False


if __name__ == "__main__":
    main(OneSidedPlatform)
