from .. import b2EdgeShape
from ..framework import Framework, main

ROWS, COLUMNS = 10, 12
RADIUS = 0.5
BOX = (-10.0, 0.0, 10.0, 20.0)   # m: the walls' x0, y0, x1, y1


class Confined(Framework):
    name = "Confined"
    description = "120 balls in a closed box without gravity, restitution 0.5"

    def __init__(self):
        super().__init__()
        self.world.gravity = (0.0, 0.0)
        x0, y0, x1, y1 = BOX
        walls = self.world.CreateStaticBody()
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        for k in range(4):
            walls.CreateFixture(shape=b2EdgeShape(vertices=[corners[k], corners[(k + 1) % 4]]))
        self.balls = []
        for j in range(COLUMNS):
            for i in range(ROWS):
                ball = self.world.CreateDynamicBody(
                    position=(-8.25 + 1.5 * j + 0.1 * (i % 2), 1.5 + 1.8 * i),
                    linearVelocity=((3.0 if (i + j) % 2 else -3.0), (2.0 if i % 3 else -2.0)))
                ball.CreateCircleFixture(radius=RADIUS, density=1.0, friction=0.1,
                                         restitution=0.5)
                self.balls.append(ball)


if __name__ == "__main__":
    main(Confined)
