from ..framework import Framework, main
from ._ground import flat_ground

RESTITUTIONS = (0.0, 0.1, 0.3, 0.5, 0.75, 0.9, 1.0)
DROP = 20.0   # m: the balls' start height


class VaryingRestitution(Framework):
    name = "Varying restitution"
    description = "Seven balls dropped together, restitution 0 to 1: the bounces differ"

    def __init__(self):
        super().__init__()
        flat_ground(self.world)
        self.balls = []
        for k, e in enumerate(RESTITUTIONS):
            ball = self.world.CreateDynamicBody(position=(-10.0 + 3.0 * k, DROP))
            ball.CreateCircleFixture(radius=1.0, density=1.0, restitution=e)
            self.balls.append(ball)


if __name__ == "__main__":
    main(VaryingRestitution)
